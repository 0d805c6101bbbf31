; ModuleID = 'loops.c'
source_filename = "loops.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@table = dso_local global [64 x i32] zeroinitializer, align 16

; Function Attrs: nounwind uwtable
define dso_local i32 @sum2d(i32 noundef %0, i32 noundef %1) #0 {
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  store i32 %0, i32* %3, align 4, !tbaa !5
  store i32 %1, i32* %4, align 4, !tbaa !5
  %9 = bitcast i32* %5 to i8*
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %9) #2
  store i32 0, i32* %5, align 4, !tbaa !5
  %10 = bitcast i32* %6 to i8*
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %10) #2
  store i32 0, i32* %6, align 4, !tbaa !5
  br label %11

11:                                               ; preds = %41, %2
  %12 = load i32, i32* %6, align 4, !tbaa !5
  %13 = load i32, i32* %3, align 4, !tbaa !5
  %14 = icmp slt i32 %12, %13
  br i1 %14, label %17, label %15

15:                                               ; preds = %11
  store i32 2, i32* %7, align 4
  %16 = bitcast i32* %6 to i8*
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %16) #2
  br label %44

17:                                               ; preds = %11
  %18 = bitcast i32* %8 to i8*
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %18) #2
  store i32 0, i32* %8, align 4, !tbaa !5
  br label %19

19:                                               ; preds = %37, %17
  %20 = load i32, i32* %8, align 4, !tbaa !5
  %21 = load i32, i32* %4, align 4, !tbaa !5
  %22 = icmp slt i32 %20, %21
  br i1 %22, label %25, label %23

23:                                               ; preds = %19
  store i32 5, i32* %7, align 4
  %24 = bitcast i32* %8 to i8*
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %24) #2
  br label %40

25:                                               ; preds = %19
  %26 = load i32, i32* %6, align 4, !tbaa !5
  %27 = load i32, i32* %4, align 4, !tbaa !5
  %28 = mul nsw i32 %26, %27
  %29 = load i32, i32* %8, align 4, !tbaa !5
  %30 = add nsw i32 %28, %29
  %31 = and i32 %30, 63
  %32 = sext i32 %31 to i64
  %33 = getelementptr inbounds [64 x i32], [64 x i32]* @table, i64 0, i64 %32
  %34 = load i32, i32* %33, align 4, !tbaa !5
  %35 = load i32, i32* %5, align 4, !tbaa !5
  %36 = add nsw i32 %35, %34
  store i32 %36, i32* %5, align 4, !tbaa !5
  br label %37

37:                                               ; preds = %25
  %38 = load i32, i32* %8, align 4, !tbaa !5
  %39 = add nsw i32 %38, 1
  store i32 %39, i32* %8, align 4, !tbaa !5
  br label %19, !llvm.loop !9

40:                                               ; preds = %23
  br label %41

41:                                               ; preds = %40
  %42 = load i32, i32* %6, align 4, !tbaa !5
  %43 = add nsw i32 %42, 1
  store i32 %43, i32* %6, align 4, !tbaa !5
  br label %11, !llvm.loop !11

44:                                               ; preds = %15
  %45 = load i32, i32* %5, align 4, !tbaa !5
  store i32 1, i32* %7, align 4
  %46 = bitcast i32* %5 to i8*
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %46) #2
  ret i32 %45
}

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture) #1

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture) #1

; Function Attrs: nounwind uwtable
define dso_local i32 @popsum(i32 noundef %0) #0 {
  %2 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !5
  %3 = load i32, i32* %2, align 4, !tbaa !5
  %4 = call i32 @count_bits(i32 noundef %3)
  %5 = load i32, i32* %2, align 4, !tbaa !5
  %6 = xor i32 %5, -1
  %7 = call i32 @count_bits(i32 noundef %6)
  %8 = add nsw i32 %4, %7
  ret i32 %8
}

; Function Attrs: nounwind uwtable
define internal i32 @count_bits(i32 noundef %0) #0 {
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !5
  %4 = bitcast i32* %3 to i8*
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %4) #2
  store i32 0, i32* %3, align 4, !tbaa !5
  br label %5

5:                                                ; preds = %8, %1
  %6 = load i32, i32* %2, align 4, !tbaa !5
  %7 = icmp ne i32 %6, 0
  br i1 %7, label %8, label %15

8:                                                ; preds = %5
  %9 = load i32, i32* %2, align 4, !tbaa !5
  %10 = and i32 %9, 1
  %11 = load i32, i32* %3, align 4, !tbaa !5
  %12 = add i32 %11, %10
  store i32 %12, i32* %3, align 4, !tbaa !5
  %13 = load i32, i32* %2, align 4, !tbaa !5
  %14 = lshr i32 %13, 1
  store i32 %14, i32* %2, align 4, !tbaa !5
  br label %5, !llvm.loop !12

15:                                               ; preds = %5
  %16 = load i32, i32* %3, align 4, !tbaa !5
  %17 = bitcast i32* %3 to i8*
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %17) #2
  ret i32 %16
}

attributes #0 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { argmemonly nofree nosync nounwind willreturn }
attributes #2 = { nounwind }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 1}
!4 = !{!"Debian clang version 14.0.6"}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C/C++ TBAA"}
!9 = distinct !{!9, !10}
!10 = !{!"llvm.loop.mustprogress"}
!11 = distinct !{!11, !10}
!12 = distinct !{!12, !10}
; fuzz_ccbursty rewrites this at placement L10 without LP_CC_PIC (the size % 10 is 3).
