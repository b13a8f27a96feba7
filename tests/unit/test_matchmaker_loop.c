/*
 * test_matchmaker_loop.c: the matchmaker's loop under a join storm (matchmaker/loop.h).
 * A worker's beat sent after a backlog of joins from two gateways is handled in the
 * first drain, ahead of most of the backlog; a drain is bounded, and one that leaves
 * messages marks the loop behind (so silence is not yet death); a worker freed from its
 * bound of StartMatches in flight gets the next match at once; a drain whose writes blocked
 * on Redis does not make live workers look silent. And the matchmaker beats
 * every gateway every MM_GATEWAY_BEAT_MS, which is how a gateway tells a busy matchmaker
 * from a gone one (test_gateway_mm_busy.c); a gateway that takes batches gets a turn's
 * messages to it in one.
 */
#include "loop.h"
#include "rig_mm.h"

#include <string.h>
#include <zmq.h>

enum { BACKLOG = 900 }; /* joins per gateway, under the rig sockets' high-water mark */

static void joins(void *gw, const char *prefix, int n)
{
    char id[32];
    for (int i = 0; i < n; i++) {
        snprintf(id, sizeof id, "%s%d", prefix, i);
        rig_mm_join(gw, id, (uint64_t)i + 1, 2);
    }
}

static void test_mm_worker_beat_behind_a_join_storm_is_handled_in_the_first_drain(void)
{
    rig_mm a;
    rig_mm_open(&a, "mm-loop", NULL, 1, 0);
    joins(a.gw, "a", BACKLOG);
    joins(a.gw2, "b", BACKLOG);
    rig_mm_beat(a.w[0], 0, false); /* sent after all 1,800 joins */
    rig_mm_beat(a.w[0], 0, false); /* and a second one, right after */
    loop_turn t = loop_drain(&a.mm, 1200);
    CU_ASSERT_EQUAL(t.handled, LOOP_DRAIN_MAX);
    CU_ASSERT_TRUE(t.full);
    CU_ASSERT_EQUAL(a.mm.behind_since_ms, 1200); /* silence is not death for a while */
    /* both beats were read in this drain, although most joins were not */
    registry_worker *w = registry_find(&a.mm.reg, "wk-a");
    CU_ASSERT(w->last_seen_ms >= 1200); /* stamped when read: 1200 plus the drain's time */
    CU_ASSERT_TRUE(w->alive);
    CU_ASSERT(queue_total(a.mm.queues) + 2 * a.mm.placements.n < 2 * BACKLOG);
    /* the next drains take the rest, and the loop catches up */
    size_t handled = t.handled;
    while ((t = loop_drain(&a.mm, 1300)).full)
        handled += t.handled;
    handled += t.handled;
    CU_ASSERT_EQUAL(handled, 2 * BACKLOG + 2);
    CU_ASSERT_EQUAL(a.mm.behind_since_ms, 0);
    rig_mm_close(&a);
}

/* A drain says whether its last receive found the ROUTER empty (loop_turn.quiet, and the
 * thread's sends at that moment): only then may the loop's wait trust the socket's ZMQ_FD
 * (wait.h, rules 1 and 3). A drain stopped at its budget is not quiet. */
static void test_mm_a_drain_says_whether_it_found_the_socket_empty(void)
{
    rig_mm a;
    rig_mm_open(&a, "mm-quiet", NULL, 1, 0);
    joins(a.gw, "q", BACKLOG);
    joins(a.gw2, "r", BACKLOG); /* more than LOOP_DRAIN_MAX */
    loop_turn t;
    size_t drains = 0;
    while ((t = loop_drain(&a.mm, 10)).full) {
        CU_ASSERT_FALSE(t.quiet);
        drains++;
    }
    CU_ASSERT(drains >= 1);
    CU_ASSERT_TRUE(t.quiet);
    CU_ASSERT_EQUAL(t.quiet_sends, dh_zmq_sends());
    rig_mm_close(&a);
}

/* Every message a drain reads is unpacked into the loop's arena (no malloc per field) and
 * given back whole once handled: after a drain of many joins the arena holds one chunk with
 * nothing in it, and what the handlers kept of the joins (the tickets, their players'
 * names) lives on in their own memory (ASan would see a read of the arena's). */
