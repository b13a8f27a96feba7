/*
 * dh_admin_auth.c: the admin API's bearer tokens (dh_admin_auth.h).
 */
#include "dh_admin_auth.h"

#include <ctype.h>
#include <stdbool.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <string.h>
#include <strings.h>

#include "dh_log.h"
#include "dh_secret.h"

static int auth_digest(const char *s, size_t n, unsigned char out[32])
{
    unsigned int len = 0;
    return EVP_Digest(s, n, out, &len, EVP_sha256(), NULL) == 1 && len == 32 ? 0 : -1;
}

static bool auth_name_ok(const char *s, size_t n)
{
    if (n == 0 || n >= DH_ADMIN_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("-_.@", s[i]))
            return false;
    return true;
}

/* One line "NAME:TOKEN" or "TOKEN" (n bytes) into a. */
static int auth_line(dh_admin_auth *a, const char *line, size_t n, int lineno)
{
    const char *colon = memchr(line, ':', n);
    const char *name = colon ? line : "admin";
    size_t nlen = colon ? (size_t)(colon - line) : 5;
    const char *tok = colon ? colon + 1 : line;
    size_t tlen = colon ? n - nlen - 1 : n;
    if (!auth_name_ok(name, nlen)) {
        dh_error("%s line %d: bad name (letters, digits, - _ . @; at most %d)", DH_ADMIN_TOKEN_ENV,
                 lineno, DH_ADMIN_NAME_MAX - 1);
        return -1;
    }
    if (tlen < DH_ADMIN_TOKEN_MIN) {
        dh_error("%s line %d: the token is shorter than %d characters", DH_ADMIN_TOKEN_ENV, lineno,
                 DH_ADMIN_TOKEN_MIN);
        return -1;
    }
    for (size_t i = 0; i < tlen; i++)
        if ((unsigned char)tok[i] <= ' ' || (unsigned char)tok[i] >= 127) {
            dh_error("%s line %d: a token is printable ASCII without spaces", DH_ADMIN_TOKEN_ENV,
                     lineno);
            return -1;
        }
    for (size_t i = 0; i < a->n; i++)
        if (strlen(a->tokens[i].name) == nlen && memcmp(a->tokens[i].name, name, nlen) == 0) {
            dh_error("%s line %d: the name is used twice", DH_ADMIN_TOKEN_ENV, lineno);
            return -1;
        }
    if (a->n == DH_ADMIN_TOKENS_MAX) {
        dh_error("%s: more than %d tokens", DH_ADMIN_TOKEN_ENV, DH_ADMIN_TOKENS_MAX);
        return -1;
    }
    dh_admin_token *t = &a->tokens[a->n];
    memcpy(t->name, name, nlen);
    t->name[nlen] = '\0';
    if (auth_digest(tok, tlen, t->digest) < 0)
        return -1;
    a->n++;
    return 0;
}

int dh_admin_auth_parse(dh_admin_auth *a, const char *text)
{
    memset(a, 0, sizeof *a);
    int lineno = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        lineno++;
        size_t m = n;
        while (m > 0 && (p[m - 1] == '\r' || p[m - 1] == ' ' || p[m - 1] == '\t'))
            m--;
        if (m > 0 && p[0] != '#' && auth_line(a, p, m, lineno) < 0) {
            OPENSSL_cleanse(a, sizeof *a);
            memset(a, 0, sizeof *a);
            return -1;
        }
        p += n;
        if (*p == '\n')
            p++;
    }
    return 0;
}

int dh_admin_auth_load(dh_admin_auth *a)
{
    char text[DH_ADMIN_SECRET_MAX];
    memset(a, 0, sizeof *a);
    long n = dh_secret_get(DH_ADMIN_TOKEN_ENV, text, sizeof text);
    if (n <= 0)
        return (int)n;
    int rc = dh_admin_auth_parse(a, text);
    OPENSSL_cleanse(text, sizeof text);
    if (rc == 0 && a->n == 0) {
        dh_error("%s holds no token", DH_ADMIN_TOKEN_ENV);
        return -1;
    }
    return rc;
}

const char *dh_admin_auth_check(const dh_admin_auth *a, const char *authorization)
{
    if (!authorization || strncasecmp(authorization, "Bearer ", 7) != 0)
        return NULL;
    const char *tok = authorization + 7;
    while (*tok == ' ')
        tok++;
    size_t n = strlen(tok);
    while (n > 0 && tok[n - 1] == ' ')
        n--;
    unsigned char d[32];
    if (n == 0 || auth_digest(tok, n, d) < 0)
        return NULL;
    const char *who = NULL;
    for (size_t i = 0; i < a->n; i++) {
        int differs = CRYPTO_memcmp(d, a->tokens[i].digest, sizeof d);
        if (!differs)
            who = a->tokens[i].name;
    }
    return who;
}
