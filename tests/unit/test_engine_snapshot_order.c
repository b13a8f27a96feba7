/*
 * test_engine_snapshot_order.c: a snapshot lists its names, zones, attributes and counters
 * in string order (engine/engine_state.c), also after names were interned since the last
 * snapshot. The order comes from a cache of the bundle's names sorted once
 * (engine_intern_sorted) rather than from sorting the strings at every turn boundary, so
 * this reads the snapshot's bytes back and checks the order against the strings
 * themselves, on the mini fixture game whose traps option brings new zones and counters
 * mid-match. It reaches inside the engine (engine_internal.h) to intern names no state
 * uses, past the count a snapshot's scratch holds on the stack: the bytes stay the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"
#include "engine_internal.h"
#include "rig_engine.h"

#define MAX_NAMES 512

typedef struct {
    const uint8_t *p;
    size_t len, at;
    bool bad;
} rd;

static uint32_t u32(rd *r)
{
    if (r->at + 4 > r->len) {
        r->bad = true;
        return 0;
    }
    const uint8_t *p = r->p + r->at;
    r->at += 4;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void skip(rd *r, size_t n)
{
    r->bad |= r->at + n > r->len;
    r->at += n;
}

/* name a against name b, by their bytes (memcmp, then length) */
static int cmp_str(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b), n = na < nb ? na : nb;
    int c = memcmp(a, b, n);
    return c ? c : (na > nb) - (na < nb);
}

/* (string, number) keys in order: -1, 0 or 1 for a before, equal to or after b */
static int cmp_key(const char *sa, int64_t na, const char *sb, int64_t nb)
{
    int c = cmp_str(sa, sb);
    return c ? c : (na > nb) - (na < nb);
}

/* Checks a snapshot's order; the number of names it lists. */
static uint32_t check_snapshot_order(const uint8_t *p, size_t len)
{
    static char names[MAX_NAMES][128];
    rd r = {p, len, 0, false};
    CU_ASSERT_EQUAL(u32(&r), 0x4e534844u); /* DHSN */
    uint32_t version = u32(&r);
    skip(&r, 8 + 8 + 4);
    uint32_t np = u32(&r);
    skip(&r, 4 + 4 * 8 + np * 8 + (version >= 2 ? 8 : 0) + np * 12);
    uint32_t nnames = u32(&r);
    CU_ASSERT_FATAL(!r.bad && nnames < MAX_NAMES);
    for (uint32_t i = 0; i < nnames; i++) {
        uint32_t n = u32(&r);
        CU_ASSERT_FATAL(!r.bad && n < sizeof names[i] && r.at + n <= len);
        memcpy(names[i], p + r.at, n);
        names[i][n] = '\0';
        skip(&r, n);
        if (i)
            CU_ASSERT(cmp_str(names[i - 1], names[i]) < 0);
    }
    uint32_t nents = u32(&r);
    skip(&r, (size_t)nents * 4);
    uint32_t nzones = u32(&r), prev_name = 0;
    int64_t prev_owner = 0;
    for (uint32_t i = 0; i < nzones && !r.bad; i++) {
        uint32_t name = u32(&r), owner = u32(&r), n = u32(&r);
        skip(&r, (size_t)n * 4);
        CU_ASSERT_FATAL(name < nnames);
        if (i)
            CU_ASSERT(cmp_key(names[prev_name], prev_owner, names[name], (int32_t)owner) < 0);
        prev_name = name, prev_owner = (int32_t)owner;
    }
    uint32_t nattrs = u32(&r), prev_ent = 0;
    for (uint32_t i = 0; i < nattrs && !r.bad; i++) {
        uint32_t ent = u32(&r), name = u32(&r);
        skip(&r, 8);
        CU_ASSERT_FATAL(name < nnames);
        if (i)
            CU_ASSERT(prev_ent < ent ||
                      (prev_ent == ent && cmp_str(names[prev_name], names[name]) < 0));
        prev_ent = ent, prev_name = name;
    }
    uint32_t ncounters = u32(&r);
    for (uint32_t i = 0; i < ncounters && !r.bad; i++) {
        uint32_t name = u32(&r), owner = u32(&r);
        skip(&r, 8);
        CU_ASSERT_FATAL(name < nnames);
        if (i)
            CU_ASSERT(cmp_key(names[prev_name], prev_owner, names[name], (int32_t)owner) < 0);
        prev_name = name, prev_owner = (int32_t)owner;
    }
    CU_ASSERT(!r.bad);
    CU_ASSERT_EQUAL(r.at, len);
    return nnames;
}

static uint32_t option_starting(engine_match *m, const char *prefix)
{
    const engine_decision *d = engine_match_decision(m);
    for (size_t i = 0; d && i < d->noptions; i++)
        if (!strncmp(d->options[i].label, prefix, strlen(prefix)))
            return d->options[i].id;
    return 0;
}

