/*
 * scripts_audit.c: who changes the scripts and why (see scripts.h). Every push, apply,
 * canary, promote, abort and rollback is written to its game's audit stream in the same
 * transaction as the change (common/dh_liveops.h); this file builds those entries (the
 * actor: --by, else the admin token's NAME, else $USER; the host; --reason) and prints
 * the trail:
 *
 *   deckhand scripts audit [--game G]
 *   2026-11-25T16:32:05Z push game=dominion bundle=00d26b14d634 label=v1 tests=226
 *       from=default by=alice@host reason="first cut"          (one line per entry)
 *
 * Without --game it merges the trails of every game a stored bundle names, oldest first;
 * --admin merges in the admin API's trail (audit:{admin}: ends, removes, drains), so one
 * command reads both kinds of change, each under the same operator name.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pwd.h>
#include <unistd.h>

#include "admin_token.h"
#include "dh_keys.h"
#include "scripts.h"

/* Who acts: --by, else the NAME of the admin token this operator holds (admin_token.h:
 * found as `deckhand admin` finds it), the name the admin API's trail gives the same
 * operator's actions; else $USER or $LOGNAME, else the account the process runs as, else
 * "uid-N": never "unknown". 0, or -1 when a token secret is named but unreadable. */
static int actor_by(scripts_actor *a, const dh_flags *f)
{
    const char *by = dh_flags_str(f, "by", NULL, NULL);
    if (by && *by) {
        snprintf(a->by, sizeof a->by, "%s", by);
        return 0;
    }
    admin_token t;
    int found = admin_token_find(NULL, &t);
    if (found > 0)
        snprintf(a->by, sizeof a->by, "%s", t.name);
    memset(&t, 0, sizeof t);
    if (found != 0)
        return found > 0 ? 0 : -1;
    by = getenv("USER");
    if (!by || !*by)
        by = getenv("LOGNAME");
    if (!by || !*by) {
        const struct passwd *pw = getpwuid(geteuid());
        by = pw && pw->pw_name && *pw->pw_name ? pw->pw_name : NULL;
    }
    if (by && *by)
        snprintf(a->by, sizeof a->by, "%s", by);
    else
        snprintf(a->by, sizeof a->by, "uid-%u", (unsigned)geteuid());
    return 0;
}

int scripts_actor_init(scripts_actor *a, const dh_flags *f, const char *need_reason)
{
    memset(a, 0, sizeof *a);
    if (actor_by(a, f) < 0) {
        fprintf(stderr, "%s: the admin token names who acts; fix it or give --by NAME\n",
                SCRIPTS_WHO);
        return -1;
    }
    if (gethostname(a->host, sizeof a->host - 1) < 0)
        snprintf(a->host, sizeof a->host, "unknown");
    a->reason = dh_flags_str(f, "reason", NULL, NULL);
    if (a->reason && !*a->reason)
        a->reason = NULL;
    if (need_reason && !a->reason) {
        fprintf(stderr, "%s: --reason is required for %s (it goes in the audit trail)\n",
                SCRIPTS_WHO, need_reason);
        return -1;
    }
    return 0;
}

dh_audit scripts_audit_entry(const scripts_actor *a, const char *action, const char *game,
                             const scripts_bundle *b)
{
    return (dh_audit){.action = action,
                      .game = game,
                      .bundle = b->sha,
                      .label = b->label,
                      .games = b->games,
                      .by = a->by,
                      .host = a->host,
                      .reason = a->reason,
                      .tests = -1};
}

/* ---- the listing ---------------------------------------------------------------------- */

typedef struct {
    unsigned long long ms, seq;
    const redisReply *fields; /* the entry's field/value array, owned by the XRANGE reply */
    bool admin;               /* an entry of the admin API's trail, audit:{admin} */
} audit_row;

static const char *audit_field(const redisReply *fields, const char *name)
{
    for (size_t i = 0; i + 1 < fields->elements; i += 2)
        if (!strcmp(fields->element[i]->str, name))
            return fields->element[i + 1]->str;
    return NULL;
}

/* A SHA as 12 digits; anything else ("default") as it is. */
static void audit_sha(char *out, const char *sha)
{
    snprintf(out, 16, "%.*s", strlen(sha) == 64 ? 12 : 15, sha);
}

/* An admin API entry: "WHEN admin:ACTION target=T by=WHO status=S reason=... detail=...",
 * by the same name a script change by the same operator carries (scripts_actor_init). */
static void audit_print_admin(const char *when, const redisReply *f)
{
    const char *action = audit_field(f, DH_F_AUDIT_ACTION),
               *target = audit_field(f, DH_F_AUDIT_TARGET), *who = audit_field(f, DH_F_AUDIT_WHO),
               *status = audit_field(f, DH_F_AUDIT_STATUS),
               *reason = audit_field(f, DH_F_AUDIT_REASON),
               *detail = audit_field(f, DH_F_AUDIT_DETAIL);
    printf("%s admin:%s target=%s by=%s status=%s reason=\"%s\" detail=\"%s\"\n", when,
           action ? action : "?", target ? target : "?", who ? who : "?", status ? status : "?",
           reason ? reason : "", detail ? detail : "");
}

