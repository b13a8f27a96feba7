/*
 * inwire.h: a client's Choose passed on to its worker as its own bytes (issue 27).
 *
 * A Choose is most of what clients send. The ordinary path unpacks the ClientMessage
 * (protobuf-c allocates every part), checks it, then packs a PlayerCommand around a copy
 * of the Choose for the worker: about 6,000 instructions an answer of unpacking, freeing
 * and packing for bytes the gateway does not change. This reader takes a ClientMessage
 * that is a Choose and nothing else, checks every field of it in place as the ordinary
 * path would (the match id 1-127 printable ASCII characters, the bot's name printable
 * ASCII, option ids that fit 32 bits, cmd_id not 0), and the PlayerCommand is written
 * around the Choose's own bytes.
 *
 * Anything it is not sure of (an unknown or repeated field, a wire type other than the
 * field's, a byte that is not printable ASCII in a string, cmd_id 0, an empty match id)
 * goes to the ordinary path instead, which unpacks it and gives whatever answer it gives
 * today (BAD_FRAME, BAD_REQUEST with its words), so a client sees no difference but the
 * gateway's CPU.
 */
#ifndef DECKHAND_GW_INWIRE_H
#define DECKHAND_GW_INWIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gw.h"
#include "dh_wire.h"

typedef struct {
    uint64_t cmd_id;
    dh_wire_span choose; /* the Choose's bytes, inside the frame */
    char match_id[GW_MATCH_ID_MAX];
} inwire_choose;

/* True when the ClientMessage data[0..len) is a Choose this reader passes on (ch filled);
 * false: give it to the ordinary unpack. */
bool inwire_read_choose(const uint8_t *data, size_t len, inwire_choose *ch);

/* The bytes of Internal{player_command{match_id, player_id, cmd_id, choose}} for ch. */
size_t inwire_command_size(const inwire_choose *ch, const char *player_id);
/* Write them at out (inwire_command_size bytes): the bytes written. */
size_t inwire_command_pack(const inwire_choose *ch, const char *player_id, uint8_t *out);

#endif
