/* VEX IR helpers shared by the instrumenters (lp_vg_instrument.c for
 * profiles, lp_vg_hps.c for HPS productions). */
#include "pub_tool_basics.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"

#include "lp_vg.h"

IRExpr *lp_vg_tmp(IRSB *out, IRType ty, IRExpr *e)
{
    IRTemp t = newIRTemp(out->tyenv, ty);
    addStmtToIRSB(out, IRStmt_WrTmp(t, e));
    return IRExpr_RdTmp(t);
}

void lp_vg_dirty_call(IRSB *out, const HChar *name, void *fn, IRExpr **args, IRExpr *guard)
{
    IRDirty *d = unsafeIRDirty_0_N(0, name, VG_(fnptr_to_fnentry)(fn), args);
    if (guard)
        d->guard = guard;
    addStmtToIRSB(out, IRStmt_Dirty(d));
}
