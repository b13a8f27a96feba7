/*
 * test_engine_search_flat.c: what makes the search bot's comparison of a deck-builder's
 * answers fair (issue 28, Accession): a game may say `search_tree = false`
 * (the search grows no tree below the root's answers: every play-out after an answer is
 * the play-out policy's, so no exploring of the seat's own later answers blurs the
 * comparison), `search_widen = false` (only the bots' answers are compared) and
 * `search_sorted_shuffle = true` (a search's world shuffles its cards sorted by name, so
 * the order they were discarded in does not decide the deck, and two answers that leave
 * the same cards share the deck in the same world); and what it plays its worlds out with:
 * a game may name that bot (`search_playout`, Accession's `strong`), else `default`.
 * engine_internal.h: the shuffle is the engine's own (engine_match_shuffle), reached on a
 * real match's zones, and the game's play-out bot is read from its engine_game.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"
#include "engine_internal.h"
#include "rig_engine.h"

static const char *const names2[] = {"ann", "bob"};

/* A two-player match of game on b, seat 1 the default bot, seat 0 the searcher; options may
 * be NULL. Fails the test when the engine refuses it. */
static engine_match *two_seats(engine_bundle *b, const char *id, const char *game, uint64_t seed,
                               const char *options)
{
    static const char *bots[] = {NULL, "default"};
    engine_match_config mc = {.match_id = id,
                              .game = game,
                              .seed = seed,
                              .nplayers = 2,
                              .names = names2,
                              .bots = bots,
                              .options = options};
    engine_match *m = rig_engine_match(b, &mc);
    CU_ASSERT_FATAL(m != NULL);
    return m;
}

/* A two-seat game of 40 turns, a shared win whatever is picked (left or right), up to its
 * bots; %s: the table's extra fields. */
#define EVEN_GAME_BUT_BOTS                                                                         \
    "return { min_players = 2, max_players = 2, %s\n"                                              \
    "  turn = function(g)\n"                                                                       \
    "    local p = g:counter('turns', 0) %% 2 + 1\n"                                               \
    "    g:add_counter('turns', 0, 1)\n"                                                           \
    "    g:choose { player = p, options = { { label = 'left' }, { label = 'right' } } }\n"         \
    "  end,\n"                                                                                     \
    "  finished = function(g) return g:counter('turns', 0) >= 40 end,\n"                           \
    "  results = function(g) return { { score = 0 }, { score = 0 } } end,\n"

/* The even game whose bots pick left. */
static const char even_game[] =
    EVEN_GAME_BUT_BOTS "  bots = { default = function() return { 1 } end } }\n";

/* The even game with two bots that disagree: `default` picks left, `other` right. */
static const char split_game[] =
    EVEN_GAME_BUT_BOTS "  bots = { default = function() return { 1 } end,\n"
                       "           other = function() return { 2 } end } }\n";

/* A two-seat game of one decision, a coin's toss after it: seat 1 wins with left on a
 * draw of 1..50, with right on 21..80; %s: the table's extra fields. In the same world
 * (the same draw) right is one win better on 51..80 and one worse on 1..20: a tenth of a
 * win better on average, with a spread that needs about 600 worlds to tell it at 5 standard
 * errors. `default` picks left, `other` right. */
static const char coin_game[] =
    "return { min_players = 2, max_players = 2, %s\n"
    "  turn = function(g)\n"
    "    g:add_counter('turns', 0, 1)\n"
    "    local a = g:choose { player = 1, options = { { label = 'left' }, { label = 'right' } } }\n"
    "    local r, lo, n = g:random(100), 1, 50\n"
    "    if a[1] == 2 then lo, n = 21, 60 end\n"
    "    g:set_counter('won', 0, (r >= lo and r < lo + n) and 1 or 2)\n"
    "  end,\n"
    "  finished = function(g) return g:counter('turns', 0) >= 1 end,\n"
    "  results = function(g) local w = g:counter('won', 0)\n"
    "    return { { score = w == 1 and 1 or 0 }, { score = w == 2 and 1 or 0 } } end,\n"
    "  bots = { default = function() return { 1 } end,\n"
    "           other = function() return { 2 } end } }\n";

/* What a search of 400 play-outs of game's first decision did, the table's extra fields
 * given; its answer (one option) into *answer. */
