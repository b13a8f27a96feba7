/*
 * queue_form.c: who plays whom (see queue.h): windows that widen with the wait, the
 * nearest ratings within them, fuller matches first where a line seats a range.
 *
 * A pass walks the line's age list from its oldest ticket. For each ticket it looks at
 * the rating buckets outward from its own (its bucket, then one either side, two
 * either side...) as long as a bucket can hold a rating inside the window, taking
 * tickets in join order while they fit the seats left. At most QUEUE_VISIT_MAX tickets
 * are looked at, so a formation costs the same whatever the line's length; a ticket
 * that finds too few is passed, and the next pass (the next tick) tries it again with a
 * wider window. Nearest is to within a bucket's width (QUEUE_BUCKET_WIDTH): inside a
 * bucket the older ticket goes first.
 */
#include <math.h>

#include "queue_impl.h"

double queue_window(const queue_rules *r, uint64_t wait_ms)
{
    double w = r->window_initial + r->window_per_s * ((double)wait_ms / 1000.0);
    return w < r->window_max ? w : r->window_max;
}

uint32_t queue_seats_wanted(const queue_rules *r, uint64_t wait_ms)
{
    if (r->max_players <= r->min_players)
        return r->max_players;
    if (r->full_wait_ms == 0)
        return r->min_players;
    uint64_t fewer = wait_ms / r->full_wait_ms;
    uint32_t range = r->max_players - r->min_players;
    return fewer >= range ? r->min_players : r->max_players - (uint32_t)fewer;
}

void queue_pass_begin(queue_set *s, size_t line, bool all)
{
    if (line >= s->n)
        return;
    queue_line *l = &s->lines[line];
    l->cursor = all || l->full_due ? l->age.head : l->fresh;
    l->fresh = QUEUE_NIL;
    l->full_due = false;
}

typedef struct {
    uint32_t chosen[QUEUE_VISIT_MAX + 1];
    size_t n;
    uint32_t seats;
    unsigned visits;
} form_pick;

/* Take from bucket b the tickets (not a) within w of a's rating that fit the seats left. */
static void form_bucket(const queue_set *s, const queue_line *l, int b, uint32_t a, double w,
                        uint32_t max, form_pick *p)
{
    if (b < 0 || b >= QUEUE_BUCKETS || !(l->bits[b / 64] & (1ULL << (b % 64))))
        return;
    double ra = s->nodes[a].rating;
    for (uint32_t e = l->buckets[b].head;
         e != QUEUE_NIL && p->seats < max && p->visits < QUEUE_VISIT_MAX; e = s->nodes[e].next) {
        if (e == a)
            continue;
        p->visits++;
        const queue_node *x = &s->nodes[e];
        if (fabs(x->rating - ra) > w || p->seats + x->size > max)
            continue;
        p->chosen[p->n++] = e;
        p->seats += x->size;
    }
}

/* Whether ticket a finds its match now; its tickets in p. */
static bool form_try(const queue_set *s, const queue_line *l, uint32_t a, const queue_rules *r,
                     uint64_t now_ms, form_pick *p, double *window)
{
    const queue_node *x = &s->nodes[a];
    uint64_t wait = now_ms > x->t.since_ms ? now_ms - x->t.since_ms : 0;
    double w = queue_window(r, wait);
    uint32_t want = queue_seats_wanted(r, wait);
    *window = w;
    p->chosen[0] = a;
    p->n = 1;
    p->seats = x->size;
    p->visits = 0;
    int b = x->bucket;
    for (int d = 0; p->seats < r->max_players && p->visits < QUEUE_VISIT_MAX; d++) {
        if (d > 1 && (double)(d - 1) * QUEUE_BUCKET_WIDTH > w)
            break;
        if (b - d < 0 && b + d >= QUEUE_BUCKETS)
            break;
        form_bucket(s, l, b - d, a, w, r->max_players, p);
        if (d)
            form_bucket(s, l, b + d, a, w, r->max_players, p);
    }
    return p->seats >= want && p->seats >= r->min_players && p->seats <= r->max_players;
}

/* Seats go in join order (since_ms, then seq): sort the few picked tickets. */
static void form_sort(const queue_set *s, form_pick *p)
{
    for (size_t i = 1; i < p->n; i++) {
        uint32_t e = p->chosen[i];
        const queue_ticket *t = &s->nodes[e].t;
        size_t j = i;
        for (; j > 0; j--) {
            const queue_ticket *u = &s->nodes[p->chosen[j - 1]].t;
            if (u->since_ms < t->since_ms || (u->since_ms == t->since_ms && u->seq <= t->seq))
                break;
            p->chosen[j] = p->chosen[j - 1];
        }
        p->chosen[j] = e;
    }
}

/* Take the picked tickets out into out, in join order, and fill f. */
static void form_take(queue_set *s, form_pick *p, uint64_t now_ms, double window, queue_ticket *out,
                      queue_formed *f)
{
    form_sort(s, p);
    *f = (queue_formed){.entries = p->n, .window = window};
    double lo = 0, hi = 0;
    for (size_t i = 0; i < p->n; i++) {
        size_t got = queue_entry_take(s, p->chosen[i], out + f->n);
        for (size_t j = f->n; j < f->n + got; j++) {
            const queue_ticket *t = &out[j];
            uint64_t wait = now_ms > t->since_ms ? now_ms - t->since_ms : 0;
            if (wait > f->max_wait_ms)
                f->max_wait_ms = wait;
            f->wait_sum_ms += wait;
            if (j == 0 || t->mu < lo)
                lo = t->mu;
            if (j == 0 || t->mu > hi)
                hi = t->mu;
        }
        f->n += got;
    }
    f->spread = hi - lo;
}

bool queue_form(queue_set *s, size_t line, const queue_rules *r, uint64_t now_ms, queue_ticket *out,
                queue_formed *f)
{
    if (line >= s->n || r->max_players == 0 || r->min_players > r->max_players)
        return false;
    queue_line *l = &s->lines[line];
    if (l->ready < r->min_players) {
        l->cursor = QUEUE_NIL;
        return false;
    }
    form_pick p;
    double window;
    while (l->cursor != QUEUE_NIL) {
        uint32_t a = l->cursor;
        if (s->nodes[a].away == 0 && form_try(s, l, a, r, now_ms, &p, &window)) {
            form_take(s, &p, now_ms, window, out, f);
            return true;
        }
        l->cursor = s->nodes[a].younger;
    }
    return false;
}
