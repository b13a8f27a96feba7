/*
 * test_engine_search.c: the search bot (engine_search.c) on the real bundles. Its answers
 * are legal and finish a whole match of every game; it answers from what its seat can see
 * only (two matches that differ only in the opponent's hidden cards get the same answer,
 * after the same work); it is deterministic without a time budget; it only reads the
 * match; a game's evaluation hint cuts its play-outs short, scores them, and so steers
 * the answer, and a hint outside 0..1 scores nothing; every answer's play-outs are cut
 * at the same turn; it prefers a sooner win and stops
 * once one answer is clearly ahead; a copy started from the snapshot
 * parsed once plays as one restored from its bytes. (The worker's route for Choose.bot =
 * "search": test_worker_bot_answer.c.)
 *
 * It includes engine_internal.h to build the twin with other hidden cards: the public API
 * cannot make two matches that look the same to one seat.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"
#include "engine_internal.h"
#include "rig_engine.h"

#define ITERATIONS 6

static const char *const names2[] = {"ann", "bob"};

/* A two-seat match of game: seat 0 decides (the search), seat 1 is bot (inline). */
static engine_match *match_vs(engine_bundle *b, const char *game, const char *bot, uint64_t seed)
{
    const char *bots[] = {NULL, bot};
    engine_match_config cfg = {.match_id = "m-search",
                               .game = game,
                               .seed = seed,
                               .nplayers = 2,
                               .names = names2,
                               .bots = bots};
    return rig_engine_match(b, &cfg);
}

static engine_code search(const engine_match *m, uint32_t *ids, size_t *n, engine_search_stats *st)
{
    engine_search_config cfg = {.iterations = ITERATIONS};
    engine_error err = {0};
    engine_code c = engine_search_answer(m, &cfg, ids, n, st, &err);
    if (c != ENGINE_OK)
        fprintf(stderr, "search: %s\n", err.message);
    return c;
}

static void test_search_plays_every_game_to_its_end(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    static const char *const games[] = {"dominion", "accession", "ascension", "caveman"};
    for (size_t g = 0; g < sizeof games / sizeof *games; g++) {
        engine_match *m = match_vs(b, games[g], "default", 5);
        CU_ASSERT_FATAL(m != NULL);
        int answers = 0;
        const engine_decision *d;
        while ((d = engine_match_decision(m)) && answers < 3000) {
            uint32_t ids[256];
            size_t n = 256;
            engine_search_stats st;
            CU_ASSERT_EQUAL_FATAL(search(m, ids, &n, &st), ENGINE_OK);
            /* every candidate searched, or a lone one (all the bots agree) answered as is;
               with five candidates or more (Accession's endgame ones) sequential halving's
               second round of a budget of ITERATIONS may be too small to share, and the
               search then ends with a play-out or two unspent */
            if (st.nodes == 2)
                CU_ASSERT_EQUAL(st.iterations, 0);
            if (st.nodes > 2)
                CU_ASSERT(st.iterations >= st.nodes - 1 && st.iterations <= ITERATIONS);
            if (st.nodes > 2 && st.nodes <= 5)
                CU_ASSERT_EQUAL(st.iterations, ITERATIONS);
            CU_ASSERT(st.nodes > 1);
            engine_error err;
            CU_ASSERT_EQUAL_FATAL(engine_match_answer(m, d->seat, d->decision_id, ids, n, &err),
                                  ENGINE_OK);
            answers++;
        }
        CU_ASSERT(engine_match_finished(m));
        CU_ASSERT(!engine_match_turn_capped(m));
        fprintf(stderr, "%s: %d searched answers\n", games[g], answers);
        engine_match_free(m);
    }
    engine_bundle_free(b);
}

/* The first entity of the zone (name, owner), or 0. */
static uint32_t first_in(engine_match *m, const char *zone, int owner)
{
    for (uint32_t zi = 0; zi < m->st.nzones; zi++) {
        const engine_zone *z = &m->st.zones[zi];
        if (z->owner == owner && z->n && !strcmp(m->b->names.v[z->name].s, zone))
            return z->ids[0];
    }
    return 0;
}

