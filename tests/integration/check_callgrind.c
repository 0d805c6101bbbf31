/* Exactness against an independent tool: lowprof's call counts checked
 * against Valgrind's callgrind on the same command (the method, the rules
 * and the results are in doc/crosscheck-callgrind.md).
 *
 *   check_callgrind [--skip-plt] LOWPROF WORKDIR -- CMD ARGS...
 *
 * Plain, both tools count a call through a PLT stub as a call of the stub
 * and the stub's jump as a call of the target (callgrind --skip-plt=no,
 * lowprof record --no-skip-plt). With --skip-plt, both run with their
 * defaults, which count it as one call of the target; the check then also
 * requires each of callgrind's 30 hottest caller -> callee pairs to have an
 * equal count in lowprof's profile.
 *
 * Runs CMD under callgrind and under `lowprof record`, with the same
 * environment, stdin and stdout, and puts both call profiles on one footing:
 * every call is keyed by the runtime address of the instruction that made it
 * (the call site) and the address it entered (the callee). lowprof records
 * exactly that; callgrind gives it with --dump-instr=yes, as addresses
 * relative to each object, which the lowprof module map turns back into
 * runtime addresses. Both sides are then named by one symbolizer, so the
 * comparison never depends on the two tools spelling a name differently.
 *
 * The two tools define "a call" differently in a few principled ways. Each
 * way is a rule below that removes the calls it explains from the side that
 * counts them (or moves both sides to a common key), and prints how many
 * calls it accounted for. What remains must be equal per call site, per
 * (caller, callee) function pair and per function; any difference is printed
 * in a table and makes the exit status 1. Exit 77 (skip) when valgrind,
 * callgrind or CMD is missing. Tuned for programs with tens of thousands of
 * call sites (cc1: 50,000 in a 2-billion-instruction run): callgrind's file
 * is streamed line by line and everything is kept in hash tables keyed by
 * address or interned name, so the cost is one pass over each file. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lp_itest.h"

#define SKIP 77

/* --skip-plt: both tools fold calls through PLT stubs into their targets. */
static int skip_plt;

/* The pseudo call site that the lazy-binding rule moves calls to. */
#define LAZY_SITE 1ULL

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("check_callgrind: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d)
        die("out of memory");
    return d;
}

static lp_entry *upsert(lp_table *t, uint64_t a, uint64_t b)
{
    lp_entry *e = lp_table_upsert(t, (lp_key){a, b});
    if (!e)
        die("out of memory");
    return e;
}

/* ---- interned strings ---------------------------------------------------
 * Object and function names repeat on every callgrind record; interning
 * makes them small integers that key tables. Id 0 is "no string". */

static char **strs;
static size_t nstrs = 1, capstrs;
static lp_table str_index; /* (hash, probe) -> id */

static uint64_t str_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static uint32_t intern(const char *s)
{
    uint64_t h = str_hash(s);
    for (uint64_t probe = 0;; probe++) {
        lp_entry *e = upsert(&str_index, h, probe);
        if (e->v[0] == 0) {
            if (nstrs >= capstrs) {
                capstrs = capstrs ? capstrs * 2 : 1024;
                strs = xrealloc(strs, capstrs * sizeof *strs);
            }
            strs[nstrs] = xstrdup(s);
            e->v[0] = nstrs;
            return (uint32_t)nstrs++;
        }
        if (strcmp(strs[e->v[0]], s) == 0)
            return (uint32_t)e->v[0];
    }
}

static const char *str(uint32_t id)
{
    return id ? strs[id] : "";
}

/* ---- running the two tools ------------------------------------------------ */

/* Runs argv with stdin and stdout on /dev/null and stderr to err_path; the
 * environment is inherited, so both tools see the same one. Returns the exit
 * status, 128 + signal, or -1. */
static int run(char *const argv[], const char *err_path)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (null < 0 || err < 0)
            _exit(126);
        dup2(null, 0);
        dup2(null, 1);
        dup2(err, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* prog as execvp would find it (malloc'd), or NULL. */
static char *find_in_path(const char *prog)
{
    if (strchr(prog, '/'))
        return access(prog, X_OK) == 0 ? xstrdup(prog) : NULL;
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        const char *end = strchr(path, ':');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        char buf[PATH_MAX];
        if (n && snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, prog) < (int)sizeof buf &&
            access(buf, X_OK) == 0)
            return xstrdup(buf);
        path = end ? end + 1 : path + n;
    }
    return NULL;
}

/* ---- modules: runtime address <-> file, PLT sections, code bytes ----------- */

typedef struct range {
    uint64_t start, end, entsize; /* runtime addresses */
    int lazy_plt;                 /* ".plt": its first entry is PLT0, the lazy-binding jump */
} range;

typedef struct load_seg {
    uint64_t vaddr, filesz, offset;
} load_seg;

typedef struct modinfo {
    const lp_module *m;
    const char *base; /* file name without folders */
    char *real;       /* realpath of the file, or NULL */
    int elf_tried;
    int fd;
    range plt[4];
    size_t nplt;
    load_seg loads[16];
    size_t nloads;
    uint64_t *entries; /* sorted runtime entries of unnamed functions */
    size_t nentries, capentries;
} modinfo;

static lp_profile_set set;
static lp_symbolizer *sym;
static modinfo *mods;
static size_t nmods;

static void modules_init(void)
{
    nmods = set.modules.count;
    mods = calloc(nmods ? nmods : 1, sizeof *mods);
    if (!mods)
        die("out of memory");
    for (size_t i = 0; i < nmods; i++) {
        mods[i].m = &set.modules.items[i];
        const char *p = mods[i].m->path ? mods[i].m->path : "";
        const char *slash = strrchr(p, '/');
        mods[i].base = slash ? slash + 1 : p;
        mods[i].real = realpath(p, NULL);
        mods[i].fd = -1;
    }
}

static modinfo *module_of(uint64_t pc)
{
    for (size_t i = 0; i < nmods; i++)
        if (pc >= mods[i].m->start && pc - mods[i].m->start < mods[i].m->size)
            return &mods[i];
    return NULL;
}

/* Reads the section and program headers of mi's file once: the PLT
 * sections (to name stubs, which have no symbols) and the loadable segments
 * (to read instruction bytes). A missing file leaves both empty. */
static void module_load_elf(modinfo *mi)
{
    if (mi->elf_tried)
        return;
    mi->elf_tried = 1;
    if (!mi->m->path || mi->m->path[0] != '/')
        return;
    mi->fd = open(mi->m->path, O_RDONLY);
    if (mi->fd < 0)
        return;
    Elf *elf = elf_begin(mi->fd, ELF_C_READ, NULL);
    if (!elf)
        return;
    size_t shstrndx, nph;
    if (elf_getshdrstrndx(elf, &shstrndx) == 0) {
        for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
            GElf_Shdr sh;
            if (!gelf_getshdr(scn, &sh))
                continue;
            const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
            if (!name || strncmp(name, ".plt", 4) != 0 ||
                mi->nplt == sizeof mi->plt / sizeof *mi->plt)
                continue;
            range *r = &mi->plt[mi->nplt++];
            r->start = sh.sh_addr + (uint64_t)mi->m->bias;
            r->end = r->start + sh.sh_size;
            r->entsize = sh.sh_entsize ? sh.sh_entsize : 16;
            r->lazy_plt = strcmp(name, ".plt") == 0;
        }
    }
    if (elf_getphdrnum(elf, &nph) == 0) {
        for (size_t i = 0; i < nph && mi->nloads < sizeof mi->loads / sizeof *mi->loads; i++) {
            GElf_Phdr ph;
            if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
                mi->loads[mi->nloads++] = (load_seg){ph.p_vaddr, ph.p_filesz, ph.p_offset};
        }
    }
    elf_end(elf);
}

