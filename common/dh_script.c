/*
 * dh_script.c: see dh_script.h.
 */
#include "dh_script.h"

#include <openssl/sha.h>
#include <stdio.h>
#include <string.h>

#include "dh_log.h"

#define DH_REPLY_NOSCRIPT "NOSCRIPT"

void dh_script_init(dh_script *s, const char *text)
{
    unsigned char md[SHA_DIGEST_LENGTH];
    SHA1((const unsigned char *)text, strlen(text), md);
    s->text = text;
    for (size_t i = 0; i < SHA_DIGEST_LENGTH; i++)
        snprintf(s->sha + 2 * i, 3, "%02x", md[i]);
}

int dh_script_load(redisContext *c, const dh_script *const *scripts, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *argv[] = {"SCRIPT", "LOAD", scripts[i]->text};
        redisReply *r = redisCommandArgv(c, 3, argv, NULL);
        bool ok = r && r->type == REDIS_REPLY_STRING && !strcmp(r->str, scripts[i]->sha);
        if (!ok)
            dh_warn("redis SCRIPT LOAD failed: %s", !r ? c->errstr
                                                    : r->type == REDIS_REPLY_ERROR
                                                        ? r->str
                                                        : "unexpected reply");
        if (r)
            freeReplyObject(r);
        if (!ok)
            return -1;
    }
    return 0;
}

bool dh_script_missing(const redisReply *r)
{
    return r && r->type == REDIS_REPLY_ERROR &&
           !strncmp(r->str, DH_REPLY_NOSCRIPT, strlen(DH_REPLY_NOSCRIPT));
}
