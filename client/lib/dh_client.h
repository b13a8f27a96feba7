/*
 * dh_client.h: a blocking client connection to a deckhand gateway, over TCP (4-byte
 * big-endian length framing) or WebSocket (one binary frame per message).
 *
 * Used by the deckhand command (play, bots) and by the end-to-end tests. One dh_client is
 * one connection; many can be multiplexed with poll() on dh_client_fd(), as long as the
 * caller drains dh_client_pending() first (a read may buffer more than one message).
 */
#ifndef DECKHAND_DH_CLIENT_H
#define DECKHAND_DH_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "deckhand.pb-c.h"

typedef struct dh_client dh_client;
struct dh_arena;

/* Connect to "host:port" (TCP) or "ws://host:port/path" (WebSocket, handshake included).
 * NULL on failure with err filled. The caller owns the client; dh_client_close frees it. */
dh_client *dh_client_connect(const char *addr, char *err, size_t errlen);
void dh_client_close(dh_client *c);
int dh_client_fd(const dh_client *c);

/* Send one message (blocking). 0 on success, -1 when the connection failed. */
int dh_client_send(dh_client *c, const Deckhand__ClientMessage *m);
/* Send raw bytes as one frame's payload (tests: malformed messages). */
int dh_client_send_raw(dh_client *c, const void *buf, size_t len);
/* Send raw bytes on the socket as they are, with no framing (tests: broken frames). */
int dh_client_send_bytes(dh_client *c, const void *buf, size_t len);

/* Receive one message, waiting up to timeout_ms (-1: forever). 1 with *out set (free with
 * deckhand__server_message__free_unpacked(*out, NULL)), 0 on timeout, -1 when the
 * connection is closed or sent something undecodable. */
int dh_client_recv(dh_client *c, int timeout_ms, Deckhand__ServerMessage **out);
/* True when a whole message is already buffered (recv will not block). */
bool dh_client_pending(const dh_client *c);
/* For a loop woken by its poller: one read that does not wait, then hand out what it
 * decoded with dh_client_next, without the second read dh_client_recv(c, 0) makes to
 * find the socket empty. read: 1 bytes came, 0 none, -1 the connection ended (what was
 * decoded before still comes out of next). next: 1 with *out (as recv's), 0 nothing
 * buffered, -1 nothing buffered and the connection ended. */
int dh_client_read(dh_client *c);
int dh_client_next(dh_client *c, Deckhand__ServerMessage **out);
/* Lean decoding (dh_client_lean.h): Events, Views and ViewDeltas come with only their
 * match_id, event_seq and decision; Catalogs are dropped. For bots, after the login. */
void dh_client_set_lean(dh_client *c, bool lean);
/* Decode every message from now on into a (dh_client_arena.h; NULL: malloc, the
 * default), without a malloc per field. The caller owns a: it gives the messages back with
 * dh_arena_release (not deckhand__server_message__free_unpacked), keeps a alive while any
 * is in use, queued ones included, and resets it when none is (dh_client_pending false). */
void dh_client_set_arena(dh_client *c, struct dh_arena *a);
/* Receive stamps (TCP only): every read also takes the kernel's time of arrival of its
 * bytes (SO_TIMESTAMPNS), which dh_client_rx_ns gives on dh_now_ns's clock (0 before the
 * first read), so a load generator can time a Reply from when it reached the socket, not
 * from when its own loop got round to it. 0, or -1 (WebSocket, or refused). */
int dh_client_set_rx_stamps(dh_client *c, bool on);
uint64_t dh_client_rx_ns(const dh_client *c);

/* Guest login: sends Hello{name} with a fresh cmd_id and waits for Welcome and Reply.
 * Copies the player id and token when the buffers are not NULL. 0 on success. */
int dh_client_login(dh_client *c, const char *name, char *player_id, size_t idlen, char *token,
                    size_t toklen);

/* Resume a player: sends Hello{token} and waits for Welcome and Reply, like
 * dh_client_login; the Welcome carries a fresh token, copied to newtoken when not NULL.
 * 0 on success, -1 when the token is refused or the connection fails. */
int dh_client_resume(dh_client *c, const char *token, char *player_id, size_t idlen, char *newtoken,
                     size_t toklen);

/* The next cmd_id this client will use (1, 2, 3...), for callers building messages. */
unsigned long long dh_client_next_cmd(dh_client *c);

/* Make next the next cmd_id (call it before dh_client_resume). A client that reconnects
 * must go on from where its previous connection stopped: the worker answers a cmd_id it
 * has seen before from its memory of that command instead of applying it again
 * (docs/PROTOCOL.md), so restarting at 1 would get old answers for new commands. */
void dh_client_set_next_cmd(dh_client *c, unsigned long long next);

#endif
