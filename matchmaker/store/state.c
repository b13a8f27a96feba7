/*
 * state.c: tickets and placements in Redis (see state.h).
 */
#include "state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_str.h"
#include "dh_grow.h"
#include "dh_keys.h"
#include "dh_log.h"
#include "lease.h"
#include "mm.h"
#include "rconn.h"

typedef struct {
    const char *op; /* "t+", "t-", "p+", "p-" */
    const char *field;
    const void *value;
    size_t len;
} state_op;

static void state_staged_clear(state_staged *st)
{
    for (size_t i = 0; i < st->n; i++) {
        free(st->fields[i]);
        free(st->values[i]);
    }
    st->n = 0;
}

/* The i-th op of a write: the deferred deletes, then the staged tickets, then ops. */
static state_op state_op_at(const mm_state *mm, const state_op *ops, size_t i)
{
    size_t nl = mm->later.n, ns = mm->staged.n;
    if (i < nl)
        return (state_op){mm->later.v[i].op, mm->later.v[i].field, NULL, 0};
    if (i < nl + ns)
        return (state_op){"t+", mm->staged.fields[i - nl], mm->staged.values[i - nl],
                          mm->staged.lens[i - nl]};
    return ops[i - nl - ns];
}

static int state_write_all(mm_state *mm, uint64_t now_ms, const state_op *ops, size_t n);

/* Apply the deferred deletes, then the staged tickets, then ops, in one fenced script.
 * The deferred and staged ones are gone afterwards either way (see state.h). */
static int state_write(mm_state *mm, uint64_t now_ms, const state_op *ops, size_t n)
{
    int rc = state_write_all(mm, now_ms, ops, n);
    mm->later.n = 0;
    state_staged_clear(&mm->staged);
    return rc;
}

static int state_write_all(mm_state *mm, uint64_t now_ms, const state_op *ops, size_t n)
{
    size_t nl = mm->later.n, all = nl + mm->staged.n + n;
    if (!mm->redis_on || all == 0)
        return 0;
    const char *head[] = {"EVALSHA",         mm->scripts.state.sha, "3",   DH_KEY_MM_LEASE,
                          DH_KEY_MM_TICKETS, DH_KEY_MM_PLACEMENTS,  mm->id};
    size_t nhead = sizeof head / sizeof *head, argc = nhead + 3 * all;
    const char **argv = calloc(argc, sizeof *argv);
    size_t *lens = calloc(argc, sizeof *lens);
    int rc = -1;
    if (!argv || !lens) {
        dh_error("out of memory writing to redis");
        goto out;
    }
    size_t k = 0;
    for (; k < nhead; k++) {
        argv[k] = head[k];
        lens[k] = strlen(head[k]);
    }
    for (size_t i = 0; i < all; i++, k += 3) {
        state_op o = state_op_at(mm, ops, i);
        argv[k] = o.op;
        lens[k] = strlen(o.op);
        argv[k + 1] = o.field;
        lens[k + 1] = strlen(o.field);
        argv[k + 2] = o.value ? o.value : "";
        lens[k + 2] = o.value ? o.len : 0;
    }
    rconn_cmd c = {.argc = (int)argc, .argv = argv, .lens = lens, .script = &mm->scripts.state};
    redisReply *r = rconn_command_cmd(mm, now_ms, &c);
    if (!r)
        goto out;
    if (r->type == REDIS_REPLY_ERROR) {
        if (strstr(r->str, DH_REPLY_NOTLEADER))
            lease_lost(mm, DH_KEY_MM_LEASE " names another matchmaker");
        else
            dh_warn_every(DH_LOG_EVERY_MS, "redis refused a matchmaker write: %s", r->str);
    } else {
        rc = 0;
    }
    freeReplyObject(r);
out:
    if (rc < 0 && nl)
        dh_warn_every(DH_LOG_EVERY_MS,
                      "%zu deletes of started matches' records lost (redis unavailable); a "
                      "later load sends their StartMatch again",
                      nl);
    free(argv);
    free(lens);
    return rc;
}

int state_placement_del_later(mm_state *mm, uint64_t now_ms, const char *match_id,
                              const char *const *player_ids, size_t n)
{
    state_deferred *d = &mm->later;
    if (!mm->redis_on)
        return 0;
    if (dh_grow(&d->v, &d->cap, d->n + 1 + n, sizeof *d->v, 256) < 0)
        return -1;
    if (d->n == 0)
        d->since_ms = now_ms;
    for (size_t i = 0; i <= n; i++) {
        const char *field = i ? player_ids[i - 1] : match_id;
        state_later *x = &d->v[d->n++];
        dh_str_copy(x->op, sizeof x->op, i ? "t-" : "p-");
        dh_str_copy(x->field, sizeof x->field, field);
    }
    return 0;
}

void state_flush(mm_state *mm, uint64_t now_ms)
{
    if (mm->later.n)
        state_write(mm, now_ms, NULL, 0);
}

