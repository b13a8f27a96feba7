/*
 * cli.c: option helpers shared by the deckhand subcommands (cli.h).
 */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dh_client_env.h"
#include "dh_config.h"

static bool listed(const char *arg, const char *const *list, bool with_value)
{
    for (; list && *list; list++) {
        size_t n = strlen(*list);
        if (!strncmp(arg, *list, n) && (arg[n] == '\0' || (with_value && arg[n] == '=')))
            return true;
    }
    return false;
}

int cli_check_flags(int argc, char **argv, const char *const *known, const char *const *switches)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (listed(a, switches, false))
            continue;
        if (listed(a, known, true)) {
            if (!strchr(a, '=')) {
                if (i + 1 >= argc) {
                    fprintf(stderr, "deckhand %s: %s needs a value\n", argv[0], a);
                    return -1;
                }
                i++;
            }
            continue;
        }
        fprintf(stderr, "deckhand %s: unknown argument '%s' (try --help)\n", argv[0], a);
        return -1;
    }
    return 0;
}

int cli_int(int argc, char **argv, const char *flag, long def, long lo, long hi, long *out)
{
    const char *s = dh_config_str(argc, argv, flag, NULL, NULL);
    if (!s) {
        *out = def;
        return 0;
    }
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "deckhand %s: %s wants an integer in %ld..%ld, not '%s'\n", argv[0], flag,
                lo, hi, s);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_gateway(int argc, char **argv, char *out, size_t outlen)
{
    char err[512];
    const char *flag = dh_config_str(argc, argv, "--gateway", NULL, NULL);
    if (dh_client_gateway_addr(flag, dh_config_has(argc, argv, "--ws"), NULL, out, outlen, err,
                               sizeof err) < 0) {
        fprintf(stderr, "deckhand %s: %s\n", argv[0], err);
        return -1;
    }
    return 0;
}

long long cli_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
