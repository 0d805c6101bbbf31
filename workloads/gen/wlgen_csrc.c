/* lowprof-wlgen: a large C translation unit for cc1.
 *
 * The compiler's work per function depends on what the function holds:
 * long expressions stress folding and register allocation, loops the loop
 * optimisers, switches the case lowering and jump tables, structs and
 * pointers alias analysis and SRA, recursion and tables of function pointers
 * the call graph and inliner, floating point its own patterns. GCC parses the
 * whole unit, then optimises and emits function by function, so grouping
 * the functions by kind and repeating the groups in rounds gives cc1 both
 * distinct phases and phases that recur, as real source files do.
 *
 * The output has no #include and must compile with `cc1 -O2` without
 * errors (and, as checked by the build, without warnings under -Wall). All
 * arithmetic is on unsigned values and shift counts are constants in range,
 * so nothing is undefined even if the program were run. */
#include <string.h>

#include "wlgen.h"

enum kind { K_EXPR, K_LOOP, K_SWITCH, K_STRUCT, K_RECUR, K_FLOAT, K_TABLE, K_TEXT, K_COUNT };

#define MAX_NAMES 4096

typedef struct gen {
    wl_rng rng;
    wl_buf *out;
    int serial;             /* unique suffix for every name */
    int expr_fn[MAX_NAMES]; /* serials of unsigned (unsigned, unsigned, unsigned) */
    int nexpr;
    int struct_fn[MAX_NAMES]; /* serials of unsigned (unsigned) over a struct type */
    int nstruct;
    int recur_fn[MAX_NAMES]; /* serials of unsigned (unsigned, unsigned) */
    int nrecur;
    int float_fn[MAX_NAMES]; /* serials of double (double, unsigned) */
    int nfloat;
    int other_fn[MAX_NAMES]; /* serials of unsigned (unsigned, unsigned): loops, switches,
                                tables, text */
    char other_prefix[MAX_NAMES];
    int nother;
} gen;

/* Output, one formatted piece at a time. Random draws never sit side by
 * side in one call's arguments: C leaves their order unspecified (gcc and
 * clang differ), and the output must not depend on the compiler. Where a
 * statement needs several draws they are made first, into named locals, in
 * a fixed order. */
#define P(...) wl_buf_printf(g->out, __VA_ARGS__)

static unsigned rnd(gen *g, unsigned n)
{
    return wl_rng_below(&g->rng, n);
}

static int chance(gen *g, unsigned pct)
{
    return wl_rng_chance(&g->rng, pct);
}

static void remember(int *list, int *n, int serial)
{
    if (*n < MAX_NAMES)
        list[(*n)++] = serial;
}

/* A random unsigned expression over vars, at most depth deep. */
static void expr(gen *g, int depth, const char *const *vars, int nvars)
{
    if (depth <= 0 || chance(g, 22)) {
        if (chance(g, 75))
            P("%s", vars[rnd(g, (unsigned)nvars)]);
        else
            P("%uu", chance(g, 70) ? rnd(g, 100) : (unsigned)wl_rng_next(&g->rng));
        return;
    }
    unsigned roll = rnd(g, 100);
    if (roll < 50) {
        static const char *const ops[] = {"+", "-", "*", "^", "&", "|", "+", "^"};
        P("(");
        expr(g, depth - 1, vars, nvars);
        P(" %s ", ops[rnd(g, 8)]);
        expr(g, depth - 1, vars, nvars);
        P(")");
    } else if (roll < 62) {
        P("(");
        expr(g, depth - 1, vars, nvars);
        unsigned k = 1 + rnd(g, 31);
        P(" %s %uu)", chance(g, 50) ? "<<" : ">>", k);
    } else if (roll < 70) {
        P("(");
        expr(g, depth - 1, vars, nvars);
        unsigned k = 2 + rnd(g, 1000);
        P(" %s %uu)", chance(g, 50) ? "/" : "%", k);
    } else if (roll < 82) {
        static const char *const cmp[] = {"<", ">", "<=", ">=", "==", "!="};
        P("(");
        expr(g, depth - 1, vars, nvars);
        P(" %s ", cmp[rnd(g, 6)]);
        expr(g, depth - 1, vars, nvars);
        P(" ? ");
        expr(g, depth - 1, vars, nvars);
        P(" : ");
        expr(g, depth - 1, vars, nvars);
        P(")");
    } else if (roll < 92 && g->nexpr > 0) {
        P("e%d(", g->expr_fn[rnd(g, (unsigned)g->nexpr)]);
        for (int i = 0; i < 3; i++) {
            if (i)
                P(", ");
            expr(g, depth - 2, vars, nvars);
        }
        P(")");
    } else {
        P("(~");
        expr(g, depth - 1, vars, nvars);
        P(")");
    }
}

