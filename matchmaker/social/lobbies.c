/*
 * lobbies.c: lobbies and their requests (see lobbies.h).
 */
#include "lobbies.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_log.h"
#include "mm_store.h"
#include "notify.h"
#include "mm_data.h"
#include "lobby_store.h"
#include "mm_play.h"

/* ---- what members are told ---------------------------------------------------------- */

/* LobbyState for l to one player; closed (with l's code) for one no longer in it, and
 * match_id once it started. */
static void lobbies_state(mm_state *mm, const lobby *l, const char *gateway, const char *player_id,
                          bool closed, const char *match_id)
{
    Deckhand__Member ms[LOBBY_SEATS_MAX];
    Deckhand__Member *mp[LOBBY_SEATS_MAX];
    Deckhand__GameOption os[LOBBY_OPTIONS_MAX];
    Deckhand__GameOption *op[LOBBY_OPTIONS_MAX];
    Deckhand__LobbyState st = DECKHAND__LOBBY_STATE__INIT;
    st.code = (char *)l->code;
    st.closed = closed;
    st.match_id = (char *)(match_id ? match_id : "");
    if (!closed || match_id) {
        for (size_t i = 0; i < l->n; i++) {
            member_msg(&l->members[i], &ms[i]);
            mp[i] = &ms[i];
        }
        for (size_t i = 0; i < l->noptions; i++) {
            deckhand__game_option__init(&os[i]);
            os[i].name = (char *)l->options[i].name;
            os[i].value = (char *)l->options[i].value;
            op[i] = &os[i];
        }
        st.game = (char *)l->game;
        st.mode = (char *)l->mode;
        st.n_options = l->noptions;
        st.options = op;
        st.public_ = l->public;
        st.host_id = (char *)l->members[0].player_id;
        st.players = l->seats;
        st.n_members = l->n;
        st.members = mp;
    }
    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_LOBBY;
    m.lobby = &st;
    notify_send(mm, gateway, player_id, &m);
}

static void lobbies_tell(mm_state *mm, const lobby *l, const char *match_id)
{
    for (size_t i = 0; i < l->n; i++)
        lobbies_state(mm, l, l->members[i].gateway, l->members[i].player_id, match_id != NULL,
                      match_id);
}

/* l changed: stored, and every member told. */
static void lobbies_changed(mm_state *mm, const lobby *l, uint64_t now_ms)
{
    lobby_store_put(mm, now_ms, l);
    lobbies_tell(mm, l, NULL);
}

/* ---- requests ----------------------------------------------------------------------- */

/* The lobby spec of a LobbyCreate into out: NULL, or why it is refused (*code set; the
 * text may be written into text[0..cap)). */
static const char *lobbies_spec(mm_state *mm, const Deckhand__LobbyCreate *c, lobby *out,
                                Deckhand__ErrorCode *code, char *text, size_t cap)
{
    memset(out, 0, sizeof *out);
    *code = DECKHAND__ERROR_CODE__BAD_REQUEST;
    const registry_game *g = registry_game_info(&mm->reg, c->game ? c->game : "");
    if (!g) {
        *code = DECKHAND__ERROR_CODE__UNKNOWN_GAME;
        return "no worker serves that game";
    }
    const char *mode = c->mode && *c->mode ? c->mode : "casual";
    if (!member_text_ok(mode, sizeof out->mode))
        return "mode must be at most 63 characters, none of them control characters";
    if (!settings_has_mode(&mm->settings, g->name, mode)) {
        snprintf(text, cap, "%.32s has no mode '%.32s' (casual, or one the queues file names)",
                 g->name, mode);
        return text;
    }
    uint32_t seats = c->players ? c->players : g->max_players;
    if (seats < g->min_players || seats > g->max_players || seats > LOBBY_SEATS_MAX)
        return "the seats must be within the game's player counts";
    if (c->n_options > LOBBY_OPTIONS_MAX)
        return "too many options";
    for (size_t i = 0; i < c->n_options; i++) {
        const Deckhand__GameOption *o = c->options[i];
        if (!o->name || !*o->name || !member_text_ok(o->name, LOBBY_TEXT_MAX) ||
            !member_text_ok(o->value, LOBBY_TEXT_MAX))
            return "an option's name and value must be at most 63 characters, none of them "
                   "control characters";
        snprintf(out->options[i].name, LOBBY_TEXT_MAX, "%s", o->name);
        snprintf(out->options[i].value, LOBBY_TEXT_MAX, "%s", o->value ? o->value : "");
    }
    if (!options_check(&mm->reg, g->name, c->options, c->n_options, text, cap))
        return text; /* the game does not take them: as a QueueJoin's options */
    out->noptions = c->n_options;
    snprintf(out->game, sizeof out->game, "%s", g->name);
    snprintf(out->mode, sizeof out->mode, "%s", mode);
    out->seats = seats;
    out->public = c->public_;
    return NULL;
}