/* The seat's View, packed: what it can see. */
static uint8_t *packed_view(const engine_match *m, int seat, size_t *len)
{
    Deckhand__View *v = engine_match_view(m, seat);
    CU_ASSERT_FATAL(v != NULL);
    *len = deckhand__view__get_packed_size(v);
    uint8_t *p = malloc(*len ? *len : 1);
    CU_ASSERT_FATAL(p != NULL);
    deckhand__view__pack(v, p);
    engine_view_free(v);
    return p;
}

static void test_search_answers_from_what_its_seat_sees_only(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *a = match_vs(b, "dominion", "big_money", 9);
    CU_ASSERT_FATAL(a != NULL);
    CU_ASSERT_EQUAL_FATAL(engine_match_decision(a)->seat, 0);
    CU_ASSERT_EQUAL_FATAL(engine_match_log_len(a), 0); /* at a turn boundary */
    /* The twin: the same snapshot, then a card of the opponent's hand and a card of their
       deck with another name change places. */
    size_t len;
    const uint8_t *snap = engine_match_snapshot(a, &len);
    const char *bots[] = {NULL, "big_money"};
    engine_match_config cfg = {
        .match_id = "m-search", .game = "dominion", .nplayers = 2, .names = names2, .bots = bots};
    engine_error err = {0};
    engine_match *t = engine_match_restore(b, &cfg, snap, len, NULL, 0, &err);
    CU_ASSERT_FATAL(t != NULL);
    uint32_t in_hand = first_in(t, "hand", 2), in_deck = 0;
    for (uint32_t zi = 0; zi < t->st.nzones && in_hand; zi++) {
        const engine_zone *z = &t->st.zones[zi];
        if (z->owner != 2 || strcmp(b->names.v[z->name].s, "deck"))
            continue;
        for (uint32_t i = 0; i < z->n && !in_deck; i++)
            if (t->st.ents[z->ids[i] - 1].name != t->st.ents[in_hand - 1].name)
                in_deck = z->ids[i];
    }
    CU_ASSERT_FATAL(in_hand && in_deck);
    uint32_t x = t->st.ents[in_hand - 1].name;
    t->st.ents[in_hand - 1].name = t->st.ents[in_deck - 1].name;
    t->st.ents[in_deck - 1].name = x;
    CU_ASSERT_FATAL(engine_state_save(&t->st, &b->names, &t->snap) == 0);
    CU_ASSERT_NOT_EQUAL(engine_match_hash(a), engine_match_hash(t)); /* other hidden cards */
    size_t la, lt;
    uint8_t *va = packed_view(a, 0, &la), *vt = packed_view(t, 0, &lt);
    CU_ASSERT_FATAL(la == lt && !memcmp(va, vt, la)); /* the same to seat 0 */
    free(va);
    free(vt);
    uint32_t ia[256], it[256];
    size_t na = 256, nt = 256;
    engine_search_stats sa, st;
    CU_ASSERT_EQUAL_FATAL(search(a, ia, &na, &sa), ENGINE_OK);
    CU_ASSERT_EQUAL_FATAL(search(t, it, &nt, &st), ENGINE_OK);
    CU_ASSERT_EQUAL(na, nt);
    CU_ASSERT(na == nt && !memcmp(ia, it, na * sizeof *ia));
    /* the same work, choice by choice: every copy was the same world */
    CU_ASSERT_EQUAL(sa.nodes, st.nodes);
    CU_ASSERT_EQUAL(sa.choices, st.choices);
    engine_match_free(a);
    engine_match_free(t);
    engine_bundle_free(b);
}

