; ModuleID = "s.c"
source_filename = "s.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@ptr = dso_local global void ()* @cb, align 8, !dbg !0

; Function Attrs: nounwind uwtable
define internal void @cb() #0 !dbg !16 {
  ret void, !dbg !18
}

; Function Attrs: nounwind uwtable
define dso_local i32 @run(i32 noundef %0) #0 !dbg !19 {
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !28
  call void @llvm.dbg.declare(metadata i32* %2, metadata !24, metadata !DIExpression()), !dbg !32
  %5 = bitcast i32* %3 to i8*, !dbg !33
  call void @llvm.lifetime.suart.p0i8(i64 4, i8* %5) #3, !dbg !33
  call void @llvm.dbg.declare(metadata i32* %3, metadata !25, metadata !DIExpression()), !dbg !34
  store i32 0, i32* %3, align 4, !dbg !34, !tbaa !28
  %6 = bitcast i32* %4 to i8*, !dbg !35
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %6) #3, !dbg !35
  call void @llvm.dbg.declare(metadata i32* %4, metadata !26, metadata !DIExpression()), !dbg !36
  store i32 0, i32* %4, align 4, !dbg !36, !tbaa !28
  br label %7, !dbg !35

7:                                                ; preds = %18, %1
  %8 = load i32, i32* %4, align 4, !dbg !37, !tbaa !28
  %9 = load i32, i32* %2, align 4, !dbg !39, !tbaa !28
  %10 = icmp slt i32 %8, %9, !dbg !40
  br i1 %10, label %13, label %11, !dbg !41

11:                                               ; preds = %7
  %12 = bitcast i32* %4 to i8*, !dbg !42
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %12) #3, !dbg !42
  br label %21

13:                                               ; preds = %7
  %14 = load i32, i32* %4, align 4, !dbg !43, !tbaa !28
  %15 = call i32 @sq(i32 noundef %14), !dbg !44
  %16 = load i32, i32* %3, align 4, !dbg !45, !tbaa !28
  %17 = add nsw i32 %16, %15, !dbg !45
  store i32 %17, i32* %3, align 4, !dbg !45, !tbaa !28
  br label %18, !dbg !46

18:                                               ; preds = %13
  %19 = load i32, i32* %4, align 4, !dbg !47, !tbaa !28
  %20 = add nsw i32 %19, 1, !dbg !47
  store i32 %20, i32* %4, align 4, !dbg !47, !tbaa !28
  br label %7, !dbg !42, !llvm.loop !48

21:                                               ; preds = %11
  %22 = load volatile void ()*, void ()** @ptr, align 8, !dbg !51, !tbaa !52
  call void %22(), !dbg !51
  %23 = load i32, i32* %3, align 4, !dbg !54, !tbaa !28
  %24 = load i32, i32* %2, align 4, !dbg !55, !tbaa !28
  %25 = call i32 @even(i32 noundef %24), !dbg !56
  %26 = add nsw i32 %23, %25, !dbg !57
  %27 = bitcast i32* %3 to i8*, !dbg !58
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %27) #3, !dbg !58
  ret i32 %26, !dbg !59
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture) #2

; Function Attrs: nounwind uwtable
define internal i32 @sq(i32 noundef %0) #0 !dbg !60 {
  %2 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !28
  call void @llvm.dbg.declare(metadata i32* %2, metadata !62, metadata !DIExpression()), !dbg !63
  %3 = load i32, i32* %2, align 4, !dbg !64, !tbaa !28
  %4 = load i32, i32* %2, align 4, !dbg !65, !tbaa !28
  %5 = mul nsw i32 %3, %4, !dbg !66
  ret i32 %5, !dbg !67
}

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture) #2

; Function Attrs: nounwind uwtable
define internal i32 @even(i32 noundef %0) #0 !dbg !68 {
  %2 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !28
  call void @llvm.dbg.declare(metadata i32* %2, metadata !70, metadata !DIExpression()), !dbg !71
  %3 = load i32, i32* %2, align 4, !dbg !72, !tbaa !28
  %4 = icmp eq i32 %3, 0, !dbg !73
  br i1 %4, label %5, label %6, !dbg !72

5:                                                ; preds = %1
  br label %10, !dbg !72

