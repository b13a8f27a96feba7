/*
 * session.c: the meaning of client messages on one connection.
 *
 * Order of answers: each ClientMessage gets exactly one Reply carrying its cmd_id. A
 * Hello's Welcome and a Ping's Pong precede their Reply. Queue requests, and the party,
 * lobby and game-list messages (forwarded whole), are answered when the matchmaker
 * answers (backend.c), after whatever state it sent the player first; Choose and Resync
 * are answered by the worker, whose PlayerOutputs pass through unchanged. Everything else
 * is answered here, at once.
 */
#include "session.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "accounts.h"
#include "boards.h"
#include "dh_optlist.h"
#include "dh_account.h"
#include "dh_random.h"
#include "dh_log.h"
#include "flood.h"
#include "inmatch.h"
#include "inwire.h"
#include "mmreq.h"
#include "replay.h"
#include "route.h"
#include "textguard.h"
#include "watch.h"

#define SESSION_NAME_MAX 32
/* A game or a queue mode: what the matchmaker's fields hold (matchmaker/queue.h). */
#define SESSION_QUEUE_TEXT_MAX 63
/* A party or lobby code (six characters; a little room, the matchmaker judges the rest),
 * and the options of a lobby (the matchmaker's own limits: matchmaker/lobbies.h). */
#define SESSION_CODE_MAX    16
#define SESSION_OPTIONS_MAX 16

void session_open(gw_conn *c)
{
    c->rate_tokens = GW_RATE_BURST;
    c->rate_ms = c->flood_ms = uv_now(c->gw->loop);
}

gw_conn *session_find(gw *g, const char *player_id)
{
    return dh_table_get(&g->players, player_id);
}

void session_on_close(gw_conn *c)
{
    accounts_conn_closed(c);
    watch_stop(c->gw, c);
    /* A connection replaced by a resume is no longer authed: its player lives on. */
    if (!c->authed || dh_table_get(&c->gw->players, c->player_id) != c)
        return;
    dh_table_del(&c->gw->players, c->player_id);
    mmreq_player_away(c->gw, c);
    route_player_away(c->gw, c);
}

int session_send(gw_conn *c, const Deckhand__ServerMessage *m)
{
    uint8_t stackbuf[1024];
    size_t len = deckhand__server_message__get_packed_size(m);
    uint8_t *buf = len <= sizeof stackbuf ? stackbuf : malloc(len);
    if (!buf)
        return -1;
    deckhand__server_message__pack(m, buf);
    int rc = conn_send(c, buf, len);
    if (buf != stackbuf)
        free(buf);
    return rc;
}

int session_reply(gw_conn *c, uint64_t cmd_id, Deckhand__ErrorCode code, const char *message)
{
    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
    Deckhand__Reply r = DECKHAND__REPLY__INIT;
    Deckhand__Error e = DECKHAND__ERROR__INIT;
    r.cmd_id = cmd_id;
    r.ok = code == DECKHAND__ERROR_CODE__OK;
    if (!r.ok) {
        dh_ops_count_code(c->gw->stats.replies, (int)code);
        e.code = code;
        e.message = (char *)(message ? message : "");
        r.error = &e;
    }
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_REPLY;
    m.reply = &r;
    return session_send(c, &m);
}

void session_answer(gw *g, const char *player_id, uint64_t cmd_id, Deckhand__ErrorCode code,
                    const char *message)
{
    gw_conn *c = session_find(g, player_id);
    if (!c)
        return;
    watch_refused(c, cmd_id, code);
    session_reply(c, cmd_id, code, message);
}

void session_bad_frame(gw_conn *c, const char *why)
{
    dh_counter_inc(&c->gw->stats.bad_frames);
    dh_info_every(DH_LOG_EVERY_MS, "conn %llu (%s) bad frame: %s", (unsigned long long)c->serial,
                  c->peer, why);
    session_reply(c, 0, DECKHAND__ERROR_CODE__BAD_FRAME, why);
    conn_close(c, true);
}

