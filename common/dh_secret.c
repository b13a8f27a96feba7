/*
 * dh_secret.c: see dh_secret.h.
 */
#include "dh_secret.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dh_log.h"

long dh_secret_file(const char *path, char *out, size_t cap, bool private)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        dh_error("cannot read secret file %s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (private && fstat(fileno(fp), &st) == 0 && (st.st_mode & S_IROTH))
        dh_warn("secret file %s is readable by every user", path);
    size_t n = fread(out, 1, cap, fp);
    int err = ferror(fp);
    fclose(fp);
    if (err || n >= cap) {
        dh_error("secret file %s: %s", path, err ? "read error" : "too long");
        return -1;
    }
    while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == '\r' || out[n - 1] == ' '))
        n--;
    out[n] = '\0';
    if (n == 0 || memchr(out, '\0', n)) {
        dh_error("secret file %s is empty or binary", path);
        return -1;
    }
    return (long)n;
}

long dh_secret_get(const char *name, char *out, size_t cap)
{
    const char *v = getenv(name);
    if (v && v[0]) {
        size_t n = strlen(v);
        if (n >= cap) {
            dh_error("%s is too long (at most %zu characters)", name, cap - 1);
            return -1;
        }
        memcpy(out, v, n + 1);
        return (long)n;
    }
    char var[128];
    snprintf(var, sizeof var, "%s_FILE", name);
    const char *path = getenv(var);
    if (!path || !path[0]) {
        out[0] = '\0';
        return 0;
    }
    return dh_secret_file(path, out, cap, true);
}
