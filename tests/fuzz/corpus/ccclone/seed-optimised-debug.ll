; ModuleID = 'seed.c'
source_filename = "seed.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree nounwind uwtable
define dso_local i32 @run(i32* noundef %0, i32 noundef %1) local_unnamed_addr #0 !dbg !16 {
  call void @llvm.dbg.value(metadata i32* %0, metadata !21, metadata !DIExpression()), !dbg !26
  call void @llvm.dbg.value(metadata i32 %1, metadata !22, metadata !DIExpression()), !dbg !26
  call void @llvm.dbg.value(metadata i32 0, metadata !23, metadata !DIExpression()), !dbg !26
  call void @llvm.dbg.value(metadata i32 0, metadata !24, metadata !DIExpression()), !dbg !27
  %3 = icmp sgt i32 %1, 0, !dbg !28
  br i1 %3, label %4, label %79, !dbg !30

4:                                                ; preds = %2
  %5 = zext i32 %1 to i64, !dbg !28
  %6 = icmp ult i32 %1, 8, !dbg !30
  br i1 %6, label %76, label %7, !dbg !30

7:                                                ; preds = %4
  %8 = and i64 %5, 4294967288, !dbg !30
  %9 = add nsw i64 %8, -8, !dbg !30
  %10 = lshr exact i64 %9, 3, !dbg !30
  %11 = add nuw nsw i64 %10, 1, !dbg !30
  %12 = and i64 %11, 1, !dbg !30
  %13 = icmp eq i64 %9, 0, !dbg !30
  br i1 %13, label %52, label %14, !dbg !30

14:                                               ; preds = %7
  %15 = and i64 %11, 4611686018427387902, !dbg !30
  br label %16, !dbg !30

16:                                               ; preds = %16, %14
  %17 = phi i64 [ 0, %14 ], [ %46, %16 ], !dbg !31
  %18 = phi <4 x i32> [ zeroinitializer, %14 ], [ %44, %16 ]
  %19 = phi <4 x i32> [ zeroinitializer, %14 ], [ %45, %16 ]
  %20 = phi i64 [ 0, %14 ], [ %47, %16 ]
  %21 = getelementptr inbounds i32, i32* %0, i64 %17, !dbg !31
  %22 = bitcast i32* %21 to <4 x i32>*, !dbg !32
  %23 = load <4 x i32>, <4 x i32>* %22, align 4, !dbg !32, !tbaa !33
  %24 = getelementptr inbounds i32, i32* %21, i64 4, !dbg !32
  %25 = bitcast i32* %24 to <4 x i32>*, !dbg !32
  %26 = load <4 x i32>, <4 x i32>* %25, align 4, !dbg !32, !tbaa !33
  %27 = mul nsw <4 x i32> %23, %23, !dbg !37
  %28 = mul nsw <4 x i32> %26, %26, !dbg !37
  %29 = add <4 x i32> %18, <i32 1, i32 1, i32 1, i32 1>, !dbg !44
  %30 = add <4 x i32> %19, <i32 1, i32 1, i32 1, i32 1>, !dbg !44
  %31 = add <4 x i32> %29, %27, !dbg !45
  %32 = add <4 x i32> %30, %28, !dbg !45
  %33 = or i64 %17, 8, !dbg !31
  %34 = getelementptr inbounds i32, i32* %0, i64 %33, !dbg !31
  %35 = bitcast i32* %34 to <4 x i32>*, !dbg !32
  %36 = load <4 x i32>, <4 x i32>* %35, align 4, !dbg !32, !tbaa !33
  %37 = getelementptr inbounds i32, i32* %34, i64 4, !dbg !32
  %38 = bitcast i32* %37 to <4 x i32>*, !dbg !32
  %39 = load <4 x i32>, <4 x i32>* %38, align 4, !dbg !32, !tbaa !33
  %40 = mul nsw <4 x i32> %36, %36, !dbg !37
  %41 = mul nsw <4 x i32> %39, %39, !dbg !37
  %42 = add <4 x i32> %31, <i32 1, i32 1, i32 1, i32 1>, !dbg !44
  %43 = add <4 x i32> %32, <i32 1, i32 1, i32 1, i32 1>, !dbg !44
  %44 = add <4 x i32> %42, %40, !dbg !45
  %45 = add <4 x i32> %43, %41, !dbg !45
  %46 = add nuw i64 %17, 16, !dbg !31
  %47 = add i64 %20, 2, !dbg !31
  %48 = icmp eq i64 %47, %15, !dbg !31
  br i1 %48, label %49, label %16, !dbg !31, !llvm.loop !46

