/*
 * rig_limits.h: matches of tests/fixtures/limits for the tests of the engine's bounds
 * (patterns, output, module state, turn cap, public errors): load the fixture, start a
 * match of its game "limits" or "capped", and play one of its actions by label.
 */
#ifndef DECKHAND_RIG_LIMITS_H
#define DECKHAND_RIG_LIMITS_H

#include <stdint.h>

#include "engine.h"

/* tests/fixtures/limits with a 64 MiB cap and a 1 s budget (roomy: ASan on a loaded
 * machine is slow, and what these tests pin are the bounds, not the deadline). */
engine_bundle *rig_limits_load(void);

/* A match of game ("limits", "capped") with np seats, all human; NULL when it fails. */
engine_match *rig_limits_match(engine_bundle *b, const char *game, int np);

/* Answers the pending decision with the option labelled label (asserting there is one);
 * *ms gets how long the answer took when not NULL. */
engine_code rig_limits_pick(engine_match *m, const char *label, engine_error *err, uint64_t *ms);

/* Drains m's events: text[s] gets the text of seat s's (s < 2), joined by '\n'
 * (malloc'd; the caller frees both), n[s] their count. */
void rig_limits_drain(engine_match *m, char *text[2], size_t n[2]);

#endif