static void test_search_is_deterministic_and_only_reads_the_match(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = match_vs(b, "caveman", "default", 3);
    CU_ASSERT_FATAL(m != NULL);
    uint64_t h = engine_match_hash(m);
    uint32_t i1[256], i2[256];
    size_t n1 = 256, n2 = 256;
    engine_search_stats s1, s2;
    CU_ASSERT_EQUAL_FATAL(search(m, i1, &n1, &s1), ENGINE_OK);
    CU_ASSERT_EQUAL(engine_match_hash(m), h);
    CU_ASSERT_EQUAL_FATAL(search(m, i2, &n2, &s2), ENGINE_OK);
    CU_ASSERT(n1 == n2 && !memcmp(i1, i2, n1 * sizeof *i1));
    CU_ASSERT_EQUAL(s1.choices, s2.choices);
    /* only the hosts route the name "search" to it: the engine's Lua bots do not know it */
    uint32_t i3[256];
    size_t n3 = 256;
    engine_error err;
    CU_ASSERT_EQUAL(engine_match_bot_answer(m, ENGINE_SEARCH_BOT, i3, &n3, &err),
                    ENGINE_BAD_REQUEST);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_search_needs_a_pending_decision(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    static const char *const all_bots[] = {"default", "default"};
    engine_match_config cfg = {.match_id = "m-done",
                               .game = "caveman",
                               .seed = 1,
                               .nplayers = 2,
                               .names = names2,
                               .bots = all_bots};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m && engine_match_finished(m));
    uint32_t ids[8];
    size_t n = 8;
    engine_error err;
    CU_ASSERT_EQUAL(engine_search_answer(m, NULL, ids, &n, NULL, &err), ENGINE_BAD_REQUEST);
    engine_match_free(m);
    engine_bundle_free(b);
}

/* A two-seat game of 40 turns that always ends in a shared win, whatever is chosen: each
 * turn its player picks left (1) or right (2); the counter "right" of a player says
 * whether its first pick was right. Its evaluation hint (the text given) says who is ahead; the
 * bots answer left. */
static const char hint_game[] =
    "return { min_players = 2, max_players = 2,\n"
    "  turn = function(g)\n"
    "    local p = g:counter('turns', 0) %% 2 + 1\n"
    "    g:add_counter('turns', 0, 1)\n"
    "    local a = g:choose { player = p, options = { { label = 'left' }, { label = 'right' } } }\n"
    "    if a[1] == 2 and g:counter('turns', 0) <= 2 then g:add_counter('right', p, 1) end\n"
    "  end,\n"
    "  finished = function(g) return g:counter('turns', 0) >= 40 end,\n"
    "  results = function(g) return { { score = 0 }, { score = 0 } } end,\n"
    "  evaluate = function(g) %s end,\n"
    "  bots = { default = function() return { 1 } end } }\n";

/* The hint game with its evaluation hint's body in a temporary bundle. */
static engine_bundle *hint_bundle(char *dir, size_t cap, const char *hint)
{
    char text[2048];
    snprintf(text, sizeof text, hint_game, hint);
    return rig_engine_load_text(dir, cap, "hint", text);
}

/* The search's answer (an option id) to the first decision of a hint game, seat 1 the
 * default bot, with play-outs of depth turns. */
static uint32_t hint_answer(engine_bundle *b, int32_t depth, engine_search_stats *st)
{
    const char *bots[] = {NULL, "default"};
    engine_match_config mc = {.match_id = "m-hint",
                              .game = "hint",
                              .seed = 3,
                              .nplayers = 2,
                              .names = names2,
                              .bots = bots};
    engine_match *m = rig_engine_match(b, &mc);
    CU_ASSERT_FATAL(m != NULL && engine_match_decision(m) != NULL);
    engine_search_config cfg = {.iterations = 40, .depth = depth};
    uint32_t ids[4];
    size_t n = 4;
    engine_error err = {0};
    CU_ASSERT_EQUAL_FATAL(engine_search_answer(m, &cfg, ids, &n, st, &err), ENGINE_OK);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    engine_match_free(m);
    return ids[0];
}

static void test_search_cuts_play_outs_short_and_follows_the_evaluation_hint(void)
{
    char dir[64];
    /* the player with more rights is ahead */
    engine_bundle *b = hint_bundle(dir, sizeof dir,
                                   "local a, b = g:counter('right', 1), g:counter('right', 2)\n"
                                   "    if a == b then return { 0.5, 0.5 } end\n"
                                   "    return a > b and { 0.9, 0.1 } or { 0.1, 0.9 }");
    CU_ASSERT_FATAL(b != NULL);
    engine_search_stats st;
    /* played to the end, every answer ties: the bot's own (left) stays */
    CU_ASSERT_EQUAL(hint_answer(b, -1, &st), 1);
    CU_ASSERT_EQUAL(st.evaluated, 0);
    uint64_t full = st.choices;
    /* cut after 4 turns and scored by the hint: right is better, and is found */
    CU_ASSERT_EQUAL(hint_answer(b, 4, &st), 2);
    CU_ASSERT_EQUAL(st.evaluated, st.iterations);
    CU_ASSERT_EQUAL(st.failed, 0);
    /* play-outs of 4 turns after the tree's steps instead of all 40 */
    CU_ASSERT(st.choices * 2 < full);
    engine_bundle_free(b);
    rig_engine_remove_text(dir, "hint");
}

