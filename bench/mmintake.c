/*
 * mmintake.c: deckhand-mmintake, joins through ZeroMQ into a running matchmaker: the
 * process's intake, as bench/mm_intake.sh runs it (docs/BENCHMARKS.md).
 *
 *   deckhand-mmintake --matchmaker ENDPOINT --players N [--gateways G] [--timeout-ms T]
 *
 * Internal clients stand in for the rest of the cluster: G gateways (DEALERs gw-1..gw-G,
 * each says GatewayHello) and one worker wk-1 (WorkerHello: dominion for 2 to 4, beats
 * every 500 ms, answers every StartMatch with MatchStarted ok). After the worker is
 * known, N two-player joins go out as fast as the sockets take them, round robin over
 * the gateways; every QueueReply and MatchAssigned is counted. Reported: joins answered
 * per second (N over the time from the first join sent to the last reply), reply
 * latency p50/p99/max, replies later than the gateway's 3 s timeout, refusals, players
 * assigned to a match and when the last was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "dh_clock.h"
#include "dh_zmq.h"

#define INTAKE_GATEWAYS_MAX 16
#define INTAKE_GW_TIMEOUT   3000 /* the gateway's wait for a QueueReply */

typedef struct {
    void *ctx, *worker;
    void *gw[INTAKE_GATEWAYS_MAX];
    int ngw;
    uint64_t *sent_ns;  /* per join (cmd_id - 1) */
    uint32_t *reply_ms; /* per join, its reply latency */
    size_t n, replies, refused, late, assigned, started;
    uint64_t last_reply_ns, last_assigned_ns, next_beat_ms;
} intake;

static void intake_send(void *sock, Deckhand__Internal__Internal *m)
{
    if (dh_zmq_send(sock, NULL, m) < 0)
        perror("mmintake: send");
}

static void intake_worker_hello(intake *in)
{
    Deckhand__Internal__GameInfo gi = DECKHAND__INTERNAL__GAME_INFO__INIT;
    Deckhand__Internal__GameInfo *gis[] = {&gi};
    gi.name = (char *)"dominion";
    gi.min_players = 2;
    gi.max_players = 4;
    Deckhand__Internal__WorkerHello h = DECKHAND__INTERNAL__WORKER_HELLO__INIT;
    h.worker_id = (char *)"wk-1";
    h.endpoint = (char *)"tcp://127.0.0.1:1";
    h.n_games = 1;
    h.games = gis;
    h.capacity = 10000000;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO;
    m.worker_hello = &h;
    intake_send(in->worker, &m);
}

static void intake_worker_beat(intake *in)
{
    Deckhand__Internal__WorkerBeat b = DECKHAND__INTERNAL__WORKER_BEAT__INIT;
    b.worker_id = (char *)"wk-1";
    b.active_matches = (uint32_t)in->started;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT;
    m.worker_beat = &b;
    intake_send(in->worker, &m);
    intake_worker_hello(in); /* as workers do with every beat */
}

/* What the worker got: a StartMatch is answered at once. */
static void intake_worker_read(intake *in)
{
    Deckhand__Internal__Internal *m;
    while (dh_zmq_recv(in->worker, NULL, &m) == 1) {
        if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_START_MATCH) {
            Deckhand__Internal__MatchStarted ms = DECKHAND__INTERNAL__MATCH_STARTED__INIT;
            ms.match_id = m->start_match->match_id;
            ms.ok = 1;
            ms.worker_id = (char *)"wk-1";
            Deckhand__Internal__Internal a = DECKHAND__INTERNAL__INTERNAL__INIT;
            a.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_STARTED;
            a.match_started = &ms;
            intake_send(in->worker, &a);
            in->started++;
        }
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
}

static void intake_gateway_read(intake *in, void *gw)
{
    Deckhand__Internal__Internal *m;
    while (dh_zmq_recv(gw, NULL, &m) == 1) {
        uint64_t now = dh_now_ns();
        if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY) {
            uint64_t c = m->queue_reply->cmd_id;
            if (c >= 1 && c <= in->n) {
                uint32_t ms = (uint32_t)((now - in->sent_ns[c - 1]) / 1000000);
                in->reply_ms[in->replies++] = ms;
                in->late += ms >= INTAKE_GW_TIMEOUT;
                in->refused += !m->queue_reply->ok;
                in->last_reply_ns = now;
            }
        } else if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED) {
            in->assigned++;
            in->last_assigned_ns = now;
        }
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
}

