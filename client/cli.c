/*
 * cli.c: option helpers shared by the deckhand subcommands (cli.h).
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dh_client_env.h"

int cli_int(const dh_flags *f, const char *who, const char *name, long def, long lo, long hi,
            long *out)
{
    const char *s = dh_flags_str(f, name, NULL, NULL);
    if (!s) {
        *out = def;
        return 0;
    }
    long v = dh_flags_int(f, name, NULL, def);
    if (v < lo || v > hi) {
        fprintf(stderr, "%s: --%s wants an integer in %ld..%ld, not '%s'\n", who, name, lo, hi, s);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_gateway(const dh_flags *f, const char *who, char *out, size_t outlen)
{
    char err[512];
    const char *flag = dh_flags_str(f, "gateway", NULL, NULL);
    if (dh_client_gateway_addr(flag, dh_flags_has(f, "ws"), NULL, out, outlen, err, sizeof err) <
        0) {
        fprintf(stderr, "%s: %s\n", who, err);
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
