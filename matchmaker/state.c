/*
 * state.c: tickets and placements in Redis (see state.h).
 */
#include "state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"
#include "dh_log.h"
#include "matchmaker.h"

typedef struct {
    const char *op; /* "t+", "t-", "p+", "p-" */
    const char *field;
    const void *value;
    size_t len;
} state_op;

redisReply *state_command_cmd(mm_state *mm, uint64_t now_ms, const state_cmd *c)
{
    redisReply *r = NULL;
    if (state_pipeline(mm, now_ms, c, 1, &r) < 0)
        return NULL;
    return r;
}

redisReply *state_command(mm_state *mm, uint64_t now_ms, int argc, const char **argv)
{
    state_cmd c = {.argc = argc, .argv = argv, .lens = NULL};
    return state_command_cmd(mm, now_ms, &c);
}

int state_pipeline(mm_state *mm, uint64_t now_ms, const state_cmd *cmds, size_t n, redisReply **out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = NULL;
    redisContext *c = mm->redis_on ? dh_redis_get(&mm->redis, now_ms) : NULL;
    if (!c)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (redisAppendCommandArgv(c, cmds[i].argc, cmds[i].argv, cmds[i].lens) != REDIS_OK)
            goto err;
    for (size_t i = 0; i < n; i++) {
        void *r = NULL;
        if (redisGetReply(c, &r) != REDIS_OK || !r)
            goto err;
        out[i] = r;
    }
    return 0;
err:
    for (size_t i = 0; i < n; i++) {
        if (out[i])
            freeReplyObject(out[i]);
        out[i] = NULL;
    }
    dh_redis_fail(&mm->redis, now_ms);
    return -1;
}

/* Apply ops in one fenced script. */
static int state_write(mm_state *mm, uint64_t now_ms, const state_op *ops, size_t n)
{
    if (!mm->redis_on)
        return 0;
    const char *head[] = {"EVAL",          dh_script_mm_state, "3",
                          DH_KEY_MM_LEASE, DH_KEY_MM_TICKETS,  DH_KEY_MM_PLACEMENTS,
                          mm->id};
    size_t nhead = sizeof head / sizeof *head, argc = nhead + 3 * n;
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
    for (size_t i = 0; i < n; i++, k += 3) {
        argv[k] = ops[i].op;
        lens[k] = strlen(ops[i].op);
        argv[k + 1] = ops[i].field;
        lens[k + 1] = strlen(ops[i].field);
        argv[k + 2] = ops[i].value ? ops[i].value : "";
        lens[k + 2] = ops[i].value ? ops[i].len : 0;
    }
    state_cmd c = {.argc = (int)argc, .argv = argv, .lens = lens};
    redisReply *r = state_command_cmd(mm, now_ms, &c);
    if (!r)
        goto out;
    if (r->type == REDIS_REPLY_ERROR) {
        if (strstr(r->str, DH_REPLY_NOTLEADER))
            lease_lost(mm, DH_KEY_MM_LEASE " names another matchmaker");
        else
            dh_warn("redis refused a matchmaker write: %s", r->str);
    } else {
        rc = 0;
    }
    freeReplyObject(r);
out:
    free(argv);
    free(lens);
    return rc;
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
}

int state_ticket_from_record(const Deckhand__Internal__TicketRecord *r, queue_key *k,
                             queue_ticket *t)
{
    if (queue_key_init(k, r->game, r->mode, r->players) != QUEUE_OK ||
        queue_ticket_init(t, r->player_id, r->name, r->gateway, 0, r->since_ms) != QUEUE_OK ||
        !r->player_id || !*r->player_id)
        return -1;
    t->seq = r->seq;
    t->away_since_ms = r->away_since_ms;
    return 0;
}

