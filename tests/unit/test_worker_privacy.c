/*
 * test_worker_privacy.c: what the pattern of a seat's messages tells it (worker/out/out_view.c).
 * The content of every message is the engine's view of the seat; these cases pin that the
 * sequence (which messages, how many, of which kinds) depends only on what the seat may
 * see too: a Ward declined in the other player's hand (the Militia/Moat pattern of issue
 * 12, case 8, on the fixture bundle tests/fixtures/raid) sends the raider nothing a hand
 * without a Ward would not. And each seat's View tells whether the other players are
 * connected (issue 12, case 12).
 */
#include <stdio.h>
#include <string.h>

#include "dh_test.h"
#include "host.h"
#include "rig_worker.h"

/* One letter per message kind, for comparing sequences. */
static char kind_letter(int body)
{
    switch (body) {
    case DECKHAND__SERVER_MESSAGE__BODY_REPLY:
        return 'R';
    case DECKHAND__SERVER_MESSAGE__BODY_EVENT:
        return 'E';
    case DECKHAND__SERVER_MESSAGE__BODY_VIEW:
        return 'V';
    case DECKHAND__SERVER_MESSAGE__BODY_VIEW_DELTA:
        return 'd';
    case DECKHAND__SERVER_MESSAGE__BODY_DECISION:
        return 'Q';
    case DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER:
        return 'G';
    case DECKHAND__SERVER_MESSAGE__BODY_CATALOG:
        return 'C';
    default:
        return '?';
    }
}

/* Play game to its end with legal (first-option) answers and write the kinds of messages
 * each seat received, one string per seat, steps separated by '|'. */
static void play_recording(const char *game, char seq[2][512])
{
    rig_worker r;
    rig_worker_open(&r, "tests/fixtures/raid", NULL);
    host_match *hm = rig_worker_started(&r, "m-raid", game, NULL);
    size_t at[2] = {0, 0};
    uint64_t cmd = 1;
    for (int step = 0; step < 50 && (hm = host_find(&r.h, "m-raid")); step++) {
        CU_ASSERT_TRUE_FATAL(rig_worker_answer(&r, hm, cmd++));
        host_flush(&r.h, r.now);
        rig_outbox o;
        rig_worker_gw_drain(&r, &o);
        for (size_t i = 0; i < o.n; i++) {
            int p = !strcmp(o.player[i], rig_worker_players[1]);
            if (at[p] + 2 < 512)
                seq[p][at[p]++] = kind_letter(o.msg[i]->body_case);
        }
        for (int p = 0; p < 2; p++)
            if (at[p] + 2 < 512)
                seq[p][at[p]++] = '|';
        rig_outbox_free(&o);
    }
    seq[0][at[0]] = seq[1][at[1]] = '\0';
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-raid")); /* played to its end */
    rig_worker_close(&r);
}

/* Drop the step marks: the raider's answers come at different steps when the other seat
 * is asked one more question, which it cannot see; what it receives must not differ. */
static void squeeze(const char *in, char *out)
{
    for (; *in; in++)
        if (*in != '|')
            *out++ = *in;
    *out = '\0';
}

static void test_worker_declined_ward_sends_the_raider_nothing_more(void)
{
    char ward[2][512], plain[2][512], a[512], b[512];
    play_recording("raid", ward);
    play_recording("raid_plain", plain);
    squeeze(ward[0], a);
    squeeze(plain[0], b);
    printf("\n  raider, Ward declined: %s\n  raider, no Ward:       %s\n", ward[0], plain[0]);
    CU_ASSERT_STRING_EQUAL(a, b);
    /* the defender was asked one more question, and sees its own answer */
    CU_ASSERT_STRING_NOT_EQUAL(ward[1], plain[1]);
}

static const Deckhand__PlayerInfo *player_of(const Deckhand__View *v, unsigned seat)
{
    for (size_t i = 0; i < v->n_players; i++)
        if (v->players[i]->seat == seat)
            return v->players[i];
    return NULL;
}

/* The View a Resync of player p gets. */
static const Deckhand__ServerMessage *resync_view(rig_worker *r, rig_outbox *o, int p, uint64_t cmd)
{
    rig_worker_command(r, "m-conn", rig_worker_players[p], cmd, NULL);
    rig_worker_gw_drain(r, o);
    return rig_outbox_find(o, rig_worker_players[p], DECKHAND__SERVER_MESSAGE__BODY_VIEW);
}

static void test_worker_view_shows_an_away_player_as_not_connected(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    rig_worker_started_away(&r, "m-conn", 60000, "bot");
    rig_outbox o;
    const Deckhand__ServerMessage *v = resync_view(&r, &o, 0, 10);
    CU_ASSERT_TRUE_FATAL(v && player_of(v->view, 0) && player_of(v->view, 1));
    CU_ASSERT_TRUE(player_of(v->view, 0)->connected);
    CU_ASSERT_TRUE(player_of(v->view, 1)->connected);
    rig_outbox_free(&o);

    rig_worker_away_via(&r, "gw-t", "m-conn", rig_worker_players[1]);
    v = resync_view(&r, &o, 0, 11);
    CU_ASSERT_TRUE_FATAL(v && player_of(v->view, 1));
    CU_ASSERT_FALSE(player_of(v->view, 1)->connected);
    CU_ASSERT_TRUE(player_of(v->view, 0)->connected);
    rig_outbox_free(&o);

    rig_worker_command(&r, "m-conn", rig_worker_players[1], 0, NULL); /* back */
    v = resync_view(&r, &o, 0, 12);
    CU_ASSERT_TRUE_FATAL(v && player_of(v->view, 1));
    CU_ASSERT_TRUE(player_of(v->view, 1)->connected);
    rig_outbox_free(&o);
    rig_worker_close_drained(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"worker_declined_ward_sends_the_raider_nothing_more",
         test_worker_declined_ward_sends_the_raider_nothing_more},
        {"worker_view_shows_an_away_player_as_not_connected",
         test_worker_view_shows_an_away_player_as_not_connected},
        {NULL, NULL},
    };
    return rig_worker_main("worker_privacy", cases);
}
