/*
 * route.h: where matches live. match_id -> the worker's dealer, learnt from
 * MatchAssigned, or on a miss from Redis (lookup.c), so that a player may resume through
 * any gateway; changed by the matchmaker's MatchMoved when a match fails over to another
 * worker. Player commands go to a match's worker through its route.
 *
 * Failover (docs/redis.md, "Durable matches"): MatchMoved re-routes a match and
 * the commands in flight for its players get UNAVAILABLE at once (route_move); backend.c
 * then re-attaches the players connected here to the new worker.
 */
#ifndef DECKHAND_GW_ROUTE_H
#define DECKHAND_GW_ROUTE_H

#include "conn.h"
#include "deckhand.pb-c.h"
#include "inwire.h"
#include "zsock.h"

/* Set up g->matches. 0 or -1. */
int route_init(gw *g);
/* Free the routes (the dealers are zsock.c's). */
void route_free(gw *g);

/* Remember that match_id lives on worker_id at endpoint; returns its dealer or NULL. */
zsock *route_learn(gw *g, const char *match_id, const char *worker_id, const char *endpoint);
/* Forget match_id's route, if it still goes through via (NULL: whatever it is). */
void route_forget(gw *g, const char *match_id, const zsock *via);
/* The dealer match_id is routed through, or NULL when there is no route. */
zsock *route_owner(gw *g, const char *match_id);

/* The distinct worker ids of the routes known here, at most max (borrowed until routes
 * change); for a replay that needs a live worker, any (replay.c). */
size_t route_workers(gw *g, const char **ids, size_t max);

/* Remember that the player of c is seated in match_id (where a disconnect is reported):
 * call it only with what the matchmaker or a worker said, never with a client's word. */
void route_note_match(gw_conn *c, const char *match_id);
/* True when c noted match_id (route_note_match): its client knows the match already. */
bool route_conn_has_match(const gw_conn *c, const char *match_id);
/* The player of c is done with match_id (its GameOver): forget it. */
void route_drop_match(gw_conn *c, const char *match_id);

/* The gateway's own commands (cmd_id 0) to match_id's worker, through Redis when there
 * is no route; nothing answers them and one that cannot be sent is dropped. An attach
 * (a Resync) makes the worker route the player's outputs here; an away starts the seat's
 * grace period. */
void route_attach(gw *g, const char *match_id, const char *player_id);
void route_away(gw *g, const char *match_id, const char *player_id);

/* Send pc (its match_id and player_id set; cmd_id set to 0 here) as one of the gateway's
 * own commands, through Redis when there is no route; nothing answers it and one that
 * cannot be sent is dropped (what names it in the log line). */
void route_own_command(gw *g, Deckhand__Internal__PlayerCommand *pc, const char *what);
/* Forward pc (match_id, player_id, cmd_id and body set) to its match's worker, tracked
 * for its Reply as route_player_command does; watch: a Spectate, whose answer seats
 * nobody. OK when queued to be sent at the end of the loop turn (zsock_command; a failed
 * send is answered then, route_unsent), else the error to reply now. */
Deckhand__ErrorCode route_command(gw *g, Deckhand__Internal__PlayerCommand *pc, bool watch);
/* Forward a client's Choose read in place (inwire.h) from c's player, as route_command
 * does, the PlayerCommand written around the Choose's own bytes. */
Deckhand__ErrorCode route_choose(gw *g, gw_conn *c, const inwire_choose *ch);

/* A command queued for a worker was not sent (g->command_unsent, from zsock.c; err the
 * send's errno): its player, when still waiting, is answered OVERLOADED (the worker's
 * queue is full) or UNAVAILABLE now; the gateway's own commands are only logged. */
void route_unsent(gw *g, const char *player_id, uint64_t cmd_id, int err);

/* The player of c disconnected: an away to the worker of every match it is seated in
 * (c->matches), which are then forgotten. */
void route_player_away(gw *g, gw_conn *c);

/* Forward a Choose or Resync (exactly one non-NULL) to the worker hosting match_id. OK
 * when sent (the worker replies, or the gateway answers UNAVAILABLE when the worker is
 * silent or the match moves meanwhile); otherwise the error to reply now. A worker's
 * UNKNOWN_MATCH makes the gateway forget its route for the match, so that the next
 * command looks it up in Redis again. */
Deckhand__ErrorCode route_player_command(gw *g, gw_conn *c, uint64_t cmd_id, const char *match_id,
                                         Deckhand__Choose *choose, Deckhand__Resync *resync);

/* The matchmaker moved mv's match to another worker: re-route it (without an endpoint
 * the route is only dropped, and the next command asks Redis) and answer UNAVAILABLE to
 * the commands in flight for its players, which the old worker will not answer. Returns
 * how many were answered. */
size_t route_move(gw *g, const Deckhand__Internal__MatchMoved *mv);

#endif
