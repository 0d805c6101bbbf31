/* Placeholder: replaced by the full helpers. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
int lp_cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "lowprof %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'lowprof help %s'.\n", cmd);
    return 2;
}
int lp_cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "lowprof: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 1;
}
int lp_cli_wants_help(const char *cmd, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(lp_cli_find(cmd)->help, stdout);
            return 1;
        }
    }
    return 0;
}
