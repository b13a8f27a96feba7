/*
 * test_worker_host.c: the worker's host (worker/host.c) on the real engine and the real
 * Dominion bundle, in the rig of rig_worker.h (Redis, a fake matchmaker and gateways, a fake
 * clock). It pins the worker's promises: a match exists in Redis before MatchStarted; a
 * Choose's outputs come only after Redis holds it, in order Reply, events, views,
 * decision; a retried cmd_id is answered, not applied again; errors change nothing; a Redis
 * outage is UNAVAILABLE with the engine rolled back, and the worker recovers; a finished
 * match reaches every seat, Redis and the matchmaker; a command overtaken by the player's
 * newer connection through another gateway is refused.
 */
#include "rig_worker.h"

#include <stdlib.h>
#include <string.h>
#include <zmq.h>

static void test_worker_start_writes_redis_before_match_started(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    rig_worker_start(&r, "m-start", "dominion", NULL);
    CU_ASSERT_PTR_NULL(rig_worker_mm_wait(&r, RIG_WORKER_QUIET_MS));
    host_flush(&r.h, r.now);
    Deckhand__Internal__Internal *m = rig_worker_mm_next(&r);
    CU_ASSERT_TRUE_FATAL(m && m->match_started->ok);
    deckhand__internal__internal__free_unpacked(m, NULL);
    char *status = rig_worker_hget("match:{m-start}", "status");
    char *names = rig_worker_hget("match:{m-start}", "players");
    char *ids = rig_worker_hget("match:{m-start}", "player_ids");
    char *worker = rig_worker_hget("match:{m-start}", "worker");
    CU_ASSERT_STRING_EQUAL(status ? status : "", "running");
    CU_ASSERT_STRING_EQUAL(names ? names : "", "ann,bob");
    CU_ASSERT_STRING_EQUAL(ids ? ids : "", "p-ann,p-bob");
    CU_ASSERT_STRING_EQUAL(worker ? worker : "", "wk-t");
    free(status);
    free(names);
    free(ids);
    free(worker);
    CU_ASSERT_TRUE(rig_worker_redis_int("STRLEN", "match:{m-start}:snap") > 0);
    rig_worker_close(&r);
}

