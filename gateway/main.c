/*
 * main.c: deckhand-gateway, the process that holds client connections.
 *
 * Flags (docs/deployment.md): --tcp, --ws, --matchmaker, --redis, --id, --token-key,
 * --max-frame, --max-conns, --flood-ban-ms, --http (the operator port, dh_ops.h: ready
 * while listening with a live link to the matchmaker), --token-key-previous[-until]
 * (rotation), --curve-dir / --insecure-internal (the internal links' CURVE keys,
 * dh_curve.h).
 * One libuv loop runs everything; SIGTERM drains (drain.h: stop accepting, players told
 * to Reconnect elsewhere, --drain-ms at most), SIGINT closes the listeners and every
 * connection at once, and the process exits 0 once the loop has nothing left. The
 * modules are listed, top down, in gw.h.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "dh_account.h"
#include "conn.h"
#include "dh_flags.h"
#include "dh_frame.h"
#include "dh_log.h"
#include "dh_sched.h"
#include "flood.h"
#include "dh_secret.h"
#include "drain.h"
#include "inflight.h"
#include "listen.h"
#include "lookup.h"
#include "ops.h"
#include "route.h"
#include "session.h"
#include "static.h"
#include "strand.h"
#include "zsock.h"

#define GW_TICK_MS 250

static void gw_stop(gw *g)
{
    if (g->stopping)
        return;
    g->stopping = true;
    dh_info("stopping: %zu connections", g->nconns);
    listen_stop(g);
    conn_stop(g);
    lookup_stop(g);
    zsock_stop(g);
    uv_close((uv_handle_t *)&g->tick, NULL);
    uv_close((uv_handle_t *)&g->sigint, NULL);
    uv_close((uv_handle_t *)&g->sigterm, NULL);
}

/* SIGTERM drains (drain.h) when --drain-ms allows; SIGINT, a second SIGTERM or
 * --drain-ms 0 stop at once. */
static void gw_on_signal(uv_signal_t *h, int signum)
{
    gw *g = h->data;
    if (signum == SIGTERM && g->drain_ms && !g->draining) {
        drain_start(g);
        ops_publish(g); /* not ready from now, not from the next tick */
        return;
    }
    gw_stop(g);
}

/* The upward calls of the modules below (gw.h): each lower module tells the one above
 * through these, so that no module calls one above it. */
static void gw_wire(gw *g)
{
    g->conn_events.open = session_open;
    g->conn_events.frame = session_on_frame;
    g->conn_events.bad_frame = session_bad_frame;
    g->conn_events.close = session_on_close;
    g->on_internal = backend_on_internal;
    g->command_unsent = route_unsent;
    g->answer = session_answer;
    g->account_done = session_account_done;
}

static void gw_on_tick(uv_timer_t *t)
{
    gw *g = t->data;
    zsock_tick(g);
    strand_tick(g);
    inflight_tick(g);
    lookup_tick(g);
    conn_sweep(g);
    listen_tick(g);
    flood_tick(g);
    guess_tick(&g->guesses, uv_now(g->loop));
    ops_publish(g);
    if (drain_done(g))
        gw_stop(g);
}

/* A token key: the flag, else the environment variable ENV or the file ENV_FILE
 * (dh_secret.h). Its length, 0 when none is set, -1 when unreadable or out of bounds. */
static long gw_token_key(const dh_flags *f, const char *flag, const char *env, char *out,
                         size_t cap)
{
    const char *v = dh_flags_str(f, flag, NULL, NULL);
    long n = v ? (long)snprintf(out, cap, "%s", v) : dh_secret_get(env, out, cap);
    if (n > 0 && (n < DH_TOKEN_KEY_MIN || (size_t)n >= cap)) {
        dh_error("--%s must be %d-%zu characters", flag, DH_TOKEN_KEY_MIN, cap - 1);
        return -1;
    }
    return n;
}

/* The token key ring: --token-key signs (a random key when none is given), and
 * --token-key-previous, the key it replaced, is still accepted until
 * --token-key-previous-until (unix seconds; default: a token lifetime from now, by when
 * every token it signed has expired), so rotating the key logs nobody out. */
