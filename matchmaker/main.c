/*
 * main.c: deckhand-matchmaker, the control-path hub.
 *
 * One ROUTER socket, one poll loop over its ZMQ_FD (wait.h: ZMQ_FD's edge, kept). Gateways bring
 * queue joins, leaves, away and back; workers bring hellos, beats, match starts/ends and adoptions
 * (control.c handles each). The ROUTER reads its peers fairly (one message from each in turn), so a
 * worker's beat waits behind at most a message per gateway, however many joins those hold. Each
 * drain (loop.c: at most LOOP_DRAIN_MAX messages or LOOP_DRAIN_MS) holds its joins; the turn's tick
 * forms matches from them and writes joins and matches in one script, or the turn's end writes the
 * joins alone (loop_finish); only then are they answered. A socket monitor on the ROUTER sees a
 * connection close, and probes find whose (probe.h): a killed worker is dead within milliseconds,
 * and its matches move in that turn's tick. While a drain leaves messages unread the loop is
 * "behind", and silent workers are not declared dead for that long (at most REGISTRY_DEAD_MS more):
 * their beats may be among the unread. Every MM_TICK_MS while work waits, else at the nearest
 * deadline it keeps (mm_next_tick, matchmaker.h), and right after a join, the loop runs mm_tick:
 * the lease, silent workers and the takeover of their matches, stalled placements, away tickets,
 * formation.
 *
 * Tickets and placements live in Redis (state.c), so a restarted matchmaker, or a standby
 * that wins the lease (lease.c), resumes them; workers and gateways are relearnt from
 * their periodic hellos. --redis none keeps everything in memory, with no lease.
 *
 * Flags: --bind, --redis, --id (the name in mm:lease), and the queue settings defaults
 * --grace-ms, --decision-ms, --turn-ms, --abandon bot|forfeit, overridden per queue by
 * --queues FILE (settings.h); --http HOST:PORT, the operator port (dh_ops.h): ready
 * while this matchmaker works (it acts, or it is a standby that reaches Redis), so that
 * a rollout completes; deckhand_matchmaker_lease_held says which one acts. --curve-dir
 * (or DECKHAND_CURVE_*: the cluster's CURVE keys, dh_curve.h): the ROUTER admits only
 * gateways and workers holding the cluster's keys; --insecure-internal runs without.
 * --log-format text|json (DECKHAND_LOG_FORMAT). The admin API rides on the operator port
 * (admin.h), with its tokens from DECKHAND_ADMIN_TOKEN(_FILE); the loop polls its queue
 * beside the ROUTER.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#include "control.h"
#include "dh_clock.h"
#include "dh_curve.h"
#include "dh_flags.h"
#include "dh_log.h"
#include "dh_ops.h"
#include "dh_sched.h"
#include "dh_zap.h"
#include "dh_signal.h"
#include "dh_zmq.h"
#include "loop.h"
#include "matchmaker.h"
#include "mm_admin.h"
#include "probe.h"
#include "mm_social.h"
#include "mm_store.h"
#include "wait.h"

#define HWM              10000
#define REDIS_TIMEOUT_MS 1000

/* The gauges and the probes, once per iteration (cheap: counts the loop keeps). */
static void mm_publish(mm_state *mm, dh_ops *ops, uint64_t now_ms)
{
    size_t alive = 0, slow = 0;
    for (size_t i = 0; i < mm->reg.nworkers; i++) {
        alive += mm->reg.workers[i].alive;
        slow += mm->reg.workers[i].alive && registry_slow(&mm->reg.workers[i]);
    }
    bool acting = mm_acting(mm, now_ms);
    dh_gauge_set(&mm->stats.lease_held, acting);
    dh_gauge_set(&mm->stats.players_waiting, (int64_t)queue_total(mm->queues));
    dh_gauge_set(&mm->stats.placements_pending, (int64_t)mm->placements.n);
    dh_gauge_set(&mm->stats.workers_alive, (int64_t)alive);
    dh_gauge_set(&mm->stats.workers_slow, (int64_t)slow);
    /* Ready = working: acting, or a standby that reaches Redis and so can take the lease
     * over. Which one leads is deckhand_matchmaker_lease_held (k8s/base/matchmaker.yaml
     * routes the Service by it), so a rollout of two replicas completes. */
    bool standby = !acting && mm->redis_on && mm->redis.ctx;
    dh_ops_ready(ops, acting || standby ? NULL
                                        : "Redis is unreachable: neither acting nor able to "
                                          "take over");
    dh_ops_beat(ops);
}

