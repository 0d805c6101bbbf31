/* lowprof-wlgen: writes every input of the workload suite for one size.
 *
 *   lowprof-wlgen [--list] small|full DIR
 *
 * The suite (workloads/suite.tsv) runs Debian's programs on these files. The
 * sizes are tuned so that each workload executes about 50-200 million
 * instructions at size small and 1-10 billion at size full (the measured
 * counts are in doc/workloads.md). Every file is a pure function of the size:
 * fixed seeds, this project's own generator, no downloads, so every run on
 * every machine writes the same bytes. Files are written under a temporary
 * name and renamed, so an interrupted run never leaves a truncated input
 * that looks finished. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wlgen.h"

/* Which generator makes a file, and its parameters. */
typedef enum out_kind { OUT_MIXED, OUT_CSRC, OUT_PPM, OUT_AUDIO, OUT_Y4M } out_kind;

typedef struct out_file {
    const char *name;
    out_kind kind;
    uint64_t seed;
    long p[3]; /* mixed: rounds, segment bytes; csrc: rounds, functions per group,
                  limit;
                  ppm: width, height; audio: seconds; y4m: width, height, frames */
    const char *what;
} out_file;

typedef struct size_spec {
    const char *name;
    const out_file *files;
} size_spec;

/* Sizes were set by measuring each workload under callgrind; see
 * doc/workloads.md for the counts these give. */
static const out_file small_files[] = {
    {"mixed.dat", OUT_MIXED, 11, {2, 30 << 10, 0}, "compressor input: bzip2 -9, bzip2 -d, gzip -9"},
    {"mixed-xz.dat", OUT_MIXED, 12, {2, 11 << 10, 0}, "compressor input: xz -6"},
    {"mixed-drv.dat", OUT_MIXED, 13, {2, 6 << 10, 0}, "compressor input: wl-bzip2, wl-zlib"},
    {"prog.c", OUT_CSRC, 14, {1, 0, 3}, "C source: cc1 -O2"},
    {"image.ppm", OUT_PPM, 15, {1024, 768, 0}, "image: cjpeg"},
    {"image-drv.ppm", OUT_PPM, 16, {320, 240, 0}, "image: wl-jpeg"},
    {"photo.ppm", OUT_PPM, 17, {1600, 1200, 0}, "image: encoded to photo.jpg for djpeg"},
    {"audio.l", OUT_AUDIO, 18, {20, 0, 0}, "8 kHz 16-bit linear audio: toast"},
    {"speech.l",
     OUT_AUDIO,
     19,
     {50, 0, 0},
     "8 kHz 16-bit linear audio: encoded to speech.gsm for untoast"},
    {"frames.y4m", OUT_Y4M, 20, {96, 64, 6}, "YUV4MPEG2 video: mpeg2enc"},
    {"clip.y4m", OUT_Y4M, 21, {176, 144, 100}, "YUV4MPEG2 video: encoded to clip.m2v for mpeg2dec"},
    {NULL, OUT_MIXED, 0, {0, 0, 0}, NULL},
};

static const out_file full_files[] = {
    {"mixed.dat",
     OUT_MIXED,
     31,
     {6, 256 << 10, 0},
     "compressor input: bzip2 -9, bzip2 -d, gzip -9"},
    {"mixed-xz.dat", OUT_MIXED, 32, {4, 160 << 10, 0}, "compressor input: xz -6"},
    {"mixed-drv.dat", OUT_MIXED, 33, {4, 128 << 10, 0}, "compressor input: wl-bzip2, wl-zlib"},
    {"prog.c", OUT_CSRC, 34, {4, 3, 0}, "C source: cc1 -O2"},
    {"image.ppm", OUT_PPM, 35, {4000, 3000, 0}, "image: cjpeg"},
    {"image-drv.ppm", OUT_PPM, 36, {1600, 1200, 0}, "image: wl-jpeg"},
    {"photo.ppm", OUT_PPM, 37, {5000, 4000, 0}, "image: encoded to photo.jpg for djpeg"},
    {"audio.l", OUT_AUDIO, 38, {600, 0, 0}, "8 kHz 16-bit linear audio: toast"},
    {"speech.l",
     OUT_AUDIO,
     39,
     {1200, 0, 0},
     "8 kHz 16-bit linear audio: encoded to speech.gsm for untoast"},
    {"frames.y4m", OUT_Y4M, 40, {128, 96, 100}, "YUV4MPEG2 video: mpeg2enc"},
    {"clip.y4m", OUT_Y4M, 41, {352, 288, 300}, "YUV4MPEG2 video: encoded to clip.m2v for mpeg2dec"},
    {NULL, OUT_MIXED, 0, {0, 0, 0}, NULL},
};

