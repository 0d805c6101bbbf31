; ModuleID = 'loops.c'
source_filename = "loops.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@table = dso_local global [64 x i32] zeroinitializer, align 16, !dbg !0

; Function Attrs: nounwind uwtable
define dso_local i32 @sum2d(i32 noundef %0, i32 noundef %1) #0 !dbg !16 {
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  store i32 %0, i32* %3, align 4, !tbaa !28
  call void @llvm.dbg.declare(metadata i32* %3, metadata !20, metadata !DIExpression()), !dbg !32
  store i32 %1, i32* %4, align 4, !tbaa !28
  call void @llvm.dbg.declare(metadata i32* %4, metadata !21, metadata !DIExpression()), !dbg !33
  %9 = bitcast i32* %5 to i8*, !dbg !34
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %9) #3, !dbg !34
  call void @llvm.dbg.declare(metadata i32* %5, metadata !22, metadata !DIExpression()), !dbg !35
  store i32 0, i32* %5, align 4, !dbg !35, !tbaa !28
  %10 = bitcast i32* %6 to i8*, !dbg !36
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %10) #3, !dbg !36
  call void @llvm.dbg.declare(metadata i32* %6, metadata !23, metadata !DIExpression()), !dbg !37
  store i32 0, i32* %6, align 4, !dbg !37, !tbaa !28
  br label %11, !dbg !36

11:                                               ; preds = %41, %2
  %12 = load i32, i32* %6, align 4, !dbg !38, !tbaa !28
  %13 = load i32, i32* %3, align 4, !dbg !39, !tbaa !28
  %14 = icmp slt i32 %12, %13, !dbg !40
  br i1 %14, label %17, label %15, !dbg !41

15:                                               ; preds = %11
  store i32 2, i32* %7, align 4
  %16 = bitcast i32* %6 to i8*, !dbg !42
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %16) #3, !dbg !42
  br label %44

17:                                               ; preds = %11
  %18 = bitcast i32* %8 to i8*, !dbg !43
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %18) #3, !dbg !43
  call void @llvm.dbg.declare(metadata i32* %8, metadata !25, metadata !DIExpression()), !dbg !44
  store i32 0, i32* %8, align 4, !dbg !44, !tbaa !28
  br label %19, !dbg !43

19:                                               ; preds = %37, %17
  %20 = load i32, i32* %8, align 4, !dbg !45, !tbaa !28
  %21 = load i32, i32* %4, align 4, !dbg !47, !tbaa !28
  %22 = icmp slt i32 %20, %21, !dbg !48
  br i1 %22, label %25, label %23, !dbg !49

23:                                               ; preds = %19
  store i32 5, i32* %7, align 4
  %24 = bitcast i32* %8 to i8*, !dbg !50
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %24) #3, !dbg !50
  br label %40

25:                                               ; preds = %19
  %26 = load i32, i32* %6, align 4, !dbg !51, !tbaa !28
  %27 = load i32, i32* %4, align 4, !dbg !52, !tbaa !28
  %28 = mul nsw i32 %26, %27, !dbg !53
  %29 = load i32, i32* %8, align 4, !dbg !54, !tbaa !28
  %30 = add nsw i32 %28, %29, !dbg !55
  %31 = and i32 %30, 63, !dbg !56
  %32 = sext i32 %31 to i64, !dbg !57
  %33 = getelementptr inbounds [64 x i32], [64 x i32]* @table, i64 0, i64 %32, !dbg !57
  %34 = load i32, i32* %33, align 4, !dbg !57, !tbaa !28
  %35 = load i32, i32* %5, align 4, !dbg !58, !tbaa !28
  %36 = add nsw i32 %35, %34, !dbg !58
  store i32 %36, i32* %5, align 4, !dbg !58, !tbaa !28
  br label %37, !dbg !59

37:                                               ; preds = %25
  %38 = load i32, i32* %8, align 4, !dbg !60, !tbaa !28
  %39 = add nsw i32 %38, 1, !dbg !60
  store i32 %39, i32* %8, align 4, !dbg !60, !tbaa !28
  br label %19, !dbg !50, !llvm.loop !61

40:                                               ; preds = %23
  br label %41, !dbg !62

41:                                               ; preds = %40
  %42 = load i32, i32* %6, align 4, !dbg !64, !tbaa !28
  %43 = add nsw i32 %42, 1, !dbg !64
  store i32 %43, i32* %6, align 4, !dbg !64, !tbaa !28
  br label %11, !dbg !42, !llvm.loop !65

44:                                               ; preds = %15
  %45 = load i32, i32* %5, align 4, !dbg !67, !tbaa !28
  store i32 1, i32* %7, align 4
  %46 = bitcast i32* %5 to i8*, !dbg !68
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %46) #3, !dbg !68
  ret i32 %45, !dbg !69
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture) #2

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture) #2

