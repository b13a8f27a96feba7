/*
 * queue.c: the storage of the waiting lines (see queue.h for what, queue_impl.h for the
 * layout): tickets in and out, the player index, away and back. Matching is queue_form.c.
 *
 * Lines are found by a hash of their key. At most QUEUE_LINES_MAX exist: past that a
 * new line reuses an empty one's slot (found by a scan, only then), and when every line
 * holds tickets the join is refused, so clients naming endless modes cost bounded memory.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_str.h"
#include "dh_grow.h"
#include "queue_impl.h"

queue_set *queue_set_new(void)
{
    queue_set *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->free_head = QUEUE_NIL;
    if (dh_table_init(&s->by_player) < 0) {
        free(s);
        return NULL;
    }
    if (dh_table_init(&s->by_key) < 0) {
        dh_table_free(&s->by_player, NULL);
        free(s);
        return NULL;
    }
    return s;
}

void queue_set_free(queue_set *s)
{
    if (!s)
        return;
    dh_table_free(&s->by_player, NULL);
    dh_table_free(&s->by_key, NULL);
    free(s->lines);
    free(s->nodes);
    free(s);
}

static void queue_line_empty(queue_line *l)
{
    for (size_t b = 0; b < QUEUE_BUCKETS; b++)
        l->buckets[b] = (queue_list){QUEUE_NIL, QUEUE_NIL};
    memset(l->bits, 0, sizeof l->bits);
    l->age = l->away = (queue_list){QUEUE_NIL, QUEUE_NIL};
    l->cursor = l->fresh = QUEUE_NIL;
    l->full_due = false;
    l->players = l->ready = 0;
}

static void queue_unindex_player(const char *key, void *val, void *arg)
{
    (void)val;
    dh_table_del(arg, key);
}

void queue_clear(queue_set *s)
{
    for (size_t i = 0; i < s->n; i++)
        queue_line_empty(&s->lines[i]);
    dh_table_each(&s->by_player, queue_unindex_player, &s->by_player);
    s->nnodes = 0;
    s->free_head = QUEUE_NIL;
    s->total = 0;
}

static bool queue_copy(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src ? src : "");
    if (n >= cap)
        return false;
    memcpy(dst, src ? src : "", n + 1);
    return true;
}

queue_status queue_key_init(queue_key *k, const char *game, const char *mode, uint32_t players)
{
    memset(k, 0, sizeof *k);
    if (!queue_copy(k->game, sizeof k->game, game) ||
        !queue_copy(k->mode, sizeof k->mode, (mode && *mode) ? mode : "casual"))
        return QUEUE_TOO_LONG;
    k->players = players;
    return QUEUE_OK;
}

queue_status queue_key_options(queue_key *k, const char *canon)
{
    return queue_copy(k->options, sizeof k->options, canon) ? QUEUE_OK : QUEUE_TOO_LONG;
}

queue_status queue_key_vs_ai(queue_key *k, const char *difficulty)
{
    return queue_copy(k->vs_ai, sizeof k->vs_ai, difficulty ? difficulty : "") ? QUEUE_OK
                                                                               : QUEUE_TOO_LONG;
}

queue_status queue_ticket_init(queue_ticket *t, const char *player_id, const char *name,
                               const char *gateway, uint64_t cmd_id, uint64_t now_ms)
{
    memset(t, 0, sizeof *t);
    if (!queue_copy(t->player_id, sizeof t->player_id, player_id) ||
        !queue_copy(t->name, sizeof t->name, name) ||
        !queue_copy(t->gateway, sizeof t->gateway, gateway))
        return QUEUE_TOO_LONG;
    t->cmd_id = cmd_id;
    t->since_ms = now_ms;
    t->mu = QUEUE_MU_DEFAULT;
    t->sigma = QUEUE_SIGMA_DEFAULT;
    return QUEUE_OK;
}

/* The hash key of a line: its fields, each name after its length, so that no two keys
 * read alike whatever their names hold (a mode is the client's). Room for three numbers
 * of up to 20 digits and their separators besides the names. */
#define QUEUE_KEY_TEXT_MAX (2 * QUEUE_NAME_MAX + QUEUE_OPTIONS_MAX + QUEUE_AI_MAX + 4 * 24)

