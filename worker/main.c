/*
 * main.c: deckhand-worker, the process that hosts matches.
 *
 * Flags (docs/deployment.md): --bind (ROUTER for gateways' data path), --id,
 * --matchmaker (DEALER for the control path), --redis, --scripts, --capacity; and
 * --endpoint (DECKHAND_WORKER_ENDPOINT), the address gateways should connect to when it
 * differs from the bound one (a wildcard bind in a container), default: what was bound;
 * --http (DECKHAND_WORKER_HTTP), the operator port (dh_ops.h): ready once it has beaten
 * to the matchmaker with Redis reachable, until SIGTERM; --curve-dir (DECKHAND_CURVE_*,
 * dh_curve.h): the cluster's CURVE keys, so that only gateways holding the cluster's key
 * reach the ROUTER and the matchmaker knows this worker (--insecure-internal: no CURVE).
 *
 * One zmq_poll loop; each wake-up runs one turn of worker_loop.c: it reads what waits on
 * both sockets (StartMatch from the matchmaker, PlayerCommands from gateways into a
 * bounded inbox), lets the host work them in a time-bounded batch, then flushes: every
 * Redis write of the batch goes out as one pipeline and only then are the outputs
 * released (host.h). Every WORKER_BEAT_MS its beat thread (beat.c) beats to the matchmaker
 * on a socket of its own, whatever the loop is doing; the loop renews its worker:{ID}
 * lease every WORKER_LEASE_RENEW, and every WORKER_HELLO_MS it repeats its
 * WorkerHello unless the matchmaker says it holds it (beat.c: a restarted one asks). It follows the
 * current script bundles in Redis (bundles.h): the poll also waits on the subscription
 * that announces a change, which the next turn reads first.
 *
 * The layout, top down: main.c (flags, set-up, the poll); worker_loop.c (one turn, the
 * lease's timing); beat.c (the beat thread); the process state, the host (out.h, host.h);
 * worker_control.c, which hands what the matchmaker and gateways send to the host, through inbox.c;
 * the host's modules (host*.c), which do the work on store.c (Redis) and bundles.c (script
 * bundles); replay.c, the replays served to players beside them (a bounded share of each turn);
 * worker_metrics.c, the operator port (docs/common.md, "The
 * worker's files").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#include "bundles.h"
#include "worker.h"
#include "dh_clock.h"
#include "dh_curve.h"
#include "dh_flags.h"
#include "dh_log.h"
#include "dh_ops.h"
#include "dh_sched.h"
#include "dh_signal.h"
#include "dh_zap.h"
#include "dh_zmq.h"
#include "engine.h"
#include "host.h"
#include "out.h"
#include "store.h"

#define REDIS_TIMEOUT_MS 1000
#define HWM              10000
#define GAMES_MAX        32

static int worker_run(host *h, dh_ops *ops, dh_gauge *active, size_t inbox_max, beat *b)
{
    worker_loop l;
    worker_loop_init(&l, dh_now_ms(), inbox_max);
    l.beat = b;
    int rc = 0;
    while (!dh_signal_stop_asked() && !h->drain_asked) {
        /* the third: bundle changes announced (bundles.h), while subscribed */
        zmq_pollitem_t items[] = {
            {.socket = h->dealer, .events = ZMQ_POLLIN},
            {.socket = h->router, .events = ZMQ_POLLIN},
            {.fd = h->bs ? bundles_announce_fd(h->bs) : -1, .events = ZMQ_POLLIN},
        };
        if (zmq_poll(items, items[2].fd >= 0 ? 3 : 2, worker_loop_timeout(&l, dh_now_ms())) < 0) {
            if (errno == EINTR)
                continue;
            dh_error("zmq_poll: %s", zmq_strerror(errno));
            rc = -1;
            break;
        }
        l.announced = items[2].fd >= 0 && (items[2].revents & ZMQ_POLLIN);
        worker_loop_turn(&l, h);
        worker_metrics_publish(h, ops, active, worker_loop_beaten(&l));
    }
    if (rc == 0) {
        dh_ops_ready(ops, "stopping");
        worker_loop_stop(&l, h);
    }
    worker_loop_free(&l);
    return rc;
}

