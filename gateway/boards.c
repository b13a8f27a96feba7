/*
 * boards.c: see boards.h. A leaderboard is three reads in a row: the ids and ordinals of
 * the slice (ZREVRANGE), then their ratings and their names (HMGET each). History is one
 * LRANGE of tab-separated entries (DH_HISTORY_FIELDS).
 */
#include "boards.h"

#include <hiredis/async.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accounts.h"
#include "dh_keys.h"
#include "dh_pb.h"
#include "dh_token.h"
#include "lookup.h"

typedef struct {
    char game[64], mode[64];
    redisReply *slice, *ratings; /* kept between the reads (owned) */
} board_req;

/* Pack m and send it to the op's connection (when still there). The caller then ends the
 * op (its ok Reply follows the message). */
/* A ServerMessage whose body is body (the oneof member body_case) to op's connection. */
static void boards_send(acct_op *op, Deckhand__ServerMessage__BodyCase body_case, void *body)
{
    gw_conn *c = acct_op_conn(op);
    if (!c)
        return;
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    const Deckhand__ServerMessage *m = dh_pb_oneof(&sm, (unsigned)body_case, body);
    size_t len = deckhand__server_message__get_packed_size(m);
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf)
        return; /* the Reply still comes: the client asks again */
    deckhand__server_message__pack(m, buf);
    conn_send(c, buf, len);
    free(buf);
}

static void boards_ok(acct_op *op)
{
    acct_op_done(op, DECKHAND__ERROR_CODE__OK, NULL, NULL, NULL);
}

static void board_free(board_req *b)
{
    if (b->slice)
        freeReplyObject(b->slice);
    if (b->ratings)
        freeReplyObject(b->ratings);
    b->slice = b->ratings = NULL;
}

static void board_unavailable(acct_op *op)
{
    board_free(acct_op_data(op));
    acct_op_done(op, DECKHAND__ERROR_CODE__UNAVAILABLE, "leaderboard unavailable, retry later",
                 NULL, NULL);
}

/* HMGET key with the slice's ids (every other element of the ZREVRANGE reply). */
static void board_hmget(acct_op *op, const char *key,
                        void (*fn)(redisAsyncContext *, void *, void *))
{
    board_req *b = acct_op_data(op);
    size_t n = b->slice->elements / 2;
    const char **argv = calloc(2 + n, sizeof *argv);
    size_t *lens = calloc(2 + n, sizeof *lens);
    int rc = -1;
    if (argv && lens) {
        argv[0] = "HMGET";
        argv[1] = key;
        lens[0] = 5;
        lens[1] = strlen(key);
        for (size_t i = 0; i < n; i++) {
            argv[2 + i] = b->slice->element[2 * i]->str;
            lens[2 + i] = b->slice->element[2 * i]->len;
        }
        rc = lookup_send(acct_op_gw(op), fn, op, (int)(2 + n), argv, lens);
    }
    free(argv);
    free(lens);
    if (rc < 0)
        board_unavailable(op);
}

/* hiredis frees a reply after its callback: an array reply's elements moved into a new
 * reply that the next step keeps (freed with freeReplyObject), or NULL. */
static redisReply *board_keep(redisReply *rep)
{
    redisReply *kept = calloc(1, sizeof *kept);
    if (!kept)
        return NULL;
    kept->type = REDIS_REPLY_ARRAY;
    kept->elements = rep->elements;
    kept->element = rep->element;
    rep->element = NULL;
    rep->elements = 0;
    return kept;
}

