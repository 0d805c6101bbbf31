; ModuleID = '/work/main/tests/rt/rt_loops.c'
source_filename = "/work/main/tests/rt/rt_loops.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct._IO_FILE = type { i32, i8*, i8*, i8*, i8*, i8*, i8*, i8*, i8*, i8*, i8*, i8*, %struct._IO_marker*, %struct._IO_FILE*, i32, i32, i64, i16, i8, [1 x i8], i8*, i64, %struct._IO_codecvt*, %struct._IO_wide_data*, %struct._IO_FILE*, i8*, i64, i32, [20 x i8] }
%struct._IO_marker = type opaque
%struct._IO_codecvt = type opaque
%struct._IO_wide_data = type opaque

@.str = private unnamed_addr constant [7 x i8] c"shapes\00", align 1
@.str.1 = private unnamed_addr constant [5 x i8] c"spin\00", align 1
@.str.2 = private unnamed_addr constant [10 x i8] c"sites %u\0A\00", align 1
@stderr = external local_unnamed_addr global %struct._IO_FILE*, align 8
@.str.3 = private unnamed_addr constant [33 x i8] c"usage: rt_loops shapes | spin N\0A\00", align 1
@.str.4 = private unnamed_addr constant [6 x i8] c"  \09 x\00", align 1
@.str.5 = private unnamed_addr constant [11 x i8] c"abcabcxbba\00", align 1
@.str.6 = private unnamed_addr constant [15 x i8] c"shapes %ld %d\0A\00", align 1

; Function Attrs: nofree noinline norecurse nosync nounwind readonly uwtable
define dso_local double @mean(double* nocapture noundef readonly %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = icmp sgt i32 %1, 0
  br i1 %3, label %4, label %26

4:                                                ; preds = %2
  %5 = zext i32 %1 to i64
  %6 = add nsw i64 %5, -1
  %7 = and i64 %5, 7
  %8 = icmp ult i64 %6, 7
  br i1 %8, label %11, label %9

9:                                                ; preds = %4
  %10 = and i64 %5, 4294967288
  br label %29

11:                                               ; preds = %29, %4
  %12 = phi double [ undef, %4 ], [ %63, %29 ]
  %13 = phi i64 [ 0, %4 ], [ %64, %29 ]
  %14 = phi double [ 0.000000e+00, %4 ], [ %63, %29 ]
  %15 = icmp eq i64 %7, 0
  br i1 %15, label %26, label %16

16:                                               ; preds = %11, %16
  %17 = phi i64 [ %23, %16 ], [ %13, %11 ]
  %18 = phi double [ %22, %16 ], [ %14, %11 ]
  %19 = phi i64 [ %24, %16 ], [ 0, %11 ]
  %20 = getelementptr inbounds double, double* %0, i64 %17
  %21 = load double, double* %20, align 8, !tbaa !5
  %22 = fadd double %18, %21
  %23 = add nuw nsw i64 %17, 1
  %24 = add i64 %19, 1
  %25 = icmp eq i64 %24, %7
  br i1 %25, label %26, label %16, !llvm.loop !9

26:                                               ; preds = %11, %16, %2
  %27 = phi double [ 0.000000e+00, %2 ], [ %12, %11 ], [ %22, %16 ]
  %28 = icmp eq i32 %1, 0
  br i1 %28, label %70, label %67

29:                                               ; preds = %29, %9
  %30 = phi i64 [ 0, %9 ], [ %64, %29 ]
  %31 = phi double [ 0.000000e+00, %9 ], [ %63, %29 ]
  %32 = phi i64 [ 0, %9 ], [ %65, %29 ]
  %33 = getelementptr inbounds double, double* %0, i64 %30
  %34 = load double, double* %33, align 8, !tbaa !5
  %35 = fadd double %31, %34
  %36 = or i64 %30, 1
  %37 = getelementptr inbounds double, double* %0, i64 %36
  %38 = load double, double* %37, align 8, !tbaa !5
  %39 = fadd double %35, %38
  %40 = or i64 %30, 2
  %41 = getelementptr inbounds double, double* %0, i64 %40
  %42 = load double, double* %41, align 8, !tbaa !5
  %43 = fadd double %39, %42
  %44 = or i64 %30, 3
  %45 = getelementptr inbounds double, double* %0, i64 %44
  %46 = load double, double* %45, align 8, !tbaa !5
  %47 = fadd double %43, %46
  %48 = or i64 %30, 4
  %49 = getelementptr inbounds double, double* %0, i64 %48
  %50 = load double, double* %49, align 8, !tbaa !5
  %51 = fadd double %47, %50
  %52 = or i64 %30, 5
  %53 = getelementptr inbounds double, double* %0, i64 %52
  %54 = load double, double* %53, align 8, !tbaa !5
  %55 = fadd double %51, %54
  %56 = or i64 %30, 6
  %57 = getelementptr inbounds double, double* %0, i64 %56
  %58 = load double, double* %57, align 8, !tbaa !5
  %59 = fadd double %55, %58
  %60 = or i64 %30, 7
  %61 = getelementptr inbounds double, double* %0, i64 %60
  %62 = load double, double* %61, align 8, !tbaa !5
  %63 = fadd double %59, %62
  %64 = add nuw nsw i64 %30, 8
  %65 = add i64 %32, 8
  %66 = icmp eq i64 %65, %10
  br i1 %66, label %11, label %29, !llvm.loop !11

67:                                               ; preds = %26
  %68 = sitofp i32 %1 to double
  %69 = fdiv double %27, %68
  br label %70

70:                                               ; preds = %26, %67
  %71 = phi double [ %69, %67 ], [ 0.000000e+00, %26 ]
  ret double %71

; uselistorder directives
  uselistorder double* %0, { 0, 1, 2, 3, 4, 5, 6, 8, 7 }
  uselistorder i32 %1, { 2, 3, 0, 1 }
  uselistorder i64 %7, { 1, 0 }
  uselistorder label %16, { 1, 0 }
  uselistorder i64 %24, { 1, 0 }
  uselistorder label %26, { 1, 0, 2 }
  uselistorder i64 %30, { 7, 6, 0, 1, 2, 3, 4, 5, 8 }
  uselistorder double %63, { 1, 0, 2 }
  uselistorder i64 %65, { 1, 0 }
  uselistorder label %70, { 1, 0 }
}

