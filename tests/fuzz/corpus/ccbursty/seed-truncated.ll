; ModuleID = 'loops.c'
source_filename = "loops.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@table = dso_local global [64 x i32] zeroinitializer, align 16, !dbg !0

; Function Attrs: nounwind uwtable
define dso_local i32 @sum2d(i32 noundef %0, i32 noundef %1) #0 !dbg !16 {
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  store i32 %0, i32* %3, align 4, !tbaa !28
  call void @llvm.dbg.declare(metadata i32* %3, metadata !20, metadata !DIExpression()), !dbg !32
  store i32 %1, i32* %4, align 4, !tbaa !28
  call void @llvm.dbg.declare(metadata i32* %4, metadata !21, metadata !DIExpression()), !dbg !33
  %9 = bitcast i32* %5 to i8*, !dbg !34
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %9) #3, !dbg !34
  call void @llvm.dbg.declare(metadata i32* %5, metadata !22, metadata !DIExpression()), !dbg !35
  store i32 0, i32* %5, align 4, !dbg !35, !tbaa !28
  %10 = bitcast i32* %6 to i8*, !dbg !36
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %10) #3, !dbg !36
  call void @llvm.dbg.declare(metadata i32* %6, metadata !23, metadata !DIExpression()), !dbg !37
  store i32 0, i32* %6, align 4, !dbg !37, !tbaa !28
  br label %11, !dbg !36

11:                                               ; preds = %41, %2
  %12 = load i32, i32* %6, align 4, !dbg !38, !tbaa !28
  %13 = load i32, i32* %3, align 4, !dbg !39, !tbaa !28
  %14 = icmp slt i32 %12, %13, !dbg !40
  br i1 %14, label %17, label %15, !dbg !41

15:                                               ; preds = %11
  store i32 2, i32* %7, align 4
  %16 = bitcast i32* %6 to i8*, !dbg !42
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %16) #3, !dbg !42
  br label %44

17:                                               ; preds = %11
  %18 = bitcast i32* %8 to i8*, !dbg !43
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %18) #3, !dbg !43
  call void @llvm.dbg.declare(metadata i32* %8, metadata !25, metadata !DIExpression()), !dbg !44
  store i32 0, i32* %8, align 4, !dbg !44, !tbaa !28
  br label %19, !dbg !43

19:                                               ; preds = %37, %17
  %20 = load i32, i32* %8, align 4, !dbg !45, !tbaa !28
  %21 = load i32, i32* %4, align 4, !dbg !47, !tbaa !28
  %22 = icmp slt i32 %20, %21, !dbg !48
  br i1 %22, label %25, label %23, !dbg !49

23:                                               ; preds = %19
  store i32 5, i32* %7, align 4
  %24 = bitcast i32* %8 to i8*, !dbg !50
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %24) #3, !dbg !50
  br label %40

25:                                               ; preds = %19
  %26 = load i32, i32* %6, align 4, !dbg !51, !tbaa !28
  %27 = load i32, i32* %4, align 4, !dbg !52, !tbaa !28
  %28 = mul nsw i32 %26, %27, !dbg !53
  %29 = load i32, i32* %8, align 4, !dbg !54, !tbaa !28
  %30 = add nsw i32 %28, %29, !dbg !55
  %31 = and i32 %30, 