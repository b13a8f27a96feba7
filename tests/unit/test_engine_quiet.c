/*
 * test_engine_quiet.c: what a match that nobody reads skips, and what it must not. A quiet
 * match (engine_match_config.quiet, what `deckhand sim` plays) builds no event text but
 * counts its events, so it ends with the same state hash as the same match played loud;
 * g:bot(p) names the bot answering p inline and is nil for a person; a finished all-bot
 * match writes its final snapshot only when asked (nothing reads it in a sim), and it holds
 * the final state; g:logging() says whether anyone reads the text, and a game that builds
 * its log text only then still counts the same events (the hush game).
 *
 * The game: six turns, the seats alternating; each turn logs to everyone and to the
 * player, then asks the player to pick a (1) or b (2) and scores the pick. With the option
 * tell=1 the turn also scores what g:bot(p) says: 100 for "second", 1000 for nil.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "rig_engine.h"

static const char echo_game[] =
    "return { min_players = 2, max_players = 2,\n"
    "  setup = function(g) g:set_counter('t', 0, 0) end,\n"
    "  turn = function(g)\n"
    "    local t = g:add_counter('t', 0, 1)\n"
    "    local p = (t - 1) % 2 + 1\n"
    "    local b = g:bot(p)\n"
    "    g:log('turn ', t, ' of ', g:player_name(p))\n"
    "    g:log_to(p, 'you are ', b or 'a person')\n"
    "    if g:option('tell') == '1' then\n"
    "      g:add_counter('score', p, b == 'second' and 100 or b == nil and 1000 or 0)\n"
    "    end\n"
    "    local a = g:choose { player = p, prompt = 'Pick', kind = 'pick',\n"
    "                         options = { { label = 'a' }, { label = 'b' } } }\n"
    "    g:add_counter('score', p, a[1])\n"
    "  end,\n"
    "  finished = function(g) return g:counter('t', 0) >= 6 end,\n"
    "  results = function(g)\n"
    "    return { { score = g:counter('score', 1) }, { score = g:counter('score', 2) } }\n"
    "  end,\n"
    "  bots = { default = function() return { 1 } end, second = function() return { 2 } end } "
    "}\n";

/* Six turns, each logging to everyone and to its player, the text built only when
 * g:logging() says someone reads it, then "<player> ends turn N" (g:log_player, which
 * looks the name up only then); with tell=1 a player scores each turn it was true. */
static const char hush_game[] =
    "return { min_players = 2, max_players = 2,\n"
    "  turn = function(g)\n"
    "    local t = g:add_counter('t', 0, 1)\n"
    "    local p = (t - 1) % 2 + 1\n"
    "    local on = g:logging()\n"
    "    if on and g:option('tell') == '1' then g:add_counter('heard', p, 1) end\n"
    "    g:log(on and ('turn ' .. t .. ' of ' .. g:player_name(p)) or '')\n"
    "    g:log_to(p, on and 'yours' or '')\n"
    "    g:log_player(p, ' ends turn ', t)\n"
    "  end,\n"
    "  finished = function(g) return g:counter('t', 0) >= 6 end,\n"
    "  results = function(g)\n"
    "    return { { score = g:counter('heard', 1) }, { score = g:counter('heard', 2) } }\n"
    "  end,\n"
    "  bots = { default = function() return { 1 } end } }\n";

/* The game text loaded as a bundle from a fresh folder (its path into dir), checked. */
static engine_bundle *load_game(char *dir, size_t cap, const char *game, const char *text)
{
    engine_bundle *b = rig_engine_load_text(dir, cap, game, text);
    CU_ASSERT_FATAL(b != NULL);
    return b;
}

/* Frees a bundle of load_game and removes its folder. */
static void unload_game(engine_bundle *b, const char *dir, const char *game)
{
    engine_bundle_free(b);
    rig_engine_remove_text(dir, game);
}

static const char *const names2[] = {"Ann", "Bob"};

/* A match of game (loaded as b, match id id), seed 7, two seats: bots[i] names seat i's
 * bot (NULL for a person), with the options given, quiet or not. */
static engine_match *text_match(engine_bundle *b, const char *id, const char *game,
                                const char *const *bots, const char *options, bool quiet)
{
    engine_match_config cfg = {.match_id = id,
                               .game = game,
                               .seed = 7,
                               .nplayers = 2,
                               .names = names2,
                               .bots = bots,
                               .options = options,
                               .quiet = quiet};
    return rig_engine_match(b, &cfg);
}

/* A match of the echo game (see text_match). */
static engine_match *echo_match(engine_bundle *b, const char *const *bots, const char *options,
                                bool quiet)
{
    return text_match(b, "m-echo", "echo", bots, options, quiet);
}

