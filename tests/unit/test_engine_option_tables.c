/*
 * test_engine_option_tables.c: a decision's options are read from their Lua tables as Lua
 * reads them, whatever shape the tables have. g:choose reads each option's label, verb (or
 * act), space, card and target once; an option that is an empty table reading through its
 * metatable's __index table (deckbuilder's memo.freeze records, how the deck kit's options
 * come) is read from that table directly, which must give exactly what a field read gives:
 * for records frozen at load and at run time, chains of them, tables with keys of their
 * own and inherited ones, __index functions, and a wrong entity raised as before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"
#include "rig_engine.h"

static const char *const names[] = {"ann", "bob"};

/* A one-file bundle "t" whose turn asks player 1 the options (a Lua expression; `a` is an
 * entity on player 2's board, `ro(t)` a read-only record of t as memo.freeze makes one in
 * Lua, `rec(t)` the same made by the engine (deck.freeze), FROZEN such a record made at
 * load, `both(list)` the records of list's tables made by the engine, then by Lua). */
static engine_bundle *load_options(const char *options, engine_error *err)
{
    return rig_engine_load_lua(
        "t", err,
        "local function refuse() error('read-only') end\n"
        "local function ro(t)\n"
        "  return setmetatable({}, { __index = t, __newindex = refuse, __metatable = 'frozen' })\n"
        "end\n"
        "local c_freeze = require('deckhand.deck').freeze\n"
        "local function rec(t) return c_freeze(t, refuse) end\n"
        "local function both(list)\n"
        "  local out = {}\n"
        "  for i, t in ipairs(list) do\n"
        "    local copy = {}\n"
        "    for k, v in pairs(t) do copy[k] = v end\n"
        "    out[i], out[#list + i] = rec(t), ro(copy)\n"
        "  end\n"
        "  return out\n"
        "end\n"
        "local FROZEN = ro { label = 'End turn', act = 'end' }\n"
        "return { min_players = 2, max_players = 2,\n"
        "  zones = { board = 'public' },\n"
        "  turn = function(g)\n"
        "    local a = g:new('Imp', 'board', 2)\n"
        "    g:choose { player = 1, options = %s }\n"
        "    g:set_counter('done', 0, 1) end,\n"
        "  finished = function(g) return g:counter('done') == 1 end,\n"
        "  results = function(g) return { { score = 0 }, { score = 0 } } end }\n",
        options);
}

/* The first decision of a match of b (NULL when the match could not start). */
static engine_match *start(engine_bundle *b, engine_error *err)
{
    engine_match_config cfg = {
        .match_id = "m-t", .game = "t", .seed = 1, .nplayers = 2, .names = names};
    return engine_match_new(b, &cfg, err);
}

/* The first decision of a match of the bundle asking options, which must offer n of them;
 * *b and *m are freed by finish. */
static const engine_decision *decision_of(const char *options, size_t n, engine_bundle **b,
                                          engine_match **m)
{
    engine_error err = {0};
    *b = load_options(options, &err);
    CU_ASSERT_FATAL(*b != NULL);
    *m = start(*b, &err);
    CU_ASSERT_FATAL(*m != NULL);
    const engine_decision *d = engine_match_decision(*m);
    CU_ASSERT_FATAL(d != NULL && d->noptions == n);
    return d;
}

static void finish(engine_bundle *b, engine_match *m)
{
    engine_match_free(m);
    engine_bundle_free(b);
}

/* Checks option i's label, verb, space and whether it names the board's entity as card and
 * as target. */
static void expect_option(const engine_decision *d, size_t i, const char *label, const char *verb,
                          const char *space, int card, int target)
{
    CU_ASSERT_FATAL(i < d->noptions);
    const engine_option *o = &d->options[i];
    CU_ASSERT_STRING_EQUAL(o->label, label);
    CU_ASSERT_STRING_EQUAL(o->verb, verb);
    CU_ASSERT_STRING_EQUAL(o->space, space);
    CU_ASSERT_EQUAL(o->entity != 0, card);
    CU_ASSERT_EQUAL(o->target != 0, target);
    if (card)
        CU_ASSERT_STRING_EQUAL(o->card, "Imp");
}

static void test_read_only_records_read_as_their_fields(void)
{
    engine_bundle *b;
    engine_match *m;
    const engine_decision *d =
        decision_of("{ FROZEN,"
                    "  ro { label = 'Imp', card = a, target = a, act = 'play', space = 'board' },"
                    "  ro(ro { label = 'Twice', verb = 'cast' }),"
                    "  { label = 'Plain', act = 'buy' } }",
                    4, &b, &m);
    expect_option(d, 0, "End turn", "end", "", 0, 0);
    expect_option(d, 1, "Imp", "play", "board", 1, 1);
    expect_option(d, 2, "Twice", "cast", "", 0, 0);
    expect_option(d, 3, "Plain", "buy", "", 0, 0);
    finish(b, m);
}