static Deckhand__ErrorCode lobbies_create_req(mm_state *mm, const member_info *who,
                                              const Deckhand__LobbyCreate *c, const char **why,
                                              char *text, size_t cap, uint64_t now_ms)
{
    Deckhand__ErrorCode code;
    lobby spec, *l = NULL;
    if (lobby_set_of(&mm->lobbies, who->player_id)) {
        *why = "already in a lobby; leave it first";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    if ((*why = lobbies_spec(mm, c, &spec, &code, text, cap)))
        return code;
    lobby_status st = LOBBY_ALREADY;
    for (int tries = 0; st == LOBBY_ALREADY && tries < 8; tries++) {
        if (codes_new(spec.code) < 0)
            break;
        st = lobby_set_create(&mm->lobbies, &spec, who, &l);
    }
    if (st == LOBBY_TOO_MANY) {
        *why = "too many lobbies; try again later";
        return DECKHAND__ERROR_CODE__OVERLOADED;
    }
    if (st != LOBBY_OK) {
        *why = "cannot make a lobby now";
        return DECKHAND__ERROR_CODE__INTERNAL;
    }
    dh_info("lobby %s made by %s: %s/%s, %u seats, %s", l->code, who->player_id, l->game, l->mode,
            l->seats, l->public ? "public" : "private");
    lobbies_changed(mm, l, now_ms);
    return DECKHAND__ERROR_CODE__OK;
}

static Deckhand__ErrorCode lobbies_join_req(mm_state *mm, const member_info *who,
                                            const char *wire_code, const char **why,
                                            uint64_t now_ms)
{
    char code[CODES_LEN + 1];
    lobby *l = NULL;
    lobby_status st =
        codes_read(wire_code, code) ? lobby_set_join(&mm->lobbies, code, who, &l) : LOBBY_NOT_FOUND;
    switch (st) {
    case LOBBY_OK:
        break;
    case LOBBY_NOT_FOUND:
        *why = "no lobby has that code";
        return DECKHAND__ERROR_CODE__NOT_FOUND;
    case LOBBY_FULL:
        *why = "the lobby is full";
        return DECKHAND__ERROR_CODE__FULL;
    case LOBBY_ALREADY:
        *why = "already in a lobby; leave it first";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    default:
        *why = "out of memory";
        return DECKHAND__ERROR_CODE__OVERLOADED;
    }
    dh_info("lobby %s: %s joined (%zu of %u)", l->code, who->player_id, l->n, l->seats);
    lobbies_changed(mm, l, now_ms);
    return DECKHAND__ERROR_CODE__OK;
}

static Deckhand__ErrorCode lobbies_leave_req(mm_state *mm, const member_info *who, const char **why,
                                             uint64_t now_ms)
{
    lobby *l = lobby_set_of(&mm->lobbies, who->player_id);
    if (!l) {
        *why = "not in a lobby";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    member_info gone = *lobby_set_member(l, who->player_id);
    lobby was = *l; /* its code, for the closed state the player gets */
    was.n = 0;
    lobby_set_leave(&mm->lobbies, who->player_id, &l);
    dh_info("lobby %s: %s left (%zu members)", was.code, who->player_id, l ? l->n : 0);
    lobbies_state(mm, &was, gone.gateway, gone.player_id, true, NULL);
    if (l)
        lobbies_changed(mm, l, now_ms);
    else
        lobby_store_del(mm, now_ms, was.code);
    return DECKHAND__ERROR_CODE__OK;
}

static Deckhand__ErrorCode lobbies_ready_req(mm_state *mm, const member_info *who, bool ready,
                                             const char **why, uint64_t now_ms)
{
    if (lobby_set_ready(&mm->lobbies, who->player_id, ready) != LOBBY_OK) {
        *why = "not in a lobby";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    lobbies_changed(mm, lobby_set_of(&mm->lobbies, who->player_id), now_ms);
    return DECKHAND__ERROR_CODE__OK;
}

/* The lobby's options (checked when it was made) as the key's canonical text, so the
 * placement carries them to StartMatch.options. 0, or -1 when they do not fit. */
static int lobbies_key_options(const mm_state *mm, const lobby *l, queue_key *key)
{
    Deckhand__GameOption v[LOBBY_OPTIONS_MAX], *p[LOBBY_OPTIONS_MAX];
    for (size_t i = 0; i < l->noptions; i++) {
        deckhand__game_option__init(&v[i]);
        v[i].name = (char *)l->options[i].name;
        v[i].value = (char *)l->options[i].value;
        p[i] = &v[i];
    }
    char canon[QUEUE_OPTIONS_MAX];
    if (options_canon_for(&mm->reg, l->game, p, l->noptions, canon, sizeof canon) >= sizeof canon)
        return -1;
    return queue_key_options(key, canon) == QUEUE_OK ? 0 : -1;
}

/* Start l: its members placed as one match, told, and the lobby closed. */
static Deckhand__ErrorCode lobbies_start_req(mm_state *mm, const member_info *who, const char **why,
                                             char *text, size_t cap, uint64_t now_ms)
{
    lobby *l = lobby_set_of(&mm->lobbies, who->player_id);
    if (!l) {
        *why = "not in a lobby";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    const registry_game *g = registry_game_info(&mm->reg, l->game);
    if (!g) {
        *why = "no worker serves the lobby's game now";
        return DECKHAND__ERROR_CODE__UNAVAILABLE;
    }
    if ((*why = lobby_set_start_check(l, who->player_id, g->min_players))) {
        if (l->n < g->min_players && !strcmp(l->members[0].player_id, who->player_id)) {
            snprintf(text, cap, "%s needs at least %u players; the lobby has %zu", l->game,
                     g->min_players, l->n);
            *why = text;
        }
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    queue_key key;
    queue_ticket t[LOBBY_SEATS_MAX];
    uint64_t wall = mm_wall_ms(mm, now_ms);
    if (queue_key_init(&key, l->game, l->mode, (uint32_t)l->n) != QUEUE_OK) {
        *why = "a field is too long";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    for (size_t i = 0; i < l->n; i++) {
        const member_info *m = &l->members[i];
        if (queue_ticket_init(&t[i], m->player_id, m->name, m->gateway, 0, wall) != QUEUE_OK) {
            *why = "a field is too long";
            return DECKHAND__ERROR_CODE__BAD_REQUEST;
        }
        t[i].seq = mm->next_seq; /* one seq: a retry puts them back in line together */
    }
    mm->next_seq++;
    if (lobbies_key_options(mm, l, &key) < 0) {
        *why = "the lobby's options do not fit";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    char match_id[PLACEMENT_ID_LEN + 1];
    Deckhand__ErrorCode code = placement_place(mm, &key, t, l->n, now_ms, match_id, why);
    if (code != DECKHAND__ERROR_CODE__OK)
        return code;
    dh_info("lobby %s started: match %s, %zu players", l->code, match_id, l->n);
    lobbies_tell(mm, l, match_id);
    lobby_store_del(mm, now_ms, l->code);
    lobby_set_close(&mm->lobbies, l);
    return DECKHAND__ERROR_CODE__OK;
}

static Deckhand__ErrorCode lobbies_list_req(mm_state *mm, const member_info *who,
                                            const Deckhand__LobbyListRequest *q, const char **why)
{
    if (!member_text_ok(q->game, QUEUE_NAME_MAX)) {
        *why = "game must be at most 63 characters, none of them control characters";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    const lobby *ls[LOBBY_LIST_MAX];
    size_t n = lobby_set_list(&mm->lobbies, q->game, ls, LOBBY_LIST_MAX), bytes = 0;
    Deckhand__LobbySummary sums[LOBBY_LIST_MAX];
    Deckhand__LobbySummary *sp[LOBBY_LIST_MAX];
    Deckhand__GameOption os[LOBBY_LIST_MAX][LOBBY_OPTIONS_MAX];
    Deckhand__GameOption *op[LOBBY_LIST_MAX][LOBBY_OPTIONS_MAX];
    for (size_t i = 0; i < n; i++) {
        deckhand__lobby_summary__init(&sums[i]);
        sums[i].code = (char *)ls[i]->code;
        sums[i].game = (char *)ls[i]->game;
        sums[i].mode = (char *)ls[i]->mode;
        sums[i].host = (char *)ls[i]->members[0].name;
        sums[i].players = ls[i]->seats;
        sums[i].members = (uint32_t)ls[i]->n;
        for (size_t j = 0; j < ls[i]->noptions; j++) {
            deckhand__game_option__init(&os[i][j]);
            os[i][j].name = (char *)ls[i]->options[j].name;
            os[i][j].value = (char *)ls[i]->options[j].value;
            op[i][j] = &os[i][j];
        }
        sums[i].n_options = ls[i]->noptions;
        sums[i].options = op[i];
        sp[i] = &sums[i];
        /* a client reads frames of 64 KiB by default: lobbies with long options stop the
         * list short of that rather than make it unreadable */
        bytes += deckhand__lobby_summary__get_packed_size(&sums[i]) + 4;
        if (bytes > LOBBY_LIST_BYTES) {
            n = i;
            break;
        }
    }
    Deckhand__LobbyList list = DECKHAND__LOBBY_LIST__INIT;
    list.n_lobbies = n;
    list.lobbies = sp;
    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_LOBBY_LIST;
    m.lobby_list = &list;
    notify_send(mm, who->gateway, who->player_id, &m);
    return DECKHAND__ERROR_CODE__OK;
}

Deckhand__ErrorCode lobbies_request(mm_state *mm, const char *gateway,
                                    const Deckhand__Internal__ClientRequest *r, const char **why,
                                    char *text, size_t cap, uint64_t now_ms)
{
    const Deckhand__ClientMessage *m = r->message;
    member_info who;
    if (!member_init(&who, r->player_id, r->name, gateway)) {
        *why = "player id or name too long";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    bool queued = queue_has(mm->queues, who.player_id) ||
                  placement_has_player(&mm->placements, who.player_id);
    switch (m->body_case) {
    case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_CREATE:
    case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_JOIN:
        if (queued) {
            *why = "waiting in a line; leave it first";
            return DECKHAND__ERROR_CODE__BAD_REQUEST;
        }
        return m->body_case == DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_CREATE
                   ? lobbies_create_req(mm, &who, m->lobby_create, why, text, cap, now_ms)
                   : lobbies_join_req(mm, &who, m->lobby_join->code, why, now_ms);
    case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_LEAVE:
        return lobbies_leave_req(mm, &who, why, now_ms);
    case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_READY:
        return lobbies_ready_req(mm, &who, m->lobby_ready->ready, why, now_ms);
    case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_START:
        return lobbies_start_req(mm, &who, why, text, cap, now_ms);
    case DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_LIST_REQUEST:
        return lobbies_list_req(mm, &who, m->lobby_list_request, why);
    default:
        *why = "not a lobby request";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
}

void lobbies_presence(mm_state *mm, const char *player_id, const char *gateway, bool connected,
                      uint64_t now_ms)
{
    lobby *l = lobby_set_of(&mm->lobbies, player_id);
    member_info *m = lobby_set_member(l, player_id);
    if (!m || (!connected && strcmp(m->gateway, gateway ? gateway : "")))
        return; /* an away from a gateway the player left is stale */
    m->connected = connected;
    bool moved = connected && gateway && *gateway && strcmp(m->gateway, gateway);
    if (moved) {
        snprintf(m->gateway, sizeof m->gateway, "%s", gateway);
        lobby_store_put(mm, now_ms, l);
    }
    lobbies_tell(mm, l, NULL);
}

void lobbies_load(mm_state *mm, uint64_t now_ms)
{
    lobby_store_load(mm, now_ms);
}
