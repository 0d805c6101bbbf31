/* Unit tests of the spool folder (src/upload/upload_spool.c): a spooled
 * message appears whole under its id and reads back as the same message;
 * listing is oldest first and sees only messages; the size limit deletes
 * the oldest and keeps the running drop count in `dropped`; a rejected
 * message moves aside with its reason. Everything happens in a temporary
 * folder, without a network. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, utimensat */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lp_test.h"

/* Paths here are a temporary folder plus short names: gcc's worry that
 * they might not fit 4 KB is noise (clang has no such warning). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
#include "../../../src/upload/upload_internal.h"

static const uint8_t demo_id[4] = {0x12, 0x34, 0x56, 0x78};

static void make_set(lp_profile_set *s, uint64_t salt)
{
    memset(s, 0, sizeof *s);
    LP_CHECK(lp_meta_set(&s->meta, "program", "/opt/demo") == 0);
    LP_CHECK(lp_module_map_add(&s->modules, "/opt/demo", 0x400000, 0x1000, 0, demo_id,
                               sizeof demo_id) == 0);
    lp_profile *p;
    LP_CHECK(lp_profile_set_add(s, LP_PROF_BLOCK, LP_PHASE_NONE, &p) == 0);
    for (uint64_t i = 0; i < 40; i++) {
        lp_entry *e = lp_table_upsert(&p->table, (lp_key){0x400100 + 8 * i, 0});
        e->v[0] = salt + i;
        e->v[1] = 3 * (salt + i);
    }
}

static char *read_text(const char *path)
{
    static char buf[512];
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static size_t count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

static void set_mtime(const char *dir, const char *name, time_t sec)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct timespec ts[2] = {{sec, 0}, {sec, 0}};
    LP_CHECK(utimensat(AT_FDCWD, path, ts, 0) == 0);
}

static void test_write_and_read(const char *root)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/a/spool", root); /* parents created too */
    lp_profile_set s;
    make_set(&s, 1);
    size_t meta_before = s.meta.count;
    char why[256] = "";
    LP_CHECK(lp_upload_spool_write(dir, &s, why, sizeof why) == 0);
    LP_CHECK(s.meta.count == meta_before); /* the caller's set is untouched */

    /* The name is the id identify gives. */
    lp_profile_set named = s;
    memset(&named.meta, 0, sizeof named.meta);
    LP_CHECK(lp_meta_copy(&named.meta, &s.meta) == 0);
    LP_CHECK(lp_upload_identify(&named, NULL) == 0);
    char want[128];
    snprintf(want, sizeof want, "%s.lpmsg", lp_meta_get(&named.meta, "message-id"));

    lp__spool_entry *v;
    size_t n;
    LP_CHECK(lp__spool_list(dir, &v, &n, why, sizeof why) == 0);
    LP_CHECK_EQ_U64(n, 1);
    LP_CHECK(n == 1 && strcmp(v[0].name, want) == 0);
    LP_CHECK_EQ_U64(count_entries(dir), 1); /* no temporary left behind */

    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, want);
    FILE *f = fopen(path, "rb");
    LP_CHECK(f != NULL);
    static uint8_t buf[1 << 16];
    size_t got = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    LP_CHECK(n == 1 && got == v[0].size);
    lp_profile_set back;
    lp_upload_id id;
    LP_CHECK(lp_upload_unpack(buf, got, 0, &back, &id, NULL, why, sizeof why) == 0);
    LP_CHECK(strcmp(id.message_id, lp_meta_get(&named.meta, "message-id")) == 0);
    LP_CHECK(strcmp(id.build_id, "12345678") == 0);
    LP_CHECK(back.count == 1 && back.profiles[0].table.count == 40);
    lp_profile_set_fini(&back);
    free(v);

    /* Writing it again replaces the one file. */
    LP_CHECK(lp_upload_spool_write(dir, &s, why, sizeof why) == 0);
    LP_CHECK_EQ_U64(count_entries(dir), 1);

    /* An id given by the runtime names the file; a hostile one is refused. */
    LP_CHECK(lp_meta_set(&s.meta, "message-id", "feedfacefeedface") == 0);
    LP_CHECK(lp_upload_spool_write(dir, &s, why, sizeof why) == 0);
    snprintf(path, sizeof path, "%s/feedfacefeedface.lpmsg", dir);
    LP_CHECK(access(path, R_OK) == 0);
    LP_CHECK(lp_meta_set(&s.meta, "message-id", "../../../../tmp/evil") == 0);
    LP_CHECK(lp_upload_spool_write(dir, &s, why, sizeof why) == LP_EINVAL);
    LP_CHECK(strstr(why, "message-id") != NULL);
    LP_CHECK_EQ_U64(count_entries(dir), 2);

    /* No build id: nothing written. */
    lp_profile_set nob;
    memset(&nob, 0, sizeof nob);
    LP_CHECK(lp_meta_set(&nob.meta, "program", "/opt/demo") == 0);
    LP_CHECK(lp_upload_spool_write(dir, &nob, why, sizeof why) == LP_ENOENT);
    LP_CHECK(strstr(why, "build id") != NULL);
    LP_CHECK_EQ_U64(count_entries(dir), 2);
    lp_profile_set_fini(&nob);

    lp_meta_fini(&named.meta);
    lp_profile_set_fini(&s);
}

