; ModuleID = 'decl.c'
source_filename = "decl.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@lp__bt_n = external thread_local global i64, align 8
@lp__bt_mode = external thread_local global i32, align 4

; Function Attrs: nounwind uwtable
define dso_local i64 @work(i64* noundef %0, i32 noundef %1) #0 !dbg !9 {
  %3 = alloca i64*, align 8
  %4 = alloca i32, align 4
  %5 = alloca i64, align 8
  %6 = alloca i32, align 4
  store i64* %0, i64** %3, align 8, !tbaa !22
  call void @llvm.dbg.declare(metadata i64** %3, metadata !17, metadata !DIExpression()), !dbg !26
  store i32 %1, i32* %4, align 4, !tbaa !27
  call void @llvm.dbg.declare(metadata i32* %4, metadata !18, metadata !DIExpression()), !dbg !29
  %7 = bitcast i64* %5 to i8*, !dbg !30
  call void @llvm.lifetime.start.p0i8(i64 8, i8* %7) #4, !dbg !30
  call void @llvm.dbg.declare(metadata i64* %5, metadata !19, metadata !DIExpression()), !dbg !31
  store i64 0, i64* %5, align 8, !dbg !31, !tbaa !32
  %8 = bitcast i32* %6 to i8*, !dbg !34
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %8) #4, !dbg !34
  call void @llvm.dbg.declare(metadata i32* %6, metadata !20, metadata !DIExpression()), !dbg !35
  store i32 0, i32* %6, align 4, !dbg !35, !tbaa !27
  br label %9, !dbg !34

9:                                                ; preds = %33, %2
  %10 = load i32, i32* %6, align 4, !dbg !36, !tbaa !27
  %11 = load i32, i32* %4, align 4, !dbg !38, !tbaa !27
  %12 = icmp slt i32 %10, %11, !dbg !39
  br i1 %12, label %15, label %13, !dbg !40

13:                                               ; preds = %9
  %14 = bitcast i32* %6 to i8*, !dbg !41
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %14) #4, !dbg !41
  br label %36

15:                                               ; preds = %9
  %16 = load i64, i64* @lp__bt_n, align 8, !dbg !42, !tbaa !32
  %17 = add i64 %16, -1, !dbg !42
  store i64 %17, i64* @lp__bt_n, align 8, !dbg !42, !tbaa !32
  %18 = icmp eq i64 %17, 0, !dbg !45
  br i1 %18, label %19, label %21, !dbg !46

19:                                               ; preds = %15
  %20 = call i32 @lp__bt_slow(), !dbg !47
  br label %21, !dbg !47

21:                                               ; preds = %19, %15
  %22 = load i64*, i64** %3, align 8, !dbg !48, !tbaa !22
  %23 = load i32, i32* %6, align 4, !dbg !49, !tbaa !27
  %24 = sext i32 %23 to i64, !dbg !48
  %25 = getelementptr inbounds i64, i64* %22, i64 %24, !dbg !48
  %26 = load i64, i64* %25, align 8, !dbg !48, !tbaa !32
  %27 = load i32, i32* @lp__bt_mode, align 4, !dbg !50, !tbaa !27
  %28 = add nsw i32 %27, 1, !dbg !51
  %29 = sext i32 %28 to i64, !dbg !52
  %30 = mul nsw i64 %26, %29, !dbg !53
  %31 = load i64, i64* %5, align 8, !dbg !54, !tbaa !32
  %32 = add nsw i64 %31, %30, !dbg !54
  store i64 %32, i64* %5, align 8, !dbg !54, !tbaa !32
  br label %33, !dbg !55

33:                                               ; preds = %21
  %34 = load i32, i32* %6, align 4, !dbg !56, !tbaa !27
  %35 = add nsw i32 %34, 1, !dbg !56
  store i32 %35, i32* %6, align 4, !dbg !56, !tbaa !27
  br label %9, !dbg !41, !llvm.loop !57

36:                                               ; preds = %13
  %37 = load i64, i64* %5, align 8, !dbg !60, !tbaa !32
  %38 = bitcast i64* %5 to i8*, !dbg !61
  call void @llvm.lifetime.end.p0i8(i64 8, i8* %38) #4, !dbg !61
  ret i64 %37, !dbg !62
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture) #2

declare !dbg !63 i32 @lp__bt_slow() #3

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture) #2

