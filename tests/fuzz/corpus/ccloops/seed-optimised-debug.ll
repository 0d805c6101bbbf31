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
define dso_local double @mean(double* nocapture noundef readonly %0, i32 noundef %1) local_unnamed_addr #0 !dbg !15 {
  call void @llvm.dbg.value(metadata double* %0, metadata !24, metadata !DIExpression()), !dbg !29
  call void @llvm.dbg.value(metadata i32 %1, metadata !25, metadata !DIExpression()), !dbg !29
  call void @llvm.dbg.value(metadata double 0.000000e+00, metadata !26, metadata !DIExpression()), !dbg !29
  call void @llvm.dbg.value(metadata i32 0, metadata !27, metadata !DIExpression()), !dbg !30
  %3 = icmp sgt i32 %1, 0, !dbg !31
  br i1 %3, label %4, label %26, !dbg !33

4:                                                ; preds = %2
  %5 = zext i32 %1 to i64, !dbg !31
  %6 = add nsw i64 %5, -1, !dbg !33
  %7 = and i64 %5, 7, !dbg !33
  %8 = icmp ult i64 %6, 7, !dbg !33
  br i1 %8, label %11, label %9, !dbg !33

9:                                                ; preds = %4
  %10 = and i64 %5, 4294967288, !dbg !33
  br label %29, !dbg !33

11:                                               ; preds = %29, %4
  %12 = phi double [ undef, %4 ], [ %63, %29 ]
  %13 = phi i64 [ 0, %4 ], [ %64, %29 ]
  %14 = phi double [ 0.000000e+00, %4 ], [ %63, %29 ]
  %15 = icmp eq i64 %7, 0, !dbg !33
  br i1 %15, label %26, label %16, !dbg !33

16:                                               ; preds = %11, %16
  %17 = phi i64 [ %23, %16 ], [ %13, %11 ]
  %18 = phi double [ %22, %16 ], [ %14, %11 ]
  %19 = phi i64 [ %24, %16 ], [ 0, %11 ]
  call void @llvm.dbg.value(metadata i64 %17, metadata !27, metadata !DIExpression()), !dbg !30
  call void @llvm.dbg.value(metadata double %18, metadata !26, metadata !DIExpression()), !dbg !29
  %20 = getelementptr inbounds double, double* %0, i64 %17, !dbg !34
  %21 = load double, double* %20, align 8, !dbg !34, !tbaa !35
  %22 = fadd double %18, %21, !dbg !39
  call void @llvm.dbg.value(metadata double %22, metadata !26, metadata !DIExpression()), !dbg !29
  %23 = add nuw nsw i64 %17, 1, !dbg !40
  call void @llvm.dbg.value(metadata i64 %23, metadata !27, metadata !DIExpression()), !dbg !30
  %24 = add i64 %19, 1, !dbg !33
  %25 = icmp eq i64 %24, %7, !dbg !33
  br i1 %25, label %26, label %16, !dbg !33, !llvm.loop !41

26:                                               ; preds = %11, %16, %2
  %27 = phi double [ 0.000000e+00, %2 ], [ %12, %11 ], [ %22, %16 ], !dbg !29
  %28 = icmp eq i32 %1, 0, !dbg !43
  br i1 %28, label %70, label %67, !dbg !43