/* Writes count messages into dir, the i-th with modification time base+t[i];
 * names[i] gets its file name; returns the size of one (all are equal). */
static uint64_t fill(const char *dir, size_t count, const time_t *t, char names[][128])
{
    uint64_t size = 0;
    for (size_t i = 0; i < count; i++) {
        lp_profile_set s;
        make_set(&s, 1000 + i); /* same encoded size for each */
        char why[256];
        LP_CHECK(lp_upload_spool_write(dir, &s, why, sizeof why) == 0);
        lp_profile_set_fini(&s);
    }
    /* Find which file is which by its content's first counter. */
    lp__spool_entry *v;
    size_t n;
    char why[256];
    LP_CHECK(lp__spool_list(dir, &v, &n, why, sizeof why) == 0);
    LP_CHECK_EQ_U64(n, count);
    for (size_t k = 0; k < n; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, v[k].name);
        static uint8_t buf[1 << 16];
        FILE *f = fopen(path, "rb");
        size_t got = f ? fread(buf, 1, sizeof buf, f) : 0;
        if (f)
            fclose(f);
        lp_profile_set s;
        lp_upload_id id;
        LP_CHECK(lp_upload_unpack(buf, got, 0, &s, &id, NULL, why, sizeof why) == 0);
        lp_key k0 = {0x400100, 0};
        const lp_entry *e = s.count ? lp_table_find(&s.profiles[0].table, k0) : NULL;
        size_t i = e ? (size_t)(e->v[0] - 1000) : 0;
        LP_CHECK(e && i < count);
        if (e && i < count) {
            snprintf(names[i], 128, "%s", v[k].name);
            set_mtime(dir, v[k].name, t[i]);
        }
        size = v[k].size;
        lp_profile_set_fini(&s);
    }
    free(v);
    return size;
}

static void test_order_and_limit(const char *root)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/limit", root);
    /* Ages out of write order, two of them equal. */
    const time_t t[5] = {1700000300, 1700000100, 1700000500, 1700000100, 1700000200};
    char names[5][128];
    uint64_t one = fill(dir, 5, t, names);
    LP_CHECK(one > 0);

    /* Things that are not messages are not listed. */
    char path[4096];
    snprintf(path, sizeof path, "%s/notes.txt", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("not a message\n", f);
        fclose(f);
    }
    snprintf(path, sizeof path, "%s/.0123456789abcdef.lpmsg.XXXXXX", dir);
    f = fopen(path, "w");
    if (f)
        fclose(f);
    snprintf(path, sizeof path, "%s/folder.lpmsg", dir);
    LP_CHECK(mkdir(path, 0777) == 0);

    lp__spool_entry *v;
    size_t n;
    char why[256];
    LP_CHECK(lp__spool_list(dir, &v, &n, why, sizeof why) == 0);
    LP_CHECK_EQ_U64(n, 5);
    /* Oldest first; the two equal times by name. */
    const char *lo = strcmp(names[1], names[3]) < 0 ? names[1] : names[3];
    const char *hi = lo == names[1] ? names[3] : names[1];
    const char *want[5] = {lo, hi, names[4], names[0], names[2]};
    for (size_t i = 0; i < 5 && i < n; i++)
        LP_CHECK(strcmp(v[i].name, want[i]) == 0);
    free(v);

    /* No limit, or within it: nothing goes. */
    uint64_t dropped = 99;
    LP_CHECK(lp__spool_enforce(dir, 0, &dropped, why, sizeof why) == 0);
    LP_CHECK_EQ_U64(dropped, 0);
    LP_CHECK(lp__spool_enforce(dir, 5 * one, &dropped, why, sizeof why) == 0);
    LP_CHECK_EQ_U64(dropped, 0);
    LP_CHECK_EQ_U64(lp__spool_dropped_read(dir), 0);

    /* Room for three and a half: the two oldest go. */
    LP_CHECK(lp__spool_enforce(dir, 3 * one + one / 2, &dropped, why, sizeof why) == 0);
    LP_CHECK_EQ_U64(dropped, 2);
    LP_CHECK_EQ_U64(lp__spool_dropped_read(dir), 2);
    snprintf(path, sizeof path, "%s/dropped", dir);
    const char *text = read_text(path);
    LP_CHECK(text && strcmp(text, "2\n") == 0);
    LP_CHECK(lp__spool_list(dir, &v, &n, why, sizeof why) == 0);
    LP_CHECK_EQ_U64(n, 3);
    for (size_t i = 0; i < 3 && i < n; i++)
        LP_CHECK(strcmp(v[i].name, want[i + 2]) == 0);
    free(v);

    /* The count runs on across calls (and so across restarts). */
    LP_CHECK(lp__spool_enforce(dir, one, &dropped, why, sizeof why) == 0);
    LP_CHECK_EQ_U64(dropped, 2);
    LP_CHECK_EQ_U64(lp__spool_dropped_read(dir), 4);
    LP_CHECK(lp__spool_list(dir, &v, &n, why, sizeof why) == 0);
    LP_CHECK(n == 1 && strcmp(v[0].name, names[2]) == 0);
    free(v);
    /* Less than one message: the spool empties. */
    LP_CHECK(lp__spool_enforce(dir, 1, &dropped, why, sizeof why) == 0);
    LP_CHECK_EQ_U64(dropped, 1);
    LP_CHECK_EQ_U64(lp__spool_dropped_read(dir), 5);

    /* A spool not made yet is empty, not an error. */
    snprintf(path, sizeof path, "%s/not-yet", root);
    LP_CHECK(lp__spool_enforce(path, 1, &dropped, why, sizeof why) == 0);
    LP_CHECK(lp__spool_list(path, &v, &n, why, sizeof why) == LP_ENOENT);
}

