; ModuleID = 'vlaloop.c'
source_filename = "vlaloop.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nounwind uwtable
define dso_local i32 @scoped_vla(i32 noundef %0, i32 noundef %1) #0 !dbg !11 {
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i8*, align 8
  %9 = alloca i64, align 8
  %10 = alloca i32, align 4
  store i32 %0, i32* %3, align 4, !tbaa !31
  call void @llvm.dbg.declare(metadata i32* %3, metadata !16, metadata !DIExpression()), !dbg !35
  store i32 %1, i32* %4, align 4, !tbaa !31
  call void @llvm.dbg.declare(metadata i32* %4, metadata !17, metadata !DIExpression()), !dbg !36
  %11 = bitcast i32* %5 to i8*, !dbg !37
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %11) #4, !dbg !37
  call void @llvm.dbg.declare(metadata i32* %5, metadata !18, metadata !DIExpression()), !dbg !38
  store i32 0, i32* %5, align 4, !dbg !38, !tbaa !31
  %12 = bitcast i32* %6 to i8*, !dbg !39
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %12) #4, !dbg !39
  call void @llvm.dbg.declare(metadata i32* %6, metadata !19, metadata !DIExpression()), !dbg !40
  store i32 0, i32* %6, align 4, !dbg !40, !tbaa !31
  br label %13, !dbg !39

13:                                               ; preds = %53, %2
  %14 = load i32, i32* %6, align 4, !dbg !41, !tbaa !31
  %15 = load i32, i32* %4, align 4, !dbg !42, !tbaa !31
  %16 = icmp slt i32 %14, %15, !dbg !43
  br i1 %16, label %19, label %17, !dbg !44

17:                                               ; preds = %13
  store i32 2, i32* %7, align 4
  %18 = bitcast i32* %6 to i8*, !dbg !45
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %18) #4, !dbg !45
  br label %56

19:                                               ; preds = %13
  %20 = load i32, i32* %3, align 4, !dbg !46, !tbaa !31
  %21 = add nsw i32 %20, 1, !dbg !47
  %22 = zext i32 %21 to i64, !dbg !48
  %23 = call i8* @llvm.stacksave(), !dbg !48
  store i8* %23, i8** %8, align 8, !dbg !48
  %24 = alloca i8, i64 %22, align 16, !dbg !48
  store i64 %22, i64* %9, align 8, !dbg !48
  call void @llvm.dbg.declare(metadata i64* %9, metadata !21, metadata !DIExpression()), !dbg !49
  call void @llvm.dbg.declare(metadata i8* %24, metadata !25, metadata !DIExpression()), !dbg !50
  %25 = bitcast i32* %10 to i8*, !dbg !51
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %25) #4, !dbg !51
  call void @llvm.dbg.declare(metadata i32* %10, metadata !29, metadata !DIExpression()), !dbg !52
  store i32 0, i32* %10, align 4, !dbg !52, !tbaa !31
  br label %26, !dbg !51

26:                                               ; preds = %40, %19
  %27 = load i32, i32* %10, align 4, !dbg !53, !tbaa !31
  %28 = load i32, i32* %3, align 4, !dbg !55, !tbaa !31
  %29 = icmp sle i32 %27, %28, !dbg !56
  br i1 %29, label %32, label %30, !dbg !57

30:                                               ; preds = %26
  store i32 5, i32* %7, align 4
  %31 = bitcast i32* %10 to i8*, !dbg !58
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %31) #4, !dbg !58
  br label %43

32:                                               ; preds = %26
  %33 = load i32, i32* %10, align 4, !dbg !59, !tbaa !31
  %34 = load i32, i32* %6, align 4, !dbg !60, !tbaa !31
  %35 = add nsw i32 %33, %34, !dbg !61
  %36 = trunc i32 %35 to i8, !dbg !62
  %37 = load i32, i32* %10, align 4, !dbg !63, !tbaa !31
  %38 = sext i32 %37 to i64, !dbg !64
  %39 = getelementptr inbounds i8, i8* %24, i64 %38, !dbg !64
  store i8 %36, i8* %39, align 1, !dbg !65, !tbaa !66
  br label %40, !dbg !64

