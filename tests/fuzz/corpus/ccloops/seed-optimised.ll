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
  %38 = add <2 x i32> %25, <i32 4, i32 4>
  %39 = add <2 x i32> %25, <i32 6, i32 6>
  %40 = xor <2 x i32> %38, %17
  %41 = xor <2 x i32> %39, %19
  %42 = and <2 x i32> %40, <i32 7, i32 7>
  %43 = and <2 x i32> %41, <i32 7, i32 7>
  %44 = zext <2 x i32> %42 to <2 x i64>
  %45 = zext <2 x i32> %43 to <2 x i64>
  %46 = add <2 x i64> %36, %44
  %47 = add <2 x i64> %37, %45
  %48 = add <2 x i32> %25, <i32 8, i32 8>
  %49 = add i32 %28, 2
  %50 = icmp eq i32 %49, %23
  br i1 %50, label %51, label %24, !llvm.loop !18

51:                                               ; preds = %24, %13
  %52 = phi <2 x i64> [ undef, %13 ], [ %46, %24 ]
  %53 = phi <2 x i64> [ undef, %13 ], [ %47, %24 ]
  %54 = phi <2 x i32> [ <i32 0, i32 1>, %13 ], [ %48, %24 ]
  %55 = phi <2 x i64> [ %15, %13 ], [ %46, %24 ]
  %56 = phi <2 x i64> [ zeroinitializer, %13 ], [ %47, %24 ]
  %57 = icmp eq i32 %20, 0
  br i1 %57, label %68, label %58

58:                                               ; preds = %51
  %59 = add <2 x i32> %54, <i32 2, i32 2>
  %60 = xor <2 x i32> %54, %17
  %61 = xor <2 x i32> %59, %19
  %62 = and <2 x i32> %60, <i32 7, i32 7>
  %63 = and <2 x i32> %61, <i32 7, i32 7>
  %64 = zext <2 x i32> %62 to <2 x i64>
  %65 = zext <2 x i32> %63 to <2 x i64>
  %66 = add <2 x i64> %55, %64
  %67 = add <2 x i64> %56, %65
  br label %68

68:                                               ; preds = %51, %58
  %69 = phi <2 x i64> [ %52, %51 ], [ %66, %58 ]
  %70 = phi <2 x i64> [ %53, %51 ], [ %67, %58 ]
  %71 = add <2 x i64> %70, %69
  %72 = call i64 @llvm.vector.reduce.add.v2i64(<2 x i64> %71)
  %73 = icmp eq i32 %4, %14
  br i1 %73, label %79, label %74

74:                                               ; preds = %11, %68
  %75 = phi i32 [ 0, %11 ], [ %14, %68 ]
  %76 = phi i64 [ %5, %11 ], [ %72, %68 ]
  br label %83

77:                                               ; preds = %79, %1
  %78 = phi i64 [ 0, %1 ], [ %80, %79 ]
  ret i64 %78

79:                                               ; preds = %83, %68, %3
  %80 = phi i64 [ %5, %3 ], [ %72, %68 ], [ %89, %83 ]
  %81 = add nuw nsw i32 %4, 1
  %82 = icmp eq i32 %81, %0
  br i1 %82, label %77, label %3, !llvm.loop !20

83:                                               ; preds = %74, %83
  %84 = phi i32 [ %90, %83 ], [ %75, %74 ]
  %85 = phi i64 [ %89, %83 ], [ %76, %74 ]
  %86 = xor i32 %84, %4
  %87 = and i32 %86, 7
  %88 = zext i32 %87 to i64
  %89 = add nsw i64 %85, %88
  %90 = add nuw nsw i32 %84, 1
  %91 = icmp eq i32 %90, %4
  br i1 %91, label %79, label %83, !llvm.loop !21

; uselistorder directives
  uselistorder label %3, { 1, 0 }
  uselistorder i32 %4, { 6, 9, 7, 4, 2, 3, 1, 5, 8, 0 }
  uselistorder i64 %5, { 1, 0, 2 }
  uselistorder <2 x i32> %17, { 1, 0, 2 }
  uselistorder <2 x i32> %19, { 1, 0, 2 }
  uselistorder i32 %49, { 1, 0 }
  uselistorder <2 x i32> %54, { 1, 0 }
  uselistorder label %68, { 1, 0 }
  uselistorder i64 %72, { 1, 0 }
  uselistorder label %74, { 1, 0 }
  uselistorder i64 %80, { 1, 0 }
  uselistorder label %83, { 1, 0 }
  uselistorder i32 %90, { 1, 0 }
}

; Function Attrs: nofree noinline norecurse nosync nounwind readonly uwtable
define dso_local i32 @classify(i8* nocapture noundef readonly %0) local_unnamed_addr #0 {
  %2 = load i8, i8* %0, align 1, !tbaa !13
  %3 = icmp eq i8 %2, 0
  br i1 %3, label %22, label %4

4:                                                ; preds = %1, %17
  %5 = phi i8 [ %20, %17 ], [ %2, %1 ]
  %6 = phi i32 [ %18, %17 ], [ 0, %1 ]
  %7 = phi i8* [ %19, %17 ], [ %0, %1 ]
  %8 = sext i8 %5 to i32
  switch i32 %8, label %15 [
    i32 97, label %9
    i32 98, label %11
    i32 99, label %13
  ]

9:                                                ; preds = %4
  %10 = add nsw i32 %6, 1
  br label %17

11:                                               ; preds = %4
  %12 = shl nsw i32 %6, 1
  br label %17

13:                                               ; preds = %4
  %14 = add nsw i32 %6, -3
  br label %17

15:                                               ; preds = %4
  %16 = xor i32 %6, 1
  br label %17

17:                                               ; preds = %9, %11, %13, %15
  %18 = phi i32 [ %16, %15 ], [ %14, %13 ], [ %12, %11 ], [ %10, %9 ]
  %19 = getelementptr inbounds i8, i8* %7, i64 1
  %20 = load i8, i8* %19, align 1, !tbaa !13
  %21 = icmp eq i8 %20, 0
  br i1 %21, label %22, label %4, !llvm.loop !23

22:                                               ; preds = %17, %1
  %23 = phi i32 [ 0, %1 ], [ %18, %17 ]
  ret i32 %23

; uselistorder directives
  uselistorder label %4, { 1, 0 }
  uselistorder i32 %6, { 0, 2, 3, 1 }
  uselistorder label %17, { 3, 2, 1, 0 }
  uselistorder i8* %19, { 1, 0 }
  uselistorder i8 %20, { 1, 0 }
}