static void audit_print(const audit_row *row)
{
    const redisReply *f = row->fields;
    time_t t = (time_t)(row->ms / 1000);
    struct tm tm;
    char when[32], bundle[16] = "-", from[16] = "-";
    gmtime_r(&t, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (row->admin) {
        audit_print_admin(when, f);
        return;
    }
    const char *v;
    if ((v = audit_field(f, DH_AUDIT_BUNDLE)))
        audit_sha(bundle, v);
    if ((v = audit_field(f, DH_AUDIT_FROM)))
        audit_sha(from, v);
    const char *action = audit_field(f, DH_AUDIT_ACTION), *game = audit_field(f, DH_AUDIT_GAME),
               *label = audit_field(f, DH_AUDIT_LABEL), *tests = audit_field(f, DH_AUDIT_TESTS),
               *pct = audit_field(f, DH_AUDIT_PCT), *by = audit_field(f, DH_AUDIT_BY),
               *host = audit_field(f, DH_AUDIT_HOST), *reason = audit_field(f, DH_AUDIT_REASON);
    printf("%s %s game=%s bundle=%s label=%s tests=%s", when, action ? action : "?",
           game ? game : "?", bundle, label ? label : "-", tests ? tests : "-");
    if (pct)
        printf(" pct=%s", pct);
    printf(" from=%s%s by=%s@%s", from, audit_field(f, DH_AUDIT_FORCED) ? " forced" : "",
           by ? by : "?", host ? host : "?");
    if (reason)
        printf(" reason=\"%s\"", reason);
    if ((v = audit_field(f, DH_AUDIT_SIMULATE)))
        printf(" simulate=\"%s\"", v);
    printf("\n");
}

static int audit_cmp(const void *a, const void *b)
{
    const audit_row *x = a, *y = b;
    if (x->ms != y->ms)
        return x->ms < y->ms ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Every game a stored bundle names, comma-joined into out. */
static void audit_games(dh_redis *rd, char *out, size_t len)
{
    const char *sm[] = {"SMEMBERS", DH_KEY_BUNDLES};
    redisReply *all = scripts_cmd(rd, 2, sm);
    size_t at = 0;
    out[0] = 0;
    for (size_t i = 0; all && all->type == REDIS_REPLY_ARRAY && i < all->elements; i++) {
        char key[DH_KEY_MAX];
        dh_key_bundle(key, all->element[i]->str);
        char *games = scripts_hget(rd, key, DH_F_BUNDLE_GAMES);
        for (char *g = games ? strtok(games, ",") : NULL; g; g = strtok(NULL, ",")) {
            char probe[80];
            snprintf(probe, sizeof probe, ",%s,", g);
            char have[2048 + 2];
            snprintf(have, sizeof have, ",%s,", out);
            if (!strstr(have, probe) && at + strlen(g) + 2 < len)
                at += (size_t)snprintf(out + at, len - at, "%s%s", at ? "," : "", g);
        }
        free(games);
    }
    if (all)
        freeReplyObject(all);
}

/* XRANGE key - + appended to rs (at most SCRIPTS_GAMES_MAX + 1): 0, or -1 on an error. */
static int audit_read(dh_redis *rd, const char *key, redisReply **rs, size_t *nr, size_t *nrows)
{
    const char *xr[] = {"XRANGE", key, "-", "+"};
    redisReply *r = scripts_cmd(rd, 4, xr);
    if (!r || r->type != REDIS_REPLY_ARRAY) {
        if (r)
            freeReplyObject(r);
        return -1;
    }
    rs[(*nr)++] = r;
    *nrows += r->elements;
    return 0;
}

int scripts_audit(int argc, char **argv)
{
    static const dh_flag_spec spec[] = {
        {"game", DH_FLAG_VALUE}, {"redis", DH_FLAG_VALUE}, {"admin", DH_FLAG_SWITCH}, {NULL, 0}};
    dh_flags fl, *f = &fl;
    int done = dh_flags_parse_main(f, spec, argc, argv, SCRIPTS_WHO, scripts_usage, 0, 0);
    if (done >= 0)
        return done;
    const char *only = dh_flags_str(f, "game", NULL, NULL);
    dh_redis rd;
    bool up = cli_redis(f, SCRIPTS_WHO, &rd) != NULL;
    char games[2048];
    redisReply *rs[SCRIPTS_GAMES_MAX + 1] = {0};
    size_t nr = 0, nrows = 0, admin_at = SIZE_MAX;
    audit_row *rows = NULL;
    int rc = 1;
    if (!up)
        goto out;
    if (only)
        snprintf(games, sizeof games, "%s", only);
    else
        audit_games(&rd, games, sizeof games);
    for (char *g = strtok(games, ","); g && nr < SCRIPTS_GAMES_MAX; g = strtok(NULL, ",")) {
        char key[DH_KEY_MAX];
        if (audit_read(&rd, dh_key_bundle_audit(key, g), rs, &nr, &nrows) < 0)
            goto out;
    }
    /* --admin: the admin API's trail too, merged with the games' by time */
    if (dh_flags_has(f, "admin")) {
        admin_at = nr;
        if (audit_read(&rd, DH_KEY_AUDIT_ADMIN, rs, &nr, &nrows) < 0)
            goto out;
    }
    rows = calloc(nrows ? nrows : 1, sizeof *rows);
    if (!rows)
        goto out;
    size_t k = 0;
    for (size_t i = 0; i < nr; i++) {
        for (size_t j = 0; j < rs[i]->elements; j++) {
            const redisReply *e = rs[i]->element[j];
            if (e->type != REDIS_REPLY_ARRAY || e->elements != 2)
                continue;
            sscanf(e->element[0]->str, "%llu-%llu", &rows[k].ms, &rows[k].seq);
            rows[k].admin = admin_at == i;
            rows[k++].fields = e->element[1];
        }
    }
    qsort(rows, k, sizeof *rows, audit_cmp);
    for (size_t i = 0; i < k; i++)
        audit_print(&rows[i]);
    rc = 0;
out:
    free(rows);
    for (size_t i = 0; i < nr; i++)
        freeReplyObject(rs[i]);
    dh_redis_close(&rd);
    return rc;
}
