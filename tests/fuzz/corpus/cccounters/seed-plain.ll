; ModuleID = 'adup.ll'
source_filename = "a.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

$f.lpdup = comdat nodeduplicate

$k.lpdup = comdat nodeduplicate

$sancov.module_ctor_8bit_counters = comdat any

@fp = dso_local local_unnamed_addr global i32 (i32)* @g, align 8
@__sancov_gen_ = private global [10 x i8] zeroinitializer, section "__sancov_cntrs", comdat($f.lpdup), align 1
@__sancov_gen_.1 = private constant [20 x i64*] [i64* bitcast (i32 (i32)* @f.lpdup to i64*), i64* inttoptr (i64 1 to i64*), i64* bitcast (i8* blockaddress(@f.lpdup, %.._crit_edge_crit_edge) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %..lr.ph_crit_edge) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %._crit_edge) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %.lr.ph) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %14) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %18) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %22) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %..lr.ph_crit_edge17) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %.._crit_edge_crit_edge16) to i64*), i64* null], section "__sancov_pcs", comdat($f.lpdup), align 8
@__sancov_gen_.2 = private global [1 x i8] zeroinitializer, section "__sancov_cntrs", comdat($k.lpdup), align 1
@__sancov_gen_.3 = private constant [2 x i64*] [i64* bitcast (i32 (i32)* @k.lpdup to i64*), i64* inttoptr (i64 1 to i64*)], section "__sancov_pcs", comdat($k.lpdup), align 8
@__start___sancov_cntrs = extern_weak hidden global i8
@__stop___sancov_cntrs = extern_weak hidden global i8
@llvm.global_ctors = appending global [1 x { i32, void ()*, i8* }] [{ i32, void ()*, i8* } { i32 2, void ()* @sancov.module_ctor_8bit_counters, i8* bitcast (void ()* @sancov.module_ctor_8bit_counters to i8*) }]
@__start___sancov_pcs = extern_weak hidden global i64
@__stop___sancov_pcs = extern_weak hidden global i64
@llvm.used = appending global [1 x i8*] [i8* bitcast (void ()* @sancov.module_ctor_8bit_counters to i8*)], section "llvm.metadata"
@llvm.compiler.used = appending global [4 x i8*] [i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i32 0, i32 0), i8* bitcast ([20 x i64*]* @__sancov_gen_.1 to i8*), i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.2, i32 0, i32 0), i8* bitcast ([2 x i64*]* @__sancov_gen_.3 to i8*)], section "llvm.metadata"

; Function Attrs: nounwind uwtable
define dso_local i32 @f(i32 noundef %0) local_unnamed_addr #0 {
  %2 = icmp sgt i32 %0, 0
  br i1 %2, label %.lr.ph, label %._crit_edge

._crit_edge:                                      ; preds = %8, %1
  %.012.lcssa = phi i32 [ 0, %1 ], [ %.1, %8 ]
  ret i32 %.012.lcssa

.lr.ph:                                           ; preds = %1, %8
  %.014 = phi i32 [ %9, %8 ], [ 0, %1 ]
  %.01213 = phi i32 [ %.1, %8 ], [ 0, %1 ]
  %3 = and i32 %.014, 1
  %.not = icmp eq i32 %3, 0
  br i1 %.not, label %6, label %4

4:                                                ; preds = %.lr.ph
  %5 = tail call i32 @g(i32 noundef %.014) #3
  br label %8

6:                                                ; preds = %.lr.ph
  %7 = mul nsw i32 %.014, 3
  br label %8

8:                                                ; preds = %4, %6
  %.pn = phi i32 [ %5, %4 ], [ %7, %6 ]
  %.1 = add nsw i32 %.pn, %.01213
  %9 = add nuw nsw i32 %.014, 1
  %exitcond.not = icmp eq i32 %9, %0
  br i1 %exitcond.not, label %._crit_edge, label %.lr.ph, !llvm.loop !5
}

declare i32 @g(i32 noundef) #1

; Function Attrs: nounwind uwtable
define dso_local i32 @k(i32 noundef %0) local_unnamed_addr #0 {
  %2 = load i32 (i32)*, i32 (i32)** @fp, align 8, !tbaa !7
  %3 = tail call i32 %2(i32 noundef %0) #3
  %4 = add nsw i32 %3, 1
  ret i32 %4
}

; Function Attrs: nounwind uwtable
define hidden i32 @f.lpdup(i32 noundef %0) local_unnamed_addr #0 comdat {
  %2 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 0), align 1, !nosanitize !11
  %3 = add i8 %2, 1
  store i8 %3, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 0), align 1, !nosanitize !11
  %4 = icmp sgt i32 %0, 0
  br i1 %4, label %..lr.ph_crit_edge, label %.._crit_edge_crit_edge

