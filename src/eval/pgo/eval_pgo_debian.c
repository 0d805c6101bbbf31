/* lowprof eval pgo: Debian's bzip2 as a fifth kind of program, built from
 * its source package. The source is fetched once into OUT/cache with apt's
 * own client: a private sources list of deb-src entries for the archive the
 * system's apt already uses (its deb822 file with the type changed), and
 * apt's lists and cache under OUT/cache/apt, so the system's configuration
 * is left as it was. The fetched source is never part of the project.
 *
 * bzip2 prints no checksum: it compresses generated text (words drawn by a
 * fixed LCG, so the input is the same on every machine) to stdout, and each
 * build must write what the plain build wrote. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "eval_pgo.h"
#include "../native/eval_native.h"
#include "lowprof/host.h"

/* The library and the command, as the package's Makefile builds them. */
static const char *const bzip2_sources[] = {"blocksort.c", "huffman.c",  "crctable.c",
                                            "randtable.c", "compress.c", "decompress.c",
                                            "bzlib.c",     "bzip2.c",    NULL};

/* The system's deb822 list of Debian's archive. */
static const char system_sources[] = "/etc/apt/sources.list.d/debian.sources";

/* Writes the generated text of size bytes to path unless it is there. */
static int make_input(const char *path, size_t size)
{
    struct stat st;
    if (stat(path, &st) == 0 && (size_t)st.st_size == size)
        return 0;
    static const char *const words[] = {
        "profile", "branch", "sample", "window", "counter", "method", "edge",  "block",
        "the",     "of",     "a",      "and",    "to",      "in",     "value", "load",
        "compile", "hot",    "cold",   "call",   "return",  "loop",   "phase", "trace"};
    FILE *f = fopen(path, "w");
    if (!f)
        return lp_host_fail("%s: %s", path, strerror(errno));
    uint64_t x = 12345;
    for (size_t n = 0; n < size;) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        const char *w = words[(x >> 33) % (sizeof words / sizeof words[0])];
        char sep = (x >> 20) % 13 == 0 ? '\n' : ' ';
        for (const char *c = w; *c && n < size; c++, n++)
            fputc(*c, f);
        if (n < size)
            fputc(sep, f), n++;
    }
    return lp__eval_close(f, path) ? 1 : 0;
}

/* Finds the folder bzip2-VERSION under src that holds bzip2.c; 0 and its
 * path in out, or -1. */
static int find_source(const char *src, char *out, size_t cap)
{
    DIR *d = opendir(src);
    struct dirent *e;
    int found = -1;
    while (d && found && (e = readdir(d)) != NULL) {
        char probe[4400];
        if (strncmp(e->d_name, "bzip2-", 6) != 0 ||
            lp__eval_pathf(probe, sizeof probe, "%s/%s/bzip2.c", src, e->d_name) < 0)
            continue;
        struct stat st;
        if (stat(probe, &st) == 0 && lp__eval_pathf(out, cap, "%s/%s", src, e->d_name) >= 0)
            found = 0;
    }
    if (d)
        closedir(d);
    return found;
}

/* The system's Debian list with "Types: deb" turned into deb-src. */
static int write_sources(const char *path)
{
    uint8_t *text;
    size_t size;
    if (lp_host_read_file(system_sources, &text, &size) != 0)
        return lp_host_fail("no deb-src entry can be made without %s", system_sources);
    FILE *f = fopen(path, "w");
    if (!f) {
        lp_free(text);
        return lp_host_fail("%s: %s", path, strerror(errno));
    }
    const char *s = (const char *)text, *end = s + size;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
        if (len >= 6 && strncmp(s, "Types:", 6) == 0)
            fputs("Types: deb-src\n", f);
        else
            fprintf(f, "%.*s\n", (int)len, s);
        s += len + 1;
    }
    lp_free(text);
    return lp__eval_close(f, path) ? 1 : 0;
}