static void test_worker_resync_sends_reply_view_and_decision_to_the_decider(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, "m-resync", "dominion", NULL);
    const engine_decision *d = engine_match_decision(hm->m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    const char *decider = rig_worker_players[d->seat], *other = rig_worker_players[1 - d->seat];
    rig_worker_command(&r, "m-resync", decider, 9, NULL);
    rig_worker_command(&r, "m-resync", other, 10, NULL);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    const Deckhand__ServerMessage *rep =
        rig_outbox_find(&o, decider, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    CU_ASSERT_TRUE(rep && rep->reply->cmd_id == 9 && rep->reply->ok);
    const Deckhand__ServerMessage *v =
        rig_outbox_find(&o, decider, DECKHAND__SERVER_MESSAGE__BODY_VIEW);
    CU_ASSERT_TRUE(v && !strcmp(v->view->match_id, "m-resync"));
    const Deckhand__ServerMessage *dr =
        rig_outbox_find(&o, decider, DECKHAND__SERVER_MESSAGE__BODY_DECISION);
    CU_ASSERT_TRUE(dr && dr->decision->decision_id == d->decision_id &&
                   !strcmp(dr->decision->match_id, "m-resync"));
    CU_ASSERT_PTR_NOT_NULL(rig_outbox_find(&o, other, DECKHAND__SERVER_MESSAGE__BODY_VIEW));
    CU_ASSERT_PTR_NULL(rig_outbox_find(&o, other, DECKHAND__SERVER_MESSAGE__BODY_DECISION));
    rig_outbox_free(&o);
    rig_worker_close(&r);
}

static void test_worker_choose_releases_outputs_after_redis_in_order(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, "m-choose", "dominion", NULL);
    const engine_decision *d = engine_match_decision(hm->m);
    const char *decider = rig_worker_players[d->seat];
    Deckhand__Choose c;
    uint32_t ids[64];
    rig_worker_legal_choice(d, &c, ids);
    uint64_t decision = d->decision_id;
    rig_worker_command(&r, "m-choose", decider, 21, &c);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(o.n, 0); /* held until the flush */
    rig_outbox_free(&o);
    host_flush(&r.h, r.now);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_TRUE_FATAL(o.n >= 3);
    CU_ASSERT_EQUAL(o.msg[0]->body_case, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    CU_ASSERT_TRUE(o.msg[0]->reply->cmd_id == 21 && o.msg[0]->reply->ok);
    CU_ASSERT_STRING_EQUAL(o.player[0], decider);
    /* views after events, the decision request last */
    size_t first_view = o.n;
    for (size_t i = 0; i < o.n; i++) {
        if (o.msg[i]->body_case == DECKHAND__SERVER_MESSAGE__BODY_VIEW && first_view == o.n)
            first_view = i;
        if (o.msg[i]->body_case == DECKHAND__SERVER_MESSAGE__BODY_EVENT)
            CU_ASSERT_TRUE(i < first_view);
    }
    CU_ASSERT_EQUAL(o.msg[o.n - 1]->body_case, DECKHAND__SERVER_MESSAGE__BODY_DECISION);
    CU_ASSERT_TRUE(o.msg[o.n - 1]->decision->decision_id > decision);
    rig_outbox_free(&o);
    /* Redis holds it: a log entry, or a new snapshot with an empty log */
    long long logn = rig_worker_redis_int("LLEN", "match:{m-choose}:log");
    CU_ASSERT_TRUE(logn == (long long)engine_match_log_len(hm->m));
    rig_worker_close(&r);
}

/* Answer the decision pending in the rig match id (cmd_id cmd), not flushed. */
static void answer_held(rig_worker *r, const char *id, uint64_t cmd)
{
    host_match *hm = host_find(&r->h, id);
    CU_ASSERT_PTR_NOT_NULL_FATAL(hm);
    const engine_decision *d = engine_match_decision(hm->m);
    Deckhand__Choose c;
    uint32_t ids[64];
    rig_worker_legal_choice(d, &c, ids);
    rig_worker_command(r, id, rig_worker_players[d->seat], cmd, &c);
}

/* The outputs a loop turn releases go to a gateway as one message (PlayerOutputs), in the
 * order they were made, however many matches and players they are for. */
static void test_worker_outputs_of_a_turn_go_as_one_message_per_gateway(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    rig_worker_started(&r, "m-b1", "dominion", NULL);
    rig_worker_started(&r, "m-b2", "dominion", NULL);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    answer_held(&r, "m-b1", 31);
    answer_held(&r, "m-b2", 32);
    host_flush(&r.h, r.now);
    size_t messages = 0, outputs = 0, replies = 0;
    zmq_pollitem_t it = {.socket = r.gw, .events = ZMQ_POLLIN};
    while (zmq_poll(&it, 1, RIG_WORKER_QUIET_MS) == 1) {
        Deckhand__Internal__Internal *m = NULL;
        CU_ASSERT_EQUAL_FATAL(dh_zmq_recv(r.gw, NULL, &m), 1);
        CU_ASSERT_EQUAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUTS);
        size_t n = 0;
        Deckhand__Internal__PlayerOutput **po = rig_worker_outputs(m, &n);
        for (size_t i = 0; i < n; i++) {
            /* the first answer's Reply comes first, as it was released first */
            if (outputs++ == 0)
                CU_ASSERT_EQUAL(po[i]->kind, DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__REPLY);
            replies += po[i]->kind == DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__REPLY;
        }
        messages++;
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
    CU_ASSERT_EQUAL(messages, 1);
    CU_ASSERT_EQUAL(replies, 2);
    CU_ASSERT_TRUE(outputs >= 6); /* each: Reply, views of both seats, the next decision */
    rig_worker_close(&r);
}

static void test_worker_retried_cmd_id_is_answered_not_applied_again(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, "m-retry", "dominion", NULL);
    const engine_decision *d = engine_match_decision(hm->m);
    const char *decider = rig_worker_players[d->seat];
    Deckhand__Choose c;
    uint32_t ids[64];
    rig_worker_legal_choice(d, &c, ids);
    rig_worker_command(&r, "m-retry", decider, 77, &c);
    host_flush(&r.h, r.now);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    uint64_t hash = engine_match_hash(hm->m);
    rig_worker_command(&r, "m-retry", decider, 77, &c);
    host_flush(&r.h, r.now);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(o.n, 1);
    CU_ASSERT_TRUE(o.n && o.msg[0]->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY &&
                   o.msg[0]->reply->cmd_id == 77 && o.msg[0]->reply->ok);
    CU_ASSERT_EQUAL(engine_match_hash(hm->m), hash);
    rig_outbox_free(&o);
    rig_worker_close(&r);
}

