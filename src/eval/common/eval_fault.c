/* Where a run under the native runtime crashed, from the profile its fatal
 * handler wrote: a rare crash that a rerun does not repeat is then known
 * by its function and line from the experiment's message alone. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../eval_internal.h"
#include "lowprof/host.h"
#include "lowprof/report.h"

const char *lp__eval_fault_note(const char *profile, char *buf, size_t cap)
{
    buf[0] = 0;
    lp_profile_set set;
    /* A run that died before its runtime started leaves no file: no note,
     * and no second message about the missing file. */
    if (!profile || !profile[0] || access(profile, R_OK) != 0 ||
        lp_host_load_profile(profile, &set) != 0)
        return buf;
    const char *reason = lp_meta_get(&set.meta, "incomplete-reason");
    const char *pc_text = lp_meta_get(&set.meta, "fault-pc");
    const char *addr = lp_meta_get(&set.meta, "fault-address");
    lp_names names;
    if (reason && pc_text && lp_names_init(&names, &set) == 0) {
        char where[512];
        uint64_t pc = strtoull(pc_text, NULL, 0);
        snprintf(buf, cap, "; its profile %s: %s at %s, pc %s, address %s", profile, reason,
                 lp_names_describe(&names, pc, 1, where, sizeof where), pc_text, addr ? addr : "?");
        lp_names_fini(&names);
    }
    lp_profile_set_fini(&set);
    return buf;
}