static void queue_key_text(const queue_key *k, char *out, size_t cap)
{
    /* "%zu:%s%zu:%s%u:%zu:%s%s" of the game's length, the game, the mode's, the mode, the
     * players, vs_ai's length, vs_ai and the options, without snprintf (once a join) */
    size_t at = 0;
    dh_str_add_uint(out, cap, &at, strlen(k->game));
    dh_str_add(out, cap, &at, ":");
    dh_str_add(out, cap, &at, k->game);
    dh_str_add_uint(out, cap, &at, strlen(k->mode));
    dh_str_add(out, cap, &at, ":");
    dh_str_add(out, cap, &at, k->mode);
    dh_str_add_uint(out, cap, &at, k->players);
    dh_str_add(out, cap, &at, ":");
    dh_str_add_uint(out, cap, &at, strlen(k->vs_ai));
    dh_str_add(out, cap, &at, ":");
    dh_str_add(out, cap, &at, k->vs_ai);
    dh_str_add(out, cap, &at, k->options);
}

/* The line for k (its index), made when missing (in an empty line's slot past
 * QUEUE_LINES_MAX); -1 on allocation failure, -2 when every line holds tickets. */
static long queue_line_get(queue_set *s, const queue_key *k)
{
    char text[QUEUE_KEY_TEXT_MAX];
    queue_key_text(k, text, sizeof text);
    uintptr_t at = (uintptr_t)dh_table_get(&s->by_key, text);
    if (at)
        return (long)at - 1;
    size_t i = s->n;
    if (s->n >= QUEUE_LINES_MAX) {
        for (i = 0; i < s->n && s->lines[i].players; i++)
            ;
        if (i == s->n)
            return -2;
        char old[sizeof text];
        queue_key_text(&s->lines[i].key, old, sizeof old);
        dh_table_del(&s->by_key, old);
    } else if (dh_grow(&s->lines, &s->cap, s->n + 1, sizeof *s->lines, 4) < 0) {
        return -1;
    }
    if (dh_table_set(&s->by_key, text, (void *)(uintptr_t)(i + 1)) < 0)
        return -1; /* a reused slot stays empty, and unnamed: it is found again */
    queue_line *l = &s->lines[i];
    queue_line_empty(l);
    l->key = *k;
    if (i == s->n)
        s->n++;
    return (long)i;
}

/* ---- the links ------------------------------------------------------------------------ */

static int32_t queue_bucket_of(double rating)
{
    double b = floor((rating - QUEUE_BUCKET_LOW) / QUEUE_BUCKET_WIDTH);
    if (!(b >= 0)) /* also NaN */
        return 0;
    return b >= QUEUE_BUCKETS ? QUEUE_BUCKETS - 1 : (int32_t)b;
}

/* Link leader e into list (bucket or away) at the front or the back. */
static void queue_list_add(queue_set *s, queue_list *list, uint32_t e, bool front)
{
    queue_node *n = &s->nodes[e];
    if (front) {
        n->prev = QUEUE_NIL;
        n->next = list->head;
        if (list->head != QUEUE_NIL)
            s->nodes[list->head].prev = e;
        else
            list->tail = e;
        list->head = e;
    } else {
        n->next = QUEUE_NIL;
        n->prev = list->tail;
        if (list->tail != QUEUE_NIL)
            s->nodes[list->tail].next = e;
        else
            list->head = e;
        list->tail = e;
    }
}

static void queue_list_del(queue_set *s, queue_list *list, uint32_t e)
{
    queue_node *n = &s->nodes[e];
    if (n->prev != QUEUE_NIL)
        s->nodes[n->prev].next = n->next;
    else
        list->head = n->next;
    if (n->next != QUEUE_NIL)
        s->nodes[n->next].prev = n->prev;
    else
        list->tail = n->prev;
}

/* Into its rating bucket (the ticket may be matched), or out of it. */
static void queue_index_add(queue_set *s, queue_line *l, uint32_t e, bool front)
{
    int32_t b = queue_bucket_of(s->nodes[e].rating);
    s->nodes[e].bucket = b;
    queue_list_add(s, &l->buckets[b], e, front);
    l->bits[b / 64] |= 1ULL << (b % 64);
    l->ready += s->nodes[e].size;
}

