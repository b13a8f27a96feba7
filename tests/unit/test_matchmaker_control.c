/*
 * test_matchmaker_control.c: the matchmaker's control path (matchmaker/control.c and
 * placement.c) over inproc ZeroMQ, with fake workers and a fake gateway and a clock the
 * test moves: join validation, formation onto the least loaded worker, MatchAssigned in
 * seat order, and the tickets' return to the front of the line when a worker refuses,
 * stays silent, or dies.
 */
#include "control.h"
#include "placement.h"
#include "queue.h"
#include "registry.h"

#include <zmq.h>

#include "dh_test.h"

typedef struct {
    void *ctx, *wa, *wb, *gw;
    mm_state mm;
} rig;

static Deckhand__Internal__Internal *next_on(void *sock)
{
    zmq_pollitem_t it = {.socket = sock, .events = ZMQ_POLLIN};
    if (zmq_poll(&it, 1, 100) != 1)
        return NULL;
    Deckhand__Internal__Internal *m = NULL;
    return dh_zmq_recv(sock, NULL, &m) == 1 ? m : NULL;
}

/* Hand every message waiting at the matchmaker to control_handle, then tick. */
static void pump(rig *r, uint64_t now)
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
    mm_tick(&r->mm, now);
}

static void send_hello(void *sock, const char *id, const char *endpoint)
{
    Deckhand__Internal__GameInfo gi = DECKHAND__INTERNAL__GAME_INFO__INIT;
    Deckhand__Internal__GameInfo *gis[] = {&gi};
    gi.name = (char *)"dominion";
    gi.min_players = 2;
    gi.max_players = 4;
    Deckhand__Internal__WorkerHello h = DECKHAND__INTERNAL__WORKER_HELLO__INIT;
    h.worker_id = (char *)id;
    h.endpoint = (char *)endpoint;
    h.n_games = 1;
    h.games = gis;
    h.capacity = 100;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO;
    m.worker_hello = &h;
    CU_ASSERT_EQUAL(dh_zmq_send(sock, NULL, &m), 0);
}

static void send_beat(void *sock, uint32_t active)
{
    Deckhand__Internal__WorkerBeat b = DECKHAND__INTERNAL__WORKER_BEAT__INIT;
    b.active_matches = active;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT;
    m.worker_beat = &b;
    CU_ASSERT_EQUAL(dh_zmq_send(sock, NULL, &m), 0);
}

static void send_join(rig *r, const char *pid, uint64_t cmd, const char *game, uint32_t players)
{
    Deckhand__Internal__QueueJoin j = DECKHAND__INTERNAL__QUEUE_JOIN__INIT;
    j.player_id = (char *)pid;
    j.name = (char *)pid;
    j.gateway_id = (char *)"gw-1";
    j.cmd_id = cmd;
    j.game = (char *)game;
    j.players = players;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN;
    m.queue_join = &j;
    CU_ASSERT_EQUAL(dh_zmq_send(r->gw, NULL, &m), 0);
}

static void send_started(void *sock, const char *match_id, bool ok)
{
    Deckhand__Internal__MatchStarted s = DECKHAND__INTERNAL__MATCH_STARTED__INIT;
    s.match_id = (char *)match_id;
    s.ok = ok;
    s.error = (char *)(ok ? "" : "store unavailable");
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_STARTED;
    m.match_started = &s;
    CU_ASSERT_EQUAL(dh_zmq_send(sock, NULL, &m), 0);
}

/* The next QueueReply at the gateway: its error code (0 = ok); -1 when none came. */
static int next_reply(rig *r, uint64_t cmd)
{
    Deckhand__Internal__Internal *m = next_on(r->gw);
    if (!m)
        return -1;
    int code = -1;
    if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY &&
        m->queue_reply->cmd_id == cmd)
        code = m->queue_reply->ok ? 0 : (int)m->queue_reply->error->code;
    deckhand__internal__internal__free_unpacked(m, NULL);
    return code;
}

static void rig_open(rig *r)
{
    memset(r, 0, sizeof *r);
    CU_ASSERT_EQUAL_FATAL(mm_init(&r->mm, "mm-test", NULL, 0), 0);
    r->ctx = zmq_ctx_new();
    r->mm.router = dh_zmq_socket(r->ctx, ZMQ_ROUTER, NULL, 1000);
    CU_ASSERT_EQUAL_FATAL(zmq_bind(r->mm.router, "inproc://mm"), 0);
    r->wa = dh_zmq_socket(r->ctx, ZMQ_DEALER, "wk-a", 1000);
    r->wb = dh_zmq_socket(r->ctx, ZMQ_DEALER, "wk-b", 1000);
    r->gw = dh_zmq_socket(r->ctx, ZMQ_DEALER, "gw-1", 1000);
    zmq_connect(r->wa, "inproc://mm");
    zmq_connect(r->wb, "inproc://mm");
    zmq_connect(r->gw, "inproc://mm");
    send_hello(r->wa, "wk-a", "tcp://a:1");
    send_hello(r->wb, "wk-b", "tcp://b:1");
    Deckhand__Internal__GatewayHello gh = DECKHAND__INTERNAL__GATEWAY_HELLO__INIT;
    gh.gateway_id = (char *)"gw-1";
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO;
    m.gateway_hello = &gh;
    dh_zmq_send(r->gw, NULL, &m);
    pump(r, 0);
    CU_ASSERT_EQUAL_FATAL(r->mm.reg.nworkers, 2);
}

