/*
 * rig_mm.c: a matchmaker between fake workers and fake gateways over inproc ZeroMQ, on a
 * clock the test moves (see rig_mm.h).
 */
#include "rig_mm.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#include "dh_keys.h"
#include "rig_redis.h"
#include "social.h"
#include "state.h"
#include "tickets.h"

#define RIG_MM_HWM 10000 /* a takeover sends hundreds of AdoptMatch in one tick */

/* An Internal message on the stack whose body is field, of case BODY_<body>. */
#define RIG_MM_MSG(body, field, ptr)                                                               \
    (&(Deckhand__Internal__Internal){                                                              \
        .base = PROTOBUF_C_MESSAGE_INIT(&deckhand__internal__internal__descriptor),                \
        .body_case = DECKHAND__INTERNAL__INTERNAL__BODY_##body,                                    \
        .field = (ptr)})

const char *const rig_mm_worker_ids[RIG_MM_WORKERS_MAX] = {"wk-a", "wk-b", "wk-c"};

/* ---- the matchmaker and its peers ------------------------------------------------------ */

static void rig_mm_worker_hello(rig_mm *r, int i)
{
    Deckhand__Internal__GameInfo gi = DECKHAND__INTERNAL__GAME_INFO__INIT;
    Deckhand__Internal__GameInfo *gis[] = {&gi};
    gi.name = (char *)"dominion";
    gi.min_players = 2;
    gi.max_players = 4;
    char ep[32];
    snprintf(ep, sizeof ep, "tcp://%c:1", 'a' + i);
    Deckhand__Internal__WorkerHello h = DECKHAND__INTERNAL__WORKER_HELLO__INIT;
    h.worker_id = (char *)rig_mm_worker_ids[i];
    h.endpoint = ep;
    h.n_games = 1;
    h.games = gis;
    h.capacity = 1000;
    rig_mm_send(r->w[i], RIG_MM_MSG(WORKER_HELLO, worker_hello, &h));
}

static void *rig_mm_peer(rig_mm *r, const char *identity, const char *ep)
{
    void *s = dh_zmq_socket(r->ctx, ZMQ_DEALER, identity, RIG_MM_HWM);
    zmq_connect(s, ep);
    return s;
}

static void rig_mm_gateway_hello(void *gw, const char *id)
{
    Deckhand__Internal__GatewayHello gh = DECKHAND__INTERNAL__GATEWAY_HELLO__INIT;
    gh.gateway_id = (char *)id;
    rig_mm_send(gw, RIG_MM_MSG(GATEWAY_HELLO, gateway_hello, &gh));
}

void rig_mm_open(rig_mm *r, const char *id, const char *redis_url, int nworkers, uint64_t now)
{
    char ep[64];
    memset(r, 0, sizeof *r);
    CU_ASSERT_EQUAL_FATAL(mm_init(&r->mm, id, redis_url, 500), 0);
    social_init(&r->mm);
    r->mm.wall_base_ms = RIG_MM_WALL0;
    r->ctx = zmq_ctx_new();
    snprintf(ep, sizeof ep, "inproc://%s", id);
    r->mm.router = dh_zmq_socket(r->ctx, ZMQ_ROUTER, NULL, RIG_MM_HWM);
    CU_ASSERT_EQUAL_FATAL(zmq_bind(r->mm.router, ep), 0);
    r->nworkers = nworkers;
    for (int i = 0; i < nworkers; i++) {
        r->w[i] = rig_mm_peer(r, rig_mm_worker_ids[i], ep);
        rig_mm_worker_hello(r, i);
    }
    r->gw = rig_mm_peer(r, "gw-1", ep);
    r->gw2 = rig_mm_peer(r, "gw-2", ep);
    rig_mm_gateway_hello(r->gw, "gw-1");
    rig_mm_gateway_hello(r->gw2, "gw-2");
    rig_mm_pump(r, now);
    CU_ASSERT_EQUAL_FATAL(r->mm.reg.nworkers, (size_t)nworkers);
}

void rig_mm_open_fresh(rig_mm *r, const char *id, int nworkers)
{
    rig_redis_flushall();
    rig_mm_open(r, id, rig_redis_url(), nworkers, 0);
}

void rig_mm_close(rig_mm *r)
{
    for (int i = 0; i < r->nworkers; i++)
        zmq_close(r->w[i]);
    zmq_close(r->gw);
    zmq_close(r->gw2);
    zmq_close(r->mm.router);
    zmq_ctx_term(r->ctx);
    social_free(&r->mm);
    mm_free(&r->mm);
}

