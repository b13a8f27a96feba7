/*
 * test_matchmaker_rematch.c: playing a finished match again (matchmaker/social/rematch.c):
 * RematchState to every human seat through every gateway, the new match placed with the
 * same game, mode, options and seats once every human seat offered (at once against the
 * AI, bots staying bots of their strategy), a decline ending it for everyone, and the
 * refusals (a match unknown or still running, a player who was not in it).
 */
#include <stdio.h>
#include <string.h>

#include "queue.h"
#include "rig_mm.h"
#include "rig_redis.h"
#include "rig_social.h"

/* A finished dominion match id in Redis with the seats ids (names the same) and bots. */
static void finished(const char *id, const char *ids, const char *bots, const char *status)
{
    char key[128];
    snprintf(key, sizeof key, "match:{%s}", id);
    rig_redis_ok("HSET %s status %s game dominion mode casual player_ids %s players %s bots %s "
                 "options kingdom=first_game",
                 key, status, ids, ids, bots);
}

/* What one gateway got up to the QueueReply of cmd: the last RematchState of each player
 * (pids[i] -> states[i], owned) and the reply's code (0 ok, -1 none). */
typedef struct {
    const char *pids[4];
    Deckhand__ServerMessage *states[4];
} seen_states;

static void seen_free(seen_states *s)
{
    for (int i = 0; i < 4; i++)
        if (s->states[i])
            deckhand__server_message__free_unpacked(s->states[i], NULL);
    memset(s->states, 0, sizeof s->states);
}

/* Read gw until cmd's QueueReply (cmd 0: for ms), keeping RematchStates. */
static int read_gw(void *gw, uint64_t cmd, seen_states *s)
{
    for (Deckhand__Internal__Internal *m; (m = rig_mm_next(gw, RIG_MM_WAIT_MS));) {
        int code = -2;
        if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY &&
            m->queue_reply->cmd_id == cmd && cmd)
            code = m->queue_reply->ok ? 0 : (int)m->queue_reply->error->code;
        if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MM_OUTPUT) {
            Deckhand__ServerMessage *sm = deckhand__server_message__unpack(
                NULL, m->mm_output->message.len, m->mm_output->message.data);
            for (int i = 0; sm && i < 4; i++) {
                if (!s->pids[i] || strcmp(s->pids[i], m->mm_output->player_id))
                    continue;
                if (s->states[i])
                    deckhand__server_message__free_unpacked(s->states[i], NULL);
                s->states[i] = sm;
                sm = NULL;
            }
            if (sm)
                deckhand__server_message__free_unpacked(sm, NULL);
        }
        deckhand__internal__internal__free_unpacked(m, NULL);
        if (code != -2)
            return code;
    }
    return -1;
}

static const Deckhand__ClientMessage *offer(const char *match_id, bool decline)
{
    static Deckhand__RematchOffer o;
    static Deckhand__ClientMessage cm;
    deckhand__rematch_offer__init(&o);
    deckhand__client_message__init(&cm);
    o.match_id = (char *)match_id;
    o.decline = decline;
    cm.body_case = DECKHAND__CLIENT_MESSAGE__BODY_REMATCH_OFFER;
    cm.rematch_offer = &o;
    return &cm;
}

static const Deckhand__RematchState *state(const seen_states *s, int i)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(s->states[i]);
    CU_ASSERT_EQUAL_FATAL(s->states[i]->body_case, DECKHAND__SERVER_MESSAGE__BODY_REMATCH);
    return s->states[i]->rematch;
}

static void test_rematch_starts_once_every_player_offered(void)
{
    rig_mm r;
    rs_open_fresh(&r, "mm-re-1", 1);
    finished("m-old", "p1,p2", ",", "finished");
    seen_states a = {.pids = {"p1", "p2"}}, b = {.pids = {"p1", "p2"}};
    rs_send(r.gw, "p1", 1, offer("m-old", false));
    rig_mm_pump(&r, 10);
    CU_ASSERT_EQUAL(read_gw(r.gw, 1, &a), 0);
    read_gw(r.gw2, 0, &b);
    /* both seats hear of it, whichever gateway holds them */
    for (int i = 0; i < 2; i++) {
        const Deckhand__RematchState *st = state(i ? &b : &a, i);
        CU_ASSERT_STRING_EQUAL(st->match_id, "m-old");
        CU_ASSERT_EQUAL_FATAL(st->n_offered, 1);
        CU_ASSERT_EQUAL(st->offered[0], 0);
        CU_ASSERT_FALSE(st->declined);
        CU_ASSERT_STRING_EQUAL(st->new_match_id, "");
    }
    CU_ASSERT_PTR_NULL(rig_mm_next_start(&r, NULL));
    seen_free(&a);
    seen_free(&b);
    rs_send(r.gw2, "p2", 2, offer("m-old", false));
    rig_mm_pump(&r, 20);
    CU_ASSERT_EQUAL(read_gw(r.gw2, 2, &b), 0);
    const Deckhand__RematchState *st = state(&b, 1);
    CU_ASSERT_EQUAL(st->n_offered, 2);
    CU_ASSERT_EQUAL(strlen(st->new_match_id), PLACEMENT_ID_LEN);
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, NULL);
    rig_mm_check_seats(m->start_match, "p1,p2");
    CU_ASSERT_STRING_EQUAL(m->start_match->match_id, st->new_match_id);
    CU_ASSERT_STRING_EQUAL(m->start_match->seats[0]->gateway_id, "gw-1");
    CU_ASSERT_STRING_EQUAL(m->start_match->seats[1]->gateway_id, "gw-2");
    CU_ASSERT_EQUAL_FATAL(m->start_match->n_options, 1);
    CU_ASSERT_STRING_EQUAL(m->start_match->options[0]->value, "first_game");
    CU_ASSERT_FALSE(m->start_match->unrated);
    deckhand__internal__internal__free_unpacked(m, NULL);
    /* offering again says where the rematch went, and starts nothing more */
    seen_free(&b);
    rs_send(r.gw2, "p2", 3, offer("m-old", false));
    rig_mm_pump(&r, 30);
    CU_ASSERT_EQUAL(read_gw(r.gw2, 3, &b), 0);
    CU_ASSERT_EQUAL(strlen(state(&b, 1)->new_match_id), PLACEMENT_ID_LEN);
    CU_ASSERT_PTR_NULL(rig_mm_next_start(&r, NULL));
    seen_free(&b);
    rig_mm_close(&r);
}