static void rig_close(rig *r)
{
    zmq_close(r->wa);
    zmq_close(r->wb);
    zmq_close(r->gw);
    zmq_close(r->mm.router);
    zmq_ctx_term(r->ctx);
    mm_free(&r->mm);
}

static void test_mm_join_validation(void)
{
    rig r;
    rig_open(&r);
    /* past the starting window (see the next test), the workers still beating */
    const uint64_t t = REGISTRY_DEAD_MS + 10;
    send_beat(r.wa, 0);
    send_beat(r.wb, 0);
    send_join(&r, "p1", 1, "chess", 2);
    pump(&r, t);
    CU_ASSERT_EQUAL(next_reply(&r, 1), DECKHAND__ERROR_CODE__UNKNOWN_GAME);
    send_join(&r, "p1", 2, "dominion", 5);
    pump(&r, t);
    CU_ASSERT_EQUAL(next_reply(&r, 2), DECKHAND__ERROR_CODE__BAD_REQUEST);
    send_join(&r, "p1", 3, "dominion", 1);
    pump(&r, t);
    CU_ASSERT_EQUAL(next_reply(&r, 3), DECKHAND__ERROR_CODE__BAD_REQUEST);
    send_join(&r, "", 4, "dominion", 2);
    pump(&r, t);
    CU_ASSERT_EQUAL(next_reply(&r, 4), DECKHAND__ERROR_CODE__BAD_REQUEST);
    send_join(&r, "p1", 5, "dominion", 0); /* 0: the game's minimum, 2 */
    pump(&r, t);
    CU_ASSERT_EQUAL(next_reply(&r, 5), 0);
    CU_ASSERT_EQUAL(queue_line_key(r.mm.queues, 0)->players, 2);
    send_join(&r, "p1", 6, "dominion", 3);
    pump(&r, t);
    CU_ASSERT_EQUAL(next_reply(&r, 6), DECKHAND__ERROR_CODE__BAD_REQUEST);
    rig_close(&r);
}

/* Join p1, p2 and read both replies; returns the StartMatch the chosen worker got. */
static Deckhand__Internal__Internal *form_two(rig *r, void **worker, uint64_t now)
{
    send_join(r, "p1", 11, "dominion", 2);
    send_join(r, "p2", 12, "dominion", 2);
    pump(r, now);
    CU_ASSERT_EQUAL(next_reply(r, 11), 0);
    CU_ASSERT_EQUAL(next_reply(r, 12), 0);
    Deckhand__Internal__Internal *m = next_on(r->wa);
    *worker = r->wa;
    if (!m) {
        m = next_on(r->wb);
        *worker = r->wb;
    }
    return m;
}

static void test_mm_forms_on_least_loaded_and_assigns_in_seat_order(void)
{
    rig r;
    rig_open(&r);
    send_beat(r.wa, 7);
    send_beat(r.wb, 2);
    pump(&r, 100);
    void *w;
    Deckhand__Internal__Internal *m = form_two(&r, &w, 200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_PTR_EQUAL(w, r.wb);
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_START_MATCH);
    const Deckhand__Internal__StartMatch *sm = m->start_match;
    CU_ASSERT_EQUAL(strlen(sm->match_id), 18);
    CU_ASSERT_EQUAL(strncmp(sm->match_id, "m-", 2), 0);
    CU_ASSERT_STRING_EQUAL(sm->game, "dominion");
    CU_ASSERT_STRING_EQUAL(sm->mode, "casual");
    CU_ASSERT_EQUAL_FATAL(sm->n_seats, 2);
    CU_ASSERT_STRING_EQUAL(sm->seats[0]->player_id, "p1");
    CU_ASSERT_STRING_EQUAL(sm->seats[1]->player_id, "p2");
    CU_ASSERT_STRING_EQUAL(sm->seats[0]->gateway_id, "gw-1");
    /* a player in a pending placement cannot queue again */
    send_join(&r, "p1", 13, "dominion", 2);
    pump(&r, 250);
    CU_ASSERT_EQUAL(next_reply(&r, 13), DECKHAND__ERROR_CODE__BAD_REQUEST);

    send_started(r.wb, sm->match_id, true);
    pump(&r, 300);
    for (uint32_t seat = 0; seat < 2; seat++) {
        Deckhand__Internal__Internal *a = next_on(r.gw);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        CU_ASSERT_EQUAL_FATAL(a->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED);
        const Deckhand__Internal__MatchAssigned *ma = a->match_assigned;
        CU_ASSERT_STRING_EQUAL(ma->player_id, seat ? "p2" : "p1");
        CU_ASSERT_EQUAL(ma->seat, seat);
        CU_ASSERT_STRING_EQUAL(ma->match_id, sm->match_id);
        CU_ASSERT_STRING_EQUAL(ma->worker_id, "wk-b");
        CU_ASSERT_STRING_EQUAL(ma->worker_endpoint, "tcp://b:1");
        CU_ASSERT_EQUAL(ma->n_players, 2);
        deckhand__internal__internal__free_unpacked(a, NULL);
    }
    CU_ASSERT_EQUAL(registry_find(&r.mm.reg, "wk-b")->active, 3);
    CU_ASSERT_EQUAL(registry_find(&r.mm.reg, "wk-b")->pending, 0);
    CU_ASSERT_EQUAL(r.mm.placements.n, 0);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_close(&r);
}

