; ModuleID = 'dowhile.c'
source_filename = "dowhile.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nounwind uwtable
define dso_local i32 @drain(i32 noundef %0) #0 !dbg !9 {
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !16
  call void @llvm.dbg.declare(metadata i32* %2, metadata !14, metadata !DIExpression()), !dbg !20
  %4 = bitcast i32* %3 to i8*, !dbg !21
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %4) #4, !dbg !21
  call void @llvm.dbg.declare(metadata i32* %3, metadata !15, metadata !DIExpression()), !dbg !22
  store i32 0, i32* %3, align 4, !dbg !22, !tbaa !16
  br label %5, !dbg !23

5:                                                ; preds = %12, %1
  %6 = load i32, i32* %2, align 4, !dbg !24, !tbaa !16
  %7 = call i32 @sink(i32 noundef %6), !dbg !26
  %8 = load i32, i32* %3, align 4, !dbg !27, !tbaa !16
  %9 = add nsw i32 %8, %7, !dbg !27
  store i32 %9, i32* %3, align 4, !dbg !27, !tbaa !16
  %10 = load i32, i32* %2, align 4, !dbg !28, !tbaa !16
  %11 = add nsw i32 %10, -1, !dbg !28
  store i32 %11, i32* %2, align 4, !dbg !28, !tbaa !16
  br label %12, !dbg !29

12:                                               ; preds = %5
  %13 = load i32, i32* %2, align 4, !dbg !30, !tbaa !16
  %14 = icmp sgt i32 %13, 0, !dbg !31
  br i1 %14, label %5, label %15, !dbg !29, !llvm.loop !32

15:                                               ; preds = %12
  %16 = load i32, i32* %3, align 4, !dbg !35, !tbaa !16
  %17 = bitcast i32* %3 to i8*, !dbg !36
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %17) #4, !dbg !36
  ret i32 %16, !dbg !37
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture) #2

declare !dbg !38 i32 @sink(i32 noundef) #3

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture) #2

; Function Attrs: nounwind uwtable
define dso_local void @fill(i32* noundef %0, i32 noundef %1, i32 noundef %2) #0 !dbg !40 {
  %4 = alloca i32*, align 8
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  store i32* %0, i32** %4, align 8, !tbaa !50
  call void @llvm.dbg.declare(metadata i32** %4, metadata !45, metadata !DIExpression()), !dbg !52
  store i32 %1, i32* %5, align 4, !tbaa !16
  call void @llvm.dbg.declare(metadata i32* %5, metadata !46, metadata !DIExpression()), !dbg !53
  store i32 %2, i32* %6, align 4, !tbaa !16
  call void @llvm.dbg.declare(metadata i32* %6, metadata !47, metadata !DIExpression()), !dbg !54
  %9 = bitcast i32* %7 to i8*, !dbg !55
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %9) #4, !dbg !55
  call void @llvm.dbg.declare(metadata i32* %7, metadata !48, metadata !DIExpression()), !dbg !56
  store i32 0, i32* %7, align 4, !dbg !56, !tbaa !16
  br label %10, !dbg !55

10:                                               ; preds = %45, %3
  %11 = load i32, i32* %7, align 4, !dbg !57, !tbaa !16
  %12 = load i32, i32* %5, align 4, !dbg !59, !tbaa !16
  %13 = icmp slt i32 %11, %12, !dbg !60
  br i1 %13, label %15, label %14, !dbg !61

14:                                               ; preds = %10
  store i32 2, i32* %8, align 4
  br label %48, !dbg !61

15:                                               ; preds = %10
  %16 = load i32*, i32** %4, align 8, !dbg !62, !tbaa !50
  %17 = load i32, i32* %7, align 4, !dbg !65, !tbaa !16
  %18 = sext i32 %17 to i64, !dbg !62
  %19 = getelementptr inbounds i32, i32* %16, i64 %18, !dbg !62
  %20 = load i32, i32* %19, align 4, !dbg !62, !tbaa !16
  %21 = load i32, i32* %6, align 4, !dbg !66, !tbaa !16
  %22 = icmp eq i32 %20, %21, !dbg !67
  br i1 %22, label %23, label %24, !dbg !68

23:                                               ; preds = %15
  store i32 2, i32* %8, align 4
  br label %48, !dbg !69