/* The PLT section of mi holding pc, or NULL. */
static const range *plt_of(modinfo *mi, uint64_t pc)
{
    module_load_elf(mi);
    for (size_t i = 0; i < mi->nplt; i++)
        if (pc >= mi->plt[i].start && pc < mi->plt[i].end)
            return &mi->plt[i];
    return NULL;
}

/* The lowprof module that a callgrind object name denotes: same path, same
 * file through links (lowprof runs Valgrind from a folder of links), or,
 * failing both, same file name. */
static modinfo *module_by_path(const char *path)
{
    char *real = realpath(path, NULL);
    modinfo *found = NULL;
    for (size_t i = 0; i < nmods && !found; i++)
        if ((mods[i].m->path && strcmp(mods[i].m->path, path) == 0) ||
            (real && mods[i].real && strcmp(mods[i].real, real) == 0))
            found = &mods[i];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    for (size_t i = 0; i < nmods && !found; i++)
        if (strcmp(mods[i].base, base) == 0)
            found = &mods[i];
    free(real);
    return found;
}

/* What kind of instruction is at a call site, decoded from the file. Only
 * what the rules need: call, return, conditional or unconditional jump, or
 * anything else (a site where control reached a function entry without a
 * branch: a block cut by size, a system call, Valgrind starting code). For
 * a direct jump, also where it goes. */
typedef enum insn_kind {
    INSN_UNKNOWN,
    INSN_CALL,
    INSN_RET,
    INSN_JCC,
    INSN_JMP,
    INSN_OTHER
} insn_kind;
static const char *const insn_names[] = {"?", "call", "ret", "jcc", "jmp", "other"};

typedef struct insn_info {
    insn_kind kind;
    uint64_t direct_target; /* direct jmp: its target, else 0 */
    uint64_t next;          /* direct jmp: the address after it, else 0 */
} insn_info;

static insn_info decode_at(uint64_t pc)
{
    insn_info in = {INSN_UNKNOWN, 0, 0};
    modinfo *mi = module_of(pc);
    if (!mi)
        return in;
    module_load_elf(mi);
    uint64_t vaddr = pc - (uint64_t)mi->m->bias;
    unsigned char b[16];
    ssize_t got = -1;
    for (size_t i = 0; i < mi->nloads; i++) {
        const load_seg *s = &mi->loads[i];
        if (vaddr >= s->vaddr && vaddr - s->vaddr < s->filesz) {
            got = pread(mi->fd, b, sizeof b, (off_t)(s->offset + (vaddr - s->vaddr)));
            break;
        }
    }
    if (got < (ssize_t)sizeof b)
        return in;
    size_t i = 0;
    /* Legacy prefixes (operand/address size, rep/bnd, segments, lock),
     * then at most one REX. */
    while (i < 8 && (b[i] == 0x66 || b[i] == 0x67 || b[i] == 0xf2 || b[i] == 0xf3 || b[i] == 0x2e ||
                     b[i] == 0x3e || b[i] == 0x26 || b[i] == 0x36 || b[i] == 0x64 || b[i] == 0x65 ||
                     b[i] == 0xf0))
        i++;
    if ((b[i] & 0xf0) == 0x40)
        i++;
    unsigned op = b[i];
    in.kind = INSN_OTHER;
    if (op == 0xe8) {
        in.kind = INSN_CALL;
    } else if (op == 0xe9 || op == 0xeb) {
        in.kind = INSN_JMP;
        int32_t rel;
        if (op == 0xeb) {
            rel = (int8_t)b[i + 1];
            in.next = pc + i + 2;
        } else {
            rel = (int32_t)((uint32_t)b[i + 1] | (uint32_t)b[i + 2] << 8 |
                            (uint32_t)b[i + 3] << 16 | (uint32_t)b[i + 4] << 24);
            in.next = pc + i + 5;
        }
        in.direct_target = in.next + (uint64_t)(int64_t)rel;
    } else if (op == 0xc3 || op == 0xc2) {
        in.kind = INSN_RET;
    } else if ((op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3)) {
        in.kind = INSN_JCC;
    } else if (op == 0x0f && b[i + 1] >= 0x80 && b[i + 1] <= 0x8f) {
        in.kind = INSN_JCC;
    } else if (op == 0xff) {
        unsigned reg = (b[i + 1] >> 3) & 7;
        if (reg == 2 || reg == 3)
            in.kind = INSN_CALL;
        else if (reg == 4 || reg == 5)
            in.kind = INSN_JMP;
    }
    return in;
}

static insn_kind insn_at(uint64_t pc)
{
    return pc == LAZY_SITE ? INSN_UNKNOWN : decode_at(pc).kind;
}

/* ---- call records -------------------------------------------------------- */

/* One (call site, callee) pair with what each tool counted. */
typedef struct site_rec {
    uint64_t site, callee;
    uint64_t lp, lp_tail, cg; /* as recorded */
    uint64_t cg_self;         /* callgrind calls made in a frame of the callee itself */
    uint64_t lp_n, cg_n;      /* after the rules */
    unsigned rules;           /* 1 << rule for each rule that changed lp_n or cg_n */
} site_rec;

static site_rec *recs;
static size_t nrecs, caprecs;
static lp_table rec_index; /* (site, callee) -> index + 1 */

static site_rec *rec_get(uint64_t site, uint64_t callee)
{
    lp_entry *e = upsert(&rec_index, site, callee);
    if (!e->v[0]) {
        if (nrecs == caprecs) {
            caprecs = caprecs ? caprecs * 2 : 4096;
            recs = xrealloc(recs, caprecs * sizeof *recs);
        }
        memset(&recs[nrecs], 0, sizeof *recs);
        recs[nrecs].site = site;
        recs[nrecs].callee = callee;
        e->v[0] = ++nrecs;
    }
    return &recs[e->v[0] - 1];
}

/* Callgrind charges a call to the function of the frame it was made in (the
 * function entered by the last call), which is not always the function
 * holding the call instruction; kept per record to count those calls. */
typedef struct cg_call {
    uint64_t site, callee, count;
    uint32_t ctx_fn, ctx_ob;
} cg_call;

static cg_call *cgcalls;
static size_t ncgcalls, capcgcalls;
static lp_table cg_entry_of;     /* (object id, function id) -> callee address, v1 = ambiguous */
static uint64_t cg_unmapped;     /* callgrind calls in objects lowprof's map lacks */
static uint64_t cg_instructions; /* the run's Ir total (summary:) */
static lp_table cg_bias_cache;   /* object id -> load bias; v1 = 1 found, 2 not found */

/* ---- function labels ------------------------------------------------------
 * A function is identified by its start address; its name is only for
 * printing. Named code: the symbol holding the address. PLT stubs: the
 * entry of the PLT section, named after the function it jumps to. Code with
 * no symbol (stripped programs): the nearest callee entry at or below the
 * address that either tool saw called, named object+offset (callgrind, too,
 * names such code after the address where it was entered). */

typedef struct fn_label {
    uint64_t start;
    uint32_t name;
} fn_label;

static lp_table label_cache; /* addr -> start, name id */
static lp_table plt_target;  /* PLT entry -> name id of its one tail target (v1: several) */

