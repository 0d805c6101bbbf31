; ModuleID = '/tmp/lowprof-cc.fzYmRc/0.dup.ll'
source_filename = "d.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.__jmp_buf_tag = type { [8 x i64], i32, %struct.__sigset_t }
%struct.__sigset_t = type { [16 x i64] }

$empty.lpdup = comdat nodeduplicate

$tail.lpdup = comdat nodeduplicate

$vtail.lpdup = comdat nodeduplicate

$asmfirst.lpdup = comdat nodeduplicate

$asmonly.lpdup = comdat nodeduplicate

$sj.lpdup = comdat nodeduplicate

$sw.lpdup = comdat nodeduplicate

$fp.lpdup = comdat nodeduplicate

$nor.lpdup = comdat nodeduplicate

$vla.lpdup = comdat nodeduplicate

$sancov.module_ctor_8bit_counters = comdat any

@jb = external global [1 x %struct.__jmp_buf_tag], align 16
@__sancov_gen_ = private global [1 x i8] zeroinitializer, section "__sancov_cntrs", comdat($empty.lpdup), align 1
@__sancov_gen_.1 = private constant [2 x i64*] [i64* bitcast (void ()* @empty.lpdup to i64*), i64* inttoptr (i64 1 to i64*)], section "__sancov_pcs", comdat($empty.lpdup), align 8
@__sancov_gen_.2 = private global [1 x i8] zeroinitializer, section "__sancov_cntrs", comdat($tail.lpdup), align 1
@__sancov_gen_.3 = private constant [2 x i64*] [i64* bitcast (i32 (i32)* @tail.lpdup to i64*), i64* inttoptr (i64 1 to i64*)], section "__sancov_pcs", comdat($tail.lpdup), align 8
@__sancov_gen_.4 = private global [1 x i8] zeroinitializer, section "__sancov_cntrs", comdat($vtail.lpdup), align 1
@__sancov_gen_.5 = private constant [2 x i64*] [i64* bitcast (void ()* @vtail.lpdup to i64*), i64* inttoptr (i64 1 to i64*)], section "__sancov_pcs", comdat($vtail.lpdup), align 8
@__sancov_gen_.6 = private global [1 x i8] zeroinitializer, section "__sancov_cntrs", comdat($asmfirst.lpdup), align 1
@__sancov_gen_.7 = private constant [2 x i64*] [i64* bitcast (i32 (i32)* @asmfirst.lpdup to i64*), i64* inttoptr (i64 1 to i64*)], section "__sancov_pcs", comdat($asmfirst.lpdup), align 8
@__sancov_gen_.8 = private global [1 x i8] zeroinitializer, section "__sancov_cntrs", comdat($asmonly.lpdup), align 1
@__sancov_gen_.9 = private constant [2 x i64*] [i64* bitcast (void ()* @asmonly.lpdup to i64*), i64* inttoptr (i64 1 to i64*)], section "__sancov_pcs", comdat($asmonly.lpdup), align 8
@__sancov_gen_.10 = private global [1 x i8] zeroinitializer, section "__sancov_cntrs", comdat($sj.lpdup), align 1
@__sancov_gen_.11 = private constant [2 x i64*] [i64* bitcast (i32 ()* @sj.lpdup to i64*), i64* inttoptr (i64 1 to i64*)], section "__sancov_pcs", comdat($sj.lpdup), align 8
@__sancov_gen_.12 = private global [6 x i8] zeroinitializer, section "__sancov_cntrs", comdat($sw.lpdup), align 1
@__sancov_gen_.13 = private constant [12 x i64*] [i64* bitcast (i32 (i32)* @sw.lpdup to i64*), i64* inttoptr (i64 1 to i64*), i64* bitcast (i8* blockaddress(@sw.lpdup, %._crit_edge) to i64*), i64* null, i64* bitcast (i8* blockaddress(@sw.lpdup, %6) to i64*), i64* null, i64* bitcast (i8* blockaddress(@sw.lpdup, %10) to i64*), i64* null, i64* bitcast (i8* blockaddress(@sw.lpdup, %14) to i64*), i64* null, i64* bitcast (i8* blockaddress(@sw.lpdup, %18) to i64*), i64* null], section "__sancov_pcs", comdat($sw.lpdup), align 8
@__sancov_gen_.14 = private global [1 x i8] zeroinitializer, section "__sancov_cntrs", comdat($fp.lpdup), align 1
@__sancov_gen_.15 = private constant [2 x i64*] [i64* bitcast (double (double)* @fp.lpdup to i64*), i64* inttoptr (i64 1 to i64*)], section "__sancov_pcs", comdat($fp.lpdup), align 8
@__sancov_gen_.16 = private global [1 x i8] zeroinitializer, section "__sancov_cntrs", comdat($nor.lpdup), align 1
@__sancov_gen_.17 = private constant [2 x i64*] [i64* bitcast (void ()* @nor.lpdup to i64*), i64* inttoptr (i64 1 to i64*)], section "__sancov_pcs", comdat($nor.lpdup), align 8
@__sancov_gen_.18 = private global [1 x i8] zeroinitializer, section "__sancov_cntrs", comdat($vla.lpdup), align 1
@__sancov_gen_.19 = private constant [2 x i64*] [i64* bitcast (i32 (i32)* @vla.lpdup to i64*), i64* inttoptr (i64 1 to i64*)], section "__sancov_pcs", comdat($vla.lpdup), align 8
@__start___sancov_cntrs = extern_weak hidden global i8
@__stop___sancov_cntrs = extern_weak hidden global i8
@llvm.global_ctors = appending global [1 x { i32, void ()*, i8* }] [{ i32, void ()*, i8* } { i32 2, void ()* @sancov.module_ctor_8bit_counters, i8* bitcast (void ()* @sancov.module_ctor_8bit_counters to i8*) }]
@__start___sancov_pcs = extern_weak hidden global i64
@__stop___sancov_pcs = extern_weak hidden global i64
@llvm.used = appending global [1 x i8*] [i8* bitcast (void ()* @sancov.module_ctor_8bit_counters to i8*)], section "llvm.metadata"
@llvm.compiler.used = appending global [20 x i8*] [i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_, i32 0, i32 0), i8* bitcast ([2 x i64*]* @__sancov_gen_.1 to i8*), i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.2, i32 0, i32 0), i8* bitcast ([2 x i64*]* @__sancov_gen_.3 to i8*), i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.4, i32 0, i32 0), i8* bitcast ([2 x i64*]* @__sancov_gen_.5 to i8*), i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.6, i32 0, i32 0), i8* bitcast ([2 x i64*]* @__sancov_gen_.7 to i8*), i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.8, i32 0, i32 0), i8* bitcast ([2 x i64*]* @__sancov_gen_.9 to i8*), i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.10, i32 0, i32 0), i8* bitcast ([2 x i64*]* @__sancov_gen_.11 to i8*), i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.12, i32 0, i32 0), i8* bitcast ([12 x i64*]* @__sancov_gen_.13 to i8*), i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.14, i32 0, i32 0), i8* bitcast ([2 x i64*]* @__sancov_gen_.15 to i8*), i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.16, i32 0, i32 0), i8* bitcast ([2 x i64*]* @__sancov_gen_.17 to i8*), i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.18, i32 0, i32 0), i8* bitcast ([2 x i64*]* @__sancov_gen_.19 to i8*)], section "llvm.metadata"