static int gw_token_config(gw *g, const dh_flags *f)
{
    char key[DH_TOKEN_KEY_MAX + 1], prev[DH_TOKEN_KEY_MAX + 1];
    long kl = gw_token_key(f, "token-key", "DECKHAND_TOKEN_KEY", key, sizeof key);
    long pl =
        gw_token_key(f, "token-key-previous", "DECKHAND_TOKEN_KEY_PREVIOUS", prev, sizeof prev);
    if (kl < 0 || pl < 0)
        return -1;
    if (kl == 0) {
        if (pl > 0) {
            dh_error("--token-key-previous needs --token-key");
            return -1;
        }
        kl = DH_TOKEN_RANDOM_KEY;
        if (dh_token_random_key((uint8_t *)key, DH_TOKEN_RANDOM_KEY) < 0) {
            dh_error("cannot make a random token key");
            return -1;
        }
        dh_warn("no --token-key: using a random key; tokens will not survive a restart "
                "or work on other gateways");
    }
    if (dh_token_ring_init(&g->tokens, (const uint8_t *)key, (size_t)kl) < 0)
        return -1;
    if (pl > 0) {
        long until =
            dh_flags_int(f, "token-key-previous-until", "DECKHAND_TOKEN_KEY_PREVIOUS_UNTIL",
                         (long)time(NULL) + GW_TOKEN_TTL);
        if (dh_token_ring_set_previous(&g->tokens, (const uint8_t *)prev, (size_t)pl, until) < 0) {
            dh_error("--token-key-previous must differ from --token-key");
            return -1;
        }
        dh_info("token key %s signs; previous key %s accepted until %ld (unix seconds)",
                g->tokens.current.id, g->tokens.previous.id, until);
    } else {
        dh_info("token key %s signs", g->tokens.current.id);
    }
    return 0;
}

/* The web client's files (static.h): --web-dir, else the web/ folder beside the binary's
 * bin/ (build/web when the gateway is build/bin/deckhand-gateway); "none" serves nothing. */
static int gw_web_config(gw *g, const dh_flags *f)
{
    char dir[1024] = "none";
    const char *v = dh_flags_str(f, "web-dir", "DECKHAND_GATEWAY_WEB_DIR", NULL);
    if (v) {
        snprintf(dir, sizeof dir, "%s", v);
    } else {
        ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 16);
        char *slash = n > 0 ? memrchr(dir, '/', (size_t)n) : NULL;
        if (slash)
            strcpy(slash, "/../web");
    }
    if (strcmp(dir, "none") == 0)
        return 0;
    int n = static_load(&g->web, dir);
    if (n < 0)
        return -1;
    if (n == 0)
        dh_warn("no web client in %s: GET / answers 404 (build it, or set --web-dir)", dir);
    else
        dh_info("web client: %d files (%zu bytes) from %s", n, g->web.total, dir);
    return 0;
}

static int gw_config(gw *g, const dh_flags *f)
{
    char host[128] = "localhost";
    char defid[DH_ZMQ_ID_MAX + 1];
    gethostname(host, sizeof host - 1);
    host[sizeof host - 1] = '\0';
    snprintf(defid, sizeof defid, "gw-%s-%d", host, (int)getpid());
    snprintf(g->tcp_addr, sizeof g->tcp_addr, "%s",
             dh_flags_str(f, "tcp", "DECKHAND_GATEWAY_TCP", "127.0.0.1:7000"));
    snprintf(g->ws_addr, sizeof g->ws_addr, "%s",
             dh_flags_str(f, "ws", "DECKHAND_GATEWAY_WS", "127.0.0.1:7001"));
    snprintf(g->mm_endpoint, sizeof g->mm_endpoint, "%s",
             dh_flags_str(f, "matchmaker", "DECKHAND_MATCHMAKER", "tcp://127.0.0.1:5560"));
    snprintf(g->redis_url, sizeof g->redis_url, "%s",
             dh_flags_str(f, "redis", "DECKHAND_REDIS_URL", "redis://127.0.0.1:6390"));
    const char *id = dh_flags_str(f, "id", "DECKHAND_GATEWAY_ID", defid);
    if (!id[0] || strlen(id) > DH_ZMQ_ID_MAX) {
        dh_error("--id must be 1-%d characters", DH_ZMQ_ID_MAX);
        return -1;
    }
    snprintf(g->id, sizeof g->id, "%s", id);
    long max = dh_flags_int(f, "max-frame", "DECKHAND_MAX_FRAME", DH_FRAME_DEFAULT_MAX);
    if (max < 16 || max > (64L << 20)) {
        dh_error("--max-frame must be between 16 and %ld", 64L << 20);
        return -1;
    }
    g->max_frame = (size_t)max;
    struct rlimit rl;
    unsigned long fds = 1024;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
        fds = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (1UL << 24)
                  ? (1UL << 24)
                  : (unsigned long)rl.rlim_cur;
    long conns = dh_flags_int(f, "max-conns", "DECKHAND_GATEWAY_MAX_CONNS",
                              (long)listen_default_max_conns(fds));
    if (conns < 1) {
        dh_error("--max-conns must be at least 1");
        return -1;
    }
    g->max_conns = (size_t)conns;
    long ban = dh_flags_int(f, "flood-ban-ms", "DECKHAND_GATEWAY_FLOOD_BAN_MS", 60000);
    if (ban < 0) {
        dh_error("--flood-ban-ms must not be negative");
        return -1;
    }
    g->flood_ban_ms = (uint64_t)ban;
    long drain = dh_flags_int(f, "drain-ms", "DECKHAND_GATEWAY_DRAIN_MS", GW_DRAIN_MS);
    if (drain < 0 || drain > 3600000) {
        dh_error("--drain-ms must be between 0 and 3600000");
        return -1;
    }
    g->drain_ms = (uint64_t)drain;
    if ((unsigned long)conns + GW_FD_RESERVE > fds)
        dh_warn("--max-conns %ld leaves fewer than %d of the %lu descriptors (ulimit -n) to "
                "ZeroMQ, Redis and the operator port; accepting pauses when they run out",
                conns, GW_FD_RESERVE, fds);
    if (dh_curve_load(&g->curve, DH_ROLE_GATEWAY, dh_flags_str(f, "curve-dir", NULL, NULL),
                      dh_flags_has(f, "insecure-internal")) < 0)
        return -1;
    if (gw_web_config(g, f) < 0)
        return -1;
    return gw_token_config(g, f);
}