static engine_search_stats first_search(const char *game, const char *fields, uint32_t *answer)
{
    char dir[64], text[2048];
    snprintf(text, sizeof text, game, fields);
    engine_bundle *b = rig_engine_load_text(dir, sizeof dir, "even", text);
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = two_seats(b, "m-even", "even", 5, NULL);
    CU_ASSERT_FATAL(engine_match_decision(m) != NULL);
    engine_search_config cfg = {.iterations = 400};
    engine_search_stats st;
    uint32_t ids[4];
    size_t n = 4;
    engine_error err = {0};
    CU_ASSERT_EQUAL_FATAL(engine_search_answer(m, &cfg, ids, &n, &st, &err), ENGINE_OK);
    CU_ASSERT_EQUAL(n, 1);
    *answer = ids[0];
    engine_match_free(m);
    engine_bundle_free(b);
    rig_engine_remove_text(dir, "even");
    return st;
}

/* The even game's first search: its answer is the bot's (no answer beats it). */
static engine_search_stats even_search(const char *fields)
{
    uint32_t answer = 0;
    engine_search_stats st = first_search(even_game, fields, &answer);
    CU_ASSERT_EQUAL(answer, 1);
    return st;
}

/* A table with a bad field (fields): refused when the bundle loads. */
static void refused(const char *fields)
{
    char dir[64], text[2048];
    snprintf(text, sizeof text, even_game, fields);
    engine_bundle *b = rig_engine_load_text(dir, sizeof dir, "even", text);
    CU_ASSERT_PTR_NULL(b);
    engine_bundle_free(b);
    rig_engine_remove_text(dir, "even");
}

static void test_search_grows_no_tree_below_the_root_when_the_game_says_so(void)
{
    /* by default the tree grows below an answer tried often enough (200 tries each) */
    engine_search_stats st = even_search("");
    CU_ASSERT_EQUAL(st.iterations, 400);
    CU_ASSERT(st.nodes > 3);
    CU_ASSERT(even_search("search_tree = true,").nodes > 3);
    /* search_tree = false: the root and its two answers, nothing below */
    st = even_search("search_tree = false,");
    CU_ASSERT_EQUAL(st.iterations, 400);
    CU_ASSERT_EQUAL(st.nodes, 3);
    refused("search_tree = 1,");
}

static void test_search_compares_only_its_bots_answers_when_the_game_says_so(void)
{
    /* widened: left (the bot's) and right, 400 play-outs between them */
    CU_ASSERT_EQUAL(even_search("").iterations, 400);
    /* search_widen = false: the bots' answers only, all left: one candidate, no play-out */
    engine_search_stats st = even_search("search_widen = false,");
    CU_ASSERT_EQUAL(st.iterations, 0);
    refused("search_widen = 1,");
    refused("search_sorted_shuffle = 1,");
}

/* A game may name the bot its search plays out with and measures the other answers
 * against (`search_playout`): that bot's answer is the search's unless another beats it,
 * and in the split game, where every result is a shared win, none does. */
static void test_search_plays_out_with_the_bot_the_game_names(void)
{
    uint32_t answer = 0;
    engine_search_stats st = first_search(split_game, "search_widen = false,", &answer);
    CU_ASSERT_EQUAL(answer, 1);          /* `default`'s left */
    CU_ASSERT_EQUAL(st.iterations, 400); /* the two bots disagree: both tried */
    st = first_search(split_game, "search_widen = false, search_playout = 'other',", &answer);
    CU_ASSERT_EQUAL(answer, 2); /* `other`'s right */
    CU_ASSERT_EQUAL(st.iterations, 400);
    first_search(split_game, "search_widen = false, search_playout = 'default',", &answer);
    CU_ASSERT_EQUAL(answer, 1);
    refused("search_playout = 'nobody',");
    refused("search_playout = 1,");
    refused("search_playout = true,");
}

/* A game may name the bots whose answers its search compares (`search_bots`): in the split
 * game, `other`'s right is a candidate only while the list names it (the play-out bot's
 * answer is always one); a name that is not one of its bots, or no list, is refused. */
static void test_search_compares_only_the_bots_the_game_names(void)
{
    uint32_t answer = 0;
    engine_search_stats st =
        first_search(split_game, "search_widen = false, search_bots = { 'other' },", &answer);
    CU_ASSERT_EQUAL(st.iterations, 400); /* left and right */
    st = first_search(split_game, "search_widen = false, search_bots = {},", &answer);
    CU_ASSERT_EQUAL(st.iterations, 0); /* `default`'s left alone */
    CU_ASSERT_EQUAL(answer, 1);
    st = first_search(split_game,
                      "search_widen = false, search_playout = 'other', search_bots = {},", &answer);
    CU_ASSERT_EQUAL(st.iterations, 0); /* the play-out bot's right alone */
    CU_ASSERT_EQUAL(answer, 2);
    refused("search_bots = { 'nobody' },");
    refused("search_bots = { 1 },");
    refused("search_bots = 'default',");
}

