/*
 * flood.h: what happens to a connection that keeps sending past its rate limit, and the
 * bans that follow (docs/SECURITY.md, "Gateway").
 *
 * The rate limit itself (session.c) is a token bucket: GW_RATE_PER_SEC messages a second,
 * bursts of GW_RATE_BURST; a message past it is refused with RATE_LIMITED. A client that
 * only leans on the limit is throttled and nothing more. One that floods builds a debt:
 * each refused message adds one, and the debt drains at GW_RATE_PER_SEC a second, so it
 * grows only while the client sends more than twice its limit. Past GW_FLOOD_QUIET the
 * refusals go without a Reply (counted, and the count said in the next Reply sent); past
 * GW_FLOOD_MAX the connection gets a last Reply{cmd_id 0, RATE_LIMITED} saying how many
 * messages were refused and how many of those got no Reply, and is closed; its address
 * and its player are then refused for --flood-ban-ms (0: not at all). Sustained at four
 * times the limit (200 messages/s) a connection is dropped about 2.5 s after its burst
 * is spent; a flood of 10,000 messages/s within a few tens of milliseconds.
 *
 * Bans live in g->bans ("a:ADDRESS" or "p:PLAYER_ID" -> the loop time they end), at
 * most GW_FLOOD_BANS of them; flood_tick drops the ones past.
 */
#ifndef DECKHAND_GW_FLOOD_H
#define DECKHAND_GW_FLOOD_H

#include "conn.h"

#define GW_FLOOD_QUIET 150.0 /* refusal debt past which refusals get no Reply */
#define GW_FLOOD_MAX   250.0 /* refusal debt at which the connection is dropped */
#define GW_FLOOD_BANS  65536 /* bans held at most; past it a flooder is only dropped */

/* Set up g->bans. 0 or -1. */
int flood_init(gw *g);
void flood_free(gw *g);

/* What to do with a message the rate limit refused on c. */
typedef enum {
    FLOOD_REPLY,  /* answer it RATE_LIMITED, with flood_reply_text */
    FLOOD_SILENT, /* drop it without a Reply; it is counted */
    FLOOD_DROP,   /* the connection floods: a last Reply (flood_drop_text), then flood_drop */
} flood_verdict;
flood_verdict flood_refused(gw_conn *c);
/* The text of a RATE_LIMITED Reply to c, saying how many refusals before it got none;
 * that count starts again. */
void flood_reply_text(gw_conn *c, char *out, size_t n);
/* The text of the last Reply{cmd_id 0, RATE_LIMITED} of a connection dropped for
 * flooding: how many messages were refused, how many without a Reply, for how long it is
 * refused. */
void flood_drop_text(gw_conn *c, char *out, size_t n);
/* Close c (after its queued output) for flooding, count it, and ban its address and its
 * player for --flood-ban-ms. */
void flood_drop(gw_conn *c);

/* True while key's ban runs: flood_addr_key or flood_player_key. */
bool flood_banned(gw *g, const char *key);
void flood_addr_key(char *out, size_t n, const char *addr);
void flood_player_key(char *out, size_t n, const char *player_id);

/* Periodic: forget the bans that are over. */
void flood_tick(gw *g);

#endif
