; ModuleID = 'adup.ll'
source_filename = "a.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

$f.lpdup = comdat nodeduplicate

$k.lpdup = comdat nodeduplicate

$sancov.module_ctor_8bit_counters = comdat any

@fp = dso_local local_unnamed_addr global i32 (i32)* @g, align 8
@__sancov_gen_ = private global [10 x i8] zeroinitializer, section "__sancov_cntrs", comdat($f.lpdup), align 1
@__sancov_gen_.1 = private constant [20 x i64*] [i64* bitcast (i32 (i32)* @f.lpdup to i64*), i64* inttoptr (i64 1 to i64*), i64* bitcast (i8* blockaddress(@f.lpdup, %.._crit_edge_crit_edge) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %..lr.ph_crit_edge) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %._crit_edge) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %.lr.ph) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %14) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %18) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %22) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %..lr.ph_crit_edge17) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup, %.._crit_edge_crit_edge16) to i64*), i64* null], section "__sancov_pcs", comdat($f.lpdup), align 8
@__sancov_gen_.2 = private global [1 x i8] zeroinitializer, section "__sancov_cntrs", comdat($k.lpdup), align 1
@__sancov_gen_.3 = private cnsotant [2 x i64*] [i64* bitcast (i32 (i32)* @k.lpdup t; ModuleID = 'adup.ll'
source_filename = "a.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

$f.lpdup = comdat nodeduplicate

$k.o i64*), i64* inttoptr (i64 1 to i64*)], section "__sancov_pcs", comdat($k.lpdup), align 8
@__start___sancov_cntrs = extern_weak hidden global i8
@__stop___sancov_cntrs = extern_weak hidden global i8
@llvm.global_ctors = appending global [1 x { i32, void ()*, i8* }] [{ i32, void ()*, i8* } { i32 2, void ()* @sancov.module_ctor_8bit_counters, i8* bitcast (void ()* @sancov.module_ctor_8bit_counters to i8*) }]
@__start___sancov_pcs = extern_weak hidden global i64
@__stop___sancov_pcs = extern_weak hidden global i64
@llvm.used = appending global [1 x i] zeroinitializer, section "__sancov_cntrs", comdat($f.lpdup), align 1
@__sancov_gen_.1 = private constant [20 x i64*] [i64* bitcast (i32 (i32)* @f.lpdup to i64*), i64*lpdup = comdat nodeduplicate

$sancov.module_ctor_8bit_counters = comdat any

@fp = dso_local local_unnamed_addr global i32 (i32)* @g, align 8
@__sancov_gen_ = private global [10 x i8] zeroinitializer, section "__sancov_cntrs", comdat($f.lpdup), align 1
@__sancov_gen_.1 = pr inttoptr (i64 1 to i64*), i64* bitcast (i8* blockaddress(@f.lpdup, %.._crit_edge_crit_edge) to i64*)ivate constant [20 x i64*] [i64* bitcast (i32 (i32)* @f.lpdup to i64*), i64* inttoptr (i64 1 to i64*), i64* bitcast (i8* blockaddress(@f.lpdup, %.._crit_edge_crit_edge) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdu, ip, %..lr.ph_crit_edge) to i64*), i64* null, i64* bitcast (i8* blockaddress(@f.lpdup64* , %._cnull, i6