/*
 * fuzz_frame.c: fuzz target `frame`, the TCP framing decoder (common/dh_frame.c) that the
 * gateway runs on every client's byte stream.
 *
 * Input: byte 0 picks the largest payload (0..1020, small so the limit is often hit), byte 1
 * the size of each read (1..64 bytes); the rest is the stream. Properties: every frame taken
 * is at most the limit and is the stream's own bytes; bytes fed = frames taken + bytes
 * buffered; a refusal comes only from a header over the limit; and a frame re-encoded with
 * dh_frame_encode decodes to itself.
 */
#include <string.h>

#include "dh_frame.h"
#include "fuzz.h"

/* A payload framed by dh_frame_encode comes back whole from a fresh decoder. */
static void frame_round_trip(const uint8_t *p, size_t len, size_t max)
{
    size_t n;
    uint8_t *enc = dh_frame_encode(p, len, &n);
    FUZZ_CHECK(enc && n == len + DH_FRAME_HEADER);
    dh_frame_decoder d;
    dh_frame_decoder_init(&d, max);
    const uint8_t *q;
    size_t qlen;
    FUZZ_CHECK(dh_frame_feed(&d, enc, n) == 0);
    FUZZ_CHECK(dh_frame_next(&d, &q, &qlen) == 1 && qlen == len && memcmp(q, p, len) == 0);
    FUZZ_CHECK(dh_frame_next(&d, &q, &qlen) == 0 && dh_frame_buffered(&d) == 0);
    dh_frame_decoder_free(&d);
    free(enc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t max = (size_t)data[0] * 4, chunk = (size_t)data[1] % 64 + 1;
    const uint8_t *s = data + 2;
    size_t n = size - 2, fed = 0, taken = 0;
    dh_frame_decoder d;
    dh_frame_decoder_init(&d, max);
    int rc = 0;
    while (fed < n && rc >= 0) {
        size_t k = n - fed < chunk ? n - fed : chunk;
        FUZZ_CHECK(dh_frame_feed(&d, s + fed, k) == 0);
        fed += k;
        const uint8_t *p;
        size_t len;
        while ((rc = dh_frame_next(&d, &p, &len)) == 1) {
            FUZZ_CHECK(len <= max && taken + DH_FRAME_HEADER + len <= fed);
            FUZZ_CHECK(memcmp(p, s + taken + DH_FRAME_HEADER, len) == 0);
            taken += DH_FRAME_HEADER + len;
            frame_round_trip(p, len, max);
        }
        FUZZ_CHECK(taken + dh_frame_buffered(&d) == fed);
    }
    if (rc < 0) {
        const uint8_t *h = s + taken;
        FUZZ_CHECK(fed - taken >= DH_FRAME_HEADER);
        FUZZ_CHECK(((uint32_t)h[0] << 24 | (uint32_t)h[1] << 16 | (uint32_t)h[2] << 8 | h[3]) >
                   max);
    }
    dh_frame_decoder_free(&d);
    return 0;
}
