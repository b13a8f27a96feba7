/*
 * test_engine_end.c: the end screen's data the engine gives (engine_end.c): the rules'
 * own words for how a match ended (each shipped game's `summary(g)`) and each seat's deck
 * (the game's `deck_zones`), on whole matches of the shipped games played by their bots.
 */
#include <string.h>

#include "dh_test.h"
#include "rig_engine.h"

static const char *const names2[] = {"Ann", "Bob"};
static const char *const bots2[] = {"default", "default"};

/* A whole match of game between two default bots. */
static engine_match *played(engine_bundle *b, const char *game, uint64_t seed)
{
    engine_match_config cfg = {.match_id = "m-end",
                               .game = game,
                               .seed = seed,
                               .nplayers = 2,
                               .names = names2,
                               .bots = bots2};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m != NULL);
    CU_ASSERT_FATAL(engine_match_finished(m));
    return m;
}

static void test_deck_builders_say_which_piles_ran_out(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    static const char *const games[] = {"dominion", "accession"};
    for (size_t g = 0; g < 2; g++) {
        engine_match *m = played(b, games[g], 3);
        const char *s = engine_match_end_summary(m);
        CU_ASSERT(!strcmp(s, "The Provinces ran out.") ||
                  !strcmp(s, "Three Supply piles ran out."));
        engine_match_free(m);
    }
    engine_match *m = played(b, "ascension", 3);
    const char *s = engine_match_end_summary(m);
    CU_ASSERT(!strcmp(s, "The Honour pool ran out.") ||
              !strcmp(s, "The centre row could not be refilled."));
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_board_games_say_whose_leader_fell(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    static const char *const games[] = {"elemental", "mlw", "caveman"};
    static const char *const fell[] = {"'s hero fell.", "'s wizard fell.", " was knocked out."};
    for (size_t g = 0; g < 3; g++) {
        engine_match *m = played(b, games[g], 5);
        engine_result res[2];
        CU_ASSERT_EQUAL_FATAL(engine_match_results(m, res, 2), 2);
        const char *s = engine_match_end_summary(m);
        /* a clear loser: its leader fell, and the words name it */
        if (res[0].rank != res[1].rank && !engine_match_turn_capped(m)) {
            const char *loser = res[0].rank > res[1].rank ? "Ann" : "Bob";
            CU_ASSERT_EQUAL(strncmp(s, loser, 3), 0);
            CU_ASSERT_PTR_NOT_NULL(strstr(s, fell[g]));
        }
        CU_ASSERT(strlen(s) > 0 || engine_match_turn_capped(m));
        engine_match_free(m);
    }
    engine_bundle_free(b);
}

static void test_deck_counts_every_card_a_seat_owns(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = played(b, "dominion", 7);
    engine_deck_count deck[128];
    for (int seat = 0; seat < 2; seat++) {
        size_t n = engine_match_deck(m, seat, deck, 128);
        CU_ASSERT_FATAL(n > 0);
        uint32_t total = 0;
        bool copper = false;
        for (size_t i = 0; i < n; i++) {
            total += deck[i].count;
            copper |= !strcmp(deck[i].card, "Copper");
            if (i)
                CU_ASSERT(strcmp(deck[i - 1].card, deck[i].card) < 0); /* by name, once each */
        }
        CU_ASSERT(copper);
        CU_ASSERT(total >= 10); /* the starting ten, and what was bought */
    }
    CU_ASSERT_EQUAL(engine_match_deck(m, 2, deck, 128), 0);
    engine_match_free(m);
    m = played(b, "elemental", 7); /* a board game: no deck on its end screen */
    CU_ASSERT_EQUAL(engine_match_deck(m, 0, deck, 128), 0);
    engine_match_free(m);
    engine_bundle_free(b);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"deck_builders_say_which_piles_ran_out", test_deck_builders_say_which_piles_ran_out},
        {"board_games_say_whose_leader_fell", test_board_games_say_whose_leader_fell},
        {"deck_counts_every_card_a_seat_owns", test_deck_counts_every_card_a_seat_owns},
        {NULL, NULL},
    };
    return dh_test_main("engine_end", cases);
}
