; ModuleID = 'sdup.ll'
source_filename = "sp.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

$helper.lpdup = comdat nodeduplicate

$hot_sum.lpdup = comdat nodeduplicate

$main.lpdup = comdat nodeduplicate

$sancov.module_ctor_8bit_counters = comdat any

@.str = private unnamed_addr constant [4 x i8] c"%u\0A\00", align 1
@__sancov_gen_ = private global [1 x i8] zeroinitializer, section "__sancov_cntrs", comdat($helper.lpdup), align 1
@__sancov_gen_.1 = private constant [2 x i64*] [i64* bitcast (i32 (i32)* @helper.lpdup to i64*), i64* inttoptr (i64 1 to i64*)], section "__sancov_pcs", comdat($helper.lpdup), align 8
@__sancov_gen_.2 = private global [6 x i8] zeroinitializer, section "__sancov_cntrs", comdat($hot_sum.lpdup), align 1
@__sancov_gen_.3 = private constant [12 x i64*] [i64* bitcast (i32 (i32)* @hot_sum.lpdup to i64*), i64* inttoptr (i64 1 to i64*), i64* bitcast (i8* blockaddress(@hot_sum.lpdup, %.._crit_edge_crit_edge) to i64*), i64* null, i64* bitcast (i8* blockaddress(@hot_sum.lpdup, %8) to i64*), i64* null, i64* bitcast (i8* blockaddress(@hot_sum.lpdup, %13) to i64*), i64* null, i64* bitcast (i8* blockaddress(@hot_sum.lpdup, %..lr.ph_crit_edge17) to i64*), i64* null, i64* bitcast (i8* blockaddress(@hot_sum.lpdup, %.._crit_edge_crit_edge16) to i64*), i64* null], section "__sancov_pcs", comdat($hot_sum.lpdup), align 8
@__sancov_gen_.4 = private global [3 x i8] zeroinitializer, section "__sancov_cntrs", comdat($main.lpdup), align 1
@__sancov_gen_.5 = private constant [6 x i64*] [i64* bitcast (i32 (i32, i8**)* @main.lpdup to i64*), i64* inttoptr (i64 1 to i64*), i64* bitcast (i8* blockaddress(@main.lpdup, %._crit_edge) to i64*), i64* null, i64* bitcast (i8* blockaddress(@main.lpdup, %8) to i64*), i64* null], section "__sancov_pcs", comdat($main.lpdup), align 8
@__start___sancov_cntrs = extern_weak hidden global i8
@__stop___sancov_cntrs = extern_weak hidden global i8
@llvm.global_ctors = appending global [1 x { i32, void ()*, i8* }] [{ i32, void ()*, i8* } { i32 2, void ()* @sancov.module_ctor_8bit_counters, i8* bitcast (void ()* @sancov.module_ctor_8bit_counters to i8*) }]
@__start___sancov_pcs = extern_weak hidden global i64
@__stop___sancov_pcs = extern_weak hidden global i64
@llvm.used = appending global [1 x i8*] [i8* bitcast (void ()* @sancov.module_ctor_8bit_counters to i8*)], section "llvm.metadata"
@llvm.compiler.used = appending global [6 x i8*] [i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_, i32 0, i32 0), i8* bitcast ([2 x i64*]* @__sancov_gen_.1 to i8*), i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.2, i32 0, i32 0), i8* bitcast ([12 x i64*]* @__sancov_gen_.3 to i8*), i8* getelementptr inbounds ([3 x i8], [3 x i8]* @__sancov_gen_.4, i32 0, i32 0), i8* bitcast ([6 x i64*]* @__sancov_gen_.5 to i8*)], section "llvm.metadata"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind readnone uwtable willreturn
define dso_local i32 @helper(i32 noundef %0) local_unnamed_addr #0 !dbg !11 {
  call void @llvm.dbg.value(metadata i32 %0, metadata !15, metadata !DIExpression()), !dbg !16
  %2 = mul i32 %0, -1640531535, !dbg !17
  %3 = lshr i32 %0, 7, !dbg !18
  %4 = xor i32 %2, %3, !dbg !19
  ret i32 %4, !dbg !20
}

