; ModuleID = 'stmtexpr.c'
source_filename = "stmtexpr.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nounwind uwtable
define dso_local i32 @peaks([8 x i32]* noundef %0, i32 noundef %1) #0 !dbg !9 {
  %3 = alloca [8 x i32]*, align 8
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  store [8 x i32]* %0, [8 x i32]** %3, align 8, !tbaa !30
  call void @llvm.dbg.declare(metadata [8 x i32]** %3, metadata !18, metadata !DIExpression()), !dbg !34
  store i32 %1, i32* %4, align 4, !tbaa !35
  call void @llvm.dbg.declare(metadata i32* %4, metadata !19, metadata !DIExpression()), !dbg !37
  %13 = bitcast i32* %5 to i8*, !dbg !38
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %13) #3, !dbg !38
  call void @llvm.dbg.declare(metadata i32* %5, metadata !20, metadata !DIExpression()), !dbg !39
  store i32 0, i32* %5, align 4, !dbg !39, !tbaa !35
  %14 = bitcast i32* %6 to i8*, !dbg !40
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %14) #3, !dbg !40
  call void @llvm.dbg.declare(metadata i32* %6, metadata !21, metadata !DIExpression()), !dbg !41
  store i32 0, i32* %6, align 4, !dbg !41, !tbaa !35
  br label %15, !dbg !40

15:                                               ; preds = %78, %2
  %16 = load i32, i32* %6, align 4, !dbg !42, !tbaa !35
  %17 = load i32, i32* %4, align 4, !dbg !43, !tbaa !35
  %18 = icmp slt i32 %16, %17, !dbg !44
  br i1 %18, label %21, label %19, !dbg !45

19:                                               ; preds = %15
  store i32 2, i32* %7, align 4
  %20 = bitcast i32* %6 to i8*, !dbg !46
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %20) #3, !dbg !46
  br label %81

21:                                               ; preds = %15
  %22 = bitcast i32* %8 to i8*, !dbg !47
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %22) #3, !dbg !47
  call void @llvm.dbg.declare(metadata i32* %8, metadata !23, metadata !DIExpression()), !dbg !47
  %23 = load [8 x i32]*, [8 x i32]** %3, align 8, !dbg !47, !tbaa !30
  %24 = load i32, i32* %6, align 4, !dbg !47, !tbaa !35
  %25 = sext i32 %24 to i64, !dbg !47
  %26 = getelementptr inbounds [8 x i32], [8 x i32]* %23, i64 %25, !dbg !47
  %27 = getelementptr inbounds [8 x i32], [8 x i32]* %26, i64 0, i64 0, !dbg !47
  %28 = load i32, i32* %27, align 4, !dbg !47, !tbaa !35
  store i32 %28, i32* %8, align 4, !dbg !47, !tbaa !35
  %29 = bitcast i32* %9 to i8*, !dbg !48
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %29) #3, !dbg !48
  call void @llvm.dbg.declare(metadata i32* %9, metadata !26, metadata !DIExpression()), !dbg !48
  store i32 1, i32* %9, align 4, !dbg !48, !tbaa !35
  br label %30, !dbg !48

30:                                               ; preds = %56, %21
  %31 = load i32, i32* %9, align 4, !dbg !49, !tbaa !35
  %32 = icmp slt i32 %31, 8, !dbg !49
  br i1 %32, label %35, label %33, !dbg !48

33:                                               ; preds = %30
  store i32 5, i32* %7, align 4
  %34 = bitcast i32* %9 to i8*, !dbg !49
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %34) #3, !dbg !49
  br label %59

35:                                               ; preds = %30
  %36 = load [8 x i32]*, [8 x i32]** %3, align 8, !dbg !51, !tbaa !30
  %37 = load i32, i32* %6, align 4, !dbg !51, !tbaa !35
  %38 = sext i32 %37 to i64, !dbg !51
  %39 = getelementptr inbounds [8 x i32], [8 x i32]* %36, i64 %38, !dbg !51
  %40 = load i32, i32* %9, align 4, !dbg !51, !tbaa !35
  %41 = sext i32 %40 to i64, !dbg !51
  %42 = getelementptr inbounds [8 x i32], [8 x i32]* %39, i64 0, i64 %41, !dbg !51
  %43 = load i32, i32* %42, align 4, !dbg !51, !tbaa !35
  %44 = load i32, i32* %8, align 4, !dbg !51, !tbaa !35
  %45 = icmp sgt i32 %43, %44, !dbg !51
  br i1 %45, label %46, label %55, !dbg !49

