/* A program whose call graph and loops are known, for the check-placement
 * analysis (check_analysis.c builds it with gcc and clang at -O1 and
 * asserts the set C and every loop decision). Built with -nostdlib and its
 * own _start, so every function in the file is one written here:
 *
 *   _start -> main (roots: the entry point, and main)
 *   main -> is_even <-> is_odd (mutual recursion; is_even has recursion
 *           from below, is_odd is farther from the roots)
 *   main -> depth -> depth (self-recursion)
 *   main -> apply -(indirect)-> callback, table_fn (address-taken: a lea or
 *           immediate, and a table in data)
 *   callback, table_fn, loop_calls -> leaf_add (a leaf)
 *   sum_small: a loop with one memory reference (4-boring)
 *   mix_many: a loop with seven memory references, no call (not 4-boring,
 *             10-boring)
 *   loop_calls: a loop with a call (never boring)
 *   nested: an inner loop with two memory references (4-boring) inside an
 *           outer loop with more (not 4-boring: nested loops count)
 *
 * It is never run. */
#define NOINLINE __attribute__((noinline))

volatile int sink;
int data[256];

NOINLINE static int leaf_add(int a, int b)
{
    return a + b;
}

static int is_odd(unsigned n);

NOINLINE static int is_even(unsigned n)
{
    if (n == 0)
        return 1;
    int r = is_odd(n - 1);
    sink = r;
    return r;
}

NOINLINE static int is_odd(unsigned n)
{
    if (n == 0)
        return 0;
    int r = is_even(n - 1);
    sink = r;
    return r;
}

NOINLINE static int depth(int n)
{
    if (n <= 0)
        return 0;
    int r = depth(n - 1);
    sink = r;
    return r + 1;
}

NOINLINE static int callback(int x)
{
    return leaf_add(x, 1) * 3;
}

NOINLINE static int table_fn(int x)
{
    return leaf_add(x, 2) * 5;
}

static int (*const table[2])(int) = {table_fn, callback};

NOINLINE static int apply(int (*fn)(int), int x)
{
    int r = fn(x);
    sink = r;
    return r;
}

NOINLINE static int sum_small(const int *a, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

NOINLINE static void mix_many(int *a, const int *b, int n)
{
    for (int i = 0; i < n; i++) {
        a[i] = b[i] + b[i + 1];
        a[i + 1] ^= b[i + 2];
        a[i + 2] += b[i + 3];
    }
}

NOINLINE static int loop_calls(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s = leaf_add(s, i);
    return s;
}

NOINLINE static int nested(int *a, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            s += a[j] ^ a[j + 1];
        a[i] = s;
        a[i + 64] = s + 1;
        a[i + 128] = s + 2;
        a[i + 192] = s + 3;
    }
    return s;
}

int main(void)
{
    int s = is_even((unsigned)sink) + depth(sink);
    s += apply(callback, sink);
    s += apply(table[sink & 1], sink);
    s += sum_small(data, sink);
    s += loop_calls(sink);
    s += nested(data, sink & 15);
    mix_many(data, data + 128, sink & 63);
    return s;
}

void _start(void)
{
    int r = main();
    __asm__ volatile("syscall" : : "a"(60), "D"(r));
    __builtin_unreachable();
}