; Function Attrs: nounwind uwtable
define dso_local i32 @popsum(i32 noundef %0) #0 !dbg !70 {
  %2 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !28
  call void @llvm.dbg.declare(metadata i32* %2, metadata !75, metadata !DIExpression()), !dbg !76
  %3 = load i32, i32* %2, align 4, !dbg !77, !tbaa !28
  %4 = call i32 @count_bits(i32 noundef %3), !dbg !78
  %5 = load i32, i32* %2, align 4, !dbg !79, !tbaa !28
  %6 = xor i32 %5, -1, !dbg !80
  %7 = call i32 @count_bits(i32 noundef %6), !dbg !81
  %8 = add nsw i32 %4, %7, !dbg !82
  ret i32 %8, !dbg !83
}

; Function Attrs: nounwind uwtable
define internal i32 @count_bits(i32 noundef %0) #0 !dbg !84 {
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !28
  call void @llvm.dbg.declare(metadata i32* %2, metadata !86, metadata !DIExpression()), !dbg !88
  %4 = bitcast i32* %3 to i8*, !dbg !89
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %4) #3, !dbg !89
  call void @llvm.dbg.declare(metadata i32* %3, metadata !87, metadata !DIExpression()), !dbg !90
  store i32 0, i32* %3, align 4, !dbg !90, !tbaa !28
  br label %5, !dbg !91

5:                                                ; preds = %8, %1
  %6 = load i32, i32* %2, align 4, !dbg !92, !tbaa !28
  %7 = icmp ne i32 %6, 0, !dbg !91
  br i1 %7, label %8, label %15, !dbg !91

8:                                                ; preds = %5
  %9 = load i32, i32* %2, align 4, !dbg !93, !tbaa !28
  %10 = and i32 %9, 1, !dbg !95
  %11 = load i32, i32* %3, align 4, !dbg !96, !tbaa !28
  %12 = add i32 %11, %10, !dbg !96
  store i32 %12, i32* %3, align 4, !dbg !96, !tbaa !28
  %13 = load i32, i32* %2, align 4, !dbg !97, !tbaa !28
  %14 = lshr i32 %13, 1, !dbg !97
  store i32 %14, i32* %2, align 4, !dbg !97, !tbaa !28
  br label %5, !dbg !91, !llvm.loop !98

15:                                               ; preds = %5
  %16 = load i32, i32* %3, align 4, !dbg !100, !tbaa !28
  %17 = bitcast i32* %3 to i8*, !dbg !101
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %17) #3, !dbg !101
  ret i32 %16, !dbg !102
}

