/*
 * cmdbatch.c: see cmdbatch.h. The buffer keeps CMDBATCH_HEAD bytes free at its start for
 * the message's own key and length, written last, just before the entries, so the whole
 * message is one contiguous span and zmq_send copies it once.
 */
#include "cmdbatch.h"

#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"
#include "dh_str.h"
#include "dh_wire.h"

#define CMDBATCH_HEAD  16   /* the message key (2 bytes) and a length varint (at most 10) */
#define CMDBATCH_ENTRY 0x0a /* PlayerCommands.commands: field 1, length-delimited */
#define CMDBATCH_KEY   (43u << 3 | 2) /* Internal.player_commands */

void cmdbatch_init(cmdbatch *b)
{
    memset(b, 0, sizeof *b);
    b->len = CMDBATCH_HEAD;
}

void cmdbatch_free(cmdbatch *b)
{
    free(b->buf);
    free(b->owners);
    cmdbatch_init(b);
}

void cmdbatch_clear(cmdbatch *b)
{
    b->len = CMDBATCH_HEAD;
    b->n = 0;
}

/* Room for one more entry of len bytes; its owner noted. NULL when out of memory; else
 * where the packed Internal goes (the entry's key and length written). */
static uint8_t *cmdbatch_entry(cmdbatch *b, size_t len, const char *player_id, uint64_t cmd_id)
{
    if (dh_grow(&b->buf, &b->cap, b->len + 11 + len, 1, 4096) < 0 ||
        dh_grow(&b->owners, &b->owners_cap, b->n + 1, sizeof *b->owners, 16) < 0)
        return NULL;
    cmdbatch_owner *o = &b->owners[b->n++];
    dh_str_copy(o->player_id, sizeof o->player_id, player_id);
    o->cmd_id = cmd_id;
    uint8_t *p = b->buf + b->len;
    p[0] = CMDBATCH_ENTRY;
    size_t head = 1 + dh_wire_put_varint(p + 1, len);
    if (b->n == 1) {
        b->first_off = b->len + head;
        b->first_len = len;
    }
    b->len += head + len;
    return p + head;
}

int cmdbatch_add(cmdbatch *b, const Deckhand__Internal__Internal *m, const char *player_id,
                 uint64_t cmd_id)
{
    size_t len = deckhand__internal__internal__get_packed_size(m);
    uint8_t *p = cmdbatch_entry(b, len, player_id, cmd_id);
    if (!p)
        return -1;
    deckhand__internal__internal__pack(m, p);
    return 0;
}

int cmdbatch_add_packed(cmdbatch *b, const uint8_t *msg, size_t len, const char *player_id,
                        uint64_t cmd_id)
{
    uint8_t *p = cmdbatch_entry(b, len, player_id, cmd_id);
    if (!p)
        return -1;
    memcpy(p, msg, len);
    return 0;
}

void cmdbatch_message(cmdbatch *b, const uint8_t **data, size_t *len)
{
    if (b->n == 1) {
        *data = b->buf + b->first_off;
        *len = b->first_len;
        return;
    }
    uint8_t head[CMDBATCH_HEAD];
    size_t body = b->len - CMDBATCH_HEAD;
    size_t n = dh_wire_put_varint(head, CMDBATCH_KEY);
    n += dh_wire_put_varint(head + n, body);
    memcpy(b->buf + CMDBATCH_HEAD - n, head, n);
    *data = b->buf + CMDBATCH_HEAD - n;
    *len = n + body;
}
