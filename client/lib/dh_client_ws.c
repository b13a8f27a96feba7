/*
 * dh_client_ws.c: see dh_client_ws.h.
 */
#include "dh_client_ws.h"

#include <string.h>

int dh_client_ws_parse(const uint8_t *buf, size_t avail, dh_client_ws_header *h)
{
    if (avail < 2)
        return 0;
    if (buf[0] & 0x70)
        return -1; /* RSV1-3: no extension was negotiated */
    h->fin = (buf[0] & 0x80) != 0;
    h->opcode = buf[0] & 0x0F;
    h->masked = (buf[1] & 0x80) != 0;
    bool control = h->opcode >= 0x8;
    if (h->opcode > DH_CLIENT_WS_BINARY && !control)
        return -1;
    if (h->opcode > DH_CLIENT_WS_PONG)
        return -1;
    uint64_t len = buf[1] & 0x7F;
    size_t need = 2;
    if (len == 126) {
        need += 2;
        if (avail < need)
            return 0;
        len = ((uint64_t)buf[2] << 8) | buf[3];
    } else if (len == 127) {
        need += 8;
        if (avail < need)
            return 0;
        len = 0;
        for (int i = 0; i < 8; i++)
            len = (len << 8) | buf[2 + i];
        if (len >> 63)
            return -1;
    }
    if (control && (!h->fin || len > 125))
        return -1;
    if (h->masked) {
        if (avail < need + 4)
            return 0;
        memcpy(h->mask, buf + need, 4);
        need += 4;
    }
    h->len = len;
    h->hdrlen = need;
    return 1;
}

size_t dh_client_ws_header_write(uint8_t *out, int opcode, bool fin, uint64_t len,
                                 const uint8_t *mask)
{
    size_t n = 0;
    out[n++] = (uint8_t)((fin ? 0x80 : 0) | (opcode & 0x0F));
    uint8_t mbit = mask ? 0x80 : 0;
    if (len < 126) {
        out[n++] = (uint8_t)(mbit | len);
    } else if (len <= 0xFFFF) {
        out[n++] = mbit | 126;
        out[n++] = (uint8_t)(len >> 8);
        out[n++] = (uint8_t)len;
    } else {
        out[n++] = mbit | 127;
        for (int i = 7; i >= 0; i--)
            out[n++] = (uint8_t)(len >> (8 * i));
    }
    if (mask) {
        memcpy(out + n, mask, 4);
        n += 4;
    }
    return n;
}

void dh_client_ws_mask(uint8_t *buf, size_t len, const uint8_t mask[4], size_t offset)
{
    for (size_t i = 0; i < len; i++)
        buf[i] ^= mask[(offset + i) & 3];
}
