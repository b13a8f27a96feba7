/*
 * sim_positions.c: the position log of `deckhand sim --positions FILE` (sim_positions.h).
 * A game's positions are kept until it ends, since each line carries the outcome, then
 * written as text: one line per player and turn boundary,
 *   GAME TURN SEAT OUTCOME F1 F2 ... Fn
 * GAME the sim's game index, TURN the turns played, SEAT 0-based, OUTCOME the seat's share
 * of the win (1 / winners, or 0). `deckhand fit` reads it (cmd_fit.c).
 */
#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"
#include "sim_positions.h"

void sim_positions_note(void *ud, uint32_t turn, const double *f, size_t nf)
{
    sim_positions *sp = ud;
    if (sp->nrows && nf != sp->nf) {
        sp->failed = 1;
        return;
    }
    sp->nf = nf;
    size_t row = (size_t)sp->np * nf;
    if (dh_grow(&sp->turns, &sp->turns_cap, sp->nrows + 1, sizeof *sp->turns, 64) < 0 ||
        dh_grow(&sp->rows, &sp->rows_cap, (sp->nrows + 1) * row, sizeof *sp->rows, 1024) < 0) {
        sp->failed = 1;
        return;
    }
    sp->turns[sp->nrows] = turn;
    memcpy(sp->rows + sp->nrows * row, f, row * sizeof *f);
    sp->nrows++;
}

int sim_positions_flush(sim_positions *sp, long game, const double *share)
{
    size_t row = (size_t)sp->np * sp->nf;
    for (size_t r = 0; r < sp->nrows; r++)
        for (int p = 0; p < sp->np; p++) {
            fprintf(sp->out, "%ld %u %d %.4g", game, sp->turns[r], p, share[p]);
            const double *f = sp->rows + r * row + (size_t)p * sp->nf;
            for (size_t i = 0; i < sp->nf; i++)
                fprintf(sp->out, " %.6g", f[i]);
            fputc('\n', sp->out);
            sp->logged++;
        }
    sp->nrows = 0;
    return sp->failed || ferror(sp->out) ? -1 : 0;
}

void sim_positions_free(sim_positions *sp)
{
    free(sp->rows);
    free(sp->turns);
}