static void queue_index_del(queue_set *s, queue_line *l, uint32_t e)
{
    int32_t b = s->nodes[e].bucket;
    queue_list_del(s, &l->buckets[b], e);
    if (l->buckets[b].head == QUEUE_NIL)
        l->bits[b / 64] &= ~(1ULL << (b % 64));
    l->ready -= s->nodes[e].size;
}

static void queue_age_add(queue_set *s, queue_line *l, uint32_t e, bool front)
{
    queue_node *n = &s->nodes[e];
    if (front) {
        n->older = QUEUE_NIL;
        n->younger = l->age.head;
        if (l->age.head != QUEUE_NIL)
            s->nodes[l->age.head].older = e;
        else
            l->age.tail = e;
        l->age.head = e;
    } else {
        n->younger = QUEUE_NIL;
        n->older = l->age.tail;
        if (l->age.tail != QUEUE_NIL)
            s->nodes[l->age.tail].younger = e;
        else
            l->age.head = e;
        l->age.tail = e;
    }
}

static void queue_age_del(queue_set *s, queue_line *l, uint32_t e)
{
    queue_node *n = &s->nodes[e];
    if (l->cursor == e)
        l->cursor = n->younger;
    if (l->fresh == e)
        l->fresh = n->younger;
    if (n->older != QUEUE_NIL)
        s->nodes[n->older].younger = n->younger;
    else
        l->age.head = n->younger;
    if (n->younger != QUEUE_NIL)
        s->nodes[n->younger].older = n->older;
    else
        l->age.tail = n->older;
}

/* ---- tickets in and out --------------------------------------------------------------- */

static uint32_t queue_node_alloc(queue_set *s)
{
    if (s->free_head != QUEUE_NIL) {
        uint32_t i = s->free_head;
        s->free_head = s->nodes[i].next;
        return i;
    }
    if (s->nnodes >= QUEUE_NIL - 1 ||
        dh_grow(&s->nodes, &s->nodes_cap, s->nnodes + 1, sizeof *s->nodes, 1024) < 0)
        return QUEUE_NIL;
    return (uint32_t)s->nnodes++;
}

static void queue_node_free(queue_set *s, uint32_t i)
{
    s->nodes[i].next = s->free_head;
    s->free_head = i;
}

static uint32_t queue_node_of(const queue_set *s, const char *player_id)
{
    uintptr_t v = (uintptr_t)dh_table_get(&s->by_player, player_id ? player_id : "");
    return v ? (uint32_t)(v - 1) : QUEUE_NIL;
}

/* Add t[0..n) as one ticket of line at its front or back. */
static queue_status queue_entry_add(queue_set *s, size_t line, const queue_ticket *t, size_t n,
                                    bool front)
{
    uint32_t idx[QUEUE_PARTY_MAX] = {0};
    size_t made = 0;
    if (n == 0 || n > QUEUE_PARTY_MAX)
        return QUEUE_BAD_PARTY;
    double sum = 0;
    uint32_t away = 0;
    for (; made < n; made++) {
        idx[made] = queue_node_alloc(s);
        if (idx[made] == QUEUE_NIL ||
            dh_table_set(&s->by_player, t[made].player_id, (void *)(uintptr_t)(idx[made] + 1)) < 0)
            goto nomem;
        queue_node *x = &s->nodes[idx[made]];
        memset(x, 0, sizeof *x);
        x->t = t[made];
        x->t.seq = t[0].seq;
        x->t.since_ms = t[0].since_ms;
        x->line = (uint32_t)line;
        x->leader = idx[0];
        x->next_member = QUEUE_NIL;
        if (made)
            s->nodes[idx[made - 1]].next_member = idx[made];
        sum += t[made].mu;
        away += t[made].away_since_ms != 0;
    }
    queue_line *l = &s->lines[line];
    queue_node *lead = &s->nodes[idx[0]];
    lead->size = (uint32_t)n;
    lead->away = away;
    lead->rating = sum / (double)n;
    queue_age_add(s, l, idx[0], front);
    if (front)
        l->full_due = true;
    else if (l->fresh == QUEUE_NIL)
        l->fresh = idx[0];
    if (away) {
        lead->bucket = -1;
        queue_list_add(s, &l->away, idx[0], false);
    } else {
        queue_index_add(s, l, idx[0], front);
    }
    l->players += n;
    s->total += n;
    return QUEUE_OK;
nomem:
    for (size_t i = 0; i <= made && i < n; i++) {
        if (idx[i] == QUEUE_NIL)
            break;
        if (i < made)
            dh_table_del(&s->by_player, t[i].player_id);
        queue_node_free(s, idx[i]);
    }
    return QUEUE_NOMEM;
}