static int mm_metrics(mm_state *mm, dh_metrics *reg, dh_counter *refused)
{
    mm_stats *s = &mm->stats;
    const dh_metric table[] = {
        {"deckhand_internal_auth_refused_total", "",
         "ZeroMQ handshakes refused: a peer without the cluster's CURVE key (dh_zap.h).",
         DH_METRIC_COUNTER, refused},
        {"deckhand_matchmaker_lease_held", "",
         "1 while this matchmaker holds mm:lease and acts, else 0.", DH_METRIC_GAUGE,
         &s->lease_held},
        {"deckhand_matchmaker_players_waiting", "", "Queued players (tickets) waiting for a match.",
         DH_METRIC_GAUGE, &s->players_waiting},
        {"deckhand_matchmaker_placements_pending", "", "StartMatch sent, no MatchStarted yet.",
         DH_METRIC_GAUGE, &s->placements_pending},
        {"deckhand_matchmaker_workers_alive", "", "Workers heard from within the last 1.5 s.",
         DH_METRIC_GAUGE, &s->workers_alive},
        {"deckhand_matchmaker_workers_slow", "",
         "Live workers whose beats say stalled (500 ms in one turn) or without Redis: no new "
         "placements or adoptions on them.",
         DH_METRIC_GAUGE, &s->workers_slow},
        {"deckhand_matchmaker_matches_formed_total", "",
         "Matches formed (StartMatch sent to a worker).", DH_METRIC_COUNTER, &s->matches_formed},
        {"deckhand_matchmaker_matches_started_total", "",
         "Matches a worker confirmed started (MatchStarted ok).", DH_METRIC_COUNTER,
         &s->matches_started},
        {"deckhand_matchmaker_workers_dead_total", "",
         "Workers declared dead (control connection closed, silent 1.5 s, stuck 15 s in one turn, "
         "or stopping).",
         DH_METRIC_COUNTER, &s->workers_dead},
        {"deckhand_matchmaker_matches_moved_total", "",
         "Matches of dead workers moved to another worker (takeovers).", DH_METRIC_COUNTER,
         &s->matches_moved},
        {"deckhand_matchmaker_match_rating_spread", "",
         "Per match formed: the highest minus the lowest rating (mu) of its players.",
         DH_METRIC_HISTOGRAM, &s->match_spread},
        {"deckhand_matchmaker_match_wait_seconds", "",
         "Per player matched: seconds from the join to the match's formation.", DH_METRIC_HISTOGRAM,
         &s->match_wait},
        {"deckhand_matchmaker_redis_seconds", "",
         "Per Redis command or pipeline: seconds waiting for its replies (the round trip).",
         DH_METRIC_HISTOGRAM, &s->redis_seconds},
    };
    int rc = dh_metrics_table(reg, table, sizeof table / sizeof table[0]);
    rc |= dh_metrics_family(reg, "deckhand_matchmaker_game_matches_formed_total",
                            "Matches formed, by game.", &s->game_formed);
    rc |= dh_metrics_family(reg, "deckhand_matchmaker_game_match_rating_spread",
                            "Per match formed: the rating spread (mu), by game.", &s->game_spread);
    rc |= dh_metrics_family(reg, "deckhand_matchmaker_game_queue_wait_seconds",
                            "Per player matched: seconds from the join to the formation, by game.",
                            &s->game_wait);
    return rc;
}

static int mm_run(mm_state *mm, dh_ops *ops, probe *pr)
{
    mm_wait w; /* the ROUTER, the monitor's closed connections, the admin queue (wait.h) */
    if (mm_wait_open(&w, mm->router, pr->mon, ops->admin ? dh_ops_admin_fd(ops->admin) : -1) < 0) {
        dh_error("no ZMQ_FD: %s", zmq_strerror(errno));
        return -1;
    }
    uint64_t next_tick = dh_now_ms();
    while (!dh_signal_stop_asked()) {
        uint64_t now = dh_now_ms();
        long timeout = next_tick > now ? (long)(next_tick - now) : 0;
        if (mm_wait_poll(&w, probe_timeout(pr, now, timeout)) < 0)
            return -1;
        loop_turn turn = loop_drain(mm, dh_now_ms());
        mm_wait_drained(&w, turn.quiet, turn.quiet_sends);
        /* After the drain: whatever a dead worker sent before it died has been read. */
        if (w.mon_due) {
            probe_read(pr, dh_now_ms()); /* until empty: its fd is armed again */
            w.mon_due = false;
        }
        size_t lost = probe_run(pr, mm, dh_now_ms());
        if (w.admin_due)
            admin_serve(mm, ops->admin, dh_now_ms());
        if (mm->admin.n)
            admin_expire(mm, dh_now_ms());
        now = dh_now_ms();
        bool due = now >= next_tick;
        if (turn.form || lost || due)
            mm_tick(mm, now); /* a worker just lost: its matches move in this tick */
        loop_finish(mm, now); /* the joins the tick's pass did not write with its matches */
        mm_publish(mm, ops, now);
        /* the next periodic tick: MM_TICK_MS after this one while work waits (a tick a
         * message brought does not move it), else at the nearest deadline (matchmaker.h) */
        uint64_t next = mm_next_tick(mm, now);
        if (due || next < next_tick)
            next_tick = next;
    }
    dh_ops_ready(ops, "stopping");
    return 0;
}