static void add_unnamed_entry(uint64_t addr)
{
    modinfo *mi = module_of(addr);
    lp_symbol s;
    lp_symbolize(sym, addr, &s);
    if (!mi || s.function || plt_of(mi, addr))
        return;
    if (mi->nentries == mi->capentries) {
        mi->capentries = mi->capentries ? mi->capentries * 2 : 64;
        mi->entries = xrealloc(mi->entries, mi->capentries * sizeof *mi->entries);
    }
    mi->entries[mi->nentries++] = addr;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void finish_unnamed_entries(void)
{
    for (size_t i = 0; i < nmods; i++) {
        modinfo *mi = &mods[i];
        if (mi->nentries > 1)
            qsort(mi->entries, mi->nentries, sizeof *mi->entries, cmp_u64);
        size_t k = 0;
        for (size_t j = 0; j < mi->nentries; j++)
            if (k == 0 || mi->entries[k - 1] != mi->entries[j])
                mi->entries[k++] = mi->entries[j];
        mi->nentries = k;
    }
}

static fn_label label_uncached(uint64_t addr)
{
    char buf[512];
    if (addr == LAZY_SITE)
        return (fn_label){LAZY_SITE, intern("[lazy binding: _dl_runtime_resolve]")};
    lp_symbol s;
    lp_symbolize(sym, addr, &s);
    modinfo *mi = module_of(addr);
    if (s.function)
        return (fn_label){s.function_start, intern(s.function)};
    if (!mi) {
        snprintf(buf, sizeof buf, "0x%" PRIx64, addr);
        return (fn_label){addr, intern(buf)};
    }
    const range *plt = plt_of(mi, addr);
    if (plt) {
        uint64_t start = plt->start + (addr - plt->start) / plt->entsize * plt->entsize;
        lp_entry *t = lp_table_find(&plt_target, (lp_key){start, 0});
        if (plt->lazy_plt && start == plt->start)
            snprintf(buf, sizeof buf, "%s+0x%" PRIx64 "[plt0]", mi->base,
                     start - (uint64_t)mi->m->bias);
        else if (t && !t->v[1])
            snprintf(buf, sizeof buf, "%s@plt", str((uint32_t)t->v[0]));
        else
            snprintf(buf, sizeof buf, "%s+0x%" PRIx64 "[plt]", mi->base,
                     start - (uint64_t)mi->m->bias);
        return (fn_label){start, intern(buf)};
    }
    size_t lo = 0, hi = mi->nentries;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (mi->entries[mid] <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint64_t start = lo ? mi->entries[lo - 1] : addr;
    snprintf(buf, sizeof buf, "%s+0x%" PRIx64, mi->base, start - (uint64_t)mi->m->bias);
    return (fn_label){start, intern(buf)};
}

static fn_label label(uint64_t addr)
{
    lp_entry *e = upsert(&label_cache, addr, 0);
    if (!e->v[1]) {
        fn_label l = label_uncached(addr);
        e->v[0] = l.start;
        e->v[1] = l.name;
    }
    return (fn_label){e->v[0], (uint32_t)e->v[1]};
}

/* Whether addr lies in a PLT section other than .plt, which Valgrind takes
 * for plain code (it knows only .plt as a PLT). */
static int in_unskipped_plt(uint64_t addr)
{
    modinfo *mi = module_of(addr);
    const range *r = mi ? plt_of(mi, addr) : NULL;
    return r && !r->lazy_plt;
}

static int is_resolver(uint64_t addr)
{
    lp_symbol s;
    lp_symbolize(sym, addr, &s);
    return s.function && strncmp(s.function, "_dl_runtime_resolve", 19) == 0;
}

/* ---- reading the two profiles -------------------------------------------- */

static void load_lowprof(const char *path)
{
    lp_itest_load(path, &set);
    if (lp_symbolizer_create(&set.modules, &sym) != LP_OK)
        die("cannot create the symbolizer");
    lp_profile *pairs = lp_profile_set_find(&set, LP_PROF_CALL_PAIR, LP_PHASE_NONE);
    if (!pairs)
        die("%s has no call-pair profile", path);
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(&pairs->table, &cur)) != NULL) {
        site_rec *r = rec_get(e->key.a, e->key.b);
        r->lp += e->v[0];
        r->lp_tail += e->v[1];
    }
}

/* Callgrind object names are file paths, or "???" for code outside every
 * object it knows (PLT sections among them), whose addresses are runtime
 * addresses; the others are relative to the object's load bias. */
static int cg_to_runtime(uint32_t ob, uint64_t addr, uint64_t *out)
{
    lp_table *cache = &cg_bias_cache;
    if (strcmp(str(ob), "???") == 0) {
        *out = addr;
        return 1;
    }
    lp_entry *e = upsert(cache, ob, 0);
    if (!e->v[1]) {
        modinfo *mi = module_by_path(str(ob));
        e->v[1] = mi ? 1 : 2;
        e->v[0] = mi ? (uint64_t)mi->m->bias : 0;
        if (!mi)
            fprintf(stderr, "check_callgrind: callgrind object %s is not in lowprof's module map\n",
                    str(ob));
    }
    *out = addr + e->v[0];
    return e->v[1] == 1;
}

static void add_cg_call(uint32_t ob, uint32_t fn, uint32_t cob, uint32_t cfn, uint64_t count,
                        uint64_t target, uint64_t source)
{
    uint64_t site, callee;
    int ok = cg_to_runtime(ob, source, &site);
    ok &= cg_to_runtime(cob, target, &callee);
    if (!ok) {
        cg_unmapped += count;
        return;
    }
    site_rec *r = rec_get(site, callee);
    r->cg += count;
    /* The frame's function is the callee: a jump back to its own entry. */
    if (fn == cfn && ob == cob)
        r->cg_self += count;
    if (ncgcalls == capcgcalls) {
        capcgcalls = capcgcalls ? capcgcalls * 2 : 4096;
        cgcalls = xrealloc(cgcalls, capcgcalls * sizeof *cgcalls);
    }
    cgcalls[ncgcalls++] = (cg_call){site, callee, count, fn, ob};
    lp_entry *e = upsert(&cg_entry_of, cob, cfn);
    if (e->v[0] && e->v[0] != callee)
        e->v[1] = 1;
    e->v[0] = callee;
}

/* Reads the calls of a callgrind out file written with --compress-strings=no,
 * --compress-pos=no and --dump-instr=yes. A call is three lines under the
 * caller's fn=: cfn= (after an optional cob= when the callee lies in another
 * object), "calls=COUNT TARGET-ADDRESS LINE", then "SITE-ADDRESS LINE COST". */
