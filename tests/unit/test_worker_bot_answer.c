/*
 * test_worker_bot_answer.c: a player's "answer this for me as the game's bot would"
 * (Choose.bot, docs/PROTOCOL.md) in the worker rig (rig_worker.h): the worker runs the
 * game's own bot for the requester's seat and applies its answer like any other (the same
 * validation, Reply, persistence and idempotency by cmd_id); it never answers another
 * seat's decision or a stale one; and a match played by such answers alone ends, in every
 * game the repository ships (what `deckhand bots` relies on over the network).
 */
#include "rig_worker.h"

#include <stdlib.h>
#include <string.h>

/* A Choose asking for bot's answer to decision_id, with no option ids. */
static Deckhand__Choose bot_choose(uint64_t decision_id, const char *bot)
{
    Deckhand__Choose c = DECKHAND__CHOOSE__INIT;
    c.decision_id = decision_id;
    c.bot = (char *)bot;
    return c;
}

/* The one Reply in o for cmd_id: its error code (0 for ok), or -1 when there is none. */
static int reply_code(const rig_outbox *o, uint64_t cmd_id)
{
    for (size_t i = 0; i < o->n; i++) {
        const Deckhand__ServerMessage *m = o->msg[i];
        if (m->body_case != DECKHAND__SERVER_MESSAGE__BODY_REPLY || m->reply->cmd_id != cmd_id)
            continue;
        if (m->reply->ok)
            return 0;
        return m->reply->error ? (int)m->reply->error->code : DECKHAND__ERROR_CODE__INTERNAL;
    }
    return -1;
}

/* A twin of hm's match (its snapshot and log), with the answer the game's default bot
 * gives now applied: what hm must become once the worker applies that answer. */
static engine_match *twin_after_bot(rig_worker *r, host_match *hm)
{
    const char *names[2] = {hm->seats[0].name, hm->seats[1].name};
    engine_match_config cfg = {.match_id = hm->id, .game = hm->game, .nplayers = 2, .names = names};
    size_t len = 0, nlog = engine_match_log_len(hm->m);
    const uint8_t *snap = engine_match_snapshot(hm->m, &len);
    engine_answer *log = calloc(nlog ? nlog : 1, sizeof *log);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    for (size_t i = 0; i < nlog; i++)
        log[i] = engine_match_log_at(hm->m, i);
    engine_error ee = {0};
    engine_match *twin = engine_match_restore(r->bundle, &cfg, snap, len, log, nlog, &ee);
    free(log);
    CU_ASSERT_PTR_NOT_NULL_FATAL(twin);
    CU_ASSERT_EQUAL_FATAL(engine_match_hash(twin), engine_match_hash(hm->m));
    uint32_t ids[64];
    size_t n = 64;
    const engine_decision *d = engine_match_decision(twin);
    CU_ASSERT_EQUAL_FATAL(engine_match_bot_answer(twin, "default", ids, &n, &ee), ENGINE_OK);
    CU_ASSERT_EQUAL_FATAL(engine_match_answer(twin, d->seat, d->decision_id, ids, n, &ee),
                          ENGINE_OK);
    return twin;
}

static void test_worker_bot_answer_is_applied_for_the_requesters_seat(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, "m-bot", "dominion", NULL);
    const engine_decision *d = engine_match_decision(hm->m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    const char *decider = rig_worker_players[d->seat];
    uint64_t decision = d->decision_id;
    engine_match *twin = twin_after_bot(&r, hm);
    Deckhand__Choose c = bot_choose(decision, "default");
    rig_worker_command(&r, "m-bot", decider, 11, &c);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(o.n, 0); /* held until Redis has it, like any answer */
    rig_outbox_free(&o);
    host_flush(&r.h, r.now);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_TRUE_FATAL(o.n >= 2);
    CU_ASSERT_STRING_EQUAL(o.player[0], decider);
    CU_ASSERT_EQUAL(reply_code(&o, 11), 0);
    CU_ASSERT_EQUAL(o.msg[o.n - 1]->body_case, DECKHAND__SERVER_MESSAGE__BODY_DECISION);
    CU_ASSERT_TRUE(o.msg[o.n - 1]->decision->decision_id > decision);
    rig_outbox_free(&o);
    CU_ASSERT_EQUAL(engine_match_hash(hm->m), engine_match_hash(twin)); /* the bot's answer */
    CU_ASSERT_EQUAL(rig_worker_redis_int("LLEN", "match:{m-bot}:log"),
                    (long long)engine_match_log_len(hm->m));
    engine_match_free(twin);
    rig_worker_close(&r);
}