/* The hint game (its hint: even) with `search_depth = depth` in its table. */
static engine_bundle *depth_bundle(char *dir, size_t cap, int depth)
{
    char hint[2048], text[2100];
    snprintf(hint, sizeof hint, hint_game, "return { 0.5, 0.5 }");
    snprintf(text, sizeof text, "return { search_depth = %d, %s", depth,
             hint + strlen("return { "));
    return rig_engine_load_text(dir, cap, "hint", text);
}

static void test_search_plays_out_as_deep_as_the_game_says(void)
{
    char dir[64];
    engine_search_stats st;
    /* search_depth = 0: to the end, the hint never asked */
    engine_bundle *b = depth_bundle(dir, sizeof dir, 0);
    CU_ASSERT_FATAL(b != NULL);
    hint_answer(b, 0, &st);
    CU_ASSERT(st.iterations > 0);
    CU_ASSERT_EQUAL(st.evaluated, 0);
    engine_bundle_free(b);
    rig_engine_remove_text(dir, "hint");
    /* search_depth = 4: every play-out cut short, unless the caller says to the end */
    b = depth_bundle(dir, sizeof dir, 4);
    CU_ASSERT_FATAL(b != NULL);
    hint_answer(b, 0, &st);
    CU_ASSERT_EQUAL(st.evaluated, st.iterations);
    hint_answer(b, -1, &st);
    CU_ASSERT_EQUAL(st.evaluated, 0);
    engine_bundle_free(b);
    rig_engine_remove_text(dir, "hint");
    /* a negative one is refused when the bundle loads */
    b = depth_bundle(dir, sizeof dir, -1);
    CU_ASSERT_PTR_NULL(b);
    engine_bundle_free(b);
    rig_engine_remove_text(dir, "hint");
}

/* The one answer the search gives, with cfg, to seat 0's first decision in the text game
 * name against bot (seed 3); the search's statistics into *st. */
static uint32_t search_text_game(const char *name, const char *text, const char *bot,
                                 const engine_search_config *cfg, engine_search_stats *st)
{
    char dir[64];
    engine_bundle *b = rig_engine_load_text(dir, sizeof dir, name, text);
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = match_vs(b, name, bot, 3);
    CU_ASSERT_FATAL(m != NULL && engine_match_decision(m) != NULL);
    uint32_t ids[4];
    size_t n = 4;
    engine_error err = {0};
    CU_ASSERT_EQUAL_FATAL(engine_search_answer(m, cfg, ids, &n, st, &err), ENGINE_OK);
    CU_ASSERT_EQUAL(n, 1);
    engine_match_free(m);
    engine_bundle_free(b);
    rig_engine_remove_text(dir, name);
    return ids[0];
}

/* A two-seat game of 40 turns that always ends in a shared win: in each of its turns a
 * player may build up to twice (option 2), or end the turn (option 1); the hint counts
 * builds. The default bot ends its first turn at once and builds in every later one;
 * `idle` never builds. */
static const char tempo_game[] =
    "return { min_players = 2, max_players = 2,\n"
    "  turn = function(g)\n"
    "    local p = g:counter('turns', 0) % 2 + 1\n"
    "    g:add_counter('turns', 0, 1)\n"
    "    for _ = 1, 2 do\n"
    "      local a = g:choose { player = p, options = { { label = 'end' }, { label = 'build' } } "
    "}\n"
    "      if a[1] == 1 then return end\n"
    "      g:add_counter('built', p, 1)\n"
    "    end\n"
    "  end,\n"
    "  finished = function(g) return g:counter('turns', 0) >= 40 end,\n"
    "  results = function(g) return { { score = 0 }, { score = 0 } } end,\n"
    "  evaluate = function(g) local d = g:counter('built', 1) - g:counter('built', 2)\n"
    "    return { 0.5 + d / 20, 0.5 - d / 20 } end,\n"
    "  bots = { default = function(g) return { g:counter('turns', 0) <= 1 and 1 or 2 } end,\n"
    "           idle = function() return { 1 } end } }\n";

