/* store: tokens, exactly-once puts, per-project isolation, the listings'
 * figures against values worked out by hand from the uploads below, bodies
 * byte for byte, and a reopened store keeping all of it.
 *
 * Without an argument it runs on SQLite in a temporary folder. With a
 * postgresql:// URI it makes a fresh database on that server and runs the
 * same checks there (tests/store/check_store_pg.sh starts a server). */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lowprof/store.h"
#include "../lp_test.h"
#include "store_test_pg.h"

/* ---- collecting listing rows ------------------------------------------------------ */

typedef struct got_row {
    int64_t seq;
    char key[96];  /* program or build id of a group row */
    char message_id[80];
    char device[64];
    int64_t received_ms, first_ms;
    uint64_t uploads, devices, instructions;
    size_t body_size;
    unsigned char *body;
} got_row;

typedef struct got {
    got_row rows[64];
    size_t n;
    int by_build; /* group rows keyed by build id rather than program */
    int stop_after; /* return 7 after this many rows (0: never) */
} got;

static void got_reset(got *g)
{
    for (size_t i = 0; i < g->n; i++)
        free(g->rows[i].body);
    memset(g, 0, sizeof *g);
}

static int got_row_fn(void *ctx, const lp_store_row *r)
{
    got *g = ctx;
    if (g->n == sizeof g->rows / sizeof g->rows[0])
        return 99;
    got_row *o = &g->rows[g->n++];
    memset(o, 0, sizeof *o);
    o->seq = r->seq;
    snprintf(o->key, sizeof o->key, "%s", g->by_build ? r->build_id : r->program);
    snprintf(o->message_id, sizeof o->message_id, "%s", r->message_id);
    snprintf(o->device, sizeof o->device, "%s", r->device);
    o->received_ms = r->received_ms;
    o->first_ms = r->first_ms;
    o->uploads = r->uploads;
    o->devices = r->devices;
    o->instructions = r->instructions;
    o->body_size = r->body_size;
    if (r->body) {
        o->body = malloc(r->body_size + 1);
        memcpy(o->body, r->body, r->body_size);
    }
    return g->stop_after && g->n == (size_t)g->stop_after ? 7 : 0;
}

/* ---- the uploads ------------------------------------------------------------------ */

/* A body of known bytes: every value including NUL, so a text round trip
 * would show. */
static unsigned char *make_body(size_t size, unsigned seed)
{
    unsigned char *b = malloc(size + 1);
    uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
    for (size_t i = 0; i < size; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        b[i] = (unsigned char)(x >> 56);
    }
    return b;
}

/* Project A's uploads; "bb" gets the newest upload (m06), so builds in
 * latest-first order are bb, aa, the reverse of their names. */
typedef struct spec {
    const char *mid, *program, *build, *device;
    int64_t ms;
    uint64_t instructions;
    size_t size;
} spec;

static const spec first_batch[] = {
    {"m01", "p1", "bb", "d1", 1000, 100, 20000},
    {"m02", "p1", "bb", "d2", 2000, 200, 0},
    {"m03", "p1", "bb", "d1", 3000, 300, 1},
    {"m04", "p1", "aa", "d3", 1500, 400, 5000},
    {"m05", "p2", "cc", "d1", 500, 50, 100000},
};
/* New, old, new, new again within the batch. */
static const spec mixed_batch[] = {
    {"m06", "p1", "bb", "d3", 4000, 600, 777},
    {"m01", "p1", "bb", "d1", 1000, 100, 20000},
    {"m07", "p2", "cc", "d2", 6000, 70, 3},
    {"m06", "p1", "bb", "d3", 4000, 600, 777},
};

static unsigned body_seed(const char *mid)
{
    return (unsigned)atoi(mid + 1);
}

static int put_specs(lp_store *s, int64_t project, const spec *sp, size_t n, int *dup)
{
    lp_store_upload u[8] = {{0}};
    unsigned char *bodies[8];
    for (size_t i = 0; i < n; i++) {
        bodies[i] = make_body(sp[i].size, body_seed(sp[i].mid));
        u[i] = (lp_store_upload){.project = project, .message_id = sp[i].mid,
                                 .program = sp[i].program, .build_id = sp[i].build,
                                 .device = sp[i].device, .received_ms = sp[i].ms,
                                 .instructions = sp[i].instructions, .body = bodies[i],
                                 .body_size = sp[i].size};
    }
    int rc = lp_store_put(s, u, n, dup);
    for (size_t i = 0; i < n; i++)
        free(bodies[i]);
    return rc;
}

