/*
 * test_http.c: the operator port. dh_metrics renders the exact Prometheus text;
 * dh_http answers real loopback clients (a good GET, 404, 405, 431, 400), drops a slow
 * client at its deadline without holding the others up, and sheds connections past its
 * cap; dh_ops turns the loop's heartbeat and readiness into /healthz and /readyz.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "deckhand.pb-c.h"
#include "dh_http.h"
#include "dh_metrics.h"
#include "dh_ops.h"
#include "dh_test.h"
#include "rig_http.h"

static void test_metrics_render_exact_text(void)
{
    dh_metrics reg;
    dh_counter frames = 0, unavailable = 0, bad = 0;
    dh_gauge open = 0;
    dh_metrics_init(&reg);
    CU_ASSERT_EQUAL(dh_metrics_gauge(&reg, "dh_open", "kind=\"tcp\"", "Open connections.", &open),
                    0);
    CU_ASSERT_EQUAL(dh_metrics_counter(&reg, "dh_replies_total", "code=\"UNAVAILABLE\"",
                                       "Replies by code.\nback\\slash", &unavailable),
                    0);
    CU_ASSERT_EQUAL(dh_metrics_counter(&reg, "dh_frames_total", "", "Frames in.", &frames), 0);
    CU_ASSERT_EQUAL(dh_metrics_counter(&reg, "dh_replies_total", "code=\"BAD_REQUEST\"",
                                       "Replies by code.\nback\\slash", &bad),
                    0);
    dh_gauge_set(&open, 3);
    dh_gauge_add(&open, -5);
    dh_counter_inc(&unavailable);
    dh_counter_add(&frames, 41);
    dh_counter_inc(&frames);
    size_t len = 0;
    char *text = dh_metrics_render(&reg, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_STRING_EQUAL(text, "# HELP dh_open Open connections.\n"
                                 "# TYPE dh_open gauge\n"
                                 "dh_open{kind=\"tcp\"} -2\n"
                                 "# HELP dh_replies_total Replies by code.\\nback\\\\slash\n"
                                 "# TYPE dh_replies_total counter\n"
                                 "dh_replies_total{code=\"UNAVAILABLE\"} 1\n"
                                 "dh_replies_total{code=\"BAD_REQUEST\"} 0\n"
                                 "# HELP dh_frames_total Frames in.\n"
                                 "# TYPE dh_frames_total counter\n"
                                 "dh_frames_total 42\n");
    CU_ASSERT_EQUAL(len, strlen(text));
    free(text);
}

static void test_metrics_refuses_bad_names_and_type_clash(void)
{
    dh_metrics reg;
    dh_counter c = 0;
    dh_gauge g = 0;
    dh_metrics_init(&reg);
    CU_ASSERT_EQUAL(dh_metrics_counter(&reg, "9lives", "", "", &c), -1);
    CU_ASSERT_EQUAL(dh_metrics_counter(&reg, "has space", "", "", &c), -1);
    CU_ASSERT_EQUAL(dh_metrics_counter(&reg, "x_total", "", "", &c), 0);
    CU_ASSERT_EQUAL(dh_metrics_gauge(&reg, "x_total", "a=\"b\"", "", &g), -1);
    for (int i = 1; i < DH_METRICS_MAX; i++)
        CU_ASSERT_EQUAL(dh_metrics_counter(&reg, "y_total", "", "", &c), 0);
    CU_ASSERT_EQUAL(dh_metrics_counter(&reg, "z_total", "", "", &c), -1);
    size_t len;
    char *text = dh_metrics_render(&reg, &len);
    CU_ASSERT_PTR_NOT_NULL(text);
    free(text);
}

static void test_metrics_table_registers_in_order_and_keeps_going(void)
{
    dh_metrics reg;
    dh_counter a = 0, b = 0;
    dh_gauge g = 0;
    dh_metrics_init(&reg);
    const dh_metric table[] = {
        {"t_a_total", "", "A.", DH_METRIC_COUNTER, &a},
        {"bad name", "", "Refused.", DH_METRIC_COUNTER, &b},
        {"t_g", "k=\"v\"", "G.", DH_METRIC_GAUGE, &g},
    };
    CU_ASSERT_EQUAL(dh_metrics_table(&reg, table, 3), -1);
    CU_ASSERT_EQUAL(dh_metrics_table(&reg, table, 1), 0);
    CU_ASSERT_EQUAL(reg.n, 3);
    dh_gauge_set(&g, 7);
    size_t len;
    char *text = dh_metrics_render(&reg, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_STRING_EQUAL(text, "# HELP t_a_total A.\n"
                                 "# TYPE t_a_total counter\n"
                                 "t_a_total 0\n"
                                 "t_a_total 0\n"
                                 "# HELP t_g G.\n"
                                 "# TYPE t_g gauge\n"
                                 "t_g{k=\"v\"} 7\n");
    free(text);
}

/* ---- the server, through real sockets ------------------------------------------------ */

