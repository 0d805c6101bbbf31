; ModuleID = 'ptrstr.c'
source_filename = "ptrstr.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@.str = private unnamed_addr constant [42 x i8] c"lp_phase_reconstruct(d, ptr, n, out) == 0\00", align 1

; Function Attrs: nounwind uwtable
define dso_local i32 @check(i32 (i8*)* noundef %0, i32 noundef %1) #0 !dbg !9 {
  %3 = alloca i32 (i8*)*, align 8
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  store i32 (i8*)* %0, i32 (i8*)** %3, align 8, !tbaa !25
  call void @llvm.dbg.declare(metadata i32 (i8*)** %3, metadata !20, metadata !DIExpression()), !dbg !29
  store i32 %1, i32* %4, align 4, !tbaa !30
  call void @llvm.dbg.declare(metadata i32* %4, metadata !21, metadata !DIExpression()), !dbg !32
  %7 = bitcast i32* %5 to i8*, !dbg !33
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %7) #3, !dbg !33
  call void @llvm.dbg.declare(metadata i32* %5, metadata !22, metadata !DIExpression()), !dbg !34
  store i32 0, i32* %5, align 4, !dbg !34, !tbaa !30
  %8 = bitcast i32* %6 to i8*, !dbg !35
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %8) #3, !dbg !35
  call void @llvm.dbg.declare(metadata i32* %6, metadata !23, metadata !DIExpression()), !dbg !36
  store i32 0, i32* %6, align 4, !dbg !36, !tbaa !30
  br label %9, !dbg !35

9:                                                ; preds = %20, %2
  %10 = load i32, i32* %6, align 4, !dbg !37, !tbaa !30
  %11 = load i32, i32* %4, align 4, !dbg !39, !tbaa !30
  %12 = icmp slt i32 %10, %11, !dbg !40
  br i1 %12, label %15, label %13, !dbg !41

13:                                               ; preds = %9
  %14 = bitcast i32* %6 to i8*, !dbg !42
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %14) #3, !dbg !42
  br label %23

15:                                               ; preds = %9
  %16 = load i32 (i8*)*, i32 (i8*)** %3, align 8, !dbg !43, !tbaa !25
  %17 = call i32 %16(i8* noundef getelementptr inbounds ([42 x i8], [42 x i8]* @.str, i64 0, i64 0)), !dbg !43
  %18 = load i32, i32* %5, align 4, !dbg !44, !tbaa !30
  %19 = add nsw i32 %18, %17, !dbg !44
  store i32 %19, i32* %5, align 4, !dbg !44, !tbaa !30
  br label %20, !dbg !45

20:                                               ; preds = %15
  %21 = load i32, i32* %6, align 4, !dbg !46, !tbaa !30
  %22 = add nsw i32 %21, 1, !dbg !46
  store i32 %22, i32* %6, align 4, !dbg !46, !tbaa !30
  br label %9, !dbg !42, !llvm.loop !47

23:                                               ; preds = %13
  %24 = load i32, i32* %5, align 4, !dbg !50, !tbaa !30
  %25 = bitcast i32* %5 to i8*, !dbg !51
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %25) #3, !dbg !51
  ret i32 %24, !dbg !52
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture) #2

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture) #2

attributes #0 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { argmemonly nofree nosync nounwind willreturn }
attributes #3 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7}
!llvm.ident = !{!8}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "ptrstr.c", directory: "/src", checksumkind: CSK_MD5, checksum: "c7aceb5a77d41f4728994be21fa97186")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 7, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 1}
!8 = !{!"Debian clang version 14.0.6"}
!9 = distinct !DISubprogram(name: "check", scope: !1, file: !1, line: 2, type: !10, scopeLine: 3, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !19)
!10 = !DISubroutineType(types: !11)
!11 = !{!12, !13, !12}
!12 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!13 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !14, size: 64)
!14 = !DISubroutineType(types: !15)
!15 = !{!12, !16}
!16 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !17, size: 64)
!17 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !18)
!18 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!19 = !{!20, !21, !22, !23}
!20 = !DILocalVariable(name: "f", arg: 1, scope: !9, file: !1, line: 2, type: !13)
!21 = !DILocalVariable(name: "n", arg: 2, scope: !9, file: !1, line: 2, type: !12)
!22 = !DILocalVariable(name: "bad", scope: !9, file: !1, line: 4, type: !12)
!23 = !DILocalVariable(name: "i", scope: !24, file: !1, line: 5, type: !12)
!24 = distinct !DILexicalBlock(scope: !9, file: !1, line: 5, column: 5)
!25 = !{!26, !26, i64 0}
!26 = !{!"any pointer", !27, i64 0}
!27 = !{!"omnipotent char", !28, i64 0}
!28 = !{!"Simple C/C++ TBAA"}
!29 = !DILocation(line: 2, column: 17, scope: !9)
!30 = !{!31, !31, i64 0}
!31 = !{!"int", !27, i64 0}
!32 = !DILocation(line: 2, column: 39, scope: !9)
!33 = !DILocation(line: 4, column: 5, scope: !9)
!34 = !DILocation(line: 4, column: 9, scope: !9)
!35 = !DILocation(line: 5, column: 10, scope: !24)
!36 = !DILocation(line: 5, column: 14, scope: !24)
!37 = !DILocation(line: 5, column: 21, scope: !38)
!38 = distinct !DILexicalBlock(scope: !24, file: !1, line: 5, column: 5)
!39 = !DILocation(line: 5, column: 25, scope: !38)
!40 = !DILocation(line: 5, column: 23, scope: !38)
!41 = !DILocation(line: 5, column: 5, scope: !24)
!42 = !DILocation(line: 5, column: 5, scope: !38)
!43 = !DILocation(line: 6, column: 16, scope: !38)
!44 = !DILocation(line: 6, column: 13, scope: !38)
!45 = !DILocation(line: 6, column: 9, scope: !38)
!46 = !DILocation(line: 5, column: 29, scope: !38)
!47 = distinct !{!47, !41, !48, !49}
!48 = !DILocation(line: 6, column: 61, scope: !24)
!49 = !{!"llvm.loop.mustprogress"}
!50 = !DILocation(line: 7, column: 12, scope: !9)
!51 = !DILocation(line: 8, column: 1, scope: !9)
!52 = !DILocation(line: 7, column: 5, scope: !9)
; fuzz_ccbursty rewrites this at placement EC+L4 without LP_CC_PIC (the size % 10 is 1)
