; ModuleID = 'switch.c'
source_filename = "switch.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nounwind uwtable
define dso_local i32 @state_machine(i8* noundef %0) #0 !dbg !9 {
  %2 = alloca i32, align 4
  %3 = alloca i8*, align 8
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  store i8* %0, i8** %3, align 8, !tbaa !20
  call void @llvm.dbg.declare(metadata i8** %3, metadata !17, metadata !DIExpression()), !dbg !24
  %7 = bitcast i32* %4 to i8*, !dbg !25
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %7) #3, !dbg !25
  call void @llvm.dbg.declare(metadata i32* %4, metadata !18, metadata !DIExpression()), !dbg !26
  store i32 0, i32* %4, align 4, !dbg !26, !tbaa !27
  %8 = bitcast i32* %5 to i8*, !dbg !25
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %8) #3, !dbg !25
  call void @llvm.dbg.declare(metadata i32* %5, metadata !19, metadata !DIExpression()), !dbg !29
  store i32 0, i32* %5, align 4, !dbg !29, !tbaa !27
  br label %9, !dbg !30

9:                                                ; preds = %41, %1
  %10 = load i8*, i8** %3, align 8, !dbg !31, !tbaa !20
  %11 = load i8, i8* %10, align 1, !dbg !34, !tbaa !35
  %12 = icmp ne i8 %11, 0, !dbg !36
  br i1 %12, label %13, label %44, !dbg !36

13:                                               ; preds = %9
  %14 = load i32, i32* %4, align 4, !dbg !37, !tbaa !27
  switch i32 %14, label %39 [
    i32 0, label %15
    i32 1, label %22
    i32 2, label %36
  ], !dbg !39

15:                                               ; preds = %13
  %16 = load i8*, i8** %3, align 8, !dbg !40, !tbaa !20
  %17 = load i8, i8* %16, align 1, !dbg !42, !tbaa !35
  %18 = sext i8 %17 to i32, !dbg !42
  %19 = icmp eq i32 %18, 97, !dbg !43
  %20 = zext i1 %19 to i64, !dbg !42
  %21 = select i1 %19, i32 1, i32 0, !dbg !42
  store i32 %21, i32* %4, align 4, !dbg !44, !tbaa !27
  br label %40, !dbg !45

22:                                               ; preds = %13
  %23 = load i8*, i8** %3, align 8, !dbg !46, !tbaa !20
  %24 = load i8, i8* %23, align 1, !dbg !47, !tbaa !35
  %25 = sext i8 %24 to i32, !dbg !47
  %26 = icmp eq i32 %25, 98, !dbg !48
  br i1 %26, label %27, label %28, !dbg !47

27:                                               ; preds = %22
  br label %34, !dbg !47

28:                                               ; preds = %22
  %29 = load i8*, i8** %3, align 8, !dbg !49, !tbaa !20
  %30 = load i8, i8* %29, align 1, !dbg !50, !tbaa !35
  %31 = sext i8 %30 to i32, !dbg !50
  %32 = icmp eq i32 %31, 97, !dbg !51
  %33 = zext i1 %32 to i32, !dbg !51
  br label %34, !dbg !47

34:                                               ; preds = %28, %27
  %35 = phi i32 [ 2, %27 ], [ %33, %28 ], !dbg !47
  store i32 %35, i32* %4, align 4, !dbg !52, !tbaa !27
  br label %40, !dbg !53

36:                                               ; preds = %13
  %37 = load i32, i32* %5, align 4, !dbg !54, !tbaa !27
  %38 = add nsw i32 %37, 1, !dbg !54
  store i32 %38, i32* %5, align 4, !dbg !54, !tbaa !27
  store i32 0, i32* %4, align 4, !dbg !55, !tbaa !27
  br label %40, !dbg !56

39:                                               ; preds = %13
  store i32 -1, i32* %2, align 4, !dbg !57
  store i32 1, i32* %6, align 4
  br label %46, !dbg !57

40:                                               ; preds = %36, %34, %15
  br label %41, !dbg !58

41:                                               ; preds = %40
  %42 = load i8*, i8** %3, align 8, !dbg !59, !tbaa !20
  %43 = getelementptr inbounds i8, i8* %42, i32 1, !dbg !59
  store i8* %43, i8** %3, align 8, !dbg !59, !tbaa !20
  br label %9, !dbg !60, !llvm.loop !61

44:                                               ; preds = %9
  %45 = load i32, i32* %5, align 4, !dbg !64, !tbaa !27
  store i32 %45, i32* %2, align 4, !dbg !65
  store i32 1, i32* %6, align 4
  br label %46, !dbg !65

