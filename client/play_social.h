/*
 * play_social.h: parties and lobbies in `deckhand play`: the typed commands (party, lobby,
 * ready, start...) and how the states the matchmaker sends (PartyState, LobbyState,
 * LobbyList) are printed, and what each refusal means. cmd_play.c owns the connection and the loop;
 * these only build, send and print.
 */
#ifndef DECKHAND_PLAY_SOCIAL_H
#define DECKHAND_PLAY_SOCIAL_H

#include <stdbool.h>

#include "deckhand.pb-c.h"

/* The commands' lines of `help`. */
extern const char play_social_help[];

/* Sends one message (its cmd_id set by the caller's send): 0, or -1 when the connection
 * is lost. */
typedef int (*play_social_send)(void *arg, Deckhand__ClientMessage *m);

/* Run text when it is a party or lobby command (game: the one `lobby create` uses):
 * true when it was one (sent, or its usage printed). */
bool play_social_command(const char *text, const char *game, play_social_send send, void *arg);
/* Print s when it is a PartyState, LobbyState or LobbyList: true when it was one. */
bool play_social_show(const Deckhand__ServerMessage *s);

#endif