static const char gw_usage[] =
    "usage: deckhand-gateway [--tcp HOST:PORT] [--ws HOST:PORT] [--matchmaker ENDPOINT]\n"
    "                        [--redis URL|none] [--id ID] [--token-key KEY] [--max-frame BYTES]\n"
    "                        [--max-conns N] [--flood-ban-ms MS] [--http HOST:PORT]\n"
    "                        [--web-dir DIR|none]\n"
    "Holds client connections (TCP with 4-byte length framing; WebSocket on path /ws) and\n"
    "routes them to the matchmaker and workers. Each flag has an environment equivalent\n"
    "(DECKHAND_GATEWAY_TCP, DECKHAND_GATEWAY_WS, DECKHAND_MATCHMAKER, DECKHAND_REDIS_URL,\n"
    "DECKHAND_GATEWAY_ID, DECKHAND_TOKEN_KEY, DECKHAND_MAX_FRAME, DECKHAND_GATEWAY_MAX_CONNS,\n"
    "DECKHAND_GATEWAY_HTTP); see docs/deployment.md and docs/PROTOCOL.md. --redis none: no\n"
    "Redis lookup of unknown matches. --max-conns: connections past it are refused with\n"
    "OVERLOADED (default: the descriptor limit less a reserve). --flood-ban-ms\n"
    "(DECKHAND_GATEWAY_FLOOD_BAN_MS): how long the address and player of a connection dropped\n"
    "for flooding are refused (default 60000; 0: dropped, not banned). --http: /healthz,\n"
    "/readyz and /metrics (docs/OPERATIONS.md); off by default.\n"
    "Token key rotation: --token-key-previous\n"
    "KEY (DECKHAND_TOKEN_KEY_PREVIOUS) is still accepted until --token-key-previous-until\n"
    "UNIX_SECONDS (default: 24 h from start); every key may come from a file named by\n"
    "DECKHAND_TOKEN_KEY_FILE, DECKHAND_TOKEN_KEY_PREVIOUS_FILE (docs/OPERATIONS.md).\n"
    "--curve-dir DIR (DECKHAND_CURVE_DIR): the cluster's CURVE keys for the links to the\n"
    "matchmaker and workers; --insecure-internal: plaintext links (never in production).\n"
    "--log-format text|json (DECKHAND_LOG_FORMAT): json logs one object per line.\n"
    "--drain-ms MS (DECKHAND_GATEWAY_DRAIN_MS, default 3000): on SIGTERM, stop accepting,\n"
    "tell every player to reconnect to another gateway and exit once they have gone or MS\n"
    "have passed; 0 (or SIGINT, or a second SIGTERM): close every connection at once.\n"
    "--web-dir DIR (DECKHAND_GATEWAY_WEB_DIR): the built web client, served to plain GETs on\n"
    "the WebSocket port (default: web/ beside the binary's folder; none: not served).\n";