29:                                               ; preds = %29, %9
  %30 = phi i64 [ 0, %9 ], [ %64, %29 ]
  %31 = phi double [ 0.000000e+00, %9 ], [ %63, %29 ]
  %32 = phi i64 [ 0, %9 ], [ %65, %29 ]
  call void @llvm.dbg.value(metadata i64 %30, metadata !27, metadata !DIExpression()), !dbg !30
  call void @llvm.dbg.value(metadata double %31, metadata !26, metadata !DIExpression()), !dbg !29
  %33 = getelementptr inbounds double, double* %0, i64 %30, !dbg !34
  %34 = load double, double* %33, align 8, !dbg !34, !tbaa !35
  %35 = fadd double %31, %34, !dbg !39
  call void @llvm.dbg.value(metadata double %35, metadata !26, metadata !DIExpression()), !dbg !29
  %36 = or i64 %30, 1, !dbg !40
  call void @llvm.dbg.value(metadata i64 %36, metadata !27, metadata !DIExpression()), !dbg !30
  call void @llvm.dbg.value(metadata i64 %36, metadata !27, metadata !DIExpression()), !dbg !30
  call void @llvm.dbg.value(metadata double %35, metadata !26, metadata !DIExpression()), !dbg !29
  %37 = getelementptr inbounds double, double* %0, i64 %36, !dbg !34
  %38 = load double, double* %37, align 8, !dbg !34, !tbaa !35
  %39 = fadd double %35, %38, !dbg !39
  call void @llvm.dbg.value(metadata double %39, metadata !26, metadata !DIExpression()), !dbg !29
  %40 = or i64 %30, 2, !dbg !40
  call void @llvm.dbg.value(metadata i64 %40, metadata !27, metadata !DIExpression()), !dbg !30
  call void @llvm.dbg.value(metadata i64 %40, metadata !27, metadata !DIExpression()), !dbg !30
  call void @llvm.dbg.value(metadata double %39, metadata !26, metadata !DIExpression()), !dbg !29
  %41 = getelementptr inbounds double, double* %0, i64 %40, !dbg !34
  %42 = load double, double* %41, align 8, !dbg !34, !tbaa !35
  %43 = fadd double %39, %42, !dbg !39
  call void @llvm.dbg.value(metadata double %43, metadata !26, metadata !DIExpression()), !dbg !29
  %44 = or i64 %30, 3, !dbg !40
  call void @llvm.dbg.value(metadata i64 %44, metadata !27, metadata !DIExpression()), !dbg !30
  call void @llvm.dbg.value(metadata i64 %44, metadata !27, metadata !DIExpression()), !dbg !30
  call void @llvm.dbg.value(metadata double %43, metadata !26, metadata !DIExpression()), !dbg !29
  %45 = getelementptr inbounds double, double* %0, i64 %44, !dbg !34
  %46 = load double, double* %45, align 8, !dbg !34, !tbaa !35
  %47 = fadd double %43, %46, !dbg !39
  call void @llvm.dbg.value(metadata double %47, metadata !26, metadata !DIExpression()), !dbg !29
  %48 = or i64 %30, 4, !dbg !40
  call void @llvm.dbg.value(metadata i64 %48, metadata !27, metadata !DIExpression()), !dbg !30
  call void @llvm.dbg.value(metadata i64 %48, metadata !27, metadata !DIExpression()), !dbg !30
  call void @llvm.dbg.value(metadata double %47, metadata !26, metadata !DIExpression()), !dbg !29
  %49 = getelementptr inbounds double, double* %0, i64 %48, !dbg !34
  %50 = load double, double* %49, align 8, !dbg !34, !tbaa !35
  %51 = fadd double %47, %50, !dbg !39
  call void @llvm.dbg.value(metadata double %51, metadata !26, metadata !DIExpression()), !dbg !29
  %52 = or i64 %30, 5, !dbg !40
  call void @llvm.dbg.value(metadata i64 %52, metadata !27, metadata !DIExpression()), !dbg !30
  call void @llvm.dbg.value(metadata i64 %52, metadata !27, metadata !DIExpression()), !dbg !30
  call void @llvm.dbg.value(metadata double %51, metadata !26, metadata !DIExpression()), !dbg !29
  %53 = getelementptr inbounds double, double* %0, i64 %52, !dbg !34
  %54 = load double, double* %53, align 8, !dbg !34, !tbaa !35
  %55 = fadd double %51, %54, !dbg !39
  call void @llvm.dbg.value(metadata double %55, metadata !26, metadata !DIExpression()), !dbg !29
  %56 = or i64 %30, 6, !dbg !40
  call void @llvm.dbg.value(metadata i64 %56, metadata !27, metadata !DIExpression()), !dbg !30
  call void @llvm.dbg.value(metadata i64 %56, metadata !27, metadata !DIExpression()), !dbg !30
  call void @llvm.dbg.value(metadata double %55, metadata !26, metadata !DIExpression()), !dbg !29
  %57 = getelementptr inbounds double, double* %0, i64 %56, !dbg !34
  %58 = load double, double* %57, align 8, !dbg !34, !tbaa !35
  %59 = fadd double %55, %58, !dbg !39
  call void @llvm.dbg.value(metadata double %59, metadata !26, metadata !DIExpression()), !dbg !29
  %60 = or i64 %30, 7, !dbg !40
  call void @llvm.dbg.value(metadata i64 %60, metadata !27, metadata !DIExpression()), !dbg !30
  call void @llvm.dbg.value(metadata i64 %60, metadata !27, metadata !DIExpression()), !dbg !30
  call void @llvm.dbg.value(metadata double %59, metadata !26, metadata !DIExpression()), !dbg !29
  %61 = getelementptr inbounds double, double* %0, i64 %60, !dbg !34
  %62 = load double, double* %61, align 8, !dbg !34, !tbaa !35
  %63 = fadd double %59, %62, !dbg !39
  call void @llvm.dbg.value(metadata double %63, metadata !26, metadata !DIExpression()), !dbg !29
  %64 = add nuw nsw i64 %30, 8, !dbg !40
  call void @llvm.dbg.value(metadata i64 %64, metadata !27, metadata !DIExpression()), !dbg !30
  %65 = add i64 %32, 8, !dbg !33
  %66 = icmp eq i64 %65, %10, !dbg !33
  br i1 %66, label %11, label %29, !dbg !33, !llvm.loop !44

67:                                               ; preds = %26
  %68 = sitofp i32 %1 to double, !dbg !47
  %69 = fdiv double %27, %68, !dbg !48
  br label %70, !dbg !43

70:                                               ; preds = %26, %67
  %71 = phi double [ %69, %67 ], [ 0.000000e+00, %26 ], !dbg !43
  ret double %71, !dbg !49

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

; Function Attrs: mustprogress nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: argmemonly mustprogress nofree nosync nounwind willreturn
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture) #2

; Function Attrs: argmemonly mustprogress nofree nosync nounwind willreturn
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture) #2

; Function Attrs: nofree noinline norecurse nosync nounwind readonly uwtable
define dso_local i8* @skip_blanks(i8* noundef readonly %0) local_unnamed_addr #0 !dbg !50 {
  call void @llvm.dbg.value(metadata i8* %0, metadata !56, metadata !DIExpression()), !dbg !57
  br label %2, !dbg !58

2:                                                ; preds = %5, %1
  %3 = phi i8* [ %0, %1 ], [ %6, %5 ]
  call void @llvm.dbg.value(metadata i8* %3, metadata !56, metadata !DIExpression()), !dbg !57
  %4 = load i8, i8* %3, align 1, !dbg !59, !tbaa !60
  switch i8 %4, label %7 [
    i8 32, label %5
    i8 9, label %5
  ], !dbg !61

5:                                                ; preds = %2, %2
  %6 = getelementptr inbounds i8, i8* %3, i64 1, !dbg !62
  call void @llvm.dbg.value(metadata i8* %6, metadata !56, metadata !DIExpression()), !dbg !57
  br label %2, !dbg !58, !llvm.loop !63

7:                                                ; preds = %2
  ret i8* %3, !dbg !64
}

