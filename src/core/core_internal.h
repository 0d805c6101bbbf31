/* Private to core: what each build environment must supply. */
#ifndef LP_CORE_INTERNAL_H
#define LP_CORE_INTERNAL_H
#include "lowprof/core.h"

/* Defined once per environment: alloc_libc.c for hosted builds, the Valgrind
 * tool for itself. Used until lp_set_allocator installs another. */
extern const lp_allocator lp__default_allocator;

#endif
