/*
 * bench_zmq_curve.c: what CURVE costs on an internal link (docs/BENCHMARKS.md). A DEALER
 * (a gateway) and a ROUTER (a worker) in one process over TCP on 127.0.0.1, with the
 * project's socket defaults (dh_zmq_socket) and, with --curve, the cluster's CURVE setup
 * (dh_curve_server behind the ZAP handler, dh_curve_client). Two figures:
 *   rtt     one PlayerCommand-sized message (SIZE bytes) there and back, N times in turn:
 *           median and 99th percentile microseconds
 *   stream  N messages of SIZE bytes one way as fast as they go: messages per second
 * Usage: bench_zmq_curve [--curve] [N] [SIZE]   (default 20000 messages of 120 bytes)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "dh_clock.h"
#include "dh_curve.h"
#include "dh_zap.h"
#include "dh_zmq.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t now_us(void)
{
    return dh_now_ns() / 1000u;
}

int main(int argc, char **argv)
{
    int a = 1;
    bool curve = argc > 1 && strcmp(argv[1], "--curve") == 0;
    a += curve;
    int n = argc > a ? atoi(argv[a]) : 20000;
    size_t size = argc > a + 1 ? (size_t)atoi(argv[a + 1]) : 120;
    if (n <= 0 || size == 0 || size > 1 << 20)
        return 2;
    void *ctx = zmq_ctx_new();
    dh_curve keys = {.on = curve, .role = DH_ROLE_WORKER};
    char gw_secret[41];
    dh_zap *zap = NULL;
    if (curve) {
        zmq_curve_keypair(keys.server_public, keys.server_secret);
        zmq_curve_keypair(keys.gateway_public, gw_secret);
        zap = dh_zap_start(ctx, &keys);
    }
    void *router = dh_zmq_socket(ctx, ZMQ_ROUTER, NULL, 100000);
    void *dealer = dh_zmq_socket(ctx, ZMQ_DEALER, "gw-bench", 100000);
    dh_curve client = {.on = curve, .role = DH_ROLE_GATEWAY};
    memcpy(client.server_public, keys.server_public, sizeof client.server_public);
    memcpy(client.own_public, keys.gateway_public, sizeof client.own_public);
    memcpy(client.own_secret, gw_secret, sizeof client.own_secret);
    char ep[128];
    size_t eplen = sizeof ep;
    if (dh_curve_server(router, &keys, zap, DH_CURVE_DOMAIN_WORKER) < 0 ||
        dh_curve_client(dealer, &client) < 0 || zmq_bind(router, "tcp://127.0.0.1:*") < 0 ||
        zmq_getsockopt(router, ZMQ_LAST_ENDPOINT, ep, &eplen) < 0 || zmq_connect(dealer, ep) < 0)
        return 1;
    char *buf = calloc(1, size), id[256];
    uint64_t *rtt = calloc((size_t)n, sizeof *rtt);
    /* one round trip first: the handshake is not measured */
    zmq_send(dealer, buf, size, 0);
    zmq_recv(router, id, sizeof id, 0);
    zmq_recv(router, buf, size, 0);
    for (int i = 0; i < n; i++) {
        uint64_t t = now_us();
        zmq_send(dealer, buf, size, 0);
        int idlen = zmq_recv(router, id, sizeof id, 0);
        zmq_recv(router, buf, size, 0);
        zmq_send(router, id, (size_t)idlen, ZMQ_SNDMORE);
        zmq_send(router, buf, size, 0);
        zmq_recv(dealer, buf, size, 0);
        rtt[i] = now_us() - t;
    }
    qsort(rtt, (size_t)n, sizeof *rtt, cmp_u64);
    uint64_t t0 = now_us();
    for (int i = 0; i < n; i++) {
        zmq_send(dealer, buf, size, 0);
        zmq_recv(router, id, sizeof id, 0);
        zmq_recv(router, buf, size, 0);
    }
    double secs = (double)(now_us() - t0) / 1e6;
    printf("%s size=%zu n=%d rtt_median_us=%llu rtt_p99_us=%llu stream_msgs_per_s=%.0f\n",
           curve ? "curve" : "plain", size, n, (unsigned long long)rtt[n / 2],
           (unsigned long long)rtt[n * 99 / 100], n / secs);
    free(rtt);
    free(buf);
    zmq_close(router);
    zmq_close(dealer);
    dh_zap_stop(zap);
    zmq_ctx_term(ctx);
    return 0;
}
