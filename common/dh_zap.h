/*
 * dh_zap.h: the process's ZAP handler (ZeroMQ RFC 27), which decides who may complete a
 * CURVE handshake with its server sockets.
 *
 * libzmq asks inproc://zeromq.zap.01 of the socket's context about every handshake; a
 * thread of ours answers there: 200 for a client public key the socket's domain admits
 * (dh_curve.h: the matchmaker admits the gateway and worker keys, a worker's data socket
 * the gateway key), with the key's role ("gateway" or "worker") as the User-Id that every
 * message of that connection then carries; 400 for anything else, counted and logged
 * (the first 10 refusals, then every 1000th, so a rogue peer cannot flood the log).
 *
 * The thread only touches its own socket, a copy of the keys and two atomics (the counter
 * and its stop flag, which it looks at every 100 ms).
 */
#ifndef DECKHAND_DH_ZAP_H
#define DECKHAND_DH_ZAP_H

#include "dh_curve.h"
#include "dh_metrics.h"

#define DH_ZAP_ROLE_GATEWAY "gateway"
#define DH_ZAP_ROLE_WORKER  "worker"

typedef struct dh_zap dh_zap;

/* Bind the handler in ctx and start its thread; it answers with c's keys (copied). NULL
 * on failure (logged). Call before binding a CURVE server socket (dh_curve_server). */
dh_zap *dh_zap_start(void *ctx, const dh_curve *c);
/* Handshakes refused so far (a metric: deckhand_internal_auth_refused_total). */
dh_counter *dh_zap_refused(dh_zap *z);
/* Stop and join the thread (which closes its socket), free z; before zmq_ctx_term. NULL
 * is a no-op. */
void dh_zap_stop(dh_zap *z);

#endif
