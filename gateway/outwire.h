/*
 * outwire.h: a worker's PlayerOutputs read in place, without protobuf-c's unpack.
 *
 * Why: a worker sends each gateway one PlayerOutputs per loop turn, and at saturation the
 * gateway spent about a sixth of its CPU unpacking them: protobuf-c allocates every output,
 * both of its strings and a copy of its message bytes, which the gateway only forwards.
 * Here the outputs go into slots kept from one message to the next, their message bytes
 * point into the received buffer, and only the two short ids are copied (NUL-terminated,
 * as backend.c reads them). Anything else, or anything this reader does not take exactly
 * (another field, an id too long for its slot, a malformed length), is left to the
 * ordinary unpack, so what is accepted and refused does not change.
 */
#ifndef DECKHAND_GW_OUTWIRE_H
#define DECKHAND_GW_OUTWIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dh_token.h"
#include "gw.h"
#include "internal.pb-c.h"

typedef struct {
    Deckhand__Internal__PlayerOutput po;
    char player_id[DH_TOKEN_ID_MAX];
    char match_id[GW_MATCH_ID_MAX];
} outwire_slot;

typedef struct {
    outwire_slot *slots; /* owned, grown to the largest message seen */
    Deckhand__Internal__PlayerOutput **ptrs;
    size_t cap;
    Deckhand__Internal__PlayerOutputs outs;
    Deckhand__Internal__Internal msg;
} outwire;

void outwire_init(outwire *w);
void outwire_free(outwire *w);

/* buf as an Internal whose only field is player_outputs: the message, owned by w, valid
 * until the next call and while buf lives (each output's message bytes point into buf).
 * NULL when buf is anything else, is malformed, or w cannot grow: unpack it instead. */
Deckhand__Internal__Internal *outwire_read(outwire *w, const uint8_t *buf, size_t len);

/* True when msg is a ServerMessage holding only a Reply{cmd_id, ok = true} (no error, no
 * other field): *cmd_id set. Every answered command brings one, and the gateway needs only
 * its cmd_id; anything else (an error Reply, another body, an unknown field, a malformed
 * length) is false: unpack it instead. */
bool outwire_reply_ok(const uint8_t *msg, size_t len, uint64_t *cmd_id);

#endif