void rig_mm_pump(rig_mm *r, uint64_t now)
{
    char id[DH_ZMQ_ID_MAX + 1];
    zmq_pollitem_t it = {.socket = r->mm.router, .events = ZMQ_POLLIN};
    while (zmq_poll(&it, 1, 20) == 1) {
        Deckhand__Internal__Internal *m = NULL;
        if (dh_zmq_recv(r->mm.router, id, &m) != 1)
            continue;
        control_handle(&r->mm, id, m, now);
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
    r->mm.heard_ms = now;       /* the socket is empty: as loop_drain notes it */
    tickets_flush(&r->mm, now); /* as the loop does after each drain */
    state_flush(&r->mm, now);
    mm_tick(&r->mm, now);
}

void rig_mm_lease_lapses(void)
{
    rig_redis_ok("PEXPIRE " DH_KEY_MM_LEASE " 1");
    usleep(20000);
}

/* ---- what workers and gateways send ---------------------------------------------------- */

void rig_mm_send(void *sock, const Deckhand__Internal__Internal *m)
{
    CU_ASSERT_EQUAL(dh_zmq_send(sock, NULL, m), 0);
}

void rig_mm_beat(void *sock, uint32_t active, bool draining)
{
    Deckhand__Internal__WorkerBeat b = DECKHAND__INTERNAL__WORKER_BEAT__INIT;
    b.active_matches = active;
    b.draining = draining;
    rig_mm_send(sock, RIG_MM_MSG(WORKER_BEAT, worker_beat, &b));
}

void rig_mm_beats(rig_mm *r, unsigned mask)
{
    for (int i = 0; i < r->nworkers; i++)
        if (mask & (1u << i))
            rig_mm_beat(r->w[i], 0, false);
}

void rig_mm_join_game(void *gw, const char *pid, const char *name, uint64_t cmd, const char *game,
                      uint32_t players)
{
    Deckhand__Internal__QueueJoin j = DECKHAND__INTERNAL__QUEUE_JOIN__INIT;
    j.player_id = (char *)pid;
    j.name = (char *)name;
    j.cmd_id = cmd;
    j.game = (char *)game;
    j.players = players;
    rig_mm_send(gw, RIG_MM_MSG(QUEUE_JOIN, queue_join, &j));
}

void rig_mm_join(void *gw, const char *pid, uint64_t cmd, uint32_t players)
{
    rig_mm_join_game(gw, pid, pid, cmd, "dominion", players);
}

void rig_mm_leave(void *gw, const char *pid, uint64_t cmd)
{
    Deckhand__Internal__QueueLeave l = DECKHAND__INTERNAL__QUEUE_LEAVE__INIT;
    l.player_id = (char *)pid;
    l.cmd_id = cmd;
    rig_mm_send(gw, RIG_MM_MSG(QUEUE_LEAVE, queue_leave, &l));
}

void rig_mm_away(void *gw, const char *pid)
{
    Deckhand__Internal__PlayerAway a = DECKHAND__INTERNAL__PLAYER_AWAY__INIT;
    a.player_id = (char *)pid;
    rig_mm_send(gw, RIG_MM_MSG(PLAYER_AWAY, player_away, &a));
}

void rig_mm_back(void *gw, const char *pid)
{
    Deckhand__Internal__PlayerBack b = DECKHAND__INTERNAL__PLAYER_BACK__INIT;
    b.player_id = (char *)pid;
    rig_mm_send(gw, RIG_MM_MSG(PLAYER_BACK, player_back, &b));
}

void rig_mm_started(void *sock, const char *match_id, bool ok)
{
    Deckhand__Internal__MatchStarted s = DECKHAND__INTERNAL__MATCH_STARTED__INIT;
    s.match_id = (char *)match_id;
    s.ok = ok;
    s.error = (char *)(ok ? "" : "store unavailable");
    rig_mm_send(sock, RIG_MM_MSG(MATCH_STARTED, match_started, &s));
}

/* ---- what the matchmaker sends --------------------------------------------------------- */

Deckhand__Internal__Internal *rig_mm_next(void *sock, long ms)
{
    zmq_pollitem_t it = {.socket = sock, .events = ZMQ_POLLIN};
    for (;;) {
        if (zmq_poll(&it, 1, ms) != 1)
            return NULL;
        Deckhand__Internal__Internal *m = NULL;
        if (dh_zmq_recv(sock, NULL, &m) != 1)
            return NULL;
        if (m->body_case != DECKHAND__INTERNAL__INTERNAL__BODY_MATCHMAKER_BEAT)
            return m;
        deckhand__internal__internal__free_unpacked(m, NULL); /* the gateways' beat */
    }
}

int rig_mm_reply_why(void *gw, uint64_t cmd, char *why, size_t cap)
{
    Deckhand__Internal__Internal *m = rig_mm_next(gw, RIG_MM_WAIT_MS);
    if (!m)
        return -1;
    int code = -1;
    if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY &&
        m->queue_reply->cmd_id == cmd) {
        code = m->queue_reply->ok ? 0 : (int)m->queue_reply->error->code;
        if (why)
            snprintf(why, cap, "%s", m->queue_reply->ok ? "" : m->queue_reply->error->message);
    }
    deckhand__internal__internal__free_unpacked(m, NULL);
    return code;
}