/* Read everything waiting (up to wait_ms for the first), beat when due. */
static void intake_pump(intake *in, long wait_ms)
{
    zmq_pollitem_t items[INTAKE_GATEWAYS_MAX + 1];
    items[0] = (zmq_pollitem_t){.socket = in->worker, .events = ZMQ_POLLIN};
    for (int i = 0; i < in->ngw; i++)
        items[1 + i] = (zmq_pollitem_t){.socket = in->gw[i], .events = ZMQ_POLLIN};
    zmq_poll(items, 1 + in->ngw, wait_ms);
    intake_worker_read(in);
    for (int i = 0; i < in->ngw; i++)
        intake_gateway_read(in, in->gw[i]);
    if (dh_now_ms() >= in->next_beat_ms) {
        intake_worker_beat(in);
        in->next_beat_ms = dh_now_ms() + 500;
    }
}

static void intake_join(intake *in, size_t i)
{
    char id[32];
    snprintf(id, sizeof id, "b%zu", i);
    Deckhand__Internal__QueueJoin j = DECKHAND__INTERNAL__QUEUE_JOIN__INIT;
    j.player_id = id;
    j.name = id;
    j.cmd_id = i + 1;
    j.game = (char *)"dominion";
    j.players = 2;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN;
    m.queue_join = &j;
    in->sent_ns[i] = dh_now_ns();
    intake_send(in->gw[i % (size_t)in->ngw], &m);
}

static int intake_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int intake_open(intake *in, const char *endpoint)
{
    int hwm = (int)in->n + 1000;
    in->ctx = zmq_ctx_new();
    in->worker = dh_zmq_socket(in->ctx, ZMQ_DEALER, "wk-1", hwm);
    if (!in->worker || zmq_connect(in->worker, endpoint) < 0)
        return -1;
    for (int i = 0; i < in->ngw; i++) {
        char id[16];
        snprintf(id, sizeof id, "gw-%d", i + 1);
        in->gw[i] = dh_zmq_socket(in->ctx, ZMQ_DEALER, id, hwm);
        if (!in->gw[i] || zmq_connect(in->gw[i], endpoint) < 0)
            return -1;
        Deckhand__Internal__GatewayHello gh = DECKHAND__INTERNAL__GATEWAY_HELLO__INIT;
        gh.gateway_id = id;
        Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
        m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO;
        m.gateway_hello = &gh;
        intake_send(in->gw[i], &m);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *endpoint = "tcp://127.0.0.1:5560";
    intake in = {.ngw = 2, .n = 10000};
    long timeout_ms = 60000;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--matchmaker"))
            endpoint = argv[i + 1];
        else if (!strcmp(argv[i], "--players"))
            in.n = strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--gateways"))
            in.ngw = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--timeout-ms"))
            timeout_ms = atol(argv[i + 1]);
    }
    if (in.ngw < 1 || in.ngw > INTAKE_GATEWAYS_MAX || in.n == 0) {
        fprintf(stderr, "usage: deckhand-mmintake --matchmaker EP --players N [--gateways G]\n");
        return 2;
    }
    in.sent_ns = calloc(in.n, sizeof *in.sent_ns);
    in.reply_ms = calloc(in.n, sizeof *in.reply_ms);
    if (!in.sent_ns || !in.reply_ms || intake_open(&in, endpoint) < 0) {
        fprintf(stderr, "mmintake: cannot set up\n");
        return 1;
    }
    for (uint64_t until = dh_now_ms() + 1000; dh_now_ms() < until;)
        intake_pump(&in, 50); /* the matchmaker learns the worker and the gateways */
    uint64_t t0 = dh_now_ns();
    for (size_t i = 0; i < in.n; i++) {
        intake_join(&in, i);
        if (i % 1000 == 999)
            intake_pump(&in, 0);
    }
    uint64_t deadline = dh_now_ms() + (uint64_t)timeout_ms;
    while ((in.replies < in.n || in.assigned < in.n - in.n % 2) && dh_now_ms() < deadline)
        intake_pump(&in, 20);
    qsort(in.reply_ms, in.replies, sizeof *in.reply_ms, intake_cmp);
    double secs = (double)(in.last_reply_ns - t0) / 1e9;
    printf("players=%zu gateways=%d replies=%zu refused=%zu late_3s=%zu answered_per_sec=%.0f "
           "reply_p50_ms=%u reply_p99_ms=%u reply_max_ms=%u assigned=%zu last_assigned_s=%.2f\n",
           in.n, in.ngw, in.replies, in.refused, in.late, secs > 0 ? (double)in.replies / secs : 0,
           in.replies ? in.reply_ms[in.replies / 2] : 0,
           in.replies ? in.reply_ms[in.replies * 99 / 100] : 0,
           in.replies ? in.reply_ms[in.replies - 1] : 0, in.assigned,
           in.last_assigned_ns ? (double)(in.last_assigned_ns - t0) / 1e9 : 0.0);
    zmq_close(in.worker);
    for (int i = 0; i < in.ngw; i++)
        zmq_close(in.gw[i]);
    zmq_ctx_term(in.ctx);
    free(in.sent_ns);
    free(in.reply_ms);
    return in.replies == in.n && in.refused == 0 ? 0 : 1;
}
