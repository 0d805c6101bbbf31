; ModuleID = 'vla.c'
source_filename = "vla.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nounwind uwtable
define dso_local i32 @vla_sum(i32 noundef %0) #0 !dbg !9 {
  %2 = alloca i32, align 4
  %3 = alloca i8*, align 8
  %4 = alloca i64, align 8
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !26
  call void @llvm.dbg.declare(metadata i32* %2, metadata !14, metadata !DIExpression()), !dbg !30
  %8 = load i32, i32* %2, align 4, !dbg !31, !tbaa !26
  %9 = zext i32 %8 to i64, !dbg !32
  %10 = call i8* @llvm.stacksave(), !dbg !32
  store i8* %10, i8** %3, align 8, !dbg !32
  %11 = alloca i32, i64 %9, align 16, !dbg !32
  store i64 %9, i64* %4, align 8, !dbg !32
  call void @llvm.dbg.declare(metadata i64* %4, metadata !15, metadata !DIExpression()), !dbg !33
  call void @llvm.dbg.declare(metadata i32* %11, metadata !17, metadata !DIExpression()), !dbg !34
  %12 = bitcast i32* %5 to i8*, !dbg !35
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %12) #4, !dbg !35
  call void @llvm.dbg.declare(metadata i32* %5, metadata !21, metadata !DIExpression()), !dbg !36
  store i32 0, i32* %5, align 4, !dbg !36, !tbaa !26
  br label %13, !dbg !35

13:                                               ; preds = %26, %1
  %14 = load i32, i32* %5, align 4, !dbg !37, !tbaa !26
  %15 = load i32, i32* %2, align 4, !dbg !39, !tbaa !26
  %16 = icmp slt i32 %14, %15, !dbg !40
  br i1 %16, label %19, label %17, !dbg !41

17:                                               ; preds = %13
  %18 = bitcast i32* %5 to i8*, !dbg !42
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %18) #4, !dbg !42
  br label %29

19:                                               ; preds = %13
  %20 = load i32, i32* %5, align 4, !dbg !43, !tbaa !26
  %21 = load i32, i32* %5, align 4, !dbg !44, !tbaa !26
  %22 = mul nsw i32 %20, %21, !dbg !45
  %23 = load i32, i32* %5, align 4, !dbg !46, !tbaa !26
  %24 = sext i32 %23 to i64, !dbg !47
  %25 = getelementptr inbounds i32, i32* %11, i64 %24, !dbg !47
  store i32 %22, i32* %25, align 4, !dbg !48, !tbaa !26
  br label %26, !dbg !47

26:                                               ; preds = %19
  %27 = load i32, i32* %5, align 4, !dbg !49, !tbaa !26
  %28 = add nsw i32 %27, 1, !dbg !49
  store i32 %28, i32* %5, align 4, !dbg !49, !tbaa !26
  br label %13, !dbg !42, !llvm.loop !50

29:                                               ; preds = %17
  %30 = bitcast i32* %6 to i8*, !dbg !53
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %30) #4, !dbg !53
  call void @llvm.dbg.declare(metadata i32* %6, metadata !23, metadata !DIExpression()), !dbg !54
  store i32 0, i32* %6, align 4, !dbg !54, !tbaa !26
  %31 = bitcast i32* %7 to i8*, !dbg !55
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %31) #4, !dbg !55
  call void @llvm.dbg.declare(metadata i32* %7, metadata !24, metadata !DIExpression()), !dbg !56
  store i32 0, i32* %7, align 4, !dbg !56, !tbaa !26
  br label %32, !dbg !55

32:                                               ; preds = %45, %29
  %33 = load i32, i32* %7, align 4, !dbg !57, !tbaa !26
  %34 = load i32, i32* %2, align 4, !dbg !59, !tbaa !26
  %35 = icmp slt i32 %33, %34, !dbg !60
  br i1 %35, label %38, label %36, !dbg !61

36:                                               ; preds = %32
  %37 = bitcast i32* %7 to i8*, !dbg !62
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %37) #4, !dbg !62
  br label %48

38:                                               ; preds = %32
  %39 = load i32, i32* %7, align 4, !dbg !63, !tbaa !26
  %40 = sext i32 %39 to i64, !dbg !64
  %41 = getelementptr inbounds i32, i32* %11, i64 %40, !dbg !64
  %42 = load i32, i32* %41, align 4, !dbg !64, !tbaa !26
  %43 = load i32, i32* %6, align 4, !dbg !65, !tbaa !26
  %44 = add nsw i32 %43, %42, !dbg !65
  store i32 %44, i32* %6, align 4, !dbg !65, !tbaa !26
  br label %45, !dbg !66

45:                                               ; preds = %38
  %46 = load i32, i32* %7, align 4, !dbg !67, !tbaa !26
  %47 = add nsw i32 %46, 1, !dbg !67
  store i32 %47, i32* %7, align 4, !dbg !67, !tbaa !26
  br label %32, !dbg !62, !llvm.loop !68

48:                                               ; preds = %36
  %49 = load i32, i32* %6, align 4, !dbg !70, !tbaa !26
  %50 = bitcast i32* %6 to i8*, !dbg !71
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %50) #4, !dbg !71
  %51 = load i8*, i8** %3, align 8, !dbg !71
  call void @llvm.stackrestore(i8* %51), !dbg !71
  ret i32 %49, !dbg !71
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: nofree nosync nounwind willreturn
declare i8* @llvm.stacksave() #2

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture) #3

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture) #3