static void load_callgrind(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        die("cannot open %s: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    uint32_t ob = intern("???"), fn = 0, cob = 0, cfn = 0;
    int positions_ok = 0, pending = 0;
    uint64_t pend_count = 0, pend_target = 0, lineno = 0;
    uint32_t pend_cob = 0, pend_cfn = 0;
    while ((n = getline(&line, &cap, f)) > 0) {
        lineno++;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = 0;
        if (pending) {
            char *end;
            uint64_t source = strtoull(line, &end, 0);
            if (end == line)
                die("%s:%" PRIu64 ": expected the call site after calls=", path, lineno);
            add_cg_call(ob, fn, pend_cob, pend_cfn, pend_count, pend_target, source);
            pending = 0;
        } else if (strncmp(line, "summary:", 8) == 0) {
            cg_instructions = strtoull(line + 8, NULL, 10);
        } else if (strncmp(line, "positions:", 10) == 0) {
            positions_ok = strstr(line, "instr") != NULL;
        } else if (strncmp(line, "ob=", 3) == 0) {
            ob = intern(line + 3);
        } else if (strncmp(line, "fn=", 3) == 0) {
            fn = intern(line + 3);
        } else if (strncmp(line, "cob=", 4) == 0) {
            cob = intern(line + 4);
        } else if (strncmp(line, "cfn=", 4) == 0) {
            cfn = intern(line + 4);
        } else if (strncmp(line, "calls=", 6) == 0) {
            char *end;
            pend_count = strtoull(line + 6, &end, 10);
            char *t = end;
            pend_target = strtoull(t, &end, 0);
            if (end == t || !positions_ok)
                die("%s:%" PRIu64 ": calls= without an instruction address (need "
                    "--dump-instr=yes --compress-pos=no)",
                    path, lineno);
            /* "(below main)" is a name; "(12)" would be a compressed one. */
            if (cfn && str(cfn)[0] == '(' && isdigit((unsigned char)str(cfn)[1]))
                die("%s: compressed names (need --compress-strings=no)", path);
            pend_cob = cob ? cob : ob;
            pend_cfn = cfn;
            cob = cfn = 0;
            pending = 1;
        }
    }
    free(line);
    fclose(f);
}

/* ---- the rules ------------------------------------------------------------ */

enum {
    RULE_LAZY,     /* lazy binding: the resolver's jump to the target */
    RULE_SELF,     /* a jump to the entry of the function whose frame runs */
    RULE_NOBRANCH, /* a function entry reached without a branch */
    RULE_RET,      /* a return that does not match callgrind's stack */
    RULE_NONENTRY, /* a jump into another object or section, not to a symbol */
    RULE_STUB,     /* --skip-plt: a stub outside .plt, which callgrind does not skip */
    RULE_COUNT
};

static const struct rule_info {
    const char *name;
    const char *why;
} rule_info[RULE_COUNT] = {
    {"lazy-binding", "callgrind pops _dl_runtime_resolve's frame and charges its jump to "
                     "the target to the PLT jump; lowprof records a tail call from the "
                     "resolver: both moved to one pseudo caller"},
    {"self-entry-jump", "callgrind counts a jump to the entry of the function whose frame "
                        "is running as a recursive call; for lowprof it is a loop"},
    {"no-branch-entry", "callgrind counts reaching a function entry without a branch "
                        "(fall-through, system call, Valgrind starting code) as a call"},
    {"ret-as-call", "callgrind counts a return that matches no frame of its stack (stack "
                    "pointer below the top frame's, or another return address) as a call to "
                    "where it lands; lowprof never counts a return"},
    {"cross-section-jump", "callgrind counts a jump into another object or section kind "
                           "(.text to .plt, to .fini code it has no object for) as a call; "
                           "the target has no symbol, so for lowprof it is no function entry"},
    {"unskipped-stub", "callgrind skips only .plt stubs: a call into a .plt.got or .plt.sec "
                       "stub and the stub's jump are two calls for it, one call of the "
                       "target for lowprof"},
};

static uint64_t rule_recs[RULE_COUNT], rule_lp[RULE_COUNT], rule_cg[RULE_COUNT];
static int at_symbol_start(uint64_t addr);
static int crosses_section(uint64_t from, uint64_t to);

/* The lazy-binding rule. With lazy binding the first call through a PLT
 * stub runs PLT0, which jumps to _dl_runtime_resolve*, which jumps to the
 * resolved function. Both tools count the jump into the resolver (from the
 * PLT0 jump). For the resolver's final jump, lowprof records a tail call
 * from inside the resolver; callgrind pops the resolver's frame first
 * (pop_on_jump in callgrind's setup_bbcc) and charges the call to the site
 * that entered the resolver. Both are moved to one pseudo site, per target,
 * so the per-target totals are still compared. */
static void rule_lazy(void)
{
    lp_table resolver_sites;
    lp_table_init(&resolver_sites, 16);
    for (size_t i = 0; i < nrecs; i++)
        if (recs[i].cg && is_resolver(recs[i].callee))
            upsert(&resolver_sites, recs[i].site, 0)->v[0] += recs[i].cg;
    size_t n = nrecs;
    for (size_t i = 0; i < n; i++) {
        site_rec *r = &recs[i];
        uint64_t lp_move = 0, cg_move = 0;
        if (r->lp_tail && is_resolver(r->site) && !is_resolver(r->callee))
            lp_move = r->lp_tail;
        lp_entry *rs = lp_table_find(&resolver_sites, (lp_key){r->site, 0});
        if (r->cg && !is_resolver(r->callee) && rs) {
            /* Plain, the site is PLT0's jump, which calls nothing else.
             * With --skip-plt it is the call through the stub, charged also
             * with every later call: only the first call per resolver call
             * went through the resolver. */
            cg_move = r->cg_n;
            if (skip_plt) {
                cg_move = rs->v[0] < r->cg_n ? rs->v[0] : r->cg_n;
                rs->v[0] -= cg_move;
            }
        }
        if (!lp_move && !cg_move)
            continue;
        r->lp_n -= lp_move;
        r->cg_n -= cg_move;
        r->rules |= 1u << RULE_LAZY;
        uint64_t callee = r->callee;
        site_rec *p = rec_get(LAZY_SITE, callee); /* may move recs */
        r = NULL;
        p->lp_n += lp_move;
        p->cg_n += cg_move;
        p->lp += lp_move;
        p->cg += cg_move;
        p->rules |= 1u << RULE_LAZY;
        rule_recs[RULE_LAZY]++;
        rule_lp[RULE_LAZY] += lp_move;
        rule_cg[RULE_LAZY] += cg_move;
    }
    lp_table_fini(&resolver_sites);
}

/* Whether a symbol starts at addr: what makes a jump target a function
 * entry for both tools (both ask Valgrind's symbol table; the symbolizer
 * reads the same ELF files). */
static int at_symbol_start(uint64_t addr)
{
    lp_symbol s;
    modinfo *mi = module_of(addr);
    if (mi && plt_of(mi, addr))
        return 0; /* named target@plt by the symbolizer, but no symbol to Valgrind */
    lp_symbolize(sym, addr, &s);
    return s.function && s.function_start == addr;
}

/* Callgrind's test for a jump that changes "object or section kind": the
 * two addresses lie in different modules (or one in none), or one lies in a
 * PLT section and the other does not. */
static int crosses_section(uint64_t from, uint64_t to)
{
    modinfo *a = module_of(from), *b = module_of(to);
    if (a != b)
        return 1;
    return a && (plt_of(a, from) != NULL) != (plt_of(b, to) != NULL);
}

/* The rules for calls only callgrind counts. Callgrind (setup_bbcc) turns
 * any transfer that is not a call or a return into a call when it lands on
 * the first instruction of a symbol or in another object, and a return that
 * does not match its stack into such a jump. lowprof counts call
 * instructions, and tail calls: unconditional jumps to the entry of another
 * function. The excess at a site is explained by what the site instruction
 * is; an excess at a call instruction, or at an unconditional jump into
 * another function's entry, is not. */
/* The record each rule took most calls from, as an example for the report. */
static site_rec rule_example[RULE_COUNT]; /* copies: recs may move */
static uint64_t rule_example_n[RULE_COUNT];

static void rule_take(site_rec *r, int rule, uint64_t *excess, uint64_t n)
{
    if (!n)
        return;
    r->cg_n -= n;
    *excess -= n;
    r->rules |= 1u << rule;
    rule_recs[rule]++;
    rule_cg[rule] += n;
    if (n > rule_example_n[rule]) {
        rule_example_n[rule] = n;
        rule_example[rule] = *r;
    }
}

/* With --skip-plt, the unskipped-stub rule. Valgrind knows only .plt as a
 * PLT section, so callgrind does not skip the stubs in .plt.got and .plt.sec:
 * a call into one is a call of an unnamed function, and the stub's jump to
 * its target a second call (into another object or section kind). lowprof
 * skips them like the others, one call from the site to the target. The
 * stub's jumps are removed from callgrind's side, and its calls moved to the
 * functions the stub's jump reached: all to the one target when there is
 * one, else to each target up to what lowprof counted beyond callgrind from
 * that site (a stub reached the lazy-binding resolver once, then the
 * function). Runs after the lazy-binding rule, which takes the resolver's
 * share of the stub's jumps first. */
typedef struct stub_target {
    uint64_t stub, callee;
} stub_target;

static void rule_unskipped_stub(void)
{
    if (!skip_plt)
        return;
    stub_target *targets = NULL;
    size_t ntargets = 0;
    lp_table seen;
    lp_table_init(&seen, 16);
    for (size_t i = 0; i < nrecs; i++) {
        if (!recs[i].cg || !in_unskipped_plt(recs[i].site))
            continue;
        uint64_t stub = label(recs[i].site).start;
        lp_entry *e = upsert(&seen, stub, recs[i].callee);
        if (e->v[0]++)
            continue;
        targets = xrealloc(targets, (ntargets + 1) * sizeof *targets);
        targets[ntargets++] = (stub_target){stub, recs[i].callee};
    }
    size_t n = nrecs;
    for (size_t i = 0; i < n; i++) {
        uint64_t excess = recs[i].cg_n;
        if (!recs[i].cg_n || recs[i].site == LAZY_SITE)
            continue;
        if (in_unskipped_plt(recs[i].site)) {
            rule_take(&recs[i], RULE_STUB, &excess, recs[i].cg_n);
            continue;
        }
        if (!in_unskipped_plt(recs[i].callee))
            continue;
        uint64_t stub = label(recs[i].callee).start, site = recs[i].site;
        size_t count = 0;
        for (size_t k = 0; k < ntargets; k++)
            count += targets[k].stub == stub;
        for (size_t k = 0; k < ntargets && recs[i].cg_n; k++) {
            if (targets[k].stub != stub)
                continue;
            site_rec *t = rec_get(site, targets[k].callee); /* may move recs */
            uint64_t room = t->lp_n > t->cg_n ? t->lp_n - t->cg_n : 0;
            uint64_t moved = count == 1 ? recs[i].cg_n : room < recs[i].cg_n ? room : recs[i].cg_n;
            if (!moved)
                continue;
            t->cg_n += moved;
            t->rules |= 1u << RULE_STUB;
            rule_take(&recs[i], RULE_STUB, &excess, moved);
        }
    }
    free(targets);
    lp_table_fini(&seen);
}

static void rule_callgrind_jumps(void)
{
    for (size_t i = 0; i < nrecs; i++) {
        site_rec *r = &recs[i];
        if (r->cg_n <= r->lp_n || r->site == LAZY_SITE)
            continue;
        uint64_t excess = r->cg_n - r->lp_n;
        fn_label from = label(r->site), to = label(r->callee);
        insn_kind kind = insn_at(r->site);
        /* A jump to the entry of the function whose frame is running: for
         * callgrind a recursive call, for lowprof (which compares the
         * target with its shadow stack's top) a loop. The frame is known
         * per call from callgrind's context; a jump from the callee's own
         * code qualifies whatever the frame. */
        if (kind == INSN_JMP || kind == INSN_JCC) {
            /* More frame-self calls than the excess would mean lowprof
             * counted some of them: left unexplained. */
            if (from.start == to.start)
                rule_take(r, RULE_SELF, &excess, excess);
            else if (r->cg_self <= excess)
                rule_take(r, RULE_SELF, &excess, r->cg_self);
        }
        switch (kind) {
        case INSN_RET: rule_take(r, RULE_RET, &excess, excess); break;
        case INSN_OTHER: rule_take(r, RULE_NOBRANCH, &excess, excess); break;
        case INSN_JMP:
            if (!at_symbol_start(r->callee) && crosses_section(r->site, r->callee))
                rule_take(r, RULE_NONENTRY, &excess, excess);
            break;
        default: break;
        }
    }
}

/* A probable cause for a difference no rule explains, for the table. */
static const char *diagnose(const site_rec *r)
{
    if (r->site == LAZY_SITE)
        return "";
    if (r->lp_n > r->cg_n)
        return "lowprof counts more";
    insn_info in = decode_at(r->site);
    switch (in.kind) {
    case INSN_CALL: return "a call instruction lowprof did not count";
    case INSN_JCC: return "lowprof bug? a conditional jump to another function's entry";
    case INSN_JMP:
        if (in.direct_target && in.direct_target == in.next)
            return "lowprof bug: a jmp to the next instruction is taken for a block cut by size";
        return at_symbol_start(r->callee) ? "lowprof bug? a tail call lowprof did not count" : "";
    default: return "";
    }
}

/* ---- comparison and report ------------------------------------------------ */

typedef struct diff_row {
    uint32_t caller, callee; /* name ids (caller 0 for per-function rows) */
    uint64_t lp, cg;
} diff_row;

static int cmp_diff(const void *a, const void *b)
{
    const diff_row *x = a, *y = b;
    uint64_t dx = x->lp > x->cg ? x->lp - x->cg : x->cg - x->lp;
    uint64_t dy = y->lp > y->cg ? y->lp - y->cg : y->cg - y->lp;
    if (dx != dy)
        return dx > dy ? -1 : 1;
    int c = strcmp(str(x->caller), str(y->caller));
    return c ? c : strcmp(str(x->callee), str(y->callee));
}

static int cmp_count(const void *a, const void *b)
{
    const diff_row *x = a, *y = b;
    uint64_t cx = x->lp > x->cg ? x->lp : x->cg, cy = y->lp > y->cg ? y->lp : y->cg;
    if (cx != cy)
        return cx > cy ? -1 : 1;
    int c = strcmp(str(x->caller), str(y->caller));
    return c ? c : strcmp(str(x->callee), str(y->callee));
}

static void print_diff(const char *title, diff_row *rows, size_t n, int pairs)
{
    if (!n)
        return;
    qsort(rows, n, sizeof *rows, cmp_diff);
    printf("\n%s (%zu):\n  %14s %14s %14s  %s\n", title, n, "lowprof", "callgrind", "diff",
           pairs ? "caller -> callee" : "function");
    for (size_t i = 0; i < n; i++) {
        printf("  %14" PRIu64 " %14" PRIu64 " %+14" PRId64 "  ", rows[i].lp, rows[i].cg,
               (int64_t)(rows[i].lp - rows[i].cg));
        if (pairs)
            printf("%s -> %s\n", str(rows[i].caller), str(rows[i].callee));
        else
            printf("%s\n", str(rows[i].callee));
    }
}

/* One caller -> callee pair as both tools recorded it, before any rule. */
typedef struct hot_pair {
    uint64_t from, to; /* function starts */
    uint32_t caller, callee;
    uint32_t ex_caller, ex_callee; /* their keys in the export */
    uint64_t lp, cg;
    unsigned rules;
} hot_pair;

static int cmp_hot(const void *a, const void *b)
{
    const hot_pair *x = a, *y = b;
    if (x->cg != y->cg)
        return x->cg > y->cg ? -1 : 1;
    int c = strcmp(str(x->caller), str(y->caller));
    return c ? c : strcmp(str(x->callee), str(y->callee));
}

#define HOT_PAIRS 30

/* lowprof's own callgrind export of its profile: calls per (caller,
 * callee), each an interned "object<TAB>name" (two objects may both have
 * a ferror@plt). The hottest pairs are looked up in it, so what a user
 * opens (KCachegrind, callgrind_annotate) is checked, not only the
 * profile. */
static lp_table export_pairs;

static uint32_t object_name(const char *object, const char *name)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "%s\t%s", object, name);
    return intern(buf);
}