; Function Attrs: nofree noinline norecurse nosync nounwind readnone uwtable
define dso_local i32 @hot_sum(i32 noundef %0) local_unnamed_addr #1 !dbg !21 {
  call void @llvm.dbg.value(metadata i32 %0, metadata !23, metadata !DIExpression()), !dbg !27
  call void @llvm.dbg.value(metadata i32 0, metadata !24, metadata !DIExpression()), !dbg !27
  call void @llvm.dbg.value(metadata i32 0, metadata !25, metadata !DIExpression()), !dbg !28
  %.not = icmp eq i32 %0, 0, !dbg !29
  br i1 %.not, label %._crit_edge, label %.lr.ph, !dbg !31

._crit_edge:                                      ; preds = %12, %1
  %.012.lcssa = phi i32 [ 0, %1 ], [ %.1, %12 ], !dbg !27
  ret i32 %.012.lcssa, !dbg !32

.lr.ph:                                           ; preds = %1, %12
  %.014 = phi i32 [ %13, %12 ], [ 0, %1 ]
  %.01213 = phi i32 [ %.1, %12 ], [ 0, %1 ]
  call void @llvm.dbg.value(metadata i32 %.014, metadata !25, metadata !DIExpression()), !dbg !28
  call void @llvm.dbg.value(metadata i32 %.01213, metadata !24, metadata !DIExpression()), !dbg !27
  %2 = urem i32 %.014, 3, !dbg !33
  %3 = icmp eq i32 %2, 0, !dbg !36
  br i1 %3, label %4, label %7, !dbg !37

4:                                                ; preds = %.lr.ph
  %5 = tail call i32 @helper(i32 noundef %.014), !dbg !38
  %6 = add i32 %5, %.01213, !dbg !39
  call void @llvm.dbg.value(metadata i32 %6, metadata !24, metadata !DIExpression()), !dbg !27
  br label %12, !dbg !40

7:                                                ; preds = %.lr.ph
  call void @llvm.dbg.value(metadata i32 %.01213, metadata !41, metadata !DIExpression()), !dbg !47
  call void @llvm.dbg.value(metadata i32 %.014, metadata !46, metadata !DIExpression()), !dbg !47
  %8 = shl i32 %.01213, 5, !dbg !49
  %9 = lshr i32 %.01213, 3, !dbg !50
  %10 = add i32 %8, %9, !dbg !51
  %11 = add i32 %10, %.014, !dbg !52
  call void @llvm.dbg.value(metadata i32 %11, metadata !24, metadata !DIExpression()), !dbg !27
  br label %12

12:                                               ; preds = %4, %7
  %.1 = phi i32 [ %6, %4 ], [ %11, %7 ], !dbg !53
  call void @llvm.dbg.value(metadata i32 %.1, metadata !24, metadata !DIExpression()), !dbg !27
  %13 = add nuw i32 %.014, 1, !dbg !54
  call void @llvm.dbg.value(metadata i32 %13, metadata !25, metadata !DIExpression()), !dbg !28
  %exitcond.not = icmp eq i32 %13, %0, !dbg !29
  br i1 %exitcond.not, label %._crit_edge, label %.lr.ph, !dbg !31, !llvm.loop !55
}

; Function Attrs: nofree nounwind uwtable
define dso_local i32 @main(i32 noundef %0, i8** nocapture noundef readonly %1) local_unnamed_addr #2 !dbg !58 {
  call void @llvm.dbg.value(metadata i32 %0, metadata !66, metadata !DIExpression()), !dbg !69
  call void @llvm.dbg.value(metadata i8** %1, metadata !67, metadata !DIExpression()), !dbg !69
  %3 = icmp sgt i32 %0, 1, !dbg !70
  br i1 %3, label %4, label %9, !dbg !71

4:                                                ; preds = %2
  %5 = getelementptr inbounds i8*, i8** %1, i64 1, !dbg !72
  %6 = load i8*, i8** %5, align 8, !dbg !72, !tbaa !73
  %7 = tail call i64 @strtoul(i8* nocapture noundef %6, i8** noundef null, i32 noundef 10) #7, !dbg !77
  %8 = trunc i64 %7 to i32, !dbg !78
  br label %9, !dbg !71

9:                                                ; preds = %2, %4
  %10 = phi i32 [ %8, %4 ], [ 30000, %2 ], !dbg !71
  call void @llvm.dbg.value(metadata i32 %10, metadata !68, metadata !DIExpression()), !dbg !69
  %11 = tail call i32 @hot_sum(i32 noundef %10), !dbg !79
  %12 = tail call i32 (i8*, ...) @printf(i8* noundef nonnull dereferenceable(1) getelementptr inbounds ([4 x i8], [4 x i8]* @.str, i64 0, i64 0), i32 noundef %11), !dbg !80
  ret i32 0, !dbg !81
}

