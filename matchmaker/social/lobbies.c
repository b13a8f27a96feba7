/*
 * lobbies.c: lobbies and their requests (see lobbies.h).
 */
#include "lobbies.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"
#include "dh_log.h"
#include "groups.h"
#include "mm_data.h"
#include "mm_play.h"
#include "mm_store.h"
#include "notify.h"

/* ---- what members are told, and what Redis keeps --------------------------------- */

/* LobbyState for l to one player; closed (with l's code) for one no longer in it, and
 * match_id once it started. */
static void lobbies_state(mm_state *mm, const group *l, const char *gateway, const char *player_id,
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
        groups_member_msgs(l, ms, mp);
        groups_option_msgs(l, os, op);
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
    notify_body(mm, gateway, player_id, DECKHAND__SERVER_MESSAGE__BODY_LOBBY, &st);
}

/* l's LobbyRecord: what LobbyCreate set, and its members in order with their ready marks. */
static uint8_t *lobbies_pack(const group *l, size_t *len)
{
    Deckhand__Internal__Seat seats[LOBBY_SEATS_MAX];
    Deckhand__Internal__Seat *sp[LOBBY_SEATS_MAX];
    protobuf_c_boolean ready[LOBBY_SEATS_MAX];
    Deckhand__GameOption os[LOBBY_OPTIONS_MAX];
    Deckhand__GameOption *op[LOBBY_OPTIONS_MAX];
    groups_seat_msgs(l, seats, sp);
    groups_option_msgs(l, os, op);
    for (size_t i = 0; i < l->n; i++)
        ready[i] = l->members[i].ready;
    Deckhand__Internal__LobbyRecord rec = DECKHAND__INTERNAL__LOBBY_RECORD__INIT;
    rec.code = (char *)l->code;
    rec.game = (char *)l->game;
    rec.mode = (char *)l->mode;
    rec.seats = l->seats;
    rec.public_ = l->public;
    rec.n_options = l->noptions;
    rec.options = op;
    rec.n_members = l->n;
    rec.members = sp;
    rec.n_ready = l->n;
    rec.ready = ready;
    return groups_pack(&rec.base, len);
}

/* A lobby option from a client or a record into o: false when it does not fit. */
static bool lobbies_option(const Deckhand__GameOption *from, group_option *o)
{
    if (!member_text_ok(from->name, LOBBY_TEXT_MAX) || !member_text_ok(from->value, LOBBY_TEXT_MAX))
        return false;
    snprintf(o->name, LOBBY_TEXT_MAX, "%s", from->name ? from->name : "");
    snprintf(o->value, LOBBY_TEXT_MAX, "%s", from->value ? from->value : "");
    return true;
}

/* The lobby a record describes, without its members, into spec. False when it does not
 * fit. */
static bool lobbies_record_spec(const Deckhand__Internal__LobbyRecord *rec, group *spec)
{
    memset(spec, 0, sizeof *spec);
    if (!codes_read(rec->code, spec->code) || !member_text_ok(rec->game, sizeof spec->game) ||
        !member_text_ok(rec->mode, sizeof spec->mode) || rec->n_options > LOBBY_OPTIONS_MAX ||
        rec->n_members == 0 || rec->n_members > LOBBY_SEATS_MAX || rec->seats > LOBBY_SEATS_MAX)
        return false;
    snprintf(spec->game, sizeof spec->game, "%s", rec->game);
    snprintf(spec->mode, sizeof spec->mode, "%s", rec->mode);
    for (size_t i = 0; i < rec->n_options; i++)
        if (!lobbies_option(rec->options[i], &spec->options[i]))
            return false;
    spec->noptions = rec->n_options;
    spec->seats = rec->seats;
    spec->public = rec->public_;
    return true;
}

/* A stored LobbyRecord into s, members and their ready marks included. */
static bool lobbies_add(group_set *s, const ProtobufCMessage *m)
{
    const Deckhand__Internal__LobbyRecord *rec = (const Deckhand__Internal__LobbyRecord *)m;
    group spec;
    return lobbies_record_spec(rec, &spec) &&
           groups_add_stored(s, &spec, rec->members, rec->n_members, rec->ready, rec->n_ready);
}

static group_set *lobbies_set(mm_state *mm)
{
    return &mm->lobbies;
}

const group_kind lobbies_kind = {
    .what = "lobby",
    .key = DH_KEY_MM_LOBBIES,
    .set = lobbies_set,
    .record = &deckhand__internal__lobby_record__descriptor,
    .pack = lobbies_pack,
    .add = lobbies_add,
    .state = lobbies_state,
};

/* ---- requests ----------------------------------------------------------------------- */

/* The lobby spec of a LobbyCreate into out: NULL, or why it is refused (*code set; the
 * text may be written into text[0..cap)). */
