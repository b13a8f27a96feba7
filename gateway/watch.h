/*
 * watch.h: a connection watching a match (docs/worker.md, "Spectators"; the
 * protocol's "Watching"). A logged-in connection watches at most one match
 * (gw_conn.watching): Spectate finds the match's worker as a resume does (the route, or
 * Redis) and sends it PlayerCommand{spectate}; the worker's Catalog, Reply and delayed
 * SpectatorFrames come back as PlayerOutputs for the watcher's player id, and only frames
 * of the match the connection watches are passed on. A new Spectate replaces the old
 * (a spectate_stop goes to the old match's worker), as do SpectateStop and a dropped
 * connection; when the match moves (MatchMoved), its watchers here are attached to the
 * new worker.
 *
 * Layer: called by session.c and backend.c (who find the connection), calls route.c.
 */
#ifndef DECKHAND_GW_WATCH_H
#define DECKHAND_GW_WATCH_H

#include "conn.h"
#include "deckhand.pb-c.h"
#include "zsock.h"

/* A Spectate of c: checked and forwarded to the match's worker, which replies. OK when
 * forwarded (or answered already: BAD_REQUEST), else the error to reply now. */
Deckhand__ErrorCode watch_spectate(gw *g, gw_conn *c, uint64_t cmd_id, const Deckhand__Spectate *s);
/* c stops watching (SpectateStop, or its connection closing): the worker is told. */
void watch_stop(gw *g, gw_conn *c);
/* The gateway itself answered c's cmd_id with code (a Redis miss, a timeout): when it was
 * the Spectate in flight and not ok, c watches nothing. */
void watch_refused(gw_conn *c, uint64_t cmd_id, Deckhand__ErrorCode code);
/* The worker answered c's Spectate of match_id: a refusal ends the watching. */
void watch_answered(gw_conn *c, const char *match_id, const Deckhand__Reply *r);
/* True when msg (a PlayerOutput's ServerMessage) is a SpectatorFrame. */
bool watch_is_frame(const ProtobufCBinaryData *msg);
/* True when msg is a SpectatorFrame that carries GameOver (the match's last), read from
 * its fields' tags without decoding the View. */
bool watch_frame_is_last(const ProtobufCBinaryData *msg);
/* c was given msg, a frame of match_id from the worker at from: the last one ends the
 * watching and drops the match's route. */
void watch_frame_seen(gw *g, zsock *from, gw_conn *c, const char *match_id,
                      const ProtobufCBinaryData *msg);
/* A SpectatorFrame of match_id for player_id, whose connection here is c (NULL: none):
 * true when c watches that match; otherwise false, and the worker at from is told to stop
 * sending them. */
bool watch_frame_wanted(zsock *from, gw_conn *c, const char *player_id, const char *match_id);
/* match_id moved to another worker (after route_move): every connection here watching it
 * is attached to the new one. How many. */
size_t watch_moved(gw *g, const char *match_id);

#endif
