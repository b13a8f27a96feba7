/*
 * test_play_ai.c: the match lifecycle a player sees (issue 29), on a real cluster with the
 * shipped settings (ports from 18600), through the gateway like any client: playing the AI
 * from the lobby in every game (QueueJoin.vs_ai: MatchFound at once, bots in the other
 * seats, unrated), resigning (GameOver "resigned" with the end screen's words), a rematch
 * (against the AI at once; between two players once both offered), and a whole game
 * against the AI to its end with each seat's deck on the end screen.
 */
#include "dh_test.h"
#include "rig_cluster.h"
#include "rig_player.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#define PORT_BASE     18600
#define FOUND_MAX     2000 /* ms from the join to MatchFound against the AI (no bot_fill wait) */
#define MOVES_MAX     3000 /* decisions a whole game against the AI may take */
#define GAMES_MAX     6
#define WHOLE_GAME_MS 60000 /* a whole game against the AI takes at most this long */

static const char *const games[GAMES_MAX] = {"dominion", "accession", "ascension",
                                             "caveman",  "elemental", "mlw"};

/* The last GameOver and RematchState each watched player got (owned). */
static pl_player *seen_p[2];
static Deckhand__ServerMessage *seen_over[2], *seen_rematch[2];

static void keep(Deckhand__ServerMessage **slot, const Deckhand__ServerMessage *m)
{
    if (*slot)
        deckhand__server_message__free_unpacked(*slot, NULL);
    size_t len = deckhand__server_message__get_packed_size(m);
    uint8_t buf[len ? len : 1];
    deckhand__server_message__pack(m, buf);
    *slot = deckhand__server_message__unpack(NULL, len, buf);
}

static void on_message(pl_player *p, const Deckhand__ServerMessage *m)
{
    for (int i = 0; i < 2; i++) {
        if (seen_p[i] != p)
            continue;
        if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER)
            keep(&seen_over[i], m);
        if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_REMATCH)
            keep(&seen_rematch[i], m);
    }
}

static void watch(pl_player *a, pl_player *b)
{
    for (int i = 0; i < 2; i++) {
        if (seen_over[i])
            deckhand__server_message__free_unpacked(seen_over[i], NULL);
        if (seen_rematch[i])
            deckhand__server_message__free_unpacked(seen_rematch[i], NULL);
        seen_over[i] = seen_rematch[i] = NULL;
    }
    seen_p[0] = a;
    seen_p[1] = b;
    pl_on_message = on_message;
}

/* p joins game against the AI at difficulty: the Reply's code. */
static int join_ai(pl_player *p, const char *game, const char *difficulty)
{
    Deckhand__QueueJoin j = DECKHAND__QUEUE_JOIN__INIT;
    j.game = (char *)game;
    j.vs_ai = (char *)difficulty;
    Deckhand__ClientMessage cm = DECKHAND__CLIENT_MESSAGE__INIT;
    cm.body_case = DECKHAND__CLIENT_MESSAGE__BODY_QUEUE_JOIN;
    cm.queue_join = &j;
    return pl_wait_reply(p, pl_send(p, &cm));
}

/* Pump p until its MatchFound (match_id set) and first decision: false past WAIT_MS. */
static bool wait_seated(pl_player *p)
{
    long long until = pl_now_ms() + WAIT_MS;
    while (pl_now_ms() < until && (!p->match_id[0] || !p->dec.valid))
        pl_step(p, 50);
    return p->match_id[0] && p->dec.valid;
}

/* Answer p's pending decision as the game's default bot would: the Reply's code. */
static int bot_move(pl_player *p)
{
    return pl_game_bot_answer(p, "default");
}

static int resign(pl_player *p)
{
    Deckhand__Resign r = DECKHAND__RESIGN__INIT;
    r.match_id = p->match_id;
    Deckhand__ClientMessage cm = DECKHAND__CLIENT_MESSAGE__INIT;
    cm.body_case = DECKHAND__CLIENT_MESSAGE__BODY_RESIGN;
    cm.resign = &r;
    return pl_wait_reply(p, pl_send(p, &cm));
}

