/*
 * dh_client_ws.h: the client side of the WebSocket wire format (RFC 6455), kept apart from
 * dh_client.c so the codec can be unit-tested without a socket.
 *
 * Only what a client needs: writing masked frame headers and parsing the (normally
 * unmasked) frames a server sends. The handshake is common/dh_ws, shared with the
 * gateway. The gateway codes frames with wslay's event API; a blocking client that reads
 * one message at a time is simpler with these few functions than with wslay's callbacks.
 */
#ifndef DECKHAND_DH_CLIENT_WS_H
#define DECKHAND_DH_CLIENT_WS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    DH_CLIENT_WS_CONT = 0x0,
    DH_CLIENT_WS_TEXT = 0x1,
    DH_CLIENT_WS_BINARY = 0x2,
    DH_CLIENT_WS_CLOSE = 0x8,
    DH_CLIENT_WS_PING = 0x9,
    DH_CLIENT_WS_PONG = 0xA,
};

/* The longest frame header: 2 bytes, 8 of extended length, 4 of mask key. */
#define DH_CLIENT_WS_MAX_HEADER 14

typedef struct {
    bool fin;
    int opcode;
    bool masked;
    uint8_t mask[4];
    uint64_t len;  /* payload length */
    size_t hdrlen; /* bytes of header before the payload */
} dh_client_ws_header;

/* Parse the frame header at buf. 1 with *h filled, 0 when more bytes are needed, -1 when
 * the header is malformed (reserved bits, unknown opcode, fragmented or long control
 * frame, a 64-bit length with its top bit set). */
int dh_client_ws_parse(const uint8_t *buf, size_t avail, dh_client_ws_header *h);

/* Write a frame header into out (at least DH_CLIENT_WS_MAX_HEADER bytes) using the
 * shortest length encoding; mask is the 4-byte key, or NULL for an unmasked frame.
 * Returns the header's length. */
size_t dh_client_ws_header_write(uint8_t *out, int opcode, bool fin, uint64_t len,
                                 const uint8_t *mask);

/* XOR buf with the mask key, starting at key byte (offset % 4). Masking is its own
 * inverse, so this both masks and unmasks. */
void dh_client_ws_mask(uint8_t *buf, size_t len, const uint8_t mask[4], size_t offset);

#endif
