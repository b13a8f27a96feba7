/*
 * mmintake.c: deckhand-mmintake, joins through ZeroMQ into a running matchmaker: the
 * process's intake, as bench/mm_intake.sh runs it (docs/BENCHMARKS.md).
 *
 *   deckhand-mmintake --matchmaker ENDPOINT --players N [--gateways G] [--timeout-ms T]
 *                     [--curve-dir DIR]
 *
 * Internal clients stand in for the rest of the cluster: G gateways (DEALERs gw-1..gw-G,
 * each says GatewayHello) and one worker wk-1 (WorkerHello: dominion for 2 to 4, beats
 * every 500 ms, answers every StartMatch with MatchStarted ok). After the worker is
 * known, N two-player joins go out as fast as the sockets take them, round robin over
 * the gateways; every QueueReply and MatchAssigned is counted. Reported: joins answered
 * per second (N over the time from the first join sent to the last reply), reply
 * latency p50/p99/max, replies later than the gateway's 3 s timeout, refusals, players
 * assigned to a match and when the last was.
 *
 * --curve-dir DIR: the cluster's CURVE keys (`deckhand keygen DIR`), as the cluster runs:
 * the fake gateways connect with the gateway role's key, the workers with the worker
 * role's (dh_curve.h); without it the links are plaintext (a matchmaker started with
 * --insecure-internal).
 *
 * --churn REDIS_URL: takeover churn besides (the crash came under it). Three
 * workers; each StartMatch's match is written to Redis as a worker would (match:{ID},
 * matches:running); once every player is assigned, wk-1 falls silent, so the matchmaker
 * declares it dead and moves its matches to wk-2 and wk-3, which refuse the first
 * AdoptMatch of every third match (so the moves are retried while others are in flight)
 * and accept the rest. Reported: matches moved and adopted, refusals, and how long it
 * took; the run fails if wk-1's matches are not all adopted within the timeout.
 */
#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "dh_clock.h"
#include "dh_curve.h"
#include "dh_keys.h"
#include "dh_zmq.h"

#define INTAKE_GATEWAYS_MAX 16
#define INTAKE_GW_TIMEOUT   3000 /* the gateway's wait for a QueueReply */
#define INTAKE_WORKERS_MAX  3

typedef struct {
    void *ctx;
    void *w[INTAKE_WORKERS_MAX];
    int nw;
    bool silent0;        /* wk-1 fell silent (churn) */
    redisContext *redis; /* churn: where the workers' matches are written */
    size_t on_w0, adopted, refused_adopt, adopt_msgs;
    uint64_t silent_ns, last_adopted_ns;
    void *gw[INTAKE_GATEWAYS_MAX];
    int ngw;
    uint64_t *sent_ns;  /* per join (cmd_id - 1) */
    uint32_t *reply_ms; /* per join, its reply latency */
    size_t n, replies, refused, late, assigned, started;
    uint64_t last_reply_ns, last_assigned_ns, next_beat_ms;
    dh_curve gw_keys, wk_keys; /* CURVE off (on == false) without --curve-dir */
} intake;

static void intake_send(void *sock, Deckhand__Internal__Internal *m)
{
    if (dh_zmq_send(sock, NULL, m) < 0)
        perror("mmintake: send");
}

static void intake_worker_hello(intake *in, int wi)
{
    char id[16], ep[32];
    snprintf(id, sizeof id, "wk-%d", wi + 1);
    snprintf(ep, sizeof ep, "tcp://127.0.0.1:%d", wi + 1);
    Deckhand__Internal__GameInfo gi = DECKHAND__INTERNAL__GAME_INFO__INIT;
    Deckhand__Internal__GameInfo *gis[] = {&gi};
    gi.name = (char *)"dominion";
    gi.min_players = 2;
    gi.max_players = 4;
    Deckhand__Internal__WorkerHello h = DECKHAND__INTERNAL__WORKER_HELLO__INIT;
    h.worker_id = id;
    h.endpoint = ep;
    h.n_games = 1;
    h.games = gis;
    h.capacity = 10000000;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO;
    m.worker_hello = &h;
    intake_send(in->w[wi], &m);
}

static void intake_worker_beat(intake *in)
{
    for (int wi = in->silent0 ? 1 : 0; wi < in->nw; wi++) {
        char id[16];
        snprintf(id, sizeof id, "wk-%d", wi + 1);
        Deckhand__Internal__WorkerBeat b = DECKHAND__INTERNAL__WORKER_BEAT__INIT;
        b.worker_id = id;
        b.active_matches = (uint32_t)(in->started / (size_t)in->nw);
        Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
        m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT;
        m.worker_beat = &b;
        intake_send(in->w[wi], &m);
        intake_worker_hello(in, wi); /* as workers do with every beat */
    }
}