static int offer_rematch(pl_player *p, const char *match_id)
{
    Deckhand__RematchOffer o = DECKHAND__REMATCH_OFFER__INIT;
    o.match_id = (char *)match_id;
    Deckhand__ClientMessage cm = DECKHAND__CLIENT_MESSAGE__INIT;
    cm.body_case = DECKHAND__CLIENT_MESSAGE__BODY_REMATCH_OFFER;
    cm.rematch_offer = &o;
    return pl_wait_reply(p, pl_send(p, &cm));
}

/* Pump ps until every watched slot i < n has a GameOver: false past WAIT_MS. */
static bool wait_over(pl_player **ps, size_t n)
{
    long long until = pl_now_ms() + WAIT_MS;
    for (;;) {
        bool all = true;
        for (size_t i = 0; i < n; i++)
            all &= seen_over[i] != NULL;
        if (all || pl_now_ms() > until)
            return all;
        pl_pump(ps, n, 50);
    }
}

/* A fresh match of p: forget the old one's id and decision. */
static void forget_match(pl_player *p)
{
    p->match_id[0] = '\0';
    p->dec.valid = false;
    p->game_over = false;
}

static void test_vs_ai_starts_at_once_in_every_game_and_resign_ends_it(void)
{
    for (int g = 0; g < GAMES_MAX; g++) {
        char name[32];
        snprintf(name, sizeof name, "Ai%d", g);
        pl_player *p = pl_login(name);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        watch(p, NULL);
        long long t0 = pl_now_ms();
        /* "normal": the easy AI answers one decision in three at random, which in MLW may
         * be its Surrender, ending the match before the resignation this test makes */
        CU_ASSERT_EQUAL_FATAL(join_ai(p, games[g], "normal"), 0);
        CU_ASSERT_TRUE_FATAL(wait_seated(p));
        long long found = pl_now_ms() - t0;
        printf("\n  %s: MatchFound and first decision against the AI in %lld ms", games[g], found);
        CU_ASSERT(found < FOUND_MAX);
        for (int k = 0; k < 3 && p->dec.valid; k++) {
            CU_ASSERT_EQUAL(bot_move(p), 0);
            pl_player *ps[1] = {p};
            for (int i = 0; i < 20 && !p->dec.valid && !p->game_over; i++)
                pl_pump(ps, 1, 50);
        }
        CU_ASSERT_EQUAL(resign(p), 0);
        pl_player *ps[1] = {p};
        CU_ASSERT_TRUE_FATAL(wait_over(ps, 1));
        const Deckhand__GameOver *go = seen_over[0]->game_over;
        CU_ASSERT_STRING_EQUAL(go->reason, "resigned");
        CU_ASSERT_EQUAL(strncmp(go->summary, name, strlen(name)), 0); /* "Ai0 (guest) resigned." */
        CU_ASSERT_PTR_NOT_NULL(strstr(go->summary, " resigned. Bot 1 wins."));
        CU_ASSERT_TRUE(go->unrated);
        CU_ASSERT_EQUAL_FATAL(go->n_results, 2);
        for (size_t i = 0; i < 2; i++)
            CU_ASSERT_EQUAL(go->results[i]->resigned, (int)go->results[i]->seat == p->seat);
        pl_on_message = NULL;
        pl_drop(p);
    }
}

static void test_vs_ai_bad_difficulty_is_refused(void)
{
    pl_player *p = pl_login("AiBad");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(join_ai(p, "dominion", "impossible"), DECKHAND__ERROR_CODE__BAD_REQUEST);
    /* a matchmaker started a moment ago says UNAVAILABLE for a game no worker reported yet */
    int code = join_ai(p, "chess", "easy");
    CU_ASSERT(code == DECKHAND__ERROR_CODE__UNKNOWN_GAME ||
              code == DECKHAND__ERROR_CODE__UNAVAILABLE);
    /* nothing was queued: a real join goes through */
    CU_ASSERT_EQUAL(join_ai(p, "dominion", "easy"), 0);
    CU_ASSERT_TRUE(wait_seated(p));
    CU_ASSERT_EQUAL(resign(p), 0);
    pl_drop(p);
}

/* Resign{match_id} with the given id: the Reply's code. */
static int resign_id(pl_player *p, const char *match_id)
{
    Deckhand__Resign r = DECKHAND__RESIGN__INIT;
    r.match_id = (char *)match_id;
    Deckhand__ClientMessage cm = DECKHAND__CLIENT_MESSAGE__INIT;
    cm.body_case = DECKHAND__CLIENT_MESSAGE__BODY_RESIGN;
    cm.resign = &r;
    return pl_wait_reply(p, pl_send(p, &cm));
}