/* Remove the ticket led by e from its line (its nodes are freed). */
static void queue_entry_del(queue_set *s, uint32_t e)
{
    queue_node *lead = &s->nodes[e];
    queue_line *l = &s->lines[lead->line];
    if (lead->bucket < 0)
        queue_list_del(s, &l->away, e);
    else
        queue_index_del(s, l, e);
    queue_age_del(s, l, e);
    l->players -= lead->size;
    s->total -= lead->size;
    for (uint32_t i = e, next; i != QUEUE_NIL; i = next) {
        next = s->nodes[i].next_member;
        dh_table_del(&s->by_player, s->nodes[i].t.player_id);
        queue_node_free(s, i);
    }
}

size_t queue_entry_take(queue_set *s, uint32_t leader, queue_ticket *out)
{
    size_t n = 0;
    for (uint32_t i = leader; i != QUEUE_NIL; i = s->nodes[i].next_member)
        out[n++] = s->nodes[i].t;
    queue_entry_del(s, leader);
    return n;
}

queue_status queue_join_party(queue_set *s, const queue_key *k, const queue_ticket *t, size_t n)
{
    if (n == 0 || n > QUEUE_PARTY_MAX || (k->players && n > k->players))
        return QUEUE_BAD_PARTY;
    for (size_t i = 0; i < n; i++) {
        if (queue_has(s, t[i].player_id))
            return QUEUE_DUPLICATE;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(t[i].player_id, t[j].player_id))
                return QUEUE_DUPLICATE;
    }
    long line = queue_line_get(s, k);
    if (line < 0)
        return line == -2 ? QUEUE_TOO_MANY : QUEUE_NOMEM;
    return queue_entry_add(s, (size_t)line, t, n, false);
}

queue_status queue_join(queue_set *s, const queue_key *k, const queue_ticket *t)
{
    return queue_join_party(s, k, t, 1);
}

size_t queue_leave(queue_set *s, const char *player_id, const char *game)
{
    uint32_t i = queue_node_of(s, player_id);
    if (i == QUEUE_NIL)
        return 0;
    uint32_t lead = s->nodes[i].leader;
    if (game && *game && strcmp(s->lines[s->nodes[lead].line].key.game, game))
        return 0;
    size_t n = s->nodes[lead].size;
    queue_entry_del(s, lead);
    return n;
}

bool queue_has(const queue_set *s, const char *player_id)
{
    return queue_node_of(s, player_id) != QUEUE_NIL;
}

size_t queue_party(const queue_set *s, const char *player_id, const queue_ticket **out, size_t cap)
{
    uint32_t i = queue_node_of(s, player_id);
    size_t n = 0;
    if (i == QUEUE_NIL)
        return 0;
    for (uint32_t m = s->nodes[i].leader; m != QUEUE_NIL && n < cap; m = s->nodes[m].next_member)
        out[n++] = &s->nodes[m].t;
    return n;
}

queue_ticket *queue_find(queue_set *s, const char *player_id, size_t *line)
{
    uint32_t i = queue_node_of(s, player_id);
    if (i == QUEUE_NIL)
        return NULL;
    if (line)
        *line = s->nodes[i].line;
    return &s->nodes[i].t;
}

bool queue_away(queue_set *s, const char *player_id, uint64_t since_ms)
{
    uint32_t i = queue_node_of(s, player_id);
    if (i == QUEUE_NIL || since_ms == 0)
        return i != QUEUE_NIL;
    if (s->nodes[i].t.away_since_ms)
        return true;
    s->nodes[i].t.away_since_ms = since_ms;
    uint32_t e = s->nodes[i].leader;
    queue_node *lead = &s->nodes[e];
    queue_line *l = &s->lines[lead->line];
    if (lead->away++ == 0) {
        queue_index_del(s, l, e);
        lead->bucket = -1;
        queue_list_add(s, &l->away, e, false);
    }
    return true;
}

