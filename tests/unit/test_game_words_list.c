/*
 * test_game_words_list.c: a game's words and structure on their way to players. The
 * worker's hello carries each game's title, rules summary, difficulties (easiest first)
 * and whether it builds decks (GameInfo, from the bundle's presentation:
 * engine_present_words.c), and the matchmaker's Games reply passes them on in each
 * GameDesc; the worker's DecisionRequest carries each option's verb, and its View the
 * deck-builders' VP totals.
 */
#include <stdlib.h>
#include <string.h>

#include "games.h"
#include "rig_mm.h"
#include "rig_worker.h"
#include "worker.h"

static const Deckhand__Internal__GameInfo *info_of(const Deckhand__Internal__WorkerHello *wh,
                                                   const char *game)
{
    for (size_t i = 0; i < wh->n_games; i++)
        if (!strcmp(wh->games[i]->name, game))
            return wh->games[i];
    return NULL;
}

static void test_worker_hello_carries_titles_summaries_difficulties_and_deck_builders(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    rig_worker_mm_drain(&r);
    worker_control_hello(&r.h, NULL, 0);
    Deckhand__Internal__Internal *m = rig_worker_mm_next(&r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO);
    const Deckhand__Internal__GameInfo *mlw = info_of(m->worker_hello, "mlw");
    const Deckhand__Internal__GameInfo *dom = info_of(m->worker_hello, "dominion");
    CU_ASSERT_FATAL(mlw != NULL && dom != NULL);
    CU_ASSERT_STRING_EQUAL(mlw->title, "Major League Wizardry");
    CU_ASSERT_STRING_EQUAL(dom->title, "Dominion");
    CU_ASSERT_PTR_NOT_NULL(strstr(dom->summary, "Province"));
    CU_ASSERT_FALSE(mlw->deck_builder);
    CU_ASSERT_TRUE(dom->deck_builder);
    CU_ASSERT_FATAL(dom->n_options == 1 && mlw->n_options == 2);
    CU_ASSERT_STRING_EQUAL(dom->options[0]->label, "Kingdom");
    CU_ASSERT_EQUAL_FATAL(dom->options[0]->n_value_labels, dom->options[0]->n_values);
    CU_ASSERT_STRING_EQUAL(dom->options[0]->values[0], "first_game");
    CU_ASSERT_STRING_EQUAL(dom->options[0]->value_labels[0], "First game");
    CU_ASSERT_STRING_EQUAL(mlw->options[1]->label, "Second player's deck");
    for (size_t i = 0; i < m->worker_hello->n_games; i++) {
        const Deckhand__Internal__GameInfo *g = m->worker_hello->games[i];
        CU_ASSERT_EQUAL_FATAL(g->n_difficulties, 3);
        CU_ASSERT_STRING_EQUAL(g->difficulties[0], "easy");
        CU_ASSERT_STRING_EQUAL(g->difficulties[1], "normal");
        CU_ASSERT_STRING_EQUAL(g->difficulties[2], "hard");
    }
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_worker_close_drained(&r);
}

/* A worker's hello with one game's words, as rig_mm_hello_options sends options. */
static void hello_with_words(rig_mm *r)
{
    char *bots[] = {"default", "easy", "normal", "hard"};
    char *diffs[] = {"easy", "normal", "hard"};
    Deckhand__Internal__GameInfo gi = DECKHAND__INTERNAL__GAME_INFO__INIT;
    Deckhand__Internal__GameInfo *gis[] = {&gi};
    gi.name = "mlw";
    gi.min_players = 2;
    gi.max_players = 2;
    gi.n_bots = 4;
    gi.bots = bots;
    gi.title = "Major League Wizardry";
    gi.summary = "Two wizards duel.\n\nReduce the enemy wizard to 0 health to win.";
    gi.n_difficulties = 3;
    gi.difficulties = diffs;
    Deckhand__Internal__WorkerHello h = DECKHAND__INTERNAL__WORKER_HELLO__INIT;
    h.worker_id = (char *)rig_mm_worker_ids[0];
    h.endpoint = "tcp://a:1";
    h.n_games = 1;
    h.games = gis;
    h.capacity = 1000;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO;
    m.worker_hello = &h;
    rig_mm_send(r->w[0], &m);
}

