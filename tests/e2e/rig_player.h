/*
 * rig_player.h: one player of the e2e protocol tests, connected to a real gateway through
 * dh_client, with everything it has seen (its seat, the pending decision, replies by
 * cmd_id, views), message builders, bounded waits and a tiny Dominion bot.
 *
 * Every ServerMessage a player receives passes the privacy check (no other seat's hand,
 * no deck order, no other seat's private events); pl_watch counts what it looked at and
 * every violation, so the promise is watched in every test that uses this rig.
 */
#ifndef DECKHAND_RIG_PLAYER_H
#define DECKHAND_RIG_PLAYER_H

#include "dh_client.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WAIT_MS  8000 /* the longest a single answer may take */
#define MAX_OPTS 64

typedef struct {
    bool valid;
    uint64_t id;
    uint32_t seat;
    char kind[32];
    uint32_t min, max;
    size_t nopt;
    uint32_t opt_id[MAX_OPTS];
    char opt_card[MAX_OPTS][48];
    char opt_label[MAX_OPTS][96];
    uint32_t time_left_ms; /* as the worker last told it (0: no limit) */
    long long got_ms;      /* pl_now_ms when this decision first arrived */
} pl_decision;

typedef struct {
    uint64_t cmd_id;
    bool ok;
    int code;
} pl_reply;

typedef struct {
    dh_client *c;
    char name[32];
    char match_id[96];
    int seat; /* -1 until MatchFound */
    pl_decision dec;
    uint64_t answered; /* the last decision id this player answered */
    bool played_treasures;
    int waiting_for;
    uint64_t view_sig;
    unsigned nviews, ndecisions, nevents;
    unsigned ndeltas, ncatalogs;
    Deckhand__ServerMessage *held;    /* the last View, deltas applied (owned) */
    uint64_t held_sig;                /* the fingerprint of held just before the last View */
    Deckhand__ServerMessage *catalog; /* the last Catalog (owned) */
    uint64_t bytes_in;                /* TCP bytes received (frames) */
    uint64_t bytes_full; /* what they would have been with a full View for every change */
    uint64_t last_pong;
    bool game_over, closed;
    pl_reply replies[64];
    size_t nreplies;
    /* the last PartyState, LobbyState and LobbyList received (owned), or NULL */
    Deckhand__ServerMessage *party, *lobby, *lobby_list;
} pl_player;

/* What the privacy checks saw, so a test can fail them and cannot pass by seeing nothing. */
typedef struct {
    unsigned violations;
    unsigned decks_seen, other_hands_seen, private_events_seen;
    unsigned deltas_seen, delta_other_hands_seen; /* a ViewDelta, another seat's hand in one */
} pl_watch_counts;
extern pl_watch_counts pl_watch;

/* Called (when set) with every message a player receives, before the rig handles it: a
 * test that must look at every message (test_spectate.c) records them here. */
extern void (*pl_on_message)(pl_player *p, const Deckhand__ServerMessage *m);

/* The gateway's TCP and WebSocket addresses; set by the test before connecting. */
extern char pl_gateway[128], pl_gateway_ws[160];

/* Monotonic milliseconds. */
long long pl_now_ms(void);
/* Receive one message (up to ms) and handle it. 1, 0 on timeout, -1 when closed. */
int pl_step(pl_player *p, int ms);
/* Handle whatever arrives on any of ps within ms. Returns the number of messages. */
int pl_pump(pl_player **ps, size_t n, int ms);
/* Wait for the Reply to cmd_id: its error code (0 = ok), or -1 when none came. */
int pl_wait_reply(pl_player *p, uint64_t cmd_id);
/* A connected player (pl_gateway; pl_login_to: addr) before or after its guest login; the
 * caller owns it and frees it with pl_drop. NULL when the gateway refuses. */
pl_player *pl_connect(const char *name);
pl_player *pl_login_to(const char *addr, const char *name);
pl_player *pl_login(const char *name);
/* Close p's connection and free it (NULL is fine). */
void pl_drop(pl_player *p);
/* Message builders: send one ClientMessage, return its cmd_id (cmd_id 0: a fresh one). */
uint64_t pl_send_ping(pl_player *p, uint64_t nonce);
uint64_t pl_send_queue(pl_player *p, const char *game, uint32_t players);
uint64_t pl_send_choose(pl_player *p, const char *match_id, uint64_t decision_id,
                        const uint32_t *ids, size_t n, uint64_t cmd_id);
uint64_t pl_send_resync(pl_player *p, const char *match_id);
/* Any message built by the caller (dh_client_social.h...): its fresh cmd_id. */
uint64_t pl_send(pl_player *p, Deckhand__ClientMessage *m);
/* Ask for a full view and wait for it and the Reply. The view's fingerprint, 0 if none. */
uint64_t pl_resync(pl_player *p);
/* The player of ps whose decision is pending and unanswered, or NULL. */
pl_player *pl_decider(pl_player **ps, size_t n);
/* Pump ps until one of them must decide. */
pl_player *pl_wait_decider(pl_player **ps, size_t n);
/* Log in two fresh guests (names from tag) and queue them for a 2-player dominion match.
 * Both end up seated, with a view, and one of them with a decision. */
bool pl_start_match(const char *tag, pl_player **a, pl_player **b);
/* The test's own bot: play all treasures, buy Province, Gold or Silver, else end the
 * turn, else the first min options. Fills ids, returns how many. */
size_t pl_bot_choose(pl_player *p, uint32_t *ids);
/* Answer p's pending decision with the bot and wait for the Reply: its code (0 = ok), -1
 * for none. RATE_LIMITED (over 50 messages/s past a burst of 100 on one connection, which a
 * bot answering at once passes in a long game) is waited out, as a client would. */
int pl_bot_answer(pl_player *p);
/* The same, with the answer asked of the game's bot strategy on the worker (Choose.bot). */
int pl_game_bot_answer(pl_player *p, const char *strategy);
/* Answers sent again after a RATE_LIMITED, since the start. */
extern int pl_rate_limited;
/* Drop both players of a match. */
void pl_end_match(pl_player *a, pl_player *b);

#endif