/* Token bucket: GW_RATE_PER_SEC refill, GW_RATE_BURST capacity. */
static bool session_rate_ok(gw_conn *c)
{
    uint64_t now = uv_now(c->gw->loop);
    c->rate_tokens += (double)(now - c->rate_ms) * GW_RATE_PER_SEC / 1000.0;
    if (c->rate_tokens > GW_RATE_BURST)
        c->rate_tokens = GW_RATE_BURST;
    c->rate_ms = now;
    if (c->rate_tokens < 1.0)
        return false;
    c->rate_tokens -= 1.0;
    return true;
}

/* A message past the rate limit: refused with RATE_LIMITED, refused silently once the
 * connection's refusals pile up, or the end of a flooding connection (flood.h). */
static void session_rate_limited(gw_conn *c, uint64_t cmd_id)
{
    char text[192];
    switch (flood_refused(c)) {
    case FLOOD_REPLY:
        flood_reply_text(c, text, sizeof text);
        session_reply(c, cmd_id, DECKHAND__ERROR_CODE__RATE_LIMITED, text);
        break;
    case FLOOD_SILENT:
        break;
    case FLOOD_DROP:
        flood_drop_text(c, text, sizeof text);
        session_reply(c, 0, DECKHAND__ERROR_CODE__RATE_LIMITED, text);
        flood_drop(c);
        break;
    }
}

/* 1..32 printable ASCII characters, not starting or ending with a space. */
static bool session_name_valid(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > SESSION_NAME_MAX || name[0] == ' ' || name[n - 1] == ' ')
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isprint((unsigned char)name[i]))
            return false;
    return true;
}

/* A client's string that goes on to another process and into log lines (a game, a mode, a
 * match id): at most max printable ASCII characters, no control character (a newline in
 * a mode once forged a matchmaker log line); empty only when may_be_empty. NULL is empty. */
static bool session_text_valid(const char *s, size_t max, bool may_be_empty)
{
    size_t n = s ? strlen(s) : 0;
    if (n > max || (n == 0 && !may_be_empty))
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
            return false;
    return true;
}

/* "p-" + 16 random hex characters. */
static int session_new_player_id(char *out, size_t outlen)
{
    uint8_t r[8];
    if (outlen < 19 || dh_random_bytes(r, sizeof r) < 0)
        return -1;
    strcpy(out, "p-");
    for (size_t i = 0; i < sizeof r; i++)
        snprintf(out + 2 + 2 * i, 3, "%02x", r[i]);
    return 0;
}

/* Bind c to player_id; an older connection of the same player is closed, and c takes over
 * what it was doing (its queue and its match). Returns 0, or -1 when memory runs out. */
static int session_bind(gw_conn *c, const char *player_id, const char *name)
{
    gw *g = c->gw;
    gw_conn *old = dh_table_get(&g->players, player_id);
    if (dh_table_set(&g->players, player_id, c) < 0)
        return -1;
    if (old && old != c) {
        dh_info("player %s resumed on conn %llu, closing conn %llu", player_id,
                (unsigned long long)c->serial, (unsigned long long)old->serial);
        old->authed = false; /* its close must not unbind the new connection */
        snprintf(c->queued, sizeof c->queued, "%s", old->queued);
        c->in_party = old->in_party;
        c->in_lobby = old->in_lobby;
        memcpy(c->matches, old->matches, sizeof c->matches);
        conn_close(old, true);
    }
    snprintf(c->player_id, sizeof c->player_id, "%s", player_id);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->authed = true;
    return 0;
}

/* Log c in as player_id (a guest's or an account's): a fresh token, the binding, Welcome,
 * then Reply ok. resumed: a token brought it back (a waiting ticket follows it). */