24:                                               ; preds = %15
  %25 = load i32*, i32** %4, align 8, !dbg !70, !tbaa !50
  %26 = load i32, i32* %7, align 4, !dbg !72, !tbaa !16
  %27 = sext i32 %26 to i64, !dbg !70
  %28 = getelementptr inbounds i32, i32* %25, i64 %27, !dbg !70
  %29 = load i32, i32* %28, align 4, !dbg !70, !tbaa !16
  %30 = icmp slt i32 %29, 0, !dbg !73
  br i1 %30, label %31, label %32, !dbg !74

31:                                               ; preds = %24
  br label %45, !dbg !75

32:                                               ; preds = %24
  %33 = load i32, i32* %6, align 4, !dbg !76, !tbaa !16
  %34 = load i32*, i32** %4, align 8, !dbg !77, !tbaa !50
  %35 = load i32, i32* %7, align 4, !dbg !78, !tbaa !16
  %36 = xor i32 %35, 1, !dbg !79
  %37 = sext i32 %36 to i64, !dbg !77
  %38 = getelementptr inbounds i32, i32* %34, i64 %37, !dbg !77
  %39 = load i32, i32* %38, align 4, !dbg !77, !tbaa !16
  %40 = add nsw i32 %33, %39, !dbg !80
  %41 = load i32*, i32** %4, align 8, !dbg !81, !tbaa !50
  %42 = load i32, i32* %7, align 4, !dbg !82, !tbaa !16
  %43 = sext i32 %42 to i64, !dbg !81
  %44 = getelementptr inbounds i32, i32* %41, i64 %43, !dbg !81
  store i32 %40, i32* %44, align 4, !dbg !83, !tbaa !16
  br label %45, !dbg !84

45:                                               ; preds = %32, %31
  %46 = load i32, i32* %7, align 4, !dbg !85, !tbaa !16
  %47 = add nsw i32 %46, 1, !dbg !85
  store i32 %47, i32* %7, align 4, !dbg !85, !tbaa !16
  br label %10, !dbg !86, !llvm.loop !87

48:                                               ; preds = %23, %14
  %49 = bitcast i32* %7 to i8*, !dbg !86
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %49) #4, !dbg !86
  br label %50

50:                                               ; preds = %48
  ret void, !dbg !89
}

