/* metrics: the energy model of the remote-profiling paper (Fig. 14b): a
 * StrongARM handheld measured per instruction class, and a wireless card
 * sending at 11 Mb/s while drawing 5 V * 0.285 A. Time per class is count
 * over that class's rate; energy is time times the class's power. */
#include "lowprof/metrics.h"

const lp_energy_model lp_energy_strongarm = {
    .watts = {[LP_INSN_IREG] = 0.865,
              [LP_INSN_MEM_READ] = 0.973,
              [LP_INSN_MEM_READ_HIT] = 0.000,
              [LP_INSN_MEM_WRITE] = 1.340,
              [LP_INSN_FPREG] = 0.965},
    .insns_per_second = {[LP_INSN_IREG] = 204.790e6,
                         [LP_INSN_MEM_READ] = 19.462e6,
                         [LP_INSN_MEM_READ_HIT] = 137.510e6,
                         [LP_INSN_MEM_WRITE] = 11.625e6,
                         [LP_INSN_FPREG] = 0.439e6},
    .transmit_watts = 1.425,
    .transmit_bits_per_second = 11e6,
};

lp_energy lp_energy_estimate(const lp_energy_model *m,
                             const uint64_t counts[LP_INSN_CLASSES], uint64_t bytes)
{
    lp_energy r = {0};
    for (unsigned c = 0; c < LP_INSN_CLASSES; c++) {
        if (!counts[c] || m->insns_per_second[c] <= 0)
            continue;
        double seconds = (double)counts[c] / m->insns_per_second[c];
        r.compute_seconds += seconds;
        r.compute_joules += seconds * m->watts[c];
    }
    if (bytes && m->transmit_bits_per_second > 0) {
        r.transmit_seconds = (double)bytes * 8.0 / m->transmit_bits_per_second;
        r.transmit_joules = r.transmit_seconds * m->transmit_watts;
    }
    return r;
}
