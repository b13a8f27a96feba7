/*
 * queue_impl.h: the layout behind queue.h, shared by queue.c (storage: lines, tickets,
 * the player index) and queue_form.c (matching). Not for other modules.
 *
 * Every player is a node in one pool (indices, not pointers, so the pool can grow); a
 * ticket is its first member's node (the leader), whose members follow through
 * next_member. The leader is linked into three places:
 *   - the line's age list (older/younger): every ticket in join order, oldest first, so
 *     a formation pass starts with the most widened windows;
 *   - either its rating bucket (prev/next), when every member is connected, or the
 *     line's away list (the same links), in the order its tickets went away;
 *   - and every member's player id is in the set's hash (player id -> node), so find,
 *     leave, away and back cost O(1).
 * Rating buckets are QUEUE_BUCKET_WIDTH of mu wide over [QUEUE_BUCKET_LOW, +the range),
 * ratings beyond the ends fall into the end buckets (their exact mu still counts); a
 * bitmap says which buckets hold tickets. Within a bucket tickets keep join order.
 * A formation looks at buckets outward from its ticket's, at most QUEUE_VISIT_MAX
 * tickets: a bounded cost whatever the line's length.
 */
#ifndef DECKHAND_MM_QUEUE_IMPL_H
#define DECKHAND_MM_QUEUE_IMPL_H

#include "dh_table.h"
#include "queue.h"

#define QUEUE_NIL          UINT32_MAX
#define QUEUE_BUCKET_WIDTH 0.25
#define QUEUE_BUCKET_LOW   (-25.0)
#define QUEUE_BUCKETS      400 /* mu -25 .. 75 */
#define QUEUE_BITWORDS     ((QUEUE_BUCKETS + 63) / 64)
#define QUEUE_VISIT_MAX    64 /* tickets one formation looks at besides its own */

typedef struct {
    queue_ticket t;
    uint32_t line;
    uint32_t leader;      /* the ticket's first member */
    uint32_t next_member; /* QUEUE_NIL at the last */
    /* the leader's only: */
    uint32_t size;           /* members */
    uint32_t away;           /* members away */
    int32_t bucket;          /* its rating bucket; -1 while on the away list */
    double rating;           /* the members' mean mu */
    uint32_t prev, next;     /* bucket or away list; next also chains free nodes */
    uint32_t older, younger; /* age list */
} queue_node;

typedef struct {
    uint32_t head, tail;
} queue_list;

typedef struct {
    queue_key key;
    queue_list buckets[QUEUE_BUCKETS];
    uint64_t bits[QUEUE_BITWORDS]; /* bucket i holds tickets */
    queue_list age;
    queue_list away;
    uint32_t cursor; /* the pass's next ticket to look at, QUEUE_NIL: none */
    uint32_t fresh;  /* the oldest ticket joined since the last pass began, or QUEUE_NIL */
    bool full_due;   /* tickets were pushed back or came back: the next pass looks at all */
    size_t players, ready;
} queue_line;

struct queue_set {
    queue_line *lines;
    size_t n, cap;
    dh_table by_key; /* the line's key as text (queue.c) -> its index + 1 */
    queue_node *nodes;
    size_t nnodes, nodes_cap;
    uint32_t free_head;
    dh_table by_player; /* player id -> node index + 1 */
    size_t total;
};

/* Copy a ticket's members into out (leader first) and remove it from the line; the
 * pass cursor moves past it. Returns the number of players. */
size_t queue_entry_take(queue_set *s, uint32_t leader, queue_ticket *out);

#endif