static const spec *find_spec(const char *mid)
{
    for (size_t i = 0; i < sizeof first_batch / sizeof first_batch[0]; i++)
        if (strcmp(first_batch[i].mid, mid) == 0)
            return &first_batch[i];
    for (size_t i = 0; i < sizeof mixed_batch / sizeof mixed_batch[0]; i++)
        if (strcmp(mixed_batch[i].mid, mid) == 0)
            return &mixed_batch[i];
    return NULL;
}

/* ---- checks ----------------------------------------------------------------------- */

static int is_token(const char *t)
{
    if (strlen(t) != LP_STORE_TOKEN_LEN || strncmp(t, "lpt_", 4) != 0)
        return 0;
    for (const char *p = t + 4; *p; p++)
        if (!strchr("0123456789abcdef", *p))
            return 0;
    return 1;
}

static void check_bad_where(const char *tmp)
{
    char where[512], err[512];
    snprintf(where, sizeof where, "%s/no-such-parent/data", tmp);
    lp_store *s = NULL;
    int rc = lp_store_open(where, &s, err, sizeof err);
    LP_CHECK(rc < 0);
    LP_CHECK(s == NULL);
    LP_CHECK(strstr(err, where) != NULL);
    if (!strstr(err, where))
        fprintf(stderr, "message: %s\n", err);
    rc = lp_store_open("", &s, err, sizeof err);
    LP_CHECK(rc == LP_EINVAL && err[0]);
}

static void check_bad_uri(void)
{
    /* Port 1 on loopback refuses; the message names the database and
     * never shows the password. */
    char err[512];
    lp_store *s = NULL;
    int rc = lp_store_open("postgresql://someone:s3cret@127.0.0.1:1/nodb?connect_timeout=5", &s,
                           err, sizeof err);
    LP_CHECK(rc == LP_EIO);
    LP_CHECK(s == NULL);
    LP_CHECK(strstr(err, "127.0.0.1:1/nodb") != NULL);
    LP_CHECK(strstr(err, "s3cret") == NULL);
    if (!strstr(err, "127.0.0.1:1/nodb") || strstr(err, "s3cret"))
        fprintf(stderr, "message: %s\n", err);
}

typedef struct projects {
    int64_t a, b;
    char token_a[LP_STORE_TOKEN_LEN + 1], token_b[LP_STORE_TOKEN_LEN + 1];
} projects;

static void check_tokens(lp_store *s, projects *p)
{
    char t2[LP_STORE_TOKEN_LEN + 1], revoked[LP_STORE_TOKEN_LEN + 1], name[64];
    LP_CHECK(lp_store_token_create(s, "alpha", p->token_a, sizeof p->token_a) == 0);
    LP_CHECK(lp_store_token_create(s, "alpha", t2, sizeof t2) == 0);
    LP_CHECK(lp_store_token_create(s, "beta", p->token_b, sizeof p->token_b) == 0);
    LP_CHECK(lp_store_token_create(s, "alpha", revoked, sizeof revoked) == 0);
    LP_CHECK(is_token(p->token_a) && is_token(t2) && is_token(p->token_b));
    LP_CHECK(strcmp(p->token_a, t2) != 0 && strcmp(p->token_a, p->token_b) != 0);

    int64_t id2 = 0;
    LP_CHECK(lp_store_token_check(s, p->token_a, &p->a, name, sizeof name) == 0);
    LP_CHECK(strcmp(name, "alpha") == 0);
    LP_CHECK(lp_store_token_check(s, t2, &id2, NULL, 0) == 0);
    LP_CHECK(p->a > 0 && id2 == p->a);
    LP_CHECK(lp_store_token_check(s, p->token_b, &p->b, name, sizeof name) == 0);
    LP_CHECK(strcmp(name, "beta") == 0);
    LP_CHECK(p->b > 0 && p->b != p->a);

    int64_t none = 42;
    LP_CHECK(lp_store_token_check(s, "lpt_000000000000000000000000000000000000", &none, name,
                                  sizeof name) == LP_ENOENT);
    LP_CHECK(none == 0 && name[0] == '\0');
    LP_CHECK(lp_store_token_check(s, "", NULL, NULL, 0) == LP_ENOENT);
    LP_CHECK(lp_store_token_check(s, "lpt_0000000000000000000000000000000000000000", NULL, NULL,
                                  0) == LP_ENOENT);

    LP_CHECK(lp_store_token_revoke(s, revoked) == 0);
    LP_CHECK(lp_store_token_check(s, revoked, NULL, NULL, 0) == LP_ENOENT);
    LP_CHECK(lp_store_token_revoke(s, revoked) == LP_ENOENT);
    LP_CHECK(lp_store_token_check(s, t2, NULL, NULL, 0) == 0); /* the others still work */

    char small[8];
    LP_CHECK(lp_store_token_create(s, "alpha", small, sizeof small) == LP_EINVAL);
    LP_CHECK(lp_store_token_create(s, "", t2, sizeof t2) == LP_EINVAL);
}

