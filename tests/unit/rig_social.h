/*
 * rig_social.h: parties and lobbies at a matchmaker under test (rig_mm.h): the client
 * requests a gateway forwards (ClientRequest) and what comes back to it, the mm_output
 * states (PartyState, LobbyState, LobbyList) before each QueueReply.
 *
 * rs_answer reads a gateway's messages up to the QueueReply of one command, keeping the
 * last state of each kind each player got (rs_party, rs_lobby, rs_list), so a test checks
 * both the answer and what every member was told.
 */
#ifndef DECKHAND_RIG_SOCIAL_H
#define DECKHAND_RIG_SOCIAL_H

#include "rig_mm.h"

#define RS_PLAYERS_MAX 64

typedef struct {
    char player_id[32];
    Deckhand__ServerMessage *party, *lobby, *list, *games; /* the last of each this player
                                                               got (owned) */
} rs_seen;

typedef struct {
    rs_seen seen[RS_PLAYERS_MAX];
    size_t n;
    char why[160]; /* the message of the last refusal rs_answer read */
} rig_social;

/* rig_mm_open_fresh, then each of the nworkers workers announces dominion with its
 * kingdom option (rig_mm_hello_options), as lobbies' options are checked against it. */
void rs_open_fresh(rig_mm *r, const char *id, int nworkers);
/* Only the announcements, on a rig already open. */
void rs_announce(rig_mm *r, int nworkers);
void rs_init(rig_social *s);
void rs_free(rig_social *s);

/* Send one client message as a ClientRequest from gateway gw for player pid (named pid). */
void rs_send(void *gw, const char *pid, uint64_t cmd, const Deckhand__ClientMessage *m);
/* Read gw's messages (none waits longer than RIG_MM_WAIT_MS) until the QueueReply of cmd:
 * 0 when ok, else its error code (its message in s->why); -1 when none came. mm_output
 * states are kept (rs_party ...); other messages are dropped. */
int rs_answer(rig_social *s, void *gw, uint64_t cmd);
/* Read gw's messages for ms, keeping the states. */
void rs_drain(rig_social *s, void *gw, long ms);
/* rs_send, rig_mm_pump at now, rs_answer. */
int rs_do(rig_social *s, rig_mm *r, void *gw, const char *pid, uint64_t cmd,
          const Deckhand__ClientMessage *m, uint64_t now);

/* The last PartyState, LobbyState or LobbyList pid got, or NULL. */
const Deckhand__PartyState *rs_party(const rig_social *s, const char *pid);
const Deckhand__LobbyState *rs_lobby(const rig_social *s, const char *pid);
const Deckhand__LobbyList *rs_list(const rig_social *s, const char *pid);
const Deckhand__Games *rs_games_of(const rig_social *s, const char *pid);

/* Client messages, built in a static buffer each (valid until the next call of the same). */
const Deckhand__ClientMessage *rs_party_create(void);
const Deckhand__ClientMessage *rs_party_join(const char *code);
const Deckhand__ClientMessage *rs_party_leave(void);
const Deckhand__ClientMessage *rs_lobby_create(const char *game, uint32_t seats, bool public_);
/* The same with one option of the caller's (name, value) instead of kingdom=first_game. */
const Deckhand__ClientMessage *rs_lobby_create_with(const char *game, uint32_t seats,
                                                    const char *name, const char *value);
const Deckhand__ClientMessage *rs_lobby_join(const char *code);
const Deckhand__ClientMessage *rs_lobby_leave(void);
const Deckhand__ClientMessage *rs_lobby_ready(bool ready);
const Deckhand__ClientMessage *rs_lobby_start(void);
const Deckhand__ClientMessage *rs_lobby_list(const char *game);
const Deckhand__ClientMessage *rs_games(void);

#endif
