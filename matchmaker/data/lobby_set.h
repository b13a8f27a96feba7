/*
 * lobby_set.h: the lobbies the acting matchmaker holds, as pure data (no sockets, no
 * clock), so that their rules are unit-tested on their own
 * (tests/unit/test_matchmaker_lobbies.c): a lobby by its code and by each member's player
 * id, and every lobby in a list newest first (what LobbyListRequest walks); members[0]
 * hosts, and when a member leaves the order stays, so the next one hosts; the last one out
 * frees the lobby. The start check (host, everyone ready, the game's minimum) is here too.
 * What the matchmaker does with them is lobbies.h.
 */
#ifndef DECKHAND_MM_LOBBY_SET_H
#define DECKHAND_MM_LOBBY_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codes.h"
#include "code_index.h"
#include "member.h"
#include "queue.h"

#define LOBBIES_MAX       10000 /* lobbies at once */
#define LOBBY_SEATS_MAX   QUEUE_PARTY_MAX
#define LOBBY_OPTIONS_MAX 16
#define LOBBY_TEXT_MAX    64 /* an option's name or value, with its NUL */
#define LOBBY_LIST_MAX    50
#define LOBBY_LIST_BYTES  32768 /* a LobbyList stops short of this many bytes */

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
    member_info members[LOBBY_SEATS_MAX]; /* members[0] hosts */
    size_t n;
    struct lobby *newer, *older; /* every lobby, newest first */
} lobby;

typedef struct {
    code_index ix; /* by code and by member */
    lobby *newest, *oldest;
    size_t max; /* lobbies at most (LOBBIES_MAX; tests lower it; 0: the default) */
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

void lobby_set_init(lobby_set *s);
void lobby_set_free(lobby_set *s);
/* A new lobby like spec (its code, game, mode, seats, public and options; members
 * ignored) hosted by host; *out gets it. */
lobby_status lobby_set_create(lobby_set *s, const lobby *spec, const member_info *host,
                              lobby **out);
lobby_status lobby_set_join(lobby_set *s, const char *code, const member_info *m, lobby **out);
/* Take the player out. *out gets its lobby, or NULL when that closed (and was freed). */
lobby_status lobby_set_leave(lobby_set *s, const char *player_id, lobby **out);
/* Close l: every member out, l freed. */
void lobby_set_close(lobby_set *s, lobby *l);
lobby_status lobby_set_ready(lobby_set *s, const char *player_id, bool ready);
lobby *lobby_set_of(const lobby_set *s, const char *player_id);
lobby *lobby_set_find(const lobby_set *s, const char *code);
member_info *lobby_set_member(lobby *l, const char *player_id);
size_t lobby_set_count(const lobby_set *s);
/* Up to cap open public lobbies of game ("" or NULL: any), newest first, into out. */
size_t lobby_set_list(const lobby_set *s, const char *game, const lobby **out, size_t cap);
/* Whether the host may start l now, given the game's min_players: NULL, or why not. */
const char *lobby_set_start_check(const lobby *l, const char *player_id, uint32_t min_players);

#endif