/* apt-get with its lists, cache and sources under apt_dir; from cwd. */
static int apt(const char *apt_dir, const char *cwd, const char *verb, const char *log)
{
    char cmd[8192];
    int n = snprintf(cmd, sizeof cmd,
                     "cd '%s' && exec apt-get -q -o Dir::Etc::SourceList=/dev/null "
                     "-o Dir::Etc::SourceParts='%s/sources.list.d' "
                     "-o Dir::State::Lists='%s/lists' -o Dir::Cache='%s/cache' "
                     "-o APT::Sandbox::User=root %s",
                     cwd, apt_dir, apt_dir, apt_dir, verb);
    if (n < 0 || (size_t)n >= sizeof cmd || strchr(apt_dir, '\''))
        return lp_host_fail("%s: path too long or quoted", apt_dir);
    char *argv[] = {"sh", "-c", cmd, NULL};
    int st = lp__en_spawn(argv, NULL, log, log);
    return st == 0 ? 0 : lp__en_failed(st, "apt-get", "", log);
}

/* Fetches the source once; its folder into dir. */
static int fetch(const char *cache, char *dir, size_t cap)
{
    char src[4400], apt_dir[4400], path[4500], log[4500];
    lp__eval_pathf(src, sizeof src, "%s/src", cache);
    lp__eval_pathf(apt_dir, sizeof apt_dir, "%s/apt", cache);
    if (find_source(src, dir, cap) == 0)
        return 0;
    if (!lp__en_have("apt-get") || !lp__en_have("dpkg-source"))
        return lp_host_fail("fetching bzip2's source needs apt-get and dpkg-source (dpkg-dev)");
    static const char *const sub[] = {"src", "apt/sources.list.d", "apt/lists/partial",
                                      "apt/cache/archives/partial"};
    for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
        lp__eval_pathf(path, sizeof path, "%s/%s", cache, sub[i]);
        if (lp__eval_make_out(path, log) != 0)
            return 1;
    }
    lp__eval_pathf(path, sizeof path, "%s/sources.list.d/debian-src.sources", apt_dir);
    if (write_sources(path) != 0)
        return 1;
    fprintf(stderr, "lowprof eval pgo: bzip2: apt-get source into %s\n", src);
    lp__eval_pathf(log, sizeof log, "%s/apt.log", cache);
    if (apt(apt_dir, src, "update", log) != 0 || apt(apt_dir, src, "source bzip2", log) != 0)
        return 1;
    if (find_source(src, dir, cap) != 0)
        return lp_host_fail("apt-get source left no bzip2-VERSION/bzip2.c under %s; see %s", src,
                            log);
    return 0;
}

int lp__pg_debian(const lp__pg_opts *o, lp__pg_program *p)
{
    char cache[4400], dir[4096];
    lp__eval_pathf(cache, sizeof cache, "%s/cache", o->out);
    if (lp__eval_make_out(cache, dir) != 0 || fetch(cache, dir, sizeof dir) != 0)
        return 1;
    snprintf(p->name, sizeof p->name, "bzip2");
    size_t k = 0;
    for (; bzip2_sources[k]; k++) {
        char *abs = malloc(strlen(dir) + strlen(bzip2_sources[k]) + 2);
        if (!abs)
            return lp_host_fail("out of memory");
        sprintf(abs, "%s/%s", dir, bzip2_sources[k]);
        p->sources[k] = abs;
    }
    p->sources[k] = NULL;
    p->link[0] = NULL;
    /* Trained on 256 KB (1 MB with --train large); measured on 16 MB
     * (about 2 s at -9) or on the training input in the small mode. */
    lp__eval_pathf(p->arg_buf[0], sizeof p->arg_buf[0], "%s/input-train%s.txt", cache,
                   o->train_small ? "" : "-large");
    lp__eval_pathf(p->arg_buf[1], sizeof p->arg_buf[1], "%s/input-measure.txt", cache);
    if (make_input(p->arg_buf[0], o->train_small ? 256 << 10 : 1 << 20) != 0 ||
        (o->full && make_input(p->arg_buf[1], 16 << 20) != 0))
        return 1;
    const char *train[] = {"-9", "-c", p->arg_buf[0], NULL};
    const char *measure[] = {"-9", "-c", p->arg_buf[o->full ? 1 : 0], NULL};
    memcpy(p->train, train, sizeof train);
    memcpy(p->measure, measure, sizeof measure);
    p->by_output = 1;
    return 0;
}