static void session_login(gw_conn *c, uint64_t cmd_id, const char *player_id, const char *name,
                          bool resumed)
{
    gw *g = c->gw;
    char token[DH_TOKEN_MAX];
    bool account = dh_token_is_account_id(player_id);
    if (dh_token_ring_sign(&g->tokens, player_id, name, time(NULL) + GW_TOKEN_TTL, token,
                           sizeof token) < 0)
        goto internal;
    if (session_bind(c, player_id, name) < 0)
        goto internal;
    if (resumed)
        mmreq_player_back(g, c); /* a ticket waiting for this player follows it here */
    dh_info("login player=%s name=\"%s\" conn=%llu %s", c->player_id, c->name,
            (unsigned long long)c->serial,
            resumed   ? "resumed"
            : account ? "account"
                      : "guest");

    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
    Deckhand__Welcome w = DECKHAND__WELCOME__INIT;
    w.player_id = c->player_id;
    w.token = token;
    w.name = c->name;
    w.account = account;
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_WELCOME;
    m.welcome = &w;
    if (session_send(c, &m) == 0) {
        dh_counter_inc(&g->stats.logins);
        session_reply(c, cmd_id, DECKHAND__ERROR_CODE__OK, NULL);
    }
    return;
internal:
    dh_error_every(DH_LOG_EVERY_MS, "login failed: cannot make a player id or token");
    session_reply(c, cmd_id, DECKHAND__ERROR_CODE__INTERNAL, "cannot log in now");
}

void session_account_done(gw_conn *c, uint64_t cmd_id, Deckhand__ErrorCode code,
                          const char *message, const char *player_id, const char *name)
{
    if (code == DECKHAND__ERROR_CODE__OK && player_id) {
        if (c->authed) /* logged in some other way meanwhile */
            session_reply(c, cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST, "already logged in");
        else
            session_login(c, cmd_id, player_id, name, false);
        return;
    }
    session_reply(c, cmd_id, code, message);
}

static void session_hello(gw_conn *c, uint64_t cmd_id, const Deckhand__Hello *h)
{
    gw *g = c->gw;
    char player_id[DH_TOKEN_ID_MAX], shown[DH_ACCOUNT_SHOWN_MAX];
    const char *name;
    dh_token_claims claims;
    if (c->authed) {
        session_reply(c, cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST, "already logged in");
        return;
    }
    if (h->token && h->token[0]) {
        dh_token_status st = dh_token_ring_verify(&g->tokens, h->token, time(NULL), &claims);
        if (st != DH_TOKEN_OK) {
            session_reply(c, cmd_id, DECKHAND__ERROR_CODE__UNAUTHENTICATED,
                          dh_token_status_str(st));
            return;
        }
        snprintf(player_id, sizeof player_id, "%s", claims.player_id);
        name = claims.name;
        char key[DH_TOKEN_ID_MAX + 8];
        flood_player_key(key, sizeof key, player_id);
        if (flood_banned(g, key)) {
            dh_counter_inc(&g->stats.banned);
            session_reply(c, cmd_id, DECKHAND__ERROR_CODE__RATE_LIMITED,
                          "this player was disconnected for flooding; try again later");
            conn_close(c, true);
            return;
        }
    } else {
        name = h->name ? h->name : "";
        if (!session_name_valid(name)) {
            session_reply(c, cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST,
                          "name must be 1-32 printable characters");
            return;
        }
        if (session_new_player_id(player_id, sizeof player_id) < 0) {
            session_reply(c, cmd_id, DECKHAND__ERROR_CODE__INTERNAL, "cannot log in now");
            return;
        }
        dh_account_guest_shown(name, shown); /* never an account's name (dh_account.h) */
        name = shown;
    }
    session_login(c, cmd_id, player_id, name, h->token && h->token[0]);
}

static void session_ping(gw_conn *c, uint64_t cmd_id, const Deckhand__Ping *p)
{
    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
    Deckhand__Pong pong = DECKHAND__PONG__INIT;
    pong.nonce = p->nonce;
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_PONG;
    m.pong = &pong;
    if (session_send(c, &m) == 0)
        session_reply(c, cmd_id, DECKHAND__ERROR_CODE__OK, NULL);
}

static const char *session_error_text(Deckhand__ErrorCode code)
{
    switch (code) {
    case DECKHAND__ERROR_CODE__UNKNOWN_MATCH:
        return "no such match on this gateway";
    case DECKHAND__ERROR_CODE__UNAVAILABLE:
        return "backend unavailable, retry later";
    case DECKHAND__ERROR_CODE__OVERLOADED:
        return "backend overloaded, retry later";
    case DECKHAND__ERROR_CODE__BAD_REQUEST:
        return "bad request";
    default:
        return "request failed";
    }
}