static void test_resign_and_rematch_refuse_what_does_not_fit(void)
{
    pl_player *p = pl_login("AiOdd");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(resign_id(p, ""), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(resign_id(p, "m-0000000000000000"), DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    CU_ASSERT_EQUAL(offer_rematch(p, "m-0000000000000000"), DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    CU_ASSERT_EQUAL_FATAL(join_ai(p, "accession", "normal"), 0);
    CU_ASSERT_TRUE_FATAL(wait_seated(p));
    /* a rematch of a match still running */
    CU_ASSERT_EQUAL(offer_rematch(p, p->match_id), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(resign(p), 0);
    pl_player *ps[1] = {p};
    for (int i = 0; i < 10 && !p->game_over; i++)
        pl_pump(ps, 1, 50);
    /* the match is over: resigning again finds nothing */
    CU_ASSERT_EQUAL(resign(p), DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    pl_drop(p);
}

static void test_rematch_against_the_ai_starts_at_once(void)
{
    pl_player *p = pl_login("AiAgain");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    watch(p, NULL);
    CU_ASSERT_EQUAL_FATAL(join_ai(p, "caveman", "hard"), 0);
    CU_ASSERT_TRUE_FATAL(wait_seated(p));
    CU_ASSERT_EQUAL(resign(p), 0);
    pl_player *ps[1] = {p};
    CU_ASSERT_TRUE_FATAL(wait_over(ps, 1));
    char old[sizeof p->match_id];
    snprintf(old, sizeof old, "%s", p->match_id);
    forget_match(p);
    CU_ASSERT_EQUAL(offer_rematch(p, old), 0);
    CU_ASSERT_TRUE_FATAL(wait_seated(p));
    CU_ASSERT_STRING_NOT_EQUAL(p->match_id, old);
    CU_ASSERT_PTR_NOT_NULL_FATAL(seen_rematch[0]);
    CU_ASSERT_STRING_EQUAL(seen_rematch[0]->rematch->new_match_id, p->match_id);
    CU_ASSERT_EQUAL(resign(p), 0);
    pl_on_message = NULL;
    pl_drop(p);
}

static void test_two_players_resign_and_rematch(void)
{
    pl_player *a = NULL, *b = NULL;
    CU_ASSERT_FATAL(pl_start_match("res", &a, &b));
    watch(a, b);
    pl_player *ps[2] = {a, b};
    CU_ASSERT_EQUAL(resign(a), 0);
    CU_ASSERT_TRUE_FATAL(wait_over(ps, 2));
    for (int i = 0; i < 2; i++) {
        const Deckhand__GameOver *go = seen_over[i]->game_over;
        CU_ASSERT_STRING_EQUAL(go->reason, "resigned");
        CU_ASSERT_TRUE(go->unrated); /* two guests: no rating moves */
        CU_ASSERT_EQUAL_FATAL(go->n_results, 2);
        for (size_t k = 0; k < 2; k++) {
            bool resigner = (int)go->results[k]->seat == a->seat;
            CU_ASSERT_EQUAL(go->results[k]->rank, resigner ? 2u : 1u);
            CU_ASSERT_EQUAL(go->results[k]->resigned, resigner);
        }
    }
    char old[sizeof a->match_id];
    snprintf(old, sizeof old, "%s", a->match_id);
    forget_match(a);
    forget_match(b);
    CU_ASSERT_EQUAL(offer_rematch(a, old), 0);
    for (int i = 0; i < 10 && !seen_rematch[1]; i++)
        pl_pump(ps, 2, 50);
    CU_ASSERT_PTR_NOT_NULL_FATAL(seen_rematch[1]); /* b hears a offered */
    CU_ASSERT_EQUAL(seen_rematch[1]->rematch->n_offered, 1);
    CU_ASSERT_FALSE(b->match_id[0]);
    CU_ASSERT_EQUAL(offer_rematch(b, old), 0);
    CU_ASSERT_TRUE(wait_seated(a) || a->match_id[0]);
    for (int i = 0; i < 20 && (!a->match_id[0] || !b->match_id[0]); i++)
        pl_pump(ps, 2, 50);
    CU_ASSERT_STRING_EQUAL(a->match_id, b->match_id);
    CU_ASSERT_STRING_NOT_EQUAL(a->match_id, old);
    pl_on_message = NULL;
    pl_end_match(a, b);
}

static void test_rematch_offer_ends_when_a_player_disconnects(void)
{
    pl_player *a = NULL, *b = NULL;
    CU_ASSERT_FATAL(pl_start_match("gone", &a, &b));
    watch(a, b);
    pl_player *ps[2] = {a, b};
    CU_ASSERT_EQUAL(resign(b), 0);
    CU_ASSERT_TRUE_FATAL(wait_over(ps, 2));
    char old[sizeof a->match_id];
    snprintf(old, sizeof old, "%s", a->match_id);
    CU_ASSERT_EQUAL(offer_rematch(b, old), 0);
    pl_drop(b); /* b offered, then closed the tab: its gateway says it went away */
    seen_p[1] = NULL;
    for (int i = 0; i < 40 && !(seen_rematch[0] && seen_rematch[0]->rematch->declined); i++)
        pl_pump(ps, 1, 50);
    CU_ASSERT_PTR_NOT_NULL_FATAL(seen_rematch[0]);
    CU_ASSERT_TRUE(seen_rematch[0]->rematch->declined);
    pl_on_message = NULL;
    pl_drop(a);
}

static void test_whole_game_against_the_ai_ends_with_words_and_decks(void)
{
    pl_player *p = pl_login("AiWhole");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    watch(p, NULL);
    CU_ASSERT_EQUAL_FATAL(join_ai(p, "dominion", "normal"), 0);
    CU_ASSERT_TRUE_FATAL(wait_seated(p));
    pl_player *ps[1] = {p};
    long long t0 = pl_now_ms();
    int answers = 0;
    for (int moves = 0; moves < MOVES_MAX && !seen_over[0]; moves++) {
        CU_ASSERT_FATAL(pl_now_ms() - t0 < WHOLE_GAME_MS);
        if (p->dec.valid) {
            CU_ASSERT_EQUAL_FATAL(bot_move(p), 0);
            answers++;
        }
        for (int i = 0; i < 100 && !p->dec.valid && !seen_over[0]; i++)
            pl_pump(ps, 1, 50);
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(seen_over[0]);
    const Deckhand__GameOver *go = seen_over[0]->game_over;
    printf("\n  dominion against the AI: \"%s\" (%d answers in %lld ms, %d sent again after "
           "RATE_LIMITED)",
           go->summary, answers, pl_now_ms() - t0, pl_rate_limited);
    CU_ASSERT_STRING_EQUAL(go->reason, "");
    CU_ASSERT(strstr(go->summary, "ran out.") != NULL);
    CU_ASSERT(strstr(go->summary, " wins.") || strstr(go->summary, "share the win") ||
              strstr(go->summary, "draw"));
    CU_ASSERT_TRUE(go->unrated);
    CU_ASSERT_EQUAL_FATAL(go->n_results, 2);
    for (size_t i = 0; i < 2; i++) {
        uint32_t total = 0;
        for (size_t k = 0; k < go->results[i]->n_deck; k++)
            total += go->results[i]->deck[k]->count;
        CU_ASSERT(total >= 10);
    }
    pl_on_message = NULL;
    pl_drop(p);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"vs_ai_starts_at_once_in_every_game_and_resign_ends_it",
         test_vs_ai_starts_at_once_in_every_game_and_resign_ends_it},
        {"vs_ai_bad_difficulty_is_refused", test_vs_ai_bad_difficulty_is_refused},
        {"resign_and_rematch_refuse_what_does_not_fit",
         test_resign_and_rematch_refuse_what_does_not_fit},
        {"rematch_against_the_ai_starts_at_once", test_rematch_against_the_ai_starts_at_once},
        {"two_players_resign_and_rematch", test_two_players_resign_and_rematch},
        {"rematch_offer_ends_when_a_player_disconnects",
         test_rematch_offer_ends_when_a_player_disconnects},
        {"whole_game_against_the_ai_ends_with_words_and_decks",
         test_whole_game_against_the_ai_ends_with_words_and_decks},
        {NULL, NULL},
    };
    signal(SIGPIPE, SIG_IGN);
    if (rc_start("play_ai", PORT_BASE) != 0)
        return 1;
    return rc_finish(dh_test_main("e2e_play_ai", cases));
}
