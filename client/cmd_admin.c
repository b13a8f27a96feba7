/*
 * cmd_admin.c: `deckhand admin`, the admin API from a terminal (docs/OPERATIONS.md,
 * "Admin API"): one subcommand per endpoint, each answer printed as a table (or, with
 * --json, as the API wrote it).
 *
 * The API is at --url, else DECKHAND_ADMIN_URL, else the matchmaker's operator port in
 * .run/cluster.env (DECKHAND_HTTP_MATCHMAKER). The token is the file --token-file, else
 * DECKHAND_ADMIN_TOKEN, else the file DECKHAND_ADMIN_TOKEN_FILE (from the environment,
 * else from .run/cluster.env: the local cluster's); a file or variable in the server's
 * form ("NAME:TOKEN" lines) gives its first token line's token, so one file serves both
 * sides (admin_token.h, which the script commands share to name who made a change).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "admin_http.h"
#include "admin_json.h"
#include "admin_token.h"
#include "cli.h"
#include "dh_client_env.h"

static const char ad_who[] = "deckhand admin";

static const char ad_usage[] =
    "usage: deckhand admin COMMAND [--url URL] [--token-file FILE] [--json]\n"
    "  matches [--game G] [--worker W] [--bundle SHA] [--min-age SECONDS] [--limit N]\n"
    "          [--cursor C]          running matches (a page; the next page's cursor last)\n"
    "  show MATCH_ID                 one match: seats, worker, bundle, age, answers\n"
    "  end MATCH_ID --reason R       end it now: every player gets GameOver \"admin: R\"\n"
    "  remove MATCH_ID --player ID --reason R\n"
    "                                take a player out (the queue's abandon policy: a bot\n"
    "                                plays the seat, or it forfeits)\n"
    "  workers                       workers with their load\n"
    "  gateways                      gateways with their connections\n"
    "  drain WORKER_ID --reason R [--force]\n"
    "                                stop a worker; its matches move to the others\n"
    "  audit [--limit N]             the audit trail, newest first\n"
    "The API is --url, else DECKHAND_ADMIN_URL, else DECKHAND_HTTP_MATCHMAKER in\n"
    ".run/cluster.env; the token --token-file, else DECKHAND_ADMIN_TOKEN, else the file\n"
    "DECKHAND_ADMIN_TOKEN_FILE names (the environment's, else .run/cluster.env's).\n";

/* A column of a table: the member, its header, its width (0: the rest of the line). */
typedef struct {
    const char *key, *head;
    int width;
} ad_col;

static void ad_table(const aj_value *rows, const ad_col *cols, size_t ncols)
{
    for (size_t c = 0; c < ncols; c++)
        printf(cols[c].width ? "%-*s " : "%.*s", cols[c].width ? cols[c].width : 200, cols[c].head);
    printf("\n");
    for (size_t r = 0; rows && rows->type == AJ_ARRAY && r < rows->n; r++) {
        for (size_t c = 0; c < ncols; c++) {
            char v[512];
            aj_text(aj_get(rows->item[r], cols[c].key), v, sizeof v);
            if (cols[c].width)
                printf("%-*.*s ", cols[c].width, cols[c].width, v);
            else
                printf("%s", v);
        }
        printf("\n");
    }
}