void state_flush_due(mm_state *mm, uint64_t now_ms)
{
    if (mm->later.n && now_ms - mm->later.since_ms >= STATE_LATER_MS)
        state_write(mm, now_ms, NULL, 0);
}

void state_forget(mm_state *mm)
{
    mm->later.n = 0;
    state_staged_clear(&mm->staged);
}

void state_staged_free(mm_state *mm)
{
    state_staged *st = &mm->staged;
    state_staged_clear(st);
    free(st->fields);
    free(st->values);
    free(st->lens);
    memset(st, 0, sizeof *st);
}

void state_ticket_to_record(const queue_key *k, const queue_ticket *t,
                            Deckhand__Internal__TicketRecord *out)
{
    deckhand__internal__ticket_record__init(out);
    out->game = (char *)k->game;
    out->mode = (char *)k->mode;
    out->players = k->players;
    out->player_id = (char *)t->player_id;
    out->name = (char *)t->name;
    out->gateway = (char *)t->gateway;
    out->since_ms = t->since_ms;
    out->seq = t->seq;
    out->away_since_ms = t->away_since_ms;
    out->bot = t->bot ? (char *)STATE_BOT : (char *)"";
    out->vs_ai = (char *)k->vs_ai;
}

void state_record_options(Deckhand__Internal__TicketRecord *rec, options_list *ol,
                          const queue_key *k)
{
    options_list_of(ol, k->options);
    rec->n_options = ol->n;
    rec->options = ol->p;
}

int state_ticket_from_record(const Deckhand__Internal__TicketRecord *r, queue_key *k,
                             queue_ticket *t)
{
    if (queue_key_init(k, r->game, r->mode, r->players) != QUEUE_OK ||
        queue_key_vs_ai(k, r->vs_ai) != QUEUE_OK ||
        queue_ticket_init(t, r->player_id, r->name, r->gateway, 0, r->since_ms) != QUEUE_OK ||
        !r->player_id || !*r->player_id)
        return -1;
    t->seq = r->seq;
    t->away_since_ms = r->away_since_ms;
    t->bot = r->bot && *r->bot;
    char canon[QUEUE_OPTIONS_MAX];
    if (options_from_records(r->options, r->n_options, canon, sizeof canon) < 0 ||
        queue_key_options(k, canon) != QUEUE_OK)
        return -1;
    return 0;
}

int state_ticket_put(mm_state *mm, uint64_t now_ms, const queue_key *k, const queue_ticket *t)
{
    if (!mm->redis_on)
        return 0;
    Deckhand__Internal__TicketRecord rec;
    options_list ol;
    state_ticket_to_record(k, t, &rec);
    state_record_options(&rec, &ol, k);
    size_t len = deckhand__internal__ticket_record__get_packed_size(&rec);
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf)
        return -1;
    deckhand__internal__ticket_record__pack(&rec, buf);
    state_op op = {"t+", t->player_id, buf, len};
    int rc = state_write(mm, now_ms, &op, 1);
    free(buf);
    return rc;
}

int state_stage_tickets(mm_state *mm, const queue_key *const *k, const queue_ticket *const *t,
                        size_t n)
{
    state_staged *st = &mm->staged;
    if (!mm->redis_on || n == 0)
        return 0;
    size_t need = st->n + n, cap = st->cap;
    if (need > cap) {
        cap = need < 2 * cap ? 2 * cap : need;
        char **f = realloc(st->fields, cap * sizeof *f);
        if (f)
            st->fields = f;
        uint8_t **v = f ? realloc(st->values, cap * sizeof *v) : NULL;
        if (v)
            st->values = v;
        size_t *l = v ? realloc(st->lens, cap * sizeof *l) : NULL;
        if (!l) {
            state_staged_clear(st);
            return -1;
        }
        st->lens = l;
        st->cap = cap;
    }
    for (size_t i = 0; i < n; i++) {
        Deckhand__Internal__TicketRecord rec;
        options_list ol;
        state_ticket_to_record(k[i], t[i], &rec);
        state_record_options(&rec, &ol, k[i]);
        size_t len = deckhand__internal__ticket_record__get_packed_size(&rec);
        uint8_t *buf = malloc(len ? len : 1);
        char *field = strdup(t[i]->player_id);
        if (!buf || !field) {
            free(buf);
            free(field);
            state_staged_clear(st);
            return -1;
        }
        deckhand__internal__ticket_record__pack(&rec, buf);
        st->fields[st->n] = field;
        st->values[st->n] = buf;
        st->lens[st->n++] = len;
    }
    return 0;
}

int state_write_staged(mm_state *mm, uint64_t now_ms)
{
    return state_write(mm, now_ms, NULL, 0);
}

void state_unstage(mm_state *mm)
{
    state_staged_clear(&mm->staged);
}