static void fn_expr(gen *g)
{
    int id = ++g->serial;
    static const char *const vars[] = {"a", "b", "c", "t0", "t1", "t2", "t3", "t4", "t5"};
    int locals = 2 + (int)rnd(g, 5);
    P("unsigned e%d(unsigned a, unsigned b, unsigned c)\n{\n", id);
    for (int i = 0; i < locals; i++) {
        P("    unsigned t%d = ", i);
        expr(g, 2 + (int)rnd(g, 4), vars, 3 + i);
        P(";\n");
        if (chance(g, 30)) {
            P("    if (t%d > ", i);
            expr(g, 2, vars, 3 + i + 1);
            P(")\n        t%d ^= ", i);
            expr(g, 2, vars, 3 + i + 1);
            P(";\n");
        }
    }
    P("    return ");
    expr(g, 3, vars, 3 + locals);
    /* Every local feeds the result, so -Wall finds nothing unused. */
    for (int i = 0; i < locals; i++)
        P(" ^ t%d", i);
    P(";\n}\n\n");
    remember(g->expr_fn, &g->nexpr, id);
}

static void fn_loop(gen *g)
{
    int id = ++g->serial;
    static const char *const vars[] = {"n", "seed", "acc", "i", "j", "x"};
    P("unsigned l%d(unsigned n, unsigned seed)\n{\n", id);
    P("    unsigned acc = seed, i, j = 0, x = %uu;\n", rnd(g, 1000));
    P("    for (i = 0; i < n && i < 1024u; i++) {\n");
    P("        x = g_data[(i * %uu + seed) & 1023u];\n", 1 + 2 * rnd(g, 50));
    int body = 1 + (int)rnd(g, 4);
    for (int k = 0; k < body; k++) {
        unsigned roll = rnd(g, 4);
        if (roll == 0) {
            P("        acc += ");
            expr(g, 3, vars, 6);
            P(";\n");
        } else if (roll == 1) {
            P("        if ((x & %uu) == 0)\n            acc ^= ", 1u << rnd(g, 8));
            expr(g, 2, vars, 6);
            P(";\n        else\n            acc -= x >> %u;\n", 1 + rnd(g, 7));
        } else if (roll == 2) {
            P("        for (j = 0; j < %uu; j++)\n", 2 + rnd(g, 14));
            P("            g_data[(i + j) & 1023u] += ");
            expr(g, 2, vars, 6);
            P(";\n");
        } else {
            P("        j = x;\n        while (j > %uu) {\n", 1 + rnd(g, 9));
            P("            j = (j >> 1) ^ (j & %uu);\n", rnd(g, 64));
            P("            acc++;\n");
            P("            if (acc == %uu)\n                break;\n",
              (unsigned)wl_rng_next(&g->rng));
            P("        }\n");
        }
    }
    P("    }\n");
    if (chance(g, 50)) {
        P("    for (i = 1; i < 256u; i++)\n");
        P("        g_data[i] = g_data[i - 1] * %uu + g_data[i];\n", 1 + rnd(g, 97));
    }
    P("    return acc + j;\n}\n\n");
    g->other_prefix[g->nother] = 'l';
    remember(g->other_fn, &g->nother, id);
}