static void test_rematch_against_the_ai_starts_at_once_with_the_same_bots(void)
{
    rig_mm r;
    rs_open_fresh(&r, "mm-re-2", 1);
    finished("m-ai", "p1,m-ai:bot2", ",hard", "finished");
    seen_states a = {.pids = {"p1"}};
    rs_send(r.gw, "p1", 1, offer("m-ai", false));
    rig_mm_pump(&r, 10);
    CU_ASSERT_EQUAL(read_gw(r.gw, 1, &a), 0);
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, NULL);
    const Deckhand__Internal__StartMatch *sm = m->start_match;
    CU_ASSERT_EQUAL_FATAL(sm->n_seats, 2);
    CU_ASSERT_STRING_EQUAL(sm->seats[0]->player_id, "p1");
    CU_ASSERT_STRING_EQUAL(sm->seats[1]->bot, "hard");
    CU_ASSERT_PTR_NOT_NULL(strstr(sm->seats[1]->player_id, sm->match_id));
    CU_ASSERT_TRUE(sm->unrated);
    CU_ASSERT_STRING_EQUAL(state(&a, 0)->new_match_id, sm->match_id);
    deckhand__internal__internal__free_unpacked(m, NULL);
    seen_free(&a);
    rig_mm_close(&r);
}

static void test_rematch_decline_ends_the_offer_for_everyone(void)
{
    rig_mm r;
    rs_open_fresh(&r, "mm-re-3", 1);
    finished("m-old", "p1,p2", ",", "finished");
    seen_states a = {.pids = {"p1"}}, b = {.pids = {"p1", "p2"}};
    rs_send(r.gw, "p1", 1, offer("m-old", false));
    rig_mm_pump(&r, 10);
    CU_ASSERT_EQUAL(read_gw(r.gw, 1, &a), 0);
    read_gw(r.gw2, 0, &b);
    seen_free(&a);
    rs_send(r.gw2, "p2", 2, offer("m-old", true));
    rig_mm_pump(&r, 20);
    CU_ASSERT_EQUAL(read_gw(r.gw2, 2, &b), 0);
    read_gw(r.gw, 0, &a);
    CU_ASSERT_TRUE(state(&a, 0)->declined);
    CU_ASSERT_TRUE(state(&b, 1)->declined);
    CU_ASSERT_PTR_NULL(rig_mm_next_start(&r, NULL));
    seen_free(&a);
    seen_free(&b);
    rig_mm_close(&r);
}

static void test_rematch_offer_ends_when_a_player_queues_elsewhere(void)
{
    rig_mm r;
    rs_open_fresh(&r, "mm-re-4", 1);
    finished("m-old", "p1,p2", ",", "finished");
    seen_states a = {.pids = {"p1"}};
    rs_send(r.gw, "p1", 1, offer("m-old", false));
    rig_mm_pump(&r, 10);
    CU_ASSERT_EQUAL(read_gw(r.gw, 1, &a), 0);
    seen_free(&a);
    rig_mm_join(r.gw2, "p2", 2, 3); /* p2 went on to another match */
    rig_mm_pump(&r, 20);
    read_gw(r.gw, 0, &a);
    CU_ASSERT_TRUE(state(&a, 0)->declined);
    seen_free(&a);
    rig_mm_close(&r);
}

static void test_rematch_refuses_unknown_running_and_foreign_matches(void)
{
    rig_mm r;
    rs_open_fresh(&r, "mm-re-5", 1);
    finished("m-run", "p1,p2", ",", "running");
    finished("m-old", "p1,p2", ",", "finished");
    seen_states a = {.pids = {"p1"}};
    rs_send(r.gw, "p1", 1, offer("m-none", false));
    rs_send(r.gw, "p1", 2, offer("m-run", false));
    rs_send(r.gw, "p9", 3, offer("m-old", false));
    rs_send(r.gw, "p1", 4, offer("", false));
    rig_mm_pump(&r, 10);
    CU_ASSERT_EQUAL(read_gw(r.gw, 1, &a), DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    CU_ASSERT_EQUAL(read_gw(r.gw, 2, &a), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(read_gw(r.gw, 3, &a), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(read_gw(r.gw, 4, &a), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_PTR_NULL(rig_mm_next_start(&r, NULL));
    seen_free(&a);
    rig_mm_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"rematch_starts_once_every_player_offered", test_rematch_starts_once_every_player_offered},
        {"rematch_against_the_ai_starts_at_once_with_the_same_bots",
         test_rematch_against_the_ai_starts_at_once_with_the_same_bots},
        {"rematch_decline_ends_the_offer_for_everyone",
         test_rematch_decline_ends_the_offer_for_everyone},
        {"rematch_offer_ends_when_a_player_queues_elsewhere",
         test_rematch_offer_ends_when_a_player_queues_elsewhere},
        {"rematch_refuses_unknown_running_and_foreign_matches",
         test_rematch_refuses_unknown_running_and_foreign_matches},
        {NULL, NULL},
    };
    return rig_redis_main("matchmaker_rematch", cases);
}
