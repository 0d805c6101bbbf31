; ModuleID = 'goto.c'
source_filename = "goto.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@interp.labels = internal constant [3 x i8*] [i8* blockaddress(@interp, %9), i8* blockaddress(@interp, %18), i8* blockaddress(@interp, %27)], align 16, !dbg !0

; Function Attrs: nounwind uwtable
define dso_local i32 @gcd(i32 noundef %0, i32 noundef %1) #0 !dbg !30 {
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  store i32 %0, i32* %3, align 4, !tbaa !39
  call void @llvm.dbg.declare(metadata i32* %3, metadata !34, metadata !DIExpression()), !dbg !43
  store i32 %1, i32* %4, align 4, !tbaa !39
  call void @llvm.dbg.declare(metadata i32* %4, metadata !35, metadata !DIExpression()), !dbg !44
  br label %6, !dbg !45

6:                                                ; preds = %10, %2
  call void @llvm.dbg.label(metadata !37), !dbg !46
  %7 = load i32, i32* %4, align 4, !dbg !47, !tbaa !39
  %8 = icmp eq i32 %7, 0, !dbg !49
  br i1 %8, label %9, label %10, !dbg !50

9:                                                ; preds = %6
  br label %16, !dbg !51

10:                                               ; preds = %6
  call void @llvm.dbg.declare(metadata i32* %5, metadata !36, metadata !DIExpression()), !dbg !52
  %11 = load i32, i32* %3, align 4, !dbg !53, !tbaa !39
  %12 = load i32, i32* %4, align 4, !dbg !54, !tbaa !39
  %13 = srem i32 %11, %12, !dbg !55
  store i32 %13, i32* %5, align 4, !dbg !52, !tbaa !39
  %14 = load i32, i32* %4, align 4, !dbg !56, !tbaa !39
  store i32 %14, i32* %3, align 4, !dbg !57, !tbaa !39
  %15 = load i32, i32* %5, align 4, !dbg !58, !tbaa !39
  store i32 %15, i32* %4, align 4, !dbg !59, !tbaa !39
  br label %6, !dbg !60

16:                                               ; preds = %9
  call void @llvm.dbg.label(metadata !38), !dbg !61
  %17 = load i32, i32* %3, align 4, !dbg !62, !tbaa !39
  ret i32 %17, !dbg !63
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.label(metadata) #1

; Function Attrs: nounwind uwtable
define dso_local i32 @interp(i8* noundef %0) #0 !dbg !2 {
  %2 = alloca i8*, align 8
  %3 = alloca i32, align 4
  store i8* %0, i8** %2, align 8, !tbaa !64
  call void @llvm.dbg.declare(metadata i8** %2, metadata !13, metadata !DIExpression()), !dbg !66
  call void @llvm.dbg.declare(metadata i32* %3, metadata !14, metadata !DIExpression()), !dbg !67
  store i32 0, i32* %3, align 4, !dbg !67, !tbaa !39
  %4 = load i8*, i8** %2, align 8, !dbg !68, !tbaa !64
  %5 = load i8, i8* %4, align 1, !dbg !69, !tbaa !70
  %6 = zext i8 %5 to i64, !dbg !71
  %7 = getelementptr inbounds [3 x i8*], [3 x i8*]* @interp.labels, i64 0, i64 %6, !dbg !71
  %8 = load i8*, i8** %7, align 8, !dbg !71, !tbaa !64
  br label %29, !dbg !72

9:                                                ; preds = %29
  call void @llvm.dbg.label(metadata !15), !dbg !73
  %10 = load i32, i32* %3, align 4, !dbg !74, !tbaa !39
  %11 = add nsw i32 %10, 1, !dbg !74
  store i32 %11, i32* %3, align 4, !dbg !74, !tbaa !39
  %12 = load i8*, i8** %2, align 8, !dbg !75, !tbaa !64
  %13 = getelementptr inbounds i8, i8* %12, i32 1, !dbg !75
  store i8* %13, i8** %2, align 8, !dbg !75, !tbaa !64
  %14 = load i8, i8* %13, align 1, !dbg !76, !tbaa !70
  %15 = zext i8 %14 to i64, !dbg !77
  %16 = getelementptr inbounds [3 x i8*], [3 x i8*]* @interp.labels, i64 0, i64 %15, !dbg !77
  %17 = load i8*, i8** %16, align 8, !dbg !77, !tbaa !64
  br label %29, !dbg !78