int state_ticket_put(mm_state *mm, uint64_t now_ms, const queue_key *k, const queue_ticket *t)
{
    if (!mm->redis_on)
        return 0;
    Deckhand__Internal__TicketRecord rec;
    state_ticket_to_record(k, t, &rec);
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

int state_ticket_del(mm_state *mm, uint64_t now_ms, const char *player_id)
{
    state_op op = {"t-", player_id, NULL, 0};
    return state_write(mm, now_ms, &op, 1);
}

int state_placement_put(mm_state *mm, uint64_t now_ms, const placement *p)
{
    if (!mm->redis_on)
        return 0;
    Deckhand__Internal__TicketRecord recs[p->n];
    Deckhand__Internal__TicketRecord *recp[p->n];
    for (size_t i = 0; i < p->n; i++) {
        state_ticket_to_record(&p->key, &p->tickets[i], &recs[i]);
        recp[i] = &recs[i];
    }
    Deckhand__Internal__QueueSettings qs = DECKHAND__INTERNAL__QUEUE_SETTINGS__INIT;
    qs.grace_ms = p->settings.grace_ms;
    qs.decision_ms = p->settings.decision_ms;
    qs.turn_ms = p->settings.turn_ms;
    qs.abandon = (char *)p->settings.abandon;
    Deckhand__Internal__PlacementRecord pr = DECKHAND__INTERNAL__PLACEMENT_RECORD__INIT;
    pr.match_id = (char *)p->match_id;
    pr.game = (char *)p->key.game;
    pr.mode = (char *)p->key.mode;
    pr.players = p->key.players;
    pr.seed = p->seed;
    pr.worker = (char *)p->worker;
    pr.n_tickets = p->n;
    pr.tickets = recp;
    pr.settings = &qs;
    size_t len = deckhand__internal__placement_record__get_packed_size(&pr);
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf)
        return -1;
    deckhand__internal__placement_record__pack(&pr, buf);
    state_op op = {"p+", p->match_id, buf, len};
    int rc = state_write(mm, now_ms, &op, 1);
    free(buf);
    return rc;
}

int state_placement_del(mm_state *mm, uint64_t now_ms, const placement *p, bool started)
{
    size_t n = 1 + (started ? p->n : 0);
    state_op ops[n];
    ops[0] = (state_op){"p-", p->match_id, NULL, 0};
    for (size_t i = 1; i < n; i++)
        ops[i] = (state_op){"t-", p->tickets[i - 1].player_id, NULL, 0};
    return state_write(mm, now_ms, ops, n);
}

/* ---- loading ------------------------------------------------------------------------ */

typedef struct {
    queue_key key;
    queue_ticket t;
} state_ticket;

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
    redisReply *r = state_command(mm, now_ms, 2, argv);
    if (r && r->type != REDIS_REPLY_ARRAY) {
        dh_warn("HGETALL %s: %s", key, r->type == REDIS_REPLY_ERROR ? r->str : "not a hash");
        freeReplyObject(r);
        return NULL;
    }
    return r;
}

/* Fill p from a stored record; p->tickets is allocated (the caller owns it). -1 when
 * the record does not fit. */
static int state_placement_from_record(const mm_state *mm,
                                       const Deckhand__Internal__PlacementRecord *pr, placement *p)
{
    memset(p, 0, sizeof *p);
    if (!pr->match_id || strlen(pr->match_id) != PLACEMENT_ID_LEN || !pr->worker || !*pr->worker ||
        strlen(pr->worker) >= sizeof p->worker || pr->n_tickets == 0 ||
        queue_key_init(&p->key, pr->game, pr->mode, pr->players) != QUEUE_OK)
        return -1;
    p->tickets = calloc(pr->n_tickets, sizeof *p->tickets);
    if (!p->tickets)
        return -1;
    for (size_t i = 0; i < pr->n_tickets; i++) {
        queue_key k;
        if (state_ticket_from_record(pr->tickets[i], &k, &p->tickets[i]) < 0) {
            free(p->tickets);
            p->tickets = NULL;
            return -1;
        }
    }
    memcpy(p->match_id, pr->match_id, PLACEMENT_ID_LEN + 1);
    snprintf(p->worker, sizeof p->worker, "%s", pr->worker);
    p->n = pr->n_tickets;
    p->seed = pr->seed;
    p->settings = *settings_for(&mm->settings, p->key.game, p->key.mode);
    if (pr->settings) {
        p->settings.grace_ms = pr->settings->grace_ms;
        p->settings.decision_ms = pr->settings->decision_ms;
        p->settings.turn_ms = pr->settings->turn_ms;
        if (pr->settings->abandon && *pr->settings->abandon)
            snprintf(p->settings.abandon, sizeof p->settings.abandon, "%s", pr->settings->abandon);
    }
    return 0;
}