static const dh_flag_spec gw_flags[] = {{"tcp", DH_FLAG_VALUE},
                                        {"ws", DH_FLAG_VALUE},
                                        {"matchmaker", DH_FLAG_VALUE},
                                        {"redis", DH_FLAG_VALUE},
                                        {"id", DH_FLAG_VALUE},
                                        {"max-frame", DH_FLAG_INT},
                                        {"token-key", DH_FLAG_VALUE},
                                        {"http", DH_FLAG_VALUE},
                                        {"max-conns", DH_FLAG_INT},
                                        {"flood-ban-ms", DH_FLAG_INT},
                                        {"drain-ms", DH_FLAG_INT},
                                        {"token-key-previous", DH_FLAG_VALUE},
                                        {"token-key-previous-until", DH_FLAG_INT},
                                        {"curve-dir", DH_FLAG_VALUE},
                                        {"insecure-internal", DH_FLAG_SWITCH},
                                        {"log-format", DH_FLAG_VALUE},
                                        {"web-dir", DH_FLAG_VALUE},
                                        {NULL, 0}};

int main(int argc, char **argv)
{
    int rc = 1;
    dh_flags f;
    int done = dh_flags_parse_main(&f, gw_flags, argc, argv, "deckhand-gateway", gw_usage, 0, 0);
    if (done >= 0)
        return done;
    gw *g = calloc(1, sizeof *g);
    if (!g) {
        fprintf(stderr, "gateway: out of memory\n");
        return 1;
    }
    dh_log_init("gateway");
    if (dh_log_set_format(dh_flags_str(&f, "log-format", NULL, NULL)) < 0) {
        fprintf(stderr, "deckhand-gateway: --log-format must be text or json\n");
        free(g);
        return 2;
    }
    if (dh_sched_slice_start() < 0) { /* before any thread starts: they inherit it */
        free(g);
        return 2;
    }
    dh_ops_init(&g->ops);
    signal(SIGPIPE, SIG_IGN);
    if (gw_config(g, &f) < 0)
        goto out;
    g->loop = uv_default_loop();
    if (lookup_init(g) < 0)
        goto out;
    if (dh_account_init() < 0) {
        dh_error("libsodium failed to initialise");
        goto out;
    }
    gw_wire(g);
    if (dh_table_init(&g->players) < 0 || inflight_init(g) < 0 || route_init(g) < 0 ||
        flood_init(g) < 0 || guess_init(&g->guesses) < 0 || zsock_init(g) < 0)
        goto err;
    conn_init(g);
    if (listen_start(g) < 0)
        goto err;
    if (ops_metrics(g) < 0 ||
        dh_ops_start(&g->ops, dh_flags_str(&f, "http", "DECKHAND_GATEWAY_HTTP", NULL)) < 0)
        goto err;
    uv_timer_init(g->loop, &g->tick);
    g->tick.data = g;
    uv_timer_start(&g->tick, gw_on_tick, GW_TICK_MS, GW_TICK_MS);
    uv_signal_init(g->loop, &g->sigint);
    uv_signal_init(g->loop, &g->sigterm);
    g->sigint.data = g->sigterm.data = g;
    uv_signal_start(&g->sigint, gw_on_signal, SIGINT);
    uv_signal_start(&g->sigterm, gw_on_signal, SIGTERM);
    dh_info("listening tcp=%s ws=%s id=%s matchmaker=%s redis=%s max_frame=%zu max_conns=%zu",
            g->tcp_addr, g->ws_addr, g->id, g->mm_endpoint,
            g->redis_enabled ? g->redis_url : "none", g->max_frame, g->max_conns);
    uv_run(g->loop, UV_RUN_DEFAULT);
    dh_info("stopped");
    rc = 0;
    goto done;
err:
    /* Setup failed half way: close whatever handles exist and let the loop settle. */
    g->stopping = false;
    listen_stop(g);
    conn_stop(g);
    if (g->mm)
        zsock_stop(g);
    uv_run(g->loop, UV_RUN_DEFAULT);
done:
    conn_free(g);
    zsock_free(g);
    route_free(g);
    flood_free(g);
    guess_free(&g->guesses);
    inflight_free(g);
    if (g->players.buckets)
        dh_table_free(&g->players, NULL);
    uv_loop_close(g->loop);
out:
    dh_ops_stop(&g->ops);
    static_free(&g->web);
    free(g);
    return rc;
}