; Function Attrs: nofree noinline norecurse nosync nounwind uwtable
define dso_local i64 @last_over(i32* nocapture noundef readonly %0, i32 noundef %1, i64 noundef %2, i32* nocapture noundef writeonly %3) local_unnamed_addr #3 {
  %5 = icmp sgt i32 %1, 0
  br i1 %5, label %6, label %24

6:                                                ; preds = %4
  %7 = zext i32 %1 to i64
  br label %10

8:                                                ; preds = %10
  %9 = icmp eq i64 %19, %7
  br i1 %9, label %20, label %10, !llvm.loop !24

10:                                               ; preds = %6, %8
  %11 = phi i64 [ 0, %6 ], [ %19, %8 ]
  %12 = phi i64 [ 0, %6 ], [ %17, %8 ]
  %13 = getelementptr inbounds i32, i32* %0, i64 %11
  %14 = load i32, i32* %13, align 4, !tbaa !15
  %15 = tail call fastcc i32 @scaled(i32 noundef %14)
  %16 = sext i32 %15 to i64
  %17 = add nsw i64 %12, %16
  %18 = icmp sgt i64 %17, %2
  %19 = add nuw nsw i64 %11, 1
  br i1 %18, label %20, label %8

20:                                               ; preds = %10, %8
  %21 = phi i32 [ 0, %8 ], [ 1, %10 ]
  %22 = sext i32 %14 to i64
  %23 = add nsw i64 %17, %22
  br label %24

24:                                               ; preds = %20, %4
  %25 = phi i32 [ 0, %4 ], [ %21, %20 ]
  %26 = phi i64 [ 0, %4 ], [ %23, %20 ]
  store i32 %25, i32* %3, align 4, !tbaa !15
  ret i64 %26

; uselistorder directives
  uselistorder label %10, { 1, 0 }
  uselistorder i64 %11, { 1, 0 }
  uselistorder i64 %17, { 0, 2, 1 }
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind readnone uwtable willreturn
define internal fastcc i32 @scaled(i32 noundef %0) unnamed_addr #4 {
  %2 = mul nsw i32 %0, 7
  %3 = ashr i32 %0, 3
  %4 = add nsw i32 %2, %3
  ret i32 %4

; uselistorder directives
  uselistorder i32 %0, { 1, 0 }
}

; Function Attrs: nounwind uwtable
define dso_local i32 @main(i32 noundef %0, i8** nocapture noundef readonly %1) local_unnamed_addr #5 {
  %3 = icmp sgt i32 %0, 1
  br i1 %3, label %4, label %27

4:                                                ; preds = %2
  %5 = getelementptr inbounds i8*, i8** %1, i64 1
  %6 = load i8*, i8** %5, align 8, !tbaa !25
  %7 = tail call i32 @strcmp(i8* noundef nonnull dereferenceable(1) %6, i8* noundef nonnull dereferenceable(7) getelementptr inbounds ([7 x i8], [7 x i8]* @.str, i64 0, i64 0)) #13
  %8 = icmp eq i32 %7, 0
  br i1 %8, label %9, label %10

9:                                                ; preds = %4
  tail call fastcc void @shapes()
  br label %30

10:                                               ; preds = %4
  %11 = icmp ugt i32 %0, 2
  br i1 %11, label %12, label %27

12:                                               ; preds = %10
  %13 = tail call i32 @strcmp(i8* noundef nonnull dereferenceable(1) %6, i8* noundef nonnull dereferenceable(5) getelementptr inbounds ([5 x i8], [5 x i8]* @.str.1, i64 0, i64 0)) #13
  %14 = icmp eq i32 %13, 0
  br i1 %14, label %15, label %27

15:                                               ; preds = %12
  %16 = getelementptr inbounds i8*, i8** %1, i64 2
  %17 = load i8*, i8** %16, align 8, !tbaa !25
  %18 = tail call i64 @strtol(i8* nocapture noundef nonnull %17, i8** noundef null, i32 noundef 10) #14
  %19 = icmp sgt i64 %18, 0
  br i1 %19, label %23, label %20

20:                                               ; preds = %23, %15
  %21 = tail call i32 @lp_probe_sites() #14
  %22 = tail call i32 (i8*, ...) @printf(i8* noundef nonnull dereferenceable(1) getelementptr inbounds ([10 x i8], [10 x i8]* @.str.2, i64 0, i64 0), i32 noundef %21)
  br label %30

23:                                               ; preds = %15, %23
  %24 = phi i64 [ %25, %23 ], [ 0, %15 ]
  tail call void @lp_probe() #14
  %25 = add nuw nsw i64 %24, 1
  %26 = icmp eq i64 %25, %18
  br i1 %26, label %20, label %23, !llvm.loop !27

27:                                               ; preds = %2, %12, %10
  %28 = load %struct._IO_FILE*, %struct._IO_FILE** @stderr, align 8, !tbaa !25
  %29 = tail call i64 @fwrite(i8* getelementptr inbounds ([33 x i8], [33 x i8]* @.str.3, i64 0, i64 0), i64 32, i64 1, %struct._IO_FILE* %28) #15
  br label %30

30:                                               ; preds = %27, %20, %9
  %31 = phi i32 [ 0, %9 ], [ 0, %20 ], [ 2, %27 ]
  ret i32 %31

; uselistorder directives
  uselistorder i32 %0, { 1, 0 }
  uselistorder i8** %1, { 1, 0 }
  uselistorder label %23, { 1, 0 }
  uselistorder label %27, { 1, 2, 0 }
}

; Function Attrs: argmemonly mustprogress nofree nounwind readonly willreturn
declare i32 @strcmp(i8* nocapture noundef, i8* nocapture noundef) local_unnamed_addr #6

; Function Attrs: nofree noinline nounwind uwtable
define internal fastcc void @shapes() unnamed_addr #7 {
  %1 = alloca [100 x i32], align 16
  %2 = alloca [50 x double], align 16
  %3 = alloca i32, align 4
  %4 = bitcast [100 x i32]* %1 to i8*
  call void @llvm.lifetime.start.p0i8(i64 400, i8* nonnull %4) #14
  %5 = bitcast [50 x double]* %2 to i8*
  call void @llvm.lifetime.start.p0i8(i64 400, i8* nonnull %5) #14
  br label %6