static void test_tables_with_own_keys_keep_their_inherited_fields(void)
{
    engine_bundle *b;
    engine_match *m;
    const engine_decision *d = decision_of(
        "{ setmetatable({ label = 'Own' }, { __index = { label = 'Inherited', verb = 'cast',"
        "                                                card = a } }),"
        "  setmetatable({}, { __index = function(_, k)"
        "    if k == 'label' then return 'By function' elseif k == 'act' then return 'fn' end"
        "  end }),"
        "  setmetatable({}, { __index = setmetatable({}, { __index = function(_, k)"
        "    if k == 'label' then return 'Deep' end end }) }) }",
        3, &b, &m);
    expect_option(d, 0, "Own", "cast", "", 1, 0);
    expect_option(d, 1, "By function", "fn", "", 0, 0);
    expect_option(d, 2, "Deep", "", "", 0, 0);
    finish(b, m);
}

/* The engine reads an option's fields raw only from a table without a metatable (where a
 * raw read gives what an indexed one does): a record reached through an empty proxy that
 * has a metatable of its own still reads its inherited fields, and so does a record behind
 * more proxies than the engine follows. */
static void test_records_with_a_metatable_of_their_own_read_through_it(void)
{
    engine_bundle *b;
    engine_match *m;
    const engine_decision *d =
        decision_of("{ setmetatable({}, { __index = setmetatable({ label = 'Rec' }, { __index ="
                    "    function(_, k) if k == 'act' then return 'late' elseif k == 'card' then"
                    "    return a end end }) }),"
                    "  setmetatable({}, { __index = setmetatable({}, { __index = setmetatable({}, {"
                    "    __index = setmetatable({}, { __index = setmetatable({}, { __index ="
                    "    { label = 'Far', verb = 'go' } }) }) }) }) }) }",
                    2, &b, &m);
    expect_option(d, 0, "Rec", "late", "", 1, 0);
    expect_option(d, 1, "Far", "go", "", 0, 0);
    finish(b, m);
}

/* A match of the bundle asking options does not start, with the error why. */
static void expect_refused(const char *options, const char *why)
{
    engine_error err = {0};
    engine_bundle *b = load_options(options, &err);
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = start(b, &err);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, why));
    finish(b, m);
}

static void test_read_only_record_naming_no_entity_is_refused(void)
{
    expect_refused("{ ro { label = 'Hit', target = 999 } }", "option 1's target names no entity");
}

/* Options 0..n/2-1 of d read as options n/2.. do. */
static void expect_halves_alike(const engine_decision *d)
{
    size_t n = d->noptions / 2;
    for (size_t i = 0; i < n; i++) {
        const engine_option *a = &d->options[i], *b = &d->options[n + i];
        CU_ASSERT_STRING_EQUAL(a->label, b->label);
        CU_ASSERT_STRING_EQUAL(a->verb, b->verb);
        CU_ASSERT_STRING_EQUAL(a->space, b->space);
        CU_ASSERT_EQUAL(a->entity, b->entity);
        CU_ASSERT_EQUAL(a->target, b->target);
        CU_ASSERT_EQUAL(a->card == NULL, b->card == NULL);
    }
}

/* A record deck.freeze makes reads as memo.freeze's record of the same fields: texts that
 * are numbers, a verb given as "" (the act then), texts that are not texts (""), a label
 * cut to its limit within a UTF-8 sequence, an entity given as a string, no fields. */
static void test_records_the_engine_makes_read_as_records_made_in_lua(void)
{
    engine_bundle *b;
    engine_match *m;
    const engine_decision *d = decision_of(
        "both { { label = 'Imp', card = a, target = a, act = 'play', space = 'board' },"
        "  { label = 7, verb = '', act = 'go' }, { label = 2.5, verb = 'x', space = 3 },"
        "  { label = 'x' .. string.rep('\xc3\xa9', 200), act = string.rep('v', 300) },"
        "  { label = {}, verb = true, space = false, act = 1 }, { label = 'S', card = tostring(a) "
        "},"
        "  {} }",
        14, &b, &m);
    expect_halves_alike(d);
    expect_option(d, 0, "Imp", "play", "board", 1, 1);
    expect_option(d, 1, "7", "go", "", 0, 0);
    expect_option(d, 2, "2.5", "x", "3", 0, 0);
    /* 256 bytes at most with the mark: 249 of the label's (not half an e-acute), 250 v */
    CU_ASSERT_EQUAL(strlen(d->options[3].label), 249 + 6);
    CU_ASSERT_STRING_EQUAL(d->options[3].label + 249, " [cut]");
    CU_ASSERT_EQUAL(strlen(d->options[3].verb), 250 + 6);
    CU_ASSERT_STRING_EQUAL(d->options[3].verb + 250, " [cut]");
    expect_option(d, 4, "", "1", "", 0, 0);
    expect_option(d, 5, "S", "", "", 1, 0);
    expect_option(d, 6, "", "", "", 0, 0);
    finish(b, m);
}