; Function Attrs: nofree nosync nounwind willreturn
declare void @llvm.stackrestore(i8*) #2

attributes #0 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { nofree nosync nounwind willreturn }
attributes #3 = { argmemonly nofree nosync nounwind willreturn }
attributes #4 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7}
!llvm.ident = !{!8}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "vla.c", directory: "/src", checksumkind: CSK_MD5, checksum: "aad64528f7f874a520b0ce6a24367fd4")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 7, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 1}
!8 = !{!"Debian clang version 14.0.6"}
!9 = distinct !DISubprogram(name: "vla_sum", scope: !1, file: !1, line: 2, type: !10, scopeLine: 3, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !13)
!10 = !DISubroutineType(types: !11)
!11 = !{!12, !12}
!12 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!13 = !{!14, !15, !17, !21, !23, !24}
!14 = !DILocalVariable(name: "n", arg: 1, scope: !9, file: !1, line: 2, type: !12)
!15 = !DILocalVariable(name: "__vla_expr0", scope: !9, type: !16, flags: DIFlagArtificial)
!16 = !DIBasicType(name: "unsigned long", size: 64, encoding: DW_ATE_unsigned)
!17 = !DILocalVariable(name: "buf", scope: !9, file: !1, line: 4, type: !18)
!18 = !DICompositeType(tag: DW_TAG_array_type, baseType: !12, elements: !19)
!19 = !{!20}
!20 = !DISubrange(count: !15)
!21 = !DILocalVariable(name: "i", scope: !22, file: !1, line: 5, type: !12)
!22 = distinct !DILexicalBlock(scope: !9, file: !1, line: 5, column: 5)
!23 = !DILocalVariable(name: "s", scope: !9, file: !1, line: 7, type: !12)
!24 = !DILocalVariable(name: "i", scope: !25, file: !1, line: 8, type: !12)
!25 = distinct !DILexicalBlock(scope: !9, file: !1, line: 8, column: 5)
!26 = !{!27, !27, i64 0}
!27 = !{!"int", !28, i64 0}
!28 = !{!"omnipotent char", !29, i64 0}
!29 = !{!"Simple C/C++ TBAA"}
!30 = !DILocation(line: 2, column: 17, scope: !9)
!31 = !DILocation(line: 4, column: 13, scope: !9)
!32 = !DILocation(line: 4, column: 5, scope: !9)
!33 = !DILocation(line: 0, scope: !9)
!34 = !DILocation(line: 4, column: 9, scope: !9)
!35 = !DILocation(line: 5, column: 10, scope: !22)
!36 = !DILocation(line: 5, column: 14, scope: !22)
!37 = !DILocation(line: 5, column: 21, scope: !38)
!38 = distinct !DILexicalBlock(scope: !22, file: !1, line: 5, column: 5)
!39 = !DILocation(line: 5, column: 25, scope: !38)
!40 = !DILocation(line: 5, column: 23, scope: !38)
!41 = !DILocation(line: 5, column: 5, scope: !22)
!42 = !DILocation(line: 5, column: 5, scope: !38)
!43 = !DILocation(line: 6, column: 18, scope: !38)
!44 = !DILocation(line: 6, column: 22, scope: !38)
!45 = !DILocation(line: 6, column: 20, scope: !38)
!46 = !DILocation(line: 6, column: 13, scope: !38)
!47 = !DILocation(line: 6, column: 9, scope: !38)
!48 = !DILocation(line: 6, column: 16, scope: !38)
!49 = !DILocation(line: 5, column: 29, scope: !38)
!50 = distinct !{!50, !41, !51, !52}
!51 = !DILocation(line: 6, column: 22, scope: !22)
!52 = !{!"llvm.loop.mustprogress"}
!53 = !DILocation(line: 7, column: 5, scope: !9)
!54 = !DILocation(line: 7, column: 9, scope: !9)
!55 = !DILocation(line: 8, column: 10, scope: !25)
!56 = !DILocation(line: 8, column: 14, scope: !25)
!57 = !DILocation(line: 8, column: 21, scope: !58)
!58 = distinct !DILexicalBlock(scope: !25, file: !1, line: 8, column: 5)
!59 = !DILocation(line: 8, column: 25, scope: !58)
!60 = !DILocation(line: 8, column: 23, scope: !58)
!61 = !DILocation(line: 8, column: 5, scope: !25)
!62 = !DILocation(line: 8, column: 5, scope: !58)
!63 = !DILocation(line: 9, column: 18, scope: !58)
!64 = !DILocation(line: 9, column: 14, scope: !58)
!65 = !DILocation(line: 9, column: 11, scope: !58)
!66 = !DILocation(line: 9, column: 9, scope: !58)
!67 = !DILocation(line: 8, column: 29, scope: !58)
!68 = distinct !{!68, !61, !69, !52}
!69 = !DILocation(line: 9, column: 19, scope: !25)
!70 = !DILocation(line: 10, column: 12, scope: !9)
!71 = !DILocation(line: 11, column: 1, scope: !9)