static void ad_time(const aj_value *ms, char *out, size_t cap)
{
    time_t t = ms && ms->s ? (time_t)(strtoull(ms->s, NULL, 10) / 1000) : 0;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void ad_print_audit(const aj_value *doc)
{
    const aj_value *rows = aj_get(doc, "entries");
    printf("%-20s %-12s %-7s %-28s %-6s %s\n", "when", "who", "action", "target", "status",
           "reason / detail");
    for (size_t i = 0; rows && rows->type == AJ_ARRAY && i < rows->n; i++) {
        const aj_value *e = rows->item[i];
        char when[32], who[128], action[64], target[256], status[16], reason[256], detail[256];
        ad_time(aj_get(e, "at_ms"), when, sizeof when);
        printf("%-20s %-12s %-7s %-28s %-6s %s / %s\n", when,
               aj_text(aj_get(e, "who"), who, sizeof who),
               aj_text(aj_get(e, "action"), action, sizeof action),
               aj_text(aj_get(e, "target"), target, sizeof target),
               aj_text(aj_get(e, "status"), status, sizeof status),
               aj_text(aj_get(e, "reason"), reason, sizeof reason),
               aj_text(aj_get(e, "detail"), detail, sizeof detail));
    }
}

static void ad_print_show(const aj_value *doc)
{
    static const char *const keys[] = {"match_id", "status",     "game",  "mode",    "bundle",
                                       "worker",   "epoch",      "age_s", "answers", "abandon",
                                       "ended_ms", "end_reason", "result"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const aj_value *v = aj_get(doc, keys[i]);
        char text[1024];
        if (v)
            printf("%-11s %s\n", keys[i], aj_text(v, text, sizeof text));
    }
    const aj_value *live = aj_get(doc, "live");
    char text[64];
    if (live && live->type == AJ_OBJECT) {
        printf("%-11s %s\n", "turn", aj_text(aj_get(live, "turn"), text, sizeof text));
        printf("%-11s seat %s", "waiting",
               aj_text(aj_get(live, "waiting_seat"), text, sizeof text));
        printf(" for %s s\n", aj_text(aj_get(live, "waiting_s"), text, sizeof text));
    } else {
        printf("%-11s %s\n", "live", "(the worker was not asked or did not answer)");
    }
    static const ad_col seats[] = {{"seat", "seat", 4},
                                   {"player_id", "player", 24},
                                   {"name", "name", 20},
                                   {"connected", "connected", 9},
                                   {"away_s", "away_s", 0}};
    printf("\n");
    ad_table(aj_get(doc, "seats"), seats, sizeof seats / sizeof *seats);
    static const ad_col live_seats[] = {{"seat", "seat", 4},
                                        {"connected", "connected", 9},
                                        {"bot", "bot", 4},
                                        {"removed", "removed", 0}};
    if (live && live->type == AJ_OBJECT) {
        printf("\nthe worker says:\n");
        ad_table(aj_get(live, "seats"), live_seats, sizeof live_seats / sizeof *live_seats);
    }
}

/* Print an answer as its command's table. */
static void ad_print(const char *cmd, const aj_value *doc)
{
    static const ad_col matches[] = {{"match_id", "match", 20}, {"game", "game", 10},
                                     {"mode", "mode", 8},       {"worker", "worker", 12},
                                     {"bundle", "bundle", 12},  {"age_s", "age_s", 7},
                                     {"players", "players", 0}};
    static const ad_col workers[] = {{"worker_id", "worker", 14}, {"alive", "alive", 5},
                                     {"draining", "drain", 5},    {"active", "active", 6},
                                     {"pending", "pend", 4},      {"capacity", "cap", 6},
                                     {"bundle", "bundle", 12},    {"games", "games", 0}};
    static const ad_col gateways[] = {{"gateway_id", "gateway", 16},
                                      {"alive", "alive", 5},
                                      {"connections", "conns", 7},
                                      {"players", "players", 7},
                                      {"seen_ms_ago", "seen_ms_ago", 0}};
    char text[256];
    if (!strcmp(cmd, "matches")) {
        ad_table(aj_get(doc, "matches"), matches, sizeof matches / sizeof *matches);
        printf("(%s matches", aj_text(aj_get(doc, "count"), text, sizeof text));
        aj_text(aj_get(doc, "next"), text, sizeof text);
        printf(text[0] && strcmp(text, "-") ? "; next page: --cursor %s)\n" : ")\n", text);
    } else if (!strcmp(cmd, "workers")) {
        ad_table(aj_get(doc, "workers"), workers, sizeof workers / sizeof *workers);
    } else if (!strcmp(cmd, "gateways")) {
        ad_table(aj_get(doc, "gateways"), gateways, sizeof gateways / sizeof *gateways);
    } else if (!strcmp(cmd, "audit")) {
        ad_print_audit(doc);
    } else if (!strcmp(cmd, "show")) {
        ad_print_show(doc);
    } else { /* the actions: what was sent where */
        for (size_t i = 0; doc && doc->type == AJ_OBJECT && i < doc->n; i++)
            printf("%s%s=%s", i ? " " : "", doc->key[i], aj_text(doc->item[i], text, sizeof text));
        printf("\n");
    }
}

/* The token to send: admin_token_find's (--token-file, DECKHAND_ADMIN_TOKEN(_FILE), else
 * the local cluster's file), its first token line's token part. */
static int ad_token(const dh_flags *f, char *out, size_t cap)
{
    admin_token t;
    int rc = admin_token_find(dh_flags_str(f, "token-file", NULL, NULL), &t);
    if (rc == 0)
        fprintf(stderr, "%s: no token: give --token-file or set DECKHAND_ADMIN_TOKEN\n", ad_who);
    if (rc > 0)
        snprintf(out, cap, "%s", t.token);
    memset(&t, 0, sizeof t);
    return rc > 0 ? 0 : -1;
}

static int ad_url(const dh_flags *f, char *out, size_t cap)
{
    const char *url = dh_flags_str(f, "url", "DECKHAND_ADMIN_URL", NULL);
    if (url) {
        snprintf(out, cap, "%s", url);
        return 0;
    }
    if (dh_client_env_file(DH_CLIENT_ENV_FILE, "DECKHAND_HTTP_MATCHMAKER", out, cap) == 0)
        return 0;
    fprintf(stderr, "%s: no admin address: give --url or set DECKHAND_ADMIN_URL\n", ad_who);
    return -1;
}

/* Append "&name=VALUE" (encoded) for a flag given. */
static int ad_param(char *target, size_t cap, const dh_flags *f, const char *flag, const char *name)
{
    const char *v = dh_flags_str(f, flag, NULL, NULL);
    if (!v)
        return 0;
    size_t at = strlen(target);
    snprintf(target + at, cap - at, "%c%s=", strchr(target, '?') ? '&' : '?', name);
    return admin_http_encode(target, cap, v);
}

/* The request of subcommand cmd into method and target; -1 (usage) when malformed. */
static int ad_request(const dh_flags *f, const char *cmd, const char *id, const char **method,
                      char *target, size_t cap)
{
    static const char *const gets[] = {"matches", "workers", "gateways", "audit"};
    *method = "GET";
    for (size_t i = 0; i < sizeof gets / sizeof *gets; i++)
        if (!strcmp(cmd, gets[i]) && !id) {
            snprintf(target, cap, "/admin/%s", cmd);
            return ad_param(target, cap, f, "game", "game") ||
                           ad_param(target, cap, f, "worker", "worker") ||
                           ad_param(target, cap, f, "bundle", "bundle") ||
                           ad_param(target, cap, f, "min-age", "min_age_s") ||
                           ad_param(target, cap, f, "limit", "limit") ||
                           ad_param(target, cap, f, "cursor", "cursor")
                       ? -1
                       : 0;
        }
    if (!id || strchr(id, '/') || strchr(id, '?'))
        return -1;
    char enc[512] = "";
    if (admin_http_encode(enc, sizeof enc, id) < 0)
        return -1;
    if (!strcmp(cmd, "show")) {
        snprintf(target, cap, "/admin/matches/%s", enc);
        return 0;
    }
    *method = "POST";
    if (!dh_flags_str(f, "reason", NULL, NULL)) {
        fprintf(stderr, "%s: %s needs --reason\n", ad_who, cmd);
        return -1;
    }
    if (!strcmp(cmd, "end"))
        snprintf(target, cap, "/admin/matches/%s/end", enc);
    else if (!strcmp(cmd, "remove") && dh_flags_str(f, "player", NULL, NULL))
        snprintf(target, cap, "/admin/matches/%s/remove", enc);
    else if (!strcmp(cmd, "drain"))
        snprintf(target, cap, "/admin/workers/%s/drain%s", enc,
                 dh_flags_has(f, "force") ? "?force=1" : "");
    else
        return -1;
    return ad_param(target, cap, f, "player", "player") ||
                   ad_param(target, cap, f, "reason", "reason")
               ? -1
               : 0;
}

int cmd_admin(int argc, char **argv)
{
    static const dh_flag_spec spec[] = {{"url", DH_FLAG_VALUE},
                                        {"token-file", DH_FLAG_VALUE},
                                        {"json", DH_FLAG_SWITCH},
                                        {"game", DH_FLAG_VALUE},
                                        {"worker", DH_FLAG_VALUE},
                                        {"bundle", DH_FLAG_VALUE},
                                        {"min-age", DH_FLAG_INT},
                                        {"limit", DH_FLAG_INT},
                                        {"cursor", DH_FLAG_VALUE},
                                        {"reason", DH_FLAG_VALUE},
                                        {"player", DH_FLAG_VALUE},
                                        {"force", DH_FLAG_SWITCH},
                                        {NULL, 0}};
    dh_flags f;
    int done = dh_flags_parse_main(&f, spec, argc, argv, ad_who, ad_usage, 1, 2);
    if (done >= 0)
        return done;
    const char *cmd = f.pos[0], *id = f.npos > 1 ? f.pos[1] : NULL, *method;
    char target[2048], url[512], token[1024], err[256];
    if (ad_request(&f, cmd, id, &method, target, sizeof target) < 0) {
        fprintf(stderr, "%s: bad usage of '%s'\n%s", ad_who, cmd, ad_usage);
        return 2;
    }
    if (ad_url(&f, url, sizeof url) < 0 || ad_token(&f, token, sizeof token) < 0)
        return 2;
    char *body = NULL;
    size_t len = 0;
    int status = admin_http(url, method, target, token, &body, &len, err, sizeof err);
    if (status < 0) {
        fprintf(stderr, "%s: %s\n", ad_who, err);
        return 1;
    }
    aj_value *doc = aj_parse(body, len);
    int rc = status >= 200 && status < 300 ? 0 : 1;
    if (dh_flags_has(&f, "json")) {
        fwrite(body, 1, len, stdout);
        if (len && body[len - 1] != '\n')
            printf("\n");
    } else if (rc || !doc) {
        char why[512];
        const aj_value *e = aj_get(doc, "error");
        fprintf(stderr, "%s: HTTP %d: %s\n", ad_who, status,
                e ? aj_text(e, why, sizeof why) : body);
        rc = 1;
    } else {
        ad_print(cmd, doc);
    }
    aj_free(doc);
    free(body);
    return rc;
}
