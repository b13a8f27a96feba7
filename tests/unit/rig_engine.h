/*
 * rig_engine.h: the engine rig the unit tests share: load a bundle of the source tree,
 * start a match on it, answer its pending decision, intern names in another order (as
 * another process would). Each call prints why on stderr when the engine refuses, so a
 * failing test says more than "NULL".
 */
#ifndef DECKHAND_RIG_ENGINE_H
#define DECKHAND_RIG_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

/* Loads the bundle in the source tree's folder rel ("scripts", "tests/fixtures/...") with
 * lim (NULL: the engine's defaults); NULL when it fails. */
engine_bundle *rig_engine_load(const char *rel, const engine_limits *lim);

/* tests/fixtures/bundle (the game "mini") with a 32 MiB cap and a 100 ms budget. */
engine_bundle *rig_engine_load_mini(void);

/* The shipped games (scripts/) with a 2 s call budget instead of 250 ms: the tests that
 * play them pin rules and determinism, not time, and a sanitized build on a loaded machine
 * once took an Elemental turn past 250 ms (test_engine_limits pins the budget itself). */
engine_bundle *rig_engine_load_games(void);
/* A bundle of one game, GAME/game.lua holding text, written under a fresh temporary folder
 * (its path into dir, cap bytes) and loaded with the default limits; NULL (reason on stderr)
 * when it cannot be. rig_engine_remove_text removes the folder again. */
engine_bundle *rig_engine_load_text(char *dir, size_t cap, const char *game, const char *text);
void rig_engine_remove_text(const char *dir, const char *game);
/* A bundle named game of one file, GAME/game.lua, whose text is fmt formatted with the
 * arguments (a test's inline game with one Lua expression filled in), loaded from memory
 * with the default limits; NULL with the reason in *err when the engine refuses it. */
engine_bundle *rig_engine_load_lua(const char *game, engine_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* tests/fixtures/hostile with a small cap (8 MiB) and a roomy budget (500 ms: ASan is slow). */
engine_bundle *rig_engine_load_hostile(void);

/* The games of b that seat seats players, at most cap of them into out; their count. */
size_t rig_engine_games_seating(engine_bundle *b, int seats, engine_game_info *out, size_t cap);

/* engine_match_new; NULL when it fails. */
engine_match *rig_engine_match(engine_bundle *b, const engine_match_config *cfg);

/* The config of a two-seat "mini" match "m1" of Ann and Bob; bots and options may be NULL. */
engine_match_config rig_engine_mini_config(uint64_t seed, const char *options,
                                           const char *const *bots);

/* A two-seat "mini" match (rig_engine_mini_config); NULL when it fails. */
engine_match *rig_engine_mini_match(engine_bundle *b, uint64_t seed, const char *options,
                                    const char *const *bots);

/* Answers the pending decision with option id (with no option when id is 0); err may be
 * NULL. ENGINE_BAD_REQUEST when no decision is pending. */
engine_code rig_engine_answer(engine_match *m, uint32_t id, engine_error *err);

/* Answers the pending decision as the game's default bot would, for whichever seat is
 * asked; ENGINE_BAD_REQUEST when none is pending, else the bot's or the answer's code. */
engine_code rig_engine_bot_step(engine_match *m, engine_error *err);

/* Answers the pending decision as the game's default bot would or, where the bot gives no
 * answer, with the first options it allows (its minimum, at least one): a step of a test
 * that plays every game through. ENGINE_BAD_REQUEST when none is pending. */
engine_code rig_engine_any_step(engine_match *m, engine_error *err);

/* The id of the pending decision's option labelled label, or 0. */
uint32_t rig_engine_option(const engine_match *m, const char *label);

/* On a "mini" match: plays Pass, then discards nothing, which ends the turn of whoever is
 * deciding (asserting both answers are accepted). */
void rig_engine_mini_pass_turn(engine_match *m);

/* Interns names[0..n) in that order, so the bundle's own names get other ids than in a
 * fresh VM, as they may in another process. */
void rig_engine_intern(engine_bundle *b, const char *const *names, size_t n);

#endif