static void board_on_names(redisAsyncContext *ac, void *reply, void *priv)
{
    acct_op *op = priv;
    board_req *b = acct_op_data(op);
    redisReply *names = reply;
    lookup_answered(acct_op_gw(op));
    size_t n = b->slice->elements / 2;
    if (!names || names->type != REDIS_REPLY_ARRAY || names->elements != n) {
        board_unavailable(op);
        return;
    }
    Deckhand__Leaderboard lb = DECKHAND__LEADERBOARD__INIT;
    Deckhand__LeaderboardEntry *e = calloc(n ? n : 1, sizeof *e);
    Deckhand__LeaderboardEntry **ep = calloc(n ? n : 1, sizeof *ep);
    if (!e || !ep) {
        free(e);
        free(ep);
        board_free(b);
        acct_op_done(op, DECKHAND__ERROR_CODE__INTERNAL, "out of memory", NULL, NULL);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const redisReply *id = b->slice->element[2 * i], *score = b->slice->element[2 * i + 1];
        const redisReply *rating = b->ratings->element[i], *name = names->element[i];
        deckhand__leaderboard_entry__init(&e[i]);
        e[i].rank = (uint32_t)(i + 1);
        e[i].player_id = id->str;
        e[i].name = name->type == REDIS_REPLY_STRING ? name->str : id->str;
        e[i].ordinal = score->type == REDIS_REPLY_STRING ? strtod(score->str, NULL) : 0.0;
        if (rating->type == REDIS_REPLY_STRING)
            sscanf(rating->str, "%lf %lf %u", &e[i].mu, &e[i].sigma, &e[i].matches);
        ep[i] = &e[i];
    }
    lb.game = b->game;
    lb.mode = b->mode;
    lb.n_entries = n;
    lb.entries = ep;
    boards_send(op, DECKHAND__SERVER_MESSAGE__BODY_LEADERBOARD, &lb);
    free(e);
    free(ep);
    board_free(b);
    boards_ok(op);
}

static void board_on_ratings(redisAsyncContext *ac, void *reply, void *priv)
{
    acct_op *op = priv;
    board_req *b = acct_op_data(op);
    redisReply *rep = reply;
    lookup_answered(acct_op_gw(op));
    if (!rep || rep->type != REDIS_REPLY_ARRAY || rep->elements != b->slice->elements / 2) {
        board_unavailable(op);
        return;
    }
    b->ratings = board_keep(rep);
    if (!b->ratings) {
        board_unavailable(op);
        return;
    }
    board_hmget(op, DH_KEY_ACCOUNT_NAMES, board_on_names);
}

static void board_on_slice(redisAsyncContext *ac, void *reply, void *priv)
{
    acct_op *op = priv;
    board_req *b = acct_op_data(op);
    redisReply *rep = reply;
    lookup_answered(acct_op_gw(op));
    if (!rep || rep->type != REDIS_REPLY_ARRAY || rep->elements % 2) {
        board_unavailable(op);
        return;
    }
    if (rep->elements == 0) {
        Deckhand__Leaderboard lb = DECKHAND__LEADERBOARD__INIT;
        lb.game = b->game;
        lb.mode = b->mode;
        boards_send(op, DECKHAND__SERVER_MESSAGE__BODY_LEADERBOARD, &lb);
        boards_ok(op);
        return;
    }
    b->slice = board_keep(rep);
    if (!b->slice) {
        board_unavailable(op);
        return;
    }
    char key[DH_KEY_MAX];
    board_hmget(op, dh_key_rating(key, b->game, b->mode), board_on_ratings);
}

/* A game or mode a client named: printable ASCII without braces, 1..63 characters. */
static bool boards_text_ok(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n > 63)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x21 || (unsigned char)s[i] > 0x7e || s[i] == '{' || s[i] == '}')
            return false;
    return true;
}

void boards_leaderboard(gw_conn *c, uint64_t cmd_id, const Deckhand__LeaderboardRequest *m)
{
    const char *mode = m->mode && m->mode[0] ? m->mode : "casual";
    uint32_t limit = m->limit ? m->limit : BOARDS_LIMIT_DEFAULT;
    if (!boards_text_ok(m->game) || !boards_text_ok(mode) || limit > BOARDS_LEADERBOARD_LIMIT ||
        m->offset > 1000000) {
        c->gw->account_done(c, cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST,
                            "leaderboard needs a game and mode (printable, at most 63 "
                            "characters) and a limit of at most 100",
                            NULL, NULL);
        return;
    }
    acct_op *op = acct_op_new(c, cmd_id, sizeof(board_req));
    if (!op)
        return;
    board_req *b = acct_op_data(op);
    snprintf(b->game, sizeof b->game, "%s", m->game);
    snprintf(b->mode, sizeof b->mode, "%s", mode);
    char key[DH_KEY_MAX], from[16], to[16];
    snprintf(from, sizeof from, "%u", m->offset);
    snprintf(to, sizeof to, "%u", m->offset + limit - 1);
    const char *argv[] = {"ZREVRANGE", dh_key_leaderboard(key, b->game, b->mode), from, to,
                          "WITHSCORES"};
    if (lookup_send(c->gw, board_on_slice, op, 5, argv, NULL) < 0)
        board_unavailable(op);
}

