/* A shared library's function built with lowprof cc --profiles=bursty
 * -fPIC (check_rt's bursty-cc test): its checks and reports reach the
 * runtime, which lives in the executable, through the PLT, whose first
 * call runs the dynamic linker's resolver. A loop that keeps values in
 * many registers across its checks sums wrongly if a call changes one the
 * compiled code does not expect changed. check_rt's calls-cg test builds
 * it as a shared library for the call graph. */
long bt_lib_sum(const int *a, int n, long k)
{
    long s = 0, t = 1, u = 3, v = 7, w = 11;
    for (int i = 0; i < n; i++) {
        s += a[i] * k + (a[i] >> 1);
        t = t * 31 + a[i];
        u ^= t >> 3;
        v += u & 255;
        w = w * 5 + v;
    }
    return s + t + u + v + w;
}
