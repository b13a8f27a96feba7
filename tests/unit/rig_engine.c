/*
 * rig_engine.c: the engine rig the unit tests share (rig_engine.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dh_test.h"
#include "engine_internal.h"
#include "rig_engine.h"

engine_bundle *rig_engine_load(const char *rel, const engine_limits *lim)
{
    engine_error err = {0};
    engine_bundle *b = engine_bundle_load(dh_test_path(rel), lim, &err);
    if (!b)
        fprintf(stderr, "bundle %s: %s\n", rel, err.message);
    return b;
}

engine_bundle *rig_engine_load_mini(void)
{
    engine_limits lim = {32u << 20, 100};
    return rig_engine_load("tests/fixtures/bundle", &lim);
}

engine_bundle *rig_engine_load_games(void)
{
    engine_limits lim = {0, 2000};
    return rig_engine_load("scripts", &lim);
}

engine_bundle *rig_engine_load_text(char *dir, size_t cap, const char *game, const char *text)
{
    snprintf(dir, cap, "/tmp/dh-rig-XXXXXX");
    if (!mkdtemp(dir))
        return NULL;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, game);
    if (mkdir(path, 0700) < 0)
        return NULL;
    snprintf(path, sizeof path, "%s/%s/game.lua", dir, game);
    FILE *f = fopen(path, "w");
    if (!f)
        return NULL;
    int bad = fputs(text, f) < 0;
    if (fclose(f) || bad)
        return NULL;
    engine_error err = {0};
    engine_bundle *b = engine_bundle_load(dir, NULL, &err);
    if (!b)
        fprintf(stderr, "bundle %s: %s\n", dir, err.message);
    return b;
}

void rig_engine_remove_text(const char *dir, const char *game)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/game.lua", dir, game);
    remove(path);
    snprintf(path, sizeof path, "%s/%s", dir, game);
    remove(path);
    remove(dir);
}

engine_bundle *rig_engine_load_lua(const char *game, engine_error *err, const char *fmt, ...)
{
    char src[8192];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(src, sizeof src, fmt, ap);
    va_end(ap);
    CU_ASSERT_FATAL(len > 0 && (size_t)len < sizeof src);
    char path[128];
    snprintf(path, sizeof path, "%s/game.lua", game);
    engine_file_in f[] = {{path, src, (size_t)len}};
    return engine_bundle_load_files(game, f, 1, NULL, err);
}

engine_bundle *rig_engine_load_hostile(void)
{
    engine_limits lim = {8u << 20, 500};
    return rig_engine_load("tests/fixtures/hostile", &lim);
}

engine_match *rig_engine_match(engine_bundle *b, const engine_match_config *cfg)
{
    engine_error err = {0};
    engine_match *m = engine_match_new(b, cfg, &err);
    if (!m)
        fprintf(stderr, "match %s: %s\n", cfg->match_id, err.message);
    return m;
}

engine_match_config rig_engine_mini_config(uint64_t seed, const char *options,
                                           const char *const *bots)
{
    static const char *const names[] = {"Ann", "Bob"};
    engine_match_config cfg = {"m1", "mini", seed, 2, names, bots, options, false};
    return cfg;
}

engine_match *rig_engine_mini_match(engine_bundle *b, uint64_t seed, const char *options,
                                    const char *const *bots)
{
    engine_match_config cfg = rig_engine_mini_config(seed, options, bots);
    return rig_engine_match(b, &cfg);
}

engine_code rig_engine_answer(engine_match *m, uint32_t id, engine_error *err)
{
    const engine_decision *d = engine_match_decision(m);
    if (!d)
        return ENGINE_BAD_REQUEST;
    return engine_match_answer(m, d->seat, d->decision_id, &id, id ? 1 : 0, err);
}

engine_code rig_engine_bot_step(engine_match *m, engine_error *err)
{
    const engine_decision *d = engine_match_decision(m);
    if (!d)
        return ENGINE_BAD_REQUEST;
    uint32_t ids[64];
    size_t n = 64;
    engine_code rc = engine_match_bot_answer(m, NULL, ids, &n, err);
    if (rc == ENGINE_OK)
        rc = engine_match_answer(m, d->seat, d->decision_id, ids, n, err);
    return rc;
}

size_t rig_engine_games_seating(engine_bundle *b, int seats, engine_game_info *out, size_t cap)
{
    size_t n = engine_bundle_games(b, out, cap), kept = 0;
    for (size_t i = 0; i < n && i < cap; i++)
        if (out[i].min_players <= seats && out[i].max_players >= seats)
            out[kept++] = out[i];
    return kept;
}

engine_code rig_engine_any_step(engine_match *m, engine_error *err)
{
    const engine_decision *d = engine_match_decision(m);
    if (!d)
        return ENGINE_BAD_REQUEST;
    static uint32_t ids[4096];
    size_t n = sizeof ids / sizeof *ids;
    if (engine_match_bot_answer(m, NULL, ids, &n, err) != ENGINE_OK) {
        n = d->min ? d->min : 1;
        for (size_t i = 0; i < n; i++)
            ids[i] = (uint32_t)i + 1;
    }
    return engine_match_answer(m, d->seat, d->decision_id, ids, n, err);
}

uint32_t rig_engine_option(const engine_match *m, const char *label)
{
    const engine_decision *d = engine_match_decision(m);
    for (size_t i = 0; d && i < d->noptions; i++)
        if (!strcmp(d->options[i].label, label))
            return d->options[i].id;
    return 0;
}

void rig_engine_mini_pass_turn(engine_match *m)
{
    CU_ASSERT_EQUAL(rig_engine_answer(m, rig_engine_option(m, "Pass"), NULL), ENGINE_OK);
    CU_ASSERT_EQUAL(rig_engine_answer(m, 0, NULL), ENGINE_OK);
}

void rig_engine_intern(engine_bundle *b, const char *const *names, size_t n)
{
    lua_State *L = engine_bundle_lua(b);
    for (size_t i = 0; i < n; i++)
        engine_intern_c(b, L, names[i], strlen(names[i]));
}