static void test_worker_errors_change_nothing(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, "m-err", "dominion", NULL);
    const engine_decision *d = engine_match_decision(hm->m);
    const char *other = rig_worker_players[1 - d->seat];
    uint64_t hash = engine_match_hash(hm->m);
    Deckhand__Choose c;
    uint32_t ids[64];
    rig_worker_legal_choice(d, &c, ids);
    rig_worker_command(&r, "m-err", other, 1, &c);                  /* not their turn */
    rig_worker_command(&r, "m-nope", rig_worker_players[0], 2, &c); /* no such match */
    rig_worker_command(&r, "m-err", "p-stranger", 3, &c);           /* not seated */
    Deckhand__Choose stale = c;
    stale.decision_id = d->decision_id + 100;
    rig_worker_command(&r, "m-err", rig_worker_players[d->seat], 4, &stale);
    host_flush(&r.h, r.now);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL_FATAL(o.n, 4);
    int want[] = {DECKHAND__ERROR_CODE__NOT_YOUR_TURN, DECKHAND__ERROR_CODE__UNKNOWN_MATCH,
                  DECKHAND__ERROR_CODE__UNKNOWN_MATCH, DECKHAND__ERROR_CODE__ILLEGAL_CHOICE};
    for (size_t i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(o.msg[i]->body_case, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
        CU_ASSERT_FALSE(o.msg[i]->reply->ok);
        CU_ASSERT_EQUAL(o.msg[i]->reply->cmd_id, i + 1);
        CU_ASSERT_TRUE(o.msg[i]->reply->error && (int)o.msg[i]->reply->error->code == want[i]);
    }
    CU_ASSERT_EQUAL(engine_match_hash(hm->m), hash);
    rig_outbox_free(&o);
    rig_worker_close(&r);
}

static void test_worker_redis_outage_is_unavailable_and_rolled_back(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, "m-down", "dominion", NULL);
    const engine_decision *d = engine_match_decision(hm->m);
    const char *decider = rig_worker_players[d->seat];
    uint64_t hash = engine_match_hash(hm->m);
    Deckhand__Choose c;
    uint32_t ids[64];
    rig_worker_legal_choice(d, &c, ids);
    /* a durable Redis: what it held comes back with it (SAVE, then the restart loads it) */
    rig_worker_redis_down();
    rig_worker_command(&r, "m-down", decider, 31, &c);
    host_flush(&r.h, r.now);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL_FATAL(o.n, 1);
    CU_ASSERT_FALSE(o.msg[0]->reply->ok);
    CU_ASSERT_TRUE(o.msg[0]->reply->error &&
                   o.msg[0]->reply->error->code == DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_EQUAL(engine_match_hash(hm->m), hash);
    /* the failed write may have run (its reply lost): the next commit asks Redis to check */
    CU_ASSERT_TRUE(hm->commit_unsure);
    rig_outbox_free(&o);
    /* while Redis stays down the answer is the same, and the worker keeps going */
    rig_worker_command(&r, "m-down", decider, 31, &c);
    host_flush(&r.h, r.now);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_TRUE(o.n == 1 && !o.msg[0]->reply->ok);
    CU_ASSERT_EQUAL(engine_match_hash(hm->m), hash);
    rig_outbox_free(&o);
    /* a StartMatch while down is refused */
    rig_worker_start(&r, "m-down2", "dominion", NULL);
    host_flush(&r.h, r.now);
    Deckhand__Internal__Internal *m = rig_worker_mm_next(&r);
    CU_ASSERT_TRUE(m && !m->match_started->ok);
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-down2"));

    rig_worker_redis_up(); /* loaded: later restarts start clean */
    /* the retry of the same cmd_id is applied once Redis is back (after the backoff) */
    rig_worker_advance(&r, 2100);
    rig_worker_command(&r, "m-down", decider, 31, &c);
    host_flush(&r.h, r.now);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_TRUE_FATAL(o.n >= 1);
    CU_ASSERT_TRUE(o.msg[0]->reply->ok);
    CU_ASSERT_NOT_EQUAL(engine_match_hash(hm->m), hash);
    CU_ASSERT_FALSE(hm->commit_unsure); /* landed: the next first tries are not checked */
    CU_ASSERT_EQUAL(rig_worker_redis_int("LLEN", "match:{m-down}:history"), 1);
    rig_outbox_free(&o);
    rig_worker_close(&r);
}