typedef struct {
    size_t n, text;
} drained;

static void count_event(void *ud, const engine_event *ev)
{
    drained *d = ud;
    d->n++;
    d->text += strlen(ev->text);
}

static void test_a_quiet_match_ends_with_the_hash_of_the_same_match_not_quiet(void)
{
    char dir[64];
    engine_bundle *b = load_game(dir, sizeof dir, "echo", echo_game);
    static const char *const bots[] = {"default", "second"};
    engine_match *loud = echo_match(b, bots, NULL, false);
    engine_match *quiet = echo_match(b, bots, NULL, true);
    CU_ASSERT_FATAL(loud && quiet);
    CU_ASSERT(engine_match_finished(loud) && engine_match_finished(quiet));
    CU_ASSERT_EQUAL(engine_match_hash(quiet), engine_match_hash(loud));
    /* counted alike: 6 logs to everyone, 3 to each player */
    for (int seat = 0; seat < 2; seat++) {
        CU_ASSERT_EQUAL(engine_match_event_seq(quiet, seat), 9);
        CU_ASSERT_EQUAL(engine_match_event_seq(loud, seat), 9);
    }
    CU_ASSERT_EQUAL(engine_match_event_seq(quiet, ENGINE_SEAT_PUBLIC), 6);
    CU_ASSERT_EQUAL(engine_match_event_seq(loud, ENGINE_SEAT_PUBLIC), 6);
    /* the loud one kept the text, the quiet one none */
    drained l = {0, 0}, q = {0, 0};
    engine_match_drain_events(loud, count_event, &l);
    engine_match_drain_events(quiet, count_event, &q);
    CU_ASSERT_EQUAL(l.n, 18); /* a public event once per seat, and 3 log_to each */
    CU_ASSERT(l.text > 0);
    CU_ASSERT_EQUAL(q.n, 0);
    CU_ASSERT_EQUAL(q.text, 0);
    engine_match_free(loud);
    engine_match_free(quiet);
    unload_game(b, dir, "echo");
}

static void test_g_bot_names_an_inline_bot_and_is_nil_for_a_human_seat(void)
{
    char dir[64];
    engine_bundle *b = load_game(dir, sizeof dir, "echo", echo_game);
    static const char *const bots[] = {"second", NULL};
    engine_match *m = echo_match(b, bots, "tell=1", false);
    CU_ASSERT_FATAL(m != NULL);
    for (int turn = 0; turn < 3; turn++) {
        const engine_decision *d = engine_match_decision(m);
        CU_ASSERT_FATAL(d != NULL);
        CU_ASSERT_EQUAL(d->seat, 1); /* the person's decisions are put to them, labelled */
        CU_ASSERT_EQUAL_FATAL(d->noptions, 2);
        CU_ASSERT_STRING_EQUAL(d->options[0].label, "a");
        CU_ASSERT_STRING_EQUAL(d->options[1].label, "b");
        CU_ASSERT_EQUAL_FATAL(rig_engine_answer(m, rig_engine_option(m, "a"), NULL), ENGINE_OK);
    }
    CU_ASSERT_FATAL(engine_match_finished(m));
    engine_result r[2];
    CU_ASSERT_EQUAL_FATAL(engine_match_results(m, r, 2), 2);
    CU_ASSERT_EQUAL(r[0].score, 3 * (100 + 2));  /* g:bot(1) == "second", which picks b */
    CU_ASSERT_EQUAL(r[1].score, 3 * (1000 + 1)); /* g:bot(2) == nil, the person picked a */
    engine_match_free(m);
    unload_game(b, dir, "echo");
}

static void test_a_finished_all_bot_match_writes_its_snapshot_when_read(void)
{
    char dir[64];
    engine_bundle *b = load_game(dir, sizeof dir, "echo", echo_game);
    static const char *const bots[] = {"default", "second"};
    engine_match *m = echo_match(b, bots, NULL, true);
    CU_ASSERT_FATAL(m != NULL && engine_match_finished(m));
    CU_ASSERT_EQUAL(engine_match_snapshot_version(m), 7); /* set-up and six turns */
    size_t len, again;
    const uint8_t *snap = engine_match_snapshot(m, &len);
    CU_ASSERT_FATAL(snap != NULL && len > 0);
    CU_ASSERT_PTR_EQUAL(engine_match_snapshot(m, &again), snap); /* written once */
    CU_ASSERT_EQUAL(again, len);
    /* it holds the final state: restored, the match is the finished one */
    engine_match_config cfg = {
        .match_id = "m-echo", .game = "echo", .seed = 7, .nplayers = 2, .names = names2};
    engine_error err = {0};
    engine_match *back = engine_match_restore(b, &cfg, snap, len, NULL, 0, &err);
    CU_ASSERT_FATAL(back != NULL);
    CU_ASSERT(engine_match_finished(back));
    CU_ASSERT_EQUAL(engine_match_hash(back), engine_match_hash(m));
    CU_ASSERT_EQUAL(engine_match_snapshot_version(back), 7);
    engine_result r[2];
    CU_ASSERT_EQUAL_FATAL(engine_match_results(back, r, 2), 2);
    CU_ASSERT_EQUAL(r[0].score, 3);
    CU_ASSERT_EQUAL(r[1].score, 6);
    engine_match_free(back);
    engine_match_free(m);
    unload_game(b, dir, "echo");
}