49:                                               ; preds = %16
  %50 = add <4 x i32> %44, <i32 1, i32 1, i32 1, i32 1>, !dbg !31
  %51 = add <4 x i32> %45, <i32 1, i32 1, i32 1, i32 1>, !dbg !31
  br label %52, !dbg !31

52:                                               ; preds = %49, %7
  %53 = phi <4 x i32> [ undef, %7 ], [ %44, %49 ]
  %54 = phi <4 x i32> [ undef, %7 ], [ %45, %49 ]
  %55 = phi i64 [ 0, %7 ], [ %46, %49 ]
  %56 = phi <4 x i32> [ <i32 1, i32 1, i32 1, i32 1>, %7 ], [ %50, %49 ]
  %57 = phi <4 x i32> [ <i32 1, i32 1, i32 1, i32 1>, %7 ], [ %51, %49 ]
  %58 = icmp eq i64 %12, 0, !dbg !31
  br i1 %58, label %70, label %59, !dbg !31

59:                                               ; preds = %52
  %60 = getelementptr inbounds i32, i32* %0, i64 %55, !dbg !31
  %61 = bitcast i32* %60 to <4 x i32>*, !dbg !32
  %62 = load <4 x i32>, <4 x i32>* %61, align 4, !dbg !32, !tbaa !33
  %63 = getelementptr inbounds i32, i32* %60, i64 4, !dbg !32
  %64 = bitcast i32* %63 to <4 x i32>*, !dbg !32
  %65 = load <4 x i32>, <4 x i32>* %64, align 4, !dbg !32, !tbaa !33
  %66 = mul nsw <4 x i32> %62, %62, !dbg !37
  %67 = mul nsw <4 x i32> %65, %65, !dbg !37
  %68 = add <4 x i32> %56, %66, !dbg !45
  %69 = add <4 x i32> %57, %67, !dbg !45
  br label %70, !dbg !30

70:                                               ; preds = %52, %59
  %71 = phi <4 x i32> [ %53, %52 ], [ %68, %59 ], !dbg !45
  %72 = phi <4 x i32> [ %54, %52 ], [ %69, %59 ], !dbg !45
  %73 = add <4 x i32> %72, %71, !dbg !30
  %74 = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %73), !dbg !30
  %75 = icmp eq i64 %8, %5, !dbg !30
  br i1 %75, label %79, label %76, !dbg !30

76:                                               ; preds = %4, %70
  %77 = phi i64 [ 0, %4 ], [ %8, %70 ]
  %78 = phi i32 [ 0, %4 ], [ %74, %70 ]
  br label %91, !dbg !30

79:                                               ; preds = %91, %70, %2
  %80 = phi i32 [ 0, %2 ], [ %74, %70 ], [ %98, %91 ], !dbg !26
  %81 = bitcast i32* %0 to i8*, !dbg !50
  %82 = sext i32 %1 to i64, !dbg !51
  tail call void @qsort(i8* noundef %81, i64 noundef %82, i64 noundef 4, i32 (i8*, i8*)* noundef nonnull @cmp) #5, !dbg !52
  br label %83, !dbg !53

83:                                               ; preds = %85, %79
  %84 = phi i32 [ %1, %79 ], [ %86, %85 ]
  call void @llvm.dbg.value(metadata i32 %84, metadata !60, metadata !DIExpression()), !dbg !62
  switch i32 %84, label %85 [
    i32 0, label %87
    i32 1, label %88
  ], !dbg !63