/* Every answer's play-outs stop at the same turn, counted from the searched decision's:
 * ending the turn does not buy its play-outs more turns of the seat's own before the hint
 * scores them. Here building now is worth one build more than ending the turn; with the
 * cut counted from where each play-out starts, ending the turn (the bot's own answer)
 * would have scored a whole turn of builds more, against an opponent who never builds. */
static void test_search_cuts_every_answer_s_play_outs_at_the_same_turn(void)
{
    engine_search_config cfg = {.iterations = 40, .depth = 2};
    engine_search_stats st;
    /* build, though the bot's own answer ends the turn */
    CU_ASSERT_EQUAL(search_text_game("tempo", tempo_game, "idle", &cfg, &st), 2);
    CU_ASSERT_EQUAL(st.evaluated, st.iterations);
}

/* A two-seat game seat 1 wins whatever is chosen, with the same scores: each turn its
 * player picks slow (1) or fast (2); seat 1's first pick of fast ends the game after the
 * second turn, else it lasts 40 turns. The bots pick slow. */
static const char race_game[] =
    "return { min_players = 2, max_players = 2,\n"
    "  turn = function(g)\n"
    "    local p = g:counter('turns', 0) % 2 + 1\n"
    "    g:add_counter('turns', 0, 1)\n"
    "    local a = g:choose { player = p, options = { { label = 'slow' }, { label = 'fast' } } }\n"
    "    if a[1] == 2 and g:counter('turns', 0) == 1 then g:set_counter('fast', 0, 1) end\n"
    "  end,\n"
    "  finished = function(g) local t = g:counter('turns', 0)\n"
    "    return t >= 40 or (t >= 2 and g:counter('fast', 0) == 1) end,\n"
    "  results = function(g) return { { score = 1 }, { score = 0 } } end,\n"
    "  bots = { default = function() return { 1 } end } }\n";

/* The search prefers a sooner win (the same win, the same scores, 38 turns earlier), and
 * an answer this far ahead in every world ends the search early (the stopping rule). */
static void test_search_prefers_a_sooner_win_and_stops_once_clearly_ahead(void)
{
    engine_search_config cfg = {.iterations = 400, .depth = -1};
    engine_search_stats st;
    /* fast, though the bot's own answer is slow */
    CU_ASSERT_EQUAL(search_text_game("race", race_game, "default", &cfg, &st), 2);
    CU_ASSERT_EQUAL(st.stopped, 1);
    CU_ASSERT(st.iterations < cfg.iterations / 4);
}

static void test_search_scores_nothing_with_a_hint_outside_0_to_1(void)
{
    char dir[64];
    engine_bundle *b = hint_bundle(dir, sizeof dir, "return { 2, 0 }");
    CU_ASSERT_FATAL(b != NULL);
    engine_search_stats st;
    CU_ASSERT_EQUAL(hint_answer(b, 4, &st), 1); /* no evidence: the bot's own answer */
    CU_ASSERT_EQUAL(st.evaluated, 0);
    CU_ASSERT_EQUAL(st.failed, st.iterations);
    engine_bundle_free(b);
    rig_engine_remove_text(dir, "hint");
}

/* Plays m to its end, every decision answered by the "default" bot; the final hash. */
static uint64_t play_out(engine_match *m)
{
    const engine_decision *d;
    for (int guard = 0; (d = engine_match_decision(m)) && guard < 3000; guard++) {
        uint32_t ids[256];
        size_t n = 256;
        engine_error err;
        CU_ASSERT_EQUAL_FATAL(engine_match_bot_answer(m, "default", ids, &n, &err), ENGINE_OK);
        CU_ASSERT_EQUAL_FATAL(engine_match_answer(m, d->seat, d->decision_id, ids, n, &err),
                              ENGINE_OK);
    }
    CU_ASSERT(engine_match_finished(m));
    return engine_match_hash(m);
}

/* A search's copy starts from the snapshot parsed once (engine_state_parse, then
 * engine_state_copy for each copy): it must be the match a restore from the bytes is, and
 * play on exactly as that one does. */
