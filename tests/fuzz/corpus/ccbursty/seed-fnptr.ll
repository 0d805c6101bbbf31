; ModuleID = 'fnptr.c'
source_filename = "fnptr.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@ops = dso_local global [2 x i32 (i32, i32)*] [i32 (i32, i32)* @add, i32 (i32, i32)* @mul], align 16, !dbg !0

; Function Attrs: nounwind uwtable
define internal i32 @add(i32 noundef %0, i32 noundef %1) #0 !dbg !24 {
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  store i32 %0, i32* %3, align 4, !tbaa !28
  call void @llvm.dbg.declare(metadata i32* %3, metadata !26, metadata !DIExpression()), !dbg !32
  store i32 %1, i32* %4, align 4, !tbaa !28
  call void @llvm.dbg.declare(metadata i32* %4, metadata !27, metadata !DIExpression()), !dbg !33
  %5 = load i32, i32* %3, align 4, !dbg !34, !tbaa !28
  %6 = load i32, i32* %4, align 4, !dbg !35, !tbaa !28
  %7 = add nsw i32 %5, %6, !dbg !36
  ret i32 %7, !dbg !37
}

; Function Attrs: nounwind uwtable
define internal i32 @mul(i32 noundef %0, i32 noundef %1) #0 !dbg !38 {
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  store i32 %0, i32* %3, align 4, !tbaa !28
  call void @llvm.dbg.declare(metadata i32* %3, metadata !40, metadata !DIExpression()), !dbg !42
  store i32 %1, i32* %4, align 4, !tbaa !28
  call void @llvm.dbg.declare(metadata i32* %4, metadata !41, metadata !DIExpression()), !dbg !43
  %5 = load i32, i32* %3, align 4, !dbg !44, !tbaa !28
  %6 = load i32, i32* %4, align 4, !dbg !45, !tbaa !28
  %7 = mul nsw i32 %5, %6, !dbg !46
  ret i32 %7, !dbg !47
}

; Function Attrs: nounwind uwtable
define dso_local i32 @apply(i32* noundef %0, i32 noundef %1, i32 noundef %2) #0 !dbg !48 {
  %4 = alloca i32*, align 8
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  store i32* %0, i32** %4, align 8, !tbaa !59
  call void @llvm.dbg.declare(metadata i32** %4, metadata !53, metadata !DIExpression()), !dbg !61
  store i32 %1, i32* %5, align 4, !tbaa !28
  call void @llvm.dbg.declare(metadata i32* %5, metadata !54, metadata !DIExpression()), !dbg !62
  store i32 %2, i32* %6, align 4, !tbaa !28
  call void @llvm.dbg.declare(metadata i32* %6, metadata !55, metadata !DIExpression()), !dbg !63
  %9 = load i32*, i32** %4, align 8, !dbg !64, !tbaa !59
  %10 = bitcast i32* %9 to i8*, !dbg !64
  %11 = load i32, i32* %5, align 4, !dbg !65, !tbaa !28
  %12 = sext i32 %11 to i64, !dbg !66
  call void @qsort(i8* noundef %10, i64 noundef %12, i64 noundef 4, i32 (i8*, i8*)* noundef @by_value), !dbg !67
  %13 = bitcast i32* %7 to i8*, !dbg !68
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %13) #4, !dbg !68
  call void @llvm.dbg.declare(metadata i32* %7, metadata !56, metadata !DIExpression()), !dbg !69
  %14 = load i32*, i32** %4, align 8, !dbg !70, !tbaa !59
  %15 = getelementptr inbounds i32, i32* %14, i64 0, !dbg !70
  %16 = load i32, i32* %15, align 4, !dbg !70, !tbaa !28
  store i32 %16, i32* %7, align 4, !dbg !69, !tbaa !28
  %17 = bitcast i32* %8 to i8*, !dbg !71
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %17) #4, !dbg !71
  call void @llvm.dbg.declare(metadata i32* %8, metadata !57, metadata !DIExpression()), !dbg !72
  store i32 1, i32* %8, align 4, !dbg !72, !tbaa !28
  br label %18, !dbg !71

18:                                               ; preds = %39, %3
  %19 = load i32, i32* %8, align 4, !dbg !73, !tbaa !28
  %20 = load i32, i32* %5, align 4, !dbg !75, !tbaa !28
  %21 = icmp slt i32 %19, %20, !dbg !76
  br i1 %21, label %24, label %22, !dbg !77

