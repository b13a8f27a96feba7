/*
 * test_snapz.c: snapshots as Redis stores them (common/dh_snapz.c): the stored form, by
 * zstd or deflate, is much smaller than a real engine snapshot, either is read whichever
 * a worker writes, unpacks to the same bytes, a
 * raw snapshot written before the format is read as it is, and a corrupt stored value
 * is refused instead of being handed to the engine.
 */
#include "dh_snapz.h"

#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"

/* A real mid-game snapshot: a two-player Dominion match a few decisions in. */
static uint8_t *dominion_snapshot(size_t *n)
{
    engine_error ee = {0};
    engine_bundle *b = engine_bundle_load(dh_test_path("scripts"), NULL, &ee);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    const char *names[] = {"ann", "bob"};
    engine_match_config cfg = {
        .match_id = "m-snapz", .game = "dominion", .seed = 7, .nplayers = 2, .names = names};
    engine_match *m = engine_match_new(b, &cfg, &ee);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    size_t len = 0;
    const uint8_t *snap = engine_match_snapshot(m, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(snap);
    uint8_t *copy = malloc(len);
    memcpy(copy, snap, len);
    *n = len;
    engine_match_free(m);
    engine_bundle_free(b);
    return copy;
}

/* raw by codec: marked with magic, at least halved, read back exactly. */
static void round_trip(dh_snapz_codec codec, const char *magic, const uint8_t *raw, size_t n)
{
    uint8_t *z = NULL, *back = NULL;
    size_t zn = 0, bn = 0;
    CU_ASSERT_EQUAL_FATAL(dh_snapz_pack(codec, raw, n, &z, &zn), 0);
    CU_ASSERT_TRUE(memcmp(z, magic, 4) == 0);
    CU_ASSERT_TRUE(zn * 2 < n); /* card and zone names repeat: at least halved */
    CU_ASSERT_EQUAL_FATAL(dh_snapz_unpack(z, zn, &back, &bn), 0);
    CU_ASSERT_EQUAL(bn, n);
    CU_ASSERT_TRUE(memcmp(back, raw, n) == 0);
    free(z);
    free(back);
}

static void test_snapz_round_trip_is_exact_and_much_smaller(void)
{
    size_t n = 0;
    uint8_t *raw = dominion_snapshot(&n);
    CU_ASSERT_TRUE_FATAL(n > 1000);
    round_trip(DH_SNAPZ_ZSTD, "DHZS", raw, n);
    round_trip(DH_SNAPZ_ZLIB, "DHSZ", raw, n);
    free(raw);
}

/* A worker reads what a worker of the other setting wrote, and what a release before
 * zstd wrote (deflate: the bytes are the same as this release's zlib setting writes),
 * so a match adopts whichever wrote its snapshot. */
static void test_snapz_reads_either_codec_whichever_writes(void)
{
    size_t n = 0;
    uint8_t *raw = dominion_snapshot(&n);
    CU_ASSERT_TRUE_FATAL(n > 1000);
    uint8_t *zs = NULL, *zl = NULL, *a = NULL, *b = NULL;
    size_t zsn = 0, zln = 0, an = 0, bn = 0;
    CU_ASSERT_EQUAL_FATAL(dh_snapz_pack(DH_SNAPZ_ZSTD, raw, n, &zs, &zsn), 0);
    CU_ASSERT_EQUAL_FATAL(dh_snapz_pack(DH_SNAPZ_ZLIB, raw, n, &zl, &zln), 0);
    CU_ASSERT_TRUE(zsn != zln || memcmp(zs, zl, zsn)); /* two different stored forms */
    CU_ASSERT_EQUAL_FATAL(dh_snapz_unpack(zs, zsn, &a, &an), 0);
    CU_ASSERT_EQUAL_FATAL(dh_snapz_unpack(zl, zln, &b, &bn), 0);
    CU_ASSERT_TRUE(an == n && bn == n && !memcmp(a, raw, n) && !memcmp(b, raw, n));
    free(raw);
    free(zs);
    free(zl);
    free(a);
    free(b);
}

static void test_snapz_reads_a_raw_snapshot_as_it_is(void)
{
    const uint8_t legacy[] = {'D', 'H', 'S', 'N', 1, 0, 0, 0, 42};
    uint8_t *out = NULL;
    size_t n = 0;
    CU_ASSERT_EQUAL_FATAL(dh_snapz_unpack(legacy, sizeof legacy, &out, &n), 0);
    CU_ASSERT_EQUAL(n, sizeof legacy);
    CU_ASSERT_TRUE(memcmp(out, legacy, n) == 0);
    free(out);
}

/* Corrupt values of codec are refused, and nothing is allocated for them. */
static void refuses_corrupt(dh_snapz_codec codec)
{
    const uint8_t raw[] = "a snapshot a snapshot a snapshot a snapshot";
    uint8_t *z = NULL, *out = NULL;
    size_t zn = 0, n = 0;
    CU_ASSERT_EQUAL_FATAL(dh_snapz_pack(codec, raw, sizeof raw, &z, &zn), 0);
    z[zn - 1] ^= 0x55; /* the checksum (deflate's adler32, zstd's frame checksum) fails */
    CU_ASSERT_EQUAL(dh_snapz_unpack(z, zn, &out, &n), -1);
    CU_ASSERT_PTR_NULL(out);
    z[zn - 1] ^= 0x55;
    CU_ASSERT_EQUAL(dh_snapz_unpack(z, zn - 1, &out, &n), -1); /* cut short */
    z[4] = 0xff, z[5] = 0xff, z[6] = 0xff, z[7] = 0x7f;        /* a length past DH_SNAPZ_MAX */
    CU_ASSERT_EQUAL(dh_snapz_unpack(z, zn, &out, &n), -1);
    z[4] = (uint8_t)(sizeof raw + 1), z[5] = z[6] = z[7] = 0; /* the wrong length */
    CU_ASSERT_EQUAL(dh_snapz_unpack(z, zn, &out, &n), -1);
    z[4] = (uint8_t)(sizeof raw - 1); /* too short a length */
    CU_ASSERT_EQUAL(dh_snapz_unpack(z, zn, &out, &n), -1);
    CU_ASSERT_PTR_NULL(out);
    CU_ASSERT_EQUAL(dh_snapz_unpack(z, 6, &out, &n), 0); /* too short for a head: raw */
    CU_ASSERT_EQUAL(n, 6);
    free(out);
    free(z);
}

static void test_snapz_refuses_corrupt_stored_values(void)
{
    refuses_corrupt(DH_SNAPZ_ZSTD);
    refuses_corrupt(DH_SNAPZ_ZLIB);
}

/* A value behind the tail head (--log-in-history) names the history's index and reads as
 * the stored form after it; a value without it has none; a malformed head is refused. */
static void test_snapz_reads_the_tail_head_and_the_snapshot_behind_it(void)
{
    const uint8_t raw[] = "a snapshot a snapshot a snapshot a snapshot";
    uint8_t *z = NULL, *out = NULL;
    size_t zn = 0, n = 0, body = 9;
    uint64_t at = 9;
    CU_ASSERT_EQUAL_FATAL(dh_snapz_pack(DH_SNAPZ_ZSTD, raw, sizeof raw, &z, &zn), 0);
    CU_ASSERT_EQUAL(dh_snapz_tail(z, zn, &at, &body), 0);
    CU_ASSERT_TRUE(at == 0 && body == 0);
    uint8_t *v = malloc(zn + 32);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    memcpy(v, "DHTL1234\n", 9);
    memcpy(v + 9, z, zn);
    CU_ASSERT_EQUAL(dh_snapz_tail(v, zn + 9, &at, &body), 1);
    CU_ASSERT_TRUE(at == 1234 && body == 9);
    CU_ASSERT_EQUAL_FATAL(dh_snapz_unpack(v, zn + 9, &out, &n), 0);
    CU_ASSERT_TRUE(n == sizeof raw && !memcmp(out, raw, n));
    free(out);
    memcpy(v, "DHTL\n", 5); /* no index */
    CU_ASSERT_EQUAL(dh_snapz_tail(v, zn + 9, &at, &body), -1);
    out = NULL;
    CU_ASSERT_EQUAL(dh_snapz_unpack(v, zn + 9, &out, &n), -1);
    CU_ASSERT_PTR_NULL(out);
    memcpy(v, "DHTL12", 6); /* no end of the head */
    CU_ASSERT_EQUAL(dh_snapz_tail(v, 6, &at, &body), -1);
    free(v);
    free(z);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"snapz_round_trip_is_exact_and_much_smaller",
         test_snapz_round_trip_is_exact_and_much_smaller},
        {"snapz_reads_either_codec_whichever_writes",
         test_snapz_reads_either_codec_whichever_writes},
        {"snapz_reads_a_raw_snapshot_as_it_is", test_snapz_reads_a_raw_snapshot_as_it_is},
        {"snapz_refuses_corrupt_stored_values", test_snapz_refuses_corrupt_stored_values},
        {"snapz_reads_the_tail_head_and_the_snapshot_behind_it",
         test_snapz_reads_the_tail_head_and_the_snapshot_behind_it},
        {NULL, NULL},
    };
    return dh_test_main("snapz", cases);
}
