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

bool inbox_full(const inbox *q, const Deckhand__Internal__Internal *msg)
{
    bool away = msg->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND &&
                msg->player_command->body_case == DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_AWAY;
    return !away && q->n >= q->max;
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
