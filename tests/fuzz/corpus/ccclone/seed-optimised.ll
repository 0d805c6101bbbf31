; ModuleID = 'seed.c'
source_filename = "seed.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree nounwind uwtable
define dso_local i32 @run(i32* noundef %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = icmp sgt i32 %1, 0
  br i1 %3, label %4, label %79

4:                                                ; preds = %2
  %5 = zext i32 %1 to i64
  %6 = icmp ult i32 %1, 8
  br i1 %6, label %76, label %7

7:                                                ; preds = %4
  %8 = and i64 %5, 4294967288
  %9 = add nsw i64 %8, -8
  %10 = lshr exact i64 %9, 3
  %11 = add nuw nsw i64 %10, 1
  %12 = and i64 %11, 1
  %13 = icmp eq i64 %9, 0
  br i1 %13, label %52, label %14

14:                                               ; preds = %7
  %15 = and i64 %11, 4611686018427387902
  br label %16

16:                                               ; preds = %16, %14
  %17 = phi i64 [ 0, %14 ], [ %46, %16 ]
  %18 = phi <4 x i32> [ zeroinitializer, %14 ], [ %44, %16 ]
  %19 = phi <4 x i32> [ zeroinitializer, %14 ], [ %45, %16 ]
  %20 = phi i64 [ 0, %14 ], [ %47, %16 ]
  %21 = getelementptr inbounds i32, i32* %0, i64 %17
  %22 = bitcast i32* %21 to <4 x i32>*
  %23 = load <4 x i32>, <4 x i32>* %22, align 4, !tbaa !5
  %24 = getelementptr inbounds i32, i32* %21, i64 4
  %25 = bitcast i32* %24 to <4 x i32>*
  %26 = load <4 x i32>, <4 x i32>* %25, align 4, !tbaa !5
  %27 = mul nsw <4 x i32> %23, %23
  %28 = mul nsw <4 x i32> %26, %26
  %29 = add <4 x i32> %18, <i32 1, i32 1, i32 1, i32 1>
  %30 = add <4 x i32> %19, <i32 1, i32 1, i32 1, i32 1>
  %31 = add <4 x i32> %29, %27
  %32 = add <4 x i32> %30, %28
  %33 = or i64 %17, 8
  %34 = getelementptr inbounds i32, i32* %0, i64 %33
  %35 = bitcast i32* %34 to <4 x i32>*
  %36 = load <4 x i32>, <4 x i32>* %35, align 4, !tbaa !5
  %37 = getelementptr inbounds i32, i32* %34, i64 4
  %38 = bitcast i32* %37 to <4 x i32>*
  %39 = load <4 x i32>, <4 x i32>* %38, align 4, !tbaa !5
  %40 = mul nsw <4 x i32> %36, %36
  %41 = mul nsw <4 x i32> %39, %39
  %42 = add <4 x i32> %31, <i32 1, i32 1, i32 1, i32 1>
  %43 = add <4 x i32> %32, <i32 1, i32 1, i32 1, i32 1>
  %44 = add <4 x i32> %42, %40
  %45 = add <4 x i32> %43, %41
  %46 = add nuw i64 %17, 16
  %47 = add i64 %20, 2
  %48 = icmp eq i64 %47, %15
  br i1 %48, label %49, label %16, !llvm.loop !9

49:                                               ; preds = %16
  %50 = add <4 x i32> %44, <i32 1, i32 1, i32 1, i32 1>
  %51 = add <4 x i32> %45, <i32 1, i32 1, i32 1, i32 1>
  br label %52

52:                                               ; preds = %49, %7
  %53 = phi <4 x i32> [ undef, %7 ], [ %44, %49 ]
  %54 = phi <4 x i32> [ undef, %7 ], [ %45, %49 ]
  %55 = phi i64 [ 0, %7 ], [ %46, %49 ]
  %56 = phi <4 x i32> [ <i32 1, i32 1, i32 1, i32 1>, %7 ], [ %50, %49 ]
  %57 = phi <4 x i32> [ <i32 1, i32 1, i32 1, i32 1>, %7 ], [ %51, %49 ]
  %58 = icmp eq i64 %12, 0
  br i1 %58, label %70, label %59

59:                                               ; preds = %52
  %60 = getelementptr inbounds i32, i32* %0, i64 %55
  %61 = bitcast i32* %60 to <4 x i32>*
  %62 = load <4 x i32>, <4 x i32>* %61, align 4, !tbaa !5
  %63 = getelementptr inbounds i32, i32* %60, i64 4
  %64 = bitcast i32* %63 to <4 x i32>*
  %65 = load <4 x i32>, <4 x i32>* %64, align 4, !tbaa !5
  %66 = mul nsw <4 x i32> %62, %62
  %67 = mul nsw <4 x i32> %65, %65
  %68 = add <4 x i32> %56, %66
  %69 = add <4 x i32> %57, %67
  br label %70

70:                                               ; preds = %52, %59
  %71 = phi <4 x i32> [ %53, %52 ], [ %68, %59 ]
  %72 = phi <4 x i32> [ %54, %52 ], [ %69, %59 ]
  %73 = add <4 x i32> %72, %71
  %74 = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %73)
  %75 = icmp eq i64 %8, %5
  br i1 %75, label %79, label %76