static void check_puts(lp_store *s, const projects *p)
{
    int dup[8];
    memset(dup, 0x55, sizeof dup);
    LP_CHECK(put_specs(s, p->a, first_batch, 5, dup) == 0);
    for (int i = 0; i < 5; i++)
        LP_CHECK(dup[i] == 0);
    LP_CHECK(put_specs(s, p->a, first_batch, 5, dup) == 0);
    for (int i = 0; i < 5; i++)
        LP_CHECK(dup[i] == 1);
    LP_CHECK(put_specs(s, p->a, mixed_batch, 4, dup) == 0);
    LP_CHECK(dup[0] == 0 && dup[1] == 1 && dup[2] == 0 && dup[3] == 1);
    LP_CHECK(put_specs(s, p->a, first_batch, 1, NULL) == 0); /* out_dup may be NULL */

    /* Project B reuses message id m01: a different upload. */
    static const spec b_batch[] = {{"m01", "p1", "bb", "dB", 9000, 9, 10}};
    LP_CHECK(put_specs(s, p->b, b_batch, 1, dup) == 0);
    LP_CHECK(dup[0] == 0);

    /* A batch that fails stores none of its uploads. */
    static const spec bad[] = {{"m50", "p1", "bb", "d1", 1, 1, 1},
                               {"m51-0123456789012345678901234567890123456789012345678901234567890",
                                "p1", "bb", "d1", 1, 1, 1}};
    LP_CHECK(put_specs(s, p->a, bad, 2, dup) == LP_EINVAL);
    LP_CHECK(strstr(lp_store_error(s), "upload 1") != NULL);
    static const spec orphan[] = {{"m60", "p1", "bb", "d1", 1, 1, 1}};
    LP_CHECK(put_specs(s, p->a, orphan, 1, dup) == 0);
    LP_CHECK(put_specs(s, 999999, orphan, 1, dup) == LP_ENOENT); /* no such project */
    static const spec bad_late[] = {{"m61", "p1", "bb", "d1", 1, 1, 1},
                                    {"m62", "p1", "bb", "d1", 1, 1, 1}};
    lp_store_upload u[2];
    for (int i = 0; i < 2; i++)
        u[i] = (lp_store_upload){.project = i ? 999999 : p->a, .message_id = bad_late[i].mid,
                                 .program = "p1", .build_id = "bb", .device = "d1",
                                 .body = "x", .body_size = 1};
    /* Refused by the database itself, after the first row went in. */
    LP_CHECK(lp_store_put(s, u, 2, dup) == LP_ENOENT);
    LP_CHECK(lp_store_error(s)[0] != '\0');
}

/* A batch larger than the PostgreSQL back end's pipeline chunk, with
 * duplicates spread through it, then one that fails in its second chunk,
 * in a project of their own. */