22:                                               ; preds = %18
  %23 = bitcast i32* %8 to i8*, !dbg !78
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %23) #4, !dbg !78
  br label %42

24:                                               ; preds = %18
  %25 = load i32, i32* %6, align 4, !dbg !79, !tbaa !28
  %26 = load i32, i32* %8, align 4, !dbg !80, !tbaa !28
  %27 = add nsw i32 %25, %26, !dbg !81
  %28 = and i32 %27, 1, !dbg !82
  %29 = sext i32 %28 to i64, !dbg !83
  %30 = getelementptr inbounds [2 x i32 (i32, i32)*], [2 x i32 (i32, i32)*]* @ops, i64 0, i64 %29, !dbg !83
  %31 = load i32 (i32, i32)*, i32 (i32, i32)** %30, align 8, !dbg !83, !tbaa !59
  %32 = load i32, i32* %7, align 4, !dbg !84, !tbaa !28
  %33 = load i32*, i32** %4, align 8, !dbg !85, !tbaa !59
  %34 = load i32, i32* %8, align 4, !dbg !86, !tbaa !28
  %35 = sext i32 %34 to i64, !dbg !85
  %36 = getelementptr inbounds i32, i32* %33, i64 %35, !dbg !85
  %37 = load i32, i32* %36, align 4, !dbg !85, !tbaa !28
  %38 = call i32 %31(i32 noundef %32, i32 noundef %37), !dbg !83
  store i32 %38, i32* %7, align 4, !dbg !87, !tbaa !28
  br label %39, !dbg !88

39:                                               ; preds = %24
  %40 = load i32, i32* %8, align 4, !dbg !89, !tbaa !28
  %41 = add nsw i32 %40, 1, !dbg !89
  store i32 %41, i32* %8, align 4, !dbg !89, !tbaa !28
  br label %18, !dbg !78, !llvm.loop !90

42:                                               ; preds = %22
  %43 = load i32, i32* %7, align 4, !dbg !93, !tbaa !28
  %44 = bitcast i32* %7 to i8*, !dbg !94
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %44) #4, !dbg !94
  ret i32 %43, !dbg !95
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

declare !dbg !96 void @qsort(i8* noundef, i64 noundef, i64 noundef, i32 (i8*, i8*)* noundef) #2

; Function Attrs: nounwind uwtable
define internal i32 @by_value(i8* noundef %0, i8* noundef %1) #0 !dbg !106 {
  %3 = alloca i8*, align 8
  %4 = alloca i8*, align 8
  store i8* %0, i8** %3, align 8, !tbaa !59
  call void @llvm.dbg.declare(metadata i8** %3, metadata !108, metadata !DIExpression()), !dbg !110
  store i8* %1, i8** %4, align 8, !tbaa !59
  call void @llvm.dbg.declare(metadata i8** %4, metadata !109, metadata !DIExpression()), !dbg !111
  %5 = load i8*, i8** %3, align 8, !dbg !112, !tbaa !59
  %6 = bitcast i8* %5 to i32*, !dbg !113
  %7 = load i32, i32* %6, align 4, !dbg !114, !tbaa !28
  %8 = load i8*, i8** %4, align 8, !dbg !115, !tbaa !59
  %9 = bitcast i8* %8 to i32*, !dbg !116
  %10 = load i32, i32* %9, align 4, !dbg !117, !tbaa !28
  %11 = icmp sgt i32 %7, %10, !dbg !118
  %12 = zext i1 %11 to i32, !dbg !118
  %13 = load i8*, i8** %3, align 8, !dbg !119, !tbaa !59
  %14 = bitcast i8* %13 to i32*, !dbg !120
  %15 = load i32, i32* %14, align 4, !dbg !121, !tbaa !28
  %16 = load i8*, i8** %4, align 8, !dbg !122, !tbaa !59
  %17 = bitcast i8* %16 to i32*, !dbg !123
  %18 = load i32, i32* %17, align 4, !dbg !124, !tbaa !28
  %19 = icmp slt i32 %15, %18, !dbg !125
  %20 = zext i1 %19 to i32, !dbg !125
  %21 = sub nsw i32 %12, %20, !dbg !126
  ret i32 %21, !dbg !127
}

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture) #3

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture) #3

