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
 * it). Kept in memory by the acting matchmaker: a failover forgets them.
 *
 * The set (lobbies_create ... lobbies_list) is pure data, unit-tested on its own
 * (tests/unit/test_matchmaker_lobbies.c); lobbies_request acts through the process state.
 */
#ifndef DECKHAND_MM_LOBBIES_H
#define DECKHAND_MM_LOBBIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codes.h"
#include "dh_table.h"
#include "internal.pb-c.h"
#include "notify.h"
#include "queue.h"

#define LOBBIES_MAX       10000 /* lobbies at once */
#define LOBBY_SEATS_MAX   QUEUE_PARTY_MAX
#define LOBBY_OPTIONS_MAX 16
#define LOBBY_TEXT_MAX    64 /* an option's name or value, with its NUL */
#define LOBBY_LIST_MAX    50

typedef struct {
    char name[LOBBY_TEXT_MAX];
    char value[LOBBY_TEXT_MAX];
} lobby_option;

typedef struct lobby {
    char code[CODES_LEN + 1];
    char game[QUEUE_NAME_MAX];
    char mode[QUEUE_NAME_MAX];
    uint32_t seats;
    bool public;
    lobby_option options[LOBBY_OPTIONS_MAX];
    size_t noptions;
    notify_member members[LOBBY_SEATS_MAX]; /* members[0] hosts */
    size_t n;
    struct lobby *newer, *older; /* every lobby, newest first */
} lobby;

typedef struct {
    dh_table by_code;   /* code -> lobby* (owned) */
    dh_table by_player; /* player id -> lobby* */
    lobby *newest, *oldest;
    size_t max; /* lobbies at most (LOBBIES_MAX; tests lower it; 0: the default) */
    bool ready; /* the tables are made */
} lobby_set;

typedef enum {
    LOBBY_OK = 0,
    LOBBY_NOT_FOUND, /* no lobby has the code */
    LOBBY_FULL,      /* every seat is taken */
    LOBBY_ALREADY,   /* the player is in a lobby (or the code is taken) */
    LOBBY_NOT_IN,    /* the player is in no lobby */
    LOBBY_TOO_MANY,  /* set->max lobbies exist */
    LOBBY_NOMEM,
} lobby_status;

/* ---- the set (pure data) ------------------------------------------------------------ */

void lobbies_init(lobby_set *s);
void lobbies_free(lobby_set *s);
/* A new lobby like spec (its code, game, mode, seats, public and options; members
 * ignored) hosted by host; *out gets it. */
lobby_status lobbies_create(lobby_set *s, const lobby *spec, const notify_member *host,
                            lobby **out);
lobby_status lobbies_join(lobby_set *s, const char *code, const notify_member *m, lobby **out);
/* Take the player out. *out gets its lobby, or NULL when that closed (and was freed). */
lobby_status lobbies_leave(lobby_set *s, const char *player_id, lobby **out);
/* Close l: every member out, l freed. */
void lobbies_close(lobby_set *s, lobby *l);
lobby_status lobbies_ready(lobby_set *s, const char *player_id, bool ready);
lobby *lobbies_of(const lobby_set *s, const char *player_id);
lobby *lobbies_find(const lobby_set *s, const char *code);
notify_member *lobby_member(lobby *l, const char *player_id);
size_t lobbies_count(const lobby_set *s);
/* Up to cap open public lobbies of game ("" or NULL: any), newest first, into out. */
size_t lobbies_list(const lobby_set *s, const char *game, const lobby **out, size_t cap);
/* Whether the host may start l now, given the game's min_players: NULL, or why not. */
const char *lobbies_start_check(const lobby *l, const char *player_id, uint32_t min_players);

/* ---- requests and events (through the process state) -------------------------------- */

struct mm_state;

/* LobbyCreate ... LobbyListRequest from r: the answer's code (why: its text, which may be
 * written into text, cap bytes, the caller's). LobbyState and LobbyList messages go out
 * before it returns, so before the caller's QueueReply. */
Deckhand__ErrorCode lobbies_request(struct mm_state *mm, const char *gateway,
                                    const Deckhand__Internal__ClientRequest *r, const char **why,
                                    char *text, size_t cap, uint64_t now_ms);
/* The player's connection dropped or came back on gateway: the lobby hears of it. */
void lobbies_presence(struct mm_state *mm, const char *player_id, const char *gateway,
                      bool connected);

#endif
