; ModuleID = "s.c"
source_filename = "s.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@ptr = dso_local global void ()* @cb, align 8

; Function Attrs: nounwind uwtable
define internal void @cb() #0 {
  ret void
}

; Function Attrs: nounwind uwtable
define dso_local i32 @run(i32 noundef %0) #0 {
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !5
  %5 = bitcast i32* %3 to i8*
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %5) #2
  store i32 0, i32* %3, align 4, !tbaa !5
  %6 = bitcast i32* %4 to i8*
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %6) #2
  store i32 0, i32* %4, align 4, !tbaa !5
  br label %7

7:                                                ; preds = %18, %1
  %8 = load i32, i32* %4, align 4, !tbaa !5
  %9 = load i32, i32* %2, align 4, !tbaa !5
  %10 = icmp slt i32 %8, %9
  br i1 %10, label %13, label %11

11:                                               ; preds = %7
  %12 = bitcast i32* %4 to i8*
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %12) #2
  br label %21

13:                                               ; preds = %7
  %14 = load i32, i32* %4, align 4, !tbaa !5
  %15 = call i32 @sq(i32 noundef %14)
  %16 = load i32, i32* %3, align 4, !tbaa !5
  %17 = add nsw i32 %16, %15
  store i32 %17, i32* %3, align 4, !tbaa !5
  br label %18

18:                                               ; preds = %13
  %19 = load i32, i32* %4, align 4, !tbaa !5
  %20 = add nsw i32 %19, 1
  store i32 %20, i32* %4, align 4, !tbaa !5
  br label %7, !llvm.loop !9

21:                                               ; preds = %11
  %22 = load volatile void ()*, void ()** @ptr, align 8, !tbaa !11
  call void %22()
  %23 = load i32, i32* %3, align 4, !tbaa !5
  %24 = load i32, i32* %2, align 4, !tbaa !5
  %25 = call i32 @even(i32 noundef %24)
  %26 = add nsw i32 %23, %25
  %27 = bitcast i32* %3 to i8*
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %27) #2
  ret i32 %26
}

; Function Attrs: argmemonly nofree nosync nounwind willreturn
de; ModuleID = "s.c"
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
  call void @llvm.dbg.declare(metadata i32* %2, metadata !24, metadata !D]IExpression()), !dbg !32
  %5 = %4 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !28
  call void @llvm.dbg.declare(metadata i32* %2, metadata !24, metadata !D]IExpression()), !dbg !32
  %5 = bitcast i32* %3 to i8*, !dbg !33
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %5) #3, !dbg !33
  call void @llvm.dbg.declare(metadata i32* %3, met`data !25, metadata !DIExpression()), !dbg !34
  store i32 0, i32* %3, align 4, !dbg !34, !tbaa !28
  %6 = bitcast i32* %4 to i8*, !dbg !35
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %6) #3, !dbg !35
  call void @llvm.dbg.declare(metadata i32* %4, metadata !26, metadata !8 = load i32, i32* %4, align 4, !dbg !37, !tbaa !28
  %9 = load i32, i32* %2, align 4, !dbg !39, !tbaa !28
  %10 = icmp slt i32 %8clare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture) #1

; Function Attrs: nounwind uwtable
define internal i32 @sq(i32 noundef %0) #0 {
  %2 = alloca i32, align 4
  store i32 %0, i32* %2, align, %9, !dbg !40
  br i1 %10, label %13, label %11, !dbg !41

11:                                               ; preds = %7
  %12 = bitcast i32* %4 to i8*, !dbg !42
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %12) #3, !dbg !42
  br label %21

13:                                               ; preds = %7
  %14 = load i32, i32* %4, align 4, !dbg !43, !tbaa !28
  %15 = call i32 @sq(i3 4, !tbaa !5
  %3 = load i32, i32* %2, align 4, !tbaa !5
  %4 = load i32, i32* %2, align 4, !tbaa !5
  %5 = mul nsw i32 %3, %4
  ret i32 %5
}

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture) #1

; Function Attrs: nounwind uwtable
define internal i32 @even(i32 noundef %0) #0 {
  %2 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !5
  %3 = load i32, i32* %2, align 4, !tbaa !5
  %4 = icmp eq i32 %3, 0
  br i1 %4, label %5, label %6

5:                                                ; preds = %1
  br label %10

6:                                                ; preds = %1
  %7 = load i32, i32* %2, align 4, !tbaa !5
  %8 = sub nsw i32 %7, 1
  %9 = call i32 @odd(i32 noundef %8)
  br label %10

10:                                               ; preds = %6, %5
  %11 = phi i32 [ 1, %5 ], [ %9, %6 ]
  ret i32 %11
}

; Function Attrs: nounwind uwtable
define internal i32 @odd(i32 noundef %0) #0 {
  %2 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !5
  %3 = load i32, i32* %2, align 4, !tbaa !5
  %4 = icmp eq i32 %3, 0
  br i1 %4, label %5, label %6

5:                                                ; preds = %1
  br label %10

6:                                                ; preds = %1
  %7 = load i32, i32* %2, align 4, !tbaa !5
  %8 = sub nsw i32 %7, 1
  %9 = call i32 @even(i32 noundef %8)
  br label %10

10:                                               ; preds = %6, %5
  %11 = phi i32 [ 0, %5 ], [ %9, %6 ]
  ret i32 %11
}2 noundef %14), !dbg !44
  %16 = load i32, i32* %3, align 4, !dbg !45, !tbaa !28
  %17 = add nsw i32 %16, %15, !dbg !45
  store i32 %17, i32* %3, align 4, !dbg !45, !tbaa !28
  br label %18, !dbg !46

18:                                               ; preds = %13
  %19 = load i32, i32* %4, align 4, !dbg !47, !tbaa !28
  %20 = add nsw i32 %19, 1, !dbg !47
  store i32 %20, i32* %4, align 4, !dbg !47, !tbaa !28
  br label %7, !dbg !42, !llvm.loop !48

21:                                   

attributes #0 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "patchable-function-entry"="5" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
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
!9 =             ; preds = %11
  %22 = load volatile void ()*, void ()** @ptr, align 8, !dbg !51, !tbaa !52
  call void %22(), !dbg !51
  %23 = load i32, i32* %3, align 4, !dbg !54, !tbaa !28
  %24 = load i32, i32* %2, align 4, !dbg !55, !tbaa !28
  %25 = call i32 @even(i32 noundef %24), !dbg !56
  %26 = add ns%7, !dbg !35

7:     w i32 %23, %25, !dbg !57
  %27 = bitcast i32* %3 to i8*, !dbg !distinct !{!9, !10}
!10 = !{!"llvm.loop.mustprogress"}
!11 = !{!12, !12, i64 0}
!12 = !{!"any poin58
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %27) #3, !dbg !58
  ret i32 %26, !dbg !59
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1

; Function Attrs: argmemonly nofree nosync nounwind willreturnter", !7, i64 
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture) #20}

