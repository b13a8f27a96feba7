/*
 * dh_zmq.h: sending and receiving internal protobuf messages over ZeroMQ.
 *
 * A message is [identity frame] + one packed deckhand.internal.Internal. ROUTER sockets
 * pass the peer identity; DEALER sockets pass NULL. Both calls never block.
 */
#ifndef DECKHAND_DH_ZMQ_H
#define DECKHAND_DH_ZMQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <zmq.h>

#include "internal.pb-c.h"

#define DH_ZMQ_ID_MAX 255

/* Pack and send msg. Returns 0, or -1 with errno set (EAGAIN: the peer's queue is full,
 * treat as overload; EHOSTUNREACH: unknown identity on a ROUTER_MANDATORY socket). */
int dh_zmq_send(void *sock, const char *identity, const Deckhand__Internal__Internal *msg);

/* How many dh_zmq_send calls this thread has made. A loop that waits on a socket's ZMQ_FD
 * itself compares it before it waits: a send lets libzmq process the socket's commands, which
 * may take the signal of a message that arrived, so the fd alone would sleep through it
 * (matchmaker/wait.h). */
uint64_t dh_zmq_sends(void);

/* Receive one waiting message. Returns 1 and sets *out (free it with
 * deckhand__internal__internal__free_unpacked(*out, NULL)); 0 when nothing waits; -1 when
 * a malformed message, or one its sender's role may not send, was read and dropped
 * (logged). On a ROUTER socket, identity (at
 * least DH_ZMQ_ID_MAX+1 bytes) receives the sender's identity as a C string. */
int dh_zmq_recv(void *sock, char *identity, Deckhand__Internal__Internal **out);

/* dh_zmq_recv in two steps, for a reader that looks at the packed bytes first (the
 * matchmaker skips a worker's hello that repeats its last one): dh_zmq_recv_frame receives
 * the body frame into *body (1; 0 nothing waits; -1 dropped, as dh_zmq_recv: *body is then
 * closed), dh_zmq_unpack_frame unpacks it as dh_zmq_recv does and closes it (with pa's
 * allocator: free the message with the same, or NULL for malloc). A reader that
 * keeps the frame closes it itself (zmq_msg_close); dh_zmq_frame_may_send is the role check
 * for a body it does not unpack. */
int dh_zmq_recv_frame(void *sock, char *identity, zmq_msg_t *body);
int dh_zmq_unpack_frame(zmq_msg_t *body, const char *identity, ProtobufCAllocator *pa,
                        Deckhand__Internal__Internal **out);
bool dh_zmq_frame_may_send(zmq_msg_t *body, const char *identity, int body_case);

/* True when a peer whose CURVE key has role ("gateway", "worker": the ZAP handler's
 * User-Id, dh_zap.h) may send a message of body_case to a ROUTER. NULL or "" (a link
 * without CURVE) allows everything. dh_zmq_recv drops (-1, logged) what this refuses. */
bool dh_zmq_role_may_send(const char *role, int body_case);

/* True when ZMQ_EVENTS says a message can be read now. The ZMQ_FD is edge-triggered:
 * callers drain until this is false after every wake-up and every send. */
bool dh_zmq_readable(void *sock);

/* Create a socket with the project's defaults: linger 0, high-water marks hwm, a routing
 * id when id is not NULL, ROUTER_MANDATORY on ROUTER sockets. NULL on failure. */
void *dh_zmq_socket(void *ctx, int type, const char *id, int hwm);

/* A socket monitor on sock for events (ZMQ_EVENT_*), read through the PAIR socket returned
 * (at inproc endpoint ep, unique per sock; the caller closes it); NULL with errno set when
 * libzmq refuses. */
void *dh_zmq_monitor_open(void *ctx, void *sock, const char *ep, int events);
/* The next event on a monitor (two frames each in libzmq 4.x: a 6-byte frame holding the
 * event number, 16 bits, and a value, 32 bits; then the peer's endpoint, skipped): its
 * number, 0 when none waits (only then: a frame too short to hold a number reads as ~0u,
 * so a reader that loops until 0 has emptied the monitor). */
unsigned dh_zmq_monitor_event(void *mon);

#endif
