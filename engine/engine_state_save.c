/*
 * engine_state_save.c: a match's state (engine_state.c) in its canonical binary form, the
 * snapshot: saved with every collection sorted by name and names written as strings (so
 * equal states give equal bytes whatever the process), and loaded back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"
#include "engine_internal.h"

/* ---- serialization ------------------------------------------------------------------- */

#define SNAP_MAGIC   0x4e534844u /* "DHSN" little-endian */
#define SNAP_VERSION 2u          /* 2 added public_seq; a version 1 snapshot loads with it at 0 */

void engine_buf_free(engine_buf *bf)
{
    free(bf->p);
    memset(bf, 0, sizeof *bf);
}

static int buf_need(engine_buf *bf, size_t n)
{
    return dh_grow(&bf->p, &bf->cap, bf->len + n, 1, 4096);
}

/* Little-endian, through a local pointer: a store through bf->p may alias bf itself, so a
 * byte loop on bf->p[bf->len++] reloads both after every byte. */
static void put_u32(engine_buf *bf, uint32_t v)
{
    uint8_t *p = bf->p + bf->len;
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
    bf->len += 4;
}

/* The same at p, for a whole array written through one local pointer: the next byte. */
static uint8_t *put_u32_at(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
    return p + 4;
}

static void put_u64(engine_buf *bf, uint64_t v)
{
    uint8_t *p = bf->p + bf->len;
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
    bf->len += 8;
}

/* An entry with the key it is written in order of: a name's place in string order
 * (engine_intern_sorted) instead of its bytes, so sorting reads no strings and calls no
 * comparator. */
typedef struct {
    uint64_t sk;
    engine_kv kv;
} save_kv;

/* "name << 32 | owner" keys: by name string, then owner (signed). */
static uint64_t sk_named(const engine_intern *in, uint64_t key)
{
    return (uint64_t)in->rank[(uint32_t)(key >> 32)] << 32 | ((uint32_t)key ^ 0x80000000u);
}

/* "entity << 32 | attr" keys: by entity, then attr string. */
static uint64_t sk_attr(const engine_intern *in, uint64_t key)
{
    return (key >> 32) << 32 | in->rank[(uint32_t)key];
}

/* a[0..n) by sk, which is unique: a shell sort (Ciura's gaps), in place. */
static void save_sort(save_kv *a, uint32_t n)
{
    static const uint32_t gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
    for (size_t g = 0; g < sizeof gaps / sizeof *gaps; g++) {
        uint32_t gap = gaps[g];
        for (uint32_t i = gap; i < n; i++) {
            save_kv t = a[i];
            uint32_t j = i;
            for (; j >= gap && a[j - gap].sk > t.sk; j -= gap)
                a[j] = a[j - gap];
            a[j] = t;
        }
    }
}

/* The signature of mp's keys in storage order and of the names' count (their string
 * order, in->rank, changes only when names are added). */
static uint64_t save_sig(const engine_map *mp, const engine_intern *in)
{
    uint64_t h = (1469598103934665603ULL ^ in->n) * 1099511628211ULL;
    for (uint32_t i = 0; i < mp->n; i++)
        h = (h ^ mp->kv[i].key) * 1099511628211ULL;
    return h;
}

/* The entries of mp (named keys, all of them) into tmp in written order through the
 * memo o: its order when it was made for the same keys in the same places (and the same
 * names), else sorted anew into it. Their count; -1 when the memo cannot grow (the caller
 * then sorts). The order is a cache, not state: the bytes are those of a sort. */
