/*
 * engine_undo.c: whether a player's last answer may be taken back (engine.h,
 * engine_match_can_take_back), judged as the answer runs.
 *
 * Taking an answer back must not let its player learn anything it could then play
 * around: so the answer qualifies only when, while it ran, no randomness was drawn (the
 * generator's state is unchanged: no shuffle, no g:random), no card left a place hidden
 * from that player (a deck, another seat's hand, the cards under a pile's top), and no
 * turn boundary was crossed (the turn's snapshot and log still hold everything before
 * it, so taking it back is a rebuild without its entry, as engine_match_undo does). A
 * card entering a hidden place reveals nothing, and a card leaving the player's own hand
 * reveals only what its opponents see anyway.
 *
 * Cost: before each answer of a match with a human seat, the ids and places of the cards
 * hidden from the answering seat are noted (about a hundred for Dominion); a bots-only
 * match or a search's copy notes nothing.
 */
#include <string.h>

#include "dh_grow.h"
#include "engine_internal.h"

/* Whether card index i of zone z (of n, the top last) is hidden from seat (0-based). */
static bool undo_hidden(const engine_match *m, const engine_zone *z, uint32_t i, int seat)
{
    switch (engine_zone_vis_id(m->game, &m->b->names, z->name)) {
    case ENGINE_VIS_PUBLIC:
        return false;
    case ENGINE_VIS_OWNER:
        return z->owner != seat + 1;
    case ENGINE_VIS_TOP:
        return i + 1 < z->n;
    default:
        return true;
    }
}

int engine_undo_begin(engine_match *m, int seat)
{
    m->takeback_seat = -1;
    m->undo_nhidden = 0;
    if (m->copy || m->all_bots)
        return 0;
    memcpy(m->undo_rng, m->st.rng, sizeof m->undo_rng);
    m->undo_turn = m->st.turn;
    for (uint32_t zi = 0; zi < m->st.nzones; zi++) {
        const engine_zone *z = &m->st.zones[zi];
        for (uint32_t i = 0; i < z->n; i++) {
            if (!undo_hidden(m, z, i, seat))
                continue;
            if (dh_grow(&m->undo_hidden, &m->undo_hidden_cap, m->undo_nhidden + 2,
                        sizeof *m->undo_hidden, 64) < 0)
                return -1;
            m->undo_hidden[m->undo_nhidden++] = z->ids[i];
            m->undo_hidden[m->undo_nhidden++] = zi;
        }
    }
    return 0;
}

void engine_undo_end(engine_match *m, int seat)
{
    m->takeback_seat = -1;
    if (m->copy || m->all_bots || m->boundary_in_answer || m->st.finished ||
        m->st.turn != m->undo_turn || !m->log.n ||
        memcmp(m->undo_rng, m->st.rng, sizeof m->undo_rng) != 0)
        return;
    for (size_t i = 0; i < m->undo_nhidden; i += 2)
        if (m->st.ents[m->undo_hidden[i] - 1].zone != m->undo_hidden[i + 1])
            return;
    m->takeback_seat = seat;
}

bool engine_match_can_take_back(const engine_match *m, int seat)
{
    return seat >= 0 && m->takeback_seat == seat && m->log.n && !m->st.finished;
}