static void check_big_batch(lp_store *s)
{
    enum { N = 40 };
    char token[LP_STORE_TOKEN_LEN + 1], mids[N][16];
    int64_t gamma = 0;
    LP_CHECK(lp_store_token_create(s, "gamma", token, sizeof token) == 0);
    LP_CHECK(lp_store_token_check(s, token, &gamma, NULL, 0) == 0);
    lp_store_upload u[N];
    unsigned char *body = make_body(3000, 40);
    for (int i = 0; i < N; i++) {
        /* Uploads 3, 17 and 33 repeat earlier ones. */
        int k = i == 3 ? 1 : i == 17 ? 16 : i == 33 ? 2 : i;
        snprintf(mids[i], sizeof mids[i], "g%02d", k);
        u[i] = (lp_store_upload){.project = gamma, .message_id = mids[i], .program = "g",
                                 .build_id = "00", .device = "d", .received_ms = i,
                                 .instructions = 1, .body = body, .body_size = 3000};
    }
    int dup[N];
    LP_CHECK(lp_store_put(s, u, N, dup) == 0);
    int ndup = 0;
    for (int i = 0; i < N; i++)
        ndup += dup[i];
    LP_CHECK(ndup == 3 && dup[3] && dup[17] && dup[33]);
    LP_CHECK(lp_store_put(s, u, N, dup) == 0);
    ndup = 0;
    for (int i = 0; i < N; i++)
        ndup += dup[i];
    LP_CHECK_EQ_U64(ndup, N);

    for (int i = 0; i < N; i++)
        snprintf(mids[i], sizeof mids[i], "h%02d", i);
    u[20].project = 999999;
    LP_CHECK(lp_store_put(s, u, N, dup) == LP_ENOENT);
    u[20].project = gamma;

    static got g;
    got_reset(&g);
    LP_CHECK(lp_store_programs(s, gamma, got_row_fn, &g) == 0);
    LP_CHECK(g.n == 1 && g.rows[0].uploads == N - 3);
    got_reset(&g);
    LP_CHECK(lp_store_bodies(s, gamma, "g", "00", 0, 0, got_row_fn, &g) == 0);
    LP_CHECK_EQ_U64(g.n, N - 3);
    for (size_t i = 0; i < g.n; i++)
        LP_CHECK(g.rows[i].body_size == 3000 && memcmp(g.rows[i].body, body, 3000) == 0);
    got_reset(&g);
    free(body);
}

/* Everything the listings should say about the uploads above; m60 went
 * in as a single upload of p1/bb from d1 at 1 ms with 1 instruction. */