/* The queue settings: defaults from flags, then the --queues file. */
static int mm_settings(mm_state *mm, const dh_flags *f)
{
    static const struct {
        const char *flag, *env, *key;
    } opts[] = {
        {"grace-ms", "DECKHAND_GRACE_MS", "grace_ms"},
        {"decision-ms", "DECKHAND_DECISION_MS", "decision_ms"},
        {"turn-ms", "DECKHAND_TURN_MS", "turn_ms"},
        {"abandon", "DECKHAND_ABANDON", "abandon"},
    };
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
        const char *v = dh_flags_str(f, opts[i].flag, opts[i].env, NULL);
        if (v && settings_set(&mm->settings.defaults, opts[i].key, v) < 0) {
            dh_error("bad --%s '%s' (milliseconds; --abandon: bot|forfeit)", opts[i].flag, v);
            return -1;
        }
    }
    const char *file = dh_flags_str(f, "queues", "DECKHAND_QUEUES", NULL);
    char err[512];
    if (file && settings_load(&mm->settings, file, err, sizeof err) < 0) {
        dh_error("--queues: %s", err);
        return -1;
    }
    const settings_values *d = &mm->settings.defaults;
    dh_info("queue settings: grace %u ms, decision %u ms, turn %u ms, abandon %s; %zu queues "
            "from %s",
            d->grace_ms, d->decision_ms, d->turn_ms, d->abandon, mm->settings.n,
            file ? file : "no file");
    return 0;
}

static const char mm_usage[] =
    "usage: deckhand-matchmaker [--bind ENDPOINT] [--redis URL] [--id ID] [--http HOST:PORT]\n"
    "                           [--queues FILE] [--grace-ms MS] [--decision-ms MS]\n"
    "                           [--turn-ms MS] [--abandon bot|forfeit]\n"
    "\n"
    "  --bind      ZeroMQ ROUTER endpoint for gateways and workers (DECKHAND_MATCHMAKER_BIND,\n"
    "              tcp://127.0.0.1:5560)\n"
    "  --redis     Redis URL, or none for memory only (DECKHAND_REDIS_URL,\n"
    "              redis://127.0.0.1:6390)\n"
    "  --id        this matchmaker's id (DECKHAND_MATCHMAKER_ID, mm-HOST-PID)\n"
    "  --http      operator port: /healthz, /readyz, /metrics and the admin API\n"
    "              (DECKHAND_MATCHMAKER_HTTP; its tokens: DECKHAND_ADMIN_TOKEN(_FILE))\n"
    "  --queues    the queue settings file (DECKHAND_QUEUES; docs/deployment.md)\n"
    "  --grace-ms, --decision-ms, --turn-ms, --abandon\n"
    "              defaults for every queue (DECKHAND_GRACE_MS, ...)\n"
    "  --curve-dir the cluster's CURVE keys (DECKHAND_CURVE_DIR; docs/OPERATIONS.md)\n"
    "  --insecure-internal  no CURVE: anyone reaching --bind may act as a worker or gateway\n"
    "  --log-format text or json, one object per line (DECKHAND_LOG_FORMAT, text)\n";

static const dh_flag_spec mm_flags[] = {{"bind", DH_FLAG_VALUE},
                                        {"redis", DH_FLAG_VALUE},
                                        {"id", DH_FLAG_VALUE},
                                        {"http", DH_FLAG_VALUE},
                                        {"queues", DH_FLAG_VALUE},
                                        {"grace-ms", DH_FLAG_VALUE},
                                        {"decision-ms", DH_FLAG_VALUE},
                                        {"turn-ms", DH_FLAG_VALUE},
                                        {"abandon", DH_FLAG_VALUE},
                                        {"curve-dir", DH_FLAG_VALUE},
                                        {"insecure-internal", DH_FLAG_SWITCH},
                                        {"log-format", DH_FLAG_VALUE},
                                        {NULL, 0}};

