; ModuleID = 'adup.ll'
source_filename = "a.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

$f.lpdup = comdat nodeduplicate

$k.lpdup = comdat nodeduplicate

$sancov.module_ctor_8bit_counters = comdat any

@fp = dso_local local_unnamed_addr global i32 (i32)* @g, align 8
@__sancov_gen_ = private global [10 x i8] zeroinitializer, section "__sancov_cntrs", comdat($f.lpdup), align 1
@__sancov_gen_.1 = private constant [20 x i64*] [i64* bitcast (i32 (i32)* @f.lpdup to i64*), i64* inttoptr (i64 1 to i64*), i64* bitcast (i8* blockaddress(@f.lpdup, %.._crit_edge_crit_edge) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %..lr.ph_crit_edge) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %._crit_edge) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %.lr.ph) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %15) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %19) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %23) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %..lr.ph_crit_edge17) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %.._crit_edge_crit_edge16) to i64*), i64* null], section "__sancov_pcs", comdat($f.lpdup), align 8
@__sancov_gen_.2 = private global [1 x i8] zeroinitializer, section "__sancov_cntrs", comdat($k.lpdup), align 1
@__sancov_gen_.3 = private constant [2 x i64*] [i64* bitcast (i32 (i32)* @k.lpdup to i64*), i64* inttoptr (i64 1 to i64*)], section "__sancov_pcs", comdat($k.lpdup), align 8
@__start___sancov_cntrs = extern_weak hidden global i8
@__stop___sancov_cntrs = extern_weak hidden global i8
@__start___sancov_pcs = extern_weak hidden global i64
@__stop___sancov_pcs = extern_weak hidden global i64
@llvm.compiler.used = appending global [4 x i8*] [i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i32 0, i32 0), i8* bitcast ([20 x i64*]* @__sancov_gen_.1 to i8*), i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.2, i32 0, i32 0), i8* bitcast ([2 x i64*]* @__sancov_gen_.3 to i8*)], section "llvm.metadata"
@llvm.used = appending global [2 x i8*] [i8* bitcast (void ()* @sancov.module_ctor_8bit_counters to i8*), i8* bitcast (void ()* @tsan.module_ctor to i8*)], section "llvm.metadata"
@llvm.global_ctors = appending global [2 x { i32, void ()*, i8* }] [{ i32, void ()*, i8* } { i32 2, void ()* @sancov.module_ctor_8bit_counters, i8* bitcast (void ()* @sancov.module_ctor_8bit_counters to i8*) }, { i32, void ()*, i8* } { i32 0, void ()* @tsan.module_ctor, i8* null }]

; Function Attrs: nounwind uwtable
define dso_local i32 @f(i32 noundef %0) local_unnamed_addr #0 {
  %2 = call i8* @llvm.returnaddress(i32 0)
  call void @__tsan_func_entry(i8* %2)
  %3 = icmp sgt i32 %0, 0
  br i1 %3, label %.lr.ph, label %._crit_edge

._crit_edge:                                      ; preds = %9, %1
  %.012.lcssa = phi i32 [ 0, %1 ], [ %.1, %9 ]
  call void @__tsan_func_exit()
  ret i32 %.012.lcssa

.lr.ph:                                           ; preds = %1, %9
  %.014 = phi i32 [ %10, %9 ], [ 0, %1 ]
  %.01213 = phi i32 [ %.1, %9 ], [ 0, %1 ]
  %4 = and i32 %.014, 1
  %.not = icmp eq i32 %4, 0
  br i1 %.not, label %7, label %5

5:                                                ; preds = %.lr.ph
  %6 = call i32 @g(i32 noundef %.014) #3
  br label %9

7:                                                ; preds = %.lr.ph
  %8 = mul nsw i32 %.014, 3
  br label %9

9:                                                ; preds = %5, %7
  %.pn = phi i32 [ %6, %5 ], [ %8, %7 ]
  %.1 = add nsw i32 %.pn, %.01213
  %10 = add nuw nsw i32 %.014, 1
  %exitcond.not = icmp eq i32 %10, %0
  br i1 %exitcond.not, label %._crit_edge, label %.lr.ph, !llvm.loop !5
}

declare i32 @g(i32 noundef) #1

; Function Attrs: nounwind uwtable
define dso_local i32 @k(i32 noundef %0) local_unnamed_addr #0 {
  %2 = call i8* @llvm.returnaddress(i32 0)
  call void @__tsan_func_entry(i8* %2)
  %3 = load i32 (i32)*, i32 (i32)** @fp, align 8, !tbaa !7
  %4 = call i32 %3(i32 noundef %0) #3
  %5 = add nsw i32 %4, 1
  call void @__tsan_func_exit()
  ret i32 %5
}

; Function Attrs: nounwind uwtable
define hidden i32 @f.lpdup(i32 noundef %0) local_unnamed_addr #0 comdat {
  %2 = call i8* @llvm.returnaddress(i32 0)
  call void @__tsan_func_entry(i8* %2)
  %3 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 0), align 1, !nosanitize !11
  %4 = add i8 %3, 1
  store i8 %4, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 0), align 1, !nosanitize !11
  %5 = icmp sgt i32 %0, 0
  br i1 %5, label %..lr.ph_crit_edge, label %.._crit_edge_crit_edge

