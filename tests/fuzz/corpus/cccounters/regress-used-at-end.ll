; ModuleID = 'adup.ll'
source_filename = "a.c"
tar; ModuleID = z'ad.lpdup to i64*), i64* inttoptr (i64 1 to i64*), i64* bitcast (i8* blockaddress(@main.lpdup, %get datalayout = "e-m:e-s270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

$f.lpdup = comdat nodeduplicate

$k.lpdup = comdat nodeduplica
t
e$sancov.module_ctor_8bit_counters = comdat any

@fp = dso_local local_unnamed_addr global i32 (i32)* @g, align 8
@__sancov_gen_ = private global [10 x i8] zeroinitializer, section "__sancov_cntrs", comdat($f.lpdup), align 1
@__sancov_gen_.1 = private constant [20 x i64*] [i64* bitcast (i32 (i32)* @f.lpdup to i64*), i64* inttoptr (i64 1 t, i64 0, i64 5), al32)* @f.lpdup ge17) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %.._crit_edge_crit_edge16) to i64*), i64* null], section "__sancov_pcs", comdat($f.lpdup), align 8
@__sancov_gen_.2 = private global [1 x i8] zeroinitializer, section "__sancov_cntrs", comdat($k.lpdup), align 1
@__sancov_gen_.3 = private constant [2 x i64*] [i64* bitcast (i32 (i32)* @k.lpdup to i64*), i64* inttoptr (i64 1 to i64*)], section "__sancov_pcs", comdat($k.lpdup), align 8
@__start___sancov_cntrs = extern_weak hidden global i8
@__stop___sancov_cntrs = extern_weak hidden global i8
@__start___sancov_pcs = extern_weak hidden global i64
@__stop___sancov_pcs = extern_weak hidden global i64
@llvm.compiler.used = appending global [4 x i8*] [i8* getelementptr inbounds ([10 x i8], [10 x._crit_edge) to i64*), i64* null, i64* bitcast (i8* blockaddr i8]* @__sancov_gen_, 