/* A party or lobby code: NULL, or what is wrong with it. */
static const char *session_code_invalid(const char *code)
{
    return session_text_valid(code, SESSION_CODE_MAX, false)
               ? NULL
               : "code must be 1-16 printable ASCII characters";
}

/* A list's game filter (empty: every game): NULL, or what is wrong with it. */
static const char *session_game_filter_invalid(const char *game)
{
    return session_text_valid(game, SESSION_QUEUE_TEXT_MAX, true)
               ? NULL
               : "game must be at most 63 printable ASCII characters";
}

/* The strings of a party, lobby or game-list message, checked as session_text_valid
 * does before they go on: NULL, or what is wrong (for a BAD_REQUEST). */
static const char *session_social_invalid(const Deckhand__ClientMessage *m)
{
    switch (m->body_case) {
    case DECKHAND__CLIENT_MESSAGE__BODY_PARTY_JOIN:
        return session_code_invalid(m->party_join->code);
    case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_JOIN:
        return session_code_invalid(m->lobby_join->code);
    case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_LIST_REQUEST:
        return session_game_filter_invalid(m->lobby_list_request->game);
    case DECKHAND__CLIENT_MESSAGE__BODY_WATCH_LIST_REQUEST:
        return session_game_filter_invalid(m->watch_list_request->game);
    case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_CREATE: {
        const Deckhand__LobbyCreate *l = m->lobby_create;
        if (!session_text_valid(l->game, SESSION_QUEUE_TEXT_MAX, false) ||
            !session_text_valid(l->mode, SESSION_QUEUE_TEXT_MAX, true))
            return "game and mode must be at most 63 printable ASCII characters";
        if (l->n_options > SESSION_OPTIONS_MAX)
            return "at most 16 options";
        for (size_t i = 0; i < l->n_options; i++)
            if (!session_text_valid(l->options[i]->name, SESSION_QUEUE_TEXT_MAX, false) ||
                !session_text_valid(l->options[i]->value, DH_OPTLIST_VALUE_MAX, true))
                return "option names must be at most 63 and values at most 200 printable ASCII "
                       "characters";
        return NULL;
    }
    default:
        return NULL;
    }
}

/* A party, lobby or game-list message: checked, then forwarded whole to the matchmaker,
 * which answers it (backend.c). */
static Deckhand__ErrorCode session_social(gw_conn *c, uint64_t id, const Deckhand__ClientMessage *m)
{
    const char *why = session_social_invalid(m);
    if (why) {
        session_reply(c, id, DECKHAND__ERROR_CODE__BAD_REQUEST, why);
        return DECKHAND__ERROR_CODE__OK; /* answered */
    }
    if (m->body_case == DECKHAND__CLIENT_MESSAGE__BODY_REMATCH_OFFER)
        c->offered_rematch = !m->rematch_offer->decline; /* a disconnect then declines */
    return mmreq_request(c->gw, c, id, m);
}

/* Resign: routed like a Choose to the match's worker, which answers it (docs/PROTOCOL.md,
 * "In a match"). */
static Deckhand__ErrorCode session_resign(gw_conn *c, uint64_t id, const Deckhand__Resign *r)
{
    if (id == 0 || !session_text_valid(r->match_id, GW_MATCH_ID_MAX - 1, false)) {
        session_reply(c, id, DECKHAND__ERROR_CODE__BAD_REQUEST,
                      "Resign needs a cmd_id and a match_id of 1-127 printable ASCII characters");
        return DECKHAND__ERROR_CODE__OK; /* answered */
    }
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    pc.match_id = r->match_id;
    pc.player_id = c->player_id;
    pc.cmd_id = id;
    pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESIGN;
    pc.resign = (Deckhand__Resign *)r;
    return route_command(c->gw, &pc, false);
}