/* A finished hush match (both seats bots), quiet or not, with the options given. */
static engine_match *hush_match(engine_bundle *b, const char *options, bool quiet)
{
    static const char *const bots[] = {"default", "default"};
    engine_match *m = text_match(b, "m-hush", "hush", bots, options, quiet);
    CU_ASSERT_FATAL(m != NULL && engine_match_finished(m));
    return m;
}

static void test_g_logging_is_true_when_read_and_false_in_a_quiet_match(void)
{
    char dir[64];
    engine_bundle *b = load_game(dir, sizeof dir, "hush", hush_game);
    engine_match *loud = hush_match(b, "tell=1", false);
    engine_match *quiet = hush_match(b, "tell=1", true);
    engine_result r[2];
    CU_ASSERT_EQUAL_FATAL(engine_match_results(loud, r, 2), 2);
    CU_ASSERT_EQUAL(r[0].score, 3); /* true on each of its three turns */
    CU_ASSERT_EQUAL(r[1].score, 3);
    CU_ASSERT_EQUAL_FATAL(engine_match_results(quiet, r, 2), 2);
    CU_ASSERT_EQUAL(r[0].score, 0); /* never true */
    CU_ASSERT_EQUAL(r[1].score, 0);
    engine_match_free(loud);
    engine_match_free(quiet);
    unload_game(b, dir, "hush");
}

/* Appends the text of each event to seat 0 and a "|", as far as 128 bytes go. */
static void seat0_texts(void *ud, const engine_event *ev)
{
    char *out = ud;
    size_t n = strlen(out);
    if (ev->to_seat == 0 && n < 128)
        snprintf(out + n, 128 - n, "%s|", ev->text);
}

static void test_log_text_skipped_when_not_logging_keeps_event_counts_and_hash(void)
{
    char dir[64];
    engine_bundle *b = load_game(dir, sizeof dir, "hush", hush_game);
    engine_match *loud = hush_match(b, NULL, false);
    engine_match *quiet = hush_match(b, NULL, true);
    CU_ASSERT_EQUAL(engine_match_hash(quiet), engine_match_hash(loud));
    for (int seat = 0; seat < 2; seat++) { /* 12 logs to everyone, 3 to each player */
        CU_ASSERT_EQUAL(engine_match_event_seq(quiet, seat), 15);
        CU_ASSERT_EQUAL(engine_match_event_seq(loud, seat), 15);
    }
    CU_ASSERT_EQUAL(engine_match_event_seq(quiet, ENGINE_SEAT_PUBLIC), 12);
    CU_ASSERT_EQUAL(engine_match_event_seq(loud, ENGINE_SEAT_PUBLIC), 12);
    char text[128] = "";
    engine_match_drain_events(loud, seat0_texts, text);
    /* the loud match built its text */
    CU_ASSERT_EQUAL(strncmp(text, "turn 1 of Ann|yours|Ann ends turn 1|turn 2 of Bob|", 50), 0);
    engine_match_free(loud);
    engine_match_free(quiet);
    unload_game(b, dir, "hush");
}

static const dh_test_case cases[] = {
    {"test_a_quiet_match_ends_with_the_hash_of_the_same_match_not_quiet",
     test_a_quiet_match_ends_with_the_hash_of_the_same_match_not_quiet},
    {"test_g_bot_names_an_inline_bot_and_is_nil_for_a_human_seat",
     test_g_bot_names_an_inline_bot_and_is_nil_for_a_human_seat},
    {"test_a_finished_all_bot_match_writes_its_snapshot_when_read",
     test_a_finished_all_bot_match_writes_its_snapshot_when_read},
    {"test_g_logging_is_true_when_read_and_false_in_a_quiet_match",
     test_g_logging_is_true_when_read_and_false_in_a_quiet_match},
    {"test_log_text_skipped_when_not_logging_keeps_event_counts_and_hash",
     test_log_text_skipped_when_not_logging_keeps_event_counts_and_hash},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_quiet", cases);
}