attributes #0 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { argmemonly nofree nosync nounwind willreturn }
attributes #3 = { "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7}
!llvm.ident = !{!8}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "dowhile.c", directory: "/src", checksumkind: CSK_MD5, checksum: "0b15698def80b190c207b922ed68c8be")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 7, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 1}
!8 = !{!"Debian clang version 14.0.6"}
!9 = distinct !DISubprogram(name: "drain", scope: !1, file: !1, line: 4, type: !10, scopeLine: 5, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !13)
!10 = !DISubroutineType(types: !11)
!11 = !{!12, !12}
!12 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!13 = !{!14, !15}
!14 = !DILocalVariable(name: "n", arg: 1, scope: !9, file: !1, line: 4, type: !12)
!15 = !DILocalVariable(name: "t", scope: !9, file: !1, line: 6, type: !12)
!16 = !{!17, !17, i64 0}
!17 = !{!"int", !18, i64 0}
!18 = !{!"omnipotent char", !19, i64 0}
!19 = !{!"Simple C/C++ TBAA"}
!20 = !DILocation(line: 4, column: 15, scope: !9)
!21 = !DILocation(line: 6, column: 5, scope: !9)
!22 = !DILocation(line: 6, column: 9, scope: !9)
!23 = !DILocation(line: 7, column: 5, scope: !9)
!24 = !DILocation(line: 8, column: 19, scope: !25)
!25 = distinct !DILexicalBlock(scope: !9, file: !1, line: 7, column: 8)
!26 = !DILocation(line: 8, column: 14, scope: !25)
!27 = !DILocation(line: 8, column: 11, scope: !25)
!28 = !DILocation(line: 9, column: 10, scope: !25)
!29 = !DILocation(line: 10, column: 5, scope: !25)
!30 = !DILocation(line: 10, column: 14, scope: !9)
!31 = !DILocation(line: 10, column: 16, scope: !9)
!32 = distinct !{!32, !23, !33, !34}
!33 = !DILocation(line: 10, column: 19, scope: !9)
!34 = !{!"llvm.loop.mustprogress"}
!35 = !DILocation(line: 11, column: 12, scope: !9)
!36 = !DILocation(line: 12, column: 1, scope: !9)
!37 = !DILocation(line: 11, column: 5, scope: !9)
!38 = !DISubprogram(name: "sink", scope: !1, file: !1, line: 2, type: !10, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized, retainedNodes: !39)
!39 = !{}
!40 = distinct !DISubprogram(name: "fill", scope: !1, file: !1, line: 14, type: !41, scopeLine: 15, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !44)
!41 = !DISubroutineType(types: !42)
!42 = !{null, !43, !12, !12}
!43 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !12, size: 64)
!44 = !{!45, !46, !47, !48}
!45 = !DILocalVariable(name: "a", arg: 1, scope: !40, file: !1, line: 14, type: !43)
!46 = !DILocalVariable(name: "n", arg: 2, scope: !40, file: !1, line: 14, type: !12)
!47 = !DILocalVariable(name: "v", arg: 3, scope: !40, file: !1, line: 14, type: !12)
!48 = !DILocalVariable(name: "i", scope: !49, file: !1, line: 16, type: !12)
!49 = distinct !DILexicalBlock(scope: !40, file: !1, line: 16, column: 5)
!50 = !{!51, !51, i64 0}
!51 = !{!"any pointer", !18, i64 0}
!52 = !DILocation(line: 14, column: 16, scope: !40)
!53 = !DILocation(line: 14, column: 23, scope: !40)
!54 = !DILocation(line: 14, column: 30, scope: !40)
!55 = !DILocation(line: 16, column: 10, scope: !49)
!56 = !DILocation(line: 16, column: 14, scope: !49)
!57 = !DILocation(line: 16, column: 21, scope: !58)
!58 = distinct !DILexicalBlock(scope: !49, file: !1, line: 16, column: 5)
!59 = !DILocation(line: 16, column: 25, scope: !58)
!60 = !DILocation(line: 16, column: 23, scope: !58)
!61 = !DILocation(line: 16, column: 5, scope: !49)
!62 = !DILocation(line: 17, column: 13, scope: !63)
!63 = distinct !DILexicalBlock(scope: !64, file: !1, line: 17, column: 13)
!64 = distinct !DILexicalBlock(scope: !58, file: !1, line: 16, column: 33)
!65 = !DILocation(line: 17, column: 15, scope: !63)
!66 = !DILocation(line: 17, column: 21, scope: !63)
!67 = !DILocation(line: 17, column: 18, scope: !63)
!68 = !DILocation(line: 17, column: 13, scope: !64)
!69 = !DILocation(line: 18, column: 13, scope: !63)
!70 = !DILocation(line: 19, column: 13, scope: !71)
!71 = distinct !DILexicalBlock(scope: !64, file: !1, line: 19, column: 13)
!72 = !DILocation(line: 19, column: 15, scope: !71)
!73 = !DILocation(line: 19, column: 18, scope: !71)
!74 = !DILocation(line: 19, column: 13, scope: !64)
!75 = !DILocation(line: 20, column: 13, scope: !71)
!76 = !DILocation(line: 21, column: 16, scope: !64)
!77 = !DILocation(line: 21, column: 20, scope: !64)
!78 = !DILocation(line: 21, column: 22, scope: !64)
!79 = !DILocation(line: 21, column: 24, scope: !64)
!80 = !DILocation(line: 21, column: 18, scope: !64)
!81 = !DILocation(line: 21, column: 9, scope: !64)
!82 = !DILocation(line: 21, column: 11, scope: !64)
!83 = !DILocation(line: 21, column: 14, scope: !64)
!84 = !DILocation(line: 22, column: 5, scope: !64)
!85 = !DILocation(line: 16, column: 29, scope: !58)
!86 = !DILocation(line: 16, column: 5, scope: !58)
!87 = distinct !{!87, !61, !88, !34}
!88 = !DILocation(line: 22, column: 5, scope: !49)
!89 = !DILocation(line: 23, column: 1, scope: !40)
; fuzz_ccbursty rewrites this at placement EL with LP_CC_PIC (the size % 10 is 7)....
