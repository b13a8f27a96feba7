/*
 * group.h: the parties and the lobbies the acting matchmaker holds, as pure data (no
 * sockets, no clock), so that their rules are unit-tested on their own
 * (tests/unit/test_matchmaker_parties.c, test_matchmaker_lobbies.c). One structure for
 * both: a party is a group of at most QUEUE_PARTY_MAX members; a lobby is a group with a
 * game, a mode, its seats, options, a public flag and ready marks.
 *
 * A set finds a group by its code and by each member's player id, and keeps every group in
 * a list newest first (what LobbyListRequest walks). members[0] leads (a party) or hosts
 * (a lobby); when a member leaves the order stays, so the next one leads; the last one out
 * frees the group. A player is in at most one group of a set. The start check of a lobby
 * (host, everyone ready, the game's minimum) is here too. What the matchmaker does with
 * them is social/groups.h, parties.h and lobbies.h.
 */
#ifndef DECKHAND_MM_GROUP_H
#define DECKHAND_MM_GROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "code_index.h"
#include "codes.h"
#include "member.h"
#include "queue.h"

#define PARTIES_MAX       10000 /* parties at once */
#define LOBBIES_MAX       10000 /* lobbies at once */
#define GROUP_MEMBERS_MAX QUEUE_PARTY_MAX
#define LOBBY_SEATS_MAX   GROUP_MEMBERS_MAX
#define LOBBY_OPTIONS_MAX 16
#define LOBBY_TEXT_MAX    64 /* an option's name or value, with its NUL */
#define LOBBY_LIST_MAX    50
#define LOBBY_LIST_BYTES  32768 /* a LobbyList stops short of this many bytes */

typedef struct {
    char name[LOBBY_TEXT_MAX];
    char value[LOBBY_TEXT_MAX];
} group_option;

typedef struct group {
    char code[CODES_LEN + 1];
    member_info members[GROUP_MEMBERS_MAX]; /* members[0] leads or hosts */
    size_t n;
    uint32_t seats; /* members at most (a party: GROUP_MEMBERS_MAX) */
    /* a lobby's, as LobbyCreate set them (a party's stay empty) */
    char game[QUEUE_NAME_MAX];
    char mode[QUEUE_NAME_MAX];
    bool public;
    group_option options[LOBBY_OPTIONS_MAX];
    size_t noptions;
    struct group *newer, *older; /* every group of the set, newest first */
} group;

typedef struct {
    code_index ix; /* by code and by member */
    group *newest, *oldest;
    size_t max; /* groups at most (tests lower it) */
} group_set;

typedef enum {
    GROUP_OK = 0,
    GROUP_NOT_FOUND, /* no group has the code */
    GROUP_FULL,      /* every seat is taken */
    GROUP_ALREADY,   /* the player is in a group of the set (or the code is taken) */
    GROUP_NOT_IN,    /* the player is in no group */
    GROUP_TOO_MANY,  /* set->max groups exist */
    GROUP_NOMEM,
} group_status;

/* An empty set of at most max groups (PARTIES_MAX, LOBBIES_MAX). */
void group_set_init(group_set *s, size_t max);
/* Every group freed; the set stays usable, with its max. */
void group_set_free(group_set *s);
/* A party's spec: its code, every other field empty, GROUP_MEMBERS_MAX seats. */
group group_party_spec(const char *code);
/* A new group like spec (its code, seats and, for a lobby, game, mode, public and options;
 * members ignored) led by leader (not ready); *out gets it. */
group_status group_set_create(group_set *s, const group *spec, const member_info *leader,
                              group **out);
group_status group_set_join(group_set *s, const char *code, const member_info *m, group **out);
/* Take the player out. *out gets its group, or NULL when that closed (and was freed). */
group_status group_set_leave(group_set *s, const char *player_id, group **out);
/* Close g: every member out, g freed. */
void group_set_close(group_set *s, group *g);
group_status group_set_ready(group_set *s, const char *player_id, bool ready);
group *group_set_of(const group_set *s, const char *player_id);
group *group_set_find(const group_set *s, const char *code);
member_info *group_set_member(group *g, const char *player_id);
size_t group_set_count(const group_set *s);
/* Up to cap open public groups of game ("" or NULL: any), newest first, into out. */
size_t group_set_list(const group_set *s, const char *game, const group **out, size_t cap);
/* Whether the host may start lobby g now, given the game's min_players: NULL, or why not. */
const char *group_start_check(const group *g, const char *player_id, uint32_t min_players);

#endif
