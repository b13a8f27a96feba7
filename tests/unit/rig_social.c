/*
 * rig_social.c: client requests at a matchmaker under test, and what it tells players
 * (see rig_social.h).
 */
#include "rig_social.h"

#include <stdio.h>
#include <string.h>

#include "rig_mm_options.h"

void rs_announce(rig_mm *r, int nworkers)
{
    for (int i = 0; i < nworkers; i++)
        rig_mm_hello_options(r, i);
    rig_mm_pump(r, 10);
}

void rs_open_fresh(rig_mm *r, const char *id, int nworkers)
{
    rig_mm_open_fresh(r, id, nworkers);
    rs_announce(r, nworkers);
}

void rs_init(rig_social *s)
{
    memset(s, 0, sizeof *s);
}

void rs_free(rig_social *s)
{
    for (size_t i = 0; i < s->n; i++) {
        Deckhand__ServerMessage *ms[4] = {s->seen[i].party, s->seen[i].lobby, s->seen[i].list,
                                          s->seen[i].games};
        for (int k = 0; k < 4; k++)
            if (ms[k])
                deckhand__server_message__free_unpacked(ms[k], NULL);
    }
    memset(s, 0, sizeof *s);
}

void rs_send(void *gw, const char *pid, uint64_t cmd, const Deckhand__ClientMessage *m)
{
    Deckhand__Internal__ClientRequest r = DECKHAND__INTERNAL__CLIENT_REQUEST__INIT;
    r.player_id = (char *)pid;
    r.name = (char *)pid;
    r.cmd_id = cmd;
    r.message = (Deckhand__ClientMessage *)m;
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_CLIENT_REQUEST;
    msg.client_request = &r;
    rig_mm_send(gw, &msg);
}

static rs_seen *rs_slot(rig_social *s, const char *pid)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->seen[i].player_id, pid))
            return &s->seen[i];
    CU_ASSERT_FATAL(s->n < RS_PLAYERS_MAX);
    rs_seen *x = &s->seen[s->n++];
    snprintf(x->player_id, sizeof x->player_id, "%s", pid);
    return x;
}

/* Keep an mm_output's state as the player's last of its kind. */
static void rs_keep(rig_social *s, const Deckhand__Internal__PlayerOutput *o)
{
    Deckhand__ServerMessage *m =
        deckhand__server_message__unpack(NULL, o->message.len, o->message.data);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    rs_seen *x = rs_slot(s, o->player_id);
    Deckhand__ServerMessage **at =
        m->body_case == DECKHAND__SERVER_MESSAGE__BODY_PARTY        ? &x->party
        : m->body_case == DECKHAND__SERVER_MESSAGE__BODY_LOBBY      ? &x->lobby
        : m->body_case == DECKHAND__SERVER_MESSAGE__BODY_LOBBY_LIST ? &x->list
        : m->body_case == DECKHAND__SERVER_MESSAGE__BODY_GAMES      ? &x->games
                                                                    : NULL;
    CU_ASSERT_PTR_NOT_NULL(at);
    if (at && *at)
        deckhand__server_message__free_unpacked(*at, NULL);
    if (at)
        *at = m;
    else
        deckhand__server_message__free_unpacked(m, NULL);
}

/* Handle one message read from a gateway: the QueueReply's code when it answers cmd, else
 * -2 (kept or dropped). */
static int rs_take(rig_social *s, Deckhand__Internal__Internal *m, uint64_t cmd)
{
    int code = -2;
    if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MM_OUTPUT) {
        rs_keep(s, m->mm_output);
    } else if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY &&
               m->queue_reply->cmd_id == cmd) {
        const Deckhand__Internal__QueueReply *r = m->queue_reply;
        code = r->ok ? 0 : (int)r->error->code;
        snprintf(s->why, sizeof s->why, "%s", r->ok ? "" : r->error->message);
    }
    deckhand__internal__internal__free_unpacked(m, NULL);
    return code;
}

int rs_answer(rig_social *s, void *gw, uint64_t cmd)
{
    for (Deckhand__Internal__Internal *m; (m = rig_mm_next(gw, RIG_MM_WAIT_MS));) {
        int code = rs_take(s, m, cmd);
        if (code != -2)
            return code;
    }
    return -1;
}

void rs_drain(rig_social *s, void *gw, long ms)
{
    for (Deckhand__Internal__Internal *m; (m = rig_mm_next(gw, ms));)
        rs_take(s, m, 0);
}

