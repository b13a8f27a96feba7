/*
 * worker_control.h: the worker's messages with the rest of the cluster, the module that
 * main.c's loop hands every socket to. In: what the matchmaker sends on the control path
 * (StartMatch, AdoptMatch) and what gateways send on the data path (PlayerCommand), each
 * handed to the host (host.h). Out, unasked: WorkerHello (which games, which bundle, what
 * capacity) and WorkerBeat (load, draining), with the worker:{ID} lease riding on the beat.
 *
 * Named worker_control, not control: every process folder is on the unit tests' include
 * path, and the matchmaker has a control.h of its own.
 */
#ifndef DECKHAND_WORKER_WORKER_CONTROL_H
#define DECKHAND_WORKER_WORKER_CONTROL_H

#include <stdbool.h>
#include <stdint.h>

#include "host.h"
#include "inbox.h"

#define WORKER_LEASE_MS 2000 /* worker:{ID}'s TTL, renewed with every beat */

/* Drain the matchmaker's messages (up to a bound per call, in number and in time: a join
 * storm brings StartMatches by the hundred). true when an AdoptMatch asks
 * for an adoption round now: the caller runs it between batches (host_adopt_pending). */
bool worker_control_matchmaker(host *h, uint64_t now_ms);
/* Move the gateways' PlayerCommands from the data socket into the inbox (up to a bound
 * per call); a command the full inbox cannot take is answered OVERLOADED now. How many
 * were refused. */
size_t worker_control_receive(host *h, inbox *q);
/* Hand queued commands to the host, oldest first, until the inbox is empty or the clock
 * passes until_ms (at least one is worked). How many were. */
size_t worker_control_work(host *h, inbox *q, uint64_t until_ms);

void worker_control_hello(host *h);
/* A beat to the matchmaker and the lease renewed; stopping: the last one, as the worker
 * exits, so the matchmaker moves our matches now. */
void worker_control_beat(host *h, uint64_t now_ms, bool stopping);

#endif
