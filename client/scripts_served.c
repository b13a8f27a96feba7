/*
 * scripts_served.c: which games the live workers serve (see scripts.h), so that a push
 * for a game no worker serves is refused before anything is stored. A worker serves the
 * games of its embedded default bundle, which it stores in Redis labelled "default" and
 * reports, with every bundle it holds, in worker:{ID}:bundles (TTL 2 s): the union of
 * the games of the default bundles the live workers report is what a new match can be
 * started on. A pushed bundle can change those games, never add one (worker/bundles.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_bundle.h"
#include "dh_keys.h"
#include "scripts.h"

/* Append the games of bundle sha to out when it is a worker's embedded default. */
static void served_add_default(dh_redis *rd, const char *sha, char *out, size_t cap)
{
    char key[DH_KEY_MAX];
    dh_key_bundle(key, sha);
    const char *hm[] = {"HMGET", key, DH_F_BUNDLE_LABEL, DH_F_BUNDLE_GAMES};
    redisReply *r = scripts_cmd(rd, 4, hm);
    if (r && r->type == REDIS_REPLY_ARRAY && r->elements == 2 &&
        r->element[0]->type == REDIS_REPLY_STRING &&
        !strcmp(r->element[0]->str, DH_BUNDLE_DEFAULT) &&
        r->element[1]->type == REDIS_REPLY_STRING) {
        char games[512];
        snprintf(games, sizeof games, "%s", r->element[1]->str);
        for (char *g = strtok(games, ","); g; g = strtok(NULL, ",")) {
            size_t at = strlen(out);
            if (dh_list_find(out, g) < 0 && at + strlen(g) + 2 < cap)
                snprintf(out + at, cap - at, "%s%s", at ? "," : "", g);
        }
    }
    if (r)
        freeReplyObject(r);
}

size_t scripts_served_games(dh_redis *rd, char *out, size_t cap)
{
    char ids[SCRIPTS_WORKERS][128];
    size_t nw = scripts_workers(rd, ids, SCRIPTS_WORKERS);
    out[0] = '\0';
    for (size_t w = 0; w < nw; w++) {
        char key[DH_KEY_MAX];
        dh_key_worker_bundles(key, ids[w]);
        const char *hk[] = {"HKEYS", key};
        redisReply *r = scripts_cmd(rd, 2, hk);
        for (size_t i = 0; r && r->type == REDIS_REPLY_ARRAY && i < r->elements; i++) {
            const char *f = r->element[i]->str;
            if (strncmp(f, DH_F_WORKER_STARTED_PREFIX, strlen(DH_F_WORKER_STARTED_PREFIX)))
                served_add_default(rd, f, out, cap);
        }
        if (r)
            freeReplyObject(r);
    }
    return nw;
}