int rs_do(rig_social *s, rig_mm *r, void *gw, const char *pid, uint64_t cmd,
          const Deckhand__ClientMessage *m, uint64_t now)
{
    rs_send(gw, pid, cmd, m);
    rig_mm_pump(r, now);
    return rs_answer(s, gw, cmd);
}

const Deckhand__PartyState *rs_party(const rig_social *s, const char *pid)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->seen[i].player_id, pid) && s->seen[i].party)
            return s->seen[i].party->party;
    return NULL;
}

const Deckhand__LobbyState *rs_lobby(const rig_social *s, const char *pid)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->seen[i].player_id, pid) && s->seen[i].lobby)
            return s->seen[i].lobby->lobby;
    return NULL;
}

const Deckhand__LobbyList *rs_list(const rig_social *s, const char *pid)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->seen[i].player_id, pid) && s->seen[i].list)
            return s->seen[i].list->lobby_list;
    return NULL;
}

const Deckhand__Games *rs_games_of(const rig_social *s, const char *pid)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->seen[i].player_id, pid) && s->seen[i].games)
            return s->seen[i].games->games;
    return NULL;
}

/* ---- client messages --------------------------------------------------------------------- */

#define RS_MSG(body_name, field, ptr)                                                              \
    static Deckhand__ClientMessage m;                                                              \
    deckhand__client_message__init(&m);                                                            \
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_##body_name;                                      \
    m.field = (ptr);                                                                               \
    return &m

const Deckhand__ClientMessage *rs_party_create(void)
{
    static Deckhand__PartyCreate b = DECKHAND__PARTY_CREATE__INIT;
    RS_MSG(PARTY_CREATE, party_create, &b);
}

const Deckhand__ClientMessage *rs_party_join(const char *code)
{
    static Deckhand__PartyJoin b;
    deckhand__party_join__init(&b);
    b.code = (char *)code;
    RS_MSG(PARTY_JOIN, party_join, &b);
}

const Deckhand__ClientMessage *rs_party_leave(void)
{
    static Deckhand__PartyLeave b = DECKHAND__PARTY_LEAVE__INIT;
    RS_MSG(PARTY_LEAVE, party_leave, &b);
}

static const Deckhand__ClientMessage *rs_create(const char *game, uint32_t seats, bool public_,
                                                const char *name, const char *value)
{
    static Deckhand__LobbyCreate b;
    static Deckhand__GameOption o, *op[1] = {&o};
    deckhand__lobby_create__init(&b);
    deckhand__game_option__init(&o);
    o.name = (char *)name;
    o.value = (char *)value;
    b.game = (char *)game;
    b.players = seats;
    b.public_ = public_;
    b.n_options = 1;
    b.options = op;
    RS_MSG(LOBBY_CREATE, lobby_create, &b);
}

const Deckhand__ClientMessage *rs_lobby_create(const char *game, uint32_t seats, bool public_)
{
    return rs_create(game, seats, public_, "kingdom", "first_game");
}

const Deckhand__ClientMessage *rs_lobby_create_with(const char *game, uint32_t seats,
                                                    const char *name, const char *value)
{
    return rs_create(game, seats, false, name, value);
}

const Deckhand__ClientMessage *rs_lobby_join(const char *code)
{
    static Deckhand__LobbyJoin b;
    deckhand__lobby_join__init(&b);
    b.code = (char *)code;
    RS_MSG(LOBBY_JOIN, lobby_join, &b);
}

const Deckhand__ClientMessage *rs_lobby_leave(void)
{
    static Deckhand__LobbyLeave b = DECKHAND__LOBBY_LEAVE__INIT;
    RS_MSG(LOBBY_LEAVE, lobby_leave, &b);
}

const Deckhand__ClientMessage *rs_lobby_ready(bool ready)
{
    static Deckhand__LobbyReady b;
    deckhand__lobby_ready__init(&b);
    b.ready = ready;
    RS_MSG(LOBBY_READY, lobby_ready, &b);
}

const Deckhand__ClientMessage *rs_lobby_start(void)
{
    static Deckhand__LobbyStart b = DECKHAND__LOBBY_START__INIT;
    RS_MSG(LOBBY_START, lobby_start, &b);
}

const Deckhand__ClientMessage *rs_lobby_list(const char *game)
{
    static Deckhand__LobbyListRequest b;
    deckhand__lobby_list_request__init(&b);
    b.game = (char *)game;
    RS_MSG(LOBBY_LIST_REQUEST, lobby_list_request, &b);
}

const Deckhand__ClientMessage *rs_games(void)
{
    static Deckhand__GamesRequest b = DECKHAND__GAMES_REQUEST__INIT;
    RS_MSG(GAMES_REQUEST, games_request, &b);
}
