/*
 * test_redis.c: the shared Redis connection helper (common/dh_redis.h): how --redis
 * URLs are read, and that an unreachable Redis is an error, never a crash or a hang.
 */
#include "dh_redis.h"

#include <string.h>

#include "dh_test.h"

/* url reads as host, port, password and db. */
static void expect_url(const char *url, const char *host, int port, const char *password, int db)
{
    dh_redis_addr a;
    CU_ASSERT_EQUAL_FATAL(dh_redis_parse_url(url, &a), 0);
    CU_ASSERT_STRING_EQUAL(a.host, host);
    CU_ASSERT_EQUAL(a.port, port);
    CU_ASSERT_STRING_EQUAL(a.password, password);
    CU_ASSERT_EQUAL(a.db, db);
}

static void test_redis_url_host_and_port(void)
{
    expect_url("redis://127.0.0.1:6390", "127.0.0.1", 6390, "", 0);
}

static void test_redis_url_default_port(void)
{
    expect_url("redis://cache.local", "cache.local", 6379, "", 0);
}

static void test_redis_url_password_and_db(void)
{
    expect_url("redis://:s3cret@10.0.0.5:7000/3", "10.0.0.5", 7000, "s3cret", 3);
    expect_url("redis://user:pw@h:1/", "h", 1, "pw", 0);
}

static void test_redis_url_bare_host_port(void)
{
    expect_url("localhost:6390", "localhost", 6390, "", 0);
}

static void test_redis_url_malformed_is_refused(void)
{
    dh_redis_addr a;
    CU_ASSERT_EQUAL(dh_redis_parse_url(NULL, &a), -1);
    CU_ASSERT_EQUAL(dh_redis_parse_url("", &a), -1);
    CU_ASSERT_EQUAL(dh_redis_parse_url("redis://", &a), -1);
    CU_ASSERT_EQUAL(dh_redis_parse_url("redis://:6379", &a), -1);
    CU_ASSERT_EQUAL(dh_redis_parse_url("redis://h:0", &a), -1);
    CU_ASSERT_EQUAL(dh_redis_parse_url("redis://h:70000", &a), -1);
    CU_ASSERT_EQUAL(dh_redis_parse_url("redis://h:12x", &a), -1);
    CU_ASSERT_EQUAL(dh_redis_parse_url("redis://h:1/db", &a), -1);
    CU_ASSERT_EQUAL(dh_redis_parse_url("http://h:1", &a), -1);
}

static void test_redis_unreachable_is_null_and_backs_off(void)
{
    dh_redis r;
    /* port 1 on loopback: nothing listens there, the connect is refused at once */
    CU_ASSERT_EQUAL_FATAL(dh_redis_init(&r, "redis://127.0.0.1:1", 200), 0);
    CU_ASSERT_PTR_NULL(dh_redis_get(&r, 1000));
    CU_ASSERT_TRUE(r.retry_at_ms > 1000);
    /* inside the backoff nothing is tried */
    CU_ASSERT_PTR_NULL(dh_redis_get(&r, 1001));
    unsigned first = r.backoff_ms;
    CU_ASSERT_PTR_NULL(dh_redis_get(&r, r.retry_at_ms));
    CU_ASSERT_TRUE(r.backoff_ms >= first);
    dh_redis_fail(&r, 5000); /* harmless while down */
    dh_redis_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"redis_url_host_and_port", test_redis_url_host_and_port},
        {"redis_url_default_port", test_redis_url_default_port},
        {"redis_url_password_and_db", test_redis_url_password_and_db},
        {"redis_url_bare_host_port", test_redis_url_bare_host_port},
        {"redis_url_malformed_is_refused", test_redis_url_malformed_is_refused},
        {"redis_unreachable_is_null_and_backs_off", test_redis_unreachable_is_null_and_backs_off},
        {NULL, NULL},
    };
    return dh_test_main("redis", cases);
}