85:                                               ; preds = %83
  %86 = add nsw i32 %84, -2, !dbg !64
  br label %83, !dbg !53

87:                                               ; preds = %83
  br label %88, !dbg !65

88:                                               ; preds = %83, %87
  %89 = phi i32 [ 1, %87 ], [ 0, %83 ], !dbg !63
  %90 = add nuw nsw i32 %89, %80, !dbg !65
  ret i32 %90, !dbg !66

91:                                               ; preds = %76, %91
  %92 = phi i64 [ %99, %91 ], [ %77, %76 ]
  %93 = phi i32 [ %98, %91 ], [ %78, %76 ]
  call void @llvm.dbg.value(metadata i64 %92, metadata !24, metadata !DIExpression()), !dbg !27
  call void @llvm.dbg.value(metadata i32 %93, metadata !23, metadata !DIExpression()), !dbg !26
  %94 = getelementptr inbounds i32, i32* %0, i64 %92, !dbg !32
  %95 = load i32, i32* %94, align 4, !dbg !32, !tbaa !33
  call void @llvm.dbg.value(metadata i32 %95, metadata !42, metadata !DIExpression()), !dbg !67
  %96 = mul nsw i32 %95, %95, !dbg !37
  %97 = add i32 %93, 1, !dbg !44
  %98 = add i32 %97, %96, !dbg !45
  call void @llvm.dbg.value(metadata i32 %98, metadata !23, metadata !DIExpression()), !dbg !26
  %99 = add nuw nsw i64 %92, 1, !dbg !31
  call void @llvm.dbg.value(metadata i64 %99, metadata !24, metadata !DIExpression()), !dbg !27
  %100 = icmp eq i64 %99, %5, !dbg !28
  br i1 %100, label %79, label %91, !dbg !30, !llvm.loop !68

; uselistorder directives
  uselistorder i32* %0, { 3, 4, 1, 0, 2 }
  uselistorder i32 %1, { 3, 4, 0, 1, 2 }
  uselistorder i64 %5, { 2, 1, 0 }
  uselistorder i64 %8, { 1, 2, 0 }
  uselistorder i64 %17, { 1, 0, 2 }
  uselistorder i32* %21, { 1, 0 }
  uselistorder <4 x i32> %44, { 1, 0, 2 }
  uselistorder <4 x i32> %45, { 1, 0, 2 }
  uselistorder i64 %47, { 1, 0 }
  uselistorder label %70, { 1, 0 }
  uselistorder i32 %74, { 1, 0 }
  uselistorder label %76, { 1, 0 }
  uselistorder i32 %84, { 1, 0 }
  uselistorder label %88, { 1, 0 }
  uselistorder label %91, { 1, 0 }
  uselistorder i64 %92, { 1, 0 }
  uselistorder i64 %99, { 1, 0 }
}

; Function Attrs: nofree
declare !dbg !70 void @qsort(i8* noundef, i64 noundef, i64 noundef, i32 (i8*, i8*)* nocapture noundef) local_unnamed_addr #1

; Function Attrs: mustprogress nofree norecurse nosync nounwind readonly uwtable willreturn
define internal i32 @cmp(i8* nocapture noundef readonly %0, i8* nocapture noundef readonly %1) #2 !dbg !82 {
  call void @llvm.dbg.value(metadata i8* %0, metadata !84, metadata !DIExpression()), !dbg !86
  call void @llvm.dbg.value(metadata i8* %1, metadata !85, metadata !DIExpression()), !dbg !86
  %3 = bitcast i8* %0 to i32*, !dbg !87
  %4 = load i32, i32* %3, align 4, !dbg !88, !tbaa !33
  %5 = bitcast i8* %1 to i32*, !dbg !89
  %6 = load i32, i32* %5, align 4, !dbg !90, !tbaa !33
  %7 = sub nsw i32 %4, %6, !dbg !91
  ret i32 %7, !dbg !92
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.value(metadata, metadata, metadata) #3

; Function Attrs: nofree nosync nounwind readnone willreturn
declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>) #4