/* The match m-end of Dominion played to its end by legal answers: over[s] when seat s's
 * GameOver came, decks[s] when it listed the cards each seat ended with. */
static void play_to_the_end(rig_worker *r, bool over[2], bool decks[2])
{
    host_match *hm = rig_worker_started(r, "m-end", "dominion", NULL);
    uint64_t cmd = 100;
    int answered = 0;
    rig_outbox o;
    while (host_find(&r->h, "m-end") && answered < 5000) {
        const engine_decision *d = engine_match_decision(hm->m);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        Deckhand__Choose c;
        uint32_t ids[64];
        rig_worker_legal_choice(d, &c, ids);
        rig_worker_command(r, "m-end", rig_worker_players[d->seat], cmd++, &c);
        host_flush(&r->h, r->now);
        answered++;
        rig_worker_gw_drain(r, &o);
        for (int s = 0; s < 2; s++) {
            const Deckhand__ServerMessage *go = rig_outbox_find(
                &o, rig_worker_players[s], DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER);
            if (!go)
                continue;
            over[s] = true;
            decks[s] = go->game_over->n_results == 2 && go->game_over->results[0]->n_deck > 0 &&
                       go->game_over->results[1]->n_deck > 0;
        }
        rig_outbox_free(&o);
    }
}

/* The matchmaker's MatchEnded for m-end, unpacked (NULL when none came). */
static Deckhand__Internal__Internal *match_ended(rig_worker *r)
{
    Deckhand__Internal__Internal *m, *ended = NULL;
    while ((m = rig_worker_mm_wait(r, RIG_WORKER_QUIET_MS))) {
        if (!ended && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ENDED &&
            !strcmp(m->match_ended->match_id, "m-end"))
            ended = m;
        else
            deckhand__internal__internal__free_unpacked(m, NULL);
    }
    return ended;
}

static void test_worker_plays_a_match_to_the_end(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    bool over[2] = {false, false}, decks[2] = {false, false};
    play_to_the_end(&r, over, decks);
    CU_ASSERT_PTR_NULL_FATAL(host_find(&r.h, "m-end"));
    CU_ASSERT_TRUE(over[0] && over[1]);
    Deckhand__Internal__Internal *m = match_ended(&r);
    CU_ASSERT_TRUE(m && m->match_ended->n_results == 2);
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    char *status = rig_worker_hget("match:{m-end}", "status");
    char *result = rig_worker_hget("match:{m-end}", "result");
    CU_ASSERT_STRING_EQUAL(status ? status : "", "finished");
    CU_ASSERT_TRUE(result && result[0] == '[' && strstr(result, "\"name\":\"ann\"") &&
                   result[strlen(result) - 1] == ']');
    free(status);
    free(result);
    CU_ASSERT_TRUE(rig_worker_redis_int("LLEN", "matches:finished") >= 1);
    rig_worker_close(&r);
}

/* The players' GameOver lists every card each seat ended with, for the end screen; the
 * matchmaker's MatchEnded carries the results without them: it reads no deck, and the
 * lists were most of the message's bytes (its CURVE and its unpack, docs/BENCHMARKS.md,
 * issue 27). */