; Function Attrs: mustprogress nofree norecurse nosync nounwind readnone uwtable willreturn
define dso_local void @empty() local_unnamed_addr #0 {
  ret void
}

; Function Attrs: mustprogress nofree norecurse noreturn nosync nounwind readnone uwtable willreturn
define dso_local void @unreach(i32 noundef %0) local_unnamed_addr #1 {
  unreachable
}

; Function Attrs: nounwind uwtable
define dso_local i32 @tail(i32 noundef %0) local_unnamed_addr #2 {
  %2 = tail call i32 @ext(i32 noundef %0) #10
  ret i32 %2
}

declare i32 @ext(i32 noundef) local_unnamed_addr #3

; Function Attrs: nounwind uwtable
define dso_local void @vtail() local_unnamed_addr #2 {
  tail call void @vext() #10
  ret void
}

declare void @vext() local_unnamed_addr #3

; Function Attrs: nounwind uwtable
define dso_local i32 @asmfirst(i32 noundef %0) local_unnamed_addr #2 {
  %2 = tail call i32 asm sideeffect "", "=r,0,~{dirflag},~{fpsr},~{flags}"(i32 %0) #10, !srcloc !5
  %3 = add nsw i32 %2, 1
  ret i32 %3
}

; Function Attrs: nounwind uwtable
define dso_local void @asmonly() local_unnamed_addr #2 {
  tail call void asm sideeffect "nop", "~{dirflag},~{fpsr},~{flags}"() #10, !srcloc !6
  ret void
}

; Function Attrs: nounwind uwtable
define dso_local i32 @sj() local_unnamed_addr #2 {
  %1 = call i32 @_setjmp(%struct.__jmp_buf_tag* noundef getelementptr inbounds ([1 x %struct.__jmp_buf_tag], [1 x %struct.__jmp_buf_tag]* @jb, i64 0, i64 0)) #11
  ret i32 %1
}