/* The endpoint gateways should connect to: what the socket actually bound (so a
 * wildcard port like tcp://127.0.0.1:* is resolved). */
static void worker_endpoint(void *router, const char *bind, char *out, size_t cap)
{
    size_t len = cap;
    if (zmq_getsockopt(router, ZMQ_LAST_ENDPOINT, out, &len) < 0 || !out[0])
        snprintf(out, cap, "%s", bind);
}

static const char worker_usage[] =
    "usage: deckhand-worker [--bind ENDPOINT] [--endpoint ENDPOINT] [--matchmaker ENDPOINT]\n"
    "                       [--redis URL] [--scripts DIR] [--capacity N] [--id ID]\n"
    "                       [--http HOST:PORT] [--inbox-max N] [--quarantine-after K]\n"
    "                       [--max-spectators N] [--spectator-delay-ms MS]\n"
    "                       [--snapshot-every N] [--snapshot-codec zstd|zlib]\n"
    "                       [--fence-per-turn]\n"
    "\n"
    "  --bind        ZeroMQ ROUTER endpoint gateways connect to (DECKHAND_WORKER_BIND,\n"
    "                tcp://127.0.0.1:5570)\n"
    "  --endpoint    the endpoint to advertise when it differs from --bind\n"
    "                (DECKHAND_WORKER_ENDPOINT)\n"
    "  --matchmaker  the matchmaker's endpoint (DECKHAND_MATCHMAKER, tcp://127.0.0.1:5560)\n"
    "  --redis       Redis URL (DECKHAND_REDIS_URL, redis://127.0.0.1:6390)\n"
    "  --scripts     the embedded default bundle's folder (DECKHAND_SCRIPTS, ./scripts)\n"
    "  --capacity    most matches hosted at once (DECKHAND_WORKER_CAPACITY, 1000)\n"
    "  --id          this worker's id, at most 250 characters (DECKHAND_WORKER_ID,\n"
    "                wk-HOST-PID)\n"
    "  --http        operator port: /healthz, /readyz, /metrics (DECKHAND_WORKER_HTTP)\n"
    "  --inbox-max   commands queued before more are refused OVERLOADED (never the\n"
    "                gateway's attaches) (DECKHAND_WORKER_INBOX_MAX, 1000)\n"
    "  --quarantine-after  a match whose default answers fail in a card script K times\n"
    "                in a row ends as a script error (DECKHAND_WORKER_QUARANTINE_AFTER, 3)\n"
    "  --snapshot-every  a match's snapshot is written to Redis every N turn boundaries,\n"
    "                its answers logged between (DECKHAND_WORKER_SNAPSHOT_EVERY, 8)\n"
    "  --snapshot-codec  how snapshots are compressed: zstd, or zlib, which workers of a\n"
    "                release before zstd can read (DECKHAND_WORKER_SNAPSHOT_CODEC, zstd)\n"
    "  --fence-per-turn  a loop turn's commits check the worker's move token once instead of\n"
    "                each match's owner; only once every matchmaker deletes it on a move\n"
    "                (DECKHAND_WORKER_FENCE_PER_TURN=1; docs/OPERATIONS.md)\n"
    "  --log-in-history  a match's answers stored once, on its history: the snapshot names\n"
    "                where its log starts there; only once no worker of a release before\n"
    "                runs (DECKHAND_WORKER_LOG_IN_HISTORY=1; docs/OPERATIONS.md)\n"
    "  --max-spectators  watchers per match; more get FULL (DECKHAND_MAX_SPECTATORS, 32)\n"
    "  --spectator-delay-ms  how far behind its match a spectator's frame is released\n"
    "                (DECKHAND_SPECTATOR_DELAY_MS, 10000)\n"
    "  --curve-dir   the cluster's CURVE keys (DECKHAND_CURVE_DIR; docs/OPERATIONS.md)\n"
    "  --insecure-internal  no CURVE on the ZeroMQ sockets (never in production)\n"
    "  --log-format  text or json, one object per line (DECKHAND_LOG_FORMAT, text)\n";

