/*
 * cmdbatch.h: the commands one gateway loop turn sends one worker, gathered into one
 * ZeroMQ message (Internal.player_commands) instead of one message each.
 *
 * Why: each message to a worker costs the gateway a zmq_send, a wake-up of its ZeroMQ I/O
 * thread and a CURVE box, and the worker the same again to read it; at saturation a loop
 * turn reads many players' commands, most of them for the same two workers. Each entry is
 * the packed Internal a lone command would be, so the worker unpacks entries one by one
 * and refuses a malformed one alone, and a lone command goes out as itself. The batch
 * remembers who sent each entry, so that a failed send answers every waiting player.
 */
#ifndef DECKHAND_GW_CMDBATCH_H
#define DECKHAND_GW_CMDBATCH_H

#include <stddef.h>
#include <stdint.h>

#include "dh_token.h"
#include "internal.pb-c.h"

#define CMDBATCH_MAX 128 /* entries per message: zsock.c sends a full batch at once */

typedef struct {
    char player_id[DH_TOKEN_ID_MAX];
    uint64_t cmd_id; /* 0: the gateway's own (an attach or an away), nobody waits */
} cmdbatch_owner;

typedef struct {
    uint8_t *buf; /* owned: room for the message's key and length, then the entries */
    size_t len, cap;
    cmdbatch_owner *owners; /* owned: who sent each entry, in order */
    size_t n, owners_cap;
    size_t first_off, first_len; /* the first entry's packed Internal */
} cmdbatch;

void cmdbatch_init(cmdbatch *b);
void cmdbatch_free(cmdbatch *b);

/* Append m, packed, sent by player_id as cmd_id. 0, or -1 when out of memory (the batch
 * is unchanged). */
int cmdbatch_add(cmdbatch *b, const Deckhand__Internal__Internal *m, const char *player_id,
                 uint64_t cmd_id);
/* The same for an Internal packed already (len bytes at msg). */
int cmdbatch_add_packed(cmdbatch *b, const uint8_t *msg, size_t len, const char *player_id,
                        uint64_t cmd_id);

/* The message to send for what b holds (n > 0): a lone command as its own Internal,
 * several as one Internal.player_commands. *data points into b until it changes. */
void cmdbatch_message(cmdbatch *b, const uint8_t **data, size_t *len);

/* Forget the entries (keeping the memory for the next turn). */
void cmdbatch_clear(cmdbatch *b);

#endif