attributes #0 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { argmemonly nofree nosync nounwind willreturn }
attributes #4 = { nounwind }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!17, !18, !19, !20, !21, !22}
!llvm.ident = !{!23}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "ops", scope: !2, file: !3, line: 12, type: !10, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C99, file: !3, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !4, globals: !9, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "fnptr.c", directory: "/src", checksumkind: CSK_MD5, checksum: "3efcb81c48b204676000ceefef59254f")
!4 = !{!5, !6}
!5 = !DIBasicType(name: "unsigned long", size: 64, encoding: DW_ATE_unsigned)
!6 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !7, size: 64)
!7 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !8)
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !{!0}
!10 = !DICompositeType(tag: DW_TAG_array_type, baseType: !11, size: 128, elements: !15)
!11 = !DIDerivedType(tag: DW_TAG_typedef, name: "op_fn", file: !3, line: 9, baseType: !12)
!12 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !13, size: 64)
!13 = !DISubroutineType(types: !14)
!14 = !{!8, !8, !8}
!15 = !{!16}
!16 = !DISubrange(count: 2)
!17 = !{i32 7, !"Dwarf Version", i32 5}
!18 = !{i32 2, !"Debug Info Version", i32 3}
!19 = !{i32 1, !"wchar_size", i32 4}
!20 = !{i32 7, !"PIC Level", i32 2}
!21 = !{i32 7, !"PIE Level", i32 2}
!22 = !{i32 7, !"uwtable", i32 1}
!23 = !{!"Debian clang version 14.0.6"}
!24 = distinct !DISubprogram(name: "add", scope: !3, file: !3, line: 10, type: !13, scopeLine: 10, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !25)
!25 = !{!26, !27}
!26 = !DILocalVariable(name: "a", arg: 1, scope: !24, file: !3, line: 10, type: !8)
!27 = !DILocalVariable(name: "b", arg: 2, scope: !24, file: !3, line: 10, type: !8)
!28 = !{!29, !29, i64 0}
!29 = !{!"int", !30, i64 0}
!30 = !{!"omnipotent char", !31, i64 0}
!31 = !{!"Simple C/C++ TBAA"}
!32 = !DILocation(line: 10, column: 20, scope: !24)
!33 = !DILocation(line: 10, column: 27, scope: !24)
!34 = !DILocation(line: 10, column: 39, scope: !24)
!35 = !DILocation(line: 10, column: 43, scope: !24)
!36 = !DILocation(line: 10, column: 41, scope: !24)
!37 = !DILocation(line: 10, column: 32, scope: !24)
!38 = distinct !DISubprogram(name: "mul", scope: !3, file: !3, line: 11, type: !13, scopeLine: 11, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !39)
!39 = !{!40, !41}
!40 = !DILocalVariable(name: "a", arg: 1, scope: !38, file: !3, line: 11, type: !8)
!41 = !DILocalVariable(name: "b", arg: 2, scope: !38, file: !3, line: 11, type: !8)
!42 = !DILocation(line: 11, column: 20, scope: !38)
!43 = !DILocation(line: 11, column: 27, scope: !38)
!44 = !DILocation(line: 11, column: 39, scope: !38)
!45 = !DILocation(line: 11, column: 43, scope: !38)
!46 = !DILocation(line: 11, column: 41, scope: !38)
!47 = !DILocation(line: 11, column: 32, scope: !38)
!48 = distinct !DISubprogram(name: "apply", scope: !3, file: !3, line: 14, type: !49, scopeLine: 15, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !52)
!49 = !DISubroutineType(types: !50)
!50 = !{!8, !51, !8, !8}
!51 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !8, size: 64)
!52 = !{!53, !54, !55, !56, !57}
!53 = !DILocalVariable(name: "v", arg: 1, scope: !48, file: !3, line: 14, type: !51)
!54 = !DILocalVariable(name: "n", arg: 2, scope: !48, file: !3, line: 14, type: !8)
!55 = !DILocalVariable(name: "k", arg: 3, scope: !48, file: !3, line: 14, type: !8)
!56 = !DILocalVariable(name: "acc", scope: !48, file: !3, line: 17, type: !8)
!57 = !DILocalVariable(name: "i", scope: !58, file: !3, line: 18, type: !8)
!58 = distinct !DILexicalBlock(scope: !48, file: !3, line: 18, column: 5)
!59 = !{!60, !60, i64 0}
!60 = !{!"any pointer", !30, i64 0}
!61 = !DILocation(line: 14, column: 16, scope: !48)
!62 = !DILocation(line: 14, column: 23, scope: !48)
!63 = !DILocation(line: 14, column: 30, scope: !48)
!64 = !DILocation(line: 16, column: 11, scope: !48)
!65 = !DILocation(line: 16, column: 29, scope: !48)
!66 = !DILocation(line: 16, column: 14, scope: !48)
!67 = !DILocation(line: 16, column: 5, scope: !48)
!68 = !DILocation(line: 17, column: 5, scope: !48)
!69 = !DILocation(line: 17, column: 9, scope: !48)
!70 = !DILocation(line: 17, column: 15, scope: !48)
!71 = !DILocation(line: 18, column: 10, scope: !58)
!72 = !DILocation(line: 18, column: 14, scope: !58)
!73 = !DILocation(line: 18, column: 21, scope: !74)
!74 = distinct !DILexicalBlock(scope: !58, file: !3, line: 18, column: 5)
!75 = !DILocation(line: 18, column: 25, scope: !74)
!76 = !DILocation(line: 18, column: 23, scope: !74)
!77 = !DILocation(line: 18, column: 5, scope: !58)
!78 = !DILocation(line: 18, column: 5, scope: !74)
!79 = !DILocation(line: 19, column: 20, scope: !74)
!80 = !DILocation(line: 19, column: 24, scope: !74)
!81 = !DILocation(line: 19, column: 22, scope: !74)
!82 = !DILocation(line: 19, column: 27, scope: !74)
!83 = !DILocation(line: 19, column: 15, scope: !74)
!84 = !DILocation(line: 19, column: 32, scope: !74)
!85 = !DILocation(line: 19, column: 37, scope: !74)
!86 = !DILocation(line: 19, column: 39, scope: !74)
!87 = !DILocation(line: 19, column: 13, scope: !74)
!88 = !DILocation(line: 19, column: 9, scope: !74)
!89 = !DILocation(line: 18, column: 29, scope: !74)
!90 = distinct !{!90, !77, !91, !92}
!91 = !DILocation(line: 19, column: 41, scope: !58)
!92 = !{!"llvm.loop.mustprogress"}
!93 = !DILocation(line: 20, column: 12, scope: !48)
!94 = !DILocation(line: 21, column: 1, scope: !48)
!95 = !DILocation(line: 20, column: 5, scope: !48)
!96 = !DISubprogram(name: "qsort", scope: !3, file: !3, line: 2, type: !97, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized, retainedNodes: !105)
!97 = !DISubroutineType(types: !98)
!98 = !{null, !99, !5, !5, !100}
!99 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64)
!100 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !101, size: 64)
!101 = !DISubroutineType(types: !102)
!102 = !{!8, !103, !103}
!103 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !104, size: 64)
!104 = !DIDerivedType(tag: DW_TAG_const_type, baseType: null)
!105 = !{}
!106 = distinct !DISubprogram(name: "by_value", scope: !3, file: !3, line: 4, type: !101, scopeLine: 5, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !107)
!107 = !{!108, !109}
!108 = !DILocalVariable(name: "a", arg: 1, scope: !106, file: !3, line: 4, type: !103)
!109 = !DILocalVariable(name: "b", arg: 2, scope: !106, file: !3, line: 4, type: !103)
!110 = !DILocation(line: 4, column: 33, scope: !106)
!111 = !DILocation(line: 4, column: 48, scope: !106)
!112 = !DILocation(line: 6, column: 27, scope: !106)
!113 = !DILocation(line: 6, column: 14, scope: !106)
!114 = !DILocation(line: 6, column: 13, scope: !106)
!115 = !DILocation(line: 6, column: 45, scope: !106)
!116 = !DILocation(line: 6, column: 32, scope: !106)
!117 = !DILocation(line: 6, column: 31, scope: !106)
!118 = !DILocation(line: 6, column: 29, scope: !106)
!119 = !DILocation(line: 6, column: 65, scope: !106)
!120 = !DILocation(line: 6, column: 52, scope: !106)
!121 = !DILocation(line: 6, column: 51, scope: !106)
!122 = !DILocation(line: 6, column: 83, scope: !106)
!123 = !DILocation(line: 6, column: 70, scope: !106)
!124 = !DILocation(line: 6, column: 69, scope: !106)
!125 = !DILocation(line: 6, column: 67, scope: !106)
!126 = !DILocation(line: 6, column: 48, scope: !106)
!127 = !DILocation(line: 6, column: 5, scope: !106)