static void test_mm_a_drain_gives_back_every_message_it_unpacks(void)
{
    rig_mm a;
    rig_mm_open(&a, "mm-arena", NULL, 1, 0);
    joins(a.gw, "q", 300);
    loop_turn t = loop_drain(&a.mm, 10);
    CU_ASSERT_EQUAL(t.handled, 300);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.mm.arena.head); /* the joins went through it */
    CU_ASSERT_EQUAL(a.mm.arena.head->used, 0);
    CU_ASSERT_PTR_NULL(a.mm.arena.head->next);
    CU_ASSERT_EQUAL(queue_total(a.mm.queues) + 2 * a.mm.placements.n, 300);
    mm_tick(&a.mm, 10); /* forms from the tickets, reading what the joins left */
    CU_ASSERT(a.mm.placements.n > 0);
    rig_mm_close(&a);
}

/* A worker at REGISTRY_PENDING_MAX that answers one StartMatch gets the next match at
 * once: the drain asks for a full pass, instead of the tickets waiting for the next one. */
static void test_mm_a_worker_freed_from_its_in_flight_bound_gets_the_next_match_at_once(void)
{
    enum { N = 2 * (REGISTRY_PENDING_MAX + 5) };
    rig_mm a;
    rig_mm_open(&a, "mm-free", NULL, 1, 0);
    joins(a.gw, "p", N);
    loop_drain(&a.mm, 10);
    mm_tick(&a.mm, 10);
    CU_ASSERT_EQUAL(registry_find(&a.mm.reg, "wk-a")->pending, REGISTRY_PENDING_MAX);
    Deckhand__Internal__Internal *st = rig_mm_next_start(&a, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    rig_mm_started(a.w[0], st->start_match->match_id, true);
    deckhand__internal__internal__free_unpacked(st, NULL);
    a.mm.next_pass_ms = 1000; /* the next full pass is far off */
    loop_turn t = loop_drain(&a.mm, 20);
    CU_ASSERT_TRUE(t.form);
    CU_ASSERT_EQUAL(a.mm.next_pass_ms, 0);
    mm_tick(&a.mm, 20);
    CU_ASSERT_EQUAL(registry_find(&a.mm.reg, "wk-a")->pending, REGISTRY_PENDING_MAX);
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), (size_t)N - 2 * (REGISTRY_PENDING_MAX + 1));
    rig_mm_close(&a);
}

/* Wait until something waits at the matchmaker's socket (inproc delivery is quick, not
 * instant), as the loop's zmq_poll does before its drain. */
static void readable(rig_mm *a)
{
    zmq_pollitem_t it = {.socket = a->mm.router, .events = ZMQ_POLLIN};
    CU_ASSERT_EQUAL(zmq_poll(&it, 1, RIG_MM_WAIT_MS), 1);
}

static bool alive(rig_mm *a, const char *id)
{
    return registry_find(&a->mm.reg, id)->alive;
}

/* The false verdict (Redis stopped 5 s under 1,000 matches: both live workers
 * "silent for 2137 ms", 200 matches moved needlessly). The loop drains, then its writes
 * (held joins, deferred deletes) each wait out their Redis timeout, and the tick that
 * follows (mm_run's order: drain at t, tick at the clock after it) judged silence against
 * that later clock, while the beats sent meanwhile waited unread in the socket. Silence
 * now counts only up to when the last drain found the socket empty; a worker whose beats
 * really stop is still declared dead, at the first tick after a drain that proves it. */
static void test_mm_a_drain_stalled_on_redis_does_not_make_live_workers_silent(void)
{
    rig_mm a;
    rig_mm_open(&a, "mm-stall", NULL, 2, 0);
    rig_mm_beats(&a, 3);
    readable(&a);
    loop_drain(&a.mm, 1000); /* reads both beats; then its writes block on Redis... */
    rig_mm_beats(&a, 3);     /* ...while the workers beat on, unread */
    mm_tick(&a.mm, 1000 + 2137);
    CU_ASSERT_TRUE(alive(&a, "wk-a"));
    CU_ASSERT_TRUE(alive(&a, "wk-b"));
    CU_ASSERT_EQUAL(a.mm.stats.workers_dead, 0);
    readable(&a);
    loop_drain(&a.mm, 3200); /* the next turn reads them */
    mm_tick(&a.mm, 3200);
    CU_ASSERT_TRUE(alive(&a, "wk-b"));
    rig_mm_beats(&a, 1); /* wk-b stops beating for real */
    readable(&a);
    loop_drain(&a.mm, 4800);
    mm_tick(&a.mm, 4800);
    CU_ASSERT_TRUE(alive(&a, "wk-a"));
    CU_ASSERT_FALSE(alive(&a, "wk-b")); /* silent 1,600 ms, all of it listened to */
    CU_ASSERT_EQUAL(a.mm.stats.workers_dead, 1);
    rig_mm_close(&a);
}

