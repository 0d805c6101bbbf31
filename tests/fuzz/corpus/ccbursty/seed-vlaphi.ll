; ModuleID = 'vlaphi.c'
source_filename = "vlaphi.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nounwind uwtable
define dso_local i32 @both(i32 noundef %0, i32 noundef %1, i32 noundef %2) #0 !dbg !9 {
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i8*, align 8
  %8 = alloca i64, align 8
  store i32 %0, i32* %4, align 4, !tbaa !23
  call void @llvm.dbg.declare(metadata i32* %4, metadata !14, metadata !DIExpression()), !dbg !27
  store i32 %1, i32* %5, align 4, !tbaa !23
  call void @llvm.dbg.declare(metadata i32* %5, metadata !15, metadata !DIExpression()), !dbg !28
  store i32 %2, i32* %6, align 4, !tbaa !23
  call void @llvm.dbg.declare(metadata i32* %6, metadata !16, metadata !DIExpression()), !dbg !29
  %9 = load i32, i32* %4, align 4, !dbg !30, !tbaa !23
  %10 = zext i32 %9 to i64, !dbg !31
  %11 = call i8* @llvm.stacksave(), !dbg !31
  store i8* %11, i8** %7, align 8, !dbg !31
  %12 = alloca i32, i64 %10, align 16, !dbg !31
  store i64 %10, i64* %8, align 8, !dbg !31
  call void @llvm.dbg.declare(metadata i64* %8, metadata !17, metadata !DIExpression()), !dbg !32
  call void @llvm.dbg.declare(metadata i32* %12, metadata !19, metadata !DIExpression()), !dbg !33
  %13 = load i32, i32* %5, align 4, !dbg !34, !tbaa !23
  %14 = getelementptr inbounds i32, i32* %12, i64 0, !dbg !35
  store i32 %13, i32* %14, align 16, !dbg !36, !tbaa !23
  %15 = getelementptr inbounds i32, i32* %12, i64 0, !dbg !37
  %16 = load i32, i32* %15, align 16, !dbg !37, !tbaa !23
  %17 = icmp ne i32 %16, 0, !dbg !37
  br i1 %17, label %18, label %21, !dbg !38

18:                                               ; preds = %3
  %19 = load i32, i32* %6, align 4, !dbg !39, !tbaa !23
  %20 = icmp ne i32 %19, 0, !dbg !38
  br label %21

21:                                               ; preds = %18, %3
  %22 = phi i1 [ false, %3 ], [ %20, %18 ], !dbg !32
  %23 = zext i1 %22 to i32, !dbg !38
  %24 = load i8*, i8** %7, align 8, !dbg !40
  call void @llvm.stackrestore(i8* %24), !dbg !40
  ret i32 %23, !dbg !40
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: nofree nosync nounwind willreturn
declare i8* @llvm.stacksave() #2

; Function Attrs: nofree nosync nounwind willreturn
declare void @llvm.stackrestore(i8*) #2

attributes #0 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { nofree nosync nounwind willreturn }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7}
!llvm.ident = !{!8}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "vlaphi.c", directory: "/src", checksumkind: CSK_MD5, checksum: "5b962ff7145a3d6873cacd1b7628329f")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 7, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 1}
!8 = !{!"Debian clang version 14.0.6"}
!9 = distinct !DISubprogram(name: "both", scope: !1, file: !1, line: 2, type: !10, scopeLine: 3, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !13)
!10 = !DISubroutineType(types: !11)
!11 = !{!12, !12, !12, !12}
!12 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!13 = !{!14, !15, !16, !17, !19}
!14 = !DILocalVariable(name: "n", arg: 1, scope: !9, file: !1, line: 2, type: !12)
!15 = !DILocalVariable(name: "a", arg: 2, scope: !9, file: !1, line: 2, type: !12)
!16 = !DILocalVariable(name: "b", arg: 3, scope: !9, file: !1, line: 2, type: !12)
!17 = !DILocalVariable(name: "__vla_expr0", scope: !9, type: !18, flags: DIFlagArtificial)
!18 = !DIBasicType(name: "unsigned long", size: 64, encoding: DW_ATE_unsigned)
!19 = !DILocalVariable(name: "buf", scope: !9, file: !1, line: 4, type: !20)
!20 = !DICompositeType(tag: DW_TAG_array_type, baseType: !12, elements: !21)
!21 = !{!22}
!22 = !DISubrange(count: !17)
!23 = !{!24, !24, i64 0}
!24 = !{!"int", !25, i64 0}
!25 = !{!"omnipotent char", !26, i64 0}
!26 = !{!"Simple C/C++ TBAA"}
!27 = !DILocation(line: 2, column: 14, scope: !9)
!28 = !DILocation(line: 2, column: 21, scope: !9)
!29 = !DILocation(line: 2, column: 28, scope: !9)
!30 = !DILocation(line: 4, column: 13, scope: !9)
!31 = !DILocation(line: 4, column: 5, scope: !9)
!32 = !DILocation(line: 0, scope: !9)
!33 = !DILocation(line: 4, column: 9, scope: !9)
!34 = !DILocation(line: 5, column: 14, scope: !9)
!35 = !DILocation(line: 5, column: 5, scope: !9)
!36 = !DILocation(line: 5, column: 12, scope: !9)
!37 = !DILocation(line: 6, column: 12, scope: !9)
!38 = !DILocation(line: 6, column: 19, scope: !9)
!39 = !DILocation(line: 6, column: 22, scope: !9)
!40 = !DILocation(line: 7, column: 1, scope: !9)
; fuzz_ccbursty rewrites this at placement EL with LP_CC_PIC (the size % 10 is 7)...