int main(int argc, char **argv)
{
    dh_flags f;
    int done = dh_flags_parse_main(&f, mm_flags, argc, argv, "deckhand-matchmaker", mm_usage, 0, 0);
    if (done >= 0)
        return done;
    const char *bind = dh_flags_str(&f, "bind", "DECKHAND_MATCHMAKER_BIND", "tcp://127.0.0.1:5560");
    const char *redis_url =
        dh_flags_str(&f, "redis", "DECKHAND_REDIS_URL", "redis://127.0.0.1:6390");
    char default_id[LEASE_ID_MAX], hostname[64] = "host";
    gethostname(hostname, sizeof hostname - 1);
    hostname[sizeof hostname - 1] = '\0';
    snprintf(default_id, sizeof default_id, "mm-%s-%d", hostname, (int)getpid());
    const char *id = dh_flags_str(&f, "id", "DECKHAND_MATCHMAKER_ID", default_id);
    const char *http = dh_flags_str(&f, "http", "DECKHAND_MATCHMAKER_HTTP", NULL);
    dh_log_init("matchmaker");
    if (dh_log_set_format(dh_flags_str(&f, "log-format", NULL, NULL)) < 0) {
        fprintf(stderr, "deckhand-matchmaker: --log-format must be text or json\n");
        return 2;
    }
    if (dh_sched_slice_start() < 0) /* before any thread starts: they inherit it */
        return 2;
    int rc = 1;
    void *ctx = NULL;
    mm_state mm;
    dh_ops ops;
    dh_curve curve;
    dh_zap *zap = NULL;
    dh_counter no_zap = 0;
    probe pr = {0};
    dh_ops_init(&ops);
    if (!id[0] || strlen(id) >= LEASE_ID_MAX) {
        dh_error("--id must be 1-%d characters", LEASE_ID_MAX - 1);
        memset(&mm, 0, sizeof mm);
        goto err;
    }
    if (mm_init(&mm, id, redis_url, REDIS_TIMEOUT_MS) < 0) {
        dh_error("cannot set up (bad --redis URL '%s', or out of memory)", redis_url);
        goto err;
    }
    social_init(&mm);
    if (mm_settings(&mm, &f) < 0)
        goto err;
    if (dh_curve_load(&curve, DH_ROLE_MATCHMAKER, dh_flags_str(&f, "curve-dir", NULL, NULL),
                      dh_flags_has(&f, "insecure-internal")) < 0)
        goto err;
    ctx = zmq_ctx_new();
    if (!ctx || (curve.on && !(zap = dh_zap_start(ctx, &curve))))
        goto err;
    mm.router = dh_zmq_socket(ctx, ZMQ_ROUTER, NULL, HWM);
    if (!mm.router || dh_curve_server(mm.router, &curve, zap, DH_CURVE_DOMAIN_MATCHMAKER) < 0)
        goto err;
    /* A worker or gateway that restarts under its id takes its route over at once, even
     * while the dead connection has not been noticed yet (else ZeroMQ refuses it). */
    int one = 1;
    zmq_setsockopt(mm.router, ZMQ_ROUTER_HANDOVER, &one, sizeof one);
    if (zmq_bind(mm.router, bind) < 0) {
        dh_error("cannot bind %s: %s", bind, zmq_strerror(errno));
        goto err;
    }
    dh_signal_on_stop(false);
    dh_admin_auth admin_auth;
    if (dh_admin_auth_load(&admin_auth) < 0 || dh_ops_admin_on(&ops, &admin_auth) < 0)
        goto err;
    if (mm_metrics(&mm, &ops.metrics, zap ? dh_zap_refused(zap) : &no_zap) < 0 ||
        dh_metrics_counter(&ops.metrics, "deckhand_admin_refused_total", "",
                           "Admin API requests refused for a missing or wrong token (401).",
                           &ops.admin->refused) < 0 ||
        dh_ops_start(&ops, http) < 0)
        goto err;
    dh_info("%s listening %s, redis %s", mm.id, bind,
            mm.redis_on ? redis_url : "none (memory only)");
    probe_open(&pr, ctx, mm.router); /* without it, silence alone tells a death (logged) */
    if (mm_run(&mm, &ops, &pr) == 0) {
        dh_info("stopping: %zu players waiting, %zu placements pending", queue_total(mm.queues),
                mm.placements.n);
        lease_release(&mm, dh_now_ms());
        rc = 0;
    }
err:
    if (rc)
        dh_error("matchmaker failed to start or crashed out of its loop");
    admin_free(&mm); /* shows still waiting for a worker get 503 */
    dh_ops_stop(&ops);
    probe_close(&pr);
    if (mm.router)
        zmq_close(mm.router);
    dh_zap_stop(zap);
    if (ctx)
        zmq_ctx_term(ctx);
    social_free(&mm);
    mm_free(&mm);
    return rc;
}
