/*
 * queue_check.c: the invariants of the line structure (queue_impl.h), checked from end
 * to end in O(n); for the unit tests and the benchmark, never the serving path.
 */
#include <stdio.h>

#include "queue_impl.h"

typedef struct {
    char *why;
    size_t cap;
} check_out;

static bool check_fail(check_out *o, const char *what, size_t line, uint32_t node)
{
    snprintf(o->why, o->cap, "line %zu node %u: %s", line, (unsigned)node, what);
    return false;
}

/* One ticket's members: linked to their leader, each findable by player id. */
static bool check_members(const queue_set *s, size_t line, uint32_t e, check_out *o, size_t *n,
                          uint32_t *away)
{
    *n = 0;
    *away = 0;
    for (uint32_t i = e; i != QUEUE_NIL; i = s->nodes[i].next_member) {
        const queue_node *x = &s->nodes[i];
        uintptr_t v = (uintptr_t)dh_table_get(&s->by_player, x->t.player_id);
        if (x->leader != e || x->line != line || v != (uintptr_t)i + 1)
            return check_fail(o, "member not linked to its ticket or the player index", line, i);
        *away += x->t.away_since_ms != 0;
        if (++*n > QUEUE_PARTY_MAX)
            return check_fail(o, "party too large (a loop?)", line, i);
    }
    if (*n != s->nodes[e].size || *away != s->nodes[e].away)
        return check_fail(o, "ticket size or away count wrong", line, e);
    return true;
}

/* The age list: links both ways, and every ticket in its bucket or the away list. */
static bool check_age(const queue_set *s, size_t line, check_out *o, size_t *players, size_t *ready,
                      size_t *tickets)
{
    const queue_line *l = &s->lines[line];
    uint32_t prev = QUEUE_NIL;
    for (uint32_t e = l->age.head; e != QUEUE_NIL; prev = e, e = s->nodes[e].younger) {
        const queue_node *x = &s->nodes[e];
        size_t n;
        uint32_t away;
        if (x->older != prev)
            return check_fail(o, "age list broken", line, e);
        if (!check_members(s, line, e, o, &n, &away))
            return false;
        if ((x->bucket < 0) != (away > 0))
            return check_fail(o, "away ticket indexed, or ready one not", line, e);
        *players += n;
        *ready += away ? 0 : n;
        if (++*tickets > s->nnodes)
            return check_fail(o, "age list loops", line, e);
    }
    if (l->age.tail != prev)
        return check_fail(o, "age list tail wrong", line, prev);
    return true;
}

/* A bucket or away list: links both ways; its tickets belong there. Counts them. */
static bool check_list(const queue_set *s, size_t line, const queue_list *list, int bucket,
                       check_out *o, size_t *count)
{
    uint32_t prev = QUEUE_NIL;
    for (uint32_t e = list->head; e != QUEUE_NIL; prev = e, e = s->nodes[e].next) {
        const queue_node *x = &s->nodes[e];
        if (x->prev != prev || x->leader != e || x->bucket != bucket)
            return check_fail(o, "bucket or away list broken", line, e);
        if (++*count > s->nnodes)
            return check_fail(o, "bucket or away list loops", line, e);
    }
    if (list->tail != prev)
        return check_fail(o, "bucket or away list tail wrong", line, prev);
    return true;
}

bool queue_check(const queue_set *s, char *why, size_t cap)
{
    check_out o = {why, cap};
    size_t total = 0;
    for (size_t line = 0; line < s->n; line++) {
        const queue_line *l = &s->lines[line];
        size_t players = 0, ready = 0, tickets = 0, listed = 0;
        if (!check_age(s, line, &o, &players, &ready, &tickets))
            return false;
        for (int b = 0; b < QUEUE_BUCKETS; b++) {
            bool bit = l->bits[b / 64] & (1ULL << (b % 64));
            if (bit != (l->buckets[b].head != QUEUE_NIL))
                return check_fail(&o, "bucket bitmap wrong", line, (uint32_t)b);
            if (!check_list(s, line, &l->buckets[b], b, &o, &listed))
                return false;
        }
        if (!check_list(s, line, &l->away, -1, &o, &listed))
            return false;
        if (listed != tickets || players != l->players || ready != l->ready)
            return check_fail(&o, "counts disagree with the lists", line, QUEUE_NIL);
        total += players;
    }
    if (total != s->total || s->by_player.count != total)
        return check_fail(&o, "set totals disagree with the lines", 0, QUEUE_NIL);
    return true;
}