static void test_mm_refused_start_requeues_and_retries_elsewhere(void)
{
    rig r;
    rig_open(&r);
    void *w;
    Deckhand__Internal__Internal *m = form_two(&r, &w, 100);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    send_started(w, m->start_match->match_id, false);
    pump(&r, 200);
    void *other = w == r.wa ? r.wb : r.wa;
    Deckhand__Internal__Internal *again = next_on(other);
    CU_ASSERT_PTR_NOT_NULL_FATAL(again);
    CU_ASSERT_STRING_EQUAL(again->start_match->seats[0]->player_id, "p1");
    CU_ASSERT_STRING_EQUAL(again->start_match->seats[1]->player_id, "p2");
    CU_ASSERT_STRING_NOT_EQUAL(again->start_match->match_id, m->start_match->match_id);
    deckhand__internal__internal__free_unpacked(again, NULL);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_close(&r);
}

static void test_mm_silent_worker_times_out_and_players_keep_their_place(void)
{
    rig r;
    rig_open(&r);
    void *w;
    Deckhand__Internal__Internal *m = form_two(&r, &w, 100);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    send_join(&r, "p3", 14, "dominion", 2);
    pump(&r, 200);
    CU_ASSERT_EQUAL(next_reply(&r, 14), 0);
    /* keep both workers alive, the chosen one never answers */
    send_beat(r.wa, 0);
    send_beat(r.wb, 0);
    pump(&r, 100 + PLACEMENT_TIMEOUT_MS - 1);
    CU_ASSERT_EQUAL(r.mm.placements.n, 1);
    send_beat(r.wa, 0);
    send_beat(r.wb, 0);
    pump(&r, 100 + PLACEMENT_TIMEOUT_MS + 1);
    void *other = w == r.wa ? r.wb : r.wa;
    Deckhand__Internal__Internal *again = next_on(other);
    CU_ASSERT_PTR_NOT_NULL_FATAL(again);
    CU_ASSERT_STRING_EQUAL(again->start_match->seats[0]->player_id, "p1");
    CU_ASSERT_STRING_EQUAL(again->start_match->seats[1]->player_id, "p2");
    CU_ASSERT_TRUE(queue_has(r.mm.queues, "p3"));
    /* the late answer of the first worker changes nothing */
    send_started(w, m->start_match->match_id, true);
    pump(&r, 100 + PLACEMENT_TIMEOUT_MS + 2);
    CU_ASSERT_PTR_NULL(next_on(r.gw));
    deckhand__internal__internal__free_unpacked(again, NULL);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_close(&r);
}

/* Right after a (re)start the workers have not all reported their games: a join for a
 * game nobody has reported yet is UNAVAILABLE (join again), not UNKNOWN_GAME. */