static void session_dispatch(gw_conn *c, const Deckhand__ClientMessage *m)
{
    gw *g = c->gw;
    uint64_t id = m->cmd_id;
    Deckhand__ErrorCode rc = DECKHAND__ERROR_CODE__OK;
    const char *why = NULL; /* the words of rc, when more than its name */
    if (m->body_case == DECKHAND__CLIENT_MESSAGE__BODY_HELLO) {
        session_hello(c, id, m->hello);
        return;
    }
    if (m->body_case == DECKHAND__CLIENT_MESSAGE__BODY_REGISTER ||
        m->body_case == DECKHAND__CLIENT_MESSAGE__BODY_ACCOUNT_LOGIN) {
        if (c->authed)
            session_reply(c, id, DECKHAND__ERROR_CODE__BAD_REQUEST, "already logged in");
        else if (m->body_case == DECKHAND__CLIENT_MESSAGE__BODY_REGISTER)
            accounts_register(c, id, m->register_);
        else
            accounts_login(c, id, m->account_login);
        return;
    }
    if (!c->authed) {
        session_reply(c, id, DECKHAND__ERROR_CODE__UNAUTHENTICATED, "send Hello first");
        return;
    }
    switch (m->body_case) {
    case DECKHAND__CLIENT_MESSAGE__BODY_PING:
        session_ping(c, id, m->ping);
        return;
    case DECKHAND__CLIENT_MESSAGE__BODY_QUEUE_JOIN:
        if (!m->queue_join->game || !m->queue_join->game[0]) {
            session_reply(c, id, DECKHAND__ERROR_CODE__BAD_REQUEST, "QueueJoin needs a game");
            return;
        }
        if (!session_text_valid(m->queue_join->game, SESSION_QUEUE_TEXT_MAX, false) ||
            !session_text_valid(m->queue_join->mode, SESSION_QUEUE_TEXT_MAX, true) ||
            !session_text_valid(m->queue_join->vs_ai, SESSION_QUEUE_TEXT_MAX, true)) {
            session_reply(c, id, DECKHAND__ERROR_CODE__BAD_REQUEST,
                          "game, mode and vs_ai must be at most 63 printable ASCII characters");
            return;
        }
        rc = mmreq_join(g, c, id, m->queue_join);
        if (rc == DECKHAND__ERROR_CODE__OK)
            snprintf(c->queued, sizeof c->queued, "%s", m->queue_join->game);
        break;
    case DECKHAND__CLIENT_MESSAGE__BODY_QUEUE_LEAVE:
        if (!session_text_valid(m->queue_leave->game, SESSION_QUEUE_TEXT_MAX, true)) {
            session_reply(c, id, DECKHAND__ERROR_CODE__BAD_REQUEST,
                          "game must be at most 63 printable ASCII characters");
            return;
        }
        rc = mmreq_leave(g, c, id, m->queue_leave);
        if (rc == DECKHAND__ERROR_CODE__OK)
            c->queued[0] = '\0';
        break;
    case DECKHAND__CLIENT_MESSAGE__BODY_PARTY_CREATE:
    case DECKHAND__CLIENT_MESSAGE__BODY_PARTY_JOIN:
    case DECKHAND__CLIENT_MESSAGE__BODY_PARTY_LEAVE:
    case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_CREATE:
    case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_JOIN:
    case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_LEAVE:
    case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_READY:
    case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_START:
    case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_LIST_REQUEST:
    case DECKHAND__CLIENT_MESSAGE__BODY_GAMES_REQUEST:
    case DECKHAND__CLIENT_MESSAGE__BODY_WATCH_LIST_REQUEST:
    case DECKHAND__CLIENT_MESSAGE__BODY_REMATCH_OFFER:
        rc = session_social(c, id, m);
        break;
    case DECKHAND__CLIENT_MESSAGE__BODY_SPECTATE:
        if (id == 0) {
            session_reply(c, id, DECKHAND__ERROR_CODE__BAD_REQUEST, "cmd_id must not be 0");
            return;
        }
        rc = watch_spectate(g, c, id, m->spectate);
        if (rc == DECKHAND__ERROR_CODE__BAD_REQUEST) {
            session_reply(c, id, rc, "match_id must be 1-127 printable ASCII characters");
            return;
        }
        break;
    case DECKHAND__CLIENT_MESSAGE__BODY_SPECTATE_STOP:
        watch_stop(g, c);
        session_reply(c, id, DECKHAND__ERROR_CODE__OK, NULL);
        return;
    case DECKHAND__CLIENT_MESSAGE__BODY_LEADERBOARD_REQUEST:
        boards_leaderboard(c, id, m->leaderboard_request);
        return;
    case DECKHAND__CLIENT_MESSAGE__BODY_HISTORY_REQUEST:
        boards_history(c, id, m->history_request);
        return;
    case DECKHAND__CLIENT_MESSAGE__BODY_REPLAY_REQUEST:
        rc = replay_request(c, id, m->replay_request);
        break;
    case DECKHAND__CLIENT_MESSAGE__BODY_CHOOSE:
    case DECKHAND__CLIENT_MESSAGE__BODY_RESYNC: {
        bool choose = m->body_case == DECKHAND__CLIENT_MESSAGE__BODY_CHOOSE;
        const char *match = choose ? m->choose->match_id : m->resync->match_id;
        if (id == 0) {
            /* cmd_id 0 is the gateway's own attach; the worker does not answer it. */
            session_reply(c, id, DECKHAND__ERROR_CODE__BAD_REQUEST, "cmd_id must not be 0");
            return;
        }
        if (!session_text_valid(match, GW_MATCH_ID_MAX - 1, true)) {
            session_reply(c, id, DECKHAND__ERROR_CODE__BAD_REQUEST,
                          "match_id must be at most 127 printable ASCII characters");
            return;
        }
        rc = route_player_command(g, c, id, match ? match : "", choose ? m->choose : NULL,
                                  choose ? NULL : m->resync);
        break;
    }
    case DECKHAND__CLIENT_MESSAGE__BODY_CHAT_SEND:
    case DECKHAND__CLIENT_MESSAGE__BODY_UNDO_REQUEST:
    case DECKHAND__CLIENT_MESSAGE__BODY_UNDO_ANSWER:
        rc = inmatch_command(c, id, m, &why);
        break;
    case DECKHAND__CLIENT_MESSAGE__BODY_RESIGN:
        rc = session_resign(c, id, m->resign);
        break;
    default:
        session_reply(c, id, DECKHAND__ERROR_CODE__BAD_REQUEST, "unknown or empty message");
        return;
    }
    if (rc != DECKHAND__ERROR_CODE__OK)
        session_reply(c, id, rc, why ? why : session_error_text(rc));
}