/* wk-a's hello as the rig sends it, but with capacity cap and game. */
static void hello_of(rig_mm *a, uint32_t cap, const char *game)
{
    Deckhand__Internal__GameInfo gi = DECKHAND__INTERNAL__GAME_INFO__INIT;
    Deckhand__Internal__GameInfo *gis[] = {&gi};
    gi.name = (char *)game;
    gi.min_players = 2;
    gi.max_players = 4;
    Deckhand__Internal__WorkerHello h = DECKHAND__INTERNAL__WORKER_HELLO__INIT;
    h.worker_id = (char *)"wk-a";
    h.endpoint = (char *)"tcp://a:1";
    h.n_games = 1;
    h.games = gis;
    h.capacity = cap;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO;
    m.worker_hello = &h;
    rig_mm_send(a->w[0], &m);
    readable(a);
}

/* A worker repeats its hello every 500 ms, the same bytes each time; the loop refreshes
 * the worker from a repeat without unpacking it (issue 27), with what a hello does: alive,
 * seen now, not draining. A hello that differs in anything is read whole, and a dead
 * worker's repeat revives it as any hello does. */
static void test_mm_a_repeated_hello_refreshes_its_worker_and_a_changed_one_is_read(void)
{
    rig_mm a;
    rig_mm_open(&a, "mm-hello", NULL, 1, 0);
    registry_worker *w = registry_find(&a.mm.reg, "wk-a");
    hello_of(&a, 1000, "dominion");
    loop_drain(&a.mm, 100);
    CU_ASSERT_PTR_NOT_NULL(w->hello); /* kept for the repeats */
    w->draining = true;
    hello_of(&a, 1000, "dominion"); /* a repeat */
    loop_drain(&a.mm, 600);
    CU_ASSERT_EQUAL(w->last_seen_ms, 600);
    CU_ASSERT_FALSE(w->draining);
    CU_ASSERT_TRUE(w->alive);
    hello_of(&a, 7, "dominion"); /* its capacity changed */
    loop_drain(&a.mm, 1100);
    CU_ASSERT_EQUAL(w->capacity, 7);
    CU_ASSERT_EQUAL(w->last_seen_ms, 1100);
    hello_of(&a, 7, "elemental"); /* its games changed */
    loop_drain(&a.mm, 1600);
    CU_ASSERT_EQUAL_FATAL(w->ngames, 1);
    CU_ASSERT_STRING_EQUAL(w->games[0].name, "elemental");
    loop_drain(&a.mm, 3200); /* nothing more from it... */
    mm_tick(&a.mm, 3200);    /* ...for 1,600 ms: dead */
    CU_ASSERT_FALSE(w->alive);
    hello_of(&a, 7, "elemental"); /* the same bytes again: it is back */
    loop_drain(&a.mm, 3500);
    CU_ASSERT_TRUE(w->alive);
    CU_ASSERT_EQUAL(w->last_seen_ms, 3500);
    CU_ASSERT_STRING_EQUAL(w->games[0].name, "elemental");
    rig_mm_close(&a);
}

/* An idle matchmaker's loop sleeps until the nearest deadline its tick keeps, not 50 ms
 * (issue 27: 20 wake-ups a second at any load); work in hand brings back a tick every
 * MM_TICK_MS, and no deadline is kept more coarsely than that. */