static void test_worker_bot_answer_is_idempotent_by_cmd_id(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, "m-botre", "dominion", NULL);
    const engine_decision *d = engine_match_decision(hm->m);
    const char *decider = rig_worker_players[d->seat];
    Deckhand__Choose c = bot_choose(d->decision_id, "default");
    rig_worker_command(&r, "m-botre", decider, 12, &c);
    host_flush(&r.h, r.now);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, 12), 0);
    rig_outbox_free(&o);
    uint64_t hash = engine_match_hash(hm->m);
    size_t logn = engine_match_log_len(hm->m);
    /* the same command again (a retry after a lost Reply): answered, not applied again,
     * though the decider may well have the next decision too */
    rig_worker_command(&r, "m-botre", decider, 12, &c);
    host_flush(&r.h, r.now);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(o.n, 1);
    CU_ASSERT_EQUAL(reply_code(&o, 12), 0);
    CU_ASSERT_EQUAL(engine_match_hash(hm->m), hash);
    CU_ASSERT_EQUAL(engine_match_log_len(hm->m), logn);
    rig_outbox_free(&o);
    rig_worker_close(&r);
}

static void test_worker_bot_answer_refuses_what_is_not_the_requesters(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, "m-botno", "dominion", NULL);
    const engine_decision *d = engine_match_decision(hm->m);
    const char *decider = rig_worker_players[d->seat], *other = rig_worker_players[1 - d->seat];
    uint64_t decision = d->decision_id;
    uint64_t hash = engine_match_hash(hm->m);
    Deckhand__Choose theirs = bot_choose(decision, "default");
    Deckhand__Choose stale = bot_choose(decision - 1, "default");
    Deckhand__Choose ahead = bot_choose(decision + 1, "default");
    rig_worker_command(&r, "m-botno", other, 1, &theirs);  /* another seat's decision */
    rig_worker_command(&r, "m-botno", decider, 2, &stale); /* an earlier decision */
    rig_worker_command(&r, "m-botno", decider, 3, &ahead); /* one not asked yet */
    host_flush(&r.h, r.now);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(o.n, 3);
    CU_ASSERT_EQUAL(reply_code(&o, 1), DECKHAND__ERROR_CODE__NOT_YOUR_TURN);
    CU_ASSERT_EQUAL(reply_code(&o, 2), DECKHAND__ERROR_CODE__ILLEGAL_CHOICE);
    CU_ASSERT_EQUAL(reply_code(&o, 3), DECKHAND__ERROR_CODE__ILLEGAL_CHOICE);
    rig_outbox_free(&o);
    CU_ASSERT_EQUAL(engine_match_hash(hm->m), hash);
    /* a refusal is remembered by cmd_id too: the decider's own answer afterwards still goes */
    rig_worker_command(&r, "m-botno", decider, 2, &stale);
    Deckhand__Choose mine = bot_choose(decision, "default");
    rig_worker_command(&r, "m-botno", decider, 4, &mine);
    host_flush(&r.h, r.now);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, 2), DECKHAND__ERROR_CODE__ILLEGAL_CHOICE);
    CU_ASSERT_EQUAL(reply_code(&o, 4), 0);
    rig_outbox_free(&o);
    CU_ASSERT_NOT_EQUAL(engine_match_hash(hm->m), hash);
    rig_worker_close(&r);
}