static int64_t save_memo_sorted(save_kv *tmp, const engine_map *mp, const engine_intern *in,
                                engine_view_order *o)
{
    uint32_t n = mp->n;
    uint64_t sig = save_sig(mp, in);
    if (!o->idx || o->n != n || o->sig != sig) {
        size_t cap = o->cap;
        if (dh_grow(&o->idx, &cap, n, sizeof *o->idx, 32) < 0)
            return -1;
        o->cap = (uint32_t)cap;
        for (uint32_t i = 0; i < n; i++) {
            tmp[i].kv.key = mp->kv[i].key;
            tmp[i].kv.val = i;
            tmp[i].sk = sk_named(in, mp->kv[i].key);
        }
        save_sort(tmp, n);
        for (uint32_t i = 0; i < n; i++)
            o->idx[i] = (uint32_t)tmp[i].kv.val;
        o->n = n;
        o->sig = sig;
    }
    for (uint32_t i = 0; i < n; i++)
        tmp[i].kv = mp->kv[o->idx[i]];
    return n;
}

/* The entries of mp (attrs: only the nonzero ones) into tmp in written order; their count.
 * o, when not NULL, is the memo of mp's order (named keys only). */
static uint32_t save_sorted(save_kv *tmp, const engine_map *mp, const engine_intern *in, int attrs,
                            engine_view_order *o)
{
    if (o && !attrs) {
        int64_t got = save_memo_sorted(tmp, mp, in, o);
        if (got >= 0)
            return (uint32_t)got;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < mp->n; i++) {
        if (attrs && !mp->kv[i].val)
            continue; /* zero is the default, so it is not written */
        tmp[n].kv = mp->kv[i];
        tmp[n++].sk = attrs ? sk_attr(in, mp->kv[i].key) : sk_named(in, mp->kv[i].key);
    }
    save_sort(tmp, n);
    return n;
}

/* A save's scratch on the stack when the bundle's names and the state's entries fit (a
 * snapshot is saved at every turn boundary: no malloc and free for it then), else on the
 * heap. */
#define SAVE_STACK_NAMES 1024
#define SAVE_STACK_KV    128

/* Name id marked in sidx as used by the state, counted in *n the first time. */
static inline void save_mark(uint32_t *sidx, uint32_t id, uint32_t *n)
{
    *n += sidx[id] == 0;
    sidx[id] = 1;
}

/* The names memo o holds (their ids in string order) when they are exactly the n names
 * marked in sidx: as many, and every one marked. Else NULL: a walk of every name of the
 * bundle in string order finds them (about 3 k instructions at a Dominion boundary, where
 * the names rarely change from one boundary to the next). A cache, not state: the names
 * of one bundle keep their string order, and the match keeps its bundle. */
static const uint32_t *save_names_kept(const uint32_t *sidx, uint32_t n, const engine_view_order *o)
{
    if (!o->idx || o->n != n)
        return NULL;
    for (uint32_t i = 0; i < n; i++)
        if (!sidx[o->idx[i]])
            return NULL;
    return o->idx;
}

/* The n names used, in string order, kept in o for the next save (not kept when o cannot
 * grow: the next save walks the names again). Sized to them, not doubled: it is held by
 * every match (memory per match, issue 11), and the names a state uses rarely grow. */
static void save_names_keep(const uint32_t *used, uint32_t n, engine_view_order *o)
{
    if (n > o->cap) {
        uint32_t *idx = realloc(o->idx, sizeof *idx * n);
        if (!idx) {
            o->n = 0;
            return;
        }
        o->idx = idx;
        o->cap = n;
    }
    if (n)
        memcpy(o->idx, used, sizeof *o->idx * n);
    o->n = n;
}