46:                                               ; preds = %44, %39
  %47 = bitcast i32* %5 to i8*, !dbg !66
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %47) #3, !dbg !66
  %48 = bitcast i32* %4 to i8*, !dbg !66
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %48) #3, !dbg !66
  %49 = load i32, i32* %2, align 4, !dbg !66
  ret i32 %49, !dbg !66
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
!1 = !DIFile(filename: "switch.c", directory: "/src", checksumkind: CSK_MD5, checksum: "8398bba4fd142d033d83e52f13fb6f19")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 7, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 1}
!8 = !{!"Debian clang version 14.0.6"}
!9 = distinct !DISubprogram(name: "state_machine", scope: !1, file: !1, line: 2, type: !10, scopeLine: 3, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !16)
!10 = !DISubroutineType(types: !11)
!11 = !{!12, !13}
!12 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!13 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !14, size: 64)
!14 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !15)
!15 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!16 = !{!17, !18, !19}
!17 = !DILocalVariable(name: "s", arg: 1, scope: !9, file: !1, line: 2, type: !13)
!18 = !DILocalVariable(name: "st", scope: !9, file: !1, line: 4, type: !12)
!19 = !DILocalVariable(name: "n", scope: !9, file: !1, line: 4, type: !12)
!20 = !{!21, !21, i64 0}
!21 = !{!"any pointer", !22, i64 0}
!22 = !{!"omnipotent char", !23, i64 0}
!23 = !{!"Simple C/C++ TBAA"}
!24 = !DILocation(line: 2, column: 31, scope: !9)
!25 = !DILocation(line: 4, column: 5, scope: !9)
!26 = !DILocation(line: 4, column: 9, scope: !9)
!27 = !{!28, !28, i64 0}
!28 = !{!"int", !22, i64 0}
!29 = !DILocation(line: 4, column: 17, scope: !9)
!30 = !DILocation(line: 5, column: 5, scope: !9)
!31 = !DILocation(line: 5, column: 13, scope: !32)
!32 = distinct !DILexicalBlock(scope: !33, file: !1, line: 5, column: 5)
!33 = distinct !DILexicalBlock(scope: !9, file: !1, line: 5, column: 5)
!34 = !DILocation(line: 5, column: 12, scope: !32)
!35 = !{!22, !22, i64 0}
!36 = !DILocation(line: 5, column: 5, scope: !33)
!37 = !DILocation(line: 6, column: 17, scope: !38)
!38 = distinct !DILexicalBlock(scope: !32, file: !1, line: 5, column: 21)
!39 = !DILocation(line: 6, column: 9, scope: !38)
!40 = !DILocation(line: 7, column: 23, scope: !41)
!41 = distinct !DILexicalBlock(scope: !38, file: !1, line: 6, column: 21)
!42 = !DILocation(line: 7, column: 22, scope: !41)
!43 = !DILocation(line: 7, column: 25, scope: !41)
!44 = !DILocation(line: 7, column: 20, scope: !41)
!45 = !DILocation(line: 7, column: 41, scope: !41)
!46 = !DILocation(line: 8, column: 23, scope: !41)
!47 = !DILocation(line: 8, column: 22, scope: !41)
!48 = !DILocation(line: 8, column: 25, scope: !41)
!49 = !DILocation(line: 8, column: 39, scope: !41)
!50 = !DILocation(line: 8, column: 38, scope: !41)
!51 = !DILocation(line: 8, column: 41, scope: !41)
!52 = !DILocation(line: 8, column: 20, scope: !41)
!53 = !DILocation(line: 8, column: 49, scope: !41)
!54 = !DILocation(line: 9, column: 18, scope: !41)
!55 = !DILocation(line: 9, column: 25, scope: !41)
!56 = !DILocation(line: 9, column: 30, scope: !41)
!57 = !DILocation(line: 10, column: 18, scope: !41)
!58 = !DILocation(line: 12, column: 5, scope: !38)
!59 = !DILocation(line: 5, column: 17, scope: !32)
!60 = !DILocation(line: 5, column: 5, scope: !32)
!61 = distinct !{!61, !36, !62, !63}
!62 = !DILocation(line: 12, column: 5, scope: !33)
!63 = !{!"llvm.loop.mustprogress"}
!64 = !DILocation(line: 13, column: 12, scope: !9)
!65 = !DILocation(line: 13, column: 5, scope: !9)
!66 = !DILocation(line: 14, column: 1, scope: !9)
; fuzz_ccbursty rewrites this at placement EL without LP_CC_PIC (the size % 10 is 2).
