/*
 * boards.h: the read side of ratings at the gateway: LeaderboardRequest and
 * HistoryRequest (docs/PROTOCOL.md), answered from leaderboard:{GAME}:{MODE},
 * rating:{GAME}:{MODE}, accounts:names and history:{ACCOUNT} (dh_keys.h), which only the
 * workers write (worker/rater.h). Each is an acct_op (accounts.h): one per connection at
 * a time, answered by its message and then a Reply.
 */
#ifndef DECKHAND_GW_BOARDS_H
#define DECKHAND_GW_BOARDS_H

#include "conn.h"
#include "deckhand.pb-c.h"

#define BOARDS_LIMIT_DEFAULT     10
#define BOARDS_LEADERBOARD_LIMIT 100

void boards_leaderboard(gw_conn *c, uint64_t cmd_id, const Deckhand__LeaderboardRequest *m);
/* The logged-in account's own history. */
void boards_history(gw_conn *c, uint64_t cmd_id, const Deckhand__HistoryRequest *m);

#endif
