/*
 * engine_log.c: the answer log of a match: every answer accepted since the last turn
 * boundary (what a restore replays on top of the snapshot), kept with the snapshot and the
 * previous pair (what undo goes back to), and the byte encoding of one answer that the
 * worker appends to a match's history in Redis; and the snapshot an all-bot match writes
 * only when it is first read (engine_match_snap_sync).
 */
#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"
#include "dh_wire.h"
#include "engine_internal.h"

void engine_log_reset(engine_log *lg)
{
    lg->n = 0;
    lg->nids = 0;
}

int engine_log_append(engine_log *lg, int seat, uint64_t did, const uint32_t *ids, size_t n)
{
    if (!lg->v || !lg->ids)
        engine_spare_take_log(lg);
    if (dh_grow(&lg->v, &lg->cap, lg->n + 1, sizeof *lg->v, 16) < 0 ||
        dh_grow(&lg->ids, &lg->idcap, lg->nids + n, sizeof *lg->ids, 64) < 0)
        return -1;
    engine_logent *e = &lg->v[lg->n++];
    e->seat = seat;
    e->decision_id = did;
    e->off = lg->nids;
    e->n = n;
    if (n)
        memcpy(lg->ids + lg->nids, ids, sizeof(uint32_t) * n);
    lg->nids += n;
    return 0;
}

void engine_log_free(engine_log *lg)
{
    free(lg->v);
    free(lg->ids);
    memset(lg, 0, sizeof *lg);
}

int engine_match_snap_sync(engine_match *m)
{
    if (!m->snap_stale)
        return 0;
    if (engine_state_save_memo(&m->st, &m->b->names, &m->snap, m->sorder) < 0)
        return -1;
    m->snap_stale = 0;
    return 0;
}

void engine_match_swap_prev(engine_match *m)
{
    engine_match_snap_sync(m); /* out of memory: the rebuild from it fails, and says so */
    engine_buf snap = m->snap;
    m->snap = m->prev_snap;
    m->prev_snap = snap;
    engine_log log = m->log;
    m->log = m->prev_log;
    m->prev_log = log;
}

size_t engine_match_log_len(const engine_match *m)
{
    return m->log.n;
}

engine_answer engine_match_log_at(const engine_match *m, size_t i)
{
    engine_answer a = {0, 0, NULL, 0};
    if (i >= m->log.n)
        return a;
    const engine_logent *e = &m->log.v[i];
    a.seat = e->seat;
    a.decision_id = e->decision_id;
    a.option_ids = m->log.ids + e->off;
    a.n = e->n;
    return a;
}

/* ---- the log encoding: varints (dh_wire.h) -------------------------------------------- */

size_t engine_answer_encode_to(const engine_answer *a, uint8_t *p)
{
    size_t n = 0;
    p[n++] = 1; /* format */
    n += dh_wire_put_varint(p + n, (uint64_t)a->seat);
    n += dh_wire_put_varint(p + n, a->decision_id);
    n += dh_wire_put_varint(p + n, a->n);
    for (size_t i = 0; i < a->n; i++)
        n += dh_wire_put_varint(p + n, a->option_ids[i]);
    return n;
}

int engine_answer_encode(const engine_answer *a, uint8_t **out, size_t *len)
{
    uint8_t *p = malloc(ENGINE_ANSWER_BYTES(a->n));
    if (!p)
        return -1;
    *len = engine_answer_encode_to(a, p);
    *out = p;
    return 0;
}

int engine_answer_decode(const uint8_t *buf, size_t len, engine_answer *a, uint32_t *ids,
                         size_t max)
{
    const uint8_t *p = buf, *end = buf + len;
    uint64_t seat, did, n, v;
    if (len < 1 || *p++ != 1)
        return -1;
    if (!dh_wire_varint(&p, end, &seat) || !dh_wire_varint(&p, end, &did) ||
        !dh_wire_varint(&p, end, &n) || seat > 64 || n > max)
        return -1;
    for (uint64_t i = 0; i < n; i++) {
        if (!dh_wire_varint(&p, end, &v) || v > UINT32_MAX)
            return -1;
        ids[i] = (uint32_t)v;
    }
    if (p != end)
        return -1;
    a->seat = (int)seat;
    a->decision_id = did;
    a->option_ids = ids;
    a->n = (size_t)n;
    return 0;
}
