/*
 * sim_departures.c: the lines of `deckhand sim --departures` (sim_departures.h).
 */
#include "sim_departures.h"

#define SIM_DEPARTURE_CARDS 128  /* distinct card names listed per seat */
#define SIM_DEPARTURE_IDS   4096 /* the policy's answer (engine_bundle.h: ENGINE_MAX_OPTIONS) */

static void sim_answer_print(FILE *out, const engine_decision *d, const uint32_t *ids, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const engine_option *o = &d->options[ids[i] - 1];
        fprintf(out, " [%s|%s]", o->label, o->card ? o->card : "");
    }
}

void sim_departure_print(FILE *out, engine_match *m, long game, const engine_decision *d,
                         const uint32_t *ids, size_t n, const char *policy)
{
    uint32_t pids[SIM_DEPARTURE_IDS];
    size_t pn = SIM_DEPARTURE_IDS;
    fprintf(out, "departure %ld seat %d kind %s prompt [%s] chose", game, d->seat, d->kind,
            d->prompt);
    sim_answer_print(out, d, ids, n);
    fprintf(out, " policy");
    if (policy && engine_match_bot_answer(m, policy, pids, &pn, NULL) == ENGINE_OK)
        sim_answer_print(out, d, pids, pn);
    for (int p = 0; p < engine_match_nplayers(m); p++) {
        engine_deck_count dc[SIM_DEPARTURE_CARDS];
        size_t k = engine_match_deck(m, p, dc, SIM_DEPARTURE_CARDS);
        if (!k)
            continue;
        fprintf(out, " | P%d", p);
        for (size_t i = 0; i < k; i++)
            fprintf(out, " %s=%u", dc[i].card, dc[i].count);
    }
    fputc('\n', out);
}