static void test_worker_match_ended_leaves_the_decks_to_the_players(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    bool over[2] = {false, false}, decks[2] = {false, false};
    play_to_the_end(&r, over, decks);
    CU_ASSERT_TRUE(decks[0] && decks[1]);
    Deckhand__Internal__Internal *m = match_ended(&r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(m->match_ended->n_results, 2);
    for (size_t i = 0; i < 2; i++) {
        const Deckhand__PlayerResult *pr = m->match_ended->results[i];
        CU_ASSERT_EQUAL(pr->n_deck, 0);
        CU_ASSERT_TRUE(pr->name && pr->name[0] && pr->turns > 0 && pr->rank > 0);
    }
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_worker_close(&r);
}

/* The player's old connection sent an answer (cmd 7) through gw-t and dropped; its new
 * connection resumed through gw-u and resynced (cmd 8) first. The late answer changes
 * nothing, the old gateway's Away does not make the seat away, and the seat's outputs
 * stay on gw-u. */
static void test_worker_command_overtaken_through_another_gateway_is_refused(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    void *gw2 = rig_worker_gateway(&r, "gw-u");
    host_match *hm = rig_worker_started(&r, "m-overtaken", "dominion", NULL);
    const engine_decision *d = engine_match_decision(hm->m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int seat = d->seat;
    const char *p = rig_worker_players[seat];
    uint64_t decision = d->decision_id;
    Deckhand__Choose c;
    uint32_t ids[64];
    rig_worker_legal_choice(d, &c, ids);

    rig_worker_command_via(&r, "gw-u", "m-overtaken", p, 8, NULL);
    host_flush(&r.h, r.now);
    CU_ASSERT_STRING_EQUAL(hm->seats[seat].route, "gw-u");
    rig_outbox o;
    rig_worker_drain(&r, gw2, &o);
    const Deckhand__ServerMessage *rep =
        rig_outbox_find(&o, p, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    CU_ASSERT_TRUE(rep && rep->reply->cmd_id == 8 && rep->reply->ok);
    CU_ASSERT_PTR_NOT_NULL(rig_outbox_find(&o, p, DECKHAND__SERVER_MESSAGE__BODY_VIEW));
    rig_outbox_free(&o);

    rig_worker_command_via(&r, "gw-t", "m-overtaken", p, 7, &c);
    host_flush(&r.h, r.now);
    rig_worker_away_via(&r, "gw-t", "m-overtaken", p);
    CU_ASSERT_EQUAL(engine_match_decision(hm->m)->decision_id, decision);
    CU_ASSERT_STRING_EQUAL(hm->seats[seat].route, "gw-u");
    CU_ASSERT_EQUAL(hm->seats[seat].away_ms, 0);
    rig_worker_gw_drain(&r, &o);
    rep = rig_outbox_find(&o, p, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    CU_ASSERT_TRUE(rep && rep->reply->cmd_id == 7 && !rep->reply->ok && rep->reply->error &&
                   rep->reply->error->code == DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_EQUAL(o.n, 1); /* nothing else went to the gateway the player left */
    rig_outbox_free(&o);

    /* the answer again, through the new connection: it goes in, its outputs come to gw-u */
    rig_worker_command_via(&r, "gw-u", "m-overtaken", p, 9, &c);
    host_flush(&r.h, r.now);
    CU_ASSERT_NOT_EQUAL(engine_match_decision(hm->m)->decision_id, decision);
    rig_worker_drain(&r, gw2, &o);
    rep = rig_outbox_find(&o, p, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    CU_ASSERT_TRUE(rep && rep->reply->cmd_id == 9 && rep->reply->ok);
    CU_ASSERT_PTR_NOT_NULL(rig_outbox_find(&o, p, DECKHAND__SERVER_MESSAGE__BODY_VIEW));
    rig_outbox_free(&o);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_PTR_NULL(rig_outbox_find(&o, p, DECKHAND__SERVER_MESSAGE__BODY_VIEW));
    rig_outbox_free(&o);
    zmq_close(gw2);
    rig_worker_close(&r);
}

/* A client that numbers its commands from 1 again on its new connection is let in once
 * the gateway it left said it is away, and the same cmd_id again through another gateway
 * is a retry, not an overtaken command. */
static void test_worker_resume_through_another_gateway_after_away_or_with_a_retry(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    void *gw2 = rig_worker_gateway(&r, "gw-u");
    host_match *hm = rig_worker_started(&r, "m-resume", "dominion", NULL);
    int seat = engine_match_decision(hm->m)->seat;
    const char *p = rig_worker_players[seat];
    rig_worker_command(&r, "m-resume", p, 5, NULL);
    rig_worker_command_via(&r, "gw-u", "m-resume", p, 1, NULL); /* gw-t has not said it left */
    CU_ASSERT_STRING_EQUAL(hm->seats[seat].route, "gw-t");
    rig_worker_away_via(&r, "gw-t", "m-resume", p);
    CU_ASSERT_NOT_EQUAL(hm->seats[seat].away_ms, 0);
    rig_worker_command_via(&r, "gw-u", "m-resume", p, 2, NULL);
    CU_ASSERT_STRING_EQUAL(hm->seats[seat].route, "gw-u");
    CU_ASSERT_EQUAL(hm->seats[seat].away_ms, 0);
    rig_worker_command(&r, "m-resume", p, 5, NULL); /* the top cmd_id again, back through gw-t */
    CU_ASSERT_STRING_EQUAL(hm->seats[seat].route, "gw-t");
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    rig_worker_drain(&r, gw2, &o);
    rig_outbox_free(&o);
    zmq_close(gw2);
    rig_worker_close(&r);
}

static void test_worker_refuses_matches_past_capacity(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    r.h.capacity = 1;
    rig_worker_started(&r, "m-cap1", "dominion", NULL);
    rig_worker_start(&r, "m-cap2", "dominion", NULL);
    Deckhand__Internal__Internal *m = rig_worker_mm_next(&r);
    CU_ASSERT_TRUE(m && !m->match_started->ok && !strcmp(m->match_started->match_id, "m-cap2"));
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    rig_worker_close(&r);
}

static void test_worker_refuses_a_match_the_engine_cannot_create(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    Deckhand__Internal__Seat s0 = DECKHAND__INTERNAL__SEAT__INIT;
    s0.player_id = (char *)"p-1";
    Deckhand__Internal__Seat *seats[] = {&s0, &s0};
    Deckhand__Internal__StartMatch sm = DECKHAND__INTERNAL__START_MATCH__INIT;
    sm.match_id = (char *)"m-chess";
    sm.game = (char *)"chess";
    sm.n_seats = 2;
    sm.seats = seats;
    host_start_match(&r.h, &sm, r.now);
    Deckhand__Internal__Internal *m = rig_worker_mm_next(&r);
    CU_ASSERT_TRUE(m && !m->match_started->ok && m->match_started->error[0]);
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    s0.player_id = (char *)"";
    sm.match_id = (char *)"m-noid";
    sm.game = (char *)"dominion";
    host_start_match(&r.h, &sm, r.now);
    m = rig_worker_mm_next(&r);
    CU_ASSERT_TRUE(m && !m->match_started->ok);
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_EQUAL(host_active(&r.h), 0);
    rig_worker_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"worker_start_writes_redis_before_match_started",
         test_worker_start_writes_redis_before_match_started},
        {"worker_resync_sends_reply_view_and_decision_to_the_decider",
         test_worker_resync_sends_reply_view_and_decision_to_the_decider},
        {"worker_choose_releases_outputs_after_redis_in_order",
         test_worker_choose_releases_outputs_after_redis_in_order},
        {"worker_outputs_of_a_turn_go_as_one_message_per_gateway",
         test_worker_outputs_of_a_turn_go_as_one_message_per_gateway},
        {"worker_retried_cmd_id_is_answered_not_applied_again",
         test_worker_retried_cmd_id_is_answered_not_applied_again},
        {"worker_errors_change_nothing", test_worker_errors_change_nothing},
        {"worker_redis_outage_is_unavailable_and_rolled_back",
         test_worker_redis_outage_is_unavailable_and_rolled_back},
        {"worker_plays_a_match_to_the_end", test_worker_plays_a_match_to_the_end},
        {"worker_match_ended_leaves_the_decks_to_the_players",
         test_worker_match_ended_leaves_the_decks_to_the_players},
        {"worker_command_overtaken_through_another_gateway_is_refused",
         test_worker_command_overtaken_through_another_gateway_is_refused},
        {"worker_resume_through_another_gateway_after_away_or_with_a_retry",
         test_worker_resume_through_another_gateway_after_away_or_with_a_retry},
        {"worker_refuses_matches_past_capacity", test_worker_refuses_matches_past_capacity},
        {"worker_refuses_a_match_the_engine_cannot_create",
         test_worker_refuses_a_match_the_engine_cannot_create},
        {NULL, NULL},
    };
    return rig_worker_main("worker_host", cases);
}