static void fn_switch(gen *g)
{
    int id = ++g->serial;
    static const char *const vars[] = {"x", "y", "pc", "acc"};
    int cases = 6 + (int)rnd(g, 22);
    int dense = chance(g, 70);
    /* An interpreter loop: the shape of bytecode VMs and of many parsers. */
    P("unsigned s%d(unsigned x, unsigned y)\n{\n", id);
    P("    unsigned pc, acc = 0;\n");
    P("    for (pc = 0; pc < %uu; pc++) {\n", 8 + rnd(g, 120));
    P("        switch (g_code[(pc + x) & 255u] %% %du) {\n", dense ? cases : 4 * cases);
    for (int c = 0; c < cases; c++) {
        P("        case %d:\n", dense ? c : c * 4 + (int)rnd(g, 4));
        unsigned roll = rnd(g, 6);
        if (roll < 3) {
            P("            acc += ");
            expr(g, 2 + (int)rnd(g, 2), vars, 4);
            P(";\n            break;\n");
        } else if (roll == 3) {
            P("            y = ");
            expr(g, 2, vars, 4);
            P(";\n            if (y & 1u)\n                break;\n            acc ^= y;\n");
            P("            break;\n");
        } else if (roll == 4 && g->nexpr > 0) {
            P("            acc = e%d(acc, x, y);\n            break;\n",
              g->expr_fn[rnd(g, (unsigned)g->nexpr)]);
        } else {
            P("            x = x * %uu + 1u;\n            continue;\n", 3 + 2 * rnd(g, 100));
        }
    }
    P("        default:\n            acc = (acc << 3) | (acc >> 29);\n            break;\n");
    P("        }\n    }\n    return acc ^ y;\n}\n\n");
    g->other_prefix[g->nother] = 's';
    remember(g->other_fn, &g->nother, id);
}

static void fn_struct(gen *g)
{
    int id = ++g->serial;
    int tags = 2 + (int)rnd(g, 6);
    P("struct r%d {\n    unsigned key;\n    unsigned val;\n    unsigned short tag[%d];\n", id,
      tags);
    P("    double weight;\n    struct r%d *next;\n};\n\n", id);
    P("static struct r%d pool%d[%u];\n\n", id, id, 16 + rnd(g, 48));
    P("unsigned st%d(unsigned n)\n{\n", id);
    P("    unsigned i, j, count = sizeof pool%d / sizeof pool%d[0], sum = 0;\n", id, id);
    P("    struct r%d *head = 0, *p;\n", id);
    P("    for (i = 0; i < count; i++) {\n");
    unsigned mod = 7 + rnd(g, 500), mul_i = 1 + rnd(g, 99), mul_n = 1 + rnd(g, 999);
    P("        pool%d[i].key = (n * %uu + i * %uu) %% %uu;\n", id, mul_n, mul_i, mod);
    P("        pool%d[i].val = g_data[i & 1023u] ^ n;\n", id);
    P("        for (j = 0; j < %d; j++)\n", tags);
    P("            pool%d[i].tag[j] = (unsigned short)(i * j + %uu);\n", id, rnd(g, 100));
    unsigned frac = rnd(g, 100), whole = rnd(g, 10);
    P("        pool%d[i].weight = (double)pool%d[i].key * %u.%02u;\n", id, id, whole, frac);
    P("        pool%d[i].next = head;\n        head = &pool%d[i];\n    }\n", id, id);
    if (chance(g, 60)) {
        /* insertion sort by key */
        P("    for (i = 1; i < count; i++) {\n");
        P("        struct r%d t = pool%d[i];\n", id, id);
        P("        for (j = i; j > 0 && pool%d[j - 1].key > t.key; j--)\n", id);
        P("            pool%d[j] = pool%d[j - 1];\n", id, id);
        P("        pool%d[j] = t;\n    }\n", id);
    }
    P("    for (p = head; p; p = p->next) {\n");
    unsigned tag = rnd(g, (unsigned)tags), mul = 1 + rnd(g, 30);
    P("        sum += p->key * %uu + p->tag[%u];\n", mul, tag);
    P("        if (p->weight > %u.0)\n            sum ^= p->val;\n", rnd(g, 2000));
    P("    }\n");
    P("    return sum;\n}\n\n");
    remember(g->struct_fn, &g->nstruct, id);
}

