/*
 * inbox.c: see worker.h.
 */
#include "worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_clock.h"
#include "dh_grow.h"

void inbox_init(inbox *q, size_t max)
{
    memset(q, 0, sizeof *q);
    q->max = max ? max : INBOX_MAX;
}

void inbox_free(inbox *q)
{
    for (size_t i = 0; i < q->n; i++)
        deckhand__internal__internal__free_unpacked(q->v[q->head + i].msg, NULL);
    size_t max = q->max;
    free(q->v);
    memset(q, 0, sizeof *q);
    q->max = max;
}

/* The gateway's own word about a seat, which nobody retries: an Away, or the attach of a
 * placed or moved match's player (a Resync with cmd_id 0, which no client may send). One
 * per player per placement, move or disconnect: not bulk work, however many come at once. */
static bool inbox_seat_notice(const Deckhand__Internal__Internal *msg)
{
    if (msg->body_case != DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND)
        return false;
    const Deckhand__Internal__PlayerCommand *pc = msg->player_command;
    return pc->body_case == DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_AWAY ||
           (pc->body_case == DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC && pc->cmd_id == 0);
}

bool inbox_full(const inbox *q, const Deckhand__Internal__Internal *msg)
{
    return !inbox_seat_notice(msg) && q->n >= q->max;
}

int inbox_push(inbox *q, const char *route, Deckhand__Internal__Internal *msg)
{
    if (q->head && q->head + q->n == q->cap) {
        /* the front is free: slide the queue down rather than grow */
        memmove(q->v, q->v + q->head, q->n * sizeof *q->v);
        q->head = 0;
    }
    if (dh_grow(&q->v, &q->cap, q->head + q->n + 1, sizeof *q->v, 64) < 0)
        return -1;
    inbox_item *it = &q->v[q->head + q->n++];
    snprintf(it->route, sizeof it->route, "%s", route);
    it->msg = msg;
    it->recv_ns = dh_now_ns();
    return 0;
}

inbox_item *inbox_pop(inbox *q)
{
    if (!q->n)
        return NULL;
    inbox_item *it = &q->v[q->head];
    q->n--;
    q->head = q->n ? q->head + 1 : 0;
    return it;
}

size_t inbox_len(const inbox *q)
{
    return q->n;
}
