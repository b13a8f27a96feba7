/*
 * test_redis_slots.c: Redis Cluster routing without a cluster (common/dh_slot.c): the slot
 * function against known CRC16 vectors and hash tags, the key a command is routed by,
 * the MOVED and ASK replies, cluster URLs, and that every key set one deckhand script or
 * transaction touches lies in one slot (dh_keys.h).
 */
#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"
#include "dh_redis.h"
#include "dh_slot.h"
#include "dh_test.h"

static int slot(const char *key)
{
    return dh_slot_of(key, strlen(key));
}

/* CRC16-XMODEM's check value, and slots Redis' CLUSTER KEYSLOT gives. */
static void test_slot_crc16_matches_known_vectors(void)
{
    CU_ASSERT_EQUAL(dh_slot_crc16("123456789", 9), 0x31C3);
    CU_ASSERT_EQUAL(dh_slot_crc16("", 0), 0);
    CU_ASSERT_EQUAL(slot("foo"), 12182);
    CU_ASSERT_EQUAL(slot("bar"), 5061);
    CU_ASSERT_EQUAL(slot("hello"), 866);
    CU_ASSERT_EQUAL(slot("123456789"), 0x31C3 % 16384);
}

static void test_slot_hash_tags(void)
{
    CU_ASSERT_EQUAL(slot("{user1000}.following"), slot("user1000"));
    CU_ASSERT_EQUAL(slot("{user1000}.followers"), slot("{user1000}.following"));
    CU_ASSERT_EQUAL(slot("foo{}{bar}"), slot("foo{}{bar}")); /* empty tag: the whole key */
    CU_ASSERT_NOT_EQUAL(slot("foo{}{bar}"), slot("bar"));
    CU_ASSERT_EQUAL(slot("foo{{bar}}zap"), slot("{bar")); /* the first { to the first } */
    CU_ASSERT_EQUAL(slot("foo{bar}{zap}"), slot("bar"));
    CU_ASSERT_EQUAL(slot("no{close"), dh_slot_crc16("no{close", 8) % DH_SLOTS);
}

static void test_slot_of_command_picks_the_key(void)
{
    const char *get[] = {"GET", "match:{m1}"};
    const char *eval[] = {"EVALSHA", "abc", "2", "match:{m1}:snap", "match:{m1}:log", "x"};
    const char *nokeys[] = {"EVALSHA", "abc", "0", "x"};
    const char *ping[] = {"PING"};
    const char *load[] = {"SCRIPT", "LOAD", "return 1"};
    CU_ASSERT_EQUAL(dh_slot_of_command(2, get, NULL), slot("m1"));
    CU_ASSERT_EQUAL(dh_slot_of_command(6, eval, NULL), slot("m1"));
    CU_ASSERT_EQUAL(dh_slot_of_command(4, nokeys, NULL), -1);
    CU_ASSERT_EQUAL(dh_slot_of_command(1, ping, NULL), -1);
    CU_ASSERT_EQUAL(dh_slot_of_command(3, load, NULL), -1);
}

