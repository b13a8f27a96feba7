/*
 * test_engine_take_back.c: a player's take-back of a misclick (engine.h,
 * engine_match_can_take_back, engine_match_take_back; engine/engine_undo.c), on a game
 * written here whose one turn offers each kind of step: a plain one (a counter), playing
 * a card from the own hand, gaining a card onto a discard pile (a card entering a hidden
 * place), drawing from the deck, shuffling, rolling a die, taking a card from the
 * opponent's hand, and ending the turn. What reveals nothing may be taken back, by its own
 * seat only, once; what reveals anything, draws randomness or starts a new turn may not;
 * and a take-back leaves the match exactly as a restore of its log without the answer.
 */
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"
#include "rig_engine.h"

static const char game_text[] =
    "local M = { name = 'tb', min_players = 2, max_players = 2,\n"
    "  zones = { deck = 'hidden', hand = 'owner', discard = 'top', play = 'public',\n"
    "            pile = 'public' },\n"
    "  cards = { Coin = { cost = 1, types = { 'Treasure' }, text = '' } }, bots = {} }\n"
    "function M.setup(g)\n"
    "  for p = 1, 2 do\n"
    "    for _ = 1, 6 do g:new('Coin', 'deck', p) end\n"
    "    for _ = 1, 3 do g:move(g:top('deck', p), 'hand', p) end\n"
    "    g:new('Coin', 'discard', p)\n"
    "  end\n"
    "  for _ = 1, 8 do g:new('Coin', 'pile', 0) end\n"
    "  g:set_counter('_turns', 0, 0)\n"
    "end\n"
    "local steps = { 'Mark', 'Play', 'Gain', 'Draw', 'Shuffle', 'Roll', 'Steal', 'End' }\n"
    "function M.turn(g)\n"
    "  local t = g:add_counter('_turns', 0, 1)\n"
    "  local p = (t - 1) % 2 + 1\n"
    "  while true do\n"
    "    local opts = {}\n"
    "    for _, s in ipairs(steps) do opts[#opts + 1] = { label = s } end\n"
    "    local s = steps[g:choose{ player = p, prompt = 'Step', kind = 'step',\n"
    "                              options = opts }[1]]\n"
    "    if s == 'End' then return end\n"
    "    if s == 'Mark' then g:add_counter('marks', p, 1) end\n"
    "    if s == 'Play' then g:move(g:top('hand', p), 'play', p) end\n"
    "    if s == 'Gain' then g:move(g:top('pile', 0), 'discard', p) end\n"
    "    if s == 'Draw' then g:move(g:top('deck', p), 'hand', p) end\n"
    "    if s == 'Shuffle' then g:shuffle('deck', p) end\n"
    "    if s == 'Roll' then g:add_counter('marks', p, g:random(6)) end\n"
    "    if s == 'Steal' then g:move(g:top('hand', 3 - p), 'play', p) end\n"
    "  end\n"
    "end\n"
    "function M.finished(g) return g:counter('_turns') >= 20 end\n"
    "function M.results(g)\n"
    "  return { { score = g:counter('marks', 1) }, { score = g:counter('marks', 2) } }\n"
    "end\n"
    "return M\n";

static char dir[64];
static engine_bundle *bundle;

static engine_match *new_match(void)
{
    static const char *const names[] = {"ann", "bob"};
    engine_match_config cfg = {
        .match_id = "m-tb", .game = "tb", .seed = 11, .nplayers = 2, .names = names};
    return rig_engine_match(bundle, &cfg);
}

/* Answer the pending decision with the step labelled step; ENGINE_OK when accepted. */
static engine_code step(engine_match *m, const char *label)
{
    uint32_t id = rig_engine_option(m, label);
    CU_ASSERT_FATAL(id != 0);
    return rig_engine_answer(m, id, NULL);
}

static int decider(const engine_match *m)
{
    const engine_decision *d = engine_match_decision(m);
    return d ? d->seat : -1;
}

static void test_take_back_a_plain_answer_by_its_own_seat(void)
{
    engine_match *m = new_match();
    CU_ASSERT_FATAL(m != NULL);
    int seat = decider(m);
    CU_ASSERT_EQUAL_FATAL(seat, 0);
    CU_ASSERT_FALSE(engine_match_can_take_back(m, 0)); /* nothing answered yet */
    CU_ASSERT_EQUAL(step(m, "Mark"), ENGINE_OK);
    uint64_t before = engine_match_hash(m);
    uint64_t did = engine_match_decision(m)->decision_id;
    size_t nlog = engine_match_log_len(m);
    CU_ASSERT_EQUAL_FATAL(step(m, "Mark"), ENGINE_OK);
    CU_ASSERT_TRUE(engine_match_can_take_back(m, 0));
    CU_ASSERT_FALSE(engine_match_can_take_back(m, 1)); /* not the other seat's to take */
    engine_match_settle(m); /* the worker settles every answer Redis holds */
    CU_ASSERT_TRUE(engine_match_can_take_back(m, 0));
    engine_error err;
    CU_ASSERT_EQUAL(engine_match_take_back(m, &err), ENGINE_OK);
    CU_ASSERT_EQUAL(engine_match_hash(m), before);
    CU_ASSERT_EQUAL(engine_match_decision(m)->decision_id, did);
    CU_ASSERT_EQUAL(engine_match_log_len(m), nlog);
    /* one step back only: the answer before is not the seat's to take back again */
    CU_ASSERT_FALSE(engine_match_can_take_back(m, 0));
    CU_ASSERT_EQUAL(engine_match_take_back(m, &err), ENGINE_BAD_REQUEST);
    CU_ASSERT_STRING_EQUAL(err.message, "nothing to undo");
    engine_match_free(m);
}