.._crit_edge_crit_edge:                           ; preds = %1
  %6 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 1), align 1, !nosanitize !11
  %7 = add i8 %6, 1
  store i8 %7, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 1), align 1, !nosanitize !11
  br label %._crit_edge

..lr.ph_crit_edge:                                ; preds = %1
  %8 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 2), align 1, !nosanitize !11
  %9 = add i8 %8, 1
  store i8 %9, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 2), align 1, !nosanitize !11
  br label %.lr.ph

._crit_edge:                                      ; preds = %.._crit_edge_crit_edge16, %.._crit_edge_crit_edge
  %.012.lcssa = phi i32 [ 0, %.._crit_edge_crit_edge ], [ %.1, %.._crit_edge_crit_edge16 ]
  %10 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 3), align 1, !nosanitize !11
  %11 = add i8 %10, 1
  store i8 %11, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 3), align 1, !nosanitize !11
  call void @__tsan_func_exit()
  ret i32 %.012.lcssa

.lr.ph:                                           ; preds = %..lr.ph_crit_edge17, %..lr.ph_crit_edge
  %.014 = phi i32 [ %26, %..lr.ph_crit_edge17 ], [ 0, %..lr.ph_crit_edge ]
  %.01213 = phi i32 [ %.1, %..lr.ph_crit_edge17 ], [ 0, %..lr.ph_crit_edge ]
  %12 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 4), align 1, !nosanitize !11
  %13 = add i8 %12, 1
  store i8 %13, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 4), align 1, !nosanitize !11
  %14 = and i32 %.014, 1
  %.not = icmp eq i32 %14, 0
  br i1 %.not, label %19, label %15

15:                                               ; preds = %.lr.ph
  %16 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 5), align 1, !nosanitize !11
  %17 = add i8 %16, 1
  store i8 %17, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 5), align 1, !nosanitize !11
  %18 = call i32 @g(i32 noundef %.014) #3
  br label %23

19:                                               ; preds = %.lr.ph
  %20 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 6), align 1, !nosanitize !11
  %21 = add i8 %20, 1
  store i8 %21, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 6), align 1, !nosanitize !11
  %22 = mul nsw i32 %.014, 3
  br label %23

23:                                               ; preds = %15, %19
  %.pn = phi i32 [ %18, %15 ], [ %22, %19 ]
  %24 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 7), align 1, !nosanitize !11
  %25 = add i8 %24, 1
  store i8 %25, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 7), align 1, !nosanitize !11
  %.1 = add nsw i32 %.pn, %.01213
  %26 = add nuw nsw i32 %.014, 1
  %exitcond.not = icmp eq i32 %26, %0
  br i1 %exitcond.not, label %.._crit_edge_crit_edge16, label %..lr.ph_crit_edge17, !llvm.loop !12

..lr.ph_crit_edge17:                              ; preds = %23
  %27 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 8), align 1, !nosanitize !11
  %28 = add i8 %27, 1
  store i8 %28, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 8), align 1, !nosanitize !11
  br label %.lr.ph

.._crit_edge_crit_edge16:                         ; preds = %23
  %29 = load i8, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 9), align 1, !nosanitize !11
  %30 = add i8 %29, 1
  store i8 %30, i8* getelementptr inbounds ([10 x i8], [10 x i8]* @__sancov_gen_, i64 0, i64 9), align 1, !nosanitize !11
  br label %._crit_edge
}

; Function Attrs: nounwind uwtable
define hidden i32 @k.lpdup(i32 noundef %0) local_unnamed_addr #0 comdat {
  %2 = call i8* @llvm.returnaddress(i32 0)
  call void @__tsan_func_entry(i8* %2)
  %3 = load i8, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.2, i64 0, i64 0), align 1, !nosanitize !11
  %4 = add i8 %3, 1
  store i8 %4, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.2, i64 0, i64 0), align 1, !nosanitize !11
  %5 = load i32 (i32)*, i32 (i32)** @fp, align 8, !tbaa !7
  %6 = call i32 %5(i32 noundef %0) #3
  %7 = add nsw i32 %6, 1
  call void @__tsan_func_exit()
  ret i32 %7
}

declare void @__sanitizer_cov_8bit_counters_init(i8*, i8*)

; Function Attrs: nounwind uwtable
define internal void @sancov.module_ctor_8bit_counters() #2 comdat {
  %1 = call i8* @llvm.returnaddress(i32 0)
  call void @__tsan_func_entry(i8* %1)
  call void @__sanitizer_cov_8bit_counters_init(i8* @__start___sancov_cntrs, i8* @__stop___sancov_cntrs)
  call void @__sanitizer_cov_pcs_init(i64* @__start___sancov_pcs, i64* @__stop___sancov_pcs)
  call void @__tsan_func_exit()
  ret void
}

declare void @__sanitizer_cov_pcs_init(i64*, i64*)

declare void @__tsan_init()

; Function Attrs: nounwind uwtable
define internal void @tsan.module_ctor() #2 {
  call void @__tsan_init()
  ret void
}

; Function Attrs: nounwind
declare void @__tsan_func_entry(i8*) #3

; Function Attrs: nounwind
declare void @__tsan_func_exit() #3

; Function Attrs: nofree nosync nounwind readnone willreturn
declare i8* @llvm.returnaddress(i32 immarg) #4

attributes #0 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "patchable-function-entry"="5" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nounwind uwtable }
attributes #3 = { nounwind }
attributes #4 = { nofree nosync nounwind readnone willreturn }

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
