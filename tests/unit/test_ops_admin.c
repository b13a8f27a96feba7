/*
 * test_ops_admin.c: the admin API's door on the operator port (common/dh_ops_admin.h),
 * through real sockets: a missing or wrong token gets 401 and nothing reaches the main
 * loop; a good one is handed over with the token's name and answered later from the
 * loop's thread (a deferred answer); a loop that never answers gives 504; a process with
 * no tokens says the API is off (403), one without the API says 404; the probes refuse a
 * POST. dh_ops_query decodes query parameters.
 */
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dh_ops.h"
#include "dh_test.h"
#include "rig_http.h"

#define TOKEN "0123456789abcdef0123"

static void start_ops(dh_ops *o, const char *secret, bool admin, const dh_http_limits *lim)
{
    dh_ops_init(o);
    if (admin) {
        dh_admin_auth auth;
        CU_ASSERT_EQUAL_FATAL(dh_admin_auth_parse(&auth, secret), 0);
        CU_ASSERT_EQUAL_FATAL(dh_ops_admin_on(o, &auth), 0);
    }
    if (lim) { /* dh_ops_start takes the default limits: start the server by hand */
        o->http = dh_http_start("127.0.0.1:0", lim, dh_ops_serve, o);
        CU_ASSERT_PTR_NOT_NULL_FATAL(o->http);
        if (o->admin)
            o->admin->http = o->http;
    } else {
        CU_ASSERT_EQUAL_FATAL(dh_ops_start(o, "127.0.0.1:0"), 0);
    }
    dh_ops_beat(o);
}

static char *request(dh_ops *o, const char *text, char *buf, size_t cap)
{
    return roundtrip(dh_http_port(o->http), text, strlen(text), buf, cap);
}

static void test_ops_admin_refuses_missing_and_wrong_tokens(void)
{
    dh_ops o;
    char buf[4096];
    start_ops(&o, "ops:" TOKEN, true, NULL);
    request(&o, "POST /admin/matches/m-1/end?reason=x HTTP/1.1\r\n\r\n", buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "HTTP/1.1 401 Unauthorized\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "WWW-Authenticate: Bearer\r\n"));
    request(&o, "POST /admin/matches/m-1/end HTTP/1.1\r\nAuthorization: Bearer " TOKEN "x\r\n\r\n",
            buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "HTTP/1.1 401 "));
    request(&o, "GET /admin/workers HTTP/1.1\r\nAuthorization: Basic " TOKEN "\r\n\r\n", buf,
            sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "HTTP/1.1 401 "));
    CU_ASSERT_EQUAL(atomic_load(&o.admin->refused), 3);
    CU_ASSERT_PTR_NULL(dh_ops_admin_take(o.admin)); /* nothing reached the loop */
    struct pollfd p = {.fd = dh_ops_admin_fd(o.admin), .events = POLLIN};
    CU_ASSERT_EQUAL(poll(&p, 1, 0), 0);
    dh_ops_stop(&o);
}

/* The loop's side: wait for the request on the descriptor, check it, answer it. */
static void *loop_answers(void *arg)
{
    dh_ops *o = arg;
    struct pollfd p = {.fd = dh_ops_admin_fd(o->admin), .events = POLLIN};
    CU_ASSERT_EQUAL(poll(&p, 1, 3000), 1);
    dh_ops_admin_req *q = dh_ops_admin_take(o->admin);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    CU_ASSERT_STRING_EQUAL(q->method, "POST");
    CU_ASSERT_STRING_EQUAL(q->path, "/admin/matches/m-1/end");
    CU_ASSERT_STRING_EQUAL(q->query, "reason=stuck%20forever");
    CU_ASSERT_STRING_EQUAL(q->who, "ops");
    CU_ASSERT_PTR_NULL(dh_ops_admin_take(o->admin));
    dh_ops_admin_answer(o->admin, q, 200, strdup("{\"ended\":true}"), 14);
    return NULL;
}

static void test_ops_admin_hands_requests_to_the_loop(void)
{
    dh_ops o;
    char buf[4096];
    start_ops(&o, "ops:" TOKEN, true, NULL);
    pthread_t t;
    CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, loop_answers, &o), 0);
    request(&o,
            "POST /admin/matches/m-1/end?reason=stuck%20forever HTTP/1.1\r\n"
            "Host: x\r\nauthorization:   Bearer " TOKEN "  \r\n\r\n",
            buf, sizeof buf);
    pthread_join(t, NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "HTTP/1.1 200 OK\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "Content-Type: application/json\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\r\n\r\n{\"ended\":true}"));
    /* the probes still answer, and refuse a POST */
    request(&o, "GET /healthz HTTP/1.1\r\n\r\n", buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "200 OK"));
    request(&o, "POST /metrics HTTP/1.1\r\n\r\n", buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "405 Method Not Allowed\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "Allow: GET\r\n"));
    dh_ops_stop(&o);
}