static void check_listings(lp_store *s, const projects *p)
{
    static got g;
    got_reset(&g);
    LP_CHECK(lp_store_programs(s, p->a, got_row_fn, &g) == 0);
    LP_CHECK_EQ_U64(g.n, 2);
    if (g.n == 2) {
        got_row *r = &g.rows[0];
        LP_CHECK(strcmp(r->key, "p1") == 0);
        LP_CHECK_EQ_U64(r->uploads, 6); /* m01 m02 m03 m04 m06 m60 */
        LP_CHECK_EQ_U64(r->devices, 3);
        LP_CHECK(r->first_ms == 1 && r->received_ms == 4000);
        LP_CHECK_EQ_U64(r->instructions, 100 + 200 + 300 + 400 + 600 + 1);
        r = &g.rows[1];
        LP_CHECK(strcmp(r->key, "p2") == 0);
        LP_CHECK_EQ_U64(r->uploads, 2);
        LP_CHECK_EQ_U64(r->devices, 2);
        LP_CHECK(r->first_ms == 500 && r->received_ms == 6000);
        LP_CHECK_EQ_U64(r->instructions, 120);
    }

    got_reset(&g);
    g.by_build = 1;
    LP_CHECK(lp_store_builds(s, p->a, "p1", got_row_fn, &g) == 0);
    LP_CHECK_EQ_U64(g.n, 2);
    if (g.n == 2) {
        got_row *r = &g.rows[0];
        LP_CHECK(strcmp(r->key, "bb") == 0);
        LP_CHECK_EQ_U64(r->uploads, 5);
        LP_CHECK_EQ_U64(r->devices, 3);
        LP_CHECK(r->first_ms == 1 && r->received_ms == 4000);
        LP_CHECK_EQ_U64(r->instructions, 1201);
        r = &g.rows[1];
        LP_CHECK(strcmp(r->key, "aa") == 0);
        LP_CHECK_EQ_U64(r->uploads, 1);
        LP_CHECK_EQ_U64(r->devices, 1);
        LP_CHECK(r->first_ms == 1500 && r->received_ms == 1500);
        LP_CHECK_EQ_U64(r->instructions, 400);
    }
    got_reset(&g);
    g.by_build = 1;
    LP_CHECK(lp_store_builds(s, p->a, "nothing", got_row_fn, &g) == 0);
    LP_CHECK_EQ_U64(g.n, 0);

    /* Uploads of p1/bb in seq order: m01 m02 m03 (first batch), m06
     * (mixed batch), m60. */
    static const char *const order[] = {"m01", "m02", "m03", "m06", "m60"};
    got_reset(&g);
    LP_CHECK(lp_store_uploads(s, p->a, "p1", "bb", 0, got_row_fn, &g) == 0);
    LP_CHECK_EQ_U64(g.n, 5);
    int64_t seqs[5] = {0};
    for (size_t i = 0; i < g.n && i < 5; i++) {
        const spec *sp = find_spec(order[i]);
        LP_CHECK(strcmp(g.rows[i].message_id, order[i]) == 0);
        LP_CHECK(g.rows[i].body == NULL);
        seqs[i] = g.rows[i].seq;
        if (i > 0)
            LP_CHECK(g.rows[i].seq > g.rows[i - 1].seq);
        if (sp) {
            LP_CHECK(strcmp(g.rows[i].device, sp->device) == 0);
            LP_CHECK(g.rows[i].received_ms == sp->ms);
            LP_CHECK_EQ_U64(g.rows[i].instructions, sp->instructions);
            LP_CHECK_EQ_U64(g.rows[i].body_size, sp->size);
        }
    }
    /* after_seq: only what came after m02. */
    got_reset(&g);
    LP_CHECK(lp_store_uploads(s, p->a, "p1", "bb", seqs[1], got_row_fn, &g) == 0);
    LP_CHECK_EQ_U64(g.n, 3);
    LP_CHECK(g.n == 3 && strcmp(g.rows[0].message_id, "m03") == 0 && g.rows[0].seq == seqs[2]);
    got_reset(&g);
    LP_CHECK(lp_store_uploads(s, p->a, "p1", "bb", seqs[4], got_row_fn, &g) == 0);
    LP_CHECK_EQ_U64(g.n, 0);

    /* Bodies: byte-exact, limited, after a seq. */
    got_reset(&g);
    LP_CHECK(lp_store_bodies(s, p->a, "p1", "bb", 0, 0, got_row_fn, &g) == 0);
    LP_CHECK_EQ_U64(g.n, 5);
    for (size_t i = 0; i < g.n && i < 4; i++) {
        const spec *sp = find_spec(order[i]);
        unsigned char *want = make_body(sp->size, body_seed(sp->mid));
        LP_CHECK_EQ_U64(g.rows[i].body_size, sp->size);
        LP_CHECK(sp->size == 0 || (g.rows[i].body && memcmp(g.rows[i].body, want, sp->size) == 0));
        free(want);
    }
    got_reset(&g);
    LP_CHECK(lp_store_bodies(s, p->a, "p1", "bb", 0, 2, got_row_fn, &g) == 0);
    LP_CHECK(g.n == 2 && strcmp(g.rows[1].message_id, "m02") == 0);
    got_reset(&g);
    LP_CHECK(lp_store_bodies(s, p->a, "p1", "bb", seqs[2], 1, got_row_fn, &g) == 0);
    LP_CHECK(g.n == 1 && strcmp(g.rows[0].message_id, "m06") == 0);
    LP_CHECK(g.n == 1 && g.rows[0].body_size == 777 && g.rows[0].body);
    got_reset(&g);
    LP_CHECK(lp_store_bodies(s, p->a, "p2", "cc", 0, 0, got_row_fn, &g) == 0);
    LP_CHECK(g.n == 2 && g.rows[0].body_size == 100000);
    if (g.n == 2) {
        unsigned char *want = make_body(100000, 5);
        LP_CHECK(memcmp(g.rows[0].body, want, 100000) == 0);
        free(want);
    }

    /* A callback that stops the listing: its value comes back, and the
     * handle still works afterwards. */
    got_reset(&g);
    g.stop_after = 2;
    LP_CHECK(lp_store_bodies(s, p->a, "p1", "bb", 0, 0, got_row_fn, &g) == 7);
    LP_CHECK_EQ_U64(g.n, 2);
    got_reset(&g);
    LP_CHECK(lp_store_uploads(s, p->a, "p1", "bb", 0, got_row_fn, &g) == 0);
    LP_CHECK_EQ_U64(g.n, 5);

    /* Isolation: B holds one upload (its own m01), A's listings never
     * show it, and B's never show A's. */
    got_reset(&g);
    LP_CHECK(lp_store_programs(s, p->b, got_row_fn, &g) == 0);
    LP_CHECK(g.n == 1 && strcmp(g.rows[0].key, "p1") == 0 && g.rows[0].uploads == 1);
    got_reset(&g);
    LP_CHECK(lp_store_bodies(s, p->b, "p1", "bb", 0, 0, got_row_fn, &g) == 0);
    LP_CHECK(g.n == 1 && strcmp(g.rows[0].device, "dB") == 0 && g.rows[0].body_size == 10);
    LP_CHECK(g.n == 1 && g.rows[0].seq > seqs[3]);
    got_reset(&g);
    LP_CHECK(lp_store_uploads(s, p->a, "p1", "bb", 0, got_row_fn, &g) == 0);
    for (size_t i = 0; i < g.n; i++)
        LP_CHECK(strcmp(g.rows[i].device, "dB") != 0);
    got_reset(&g);
    LP_CHECK(lp_store_programs(s, 999999, got_row_fn, &g) == 0);
    LP_CHECK_EQ_U64(g.n, 0);
    got_reset(&g);
}