6:                                                ; preds = %16, %0
  %7 = phi i64 [ 0, %0 ], [ %23, %16 ]
  %8 = phi <4 x i16> [ <i16 0, i16 1, i16 2, i16 3>, %0 ], [ %24, %16 ]
  %9 = mul <4 x i16> %8, <i16 37, i16 37, i16 37, i16 37>
  %10 = urem <4 x i16> %9, <i16 101, i16 101, i16 101, i16 101>
  %11 = zext <4 x i16> %10 to <4 x i32>
  %12 = getelementptr inbounds [100 x i32], [100 x i32]* %1, i64 0, i64 %7
  %13 = bitcast i32* %12 to <4 x i32>*
  store <4 x i32> %11, <4 x i32>* %13, align 16, !tbaa !15
  %14 = or i64 %7, 4
  %15 = icmp eq i64 %14, 100
  br i1 %15, label %25, label %16, !llvm.loop !28

16:                                               ; preds = %6
  %17 = mul <4 x i16> %8, <i16 37, i16 37, i16 37, i16 37>
  %18 = add <4 x i16> %17, <i16 148, i16 148, i16 148, i16 148>
  %19 = urem <4 x i16> %18, <i16 101, i16 101, i16 101, i16 101>
  %20 = zext <4 x i16> %19 to <4 x i32>
  %21 = getelementptr inbounds [100 x i32], [100 x i32]* %1, i64 0, i64 %14
  %22 = bitcast i32* %21 to <4 x i32>*
  store <4 x i32> %20, <4 x i32>* %22, align 16, !tbaa !15
  %23 = add nuw nsw i64 %7, 8
  %24 = add <4 x i16> %8, <i16 8, i16 8, i16 8, i16 8>
  br label %6

25:                                               ; preds = %6
  %26 = bitcast [50 x double]* %2 to <2 x double>*
  store <2 x double> <double 0.000000e+00, double 5.000000e-01>, <2 x double>* %26, align 16, !tbaa !5
  %27 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 2
  %28 = bitcast double* %27 to <2 x double>*
  store <2 x double> <double 1.000000e+00, double 1.500000e+00>, <2 x double>* %28, align 16, !tbaa !5
  %29 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 4
  %30 = bitcast double* %29 to <2 x double>*
  store <2 x double> <double 2.000000e+00, double 2.500000e+00>, <2 x double>* %30, align 16, !tbaa !5
  %31 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 6
  %32 = bitcast double* %31 to <2 x double>*
  store <2 x double> <double 3.000000e+00, double 3.500000e+00>, <2 x double>* %32, align 16, !tbaa !5
  %33 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 8
  %34 = bitcast double* %33 to <2 x double>*
  store <2 x double> <double 4.000000e+00, double 4.500000e+00>, <2 x double>* %34, align 16, !tbaa !5
  %35 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 10
  %36 = bitcast double* %35 to <2 x double>*
  store <2 x double> <double 5.000000e+00, double 5.500000e+00>, <2 x double>* %36, align 16, !tbaa !5
  %37 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 12
  %38 = bitcast double* %37 to <2 x double>*
  store <2 x double> <double 6.000000e+00, double 6.500000e+00>, <2 x double>* %38, align 16, !tbaa !5
  %39 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 14
  %40 = bitcast double* %39 to <2 x double>*
  store <2 x double> <double 7.000000e+00, double 7.500000e+00>, <2 x double>* %40, align 16, !tbaa !5
  %41 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 16
  %42 = bitcast double* %41 to <2 x double>*
  store <2 x double> <double 8.000000e+00, double 8.500000e+00>, <2 x double>* %42, align 16, !tbaa !5
  %43 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 18
  %44 = bitcast double* %43 to <2 x double>*
  store <2 x double> <double 9.000000e+00, double 9.500000e+00>, <2 x double>* %44, align 16, !tbaa !5
  %45 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 20
  %46 = bitcast double* %45 to <2 x double>*
  store <2 x double> <double 1.000000e+01, double 1.050000e+01>, <2 x double>* %46, align 16, !tbaa !5
  %47 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 22
  %48 = bitcast double* %47 to <2 x double>*
  store <2 x double> <double 1.100000e+01, double 1.150000e+01>, <2 x double>* %48, align 16, !tbaa !5
  %49 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 24
  %50 = bitcast double* %49 to <2 x double>*
  store <2 x double> <double 1.200000e+01, double 1.250000e+01>, <2 x double>* %50, align 16, !tbaa !5
  %51 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 26
  %52 = bitcast double* %51 to <2 x double>*
  store <2 x double> <double 1.300000e+01, double 1.350000e+01>, <2 x double>* %52, align 16, !tbaa !5
  %53 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 28
  %54 = bitcast double* %53 to <2 x double>*
  store <2 x double> <double 1.400000e+01, double 1.450000e+01>, <2 x double>* %54, align 16, !tbaa !5
  %55 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 30
  %56 = bitcast double* %55 to <2 x double>*
  store <2 x double> <double 1.500000e+01, double 1.550000e+01>, <2 x double>* %56, align 16, !tbaa !5
  %57 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 32
  %58 = bitcast double* %57 to <2 x double>*
  store <2 x double> <double 1.600000e+01, double 1.650000e+01>, <2 x double>* %58, align 16, !tbaa !5
  %59 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 34
  %60 = bitcast double* %59 to <2 x double>*
  store <2 x double> <double 1.700000e+01, double 1.750000e+01>, <2 x double>* %60, align 16, !tbaa !5
  %61 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 36
  %62 = bitcast double* %61 to <2 x double>*
  store <2 x double> <double 1.800000e+01, double 1.850000e+01>, <2 x double>* %62, align 16, !tbaa !5
  %63 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 38
  %64 = bitcast double* %63 to <2 x double>*
  store <2 x double> <double 1.900000e+01, double 1.950000e+01>, <2 x double>* %64, align 16, !tbaa !5
  %65 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 40
  %66 = bitcast double* %65 to <2 x double>*
  store <2 x double> <double 2.000000e+01, double 2.050000e+01>, <2 x double>* %66, align 16, !tbaa !5
  %67 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 42
  %68 = bitcast double* %67 to <2 x double>*
  store <2 x double> <double 2.100000e+01, double 2.150000e+01>, <2 x double>* %68, align 16, !tbaa !5
  %69 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 44
  %70 = bitcast double* %69 to <2 x double>*
  store <2 x double> <double 2.200000e+01, double 2.250000e+01>, <2 x double>* %70, align 16, !tbaa !5
  %71 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 46
  %72 = bitcast double* %71 to <2 x double>*
  store <2 x double> <double 2.300000e+01, double 2.350000e+01>, <2 x double>* %72, align 16, !tbaa !5
  %73 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 48
  %74 = bitcast double* %73 to <2 x double>*
  store <2 x double> <double 2.400000e+01, double 2.450000e+01>, <2 x double>* %74, align 16, !tbaa !5
  %75 = bitcast i32* %3 to i8*
  %76 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 0
  %77 = getelementptr inbounds [100 x i32], [100 x i32]* %1, i64 0, i64 0
  br label %80