; uselistorder directives
uselistorder i32 0, { 0, 4, 2, 1, 3 }
uselistorder i64 1, { 2, 0, 1 }
uselistorder i64 0, { 4, 2, 3, 1, 5, 0 }
uselistorder i64 4, { 3, 1, 0, 2 }
uselistorder <4 x i32> <i32 1, i32 1, i32 1, i32 1>, { 1, 3, 0, 2, 4, 5, 6, 7 }
uselistorder i32 1, { 1, 0, 2 }
uselistorder void (metadata, metadata, metadata)* @llvm.dbg.value, { 10, 11, 9, 8, 3, 0, 1, 2, 6, 7, 4, 5 }

attributes #0 = { nofree nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "patchable-function-entry"="5" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { mustprogress nofree norecurse nosync nounwind readonly uwtable willreturn "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "patchable-function-entry"="5" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #4 = { nofree nosync nounwind readnone willreturn }
attributes #5 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!9, !10, !11, !12, !13, !14}
!llvm.ident = !{!15}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !2, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "seed.c", directory: "/src", checksumkind: CSK_MD5, checksum: "0ebd4025e3be1f770824976968f4345b")
!2 = !{!3, !6}
!3 = !DIDerivedType(tag: DW_TAG_typedef, name: "size_t", file: !4, line: 46, baseType: !5)
!4 = !DIFile(filename: "/usr/lib/llvm-14/lib/clang/14.0.6/include/stddef.h", directory: "", checksumkind: CSK_MD5, checksum: "2499dd2361b915724b073282bea3a7bc")
!5 = !DIBasicType(name: "unsigned long", size: 64, encoding: DW_ATE_unsigned)
!6 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !7, size: 64)
!7 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !8)
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !{i32 7, !"Dwarf Version", i32 5}
!10 = !{i32 2, !"Debug Info Version", i32 3}
!11 = !{i32 1, !"wchar_size", i32 4}
!12 = !{i32 7, !"PIC Level", i32 2}
!13 = !{i32 7, !"PIE Level", i32 2}
!14 = !{i32 7, !"uwtable", i32 1}
!15 = !{!"Debian clang version 14.0.6"}
!16 = distinct !DISubprogram(name: "run", scope: !1, file: !1, line: 7, type: !17, scopeLine: 8, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !20)
!17 = !DISubroutineType(types: !18)
!18 = !{!8, !19, !8}
!19 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !8, size: 64)
!20 = !{!21, !22, !23, !24}
!21 = !DILocalVariable(name: "v", arg: 1, scope: !16, file: !1, line: 7, type: !19)
!22 = !DILocalVariable(name: "n", arg: 2, scope: !16, file: !1, line: 7, type: !8)
!23 = !DILocalVariable(name: "s", scope: !16, file: !1, line: 9, type: !8)
!24 = !DILocalVariable(name: "i", scope: !25, file: !1, line: 10, type: !8)
!25 = distinct !DILexicalBlock(scope: !16, file: !1, line: 10, column: 5)
!26 = !DILocation(line: 0, scope: !16)
!27 = !DILocation(line: 0, scope: !25)
!28 = !DILocation(line: 10, column: 23, scope: !29)
!29 = distinct !DILexicalBlock(scope: !25, file: !1, line: 10, column: 5)
!30 = !DILocation(line: 10, column: 5, scope: !25)
!31 = !DILocation(line: 10, column: 29, scope: !29)
!32 = !DILocation(line: 11, column: 21, scope: !29)
!33 = !{!34, !34, i64 0}
!34 = !{!"int", !35, i64 0}
!35 = !{!"omnipotent char", !36, i64 0}
!36 = !{!"Simple C/C++ TBAA"}
!37 = !DILocation(line: 2, column: 37, scope: !38, inlinedAt: !43)
!38 = distinct !DISubprogram(name: "helper", scope: !1, file: !1, line: 2, type: !39, scopeLine: 2, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !41)
!39 = !DISubroutineType(types: !40)
!40 = !{!8, !8}
!41 = !{!42}
!42 = !DILocalVariable(name: "x", arg: 1, scope: !38, file: !1, line: 2, type: !8)
!43 = distinct !DILocation(line: 11, column: 14, scope: !29)
!44 = !DILocation(line: 2, column: 41, scope: !38, inlinedAt: !43)
!45 = !DILocation(line: 11, column: 11, scope: !29)
!46 = distinct !{!46, !30, !47, !48, !49}
!47 = !DILocation(line: 11, column: 25, scope: !25)
!48 = !{!"llvm.loop.mustprogress"}
!49 = !{!"llvm.loop.isvectorized", i32 1}
!50 = !DILocation(line: 12, column: 11, scope: !16)
!51 = !DILocation(line: 12, column: 14, scope: !16)
!52 = !DILocation(line: 12, column: 5, scope: !16)
!53 = !DILocation(line: 5, column: 45, scope: !54, inlinedAt: !57)
!54 = distinct !DISubprogram(name: "odd", scope: !1, file: !1, line: 5, type: !39, scopeLine: 5, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !55)
!55 = !{!56}
!56 = !DILocalVariable(name: "n", arg: 1, scope: !54, file: !1, line: 5, type: !8)
!57 = distinct !DILocation(line: 4, column: 46, scope: !58, inlinedAt: !61)
!58 = distinct !DISubprogram(name: "even", scope: !1, file: !1, line: 4, type: !39, scopeLine: 4, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !59)
!59 = !{!60}
!60 = !DILocalVariable(name: "n", arg: 1, scope: !58, file: !1, line: 4, type: !8)
!61 = distinct !DILocation(line: 13, column: 16, scope: !16)
!62 = !DILocation(line: 0, scope: !58, inlinedAt: !61)
!63 = !DILocation(line: 4, column: 33, scope: !58, inlinedAt: !61)
!64 = !DILocation(line: 5, column: 52, scope: !54, inlinedAt: !57)
!65 = !DILocation(line: 13, column: 14, scope: !16)
!66 = !DILocation(line: 13, column: 5, scope: !16)
!67 = !DILocation(line: 0, scope: !38, inlinedAt: !43)
!68 = distinct !{!68, !30, !47, !48, !69, !49}
!69 = !{!"llvm.loop.unroll.runtime.disable"}
!70 = !DISubprogram(name: "qsort", scope: !71, file: !71, line: 851, type: !72, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized, retainedNodes: !81)
!71 = !DIFile(filename: "/usr/include/stdlib.h", directory: "", checksumkind: CSK_MD5, checksum: "4b47dc81a92f1fe77a152c0aac236718")
!72 = !DISubroutineType(types: !73)
!73 = !{null, !74, !3, !3, !75}
!74 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64)
!75 = !DIDerivedType(tag: DW_TAG_typedef, name: "__compar_fn_t", file: !71, line: 829, baseType: !76)
!76 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !77, size: 64)
!77 = !DISubroutineType(types: !78)
!78 = !{!8, !79, !79}
!79 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !80, size: 64)
!80 = !DIDerivedType(tag: DW_TAG_const_type, baseType: null)
!81 = !{}
!82 = distinct !DISubprogram(name: "cmp", scope: !1, file: !1, line: 6, type: !77, scopeLine: 6, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !83)
!83 = !{!84, !85}
!84 = !DILocalVariable(name: "a", arg: 1, scope: !82, file: !1, line: 6, type: !79)
!85 = !DILocalVariable(name: "b", arg: 2, scope: !82, file: !1, line: 6, type: !79)
!86 = !DILocation(line: 0, scope: !82)
!87 = !DILocation(line: 6, column: 56, scope: !82)
!88 = !DILocation(line: 6, column: 55, scope: !82)
!89 = !DILocation(line: 6, column: 74, scope: !82)
!90 = !DILocation(line: 6, column: 73, scope: !82)
!91 = !DILocation(line: 6, column: 71, scope: !82)
!92 = !DILocation(line: 6, column: 48, scope: !82)
