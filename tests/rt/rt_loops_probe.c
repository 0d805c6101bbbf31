/* rt_loops.c's probe, compiled without lowprof: it notes the distinct
 * return addresses it is called from, so the test can tell which of a
 * loop's versions ran. */
#define NSITES 8

static void *sites[NSITES];
static unsigned nsites;

__attribute__((noinline)) void lp_probe(void)
{
    void *ra = __builtin_return_address(0);
    for (unsigned i = 0; i < nsites; i++)
        if (sites[i] == ra)
            return;
    if (nsites < NSITES)
        sites[nsites++] = ra;
}

unsigned lp_probe_sites(void)
{
    return nsites;
}
