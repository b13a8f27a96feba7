/*
 * out_batch.c: the players' outputs of one loop turn, gathered per gateway and sent as one
 * ZeroMQ message each (Internal.player_outputs) when the turn's outputs are released
 * (out_flush), instead of one message per output.
 *
 * An answer makes several outputs (its Reply, events, each seat's delta, the next decision
 * request), and at load a turn releases the answers of many matches at once: one message
 * per output cost each of them a zmq_send, a wake-up of the I/O thread, its own CURVE box,
 * and a receive and unpack at the gateway. Batched, those costs are paid once per gateway
 * per turn. The order of one gateway's outputs is kept: they are appended as they are
 * made and the gateway handles them in that order.
 *
 * Each output is appended already encoded, as a length-delimited field 1 of
 * PlayerOutputs, after room kept at the front of the buffer for the Internal's tag and
 * length, so the batch goes out without being copied or packed again.
 *
 * A gateway found gone at a flush (EHOSTUNREACH: ZMQ_ROUTER_MANDATORY) is remembered as
 * gone until a message from it arrives again (out_batch_heard): outputs for it are dropped
 * at once, and out_send_packed says so (watchers of a gone gateway are dropped).
 */
#include "out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "dh_log.h"
#include "dh_wire.h"
#include "dh_zmq.h"

#define OUT_BATCH_HEAD 16           /* room for the Internal's tag and length */
#define OUT_BATCH_MAX  (256u << 10) /* a batch this large goes out at once */

/* Internal.player_outputs is field 42, wire type 2; PlayerOutputs.outputs is field 1. */
#define OUT_BATCH_TAG_1 0xd2
#define OUT_BATCH_TAG_2 0x02
#define OUT_ITEM_FIELD  1

typedef struct {
    char route[DH_ZMQ_ID_MAX + 1];
    uint8_t *buf; /* OUT_BATCH_HEAD bytes of room, then the encoded outputs */
    size_t len;   /* bytes used after the room */
    size_t cap;   /* bytes allocated after the room */
    bool gone;    /* its last flush found it gone: drop until heard from again */
} out_batch_route;

struct out_batch {
    out_batch_route *r;
    size_t n, cap;
    bool any_gone;
};

static out_batch_route *out_batch_find(host *h, const char *route)
{
    struct out_batch *b = h->batch;
    if (!b && !(b = h->batch = calloc(1, sizeof *b)))
        return NULL;
    for (size_t i = 0; i < b->n; i++)
        if (!strcmp(b->r[i].route, route))
            return &b->r[i];
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4;
        out_batch_route *r = realloc(b->r, cap * sizeof *r);
        if (!r)
            return NULL;
        b->r = r;
        b->cap = cap;
    }
    out_batch_route *r = &b->r[b->n++];
    memset(r, 0, sizeof *r);
    snprintf(r->route, sizeof r->route, "%s", route);
    return r;
}

static int out_batch_room(out_batch_route *r, size_t more)
{
    if (r->len + more <= r->cap)
        return 0;
    size_t cap = r->cap ? r->cap : 4096;
    while (cap < r->len + more)
        cap *= 2;
    uint8_t *buf = realloc(r->buf, OUT_BATCH_HEAD + cap);
    if (!buf)
        return -1;
    r->buf = buf;
    r->cap = cap;
    return 0;
}

/* Send r's outputs as one Internal; false when its gateway is gone. */
static bool out_batch_send(host *h, out_batch_route *r)
{
    uint8_t head[OUT_BATCH_HEAD];
    size_t nh = 0;
    head[nh++] = OUT_BATCH_TAG_1;
    head[nh++] = OUT_BATCH_TAG_2;
    nh += dh_wire_put_varint(head + nh, r->len);
    uint8_t *msg = r->buf + OUT_BATCH_HEAD - nh;
    memcpy(msg, head, nh);
    size_t len = nh + r->len;
    r->len = 0;
    if (zmq_send(h->router, r->route, strlen(r->route), ZMQ_SNDMORE | ZMQ_DONTWAIT) >= 0 &&
        zmq_send(h->router, msg, len, ZMQ_DONTWAIT) >= 0)
        return true;
    if (errno == EHOSTUNREACH) {
        dh_debug("gateway %s gone; dropped its outputs", r->route);
        return false;
    }
    dh_warn_every(DH_LOG_EVERY_MS, "cannot send outputs via %s: %s", r->route, strerror(errno));
    return true;
}

ptrdiff_t out_batch_put(host *h, const char *route, const char *player_id, const char *match_id,
                        Deckhand__Internal__PlayerOutput__Kind kind,
                        const Deckhand__ServerMessage *sm, const uint8_t *msg, size_t len)
{
    out_batch_route *r = out_batch_find(h, route);
    if (!r) {
        dh_error_every(DH_LOG_EVERY_MS, "out of memory batching outputs for %s", route);
        return 0;
    }
    if (r->gone)
        return -1;
    /* Packed in place; a batch too small for the output grows and it is packed again. */
    size_t w_msg = 0;
    for (size_t more = len + 512;; more *= 2) {
        if (out_batch_room(r, more) < 0) {
            dh_error_every(DH_LOG_EVERY_MS, "out of memory batching outputs for %s", route);
            return 0;
        }
        uint8_t *at = r->buf + OUT_BATCH_HEAD + r->len;
        out_writer w = {at, r->buf + OUT_BATCH_HEAD + r->cap, false, 0,
                        h->keep_decision ? &h->kept_decision : NULL};
        out_pack_item(&w, OUT_ITEM_FIELD, player_id, match_id, kind, sm, msg, len);
        if (!w.full) {
            r->len += (size_t)(w.p - at);
            w_msg = w.msg_len;
            break;
        }
    }
    if (r->len >= OUT_BATCH_MAX && !out_batch_send(h, r)) {
        r->gone = h->batch->any_gone = true;
        return -1;
    }
    return (ptrdiff_t)w_msg;
}

void out_flush(host *h)
{
    struct out_batch *b = h->batch;
    for (size_t i = 0; b && i < b->n; i++)
        if (b->r[i].len && !out_batch_send(h, &b->r[i]))
            b->r[i].gone = b->any_gone = true;
}

void out_batch_heard(host *h, const char *route)
{
    struct out_batch *b = h->batch;
    if (!b || !b->any_gone)
        return;
    b->any_gone = false;
    for (size_t i = 0; i < b->n; i++) {
        if (!strcmp(b->r[i].route, route))
            b->r[i].gone = false;
        b->any_gone |= b->r[i].gone;
    }
}

void out_batch_free(host *h)
{
    struct out_batch *b = h->batch;
    for (size_t i = 0; b && i < b->n; i++)
        free(b->r[i].buf);
    if (b)
        free(b->r);
    free(b);
    h->batch = NULL;
    free(h->kept_decision.p);
    memset(&h->kept_decision, 0, sizeof h->kept_decision);
}
