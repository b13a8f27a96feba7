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

/* How many cards of zone z, from the bottom, are hidden from seat (0-based): all of a
 * hidden zone or of another seat's own, all but the top of a pile showing its top. */
static uint32_t undo_hidden_count(const engine_match *m, const engine_zone *z, int seat)
{
    switch (engine_zone_vis_id(m->game, &m->b->names, z->name)) {
    case ENGINE_VIS_PUBLIC:
        return 0;
    case ENGINE_VIS_OWNER:
        return z->owner != seat + 1 ? z->n : 0;
    case ENGINE_VIS_TOP:
        return z->n ? z->n - 1 : 0;
    default:
        return z->n;
    }
}

/* Notes the n ids at ids as hidden in zone zi, one word each: the zone in the high half,
 * the id in the low one (one store per card instead of two). */
static void note_hidden(uint64_t *out, const uint32_t *ids, uint32_t n, uint32_t zi)
{
    uint64_t zone = (uint64_t)zi << 32;
    for (uint32_t i = 0; i < n; i++)
        out[i] = zone | ids[i];
}

int engine_undo_begin(engine_match *m, int seat)
{
    m->undo.seat = -1;
    m->undo.nhidden = 0;
    if (m->copy || m->all_bots)
        return 0;
    memcpy(m->undo.rng, m->st.rng, sizeof m->undo.rng);
    m->undo.turn = m->st.turn;
    for (uint32_t zi = 0; zi < m->st.nzones; zi++) {
        const engine_zone *z = &m->st.zones[zi];
        uint32_t n = z->n ? undo_hidden_count(m, z, seat) : 0;
        if (!n)
            continue;
        if (m->undo.nhidden + n > m->undo.cap && /* the call only to grow (21 zones a time) */
            dh_grow(&m->undo.hidden, &m->undo.cap, m->undo.nhidden + n, sizeof *m->undo.hidden,
                    128) < 0)
            return -1;
        note_hidden(m->undo.hidden + m->undo.nhidden, z->ids, n, zi);
        m->undo.nhidden += n;
    }
    return 0;
}

void engine_undo_end(engine_match *m, int seat)
{
    m->undo.seat = -1;
    if (m->copy || m->all_bots || m->boundary_in_answer || m->st.finished ||
        m->st.turn != m->undo.turn || !m->log.n ||
        memcmp(m->undo.rng, m->st.rng, sizeof m->undo.rng) != 0)
        return;
    for (size_t i = 0; i < m->undo.nhidden; i++) {
        uint64_t note = m->undo.hidden[i];
        if (m->st.ents[(uint32_t)note - 1].zone != (uint32_t)(note >> 32))
            return;
    }
    m->undo.seat = seat;
}

bool engine_match_can_take_back(const engine_match *m, int seat)
{
    return seat >= 0 && m->undo.seat == seat && m->log.n && !m->st.finished;
}
