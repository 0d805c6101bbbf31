; ModuleID = 'callback.c'
source_filename = "callback.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.node = type { %struct.node*, i32 }

; Function Attrs: nounwind uwtable
define dso_local i32 @walk(%struct.node* noundef %0, i32 (i32)* noundef %1) #0 !dbg !9 {
  %3 = alloca %struct.node*, align 8
  %4 = alloca i32 (i32)*, align 8
  %5 = alloca i32, align 4
  store %struct.node* %0, %struct.node** %3, align 8, !tbaa !25
  call void @llvm.dbg.declare(metadata %struct.node** %3, metadata !22, metadata !DIExpression()), !dbg !29
  store i32 (i32)* %1, i32 (i32)** %4, align 8, !tbaa !25
  call void @llvm.dbg.declare(metadata i32 (i32)** %4, metadata !23, metadata !DIExpression()), !dbg !30
  %6 = bitcast i32* %5 to i8*, !dbg !31
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %6) #3, !dbg !31
  call void @llvm.dbg.declare(metadata i32* %5, metadata !24, metadata !DIExpression()), !dbg !32
  store i32 0, i32* %5, align 4, !dbg !32, !tbaa !33
  br label %7, !dbg !35

7:                                                ; preds = %18, %2
  %8 = load %struct.node*, %struct.node** %3, align 8, !dbg !36, !tbaa !25
  %9 = icmp ne %struct.node* %8, null, !dbg !39
  br i1 %9, label %10, label %22, !dbg !39

10:                                               ; preds = %7
  %11 = load i32 (i32)*, i32 (i32)** %4, align 8, !dbg !40, !tbaa !25
  %12 = load %struct.node*, %struct.node** %3, align 8, !dbg !41, !tbaa !25
  %13 = getelementptr inbounds %struct.node, %struct.node* %12, i32 0, i32 1, !dbg !42
  %14 = load i32, i32* %13, align 8, !dbg !42, !tbaa !43
  %15 = call i32 %11(i32 noundef %14), !dbg !40
  %16 = load i32, i32* %5, align 4, !dbg !45, !tbaa !33
  %17 = add nsw i32 %16, %15, !dbg !45
  store i32 %17, i32* %5, align 4, !dbg !45, !tbaa !33
  br label %18, !dbg !46

18:                                               ; preds = %10
  %19 = load %struct.node*, %struct.node** %3, align 8, !dbg !47, !tbaa !25
  %20 = getelementptr inbounds %struct.node, %struct.node* %19, i32 0, i32 0, !dbg !48
  %21 = load %struct.node*, %struct.node** %20, align 8, !dbg !48, !tbaa !49
  store %struct.node* %21, %struct.node** %3, align 8, !dbg !50, !tbaa !25
  br label %7, !dbg !51, !llvm.loop !52

22:                                               ; preds = %7
  %23 = load i32, i32* %5, align 4, !dbg !55, !tbaa !33
  %24 = bitcast i32* %5 to i8*, !dbg !56
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %24) #3, !dbg !56
  ret i32 %23, !dbg !57
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture) #2

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture) #2

; Function Attrs: nounwind uwtable
define dso_local i32 @walk_twice(%struct.node* noundef %0) #0 !dbg !58 {
  %2 = alloca %struct.node*, align 8
  store %struct.node* %0, %struct.node** %2, align 8, !tbaa !25
  call void @llvm.dbg.declare(metadata %struct.node** %2, metadata !62, metadata !DIExpression()), !dbg !63
  %3 = load %struct.node*, %struct.node** %2, align 8, !dbg !64, !tbaa !25
  %4 = call i32 @walk(%struct.node* noundef %3, i32 (i32)* noundef @twice), !dbg !65
  ret i32 %4, !dbg !66
}

; Function Attrs: nounwind uwtable
define internal i32 @twice(i32 noundef %0) #0 !dbg !67 {
  %2 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !33
  call void @llvm.dbg.declare(metadata i32* %2, metadata !69, metadata !DIExpression()), !dbg !70
  %3 = load i32, i32* %2, align 4, !dbg !71, !tbaa !33
  %4 = mul nsw i32 2, %3, !dbg !72
  ret i32 %4, !dbg !73
}