/* The state in the layout of version (1: without public_seq). */
static int state_save(const engine_state *st, const engine_intern *in, engine_buf *out,
                      uint32_t version, engine_view_order *memo)
{
    uint32_t sidx_stack[SAVE_STACK_NAMES], used_stack[SAVE_STACK_NAMES];
    save_kv tmp_stack[SAVE_STACK_KV];
    bool small = in->n <= SAVE_STACK_NAMES;
    size_t nkv = st->attrs.n > st->counters.n ? st->attrs.n : st->counters.n;
    if (st->zone_map.n > nkv)
        nkv = st->zone_map.n;
    /* sidx: intern id -> the name's index in the snapshot's strings */
    uint32_t *sidx = small ? sidx_stack : malloc(sizeof(uint32_t) * in->n);
    uint32_t *used = small ? used_stack : malloc(sizeof(uint32_t) * in->n);
    save_kv *tmp = nkv <= SAVE_STACK_KV ? tmp_stack : malloc(sizeof *tmp * nkv);
    int rc = -1;
    out->len = 0;
    if (!sidx || !used || !tmp)
        goto err;
    /* Mark every name the state uses, then number them in string order. */
    memset(sidx, 0, sizeof(uint32_t) * in->n);
    uint32_t nmarked = 0; /* the distinct names marked */
    for (uint32_t i = 0, last = 0; i < st->nents; i++)
        if (st->ents[i].name != last) /* a pile's cards were made one after another */
            save_mark(sidx, last = st->ents[i].name, &nmarked);
    for (uint32_t i = 0; i < st->nzones; i++)
        save_mark(sidx, st->zones[i].name, &nmarked);
    for (uint32_t i = 0; i < st->attrs.n; i++)
        if (st->attrs.kv[i].val)
            save_mark(sidx, (uint32_t)st->attrs.kv[i].key, &nmarked);
    for (uint32_t i = 0; i < st->counters.n; i++)
        save_mark(sidx, (uint32_t)(st->counters.kv[i].key >> 32), &nmarked);
    uint32_t nused = 0;
    const uint32_t *names = memo ? save_names_kept(sidx, nmarked, &memo[2]) : NULL;
    if (names) {
        nused = nmarked;
    } else {
        names = used;
        if (engine_intern_sorted(in) < 0)
            goto err;
        for (uint32_t i = 0; i + 1 < in->n; i++) /* the marked ones, in string order */
            if (sidx[in->order[i]])
                used[nused++] = in->order[i];
        if (memo)
            save_names_keep(used, nused, &memo[2]);
    }
    size_t strbytes = 0;
    for (uint32_t i = 0; i < nused; i++) {
        sidx[names[i]] = i;
        strbytes += 4 + in->v[names[i]].len;
    }

    size_t need = 64 + 8 * 5 + (size_t)st->np * (8 + 12) + strbytes + 4 + (size_t)st->nents * 4 +
                  4 + (size_t)st->nzones * 12 + (size_t)st->nents * 4 + 4 +
                  (size_t)st->attrs.n * 16 + 4 + (size_t)st->counters.n * 16;
    if (buf_need(out, need) < 0)
        goto err;
    put_u32(out, SNAP_MAGIC);
    put_u32(out, version);
    put_u64(out, st->version);
    put_u64(out, st->decision_seq);
    put_u32(out, st->turn);
    put_u32(out, (uint32_t)st->np);
    put_u32(out, (uint32_t)st->finished);
    for (int i = 0; i < 4; i++)
        put_u64(out, st->rng[i]);
    for (int i = 0; i < st->np; i++)
        put_u64(out, st->event_seq[i]);
    if (version >= 2)
        put_u64(out, st->public_seq);
    for (int i = 0; i < st->np; i++) {
        put_u32(out, (uint32_t)st->results[i].score);
        put_u32(out, (uint32_t)st->results[i].rank);
        put_u32(out, (uint32_t)st->results[i].turns);
    }
    put_u32(out, nused);
    for (uint32_t i = 0; i < nused; i++) {
        const engine_name *nm = &in->v[names[i]];
        put_u32(out, nm->len);
        memcpy(out->p + out->len, nm->s, nm->len);
        out->len += nm->len;
    }
    put_u32(out, st->nents);
    uint8_t *at = out->p + out->len; /* the arrays through a local pointer (put_u32) */
    for (uint32_t i = 0; i < st->nents; i++)
        at = put_u32_at(at, sidx[st->ents[i].name]);
    out->len = (size_t)(at - out->p);
    /* zones */
    uint32_t n = save_sorted(tmp, &st->zone_map, in, 0, memo ? &memo[0] : NULL);
    put_u32(out, n);
    for (uint32_t i = 0; i < n; i++) {
        const engine_zone *z = &st->zones[tmp[i].kv.val];
        put_u32(out, sidx[z->name]);
        put_u32(out, (uint32_t)z->owner);
        put_u32(out, z->n);
        at = out->p + out->len;
        for (uint32_t j = 0; j < z->n; j++)
            at = put_u32_at(at, z->ids[j]);
        out->len = (size_t)(at - out->p);
    }
    /* attributes: zero is the default, so it is not written */
    n = save_sorted(tmp, &st->attrs, in, 1, NULL);
    put_u32(out, n);
    for (uint32_t i = 0; i < n; i++) {
        put_u32(out, (uint32_t)(tmp[i].kv.key >> 32));
        put_u32(out, sidx[(uint32_t)tmp[i].kv.key]);
        put_u64(out, (uint64_t)tmp[i].kv.val);
    }
    /* counters: kept even at zero, since views list every counter ever set */
    n = save_sorted(tmp, &st->counters, in, 0, memo ? &memo[1] : NULL);
    put_u32(out, n);
    for (uint32_t i = 0; i < n; i++) {
        put_u32(out, sidx[(uint32_t)(tmp[i].kv.key >> 32)]);
        put_u32(out, (uint32_t)tmp[i].kv.key);
        put_u64(out, (uint64_t)tmp[i].kv.val);
    }
    rc = 0;
err:
    if (tmp != tmp_stack)
        free(tmp);
    if (used != used_stack)
        free(used);
    if (sidx != sidx_stack)
        free(sidx);
    return rc;
}

