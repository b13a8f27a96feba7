/*
 * dh_flags.c: see dh_flags.h.
 */
#include "dh_flags.h"

#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool dh_flags_parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end)
        return false;
    *out = v;
    return true;
}

__attribute__((format(printf, 3, 4))) static int dh_flags_fail(const char *who, const char *usage,
                                                               const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", who);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n\n%s", usage);
    return DH_FLAGS_ERROR;
}

/* Check and keep one parsed value (optarg) for spec entry i; separate is true when it was
 * the next argument, not "--name=VALUE". */
static int dh_flags_take(dh_flags *f, int i, bool separate, const char *who, const char *usage)
{
    const dh_flag_spec *s = &f->spec[i];
    long n;
    if (s->kind != DH_FLAG_SWITCH && separate && !strncmp(optarg, "--", 2))
        return dh_flags_fail(who, usage,
                             "flag '--%s' needs a value (write --%s=VALUE for one that starts "
                             "with --)",
                             s->name, s->name);
    if (s->kind == DH_FLAG_INT && !dh_flags_parse_long(optarg, &n))
        return dh_flags_fail(who, usage, "flag '--%s' needs an integer", s->name);
    f->value[i] = optarg;
    f->given[i] = true;
    return DH_FLAGS_OK;
}

int dh_flags_parse(dh_flags *f, const dh_flag_spec *spec, int argc, char **argv, const char *who,
                   const char *usage)
{
    struct option opts[DH_FLAGS_MAX + 2];
    int n = 0;
    memset(f, 0, sizeof *f);
    f->spec = spec;
    for (; spec[n].name; n++) {
        assert(n < DH_FLAGS_MAX);
        opts[n] = (struct option){spec[n].name,
                                  spec[n].kind == DH_FLAG_SWITCH ? no_argument : required_argument,
                                  NULL, n};
    }
    opts[n] = (struct option){"help", no_argument, NULL, 'h'};
    opts[n + 1] = (struct option){NULL, 0, NULL, 0};
    opterr = 0;
    optind = 0; /* GNU: start afresh (a subcommand parses after its parent) */
    int c;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        const char *at = argv[optind - 1];
        char shortopt[3] = {'-', (char)optopt, '\0'};
        if (c == 'h') {
            fputs(usage, stdout);
            return DH_FLAGS_HELP;
        }
        if (c == '?' && !strncmp(at, "--", 2) && strchr(at, '='))
            return dh_flags_fail(who, usage, "unknown flag, or a switch given a value: '%s'", at);
        if (c == '?')
            return dh_flags_fail(who, usage, "unknown flag '%s'",
                                 strncmp(at, "--", 2) ? shortopt : at);
        if (c == ':')
            return dh_flags_fail(who, usage, "flag '%s' needs a value", at);
        int rc = dh_flags_take(f, c, optarg && optarg == at, who, usage);
        if (rc != DH_FLAGS_OK)
            return rc;
    }
    f->pos = argv + optind;
    f->npos = argc - optind;
    return DH_FLAGS_OK;
}

static int dh_flags_find(const dh_flags *f, const char *name)
{
    for (int i = 0; f->spec[i].name; i++)
        if (!strcmp(f->spec[i].name, name))
            return i;
    assert(!"flag not in the spec");
    return -1;
}

const char *dh_flags_str(const dh_flags *f, const char *name, const char *env, const char *def)
{
    int i = dh_flags_find(f, name);
    if (i >= 0 && f->value[i])
        return f->value[i];
    const char *v = env ? getenv(env) : NULL;
    return (v && *v) ? v : def;
}

long dh_flags_int(const dh_flags *f, const char *name, const char *env, long def)
{
    const char *s = dh_flags_str(f, name, env, NULL);
    long v;
    return s && dh_flags_parse_long(s, &v) ? v : def;
}

bool dh_flags_has(const dh_flags *f, const char *name)
{
    int i = dh_flags_find(f, name);
    return i >= 0 && f->given[i];
}

int dh_flags_hostport(const char *s, char *host, int hostlen, int *port)
{
    const char *colon = strrchr(s, ':');
    if (!colon || colon == s || (int)(colon - s) >= hostlen)
        return -1;
    memcpy(host, s, (size_t)(colon - s));
    host[colon - s] = '\0';
    char *end;
    long p = strtol(colon + 1, &end, 10);
    if (*end || p <= 0 || p > 65535)
        return -1;
    *port = (int)p;
    return 0;
}

int dh_flags_parse_main(dh_flags *f, const dh_flag_spec *spec, int argc, char **argv,
                        const char *who, const char *usage, int min_pos, int max_pos)
{
    int rc = dh_flags_parse(f, spec, argc, argv, who, usage);
    if (rc == DH_FLAGS_HELP)
        return 0;
    if (rc != DH_FLAGS_OK)
        return 2;
    if (f->npos < min_pos || f->npos > max_pos) {
        if (f->npos > max_pos)
            fprintf(stderr, "%s: unexpected argument '%s'\n\n%s", who, f->pos[max_pos], usage);
        else
            fprintf(stderr, "%s: missing argument\n\n%s", who, usage);
        return 2;
    }
    return -1;
}