static uint32_t snapshot_names(engine_match *m)
{
    size_t len = 0;
    const uint8_t *p = engine_match_snapshot(m, &len);
    CU_ASSERT_FATAL(p != NULL);
    return check_snapshot_order(p, len);
}

static void test_snapshot_keeps_string_order_as_names_appear(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 14, "traps=1", NULL);
    CU_ASSERT_FATAL(m != NULL);
    uint32_t first = snapshot_names(m);
    uint32_t most = first;
    for (int turn = 0; turn < 40 && !engine_match_finished(m); turn++) {
        uint32_t probe = option_starting(m, "Probe"), play = option_starting(m, "Play ");
        if (probe || play)
            CU_ASSERT_EQUAL_FATAL(rig_engine_answer(m, probe ? probe : play, NULL), ENGINE_OK);
        rig_engine_mini_pass_turn(m);
        uint32_t n = snapshot_names(m);
        most = n > most ? n : most;
    }
    CU_ASSERT_TRUE(most > first); /* names came after the first snapshot */
    engine_match_free(m);
    engine_bundle_free(b);
}

#define UNUSED_NAMES 1100 /* more than engine_state.c's SAVE_STACK_NAMES, 1,024 */

static int intern_unused(lua_State *L)
{
    engine_bundle *b = lua_touserdata(L, 1);
    for (int i = 0; i < UNUSED_NAMES; i++) {
        char s[32];
        int n = snprintf(s, sizeof s, "unused-%04d", i);
        engine_intern_c(b, L, s, (size_t)n);
    }
    return 0;
}

/* The state's snapshot, saved now, into a malloc'd copy of *len bytes. */
static uint8_t *saved(engine_match *m, size_t *len)
{
    engine_buf buf = {0};
    CU_ASSERT_EQUAL_FATAL(engine_state_save(&m->st, &m->b->names, &buf), 0);
    *len = buf.len;
    return buf.p;
}

static void test_snapshot_is_the_same_when_the_bundle_has_more_names_than_the_stack_holds(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 14, "traps=1", NULL);
    CU_ASSERT_FATAL(m != NULL);
    for (int turn = 0; turn < 6 && !engine_match_finished(m); turn++)
        rig_engine_mini_pass_turn(m);
    CU_ASSERT_FATAL(b->names.n < 1024); /* the first save's scratch is on the stack */
    size_t n_small = 0, n_big = 0;
    uint8_t *small = saved(m, &n_small);
    lua_pushcfunction(b->L, intern_unused);
    lua_pushlightuserdata(b->L, b);
    CU_ASSERT_EQUAL_FATAL(lua_pcall(b->L, 1, 0, 0), LUA_OK);
    CU_ASSERT_FATAL(b->names.n > 1024); /* the second's on the heap */
    uint8_t *big = saved(m, &n_big);
    CU_ASSERT_EQUAL(n_big, n_small);
    CU_ASSERT(n_big == n_small && !memcmp(big, small, n_small));
    check_snapshot_order(big, n_big);
    free(small);
    free(big);
    engine_match_free(m);
    engine_bundle_free(b);
}

/* The state saved through a memo of the zones' and counters' order and of the names the
 * state uses (as the boundary snapshot is, engine_state_save_memo) is the same bytes as the
 * state sorted anew, turn after turn as zones, counters and names come (the memos made
 * again), and after the bundle gains names. */
static void test_snapshot_through_the_order_memo_is_the_same_as_sorted_anew(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 14, "traps=1", NULL);
    CU_ASSERT_FATAL(m != NULL);
    engine_view_order memo[3] = {{0}};
    uint64_t first_sig = 0;
    uint32_t first_names = 0;
    int remade = 0, names_remade = 0;
    for (int turn = 0; turn < 40 && !engine_match_finished(m); turn++) {
        if (turn == 20) {
            lua_pushcfunction(b->L, intern_unused);
            lua_pushlightuserdata(b->L, b);
            CU_ASSERT_EQUAL_FATAL(lua_pcall(b->L, 1, 0, 0), LUA_OK);
        }
        for (int again = 0; again < 2; again++) { /* made, then reused */
            engine_buf buf = {0};
            CU_ASSERT_EQUAL_FATAL(engine_state_save_memo(&m->st, &m->b->names, &buf, memo), 0);
            size_t n = 0;
            uint8_t *fresh = saved(m, &n);
            CU_ASSERT_EQUAL(buf.len, n);
            CU_ASSERT(buf.len == n && !memcmp(buf.p, fresh, n));
            free(fresh);
            engine_buf_free(&buf);
        }
        if (!turn) {
            first_sig = memo[0].sig ^ memo[1].sig;
            first_names = memo[2].n;
        }
        remade |= (memo[0].sig ^ memo[1].sig) != first_sig;
        names_remade |= memo[2].n != first_names;
        uint32_t probe = option_starting(m, "Probe"), play = option_starting(m, "Play ");
        if (probe || play)
            CU_ASSERT_EQUAL_FATAL(rig_engine_answer(m, probe ? probe : play, NULL), ENGINE_OK);
        rig_engine_mini_pass_turn(m);
    }
    CU_ASSERT_TRUE(remade);       /* the keys changed along the way: the memo was made again */
    CU_ASSERT_TRUE(names_remade); /* and the names the state uses */
    for (int i = 0; i < 3; i++)
        free(memo[i].idx);
    engine_match_free(m);
    engine_bundle_free(b);
}

