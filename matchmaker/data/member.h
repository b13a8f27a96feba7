/*
 * member.h: a member of a party or a lobby, as the matchmaker holds it: the player id,
 * the name, the gateway that holds its connection (where its messages go: the latest
 * one it was seen on), whether it is connected, and, in a lobby, ready. And the Member
 * message a PartyState or LobbyState lists. A leaf: group.h holds
 * these.
 */
#ifndef DECKHAND_MM_MEMBER_H
#define DECKHAND_MM_MEMBER_H

#include <stdbool.h>
#include <stddef.h>

#include "deckhand.pb-c.h"
#include "dh_zmq.h"
#include "queue.h"

typedef struct {
    char player_id[QUEUE_NAME_MAX];
    char name[QUEUE_NAME_MAX];
    char gateway[DH_ZMQ_ID_MAX + 1]; /* where its messages go: its latest gateway */
    bool connected;                  /* false after PlayerAway, until PlayerBack */
    bool ready;                      /* lobbies only */
} member_info;

/* Fill a member from wire strings (NULL is empty). False when one does not fit or holds a
 * control character. */
bool member_init(member_info *m, const char *player_id, const char *name, const char *gateway);
/* A client's text: no control characters, shorter than max. NULL is "". */
bool member_text_ok(const char *s, size_t max);

/* The member of v[0..n) with the player id, or NULL. */
member_info *member_find(member_info *v, size_t n, const char *player_id);

/* The Member message for m (pointing into m). */
void member_msg(const member_info *m, Deckhand__Member *out);

#endif
