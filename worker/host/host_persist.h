/*
 * host_persist.h: how a hosted match is written to Redis (host_persist.c). Private to the
 * host's files (host.h is the public face).
 */
#ifndef DECKHAND_WORKER_HOST_PERSIST_H
#define DECKHAND_WORKER_HOST_PERSIST_H

#include "host_internal.h"

/* Wall-clock ms (which workers share, unlike the monotonic now_ms): when a match was
 * created or ended, when an away seat left. The machine's, plus h->wall_ahead_ms. */
uint64_t host_wall_ms(const host *h);
/* Over: the rules ended it, a seat forfeited, or the match was quarantined. */
bool host_over(const host_match *hm);
/* Why a match that is over ended, when not by its rules or a forfeit: DH_END_SCRIPT_ERROR,
 * DH_END_TURN_CAP, else NULL. */
const char *host_end_reason(const host_match *hm);
/* The final table by seat (see host_persist.c for a forfeit's). */
size_t host_results(const host_match *hm, engine_result *res, size_t max);
/* Queue the fenced write that makes Redis hold hm as the engine has it now. -1: not queued. */
int host_persist(host *h, host_match *hm, const engine_answer *accepted);
/* host_persist's write landed (ok) or failed: Redis now holds the snapshot it carried, if
 * any, or still the one before. A failed one may still have run (its reply lost): until a
 * write of hm lands, its commits ask Redis to check their answer is not in already. */
void host_persist_landed(host_match *hm, bool ok);
/* c (a snapshot's write for hm) in the layout the worker writes (--log-in-history: the
 * snapshot behind the tail head), noted on hm until it lands (host_persist_landed). */
void host_persist_tail(const host *h, host_match *hm, store_commit *c);
/* Queue the fenced write of what must survive an adoption besides the match: when each
 * away seat left (as wall-clock ms, which workers share) and the failures in a row. The
 * write is fire and forget: lost, a new owner starts the grace period afresh. */
void host_persist_notes(host *h, host_match *hm, uint64_t now_ms);
/* Hold an action on store op op until host_flush; marks hm busy. NULL: out of memory. */
host_action *host_hold(host *h, host_act_kind kind, host_match *hm, int op);
/* hm ends now, once Redis has its result (why it ends is set by the caller: a forfeit, a
 * quarantine, an operator). False when the write could not even be held (out of memory). */
bool host_end(host *h, host_match *hm, uint64_t now_ms);

#endif