int state_tickets_put(mm_state *mm, uint64_t now_ms, const queue_key *const *k,
                      const queue_ticket *const *t, size_t n)
{
    if (!mm->redis_on || n == 0)
        return 0;
    if (state_stage_tickets(mm, k, t, n) < 0) {
        dh_error("out of memory writing %zu tickets", n);
        return -1;
    }
    return state_write(mm, now_ms, NULL, 0);
}

int state_ticket_del(mm_state *mm, uint64_t now_ms, const char *player_id)
{
    state_op op = {"t-", player_id, NULL, 0};
    return state_write(mm, now_ms, &op, 1);
}

int state_placement_put(mm_state *mm, uint64_t now_ms, const char *match_id, const uint8_t *rec,
                        size_t len)
{
    state_op op = {"p+", match_id, rec, len};
    return state_write(mm, now_ms, &op, 1);
}

int state_placements_put(mm_state *mm, uint64_t now_ms, const char *const *match_ids,
                         const uint8_t *const *recs, const size_t *lens, size_t n)
{
    state_op *ops = calloc(n ? n : 1, sizeof *ops);
    if (!ops)
        return -1;
    for (size_t i = 0; i < n; i++)
        ops[i] = (state_op){"p+", match_ids[i], recs[i], lens[i]};
    int rc = state_write(mm, now_ms, ops, n);
    free(ops);
    return rc;
}

int state_placement_del(mm_state *mm, uint64_t now_ms, const char *match_id,
                        const char *const *player_ids, size_t n)
{
    state_op ops[1 + n];
    ops[0] = (state_op){"p-", match_id, NULL, 0};
    for (size_t i = 0; i < n; i++)
        ops[1 + i] = (state_op){"t-", player_ids[i], NULL, 0};
    return state_write(mm, now_ms, ops, 1 + n);
}

/* ---- loading ------------------------------------------------------------------------ */

static int state_ticket_cmp(const void *a, const void *b)
{
    const queue_ticket *x = &((const state_ticket *)a)->t, *y = &((const state_ticket *)b)->t;
    if (x->since_ms != y->since_ms)
        return x->since_ms < y->since_ms ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* HGETALL key: an array reply (the caller frees it), or NULL. */
static redisReply *state_hgetall(mm_state *mm, uint64_t now_ms, const char *key)
{
    const char *argv[] = {"HGETALL", key};
    redisReply *r = rconn_command(mm, now_ms, 2, argv);
    if (r && r->type != REDIS_REPLY_ARRAY) {
        dh_warn("HGETALL %s: %s", key, r->type == REDIS_REPLY_ERROR ? r->str : "not a hash");
        freeReplyObject(r);
        return NULL;
    }
    return r;
}

void state_stored_free(state_stored *s)
{
    for (size_t i = 0; i < s->nplacements; i++)
        deckhand__internal__placement_record__free_unpacked(s->placements[i], NULL);
    free(s->placements);
    free(s->tickets);
    memset(s, 0, sizeof *s);
}

int state_read(mm_state *mm, uint64_t now_ms, state_stored *out)
{
    memset(out, 0, sizeof *out);
    int rc = -1;
    redisReply *pr = state_hgetall(mm, now_ms, DH_KEY_MM_PLACEMENTS);
    redisReply *tr = pr ? state_hgetall(mm, now_ms, DH_KEY_MM_TICKETS) : NULL;
    if (!pr || !tr)
        goto out;
    out->placements = calloc(pr->elements / 2 + 1, sizeof *out->placements);
    out->tickets = calloc(tr->elements / 2 + 1, sizeof *out->tickets);
    if (!out->placements || !out->tickets)
        goto out;
    for (size_t i = 0; i + 1 < pr->elements; i += 2) {
        const redisReply *f = pr->element[i], *v = pr->element[i + 1];
        Deckhand__Internal__PlacementRecord *rec =
            deckhand__internal__placement_record__unpack(NULL, v->len, (const uint8_t *)v->str);
        if (rec)
            out->placements[out->nplacements++] = rec;
        else
            dh_warn("skipping an unreadable placement record %.64s", f->str);
    }
    for (size_t i = 0; i + 1 < tr->elements; i += 2) {
        const redisReply *f = tr->element[i], *v = tr->element[i + 1];
        Deckhand__Internal__TicketRecord *rec =
            deckhand__internal__ticket_record__unpack(NULL, v->len, (const uint8_t *)v->str);
        state_ticket *t = &out->tickets[out->ntickets];
        if (rec && state_ticket_from_record(rec, &t->key, &t->t) == 0)
            out->ntickets++;
        else
            dh_warn("skipping an unreadable ticket record %.64s", f->str);
        if (rec)
            deckhand__internal__ticket_record__free_unpacked(rec, NULL);
    }
    qsort(out->tickets, out->ntickets, sizeof *out->tickets, state_ticket_cmp);
    rc = 0;
out:
    if (rc < 0)
        state_stored_free(out);
    if (pr)
        freeReplyObject(pr);
    if (tr)
        freeReplyObject(tr);
    return rc;
}
