/* A program whose calls are known exactly, of every kind the runtime's
 * counting must get right: direct calls, indirect ones through a table,
 * mutual and self recursion, a static function the optimiser may change,
 * one whose address goes to the C library (qsort's comparator, called from
 * outside the program), and calls left by longjmp. check_rt.c's calls
 * tests compare the profile with these numbers (a function returning a
 * function pointer, a computed goto's table and a load of the program's
 * own bytes are the rewriter's hard cases, and so are two functions whose
 * entry cannot be prefixed); the comparator's count
 * depends on qsort, so the program prints it ("cmp N"). No call is a tail
 * call: a caller whose frame a tail call reuses is not the caller a return
 * address names. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static volatile unsigned long sink;
static unsigned long cmp_calls;

NOINLINE int cl_leaf(int x)
{
    sink += (unsigned long)x;
    return x + 1;
}

NOINLINE int cl_double(int x)
{
    sink += 2;
    return 2 * x;
}

/* cl_leaf 300 times */
NOINLINE void cl_direct(void)
{
    for (int i = 0; i < 300; i++)
        sink += (unsigned long)cl_leaf(i);
}

static int (*volatile cl_table[2])(int) = {cl_leaf, cl_double};

/* through the table: cl_double 100 times, cl_leaf 200 times */
NOINLINE void cl_indirect(void)
{
    for (int i = 0; i < 300; i++)
        sink += (unsigned long)cl_table[i % 3 == 0](i);
}

NOINLINE int cl_odd(int n);

/* cl_even(50): cl_even 26 times (50, 48, ..., 0), cl_odd 25 times */
NOINLINE int cl_even(int n)
{
    return n == 0 ? 1 : 1 + cl_odd(n - 1);
}

NOINLINE int cl_odd(int n)
{
    return n == 0 ? 0 : 1 + cl_even(n - 1);
}

/* Static and never address-taken: the optimiser may change how it is
 * called, so copies call its copy of their own. 40 calls. */
static NOINLINE int cl_static(int x)
{
    sink += 3;
    return x * 3;
}

NOINLINE void cl_statics(void)
{
    for (int i = 0; i < 40; i++)
        sink += (unsigned long)cl_static(i);
}

static int cl_cmp(const void *a, const void *b)
{
    cmp_calls++;
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static jmp_buf cl_env;

/* cl_deep(10) recurses to 0 and jumps back: 11 entries a throw. */
NOINLINE void cl_deep(int n)
{
    if (n == 0)
        longjmp(cl_env, 1);
    cl_deep(n - 1);
    sink += 1;
}

/* Five throws: cl_deep 55 times, 5 from here and 50 from itself. */
NOINLINE void cl_jumper(void)
{
    for (volatile int k = 0; k < 5; k++)
        if (!setjmp(cl_env))
            cl_deep(10);
}

/* A function that returns a function pointer: in the IR's define line
 * the return type's parentheses come before the name. */
NOINLINE int (*cl_pick(int k))(int)
{
    sink += (unsigned long)k;
    return k & 1 ? cl_double : cl_leaf;
}

/* A computed goto through a static table of its labels' addresses, the
 * way interpreters dispatch: the table holds the original's blocks. */
NOINLINE int cl_dispatch(const unsigned char *code)
{
    static const void *const ops[] = {&&op_add, &&op_call, &&op_end};
    int acc = 0;
    goto *ops[*code++];
op_add:
    acc += 3;
    goto *ops[*code++];
op_call:
    acc = cl_leaf(acc);
    goto *ops[*code++];
op_end:
    return acc;
}

/* A byte of the program's own array read at a constant index: in the
 * IR this load looks like a block counter's. */
unsigned char cl_bytes[16];

NOINLINE int cl_byte(void)
{
    return cl_bytes[3] + 1;
}

/* Never called: functions whose entry clang 14 cannot give a short
 * redirect (it crashes on them), so lowprof cc must keep their patchable
 * entry: one with no instruction at all, one starting with inline
 * assembly. */
NOINLINE void cl_no_code(void)
{
    __builtin_unreachable();
}

NOINLINE int cl_asm_first(int x)
{
    __asm__ volatile("" : "+r"(x));
    return x + 1;
}

/* Only a tail call: clang 14 would drop the jump from a prefixed entry
 * (the call falls into whatever follows), so it keeps its patchable
 * entry. Its callee is the C library's, so no count above changes. */
NOINLINE size_t cl_tail(const char *s)
{
    return strlen(s);
}

int main(void)
{
    cl_bytes[3] = (unsigned char)sink;
    sink += (unsigned long)cl_byte();
    for (int i = 0; i < 10; i++)
        sink += (unsigned long)(cl_pick(i) == cl_leaf);
    static const unsigned char prog[] = {0, 1, 0, 1, 2};
    sink += (unsigned long)cl_dispatch(prog);
    cl_direct();
    cl_indirect();
    sink += (unsigned long)cl_even(50);
    cl_statics();
    int v[64];
    for (int i = 0; i < 64; i++)
        v[i] = (i * 37) % 64;
    qsort(v, 64, sizeof *v, cl_cmp);
    cl_jumper();
    if (cl_tail("four") != 4)
        return 3;
    printf("cmp %lu\n", cmp_calls);
    return v[0] == 0 ? 0 : 1;
}
