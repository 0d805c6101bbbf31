/* A shared library whose roots and address-taken functions are known, for
 * the check-placement analysis (check_analysis.c builds it with -shared
 * -fPIC -nostdlib and asserts the set C):
 *
 *   lib_api       exported, calls helper           root, in C
 *   lib_leaf      exported, calls nothing          root, leaf, not in C
 *   lib_loop_ext  exported, calls ext_fn (PLT) in a loop
 *                                                  root, in C; its loop calls
 *   lib_hidden    hidden, calls helper             not a root, not in C
 *   helper        static, calls nothing            leaf
 *   via_pointer   static, stored in lib_ptr (a relocation), calls helper
 *                                                  address-taken, in C
 *   lib_init      a constructor (.init_array), calls helper and ext_fn
 *                                                  root, in C
 *
 * ext_fn is left undefined: the dynamic loader would find it elsewhere. */
#define NOINLINE __attribute__((noinline))

int lib_counter;
extern int ext_fn(int);

NOINLINE static int helper(int x)
{
    return x * 2 + lib_counter;
}

NOINLINE static int via_pointer(int x)
{
    return helper(x) + 7;
}

int (*lib_ptr)(int) = via_pointer;

int lib_api(int x)
{
    return helper(x) + 1;
}

int lib_leaf(int x)
{
    return x + 3;
}

__attribute__((visibility("hidden"))) int lib_hidden(int x)
{
    return helper(x) - 1;
}

int lib_loop_ext(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += ext_fn(i);
    return s;
}

__attribute__((constructor)) static void lib_init(void)
{
    lib_counter = ext_fn(helper(1));
}