attributes #0 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { argmemonly nofree nosync nounwind willreturn }
attributes #3 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7}
!llvm.ident = !{!8}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "callback.c", directory: "/src", checksumkind: CSK_MD5, checksum: "c9df6f04ec45869bad10734d36dc9021")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 7, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 1}
!8 = !{!"Debian clang version 14.0.6"}
!9 = distinct !DISubprogram(name: "walk", scope: !1, file: !1, line: 4, type: !10, scopeLine: 5, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !21)
!10 = !DISubroutineType(types: !11)
!11 = !{!12, !13, !18}
!12 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!13 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !14, size: 64)
!14 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "node", file: !1, line: 2, size: 128, elements: !15)
!15 = !{!16, !17}
!16 = !DIDerivedType(tag: DW_TAG_member, name: "next", scope: !14, file: !1, line: 2, baseType: !13, size: 64)
!17 = !DIDerivedType(tag: DW_TAG_member, name: "v", scope: !14, file: !1, line: 2, baseType: !12, size: 32, offset: 64)
!18 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !19, size: 64)
!19 = !DISubroutineType(types: !20)
!20 = !{!12, !12}
!21 = !{!22, !23, !24}
!22 = !DILocalVariable(name: "n", arg: 1, scope: !9, file: !1, line: 4, type: !13)
!23 = !DILocalVariable(name: "f", arg: 2, scope: !9, file: !1, line: 4, type: !18)
!24 = !DILocalVariable(name: "s", scope: !9, file: !1, line: 6, type: !12)
!25 = !{!26, !26, i64 0}
!26 = !{!"any pointer", !27, i64 0}
!27 = !{!"omnipotent char", !28, i64 0}
!28 = !{!"Simple C/C++ TBAA"}
!29 = !DILocation(line: 4, column: 23, scope: !9)
!30 = !DILocation(line: 4, column: 32, scope: !9)
!31 = !DILocation(line: 6, column: 5, scope: !9)
!32 = !DILocation(line: 6, column: 9, scope: !9)
!33 = !{!34, !34, i64 0}
!34 = !{!"int", !27, i64 0}
!35 = !DILocation(line: 7, column: 5, scope: !9)
!36 = !DILocation(line: 7, column: 12, scope: !37)
!37 = distinct !DILexicalBlock(scope: !38, file: !1, line: 7, column: 5)
!38 = distinct !DILexicalBlock(scope: !9, file: !1, line: 7, column: 5)
!39 = !DILocation(line: 7, column: 5, scope: !38)
!40 = !DILocation(line: 8, column: 14, scope: !37)
!41 = !DILocation(line: 8, column: 16, scope: !37)
!42 = !DILocation(line: 8, column: 19, scope: !37)
!43 = !{!44, !34, i64 8}
!44 = !{!"node", !26, i64 0, !34, i64 8}
!45 = !DILocation(line: 8, column: 11, scope: !37)
!46 = !DILocation(line: 8, column: 9, scope: !37)
!47 = !DILocation(line: 7, column: 19, scope: !37)
!48 = !DILocation(line: 7, column: 22, scope: !37)
!49 = !{!44, !26, i64 0}
!50 = !DILocation(line: 7, column: 17, scope: !37)
!51 = !DILocation(line: 7, column: 5, scope: !37)
!52 = distinct !{!52, !39, !53, !54}
!53 = !DILocation(line: 8, column: 20, scope: !38)
!54 = !{!"llvm.loop.mustprogress"}
!55 = !DILocation(line: 9, column: 12, scope: !9)
!56 = !DILocation(line: 10, column: 1, scope: !9)
!57 = !DILocation(line: 9, column: 5, scope: !9)
!58 = distinct !DISubprogram(name: "walk_twice", scope: !1, file: !1, line: 13, type: !59, scopeLine: 13, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !61)
!59 = !DISubroutineType(types: !60)
!60 = !{!12, !13}
!61 = !{!62}
!62 = !DILocalVariable(name: "n", arg: 1, scope: !58, file: !1, line: 13, type: !13)
!63 = !DILocation(line: 13, column: 29, scope: !58)
!64 = !DILocation(line: 13, column: 46, scope: !58)
!65 = !DILocation(line: 13, column: 41, scope: !58)
!66 = !DILocation(line: 13, column: 34, scope: !58)
!67 = distinct !DISubprogram(name: "twice", scope: !1, file: !1, line: 12, type: !19, scopeLine: 12, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !68)
!68 = !{!69}
!69 = !DILocalVariable(name: "x", arg: 1, scope: !67, file: !1, line: 12, type: !12)
!70 = !DILocation(line: 12, column: 22, scope: !67)
!71 = !DILocation(line: 12, column: 38, scope: !67)
!72 = !DILocation(line: 12, column: 36, scope: !67)
!73 = !DILocation(line: 12, column: 27, scope: !67)
; fuzz_ccbursty rewrites this at placement EN+LN with LP_CC_PIC (the size % 10 is 9)......