/* Churn: the match as its worker would have stored it. */
static void intake_store_match(intake *in, const Deckhand__Internal__StartMatch *sm, int wi)
{
    if (!in->redis)
        return;
    char key[DH_KEY_MAX], wk[16], ids[160] = "";
    snprintf(wk, sizeof wk, "wk-%d", wi + 1);
    for (size_t i = 0; i < sm->n_seats; i++)
        snprintf(ids + strlen(ids), sizeof ids - strlen(ids), "%s%s", i ? "," : "",
                 sm->seats[i]->player_id);
    dh_key_match(key, sm->match_id);
    redisAppendCommand(in->redis,
                       "HSET %s game dominion worker %s epoch 1 status running "
                       "player_ids %s players %s",
                       key, wk, ids, ids);
    redisAppendCommand(in->redis, "HSET " DH_KEY_MATCHES_RUNNING " %s %s", sm->match_id, wk);
    for (int i = 0; i < 2; i++) {
        void *r = NULL;
        if (redisGetReply(in->redis, &r) == REDIS_OK && r)
            freeReplyObject(r);
    }
}

/* Churn: an AdoptMatch at worker wi; the first one of every third match is refused. */
static void intake_adopt(intake *in, int wi, const Deckhand__Internal__AdoptMatch *am)
{
    in->adopt_msgs++;
    uint64_t h = 0;
    for (const char *p = am->match_id; p && *p; p++)
        h = h * 31 + (unsigned char)*p;
    char key[DH_KEY_MAX];
    bool refuse = false;
    if (h % 3 == 0 && in->redis) {
        /* refuse once: remember it in Redis beside the match */
        redisReply *r =
            redisCommand(in->redis, "HSETNX %s bench_refused 1", dh_key_match(key, am->match_id));
        refuse = r && r->type == REDIS_REPLY_INTEGER && r->integer == 1;
        if (r)
            freeReplyObject(r);
    }
    char wk[16];
    snprintf(wk, sizeof wk, "wk-%d", wi + 1);
    Deckhand__Internal__MatchAdopted ma = DECKHAND__INTERNAL__MATCH_ADOPTED__INIT;
    ma.match_id = am->match_id;
    ma.ok = !refuse;
    ma.error = (char *)(refuse ? "bench refusal" : "");
    ma.worker_id = wk;
    Deckhand__Internal__Internal a = DECKHAND__INTERNAL__INTERNAL__INIT;
    a.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ADOPTED;
    a.match_adopted = &ma;
    intake_send(in->w[wi], &a);
    if (refuse) {
        in->refused_adopt++;
    } else {
        in->adopted++;
        in->last_adopted_ns = dh_now_ns();
    }
}