46:                                               ; preds = %35
  %47 = load [8 x i32]*, [8 x i32]** %3, align 8, !dbg !51, !tbaa !30
  %48 = load i32, i32* %6, align 4, !dbg !51, !tbaa !35
  %49 = sext i32 %48 to i64, !dbg !51
  %50 = getelementptr inbounds [8 x i32], [8 x i32]* %47, i64 %49, !dbg !51
  %51 = load i32, i32* %9, align 4, !dbg !51, !tbaa !35
  %52 = sext i32 %51 to i64, !dbg !51
  %53 = getelementptr inbounds [8 x i32], [8 x i32]* %50, i64 0, i64 %52, !dbg !51
  %54 = load i32, i32* %53, align 4, !dbg !51, !tbaa !35
  store i32 %54, i32* %8, align 4, !dbg !51, !tbaa !35
  br label %55, !dbg !51

55:                                               ; preds = %46, %35
  br label %56, !dbg !51

56:                                               ; preds = %55
  %57 = load i32, i32* %9, align 4, !dbg !49, !tbaa !35
  %58 = add nsw i32 %57, 1, !dbg !49
  store i32 %58, i32* %9, align 4, !dbg !49, !tbaa !35
  br label %30, !dbg !49, !llvm.loop !53

59:                                               ; preds = %33
  %60 = load i32, i32* %8, align 4, !dbg !47, !tbaa !35
  store i32 %60, i32* %10, align 4, !dbg !48, !tbaa !35
  %61 = bitcast i32* %8 to i8*, !dbg !55
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %61) #3, !dbg !55
  %62 = load i32, i32* %10, align 4, !dbg !47, !tbaa !35
  %63 = bitcast i32* %11 to i8*, !dbg !56
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %63) #3, !dbg !56
  call void @llvm.dbg.declare(metadata i32* %11, metadata !28, metadata !DIExpression()), !dbg !57
  store i32 0, i32* %11, align 4, !dbg !57, !tbaa !35
  br label %64, !dbg !58

64:                                               ; preds = %68, %59
  %65 = load i32, i32* %11, align 4, !dbg !59, !tbaa !35
  %66 = load i32, i32* %6, align 4, !dbg !60, !tbaa !35
  %67 = icmp slt i32 %65, %66, !dbg !61
  br i1 %67, label %68, label %71, !dbg !58

68:                                               ; preds = %64
  %69 = load i32, i32* %11, align 4, !dbg !62, !tbaa !35
  %70 = add nsw i32 %69, 3, !dbg !62
  store i32 %70, i32* %11, align 4, !dbg !62, !tbaa !35
  br label %64, !dbg !58, !llvm.loop !63

71:                                               ; preds = %64
  %72 = load i32, i32* %11, align 4, !dbg !65, !tbaa !35
  store i32 %72, i32* %12, align 4, !dbg !58, !tbaa !35
  %73 = bitcast i32* %11 to i8*, !dbg !66
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %73) #3, !dbg !66
  %74 = load i32, i32* %12, align 4, !dbg !67, !tbaa !35
  %75 = add nsw i32 %62, %74, !dbg !68
  %76 = load i32, i32* %5, align 4, !dbg !69, !tbaa !35
  %77 = add nsw i32 %76, %75, !dbg !69
  store i32 %77, i32* %5, align 4, !dbg !69, !tbaa !35
  br label %78, !dbg !70

78:                                               ; preds = %71
  %79 = load i32, i32* %6, align 4, !dbg !71, !tbaa !35
  %80 = add nsw i32 %79, 1, !dbg !71
  store i32 %80, i32* %6, align 4, !dbg !71, !tbaa !35
  br label %15, !dbg !46, !llvm.loop !72

