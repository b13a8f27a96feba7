/*
 * dh_config.c: see dh_config.h.
 */
#include "dh_config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *dh_config_str(int argc, char **argv, const char *flag, const char *env, const char *def)
{
    size_t fl = strlen(flag);
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], flag, fl) != 0)
            continue;
        if (argv[i][fl] == '=')
            return argv[i] + fl + 1;
        if (argv[i][fl] == '\0' && i + 1 < argc)
            return argv[i + 1];
    }
    const char *v = env ? getenv(env) : NULL;
    return (v && *v) ? v : def;
}

long dh_config_int(int argc, char **argv, const char *flag, const char *env, long def)
{
    const char *s = dh_config_str(argc, argv, flag, env, NULL);
    if (!s)
        return def;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return (errno || end == s || *end) ? def : v;
}

bool dh_config_has(int argc, char **argv, const char *flag)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], flag))
            return true;
    return false;
}

int dh_config_hostport(const char *s, char *host, int hostlen, int *port)
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
