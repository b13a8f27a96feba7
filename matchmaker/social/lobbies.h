/*
 * lobbies.h: lobbies, where a host gathers players for one match of a game and mode with
 * the options it chose, then starts it.
 *
 * LobbyCreate names a game the workers serve (UNKNOWN_GAME), a mode, the seats (0: the
 * game's maximum; else min..max) and options (kept as given: at most LOBBY_OPTIONS_MAX,
 * names and values under LOBBY_TEXT_MAX), public (listed) or private (joined by code
 * only). LobbyJoin adds a player by code (NOT_FOUND; FULL when every seat is taken);
 * LobbyReady marks a member ready or not; LobbyLeave takes the player out (the next member
 * hosts when the host leaves; the last one out closes it). LobbyListRequest lists the open
 * public lobbies, newest first, at most LOBBY_LIST_MAX, of one game or of all.
 *
 * LobbyStart, by the host only, when every member (the host too) is ready and there are
 * at least the game's min_players members: the members are placed as one match of that
 * many seats exactly as a formed match of the line is (placement_place: a worker, a
 * stored placement, StartMatch, then MatchFound to each); every member gets the last
 * LobbyState, with match_id set and closed, and the lobby is gone. Such a match is rated
 * like any match of its mode.
 *
 * A player is in at most one lobby, and not in a lobby while waiting in a line (both ways
 * refused with BAD_REQUEST). At most LOBBIES_MAX lobbies exist at once (OVERLOADED past
 * it). Kept in memory by the acting matchmaker and in Redis (groups.h: mm:lobbies), so the
 * one that takes over after a failover has them.
 *
 * A lobby is a group (data/group.h) with seats, ready marks and options; what it shares
 * with a party (codes, storage, presence, leaving) is groups.h. This module is what only a
 * lobby does.
 */
#ifndef DECKHAND_MM_LOBBIES_H
#define DECKHAND_MM_LOBBIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "groups.h"
#include "internal.pb-c.h"

/* ---- requests and events (through the process state) -------------------------------- */

struct mm_state;

/* How a lobby is told and stored (groups.h). */
extern const group_kind lobbies_kind;

/* LobbyCreate ... LobbyListRequest from r: the answer's code (why: its text, which may be
 * written into text, cap bytes, the caller's). LobbyState and LobbyList messages go out
 * before it returns, so before the caller's QueueReply. */
Deckhand__ErrorCode lobbies_request(struct mm_state *mm, const char *gateway,
                                    const Deckhand__Internal__ClientRequest *r, const char **why,
                                    char *text, size_t cap, uint64_t now_ms);

#endif
