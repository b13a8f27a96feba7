/*
 * cli.c: option helpers shared by the deckhand subcommands (cli.h).
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_client_env.h"
#include "dh_clock.h"

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

int cli_dispatch(const char *who, const char *usage, const cli_command *cmds, size_t n,
                 bool help_word, int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
        (help_word && !strcmp(argv[1], "help"))) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (size_t i = 0; i < n; i++)
        if (!strcmp(argv[1], cmds[i].name))
            return cmds[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "%s: unknown command '%s'\n\n%s", who, argv[1], usage);
    return 2;
}

const char *cli_required(const dh_flags *f, const char *who, const char *name)
{
    const char *v = dh_flags_str(f, name, NULL, NULL);
    if (!v)
        fprintf(stderr, "%s: --%s is required\n", who, name);
    return v;
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
    return (long long)dh_now_ms();
}

uint64_t cli_game_seed(uint64_t s, uint64_t i)
{
    uint64_t z = s * 0x9e3779b97f4a7c15ULL + (i + 1) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return z ? z : 1;
}
