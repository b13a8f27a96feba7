/*
 * test_worker_script_limits.c: the worker's side of two engine bounds, on
 * tests/fixtures/limits: a match that reaches its game's turn cap ends with a GameOver to
 * every seat (not SCRIPT_ERROR on every later answer), also when every seat is away and
 * the bots play it there (issue 15: nothing runs forever), and a SCRIPT_ERROR reply shows
 * the player an error id, never the script's file and line.
 */
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "dh_keys.h"
#include "rig_worker.h"

static void test_worker_match_at_its_turn_cap_sends_game_over(void)
{
    rig_worker r;
    rig_worker_open(&r, "tests/fixtures/limits", NULL);
    host_match *hm = rig_worker_started(&r, "m-cap", "capped", NULL);
    uint64_t cmd = 1;
    rig_worker_play(&r, hm, 5, &cmd);
    CU_ASSERT_FATAL(rig_worker_answer(&r, hm, cmd++)); /* the 6th turn: the cap */
    host_flush(&r.h, r.now);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    for (int p = 0; p < 2; p++) {
        const Deckhand__ServerMessage *go =
            rig_outbox_find(&o, rig_worker_players[p], DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER);
        CU_ASSERT_PTR_NOT_NULL(go);
        if (go) {
            CU_ASSERT_EQUAL(go->game_over->n_results, 2);
            CU_ASSERT_STRING_EQUAL(go->game_over->reason, DH_END_TURN_CAP);
        }
    }
    for (size_t i = 0; i < o.n; i++)
        if (o.msg[i]->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY)
            CU_ASSERT_TRUE(o.msg[i]->reply->ok);
    rig_outbox_free(&o);
    rig_worker_close_drained(&r);
}

static void test_worker_match_with_every_seat_away_ends_at_its_turn_cap(void)
{
    rig_worker r;
    rig_worker_open(&r, "tests/fixtures/limits", NULL);
    Deckhand__Internal__QueueSettings set = DECKHAND__INTERNAL__QUEUE_SETTINGS__INIT;
    set.grace_ms = 10; /* then the default bot plays each absent seat */
    rig_worker_started(&r, "m-capaway", "capped", &set);
    for (int p = 0; p < 2; p++)
        rig_worker_away_via(&r, "gw-t", "m-capaway", rig_worker_players[p]);
    for (int i = 0; i < 50 && host_find(&r.h, "m-capaway"); i++) {
        rig_worker_advance(&r, 20);
        host_tick(&r.h, r.now);
        host_flush(&r.h, r.now);
    }
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-capaway"));
    char *status = rig_worker_hget("match:{m-capaway}", "status");
    char *reason = rig_worker_hget("match:{m-capaway}", "end_reason");
    char *owner = rig_worker_hget("matches:running", "m-capaway");
    CU_ASSERT_STRING_EQUAL(status ? status : "", DH_STATUS_FINISHED);
    CU_ASSERT_STRING_EQUAL(reason ? reason : "", DH_END_TURN_CAP);
    CU_ASSERT_PTR_NULL(owner);
    free(status);
    free(reason);
    free(owner);
    rig_worker_close_drained(&r);
}

static void test_worker_script_error_reply_hides_the_script(void)
{
    rig_worker r;
    rig_worker_open(&r, "tests/fixtures/limits", NULL);
    host_match *hm = rig_worker_started(&r, "m-err", "limits", NULL);
    const engine_decision *d = engine_match_decision(hm->m);
    CU_ASSERT_FATAL(d != NULL);
    uint32_t id = 0;
    for (size_t i = 0; i < d->noptions; i++)
        if (!strcmp(d->options[i].label, "error"))
            id = d->options[i].id;
    CU_ASSERT_FATAL(id != 0);
    Deckhand__Choose c = DECKHAND__CHOOSE__INIT;
    c.match_id = "m-err";
    c.decision_id = d->decision_id;
    c.option_ids = &id;
    c.n_option_ids = 1;
    rig_worker_command(&r, "m-err", rig_worker_players[d->seat], 5, &c);
    host_flush(&r.h, r.now);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    const Deckhand__ServerMessage *rep =
        rig_outbox_find(&o, rig_worker_players[d->seat], DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    CU_ASSERT_FATAL(rep != NULL && !rep->reply->ok && rep->reply->error);
    printf("\n  reply: %s", rep->reply->error->message);
    CU_ASSERT_EQUAL(rep->reply->error->code, DECKHAND__ERROR_CODE__SCRIPT_ERROR);
    CU_ASSERT_PTR_NULL(strstr(rep->reply->error->message, ".lua"));
    CU_ASSERT_PTR_NULL(strstr(rep->reply->error->message, "boom"));
    CU_ASSERT_PTR_NOT_NULL(strstr(rep->reply->error->message, "error E"));
    rig_outbox_free(&o);
    rig_worker_close_drained(&r);
}

static const dh_test_case cases[] = {
    {"test_worker_match_at_its_turn_cap_sends_game_over",
     test_worker_match_at_its_turn_cap_sends_game_over},
    {"test_worker_match_with_every_seat_away_ends_at_its_turn_cap",
     test_worker_match_with_every_seat_away_ends_at_its_turn_cap},
    {"test_worker_script_error_reply_hides_the_script",
     test_worker_script_error_reply_hides_the_script},
    {NULL, NULL},
};

int main(void)
{
    return rig_worker_main("worker_script_limits", cases);
}