/* A logged-in player's Choose, read in place (inwire.h): the same checks and answers as
 * session_dispatch's, without unpacking it. */
static void session_choose(gw_conn *c, const inwire_choose *ch)
{
    if (!session_rate_ok(c)) {
        session_rate_limited(c, ch->cmd_id);
        return;
    }
    Deckhand__ErrorCode rc = route_choose(c->gw, c, ch);
    if (rc != DECKHAND__ERROR_CODE__OK)
        session_reply(c, ch->cmd_id, rc, session_error_text(rc));
}

void session_on_frame(gw_conn *c, const uint8_t *data, size_t len)
{
    dh_counter_inc(&c->gw->stats.frames_in);
    inwire_choose ch;
    if (c->authed && inwire_read_choose(data, len, &ch)) {
        session_choose(c, &ch);
        return;
    }
    Deckhand__ClientMessage *m = deckhand__client_message__unpack(NULL, len, data);
    if (!m) {
        session_bad_frame(c, "undecodable ClientMessage");
        return;
    }
    char why[128];
    if (!session_rate_ok(c))
        session_rate_limited(c, m->cmd_id);
    else if (textguard_check(&deckhand__client_message__descriptor, data, len, why, sizeof why))
        session_reply(c, m->cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST, why);
    else
        session_dispatch(c, m);
    deckhand__client_message__free_unpacked(m, NULL);
}