78:                                               ; preds = %80
  %79 = tail call i32 (i8*, ...) @printf(i8* noundef nonnull dereferenceable(1) getelementptr inbounds ([15 x i8], [15 x i8]* @.str.6, i64 0, i64 0), i64 noundef %116, i32 noundef %118)
  call void @llvm.lifetime.end.p0i8(i64 400, i8* nonnull %5) #14
  call void @llvm.lifetime.end.p0i8(i64 400, i8* nonnull %4) #14
  ret void

80:                                               ; preds = %25, %80
  %81 = phi i64 [ 0, %25 ], [ %119, %80 ]
  %82 = phi i32 [ 0, %25 ], [ %118, %80 ]
  %83 = phi i64 [ 0, %25 ], [ %116, %80 ]
  call void @llvm.lifetime.start.p0i8(i64 4, i8* nonnull %75) #14
  %84 = trunc i64 %81 to i8
  %85 = urem i8 %84, 7
  %86 = sub nuw nsw i8 50, %85
  %87 = zext i8 %86 to i32
  %88 = call double @mean(double* noundef nonnull %76, i32 noundef %87)
  %89 = fptosi double %88 to i64
  %90 = urem i8 %84, 3
  %91 = zext i8 %90 to i64
  %92 = getelementptr inbounds [6 x i8], [6 x i8]* @.str.4, i64 0, i64 %91
  %93 = tail call i8* @skip_blanks(i8* noundef nonnull %92)
  %94 = ptrtoint i8* %93 to i64
  %95 = urem i8 %84, 120
  %96 = zext i8 %95 to i32
  %97 = call i32 @find(i32* noundef nonnull %77, i32 noundef 100, i32 noundef %96)
  %98 = sext i32 %97 to i64
  %99 = urem i8 %84, 5
  %100 = add nuw nsw i8 %99, 20
  %101 = zext i8 %100 to i32
  %102 = tail call i64 @nested(i32 noundef %101)
  %103 = zext i8 %99 to i64
  %104 = getelementptr inbounds [11 x i8], [11 x i8]* @.str.5, i64 0, i64 %103
  %105 = tail call i32 @classify(i8* noundef nonnull %104)
  %106 = sext i32 %105 to i64
  %107 = mul nuw nsw i64 %81, 40
  %108 = add nuw nsw i64 %107, 1000
  %109 = call i64 @last_over(i32* noundef nonnull %77, i32 noundef 100, i64 noundef %108, i32* noundef nonnull %3)
  %110 = sub i64 %83, ptrtoint ([6 x i8]* @.str.4 to i64)
  %111 = add i64 %110, %89
  %112 = add i64 %111, %94
  %113 = add i64 %112, %98
  %114 = add i64 %113, %102
  %115 = add i64 %114, %106
  %116 = add i64 %115, %109
  %117 = load i32, i32* %3, align 4, !tbaa !15
  %118 = add nsw i32 %117, %82
  call void @llvm.lifetime.end.p0i8(i64 4, i8* nonnull %75) #14
  %119 = add nuw nsw i64 %81, 1
  %120 = icmp eq i64 %119, 200
  br i1 %120, label %78, label %80, !llvm.loop !29

; uselistorder directives
  uselistorder [100 x i32]* %1, { 2, 0, 1, 3 }
  uselistorder [50 x double]* %2, { 25, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 0, 26 }
  uselistorder i64 %7, { 1, 0, 2 }
  uselistorder <4 x i16> %8, { 1, 0, 2 }
  uselistorder i64 %14, { 1, 0 }
  uselistorder label %80, { 1, 0 }
  uselistorder i64 %81, { 2, 1, 0 }
  uselistorder i8 %84, { 3, 2, 1, 0 }
  uselistorder i8 %99, { 1, 0 }
}

declare void @lp_probe() local_unnamed_addr #8

; Function Attrs: nofree nounwind
declare noundef i32 @printf(i8* nocapture noundef readonly, ...) local_unnamed_addr #9

declare i32 @lp_probe_sites() local_unnamed_addr #8

; Function Attrs: mustprogress nofree nounwind willreturn
declare i64 @strtol(i8* noundef readonly, i8** nocapture noundef, i32 noundef) local_unnamed_addr #10

; Function Attrs: nofree nounwind
declare noundef i64 @fwrite(i8* nocapture noundef, i64 noundef, i64 noundef, %struct._IO_FILE* nocapture noundef) local_unnamed_addr #11

; Function Attrs: nofree nosync nounwind readnone willreturn
declare i64 @llvm.vector.reduce.add.v2i64(<2 x i64>) #12

; uselistorder directives