; Function Attrs: nofree noinline norecurse nosync nounwind readonly uwtable
define dso_local i32 @find(i32* nocapture noundef readonly %0, i32 noundef %1, i32 noundef %2) local_unnamed_addr #0 !dbg !65 {
  call void @llvm.dbg.value(metadata i32* %0, metadata !71, metadata !DIExpression()), !dbg !76
  call void @llvm.dbg.value(metadata i32 %1, metadata !72, metadata !DIExpression()), !dbg !76
  call void @llvm.dbg.value(metadata i32 %2, metadata !73, metadata !DIExpression()), !dbg !76
  call void @llvm.dbg.value(metadata i32 0, metadata !74, metadata !DIExpression()), !dbg !77
  %4 = icmp sgt i32 %1, 0, !dbg !78
  br i1 %4, label %5, label %17, !dbg !80

5:                                                ; preds = %3
  %6 = zext i32 %1 to i64, !dbg !78
  br label %7, !dbg !80

7:                                                ; preds = %5, %12
  %8 = phi i64 [ 0, %5 ], [ %13, %12 ]
  call void @llvm.dbg.value(metadata i64 %8, metadata !74, metadata !DIExpression()), !dbg !77
  %9 = getelementptr inbounds i32, i32* %0, i64 %8, !dbg !81
  %10 = load i32, i32* %9, align 4, !dbg !81, !tbaa !83
  %11 = icmp eq i32 %10, %2, !dbg !85
  br i1 %11, label %15, label %12, !dbg !86

12:                                               ; preds = %7
  %13 = add nuw nsw i64 %8, 1, !dbg !87
  call void @llvm.dbg.value(metadata i64 %13, metadata !74, metadata !DIExpression()), !dbg !77
  %14 = icmp eq i64 %13, %6, !dbg !78
  br i1 %14, label %17, label %7, !dbg !80, !llvm.loop !88

15:                                               ; preds = %7
  %16 = trunc i64 %8 to i32, !dbg !86
  br label %17, !dbg !90

17:                                               ; preds = %12, %15, %3
  %18 = phi i32 [ -1, %3 ], [ %16, %15 ], [ -1, %12 ]
  ret i32 %18, !dbg !90

; uselistorder directives
  uselistorder label %7, { 1, 0 }
  uselistorder i64 %8, { 0, 2, 1 }
  uselistorder label %17, { 1, 0, 2 }
}

; Function Attrs: nofree noinline norecurse nosync nounwind readnone uwtable
define dso_local i64 @nested(i32 noundef %0) local_unnamed_addr #3 !dbg !91 {
  call void @llvm.dbg.value(metadata i32 %0, metadata !95, metadata !DIExpression()), !dbg !102
  call void @llvm.dbg.value(metadata i64 0, metadata !96, metadata !DIExpression()), !dbg !102
  call void @llvm.dbg.value(metadata i32 0, metadata !97, metadata !DIExpression()), !dbg !103
  %2 = icmp sgt i32 %0, 0, !dbg !104
  br i1 %2, label %3, label %77, !dbg !105

3:                                                ; preds = %1, %79
  %4 = phi i32 [ %81, %79 ], [ 0, %1 ]
  %5 = phi i64 [ %80, %79 ], [ 0, %1 ]
  call void @llvm.dbg.value(metadata i32 %4, metadata !97, metadata !DIExpression()), !dbg !103
  call void @llvm.dbg.value(metadata i64 %5, metadata !96, metadata !DIExpression()), !dbg !102
  call void @llvm.dbg.value(metadata i32 0, metadata !99, metadata !DIExpression()), !dbg !106
  call void @llvm.dbg.value(metadata i64 %5, metadata !96, metadata !DIExpression()), !dbg !102
  %6 = and i32 %4, 2147483644, !dbg !107
  %7 = add nsw i32 %6, -4, !dbg !107
  %8 = lshr exact i32 %7, 2, !dbg !107
  %9 = add nuw nsw i32 %8, 1, !dbg !107
  %10 = icmp eq i32 %4, 0, !dbg !107
  br i1 %10, label %79, label %11, !dbg !109

11:                                               ; preds = %3
  %12 = icmp ult i32 %4, 4, !dbg !109
  br i1 %12, label %74, label %13, !dbg !109

13:                                               ; preds = %11
  %14 = and i32 %4, 2147483644, !dbg !109
  %15 = insertelement <2 x i64> <i64 poison, i64 0>, i64 %5, i64 0, !dbg !109
  %16 = insertelement <2 x i32> poison, i32 %4, i64 0, !dbg !109
  %17 = shufflevector <2 x i32> %16, <2 x i32> poison, <2 x i32> zeroinitializer, !dbg !109
  %18 = insertelement <2 x i32> poison, i32 %4, i64 0, !dbg !109
  %19 = shufflevector <2 x i32> %18, <2 x i32> poison, <2 x i32> zeroinitializer, !dbg !109
  %20 = and i32 %9, 1, !dbg !109
  %21 = icmp eq i32 %7, 0, !dbg !109
  br i1 %21, label %51, label %22, !dbg !109

22:                                               ; preds = %13
  %23 = and i32 %9, 2147483646, !dbg !109
  br label %24, !dbg !109