int rig_mm_reply(void *gw, uint64_t cmd)
{
    return rig_mm_reply_why(gw, cmd, NULL, 0);
}

Deckhand__Internal__Internal *rig_mm_next_start(rig_mm *r, int *worker)
{
    int at = -1;
    Deckhand__Internal__Internal *m = NULL;
    for (int i = 0; i < r->nworkers && !m; i++) {
        m = rig_mm_next(r->w[i], RIG_MM_WAIT_MS);
        if (m && m->body_case != DECKHAND__INTERNAL__INTERNAL__BODY_START_MATCH) {
            deckhand__internal__internal__free_unpacked(m, NULL);
            m = NULL;
        }
        at = m ? i : -1;
    }
    if (worker)
        *worker = at;
    return m;
}

Deckhand__Internal__Internal *rig_mm_expect_start(rig_mm *r, int *worker)
{
    Deckhand__Internal__Internal *m = rig_mm_next_start(r, worker);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    return m;
}

int rig_mm_joined(rig_mm *r, void *gw, const char *pid, uint64_t cmd, uint32_t players,
                  uint64_t now)
{
    rig_mm_join(gw, pid, cmd, players);
    rig_mm_pump(r, now);
    return rig_mm_reply_why(gw, cmd, r->why, sizeof r->why);
}

Deckhand__Internal__Internal *rig_mm_place_two(rig_mm *r, uint64_t cmd, uint64_t now, int *worker)
{
    rig_mm_join(r->gw, "p1", cmd, 2);
    rig_mm_join(r->gw, "p2", cmd + 1, 2);
    rig_mm_pump(r, now);
    CU_ASSERT_EQUAL(rig_mm_reply(r->gw, cmd), 0);
    CU_ASSERT_EQUAL(rig_mm_reply(r->gw, cmd + 1), 0);
    return rig_mm_next_start(r, worker);
}

void rig_mm_check_seats(const Deckhand__Internal__StartMatch *sm, const char *players)
{
    char want[256];
    snprintf(want, sizeof want, "%s", players);
    size_t n = 1;
    for (const char *c = strchr(want, ','); c; c = strchr(c + 1, ','))
        n++;
    CU_ASSERT_EQUAL_FATAL(sm->n_seats, n);
    char *save = NULL;
    size_t i = 0;
    for (char *p = strtok_r(want, ",", &save); p; p = strtok_r(NULL, ",", &save))
        CU_ASSERT_STRING_EQUAL(sm->seats[i++]->player_id, p);
}

/* ---- seated players -------------------------------------------------------------------- */

void rig_mm_seat(seated_list *l, const char *pid, const char *match_id, uint32_t seat,
                 const char *worker)
{
    char *names[] = {(char *)"ann", (char *)"bob"};
    Deckhand__Internal__MatchAssigned ma = DECKHAND__INTERNAL__MATCH_ASSIGNED__INIT;
    ma.player_id = (char *)pid;
    ma.match_id = (char *)match_id;
    ma.seat = seat;
    ma.game = (char *)"dominion";
    ma.n_players = 2;
    ma.players = names;
    ma.worker_id = (char *)worker;
    ma.worker_endpoint = (char *)"tcp://a:1";
    CU_ASSERT_EQUAL_FATAL(seated_add(l, &ma), 0);
}