int main(int argc, char **argv)
{
    const char *server = argc > 1 ? argv[1] : NULL;
    char tmp[] = "/tmp/lp-store-XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    char where[512];
    if (server) {
        if (pg_fresh(server, "store_test", where, sizeof where) < 0)
            return 1;
    } else {
        snprintf(where, sizeof where, "%s/data", tmp);
    }

    check_bad_where(tmp);
    if (server)
        check_bad_uri();

    char err[512] = "";
    lp_store *s = NULL;
    int rc = lp_store_open(where, &s, err, sizeof err);
    LP_CHECK(rc == 0);
    if (rc < 0) {
        fprintf(stderr, "open: %s\n", err);
        return lp_test_done();
    }
    LP_CHECK(strcmp(lp_store_kind(s), server ? "postgresql" : "sqlite") == 0);
    LP_CHECK(strcmp(lp_store_error(s), "") == 0);
    if (!server) {
        char db[600];
        struct stat sb;
        snprintf(db, sizeof db, "%s/lowprof.db", where);
        LP_CHECK(stat(db, &sb) == 0);
    }

    projects p;
    memset(&p, 0, sizeof p);
    check_tokens(s, &p);
    check_puts(s, &p);
    check_big_batch(s);
    check_listings(s, &p);
    LP_CHECK(lp_store_check(s) == 0);

    /* A second handle sees the same (another thread or collector). */
    lp_store *s2 = NULL;
    LP_CHECK(lp_store_open(where, &s2, err, sizeof err) == 0);
    if (s2) {
        int dup = -1;
        LP_CHECK(put_specs(s2, p.a, mixed_batch, 1, &dup) == 0 && dup == 1);
        check_listings(s2, &p);
        lp_store_close(s2);
    }

    /* Reopened, everything is still there. */
    lp_store_close(s);
    s = NULL;
    /* No token is in the database's files, only digests of them. */
    if (!server) {
        static const char *const files[] = {"lowprof.db", "lowprof.db-wal"};
        for (int f = 0; f < 2; f++) {
            char path[600];
            snprintf(path, sizeof path, "%s/%s", where, files[f]);
            FILE *in = fopen(path, "rb");
            static char bytes[1 << 22];
            size_t n = in ? fread(bytes, 1, sizeof bytes, in) : 0;
            if (in)
                fclose(in);
            int found = 0;
            for (size_t i = 0; i + LP_STORE_TOKEN_LEN <= n && !found; i++)
                found = memcmp(bytes + i, p.token_a, LP_STORE_TOKEN_LEN) == 0 ||
                        memcmp(bytes + i, p.token_b, LP_STORE_TOKEN_LEN) == 0;
            LP_CHECK(!found);
        }
    }
    LP_CHECK(lp_store_open(where, &s, err, sizeof err) == 0);
    if (s) {
        int64_t id = 0;
        LP_CHECK(lp_store_token_check(s, p.token_b, &id, NULL, 0) == 0 && id == p.b);
        check_listings(s, &p);
        int dup[5];
        LP_CHECK(put_specs(s, p.a, first_batch, 5, dup) == 0);
        LP_CHECK(dup[0] == 1 && dup[4] == 1);
        LP_CHECK(lp_store_check(s) == 0);
        lp_store_close(s);
    }
    lp_store_close(NULL);

    if (!server) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
        if (system(cmd) != 0)
            fprintf(stderr, "test_store: could not remove %s\n", tmp);
    } else {
        rmdir(tmp);
    }
    return lp_test_done();
}