.._crit_edge_crit_edge:                           ; preds = %1
  %5 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 1), align 1, !nosanitize !11
  %6 = add i8 %5, 1
  store i8 %6, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 1), align 1, !nosanitize !11
  br label %._crit_edge

..lr.ph_crit_edge:                                ; preds = %1
  %7 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 2), align 1, !nosanitize !11
  %8 = add i8 %7, 1
  store i8 %8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 2), align 1, !nosanitize !11
  br label %.lr.ph

._crit_edge:                                      ; preds = %.._crit_edge_crit_edge16, %.._crit_edge_crit_edge
  %.012.lcssa = phi i32 [ 0, %.._crit_edge_crit_edge ], [ %.1, %.._crit_edge_crit_edge16 ]
  %9 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 3), align 1, !nosanitize !11
  %10 = add i8 %9, 1
  store i8 %10, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 3), align 1, !nosanitize !11
  ret i32 %.012.lcssa

.lr.ph:                                           ; preds = %..lr.ph_crit_edge17, %..lr.ph_crit_edge
  %.014 = phi i32 [ %25, %..lr.ph_crit_edge17 ], [ 0, %..lr.ph_crit_edge ]
  %.01213 = phi i32 [ %.1, %..lr.ph_crit_edge17 ], [ 0, %..lr.ph_crit_edge ]
  %11 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 4), align 1, !nosanitize !11
  %12 = add i8 %11, 1
  store i8 %12, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 4), align 1, !nosanitize !11
  %13 = and i32 %.014, 1
  %.not = icmp eq i32 %13, 0
  br i1 %.not, label %18, label %14

14:                                               ; preds = %.lr.ph
  %15 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 5), align 1, !nosanitize !11
  %16 = add i8 %15, 1
  store i8 %16, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 5), align 1, !nosanitize !11
  %17 = tail call i32 @g(i32 noundef %.014) #3
  br label %22

18:                                               ; preds = %.lr.ph
  %19 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 6), align 1, !nosanitize !11
  %20 = add i8 %19, 1
  store i8 %20, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 6), align 1, !nosanitize !11
  %21 = mul nsw i32 %.014, 3
  br label %22

22:                                               ; preds = %14, %18
  %.pn = phi i32 [ %17, %14 ], [ %21, %18 ]
  %23 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 7), align 1, !nosanitize !11
  %24 = add i8 %23, 1
  store i8 %24, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 7), align 1, !nosanitize !11
  %.1 = add nsw i32 %.pn, %.01213
  %25 = add nuw nsw i32 %.014, 1
  %exitcond.not = icmp eq i32 %25, %0
  br i1 %exitcond.not, label %.._crit_edge_crit_edge16, label %..lr.ph_crit_edge17, !llvm.loop !12

..lr.ph_crit_edge17:                              ; preds = %22
  %26 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 8), align 1, !nosanitize !11
  %27 = add i8 %26, 1
  store i8 %27, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 8), align 1, !nosanitize !11
  br label %.lr.ph

.._crit_edge_crit_edge16:                         ; preds = %22
  %28 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 9), align 1, !nosanitize !11
  %29 = add i8 %28, 1
  store i8 %29, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 9), align 1, !nosanitize !11
  br label %._crit_edge
}

; Function Attrs: nounwind uwtable
define hidden i32 @k.lpdup(i32 noundef %0) local_unnamed_addr #0 comdat {
  %2 = load i8, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.2, i64 0, i64 0), align 1, !nosanitize !11
  %3 = add i8 %2, 1
  store i8 %3, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.2, i64 0, i64 0), align 1, !nosanitize !11
  %4 = load i32 (i32)*, i32 (i32)** @fp, align 8, !tbaa !7
  %5 = tail call i32 %4(i32 noundef %0) #3
  %6 = add nsw i32 %5, 1
  ret i32 %6
}

declare void @__sanitizer_cov_8bit_counters_init(i8*, i8*)

; Function Attrs: nounwind uwtable
define internal void @sancov.module_ctor_8bit_counters() #2 comdat {
  call void @__sanitizer_cov_8bit_counters_init(i8* @__start___sancov_cntrs, i8* @__stop___sancov_cntrs)
  call void @__sanitizer_cov_pcs_init(i64* @__start___sancov_pcs, i64* @__stop___sancov_pcs)
  ret void
}

declare void @__sanitizer_cov_pcs_init(i64*, i64*)

attributes #0 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "patchable-function-entry"="5" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nounwind uwtable }
attributes #3 = { nounwind }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 1}
!4 = !{!"Debian clang version 14.0.6"}
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.mustprogress"}
!7 = !{!8, !8, i64 0}
!8 = !{!"any pointer", !9, i64 0}
!9 = !{!"omnipotent char", !10, i64 0}
!10 = !{!"Simple C/C++ TBAA"}
!11 = !{}
!12 = distinct !{!12, !6}