static bool state_in_placements(const placement *ps, size_t n, const char *player_id)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < ps[i].n; j++)
            if (!strcmp(ps[i].tickets[j].player_id, player_id))
                return true;
    return false;
}

int state_load(mm_state *mm, uint64_t now_ms)
{
    if (!mm->redis_on)
        return 0;
    int rc = -1;
    placement *ps = NULL;
    state_ticket *ts = NULL;
    size_t nps = 0, nts = 0;
    uint64_t max_seq = 0;
    redisReply *pr = state_hgetall(mm, now_ms, DH_KEY_MM_PLACEMENTS);
    redisReply *tr = pr ? state_hgetall(mm, now_ms, DH_KEY_MM_TICKETS) : NULL;
    if (!pr || !tr)
        goto out;
    ps = calloc(pr->elements / 2 + 1, sizeof *ps);
    ts = calloc(tr->elements / 2 + 1, sizeof *ts);
    if (!ps || !ts)
        goto out;
    for (size_t i = 0; i + 1 < pr->elements; i += 2) {
        const redisReply *f = pr->element[i], *v = pr->element[i + 1];
        Deckhand__Internal__PlacementRecord *rec =
            deckhand__internal__placement_record__unpack(NULL, v->len, (const uint8_t *)v->str);
        if (rec && state_placement_from_record(mm, rec, &ps[nps]) == 0)
            nps++;
        else
            dh_warn("skipping an unreadable placement record %.64s", f->str);
        if (rec)
            deckhand__internal__placement_record__free_unpacked(rec, NULL);
    }
    for (size_t i = 0; i + 1 < tr->elements; i += 2) {
        const redisReply *f = tr->element[i], *v = tr->element[i + 1];
        Deckhand__Internal__TicketRecord *rec =
            deckhand__internal__ticket_record__unpack(NULL, v->len, (const uint8_t *)v->str);
        if (rec && state_ticket_from_record(rec, &ts[nts].key, &ts[nts].t) == 0)
            nts++;
        else
            dh_warn("skipping an unreadable ticket record %.64s", f->str);
        if (rec)
            deckhand__internal__ticket_record__free_unpacked(rec, NULL);
    }
    qsort(ts, nts, sizeof *ts, state_ticket_cmp);
    for (size_t i = 0; i < nts; i++) {
        if (ts[i].t.seq > max_seq)
            max_seq = ts[i].t.seq;
        if (state_in_placements(ps, nps, ts[i].t.player_id))
            continue;
        if (queue_join(mm->queues, &ts[i].key, &ts[i].t) == QUEUE_NOMEM) {
            dh_error("out of memory loading the queues");
            mm_reset(mm);
            goto out;
        }
    }
    for (size_t i = 0; i < nps; i++) {
        for (size_t j = 0; j < ps[i].n; j++)
            if (ps[i].tickets[j].seq > max_seq)
                max_seq = ps[i].tickets[j].seq;
        if (placement_resume(mm, &ps[i], now_ms) < 0) {
            dh_error("out of memory resuming placements");
            for (size_t j = i + 1; j < nps; j++)
                free(ps[j].tickets);
            nps = 0;
            mm_reset(mm);
            goto out;
        }
    }
    nps = 0; /* the placement list owns their tickets now */
    if (mm->next_seq <= max_seq)
        mm->next_seq = max_seq + 1;
    rc = 0;
out:
    for (size_t i = 0; i < nps; i++)
        free(ps[i].tickets);
    free(ps);
    free(ts);
    if (pr)
        freeReplyObject(pr);
    if (tr)
        freeReplyObject(tr);
    return rc;
}
