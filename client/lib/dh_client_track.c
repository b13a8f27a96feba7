/*
 * dh_client_track.c: see dh_client_track.h.
 *
 * Decision ids count per match, across seats (the engine's decision_seq), and survive a
 * snapshot, a restore and an adoption; event_seq counts per (match, seat) and is rebuilt
 * the same way. So both only ever grow for a client that sees a match through any number
 * of workers, and a step back is a command the store lost, not a reordering: every path
 * from one worker to a client is FIFO, and a worker that lost a match cannot release
 * anything (its writes are fenced before its outputs go).
 */
#include "dh_client_track.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void dh_track_start(dh_track *t, uint32_t seat)
{
    memset(t, 0, sizeof *t);
    t->seat = seat;
}

dh_track_verdict dh_track_event(dh_track *t, uint64_t event_seq)
{
    if (event_seq > t->seq_max)
        t->seq_max = event_seq;
    if (!t->seq_known) /* before the first View: nothing to compare with */
        return DH_TRACK_NONE;
    if (event_seq <= t->seq_last)
        return DH_TRACK_NONE;
    bool gap = event_seq > t->seq_last + 1;
    t->seq_last = event_seq;
    return gap ? DH_TRACK_GAP : DH_TRACK_NONE;
}

dh_track_verdict dh_track_state(dh_track *t, bool is_view, uint64_t event_seq,
                                const Deckhand__DecisionRequest *decision, char *why, size_t whylen)
{
    bool repeat = false;
    if (is_view && event_seq < t->seq_max) {
        snprintf(why, whylen, "a View at event_seq %" PRIu64 " after event_seq %" PRIu64, event_seq,
                 t->seq_max);
        return DH_TRACK_LOST;
    }
    if (event_seq > t->seq_max)
        t->seq_max = event_seq;
    if (is_view) {
        t->seq_last = event_seq;
        t->seq_known = true;
        repeat = t->may_repeat; /* only the first View after the resync may repeat */
        t->may_repeat = false;
    }
    if (!decision || decision->seat != t->seat)
        return DH_TRACK_NONE;
    uint64_t id = decision->decision_id;
    if (t->accepted && id <= t->accepted_id) {
        snprintf(why, whylen,
                 "decision %" PRIu64 " offered again after decision %" PRIu64 " was accepted", id,
                 t->accepted_id);
        return DH_TRACK_LOST;
    }
    if (!t->answered || id > t->answer_id || (repeat && id == t->answer_id))
        return DH_TRACK_ANSWER;
    return DH_TRACK_NONE; /* answered already (a View repeating it), or older */
}

void dh_track_sent(dh_track *t, uint64_t decision_id)
{
    t->answered = true;
    t->answer_id = decision_id;
    t->uncertain = false;
    t->may_repeat = false;
}

void dh_track_accepted(dh_track *t, uint64_t decision_id)
{
    if (!t->accepted || decision_id > t->accepted_id)
        t->accepted_id = decision_id;
    t->accepted = true;
}

void dh_track_refused(dh_track *t)
{
    t->uncertain = t->answered;
}

void dh_track_resynced(dh_track *t)
{
    t->may_repeat = t->uncertain;
    t->uncertain = false;
}