/* The export's key of the function labelled l. */
static uint32_t export_key(fn_label l)
{
    modinfo *mi = module_of(l.start);
    return object_name(mi && mi->m->path ? mi->m->path : "???", str(l.name));
}

static void load_export(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        die("cannot open lowprof's callgrind export %s: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    uint32_t ob = intern("???"), cob = 0, fn = 0, cfn = 0;
    while ((n = getline(&line, &cap, f)) > 0) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = 0;
        if (strncmp(line, "ob=", 3) == 0) {
            ob = intern(line + 3);
        } else if (strncmp(line, "fn=", 3) == 0) {
            fn = object_name(str(ob), line + 3);
        } else if (strncmp(line, "cob=", 4) == 0) {
            cob = intern(line + 4);
        } else if (strncmp(line, "cfn=", 4) == 0) {
            cfn = object_name(str(cob ? cob : ob), line + 4);
            cob = 0;
        } else if (strncmp(line, "calls=", 6) == 0 && fn && cfn) {
            upsert(&export_pairs, fn, cfn)->v[0] += strtoull(line + 6, NULL, 10);
            cfn = 0;
        }
    }
    free(line);
    fclose(f);
}

/* Callgrind's HOT_PAIRS hottest caller -> callee pairs as it recorded them
 * (no rule applied), each beside lowprof's count for the same two
 * functions. A pair whose counts differ is explained when the rules make
 * them equal (pair_agg: after the rules), and the rules that touched its
 * calls are named; otherwise it is unexplained. Returns how many are. */
