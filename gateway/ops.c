/*
 * ops.c: the gateway's side of the operator port (--http, common/dh_ops.h): the metrics
 * it registers (docs/OPERATIONS.md lists them) and, every tick, the gauges and the
 * readiness probe (ready while listening with a live link to the matchmaker).
 */
#include "ops.h"

#include "conn.h"
#include "zsock.h"

int ops_metrics(gw *g)
{
    gw_stats *s = &g->stats;
    dh_histogram_init(&s->command_seconds, dh_metrics_latency_bounds, dh_metrics_latency_n);
    dh_histogram_init(&s->redis_seconds, dh_metrics_latency_bounds, dh_metrics_latency_n);
    const dh_metric traffic[] = {
        {"deckhand_gateway_connections", "transport=\"tcp\"",
         "Client connections open, by transport.", DH_METRIC_GAUGE, &s->conns[CONN_TCP]},
        {"deckhand_gateway_connections", "transport=\"ws\"",
         "Client connections open, by transport.", DH_METRIC_GAUGE, &s->conns[CONN_WS]},
        {"deckhand_gateway_logins_total", "",
         "Logins answered with a Welcome (new players and resumes).", DH_METRIC_COUNTER,
         &s->logins},
        {"deckhand_gateway_frames_in_total", "", "Client messages received.", DH_METRIC_COUNTER,
         &s->frames_in},
        {"deckhand_gateway_frames_out_total", "", "Messages sent to clients.", DH_METRIC_COUNTER,
         &s->frames_out},
        {"deckhand_gateway_bad_frames_total", "",
         "Frames refused with BAD_FRAME (oversized, text, undecodable); "
         "the connection is closed.",
         DH_METRIC_COUNTER, &s->bad_frames},
        {"deckhand_gateway_connections_refused_total", "",
         "Connections refused at --max-conns (OVERLOADED, then closed).", DH_METRIC_COUNTER,
         &s->refused},
        {"deckhand_gateway_floods_total", "",
         "Connections dropped for flooding past their rate limit (then banned for "
         "--flood-ban-ms).",
         DH_METRIC_COUNTER, &s->floods},
        {"deckhand_gateway_flood_bans_refused_total", "",
         "Connections and resumed logins refused while their address or player is banned for "
         "flooding.",
         DH_METRIC_COUNTER, &s->banned},
        {"deckhand_gateway_code_join_failures_total", "",
         "PartyJoin and LobbyJoin the matchmaker answered NOT_FOUND: wrong codes (guess.h).",
         DH_METRIC_COUNTER, &g->guesses.failed},
        {"deckhand_gateway_code_joins_throttled_total", "",
         "PartyJoin and LobbyJoin refused RATE_LIMITED while their address or player waits "
         "after wrong codes.",
         DH_METRIC_COUNTER, &g->guesses.refused},
        {"deckhand_gateway_rate_limited_silent_total", "",
         "Messages refused past the rate limit without a Reply (a connection deep in refusals).",
         DH_METRIC_COUNTER, &s->rate_silent},
        {"deckhand_gateway_accept_pauses_total", "",
         "Times accepting paused for lack of file descriptors.", DH_METRIC_COUNTER,
         &s->accept_pauses},
        {"deckhand_gateway_commands_forwarded_total", "",
         "Choose and Resync commands forwarded to a worker.", DH_METRIC_COUNTER, &s->commands},
    };
    const dh_metric matches[] = {
        {"deckhand_gateway_match_assignments_total", "",
         "Players of this gateway placed in a match (MatchAssigned).", DH_METRIC_COUNTER,
         &s->assignments},
        {"deckhand_gateway_match_routes", "", "Matches this gateway knows the worker of.",
         DH_METRIC_GAUGE, &s->routes},
        {"deckhand_gateway_command_seconds", "",
         "Per Choose or Resync answered: seconds from forwarding it to a worker to relaying "
         "the worker's Reply.",
         DH_METRIC_HISTOGRAM, &s->command_seconds},
        {"deckhand_gateway_redis_seconds", "",
         "Per Redis command (route lookups, accounts, boards): its round trip.",
         DH_METRIC_HISTOGRAM, &s->redis_seconds},
        {"deckhand_gateway_drains_total", "",
         "SIGTERM drains begun: accepting stopped, players told to reconnect elsewhere.",
         DH_METRIC_COUNTER, &s->drains},
        {"deckhand_gateway_reconnects_sent_total", "",
         "Players sent a Reconnect (to resume on another gateway): by a drain, or for a lost "
         "worker link.",
         DH_METRIC_COUNTER, &s->reconnects_sent},
        {"deckhand_gateway_worker_links_lost_total", "",
         "Worker links found lost (closed for silence and still closed): their match players "
         "were told to reconnect elsewhere.",
         DH_METRIC_COUNTER, &s->worker_links_lost},
        {"deckhand_gateway_zmq_drains_total", "",
         "ZeroMQ sockets read until empty: one per poll wake-up or send that touched a socket "
         "(each costs ZeroMQ system calls; an idle loop turn reads none).",
         DH_METRIC_COUNTER, &s->zmq_drains},
    };
    int rc = dh_metrics_table(&g->ops.metrics, traffic, sizeof traffic / sizeof traffic[0]);
    rc |= dh_ops_codes(&g->ops, "deckhand_gateway_replies_error_total",
                       "Error Replies sent to clients, by code (the gateway's own and the "
                       "workers').",
                       s->replies);
    rc |= dh_metrics_table(&g->ops.metrics, matches, sizeof matches / sizeof matches[0]);
    return rc;
}

void ops_publish(gw *g)
{
    dh_gauge_set(&g->stats.routes, (int64_t)g->matches.count);
    if (g->stopping)
        dh_ops_ready(&g->ops, "stopping");
    else if (g->draining)
        dh_ops_ready(&g->ops, "draining: players are moving to other gateways");
    else if (!g->tcp_listening || !g->ws_listening)
        dh_ops_ready(&g->ops, "not listening");
    else if (!zsock_mm_linked(g))
        dh_ops_ready(&g->ops, "no connection to the matchmaker");
    else
        dh_ops_ready(&g->ops, NULL);
    dh_ops_beat(&g->ops);
}