static void test_a_copy_from_the_parsed_snapshot_plays_as_one_restored_from_its_bytes(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *a = match_vs(b, "dominion", "big_money", 9);
    CU_ASSERT_FATAL(a != NULL);
    CU_ASSERT_EQUAL_FATAL(rig_engine_answer(a, 1, NULL), ENGINE_OK); /* an answer to replay */
    size_t len, nlog = engine_match_log_len(a);
    const uint8_t *snap = engine_match_snapshot(a, &len);
    engine_answer log[8];
    CU_ASSERT_FATAL(nlog <= 8);
    for (size_t i = 0; i < nlog; i++)
        log[i] = engine_match_log_at(a, i);
    engine_state base;
    CU_ASSERT_EQUAL_FATAL(engine_state_parse(&base, b, 2, snap, len), 0);
    const char *bots[] = {NULL, "big_money"};
    engine_match_config cfg = {
        .match_id = "m-search", .game = "dominion", .nplayers = 2, .names = names2, .bots = bots};
    engine_error err = {0};
    engine_match *bytes = engine_match_restore(b, &cfg, snap, len, log, nlog, &err);
    engine_match *copy = engine_match_restore_copy(b, &cfg, &base, log, nlog, &err);
    CU_ASSERT_FATAL(bytes && copy);
    CU_ASSERT_EQUAL(engine_match_hash(copy), engine_match_hash(a));
    CU_ASSERT_EQUAL(engine_match_hash(bytes), engine_match_hash(a));
    CU_ASSERT_EQUAL(play_out(copy), play_out(bytes));
    engine_match_free(bytes);
    engine_match_free(copy);
    engine_state_free(&base);
    engine_match_free(a);
    engine_bundle_free(b);
}

/* g:logging() in the search's copies: the hint below ranks right above left only when
 * nobody reads the copy's log, and ties otherwise (then the bot's own left would stay). */
static void test_g_logging_is_false_in_a_search_copy(void)
{
    char dir[64];
    engine_bundle *b = hint_bundle(dir, sizeof dir,
                                   "if g:logging() then return { 0.5, 0.5 } end\n"
                                   "    local a, b = g:counter('right', 1), g:counter('right', 2)\n"
                                   "    if a == b then return { 0.5, 0.5 } end\n"
                                   "    return a > b and { 0.9, 0.1 } or { 0.1, 0.9 }");
    CU_ASSERT_FATAL(b != NULL);
    engine_search_stats st;
    CU_ASSERT_EQUAL(hint_answer(b, 4, &st), 2);
    CU_ASSERT_EQUAL(st.evaluated, st.iterations);
    engine_bundle_free(b);
    rig_engine_remove_text(dir, "hint");
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"search_plays_every_game_to_its_end", test_search_plays_every_game_to_its_end},
        {"search_answers_from_what_its_seat_sees_only",
         test_search_answers_from_what_its_seat_sees_only},
        {"search_is_deterministic_and_only_reads_the_match",
         test_search_is_deterministic_and_only_reads_the_match},
        {"search_needs_a_pending_decision", test_search_needs_a_pending_decision},
        {"search_plays_out_as_deep_as_the_game_says",
         test_search_plays_out_as_deep_as_the_game_says},
        {"search_cuts_play_outs_short_and_follows_the_evaluation_hint",
         test_search_cuts_play_outs_short_and_follows_the_evaluation_hint},
        {"search_cuts_every_answer_s_play_outs_at_the_same_turn",
         test_search_cuts_every_answer_s_play_outs_at_the_same_turn},
        {"search_prefers_a_sooner_win_and_stops_once_clearly_ahead",
         test_search_prefers_a_sooner_win_and_stops_once_clearly_ahead},
        {"search_scores_nothing_with_a_hint_outside_0_to_1",
         test_search_scores_nothing_with_a_hint_outside_0_to_1},
        {"a_copy_from_the_parsed_snapshot_plays_as_one_restored_from_its_bytes",
         test_a_copy_from_the_parsed_snapshot_plays_as_one_restored_from_its_bytes},
        {"test_g_logging_is_false_in_a_search_copy", test_g_logging_is_false_in_a_search_copy},
        {NULL, NULL},
    };
    return dh_test_main("engine_search", cases);
}