; Function Attrs: mustprogress nofree nounwind willreturn
declare i64 @strtoul(i8* noundef readonly, i8** nocapture noundef, i32 noundef) local_unnamed_addr #3

; Function Attrs: nofree nounwind
declare noundef i32 @printf(i8* nocapture noundef readonly, ...) local_unnamed_addr #4

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind readnone uwtable willreturn
define hidden i32 @helper.lpdup(i32 noundef %0) local_unnamed_addr #0 section "lp_copies" comdat !dbg !82 {
  %2 = load i8, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_, i64 0, i64 0), align 1, !dbg !85, !nosanitize !86
  %3 = add i8 %2, 1, !dbg !85
  store i8 %3, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_, i64 0, i64 0), align 1, !dbg !85, !nosanitize !86
  call void @llvm.dbg.value(metadata i32 %0, metadata !84, metadata !DIExpression()), !dbg !87
  %4 = mul i32 %0, -1640531535, !dbg !88
  %5 = lshr i32 %0, 7, !dbg !89
  %6 = xor i32 %4, %5, !dbg !90
  ret i32 %6, !dbg !91
}

; Function Attrs: nofree noinline norecurse nosync nounwind readnone uwtable
define hidden i32 @hot_sum.lpdup(i32 noundef %0) local_unnamed_addr #1 section "lp_copies" comdat !dbg !92 {
  %2 = load i8, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.2, i64 0, i64 0), align 1, !dbg !98, !nosanitize !86
  %3 = add i8 %2, 1, !dbg !98
  store i8 %3, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.2, i64 0, i64 0), align 1, !dbg !98, !nosanitize !86
  call void @llvm.dbg.value(metadata i32 %0, metadata !94, metadata !DIExpression()), !dbg !99
  call void @llvm.dbg.value(metadata i32 0, metadata !95, metadata !DIExpression()), !dbg !99
  call void @llvm.dbg.value(metadata i32 0, metadata !96, metadata !DIExpression()), !dbg !100
  %.not = icmp eq i32 %0, 0, !dbg !101
  br i1 %.not, label %.._crit_edge_crit_edge, label %..lr.ph_crit_edge, !dbg !103

..lr.ph_crit_edge:                                ; preds = %1
  br label %.lr.ph, !dbg !103

.._crit_edge_crit_edge:                           ; preds = %1
  %4 = load i8, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.2, i64 0, i64 1), align 1, !dbg !103, !nosanitize !86
  %5 = add i8 %4, 1, !dbg !103
  store i8 %5, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.2, i64 0, i64 1), align 1, !dbg !103, !nosanitize !86
  br label %._crit_edge, !dbg !103

._crit_edge:                                      ; preds = %.._crit_edge_crit_edge16, %.._crit_edge_crit_edge
  %.012.lcssa = phi i32 [ 0, %.._crit_edge_crit_edge ], [ %.1, %.._crit_edge_crit_edge16 ], !dbg !99
  ret i32 %.012.lcssa, !dbg !104

.lr.ph:                                           ; preds = %..lr.ph_crit_edge17, %..lr.ph_crit_edge
  %.014 = phi i32 [ %21, %..lr.ph_crit_edge17 ], [ 0, %..lr.ph_crit_edge ]
  %.01213 = phi i32 [ %.1, %..lr.ph_crit_edge17 ], [ 0, %..lr.ph_crit_edge ]
  call void @llvm.dbg.value(metadata i32 %.014, metadata !96, metadata !DIExpression()), !dbg !100
  call void @llvm.dbg.value(metadata i32 %.01213, metadata !95, metadata !DIExpression()), !dbg !99
  %6 = urem i32 %.014, 3, !dbg !105
  %7 = icmp eq i32 %6, 0, !dbg !108
  br i1 %7, label %8, label %13, !dbg !109

