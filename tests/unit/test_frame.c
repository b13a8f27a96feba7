/*
 * test_frame.c: the TCP framing decoder (common/dh_frame.h), which reads untrusted bytes in
 * the gateway: frames split across reads, many frames in one read, limits.
 */
#include <stdlib.h>
#include <string.h>

#include "dh_frame.h"
#include "dh_test.h"

static void feed_all(dh_frame_decoder *d, const uint8_t *p, size_t n)
{
    CU_ASSERT_EQUAL_FATAL(dh_frame_feed(d, p, n), 0);
}

static void test_frame_round_trip(void)
{
    dh_frame_decoder d;
    size_t n = 0;
    uint8_t *enc = dh_frame_encode("hello", 5, &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(enc);
    CU_ASSERT_EQUAL(n, 9);
    CU_ASSERT_EQUAL(memcmp(enc, "\0\0\0\5hello", 9), 0);
    dh_frame_decoder_init(&d, 100);
    feed_all(&d, enc, n);
    const uint8_t *p = NULL;
    size_t len = 0;
    CU_ASSERT_EQUAL(dh_frame_next(&d, &p, &len), 1);
    CU_ASSERT_EQUAL(len, 5);
    CU_ASSERT_EQUAL(memcmp(p, "hello", 5), 0);
    CU_ASSERT_EQUAL(dh_frame_next(&d, &p, &len), 0);
    CU_ASSERT_EQUAL(dh_frame_buffered(&d), 0);
    free(enc);
    dh_frame_decoder_free(&d);
}

static void test_frame_split_reads_byte_by_byte(void)
{
    dh_frame_decoder d;
    const uint8_t in[] = {0, 0, 0, 3, 'a', 'b', 'c'};
    const uint8_t *p = NULL;
    size_t len = 0;
    dh_frame_decoder_init(&d, 100);
    for (size_t i = 0; i < sizeof in - 1; i++) {
        feed_all(&d, in + i, 1);
        CU_ASSERT_EQUAL(dh_frame_next(&d, &p, &len), 0);
    }
    feed_all(&d, in + sizeof in - 1, 1);
    CU_ASSERT_EQUAL(dh_frame_next(&d, &p, &len), 1);
    CU_ASSERT_EQUAL(len, 3);
    CU_ASSERT_EQUAL(memcmp(p, "abc", 3), 0);
    dh_frame_decoder_free(&d);
}

static void test_frame_many_frames_in_one_read(void)
{
    dh_frame_decoder d;
    const uint8_t in[] = {0, 0, 0, 1, 'x', 0, 0, 0, 0, 0, 0, 0, 2, 'y', 'z', 0, 0};
    const uint8_t *p = NULL;
    size_t len = 0;
    dh_frame_decoder_init(&d, 100);
    feed_all(&d, in, sizeof in);
    CU_ASSERT_EQUAL(dh_frame_next(&d, &p, &len), 1);
    CU_ASSERT(len == 1 && p[0] == 'x');
    CU_ASSERT_EQUAL(dh_frame_next(&d, &p, &len), 1);
    CU_ASSERT_EQUAL(len, 0);
    CU_ASSERT_EQUAL(dh_frame_next(&d, &p, &len), 1);
    CU_ASSERT(len == 2 && memcmp(p, "yz", 2) == 0);
    /* A partial header stays buffered and completes on the next read. */
    CU_ASSERT_EQUAL(dh_frame_next(&d, &p, &len), 0);
    CU_ASSERT_EQUAL(dh_frame_buffered(&d), 2);
    const uint8_t rest[] = {0, 1, 'q'};
    feed_all(&d, rest, sizeof rest);
    CU_ASSERT_EQUAL(dh_frame_next(&d, &p, &len), 1);
    CU_ASSERT(len == 1 && p[0] == 'q');
    dh_frame_decoder_free(&d);
}

/* What dh_frame_next says first on a decoder of max fed in[0..n), the payload's length
 * into *len (left alone unless a frame is there). */
static int first_frame(size_t max, const uint8_t *in, size_t n, size_t *len)
{
    dh_frame_decoder d;
    const uint8_t *p = NULL;
    dh_frame_decoder_init(&d, max);
    feed_all(&d, in, n);
    int rc = dh_frame_next(&d, &p, len);
    dh_frame_decoder_free(&d);
    return rc;
}

static void test_frame_zero_length_is_a_frame(void)
{
    const uint8_t in[] = {0, 0, 0, 0};
    size_t len = 99;
    CU_ASSERT_EQUAL(first_frame(100, in, sizeof in, &len), 1);
    CU_ASSERT_EQUAL(len, 0);
}

static void test_frame_oversized_rejected_at_header(void)
{
    uint8_t hdr[4];
    size_t len = 0;
    dh_frame_header(hdr, 101);
    /* Only the header: refused before any payload arrives. */
    CU_ASSERT_EQUAL(first_frame(100, hdr, sizeof hdr, &len), -1);
}

static void test_frame_exact_max_accepted(void)
{
    uint8_t buf[4 + 100];
    size_t len = 0;
    memset(buf, 7, sizeof buf);
    dh_frame_header(buf, 100);
    CU_ASSERT_EQUAL(first_frame(100, buf, sizeof buf, &len), 1);
    CU_ASSERT_EQUAL(len, 100);
}

static void test_frame_huge_length_header(void)
{
    const uint8_t in[] = {0xff, 0xff, 0xff, 0xff, 1, 2, 3};
    size_t len = 0;
    CU_ASSERT_EQUAL(first_frame(DH_FRAME_DEFAULT_MAX, in, sizeof in, &len), -1);
}

static void test_frame_large_payload_over_many_reads(void)
{
    dh_frame_decoder d;
    size_t n = 0;
    uint8_t *payload = malloc(60000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(payload);
    for (size_t i = 0; i < 60000; i++)
        payload[i] = (uint8_t)(i * 31);
    uint8_t *enc = dh_frame_encode(payload, 60000, &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(enc);
    dh_frame_decoder_init(&d, DH_FRAME_DEFAULT_MAX);
    const uint8_t *p = NULL;
    size_t len = 0;
    for (size_t off = 0; off < n; off += 1000) {
        size_t chunk = n - off < 1000 ? n - off : 1000;
        CU_ASSERT_EQUAL(dh_frame_next(&d, &p, &len), 0);
        feed_all(&d, enc + off, chunk);
    }
    CU_ASSERT_EQUAL(dh_frame_next(&d, &p, &len), 1);
    CU_ASSERT_EQUAL(len, 60000);
    CU_ASSERT_EQUAL(memcmp(p, payload, 60000), 0);
    free(enc);
    free(payload);
    dh_frame_decoder_free(&d);
}

/* Random bytes in random chunks: every frame returned lies inside what was fed, and the
 * decoder never reads past its buffer (AddressSanitizer watches). */
static void test_frame_random_streams_are_safe(void)
{
    uint8_t buf[512];
    unsigned seed = 12345;
    for (int round = 0; round < 2000; round++) {
        dh_frame_decoder d;
        dh_frame_decoder_init(&d, 64);
        for (int chunk = 0; chunk < 8; chunk++) {
            size_t n = (size_t)(rand_r(&seed) % sizeof buf);
            for (size_t i = 0; i < n; i++)
                buf[i] = (uint8_t)(rand_r(&seed) % 4 == 0 ? rand_r(&seed) : rand_r(&seed) % 8);
            CU_ASSERT_EQUAL_FATAL(dh_frame_feed(&d, buf, n), 0);
            const uint8_t *p;
            size_t len;
            int rc;
            while ((rc = dh_frame_next(&d, &p, &len)) == 1)
                CU_ASSERT_FATAL(len <= 64);
            if (rc < 0)
                break;
        }
        dh_frame_decoder_free(&d);
    }
}

/* Bytes read straight into the decoder's room give the same frames as fed ones, across a
 * frame split between two reads and after frames were taken (the room then starts where
 * the unread bytes end). */
static void test_frame_room_reads_in_place_like_feed(void)
{
    dh_frame_decoder d;
    const uint8_t in[] = {0, 0, 0, 2, 'h', 'i', 0, 0, 0, 3, 'a', 'b', 'c'};
    const uint8_t *p = NULL;
    size_t len = 0;
    dh_frame_decoder_init(&d, 100);
    CU_ASSERT_PTR_NULL(dh_frame_room(&d, 0));
    uint8_t *room = dh_frame_room(&d, 64);
    CU_ASSERT_PTR_NOT_NULL_FATAL(room);
    memcpy(room, in, 9); /* the first frame and part of the second */
    dh_frame_wrote(&d, 9);
    CU_ASSERT_EQUAL(dh_frame_next(&d, &p, &len), 1);
    CU_ASSERT_EQUAL(len, 2);
    CU_ASSERT_EQUAL(memcmp(p, "hi", 2), 0);
    CU_ASSERT_EQUAL(dh_frame_next(&d, &p, &len), 0);
    room = dh_frame_room(&d, 64);
    CU_ASSERT_PTR_NOT_NULL_FATAL(room);
    memcpy(room, in + 9, sizeof in - 9);
    dh_frame_wrote(&d, sizeof in - 9);
    CU_ASSERT_EQUAL(dh_frame_next(&d, &p, &len), 1);
    CU_ASSERT_EQUAL(len, 3);
    CU_ASSERT_EQUAL(memcmp(p, "abc", 3), 0);
    CU_ASSERT_EQUAL(dh_frame_buffered(&d), 0);
    dh_frame_decoder_free(&d);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"frame_round_trip", test_frame_round_trip},
        {"frame_split_reads_byte_by_byte", test_frame_split_reads_byte_by_byte},
        {"frame_many_frames_in_one_read", test_frame_many_frames_in_one_read},
        {"frame_zero_length_is_a_frame", test_frame_zero_length_is_a_frame},
        {"frame_oversized_rejected_at_header", test_frame_oversized_rejected_at_header},
        {"frame_exact_max_accepted", test_frame_exact_max_accepted},
        {"frame_huge_length_header", test_frame_huge_length_header},
        {"frame_large_payload_over_many_reads", test_frame_large_payload_over_many_reads},
        {"frame_random_streams_are_safe", test_frame_random_streams_are_safe},
        {"frame_room_reads_in_place_like_feed", test_frame_room_reads_in_place_like_feed},
        {NULL, NULL},
    };
    return dh_test_main("frame", cases);
}
