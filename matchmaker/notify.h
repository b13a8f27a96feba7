/*
 * notify.h: what the matchmaker tells one player outside any match. A party's or a
 * lobby's member is known by its player id, its name and the gateway that holds its
 * connection; a ServerMessage for it (PartyState, LobbyState, LobbyList) travels to that
 * gateway as Internal.mm_output, which delivers it when the player is connected there.
 *
 * A leaf under parties.c and lobbies.c: it only packs and sends.
 */
#ifndef DECKHAND_MM_NOTIFY_H
#define DECKHAND_MM_NOTIFY_H

#include <stdbool.h>

#include "deckhand.pb-c.h"
#include "dh_zmq.h"
#include "queue.h"

struct mm_state;

/* A member of a party or a lobby. */
typedef struct {
    char player_id[QUEUE_NAME_MAX];
    char name[QUEUE_NAME_MAX];
    char gateway[DH_ZMQ_ID_MAX + 1]; /* where its messages go: its latest gateway */
    bool connected;                  /* false after PlayerAway, until PlayerBack */
    bool ready;                      /* lobbies only */
} notify_member;

/* Fill a member from wire strings (NULL is empty). False when one does not fit or holds a
 * control character. */
bool notify_member_init(notify_member *m, const char *player_id, const char *name,
                        const char *gateway);
/* A client's text: no control characters, shorter than max. NULL is "". */
bool notify_text_ok(const char *s, size_t max);

/* The Member message for m (pointing into m). */
void notify_member_msg(const notify_member *m, Deckhand__Member *out);

/* Send m to the player through its gateway (mm_output). Best effort: a lost message is
 * logged, and the next change sends the whole state again. */
void notify_send(struct mm_state *mm, const char *gateway, const char *player_id,
                 const Deckhand__ServerMessage *m);

#endif
