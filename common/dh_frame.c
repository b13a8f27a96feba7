/*
 * dh_frame.c: see dh_frame.h. The buffer is compacted lazily, on the next feed, so the
 * payload pointers handed out stay valid while a caller walks every frame of one read.
 */
#include "dh_frame.h"

#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"

void dh_frame_decoder_init(dh_frame_decoder *d, size_t max_payload)
{
    memset(d, 0, sizeof *d);
    d->max = max_payload;
}

void dh_frame_decoder_free(dh_frame_decoder *d)
{
    free(d->buf);
    memset(d, 0, sizeof *d);
}

uint8_t *dh_frame_room(dh_frame_decoder *d, size_t want)
{
    if (d->off > 0) {
        memmove(d->buf, d->buf + d->off, d->len - d->off);
        d->len -= d->off;
        d->off = 0;
    }
    if (want == 0 || want > SIZE_MAX - d->len ||
        dh_grow(&d->buf, &d->cap, d->len + want, 1, 4096) < 0)
        return NULL;
    return d->buf + d->len;
}

void dh_frame_wrote(dh_frame_decoder *d, size_t n)
{
    d->len += n;
}

int dh_frame_feed(dh_frame_decoder *d, const void *data, size_t len)
{
    if (len == 0)
        return 0;
    uint8_t *room = dh_frame_room(d, len);
    if (!room)
        return -1;
    memcpy(room, data, len);
    dh_frame_wrote(d, len);
    return 0;
}

int dh_frame_next(dh_frame_decoder *d, const uint8_t **payload, size_t *len)
{
    size_t avail = d->len - d->off;
    if (avail < DH_FRAME_HEADER)
        return 0;
    const uint8_t *p = d->buf + d->off;
    uint32_t n = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    if (n > d->max)
        return -1;
    if (avail - DH_FRAME_HEADER < n)
        return 0;
    *payload = p + DH_FRAME_HEADER;
    *len = n;
    d->off += DH_FRAME_HEADER + n;
    return 1;
}

size_t dh_frame_buffered(const dh_frame_decoder *d)
{
    return d->len - d->off;
}

void dh_frame_header(uint8_t out[DH_FRAME_HEADER], uint32_t len)
{
    out[0] = (uint8_t)(len >> 24);
    out[1] = (uint8_t)(len >> 16);
    out[2] = (uint8_t)(len >> 8);
    out[3] = (uint8_t)len;
}

uint8_t *dh_frame_encode(const void *payload, size_t len, size_t *outlen)
{
    if (len > UINT32_MAX)
        return NULL;
    uint8_t *out = malloc(len + DH_FRAME_HEADER);
    if (!out)
        return NULL;
    dh_frame_header(out, (uint32_t)len);
    if (len > 0)
        memcpy(out + DH_FRAME_HEADER, payload, len);
    *outlen = len + DH_FRAME_HEADER;
    return out;
}