18:                                               ; preds = %29
  call void @llvm.dbg.label(metadata !16), !dbg !79
  %19 = load i32, i32* %3, align 4, !dbg !80, !tbaa !39
  %20 = add nsw i32 %19, -1, !dbg !80
  store i32 %20, i32* %3, align 4, !dbg !80, !tbaa !39
  %21 = load i8*, i8** %2, align 8, !dbg !81, !tbaa !64
  %22 = getelementptr inbounds i8, i8* %21, i32 1, !dbg !81
  store i8* %22, i8** %2, align 8, !dbg !81, !tbaa !64
  %23 = load i8, i8* %22, align 1, !dbg !82, !tbaa !70
  %24 = zext i8 %23 to i64, !dbg !83
  %25 = getelementptr inbounds [3 x i8*], [3 x i8*]* @interp.labels, i64 0, i64 %24, !dbg !83
  %26 = load i8*, i8** %25, align 8, !dbg !83, !tbaa !64
  br label %29, !dbg !84

27:                                               ; preds = %29
  call void @llvm.dbg.label(metadata !17), !dbg !85
  %28 = load i32, i32* %3, align 4, !dbg !86, !tbaa !39
  ret i32 %28, !dbg !87

29:                                               ; preds = %18, %9, %1
  %30 = phi i8* [ %8, %1 ], [ %17, %9 ], [ %26, %18 ]
  indirectbr i8* %30, [label %9, label %18, label %27]
}

attributes #0 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }

