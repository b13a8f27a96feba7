/*
 * dh_liveops.c: a game's bundle pointers and their audit trail (see dh_liveops.h).
 */
#include "dh_liveops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIVEOPS_ROLLBACK " rollback"

static redisReply *lo_cmd(redisContext *c, int argc, const char **argv)
{
    return redisCommandArgv(c, argc, argv, NULL);
}

/* Runs a command whose reply only matters as "not an error". 0 or -1. */
static int lo_run(redisContext *c, int argc, const char **argv)
{
    redisReply *r = lo_cmd(c, argc, argv);
    int rc = r && r->type != REDIS_REPLY_ERROR ? 0 : -1;
    if (r)
        freeReplyObject(r);
    return rc;
}

void dh_liveops_unwatch(redisContext *c)
{
    const char *argv[] = {"UNWATCH"};
    lo_run(c, 1, argv);
}

/* GET key into out (65 bytes, "" when unset). 0 or -1. */
static int lo_get(redisContext *c, const char *key, char *out, size_t outlen)
{
    const char *argv[] = {"GET", key};
    redisReply *r = lo_cmd(c, 2, argv);
    int rc = -1;
    out[0] = 0;
    if (r && (r->type == REDIS_REPLY_NIL || r->type == REDIS_REPLY_STRING)) {
        if (r->type == REDIS_REPLY_STRING)
            snprintf(out, outlen, "%.*s", (int)r->len, r->str);
        rc = 0;
    }
    if (r)
        freeReplyObject(r);
    return rc;
}

int dh_liveops_read(redisContext *c, const char *game, dh_liveops_state *st)
{
    char cur[DH_KEY_MAX], can[DH_KEY_MAX], canary[96];
    dh_key_bundle_current(cur, game);
    dh_key_bundle_canary(can, game);
    memset(st, 0, sizeof *st);
    if (lo_get(c, cur, st->current, sizeof st->current) < 0 ||
        lo_get(c, can, canary, sizeof canary) < 0)
        return -1;
    if (canary[0] && sscanf(canary, "%d %64s", &st->canary_pct, st->canary) != 2) {
        st->canary_pct = 0; /* not written by us: treated as no canary */
        st->canary[0] = 0;
    }
    return 0;
}

int dh_liveops_watch(redisContext *c, const char *game, dh_liveops_state *st)
{
    char cur[DH_KEY_MAX], can[DH_KEY_MAX], his[DH_KEY_MAX];
    dh_key_bundle_current(cur, game);
    dh_key_bundle_canary(can, game);
    dh_key_bundle_history(his, game);
    const char *watch[] = {"WATCH", cur, can, his};
    if (lo_run(c, 4, watch) < 0)
        return -1;
    if (dh_liveops_read(c, game, st) < 0) {
        dh_liveops_unwatch(c);
        return -1;
    }
    return 0;
}

/* XADD bundle:audit:{GAME} * with a's fields (queued inside the caller's MULTI). */
static int lo_audit_append(redisContext *c, const char *key, const dh_audit *a)
{
    char tests[16], pct[16];
    const char *argv[3 + 2 * 13]; /* XADD key *, then up to 13 field/value pairs */
    int n = 0;
    argv[n++] = "XADD";
    argv[n++] = key;
    argv[n++] = "*";
    const char *pairs[][2] = {
        {DH_AUDIT_ACTION, a->action},
        {DH_AUDIT_GAME, a->game},
        {DH_AUDIT_BUNDLE, a->bundle},
        {DH_AUDIT_LABEL, a->label},
        {DH_AUDIT_GAMES, a->games},
        {DH_AUDIT_TESTS, tests},
        {DH_AUDIT_FROM, a->from},
        {DH_AUDIT_PCT, a->pct ? pct : NULL},
        {DH_AUDIT_FORCED, a->forced ? "1" : NULL},
        {DH_AUDIT_BY, a->by},
        {DH_AUDIT_HOST, a->host},
        {DH_AUDIT_REASON, a->reason},
        {DH_AUDIT_SIMULATE, a->simulate},
    };
    snprintf(tests, sizeof tests, "%d", a->tests);
    snprintf(pct, sizeof pct, "%d", a->pct);
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        if (!pairs[i][1])
            continue; /* left out */
        argv[n++] = pairs[i][0];
        argv[n++] = pairs[i][1];
    }
    return lo_run(c, n, argv);
}

