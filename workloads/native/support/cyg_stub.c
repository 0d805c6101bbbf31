/* Do-nothing hooks for -finstrument-functions, so the benchmark programs
 * link and run in that build variant without lowprof's runtime. Compile
 * this file without the instrumentation flag. */
void __cyg_profile_func_enter(void *fn, void *call_site);
void __cyg_profile_func_exit(void *fn, void *call_site);

void __cyg_profile_func_enter(void *fn, void *call_site)
{
    (void)fn;
    (void)call_site;
}

void __cyg_profile_func_exit(void *fn, void *call_site)
{
    (void)fn;
    (void)call_site;
}