8:                                                ; preds = %.lr.ph
  %9 = load i8, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.2, i64 0, i64 2), align 1, !dbg !110, !nosanitize !86
  %10 = add i8 %9, 1, !dbg !110
  store i8 %10, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.2, i64 0, i64 2), align 1, !dbg !110, !nosanitize !86
  %11 = tail call i32 @helper(i32 noundef %.014), !dbg !110
  %12 = add i32 %11, %.01213, !dbg !111
  call void @llvm.dbg.value(metadata i32 %12, metadata !95, metadata !DIExpression()), !dbg !99
  br label %20, !dbg !112

13:                                               ; preds = %.lr.ph
  %14 = load i8, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.2, i64 0, i64 3), align 1, !dbg !113, !nosanitize !86
  %15 = add i8 %14, 1, !dbg !113
  store i8 %15, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.2, i64 0, i64 3), align 1, !dbg !113, !nosanitize !86
  call void @llvm.dbg.value(metadata i32 %.01213, metadata !116, metadata !DIExpression()), !dbg !113
  call void @llvm.dbg.value(metadata i32 %.014, metadata !117, metadata !DIExpression()), !dbg !113
  %16 = shl i32 %.01213, 5, !dbg !119
  %17 = lshr i32 %.01213, 3, !dbg !120
  %18 = add i32 %16, %17, !dbg !121
  %19 = add i32 %18, %.014, !dbg !122
  call void @llvm.dbg.value(metadata i32 %19, metadata !95, metadata !DIExpression()), !dbg !99
  br label %20

20:                                               ; preds = %8, %13
  %.1 = phi i32 [ %12, %8 ], [ %19, %13 ], !dbg !123
  call void @llvm.dbg.value(metadata i32 %.1, metadata !95, metadata !DIExpression()), !dbg !99
  %21 = add nuw i32 %.014, 1, !dbg !124
  call void @llvm.dbg.value(metadata i32 %21, metadata !96, metadata !DIExpression()), !dbg !100
  %exitcond.not = icmp eq i32 %21, %0, !dbg !101
  br i1 %exitcond.not, label %.._crit_edge_crit_edge16, label %..lr.ph_crit_edge17, !dbg !103, !llvm.loop !125

..lr.ph_crit_edge17:                              ; preds = %20
  %22 = load i8, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.2, i64 0, i64 4), align 1, !dbg !103, !nosanitize !86
  %23 = add i8 %22, 1, !dbg !103
  store i8 %23, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.2, i64 0, i64 4), align 1, !dbg !103, !nosanitize !86
  br label %.lr.ph, !dbg !103

.._crit_edge_crit_edge16:                         ; preds = %20
  %24 = load i8, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.2, i64 0, i64 5), align 1, !dbg !103, !nosanitize !86
  %25 = add i8 %24, 1, !dbg !103
  store i8 %25, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.2, i64 0, i64 5), align 1, !dbg !103, !nosanitize !86
  br label %._crit_edge, !dbg !103
}

; Function Attrs: nofree nounwind uwtable
define hidden i32 @main.lpdup(i32 noundef %0, i8** nocapture noundef readonly %1) local_unnamed_addr #2 section "lp_copies" comdat !dbg !127 {
  %3 = load i8, i8* getelementptr inbounds ([3 x i8], [3 x i8]* @__sancov_gen_.4, i64 0, i64 0), align 1, !dbg !132, !nosanitize !86
  %4 = add i8 %3, 1, !dbg !132
  store i8 %4, i8* getelementptr inbounds ([3 x i8], [3 x i8]* @__sancov_gen_.4, i64 0, i64 0), align 1, !dbg !132, !nosanitize !86
  call void @llvm.dbg.value(metadata i32 %0, metadata !129, metadata !DIExpression()), !dbg !133
  call void @llvm.dbg.value(metadata i8** %1, metadata !130, metadata !DIExpression()), !dbg !133
  %5 = icmp sgt i32 %0, 1, !dbg !134
  br i1 %5, label %8, label %._crit_edge, !dbg !135

._crit_edge:                                      ; preds = %2
  %6 = load i8, i8* getelementptr inbounds ([3 x i8], [3 x i8]* @__sancov_gen_.4, i64 0, i64 1), align 1, !dbg !135, !nosanitize !86
  %7 = add i8 %6, 1, !dbg !135
  store i8 %7, i8* getelementptr inbounds ([3 x i8], [3 x i8]* @__sancov_gen_.4, i64 0, i64 1), align 1, !dbg !135, !nosanitize !86
  br label %15, !dbg !135