attributes #0 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { argmemonly nofree nosync nounwind willreturn }
attributes #3 = { "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7}
!llvm.ident = !{!8}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "decl.c", directory: "/src", checksumkind: CSK_MD5, checksum: "09a60cb6934f57e92845a024850dd0a9")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 7, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 1}
!8 = !{!"Debian clang version 14.0.6"}
!9 = distinct !DISubprogram(name: "work", scope: !1, file: !1, line: 5, type: !10, scopeLine: 6, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !16)
!10 = !DISubroutineType(types: !11)
!11 = !{!12, !13, !15}
!12 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!13 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !14, size: 64)
!14 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !12)
!15 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!16 = !{!17, !18, !19, !20}
!17 = !DILocalVariable(name: "a", arg: 1, scope: !9, file: !1, line: 5, type: !13)
!18 = !DILocalVariable(name: "n", arg: 2, scope: !9, file: !1, line: 5, type: !15)
!19 = !DILocalVariable(name: "s", scope: !9, file: !1, line: 7, type: !12)
!20 = !DILocalVariable(name: "i", scope: !21, file: !1, line: 8, type: !15)
!21 = distinct !DILexicalBlock(scope: !9, file: !1, line: 8, column: 5)
!22 = !{!23, !23, i64 0}
!23 = !{!"any pointer", !24, i64 0}
!24 = !{!"omnipotent char", !25, i64 0}
!25 = !{!"Simple C/C++ TBAA"}
!26 = !DILocation(line: 5, column: 23, scope: !9)
!27 = !{!28, !28, i64 0}
!28 = !{!"int", !24, i64 0}
!29 = !DILocation(line: 5, column: 30, scope: !9)
!30 = !DILocation(line: 7, column: 5, scope: !9)
!31 = !DILocation(line: 7, column: 10, scope: !9)
!32 = !{!33, !33, i64 0}
!33 = !{!"long", !24, i64 0}
!34 = !DILocation(line: 8, column: 10, scope: !21)
!35 = !DILocation(line: 8, column: 14, scope: !21)
!36 = !DILocation(line: 8, column: 21, scope: !37)
!37 = distinct !DILexicalBlock(scope: !21, file: !1, line: 8, column: 5)
!38 = !DILocation(line: 8, column: 25, scope: !37)
!39 = !DILocation(line: 8, column: 23, scope: !37)
!40 = !DILocation(line: 8, column: 5, scope: !21)
!41 = !DILocation(line: 8, column: 5, scope: !37)
!42 = !DILocation(line: 9, column: 13, scope: !43)
!43 = distinct !DILexicalBlock(scope: !44, file: !1, line: 9, column: 13)
!44 = distinct !DILexicalBlock(scope: !37, file: !1, line: 8, column: 33)
!45 = !DILocation(line: 9, column: 24, scope: !43)
!46 = !DILocation(line: 9, column: 13, scope: !44)
!47 = !DILocation(line: 10, column: 13, scope: !43)
!48 = !DILocation(line: 11, column: 14, scope: !44)
!49 = !DILocation(line: 11, column: 16, scope: !44)
!50 = !DILocation(line: 11, column: 22, scope: !44)
!51 = !DILocation(line: 11, column: 34, scope: !44)
!52 = !DILocation(line: 11, column: 21, scope: !44)
!53 = !DILocation(line: 11, column: 19, scope: !44)
!54 = !DILocation(line: 11, column: 11, scope: !44)
!55 = !DILocation(line: 12, column: 5, scope: !44)
!56 = !DILocation(line: 8, column: 29, scope: !37)
!57 = distinct !{!57, !40, !58, !59}
!58 = !DILocation(line: 12, column: 5, scope: !21)
!59 = !{!"llvm.loop.mustprogress"}
!60 = !DILocation(line: 13, column: 12, scope: !9)
!61 = !DILocation(line: 14, column: 1, scope: !9)
!62 = !DILocation(line: 13, column: 5, scope: !9)
!63 = !DISubprogram(name: "lp__bt_slow", scope: !1, file: !1, line: 4, type: !64, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized, retainedNodes: !70)
!64 = !DISubroutineType(types: !65)
!65 = !{!66}
!66 = !DIDerivedType(tag: DW_TAG_typedef, name: "int32_t", file: !67, line: 26, baseType: !68)
!67 = !DIFile(filename: "/usr/include/x86_64-linux-gnu/bits/stdint-intn.h", directory: "", checksumkind: CSK_MD5, checksum: "55bcbdc3159515ebd91d351a70d505f4")
!68 = !DIDerivedType(tag: DW_TAG_typedef, name: "__int32_t", file: !69, line: 41, baseType: !15)
!69 = !DIFile(filename: "/usr/include/x86_64-linux-gnu/bits/types.h", directory: "", checksumkind: CSK_MD5, checksum: "d108b5f93a74c50510d7d9bc0ab36df9")
!70 = !{}
