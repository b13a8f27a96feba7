/*
 * dh_client_track.h: what a client checks about one match's stream of messages, as a
 * pure state machine (no sockets), used by `deckhand bots` and pinned by unit tests.
 *
 * Three promises of docs/PROTOCOL.md are checked here:
 * - event_seq has no gaps: an Event past last+1 asks for a Resync (a View resets last);
 * - nothing accepted disappears: once an answer to decision D got Reply{ok}, a
 *   DecisionRequest (or a View's decision) for this seat with an id <= D, or a View whose
 *   event_seq is below the highest one seen, means the server lost an accepted command;
 * - an answer refused with UNAVAILABLE or UNKNOWN_MATCH (a moved match, an outage), or
 *   whose Reply was lost with the connection, may or may not have gone in. Only the View
 *   that answers a Resync sent after it tells: if that View still offers the same
 *   decision, it may be answered once more. Any View or DecisionRequest before it may
 *   have been computed before the answer was applied (it was in flight, or it reaches a
 *   resumed connection late), and answering from it would answer twice.
 */
#ifndef DECKHAND_DH_CLIENT_TRACK_H
#define DECKHAND_DH_CLIENT_TRACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "deckhand.pb-c.h"

typedef struct {
    uint32_t seat;
    uint64_t seq_max;     /* highest event_seq seen in any message of the match */
    uint64_t seq_last;    /* the Event stream's position, valid once seq_known */
    bool seq_known;       /* a View has set seq_last */
    bool answered;        /* answer_id is set */
    uint64_t answer_id;   /* the decision last answered (sent) */
    bool accepted;        /* accepted_id is set */
    uint64_t accepted_id; /* the decision of the last answer that got Reply{ok} */
    bool uncertain;       /* answer_id may not have gone in: the next resync tells */
    bool may_repeat;      /* answer_id may be answered once more, from the next View */
} dh_track;

typedef enum {
    DH_TRACK_NONE,   /* nothing to do */
    DH_TRACK_ANSWER, /* a decision for this seat to answer now */
    DH_TRACK_GAP,    /* events were missed: send Resync */
    DH_TRACK_LOST,   /* an accepted command disappeared (why says how) */
} dh_track_verdict;

/* A new match (MatchFound) for seat: forget everything about the previous one. */
void dh_track_start(dh_track *t, uint32_t seat);

/* An Event: NONE or GAP. Older or repeated events are NONE. */
dh_track_verdict dh_track_event(dh_track *t, uint64_t event_seq);

/* A View (decision: its decision, NULL when none) or, with is_view false, a
 * DecisionRequest's event_seq and decision. NONE, ANSWER or LOST; on LOST why (whylen
 * bytes) says what went backwards. Decisions for other seats are NONE. */
dh_track_verdict dh_track_state(dh_track *t, bool is_view, uint64_t event_seq,
                                const Deckhand__DecisionRequest *decision, char *why,
                                size_t whylen);

/* The answer to decision_id was sent. */
void dh_track_sent(dh_track *t, uint64_t decision_id);
/* The answer to decision_id got Reply{ok}. */
void dh_track_accepted(dh_track *t, uint64_t decision_id);
/* The last answer was refused (UNAVAILABLE, UNKNOWN_MATCH) or its Reply was lost: it may
 * not have gone in. */
void dh_track_refused(dh_track *t);
/* A Resync sent after that refusal got Reply{ok}: the View that follows is the state
 * after the answer, so if it still offers the same decision, that one may be answered
 * once more. */
void dh_track_resynced(dh_track *t);

#endif