static const char *lobbies_spec(mm_state *mm, const Deckhand__LobbyCreate *c, group *out,
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
        if (!o->name || !*o->name || !lobbies_option(o, &out->options[i]))
            return "an option's name and value must be at most 63 characters, none of them "
                   "control characters";
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
    group spec, *l = NULL;
    if (group_set_of(&mm->lobbies, who->player_id)) {
        *why = "already in a lobby; leave it first";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    if ((*why = lobbies_spec(mm, c, &spec, &code, text, cap)))
        return code;
    group_status st = groups_create(mm, &lobbies_kind, &spec, who, &l);
    if (st == GROUP_TOO_MANY) {
        *why = "too many lobbies; try again later";
        return DECKHAND__ERROR_CODE__OVERLOADED;
    }
    if (st != GROUP_OK) {
        *why = "cannot make a lobby now";
        return DECKHAND__ERROR_CODE__INTERNAL;
    }
    dh_info("lobby %s made by %s: %s/%s, %u seats, %s", l->code, who->player_id, l->game, l->mode,
            l->seats, l->public ? "public" : "private");
    groups_changed(mm, &lobbies_kind, l, now_ms);
    return DECKHAND__ERROR_CODE__OK;
}

static Deckhand__ErrorCode lobbies_join_req(mm_state *mm, const member_info *who,
                                            const char *wire_code, const char **why,
                                            uint64_t now_ms)
{
    char code[CODES_LEN + 1];
    group *l = NULL;
    group_status st =
        codes_read(wire_code, code) ? group_set_join(&mm->lobbies, code, who, &l) : GROUP_NOT_FOUND;
    switch (st) {
    case GROUP_OK:
        break;
    case GROUP_NOT_FOUND:
        *why = "no lobby has that code";
        return DECKHAND__ERROR_CODE__NOT_FOUND;
    case GROUP_FULL:
        *why = "the lobby is full";
        return DECKHAND__ERROR_CODE__FULL;
    case GROUP_ALREADY:
        *why = "already in a lobby; leave it first";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    default:
        *why = "out of memory";
        return DECKHAND__ERROR_CODE__OVERLOADED;
    }
    dh_info("lobby %s: %s joined (%zu of %u)", l->code, who->player_id, l->n, l->seats);
    groups_changed(mm, &lobbies_kind, l, now_ms);
    return DECKHAND__ERROR_CODE__OK;
}

static Deckhand__ErrorCode lobbies_leave_req(mm_state *mm, const member_info *who, const char **why,
                                             uint64_t now_ms)
{
    if (!groups_leave(mm, &lobbies_kind, who->player_id, "left", true, now_ms)) {
        *why = "not in a lobby";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    return DECKHAND__ERROR_CODE__OK;
}

static Deckhand__ErrorCode lobbies_ready_req(mm_state *mm, const member_info *who, bool ready,
                                             const char **why, uint64_t now_ms)
{
    if (group_set_ready(&mm->lobbies, who->player_id, ready) != GROUP_OK) {
        *why = "not in a lobby";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    groups_changed(mm, &lobbies_kind, group_set_of(&mm->lobbies, who->player_id), now_ms);
    return DECKHAND__ERROR_CODE__OK;
}

/* The lobby's options (checked when it was made) as the key's canonical text, so the
 * placement carries them to StartMatch.options. 0, or -1 when they do not fit. */
static int lobbies_key_options(const mm_state *mm, const group *l, queue_key *key)
{
    Deckhand__GameOption v[LOBBY_OPTIONS_MAX], *p[LOBBY_OPTIONS_MAX];
    groups_option_msgs(l, v, p);
    char canon[QUEUE_OPTIONS_MAX];
    if (options_canon_for(&mm->reg, l->game, p, l->noptions, canon, sizeof canon) >= sizeof canon)
        return -1;
    return queue_key_options(key, canon) == QUEUE_OK ? 0 : -1;
}

/* Start l: its members placed as one match, told, and the lobby closed. */
static Deckhand__ErrorCode lobbies_start_req(mm_state *mm, const member_info *who, const char **why,
                                             char *text, size_t cap, uint64_t now_ms)
{
    group *l = group_set_of(&mm->lobbies, who->player_id);
    if (!l) {
        *why = "not in a lobby";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    const registry_game *g = registry_game_info(&mm->reg, l->game);
    if (!g) {
        *why = "no worker serves the lobby's game now";
        return DECKHAND__ERROR_CODE__UNAVAILABLE;
    }
    if ((*why = group_start_check(l, who->player_id, g->min_players))) {
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
    groups_tell(mm, &lobbies_kind, l, match_id);
    groups_store_del(mm, now_ms, &lobbies_kind, l->code);
    group_set_close(&mm->lobbies, l);
    return DECKHAND__ERROR_CODE__OK;
}

static Deckhand__ErrorCode lobbies_list_req(mm_state *mm, const member_info *who,
                                            const Deckhand__LobbyListRequest *q, const char **why)
{
    if (!member_text_ok(q->game, QUEUE_NAME_MAX)) {
        *why = "game must be at most 63 characters, none of them control characters";
        return DECKHAND__ERROR_CODE__BAD_REQUEST;
    }
    const group *ls[LOBBY_LIST_MAX];
    size_t n = group_set_list(&mm->lobbies, q->game, ls, LOBBY_LIST_MAX), bytes = 0;
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
        groups_option_msgs(ls[i], os[i], op[i]);
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
    notify_body(mm, who->gateway, who->player_id, DECKHAND__SERVER_MESSAGE__BODY_LOBBY_LIST, &list);
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