attributes #0 = { nofree noinline norecurse nosync nounwind readonly uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { argmemonly mustprogress nofree nosync nounwind willreturn }
attributes #2 = { nofree noinline norecurse nosync nounwind readnone uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nofree noinline norecurse nosync nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { mustprogress nofree noinline norecurse nosync nounwind readnone uwtable willreturn "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #6 = { argmemonly mustprogress nofree nounwind readonly willreturn "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #7 = { nofree noinline nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #8 = { "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #9 = { nofree nounwind "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #10 = { mustprogress nofree nounwind willreturn "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #11 = { nofree nounwind }
attributes #12 = { nofree nosync nounwind readnone willreturn }
attributes #13 = { nounwind readonly willreturn }
attributes #14 = { nounwind }
attributes #15 = { cold }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 1}
!4 = !{!"Debian clang version 14.0.6"}
!5 = !{!6, !6, i64 0}
!6 = !{!"double", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C/C++ TBAA"}
!9 = distinct !{!9, !10}
!10 = !{!"llvm.loop.unroll.disable"}
!11 = distinct !{!11, !12}
!12 = !{!"llvm.loop.mustprogress"}
!13 = !{!7, !7, i64 0}
!14 = distinct !{!14, !12}
!15 = !{!16, !16, i64 0}
!16 = !{!"int", !7, i64 0}
!17 = distinct !{!17, !12}
!18 = distinct !{!18, !12, !19}
!19 = !{!"llvm.loop.isvectorized", i32 1}
!20 = distinct !{!20, !12}
!21 = distinct !{!21, !12, !22, !19}
!22 = !{!"llvm.loop.unroll.runtime.disable"}
!23 = distinct !{!23, !12}
!24 = distinct !{!24, !12}
!25 = !{!26, !26, i64 0}
!26 = !{!"any pointer", !7, i64 0}
!27 = distinct !{!27, !12}
!28 = distinct !{!28, !12, !19}
!29 = distinct !{!29, !12}

define hidden double @mean.lpdup(double* nocapture noundef readonly %0, i32 noundef %1) local_unnamed_addr #0 section "lp_copies" {
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
  br i1 %25, label %26, label %16, !llvm.loop !30

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
  br i1 %66, label %11, label %29, !llvm.loop !31

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

define hidden i8* @skip_blanks.lpdup(i8* noundef readonly %0) local_unnamed_addr #0 section "lp_copies" {
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
  br label %2, !llvm.loop !32

7:                                                ; preds = %2
  ret i8* %3
}

define hidden i32 @find.lpdup(i32* nocapture noundef readonly %0, i32 noundef %1, i32 noundef %2) local_unnamed_addr #0 section "lp_copies" {
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
  br i1 %14, label %17, label %7, !llvm.loop !33

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

define hidden i64 @nested.lpdup(i32 noundef %0) local_unnamed_addr #2 section "lp_copies" {
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
  %38 = add <2 x i32> %25, <i32 4, i32 4>
  %39 = add <2 x i32> %25, <i32 6, i32 6>
  %40 = xor <2 x i32> %38, %17
  %41 = xor <2 x i32> %39, %19
  %42 = and <2 x i32> %40, <i32 7, i32 7>
  %43 = and <2 x i32> %41, <i32 7, i32 7>
  %44 = zext <2 x i32> %42 to <2 x i64>
  %45 = zext <2 x i32> %43 to <2 x i64>
  %46 = add <2 x i64> %36, %44
  %47 = add <2 x i64> %37, %45
  %48 = add <2 x i32> %25, <i32 8, i32 8>
  %49 = add i32 %28, 2
  %50 = icmp eq i32 %49, %23
  br i1 %50, label %51, label %24, !llvm.loop !34

51:                                               ; preds = %24, %13
  %52 = phi <2 x i64> [ undef, %13 ], [ %46, %24 ]
  %53 = phi <2 x i64> [ undef, %13 ], [ %47, %24 ]
  %54 = phi <2 x i32> [ <i32 0, i32 1>, %13 ], [ %48, %24 ]
  %55 = phi <2 x i64> [ %15, %13 ], [ %46, %24 ]
  %56 = phi <2 x i64> [ zeroinitializer, %13 ], [ %47, %24 ]
  %57 = icmp eq i32 %20, 0
  br i1 %57, label %68, label %58

58:                                               ; preds = %51
  %59 = add <2 x i32> %54, <i32 2, i32 2>
  %60 = xor <2 x i32> %54, %17
  %61 = xor <2 x i32> %59, %19
  %62 = and <2 x i32> %60, <i32 7, i32 7>
  %63 = and <2 x i32> %61, <i32 7, i32 7>
  %64 = zext <2 x i32> %62 to <2 x i64>
  %65 = zext <2 x i32> %63 to <2 x i64>
  %66 = add <2 x i64> %55, %64
  %67 = add <2 x i64> %56, %65
  br label %68

68:                                               ; preds = %51, %58
  %69 = phi <2 x i64> [ %52, %51 ], [ %66, %58 ]
  %70 = phi <2 x i64> [ %53, %51 ], [ %67, %58 ]
  %71 = add <2 x i64> %70, %69
  %72 = call i64 @llvm.vector.reduce.add.v2i64(<2 x i64> %71)
  %73 = icmp eq i32 %4, %14
  br i1 %73, label %79, label %74

74:                                               ; preds = %11, %68
  %75 = phi i32 [ 0, %11 ], [ %14, %68 ]
  %76 = phi i64 [ %5, %11 ], [ %72, %68 ]
  br label %83

77:                                               ; preds = %79, %1
  %78 = phi i64 [ 0, %1 ], [ %80, %79 ]
  ret i64 %78

79:                                               ; preds = %83, %68, %3
  %80 = phi i64 [ %5, %3 ], [ %72, %68 ], [ %89, %83 ]
  %81 = add nuw nsw i32 %4, 1
  %82 = icmp eq i32 %81, %0
  br i1 %82, label %77, label %3, !llvm.loop !35

83:                                               ; preds = %74, %83
  %84 = phi i32 [ %90, %83 ], [ %75, %74 ]
  %85 = phi i64 [ %89, %83 ], [ %76, %74 ]
  %86 = xor i32 %84, %4
  %87 = and i32 %86, 7
  %88 = zext i32 %87 to i64
  %89 = add nsw i64 %85, %88
  %90 = add nuw nsw i32 %84, 1
  %91 = icmp eq i32 %90, %4
  br i1 %91, label %79, label %83, !llvm.loop !36

; uselistorder directives
  uselistorder label %3, { 1, 0 }
  uselistorder i32 %4, { 6, 9, 7, 4, 2, 3, 1, 5, 8, 0 }
  uselistorder i64 %5, { 1, 0, 2 }
  uselistorder <2 x i32> %17, { 1, 0, 2 }
  uselistorder <2 x i32> %19, { 1, 0, 2 }
  uselistorder i32 %49, { 1, 0 }
  uselistorder <2 x i32> %54, { 1, 0 }
  uselistorder label %68, { 1, 0 }
  uselistorder i64 %72, { 1, 0 }
  uselistorder label %74, { 1, 0 }
  uselistorder i64 %80, { 1, 0 }
  uselistorder label %83, { 1, 0 }
  uselistorder i32 %90, { 1, 0 }
}

define hidden i32 @classify.lpdup(i8* nocapture noundef readonly %0) local_unnamed_addr #0 section "lp_copies" {
  %2 = load i8, i8* %0, align 1, !tbaa !13
  %3 = icmp eq i8 %2, 0
  br i1 %3, label %22, label %4