; Function Attrs: nounwind returns_twice
declare i32 @_setjmp(%struct.__jmp_buf_tag* noundef) local_unnamed_addr #4

; Function Attrs: noreturn nounwind uwtable
define dso_local void @trap() local_unnamed_addr #5 {
  tail call void @llvm.trap()
  unreachable
}

; Function Attrs: cold noreturn nounwind
declare void @llvm.trap() #6

; Function Attrs: nounwind uwtable
define dso_local i32 @sw(i32 noundef %0) local_unnamed_addr #2 {
  switch i32 %0, label %8 [
    i32 0, label %2
    i32 1, label %4
    i32 2, label %9
    i32 3, label %6
  ]

2:                                                ; preds = %1
  %3 = tail call i32 @ext(i32 noundef 1) #10
  br label %9

4:                                                ; preds = %1
  %5 = tail call i32 @ext(i32 noundef 7) #10
  br label %9

6:                                                ; preds = %1
  %7 = tail call i32 @ext(i32 noundef 3) #10
  br label %9

8:                                                ; preds = %1
  br label %9

9:                                                ; preds = %1, %8, %6, %4, %2
  %.0 = phi i32 [ 4, %8 ], [ %7, %6 ], [ %5, %4 ], [ %3, %2 ], [ 9, %1 ]
  ret i32 %.0

; uselistorder directives
  uselistorder label %9, { 1, 2, 3, 4, 0 }
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind readnone uwtable willreturn
define dso_local double @fp(double noundef %0) local_unnamed_addr #0 {
  %2 = fmul double %0, 2.500000e+00
  ret double %2
}

; Function Attrs: noreturn nounwind uwtable
define dso_local void @nor() local_unnamed_addr #5 {
  br label %1

1:                                                ; preds = %1, %0
  tail call void @vext() #10
  br label %1
}

; Function Attrs: naked noinline nounwind uwtable
define dso_local void @nk() #7 {
  tail call void asm sideeffect "ret", "~{dirflag},~{fpsr},~{flags}"() #10, !srcloc !7
  unreachable
}

; Function Attrs: nofree norecurse nounwind uwtable
define dso_local i32 @vla(i32 noundef %0) local_unnamed_addr #8 {
  %2 = zext i32 %0 to i64
  %3 = alloca i8, i64 %2, align 16
  store volatile i8 1, i8* %3, align 16, !tbaa !8
  %4 = load volatile i8, i8* %3, align 16, !tbaa !8
  %5 = sext i8 %4 to i32
  ret i32 %5
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind readnone uwtable willreturn
define hidden void @empty.lpdup() local_unnamed_addr #0 section "lp_copies" comdat {
  %1 = load i8, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_, i64 0, i64 0), align 1, !nosanitize !11
  %2 = add i8 %1, 1
  store i8 %2, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_, i64 0, i64 0), align 1, !nosanitize !11
  ret void
}

; Function Attrs: mustprogress nofree norecurse noreturn nosync nounwind readnone uwtable willreturn
define hidden void @unreach.lpdup(i32 noundef %0) local_unnamed_addr #1 section "lp_copies" {
  unreachable
}

; Function Attrs: nounwind uwtable
define hidden i32 @tail.lpdup(i32 noundef %0) local_unnamed_addr #2 section "lp_copies" comdat {
  %2 = load i8, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.2, i64 0, i64 0), align 1, !nosanitize !11
  %3 = add i8 %2, 1
  store i8 %3, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.2, i64 0, i64 0), align 1, !nosanitize !11
  %4 = tail call i32 @ext(i32 noundef %0) #10
  ret i32 %4
}

; Function Attrs: nounwind uwtable
define hidden void @vtail.lpdup() local_unnamed_addr #2 section "lp_copies" comdat {
  %1 = load i8, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.4, i64 0, i64 0), align 1, !nosanitize !11
  %2 = add i8 %1, 1
  store i8 %2, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.4, i64 0, i64 0), align 1, !nosanitize !11
  tail call void @vext() #10
  ret void
}

; Function Attrs: nounwind uwtable
define hidden i32 @asmfirst.lpdup(i32 noundef %0) local_unnamed_addr #2 section "lp_copies" comdat {
  %2 = load i8, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.6, i64 0, i64 0), align 1, !nosanitize !11
  %3 = add i8 %2, 1
  store i8 %3, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.6, i64 0, i64 0), align 1, !nosanitize !11
  %4 = tail call i32 asm sideeffect "", "=r,0,~{dirflag},~{fpsr},~{flags}"(i32 %0) #10, !srcloc !5
  %5 = add nsw i32 %4, 1
  ret i32 %5
}