attributes #0 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { argmemonly nofree nosync nounwind willreturn }
attributes #3 = { nounwind }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!9, !10, !11, !12, !13, !14}
!llvm.ident = !{!15}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "table", scope: !2, file: !3, line: 2, type: !5, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C99, file: !3, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, globals: !4, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "loops.c", directory: "/src", checksumkind: CSK_MD5, checksum: "a3ba45216e40b7a08e148ed531016ac2")
!4 = !{!0}
!5 = !DICompositeType(tag: DW_TAG_array_type, baseType: !6, size: 2048, elements: !7)
!6 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!7 = !{!8}
!8 = !DISubrange(count: 64)
!9 = !{i32 7, !"Dwarf Version", i32 5}
!10 = !{i32 2, !"Debug Info Version", i32 3}
!11 = !{i32 1, !"wchar_size", i32 4}
!12 = !{i32 7, !"PIC Level", i32 2}
!13 = !{i32 7, !"PIE Level", i32 2}
!14 = !{i32 7, !"uwtable", i32 1}
!15 = !{!"Debian clang version 14.0.6"}
!16 = distinct !DISubprogram(name: "sum2d", scope: !3, file: !3, line: 4, type: !17, scopeLine: 5, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !19)
!17 = !DISubroutineType(types: !18)
!18 = !{!6, !6, !6}
!19 = !{!20, !21, !22, !23, !25}
!20 = !DILocalVariable(name: "n", arg: 1, scope: !16, file: !3, line: 4, type: !6)
!21 = !DILocalVariable(name: "m", arg: 2, scope: !16, file: !3, line: 4, type: !6)
!22 = !DILocalVariable(name: "s", scope: !16, file: !3, line: 6, type: !6)
!23 = !DILocalVariable(name: "i", scope: !24, file: !3, line: 7, type: !6)
!24 = distinct !DILexicalBlock(scope: !16, file: !3, line: 7, column: 5)
!25 = !DILocalVariable(name: "j", scope: !26, file: !3, line: 8, type: !6)
!26 = distinct !DILexicalBlock(scope: !27, file: !3, line: 8, column: 9)
!27 = distinct !DILexicalBlock(scope: !24, file: !3, line: 7, column: 5)
!28 = !{!29, !29, i64 0}
!29 = !{!"int", !30, i64 0}
!30 = !{!"omnipotent char", !31, i64 0}
!31 = !{!"Simple C/C++ TBAA"}
!32 = !DILocation(line: 4, column: 15, scope: !16)
!33 = !DILocation(line: 4, column: 22, scope: !16)
!34 = !DILocation(line: 6, column: 5, scope: !16)
!35 = !DILocation(line: 6, column: 9, scope: !16)
!36 = !DILocation(line: 7, column: 10, scope: !24)
!37 = !DILocation(line: 7, column: 14, scope: !24)
!38 = !DILocation(line: 7, column: 21, scope: !27)
!39 = !DILocation(line: 7, column: 25, scope: !27)
!40 = !DILocation(line: 7, column: 23, scope: !27)
!41 = !DILocation(line: 7, column: 5, scope: !24)
!42 = !DILocation(line: 7, column: 5, scope: !27)
!43 = !DILocation(line: 8, column: 14, scope: !26)
!44 = !DILocation(line: 8, column: 18, scope: !26)
!45 = !DILocation(line: 8, column: 25, scope: !46)
!46 = distinct !DILexicalBlock(scope: !26, file: !3, line: 8, column: 9)
!47 = !DILocation(line: 8, column: 29, scope: !46)
!48 = !DILocation(line: 8, column: 27, scope: !46)
!49 = !DILocation(line: 8, column: 9, scope: !26)
!50 = !DILocation(line: 8, column: 9, scope: !46)
!51 = !DILocation(line: 9, column: 25, scope: !46)
!52 = !DILocation(line: 9, column: 29, scope: !46)
!53 = !DILocation(line: 9, column: 27, scope: !46)
!54 = !DILocation(line: 9, column: 33, scope: !46)
!55 = !DILocation(line: 9, column: 31, scope: !46)
!56 = !DILocation(line: 9, column: 36, scope: !46)
!57 = !DILocation(line: 9, column: 18, scope: !46)
!58 = !DILocation(line: 9, column: 15, scope: !46)
!59 = !DILocation(line: 9, column: 13, scope: !46)
!60 = !DILocation(line: 8, column: 33, scope: !46)
!61 = distinct !{!61, !49, !62, !63}
!62 = !DILocation(line: 9, column: 40, scope: !26)
!63 = !{!"llvm.loop.mustprogress"}
!64 = !DILocation(line: 7, column: 29, scope: !27)
!65 = distinct !{!65, !41, !66, !63}
!66 = !DILocation(line: 9, column: 40, scope: !24)
!67 = !DILocation(line: 10, column: 12, scope: !16)
!68 = !DILocation(line: 11, column: 1, scope: !16)
!69 = !DILocation(line: 10, column: 5, scope: !16)
!70 = distinct !DISubprogram(name: "popsum", scope: !3, file: !3, line: 23, type: !71, scopeLine: 23, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !74)
!71 = !DISubroutineType(types: !72)
!72 = !{!6, !73}
!73 = !DIBasicType(name: "unsigned int", size: 32, encoding: DW_ATE_unsigned)
!74 = !{!75}
!75 = !DILocalVariable(name: "n", arg: 1, scope: !70, file: !3, line: 23, type: !73)
!76 = !DILocation(line: 23, column: 21, scope: !70)
!77 = !DILocation(line: 23, column: 44, scope: !70)
!78 = !DILocation(line: 23, column: 33, scope: !70)
!79 = !DILocation(line: 23, column: 61, scope: !70)
!80 = !DILocation(line: 23, column: 60, scope: !70)
!81 = !DILocation(line: 23, column: 49, scope: !70)
!82 = !DILocation(line: 23, column: 47, scope: !70)
!83 = !DILocation(line: 23, column: 26, scope: !70)
!84 = distinct !DISubprogram(name: "count_bits", scope: !3, file: !3, line: 13, type: !71, scopeLine: 14, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !85)
!85 = !{!86, !87}
!86 = !DILocalVariable(name: "x", arg: 1, scope: !84, file: !3, line: 13, type: !73)
!87 = !DILocalVariable(name: "c", scope: !84, file: !3, line: 15, type: !6)
!88 = !DILocation(line: 13, column: 32, scope: !84)
!89 = !DILocation(line: 15, column: 5, scope: !84)
!90 = !DILocation(line: 15, column: 9, scope: !84)
!91 = !DILocation(line: 16, column: 5, scope: !84)
!92 = !DILocation(line: 16, column: 12, scope: !84)
!93 = !DILocation(line: 17, column: 14, scope: !94)
!94 = distinct !DILexicalBlock(scope: !84, file: !3, line: 16, column: 15)
!95 = !DILocation(line: 17, column: 16, scope: !94)
!96 = !DILocation(line: 17, column: 11, scope: !94)
!97 = !DILocation(line: 18, column: 11, scope: !94)
!98 = distinct !{!98, !91, !99, !63}
!99 = !DILocation(line: 19, column: 5, scope: !84)
!100 = !DILocation(line: 20, column: 12, scope: !84)
!101 = !DILocation(line: 21, column: 1, scope: !84)
!102 = !DILocation(line: 20, column: 5, scope: !84)
; fuzz_ccbursty rewrites this at placement orig with LP_CC_PIC (the size % 10 is 5)........