4:                                                ; preds = %1, %17
  %5 = phi i8 [ %20, %17 ], [ %2, %1 ]
  %6 = phi i32 [ %18, %17 ], [ 0, %1 ]
  %7 = phi i8* [ %19, %17 ], [ %0, %1 ]
  %8 = sext i8 %5 to i32
  switch i32 %8, label %15 [
    i32 97, label %9
    i32 98, label %11
    i32 99, label %13
  ]

9:                                                ; preds = %4
  %10 = add nsw i32 %6, 1
  br label %17

11:                                               ; preds = %4
  %12 = shl nsw i32 %6, 1
  br label %17

13:                                               ; preds = %4
  %14 = add nsw i32 %6, -3
  br label %17

15:                                               ; preds = %4
  %16 = xor i32 %6, 1
  br label %17

17:                                               ; preds = %9, %11, %13, %15
  %18 = phi i32 [ %16, %15 ], [ %14, %13 ], [ %12, %11 ], [ %10, %9 ]
  %19 = getelementptr inbounds i8, i8* %7, i64 1
  %20 = load i8, i8* %19, align 1, !tbaa !13
  %21 = icmp eq i8 %20, 0
  br i1 %21, label %22, label %4, !llvm.loop !37

22:                                               ; preds = %17, %1
  %23 = phi i32 [ 0, %1 ], [ %18, %17 ]
  ret i32 %23

; uselistorder directives
  uselistorder label %4, { 1, 0 }
  uselistorder i32 %6, { 0, 2, 3, 1 }
  uselistorder label %17, { 3, 2, 1, 0 }
  uselistorder i8* %19, { 1, 0 }
  uselistorder i8 %20, { 1, 0 }
}

define hidden i64 @last_over.lpdup(i32* nocapture noundef readonly %0, i32 noundef %1, i64 noundef %2, i32* nocapture noundef writeonly %3) local_unnamed_addr #3 section "lp_copies" {
  %5 = icmp sgt i32 %1, 0
  br i1 %5, label %6, label %24

6:                                                ; preds = %4
  %7 = zext i32 %1 to i64
  br label %10

8:                                                ; preds = %10
  %9 = icmp eq i64 %19, %7
  br i1 %9, label %20, label %10, !llvm.loop !38

10:                                               ; preds = %6, %8
  %11 = phi i64 [ 0, %6 ], [ %19, %8 ]
  %12 = phi i64 [ 0, %6 ], [ %17, %8 ]
  %13 = getelementptr inbounds i32, i32* %0, i64 %11
  %14 = load i32, i32* %13, align 4, !tbaa !15
  %15 = tail call fastcc i32 @scaled.lpdup(i32 noundef %14)
  %16 = sext i32 %15 to i64
  %17 = add nsw i64 %12, %16
  %18 = icmp sgt i64 %17, %2
  %19 = add nuw nsw i64 %11, 1
  br i1 %18, label %20, label %8

20:                                               ; preds = %10, %8
  %21 = phi i32 [ 0, %8 ], [ 1, %10 ]
  %22 = sext i32 %14 to i64
  %23 = add nsw i64 %17, %22
  br label %24

24:                                               ; preds = %20, %4
  %25 = phi i32 [ 0, %4 ], [ %21, %20 ]
  %26 = phi i64 [ 0, %4 ], [ %23, %20 ]
  store i32 %25, i32* %3, align 4, !tbaa !15
  ret i64 %26

; uselistorder directives
  uselistorder label %10, { 1, 0 }
  uselistorder i64 %11, { 1, 0 }
  uselistorder i64 %17, { 0, 2, 1 }
}

define internal fastcc i32 @scaled.lpdup(i32 noundef %0) unnamed_addr #4 section "lp_copies" {
  %2 = mul nsw i32 %0, 7
  %3 = ashr i32 %0, 3
  %4 = add nsw i32 %2, %3
  ret i32 %4

; uselistorder directives
  uselistorder i32 %0, { 1, 0 }
}

define hidden i32 @main.lpdup(i32 noundef %0, i8** nocapture noundef readonly %1) local_unnamed_addr #5 section "lp_copies" {
  %3 = icmp sgt i32 %0, 1
  br i1 %3, label %4, label %27

4:                                                ; preds = %2
  %5 = getelementptr inbounds i8*, i8** %1, i64 1
  %6 = load i8*, i8** %5, align 8, !tbaa !25
  %7 = tail call i32 @strcmp(i8* noundef nonnull dereferenceable(1) %6, i8* noundef nonnull dereferenceable(7) getelementptr inbounds ([7 x i8], [7 x i8]* @.str, i64 0, i64 0)) #13
  %8 = icmp eq i32 %7, 0
  br i1 %8, label %9, label %10

9:                                                ; preds = %4
  tail call fastcc void @shapes.lpdup()
  br label %30

10:                                               ; preds = %4
  %11 = icmp ugt i32 %0, 2
  br i1 %11, label %12, label %27

12:                                               ; preds = %10
  %13 = tail call i32 @strcmp(i8* noundef nonnull dereferenceable(1) %6, i8* noundef nonnull dereferenceable(5) getelementptr inbounds ([5 x i8], [5 x i8]* @.str.1, i64 0, i64 0)) #13
  %14 = icmp eq i32 %13, 0
  br i1 %14, label %15, label %27

15:                                               ; preds = %12
  %16 = getelementptr inbounds i8*, i8** %1, i64 2
  %17 = load i8*, i8** %16, align 8, !tbaa !25
  %18 = tail call i64 @strtol(i8* nocapture noundef nonnull %17, i8** noundef null, i32 noundef 10) #14
  %19 = icmp sgt i64 %18, 0
  br i1 %19, label %23, label %20

20:                                               ; preds = %23, %15
  %21 = tail call i32 @lp_probe_sites() #14
  %22 = tail call i32 (i8*, ...) @printf(i8* noundef nonnull dereferenceable(1) getelementptr inbounds ([10 x i8], [10 x i8]* @.str.2, i64 0, i64 0), i32 noundef %21)
  br label %30

23:                                               ; preds = %15, %23
  %24 = phi i64 [ %25, %23 ], [ 0, %15 ]
  tail call void @lp_probe() #14
  %25 = add nuw nsw i64 %24, 1
  %26 = icmp eq i64 %25, %18
  br i1 %26, label %20, label %23, !llvm.loop !39