24:                                               ; preds = %24, %22
  %25 = phi <2 x i32> [ <i32 0, i32 1>, %22 ], [ %48, %24 ]
  %26 = phi <2 x i64> [ %15, %22 ], [ %46, %24 ]
  %27 = phi <2 x i64> [ zeroinitializer, %22 ], [ %47, %24 ]
  %28 = phi i32 [ 0, %22 ], [ %49, %24 ]
  %29 = add <2 x i32> %25, <i32 2, i32 2>
  %30 = xor <2 x i32> %25, %17, !dbg !110
  %31 = xor <2 x i32> %29, %19, !dbg !110
  %32 = and <2 x i32> %30, <i32 7, i32 7>, !dbg !111
  %33 = and <2 x i32> %31, <i32 7, i32 7>, !dbg !111
  %34 = zext <2 x i32> %32 to <2 x i64>
  %35 = zext <2 x i32> %33 to <2 x i64>
  %36 = add <2 x i64> %26, %34, !dbg !112
  %37 = add <2 x i64> %27, %35, !dbg !112
  %38 = add <2 x i32> %25, <i32 4, i32 4>
  %39 = add <2 x i32> %25, <i32 6, i32 6>
  %40 = xor <2 x i32> %38, %17, !dbg !110
  %41 = xor <2 x i32> %39, %19, !dbg !110
  %42 = and <2 x i32> %40, <i32 7, i32 7>, !dbg !111
  %43 = and <2 x i32> %41, <i32 7, i32 7>, !dbg !111
  %44 = zext <2 x i32> %42 to <2 x i64>
  %45 = zext <2 x i32> %43 to <2 x i64>
  %46 = add <2 x i64> %36, %44, !dbg !112
  %47 = add <2 x i64> %37, %45, !dbg !112
  %48 = add <2 x i32> %25, <i32 8, i32 8>
  %49 = add i32 %28, 2, !dbg !113
  %50 = icmp eq i32 %49, %23, !dbg !113
  br i1 %50, label %51, label %24, !dbg !113, !llvm.loop !114

51:                                               ; preds = %24, %13
  %52 = phi <2 x i64> [ undef, %13 ], [ %46, %24 ]
  %53 = phi <2 x i64> [ undef, %13 ], [ %47, %24 ]
  %54 = phi <2 x i32> [ <i32 0, i32 1>, %13 ], [ %48, %24 ]
  %55 = phi <2 x i64> [ %15, %13 ], [ %46, %24 ]
  %56 = phi <2 x i64> [ zeroinitializer, %13 ], [ %47, %24 ]
  %57 = icmp eq i32 %20, 0, !dbg !113
  br i1 %57, label %68, label %58, !dbg !113

58:                                               ; preds = %51
  %59 = add <2 x i32> %54, <i32 2, i32 2>
  %60 = xor <2 x i32> %54, %17, !dbg !110
  %61 = xor <2 x i32> %59, %19, !dbg !110
  %62 = and <2 x i32> %60, <i32 7, i32 7>, !dbg !111
  %63 = and <2 x i32> %61, <i32 7, i32 7>, !dbg !111
  %64 = zext <2 x i32> %62 to <2 x i64>
  %65 = zext <2 x i32> %63 to <2 x i64>
  %66 = add <2 x i64> %55, %64, !dbg !112
  %67 = add <2 x i64> %56, %65, !dbg !112
  br label %68, !dbg !109

68:                                               ; preds = %51, %58
  %69 = phi <2 x i64> [ %52, %51 ], [ %66, %58 ], !dbg !112
  %70 = phi <2 x i64> [ %53, %51 ], [ %67, %58 ], !dbg !112
  %71 = add <2 x i64> %70, %69, !dbg !109
  %72 = call i64 @llvm.vector.reduce.add.v2i64(<2 x i64> %71), !dbg !109
  %73 = icmp eq i32 %4, %14, !dbg !109
  br i1 %73, label %79, label %74, !dbg !109

74:                                               ; preds = %11, %68
  %75 = phi i32 [ 0, %11 ], [ %14, %68 ]
  %76 = phi i64 [ %5, %11 ], [ %72, %68 ]
  br label %83, !dbg !109

77:                                               ; preds = %79, %1
  %78 = phi i64 [ 0, %1 ], [ %80, %79 ], !dbg !117
  ret i64 %78, !dbg !118

79:                                               ; preds = %83, %68, %3
  %80 = phi i64 [ %5, %3 ], [ %72, %68 ], [ %89, %83 ], !dbg !102
  %81 = add nuw nsw i32 %4, 1, !dbg !119
  call void @llvm.dbg.value(metadata i32 %81, metadata !97, metadata !DIExpression()), !dbg !103
  call void @llvm.dbg.value(metadata i64 %80, metadata !96, metadata !DIExpression()), !dbg !102
  %82 = icmp eq i32 %81, %0, !dbg !104
  br i1 %82, label %77, label %3, !dbg !105, !llvm.loop !120

83:                                               ; preds = %74, %83
  %84 = phi i32 [ %90, %83 ], [ %75, %74 ]
  %85 = phi i64 [ %89, %83 ], [ %76, %74 ]
  call void @llvm.dbg.value(metadata i32 %84, metadata !99, metadata !DIExpression()), !dbg !106
  call void @llvm.dbg.value(metadata i64 %85, metadata !96, metadata !DIExpression()), !dbg !102
  %86 = xor i32 %84, %4, !dbg !110
  %87 = and i32 %86, 7, !dbg !111
  %88 = zext i32 %87 to i64
  %89 = add nsw i64 %85, %88, !dbg !112
  call void @llvm.dbg.value(metadata i64 %89, metadata !96, metadata !DIExpression()), !dbg !102
  %90 = add nuw nsw i32 %84, 1, !dbg !113
  call void @llvm.dbg.value(metadata i32 %90, metadata !99, metadata !DIExpression()), !dbg !106
  %91 = icmp eq i32 %90, %4, !dbg !107
  br i1 %91, label %79, label %83, !dbg !109, !llvm.loop !122

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
define dso_local i32 @classify(i8* nocapture noundef readonly %0) local_unnamed_addr #0 !dbg !124 {
  call void @llvm.dbg.value(metadata i8* %0, metadata !128, metadata !DIExpression()), !dbg !130
  call void @llvm.dbg.value(metadata i32 0, metadata !129, metadata !DIExpression()), !dbg !130
  %2 = load i8, i8* %0, align 1, !dbg !131, !tbaa !60
  %3 = icmp eq i8 %2, 0, !dbg !134
  br i1 %3, label %22, label %4, !dbg !134