static const dh_flag_spec worker_flags[] = {{"bind", DH_FLAG_VALUE},
                                            {"matchmaker", DH_FLAG_VALUE},
                                            {"redis", DH_FLAG_VALUE},
                                            {"scripts", DH_FLAG_VALUE},
                                            {"capacity", DH_FLAG_INT},
                                            {"id", DH_FLAG_VALUE},
                                            {"endpoint", DH_FLAG_VALUE},
                                            {"http", DH_FLAG_VALUE},
                                            {"log-format", DH_FLAG_VALUE},
                                            {"inbox-max", DH_FLAG_INT},
                                            {"quarantine-after", DH_FLAG_INT},
                                            {"snapshot-every", DH_FLAG_INT},
                                            {"snapshot-codec", DH_FLAG_VALUE},
                                            {"fence-per-turn", DH_FLAG_SWITCH},
                                            {"log-in-history", DH_FLAG_SWITCH},
                                            {"max-spectators", DH_FLAG_INT},
                                            {"spectator-delay-ms", DH_FLAG_INT},
                                            {"curve-dir", DH_FLAG_VALUE},
                                            {"insecure-internal", DH_FLAG_SWITCH},
                                            {NULL, 0}};

int main(int argc, char **argv)
{
    dh_flags f;
    int done =
        dh_flags_parse_main(&f, worker_flags, argc, argv, "deckhand-worker", worker_usage, 0, 0);
    if (done >= 0)
        return done;
    const char *bind = dh_flags_str(&f, "bind", "DECKHAND_WORKER_BIND", "tcp://127.0.0.1:5570");
    const char *mm_addr =
        dh_flags_str(&f, "matchmaker", "DECKHAND_MATCHMAKER", "tcp://127.0.0.1:5560");
    const char *redis_url =
        dh_flags_str(&f, "redis", "DECKHAND_REDIS_URL", "redis://127.0.0.1:6390");
    const char *scripts = dh_flags_str(&f, "scripts", "DECKHAND_SCRIPTS", "./scripts");
    long capacity = dh_flags_int(&f, "capacity", "DECKHAND_WORKER_CAPACITY", 1000);
    long quarantine = dh_flags_int(&f, "quarantine-after", "DECKHAND_WORKER_QUARANTINE_AFTER",
                                   HOST_QUARANTINE_AFTER);
    long snap_every =
        dh_flags_int(&f, "snapshot-every", "DECKHAND_WORKER_SNAPSHOT_EVERY", HOST_SNAPSHOT_EVERY);
    const char *snap_codec =
        dh_flags_str(&f, "snapshot-codec", "DECKHAND_WORKER_SNAPSHOT_CODEC", "zstd");
    const char *fence_env = getenv("DECKHAND_WORKER_FENCE_PER_TURN");
    bool fence_per_turn =
        dh_flags_has(&f, "fence-per-turn") || (fence_env && !strcmp(fence_env, "1"));
    const char *tail_env = getenv("DECKHAND_WORKER_LOG_IN_HISTORY");
    bool log_in_history =
        dh_flags_has(&f, "log-in-history") || (tail_env && !strcmp(tail_env, "1"));
    char default_id[128], hostname[64] = "host";
    gethostname(hostname, sizeof hostname - 1);
    snprintf(default_id, sizeof default_id, "wk-%s-%d", hostname, (int)getpid());
    const char *id = dh_flags_str(&f, "id", "DECKHAND_WORKER_ID", default_id);
    const char *advertise = dh_flags_str(&f, "endpoint", "DECKHAND_WORKER_ENDPOINT", NULL);
    const char *http = dh_flags_str(&f, "http", "DECKHAND_WORKER_HTTP", NULL);
    long inbox_max = dh_flags_int(&f, "inbox-max", "DECKHAND_WORKER_INBOX_MAX", INBOX_MAX);
    long max_spectators =
        dh_flags_int(&f, "max-spectators", "DECKHAND_MAX_SPECTATORS", OUT_WATCH_MAX_DEFAULT);
    long spectator_delay = dh_flags_int(&f, "spectator-delay-ms", "DECKHAND_SPECTATOR_DELAY_MS",
                                        OUT_WATCH_DELAY_DEFAULT);

    char component[160];
    snprintf(component, sizeof component, "worker %s", id);
    dh_log_init(component);
    if (dh_log_set_format(dh_flags_str(&f, "log-format", NULL, NULL)) < 0) {
        fprintf(stderr, "deckhand-worker: --log-format must be text or json\n");
        return 2;
    }
    if (dh_sched_slice_start() < 0) /* before any thread starts: they inherit it */
        return 2;

    int rc = 1;
    void *ctx = NULL, *router = NULL, *dealer = NULL;
    beat *bt = NULL;
    engine_bundle *bundle = NULL;
    store st;
    host h;
    bundles bs;
    replays rp;
    char endpoint[256] = "";
    bool store_ready = false, host_ready = false, bundles_ready = false;
    dh_ops ops;
    dh_gauge active = 0;
    dh_curve curve;
    dh_zap *zap = NULL;
    dh_counter no_zap = 0; /* the metric's value when CURVE is off */
    dh_ops_init(&ops);

    if (max_spectators < 0 || max_spectators > OUT_WATCH_MAX_LIMIT) {
        dh_error("bad --max-spectators %ld (0..%d)", max_spectators, OUT_WATCH_MAX_LIMIT);
        goto err;
    }
    if (spectator_delay < 0 || spectator_delay > OUT_WATCH_DELAY_LIMIT) {
        dh_error("bad --spectator-delay-ms %ld (0..%d)", spectator_delay, OUT_WATCH_DELAY_LIMIT);
        goto err;
    }
    if (capacity <= 0 || capacity > 1000000) {
        dh_error("bad --capacity %ld", capacity);
        goto err;
    }
    if (inbox_max <= 0 || inbox_max > 1000000) {
        dh_error("bad --inbox-max %ld", inbox_max);
        goto err;
    }
    if (quarantine < 1 || quarantine > 1000) {
        dh_error("bad --quarantine-after %ld (1..1000)", quarantine);
        goto err;
    }
    if (snap_every < 1 || snap_every > 1000) {
        dh_error("bad --snapshot-every %ld (1..1000)", snap_every);
        goto err;
    }
    if (strcmp(snap_codec, "zstd") && strcmp(snap_codec, "zlib")) {
        dh_error("bad --snapshot-codec %s (zstd or zlib)", snap_codec);
        goto err;
    }
    if (strlen(id) > DH_ZMQ_ID_MAX - strlen(BEAT_ID_SUFFIX) || !*id) {
        dh_error("bad --id");
        goto err;
    }
    if (store_init(&st, redis_url, REDIS_TIMEOUT_MS) < 0) {
        dh_error("bad --redis URL %s", redis_url);
        goto err;
    }
    store_ready = true;
    st.snap_codec = strcmp(snap_codec, "zlib") ? DH_SNAPZ_ZSTD : DH_SNAPZ_ZLIB;
    st.fence_per_turn = fence_per_turn;
    engine_error ee = {0};
    bundle = engine_bundle_load(scripts, NULL, &ee);
    if (!bundle) {
        dh_error("cannot load scripts from %s: %s", scripts, ee.message);
        goto err;
    }
    if (bundles_init(&bs, id, redis_url, REDIS_TIMEOUT_MS, bundle, WORKER_LEASE_MS) < 0) {
        dh_error("cannot set up the bundles");
        goto err;
    }
    bundles_ready = true;
    if (dh_curve_load(&curve, DH_ROLE_WORKER, dh_flags_str(&f, "curve-dir", NULL, NULL),
                      dh_flags_has(&f, "insecure-internal")) < 0)
        goto err;
    ctx = zmq_ctx_new();
    if (!ctx || (curve.on && !(zap = dh_zap_start(ctx, &curve))))
        goto err;
    router = dh_zmq_socket(ctx, ZMQ_ROUTER, NULL, HWM);
    dealer = dh_zmq_socket(ctx, ZMQ_DEALER, id, HWM);
    if (!router || !dealer || dh_curve_server(router, &curve, zap, DH_CURVE_DOMAIN_WORKER) < 0 ||
        dh_curve_client(dealer, &curve) < 0)
        goto err;
    /* a gateway that restarts under its id takes its route over at once */
    int one = 1;
    zmq_setsockopt(router, ZMQ_ROUTER_HANDOVER, &one, sizeof one);
    if (zmq_bind(router, bind) < 0) {
        dh_error("cannot bind %s: %s", bind, zmq_strerror(errno));
        goto err;
    }
    if (zmq_connect(dealer, mm_addr) < 0) {
        dh_error("cannot connect to the matchmaker at %s: %s", mm_addr, zmq_strerror(errno));
        goto err;
    }
    if (advertise)
        snprintf(endpoint, sizeof endpoint, "%s", advertise);
    else
        worker_endpoint(router, bind, endpoint, sizeof endpoint);
    if (strstr(endpoint, "0.0.0.0") || strchr(endpoint, '*'))
        dh_warn("advertising %s, which gateways elsewhere cannot reach: set --endpoint", endpoint);
    host_init(&h, id, endpoint, router, dealer, bundle, &st, (uint32_t)capacity);
    host_set_bundles(&h, &bs);
    replays_init(&rp);
    h.rp = &rp;
    h.quarantine_after = (uint32_t)quarantine;
    h.snap_every = (uint32_t)snap_every;
    h.log_in_history = log_in_history;
    host_ready = true;
    if (host_stall_start(&h, redis_url, REDIS_TIMEOUT_MS) < 0)
        goto err;
    if (out_watch_init(&h, (uint32_t)max_spectators, (uint64_t)spectator_delay) < 0)
        goto err;

    dh_signal_on_stop(true);
    const dh_metric auth[] = {
        {"deckhand_internal_auth_refused_total", "",
         "ZeroMQ handshakes refused: a peer without the cluster's CURVE key (dh_zap.h).",
         DH_METRIC_COUNTER, zap ? dh_zap_refused(zap) : &no_zap},
    };
    if (worker_metrics_register(&h, &bs, &ops, &active) < 0 ||
        dh_metrics_table(&ops.metrics, auth, 1) < 0 || dh_ops_start(&ops, http) < 0)
        goto err;

    engine_game_info games[GAMES_MAX];
    size_t ngames = engine_bundle_games(bundle, games, GAMES_MAX);
    dh_info("serving %zu games (bundle %.12s) on %s, matchmaker %s, redis %s", ngames,
            engine_bundle_id(bundle), endpoint, mm_addr, redis_url);
    if (!(bt = beat_start(ctx, id, mm_addr, &curve)))
        goto err;
    if (worker_run(&h, &ops, &active, (size_t)inbox_max, bt) == 0) {
        dh_info("stopping with %zu matches", host_active(&h));
        rc = 0;
    }
err:
    beat_free(bt);
    dh_ops_stop(&ops);
    if (host_ready) {
        replays_free(&h, &rp);
        host_flush(&h, dh_now_ms());
        host_free(&h);
        out_watch_free(&h);
    }
    if (router)
        zmq_close(router);
    if (dealer) {
        int linger = 500; /* give the draining beat a moment to leave */
        zmq_setsockopt(dealer, ZMQ_LINGER, &linger, sizeof linger);
        zmq_close(dealer);
    }
    dh_zap_stop(zap);
    if (ctx)
        zmq_ctx_term(ctx);
    if (bundles_ready)
        bundles_free(&bs);
    if (bundle)
        engine_bundle_free(bundle);
    if (store_ready)
        store_close(&st);
    return rc;
}
