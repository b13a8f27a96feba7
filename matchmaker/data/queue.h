/*
 * queue.h: the matchmaker's waiting lines, one per (game, mode, players), and the
 * skill-based choice of who plays whom.
 *
 * A pure data structure (no sockets, no clock: callers pass the time in), so the rules
 * of waiting are unit-tested on their own (tests/unit/test_queue*.c and
 * test_matchmaker_matching*.c).
 *
 * A ticket is one or more players who sit in one match together: a solo player, or a
 * party of k (queue_join_party), which counts k seats. Every player has a rating (mu,
 * sigma: OpenSkill / Weng-Lin); matching uses mu, and a party's rating is its members'
 * mean mu. A player waits in at most one line at a time.
 *
 * Matching (queue_form.c): a pass walks a line from its oldest ticket. The ticket's
 * window (the rating difference it accepts) starts at window_initial and widens by
 * window_per_s for every second it has waited, up to window_max; the tickets nearest in
 * rating within that window fill the seats. A line whose key names no player count
 * (players 0: "flexible") seats min_players..max_players and prefers full matches: a
 * ticket waits full_wait_ms for a full one, then accepts one seat fewer, and so on down
 * to min_players. The oldest ticket's window decides (it is the widest of the pass).
 *
 * Cost: join, leave, find, away and back are O(1) (a hash by player id, linked lists);
 * one formation looks at a bounded number of rating buckets and tickets (O(1) in the
 * line's length), so a pass over n tickets is O(n). See queue_impl.h for the layout.
 *
 * Tickets taken out for a placement can be pushed back at the front when the placement
 * fails, so those players keep their place. A ticket with a player marked away (its
 * connection dropped) keeps its place in the line's age order but is passed over by
 * formation until every member is back.
 */
#ifndef DECKHAND_MM_QUEUE_H
#define DECKHAND_MM_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dh_zmq.h"

#define QUEUE_NAME_MAX  64
#define QUEUE_AI_MAX    32   /* a difficulty's name (QueueJoin.vs_ai) */
#define QUEUE_PARTY_MAX 8    /* players on one ticket */
#define QUEUE_LINES_MAX 4096 /* lines at once; an empty one is reused past that */
#define QUEUE_OPTIONS_MAX                                                                          \
    256 /* a line's game options as canonical text (options.h): a                                  \
         * kingdom list fits; at most the worker's HOST_OPTIONS_MAX */
#define QUEUE_MU_DEFAULT    25.0
#define QUEUE_SIGMA_DEFAULT (25.0 / 3.0)

/* Which line: tickets only ever match others with the same key. players 0: a flexible
 * line (queue_rules says how many seats). options: the game options the tickets asked
 * for, canonical ("name=value;..." by name, defaults left out: options.h), "" for none. */
typedef struct {
    char game[QUEUE_NAME_MAX];
    char mode[QUEUE_NAME_MAX];
    uint32_t players;
    char options[QUEUE_OPTIONS_MAX];
    /* set: a line against the AI at this difficulty (QueueJoin.vs_ai): each ticket's match
     * forms at once, alone with bots of that strategy (placement_form.c), unrated */
    char vs_ai[QUEUE_AI_MAX];
} queue_key;

/* One player of a ticket, as stored (state.c) and seated (placement.c). */
typedef struct {
    char player_id[QUEUE_NAME_MAX];
    char name[QUEUE_NAME_MAX];
    char gateway[DH_ZMQ_ID_MAX + 1]; /* identity of the gateway holding the player */
    uint64_t cmd_id;                 /* of the QueueJoin, for logs */
    uint64_t since_ms;               /* when the player joined (wall clock) */
    uint64_t seq;                    /* join order; the members of a party share it */
    uint64_t away_since_ms;          /* 0: connected; else when the player went away */
    double mu, sigma;                /* the rating (QUEUE_MU_DEFAULT, QUEUE_SIGMA_DEFAULT) */
    bool bot; /* a bot seat of a bot-filled match (placement.c): never in a line */
} queue_ticket;

typedef enum {
    QUEUE_OK = 0,
    QUEUE_DUPLICATE, /* the player already waits in some line */
    QUEUE_TOO_LONG,  /* a string does not fit its field */
    QUEUE_NOMEM,
    QUEUE_BAD_PARTY, /* 0 or more than QUEUE_PARTY_MAX players, or more than the line seats */
    QUEUE_TOO_MANY,  /* a new line, and QUEUE_LINES_MAX lines all hold tickets */
} queue_status;

/* How a line forms matches (settings.h fills it per queue). */
typedef struct {
    uint32_t min_players, max_players; /* equal to key.players unless the line is flexible */
    double window_initial;             /* rating difference (mu) accepted at once */
    double window_per_s;               /* widening per second waited */
    double window_max;
    uint32_t full_wait_ms; /* flexible lines: each such wait accepts one seat fewer */
} queue_rules;

/* What one formation took: the quality figures of the match. */
typedef struct {
    size_t n;             /* players (tickets written to out) */
    size_t entries;       /* tickets (a party is one) */
    double spread;        /* highest minus lowest mu among the players */
    uint64_t max_wait_ms; /* the longest wait among them */
    uint64_t wait_sum_ms; /* the sum of their waits */
    double window;        /* the window the oldest ticket had */
} queue_formed;

typedef struct queue_set queue_set;

/* NULL on allocation failure. The caller frees with queue_set_free. */
queue_set *queue_set_new(void);
void queue_set_free(queue_set *s);
/* Remove every ticket (the lines stay, empty). */
void queue_clear(queue_set *s);

/* Fill a key or a ticket from wire strings; QUEUE_TOO_LONG when one does not fit. An
 * empty mode becomes "casual"; the key's options are "" (queue_key_options sets them,
 * canonical text only). A ticket starts with the default rating. */
