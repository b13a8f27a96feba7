/*
 * dh_frame.h: the TCP framing of the client protocol, a 4-byte big-endian length followed
 * by that many bytes of payload (one protobuf message).
 *
 * Why a module: the gateway decodes untrusted streams with it and the client library
 * speaks the same framing, so both share one decoder that checks the size limit as soon
 * as a header arrives, before buffering a byte of an oversized payload.
 */
#ifndef DECKHAND_DH_FRAME_H
#define DECKHAND_DH_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define DH_FRAME_HEADER      4
#define DH_FRAME_DEFAULT_MAX 65536

/* A stream decoder: feed it bytes as they arrive, take whole frames out. */
typedef struct {
    uint8_t *buf; /* owned; bytes fed and not yet taken start at buf + off */
    size_t off;
    size_t len; /* bytes in buf, counted from buf (so unread = len - off) */
    size_t cap;
    size_t max; /* the largest payload accepted */
} dh_frame_decoder;

void dh_frame_decoder_init(dh_frame_decoder *d, size_t max_payload);
void dh_frame_decoder_free(dh_frame_decoder *d);

/* Append len bytes. Returns 0, or -1 when memory runs out (the decoder is unchanged).
 * Invalidates payload pointers returned by earlier dh_frame_next calls. */
int dh_frame_feed(dh_frame_decoder *d, const void *data, size_t len);

/* Room for want (> 0) more bytes after the buffered ones, for a caller that reads into
 * the decoder directly instead of into a buffer of its own and feeding a copy: NULL when
 * memory runs out. dh_frame_wrote then adds the n <= want bytes written there. Invalidates
 * payload pointers as dh_frame_feed does. */
uint8_t *dh_frame_room(dh_frame_decoder *d, size_t want);
void dh_frame_wrote(dh_frame_decoder *d, size_t n);

/* Take the next whole frame: 1 with *payload and *len set (pointing into the decoder, valid
 * until the next feed), 0 when more bytes are needed, -1 when the next frame announces a
 * payload larger than the maximum (the stream cannot be resynchronised: close it). A
 * zero-length frame is a valid frame with *len 0. */
int dh_frame_next(dh_frame_decoder *d, const uint8_t **payload, size_t *len);

/* Bytes buffered and not yet returned as frames. */
size_t dh_frame_buffered(const dh_frame_decoder *d);

/* Write the 4-byte header for a payload of len bytes. */
void dh_frame_header(uint8_t out[DH_FRAME_HEADER], uint32_t len);

/* Header + payload in one new buffer of len + 4 bytes; the caller frees it. NULL when
 * memory runs out or len does not fit in 32 bits. */
uint8_t *dh_frame_encode(const void *payload, size_t len, size_t *outlen);

#endif