static uint64_t check_hot_pairs(const lp_table *pair_agg)
{
    lp_table index, by_export_key;
    lp_table_init(&index, 1024);
    lp_table_init(&by_export_key, 1024);
    hot_pair *rows = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < nrecs; i++) {
        const site_rec *r = &recs[i];
        if (r->site == LAZY_SITE || (!r->lp && !r->cg && !r->rules))
            continue;
        fn_label from = label(r->site), to = label(r->callee);
        lp_entry *e = upsert(&index, from.start, to.start);
        if (!e->v[0]) {
            if (n == cap) {
                cap = cap ? 2 * cap : 256;
                rows = xrealloc(rows, cap * sizeof *rows);
            }
            rows[n] = (hot_pair){from.start, to.start, from.name, to.name, export_key(from),
                                 export_key(to), 0, 0, 0};
            e->v[0] = ++n;
        }
        hot_pair *h = &rows[e->v[0] - 1];
        /* Two functions of one object may share a name (ld.so has two
         * static check_match), and the export then shows their sum. */
        upsert(&by_export_key, h->ex_caller, h->ex_callee)->v[0] += r->lp;
        h->lp += r->lp;
        h->cg += r->cg;
        h->rules |= r->rules;
    }
    qsort(rows, n, sizeof *rows, cmp_hot);
    uint64_t bad = 0, equal = 0, explained = 0;
    printf("\ncallgrind's %d hottest caller -> callee pairs, as recorded:\n  %12s %12s %12s  "
           "%-11s %s\n",
           HOT_PAIRS, "callgrind", "lowprof", "its export", "verdict",
           "caller -> callee  [rules]");
    for (size_t i = 0; i < n && i < HOT_PAIRS && rows[i].cg; i++) {
        const hot_pair *h = &rows[i];
        const lp_entry *norm = lp_table_find(pair_agg, (lp_key){h->from, h->to});
        const lp_entry *x = lp_table_find(&export_pairs, (lp_key){h->ex_caller, h->ex_callee});
        uint64_t exported = x ? x->v[0] : 0;
        const lp_entry *same_name = lp_table_find(&by_export_key, (lp_key){h->ex_caller, h->ex_callee});
        const char *verdict = "equal";
        if (exported != (same_name ? same_name->v[0] : 0)) {
            verdict = "NOT-EXPORTED"; /* the export names or counts it otherwise */
            bad++;
        } else if (h->lp == h->cg) {
            equal++;
        } else if ((!norm || norm->v[0] == norm->v[1]) && h->rules) {
            /* no entry: the rules moved every call of the pair elsewhere */
            verdict = "explained";
            explained++;
        } else {
            verdict = "UNEXPLAINED";
            bad++;
        }
        printf("  %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "  %-11s %s -> %s", h->cg, h->lp,
               exported, verdict, str(h->caller), str(h->callee));
        if (h->lp != h->cg)
            for (int r = 0; r < RULE_COUNT; r++)
                if (h->rules & (1u << r))
                    printf("  [%s]", rule_info[r].name);
        printf("\n");
    }
    printf("hottest pairs: %" PRIu64 " equal, %" PRIu64 " explained by rules, %" PRIu64
           " unexplained\n",
           equal, explained, bad);
    free(rows);
    lp_table_fini(&index);
    lp_table_fini(&by_export_key);
    return bad;
}

/* With --skip-plt, lowprof must count no call into a stub of .plt (it
 * counts the call of the target instead), and, for each --expect-callee
 * NAME, some call of NAME with callgrind's count. Returns the failures. */
static uint64_t check_skipped(char **expect, int nexpect)
{
    uint64_t into_stub = 0, bad = 0;
    for (size_t i = 0; i < nrecs; i++) {
        modinfo *mi = module_of(recs[i].callee);
        const range *r = mi ? plt_of(mi, recs[i].callee) : NULL;
        if (r && r->lazy_plt && recs[i].lp)
            into_stub += recs[i].lp;
    }
    printf("lowprof calls into .plt stubs: %" PRIu64 "\n", into_stub);
    bad += into_stub != 0;
    for (int k = 0; k < nexpect; k++) {
        uint64_t lp = 0, cg = 0;
        for (size_t i = 0; i < nrecs; i++)
            if (recs[i].site != LAZY_SITE && strcmp(str(label(recs[i].callee).name), expect[k]) == 0) {
                lp += recs[i].lp_n;
                cg += recs[i].cg_n;
            }
        printf("calls of %s: lowprof %" PRIu64 ", callgrind %" PRIu64 "\n", expect[k], lp, cg);
        bad += !lp || lp != cg;
    }
    return bad;
}

/* Adds (lp, cg) to the aggregate keyed (a, b), remembering its names. */
static void agg_add(lp_table *t, lp_table *names, uint64_t a, uint64_t b, uint32_t na, uint32_t nb,
                    uint64_t lp, uint64_t cg)
{
    lp_entry *e = upsert(t, a, b);
    if (e->v[0] == 0 && e->v[1] == 0) {
        lp_entry *nm = upsert(names, a, b);
        nm->v[0] = na;
        nm->v[1] = nb;
    }
    e->v[0] += lp;
    e->v[1] += cg;
}

static size_t collect_diffs(const lp_table *t, const lp_table *names, diff_row **out)
{
    size_t n = 0, cap = 0, cur = 0;
    const lp_entry *e;
    *out = NULL;
    while ((e = lp_table_next(t, &cur)) != NULL) {
        if (e->v[0] == e->v[1])
            continue;
        const lp_entry *nm = lp_table_find(names, e->key);
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            *out = xrealloc(*out, cap * sizeof **out);
        }
        (*out)[n++] = (diff_row){(uint32_t)nm->v[0], (uint32_t)nm->v[1], e->v[0], e->v[1]};
    }
    return n;
}

/* Releases every global, so a leak checker sees only real leaks. */
static void free_all(void)
{
    for (size_t i = 0; i < nmods; i++) {
        free(mods[i].real);
        free(mods[i].entries);
        if (mods[i].fd >= 0)
            close(mods[i].fd);
    }
    free(mods);
    for (size_t i = 1; i < nstrs; i++)
        free(strs[i]);
    free(strs);
    free(recs);
    free(cgcalls);
    lp_table_fini(&str_index);
    lp_table_fini(&rec_index);
    lp_table_fini(&label_cache);
    lp_table_fini(&plt_target);
    lp_table_fini(&cg_entry_of);
    lp_table_fini(&cg_bias_cache);
    lp_table_fini(&export_pairs);
    lp_symbolizer_free(sym);
    lp_profile_set_fini(&set);
}