queue_status queue_key_init(queue_key *k, const char *game, const char *mode, uint32_t players);
queue_status queue_key_options(queue_key *k, const char *canon);
/* Make k a line against the AI at difficulty (NULL or "": an ordinary line). */
queue_status queue_key_vs_ai(queue_key *k, const char *difficulty);
queue_status queue_ticket_init(queue_ticket *t, const char *player_id, const char *name,
                               const char *gateway, uint64_t cmd_id, uint64_t now_ms);

/* Add t (copied) as a solo ticket at the back of k's line. */
queue_status queue_join(queue_set *s, const queue_key *k, const queue_ticket *t);
/* Add n players (copied) as one ticket; they get t[0]'s seq and since_ms. */
queue_status queue_join_party(queue_set *s, const queue_key *k, const queue_ticket *t, size_t n);
/* Remove the ticket the player is on (the whole party), only from game's lines when game
 * is not empty. The number of players removed (0: none). */
size_t queue_leave(queue_set *s, const char *player_id, const char *game);
bool queue_has(const queue_set *s, const char *player_id);
/* The players of the ticket the player is on (a party's members, leader first), up to
 * cap into out; how many were written (0: the player does not wait). */
size_t queue_party(const queue_set *s, const char *player_id, const queue_ticket **out, size_t cap);
/* The player's waiting ticket, which the caller may update in place (not its player id,
 * seq, rating or away: those go through the calls below); valid until the next join or
 * push. *line (when not NULL) gets its line. NULL when the player does not wait. */
queue_ticket *queue_find(queue_set *s, const char *player_id, size_t *line);
/* Mark the player away since since_ms (not 0), or back (on gateway, unless NULL). False
 * when the player does not wait. */
bool queue_away(queue_set *s, const char *player_id, uint64_t since_ms);
bool queue_back(queue_set *s, const char *player_id, const char *gateway);
/* Set the waiting player's rating (known only after the join: the rating store answers a
 * batch of joins at once); its ticket's rating (the mean mu of its players) and place in
 * the rating index follow. False when the player does not wait. */
bool queue_rate(queue_set *s, const char *player_id, double mu, double sigma);

/* Lines are addressed by index 0..queue_lines()-1 within one call's work: a line keeps
 * its index, except that once there are QUEUE_LINES_MAX lines, a new one takes the
 * slot of an empty one (so lines cost memory for the (game, mode, players) waiting now,
 * not for every one ever named). */
size_t queue_lines(const queue_set *s);
const queue_key *queue_line_key(const queue_set *s, size_t line);
/* Players waiting in a line, and those of them on tickets that may be matched now. */
size_t queue_line_len(const queue_set *s, size_t line);
size_t queue_line_ready(const queue_set *s, size_t line);
/* The players of the line's away ticket that went away first (its first member), or
 * NULL: what a grace expiry looks at. */
const queue_ticket *queue_line_away_first(const queue_set *s, size_t line);
/* The line's players in age order (oldest ticket first, a party's members together),
 * up to cap of them into out; returns how many were written. O(line): for tests and
 * dumps, never the hot path. */
size_t queue_line_list(const queue_set *s, size_t line, const queue_ticket **out, size_t cap);
/* Total players over all lines. */
size_t queue_total(const queue_set *s);

/* Start a formation pass over line. all: the next queue_form starts at its oldest
 * ticket; else only the tickets that joined since the last pass began are looked at
 * (those are new: the older ones were looked at then), unless tickets were pushed back
 * or came back since, which makes it a pass over all. */
void queue_pass_begin(queue_set *s, size_t line, bool all);
/* The next match of the pass (see above): its players into out (room for
 * r->max_players) in join order, a ticket's members together; they leave the line. False when the
 * pass has looked at every ticket. now_ms is the wall clock. */
bool queue_form(queue_set *s, size_t line, const queue_rules *r, uint64_t now_ms, queue_ticket *out,
                queue_formed *f);
/* The window of a ticket that has waited wait_ms, and the seats it accepts. */
double queue_window(const queue_rules *r, uint64_t wait_ms);
uint32_t queue_seats_wanted(const queue_rules *r, uint64_t wait_ms);

/* Check every invariant of the structure (queue_check.c): true, or false with what is
 * wrong in why. O(n): for tests and benchmarks. */
bool queue_check(const queue_set *s, char *why, size_t cap);

/* Bot fill (queue_fill.c): when the line's oldest ticket that may be matched now has
 * waited wait_ms or more (by now_ms, the wall clock), take it and then, oldest first,
 * ready tickets that still fit in seats (looking at QUEUE_VISIT_MAX at most), into out
 * (room for seats players), leaving the line. Returns the players taken; 0 when the
 * oldest has not waited long enough (or the line has none ready, or it does not fit).
 * The caller fills the seats left with bots. Ratings are not looked at: this is what
 * a ticket gets when no rated match formed for it in time. */
size_t queue_fill(queue_set *s, size_t line, uint32_t seats, uint64_t wait_ms, uint64_t now_ms,
                  queue_ticket *out);
/* A line against the AI (queue_key.vs_ai): its oldest ticket that may be matched now and
 * fits in seats, alone, into out (room for seats players), leaving the line. Returns the
 * players taken; 0 when none is ready. */
size_t queue_fill_alone(queue_set *s, size_t line, uint32_t seats, queue_ticket *out);

/* Put n players (out of queue_form) back at the front of k's line, in their order, so
 * they are the next ones looked at; players sharing a seq become one ticket again.
 * Skips players that joined again meanwhile. */
queue_status queue_push_front(queue_set *s, const queue_key *k, const queue_ticket *t, size_t n);

#endif
