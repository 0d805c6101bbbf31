; ModuleID = 'recur.c'
source_filename = "recur.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nounwind uwtable
define dso_local i64 @fact(i32 noundef %0) #0 !dbg !11 {
  %2 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !17
  call void @llvm.dbg.declare(metadata i32* %2, metadata !16, metadata !DIExpression()), !dbg !21
  %3 = load i32, i32* %2, align 4, !dbg !22, !tbaa !17
  %4 = icmp sle i32 %3, 1, !dbg !23
  br i1 %4, label %5, label %6, !dbg !22

5:                                                ; preds = %1
  br label %13, !dbg !22

6:                                                ; preds = %1
  %7 = load i32, i32* %2, align 4, !dbg !24, !tbaa !17
  %8 = sext i32 %7 to i64, !dbg !24
  %9 = load i32, i32* %2, align 4, !dbg !25, !tbaa !17
  %10 = sub nsw i32 %9, 1, !dbg !26
  %11 = call i64 @fact(i32 noundef %10), !dbg !27
  %12 = mul nsw i64 %8, %11, !dbg !28
  br label %13, !dbg !22

13:                                               ; preds = %6, %5
  %14 = phi i64 [ 1, %5 ], [ %12, %6 ], !dbg !22
  ret i64 %14, !dbg !29
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: nounwind uwtable
define dso_local i32 @parity(i32 noundef %0) #0 !dbg !30 {
  %2 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !17
  call void @llvm.dbg.declare(metadata i32* %2, metadata !35, metadata !DIExpression()), !dbg !36
  %3 = load i32, i32* %2, align 4, !dbg !37, !tbaa !17
  %4 = call i32 @is_even(i32 noundef %3), !dbg !38
  %5 = load i32, i32* %2, align 4, !dbg !39, !tbaa !17
  %6 = and i32 %5, 7, !dbg !40
  %7 = call i64 @fact(i32 noundef %6), !dbg !41
  %8 = trunc i64 %7 to i32, !dbg !42
  %9 = add nsw i32 %4, %8, !dbg !43
  ret i32 %9, !dbg !44
}

; Function Attrs: nounwind uwtable
define internal i32 @is_even(i32 noundef %0) #0 !dbg !45 {
  %2 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !17
  call void @llvm.dbg.declare(metadata i32* %2, metadata !47, metadata !DIExpression()), !dbg !48
  %3 = load i32, i32* %2, align 4, !dbg !49, !tbaa !17
  %4 = icmp eq i32 %3, 0, !dbg !50
  br i1 %4, label %5, label %6, !dbg !49

5:                                                ; preds = %1
  br label %10, !dbg !49

6:                                                ; preds = %1
  %7 = load i32, i32* %2, align 4, !dbg !51, !tbaa !17
  %8 = sub i32 %7, 1, !dbg !52
  %9 = call i32 @is_odd(i32 noundef %8), !dbg !53
  br label %10, !dbg !49

10:                                               ; preds = %6, %5
  %11 = phi i32 [ 1, %5 ], [ %9, %6 ], !dbg !49
  ret i32 %11, !dbg !54
}

; Function Attrs: nounwind uwtable
define internal i32 @is_odd(i32 noundef %0) #0 !dbg !55 {
  %2 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !17
  call void @llvm.dbg.declare(metadata i32* %2, metadata !57, metadata !DIExpression()), !dbg !58
  %3 = load i32, i32* %2, align 4, !dbg !59, !tbaa !17
  %4 = icmp eq i32 %3, 0, !dbg !60
  br i1 %4, label %5, label %6, !dbg !59

5:                                                ; preds = %1
  br label %10, !dbg !59

6:                                                ; preds = %1
  %7 = load i32, i32* %2, align 4, !dbg !61, !tbaa !17
  %8 = sub i32 %7, 1, !dbg !62
  %9 = call i32 @is_even(i32 noundef %8), !dbg !63
  br label %10, !dbg !59

10:                                               ; preds = %6, %5
  %11 = phi i32 [ 0, %5 ], [ %9, %6 ], !dbg !59
  ret i32 %11, !dbg !64
}

