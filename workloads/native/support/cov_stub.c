/* Do-nothing callbacks for -fsanitize-coverage=trace-pc-guard, so the
 * benchmark programs link and run in that build variant without lowprof's
 * runtime (the checksum must not change). Compile this file without the
 * coverage flag. */
#include <stdint.h>

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop);
void __sanitizer_cov_trace_pc_guard(uint32_t *guard);

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop)
{
    (void)start;
    (void)stop;
}

void __sanitizer_cov_trace_pc_guard(uint32_t *guard)
{
    (void)guard;
}
