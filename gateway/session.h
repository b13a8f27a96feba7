/*
 * session.h: what a connection means to the game: login (guest or token), the per-
 * connection rate limit, and the dispatch of each ClientMessage to its answer, the
 * matchmaker or a worker. Every ClientMessage gets exactly one Reply.
 */
#ifndef DECKHAND_GW_SESSION_H
#define DECKHAND_GW_SESSION_H

#include "conn.h"
#include "deckhand.pb-c.h"

/* A connection's first moment (rate bucket full). */
void session_open(gw_conn *c);
/* One received frame payload (a ClientMessage, perhaps undecodable). */
void session_on_frame(gw_conn *c, const uint8_t *data, size_t len);
/* The transport saw a frame it cannot accept (oversized, text): Reply BAD_FRAME, close. */
void session_bad_frame(gw_conn *c, const char *why);
/* The connection is going away: forget it as its player's route. */
void session_on_close(gw_conn *c);

/* Pack and send m to c. Returns 0 or -1. */
int session_send(gw_conn *c, const Deckhand__ServerMessage *m);
/* Send Reply{cmd_id, ok or error code + message} to c. */
int session_reply(gw_conn *c, uint64_t cmd_id, Deckhand__ErrorCode code, const char *message);

/* The connection of player_id on this gateway, or NULL. */
gw_conn *session_find(gw *g, const char *player_id);
/* Send Reply{cmd_id, code + message} to player_id when connected here (g->answer: what
 * the modules below this one answer through). */
void session_answer(gw *g, const char *player_id, uint64_t cmd_id, Deckhand__ErrorCode code,
                    const char *message);

/* g->account_done (accounts.h): log c in as the account, or Reply the error. */
void session_account_done(gw_conn *c, uint64_t cmd_id, Deckhand__ErrorCode code,
                          const char *message, const char *player_id, const char *name);

#endif