/* A search of each of the first `decisions` decisions of a two-seat match of game (options: its
 * match options, or NULL) against `default`: its first decision, the treasures (every bot
 * plays them all), is answered with no play-out at all, however large the budget; no
 * search makes a node below the root's answers (at most nbots of them, the bots' own);
 * and some decision, where the bots disagree, is searched. */
static void flat_search_check(const char *game, const char *options, size_t nbots, int decisions)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = two_seats(b, "m-flat", game, 4, options);
    int searched = 0;
    for (int k = 0; k < decisions && engine_match_decision(m); k++) {
        const engine_decision *d = engine_match_decision(m);
        engine_search_config cfg = {.iterations = 100};
        engine_search_stats st;
        uint32_t ids[64];
        size_t n = 64;
        engine_error err = {0};
        int treasures = k == 0 && d->noptions > 1;
        CU_ASSERT_EQUAL_FATAL(engine_search_answer(m, &cfg, ids, &n, &st, &err), ENGINE_OK);
        if (treasures)
            CU_ASSERT_EQUAL(st.iterations, 0);
        CU_ASSERT(st.nodes <= 1 + nbots);
        searched += st.iterations > 0;
        CU_ASSERT_EQUAL_FATAL(engine_match_answer(m, d->seat, d->decision_id, ids, n, &err),
                              ENGINE_OK);
    }
    CU_ASSERT(searched > 0);
    engine_match_free(m);
    engine_bundle_free(b);
}

/* A game may set the bar another answer must clear to be the search's (`search_bar`: the
 * chance, at most, that one no better than the play-out bot's is chosen): in the coin
 * game right is a little better than `default`'s left, clear at the engine's bar over 400
 * play-outs, not at a bar of one in a million; anything but a number in (0, 1] is
 * refused. */
static void test_search_departs_from_its_policy_only_past_the_bar_the_game_sets(void)
{
    uint32_t answer = 0;
    engine_search_stats st = first_search(coin_game, "search_widen = false,", &answer);
    CU_ASSERT_EQUAL(answer, 2);
    CU_ASSERT_EQUAL(st.changed, 1);
    first_search(coin_game, "search_widen = false, search_bar = 0.5,", &answer);
    CU_ASSERT_EQUAL(answer, 2);
    st = first_search(coin_game, "search_widen = false, search_bar = 1e-6,", &answer);
    CU_ASSERT_EQUAL(answer, 1);
    CU_ASSERT_EQUAL(st.changed, 0);
    CU_ASSERT(st.iterations > 0); /* both tried: the bar decides, not the candidates */
    refused("search_bar = 0,");
    refused("search_bar = 1.5,");
    refused("search_bar = -0.1,");
    refused("search_bar = '0.01',");
    refused("search_bar = true,");
}

/* Accession's search (game.lua: search_tree = false, search_widen = false, search_bots)
 * compares only its play-out bot's answer (`strong`) with its endgame candidates'
 * (`greener`, `browner`: at most three), without a tree. They answer as `strong` until the
 * end nears, so the game is played to its end for a searched decision. */
static void test_accession_search_compares_strong_with_its_endgame_candidates_only(void)
{
    flat_search_check("accession", NULL, 3, 2000);
}

/* Dominion's search does the same (game.lua), on a random kingdom too: the bots it compares
 * are `default` and the seven its `search_bots` names (dominion/bots.lua, bots.SEARCH). */
static void test_dominion_search_compares_only_its_bots_answers_without_a_tree(void)
{
    flat_search_check("dominion", NULL, 8, 30);
    flat_search_check("dominion", "kingdom=random", 8, 30);
}

/* Accession's search plays its worlds out with its own `strong` bot (game.lua,
 * accession/bots.lua), which beats `default`, not with `default`, its mirror. */
static void test_accession_search_plays_out_with_its_strong_bot(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = two_seats(b, "m-strong", "accession", 4, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m->game->search_playout);
    CU_ASSERT_STRING_EQUAL(m->game->search_playout, "strong");
    engine_match_free(m);
    engine_bundle_free(b);
}

/* Elemental's search departs from its policy (`default`) on a stricter bar than the
 * engine's (game.lua: search_bar), MLW's on the engine's own, Accession's (among `strong`
 * and its two endgame candidates) on a looser one. */