bool queue_back(queue_set *s, const char *player_id, const char *gateway)
{
    uint32_t i = queue_node_of(s, player_id);
    if (i == QUEUE_NIL)
        return false;
    queue_node *x = &s->nodes[i];
    if (gateway)
        queue_copy(x->t.gateway, sizeof x->t.gateway, gateway);
    if (!x->t.away_since_ms)
        return true;
    x->t.away_since_ms = 0;
    uint32_t e = x->leader;
    queue_line *l = &s->lines[s->nodes[e].line];
    if (--s->nodes[e].away == 0) {
        queue_list_del(s, &l->away, e);
        queue_index_add(s, l, e, false);
        l->full_due = true;
    }
    return true;
}

bool queue_rate(queue_set *s, const char *player_id, double mu, double sigma)
{
    uint32_t i = queue_node_of(s, player_id);
    if (i == QUEUE_NIL)
        return false;
    s->nodes[i].t.mu = mu;
    s->nodes[i].t.sigma = sigma;
    uint32_t e = s->nodes[i].leader;
    queue_node *lead = &s->nodes[e];
    double sum = 0;
    uint32_t n = 0;
    for (uint32_t k = e; k != QUEUE_NIL; k = s->nodes[k].next_member, n++)
        sum += s->nodes[k].t.mu;
    queue_line *l = &s->lines[lead->line];
    bool indexed = lead->bucket >= 0; /* an away ticket waits outside the index */
    if (indexed)
        queue_index_del(s, l, e);
    lead->rating = sum / (double)(n ? n : 1);
    if (indexed)
        queue_index_add(s, l, e, false);
    return true;
}

/* ---- looking at lines ----------------------------------------------------------------- */

size_t queue_lines(const queue_set *s)
{
    return s->n;
}

const queue_key *queue_line_key(const queue_set *s, size_t line)
{
    return line < s->n ? &s->lines[line].key : NULL;
}

size_t queue_line_len(const queue_set *s, size_t line)
{
    return line < s->n ? s->lines[line].players : 0;
}

size_t queue_line_ready(const queue_set *s, size_t line)
{
    return line < s->n ? s->lines[line].ready : 0;
}

const queue_ticket *queue_line_away_first(const queue_set *s, size_t line)
{
    if (line >= s->n || s->lines[line].away.head == QUEUE_NIL)
        return NULL;
    const queue_ticket *first = NULL;
    for (uint32_t i = s->lines[line].away.head; i != QUEUE_NIL; i = s->nodes[i].next_member) {
        const queue_ticket *t = &s->nodes[i].t;
        if (t->away_since_ms && (!first || t->away_since_ms < first->away_since_ms))
            first = t;
    }
    return first;
}

size_t queue_line_list(const queue_set *s, size_t line, const queue_ticket **out, size_t cap)
{
    size_t n = 0;
    if (line >= s->n)
        return 0;
    for (uint32_t e = s->lines[line].age.head; e != QUEUE_NIL; e = s->nodes[e].younger)
        for (uint32_t i = e; i != QUEUE_NIL && n < cap; i = s->nodes[i].next_member)
            out[n++] = &s->nodes[i].t;
    return n;
}

size_t queue_total(const queue_set *s)
{
    return s->total;
}

/* ---- putting a failed match back ------------------------------------------------------- */

queue_status queue_push_front(queue_set *s, const queue_key *k, const queue_ticket *t, size_t n)
{
    long line = queue_line_get(s, k);
    if (line < 0)
        return line == -2 ? QUEUE_TOO_MANY : QUEUE_NOMEM;
    /* tickets from the last one back, each to the front: they end in their order */
    size_t end = n;
    while (end > 0) {
        size_t start = end - 1;
        while (start > 0 && t[start - 1].seq == t[end - 1].seq && end - start < QUEUE_PARTY_MAX)
            start--;
        queue_ticket keep[QUEUE_PARTY_MAX];
        size_t m = 0;
        for (size_t i = start; i < end; i++)
            if (!queue_has(s, t[i].player_id))
                keep[m++] = t[i];
        if (m && queue_entry_add(s, (size_t)line, keep, m, true) != QUEUE_OK)
            return QUEUE_NOMEM;
        end = start;
    }
    return QUEUE_OK;
}