static void test_mm_an_idle_matchmaker_ticks_at_its_next_deadline(void)
{
    rig_mm a;
    rig_mm_open(&a, "mm-idle", NULL, 1, 0); /* memory only: acting, no lease */
    registry_worker *w = registry_find(&a.mm.reg, "wk-a");
    CU_ASSERT_EQUAL(a.mm.next_gateway_beat_ms, MM_GATEWAY_BEAT_MS); /* beaten at 0 */
    CU_ASSERT_EQUAL(mm_next_tick(&a.mm, 100), MM_GATEWAY_BEAT_MS);  /* not 150 */
    a.mm.next_gateway_beat_ms = 5000;
    w->last_seen_ms = 200; /* silent past 1700: dead then, and the tick is there */
    CU_ASSERT_EQUAL(mm_next_tick(&a.mm, 1500), 200 + REGISTRY_DEAD_MS + 1);
    w->last_seen_ms = 1400;
    CU_ASSERT_EQUAL(mm_next_tick(&a.mm, 1500), 1500 + MM_TICK_IDLE_MS); /* at most this far */
    w->last_seen_ms = 4900;
    CU_ASSERT_EQUAL(mm_next_tick(&a.mm, 4980), 4980 + MM_TICK_MS); /* at least this near */
    rig_mm_join(a.gw, "p1", 1, 2); /* a ticket waits for its match: every MM_TICK_MS */
    rig_mm_pump(&a, 5000);
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), 1);
    CU_ASSERT_EQUAL(mm_next_tick(&a.mm, 5000), 5000 + MM_TICK_MS);
    rig_mm_close(&a);
}

/* The beats' incarnation, which a test reads from its matchmaker. */
static uint64_t incarnation;

/* The next message at gw that is a MatchmakerBeat of this incarnation within ms (others
 * are skipped). */
static bool beat_at(void *gw, long ms)
{
    zmq_pollitem_t it = {.socket = gw, .events = ZMQ_POLLIN};
    while (zmq_poll(&it, 1, ms) == 1) {
        Deckhand__Internal__Internal *m = NULL;
        if (dh_zmq_recv(gw, NULL, &m) != 1)
            return false;
        bool beat = m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCHMAKER_BEAT &&
                    !strcmp(m->matchmaker_beat->matchmaker_id, "mm-beat") &&
                    m->matchmaker_beat->acting && m->matchmaker_beat->incarnation == incarnation;
        deckhand__internal__internal__free_unpacked(m, NULL);
        if (beat)
            return true;
    }
    return false;
}

static void test_mm_gateways_hear_a_beat_every_half_second(void)
{
    rig_mm a;
    rig_mm open_other;
    rig_mm_open(&open_other, "mm-other", NULL, 1, 0);
    uint64_t other = open_other.mm.incarnation;
    rig_mm_close(&open_other);
    rig_mm_open(&a, "mm-beat", NULL, 1, 0); /* ticks at 0: the first beat */
    incarnation = a.mm.incarnation;
    CU_ASSERT(incarnation != 0 && incarnation != other); /* one per process start */
    CU_ASSERT_TRUE(beat_at(a.gw, RIG_MM_WAIT_MS));
    CU_ASSERT_TRUE(beat_at(a.gw2, RIG_MM_WAIT_MS));
    rig_mm_pump(&a, MM_GATEWAY_BEAT_MS - 100);
    CU_ASSERT_FALSE(beat_at(a.gw, 50));
    rig_mm_pump(&a, MM_GATEWAY_BEAT_MS);
    CU_ASSERT_TRUE(beat_at(a.gw, RIG_MM_WAIT_MS));
    CU_ASSERT_TRUE(beat_at(a.gw2, RIG_MM_WAIT_MS));
    /* a gateway not heard from for MM_GATEWAY_SEEN_MS gets no more beats */
    rig_mm_beats(&a, 1);
    rig_mm_pump(&a, MM_GATEWAY_SEEN_MS + 1000);
    CU_ASSERT_FALSE(beat_at(a.gw, 50));
    rig_mm_close(&a);
}

/* gw-1 says in its hello that it takes the matchmaker's batches. */
static void hello_with_batches(rig_mm *a, uint64_t now)
{
    Deckhand__Internal__GatewayHello h = DECKHAND__INTERNAL__GATEWAY_HELLO__INIT;
    h.gateway_id = "gw-1";
    h.batches = true;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO;
    m.gateway_hello = &h;
    rig_mm_send(a->gw, &m);
    readable(a);
    loop_drain(&a->mm, now);
    loop_finish(&a->mm, now);
}

/* The next message at gw: a MatchmakerOutputs of n entries, each unpacked into out (the
 * caller frees them). */