static void test_slot_moved_and_ask_replies_parse(void)
{
    dh_redirect r;
    const char *moved = "MOVED 3999 127.0.0.1:21701";
    CU_ASSERT_EQUAL(dh_slot_redirect(moved, strlen(moved), &r), DH_REDIRECT_MOVED);
    CU_ASSERT_EQUAL(r.slot, 3999);
    CU_ASSERT_STRING_EQUAL(r.host, "127.0.0.1");
    CU_ASSERT_EQUAL(r.port, 21701);
    const char *ask = "ASK 12182 redis-2.redis:6379";
    CU_ASSERT_EQUAL(dh_slot_redirect(ask, strlen(ask), &r), DH_REDIRECT_ASK);
    CU_ASSERT_EQUAL(r.slot, 12182);
    CU_ASSERT_STRING_EQUAL(r.host, "redis-2.redis");
    CU_ASSERT_EQUAL(r.port, 6379);
    const char *v6 = "MOVED 1 ::1:7000";
    CU_ASSERT_EQUAL(dh_slot_redirect(v6, strlen(v6), &r), DH_REDIRECT_MOVED);
    CU_ASSERT_STRING_EQUAL(r.host, "::1");
    const char *bad[] = {"ERR unknown",     "MOVED",      "MOVED x 1.2.3.4:5",
                         "MOVED 16384 h:1", "ASK 1 h",    "ASK 1 h:0",
                         "ASK 1 h:99999",   "MOVED 1 :5", "NOSCRIPT x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CU_ASSERT_EQUAL(dh_slot_redirect(bad[i], strlen(bad[i]), &r), DH_REDIRECT_NONE);
}

static void test_redis_cluster_url_lists_seeds(void)
{
    dh_redis_addr a;
    CU_ASSERT_EQUAL_FATAL(
        dh_redis_parse_url("redis+cluster://u:pw@10.0.0.1:7000,10.0.0.2:7001,h3:7002", &a), 0);
    CU_ASSERT_TRUE(a.cluster);
    CU_ASSERT_EQUAL(a.nseeds, 3);
    CU_ASSERT_STRING_EQUAL(a.user, "u");
    CU_ASSERT_STRING_EQUAL(a.password, "pw");
    CU_ASSERT_STRING_EQUAL(a.seeds[0].host, "10.0.0.1");
    CU_ASSERT_EQUAL(a.seeds[0].port, 7000);
    CU_ASSERT_STRING_EQUAL(a.seeds[2].host, "h3");
    CU_ASSERT_EQUAL(a.seeds[2].port, 7002);
    CU_ASSERT_EQUAL_FATAL(dh_redis_parse_url("redis://127.0.0.1:6390", &a), 0);
    CU_ASSERT_FALSE(a.cluster);
    CU_ASSERT_EQUAL(dh_redis_parse_url("redis+cluster://h:1,h", &a), -1);
    CU_ASSERT_EQUAL(dh_redis_parse_url("redis+cluster://h:1/2", &a), -1); /* no db */
    CU_ASSERT_EQUAL(setenv("DECKHAND_REDIS_CLUSTER", "1", 1), 0);
    CU_ASSERT_EQUAL_FATAL(dh_redis_parse_url("redis://127.0.0.1:21700", &a), 0);
    CU_ASSERT_TRUE(a.cluster);
    CU_ASSERT_EQUAL(a.nseeds, 1);
    unsetenv("DECKHAND_REDIS_CLUSTER");
}

/* All of keys in one slot. */
static int one_slot(const char *const *keys, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (slot(keys[i]) != slot(keys[0]))
            return 0;
    return 1;
}

/* The KEYS of every multi-key script (dh_keys.h), built as the processes build them. */
static void test_keys_every_script_touches_one_slot(void)
{
    char m[DH_KEY_MAX], snap[DH_KEY_MAX], log[DH_KEY_MAX], hist[DH_KEY_MAX], mb[DH_KEY_MAX];
    const char *commit[] = {dh_key_match(m, "m-9"), dh_key_match_snap(snap, "m-9"),
                            dh_key_match_log(log, "m-9"), dh_key_match_history(hist, "m-9"),
                            dh_key_match_bundles(mb, "m-9")};
    CU_ASSERT_TRUE(one_slot(commit, 5));
    const char *mm[] = {DH_KEY_MM_LEASE, DH_KEY_MM_TICKETS, DH_KEY_MM_PLACEMENTS};
    CU_ASSERT_TRUE(one_slot(mm, 3));
    char r[DH_KEY_MAX], l[DH_KEY_MAX], d[DH_KEY_MAX];
    const char *rate[] = {dh_key_rating(r, "dominion", "ranked"),
                          dh_key_leaderboard(l, "dominion", "ranked"),
                          dh_key_rated(d, "dominion", "m-9")};
    CU_ASSERT_TRUE(one_slot(rate, 3));
    char a[DH_KEY_MAX], f[DH_KEY_MAX];
    const char *login[] = {dh_key_account(a, "alice"), dh_key_account_fails(f, "alice")};
    CU_ASSERT_TRUE(one_slot(login, 2));
    char c[DH_KEY_MAX], h[DH_KEY_MAX];
    const char *pointer[] = {dh_key_bundle_current(c, "dominion"),
                             dh_key_bundle_history(h, "dominion")};
    CU_ASSERT_TRUE(one_slot(pointer, 2));
    char b[DH_KEY_MAX], e[DH_KEY_MAX];
    const char *bundle[] = {dh_key_bundle(b, "abc"), dh_key_bundle_errors(e, "abc")};
    CU_ASSERT_TRUE(one_slot(bundle, 2));
    /* and matches spread: 64 ids land on many slots */
    int seen = 0, first = slot(dh_key_match(m, "m-0"));
    for (int i = 1; i < 64; i++) {
        char id[16];
        snprintf(id, sizeof id, "m-%d", i);
        seen += slot(dh_key_match(m, id)) != first;
    }
    CU_ASSERT_TRUE(seen > 60);
}

/* dh_redis_format writes a command's RESP form itself (not through hiredis's sprintf per
 * argument): the same bytes as redisFormatCommandArgv, with lengths given or not, for
 * empty, binary and long arguments, and the same slot. */
static void test_redis_format_writes_what_hiredis_writes(void)
{
    char big[12345];
    memset(big, 'x', sizeof big);
    big[100] = '\0'; /* binary: a NUL inside, read by length */
    const char *argv[] = {"EVALSHA", "0123456789abcdef", "2", "mm:{mm}:lease", "", big, "t+"};
    size_t lens[] = {7, 16, 1, 13, 0, sizeof big, 2};
    for (int withlens = 0; withlens < 2; withlens++) {
        int argc = withlens ? 7 : 5; /* without lengths: C strings only */
        const size_t *l = withlens ? lens : NULL;
        char *want = NULL;
        int n = redisFormatCommandArgv(&want, argc, argv, l);
        dh_redis_cmd got;
        CU_ASSERT_EQUAL_FATAL(dh_redis_format(&got, argc, argv, l), 0);
        CU_ASSERT_EQUAL(got.rawlen, (size_t)n);
        CU_ASSERT_TRUE(got.rawlen == (size_t)n && !memcmp(got.raw, want, (size_t)n));
        CU_ASSERT_EQUAL(got.slot, dh_slot_of_command(argc, argv, l));
        dh_redis_format_free(&got);
        redisFreeCommand(want);
    }
    dh_redis_cmd none;
    CU_ASSERT_EQUAL_FATAL(dh_redis_format(&none, 0, argv, NULL), 0);
    CU_ASSERT_EQUAL(none.rawlen, 4);
    CU_ASSERT_TRUE(!memcmp(none.raw, "*0\r\n", 4));
    dh_redis_format_free(&none);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"slot_crc16_matches_known_vectors", test_slot_crc16_matches_known_vectors},
        {"slot_hash_tags", test_slot_hash_tags},
        {"slot_of_command_picks_the_key", test_slot_of_command_picks_the_key},
        {"slot_moved_and_ask_replies_parse", test_slot_moved_and_ask_replies_parse},
        {"redis_cluster_url_lists_seeds", test_redis_cluster_url_lists_seeds},
        {"keys_every_script_touches_one_slot", test_keys_every_script_touches_one_slot},
        {"redis_format_writes_what_hiredis_writes", test_redis_format_writes_what_hiredis_writes},
        {NULL, NULL},
    };
    return dh_test_main("redis_slots", cases);
}