8:                                                ; preds = %2
  %9 = load i8, i8* getelementptr inbounds ([3 x i8], [3 x i8]* @__sancov_gen_.4, i64 0, i64 2), align 1, !dbg !136, !nosanitize !86
  %10 = add i8 %9, 1, !dbg !136
  store i8 %10, i8* getelementptr inbounds ([3 x i8], [3 x i8]* @__sancov_gen_.4, i64 0, i64 2), align 1, !dbg !136, !nosanitize !86
  %11 = getelementptr inbounds i8*, i8** %1, i64 1, !dbg !136
  %12 = load i8*, i8** %11, align 8, !dbg !136, !tbaa !73
  %13 = tail call i64 @strtoul(i8* nocapture noundef %12, i8** noundef null, i32 noundef 10) #7, !dbg !137
  %14 = trunc i64 %13 to i32, !dbg !138
  br label %15, !dbg !135

15:                                               ; preds = %._crit_edge, %8
  %16 = phi i32 [ %14, %8 ], [ 30000, %._crit_edge ], !dbg !135
  call void @llvm.dbg.value(metadata i32 %16, metadata !131, metadata !DIExpression()), !dbg !133
  %17 = tail call i32 @hot_sum(i32 noundef %16), !dbg !139
  %18 = tail call i32 (i8*, ...) @printf(i8* noundef nonnull dereferenceable(1) getelementptr inbounds ([4 x i8], [4 x i8]* @.str, i64 0, i64 0), i32 noundef %17), !dbg !140
  ret i32 0, !dbg !141
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.value(metadata, metadata, metadata) #5

declare void @__sanitizer_cov_8bit_counters_init(i8*, i8*)

; Function Attrs: nounwind uwtable
define internal void @sancov.module_ctor_8bit_counters() #6 comdat {
  call void @__sanitizer_cov_8bit_counters_init(i8* @__start___sancov_cntrs, i8* @__stop___sancov_cntrs)
  call void @__sanitizer_cov_pcs_init(i64* @__start___sancov_pcs, i64* @__stop___sancov_pcs)
  ret void
}