!llvm.dbg.cu = !{!10}
!llvm.module.flags = !{!23, !24, !25, !26, !27, !28}
!llvm.ident = !{!29}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "labels", scope: !2, file: !3, line: 17, type: !18, isLocal: true, isDefinition: true)
!2 = distinct !DISubprogram(name: "interp", scope: !3, file: !3, line: 15, type: !4, scopeLine: 16, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !10, retainedNodes: !12)
!3 = !DIFile(filename: "goto.c", directory: "/src", checksumkind: CSK_MD5, checksum: "6ccc80edfd22d8c5fc7132d9f27cff66")
!4 = !DISubroutineType(types: !5)
!5 = !{!6, !7}
!6 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!7 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !8, size: 64)
!8 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !9)
!9 = !DIBasicType(name: "unsigned char", size: 8, encoding: DW_ATE_unsigned_char)
!10 = distinct !DICompileUnit(language: DW_LANG_C99, file: !3, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, globals: !11, splitDebugInlining: false, nameTableKind: None)
!11 = !{!0}
!12 = !{!13, !14, !15, !16, !17}
!13 = !DILocalVariable(name: "code", arg: 1, scope: !2, file: !3, line: 15, type: !7)
!14 = !DILocalVariable(name: "acc", scope: !2, file: !3, line: 18, type: !6)
!15 = !DILabel(scope: !2, name: "op_inc", file: !3, line: 20)
!16 = !DILabel(scope: !2, name: "op_dec", file: !3, line: 23)
!17 = !DILabel(scope: !2, name: "op_end", file: !3, line: 26)
!18 = !DICompositeType(tag: DW_TAG_array_type, baseType: !19, size: 192, elements: !21)
!19 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !20)
!20 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64)
!21 = !{!22}
!22 = !DISubrange(count: 3)
!23 = !{i32 7, !"Dwarf Version", i32 5}
!24 = !{i32 2, !"Debug Info Version", i32 3}
!25 = !{i32 1, !"wchar_size", i32 4}
!26 = !{i32 7, !"PIC Level", i32 2}
!27 = !{i32 7, !"PIE Level", i32 2}
!28 = !{i32 7, !"uwtable", i32 1}
!29 = !{!"Debian clang version 14.0.6"}
!30 = distinct !DISubprogram(name: "gcd", scope: !3, file: !3, line: 2, type: !31, scopeLine: 3, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !10, retainedNodes: !33)
!31 = !DISubroutineType(types: !32)
!32 = !{!6, !6, !6}
!33 = !{!34, !35, !36, !37, !38}
!34 = !DILocalVariable(name: "a", arg: 1, scope: !30, file: !3, line: 2, type: !6)
!35 = !DILocalVariable(name: "b", arg: 2, scope: !30, file: !3, line: 2, type: !6)
!36 = !DILocalVariable(name: "t", scope: !30, file: !3, line: 7, type: !6)
!37 = !DILabel(scope: !30, name: "again", file: !3, line: 4)
!38 = !DILabel(scope: !30, name: "out", file: !3, line: 11)
!39 = !{!40, !40, i64 0}
!40 = !{!"int", !41, i64 0}
!41 = !{!"omnipotent char", !42, i64 0}
!42 = !{!"Simple C/C++ TBAA"}
!43 = !DILocation(line: 2, column: 13, scope: !30)
!44 = !DILocation(line: 2, column: 20, scope: !30)
!45 = !DILocation(line: 3, column: 1, scope: !30)
!46 = !DILocation(line: 4, column: 1, scope: !30)
!47 = !DILocation(line: 5, column: 9, scope: !48)
!48 = distinct !DILexicalBlock(scope: !30, file: !3, line: 5, column: 9)
!49 = !DILocation(line: 5, column: 11, scope: !48)
!50 = !DILocation(line: 5, column: 9, scope: !30)
!51 = !DILocation(line: 6, column: 9, scope: !48)
!52 = !DILocation(line: 7, column: 9, scope: !30)
!53 = !DILocation(line: 7, column: 13, scope: !30)
!54 = !DILocation(line: 7, column: 17, scope: !30)
!55 = !DILocation(line: 7, column: 15, scope: !30)
!56 = !DILocation(line: 8, column: 9, scope: !30)
!57 = !DILocation(line: 8, column: 7, scope: !30)
!58 = !DILocation(line: 9, column: 9, scope: !30)
!59 = !DILocation(line: 9, column: 7, scope: !30)
!60 = !DILocation(line: 10, column: 5, scope: !30)
!61 = !DILocation(line: 11, column: 1, scope: !30)
!62 = !DILocation(line: 12, column: 12, scope: !30)
!63 = !DILocation(line: 12, column: 5, scope: !30)
!64 = !{!65, !65, i64 0}
!65 = !{!"any pointer", !41, i64 0}
!66 = !DILocation(line: 15, column: 33, scope: !2)
!67 = !DILocation(line: 18, column: 9, scope: !2)
!68 = !DILocation(line: 19, column: 19, scope: !2)
!69 = !DILocation(line: 19, column: 18, scope: !2)
!70 = !{!41, !41, i64 0}
!71 = !DILocation(line: 19, column: 11, scope: !2)
!72 = !DILocation(line: 19, column: 5, scope: !2)
!73 = !DILocation(line: 20, column: 1, scope: !2)
!74 = !DILocation(line: 21, column: 8, scope: !2)
!75 = !DILocation(line: 22, column: 19, scope: !2)
!76 = !DILocation(line: 22, column: 18, scope: !2)
!77 = !DILocation(line: 22, column: 11, scope: !2)
!78 = !DILocation(line: 22, column: 5, scope: !2)
!79 = !DILocation(line: 23, column: 1, scope: !2)
!80 = !DILocation(line: 24, column: 8, scope: !2)
!81 = !DILocation(line: 25, column: 19, scope: !2)
!82 = !DILocation(line: 25, column: 18, scope: !2)
!83 = !DILocation(line: 25, column: 11, scope: !2)
!84 = !DILocation(line: 25, column: 5, scope: !2)
!85 = !DILocation(line: 26, column: 1, scope: !2)
!86 = !DILocation(line: 27, column: 12, scope: !2)
!87 = !DILocation(line: 27, column: 5, scope: !2)
