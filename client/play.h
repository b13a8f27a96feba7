/*
 * play.h: the state of `deckhand play` (cmd_play.c, the loop and the commands) and the
 * table it draws (play_screen.c).
 */
#ifndef DECKHAND_CLIENT_PLAY_H
#define DECKHAND_CLIENT_PLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli_options.h"
#include "dh_client.h"
#include "dh_client_gws.h"

#define PLAY_LOG_KEEP   200 /* log lines remembered (`log` shows them) */
#define PLAY_LOG_SHOWN  8   /* log lines under the table */
#define PLAY_MAX_PICK   64
#define PLAY_RECONNECTS 30 /* tries, a second apart, after a lost connection */

typedef struct {
    dh_client *c;
    dh_client_gws gws; /* --gateway's list: a drained gateway sends us to the next */
    bool moving;       /* told to Reconnect: leave for the next gateway */
    char token[512];   /* to resume after a lost connection */
    const char *game;
    uint32_t size;
    cli_options options; /* --option NAME=VALUE, on every join */
    char name[64];
    char match_id[128];
    uint32_t seat;
    bool in_match;
    bool queued; /* sent a QueueJoin: a reconnect sends it again */
    bool over;
    Deckhand__ServerMessage *view_msg;         /* the last View, deltas applied (owned) */
    Deckhand__ServerMessage *catalog_msg;      /* the card texts of its bundle (owned) */
    Deckhand__ServerMessage *dec_msg;          /* the last DecisionRequest for us (owned) */
    const Deckhand__DecisionRequest *decision; /* pending for us, inside one of the two */
    uint64_t shown_decision;       /* decision id last printed, to avoid printing it twice */
    uint64_t clock_decision;       /* the decision whose time_left_ms the clock below counts */
    uint64_t clock_ms;             /* when it was first shown (dh_now_ms): its countdown's start */
    uint64_t last_seq;             /* event_seq seen in this match */
    unsigned long long choose_cmd; /* cmd_id of our last Choose */
    char *log[PLAY_LOG_KEEP];      /* ring of recent log lines */
    size_t nlog;
    char line[1024]; /* stdin bytes of the line being typed */
    size_t linelen;
} play_state;

/* The game log under the table: add a line (copied), print the last `last` lines. */
void play_log_add(play_state *ps, const char *text);
void play_log_print(const play_state *ps, size_t last);
/* The table: the decision in front of the player (once per decision), the whole table
 * (supply, hands, counters, players, log, decision), one card's text, every card's. */
void play_print_decision(play_state *ps);
void play_draw(play_state *ps);
void play_show_card(const play_state *ps, const char *name);
void play_show_cards(const play_state *ps);

#endif