static void batch_of(void *gw, size_t n, Deckhand__Internal__Internal **out)
{
    Deckhand__Internal__Internal *m = rig_mm_next(gw, RIG_MM_WAIT_MS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MM_OUTPUTS);
    CU_ASSERT_EQUAL_FATAL(m->mm_outputs->n_messages, n);
    for (size_t i = 0; i < n; i++) {
        const ProtobufCBinaryData *b = &m->mm_outputs->messages[i];
        out[i] = deckhand__internal__internal__unpack(NULL, b->len, b->data);
        CU_ASSERT_PTR_NOT_NULL_FATAL(out[i]);
    }
    deckhand__internal__internal__free_unpacked(m, NULL);
}

/* A gateway whose hello says it takes batches gets a loop turn's messages to it as one
 * MatchmakerOutputs, in order: both QueueReplies of a turn, then both MatchAssigned of the
 * match; a gateway that did not say so (an older one) gets each message alone. */
static void test_mm_a_gateway_that_takes_batches_gets_a_turn_in_one_message(void)
{
    rig_mm a;
    rig_mm_open(&a, "mm-batch", NULL, 1, 0);
    hello_with_batches(&a, 10);
    rig_mm_join(a.gw, "p1", 1, 2);
    rig_mm_join(a.gw, "p2", 2, 2);
    for (size_t got = 0; got < 2;) {
        readable(&a);
        got += loop_drain(&a.mm, 20).handled;
    }
    mm_tick(&a.mm, 20);
    loop_finish(&a.mm, 20);
    Deckhand__Internal__Internal *m[2];
    batch_of(a.gw, 2, m);
    CU_ASSERT_EQUAL(m[0]->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY);
    CU_ASSERT_EQUAL(m[0]->queue_reply->cmd_id, 1);
    CU_ASSERT_EQUAL(m[1]->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY);
    CU_ASSERT_EQUAL(m[1]->queue_reply->cmd_id, 2);
    for (int i = 0; i < 2; i++)
        deckhand__internal__internal__free_unpacked(m[i], NULL);
    Deckhand__Internal__Internal *st = rig_mm_expect_start(&a, NULL);
    rig_mm_join(a.gw2, "p3", 3, 2);
    readable(&a);
    loop_drain(&a.mm, 25);
    loop_finish(&a.mm, 25);
    CU_ASSERT_EQUAL(rig_mm_reply(a.gw2, 3), 0); /* alone, as before */
    rig_mm_started(a.w[0], st->start_match->match_id, true);
    readable(&a);
    loop_drain(&a.mm, 30);
    loop_finish(&a.mm, 30);
    batch_of(a.gw, 2, m);
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL(m[i]->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED);
        CU_ASSERT_STRING_EQUAL(m[i]->match_assigned->match_id, st->start_match->match_id);
        CU_ASSERT_EQUAL(m[i]->match_assigned->seat, (uint32_t)i);
        deckhand__internal__internal__free_unpacked(m[i], NULL);
    }
    deckhand__internal__internal__free_unpacked(st, NULL);
    rig_mm_close(&a);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"mm_a_drain_says_whether_it_found_the_socket_empty",
         test_mm_a_drain_says_whether_it_found_the_socket_empty},
        {"mm_a_drain_gives_back_every_message_it_unpacks",
         test_mm_a_drain_gives_back_every_message_it_unpacks},
        {"mm_worker_beat_behind_a_join_storm_is_handled_in_the_first_drain",
         test_mm_worker_beat_behind_a_join_storm_is_handled_in_the_first_drain},
        {"mm_a_worker_freed_from_its_in_flight_bound_gets_the_next_match_at_once",
         test_mm_a_worker_freed_from_its_in_flight_bound_gets_the_next_match_at_once},
        {"mm_a_drain_stalled_on_redis_does_not_make_live_workers_silent",
         test_mm_a_drain_stalled_on_redis_does_not_make_live_workers_silent},
        {"mm_an_idle_matchmaker_ticks_at_its_next_deadline",
         test_mm_an_idle_matchmaker_ticks_at_its_next_deadline},
        {"mm_a_repeated_hello_refreshes_its_worker_and_a_changed_one_is_read",
         test_mm_a_repeated_hello_refreshes_its_worker_and_a_changed_one_is_read},
        {"mm_gateways_hear_a_beat_every_half_second",
         test_mm_gateways_hear_a_beat_every_half_second},
        {"mm_a_gateway_that_takes_batches_gets_a_turn_in_one_message",
         test_mm_a_gateway_that_takes_batches_gets_a_turn_in_one_message},
        {NULL, NULL},
    };
    return dh_test_main("matchmaker loop", cases);
}
