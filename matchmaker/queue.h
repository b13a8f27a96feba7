/*
 * queue.h: the matchmaker's waiting lines, one FIFO per (game, mode, players).
 *
 * A pure data structure (no sockets, no clock: callers pass the time in), so the rules
 * of waiting are unit-tested on their own (tests/unit/test_queue.c). A player waits in
 * at most one line at a time. Tickets taken out for a placement can be pushed back at
 * the front when the placement fails, so those players keep their place. A ticket marked
 * away (its player's connection dropped) keeps its place but is passed over by
 * queue_take until the player is back.
 *
 * Limit: lookups by player scan every line. That is fine for the thousands of waiting
 * players one matchmaker holds; an index by player id is the next step past that.
 */
#ifndef DECKHAND_MM_QUEUE_H
#define DECKHAND_MM_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dh_zmq.h"

#define QUEUE_NAME_MAX 64

/* Which line: tickets only ever match others with the same key. */
typedef struct {
    char game[QUEUE_NAME_MAX];
    char mode[QUEUE_NAME_MAX];
    uint32_t players;
} queue_key;

typedef struct {
    char player_id[QUEUE_NAME_MAX];
    char name[QUEUE_NAME_MAX];
    char gateway[DH_ZMQ_ID_MAX + 1]; /* identity of the gateway holding the player */
    uint64_t cmd_id;                 /* of the QueueJoin, for logs */
    uint64_t since_ms;               /* when the player joined (wall clock) */
    uint64_t seq;                    /* join order, for equal since_ms */
    uint64_t away_since_ms;          /* 0: connected; else when the player went away */
} queue_ticket;

typedef enum {
    QUEUE_OK = 0,
    QUEUE_DUPLICATE, /* the player already waits in some line */
    QUEUE_TOO_LONG,  /* a string does not fit its field */
    QUEUE_NOMEM,
} queue_status;

typedef struct queue_set queue_set;

/* NULL on allocation failure. The caller frees with queue_set_free. */
queue_set *queue_set_new(void);
void queue_set_free(queue_set *s);
/* Remove every ticket (the lines stay, empty). */
void queue_clear(queue_set *s);

/* Fill a key or a ticket from wire strings; QUEUE_TOO_LONG when one does not fit. An
 * empty mode becomes "casual". */
queue_status queue_key_init(queue_key *k, const char *game, const char *mode, uint32_t players);
queue_status queue_ticket_init(queue_ticket *t, const char *player_id, const char *name,
                               const char *gateway, uint64_t cmd_id, uint64_t now_ms);

/* Append t (copied) at the back of k's line. */
queue_status queue_join(queue_set *s, const queue_key *k, const queue_ticket *t);
/* Remove the player from its line (only from game's lines when game is not empty).
 * True when a ticket was removed. */
bool queue_leave(queue_set *s, const char *player_id, const char *game);
bool queue_has(const queue_set *s, const char *player_id);
/* The player's waiting ticket, which the caller may update in place (not its player id);
 * *line (when not NULL) gets its line. NULL when the player does not wait. */
queue_ticket *queue_find(queue_set *s, const char *player_id, size_t *line);

/* Lines are addressed by index 0..queue_lines()-1 while nothing joins or is pushed back
 * (those may add a line). */
size_t queue_lines(const queue_set *s);
const queue_key *queue_line_key(const queue_set *s, size_t line);
size_t queue_line_len(const queue_set *s, size_t line);
/* Tickets of a line that are not away: what queue_take can take. */
size_t queue_line_ready(const queue_set *s, size_t line);
/* The i-th ticket of a line (0 = the oldest); NULL past its end. */
const queue_ticket *queue_line_ticket(const queue_set *s, size_t line, size_t i);
/* Total tickets over all lines. */
size_t queue_total(const queue_set *s);

/* Take the first n tickets of a line that are not away into out (oldest first); away
 * tickets keep their place. False, and nothing taken, when fewer than n are ready. */
bool queue_take(queue_set *s, size_t line, queue_ticket *out, size_t n);
/* Put n tickets back at the front of k's line, in their order (out of queue_take), so
 * they are the next ones taken. Skips players that joined again meanwhile. */
queue_status queue_push_front(queue_set *s, const queue_key *k, const queue_ticket *t, size_t n);

#endif