40:                                               ; preds = %32
  %41 = load i32, i32* %10, align 4, !dbg !67, !tbaa !31
  %42 = add nsw i32 %41, 1, !dbg !67
  store i32 %42, i32* %10, align 4, !dbg !67, !tbaa !31
  br label %26, !dbg !58, !llvm.loop !68

43:                                               ; preds = %30
  %44 = load i32, i32* %3, align 4, !dbg !71, !tbaa !31
  %45 = sdiv i32 %44, 2, !dbg !72
  %46 = sext i32 %45 to i64, !dbg !73
  %47 = getelementptr inbounds i8, i8* %24, i64 %46, !dbg !73
  %48 = load i8, i8* %47, align 1, !dbg !73, !tbaa !66
  %49 = sext i8 %48 to i32, !dbg !73
  %50 = load i32, i32* %5, align 4, !dbg !74, !tbaa !31
  %51 = add nsw i32 %50, %49, !dbg !74
  store i32 %51, i32* %5, align 4, !dbg !74, !tbaa !31
  %52 = load i8*, i8** %8, align 8, !dbg !75
  call void @llvm.stackrestore(i8* %52), !dbg !75
  br label %53, !dbg !76

53:                                               ; preds = %43
  %54 = load i32, i32* %6, align 4, !dbg !77, !tbaa !31
  %55 = add nsw i32 %54, 1, !dbg !77
  store i32 %55, i32* %6, align 4, !dbg !77, !tbaa !31
  br label %13, !dbg !45, !llvm.loop !78

56:                                               ; preds = %17
  %57 = load i32, i32* %5, align 4, !dbg !80, !tbaa !31
  store i32 1, i32* %7, align 4
  %58 = bitcast i32* %5 to i8*, !dbg !81
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %58) #4, !dbg !81
  ret i32 %57, !dbg !82
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture) #2

; Function Attrs: nofree nosync nounwind willreturn
declare i8* @llvm.stacksave() #3

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture) #2

; Function Attrs: nofree nosync nounwind willreturn
declare void @llvm.stackrestore(i8*) #3

; Function Attrs: nounwind uwtable
define dso_local i32 @plain(i32 noundef %0) #0 !dbg !83 {
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !31
  call void @llvm.dbg.declare(metadata i32* %2, metadata !87, metadata !DIExpression()), !dbg !91
  %5 = bitcast i32* %3 to i8*, !dbg !92
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %5) #4, !dbg !92
  call void @llvm.dbg.declare(metadata i32* %3, metadata !88, metadata !DIExpression()), !dbg !93
  store i32 0, i32* %3, align 4, !dbg !93, !tbaa !31
  %6 = bitcast i32* %4 to i8*, !dbg !94
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %6) #4, !dbg !94
  call void @llvm.dbg.declare(metadata i32* %4, metadata !89, metadata !DIExpression()), !dbg !95
  store i32 0, i32* %4, align 4, !dbg !95, !tbaa !31
  br label %7, !dbg !94

7:                                                ; preds = %17, %1
  %8 = load i32, i32* %4, align 4, !dbg !96, !tbaa !31
  %9 = load i32, i32* %2, align 4, !dbg !98, !tbaa !31
  %10 = icmp slt i32 %8, %9, !dbg !99
  br i1 %10, label %13, label %11, !dbg !100

11:                                               ; preds = %7
  %12 = bitcast i32* %4 to i8*, !dbg !101
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %12) #4, !dbg !101
  br label %20

13:                                               ; preds = %7
  %14 = load i32, i32* %4, align 4, !dbg !102, !tbaa !31
  %15 = load i32, i32* %3, align 4, !dbg !103, !tbaa !31
  %16 = add nsw i32 %15, %14, !dbg !103
  store i32 %16, i32* %3, align 4, !dbg !103, !tbaa !31
  br label %17, !dbg !104

17:                                               ; preds = %13
  %18 = load i32, i32* %4, align 4, !dbg !105, !tbaa !31
  %19 = add nsw i32 %18, 1, !dbg !105
  store i32 %19, i32* %4, align 4, !dbg !105, !tbaa !31
  br label %7, !dbg !101, !llvm.loop !106