76:                                               ; preds = %4, %70
  %77 = phi i64 [ 0, %4 ], [ %8, %70 ]
  %78 = phi i32 [ 0, %4 ], [ %74, %70 ]
  br label %91

79:                                               ; preds = %91, %70, %2
  %80 = phi i32 [ 0, %2 ], [ %74, %70 ], [ %98, %91 ]
  %81 = bitcast i32* %0 to i8*
  %82 = sext i32 %1 to i64
  tail call void @qsort(i8* noundef %81, i64 noundef %82, i64 noundef 4, i32 (i8*, i8*)* noundef nonnull @cmp) #4
  br label %83

83:                                               ; preds = %85, %79
  %84 = phi i32 [ %1, %79 ], [ %86, %85 ]
  switch i32 %84, label %85 [
    i32 0, label %87
    i32 1, label %88
  ]

85:                                               ; preds = %83
  %86 = add nsw i32 %84, -2
  br label %83

87:                                               ; preds = %83
  br label %88

88:                                               ; preds = %83, %87
  %89 = phi i32 [ 1, %87 ], [ 0, %83 ]
  %90 = add nuw nsw i32 %89, %80
  ret i32 %90

91:                                               ; preds = %76, %91
  %92 = phi i64 [ %99, %91 ], [ %77, %76 ]
  %93 = phi i32 [ %98, %91 ], [ %78, %76 ]
  %94 = getelementptr inbounds i32, i32* %0, i64 %92
  %95 = load i32, i32* %94, align 4, !tbaa !5
  %96 = mul nsw i32 %95, %95
  %97 = add i32 %93, 1
  %98 = add i32 %97, %96
  %99 = add nuw nsw i64 %92, 1
  %100 = icmp eq i64 %99, %5
  br i1 %100, label %79, label %91, !llvm.loop !12

; uselistorder directives
  uselistorder i32* %0, { 3, 4, 1, 0, 2 }
  uselistorder i32 %1, { 3, 4, 0, 1, 2 }
  uselistorder i64 %5, { 2, 1, 0 }
  uselistorder i64 %8, { 1, 2, 0 }
  uselistorder i64 %17, { 1, 0, 2 }
  uselistorder i32* %21, { 1, 0 }
  uselistorder <4 x i32> %44, { 1, 0, 2 }
  uselistorder <4 x i32> %45, { 1, 0, 2 }
  uselistorder i64 %47, { 1, 0 }
  uselistorder label %70, { 1, 0 }
  uselistorder i32 %74, { 1, 0 }
  uselistorder label %76, { 1, 0 }
  uselistorder i32 %84, { 1, 0 }
  uselistorder label %88, { 1, 0 }
  uselistorder label %91, { 1, 0 }
  uselistorder i64 %92, { 1, 0 }
  uselistorder i64 %99, { 1, 0 }
}

; Function Attrs: nofree
declare void @qsort(i8* noundef, i64 noundef, i64 noundef, i32 (i8*, i8*)* nocapture noundef) local_unnamed_addr #1

; Function Attrs: mustprogress nofree norecurse nosync nounwind readonly uwtable willreturn
define internal i32 @cmp(i8* nocapture noundef readonly %0, i8* nocapture noundef readonly %1) #2 {
  %3 = bitcast i8* %0 to i32*
  %4 = load i32, i32* %3, align 4, !tbaa !5
  %5 = bitcast i8* %1 to i32*
  %6 = load i32, i32* %5, align 4, !tbaa !5
  %7 = sub nsw i32 %4, %6
  ret i32 %7
}

; Function Attrs: nofree nosync nounwind readnone willreturn
declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>) #3

; uselistorder directives
uselistorder i32 0, { 0, 4, 2, 1, 3 }
uselistorder i64 1, { 2, 0, 1 }
uselistorder i64 0, { 4, 2, 3, 1, 5, 0 }
uselistorder i64 4, { 3, 1, 0, 2 }
uselistorder <4 x i32> <i32 1, i32 1, i32 1, i32 1>, { 1, 3, 0, 2, 4, 5, 6, 7 }
uselistorder i32 1, { 1, 0, 2 }

attributes #0 = { nofree nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "patchable-function-entry"="5" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { mustprogress nofree norecurse nosync nounwind readonly uwtable willreturn "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "patchable-function-entry"="5" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nofree nosync nounwind readnone willreturn }
attributes #4 = { nounwind }

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
!9 = distinct !{!9, !10, !11}
!10 = !{!"llvm.loop.mustprogress"}
!11 = !{!"llvm.loop.isvectorized", i32 1}
!12 = distinct !{!12, !10, !13, !11}
!13 = !{!"llvm.loop.unroll.runtime.disable"}