static void test_worker_bot_answer_refuses_bad_requests(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, "m-botbad", "dominion", NULL);
    const engine_decision *d = engine_match_decision(hm->m);
    const char *decider = rig_worker_players[d->seat];
    uint64_t hash = engine_match_hash(hm->m);
    Deckhand__Choose unknown = bot_choose(d->decision_id, "no_such_strategy");
    Deckhand__Choose both = bot_choose(d->decision_id, "default");
    uint32_t ids[64];
    Deckhand__Choose legal;
    rig_worker_legal_choice(d, &legal, ids);
    both.option_ids = legal.option_ids;
    both.n_option_ids = legal.n_option_ids ? legal.n_option_ids : 1;
    ids[0] = d->options[0].id;
    char long_name[200];
    memset(long_name, 'a', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    Deckhand__Choose too_long = bot_choose(d->decision_id, long_name);
    Deckhand__Choose control = bot_choose(d->decision_id, "def\nault");
    rig_worker_command(&r, "m-botbad", decider, 1, &unknown);
    rig_worker_command(&r, "m-botbad", decider, 2, &both);
    rig_worker_command(&r, "m-botbad", decider, 3, &too_long);
    rig_worker_command(&r, "m-botbad", decider, 4, &control);
    host_flush(&r.h, r.now);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(o.n, 4);
    for (uint64_t cmd = 1; cmd <= 4; cmd++)
        CU_ASSERT_EQUAL(reply_code(&o, cmd), DECKHAND__ERROR_CODE__BAD_REQUEST);
    rig_outbox_free(&o);
    CU_ASSERT_EQUAL(engine_match_hash(hm->m), hash);
    rig_worker_close(&r);
}

/* The poison fixture's default bot picks the card whose script fails: asked for by a
 * player, that failure is the player's (SCRIPT_ERROR, nothing changed), repeated at will
 * without counting toward the quarantine of the worker's own failing answers. */
static void test_worker_bot_answer_that_fails_is_the_players_not_a_quarantine(void)
{
    rig_worker r;
    rig_worker_open(&r, "tests/fixtures/poison", NULL);
    host_match *hm = rig_worker_started(&r, "m-botpoison", "poison", NULL);
    const engine_decision *d = engine_match_decision(hm->m);
    const char *decider = rig_worker_players[d->seat];
    uint64_t hash = engine_match_hash(hm->m);
    Deckhand__Choose c = bot_choose(d->decision_id, "default");
    for (uint64_t cmd = 1; cmd <= 6; cmd++) {
        rig_worker_command(&r, "m-botpoison", decider, cmd, &c);
        host_flush(&r.h, r.now);
        rig_outbox o;
        rig_worker_gw_drain(&r, &o);
        CU_ASSERT_EQUAL(o.n, 1);
        CU_ASSERT_EQUAL(reply_code(&o, cmd), DECKHAND__ERROR_CODE__SCRIPT_ERROR);
        rig_outbox_free(&o);
        rig_worker_advance(&r, 1000);
        host_tick(&r.h, r.now);
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(host_find(&r.h, "m-botpoison"));
    CU_ASSERT_EQUAL(hm->script_failures, 0);
    CU_ASSERT_EQUAL(engine_match_hash(hm->m), hash);
    rig_worker_close_drained(&r);
}

/* Both players ask for the default bot's answer to every decision put to them, until the
 * match ends: it must end (GameOver to both, MatchEnded to the matchmaker) with no refusal,
 * in every game. */
static void play_by_bot_answers(const char *game)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    char id[64];
    snprintf(id, sizeof id, "m-botall-%s", game);
    host_match *hm = rig_worker_started(&r, id, game, NULL);
    uint64_t cmd = 1;
    long refused = 0, answers = 0;
    bool over = false;
    rig_worker_mm_drain(&r);
    while (!over && answers < 20000) {
        const engine_decision *d = engine_match_decision(hm->m);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        Deckhand__Choose c = bot_choose(d->decision_id, "default");
        rig_worker_command(&r, id, rig_worker_players[d->seat], cmd, &c);
        host_flush(&r.h, r.now);
        rig_outbox o;
        rig_worker_gw_drain(&r, &o);
        if (reply_code(&o, cmd) != 0)
            refused++;
        const Deckhand__ServerMessage *go =
            rig_outbox_find(&o, rig_worker_players[0], DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER);
        over = go &&
               rig_outbox_find(&o, rig_worker_players[1], DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER);
        if (go) /* ended by the rules, not by the turn cap */
            CU_ASSERT_STRING_EQUAL(go->game_over->reason ? go->game_over->reason : "", "");
        rig_outbox_free(&o);
        cmd++;
        answers++;
        if (refused)
            break;
    }
    CU_ASSERT_EQUAL(refused, 0);
    CU_ASSERT_TRUE(over);
    CU_ASSERT_EQUAL(host_active(&r.h), 0);
    Deckhand__Internal__Internal *m = rig_worker_mm_next(&r);
    CU_ASSERT_TRUE(m && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ENDED);
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    rig_worker_close(&r);
}