int engine_state_save(const engine_state *st, const engine_intern *in, engine_buf *out)
{
    return state_save(st, in, out, SNAP_VERSION, NULL);
}

int engine_state_save_memo(const engine_state *st, const engine_intern *in, engine_buf *out,
                           engine_view_order memo[3])
{
    return state_save(st, in, out, SNAP_VERSION, memo);
}

int engine_state_save_hashed(const engine_state *st, const engine_intern *in, engine_buf *out)
{
    return state_save(st, in, out, 1, NULL);
}

typedef struct {
    const uint8_t *p;
    size_t len, pos;
    int bad;
} reader;

static uint32_t get_u32(reader *r)
{
    if (r->len - r->pos < 4) {
        r->bad = 1;
        return 0;
    }
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)r->p[r->pos++] << (8 * i);
    return v;
}

static uint64_t get_u64(reader *r)
{
    uint64_t lo = get_u32(r);
    return lo | (uint64_t)get_u32(r) << 32;
}

int engine_state_load(engine_state *st, engine_bundle *b, lua_State *L, const uint8_t *p,
                      size_t len, char *why, size_t whylen)
{
    reader r = {p, len, 0, 0};
    uint32_t *names = NULL;
    int top = lua_gettop(L);
    const char *msg = "truncated snapshot";
    uint32_t magic = get_u32(&r), version = get_u32(&r);
    if (magic != SNAP_MAGIC || version < 1 || version > SNAP_VERSION) {
        msg = "not a snapshot of this engine version";
        goto err;
    }
    engine_state_epoch(st); /* the zones are rewritten below without a stamp */
    st->version = get_u64(&r);
    st->decision_seq = get_u64(&r);
    st->turn = get_u32(&r);
    if ((int)get_u32(&r) != st->np) {
        msg = "snapshot has another player count";
        goto err;
    }
    st->finished = (int)get_u32(&r);
    for (int i = 0; i < 4; i++)
        st->rng[i] = get_u64(&r);
    for (int i = 0; i < st->np; i++)
        st->event_seq[i] = get_u64(&r);
    st->public_seq = version >= 2 ? get_u64(&r) : 0; /* before 2 it was not counted */
    for (int i = 0; i < st->np; i++) {
        st->results[i].seat = i;
        st->results[i].score = (int)get_u32(&r);
        st->results[i].rank = (int)get_u32(&r);
        st->results[i].turns = (int)get_u32(&r);
    }
    uint32_t nnames = get_u32(&r);
    if (r.bad || nnames > ENGINE_MAX_NAMES)
        goto err;
    /* On the Lua stack, not malloc'd: interning raises (a name over 1,024 bytes, too many
     * names, out of memory), and the error must not leak the table. */
    names = lua_newuserdatauv(L, sizeof(uint32_t) * (nnames ? nnames : 1), 0);
    for (uint32_t i = 0; i < nnames; i++) {
        uint32_t l = get_u32(&r);
        if (r.bad || len - r.pos < l)
            goto err;
        names[i] = engine_intern_c(b, L, (const char *)p + r.pos, l);
        r.pos += l;
    }
    uint32_t nents = get_u32(&r);
    if (r.bad || nents > ENGINE_MAX_ENTITIES || (size_t)nents * 4 > len - r.pos)
        goto err;
    while (st->cap < nents) {
        engine_entity *e = realloc(st->ents, sizeof(engine_entity) * st->cap * 2);
        if (!e) {
            msg = "out of memory";
            goto err;
        }
        st->ents = e;
        st->cap *= 2;
    }
    for (uint32_t i = 0; i < nents; i++) {
        uint32_t s = get_u32(&r);
        if (s >= nnames)
            goto err;
        st->ents[i].name = names[s];
        st->ents[i].zone = UINT32_MAX;
    }
    st->nents = nents;
    uint32_t nz = get_u32(&r);
    for (uint32_t i = 0; i < nz && !r.bad; i++) {
        uint32_t s = get_u32(&r);
        int32_t owner = (int32_t)get_u32(&r);
        uint32_t n = get_u32(&r);
        if (r.bad || s >= nnames || owner < 0 || owner > st->np || (size_t)n * 4 > len - r.pos)
            goto err;
        engine_zone *z = engine_zone_get(st, names[s], owner, 1);
        /* z->n + n: a corrupt snapshot may list a zone twice (the entity check below
         * still holds), and zone_reserve takes the total */
        if (!z || engine_zone_reserve(z, z->n + n) < 0) {
            msg = "out of memory";
            goto err;
        }
        for (uint32_t j = 0; j < n; j++) {
            uint32_t id = get_u32(&r);
            if (id == 0 || id > nents || st->ents[id - 1].zone != UINT32_MAX) {
                msg = "snapshot entity in no or two zones";
                goto err;
            }
            st->ents[id - 1].zone = (uint32_t)(z - st->zones);
            z->ids[z->n++] = id;
        }
    }
    for (uint32_t i = 0; i < nents; i++)
        if (st->ents[i].zone == UINT32_MAX) {
            msg = "snapshot entity in no zone";
            goto err;
        }
    uint32_t na = get_u32(&r);
    for (uint32_t i = 0; i < na && !r.bad; i++) {
        uint32_t e = get_u32(&r), s = get_u32(&r);
        int64_t v = (int64_t)get_u64(&r);
        if (r.bad || s >= nnames || e == 0 || e > nents)
            goto err;
        int64_t *pv = engine_map_put(&st->attrs, (uint64_t)e << 32 | names[s]);
        if (!pv)
            goto err;
        *pv = v;
    }
    uint32_t nc = get_u32(&r);
    for (uint32_t i = 0; i < nc && !r.bad; i++) {
        uint32_t s = get_u32(&r);
        uint32_t owner = get_u32(&r);
        int64_t v = (int64_t)get_u64(&r);
        if (r.bad || s >= nnames || owner > (uint32_t)st->np)
            goto err;
        int64_t *pv = engine_map_put(&st->counters, (uint64_t)names[s] << 32 | owner);
        if (!pv)
            goto err;
        *pv = v;
    }
    if (r.bad || r.pos != len)
        goto err;
    lua_settop(L, top);
    return 0;
err:
    snprintf(why, whylen, "%s", msg);
    lua_settop(L, top);
    return -1;
}
