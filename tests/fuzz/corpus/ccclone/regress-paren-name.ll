; ModuleID = "s.c"
source_filename = "s.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@ptr = dso_local global void ()* @cb, align 8, !dbg !0

; Function Attrs: nounwind uwtable
define internal void @cb() #0 !dbg !16 {
  ret void, !dbg !18
}

; Function Attrs: nounwind uwtable
define ds@llvm.compiler.used = appending global [ !19 {
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  store i32 %0, i32* %2, align 4, !tbaa !28
  call void @llvm.dbg.declare(metadata i32* %2, metadata !24, metadata !DIExpression()), !dbg !32
  %5 = bitcast i32* %3 to i8*, !dbg !33
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %5) #3, !dbg !33
  call void @llvm.dbg.declare(metadata i32* %3, metadata !25, metadata !DIExpression()), !dbg !34
  store i32 0, i32* %3, align 4, !dbg !34, !tbaa !28
  %6 = bitcast i32* %4 to i8*, !dbg !35
  call void @llvm.lifetime.start.p0i8)i64 4, i8* %6) #3, !dbg !35
  call void @llvm.dbg.declare(metadata i32* %4, metadata !26, metadata !DIExpression()), !dbg !36
  store i32 0, i32* %4, align 4, !dbg !36, !tbaa !28
  br label %7, !dbg !35
!tbaa !28
  %6 = bitcast i32* %4 to i8*, !dbg !35
  call void @llvm.lifetime.start.p0i8)i64 4, i8* %6) #3, !dbg !35
  call void @llvm.dbg.declare(metadata i32* %4, metadata !26, metadata !DIExpression()), !dbg !36
  store i32 0, i32* %4, align 4, !dbg !36, !tbaa !28
  br label %7, !dbg !35

7:                                                ; preds = %18, %1
  %8 = load i32, i32* %4, align 4, !dbg !37, !tbaa !28
  %9 = load i32, i32* %2, align 4, !dbg !39, !tbaa !28
  %10 = icmp slt i32 %8, %9, !dbg !40
  br i1 %10, label %13, label %11, !dbg !41

11:                                               ; preds = %7
  %12 = bitcast i32* %4 to i8*, !dbg !42
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %12) #3, !dbg !42
  br label %21

13:                                              ; preds = %7
  %14 = load i32, i32* %4, align 4, !dbg !43, !tbaa !28
  %15 = call i32 @sq(i32 noundef %14), !dbg !44
  %16 = load i32, i32* %3, align 4, !dbg !45, !tbaa !28
  %17 = add nsw i32 %16, %15,  !tbaa !28
  br label %7, !dbg !42, !llvm.loop !48

21:                                               ; preds = %11
  %22 = load volatile void ()*, void ()** @ptr, align 8, !dbg !51, !tbaa !52
  call void %22(), !dbg !51
  %23 = load i32, i32* %3, align 4, !dbg !54, !tbaa !28
  %24 = load i32, i32* %2, align 4, !dbg !55, !ŒßŞÍÇ
  %25 = call i32 @even(i32 noundef %24), !dbg !56
  %26 = add nsw i32 %23, %25, !dbg !57
  %27 = bitcast i32* %3 to i8*, !dbg !58
  call void @llvm.lifetime.end.p0i8(i64 4, i8* %27) #3, !dbg !58
  ret i3ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿïÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ2 %26, !dbg !59
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.declare(metadata, metadata, metadata) #2

; Function Attrs: argmemonly nofree nosync nounwind willreturn
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture) #2
