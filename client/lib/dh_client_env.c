/*
 * dh_client_env.c: see dh_client_env.h.
 */
#include "dh_client_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

int dh_client_env_parse(const char *text, const char *key, char *out, size_t outlen)
{
    size_t kl = strlen(key);
    int found = -1;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        if (!end)
            end = line + strlen(line);
        const char *next = *end ? end + 1 : end;
        while (end > line && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
            end--;
        const char *p = skip_blanks(line, end);
        if ((size_t)(end - p) > 7 && !strncmp(p, "export ", 7))
            p = skip_blanks(p + 7, end);
        if ((size_t)(end - p) > kl && !strncmp(p, key, kl) && p[kl] == '=') {
            const char *v = p + kl + 1;
            if (end - v >= 2 && (*v == '"' || *v == '\'') && end[-1] == *v) {
                v++;
                end--;
            }
            if ((size_t)(end - v) < outlen) {
                memcpy(out, v, (size_t)(end - v));
                out[end - v] = '\0';
                found = 0;
            } else {
                found = -1;
            }
        }
        line = next;
    }
    return found;
}

int dh_client_env_file(const char *path, const char *key, char *out, size_t outlen)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *text = NULL;
    size_t len = 0, cap = 0;
    int rc = -1;
    for (;;) {
        if (dh_grow(&text, &cap, len + 4096 + 1, 1, 8192) < 0)
            goto err;
        size_t n = fread(text + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0)
            break;
    }
    if (ferror(f))
        goto err;
    text[len] = '\0';
    rc = dh_client_env_parse(text, key, out, outlen);
err:
    free(text);
    fclose(f);
    return rc;
}

int dh_client_gateway_addr(const char *flag, bool ws, const char *envfile, char *out, size_t outlen,
                           char *err, size_t errlen)
{
    const char *key = ws ? "DECKHAND_GATEWAY_WS" : "DECKHAND_GATEWAY_TCP";
    const char *file = envfile ? envfile : DH_CLIENT_ENV_FILE;
    char val[512];
    const char *v = flag;
    if (!v || !*v)
        v = getenv(key);
    if ((!v || !*v) && dh_client_env_file(file, key, val, sizeof val) == 0)
        v = val;
    if (!v || !*v) {
        snprintf(err, errlen,
                 "no gateway address: pass --gateway, set %s, or start a cluster "
                 "with ./scripts/run --detach (%s)",
                 key, file);
        return -1;
    }
    bool is_ws = !strncmp(v, "ws://", 5);
    int n;
    if (ws && !is_ws)
        n = snprintf(out, outlen, "ws://%s/ws", v);
    else
        n = snprintf(out, outlen, "%s", v);
    if (n < 0 || (size_t)n >= outlen) {
        snprintf(err, errlen, "gateway address too long");
        return -1;
    }
    return 0;
}