declare void @__sanitizer_cov_pcs_init(i64*, i64*)

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind readnone uwtable willreturn "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "patchable-function-entry"="5" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree noinline norecurse nosync nounwind readnone uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "patchable-function-entry"="5" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nofree nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "patchable-function-entry"="5" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { mustprogress nofree nounwind willreturn "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nofree nounwind "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #6 = { nounwind uwtable }
attributes #7 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!4, !5, !6, !7, !8, !9}
!llvm.ident = !{!10}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !2, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "sp.c", directory: "/tmp/ic", checksumkind: CSK_MD5, checksum: "1debcbecdb62ddf9468f19a1714a66c6")
!2 = !{!3}
!3 = !DIBasicType(name: "unsigned int", size: 32, encoding: DW_ATE_unsigned)
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = !{i32 2, !"Debug Info Version", i32 3}
!6 = !{i32 1, !"wchar_size", i32 4}
!7 = !{i32 7, !"PIC Level", i32 2}
!8 = !{i32 7, !"PIE Level", i32 2}
!9 = !{i32 7, !"uwtable", i32 1}
!10 = !{!"Debian clang version 14.0.6"}
!11 = distinct !DISubprogram(name: "helper", scope: !1, file: !1, line: 10, type: !12, scopeLine: 11, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !14)
!12 = !DISubroutineType(types: !13)
!13 = !{!3, !3}
!14 = !{!15}
!15 = !DILocalVariable(name: "x", arg: 1, scope: !11, file: !1, line: 10, type: !3)
!16 = !DILocation(line: 0, scope: !11)
!17 = !DILocation(line: 12, column: 14, scope: !11)
!18 = !DILocation(line: 12, column: 33, scope: !11)
!19 = !DILocation(line: 12, column: 28, scope: !11)
!20 = !DILocation(line: 12, column: 5, scope: !11)
!21 = distinct !DISubprogram(name: "hot_sum", scope: !1, file: !1, line: 21, type: !12, scopeLine: 22, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !22)
!22 = !{!23, !24, !25}
!23 = !DILocalVariable(name: "n", arg: 1, scope: !21, file: !1, line: 21, type: !3)
!24 = !DILocalVariable(name: "acc", scope: !21, file: !1, line: 23, type: !3)
!25 = !DILocalVariable(name: "i", scope: !26, file: !1, line: 24, type: !3)
!26 = distinct !DILexicalBlock(scope: !21, file: !1, line: 24, column: 5)
!27 = !DILocation(line: 0, scope: !21)
!28 = !DILocation(line: 0, scope: !26)
!29 = !DILocation(line: 24, column: 28, scope: !30)
!30 = distinct !DILexicalBlock(scope: !26, file: !1, line: 24, column: 5)
!31 = !DILocation(line: 24, column: 5, scope: !26)
!32 = !DILocation(line: 30, column: 5, scope: !21)
!33 = !DILocation(line: 25, column: 15, scope: !34)
!34 = distinct !DILexicalBlock(scope: !35, file: !1, line: 25, column: 13)
!35 = distinct !DILexicalBlock(scope: !30, file: !1, line: 24, column: 38)
!36 = !DILocation(line: 25, column: 19, scope: !34)
!37 = !DILocation(line: 25, column: 13, scope: !35)
!38 = !DILocation(line: 26, column: 20, scope: !34)
!39 = !DILocation(line: 26, column: 17, scope: !34)
!40 = !DILocation(line: 26, column: 13, scope: !34)
!41 = !DILocalVariable(name: "a", arg: 1, scope: !42, file: !1, line: 16, type: !3)
!42 = distinct !DISubprogram(name: "mix", scope: !1, file: !1, line: 16, type: !43, scopeLine: 17, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !45)
!43 = !DISubroutineType(types: !44)
!44 = !{!3, !3, !3}
!45 = !{!41, !46}
!46 = !DILocalVariable(name: "b", arg: 2, scope: !42, file: !1, line: 16, type: !3)
!47 = !DILocation(line: 0, scope: !42, inlinedAt: !48)
!48 = distinct !DILocation(line: 28, column: 19, scope: !34)
!49 = !DILocation(line: 18, column: 15, scope: !42, inlinedAt: !48)
!50 = !DILocation(line: 18, column: 26, scope: !42, inlinedAt: !48)
!51 = !DILocation(line: 18, column: 21, scope: !42, inlinedAt: !48)
!52 = !DILocation(line: 18, column: 32, scope: !42, inlinedAt: !48)
!53 = !DILocation(line: 0, scope: !34)
!54 = !DILocation(line: 24, column: 34, scope: !30)
!55 = distinct !{!55, !31, !56, !57}
!56 = !DILocation(line: 29, column: 5, scope: !26)
!57 = !{!"llvm.loop.mustprogress"}
!58 = distinct !DISubprogram(name: "main", scope: !1, file: !1, line: 33, type: !59, scopeLine: 34, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !65)
!59 = !DISubroutineType(types: !60)
!60 = !{!61, !61, !62}
!61 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!62 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !63, size: 64)
!63 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !64, size: 64)
!64 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!65 = !{!66, !67, !68}
!66 = !DILocalVariable(name: "argc", arg: 1, scope: !58, file: !1, line: 33, type: !61)
!67 = !DILocalVariable(name: "argv", arg: 2, scope: !58, file: !1, line: 33, type: !62)
!68 = !DILocalVariable(name: "n", scope: !58, file: !1, line: 35, type: !3)
!69 = !DILocation(line: 0, scope: !58)
!70 = !DILocation(line: 35, column: 23, scope: !58)
!71 = !DILocation(line: 35, column: 18, scope: !58)
!72 = !DILocation(line: 35, column: 47, scope: !58)
!73 = !{!74, !74, i64 0}
!74 = !{!"any pointer", !75, i64 0}
!75 = !{!"omnipotent char", !76, i64 0}
!76 = !{!"Simple C/C++ TBAA"}
!77 = !DILocation(line: 35, column: 39, scope: !58)
!78 = !DILocation(line: 35, column: 29, scope: !58)
!79 = !DILocation(line: 36, column: 20, scope: !58)
!80 = !DILocation(line: 36, column: 5, scope: !58)
!81 = !DILocation(line: 37, column: 5, scope: !58)
!82 = distinct !DISubprogram(name: "helper", scope: !1, file: !1, line: 10, type: !12, scopeLine: 11, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !83)
!83 = !{!84}
!84 = !DILocalVariable(name: "x", arg: 1, scope: !82, file: !1, line: 10, type: !3)
!85 = !DILocation(line: 11, scope: !82)
!86 = !{}
!87 = !DILocation(line: 0, scope: !82)
!88 = !DILocation(line: 12, column: 14, scope: !82)
!89 = !DILocation(line: 12, column: 33, scope: !82)
!90 = !DILocation(line: 12, column: 28, scope: !82)
!91 = !DILocation(line: 12, column: 5, scope: !82)
!92 = distinct !DISubprogram(name: "hot_sum", scope: !1, file: !1, line: 21, type: !12, scopeLine: 22, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !93)
!93 = !{!94, !95, !96}
!94 = !DILocalVariable(name: "n", arg: 1, scope: !92, file: !1, line: 21, type: !3)
!95 = !DILocalVariable(name: "acc", scope: !92, file: !1, line: 23, type: !3)
!96 = !DILocalVariable(name: "i", scope: !97, file: !1, line: 24, type: !3)
!97 = distinct !DILexicalBlock(scope: !92, file: !1, line: 24, column: 5)
!98 = !DILocation(line: 22, scope: !92)
!99 = !DILocation(line: 0, scope: !92)
!100 = !DILocation(line: 0, scope: !97)
!101 = !DILocation(line: 24, column: 28, scope: !102)
!102 = distinct !DILexicalBlock(scope: !97, file: !1, line: 24, column: 5)
!103 = !DILocation(line: 24, column: 5, scope: !97)
!104 = !DILocation(line: 30, column: 5, scope: !92)
!105 = !DILocation(line: 25, column: 15, scope: !106)
!106 = distinct !DILexicalBlock(scope: !107, file: !1, line: 25, column: 13)
!107 = distinct !DILexicalBlock(scope: !102, file: !1, line: 24, column: 38)
!108 = !DILocation(line: 25, column: 19, scope: !106)
!109 = !DILocation(line: 25, column: 13, scope: !107)
!110 = !DILocation(line: 26, column: 20, scope: !106)
!111 = !DILocation(line: 26, column: 17, scope: !106)
!112 = !DILocation(line: 26, column: 13, scope: !106)
!113 = !DILocation(line: 0, scope: !114, inlinedAt: !118)
!114 = distinct !DISubprogram(name: "mix", scope: !1, file: !1, line: 16, type: !43, scopeLine: 17, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !115)
!115 = !{!116, !117}
!116 = !DILocalVariable(name: "a", arg: 1, scope: !114, file: !1, line: 16, type: !3)
!117 = !DILocalVariable(name: "b", arg: 2, scope: !114, file: !1, line: 16, type: !3)
!118 = distinct !DILocation(line: 28, column: 19, scope: !106)
!119 = !DILocation(line: 18, column: 15, scope: !114, inlinedAt: !118)
!120 = !DILocation(line: 18, column: 26, scope: !114, inlinedAt: !118)
!121 = !DILocation(line: 18, column: 21, scope: !114, inlinedAt: !118)
!122 = !DILocation(line: 18, column: 32, scope: !114, inlinedAt: !118)
!123 = !DILocation(line: 0, scope: !106)
!124 = !DILocation(line: 24, column: 34, scope: !102)
!125 = distinct !{!125, !103, !126, !57}
!126 = !DILocation(line: 29, column: 5, scope: !97)
!127 = distinct !DISubprogram(name: "main", scope: !1, file: !1, line: 33, type: !59, scopeLine: 34, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !128)
!128 = !{!129, !130, !131}
!129 = !DILocalVariable(name: "argc", arg: 1, scope: !127, file: !1, line: 33, type: !61)
!130 = !DILocalVariable(name: "argv", arg: 2, scope: !127, file: !1, line: 33, type: !62)
!131 = !DILocalVariable(name: "n", scope: !127, file: !1, line: 35, type: !3)
!132 = !DILocation(line: 34, scope: !127)
!133 = !DILocation(line: 0, scope: !127)
!134 = !DILocation(line: 35, column: 23, scope: !127)
!135 = !DILocation(line: 35, column: 18, scope: !127)
!136 = !DILocation(line: 35, column: 47, scope: !127)
!137 = !DILocation(line: 35, column: 39, scope: !127)
!138 = !DILocation(line: 35, column: 29, scope: !127)
!139 = !DILocation(line: 36, column: 20, scope: !127)
!140 = !DILocation(line: 36, column: 5, scope: !127)
!141 = !DILocation(line: 37, column: 5, scope: !127)
