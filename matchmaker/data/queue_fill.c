/*
 * queue_fill.c: bot fill's side of the queue (see queue_fill in queue.h): the tickets a
 * bot-filled match seats, once the line's oldest ready ticket has waited long enough.
 *
 * It walks the line's age list from its oldest ticket, skipping tickets with a member
 * away, and looks at QUEUE_VISIT_MAX tickets at most, so it costs the same whatever the
 * line's length (away tickets at the head beyond that bound delay the fill to a later
 * pass, when their grace has removed them). Ratings are not looked at: the match is
 * unrated, and its humans have waited past the point where a window would matter.
 *
 * A line against the AI (queue_key.vs_ai) takes its tickets one at a time instead
 * (queue_fill_alone): each plays its own match, with bots in every other seat, at once.
 */
#include "queue_impl.h"

size_t queue_fill(queue_set *s, size_t line, uint32_t seats, uint64_t wait_ms, uint64_t now_ms,
                  queue_ticket *out)
{
    if (line >= s->n || seats == 0)
        return 0;
    queue_line *l = &s->lines[line];
    uint32_t chosen[QUEUE_VISIT_MAX];
    size_t nchosen = 0;
    uint32_t taken = 0;
    unsigned visits = 0;
    for (uint32_t e = l->age.head; e != QUEUE_NIL && taken < seats && visits < QUEUE_VISIT_MAX;
         e = s->nodes[e].younger, visits++) {
        const queue_node *x = &s->nodes[e];
        if (x->bucket < 0 || taken + x->size > seats)
            continue;
        if (nchosen == 0 && (now_ms < x->t.since_ms || now_ms - x->t.since_ms < wait_ms))
            return 0; /* the oldest ready ticket has not waited long enough */
        chosen[nchosen++] = e;
        taken += x->size;
    }
    size_t n = 0;
    for (size_t i = 0; i < nchosen; i++)
        n += queue_entry_take(s, chosen[i], out + n);
    return n;
}

size_t queue_fill_alone(queue_set *s, size_t line, uint32_t seats, queue_ticket *out)
{
    if (line >= s->n || seats == 0)
        return 0;
    unsigned visits = 0;
    for (uint32_t e = s->lines[line].age.head; e != QUEUE_NIL && visits < QUEUE_VISIT_MAX;
         e = s->nodes[e].younger, visits++) {
        const queue_node *x = &s->nodes[e];
        if (x->bucket >= 0 && x->size <= seats)
            return queue_entry_take(s, e, out);
    }
    return 0;
}