20:                                               ; preds = %11
  %21 = load i32, i32* %3, align 4, !dbg !108, !tbaa !31
  %22 = bitcast i32* %3 to i8*, !dbg !109
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %22) #4, !dbg !109
  ret i32 %21, !dbg !110
}

attributes #0 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { argmemonly nofree nosync nounwind willreturn }
attributes #3 = { nofree nosync nounwind willreturn }
attributes #4 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!4, !5, !6, !7, !8, !9}
!llvm.ident = !{!10}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !2, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "vlaloop.c", directory: "/src", checksumkind: CSK_MD5, checksum: "20a34b54b0c1be69984c6197b2f5f3ed")
!2 = !{!3}
!3 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = !{i32 2, !"Debug Info Version", i32 3}
!6 = !{i32 1, !"wchar_size", i32 4}
!7 = !{i32 7, !"PIC Level", i32 2}
!8 = !{i32 7, !"PIE Level", i32 2}
!9 = !{i32 7, !"uwtable", i32 1}
!10 = !{!"Debian clang version 14.0.6"}
!11 = distinct !DISubprogram(name: "scoped_vla", scope: !1, file: !1, line: 2, type: !12, scopeLine: 3, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !15)
!12 = !DISubroutineType(types: !13)
!13 = !{!14, !14, !14}
!14 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!15 = !{!16, !17, !18, !19, !21, !25, !29}
!16 = !DILocalVariable(name: "n", arg: 1, scope: !11, file: !1, line: 2, type: !14)
!17 = !DILocalVariable(name: "r", arg: 2, scope: !11, file: !1, line: 2, type: !14)
!18 = !DILocalVariable(name: "s", scope: !11, file: !1, line: 4, type: !14)
!19 = !DILocalVariable(name: "j", scope: !20, file: !1, line: 5, type: !14)
!20 = distinct !DILexicalBlock(scope: !11, file: !1, line: 5, column: 5)
!21 = !DILocalVariable(name: "__vla_expr0", scope: !22, type: !24, flags: DIFlagArtificial)
!22 = distinct !DILexicalBlock(scope: !23, file: !1, line: 5, column: 33)
!23 = distinct !DILexicalBlock(scope: !20, file: !1, line: 5, column: 5)
!24 = !DIBasicType(name: "unsigned long", size: 64, encoding: DW_ATE_unsigned)
!25 = !DILocalVariable(name: "tmp", scope: !22, file: !1, line: 6, type: !26)
!26 = !DICompositeType(tag: DW_TAG_array_type, baseType: !3, elements: !27)
!27 = !{!28}
!28 = !DISubrange(count: !21)
!29 = !DILocalVariable(name: "i", scope: !30, file: !1, line: 7, type: !14)
!30 = distinct !DILexicalBlock(scope: !22, file: !1, line: 7, column: 9)
!31 = !{!32, !32, i64 0}
!32 = !{!"int", !33, i64 0}
!33 = !{!"omnipotent char", !34, i64 0}
!34 = !{!"Simple C/C++ TBAA"}
!35 = !DILocation(line: 2, column: 20, scope: !11)
!36 = !DILocation(line: 2, column: 27, scope: !11)
!37 = !DILocation(line: 4, column: 5, scope: !11)
!38 = !DILocation(line: 4, column: 9, scope: !11)
!39 = !DILocation(line: 5, column: 10, scope: !20)
!40 = !DILocation(line: 5, column: 14, scope: !20)
!41 = !DILocation(line: 5, column: 21, scope: !23)
!42 = !DILocation(line: 5, column: 25, scope: !23)
!43 = !DILocation(line: 5, column: 23, scope: !23)
!44 = !DILocation(line: 5, column: 5, scope: !20)
!45 = !DILocation(line: 5, column: 5, scope: !23)
!46 = !DILocation(line: 6, column: 18, scope: !22)
!47 = !DILocation(line: 6, column: 20, scope: !22)
!48 = !DILocation(line: 6, column: 9, scope: !22)
!49 = !DILocation(line: 0, scope: !22)
!50 = !DILocation(line: 6, column: 14, scope: !22)
!51 = !DILocation(line: 7, column: 14, scope: !30)
!52 = !DILocation(line: 7, column: 18, scope: !30)
!53 = !DILocation(line: 7, column: 25, scope: !54)
!54 = distinct !DILexicalBlock(scope: !30, file: !1, line: 7, column: 9)
!55 = !DILocation(line: 7, column: 30, scope: !54)
!56 = !DILocation(line: 7, column: 27, scope: !54)
!57 = !DILocation(line: 7, column: 9, scope: !30)
!58 = !DILocation(line: 7, column: 9, scope: !54)
!59 = !DILocation(line: 8, column: 29, scope: !54)
!60 = !DILocation(line: 8, column: 33, scope: !54)
!61 = !DILocation(line: 8, column: 31, scope: !54)
!62 = !DILocation(line: 8, column: 22, scope: !54)
!63 = !DILocation(line: 8, column: 17, scope: !54)
!64 = !DILocation(line: 8, column: 13, scope: !54)
!65 = !DILocation(line: 8, column: 20, scope: !54)
!66 = !{!33, !33, i64 0}
!67 = !DILocation(line: 7, column: 34, scope: !54)
!68 = distinct !{!68, !57, !69, !70}
!69 = !DILocation(line: 8, column: 34, scope: !30)
!70 = !{!"llvm.loop.mustprogress"}
!71 = !DILocation(line: 9, column: 18, scope: !22)
!72 = !DILocation(line: 9, column: 20, scope: !22)
!73 = !DILocation(line: 9, column: 14, scope: !22)
!74 = !DILocation(line: 9, column: 11, scope: !22)
!75 = !DILocation(line: 10, column: 5, scope: !23)
!76 = !DILocation(line: 10, column: 5, scope: !22)
!77 = !DILocation(line: 5, column: 29, scope: !23)
!78 = distinct !{!78, !44, !79, !70}
!79 = !DILocation(line: 10, column: 5, scope: !20)
!80 = !DILocation(line: 11, column: 12, scope: !11)
!81 = !DILocation(line: 12, column: 1, scope: !11)
!82 = !DILocation(line: 11, column: 5, scope: !11)
!83 = distinct !DISubprogram(name: "plain", scope: !1, file: !1, line: 14, type: !84, scopeLine: 15, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !86)
!84 = !DISubroutineType(types: !85)
!85 = !{!14, !14}
!86 = !{!87, !88, !89}
!87 = !DILocalVariable(name: "r", arg: 1, scope: !83, file: !1, line: 14, type: !14)
!88 = !DILocalVariable(name: "s", scope: !83, file: !1, line: 16, type: !14)
!89 = !DILocalVariable(name: "j", scope: !90, file: !1, line: 17, type: !14)
!90 = distinct !DILexicalBlock(scope: !83, file: !1, line: 17, column: 5)
!91 = !DILocation(line: 14, column: 15, scope: !83)
!92 = !DILocation(line: 16, column: 5, scope: !83)
!93 = !DILocation(line: 16, column: 9, scope: !83)
!94 = !DILocation(line: 17, column: 10, scope: !90)
!95 = !DILocation(line: 17, column: 14, scope: !90)
!96 = !DILocation(line: 17, column: 21, scope: !97)
!97 = distinct !DILexicalBlock(scope: !90, file: !1, line: 17, column: 5)
!98 = !DILocation(line: 17, column: 25, scope: !97)
!99 = !DILocation(line: 17, column: 23, scope: !97)
!100 = !DILocation(line: 17, column: 5, scope: !90)
!101 = !DILocation(line: 17, column: 5, scope: !97)
!102 = !DILocation(line: 18, column: 14, scope: !97)
!103 = !DILocation(line: 18, column: 11, scope: !97)
!104 = !DILocation(line: 18, column: 9, scope: !97)
!105 = !DILocation(line: 17, column: 29, scope: !97)
!106 = distinct !{!106, !100, !107, !70}
!107 = !DILocation(line: 18, column: 14, scope: !90)
!108 = !DILocation(line: 19, column: 12, scope: !83)
!109 = !DILocation(line: 20, column: 1, scope: !83)
!110 = !DILocation(line: 19, column: 5, scope: !83)