4:                                                ; preds = %1, %17
  %5 = phi i8 [ %20, %17 ], [ %2, %1 ]
  %6 = phi i32 [ %18, %17 ], [ 0, %1 ]
  %7 = phi i8* [ %19, %17 ], [ %0, %1 ]
  call void @llvm.dbg.value(metadata i32 %6, metadata !129, metadata !DIExpression()), !dbg !130
  call void @llvm.dbg.value(metadata i8* %7, metadata !128, metadata !DIExpression()), !dbg !130
  %8 = sext i8 %5 to i32, !dbg !135
  switch i32 %8, label %15 [
    i32 97, label %9
    i32 98, label %11
    i32 99, label %13
  ], !dbg !136

9:                                                ; preds = %4
  %10 = add nsw i32 %6, 1, !dbg !137
  call void @llvm.dbg.value(metadata i32 %10, metadata !129, metadata !DIExpression()), !dbg !130
  br label %17, !dbg !139

11:                                               ; preds = %4
  %12 = shl nsw i32 %6, 1, !dbg !140
  call void @llvm.dbg.value(metadata i32 %12, metadata !129, metadata !DIExpression()), !dbg !130
  br label %17, !dbg !141

13:                                               ; preds = %4
  %14 = add nsw i32 %6, -3, !dbg !142
  call void @llvm.dbg.value(metadata i32 %14, metadata !129, metadata !DIExpression()), !dbg !130
  br label %17, !dbg !143

15:                                               ; preds = %4
  %16 = xor i32 %6, 1, !dbg !144
  call void @llvm.dbg.value(metadata i32 %16, metadata !129, metadata !DIExpression()), !dbg !130
  br label %17, !dbg !145

17:                                               ; preds = %9, %11, %13, %15
  %18 = phi i32 [ %16, %15 ], [ %14, %13 ], [ %12, %11 ], [ %10, %9 ], !dbg !146
  call void @llvm.dbg.value(metadata i32 %18, metadata !129, metadata !DIExpression()), !dbg !130
  %19 = getelementptr inbounds i8, i8* %7, i64 1, !dbg !147
  call void @llvm.dbg.value(metadata i8* %19, metadata !128, metadata !DIExpression()), !dbg !130
  %20 = load i8, i8* %19, align 1, !dbg !131, !tbaa !60
  %21 = icmp eq i8 %20, 0, !dbg !134
  br i1 %21, label %22, label %4, !dbg !134, !llvm.loop !148

22:                                               ; preds = %17, %1
  %23 = phi i32 [ 0, %1 ], [ %18, %17 ], !dbg !130
  ret i32 %23, !dbg !150

; uselistorder directives
  uselistorder label %4, { 1, 0 }
  uselistorder i32 %6, { 0, 2, 3, 1 }
  uselistorder label %17, { 3, 2, 1, 0 }
  uselistorder i8* %19, { 1, 0 }
  uselistorder i8 %20, { 1, 0 }
}

; Function Attrs: nofree noinline norecurse nosync nounwind uwtable
define dso_local i64 @last_over(i32* nocapture noundef readonly %0, i32 noundef %1, i64 noundef %2, i32* nocapture noundef writeonly %3) local_unnamed_addr #4 !dbg !151 {
  call void @llvm.dbg.value(metadata i32* %0, metadata !156, metadata !DIExpression()), !dbg !165
  call void @llvm.dbg.value(metadata i32 %1, metadata !157, metadata !DIExpression()), !dbg !165
  call void @llvm.dbg.value(metadata i64 %2, metadata !158, metadata !DIExpression()), !dbg !165
  call void @llvm.dbg.value(metadata i32* %3, metadata !159, metadata !DIExpression()), !dbg !165
  call void @llvm.dbg.value(metadata i64 0, metadata !160, metadata !DIExpression()), !dbg !165
  call void @llvm.dbg.value(metadata i32 0, metadata !161, metadata !DIExpression()), !dbg !165
  call void @llvm.dbg.value(metadata i32 0, metadata !162, metadata !DIExpression()), !dbg !165
  call void @llvm.dbg.value(metadata i32 0, metadata !163, metadata !DIExpression()), !dbg !166
  %5 = icmp sgt i32 %1, 0, !dbg !167
  br i1 %5, label %6, label %24, !dbg !169

6:                                                ; preds = %4
  %7 = zext i32 %1 to i64, !dbg !167
  br label %10, !dbg !169

8:                                                ; preds = %10
  call void @llvm.dbg.value(metadata i64 %19, metadata !163, metadata !DIExpression()), !dbg !166
  call void @llvm.dbg.value(metadata i32 0, metadata !162, metadata !DIExpression()), !dbg !165
  call void @llvm.dbg.value(metadata i32 %14, metadata !161, metadata !DIExpression()), !dbg !165
  call void @llvm.dbg.value(metadata i64 %17, metadata !160, metadata !DIExpression()), !dbg !165
  %9 = icmp eq i64 %19, %7, !dbg !167
  br i1 %9, label %20, label %10, !dbg !169, !llvm.loop !170

10:                                               ; preds = %6, %8
  %11 = phi i64 [ 0, %6 ], [ %19, %8 ]
  %12 = phi i64 [ 0, %6 ], [ %17, %8 ]
  call void @llvm.dbg.value(metadata i64 %11, metadata !163, metadata !DIExpression()), !dbg !166
  call void @llvm.dbg.value(metadata i64 %12, metadata !160, metadata !DIExpression()), !dbg !165
  %13 = getelementptr inbounds i32, i32* %0, i64 %11, !dbg !172
  %14 = load i32, i32* %13, align 4, !dbg !172, !tbaa !83
  %15 = tail call fastcc i32 @scaled(i32 noundef %14), !dbg !174
  %16 = sext i32 %15 to i64, !dbg !174
  %17 = add nsw i64 %12, %16, !dbg !175
  call void @llvm.dbg.value(metadata i64 %17, metadata !160, metadata !DIExpression()), !dbg !165
  call void @llvm.dbg.value(metadata i32 %14, metadata !161, metadata !DIExpression()), !dbg !165
  %18 = icmp sgt i64 %17, %2, !dbg !176
  call void @llvm.dbg.value(metadata i1 %18, metadata !162, metadata !DIExpression(DW_OP_LLVM_convert, 1, DW_ATE_unsigned, DW_OP_LLVM_convert, 32, DW_ATE_unsigned, DW_OP_stack_value)), !dbg !165
  %19 = add nuw nsw i64 %11, 1, !dbg !177
  call void @llvm.dbg.value(metadata i64 %19, metadata !163, metadata !DIExpression()), !dbg !166
  br i1 %18, label %20, label %8, !dbg !178

