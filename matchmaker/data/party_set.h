/*
 * party_set.h: the parties the acting matchmaker holds, as pure data (no sockets, no
 * clock), so that their rules are unit-tested on their own
 * (tests/unit/test_matchmaker_parties.c): a party by its code, and by each member's player
 * id; members[0] leads, and when a member leaves the order stays, so the next one leads;
 * the last one out frees the party. At most QUEUE_PARTY_MAX members, and set->max parties
 * at once. What the matchmaker does with them is parties.h.
 */
#ifndef DECKHAND_MM_PARTY_SET_H
#define DECKHAND_MM_PARTY_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "codes.h"
#include "code_index.h"
#include "member.h"
#include "queue.h"

#define PARTIES_MAX 10000 /* parties at once */

typedef struct {
    char code[CODES_LEN + 1];
    member_info members[QUEUE_PARTY_MAX]; /* members[0] leads */
    size_t n;
} party_group;

typedef struct {
    code_index ix; /* by code and by member */
    size_t max;    /* parties at most (PARTIES_MAX; tests lower it; 0: the default) */
} party_set;

typedef enum {
    PARTY_OK = 0,
    PARTY_NOT_FOUND, /* no party has the code */
    PARTY_FULL,      /* QUEUE_PARTY_MAX members already */
    PARTY_ALREADY,   /* the player is in a party */
    PARTY_NOT_IN,    /* the player is in no party */
    PARTY_TOO_MANY,  /* set->max parties exist */
    PARTY_NOMEM,
} party_status;

void party_set_init(party_set *s);
void party_set_free(party_set *s);
/* A new party with code (fresh, checked by the caller: PARTY_ALREADY when taken too) led by
 * leader; *out gets it. */
party_status party_set_create(party_set *s, const char *code, const member_info *leader,
                              party_group **out);
party_status party_set_join(party_set *s, const char *code, const member_info *m,
                            party_group **out);
/* Take the player out. *out gets its party, or NULL when that closed (and was freed). */
party_status party_set_leave(party_set *s, const char *player_id, party_group **out);
party_group *party_set_of(const party_set *s, const char *player_id);
party_group *party_set_find(const party_set *s, const char *code);
member_info *party_set_member(party_group *p, const char *player_id);
size_t party_set_count(const party_set *s);

#endif
