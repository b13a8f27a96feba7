/*
 * test_engine_turn_thread.c: the coroutine a match's turns run in (engine_turns.c,
 * turn_co). A turn with a human seat runs as a coroutine that g:choose suspends; the
 * match keeps it in its g userdata's first user value and the next turn starts in the same
 * thread once the last one returned, instead of a new thread per turn (a third of the
 * bytes a worker's VM allocated per answer, docs/BENCHMARKS.md, issue 27). That the
 * matches play the same is the determinism, snapshot and undo tests' part. It reaches
 * inside the engine (engine_internal.h) to read that user value.
 */
#include <stdlib.h>

#include "dh_test.h"
#include "engine.h"
#include "engine_internal.h"
#include "rig_engine.h"

static engine_match *dominion(engine_bundle *b, uint64_t seed)
{
    static const char *const names[] = {"ann", "bob"};
    engine_match_config cfg = {.match_id = "m-turn-thread",
                               .game = "dominion",
                               .seed = seed,
                               .nplayers = 2,
                               .names = names};
    return rig_engine_match(b, &cfg);
}

/* The thread in m's g userdata (NULL when none). */
static lua_State *turn_thread(engine_match *m)
{
    lua_State *L = m->b->L;
    engine_match_push_g(m, L);
    lua_getiuservalue(L, -1, 1);
    lua_State *co = lua_tothread(L, -1);
    lua_pop(L, 2);
    return co;
}

static void test_every_turn_of_a_match_runs_in_one_coroutine(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = dominion(b, 11);
    CU_ASSERT_FATAL(m != NULL);
    lua_State *first = turn_thread(m);
    CU_ASSERT_FATAL(first != NULL);
    CU_ASSERT_EQUAL(m->st.turn, 1);
    uint32_t turns = 1;
    while (m->st.turn < 12 && engine_match_decision(m)) {
        CU_ASSERT_EQUAL_FATAL(rig_engine_bot_step(m, NULL), ENGINE_OK);
        if (m->st.turn == turns)
            continue;
        turns = m->st.turn;
        CU_ASSERT_PTR_EQUAL(turn_thread(m), first);
        CU_ASSERT_EQUAL(lua_status(first), LUA_YIELD); /* suspended in this turn's choose */
    }
    CU_ASSERT(turns >= 12);
    engine_match_free(m);
    engine_bundle_free(b);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"every_turn_of_a_match_runs_in_one_coroutine",
         test_every_turn_of_a_match_runs_in_one_coroutine},
        {NULL, NULL},
    };
    return dh_test_main("engine_turn_thread", cases);
}