27:                                               ; preds = %2, %12, %10
  %28 = load %struct._IO_FILE*, %struct._IO_FILE** @stderr, align 8, !tbaa !25
  %29 = tail call i64 @fwrite(i8* getelementptr inbounds ([33 x i8], [33 x i8]* @.str.3, i64 0, i64 0), i64 32, i64 1, %struct._IO_FILE* %28) #15
  br label %30

30:                                               ; preds = %27, %20, %9
  %31 = phi i32 [ 0, %9 ], [ 0, %20 ], [ 2, %27 ]
  ret i32 %31

; uselistorder directives
  uselistorder i32 %0, { 1, 0 }
  uselistorder i8** %1, { 1, 0 }
  uselistorder label %23, { 1, 0 }
  uselistorder label %27, { 1, 2, 0 }
}

define internal fastcc void @shapes.lpdup() unnamed_addr #7 section "lp_copies" {
  %1 = alloca [100 x i32], align 16
  %2 = alloca [50 x double], align 16
  %3 = alloca i32, align 4
  %4 = bitcast [100 x i32]* %1 to i8*
  call void @llvm.lifetime.start.p0i8(i64 400, i8* nonnull %4) #14
  %5 = bitcast [50 x double]* %2 to i8*
  call void @llvm.lifetime.start.p0i8(i64 400, i8* nonnull %5) #14
  br label %6

6:                                                ; preds = %16, %0
  %7 = phi i64 [ 0, %0 ], [ %23, %16 ]
  %8 = phi <4 x i16> [ <i16 0, i16 1, i16 2, i16 3>, %0 ], [ %24, %16 ]
  %9 = mul <4 x i16> %8, <i16 37, i16 37, i16 37, i16 37>
  %10 = urem <4 x i16> %9, <i16 101, i16 101, i16 101, i16 101>
  %11 = zext <4 x i16> %10 to <4 x i32>
  %12 = getelementptr inbounds [100 x i32], [100 x i32]* %1, i64 0, i64 %7
  %13 = bitcast i32* %12 to <4 x i32>*
  store <4 x i32> %11, <4 x i32>* %13, align 16, !tbaa !15
  %14 = or i64 %7, 4
  %15 = icmp eq i64 %14, 100
  br i1 %15, label %25, label %16, !llvm.loop !40

16:                                               ; preds = %6
  %17 = mul <4 x i16> %8, <i16 37, i16 37, i16 37, i16 37>
  %18 = add <4 x i16> %17, <i16 148, i16 148, i16 148, i16 148>
  %19 = urem <4 x i16> %18, <i16 101, i16 101, i16 101, i16 101>
  %20 = zext <4 x i16> %19 to <4 x i32>
  %21 = getelementptr inbounds [100 x i32], [100 x i32]* %1, i64 0, i64 %14
  %22 = bitcast i32* %21 to <4 x i32>*
  store <4 x i32> %20, <4 x i32>* %22, align 16, !tbaa !15
  %23 = add nuw nsw i64 %7, 8
  %24 = add <4 x i16> %8, <i16 8, i16 8, i16 8, i16 8>
  br label %6

25:                                               ; preds = %6
  %26 = bitcast [50 x double]* %2 to <2 x double>*
  store <2 x double> <double 0.000000e+00, double 5.000000e-01>, <2 x double>* %26, align 16, !tbaa !5
  %27 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 2
  %28 = bitcast double* %27 to <2 x double>*
  store <2 x double> <double 1.000000e+00, double 1.500000e+00>, <2 x double>* %28, align 16, !tbaa !5
  %29 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 4
  %30 = bitcast double* %29 to <2 x double>*
  store <2 x double> <double 2.000000e+00, double 2.500000e+00>, <2 x double>* %30, align 16, !tbaa !5
  %31 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 6
  %32 = bitcast double* %31 to <2 x double>*
  store <2 x double> <double 3.000000e+00, double 3.500000e+00>, <2 x double>* %32, align 16, !tbaa !5
  %33 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 8
  %34 = bitcast double* %33 to <2 x double>*
  store <2 x double> <double 4.000000e+00, double 4.500000e+00>, <2 x double>* %34, align 16, !tbaa !5
  %35 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 10
  %36 = bitcast double* %35 to <2 x double>*
  store <2 x double> <double 5.000000e+00, double 5.500000e+00>, <2 x double>* %36, align 16, !tbaa !5
  %37 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 12
  %38 = bitcast double* %37 to <2 x double>*
  store <2 x double> <double 6.000000e+00, double 6.500000e+00>, <2 x double>* %38, align 16, !tbaa !5
  %39 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 14
  %40 = bitcast double* %39 to <2 x double>*
  store <2 x double> <double 7.000000e+00, double 7.500000e+00>, <2 x double>* %40, align 16, !tbaa !5
  %41 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 16
  %42 = bitcast double* %41 to <2 x double>*
  store <2 x double> <double 8.000000e+00, double 8.500000e+00>, <2 x double>* %42, align 16, !tbaa !5
  %43 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 18
  %44 = bitcast double* %43 to <2 x double>*
  store <2 x double> <double 9.000000e+00, double 9.500000e+00>, <2 x double>* %44, align 16, !tbaa !5
  %45 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 20
  %46 = bitcast double* %45 to <2 x double>*
  store <2 x double> <double 1.000000e+01, double 1.050000e+01>, <2 x double>* %46, align 16, !tbaa !5
  %47 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 22
  %48 = bitcast double* %47 to <2 x double>*
  store <2 x double> <double 1.100000e+01, double 1.150000e+01>, <2 x double>* %48, align 16, !tbaa !5
  %49 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 24
  %50 = bitcast double* %49 to <2 x double>*
  store <2 x double> <double 1.200000e+01, double 1.250000e+01>, <2 x double>* %50, align 16, !tbaa !5
  %51 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 26
  %52 = bitcast double* %51 to <2 x double>*
  store <2 x double> <double 1.300000e+01, double 1.350000e+01>, <2 x double>* %52, align 16, !tbaa !5
  %53 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 28
  %54 = bitcast double* %53 to <2 x double>*
  store <2 x double> <double 1.400000e+01, double 1.450000e+01>, <2 x double>* %54, align 16, !tbaa !5
  %55 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 30
  %56 = bitcast double* %55 to <2 x double>*
  store <2 x double> <double 1.500000e+01, double 1.550000e+01>, <2 x double>* %56, align 16, !tbaa !5
  %57 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 32
  %58 = bitcast double* %57 to <2 x double>*
  store <2 x double> <double 1.600000e+01, double 1.650000e+01>, <2 x double>* %58, align 16, !tbaa !5
  %59 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 34
  %60 = bitcast double* %59 to <2 x double>*
  store <2 x double> <double 1.700000e+01, double 1.750000e+01>, <2 x double>* %60, align 16, !tbaa !5
  %61 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 36
  %62 = bitcast double* %61 to <2 x double>*
  store <2 x double> <double 1.800000e+01, double 1.850000e+01>, <2 x double>* %62, align 16, !tbaa !5
  %63 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 38
  %64 = bitcast double* %63 to <2 x double>*
  store <2 x double> <double 1.900000e+01, double 1.950000e+01>, <2 x double>* %64, align 16, !tbaa !5
  %65 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 40
  %66 = bitcast double* %65 to <2 x double>*
  store <2 x double> <double 2.000000e+01, double 2.050000e+01>, <2 x double>* %66, align 16, !tbaa !5
  %67 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 42
  %68 = bitcast double* %67 to <2 x double>*
  store <2 x double> <double 2.100000e+01, double 2.150000e+01>, <2 x double>* %68, align 16, !tbaa !5
  %69 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 44
  %70 = bitcast double* %69 to <2 x double>*
  store <2 x double> <double 2.200000e+01, double 2.250000e+01>, <2 x double>* %70, align 16, !tbaa !5
  %71 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 46
  %72 = bitcast double* %71 to <2 x double>*
  store <2 x double> <double 2.300000e+01, double 2.350000e+01>, <2 x double>* %72, align 16, !tbaa !5
  %73 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 48
  %74 = bitcast double* %73 to <2 x double>*
  store <2 x double> <double 2.400000e+01, double 2.450000e+01>, <2 x double>* %74, align 16, !tbaa !5
  %75 = bitcast i32* %3 to i8*
  %76 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 0
  %77 = getelementptr inbounds [100 x i32], [100 x i32]* %1, i64 0, i64 0
  br label %80