; Function Attrs: argmemonly mustprogress nofree nosync nounwind willreturn
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture) #1

; Function Attrs: argmemonly mustprogress nofree nosync nounwind willreturn
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture) #1

; Function Attrs: nofree noinline norecurse nosync nounwind readonly uwtable
define dso_local i8* @skip_blanks(i8* noundef readonly %0) local_unnamed_addr #0 {
  br label %2

2:                                                ; preds = %5, %1
  %3 = phi i8* [ %0, %1 ], [ %6, %5 ]
  %4 = load i8, i8* %3, align 1, !tbaa !13
  switch i8 %4, label %7 [
    i8 32, label %5
    i8 9, label %5
  ]

5:                                                ; preds = %2, %2
  %6 = getelementptr inbounds i8, i8* %3, i64 1
  br label %2, !llvm.loop !14

7:                                                ; preds = %2
  ret i8* %3
}

; Function Attrs: nofree noinline norecurse nosync nounwind readonly uwtable
define dso_local i32 @find(i32* nocapture noundef readonly %0, i32 noundef %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = icmp sgt i32 %1, 0
  br i1 %4, label %5, label %17

5:                                                ; preds = %3
  %6 = zext i32 %1 to i64
  br label %7

7:                                                ; preds = %5, %12
  %8 = phi i64 [ 0, %5 ], [ %13, %12 ]
  %9 = getelementptr inbounds i32, i32* %0, i64 %8
  %10 = load i32, i32* %9, align 4, !tbaa !15
  %11 = icmp eq i32 %10, %2
  br i1 %11, label %15, label %12

12:                                               ; preds = %7
  %13 = add nuw nsw i64 %8, 1
  %14 = icmp eq i64 %13, %6
  br i1 %14, label %17, label %7, !llvm.loop !17

15:                                               ; preds = %7
  %16 = trunc i64 %8 to i32
  br label %17

17:                                               ; preds = %12, %15, %3
  %18 = phi i32 [ -1, %3 ], [ %16, %15 ], [ -1, %12 ]
  ret i32 %18

; uselistorder directives
  uselistorder label %7, { 1, 0 }
  uselistorder i64 %8, { 0, 2, 1 }
  uselistorder label %17, { 1, 0, 2 }
}

; Function Attrs: nofree noinline norecurse nosync nounwind readnone uwtable
define dso_local i64 @nested(i32 noundef %0) local_unnamed_addr #2 {
  %2 = icmp sgt i32 %0, 0
  br i1 %2, label %3, label %77

3:                                                ; preds = %1, %79
  %4 = phi i32 [ %81, %79 ], [ 0, %1 ]
  %5 = phi i64 [ %80, %79 ], [ 0, %1 ]
  %6 = and i32 %4, 2147483644
  %7 = add nsw i32 %6, -4
  %8 = lshr exact i32 %7, 2
  %9 = add nuw nsw i32 %8, 1
  %10 = icmp eq i32 %4, 0
  br i1 %10, label %79, label %11

11:                                               ; preds = %3
  %12 = icmp ult i32 %4, 4
  br i1 %12, label %74, label %13

13:                                               ; preds = %11
  %14 = and i32 %4, 2147483644
  %15 = insertelement <2 x i64> <i64 poison, i64 0>, i64 %5, i64 0
  %16 = insertelement <2 x i32> poison, i32 %4, i64 0
  %17 = shufflevector <2 x i32> %16, <2 x i32> poison, <2 x i32> zeroinitializer
  %18 = insertelement <2 x i32> poison, i32 %4, i64 0
  %19 = shufflevector <2 x i32> %18, <2 x i32> poison, <2 x i32> zeroinitializer
  %20 = and i32 %9, 1
  %21 = icmp eq i32 %7, 0
  br i1 %21, label %51, label %22

22:                                               ; preds = %13
  %23 = and i32 %9, 2147483646
  br label %24

24:                                               ; preds = %24, %22
  %25 = phi <2 x i32> [ <i32 0, i32 1>, %22 ], [ %48, %24 ]
  %26 = phi <2 x i64> [ %15, %22 ], [ %46, %24 ]
  %27 = phi <2 x i64> [ zeroinitializer, %22 ], [ %47, %24 ]
  %28 = phi i32 [ 0, %22 ], [ %49, %24 ]
  %29 = add <2 x i32> %25, <i32 2, i32 2>
  %30 = xor <2 x i32> %25, %17
  %31 = xor <2 x i32> %29, %19
  %32 = and <2 x i32> %30, <i32 7, i32 7>
  %33 = and <2 x i32> %31, <i32 7, i32 7>
  %34 = zext <2 x i32> %32 to <2 x i64>
  %35 = zext <2 x i32> %33 to <2 x i64>
  %36 = add <2 x i64> %26, %34
  %37 = add <2 x i64> %27, %35
 