attributes #0 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!4, !5, !6, !7, !8, !9}
!llvm.ident = !{!10}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !2, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "recur.c", directory: "/src", checksumkind: CSK_MD5, checksum: "4be13f33edad4c8baddf97f910841fd0")
!2 = !{!3}
!3 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = !{i32 2, !"Debug Info Version", i32 3}
!6 = !{i32 1, !"wchar_size", i32 4}
!7 = !{i32 7, !"PIC Level", i32 2}
!8 = !{i32 7, !"PIE Level", i32 2}
!9 = !{i32 7, !"uwtable", i32 1}
!10 = !{!"Debian clang version 14.0.6"}
!11 = distinct !DISubprogram(name: "fact", scope: !1, file: !1, line: 2, type: !12, scopeLine: 2, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !15)
!12 = !DISubroutineType(types: !13)
!13 = !{!14, !3}
!14 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!15 = !{!16}
!16 = !DILocalVariable(name: "n", arg: 1, scope: !11, file: !1, line: 2, type: !3)
!17 = !{!18, !18, i64 0}
!18 = !{!"int", !19, i64 0}
!19 = !{!"omnipotent char", !20, i64 0}
!20 = !{!"Simple C/C++ TBAA"}
!21 = !DILocation(line: 2, column: 15, scope: !11)
!22 = !DILocation(line: 2, column: 27, scope: !11)
!23 = !DILocation(line: 2, column: 29, scope: !11)
!24 = !DILocation(line: 2, column: 40, scope: !11)
!25 = !DILocation(line: 2, column: 49, scope: !11)
!26 = !DILocation(line: 2, column: 51, scope: !11)
!27 = !DILocation(line: 2, column: 44, scope: !11)
!28 = !DILocation(line: 2, column: 42, scope: !11)
!29 = !DILocation(line: 2, column: 20, scope: !11)
!30 = distinct !DISubprogram(name: "parity", scope: !1, file: !1, line: 8, type: !31, scopeLine: 8, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !34)
!31 = !DISubroutineType(types: !32)
!32 = !{!3, !33}
!33 = !DIBasicType(name: "unsigned int", size: 32, encoding: DW_ATE_unsigned)
!34 = !{!35}
!35 = !DILocalVariable(name: "n", arg: 1, scope: !30, file: !1, line: 8, type: !33)
!36 = !DILocation(line: 8, column: 21, scope: !30)
!37 = !DILocation(line: 8, column: 41, scope: !30)
!38 = !DILocation(line: 8, column: 33, scope: !30)
!39 = !DILocation(line: 8, column: 62, scope: !30)
!40 = !DILocation(line: 8, column: 64, scope: !30)
!41 = !DILocation(line: 8, column: 51, scope: !30)
!42 = !DILocation(line: 8, column: 46, scope: !30)
!43 = !DILocation(line: 8, column: 44, scope: !30)
!44 = !DILocation(line: 8, column: 26, scope: !30)
!45 = distinct !DISubprogram(name: "is_even", scope: !1, file: !1, line: 5, type: !31, scopeLine: 5, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !46)
!46 = !{!47}
!47 = !DILocalVariable(name: "n", arg: 1, scope: !45, file: !1, line: 5, type: !33)
!48 = !DILocation(line: 5, column: 29, scope: !45)
!49 = !DILocation(line: 5, column: 41, scope: !45)
!50 = !DILocation(line: 5, column: 43, scope: !45)
!51 = !DILocation(line: 5, column: 61, scope: !45)
!52 = !DILocation(line: 5, column: 63, scope: !45)
!53 = !DILocation(line: 5, column: 54, scope: !45)
!54 = !DILocation(line: 5, column: 34, scope: !45)
!55 = distinct !DISubprogram(name: "is_odd", scope: !1, file: !1, line: 6, type: !31, scopeLine: 6, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !56)
!56 = !{!57}
!57 = !DILocalVariable(name: "n", arg: 1, scope: !55, file: !1, line: 6, type: !33)
!58 = !DILocation(line: 6, column: 28, scope: !55)
!59 = !DILocation(line: 6, column: 40, scope: !55)
!60 = !DILocation(line: 6, column: 42, scope: !55)
!61 = !DILocation(line: 6, column: 61, scope: !55)
!62 = !DILocation(line: 6, column: 63, scope: !55)
!63 = !DILocation(line: 6, column: 53, scope: !55)
!64 = !DILocation(line: 6, column: 33, scope: !55)
; fuzz_ccbursty rewrites this at placement orig without LP_CC_PIC (the size % 10 is 0)