static void test_mm_unknown_game_while_starting_is_unavailable(void)
{
    rig r;
    rig_open(&r);
    send_join(&r, "p1", 1, "chess", 2);
    pump(&r, 10);
    CU_ASSERT_EQUAL(next_reply(&r, 1), DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_FALSE(queue_has(r.mm.queues, "p1"));
    send_join(&r, "p1", 2, "chess", 2);
    pump(&r, REGISTRY_DEAD_MS + 1);
    CU_ASSERT_EQUAL(next_reply(&r, 2), DECKHAND__ERROR_CODE__UNKNOWN_GAME);
    rig_close(&r);
}

static void test_mm_dead_workers_get_nothing(void)
{
    rig r;
    rig_open(&r);
    pump(&r, REGISTRY_DEAD_MS + 1);
    send_join(&r, "p1", 21, "dominion", 2);
    pump(&r, REGISTRY_DEAD_MS + 2);
    CU_ASSERT_EQUAL(next_reply(&r, 21), DECKHAND__ERROR_CODE__UNKNOWN_GAME);
    /* one comes back with a beat and takes the match */
    send_beat(r.wa, 0);
    pump(&r, REGISTRY_DEAD_MS + 3);
    send_join(&r, "p1", 22, "dominion", 2);
    send_join(&r, "p2", 23, "dominion", 2);
    pump(&r, REGISTRY_DEAD_MS + 4);
    CU_ASSERT_EQUAL(next_reply(&r, 22), 0);
    CU_ASSERT_EQUAL(next_reply(&r, 23), 0);
    Deckhand__Internal__Internal *m = next_on(r.wa);
    CU_ASSERT_PTR_NOT_NULL(m);
    CU_ASSERT_PTR_NULL(next_on(r.wb));
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    rig_close(&r);
}

static void test_mm_leave_takes_the_player_out(void)
{
    rig r;
    rig_open(&r);
    send_join(&r, "p1", 31, "dominion", 2);
    pump(&r, 10);
    CU_ASSERT_EQUAL(next_reply(&r, 31), 0);
    Deckhand__Internal__QueueLeave l = DECKHAND__INTERNAL__QUEUE_LEAVE__INIT;
    l.player_id = (char *)"p1";
    l.cmd_id = 32;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_LEAVE;
    m.queue_leave = &l;
    dh_zmq_send(r.gw, NULL, &m);
    pump(&r, 20);
    CU_ASSERT_EQUAL(next_reply(&r, 32), 0);
    l.cmd_id = 0; /* the gateway's own leave: no reply */
    dh_zmq_send(r.gw, NULL, &m);
    pump(&r, 30);
    CU_ASSERT_PTR_NULL(next_on(r.gw));
    send_join(&r, "p2", 33, "dominion", 2);
    pump(&r, 40);
    CU_ASSERT_EQUAL(next_reply(&r, 33), 0);
    CU_ASSERT_PTR_NULL(next_on(r.wa));
    CU_ASSERT_PTR_NULL(next_on(r.wb));
    rig_close(&r);
}

static void test_mm_start_match_carries_the_queue_settings(void)
{
    rig r;
    rig_open(&r);
    char err[128];
    CU_ASSERT_EQUAL_FATAL(settings_parse_line(&r.mm.settings,
                                              "dominion casual grace_ms=1234 decision_ms=5000 "
                                              "turn_ms=60000 abandon=forfeit",
                                              err, sizeof err),
                          0);
    void *w;
    Deckhand__Internal__Internal *m = form_two(&r, &w, 100);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const Deckhand__Internal__QueueSettings *qs = m->start_match->settings;
    CU_ASSERT_PTR_NOT_NULL_FATAL(qs);
    CU_ASSERT_EQUAL(qs->grace_ms, 1234);
    CU_ASSERT_EQUAL(qs->decision_ms, 5000);
    CU_ASSERT_EQUAL(qs->turn_ms, 60000);
    CU_ASSERT_STRING_EQUAL(qs->abandon, "forfeit");
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_close(&r);
}

static void test_mm_placement_ids_are_random_hex(void)
{
    char a[PLACEMENT_ID_LEN + 1], b[PLACEMENT_ID_LEN + 1];
    uint64_t sa, sb;
    CU_ASSERT_EQUAL(placement_random(a, &sa), 0);
    CU_ASSERT_EQUAL(placement_random(b, &sb), 0);
    CU_ASSERT_EQUAL(strspn(a + 2, "0123456789abcdef"), 16);
    CU_ASSERT_STRING_NOT_EQUAL(a, b);
    CU_ASSERT_NOT_EQUAL(sa, sb);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"mm_join_validation", test_mm_join_validation},
        {"mm_forms_on_least_loaded_and_assigns_in_seat_order",
         test_mm_forms_on_least_loaded_and_assigns_in_seat_order},
        {"mm_refused_start_requeues_and_retries_elsewhere",
         test_mm_refused_start_requeues_and_retries_elsewhere},
        {"mm_silent_worker_times_out_and_players_keep_their_place",
         test_mm_silent_worker_times_out_and_players_keep_their_place},
        {"mm_unknown_game_while_starting_is_unavailable",
         test_mm_unknown_game_while_starting_is_unavailable},
        {"mm_dead_workers_get_nothing", test_mm_dead_workers_get_nothing},
        {"mm_leave_takes_the_player_out", test_mm_leave_takes_the_player_out},
        {"mm_start_match_carries_the_queue_settings",
         test_mm_start_match_carries_the_queue_settings},
        {"mm_placement_ids_are_random_hex", test_mm_placement_ids_are_random_hex},
        {NULL, NULL},
    };
    return dh_test_main("matchmaker_control", cases);
}