static void test_take_back_allows_playing_from_the_own_hand_and_gaining(void)
{
    engine_match *m = new_match();
    CU_ASSERT_FATAL(m != NULL);
    CU_ASSERT_EQUAL(step(m, "Play"), ENGINE_OK);
    CU_ASSERT_TRUE(engine_match_can_take_back(m, 0));
    CU_ASSERT_EQUAL(step(m, "Gain"), ENGINE_OK);
    CU_ASSERT_TRUE(engine_match_can_take_back(m, 0));
    engine_match_free(m);
}

/* After label, seat 0 may not take it back. */
static void refused_after(const char *label)
{
    engine_match *m = new_match();
    CU_ASSERT_FATAL(m != NULL);
    CU_ASSERT_EQUAL(step(m, "Mark"), ENGINE_OK);
    CU_ASSERT_EQUAL_FATAL(step(m, label), ENGINE_OK);
    CU_ASSERT_FALSE(engine_match_can_take_back(m, 0));
    engine_error err;
    CU_ASSERT_EQUAL(engine_match_take_back(m, &err), ENGINE_BAD_REQUEST);
    engine_match_free(m);
}

static void test_take_back_refused_after_a_draw(void)
{
    refused_after("Draw");
}

static void test_take_back_refused_after_a_shuffle(void)
{
    refused_after("Shuffle");
}

static void test_take_back_refused_after_a_die_roll(void)
{
    refused_after("Roll");
}

static void test_take_back_refused_after_a_card_left_the_opponents_hand(void)
{
    refused_after("Steal");
}

static void test_take_back_refused_after_a_new_turn(void)
{
    engine_match *m = new_match();
    CU_ASSERT_FATAL(m != NULL);
    CU_ASSERT_EQUAL(step(m, "End"), ENGINE_OK);
    CU_ASSERT_EQUAL(decider(m), 1);
    CU_ASSERT_FALSE(engine_match_can_take_back(m, 0));
    CU_ASSERT_FALSE(engine_match_can_take_back(m, 1));
    /* and once the other seat answered, the first seat's answer is not the last */
    CU_ASSERT_EQUAL(step(m, "Mark"), ENGINE_OK);
    CU_ASSERT_FALSE(engine_match_can_take_back(m, 0));
    CU_ASSERT_TRUE(engine_match_can_take_back(m, 1));
    engine_match_free(m);
}

/* The state a take-back leaves is the one a restore of the snapshot and the log without
 * the answer makes: what an adopting worker rebuilds from Redis after the undo's write. */
static void test_take_back_equals_a_restore_without_the_answer(void)
{
    engine_match *m = new_match();
    CU_ASSERT_FATAL(m != NULL);
    CU_ASSERT_EQUAL(step(m, "Play"), ENGINE_OK);
    CU_ASSERT_EQUAL(step(m, "Gain"), ENGINE_OK);
    engine_error err;
    CU_ASSERT_EQUAL_FATAL(engine_match_take_back(m, &err), ENGINE_OK);
    size_t len, n = engine_match_log_len(m);
    const uint8_t *snap = engine_match_snapshot(m, &len);
    CU_ASSERT_FATAL(snap != NULL);
    engine_answer log[8];
    CU_ASSERT_FATAL(n == 1);
    for (size_t i = 0; i < n; i++)
        log[i] = engine_match_log_at(m, i);
    static const char *const names[] = {"ann", "bob"};
    engine_match_config cfg = {
        .match_id = "m-tb", .game = "tb", .seed = 11, .nplayers = 2, .names = names};
    engine_match *r = engine_match_restore(bundle, &cfg, snap, len, log, n, &err);
    CU_ASSERT_FATAL(r != NULL);
    CU_ASSERT_EQUAL(engine_match_hash(r), engine_match_hash(m));
    CU_ASSERT_FALSE(engine_match_can_take_back(r, 0)); /* a restored match has nothing to take */
    engine_match_free(r);
    engine_match_free(m);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"take_back_a_plain_answer_by_its_own_seat", test_take_back_a_plain_answer_by_its_own_seat},
        {"take_back_allows_playing_from_the_own_hand_and_gaining",
         test_take_back_allows_playing_from_the_own_hand_and_gaining},
        {"take_back_refused_after_a_draw", test_take_back_refused_after_a_draw},
        {"take_back_refused_after_a_shuffle", test_take_back_refused_after_a_shuffle},
        {"take_back_refused_after_a_die_roll", test_take_back_refused_after_a_die_roll},
        {"take_back_refused_after_a_card_left_the_opponents_hand",
         test_take_back_refused_after_a_card_left_the_opponents_hand},
        {"take_back_refused_after_a_new_turn", test_take_back_refused_after_a_new_turn},
        {"take_back_equals_a_restore_without_the_answer",
         test_take_back_equals_a_restore_without_the_answer},
        {NULL, NULL},
    };
    bundle = rig_engine_load_text(dir, sizeof dir, "tb", game_text);
    if (!bundle)
        return 1;
    int rc = dh_test_main("engine_take_back", cases);
    engine_bundle_free(bundle);
    rig_engine_remove_text(dir, "tb");
    return rc;
}