static void fn_recur(gen *g)
{
    int id = ++g->serial;
    unsigned roll = rnd(g, 3);
    if (roll == 0) { /* tree recursion */
        P("unsigned rc%d(unsigned n, unsigned k)\n{\n", id);
        P("    if (n < %uu)\n        return k + n;\n", 2 + rnd(g, 3));
        unsigned mul = 3 + 2 * rnd(g, 10), step = 2 + rnd(g, 2), mask = rnd(g, 255);
        P("    return rc%d(n - 1, k ^ %uu) + rc%d(n - %u, k * %uu);\n}\n\n", id, mask, id, step,
          mul);
    } else if (roll == 1) { /* mutual recursion */
        P("unsigned rc%d(unsigned n, unsigned k);\n", id);
        P("static unsigned rcb%d(unsigned n, unsigned k)\n{\n", id);
        P("    return n == 0 ? k : rc%d(n - 1, k + %uu);\n}\n\n", id, 1 + rnd(g, 50));
        P("unsigned rc%d(unsigned n, unsigned k)\n{\n", id);
        P("    if (n == 0)\n        return k;\n");
        P("    return rcb%d(n - 1, (k << %u) ^ n);\n}\n\n", id, 1 + rnd(g, 5));
    } else { /* recursion over a range, Euclid-like */
        static const char *const vars[] = {"n", "k"};
        P("unsigned rc%d(unsigned n, unsigned k)\n{\n", id);
        P("    if (k == 0 || n < 2u)\n        return n + ");
        expr(g, 2, vars, 2);
        P(";\n    if (n %% 2u)\n        return rc%d(k %% n, n - 1) * %uu;\n", id, 3 + rnd(g, 20));
        P("    return rc%d(n / 2u, k) + ", id);
        expr(g, 2, vars, 2);
        P(";\n}\n\n");
    }
    remember(g->recur_fn, &g->nrecur, id);
}

static void fn_float(gen *g)
{
    int id = ++g->serial;
    unsigned roll = rnd(g, 3);
    P("double f%d(double x, unsigned n)\n{\n", id);
    if (roll == 0) { /* Horner */
        int deg = 3 + (int)rnd(g, 10);
        unsigned frac = rnd(g, 1000), whole = rnd(g, 10);
        P("    double y = %u.%03u;\n    unsigned i;\n", whole, frac);
        P("    for (i = 0; i < n %% 64u; i++) {\n        y = ");
        for (int k = 0; k < deg; k++)
            P("(");
        unsigned tenths = rnd(g, 10), units = rnd(g, 5);
        P("%u.%u", units, tenths);
        for (int k = 0; k < deg; k++) {
            unsigned frac = rnd(g, 1000), whole = rnd(g, 4);
            P(" * x + %s%u.%03u)", chance(g, 30) ? "-" : "", whole, frac);
        }
        P(" + y * 0.5;\n        x = x * 0.999 + 0.001;\n    }\n    return y;\n}\n\n");
    } else if (roll == 1) { /* small matrix product */
        int d = 2 + (int)rnd(g, 4);
        P("    double m[%d][%d], v[%d], r[%d];\n    unsigned i, j, k;\n", d, d, d, d);
        P("    for (i = 0; i < %du; i++) {\n        v[i] = x + i;\n", d);
        P("        for (j = 0; j < %du; j++)\n            m[i][j] = (double)((i * %du + j) %% 7u) "
          "- 3.0;\n    }\n",
          d, d);
        P("    for (k = 0; k < n %% 32u; k++) {\n");
        P("        for (i = 0; i < %du; i++) {\n            r[i] = 0.0;\n", d);
        P("            for (j = 0; j < %du; j++)\n                r[i] += m[i][j] * v[j];\n        "
          "}\n",
          d);
        P("        for (i = 0; i < %du; i++)\n            v[i] = r[i] / (1.0 + r[i] * r[i]);\n    "
          "}\n",
          d);
        P("    return v[0] + v[%d];\n}\n\n", d - 1);
    } else { /* Newton iteration and comparisons */
        P("    double y = x > 1.0 ? x : 1.0;\n    unsigned i;\n");
        P("    for (i = 0; i < n %% 20u + 3u; i++) {\n");
        P("        y = 0.5 * (y + x / y);\n");
        P("        if (y < %u.5)\n            y += 0.25;\n", rnd(g, 10));
        P("    }\n");
        if (g->nfloat > 0)
            P("    return y + f%d(y, n / 2u);\n}\n\n", g->float_fn[rnd(g, (unsigned)g->nfloat)]);
        else
            P("    return y;\n}\n\n");
    }
    remember(g->float_fn, &g->nfloat, id);
}