static void test_reject(const char *root)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/rej", root);
    char why[256];
    LP_CHECK(lp__spool_write_file(dir, "x.lpmsg", "abc", 3, why, sizeof why) == LP_EIO);
    LP_CHECK(mkdir(dir, 0777) == 0);
    LP_CHECK(lp__spool_write_file(dir, "x.lpmsg", "abc", 3, why, sizeof why) == 0);
    LP_CHECK(lp__spool_reject(dir, "x.lpmsg", "collector answered 400: meta program: missing",
                              why, sizeof why) == 0);
    char path[4096];
    snprintf(path, sizeof path, "%s/x.lpmsg", dir);
    LP_CHECK(access(path, F_OK) != 0);
    snprintf(path, sizeof path, "%s/rejected/x.lpmsg", dir);
    const char *text = read_text(path);
    LP_CHECK(text && strcmp(text, "abc") == 0);
    snprintf(path, sizeof path, "%s/rejected/x.lpmsg.why", dir);
    text = read_text(path);
    LP_CHECK(text && strcmp(text, "collector answered 400: meta program: missing\n") == 0);
    LP_CHECK(lp__spool_reject(dir, "gone.lpmsg", "r", why, sizeof why) == LP_EIO);
}

/* The agent, with nothing listening: a damaged message is set aside, a good
 * one is kept, and --once reports the collector unreachable. */
static void test_agent_offline(const char *root)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/offline", root);
    lp_profile_set s;
    make_set(&s, 7);
    char why[256];
    LP_CHECK(lp_upload_spool_write(dir, &s, why, sizeof why) == 0);
    lp_profile_set_fini(&s);
    LP_CHECK(lp__spool_write_file(dir, "0000000000000000.lpmsg", "garbage!", 8, why,
                                  sizeof why) == 0);
    set_mtime(dir, "0000000000000000.lpmsg", 1000);
    lp_agent_opts o = {0};
    o.spool = dir;
    o.collector = "http://127.0.0.1:1"; /* port 1: refused on loopback */
    o.token = "t";
    o.once = 1;
    o.quiet = 1;
    lp_agent_stats st;
    LP_CHECK(lp_agent_run(&o, &st) == 1);
    LP_CHECK_EQ_U64(st.rejected, 1);
    LP_CHECK_EQ_U64(st.sent, 0);
    LP_CHECK_EQ_U64(st.retries, 1);
    lp__spool_entry *v;
    size_t n;
    LP_CHECK(lp__spool_list(dir, &v, &n, why, sizeof why) == 0);
    LP_CHECK_EQ_U64(n, 1);
    free(v);
    char path[4096];
    snprintf(path, sizeof path, "%s/rejected/0000000000000000.lpmsg.why", dir);
    const char *text = read_text(path);
    LP_CHECK(text && strstr(text, "offset") != NULL);

    /* With a limit below one message, the agent drops it before trying. */
    o.max_spool = 10;
    LP_CHECK(lp_agent_run(&o, &st) == 0);
    LP_CHECK_EQ_U64(st.dropped, 1);
    LP_CHECK_EQ_U64(lp__spool_dropped_read(dir), 1);
}

int main(void)
{
    char root[] = "/tmp/lowprof-spool-XXXXXX";
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    test_write_and_read(root);
    test_order_and_limit(root);
    test_reject(root);
    test_agent_offline(root);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", root);
    return lp_test_done();
}