/* The engine's record is a copy: the table it was made from may change after, the
 * decision reads what the record was made with (so the engine may keep what it read). */
static void test_a_record_the_engine_makes_keeps_its_fields_when_its_source_changes(void)
{
    engine_bundle *b;
    engine_match *m;
    const engine_decision *d =
        decision_of("(function()"
                    "  local src = { label = 'Before', card = a, act = 'buy' }"
                    "  local o = rec(src)"
                    "  src.label, src.card, src.act = 'After', nil, 'sell'"
                    "  assert(o.label == 'Before' and o.card == a, o.label)"
                    "  return { o, o } end)()",
                    2, &b, &m);
    expect_option(d, 0, "Before", "buy", "", 1, 0);
    expect_option(d, 1, "Before", "buy", "", 1, 0);
    finish(b, m);
}

/* What the engine keeps is what Lua reads: rawset cannot give a record a key of its own
 * (which reads would see first); a record made over a table with a metatable reads through
 * it; a script's metatable holding another userdata at index 1 (g, smaller than a record;
 * a deck kit, larger) is not taken for a record's. */
static void test_records_read_from_lua_where_what_the_engine_kept_is_not_what_lua_reads(void)
{
    engine_bundle *b;
    engine_match *m;
    const engine_decision *d = decision_of(
        "(function()"
        "  local own = rec { label = 'Kept', act = 'buy' }"
        "  local ok, why = pcall(rawset, own, 'label', 'Own')"
        "  assert(not ok and why:find('read-only', 1, true), why)"
        "  return { own, rec(setmetatable({}, { __index = { label = 'Inherited', card = a } })),"
        "    setmetatable({ label = 'Plain' }, { g }),"
        "    setmetatable({ label = 'Kit' }, { require('deckhand.deck').kit { cards = {}, order = "
        "{} } }),"
        "    setmetatable({}, { g, __index = { label = 'Through', verb = 'go' } }) } end)()",
        5, &b, &m);
    expect_option(d, 0, "Kept", "buy", "", 0, 0);
    expect_option(d, 1, "Inherited", "", "", 1, 0);
    expect_option(d, 2, "Plain", "", "", 0, 0);
    expect_option(d, 3, "Kit", "", "", 0, 0);
    expect_option(d, 4, "Through", "go", "", 0, 0);
    finish(b, m);
}

/* A record the engine makes that names no entity is refused at the decision, as the same
 * fields read from Lua are: a number out of range, a text that is no number. */
static void test_a_record_the_engine_makes_naming_no_entity_is_refused(void)
{
    expect_refused("{ rec { label = 'Hit', target = 999 } }", "option 1's target names no entity");
    expect_refused("{ rec { label = 'Ok' }, rec { label = 'Hit', card = 'x' } }",
                   "option 2's card names no entity");
}

static const dh_test_case cases[] = {
    {"test_read_only_records_read_as_their_fields", test_read_only_records_read_as_their_fields},
    {"test_tables_with_own_keys_keep_their_inherited_fields",
     test_tables_with_own_keys_keep_their_inherited_fields},
    {"test_records_with_a_metatable_of_their_own_read_through_it",
     test_records_with_a_metatable_of_their_own_read_through_it},
    {"test_read_only_record_naming_no_entity_is_refused",
     test_read_only_record_naming_no_entity_is_refused},
    {"test_records_the_engine_makes_read_as_records_made_in_lua",
     test_records_the_engine_makes_read_as_records_made_in_lua},
    {"test_a_record_the_engine_makes_keeps_its_fields_when_its_source_changes",
     test_a_record_the_engine_makes_keeps_its_fields_when_its_source_changes},
    {"test_records_read_from_lua_where_what_the_engine_kept_is_not_what_lua_reads",
     test_records_read_from_lua_where_what_the_engine_kept_is_not_what_lua_reads},
    {"test_a_record_the_engine_makes_naming_no_entity_is_refused",
     test_a_record_the_engine_makes_naming_no_entity_is_refused},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_option_tables", cases);
}