; Function Attrs: nounwind uwtable
define hidden void @asmonly.lpdup() local_unnamed_addr #2 section "lp_copies" comdat {
  %1 = load i8, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.8, i64 0, i64 0), align 1, !nosanitize !11
  %2 = add i8 %1, 1
  store i8 %2, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.8, i64 0, i64 0), align 1, !nosanitize !11
  tail call void asm sideeffect "nop", "~{dirflag},~{fpsr},~{flags}"() #10, !srcloc !6
  ret void
}

; Function Attrs: nounwind uwtable
define hidden i32 @sj.lpdup() local_unnamed_addr #2 section "lp_copies" comdat {
  %1 = load i8, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.10, i64 0, i64 0), align 1, !nosanitize !11
  %2 = add i8 %1, 1
  store i8 %2, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.10, i64 0, i64 0), align 1, !nosanitize !11
  %3 = call i32 @_setjmp(%struct.__jmp_buf_tag* noundef getelementptr inbounds ([1 x %struct.__jmp_buf_tag], [1 x %struct.__jmp_buf_tag]* @jb, i64 0, i64 0)) #11
  ret i32 %3
}

; Function Attrs: noreturn nounwind uwtable
define hidden void @trap.lpdup() local_unnamed_addr #5 section "lp_copies" {
  tail call void @llvm.trap()
  unreachable
}

; Function Attrs: nounwind uwtable
define hidden i32 @sw.lpdup(i32 noundef %0) local_unnamed_addr #2 section "lp_copies" comdat {
  %2 = load i8, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.12, i64 0, i64 0), align 1, !nosanitize !11
  %3 = add i8 %2, 1
  store i8 %3, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.12, i64 0, i64 0), align 1, !nosanitize !11
  switch i32 %0, label %18 [
    i32 0, label %6
    i32 1, label %10
    i32 2, label %._crit_edge
    i32 3, label %14
  ]

._crit_edge:                                      ; preds = %1
  %4 = load i8, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.12, i64 0, i64 1), align 1, !nosanitize !11
  %5 = add i8 %4, 1
  store i8 %5, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.12, i64 0, i64 1), align 1, !nosanitize !11
  br label %21

6:                                                ; preds = %1
  %7 = load i8, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.12, i64 0, i64 2), align 1, !nosanitize !11
  %8 = add i8 %7, 1
  store i8 %8, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.12, i64 0, i64 2), align 1, !nosanitize !11
  %9 = tail call i32 @ext(i32 noundef 1) #10
  br label %21

10:                                               ; preds = %1
  %11 = load i8, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.12, i64 0, i64 3), align 1, !nosanitize !11
  %12 = add i8 %11, 1
  store i8 %12, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.12, i64 0, i64 3), align 1, !nosanitize !11
  %13 = tail call i32 @ext(i32 noundef 7) #10
  br label %21

14:                                               ; preds = %1
  %15 = load i8, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.12, i64 0, i64 4), align 1, !nosanitize !11
  %16 = add i8 %15, 1
  store i8 %16, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.12, i64 0, i64 4), align 1, !nosanitize !11
  %17 = tail call i32 @ext(i32 noundef 3) #10
  br label %21

18:                                               ; preds = %1
  %19 = load i8, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.12, i64 0, i64 5), align 1, !nosanitize !11
  %20 = add i8 %19, 1
  store i8 %20, i8* getelementptr inbounds ([6 x i8], [6 x i8]* @__sancov_gen_.12, i64 0, i64 5), align 1, !nosanitize !11
  br label %21

21:                                               ; preds = %._crit_edge, %18, %14, %10, %6
  %.0 = phi i32 [ 4, %18 ], [ %17, %14 ], [ %13, %10 ], [ %9, %6 ], [ 9, %._crit_edge ]
  ret i32 %.0

; uselistorder directives
  uselistorder label %._crit_edge, { 1, 0 }
  uselistorder label %6, { 1, 0 }
  uselistorder label %10, { 1, 0 }
  uselistorder label %14, { 1, 0 }
  uselistorder label %18, { 1, 0 }
  uselistorder label %21, { 1, 2, 3, 4, 0 }
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind readnone uwtable willreturn
define hidden double @fp.lpdup(double noundef %0) local_unnamed_addr #0 section "lp_copies" comdat {
  %2 = load i8, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.14, i64 0, i64 0), align 1, !nosanitize !11
  %3 = add i8 %2, 1
  store i8 %3, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.14, i64 0, i64 0), align 1, !nosanitize !11
  %4 = fmul double %0, 2.500000e+00
  ret double %4
}