static void test_games_reply_carries_each_games_title_summary_and_difficulties(void)
{
    rig_mm r;
    rig_mm_open(&r, "mm-words-1", NULL, 1, 0);
    hello_with_words(&r);
    rig_mm_pump(&r, 10);
    Deckhand__GamesRequest gr = DECKHAND__GAMES_REQUEST__INIT;
    Deckhand__ClientMessage cm = DECKHAND__CLIENT_MESSAGE__INIT;
    cm.body_case = DECKHAND__CLIENT_MESSAGE__BODY_GAMES_REQUEST;
    cm.games_request = &gr;
    Deckhand__Internal__ClientRequest req = DECKHAND__INTERNAL__CLIENT_REQUEST__INIT;
    req.player_id = "p1";
    req.gateway_id = "gw-1";
    req.cmd_id = 4;
    req.message = &cm;
    games_answer(&r.mm, "gw-1", &req);
    Deckhand__Internal__Internal *m = rig_mm_next(r.gw, RIG_MM_WAIT_MS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MM_OUTPUT);
    Deckhand__ServerMessage *sm = deckhand__server_message__unpack(NULL, m->mm_output->message.len,
                                                                   m->mm_output->message.data);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sm);
    CU_ASSERT_EQUAL_FATAL(sm->body_case, DECKHAND__SERVER_MESSAGE__BODY_GAMES);
    CU_ASSERT_EQUAL_FATAL(sm->games->n_games, 1);
    const Deckhand__GameDesc *d = sm->games->games[0];
    CU_ASSERT_STRING_EQUAL(d->title, "Major League Wizardry");
    CU_ASSERT_STRING_EQUAL(d->summary,
                           "Two wizards duel.\n\nReduce the enemy wizard to 0 health to win.");
    CU_ASSERT_EQUAL_FATAL(d->n_difficulties, 3);
    CU_ASSERT_STRING_EQUAL(d->difficulties[0], "easy");
    CU_ASSERT_STRING_EQUAL(d->difficulties[2], "hard");
    CU_ASSERT_FALSE(d->deck_builder);
    deckhand__server_message__free_unpacked(sm, NULL);
    deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_EQUAL(rig_mm_reply(r.gw, 4), 0);
    rig_mm_close(&r);
}

static void test_worker_decision_request_carries_verbs_and_view_the_vp_totals(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, "m-verbs", "dominion", NULL);
    const engine_decision *d = engine_match_decision(hm->m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    const char *decider = rig_worker_players[d->seat];
    rig_worker_command(&r, "m-verbs", decider, 5, NULL);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    const Deckhand__ServerMessage *dr =
        rig_outbox_find(&o, decider, DECKHAND__SERVER_MESSAGE__BODY_DECISION);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dr);
    const Deckhand__DecisionRequest *req = dr->decision;
    CU_ASSERT_FATAL(req->n_options >= 2);
    int buys = 0;
    for (size_t i = 0; i < req->n_options; i++)
        buys += !strcmp(req->options[i]->verb, "buy");
    CU_ASSERT(buys > 0);
    CU_ASSERT_STRING_EQUAL(req->options[req->n_options - 1]->verb, "end");
    const Deckhand__ServerMessage *v =
        rig_outbox_find(&o, decider, DECKHAND__SERVER_MESSAGE__BODY_VIEW);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    int vp = 0;
    for (size_t i = 0; i < v->view->n_counters; i++)
        if (!strcmp(v->view->counters[i]->name, "vp")) {
            vp++;
            CU_ASSERT_EQUAL(v->view->counters[i]->value, 3); /* three Estates each */
        }
    CU_ASSERT_EQUAL(vp, 2);
    rig_outbox_free(&o);
    rig_worker_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"worker_hello_carries_titles_summaries_difficulties_and_deck_builders",
         test_worker_hello_carries_titles_summaries_difficulties_and_deck_builders},
        {"games_reply_carries_each_games_title_summary_and_difficulties",
         test_games_reply_carries_each_games_title_summary_and_difficulties},
        {"worker_decision_request_carries_verbs_and_view_the_vp_totals",
         test_worker_decision_request_carries_verbs_and_view_the_vp_totals},
        {NULL, NULL},
    };
    return rig_worker_main("game_words_list", cases);
}