20:                                               ; preds = %10, %8
  %21 = phi i32 [ 0, %8 ], [ 1, %10 ]
  %22 = sext i32 %14 to i64, !dbg !179
  %23 = add nsw i64 %17, %22, !dbg !179
  br label %24, !dbg !179

24:                                               ; preds = %20, %4
  %25 = phi i32 [ 0, %4 ], [ %21, %20 ], !dbg !165
  %26 = phi i64 [ 0, %4 ], [ %23, %20 ], !dbg !180
  call void @llvm.dbg.value(metadata i32 %25, metadata !162, metadata !DIExpression()), !dbg !165
  call void @llvm.dbg.value(metadata i32 undef, metadata !161, metadata !DIExpression()), !dbg !165
  call void @llvm.dbg.value(metadata i64 undef, metadata !160, metadata !DIExpression()), !dbg !165
  store i32 %25, i32* %3, align 4, !dbg !179, !tbaa !83
  ret i64 %26, !dbg !181

; uselistorder directives
  uselistorder label %10, { 1, 0 }
  uselistorder i64 %11, { 1, 0 }
  uselistorder i64 %17, { 0, 2, 1 }
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind readnone uwtable willreturn
define internal fastcc i32 @scaled(i32 noundef %0) unnamed_addr #5 !dbg !182 {
  call void @llvm.dbg.value(metadata i32 %0, metadata !186, metadata !DIExpression()), !dbg !187
  %2 = mul nsw i32 %0, 7, !dbg !188
  %3 = ashr i32 %0, 3, !dbg !189
  %4 = add nsw i32 %2, %3, !dbg !190
  ret i32 %4, !dbg !191

; uselistorder directives
  uselistorder i32 %0, { 1, 0 }
}

; Function Attrs: nounwind uwtable
define dso_local i32 @main(i32 noundef %0, i8** nocapture noundef readonly %1) local_unnamed_addr #6 !dbg !192 {
  call void @llvm.dbg.value(metadata i32 %0, metadata !196, metadata !DIExpression()), !dbg !203
  call void @llvm.dbg.value(metadata i8** %1, metadata !197, metadata !DIExpression()), !dbg !203
  %3 = icmp sgt i32 %0, 1, !dbg !204
  br i1 %3, label %4, label %27, !dbg !206

4:                                                ; preds = %2
  %5 = getelementptr inbounds i8*, i8** %1, i64 1, !dbg !207
  %6 = load i8*, i8** %5, align 8, !dbg !207, !tbaa !208
  %7 = tail call i32 @strcmp(i8* noundef nonnull dereferenceable(1) %6, i8* noundef nonnull dereferenceable(7) getelementptr inbounds ([7 x i8], [7 x i8]* @.str, i64 0, i64 0)) #15, !dbg !210
  %8 = icmp eq i32 %7, 0, !dbg !211
  br i1 %8, label %9, label %10, !dbg !212

9:                                                ; preds = %4
  tail call fastcc void @shapes(), !dbg !213
  br label %30, !dbg !214

10:                                               ; preds = %4
  %11 = icmp ugt i32 %0, 2, !dbg !215
  br i1 %11, label %12, label %27, !dbg !216

12:                                               ; preds = %10
  %13 = tail call i32 @strcmp(i8* noundef nonnull dereferenceable(1) %6, i8* noundef nonnull dereferenceable(5) getelementptr inbounds ([5 x i8], [5 x i8]* @.str.1, i64 0, i64 0)) #15, !dbg !217
  %14 = icmp eq i32 %13, 0, !dbg !218
  br i1 %14, label %15, label %27, !dbg !219

15:                                               ; preds = %12
  %16 = getelementptr inbounds i8*, i8** %1, i64 2, !dbg !220
  %17 = load i8*, i8** %16, align 8, !dbg !220, !tbaa !208
  call void @llvm.dbg.value(metadata i8* %17, metadata !221, metadata !DIExpression()) #16, !dbg !227
  %18 = tail call i64 @strtol(i8* nocapture noundef nonnull %17, i8** noundef null, i32 noundef 10) #16, !dbg !229
  call void @llvm.dbg.value(metadata i64 %18, metadata !198, metadata !DIExpression()), !dbg !230
  call void @llvm.dbg.value(metadata i64 0, metadata !201, metadata !DIExpression()), !dbg !231
  %19 = icmp sgt i64 %18, 0, !dbg !232
  br i1 %19, label %23, label %20, !dbg !234

20:                                               ; preds = %23, %15
  %21 = tail call i32 @lp_probe_sites() #16, !dbg !235
  %22 = tail call i32 (i8*, ...) @printf(i8* noundef nonnull dereferenceable(1) getelementptr inbounds ([10 x i8], [10 x i8]* @.str.2, i64 0, i64 0), i32 noundef %21), !dbg !236
  br label %30

