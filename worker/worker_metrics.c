/*
 * worker_metrics.c: the worker's metrics and probes (see worker.h).
 */
#include "worker.h"

#include "out.h"

void worker_metrics_publish(host *h, dh_ops *ops, dh_gauge *active, bool beaten)
{
    dh_gauge_set(active, (int64_t)host_active(h));
    if (!beaten)
        dh_ops_ready(ops, "not registered yet");
    else if (!h->st->redis.ctx)
        dh_ops_ready(ops, "redis unreachable");
    else
        dh_ops_ready(ops, NULL);
    dh_ops_beat(ops);
}

int worker_metrics_register(host *h, bundles *bs, dh_ops *ops, dh_gauge *active)
{
    host_stats *s = &h->stats;
    dh_gauge_set(&s->capacity, (int64_t)h->capacity);
    const dh_metric answers[] = {
        {"deckhand_worker_active_matches", "", "Matches hosted here now.", DH_METRIC_GAUGE, active},
        {"deckhand_worker_capacity", "", "The most matches this worker hosts (--capacity).",
         DH_METRIC_GAUGE, &s->capacity},
        {"deckhand_worker_answers_accepted_total", "",
         "Answers applied and stored (players, timers and bots).", DH_METRIC_COUNTER, &s->answers},
        {"deckhand_worker_default_answers_total", "",
         "Answers made by the default bot: decision and turn timers, seats "
         "away past their grace period.",
         DH_METRIC_COUNTER, &s->default_answers},
        {"deckhand_worker_search_answers_total", "",
         "Of those, made by the search bot: bot-filled seats and away seats of queues "
         "with bot=search.",
         DH_METRIC_COUNTER, &s->search_answers},
        {"deckhand_worker_script_failures_total", "",
         "Default answers (timers, absent seats) that failed in a card script; each is "
         "tried again after 1 s, up to --quarantine-after times in a row.",
         DH_METRIC_COUNTER, &s->script_failures},
        {"deckhand_worker_matches_quarantined_total", "",
         "Matches ended as a script error (end_reason script_error) because their "
         "default answers kept failing. Any increase deserves an alert: a card is broken.",
         DH_METRIC_COUNTER, &s->quarantined},
    };
    const dh_metric storage[] = {
        {"deckhand_worker_adoptions_total", "", "Matches adopted from a dead or stopping worker.",
         DH_METRIC_COUNTER, &s->adoptions},
        {"deckhand_worker_matches_rated_total", "",
         "Finished matches between accounts whose ratings this worker moved (once per match, "
         "whichever worker sweeps it).",
         DH_METRIC_COUNTER, &s->rated},
        {"deckhand_worker_fenced_writes_total", "",
         "Writes refused by the epoch fence (the match is another "
         "worker's).",
         DH_METRIC_COUNTER, &s->fenced},
        {"deckhand_worker_matches_lost_total", "",
         "Matches dropped because another worker owns them now.", DH_METRIC_COUNTER, &s->lost},
        {"deckhand_worker_redis_batches_total", "",
         "Redis pipelines flushed with outputs held on them.", DH_METRIC_COUNTER, &s->batches},
        {"deckhand_worker_redis_batch_failures_total", "",
         "Of those, pipelines where a write failed (answers refused "
         "UNAVAILABLE).",
         DH_METRIC_COUNTER, &s->batch_failures},
        {"deckhand_worker_bundles_loaded_total", "",
         "Script bundles fetched from Redis and loaded.", DH_METRIC_COUNTER, &bs->loaded},
        {"deckhand_worker_bundle_failures_total", "",
         "Script bundles that could not be loaded here.", DH_METRIC_COUNTER, &bs->failed_loads},
        {"deckhand_worker_bundle_matches_started_total", "bundle=\"current\"",
         "New matches started here, on their game's current bundle or on its canary "
         "(`deckhand scripts push --canary`).",
         DH_METRIC_COUNTER, &bs->started_current},
        {"deckhand_worker_bundle_matches_started_total", "bundle=\"canary\"",
         "New matches started here, on their game's current bundle or on its canary "
         "(`deckhand scripts push --canary`).",
         DH_METRIC_COUNTER, &bs->started_canary},
        {"deckhand_worker_script_errors_total", "bundle=\"current\"",
         "Answers (players' and the worker's own) that failed in a card script, in matches "
         "on their game's current bundle or on its canary. Any increase deserves a look.",
         DH_METRIC_COUNTER, &bs->errors_current},
        {"deckhand_worker_script_errors_total", "bundle=\"canary\"",
         "Answers (players' and the worker's own) that failed in a card script, in matches "
         "on their game's current bundle or on its canary. Any increase deserves a look.",
         DH_METRIC_COUNTER, &bs->errors_canary},
        {"deckhand_worker_canaries_aborted_total", "",
         "Canaries this worker's guard aborted (script errors or quarantines past the "
         "margin: docs/OPERATIONS.md).",
         DH_METRIC_COUNTER, &bs->canaries_aborted},
    };
    const dh_metric timing[] = {
        {"deckhand_worker_command_seconds", "",
         "Per player command answered: seconds from its receipt to the answer persisted in "
         "Redis and replied.",
         DH_METRIC_HISTOGRAM, &s->command_seconds},
        {"deckhand_worker_redis_seconds", "",
         "Per Redis pipeline flushed or read made: seconds waiting for its replies (the round "
         "trip).",
         DH_METRIC_HISTOGRAM, &s->redis_seconds},
    };
    int rc = dh_metrics_table(&ops->metrics, answers, sizeof answers / sizeof answers[0]);
    rc |= dh_metrics_table(&ops->metrics, timing, sizeof timing / sizeof timing[0]);
    rc |= dh_metrics_family(&ops->metrics, "deckhand_worker_matches_finished_total",
                            "Matches finished on this worker, by game.", &s->finished);
    rc |= dh_metrics_family(&ops->metrics, "deckhand_worker_match_duration_seconds",
                            "Per match finished: seconds from its start on this worker to its "
                            "end, by game (adopted matches are not timed).",
                            &s->duration);
    rc |= dh_ops_codes(ops, "deckhand_worker_replies_refused_total",
                       "Replies to player commands with an error, by code.", s->refused);
    rc |= dh_metrics_table(&ops->metrics, storage, sizeof storage / sizeof storage[0]);
    if (h->rp) {
        replays *rp = h->rp;
        const dh_metric replay[] = {
            {"deckhand_worker_replays_served_total", "",
             "Replays sent whole to a player (Catalog, every ReplayFrame, Reply ok).",
             DH_METRIC_COUNTER, &rp->served},
            {"deckhand_worker_replays_failed_total", "",
             "Replays answered with an error (unknown or running match, too long, Redis or "
             "bundle unavailable).",
             DH_METRIC_COUNTER, &rp->failed},
            {"deckhand_worker_replays_refused_total", "",
             "Replays refused OVERLOADED: the worker was serving its most at once.",
             DH_METRIC_COUNTER, &rp->refused},
            {"deckhand_worker_replay_frames_total", "", "ReplayFrames sent.", DH_METRIC_COUNTER,
             &rp->frames},
            {"deckhand_worker_replay_bytes_total", "",
             "Bytes of the Catalogs and ReplayFrames of replays sent.", DH_METRIC_COUNTER,
             &rp->bytes},
        };
        rc |= dh_metrics_table(&ops->metrics, replay, sizeof replay / sizeof replay[0]);
    }
    out_watch_stats *ws = out_watch_stats_of(h);
    if (ws) {
        const dh_metric watching[] = {
            {"deckhand_worker_spectators", "",
             "Watchers of the matches hosted here now (at most --max-spectators a match).",
             DH_METRIC_GAUGE, &ws->spectators},
            {"deckhand_worker_spectator_frames_total", "",
             "SpectatorFrames sent to watchers (one per watcher per frame).", DH_METRIC_COUNTER,
             &ws->frames},
            {"deckhand_worker_spectator_frames_dropped_total", "",
             "Spectator frames dropped unsent because a match's queue of delayed frames passed "
             "its byte bound (1 MiB).",
             DH_METRIC_COUNTER, &ws->dropped},
        };
        rc |= dh_metrics_table(&ops->metrics, watching, sizeof watching / sizeof watching[0]);
    }
    return rc;
}
