/*
 * sim_departures.h: `deckhand sim --departures`, a line for every searched decision whose
 * answer is not the search's play-out bot's: where the search plays differently from the
 * policy it models, the data a policy's next rules are read from (docs/BENCHMARKS.md,
 * issue 28, fourteenth round).
 */
#ifndef DECKHAND_SIM_DEPARTURES_H
#define DECKHAND_SIM_DEPARTURES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"

/* Writes to out, for the pending decision d of m (not yet answered) in game number
 * `game`, the search's answer ids[0..n) and the answer of the bot `policy` (asked now):
 *   departure GAME seat S kind K prompt [P] chose [LABEL|CARD]... policy [LABEL|CARD]...
 * then, in a game that counts decks (engine_match_deck), ` | PS CARD=N...` per seat. */
void sim_departure_print(FILE *out, engine_match *m, long game, const engine_decision *d,
                         const uint32_t *ids, size_t n, const char *policy);

#endif