static const size_spec sizes[] = {
    {"small", small_files},
    {"full", full_files},
};

static int write_buf(FILE *f, const wl_buf *b)
{
    return fwrite(b->data, 1, b->size, f) == b->size ? 0 : -1;
}

static int generate(const out_file *o, FILE *f)
{
    wl_buf b = {0};
    int rc = 0;
    switch (o->kind) {
    case OUT_MIXED:
        wl_mixed_write(o->seed, (int)o->p[0], (size_t)o->p[1], &b);
        rc = write_buf(f, &b);
        break;
    case OUT_CSRC:
        wl_csrc_write(o->seed, (int)o->p[0], (int)o->p[1], (int)o->p[2], &b);
        rc = write_buf(f, &b);
        break;
    case OUT_PPM: {
        wl_image *im = wl_image_create(o->seed, (int)o->p[0], (int)o->p[1]);
        rc = wl_image_write_ppm(im, f);
        wl_image_free(im);
        break;
    }
    case OUT_AUDIO: {
        /* toast -l reads 16-bit samples in host byte order; the suite runs
         * on little-endian x86-64, so the file is little-endian. */
        wl_audio *a = wl_audio_create(o->seed);
        for (long i = 0; i < o->p[0] * 8000; i++)
            wl_buf_u16le(&b, (uint16_t)wl_audio_next(a));
        wl_audio_free(a);
        rc = write_buf(f, &b);
        break;
    }
    case OUT_Y4M: rc = wl_video_write(o->seed, (int)o->p[0], (int)o->p[1], (int)o->p[2], f); break;
    }
    wl_buf_free(&b);
    return rc;
}

static int write_file(const char *dir, const out_file *o)
{
    size_t n = strlen(dir) + strlen(o->name) + 16;
    char *path = wl_xmalloc(n), *tmp = wl_xmalloc(n);
    snprintf(path, n, "%s/%s", dir, o->name);
    snprintf(tmp, n, "%s/%s.tmp", dir, o->name);
    int rc = -1;
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        fprintf(stderr, "lowprof-wlgen: %s: %s\n", tmp, strerror(errno));
    } else {
        int gen_rc = generate(o, f);
        int err = errno;
        if (fclose(f) != 0 && gen_rc == 0) {
            gen_rc = -1;
            err = errno;
        }
        if (gen_rc != 0)
            fprintf(stderr, "lowprof-wlgen: %s: write failed: %s\n", tmp, strerror(err));
        else if (rename(tmp, path) != 0)
            fprintf(stderr, "lowprof-wlgen: %s: %s\n", path, strerror(errno));
        else
            rc = 0;
        if (rc != 0)
            remove(tmp);
    }
    free(path);
    free(tmp);
    return rc;
}

/* Bumped whenever any generator's output changes, so that prepared input
 * folders (which record it) are known to be stale and are remade. */
#define WLGEN_INPUTS_VERSION 1

static int usage(FILE *out, int code)
{
    fputs("usage: lowprof-wlgen [--list] small|full DIR\n"
          "       lowprof-wlgen --version\n"
          "\n"
          "Writes the inputs of the lowprof workload suite for one size into DIR\n"
          "(created if missing). The output is the same on every run. --list\n"
          "names the files and what they are for, without writing them.\n"
          "--version prints the version of the inputs, which changes whenever\n"
          "any generated file does.\n",
          out);
    return code;
}

int main(int argc, char **argv)
{
    int list = 0, argi = 1;
    if (argi < argc && (strcmp(argv[argi], "-h") == 0 || strcmp(argv[argi], "--help") == 0))
        return usage(stdout, 0);
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("lowprof-wlgen inputs %d\n", WLGEN_INPUTS_VERSION);
        return 0;
    }
    if (argi < argc && strcmp(argv[argi], "--list") == 0) {
        list = 1;
        argi++;
    }
    if (argc - argi != (list ? 1 : 2) && !(list && argc - argi == 2))
        return usage(stderr, 2);
    const size_spec *spec = NULL;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(argv[argi], sizes[i].name) == 0)
            spec = &sizes[i];
    if (!spec) {
        fprintf(stderr, "lowprof-wlgen: unknown size '%s' (expected small or full)\n", argv[argi]);
        return 2;
    }
    if (list) {
        for (const out_file *o = spec->files; o->name; o++)
            printf("%-14s %s\n", o->name, o->what);
        return 0;
    }
    const char *dir = argv[argi + 1];
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "lowprof-wlgen: %s: %s\n", dir, strerror(errno));
        return 1;
    }
    for (const out_file *o = spec->files; o->name; o++) {
        if (write_file(dir, o) != 0)
            return 1;
    }
    return 0;
}