; Function Attrs: noreturn nounwind uwtable
define hidden void @nor.lpdup() local_unnamed_addr #5 section "lp_copies" comdat {
  %1 = load i8, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.16, i64 0, i64 0), align 1, !nosanitize !11
  %2 = add i8 %1, 1
  store i8 %2, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.16, i64 0, i64 0), align 1, !nosanitize !11
  br label %3

3:                                                ; preds = %3, %0
  tail call void @vext() #10
  br label %3
}

; Function Attrs: naked noinline nounwind uwtable
define hidden void @nk.lpdup() #7 section "lp_copies" {
  tail call void asm sideeffect "ret", "~{dirflag},~{fpsr},~{flags}"() #10, !srcloc !7
  unreachable
}

; Function Attrs: nofree norecurse nounwind uwtable
define hidden i32 @vla.lpdup(i32 noundef %0) local_unnamed_addr #8 section "lp_copies" comdat {
  %2 = load i8, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.18, i64 0, i64 0), align 1, !nosanitize !11
  %3 = add i8 %2, 1
  store i8 %3, i8* getelementptr inbounds ([1 x i8], [1 x i8]* @__sancov_gen_.18, i64 0, i64 0), align 1, !nosanitize !11
  %4 = zext i32 %0 to i64
  %5 = alloca i8, i64 %4, align 16
  store volatile i8 1, i8* %5, align 16, !tbaa !8
  %6 = load volatile i8, i8* %5, align 16, !tbaa !8
  %7 = sext i8 %6 to i32
  ret i32 %7
}

declare void @__sanitizer_cov_8bit_counters_init(i8*, i8*)

; Function Attrs: nounwind uwtable
define internal void @sancov.module_ctor_8bit_counters() #9 comdat {
  call void @__sanitizer_cov_8bit_counters_init(i8* @__start___sancov_cntrs, i8* @__stop___sancov_cntrs)
  call void @__sanitizer_cov_pcs_init(i64* @__start___sancov_pcs, i64* @__stop___sancov_pcs)
  ret void
}

declare void @__sanitizer_cov_pcs_init(i64*, i64*)

; uselistorder directives
uselistorder [1 x i8]* @__sancov_gen_, { 1, 0 }
uselistorder [1 x i8]* @__sancov_gen_.2, { 1, 0 }
uselistorder [1 x i8]* @__sancov_gen_.4, { 1, 0 }
uselistorder [1 x i8]* @__sancov_gen_.6, { 1, 0 }
uselistorder [1 x i8]* @__sancov_gen_.8, { 1, 0 }
uselistorder [1 x i8]* @__sancov_gen_.10, { 1, 0 }
uselistorder [6 x i8]* @__sancov_gen_.12, { 1, 2, 3, 4, 5, 6, 0 }
uselistorder [1 x i8]* @__sancov_gen_.14, { 1, 0 }
uselistorder [1 x i8]* @__sancov_gen_.16, { 1, 0 }
uselistorder [1 x i8]* @__sancov_gen_.18, { 1, 0 }
uselistorder i32 2, { 1, 2, 0 }
uselistorder i8* bitcast (void ()* @sancov.module_ctor_8bit_counters to i8*), { 1, 0 }
uselistorder i32 0, { 20, 21, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19 }
uselistorder i8 1, { 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16 }
uselistorder i32 (i32)* @sw.lpdup, { 5, 4, 3, 2, 1, 0 }
uselistorder void ()* @sancov.module_ctor_8bit_counters, { 1, 0 }

attributes #0 = { mustprogress nofree norecurse nosync nounwind readnone uwtable willreturn "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "patchable-function-entry"="5" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nofree norecurse noreturn nosync nounwind readnone uwtable willreturn "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "patchable-function-entry"="5" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "patchable-function-entry"="5" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nounwind returns_twice "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { noreturn nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "patchable-function-entry"="5" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #6 = { cold noreturn nounwind }
attributes #7 = { naked noinline nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "patchable-function-entry"="5" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #8 = { nofree norecurse nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "patchable-function-entry"="5" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #9 = { nounwind uwtable }
attributes #10 = { nounwind }
attributes #11 = { nounwind returns_twice }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 1}
!4 = !{!"Debian clang version 14.0.6"}
!5 = !{i64 258}
!6 = !{i64 327}
!7 = !{i64 715}
!8 = !{!9, !9, i64 0}
!9 = !{!"omnipotent char", !10, i64 0}
!10 = !{!"Simple C/C++ TBAA"}
!11 = !{}