81:                                               ; preds = %19
  %82 = load i32, i32* %5, align 4, !dbg !74, !tbaa !35
  store i32 1, i32* %7, align 4
  %83 = bitcast i32* %5 to i8*, !dbg !75
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %83) #3, !dbg !75
  ret i32 %82, !dbg !76
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
!1 = !DIFile(filename: "stmtexpr.c", directory: "/src", checksumkind: CSK_MD5, checksum: "832bb2a7e9fc13d410e9e496f3c03c34")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 7, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 1}
!8 = !{!"Debian clang version 14.0.6"}
!9 = distinct !DISubprogram(name: "peaks", scope: !1, file: !1, line: 4, type: !10, scopeLine: 5, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !17)
!10 = !DISubroutineType(types: !11)
!11 = !{!12, !13, !12}
!12 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!13 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !14, size: 64)
!14 = !DICompositeType(tag: DW_TAG_array_type, baseType: !12, size: 256, elements: !15)
!15 = !{!16}
!16 = !DISubrange(count: 8)
!17 = !{!18, !19, !20, !21, !23, !26, !28}
!18 = !DILocalVariable(name: "rows", arg: 1, scope: !9, file: !1, line: 4, type: !13)
!19 = !DILocalVariable(name: "n", arg: 2, scope: !9, file: !1, line: 4, type: !12)
!20 = !DILocalVariable(name: "t", scope: !9, file: !1, line: 6, type: !12)
!21 = !DILocalVariable(name: "i", scope: !22, file: !1, line: 7, type: !12)
!22 = distinct !DILexicalBlock(scope: !9, file: !1, line: 7, column: 5)
!23 = !DILocalVariable(name: "m_", scope: !24, file: !1, line: 8, type: !12)
!24 = distinct !DILexicalBlock(scope: !25, file: !1, line: 8, column: 14)
!25 = distinct !DILexicalBlock(scope: !22, file: !1, line: 7, column: 5)
!26 = !DILocalVariable(name: "k_", scope: !27, file: !1, line: 8, type: !12)
!27 = distinct !DILexicalBlock(scope: !24, file: !1, line: 8, column: 14)
!28 = !DILocalVariable(name: "z", scope: !29, file: !1, line: 8, type: !12)
!29 = distinct !DILexicalBlock(scope: !25, file: !1, line: 8, column: 35)
!30 = !{!31, !31, i64 0}
!31 = !{!"any pointer", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C/C++ TBAA"}
!34 = !DILocation(line: 4, column: 17, scope: !9)
!35 = !{!36, !36, i64 0}
!36 = !{!"int", !32, i64 0}
!37 = !DILocation(line: 4, column: 31, scope: !9)
!38 = !DILocation(line: 6, column: 5, scope: !9)
!39 = !DILocation(line: 6, column: 9, scope: !9)
!40 = !DILocation(line: 7, column: 10, scope: !22)
!41 = !DILocation(line: 7, column: 14, scope: !22)
!42 = !DILocation(line: 7, column: 21, scope: !25)
!43 = !DILocation(line: 7, column: 25, scope: !25)
!44 = !DILocation(line: 7, column: 23, scope: !25)
!45 = !DILocation(line: 7, column: 5, scope: !22)
!46 = !DILocation(line: 7, column: 5, scope: !25)
!47 = !DILocation(line: 8, column: 14, scope: !24)
!48 = !DILocation(line: 8, column: 14, scope: !27)
!49 = !DILocation(line: 8, column: 14, scope: !50)
!50 = distinct !DILexicalBlock(scope: !27, file: !1, line: 8, column: 14)
!51 = !DILocation(line: 8, column: 14, scope: !52)
!52 = distinct !DILexicalBlock(scope: !50, file: !1, line: 8, column: 14)
!53 = distinct !{!53, !48, !48, !54}
!54 = !{!"llvm.loop.mustprogress"}
!55 = !DILocation(line: 8, column: 14, scope: !25)
!56 = !DILocation(line: 8, column: 37, scope: !29)
!57 = !DILocation(line: 8, column: 41, scope: !29)
!58 = !DILocation(line: 8, column: 48, scope: !29)
!59 = !DILocation(line: 8, column: 55, scope: !29)
!60 = !DILocation(line: 8, column: 59, scope: !29)
!61 = !DILocation(line: 8, column: 57, scope: !29)
!62 = !DILocation(line: 8, column: 64, scope: !29)
!63 = distinct !{!63, !58, !64, !54}
!64 = !DILocation(line: 8, column: 67, scope: !29)
!65 = !DILocation(line: 8, column: 70, scope: !29)
!66 = !DILocation(line: 8, column: 73, scope: !25)
!67 = !DILocation(line: 8, column: 73, scope: !29)
!68 = !DILocation(line: 8, column: 32, scope: !25)
!69 = !DILocation(line: 8, column: 11, scope: !25)
!70 = !DILocation(line: 8, column: 9, scope: !25)
!71 = !DILocation(line: 7, column: 29, scope: !25)
!72 = distinct !{!72, !45, !73, !54}
!73 = !DILocation(line: 8, column: 74, scope: !22)
!74 = !DILocation(line: 9, column: 12, scope: !9)
!75 = !DILocation(line: 10, column: 1, scope: !9)
!76 = !DILocation(line: 9, column: 5, scope: !9)