int main(int argc, char **argv)
{
    char *expect[8];
    int nexpect = 0;
    while (argc > 1) {
        if (strcmp(argv[1], "--skip-plt") == 0) {
            skip_plt = 1;
        } else if (strcmp(argv[1], "--expect-callee") == 0 && argc > 2 && nexpect < 8) {
            expect[nexpect++] = argv[2];
            argv++;
            argc--;
        } else {
            break;
        }
        argv++;
        argc--;
    }
    if (argc < 5 || strcmp(argv[3], "--") != 0 || (nexpect && !skip_plt)) {
        fprintf(stderr, "usage: check_callgrind [--skip-plt [--expect-callee NAME]...] LOWPROF "
                        "WORKDIR -- CMD ARGS...\n");
        return 2;
    }
    const char *lowprof = argv[1], *work = argv[2];
    char **cmd = &argv[4];
    int ncmd = argc - 4;

    const char *valgrind = getenv("LOWPROF_VALGRIND");
    if (!valgrind)
        valgrind = "/usr/bin/valgrind.bin";
    const char *vglib = getenv("VALGRIND_LIB");
    char tool[PATH_MAX];
    snprintf(tool, sizeof tool, "%s/callgrind-amd64-linux",
             vglib ? vglib : "/usr/libexec/valgrind");
    if (access(valgrind, X_OK) != 0 || access(tool, R_OK) != 0) {
        printf("SKIP: callgrind is not available (%s, %s)\n", valgrind, tool);
        return SKIP;
    }
    char *prog = find_in_path(cmd[0]);
    if (!prog) {
        printf("SKIP: %s is not installed\n", cmd[0]);
        return SKIP;
    }
    /* Both programs must start alike, and a program may look at the signal
     * dispositions it inherits (gzip and xz install handlers only for
     * signals not ignored). `lowprof record` starts its program with SIGINT
     * and SIGQUIT at their defaults whatever it inherited, so the callgrind
     * run gets the same: set here, inherited by both. */
    signal(SIGINT, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
    if (mkdir(work, 0755) != 0 && errno != EEXIST)
        die("cannot create %s: %s", work, strerror(errno));

    /* Callgrind. --skip-plt=no: PLT stubs are functions of their own, as for
     * lowprof --no-skip-plt (with the default, yes, both charge X -> stub ->
     * f as X -> f; that is --skip-plt here).
     * --dump-instr=yes with --compress-pos=no: every call carries the
     * absolute addresses of its site and its callee. --compress-strings=no:
     * plain names. --separate-recs=1: no "'2" recursion suffixes on names.
     * --demangle=no: the raw symbol names, as the symbolizer gives them. */
    char cg_out[PATH_MAX], cg_log[PATH_MAX], cg_err[PATH_MAX], lp_out[PATH_MAX], lp_err[PATH_MAX];
    char cg_out_opt[PATH_MAX + 32], cg_log_opt[PATH_MAX + 32];
    snprintf(cg_out, sizeof cg_out, "%s/callgrind.out", work);
    snprintf(cg_log, sizeof cg_log, "%s/callgrind.log", work);
    snprintf(cg_err, sizeof cg_err, "%s/callgrind.stderr", work);
    snprintf(lp_out, sizeof lp_out, "%s/lowprof.lpprof", work);
    snprintf(lp_err, sizeof lp_err, "%s/lowprof.stderr", work);
    snprintf(cg_out_opt, sizeof cg_out_opt, "--callgrind-out-file=%s", cg_out);
    snprintf(cg_log_opt, sizeof cg_log_opt, "--log-file=%s", cg_log);
    const char *cg_opts[] = {"--tool=callgrind",      cg_out_opt,          cg_log_opt,
                             "--compress-strings=no", "--compress-pos=no", "--dump-instr=yes",
                             skip_plt ? "--skip-plt=yes" : "--skip-plt=no",
                             "--separate-recs=1",     "--demangle=no"};
    const char *lp_opts[] = {"record",       "-q", "--profile",
                             "method,call-pair", "--no-imatrix", "-o", lp_out,
                             skip_plt ? NULL : "--no-skip-plt", "--"};
    size_t ncg = sizeof cg_opts / sizeof *cg_opts, nlp = sizeof lp_opts / sizeof *lp_opts;
    char **cgv = calloc(ncg + (size_t)ncmd + 3, sizeof *cgv);
    char **lpv = calloc(nlp + (size_t)ncmd + 2, sizeof *lpv);
    if (!cgv || !lpv)
        die("out of memory");
    size_t k = 0;
    cgv[k++] = (char *)valgrind;
    for (size_t i = 0; i < ncg; i++)
        cgv[k++] = (char *)cg_opts[i];
    cgv[k++] = prog;
    for (int i = 1; i < ncmd; i++)
        cgv[k++] = cmd[i];
    k = 0;
    lpv[k++] = (char *)lowprof;
    for (size_t i = 0; i < nlp; i++)
        if (lp_opts[i])
            lpv[k++] = (char *)lp_opts[i];
    lpv[k++] = prog;
    for (int i = 1; i < ncmd; i++)
        lpv[k++] = cmd[i];

    printf("command:");
    for (int i = 0; i < ncmd; i++)
        printf(" %s", i ? cmd[i] : prog);
    printf("\n");
    int cg_rc = run(cgv, cg_err);
    if (cg_rc != 0)
        die("callgrind run exited %d; see %s and %s", cg_rc, cg_log, cg_err);
    int lp_rc = run(lpv, lp_err);
    if (lp_rc != 0)
        die("lowprof record exited %d; see %s", lp_rc, lp_err);
    char lp_export[PATH_MAX];
    snprintf(lp_export, sizeof lp_export, "%s/lowprof.callgrind", work);
    char *exv[] = {(char *)lowprof, "export", "--format", "callgrind", "-o", lp_export, lp_out, NULL};
    int ex_rc = run(exv, lp_err);
    if (ex_rc != 0)
        die("lowprof export --format callgrind exited %d; see %s", ex_rc, lp_err);

    if (lp_table_init(&str_index, 4096) || lp_table_init(&rec_index, 4096) ||
        lp_table_init(&label_cache, 4096) || lp_table_init(&plt_target, 256) ||
        lp_table_init(&cg_entry_of, 1024) || lp_table_init(&export_pairs, 1024))
        die("out of memory");
    elf_version(EV_CURRENT);
    load_lowprof(lp_out);
    const char *complete = lp_meta_get(&set.meta, "complete");
    if (!complete || strcmp(complete, "yes") != 0)
        die("lowprof's profile is marked incomplete");
    modules_init();
    load_callgrind(cg_out);
    load_export(lp_export);

    /* Function starts for code without symbols, then PLT stub names. */
    for (size_t i = 0; i < nrecs; i++)
        add_unnamed_entry(recs[i].callee);
    finish_unnamed_entries();
    for (size_t i = 0; i < nrecs; i++) {
        modinfo *mi = module_of(recs[i].site);
        const range *plt = mi ? plt_of(mi, recs[i].site) : NULL;
        lp_symbol s;
        lp_symbolize(sym, recs[i].callee, &s);
        if (!plt || !recs[i].lp_tail || !s.function)
            continue;
        uint64_t start = plt->start + (recs[i].site - plt->start) / plt->entsize * plt->entsize;
        lp_entry *t = upsert(&plt_target, start, 0);
        uint32_t name = intern(s.function);
        if (t->v[0] && t->v[0] != name)
            t->v[1] = 1;
        t->v[0] = name;
    }

    /* Raw totals, then the rules. */
    uint64_t lp_total = 0, cg_total = 0, lp_tail_total = 0;
    for (size_t i = 0; i < nrecs; i++) {
        recs[i].lp_n = recs[i].lp;
        recs[i].cg_n = recs[i].cg;
        lp_total += recs[i].lp;
        cg_total += recs[i].cg;
        lp_tail_total += recs[i].lp_tail;
    }
    rule_lazy();
    rule_unskipped_stub();
    rule_callgrind_jumps();

    /* Callgrind's caller is the frame's function; ours is the function
     * holding the call instruction (the only one lowprof's key gives). */
    uint64_t ctx_moved = 0, ctx_unknown = 0;
    for (size_t i = 0; i < ncgcalls; i++) {
        const cg_call *c = &cgcalls[i];
        fn_label site_fn = label(c->site);
        const char *name = str(c->ctx_fn);
        if (strcmp(name, str(site_fn.name)) == 0)
            continue;
        /* Not the same name: locate the frame's function by its address,
         * which callgrind gives in the name of code without symbols, or as
         * the target of calls to that name (unless several functions of the
         * object share it). */
        uint64_t ctx = 0;
        if (strncmp(name, "0x", 2) == 0) {
            if (!cg_to_runtime(c->ctx_ob, strtoull(name, NULL, 16), &ctx))
                ctx = 0;
        } else {
            const lp_entry *e = lp_table_find(&cg_entry_of, (lp_key){c->ctx_ob, c->ctx_fn});
            ctx = e && !e->v[1] ? e->v[0] : 0;
        }
        if (!ctx)
            ctx_unknown += c->count;
        else if (label(ctx).start != site_fn.start)
            ctx_moved += c->count;
    }

    /* Aggregates: per site, per function pair, per function. */
    lp_table pair_agg, pair_names, fn_agg, fn_names;
    lp_table_init(&pair_agg, 4096);
    lp_table_init(&pair_names, 4096);
    lp_table_init(&fn_agg, 1024);
    lp_table_init(&fn_names, 1024);
    uint64_t lp_norm = 0, cg_norm = 0, site_diffs = 0;
    size_t nsites = 0;
    for (size_t i = 0; i < nrecs; i++) {
        site_rec *r = &recs[i];
        if (!r->lp_n && !r->cg_n)
            continue;
        nsites++;
        lp_norm += r->lp_n;
        cg_norm += r->cg_n;
        fn_label from = label(r->site), to = label(r->callee);
        agg_add(&pair_agg, &pair_names, from.start, to.start, from.name, to.name, r->lp_n, r->cg_n);
        agg_add(&fn_agg, &fn_names, to.start, 0, 0, to.name, r->lp_n, r->cg_n);
        if (r->lp_n != r->cg_n) {
            if (!site_diffs)
                printf("\nunexplained differences per call site:\n  %14s %14s  %-5s %s\n",
                       "lowprof", "callgrind", "insn", "site -> callee  [probable cause]");
            site_diffs++;
            const char *why = diagnose(r);
            printf("  %14" PRIu64 " %14" PRIu64 "  %-5s 0x%" PRIx64 " (%s) -> 0x%" PRIx64
                   " (%s)%s%s%s%s\n",
                   r->lp_n, r->cg_n, insn_names[insn_at(r->site)], r->site, str(from.name),
                   r->callee, str(to.name), r->lp_tail ? " [tail]" : "", why[0] ? "  [" : "", why,
                   why[0] ? "]" : "");
        }
    }

    /* lowprof's own consistency: a method's invocations are its incoming
     * calls, plus one for the block each thread started in. */
    uint64_t roots = 0, method_bad = 0;
    lp_profile *methods = lp_profile_set_find(&set, LP_PROF_METHOD, LP_PHASE_NONE);
    if (!methods)
        die("lowprof's profile has no method profile");
    lp_table incoming;
    lp_table_init(&incoming, 1024);
    for (size_t i = 0; i < nrecs; i++)
        if (recs[i].lp && recs[i].site != LAZY_SITE)
            upsert(&incoming, recs[i].callee, 0)->v[0] += recs[i].lp;
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(&methods->table, &cur)) != NULL) {
        const lp_entry *in = lp_table_find(&incoming, e->key);
        uint64_t calls = in ? in->v[0] : 0;
        if (e->v[0] == calls + 1 && calls == 0)
            roots++;
        else if (e->v[0] != calls) {
            method_bad++;
            printf("lowprof method 0x%" PRIx64 " (%s): %" PRIu64 " invocations, %" PRIu64
                   " incoming calls\n",
                   e->key.a, str(label(e->key.a).name), e->v[0], calls);
        }
    }

    /* The largest pairs, both counts side by side: what agreeing looks like. */
    {
        diff_row *all = NULL;
        size_t nall = 0, c = 0;
        const lp_entry *pe;
        while ((pe = lp_table_next(&pair_agg, &c)) != NULL) {
            const lp_entry *nm = lp_table_find(&pair_names, pe->key);
            all = xrealloc(all, (nall + 1) * sizeof *all);
            all[nall++] = (diff_row){(uint32_t)nm->v[0], (uint32_t)nm->v[1], pe->v[0], pe->v[1]};
        }
        qsort(all, nall, sizeof *all, cmp_count);
        printf("\nlargest caller -> callee pairs:\n  %14s %14s  %s\n", "lowprof", "callgrind",
               "caller -> callee");
        for (size_t i = 0; i < nall && i < 10; i++)
            printf("  %14" PRIu64 " %14" PRIu64 "  %s -> %s\n", all[i].lp, all[i].cg,
                   str(all[i].caller), str(all[i].callee));
        free(all);
    }

    uint64_t hot_bad = check_hot_pairs(&pair_agg);
    uint64_t skip_bad = skip_plt ? check_skipped(expect, nexpect) : 0;

    diff_row *pair_rows, *fn_rows;
    size_t npair = collect_diffs(&pair_agg, &pair_names, &pair_rows);
    size_t nfn = collect_diffs(&fn_agg, &fn_names, &fn_rows);
    print_diff("unexplained differences per caller -> callee", pair_rows, npair, 1);
    print_diff("unexplained differences per function (incoming calls)", fn_rows, nfn, 0);

    printf("\nrules (calls each accounted for):\n  %-18s %8s %12s %12s\n", "rule", "sites",
           "lowprof", "callgrind");
    for (int r = 0; r < RULE_COUNT; r++) {
        printf("  %-18s %8" PRIu64 " %12" PRIu64 " %12" PRIu64 "  %s\n", rule_info[r].name,
               rule_recs[r], rule_lp[r], rule_cg[r], rule_info[r].why);
        const site_rec *x = rule_example_n[r] ? &rule_example[r] : NULL;
        if (x)
            printf("  %-18s %8s %12s %12" PRIu64 "  e.g. %s 0x%" PRIx64 " (%s) -> %s\n", "", "", "",
                   rule_example_n[r], insn_names[insn_at(x->site)], x->site,
                   str(label(x->site).name), str(label(x->callee).name));
    }
    printf("\nnote: callgrind charges a call to the function of its frame (the last one entered "
           "by a call),\n  this table to the function holding the call instruction, the one "
           "lowprof's key gives;\n  the two differ for %" PRIu64 " callgrind calls",
           ctx_moved);
    if (ctx_unknown)
        printf(" (and %" PRIu64 " whose frame function is ambiguous by name)", ctx_unknown);
    printf("\n");

    /* Not compared: the two tools may count repeated string instructions
     * differently; printed so a reader sees the runs were the same size. */
    const char *lp_insns = lp_meta_get(&set.meta, "instructions");
    printf("\ninstructions: lowprof %s, callgrind %" PRIu64 "\n", lp_insns ? lp_insns : "?",
           cg_instructions);
    printf("lowprof: %" PRIu64 " calls (%" PRIu64 " tail calls), callgrind: %" PRIu64
           " calls; after the rules %" PRIu64 " and %" PRIu64 "\n",
           lp_total, lp_tail_total, cg_total, lp_norm, cg_norm);
    printf("lowprof: method invocations = incoming calls + %" PRIu64 " thread root(s); %" PRIu64
           " method(s) inconsistent\n",
           roots, method_bad);
    if (cg_unmapped)
        printf("callgrind calls in objects missing from lowprof's module map: %" PRIu64 "\n",
               cg_unmapped);
    size_t npairs = 0, nfns = 0;
    cur = 0;
    while (lp_table_next(&pair_agg, &cur))
        npairs++;
    cur = 0;
    while (lp_table_next(&fn_agg, &cur))
        nfns++;
    int bad = site_diffs || npair || nfn || method_bad || cg_unmapped || hot_bad || skip_bad;
    printf("check_callgrind: %s: %zu call sites, %zu caller->callee pairs, %zu functions; "
           "unexplained: %" PRIu64 " sites, %zu pairs, %zu functions, %" PRIu64 " of the %d "
           "hottest pairs\n",
           bad ? "FAIL" : "OK", nsites, npairs, nfns, site_diffs, npair, nfn, hot_bad, HOT_PAIRS);

    free(pair_rows);
    free(fn_rows);
    lp_table_fini(&incoming);
    lp_table_fini(&pair_agg);
    lp_table_fini(&pair_names);
    lp_table_fini(&fn_agg);
    lp_table_fini(&fn_names);
    free(cgv);
    free(lpv);
    free(prog);
    free_all();
    return bad ? 1 : 0;
}