static int intern_never_used(lua_State *L)
{
    engine_bundle *b = lua_touserdata(L, 1);
    lua_pushinteger(L, engine_intern_c(b, L, "zz-never-used", strlen("zz-never-used")));
    return 1;
}

/* The names memo is checked name by name, not only by count: a state where one name
 * left and another came in its place (as many names as the memo holds) saves the new
 * name, the same bytes as sorted anew. */
static void test_snapshot_names_memo_sees_a_name_swapped_for_another(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 14, "traps=1", NULL);
    CU_ASSERT_FATAL(m != NULL);
    for (int turn = 0; turn < 4 && !engine_match_finished(m); turn++)
        rig_engine_mini_pass_turn(m);
    engine_view_order memo[3] = {{0}};
    engine_buf buf = {0};
    CU_ASSERT_EQUAL_FATAL(engine_state_save_memo(&m->st, &m->b->names, &buf, memo), 0);
    uint32_t nnames = memo[2].n;
    CU_ASSERT_FATAL(nnames > 0);
    /* a name only entities use, then every entity of it renamed to a name no state uses */
    bool *other = calloc(b->names.n, sizeof *other);
    CU_ASSERT_FATAL(other != NULL);
    for (uint32_t i = 0; i < m->st.nzones; i++)
        other[m->st.zones[i].name] = true;
    for (uint32_t i = 0; i < m->st.attrs.n; i++)
        other[(uint32_t)m->st.attrs.kv[i].key] = true;
    for (uint32_t i = 0; i < m->st.counters.n; i++)
        other[(uint32_t)(m->st.counters.kv[i].key >> 32)] = true;
    uint32_t gone = 0;
    for (uint32_t i = 0; i < m->st.nents && !gone; i++)
        if (!other[m->st.ents[i].name])
            gone = m->st.ents[i].name;
    free(other);
    CU_ASSERT_FATAL(gone != 0);
    lua_pushcfunction(b->L, intern_never_used);
    lua_pushlightuserdata(b->L, b);
    CU_ASSERT_EQUAL_FATAL(lua_pcall(b->L, 1, 1, 0), LUA_OK);
    uint32_t fresh_name = (uint32_t)lua_tointeger(b->L, -1);
    lua_pop(b->L, 1);
    CU_ASSERT_FATAL(fresh_name != 0);
    for (uint32_t i = 0; i < m->st.nents; i++)
        if (m->st.ents[i].name == gone)
            m->st.ents[i].name = fresh_name;
    CU_ASSERT_EQUAL_FATAL(engine_state_save_memo(&m->st, &m->b->names, &buf, memo), 0);
    CU_ASSERT_EQUAL(memo[2].n, nnames); /* as many names as before */
    size_t n = 0;
    uint8_t *fresh = saved(m, &n);
    CU_ASSERT_EQUAL(buf.len, n);
    CU_ASSERT(buf.len == n && !memcmp(buf.p, fresh, n));
    CU_ASSERT(memmem(buf.p, buf.len, "zz-never-used", strlen("zz-never-used")) != NULL);
    free(fresh);
    engine_buf_free(&buf);
    for (int i = 0; i < 3; i++)
        free(memo[i].idx);
    engine_match_free(m);
    engine_bundle_free(b);
}

static const dh_test_case cases[] = {
    {"test_snapshot_through_the_order_memo_is_the_same_as_sorted_anew",
     test_snapshot_through_the_order_memo_is_the_same_as_sorted_anew},
    {"test_snapshot_names_memo_sees_a_name_swapped_for_another",
     test_snapshot_names_memo_sees_a_name_swapped_for_another},
    {"test_snapshot_is_the_same_when_the_bundle_has_more_names_than_the_stack_holds",
     test_snapshot_is_the_same_when_the_bundle_has_more_names_than_the_stack_holds},
    {"test_snapshot_keeps_string_order_as_names_appear",
     test_snapshot_keeps_string_order_as_names_appear},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_snapshot_order", cases);
}
