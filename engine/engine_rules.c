/*
 * engine_rules.c: the rules-test runner as a library (engine_rules_run in engine.h).
 *
 * It exists so that two programs run a bundle's own rules tests the same way:
 * tests/rules (deckhand-rules, the suite over scripts/) and `deckhand scripts push`, which
 * refuses a bundle whose tests fail before anyone can play on it.
 *
 * The tests run inside the bundle's own sandboxed VM, so they see exactly what the game
 * scripts see (cards, kernel modules) and nothing more. They drive matches through the
 * `T` table of docs/SCRIPTING.md, which is a thin shell over the public engine API: the
 * same calls the worker makes, including the view code that builds the wire View. The
 * runner's state is one struct reached through the VM's registry (no globals), so two
 * bundles may be tested in one process. The T table itself is engine_rules_t.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_clock.h"
#include "engine_internal.h"

/* A test runs under the workers' budgets (what `deckhand scripts push` promises about a
 * bundle): its own code gets the call budget of the bundle (engine_limits.budget_ms), each
 * match step it starts (T.match, m:answer) its own call budget as in a worker, and the whole
 * test, steps included, at most TEST_WALL of the clock. A card that runs away fails its
 * test at once, as it would fail its match in a worker, instead of holding the check. */
#define TEST_WALL (60ULL * 1000000000ULL)

/* Counts one test's outcome and reports it (msg NULL = passed). */
static void rules_note(engine_rules *r, int ok, const char *what, const char *msg)
{
    engine_rules_report *rep = r->rep;
    if (ok) {
        rep->passed++;
        if (r->out)
            fprintf(r->out, "PASS %s\n", what);
    } else {
        /* The first failure is the reason a push is refused; a long one is cut to fit. */
        if (!rep->failed++) {
            int w = snprintf(rep->first_failure, sizeof rep->first_failure,
                             "%.*s: ", (int)(sizeof rep->first_failure / 2), what);
            if (w > 0 && (size_t)w < sizeof rep->first_failure)
                snprintf(rep->first_failure + w, sizeof rep->first_failure - (size_t)w, "%.*s",
                         (int)(sizeof rep->first_failure - (size_t)w - 1), msg);
        }
        if (r->out)
            fprintf(r->out, "FAIL %s: %s\n", what, msg);
    }
    if (r->out)
        fflush(r->out);
}

/* ---- running ------------------------------------------------------------------------- */

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Runs one test file's tests; the module table is on top of the stack. */
static void run_file(engine_rules *r, lua_State *L, const char *label, const char *filter)
{
    if (!lua_istable(L, -1)) {
        rules_note(r, 0, label, "the file must return a table of tests");
        return;
    }
    engine_freeze_contents(L, -1); /* the module is frozen: walk what it holds */
    int mod = lua_gettop(L);
    size_t n = 0, cap = 16;
    char **names = malloc(sizeof(char *) * cap);
    if (!names) {
        rules_note(r, 0, label, "out of memory");
        return;
    }
    for (lua_pushnil(L); lua_next(L, mod); lua_pop(L, 1)) {
        if (lua_type(L, -2) != LUA_TSTRING || !lua_isfunction(L, -1))
            continue;
        if (n == cap) {
            char **nn = realloc(names, sizeof(char *) * cap * 2);
            if (!nn)
                break;
            names = nn;
            cap *= 2;
        }
        names[n] = strdup(lua_tostring(L, -2));
        if (names[n])
            n++;
    }
    qsort(names, n, sizeof(char *), name_cmp);
    for (size_t i = 0; i < n; i++) {
        char full[1024];
        snprintf(full, sizeof full, "%s: %s", label, names[i]);
        if (filter && !strstr(full, filter)) {
            free(names[i]);
            continue;
        }
        lua_getfield(L, mod, names[i]);
        lua_getfield(L, LUA_REGISTRYINDEX, "deckhand.rules.T");
        r->b->wall_ns = dh_now_ns() + TEST_WALL;
        uint64_t prev = engine_call_begin(r->b);
        int rc = lua_pcall(L, 1, 0, 0);
        engine_call_end(r->b, prev);
        r->b->wall_ns = 0;
        if (rc == LUA_OK) {
            rules_note(r, 1, full, NULL);
        } else {
            const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "error";
            rules_note(r, 0, full, msg);
            lua_pop(L, 1);
        }
        engine_rules_free_live(r, L);
        free(names[i]);
    }
    free(names);
}

/* The folder (relative, with a trailing '/', or "") that holds game `name`. */
static int game_dir(engine_bundle *b, const char *name, char *out, size_t len)
{
    for (size_t i = 0; engine_bundle_file(b, i); i++) {
        const char *f = engine_bundle_file(b, i);
        size_t fl = strlen(f);
        if (fl < 8 || strcmp(f + fl - 8, "game.lua") || (fl > 8 && f[fl - 9] != '/'))
            continue;
        size_t dl = fl - 8;
        const char *s = f + (dl ? dl - 1 : 0);
        while (s > f && s[-1] != '/')
            s--;
        size_t bl = dl ? (size_t)(f + dl - 1 - s) : 0;
        if ((dl == 0 && engine_bundle_games(b, NULL, 0) == 1) ||
            (bl == strlen(name) && !strncmp(s, name, bl))) {
            snprintf(out, len, "%.*s", (int)dl, f);
            return 0;
        }
    }
    return -1;
}

int engine_rules_run(engine_bundle *b, const char *only, const char *filter, FILE *out,
                     engine_rules_report *rep)
{
    engine_error err = {0};
    memset(rep, 0, sizeof *rep);
    engine_rules *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(rep->first_failure, sizeof rep->first_failure, "out of memory");
        return ++rep->failed;
    }
    r->b = b;
    r->out = out;
    r->rep = rep;
    lua_State *L = engine_bundle_lua(b);
    lua_settop(L, 0);
    lua_pushlightuserdata(L, r);
    lua_setfield(L, LUA_REGISTRYINDEX, ENGINE_RULES_CTX);
    lua_pushcfunction(L, engine_rules_open_t);
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
        lua_settop(L, 0);
        rules_note(r, 0, "setup", "cannot set up T");
        goto out;
    }
    for (size_t g = 0; engine_bundle_game_name(b, g); g++) {
        const char *game = engine_bundle_game_name(b, g);
        char gdir[512], prefix[600];
        if (only && strcmp(only, game))
            continue;
        if (game_dir(b, game, gdir, sizeof gdir) < 0)
            continue;
        r->game = game;
        snprintf(prefix, sizeof prefix, "%stests/", gdir);
        size_t pl = strlen(prefix);
        for (size_t i = 0; engine_bundle_file(b, i); i++) {
            const char *f = engine_bundle_file(b, i);
            if (strncmp(f, prefix, pl) || strchr(f + pl, '/'))
                continue;
            char mod[600], label[700];
            snprintf(mod, sizeof mod, "%.*s", (int)(strlen(f) - 4), f);
            snprintf(label, sizeof label, "%s/%s", game, mod + pl);
            for (char *c = mod; *c; c++)
                if (*c == '/')
                    *c = '.';
            if (engine_bundle_require(b, mod, &err) < 0) {
                if (!filter || strstr(label, filter))
                    rules_note(r, 0, label, err.message);
                continue;
            }
            run_file(r, L, label, filter);
            lua_settop(L, 0);
        }
    }
out:
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, ENGINE_RULES_CTX);
    free(r);
    return rep->failed;
}
