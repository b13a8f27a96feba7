/*
 * dh_slot.h: Redis Cluster's key -> slot function, and the replies that move a key.
 *
 * A key's slot is CRC16 (XMODEM: polynomial 0x1021, initial 0) of the key, modulo 16384,
 * except that when the key holds a "{...}" with at least one byte between the braces
 * (the first "{" and the first "}" after it), only those bytes are hashed: a hash tag.
 * dh_keys.h puts an identity in a tag in every key so that the keys one script or one
 * transaction touches share a slot.
 *
 * A node answers a command for a slot it does not serve with "MOVED SLOT HOST:PORT" (the
 * slot lives there now: refresh the map) or "ASK SLOT HOST:PORT" (the slot is migrating:
 * send ASKING then the command to that node once, keep the map).
 */
#ifndef DECKHAND_DH_SLOT_H
#define DECKHAND_DH_SLOT_H

#include <stddef.h>
#include <stdint.h>

#define DH_SLOTS 16384

/* CRC16-XMODEM of n bytes. */
uint16_t dh_slot_crc16(const void *data, size_t n);
/* The slot of a key of n bytes (hash tags honoured). */
int dh_slot_of(const char *key, size_t n);
/* The slot of a command's key: argv[1] for most commands, argv[3] for EVAL/EVALSHA with
 * at least one key (deckhand's scripts keep all their keys in one slot); -1 when the
 * command has no key (PING, SCRIPT, CLUSTER...: any node will do). lens NULL: C strings. */
int dh_slot_of_command(int argc, const char **argv, const size_t *lens);

typedef enum { DH_REDIRECT_NONE, DH_REDIRECT_MOVED, DH_REDIRECT_ASK } dh_redirect_kind;
typedef struct {
    dh_redirect_kind kind;
    int slot;
    char host[256];
    int port;
} dh_redirect;

/* Parse an error reply's text ("MOVED 3999 127.0.0.1:6381"); kind NONE when it is not a
 * redirect or is malformed. Returns out->kind. */
dh_redirect_kind dh_slot_redirect(const char *err, size_t n, dh_redirect *out);

#endif
