/*
 * scripts_store.c: the reads from Redis every `deckhand scripts` subcommand needs (see
 * scripts.h): one command with its error printed, a hash field, the live workers, the
 * node of a game's live-ops keys, and what is known of a bundle (its label and games, and
 * which stored bundle is the workers' embedded default). Everything is routed by dh_redis,
 * so the same calls serve one Redis and a Redis Cluster.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dh_keys.h"
#include "scripts.h"

uint64_t scripts_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

redisReply *scripts_cmd(dh_redis *r, int argc, const char **argv)
{
    redisReply *rep = dh_redis_command(r, (uint64_t)cli_now_ms(), argc, argv, NULL);
    if (!rep)
        fprintf(stderr, "deckhand scripts: redis: %s %s: unreachable\n", argv[0],
                argc > 1 ? argv[1] : "");
    return rep;
}

char *scripts_hget(dh_redis *rd, const char *key, const char *field)
{
    const char *argv[] = {"HGET", key, field};
    redisReply *r = scripts_cmd(rd, 3, argv);
    char *v = r && r->type == REDIS_REPLY_STRING ? strdup(r->str) : NULL;
    if (r)
        freeReplyObject(r);
    return v;
}

redisContext *scripts_game_node(dh_redis *rd, const char *game)
{
    char key[DH_KEY_MAX];
    dh_key_bundle_current(key, game);
    const char *argv[] = {"EXISTS", key};
    redisReply *r = scripts_cmd(rd, 2, argv); /* follows a MOVED: the map learns the slot */
    bool ok = r && r->type == REDIS_REPLY_INTEGER;
    if (r && !ok)
        fprintf(stderr, "deckhand scripts: redis: %s\n",
                r->type == REDIS_REPLY_ERROR ? r->str : "unexpected reply");
    if (r)
        freeReplyObject(r);
    redisContext *c = ok ? dh_redis_for_key(rd, key, (uint64_t)cli_now_ms()) : NULL;
    if (ok && !c)
        fprintf(stderr, "deckhand scripts: redis: the node of %s is unreachable\n", key);
    return c;
}

/* The worker ids one master holds, after the n already in ids. The new count. */
static size_t scripts_workers_on(redisContext *c, char ids[][128], size_t n, size_t max)
{
    char cursor[32] = "0";
    do {
        const char *argv[] = {"SCAN", cursor, "MATCH", DH_KEY_WORKER_PATTERN, "COUNT", "1000"};
        redisReply *r = redisCommandArgv(c, 6, argv, NULL);
        if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 2) {
            fprintf(stderr, "deckhand scripts: redis: SCAN: %s\n",
                    !r                             ? c->errstr
                    : r->type == REDIS_REPLY_ERROR ? r->str
                                                   : "unexpected reply");
            if (r)
                freeReplyObject(r);
            break;
        }
        snprintf(cursor, sizeof cursor, "%s", r->element[0]->str);
        const redisReply *keys = r->element[1];
        for (size_t i = 0; i < keys->elements && n < max; i++) {
            const char *k = keys->element[i]->str;
            size_t len = keys->element[i]->len;
            if (len < 10 || k[len - 1] != '}' || len - 9 >= 128)
                continue; /* worker:{ID}:bundles and the like */
            snprintf(ids[n++], 128, "%.*s", (int)(len - 9), k + 8);
        }
        freeReplyObject(r);
    } while (strcmp(cursor, "0") && n < max);
    return n;
}

/* SCAN, not KEYS: a tool must not stall a Redis that serves matches. Each master holds
 * the leases of its own slots: every one is scanned. */
size_t scripts_workers(dh_redis *rd, char ids[][128], size_t max)
{
    redisContext *masters[DH_REDIS_NODES];
    size_t nm = dh_redis_masters(rd, (uint64_t)cli_now_ms(), masters, DH_REDIS_NODES), n = 0;
    if (!nm)
        fprintf(stderr, "deckhand scripts: redis: unreachable\n");
    for (size_t i = 0; i < nm && n < max; i++)
        n = scripts_workers_on(masters[i], ids, n, max);
    return n;
}

/* The newest stored bundle labelled "default" that lists game (workers store their
 * embedded bundle so): its SHA into out. 0, or -1 when there is none. */
static int scripts_default_sha(dh_redis *rd, const char *game, char *out)
{
    const char *sm[] = {"SMEMBERS", DH_KEY_BUNDLES};
    redisReply *all = scripts_cmd(rd, 2, sm);
    unsigned long long best = 0;
    int rc = -1;
    for (size_t i = 0; all && all->type == REDIS_REPLY_ARRAY && i < all->elements; i++) {
        char key[DH_KEY_MAX];
        dh_key_bundle(key, all->element[i]->str);
        const char *hm[] = {"HMGET", key, DH_F_BUNDLE_LABEL, DH_F_BUNDLE_GAMES,
                            DH_F_BUNDLE_CREATED_MS};
        redisReply *r = scripts_cmd(rd, 5, hm);
        if (r && r->type == REDIS_REPLY_ARRAY && r->elements == 3 &&
            r->element[0]->type == REDIS_REPLY_STRING &&
            !strcmp(r->element[0]->str, DH_BUNDLE_DEFAULT) &&
            r->element[1]->type == REDIS_REPLY_STRING &&
            dh_list_find(r->element[1]->str, game) >= 0) {
            unsigned long long at = r->element[2]->type == REDIS_REPLY_STRING
                                        ? strtoull(r->element[2]->str, NULL, 10)
                                        : 0;
            if (rc < 0 || at > best) {
                best = at;
                snprintf(out, 65, "%s", all->element[i]->str);
                rc = 0;
            }
        }
        if (r)
            freeReplyObject(r);
    }
    if (all)
        freeReplyObject(all);
    return rc;
}

int scripts_bundle_about(dh_redis *rd, const char *sha, const char *game, scripts_bundle *b)
{
    memset(b, 0, sizeof *b);
    snprintf(b->sha, sizeof b->sha, "%s", sha);
    if (!strcmp(sha, DH_BUNDLE_DEFAULT)) {
        snprintf(b->label, sizeof b->label, "%s", DH_BUNDLE_DEFAULT);
        snprintf(b->games, sizeof b->games, "%s", game);
        return scripts_default_sha(rd, game, b->sha);
    }
    char key[DH_KEY_MAX];
    dh_key_bundle(key, sha);
    char *label = scripts_hget(rd, key, DH_F_BUNDLE_LABEL),
         *games = scripts_hget(rd, key, DH_F_BUNDLE_GAMES);
    int rc = label || games ? 0 : -1;
    snprintf(b->label, sizeof b->label, "%s", label && *label ? label : "-");
    snprintf(b->games, sizeof b->games, "%s", games ? games : "-");
    free(label);
    free(games);
    return rc;
}