/* ---- history ---------------------------------------------------------------------------- */

/* Split one entry (tab-separated DH_HISTORY_FIELDS, modified in place) into e; its
 * opponents into opp (at most max). False when it has too few fields. */
static bool history_parse(char *s, Deckhand__HistoryEntry *e, char **opp, size_t max)
{
    char *f[10];
    size_t n = 0;
    for (char *p = s; n < 10; n++) {
        f[n] = p;
        p = strchr(p, '\t');
        if (!p) {
            n++;
            break;
        }
        *p++ = '\0';
    }
    if (n != 10)
        return false;
    e->match_id = f[0];
    e->game = f[1];
    e->mode = f[2];
    e->bundle = f[3];
    e->ended_ms = strtoull(f[4], NULL, 10);
    e->place = (uint32_t)strtoul(f[5], NULL, 10);
    e->players = (uint32_t)strtoul(f[6], NULL, 10);
    e->ordinal_before = strtod(f[7], NULL);
    e->ordinal_after = strtod(f[8], NULL);
    e->n_opponents = 0;
    for (char *tok = strtok(f[9], ","); tok && e->n_opponents < max; tok = strtok(NULL, ","))
        opp[e->n_opponents++] = tok;
    e->opponents = opp;
    return true;
}

#define HISTORY_OPPONENTS 16

static void history_on_list(redisAsyncContext *ac, void *reply, void *priv)
{
    acct_op *op = priv;
    redisReply *rep = reply;
    lookup_answered(acct_op_gw(op));
    if (!rep || rep->type != REDIS_REPLY_ARRAY) {
        acct_op_done(op, DECKHAND__ERROR_CODE__UNAVAILABLE, "history unavailable, retry later",
                     NULL, NULL);
        return;
    }
    size_t n = rep->elements;
    Deckhand__HistoryEntry *e = calloc(n ? n : 1, sizeof *e);
    Deckhand__HistoryEntry **ep = calloc(n ? n : 1, sizeof *ep);
    char **opp = calloc((n ? n : 1) * HISTORY_OPPONENTS, sizeof *opp);
    if (!e || !ep || !opp) {
        free(e);
        free(ep);
        free(opp);
        acct_op_done(op, DECKHAND__ERROR_CODE__INTERNAL, "out of memory", NULL, NULL);
        return;
    }
    Deckhand__History h = DECKHAND__HISTORY__INIT;
    for (size_t i = 0; i < n; i++) {
        deckhand__history_entry__init(&e[h.n_entries]);
        if (rep->element[i]->type == REDIS_REPLY_STRING &&
            history_parse(rep->element[i]->str, &e[h.n_entries], opp + i * HISTORY_OPPONENTS,
                          HISTORY_OPPONENTS)) {
            ep[h.n_entries] = &e[h.n_entries];
            h.n_entries++;
        }
    }
    h.entries = ep;
    boards_send(op, DECKHAND__SERVER_MESSAGE__BODY_HISTORY, &h);
    free(e);
    free(ep);
    free(opp);
    boards_ok(op);
}

void boards_history(gw_conn *c, uint64_t cmd_id, const Deckhand__HistoryRequest *m)
{
    uint32_t limit = m->limit ? m->limit : BOARDS_LIMIT_DEFAULT;
    if (!dh_token_is_account_id(c->player_id)) {
        c->gw->account_done(c, cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST,
                            "guests keep no history: log in to an account", NULL, NULL);
        return;
    }
    if (limit > DH_HISTORY_MAX) {
        c->gw->account_done(c, cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST,
                            "history limit must be at most 50", NULL, NULL);
        return;
    }
    acct_op *op = acct_op_new(c, cmd_id, 0);
    if (!op)
        return;
    char key[DH_KEY_MAX], to[16];
    snprintf(to, sizeof to, "%u", limit - 1);
    const char *argv[] = {"LRANGE", dh_key_history(key, c->player_id), "0", to};
    if (lookup_send(c->gw, history_on_list, op, 4, argv, NULL) < 0)
        acct_op_done(op, DECKHAND__ERROR_CODE__UNAVAILABLE, "history unavailable, retry later",
                     NULL, NULL);
}