78:                                               ; preds = %80
  %79 = tail call i32 (i8*, ...) @printf(i8* noundef nonnull dereferenceable(1) getelementptr inbounds ([15 x i8], [15 x i8]* @.str.6, i64 0, i64 0), i64 noundef %116, i32 noundef %118)
  call void @llvm.lifetime.end.p0i8(i64 400, i8* nonnull %5) #14
  call void @llvm.lifetime.end.p0i8(i64 400, i8* nonnull %4) #14
  ret void

80:                                               ; preds = %25, %80
  %81 = phi i64 [ 0, %25 ], [ %119, %80 ]
  %82 = phi i32 [ 0, %25 ], [ %118, %80 ]
  %83 = phi i64 [ 0, %25 ], [ %116, %80 ]
  call void @llvm.lifetime.start.p0i8(i64 4, i8* nonnull %75) #14
  %84 = trunc i64 %81 to i8
  %85 = urem i8 %84, 7
  %86 = sub nuw nsw i8 50, %85
  %87 = zext i8 %86 to i32
  %88 = call double @mean(double* noundef nonnull %76, i32 noundef %87)
  %89 = fptosi double %88 to i64
  %90 = urem i8 %84, 3
  %91 = zext i8 %90 to i64
  %92 = getelementptr inbounds [6 x i8], [6 x i8]* @.str.4, i64 0, i64 %91
  %93 = tail call i8* @skip_blanks(i8* noundef nonnull %92)
  %94 = ptrtoint i8* %93 to i64
  %95 = urem i8 %84, 120
  %96 = zext i8 %95 to i32
  %97 = call i32 @find(i32* noundef nonnull %77, i32 noundef 100, i32 noundef %96)
  %98 = sext i32 %97 to i64
  %99 = urem i8 %84, 5
  %100 = add nuw nsw i8 %99, 20
  %101 = zext i8 %100 to i32
  %102 = tail call i64 @nested(i32 noundef %101)
  %103 = zext i8 %99 to i64
  %104 = getelementptr inbounds [11 x i8], [11 x i8]* @.str.5, i64 0, i64 %103
  %105 = tail call i32 @classify(i8* noundef nonnull %104)
  %106 = sext i32 %105 to i64
  %107 = mul nuw nsw i64 %81, 40
  %108 = add nuw nsw i64 %107, 1000
  %109 = call i64 @last_over(i32* noundef nonnull %77, i32 noundef 100, i64 noundef %108, i32* noundef nonnull %3)
  %110 = sub i64 %83, ptrtoint ([6 x i8]* @.str.4 to i64)
  %111 = add i64 %110, %89
  %112 = add i64 %111, %94
  %113 = add i64 %112, %98
  %114 = add i64 %113, %102
  %115 = add i64 %114, %106
  %116 = add i64 %115, %109
  %117 = load i32, i32* %3, align 4, !tbaa !15
  %118 = add nsw i32 %117, %82
  call void @llvm.lifetime.end.p0i8(i64 4, i8* nonnull %75) #14
  %119 = add nuw nsw i64 %81, 1
  %120 = icmp eq i64 %119, 200
  br i1 %120, label %78, label %80, !llvm.loop !41

; uselistorder directives
  uselistorder [100 x i32]* %1, { 2, 0, 1, 3 }
  uselistorder [50 x double]* %2, { 25, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 0, 26 }
  uselistorder i64 %7, { 1, 0, 2 }
  uselistorder <4 x i16> %8, { 1, 0, 2 }
  uselistorder i64 %14, { 1, 0 }
  uselistorder label %80, { 1, 0 }
  uselistorder i64 %81, { 2, 1, 0 }
  uselistorder i8 %84, { 3, 2, 1, 0 }
  uselistorder i8 %99, { 1, 0 }
}
!30 = distinct !{!30, !10}
!31 = distinct !{!31, !12}
!32 = distinct !{!32, !12}
!33 = distinct !{!33, !12}
!34 = distinct !{!34, !12, !19}
!35 = distinct !{!35, !12}
!36 = distinct !{!36, !12, !22, !19}
!37 = distinct !{!37, !12}
!38 = distinct !{!38, !12}
!39 = distinct !{!39, !12}
!40 = distinct !{!40, !12, !19}
!41 = distinct !{!41, !12}