23:                                               ; preds = %15, %23
  %24 = phi i64 [ %25, %23 ], [ 0, %15 ]
  call void @llvm.dbg.value(metadata i64 %24, metadata !201, metadata !DIExpression()), !dbg !231
  tail call void @lp_probe() #16, !dbg !237
  %25 = add nuw nsw i64 %24, 1, !dbg !238
  call void @llvm.dbg.value(metadata i64 %25, metadata !201, metadata !DIExpression()), !dbg !231
  %26 = icmp eq i64 %25, %18, !dbg !232
  br i1 %26, label %20, label %23, !dbg !234, !llvm.loop !239

27:                                               ; preds = %2, %12, %10
  %28 = load %struct._IO_FILE*, %struct._IO_FILE** @stderr, align 8, !dbg !241, !tbaa !208
  %29 = tail call i64 @fwrite(i8* getelementptr inbounds ([33 x i8], [33 x i8]* @.str.3, i64 0, i64 0), i64 32, i64 1, %struct._IO_FILE* %28) #17, !dbg !242
  br label %30, !dbg !243

30:                                               ; preds = %27, %20, %9
  %31 = phi i32 [ 0, %9 ], [ 0, %20 ], [ 2, %27 ], !dbg !203
  ret i32 %31, !dbg !244

; uselistorder directives
  uselistorder i32 %0, { 1, 0 }
  uselistorder i8** %1, { 1, 0 }
  uselistorder label %23, { 1, 0 }
  uselistorder label %27, { 1, 2, 0 }
}

; Function Attrs: argmemonly mustprogress nofree nounwind readonly willreturn
declare i32 @strcmp(i8* nocapture noundef, i8* nocapture noundef) local_unnamed_addr #7

; Function Attrs: nofree noinline nounwind uwtable
define internal fastcc void @shapes() unnamed_addr #8 !dbg !245 {
  %1 = alloca [100 x i32], align 16
  %2 = alloca [50 x double], align 16
  %3 = alloca i32, align 4
  %4 = bitcast [100 x i32]* %1 to i8*, !dbg !268
  call void @llvm.lifetime.start.p0i8(i64 400, i8* nonnull %4) #16, !dbg !268
  call void @llvm.dbg.declare(metadata [100 x i32]* %1, metadata !249, metadata !DIExpression()), !dbg !269
  %5 = bitcast [50 x double]* %2 to i8*, !dbg !270
  call void @llvm.lifetime.start.p0i8(i64 400, i8* nonnull %5) #16, !dbg !270
  call void @llvm.dbg.declare(metadata [50 x double]* %2, metadata !253, metadata !DIExpression()), !dbg !271
  call void @llvm.dbg.value(metadata i32 0, metadata !257, metadata !DIExpression()), !dbg !272
  br label %6, !dbg !273

6:                                                ; preds = %16, %0
  %7 = phi i64 [ 0, %0 ], [ %23, %16 ], !dbg !274
  %8 = phi <4 x i16> [ <i16 0, i16 1, i16 2, i16 3>, %0 ], [ %24, %16 ], !dbg !276
  %9 = mul <4 x i16> %8, <i16 37, i16 37, i16 37, i16 37>, !dbg !276
  %10 = urem <4 x i16> %9, <i16 101, i16 101, i16 101, i16 101>, !dbg !276
  %11 = zext <4 x i16> %10 to <4 x i32>, !dbg !276
  %12 = getelementptr inbounds [100 x i32], [100 x i32]* %1, i64 0, i64 %7, !dbg !274
  %13 = bitcast i32* %12 to <4 x i32>*, !dbg !277
  store <4 x i32> %11, <4 x i32>* %13, align 16, !dbg !277, !tbaa !83
  %14 = or i64 %7, 4, !dbg !274
  %15 = icmp eq i64 %14, 100, !dbg !274
  br i1 %15, label %25, label %16, !dbg !274, !llvm.loop !278

16:                                               ; preds = %6
  %17 = mul <4 x i16> %8, <i16 37, i16 37, i16 37, i16 37>, !dbg !276
  %18 = add <4 x i16> %17, <i16 148, i16 148, i16 148, i16 148>, !dbg !276
  %19 = urem <4 x i16> %18, <i16 101, i16 101, i16 101, i16 101>, !dbg !276
  %20 = zext <4 x i16> %19 to <4 x i32>, !dbg !276
  %21 = getelementptr inbounds [100 x i32], [100 x i32]* %1, i64 0, i64 %14, !dbg !274
  %22 = bitcast i32* %21 to <4 x i32>*, !dbg !277
  store <4 x i32> %20, <4 x i32>* %22, align 16, !dbg !277, !tbaa !83
  %23 = add nuw nsw i64 %7, 8, !dbg !274
  %24 = add <4 x i16> %8, <i16 8, i16 8, i16 8, i16 8>, !dbg !276
  br label %6

