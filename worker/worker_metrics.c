/*
 * worker_metrics.c: the worker's metrics and probes (see worker_metrics.h).
 */
#include "worker_metrics.h"

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
    dh_metrics *reg = &ops->metrics;
    int rc = 0;
    rc |= dh_metrics_gauge(reg, "deckhand_worker_active_matches", "", "Matches hosted here now.",
                           active);
    rc |= dh_metrics_counter(reg, "deckhand_worker_answers_accepted_total", "",
                             "Answers applied and stored (players, timers and bots).", &s->answers);
    rc |= dh_metrics_counter(reg, "deckhand_worker_default_answers_total", "",
                             "Answers made by the default bot: decision and turn timers, seats "
                             "away past their grace period.",
                             &s->default_answers);
    rc |= dh_ops_codes(ops, "deckhand_worker_replies_refused_total",
                       "Replies to player commands with an error, by code.", s->refused);
    rc |= dh_metrics_counter(reg, "deckhand_worker_adoptions_total", "",
                             "Matches adopted from a dead or stopping worker.", &s->adoptions);
    rc |= dh_metrics_counter(reg, "deckhand_worker_fenced_writes_total", "",
                             "Writes refused by the epoch fence (the match is another "
                             "worker's).",
                             &s->fenced);
    rc |= dh_metrics_counter(reg, "deckhand_worker_matches_lost_total", "",
                             "Matches dropped because another worker owns them now.", &s->lost);
    rc |= dh_metrics_counter(reg, "deckhand_worker_redis_batches_total", "",
                             "Redis pipelines flushed with outputs held on them.", &s->batches);
    rc |= dh_metrics_counter(reg, "deckhand_worker_redis_batch_failures_total", "",
                             "Of those, pipelines where a write failed (answers refused "
                             "UNAVAILABLE).",
                             &s->batch_failures);
    rc |= dh_metrics_counter(reg, "deckhand_worker_bundles_loaded_total", "",
                             "Script bundles fetched from Redis and loaded.", &bs->loaded);
    rc |= dh_metrics_counter(reg, "deckhand_worker_bundle_failures_total", "",
                             "Script bundles that could not be loaded here.", &bs->failed_loads);
    return rc;
}
