/*
 * sim_positions.h: `deckhand sim --positions FILE`, a log of every turn boundary's
 * position (the game's features(g) for each player) with the game's outcome, the data
 * `deckhand fit` fits an evaluation hint's weights to (sim_positions.c).
 */
#ifndef DECKHAND_SIM_POSITIONS_H
#define DECKHAND_SIM_POSITIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    FILE *out;
    int np;
    double *rows; /* this game's positions so far: np * nf features each */
    uint32_t *turns;
    size_t nrows, turns_cap, rows_cap, nf;
    long logged; /* positions written */
    int failed;  /* a row could not be kept (out of memory) */
} sim_positions;

/* engine_match_config.on_features: keeps one position of the game being played. */
void sim_positions_note(void *ud, uint32_t turn, const double *f, size_t nf);
/* The game ended: writes its positions, each player's line `GAME TURN SEAT OUTCOME F...`
 * (OUTCOME: the player's share of the win, 1 / winners or 0), and starts the next.
 * share[p]: player p's outcome. -1 when the file could not be written. */
int sim_positions_flush(sim_positions *sp, long game, const double *share);
void sim_positions_free(sim_positions *sp);

#endif
