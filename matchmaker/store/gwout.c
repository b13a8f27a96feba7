/*
 * gwout.c: the matchmaker's messages to gateways batched per loop turn (see gwout.h).
 */
#include "gwout.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"
#include "dh_log.h"
#include "dh_zmq.h"
#include "gwout_pack.h"
#include "mm.h"

/* The batch kept for gateway (made on first use). NULL when memory ran out. */
static gwout_batch *gwout_batch_of(gwout *o, const char *gateway)
{
    for (size_t i = 0; i < o->n; i++)
        if (!strcmp(o->v[i].gateway, gateway))
            return &o->v[i];
    if (strlen(gateway) >= sizeof o->v[0].gateway ||
        dh_grow(&o->v, &o->cap, o->n + 1, sizeof *o->v, 4) < 0)
        return NULL;
    gwout_batch *b = &o->v[o->n++];
    memset(b, 0, sizeof *b);
    memcpy(b->gateway, gateway, strlen(gateway) + 1);
    return b;
}

int gwout_send(mm_state *mm, const char *gateway, const Deckhand__Internal__Internal *msg)
{
    const registry_gateway *g = registry_gateway_find(&mm->reg, gateway);
    if (!g || !g->batches)
        return dh_zmq_send(mm->router, gateway, msg);
    gwout_batch *b = gwout_batch_of(&mm->gwout, gateway);
    if (!b || dh_grow(&b->v, &b->cap, b->n + 1, sizeof *b->v, 8) < 0) {
        errno = ENOMEM;
        return -1;
    }
    uint8_t *buf = NULL;
    size_t len = 0;
    int hand = gwout_pack(msg, &buf, &len); /* a QueueReply or MatchAssigned */
    if (hand == 0) {
        len = deckhand__internal__internal__get_packed_size(msg);
        if ((buf = malloc(len ? len : 1)))
            deckhand__internal__internal__pack(msg, buf);
    }
    if (!buf) {
        errno = ENOMEM;
        return -1;
    }
    b->v[b->n++] = (ProtobufCBinaryData){.len = len, .data = buf};
    return 0;
}

static void gwout_batch_clear(gwout_batch *b)
{
    for (size_t i = 0; i < b->n; i++)
        free(b->v[i].data);
    b->n = 0;
}

void gwout_flush(mm_state *mm)
{
    gwout *o = &mm->gwout;
    for (size_t i = 0; i < o->n; i++) {
        gwout_batch *b = &o->v[i];
        if (!b->n)
            continue;
        Deckhand__Internal__MatchmakerOutputs out = DECKHAND__INTERNAL__MATCHMAKER_OUTPUTS__INIT;
        out.n_messages = b->n;
        out.messages = b->v;
        Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
        msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MM_OUTPUTS;
        msg.mm_outputs = &out;
        if (mm->router && dh_zmq_send(mm->router, b->gateway, &msg) < 0)
            dh_warn_every(DH_LOG_EVERY_MS, "%zu messages to gateway %s not sent: %s", b->n,
                          b->gateway, strerror(errno));
        gwout_batch_clear(b);
    }
}

void gwout_free(mm_state *mm)
{
    gwout *o = &mm->gwout;
    for (size_t i = 0; i < o->n; i++) {
        gwout_batch_clear(&o->v[i]);
        free(o->v[i].v);
    }
    free(o->v);
    memset(o, 0, sizeof *o);
}