static void echo_handler(void *ud, const dh_http_request *req, dh_http_reply *r)
{
    const char *path = req->path;
    (void)ud;
    if (strcmp(req->method, "GET") != 0) {
        dh_http_reply_text(r, 405, "only GET\n");
        r->allow = "GET";
    } else if (strcmp(path, "/hello") == 0)
        dh_http_reply_text(r, 200, "hello\n");
    else
        dh_http_reply_text(r, 404, "no %s\n", path);
}

static const char get_hello[] = "GET /hello HTTP/1.1\r\n\r\n";

/* True when port answers req (n bytes) with a response that contains want. */
static bool answers(int port, const char *req, size_t n, const char *want)
{
    char buf[4096];
    return strstr(roundtrip(port, req, n, buf, sizeof buf), want) != NULL;
}

/* The same for GET /hello. */
static bool hello_answers(int port, const char *want)
{
    return answers(port, get_hello, sizeof get_hello - 1, want);
}

static dh_http *start(const dh_http_limits *lim)
{
    dh_http *s = dh_http_start("127.0.0.1:0", lim, echo_handler, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_FATAL(dh_http_port(s) > 0);
    return s;
}

static void test_http_get_answers_and_closes(void)
{
    dh_http *s = start(NULL);
    char buf[4096];
    const char req[] = "GET /hello?x=1 HTTP/1.1\r\nHost: x\r\nUser-Agent: t\r\n\r\n";
    roundtrip(dh_http_port(s), req, sizeof req - 1, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "HTTP/1.1 200 OK\r\n"
                                "Content-Type: text/plain; charset=utf-8\r\n"
                                "Content-Length: 6\r\n"
                                "Cache-Control: no-store\r\n"
                                "Connection: close\r\n\r\nhello\n");
    /* the request may arrive a byte at a time */
    int fd = http_connect(dh_http_port(s));
    CU_ASSERT_FATAL(fd >= 0);
    const char req10[] = "GET /hello HTTP/1.0\r\n\r\n";
    for (size_t i = 0; i < sizeof req10 - 1; i++) {
        send_all(fd, req10 + i, 1);
        usleep(1000);
    }
    read_all(fd, buf, sizeof buf);
    close(fd);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "200 OK"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\r\n\r\nhello\n"));
    dh_http_stop(s);
}

static void test_http_bad_input_gets_4xx(void)
{
    dh_http *s = start(NULL);
    int port = dh_http_port(s);
    char buf[4096];
    const char unknown[] = "GET /nope HTTP/1.1\r\n\r\n";
    CU_ASSERT_TRUE(answers(port, unknown, sizeof unknown - 1, "HTTP/1.1 404 Not Found\r\n"));
    const char post[] = "POST /hello HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc";
    roundtrip(port, post, sizeof post - 1, buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "HTTP/1.1 405 Method Not Allowed\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "Allow: GET\r\n"));
    const char garbage[] = "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n";
    CU_ASSERT_TRUE(answers(port, garbage, sizeof garbage - 1, "HTTP/1.1 400 Bad Request\r\n"));
    const char noversion[] = "GET /hello\r\n\r\n";
    CU_ASSERT_TRUE(answers(port, noversion, sizeof noversion - 1, "400 Bad Request"));
    const char relative[] = "GET hello HTTP/1.1\r\n\r\n";
    CU_ASSERT_TRUE(answers(port, relative, sizeof relative - 1, "400 Bad Request"));
    /* 20 kB of headers, past the 8 kB limit */
    size_t big = 20000;
    char *huge = malloc(big);
    CU_ASSERT_PTR_NOT_NULL_FATAL(huge);
    memset(huge, 'a', big);
    memcpy(huge, "GET /hello HTTP/1.1\r\nX-Pad: ", 28);
    CU_ASSERT_TRUE(answers(port, huge, big, "HTTP/1.1 431 Request Header Fields Too Large\r\n"));
    free(huge);
    /* still serving */
    CU_ASSERT_TRUE(hello_answers(port, "200 OK"));
    dh_http_stop(s);
}

static void test_http_slow_client_dropped_without_blocking_others(void)
{
    dh_http_limits lim = {8192, 500, 8};
    dh_http *s = start(&lim);
    int port = dh_http_port(s);
    char buf[4096];
    int slow = http_connect(port);
    CU_ASSERT_FATAL(slow >= 0);
    send_all(slow, "GET /hel", 8); /* and never the rest */
    uint64_t t0 = dh_test_now_ms();
    for (int i = 0; i < 5; i++)
        CU_ASSERT_TRUE(hello_answers(port, "200 OK"));
    CU_ASSERT(dh_test_now_ms() - t0 < 400);
    read_all(slow, buf, sizeof buf); /* returns when the server closes it */
    uint64_t waited = dh_test_now_ms() - t0;
    CU_ASSERT_STRING_EQUAL(buf, "");
    CU_ASSERT(waited >= 400 && waited < 2000);
    close(slow);
    dh_http_stop(s);
}

static void test_http_many_connections_past_the_cap(void)
{
    dh_http_limits lim = {8192, 2000, 4};
    dh_http *s = start(&lim);
    int port = dh_http_port(s);
    char buf[4096];
    int idle[4];
    for (int i = 0; i < 4; i++) {
        idle[i] = http_connect(port);
        CU_ASSERT_FATAL(idle[i] >= 0);
    }
    usleep(100 * 1000); /* let the server take all four */
    CU_ASSERT_TRUE(hello_answers(port, "503 Service Unavailable"));
    for (int i = 0; i < 4; i++)
        close(idle[i]);
    /* the slots free up as the server sees those clients go */
    uint64_t deadline = dh_test_now_ms() + 2000;
    while (!hello_answers(port, "200 OK") && dh_test_now_ms() < deadline)
        usleep(10 * 1000);
    /* 200 clients one after the other, each answered */
    int good = 0;
    for (int i = 0; i < 200; i++)
        good += hello_answers(port, "200 OK");
    CU_ASSERT_EQUAL(good, 200);
    /* and up to the cap at once */
    int fds[4];
    for (int i = 0; i < 4; i++) {
        fds[i] = http_connect(port);
        CU_ASSERT_FATAL(fds[i] >= 0);
    }
    for (int i = 0; i < 4; i++)
        send_all(fds[i], get_hello, sizeof get_hello - 1);
    good = 0;
    for (int i = 0; i < 4; i++) {
        good += strstr(read_all(fds[i], buf, sizeof buf), "200 OK") != NULL;
        close(fds[i]);
    }
    CU_ASSERT(good >= 3); /* the last client's slot may still be closing */
    dh_http_stop(s);
}

/* CPU time of the whole process (every thread) in milliseconds. */
static uint64_t cpu_ms(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
           (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
}

/* Out of descriptors, a connection waiting to be accepted must not make the thread spin
 * (accept fails, the listener stays readable): the listener rests, and once descriptors
 * are free again the connection is served. */
static void test_http_out_of_descriptors_rests_then_serves(void)
{
    dh_http *s = start(NULL);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)dh_http_port(s))};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int client = socket(AF_INET, SOCK_STREAM, 0);
    CU_ASSERT_FATAL(client >= 0);
    struct rlimit old;
    CU_ASSERT_EQUAL_FATAL(getrlimit(RLIMIT_NOFILE, &old), 0);
    struct rlimit low = {.rlim_cur = (rlim_t)client + 8, .rlim_max = old.rlim_max};
    CU_ASSERT_EQUAL_FATAL(setrlimit(RLIMIT_NOFILE, &low), 0);
    int held[16], nheld = 0;
    while (nheld < 16 && (held[nheld] = dup(client)) >= 0)
        nheld++;
    CU_ASSERT_TRUE(nheld < 16); /* the table is full now */
    CU_ASSERT_EQUAL(connect(client, (struct sockaddr *)&sa, sizeof sa), 0);
    uint64_t cpu0 = cpu_ms();
    usleep(500 * 1000);
    uint64_t spent = cpu_ms() - cpu0;
    CU_ASSERT_TRUE(spent < 200); /* a spinning accept loop would burn the whole 500 ms */
    for (int i = 0; i < nheld; i++)
        close(held[i]);
    CU_ASSERT_EQUAL(setrlimit(RLIMIT_NOFILE, &old), 0);
    char buf[4096];
    send_all(client, get_hello, sizeof get_hello - 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(read_all(client, buf, sizeof buf), "200 OK"));
    close(client);
    dh_http_stop(s);
}

