/* The store's tests on PostgreSQL: a fresh database on the server the
 * harness started (tests/store/pg_harness.sh), so every run starts empty
 * whatever ran before it on that server. */
#ifndef STORE_TEST_PG_H
#define STORE_TEST_PG_H

#include <libpq-fe.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void pg_quiet(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

/* Replaces the URI's database with a new one made for this run. */
static int pg_fresh(const char *uri, const char *tag, char *out, size_t cap)
{
    PGconn *c = PQconnectdb(uri);
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "pg_fresh: %s: %s", uri, PQerrorMessage(c));
        PQfinish(c);
        return -1;
    }
    PQsetNoticeProcessor(c, pg_quiet, NULL);
    char db[64], sql[128];
    snprintf(db, sizeof db, "lp_%s_%ld", tag, (long)getpid());
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s", db);
    PQclear(PQexec(c, sql));
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", db);
    PGresult *r = PQexec(c, sql);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok)
        fprintf(stderr, "pg_fresh: %s: %s", sql, PQresultErrorMessage(r));
    PQclear(r);
    PQfinish(c);
    const char *scheme = strstr(uri, "://");
    const char *slash = scheme ? strchr(scheme + 3, '/') : NULL;
    size_t head = slash ? (size_t)(slash - uri) : strlen(uri);
    snprintf(out, cap, "%.*s/%s", (int)head, uri, db);
    return ok ? 0 : -1;
}

#endif