int dh_liveops_commit(redisContext *c, const char *game, const dh_liveops_change *ch,
                      const dh_audit *a)
{
    char cur[DH_KEY_MAX], can[DH_KEY_MAX], his[DH_KEY_MAX], aud[DH_KEY_MAX];
    dh_key_bundle_current(cur, game);
    dh_key_bundle_canary(can, game);
    dh_key_bundle_history(his, game);
    dh_key_bundle_audit(aud, game);
    const char *multi[] = {"MULTI"}, *exec[] = {"EXEC"}, *discard[] = {"DISCARD"};
    if (lo_run(c, 1, multi) < 0)
        goto err;
    int bad = 0;
    if (ch->current) {
        const char *set[] = {"SET", cur, ch->current}, *del[] = {"DEL", cur};
        bad |= ch->current[0] ? lo_run(c, 3, set) : lo_run(c, 2, del);
    }
    if (ch->canary) {
        const char *set[] = {"SET", can, ch->canary}, *del[] = {"DEL", can};
        bad |= ch->canary[0] ? lo_run(c, 3, set) : lo_run(c, 2, del);
    }
    if (ch->history) {
        const char *push[] = {"LPUSH", his, ch->history};
        bad |= lo_run(c, 3, push);
    }
    bad |= lo_audit_append(c, aud, a);
    /* the workers learn of it now, not at their next poll (dh_keys.h) */
    const char *publish[] = {"PUBLISH", DH_CHANNEL_BUNDLES, game};
    bad |= lo_run(c, 3, publish);
    if (bad) {
        lo_run(c, 1, discard);
        goto err;
    }
    redisReply *r = lo_cmd(c, 1, exec);
    if (!r)
        return -1;
    int rc = -1;
    if (r->type == REDIS_REPLY_NIL) {
        rc = 0;
    } else if (r->type == REDIS_REPLY_ARRAY) {
        rc = 1;
        for (size_t i = 0; i < r->elements; i++)
            if (r->element[i]->type == REDIS_REPLY_ERROR)
                rc = -1;
    }
    freeReplyObject(r);
    return rc;
err:
    dh_liveops_unwatch(c);
    return -1;
}

/* An entry's SHA (its first word) into out. */
static void lo_entry_sha(const char *entry, char *out)
{
    size_t len = strcspn(entry, " ");
    snprintf(out, 65, "%.*s", (int)(len < 64 ? len : 64), entry);
}

int dh_liveops_rollback_target(const char *const *entries, size_t n, char *from, char *to)
{
    /* The stack of pushes still in force, as indices into entries. */
    size_t *stack = malloc((n ? n : 1) * sizeof *stack), top = 0;
    if (!stack)
        return -1;
    for (size_t k = n; k-- > 0;) {
        size_t len = strlen(entries[k]), rl = sizeof LIVEOPS_ROLLBACK - 1;
        bool rollback = len > rl && !strcmp(entries[k] + len - rl, LIVEOPS_ROLLBACK);
        if (!rollback)
            stack[top++] = k;
        else if (top)
            top--;
    }
    int rc = 0;
    if (top) {
        lo_entry_sha(entries[stack[top - 1]], from);
        if (top > 1)
            lo_entry_sha(entries[stack[top - 2]], to);
        else
            snprintf(to, 65, "%s", DH_BUNDLE_DEFAULT);
        rc = 1;
    }
    free(stack);
    return rc;
}

int dh_liveops_rollback_read(redisContext *c, const char *game, char *from, char *to)
{
    char key[DH_KEY_MAX];
    dh_key_bundle_history(key, game);
    const char *argv[] = {"LRANGE", key, "0", "-1"};
    redisReply *r = lo_cmd(c, 4, argv);
    if (!r || r->type != REDIS_REPLY_ARRAY) {
        if (r)
            freeReplyObject(r);
        return -1;
    }
    const char **entries = calloc(r->elements ? r->elements : 1, sizeof *entries);
    int rc = -1;
    if (entries) {
        for (size_t i = 0; i < r->elements; i++)
            entries[i] = r->element[i]->type == REDIS_REPLY_STRING ? r->element[i]->str : "";
        rc = dh_liveops_rollback_target(entries, r->elements, from, to);
    }
    free(entries);
    freeReplyObject(r);
    return rc;
}