/* What worker wi got: a StartMatch is answered at once, an AdoptMatch too. */
static void intake_worker_read(intake *in, int wi)
{
    Deckhand__Internal__Internal *m;
    while (dh_zmq_recv(in->w[wi], NULL, &m) == 1) {
        if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_ADOPT_MATCH) {
            intake_adopt(in, wi, m->adopt_match);
        } else if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_START_MATCH) {
            char wk[16];
            snprintf(wk, sizeof wk, "wk-%d", wi + 1);
            intake_store_match(in, m->start_match, wi);
            Deckhand__Internal__MatchStarted ms = DECKHAND__INTERNAL__MATCH_STARTED__INIT;
            ms.match_id = m->start_match->match_id;
            ms.ok = 1;
            ms.worker_id = wk;
            Deckhand__Internal__Internal a = DECKHAND__INTERNAL__INTERNAL__INIT;
            a.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_STARTED;
            a.match_started = &ms;
            intake_send(in->w[wi], &a);
            in->started++;
            in->on_w0 += wi == 0;
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
    zmq_pollitem_t items[INTAKE_GATEWAYS_MAX + INTAKE_WORKERS_MAX];
    int n = 0;
    for (int i = 0; i < in->nw; i++)
        items[n++] = (zmq_pollitem_t){.socket = in->w[i], .events = ZMQ_POLLIN};
    for (int i = 0; i < in->ngw; i++)
        items[n++] = (zmq_pollitem_t){.socket = in->gw[i], .events = ZMQ_POLLIN};
    zmq_poll(items, n, wait_ms);
    for (int i = in->silent0 ? 1 : 0; i < in->nw; i++)
        intake_worker_read(in, i);
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
    for (int i = 0; i < in->nw; i++) {
        char id[16];
        snprintf(id, sizeof id, "wk-%d", i + 1);
        in->w[i] = dh_zmq_socket(in->ctx, ZMQ_DEALER, id, hwm);
        if (!in->w[i] || dh_curve_client(in->w[i], &in->wk_keys) < 0 ||
            zmq_connect(in->w[i], endpoint) < 0)
            return -1;
    }
    for (int i = 0; i < in->ngw; i++) {
        char id[16];
        snprintf(id, sizeof id, "gw-%d", i + 1);
        in->gw[i] = dh_zmq_socket(in->ctx, ZMQ_DEALER, id, hwm);
        if (!in->gw[i] || dh_curve_client(in->gw[i], &in->gw_keys) < 0 ||
            zmq_connect(in->gw[i], endpoint) < 0)
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
    intake in = {.ngw = 2, .n = 10000, .nw = 1};
    long timeout_ms = 60000;
    const char *churn = NULL, *curve_dir = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--matchmaker"))
            endpoint = argv[i + 1];
        else if (!strcmp(argv[i], "--players"))
            in.n = strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--gateways"))
            in.ngw = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--timeout-ms"))
            timeout_ms = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--churn"))
            churn = argv[i + 1];
        else if (!strcmp(argv[i], "--curve-dir"))
            curve_dir = argv[i + 1];
    }
    if (dh_curve_load(&in.gw_keys, DH_ROLE_GATEWAY, curve_dir, !curve_dir) < 0 ||
        dh_curve_load(&in.wk_keys, DH_ROLE_WORKER, curve_dir, !curve_dir) < 0) {
        fprintf(stderr, "mmintake: no CURVE keys in %s\n", curve_dir);
        return 2;
    }
    if (in.ngw < 1 || in.ngw > INTAKE_GATEWAYS_MAX || in.n == 0) {
        fprintf(stderr, "usage: deckhand-mmintake --matchmaker EP --players N [--gateways G]\n");
        return 2;
    }
    if (churn) {
        char host[128] = "127.0.0.1";
        int port = 6379;
        if (sscanf(churn, "redis://%127[^:]:%d", host, &port) < 1 ||
            !(in.redis = redisConnect(host, port)) || in.redis->err) {
            fprintf(stderr, "mmintake: cannot reach redis at %s\n", churn);
            return 1;
        }
        in.nw = INTAKE_WORKERS_MAX;
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
    if (in.redis) {
        in.silent0 = true; /* wk-1 dies: no more beats, nothing read */
        in.silent_ns = dh_now_ns();
        while (in.adopted < in.on_w0 && dh_now_ms() < deadline)
            intake_pump(&in, 20);
        printf("churn: wk-1 had %zu matches; adopted=%zu refused=%zu adopt_messages=%zu "
               "all_adopted_s=%.2f\n",
               in.on_w0, in.adopted, in.refused_adopt, in.adopt_msgs,
               in.last_adopted_ns ? (double)(in.last_adopted_ns - in.silent_ns) / 1e9 : 0.0);
    }
    qsort(in.reply_ms, in.replies, sizeof *in.reply_ms, intake_cmp);
    double secs = (double)(in.last_reply_ns - t0) / 1e9;
    printf("curve=%s players=%zu gateways=%d replies=%zu refused=%zu late_3s=%zu "
           "answered_per_sec=%.0f "
           "reply_p50_ms=%u reply_p99_ms=%u reply_max_ms=%u assigned=%zu last_assigned_s=%.2f\n",
           in.gw_keys.on ? "on" : "off", in.n, in.ngw, in.replies, in.refused, in.late,
           secs > 0 ? (double)in.replies / secs : 0, in.replies ? in.reply_ms[in.replies / 2] : 0,
           in.replies ? in.reply_ms[in.replies * 99 / 100] : 0,
           in.replies ? in.reply_ms[in.replies - 1] : 0, in.assigned,
           in.last_assigned_ns ? (double)(in.last_assigned_ns - t0) / 1e9 : 0.0);
    for (int i = 0; i < in.nw; i++)
        zmq_close(in.w[i]);
    for (int i = 0; i < in.ngw; i++)
        zmq_close(in.gw[i]);
    zmq_ctx_term(in.ctx);
    free(in.sent_ns);
    free(in.reply_ms);
    bool churned = !in.redis || in.adopted >= in.on_w0;
    if (in.redis)
        redisFree(in.redis);
    return in.replies == in.n && in.refused == 0 && churned ? 0 : 1;
}
