/*
 * queue.c: FIFO lines of waiting players (see queue.h).
 *
 * Each line is a growable array, oldest ticket first. Taking from the front moves the
 * rest down; lines are short-lived and small, so a ring buffer would buy little here.
 * Empty lines are kept: there is one per (game, mode, players) ever used, a handful.
 */
#include "queue.h"

#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"

typedef struct {
    queue_key key;
    queue_ticket *t;
    size_t len, cap;
} queue_line;

struct queue_set {
    queue_line *lines;
    size_t n, cap;
};

queue_set *queue_set_new(void)
{
    return calloc(1, sizeof(queue_set));
}

void queue_set_free(queue_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        free(s->lines[i].t);
    free(s->lines);
    free(s);
}

void queue_clear(queue_set *s)
{
    for (size_t i = 0; i < s->n; i++)
        s->lines[i].len = 0;
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
    return QUEUE_OK;
}

static bool queue_key_eq(const queue_key *a, const queue_key *b)
{
    return a->players == b->players && !strcmp(a->game, b->game) && !strcmp(a->mode, b->mode);
}

/* The line for k, created when missing; NULL on allocation failure. */
static queue_line *queue_line_get(queue_set *s, const queue_key *k)
{
    for (size_t i = 0; i < s->n; i++)
        if (queue_key_eq(&s->lines[i].key, k))
            return &s->lines[i];
    if (dh_grow(&s->lines, &s->cap, s->n + 1, sizeof *s->lines, 8) < 0)
        return NULL;
    queue_line *l = &s->lines[s->n++];
    memset(l, 0, sizeof *l);
    l->key = *k;
    return l;
}

static bool queue_reserve(queue_line *l, size_t extra)
{
    return dh_grow(&l->t, &l->cap, l->len + extra, sizeof *l->t, 16) == 0;
}

queue_ticket *queue_find(queue_set *s, const char *player_id, size_t *line)
{
    for (size_t i = 0; i < s->n; i++) {
        for (size_t j = 0; j < s->lines[i].len; j++) {
            if (strcmp(s->lines[i].t[j].player_id, player_id))
                continue;
            if (line)
                *line = i;
            return &s->lines[i].t[j];
        }
    }
    return NULL;
}

bool queue_has(const queue_set *s, const char *player_id)
{
    return queue_find((queue_set *)s, player_id, NULL) != NULL;
}

queue_status queue_join(queue_set *s, const queue_key *k, const queue_ticket *t)
{
    if (queue_has(s, t->player_id))
        return QUEUE_DUPLICATE;
    queue_line *l = queue_line_get(s, k);
    if (!l || !queue_reserve(l, 1))
        return QUEUE_NOMEM;
    l->t[l->len++] = *t;
    return QUEUE_OK;
}

bool queue_leave(queue_set *s, const char *player_id, const char *game)
{
    for (size_t i = 0; i < s->n; i++) {
        queue_line *l = &s->lines[i];
        if (game && *game && strcmp(l->key.game, game))
            continue;
        for (size_t j = 0; j < l->len; j++) {
            if (strcmp(l->t[j].player_id, player_id))
                continue;
            memmove(&l->t[j], &l->t[j + 1], (l->len - j - 1) * sizeof *l->t);
            l->len--;
            return true;
        }
    }
    return false;
}

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
    return line < s->n ? s->lines[line].len : 0;
}

size_t queue_line_ready(const queue_set *s, size_t line)
{
    size_t n = 0;
    for (size_t i = 0; line < s->n && i < s->lines[line].len; i++)
        n += s->lines[line].t[i].away_since_ms == 0;
    return n;
}

const queue_ticket *queue_line_ticket(const queue_set *s, size_t line, size_t i)
{
    return line < s->n && i < s->lines[line].len ? &s->lines[line].t[i] : NULL;
}

size_t queue_total(const queue_set *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        n += s->lines[i].len;
    return n;
}

bool queue_take(queue_set *s, size_t line, queue_ticket *out, size_t n)
{
    if (n == 0 || queue_line_ready(s, line) < n)
        return false;
    queue_line *l = &s->lines[line];
    size_t taken = 0, kept = 0;
    for (size_t i = 0; i < l->len; i++) {
        if (taken < n && l->t[i].away_since_ms == 0)
            out[taken++] = l->t[i];
        else
            l->t[kept++] = l->t[i];
    }
    l->len = kept;
    return true;
}

queue_status queue_push_front(queue_set *s, const queue_key *k, const queue_ticket *t, size_t n)
{
    queue_line *l = queue_line_get(s, k);
    if (!l || !queue_reserve(l, n))
        return QUEUE_NOMEM;
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        if (queue_has(s, t[i].player_id))
            continue;
        memmove(&l->t[at + 1], &l->t[at], (l->len - at) * sizeof *l->t);
        l->t[at++] = t[i];
        l->len++;
    }
    return QUEUE_OK;
}
