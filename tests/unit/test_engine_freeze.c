/*
 * test_engine_freeze.c: a module's tables after load (engine_freeze.c). Every way a script
 * can write one raises, `rawset` included (it once slipped past the proxies: only the
 * sandbox's own were in its locked set), so one match cannot change what another reads;
 * reads see the contents, from Lua and from the C side of a g call (which finds a proxy's
 * contents with one probe).
 *
 * The game: a module-level table SHARED (a number, an array of entity ids); each turn the
 * player picks a way to write it, or "read", which copies what it reads into counters and
 * logs the ids as card names (g:log reads the array on the C side).
 */
#include <stdio.h>
#include <string.h>

#include "dh_test.h"
#include "rig_engine.h"

static const char vault_game[] =
    "local SHARED = { cost = 3, ids = { 1, 2, 3 } }\n"
    "local ways = {\n"
    "  function() SHARED.cost = 0 end,\n"
    "  function() rawset(SHARED, 'cost', 0) end,\n"
    "  function() rawset(SHARED.ids, 4, 1) end,\n"
    "  function() SHARED.extra = 1 end,\n"
    "  function(g)\n"
    "    local sum = 0\n"
    "    for _, id in ipairs(SHARED.ids) do sum = sum + id end\n"
    "    g:set_counter('cost', 0, SHARED.cost)\n"
    "    g:set_counter('n', 0, #SHARED.ids)\n"
    "    g:set_counter('sum', 0, sum)\n"
    "    g:log('ids ', SHARED.ids)\n"
    "  end,\n"
    "}\n"
    "return { min_players = 1, max_players = 1,\n"
    "  setup = function(g) for _ = 1, 3 do g:new('Coin', 'pile', 0) end end,\n"
    "  turn = function(g)\n"
    "    local a = g:choose { player = 1, prompt = 'How', kind = 'x', options = {\n"
    "      { label = 'overwrite' }, { label = 'rawset' }, { label = 'rawset_new' },\n"
    "      { label = 'new_field' }, { label = 'read' } } }\n"
    "    ways[a[1]](g)\n"
    "  end,\n"
    "  finished = function() return false end,\n"
    "  results = function() return { { score = 0 } } end }\n";

static long counter(const engine_match *m, const char *name)
{
    Deckhand__View *v = engine_match_view(m, 0);
    CU_ASSERT_FATAL(v != NULL);
    long value = -1;
    for (size_t i = 0; i < v->n_counters; i++)
        if (!strcmp(v->counters[i]->name, name))
            value = (long)v->counters[i]->value;
    engine_view_free(v);
    return value;
}

static void keep_text(void *ud, const engine_event *ev)
{
    if (!strncmp(ev->text, "ids ", 4))
        strncpy(ud, ev->text, 63);
}

static void test_every_write_to_a_frozen_module_table_raises_and_reads_see_it_whole(void)
{
    char dir[64];
    engine_bundle *b = rig_engine_load_text(dir, sizeof dir, "vault", vault_game);
    CU_ASSERT_FATAL(b != NULL);
    static const char *const one[] = {"ann"};
    engine_match_config cfg = {
        .match_id = "m-vault", .game = "vault", .seed = 1, .nplayers = 1, .names = one};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m != NULL);
    static const char *const writes[] = {"overwrite", "rawset", "rawset_new", "new_field"};
    for (size_t i = 0; i < sizeof writes / sizeof *writes; i++) {
        engine_error err = {0};
        CU_ASSERT_EQUAL(rig_engine_answer(m, rig_engine_option(m, writes[i]), &err),
                        ENGINE_SCRIPT_ERROR);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "read-only"));
        if (!strstr(err.message, "read-only"))
            fprintf(stderr, "\n  %s: %s", writes[i], err.message);
    }
    char text[64] = "";
    CU_ASSERT_EQUAL_FATAL(rig_engine_answer(m, rig_engine_option(m, "read"), NULL), ENGINE_OK);
    CU_ASSERT_EQUAL(counter(m, "cost"), 3);
    CU_ASSERT_EQUAL(counter(m, "n"), 3);
    CU_ASSERT_EQUAL(counter(m, "sum"), 6);
    engine_match_drain_events(m, keep_text, text);
    CU_ASSERT_STRING_EQUAL(text, "ids Coin, Coin, Coin");
    engine_match_free(m);
    engine_bundle_free(b);
    rig_engine_remove_text(dir, "vault");
}

static const dh_test_case cases[] = {
    {"test_every_write_to_a_frozen_module_table_raises_and_reads_see_it_whole",
     test_every_write_to_a_frozen_module_table_raises_and_reads_see_it_whole},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_freeze", cases);
}