/* Choose.bot = "search": the worker answers with the search bot (engine_search.c), bounded
 * in time, and the answer is applied and stored like any. */
static void test_worker_search_bot_answers_the_requesters_decision(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, "m-search", "caveman", NULL);
    const engine_decision *d = engine_match_decision(hm->m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    uint64_t decision = d->decision_id;
    Deckhand__Choose c = bot_choose(decision, ENGINE_SEARCH_BOT);
    rig_worker_command(&r, "m-search", rig_worker_players[d->seat], 11, &c);
    host_flush(&r.h, r.now);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, 11), 0);
    rig_outbox_free(&o);
    CU_ASSERT_EQUAL(engine_match_log_len(hm->m) > 0 || engine_match_snapshot_version(hm->m) > 1,
                    true);
    d = engine_match_decision(hm->m);
    CU_ASSERT_TRUE(!d || d->decision_id > decision);
    rig_worker_close(&r);
}

static void test_worker_bot_answers_finish_a_dominion_match(void)
{
    play_by_bot_answers("dominion");
}

static void test_worker_bot_answers_finish_an_accession_match(void)
{
    play_by_bot_answers("accession");
}

static void test_worker_bot_answers_finish_an_ascension_match(void)
{
    play_by_bot_answers("ascension");
}

static void test_worker_bot_answers_finish_a_caveman_match(void)
{
    play_by_bot_answers("caveman");
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"worker_bot_answer_is_applied_for_the_requesters_seat",
         test_worker_bot_answer_is_applied_for_the_requesters_seat},
        {"worker_bot_answer_is_idempotent_by_cmd_id",
         test_worker_bot_answer_is_idempotent_by_cmd_id},
        {"worker_bot_answer_refuses_what_is_not_the_requesters",
         test_worker_bot_answer_refuses_what_is_not_the_requesters},
        {"worker_bot_answer_refuses_bad_requests", test_worker_bot_answer_refuses_bad_requests},
        {"worker_search_bot_answers_the_requesters_decision",
         test_worker_search_bot_answers_the_requesters_decision},
        {"worker_bot_answer_that_fails_is_the_players_not_a_quarantine",
         test_worker_bot_answer_that_fails_is_the_players_not_a_quarantine},
        {"worker_bot_answers_finish_a_dominion_match",
         test_worker_bot_answers_finish_a_dominion_match},
        {"worker_bot_answers_finish_an_accession_match",
         test_worker_bot_answers_finish_an_accession_match},
        {"worker_bot_answers_finish_an_ascension_match",
         test_worker_bot_answers_finish_an_ascension_match},
        {"worker_bot_answers_finish_a_caveman_match",
         test_worker_bot_answers_finish_a_caveman_match},
        {NULL, NULL},
    };
    return rig_worker_main("worker_bot_answer", cases);
}