static void fn_table(gen *g)
{
    int id = ++g->serial;
    if (g->nexpr < 2) {
        fn_expr(g);
        return;
    }
    int entries = 4 + (int)rnd(g, 12);
    P("static unsigned (*const tab%d[%d])(unsigned, unsigned, unsigned) = {\n", id, entries);
    for (int i = 0; i < entries; i++)
        P("    e%d,\n", g->expr_fn[rnd(g, (unsigned)g->nexpr)]);
    P("};\n\n");
    P("unsigned d%d(unsigned x, unsigned y)\n{\n    unsigned i, acc = x;\n", id);
    P("    for (i = 0; i < y %% 16u + 1u; i++)\n");
    P("        acc = tab%d[(acc + i) %% %du](acc, i, y);\n", id, entries);
    P("    return acc;\n}\n\n");
    g->other_prefix[g->nother] = 'd';
    remember(g->other_fn, &g->nother, id);
}

static void fn_text(gen *g)
{
    int id = ++g->serial;
    /* A small tokenizer: a state machine over character classes. */
    P("unsigned tk%d(unsigned x, unsigned y)\n{\n", id);
    P("    const unsigned char *p = g_text + (x %% 64u);\n");
    P("    unsigned state = 0, words = 0, digits = 0, other = y;\n");
    P("    for (; *p; p++) {\n");
    P("        unsigned char ch = *p;\n");
    P("        if (ch >= 'a' && ch <= 'z') {\n");
    P("            if (state != 1)\n                words++;\n            state = 1;\n");
    P("        } else if (ch >= '0' && ch <= '9') {\n");
    P("            digits = digits * 10u + (unsigned)(ch - '0');\n            state = 2;\n");
    char close = "[)]?!"[rnd(g, 5)], open = "(,;:."[rnd(g, 5)];
    P("        } else if (ch == '%c' || ch == '%c') {\n", open, close);
    P("            other += %uu;\n            state = 3;\n", 1 + rnd(g, 20));
    P("        } else {\n            state = 0;\n        }\n");
    P("    }\n    return words * %uu + digits + other;\n}\n\n", 1 + rnd(g, 100));
    g->other_prefix[g->nother] = 't';
    remember(g->other_fn, &g->nother, id);
}

void wl_csrc_write(uint64_t seed, int rounds, int per_group, int limit, wl_buf *out)
{
    static gen gstore; /* large; the generator is single-threaded */
    gen *g = &gstore;
    memset(g, 0, sizeof *g);
    wl_rng_seed(&g->rng, seed);
    g->out = out;
    P("/* Generated by lowprof-wlgen: input for cc1 in the workload suite. */\n\n");
    P("static unsigned g_data[1024];\nstatic unsigned char g_code[256];\n");
    P("static const unsigned char g_text[] =\n");
    for (int line = 0; line < 6; line++)
        P("    \"the %d quick (brown) foxes, %d lazy dogs; and more: text?\"\n", line, line * 7);
    P("    ;\n\n");
    static void (*const makers[K_COUNT])(gen *) = {fn_expr,  fn_loop,  fn_switch, fn_struct,
                                                   fn_recur, fn_float, fn_table,  fn_text};
    int made = 0;
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < K_COUNT; k++) {
            /* Group sizes vary so the rounds are not copies of each other. */
            int n = 1 + per_group / 2 + (int)rnd(g, (unsigned)per_group + 1);
            for (int i = 0; i < n && (limit <= 0 || made < limit); i++, made++)
                makers[k](g);
        }
    }
    /* main touches a sample of everything, so the program is whole. */
    P("int main(void)\n{\n    unsigned acc = 0, i;\n    double d = 0.0;\n");
    P("    for (i = 0; i < 256u; i++)\n        g_code[i] = (unsigned char)(i * 37u + 11u);\n");
    for (int i = 0; i < g->nexpr; i += 7)
        P("    acc += e%d(acc, %uu, i);\n", g->expr_fn[i], rnd(g, 100));
    for (int i = 0; i < g->nother; i += 3)
        P("    acc ^= %c%s%d(acc, %uu);\n", g->other_prefix[i],
          g->other_prefix[i] == 't' ? "k" : "", g->other_fn[i], rnd(g, 100));
    for (int i = 0; i < g->nstruct; i += 3)
        P("    acc += st%d(acc);\n", g->struct_fn[i]);
    for (int i = 0; i < g->nrecur; i += 3)
        P("    acc += rc%d(%uu, acc);\n", g->recur_fn[i], 5 + rnd(g, 10));
    for (int i = 0; i < g->nfloat; i += 3)
        P("    d += f%d(d, acc);\n", g->float_fn[i]);
    P("    return (int)(acc + (unsigned)d) & 0x7f;\n}\n");
}