static void test_ops_admin_times_out_a_silent_loop(void)
{
    dh_ops o;
    char buf[4096];
    dh_http_limits lim = {8192, 300, 8};
    start_ops(&o, TOKEN, true, &lim);
    uint64_t t0 = dh_test_now_ms();
    request(&o, "GET /admin/workers HTTP/1.1\r\nAuthorization: Bearer " TOKEN "\r\n\r\n", buf,
            sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "HTTP/1.1 504 Gateway Timeout\r\n"));
    CU_ASSERT(dh_test_now_ms() - t0 < 2000);
    /* the loop wakes up late: its answer finds nobody and is dropped */
    dh_ops_admin_req *q = dh_ops_admin_take(o.admin);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    CU_ASSERT_STRING_EQUAL(q->who, "admin");
    dh_ops_admin_answer(o.admin, q, 200, NULL, 0);
    request(&o, "GET /healthz HTTP/1.1\r\n\r\n", buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "200 OK"));
    dh_ops_stop(&o);
}

static void test_ops_admin_off_or_absent(void)
{
    dh_ops o;
    char buf[4096];
    start_ops(&o, "", true, NULL); /* the matchmaker with no token */
    request(&o, "GET /admin/workers HTTP/1.1\r\nAuthorization: Bearer " TOKEN "\r\n\r\n", buf,
            sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "HTTP/1.1 403 Forbidden\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "DECKHAND_ADMIN_TOKEN"));
    CU_ASSERT_PTR_NULL(dh_ops_admin_take(o.admin));
    dh_ops_stop(&o);
    start_ops(&o, NULL, false, NULL); /* a worker or a gateway */
    request(&o, "GET /admin/workers HTTP/1.1\r\nAuthorization: Bearer " TOKEN "\r\n\r\n", buf,
            sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "HTTP/1.1 404 Not Found\r\n"));
    dh_ops_stop(&o);
}

static void test_ops_query_decodes_parameters(void)
{
    char v[16];
    const char *q = "game=dominion&reason=stuck+for%20ever%21&empty=&flag&bad=%zz&nul=a%00b";
    CU_ASSERT_EQUAL(dh_ops_query(q, "game", v, sizeof v), 8);
    CU_ASSERT_STRING_EQUAL(v, "dominion");
    CU_ASSERT_EQUAL(dh_ops_query(q, "reason", v, sizeof v), 15);
    CU_ASSERT_STRING_EQUAL(v, "stuck for ever!");
    CU_ASSERT_EQUAL(dh_ops_query(q, "empty", v, sizeof v), 0);
    CU_ASSERT_EQUAL(dh_ops_query(q, "flag", v, sizeof v), 0);
    CU_ASSERT_EQUAL(dh_ops_query(q, "bad", v, sizeof v), -2);
    CU_ASSERT_EQUAL(dh_ops_query(q, "nul", v, sizeof v), -2);
    CU_ASSERT_EQUAL(dh_ops_query(q, "gam", v, sizeof v), -1);
    CU_ASSERT_EQUAL(dh_ops_query(q, "missing", v, sizeof v), -1);
    CU_ASSERT_EQUAL(dh_ops_query("reason=0123456789abcdef", "reason", v, sizeof v), -2);
    CU_ASSERT_EQUAL(dh_ops_query("", "game", v, sizeof v), -1);
    CU_ASSERT_EQUAL(dh_ops_url_decode("wk%2D1+x", 8, false, v, sizeof v), 6);
    CU_ASSERT_STRING_EQUAL(v, "wk-1+x"); /* '+' is a space only in a query */
    CU_ASSERT_EQUAL(dh_ops_url_decode("a%4", 3, false, v, sizeof v), -2);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"ops_admin_refuses_missing_and_wrong_tokens",
         test_ops_admin_refuses_missing_and_wrong_tokens},
        {"ops_admin_hands_requests_to_the_loop", test_ops_admin_hands_requests_to_the_loop},
        {"ops_admin_times_out_a_silent_loop", test_ops_admin_times_out_a_silent_loop},
        {"ops_admin_off_or_absent", test_ops_admin_off_or_absent},
        {"ops_query_decodes_parameters", test_ops_query_decodes_parameters},
        {NULL, NULL},
    };
    return dh_test_main("ops_admin", cases);
}