25:                                               ; preds = %6
  %26 = bitcast [50 x double]* %2 to <2 x double>*, !dbg !280
  store <2 x double> <double 0.000000e+00, double 5.000000e-01>, <2 x double>* %26, align 16, !dbg !280, !tbaa !35
  %27 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 2, !dbg !282
  %28 = bitcast double* %27 to <2 x double>*, !dbg !280
  store <2 x double> <double 1.000000e+00, double 1.500000e+00>, <2 x double>* %28, align 16, !dbg !280, !tbaa !35
  %29 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 4, !dbg !282
  %30 = bitcast double* %29 to <2 x double>*, !dbg !280
  store <2 x double> <double 2.000000e+00, double 2.500000e+00>, <2 x double>* %30, align 16, !dbg !280, !tbaa !35
  %31 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 6, !dbg !282
  %32 = bitcast double* %31 to <2 x double>*, !dbg !280
  store <2 x double> <double 3.000000e+00, double 3.500000e+00>, <2 x double>* %32, align 16, !dbg !280, !tbaa !35
  %33 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 8, !dbg !282
  %34 = bitcast double* %33 to <2 x double>*, !dbg !280
  store <2 x double> <double 4.000000e+00, double 4.500000e+00>, <2 x double>* %34, align 16, !dbg !280, !tbaa !35
  %35 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 10, !dbg !282
  %36 = bitcast double* %35 to <2 x double>*, !dbg !280
  store <2 x double> <double 5.000000e+00, double 5.500000e+00>, <2 x double>* %36, align 16, !dbg !280, !tbaa !35
  %37 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 12, !dbg !282
  %38 = bitcast double* %37 to <2 x double>*, !dbg !280
  store <2 x double> <double 6.000000e+00, double 6.500000e+00>, <2 x double>* %38, align 16, !dbg !280, !tbaa !35
  %39 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 14, !dbg !282
  %40 = bitcast double* %39 to <2 x double>*, !dbg !280
  store <2 x double> <double 7.000000e+00, double 7.500000e+00>, <2 x double>* %40, align 16, !dbg !280, !tbaa !35
  %41 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 16, !dbg !282
  %42 = bitcast double* %41 to <2 x double>*, !dbg !280
  store <2 x double> <double 8.000000e+00, double 8.500000e+00>, <2 x double>* %42, align 16, !dbg !280, !tbaa !35
  %43 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 18, !dbg !282
  %44 = bitcast double* %43 to <2 x double>*, !dbg !280
  store <2 x double> <double 9.000000e+00, double 9.500000e+00>, <2 x double>* %44, align 16, !dbg !280, !tbaa !35
  %45 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 20, !dbg !282
  %46 = bitcast double* %45 to <2 x double>*, !dbg !280
  store <2 x double> <double 1.000000e+01, double 1.050000e+01>, <2 x double>* %46, align 16, !dbg !280, !tbaa !35
  %47 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 22, !dbg !282
  %48 = bitcast double* %47 to <2 x double>*, !dbg !280
  store <2 x double> <double 1.100000e+01, double 1.150000e+01>, <2 x double>* %48, align 16, !dbg !280, !tbaa !35
  %49 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 24, !dbg !282
  %50 = bitcast double* %49 to <2 x double>*, !dbg !280
  store <2 x double> <double 1.200000e+01, double 1.250000e+01>, <2 x double>* %50, align 16, !dbg !280, !tbaa !35
  %51 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 26, !dbg !282
  %52 = bitcast double* %51 to <2 x double>*, !dbg !280
  store <2 x double> <double 1.300000e+01, double 1.350000e+01>, <2 x double>* %52, align 16, !dbg !280, !tbaa !35
  %53 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 28, !dbg !282
  %54 = bitcast double* %53 to <2 x double>*, !dbg !280
  store <2 x double> <double 1.400000e+01, double 1.450000e+01>, <2 x double>* %54, align 16, !dbg !280, !tbaa !35
  %55 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 30, !dbg !282
  %56 = bitcast double* %55 to <2 x double>*, !dbg !280
  store <2 x double> <double 1.500000e+01, double 1.550000e+01>, <2 x double>* %56, align 16, !dbg !280, !tbaa !35
  %57 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 32, !dbg !282
  %58 = bitcast double* %57 to <2 x double>*, !dbg !280
  store <2 x double> <double 1.600000e+01, double 1.650000e+01>, <2 x double>* %58, align 16, !dbg !280, !tbaa !35
  %59 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 34, !dbg !282
  %60 = bitcast double* %59 to <2 x double>*, !dbg !280
  store <2 x double> <double 1.700000e+01, double 1.750000e+01>, <2 x double>* %60, align 16, !dbg !280, !tbaa !35
  %61 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 36, !dbg !282
  %62 = bitcast double* %61 to <2 x double>*, !dbg !280
  store <2 x double> <double 1.800000e+01, double 1.850000e+01>, <2 x double>* %62, align 16, !dbg !280, !tbaa !35
  %63 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 38, !dbg !282
  %64 = bitcast double* %63 to <2 x double>*, !dbg !280
  store <2 x double> <double 1.900000e+01, double 1.950000e+01>, <2 x double>* %64, align 16, !dbg !280, !tbaa !35
  %65 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 40, !dbg !282
  %66 = bitcast double* %65 to <2 x double>*, !dbg !280
  store <2 x double> <double 2.000000e+01, double 2.050000e+01>, <2 x double>* %66, align 16, !dbg !280, !tbaa !35
  %67 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 42, !dbg !282
  %68 = bitcast double* %67 to <2 x double>*, !dbg !280
  store <2 x double> <double 2.100000e+01, double 2.150000e+01>, <2 x double>* %68, align 16, !dbg !280, !tbaa !35
  %69 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 44, !dbg !282
  %70 = bitcast double* %69 to <2 x double>*, !dbg !280
  store <2 x double> <double 2.200000e+01, double 2.250000e+01>, <2 x double>* %70, align 16, !dbg !280, !tbaa !35
  %71 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 46, !dbg !282
  %72 = bitcast double* %71 to <2 x double>*, !dbg !280
  store <2 x double> <double 2.300000e+01, double 2.350000e+01>, <2 x double>* %72, align 16, !dbg !280, !tbaa !35
  %73 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 48, !dbg !282
  %74 = bitcast double* %73 to <2 x double>*, !dbg !280
  store <2 x double> <double 2.400000e+01, double 2.450000e+01>, <2 x double>* %74, align 16, !dbg !280, !tbaa !35
  %75 = bitcast i32* %3 to i8*
  %76 = getelementptr inbounds [50 x double], [50 x double]* %2, i64 0, i64 0
  call void @llvm.dbg.value(metadata i32 0, metadata !263, metadata !DIExpression()), !dbg !283
  call void @llvm.dbg.value(metadata i32 0, metadata !262, metadata !DIExpression()), !dbg !284
  call void @llvm.dbg.value(metadata i64 0, metadata !261, metadata !DIExpression()), !dbg !284
  %77 = getelementptr inbounds [100 x i32], [100 x