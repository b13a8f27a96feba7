/*
 * textguard.h: no client string with a control byte goes further than the gateway.
 *
 * protobuf-c hands a string field over as a C string, so a NUL inside one silently cuts
 * it (the rest is never seen), and every other control byte would reach log lines,
 * Redis and the other processes. The check reads the frame's own bytes, where each
 * string has its length, and is driven by the generated descriptors: every string field
 * of the message and of every message inside it is checked, a field added to the
 * protocol later included, without a list to keep up to date. It runs once per frame,
 * before anything acts on the message (session.c).
 */
#ifndef DECKHAND_GATEWAY_TEXTGUARD_H
#define DECKHAND_GATEWAY_TEXTGUARD_H

#include <protobuf-c/protobuf-c.h>
#include <stddef.h>
#include <stdint.h>

/* Whether a client string may hold byte b: not a C0 control (0x00-0x1f) nor DEL. */
#define TEXTGUARD_ALLOWED(b) ((b) >= 0x20 && (b) != 0x7f)

/* NULL when every string field in the encoded message data[0..len) of type d holds only
 * allowed bytes; else the error text a client is shown ("Hello.name must not hold
 * control characters"), written into why (cap bytes). A frame that does not parse (it
 * already unpacked, so only a nesting deeper than protobuf-c's own limit) is refused. */
const char *textguard_check(const ProtobufCMessageDescriptor *d, const uint8_t *data, size_t len,
                            char *why, size_t cap);

#endif