static void test_elemental_search_departs_from_its_policy_only_on_a_clear_margin(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = two_seats(b, "m-bar", "elemental", 4, NULL);
    CU_ASSERT(m->game->search_bar > 0 && m->game->search_bar < 0.01);
    engine_match_free(m);
    m = two_seats(b, "m-bar-mlw", "mlw", 4, NULL);
    CU_ASSERT_EQUAL(m->game->search_bar, 0);
    engine_match_free(m);
    m = two_seats(b, "m-bar-accession", "accession", 4, NULL);
    CU_ASSERT(m->game->search_bar > 0.1 && m->game->search_bar <= 1);
    engine_match_free(m);
    engine_bundle_free(b);
}

/* An Accession match's first player's deck zone with at least n cards, or NULL. */
static engine_zone *a_deck(engine_match *m, uint32_t n)
{
    for (uint32_t zi = 0; zi < m->st.nzones; zi++) {
        engine_zone *z = &m->st.zones[zi];
        if (z->owner == 1 && z->n >= n)
            return z;
    }
    return NULL;
}

/* z's card names after one shuffle with the generator at rng, its cards first laid out as
 * ids (n of them); names[] receives the names' ids. */
static void shuffled_names(engine_match *m, engine_zone *z, const uint32_t *ids, uint32_t n,
                           const uint64_t *rng, uint32_t *names)
{
    memcpy(z->ids, ids, n * sizeof *ids);
    memcpy(m->st.rng, rng, sizeof m->st.rng);
    engine_match_shuffle(m, z);
    for (uint32_t i = 0; i < n; i++)
        names[i] = m->st.ents[z->ids[i] - 1].name;
}

static void test_a_search_world_shuffles_the_same_cards_to_the_same_deck_in_any_order(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = two_seats(b, "m-shuffle", "accession", 9, NULL);
    engine_zone *z = a_deck(m, 5); /* the deck: 7 Copper and 3 Estate less the hand */
    CU_ASSERT_FATAL(z != NULL);
    uint32_t n = z->n, ids[64], rev[64], a[64] = {0}, r[64] = {0};
    CU_ASSERT_FATAL(n <= 64);
    memcpy(ids, z->ids, n * sizeof *ids);
    for (uint32_t i = 0; i < n; i++)
        rev[i] = ids[n - 1 - i];
    uint64_t rng[4];
    memcpy(rng, m->st.rng, sizeof rng);
    int differs = 0;
    for (uint32_t i = 0; i < n; i++)
        differs |= m->st.ents[ids[i] - 1].name != m->st.ents[rev[i] - 1].name;
    CU_ASSERT_FATAL(differs); /* the two layouts hold the same cards in other orders */
    /* the rules' shuffle: the layout decides the deck (same generator, other names) */
    m->canonical_shuffle = 0;
    shuffled_names(m, z, ids, n, rng, a);
    shuffled_names(m, z, rev, n, rng, r);
    CU_ASSERT(memcmp(a, r, n * sizeof *a) != 0);
    /* a search world's: the same cards give the same deck, however they lay */
    m->canonical_shuffle = 1;
    shuffled_names(m, z, ids, n, rng, a);
    shuffled_names(m, z, rev, n, rng, r);
    CU_ASSERT_EQUAL(memcmp(a, r, n * sizeof *a), 0);
    engine_match_free(m);
    engine_bundle_free(b);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"search_grows_no_tree_below_the_root_when_the_game_says_so",
         test_search_grows_no_tree_below_the_root_when_the_game_says_so},
        {"search_compares_only_its_bots_answers_when_the_game_says_so",
         test_search_compares_only_its_bots_answers_when_the_game_says_so},
        {"search_plays_out_with_the_bot_the_game_names",
         test_search_plays_out_with_the_bot_the_game_names},
        {"search_compares_only_the_bots_the_game_names",
         test_search_compares_only_the_bots_the_game_names},
        {"search_departs_from_its_policy_only_past_the_bar_the_game_sets",
         test_search_departs_from_its_policy_only_past_the_bar_the_game_sets},
        {"elemental_search_departs_from_its_policy_only_on_a_clear_margin",
         test_elemental_search_departs_from_its_policy_only_on_a_clear_margin},
        {"accession_search_compares_strong_with_its_endgame_candidates_only",
         test_accession_search_compares_strong_with_its_endgame_candidates_only},
        {"dominion_search_compares_only_its_bots_answers_without_a_tree",
         test_dominion_search_compares_only_its_bots_answers_without_a_tree},
        {"accession_search_plays_out_with_its_strong_bot",
         test_accession_search_plays_out_with_its_strong_bot},
        {"a_search_world_shuffles_the_same_cards_to_the_same_deck_in_any_order",
         test_a_search_world_shuffles_the_same_cards_to_the_same_deck_in_any_order},
        {NULL, NULL},
    };
    return dh_test_main("engine_search_flat", cases);
}
