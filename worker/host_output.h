/*
 * host_output.h: what the host sends out (host_output.c): to players through their
 * gateway, and to the matchmaker. Private to the host's files (host.h is the public face).
 */
#ifndef DECKHAND_WORKER_HOST_OUTPUT_H
#define DECKHAND_WORKER_HOST_OUTPUT_H

#include "host_send.h"
#include "worker.h"

/* A seat's memory of its last HOST_REPLIES outcomes, for retried cmd_ids. */
void host_remember(host_seat *s, uint64_t cmd_id, int code, const char *text);
const host_reply *host_recall(const host_seat *s, uint64_t cmd_id);
/* Free the seat's memory of replies. */
void host_forget(host_seat *s);
void host_release_events(host *h, host_match *hm);
void host_send_decision(host *h, host_match *hm, int seat);
/* How long, from now_ms, until the worker answers hm's pending decision for its seat or
 * forfeits it (DecisionRequest.time_left_ms): the decision timer, the rest of the turn
 * timer or the idle cap, whichever ends first, by the rules host_tick (host_timers.c)
 * applies; at least 1 once due; 0 when nothing is pending or no limit applies. */
uint32_t host_time_left_ms(const host *h, const host_match *hm, uint64_t now_ms);
/* To the matchmaker. */
void host_send_control(host *h, Deckhand__Internal__Internal *msg);
void host_match_started(host *h, const char *match_id, bool ok, const char *error);

#endif