static void test_http_stop_with_clients_open(void)
{
    dh_http *s = start(NULL);
    int fd = http_connect(dh_http_port(s));
    CU_ASSERT_FATAL(fd >= 0);
    send_all(fd, "GET", 3);
    usleep(50 * 1000);
    dh_http_stop(s); /* joins the thread and closes the client: nothing leaks */
    close(fd);
    CU_ASSERT_PTR_NULL(dh_http_start("127.0.0.1:notaport", NULL, echo_handler, NULL));
    CU_ASSERT_PTR_NULL(dh_http_start("nocolon", NULL, echo_handler, NULL));
}

/* ---- the probes ---------------------------------------------------------------------- */

static int ops_status(dh_ops *o, const char *path, char *body, size_t cap)
{
    dh_http_reply r = {.status = 200};
    dh_ops_handle(o, path, &r);
    snprintf(body, cap, "%.*s", (int)r.len, r.body ? r.body : "");
    free(r.body);
    return r.status;
}

/* Every error code has its own series, the newer ones (NAME_TAKEN up to ALREADY_PLACED)
 * too, where they used to count as INTERNAL; a code this build does not know still does. */
static void test_ops_codes_count_every_code_apart(void)
{
    dh_ops o;
    dh_counter codes[DH_OPS_CODES] = {0};
    dh_ops_init(&o);
    CU_ASSERT_EQUAL_FATAL(dh_ops_codes(&o, "dh_replies_total", "Replies.", codes), 0);
    dh_ops_count_code(codes, DECKHAND__ERROR_CODE__ALREADY_PLACED);
    dh_ops_count_code(codes, DECKHAND__ERROR_CODE__NOT_FOUND);
    dh_ops_count_code(codes, 99);
    size_t len;
    char *text = dh_metrics_render(&o.metrics, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "dh_replies_total{code=\"ALREADY_PLACED\"} 1\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "dh_replies_total{code=\"NOT_FOUND\"} 1\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "dh_replies_total{code=\"INTERNAL\"} 1\n"));
    free(text);
}

static void test_ops_probes_follow_the_loop(void)
{
    dh_ops o;
    char body[4096]; /* the process metrics come first */
    dh_counter formed = 0;
    dh_ops_init(&o);
    CU_ASSERT_EQUAL(
        dh_metrics_counter(&o.metrics, "dh_matches_formed_total", "", "Formed.", &formed), 0);
    dh_ops_beat(&o);
    CU_ASSERT_EQUAL(ops_status(&o, "/healthz", body, sizeof body), 200);
    CU_ASSERT_STRING_EQUAL(body, "ok\n");
    CU_ASSERT_EQUAL(ops_status(&o, "/readyz", body, sizeof body), 503);
    CU_ASSERT_STRING_EQUAL(body, "not ready: starting\n");
    dh_ops_ready(&o, NULL);
    CU_ASSERT_EQUAL(ops_status(&o, "/readyz", body, sizeof body), 200);
    dh_ops_ready(&o, "the matchmaker link is down");
    CU_ASSERT_EQUAL(ops_status(&o, "/readyz", body, sizeof body), 503);
    CU_ASSERT_STRING_EQUAL(body, "not ready: the matchmaker link is down\n");
    dh_counter_inc(&formed);
    CU_ASSERT_EQUAL(ops_status(&o, "/metrics", body, sizeof body), 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(body, "\ndh_matches_formed_total 1\n"));
    CU_ASSERT_EQUAL(ops_status(&o, "/", body, sizeof body), 404);
    /* a loop that stopped turning: both probes fail */
    atomic_store(&o.beat_ms, atomic_load(&o.beat_ms) - DH_OPS_STALL_MS - 1000);
    dh_ops_ready(&o, NULL);
    CU_ASSERT_EQUAL(ops_status(&o, "/healthz", body, sizeof body), 503);
    CU_ASSERT_PTR_NOT_NULL(strstr(body, "stalled"));
    CU_ASSERT_EQUAL(ops_status(&o, "/readyz", body, sizeof body), 503);
}

static void test_ops_serves_over_http(void)
{
    dh_ops o;
    char buf[4096];
    dh_ops_init(&o);
    CU_ASSERT_EQUAL(dh_ops_start(&o, ""), 0); /* off */
    CU_ASSERT_PTR_NULL(o.http);
    CU_ASSERT_EQUAL_FATAL(dh_ops_start(&o, "127.0.0.1:0"), 0);
    dh_ops_ready(&o, NULL);
    const char req[] = "GET /readyz HTTP/1.1\r\n\r\n";
    roundtrip(dh_http_port(o.http), req, sizeof req - 1, buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "200 OK"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\r\n\r\nready\n"));
    dh_ops_stop(&o);
    dh_ops_stop(&o);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"metrics_render_exact_text", test_metrics_render_exact_text},
        {"metrics_refuses_bad_names_and_type_clash", test_metrics_refuses_bad_names_and_type_clash},
        {"metrics_table_registers_in_order_and_keeps_going",
         test_metrics_table_registers_in_order_and_keeps_going},
        {"http_get_answers_and_closes", test_http_get_answers_and_closes},
        {"http_bad_input_gets_4xx", test_http_bad_input_gets_4xx},
        {"http_slow_client_dropped_without_blocking_others",
         test_http_slow_client_dropped_without_blocking_others},
        {"http_many_connections_past_the_cap", test_http_many_connections_past_the_cap},
        {"http_stop_with_clients_open", test_http_stop_with_clients_open},
        {"http_out_of_descriptors_rests_then_serves",
         test_http_out_of_descriptors_rests_then_serves},
        {"ops_probes_follow_the_loop", test_ops_probes_follow_the_loop},
        {"ops_codes_count_every_code_apart", test_ops_codes_count_every_code_apart},
        {"ops_serves_over_http", test_ops_serves_over_http},
        {NULL, NULL},
    };
    return dh_test_main("http", cases);
}