6:                                                ; preds = %1
  %7 = load i32, i32* %2, align 4, !dbg !74, !tbaa !28
  %8 = sub nsw i32 %7, 1, !dbg !75
  %9 = call i32 @odd(i32 noundef %8), !dbg !76
  br label %10, !dbg !72

10:                                               ; preds = %6, %5
  %11 = phi i32 [ 1, %5 ], [ %9, %6 ], !dbg !72
  ret i32 %11, !dbg !77
}

; Function Attrs: nounwind uwtable
define internal i32 @odd(i32 noundef %0) #0 !dbg !78 {
  %2 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !28
  call void @llvm.dbg.declare(metadata i32* %2, metadata !80, metadata !DIExpression()), !dbg !81
  %3 = load i32, i32* %2, align 4, !dbg !82, !tbaa !28
  %4 = icmp eq i32 %3, 0, !dbg !83
  br i1 %4, label %5, label %6, !dbg !82

5:                                                ; preds = %1
  br label %10, !dbg !82

6:                                                ; preds = %1
  %7 = load i32, i32* %2, align 4, !dbg !84, !tbaa !28
  %8 = sub nsw i32 %7, 1, !dbg !85
  %9 = call i32 @even(i32 noundef %8), !dbg !86
  br label %10, !dbg !82

10:                                               ; preds = %6, %5
  %11 = phi i32 [ 0, %5 ], [ %9, %6 ], !dbg !82
  ret i32 %11, !dbg !87
}

attributes #0 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "patchable-function-entry"="5" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { argmemonly nofree nosync nounwind willreturn }
attributes #3 = { nounwind }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!9, !10, !11, !12, !13, !14}
!llvm.ident = !{!15}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "ptr", scope: !2, file: !3, line: 6, type: !5, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C99, file: !3, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, globals: !4, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "s.c", directory: "/src")
!4 = !{!0}
!5 = !DIDerivedType(tag: DW_TAG_volatile_type, baseType: !6)
!6 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !7, size: 64)
!7 = !DISubroutineType(types: !8)
!8 = !{null}
!9 = !{i32 7, !"Dwarf Version", i32 4}
!10 = !{i32 2, !"Debug Info Version", i32 3}
!11 = !{i32 1, !"wchar_size", i32 4}
!12 = !{i32 7, !"PIC Level", i32 2}
!13 = !{i32 7, !"PIE Level", i32 2}
!14 = !{i32 7, !"uwtable", i32 1}
!15 = !{!"Debian clang version 14.0.6"}
!16 = distinct !DISubprogram(name: "cb", scope: !3, file: !3, line: 5, type: !7, scopeLine: 5, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !17)
!17 = !{}
!18 = !DILocation(line: 5, column: 23, scope: !16)
!19 = dn(line: 1, column: 33, scope: !60)
!67 = !DILocation(line: 1, column: 24, scope: !60)
!68 = distinct !DISubprogram(name: "even", scope: !3, file: !3, line: 3, type: !20, scopeLine: 3, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !69)
!69 = !{!70}
!70 = !DILocalVariable(name: "n", arg: 1, scope: !68, file: !3, line: 3, type: !22)
!71 = !DILocation(line: 3, column: 21, scope: !68)
!72 = !DILocation(line: 3, column: 33, scope: !68)
!73 = !DILocation(line: 3, column: 35, scope: !68)
!74 = !DILocation(line: 3, column: 50, scope: !68)
!75 = !DILocation(line: 3, column: 52, scope: !68)
!76 = !DILocation(line: 3, column: 46, scope: !68)
!77 = !DILocation(line: 3, column: 26, scope: !68)
!78 = distinct !DISubprogram(name: "odd", scope: !3, file: !3, line: 4, type: !20, scopeLine: 4, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !79)
!79 = !{!80}
!80 = !DILocalVariable(name: "n", arg: 1, scope: !78, file: !3, line: 4, type: !22)
!81 = !DILocation(line: 4, column: 20, scope: !78)
!82 = !DILocation(line: 4, column: 32, scope: !78)
!83 = !DILocation(line: 4, column: 34, scope: !78)
!84 = !DILocation(line: 4, column: 50, scope: !78)
!85 = !DILocation(line: 4, column: 52, scope: !78)
!86 = !DILocation(line: 4, column: 45, scope: !78)
!87 = !DILocation(line: 4, column: 25, scope: !78)
