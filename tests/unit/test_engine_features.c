/*
 * test_engine_features.c: the position log behind the fitted evaluation hints
 * (engine_features.c, engine_match_new_logged): a game's features(g) reach the
 * log at every turn boundary, one equal row per player; logging them changes nothing in
 * the match (the same final state hash); a game without features logs nothing.
 */
#include <stdio.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"
#include "rig_engine.h"

static const char *const names2[] = {"ann", "bob"};
static const char *const bots2[] = {"default", "default"};

typedef struct {
    int calls;
    uint32_t last_turn;
    size_t nf;
    int in_order; /* every turn after the one before */
} log_seen;

static void note(void *ud, uint32_t turn, const double *f, size_t nf)
{
    log_seen *s = ud;
    if (s->calls && turn <= s->last_turn)
        s->in_order = 0;
    s->calls++;
    s->last_turn = turn;
    s->nf = nf;
    (void)f;
}

/* An all-bot match of game played to its end, logged into seen when it is not NULL; its
 * final state hash, 0 when it failed. */
static uint64_t play(engine_bundle *b, const char *game, uint64_t seed, log_seen *seen)
{
    engine_match_config cfg = {.match_id = "m-features",
                               .game = game,
                               .seed = seed,
                               .nplayers = 2,
                               .names = names2,
                               .bots = bots2,
                               .quiet = true};
    engine_error err = {0};
    engine_match *m =
        seen ? engine_match_new_logged(b, &cfg, note, seen, &err) : engine_match_new(b, &cfg, &err);
    if (!m || !engine_match_finished(m)) {
        engine_match_free(m);
        return 0;
    }
    uint64_t h = engine_match_hash(m);
    engine_match_free(m);
    return h;
}

static void test_features_are_logged_at_every_turn_boundary(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    static const char *const games[] = {"dominion", "accession"};
    for (size_t g = 0; g < 2; g++) {
        log_seen seen = {.in_order = 1};
        CU_ASSERT(play(b, games[g], 7, &seen) != 0);
        CU_ASSERT(seen.calls > 20); /* a bot game lasts about 20 turns a player */
        CU_ASSERT(seen.in_order);
        CU_ASSERT_EQUAL(seen.nf, 6);
    }
    engine_bundle_free(b);
}

static void test_logging_features_changes_nothing_in_the_match(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    static const char *const games[] = {"dominion", "accession"};
    for (size_t g = 0; g < 2; g++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            log_seen seen = {.in_order = 1};
            uint64_t plain = play(b, games[g], seed, NULL);
            CU_ASSERT(plain != 0);
            CU_ASSERT_EQUAL(play(b, games[g], seed, &seen), plain);
        }
    engine_bundle_free(b);
}

static void test_game_without_features_logs_nothing(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    log_seen seen = {.in_order = 1};
    CU_ASSERT(play(b, "caveman", 3, &seen) != 0);
    CU_ASSERT_EQUAL(seen.calls, 0);
    engine_bundle_free(b);
}

static const dh_test_case cases[] = {
    {"test_features_are_logged_at_every_turn_boundary",
     test_features_are_logged_at_every_turn_boundary},
    {"test_logging_features_changes_nothing_in_the_match",
     test_logging_features_changes_nothing_in_the_match},
    {"test_game_without_features_logs_nothing", test_game_without_features_logs_nothing},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_features", cases);
}
