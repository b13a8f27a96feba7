/*
 * worker_loop.c: see worker.h.
 */
#include "worker.h"

#include "bundles.h"
#include "dh_clock.h"
#include "dh_log.h"
#include "host.h"
#include "out.h"

#define OWNED_CHECK_MS 5000 /* how often hosted matches are checked against Redis */
#define FROZEN_MS      1000 /* a turn this late: we were stopped or starved */
#define ADOPT_POLL_MS  200  /* worker:{ID}:adopt is read this often (and on AdoptMatch) */
#define TICK_MS        100  /* timers are checked at least this often */
#define TICK_BUSY_MS   5    /* ...and this often while bots play seats */
#define TICK_REPLAY_MS 1    /* ...and this often while replays are sent (replay.c) */

void worker_loop_init(worker_loop *l, uint64_t now_ms, size_t inbox_max)
{
    *l = (worker_loop){
        .batch_ms = WORKER_BATCH_MS, .next_owned = now_ms + OWNED_CHECK_MS, .last_wake = now_ms};
    inbox_init(&l->in, inbox_max);
    rater_init(&l->rater);
}

void worker_loop_free(worker_loop *l)
{
    inbox_free(&l->in);
}

bool worker_loop_beaten(const worker_loop *l)
{
    return beat_sent(l->beat) > 0;
}

long worker_loop_timeout(const worker_loop *l, uint64_t now_ms)
{
    if (inbox_len(&l->in) || l->adopting)
        return 0;
    uint64_t next = l->next_lease < l->next_poll ? l->next_lease : l->next_poll;
    next = next < l->next_adopt ? next : l->next_adopt;
    long timeout = next > now_ms ? (long)(next - now_ms) : 0;
    if (l->replaying && timeout > TICK_REPLAY_MS)
        timeout = TICK_REPLAY_MS;
    else if (l->due && timeout > TICK_BUSY_MS)
        timeout = TICK_BUSY_MS;
    else if (timeout > TICK_MS)
        timeout = TICK_MS;
    return timeout;
}

/* The lease and the hello, when due. */
static void worker_loop_lease(worker_loop *l, host *h, uint64_t now_ms)
{
    if (now_ms >= l->next_hello || beat_hello_wanted(l->beat)) {
        worker_control_hello(h, l->beat, now_ms);
        l->next_hello = now_ms + WORKER_HELLO_MS;
    }
    if (now_ms >= l->next_lease) {
        worker_control_lease(h, now_ms);
        l->next_lease = now_ms + WORKER_LEASE_RENEW;
    }
}

/* An adoption round when one is asked (AdoptMatch), due (the poll), or the last one left
 * ids in the set: rounds follow each other turn after turn, each bounded in time, with the
 * inbox's batch and the timers between them. */
static void worker_loop_adopt(worker_loop *l, host *h, bool asked)
{
    uint64_t now = dh_now_ms();
    if (!asked && !l->adopting && now < l->next_adopt)
        return;
    l->adopting = host_adopt_pending(h, now, now + HOST_ADOPT_TURN_MS);
    l->next_adopt = dh_now_ms() + ADOPT_POLL_MS;
}

/* Rate the finished matches waiting in matches:unrated, between batches (the sweep shares
 * the store's connection). */
static void worker_loop_rate(worker_loop *l, host *h, uint64_t now_ms)
{
    if (now_ms < l->next_rate || store_pending(h->st))
        return;
    l->next_rate = now_ms + WORKER_RATE_MS;
    if (!dh_redis_get(&h->st->redis, now_ms))
        return;
    long n = rater_sweep(&l->rater, &h->st->redis, WORKER_RATE_MAX);
    if (n > 0) {
        dh_counter_add(&h->stats.rated, (uint64_t)n);
        dh_info("rated %ld finished matches", n);
    }
}

/* The turn proper; worker_loop_turn tells the beat thread around it. */
static void worker_loop_work(worker_loop *l, host *h, uint64_t now)
{
    /* Frozen (SIGSTOP, a stalled VM) long enough for the matchmaker to move our matches,
     * or simply due: forget the ones that are not ours any more before serving anything
     * from them. */
    if (now - l->last_wake > FROZEN_MS || now >= l->next_owned) {
        long lost = host_check_owned(h, now);
        if (lost > 0)
            dh_warn("%ld matches moved to other workers while we were %s", lost,
                    now - l->last_wake > FROZEN_MS ? "frozen" : "cut off");
        l->next_owned = now + OWNED_CHECK_MS;
    }
    l->last_wake = now;
    worker_loop_lease(l, h, now);
    /* first: a push announced now serves from this turn on, not after the batch */
    if (h->bs)
        l->next_poll = bundles_tick(h->bs, now, l->announced);
    bool adopt = worker_control_matchmaker(h, l->beat, now);
    worker_control_receive(h, &l->in);
    worker_control_work(h, &l->in, now + l->batch_ms);
    host_flush(h, dh_now_ms());
    worker_loop_lease(l, h, dh_now_ms());
    worker_loop_adopt(l, h, adopt);
    host_admin_tick(h, dh_now_ms());
    l->due = host_tick(h, dh_now_ms());
    host_flush(h, dh_now_ms());
    host_apply_bundles(h, dh_now_ms());
    out_watch_tick(h, dh_now_ms());
    worker_loop_rate(l, h, dh_now_ms());
    l->replaying = replay_work(h, dh_now_ms());
    out_flush(h); /* whatever else the turn sent (refusals, frames, replays) */
}

void worker_loop_turn(worker_loop *l, host *h)
{
    uint64_t now = dh_now_ms();
    beat_turn(l->beat, now);
    worker_loop_work(l, h, now);
    beat_idle(l->beat, (uint32_t)host_active(h), h->drain_asked, h->st->up);
}

void worker_loop_stop(worker_loop *l, host *h)
{
    while (inbox_len(&l->in))
        worker_control_work(h, &l->in, 0);
    host_flush(h, dh_now_ms());
    out_flush(h);
    /* no beat of the thread's after the stopping one, which would say we are back */
    beat_idle(l->beat, (uint32_t)host_active(h), true, h->st->up);
    beat_stop(l->beat);
    /* the hello first, even while the matchmaker holds it: one restarted since our last
       hello does not know us and would ignore a stopping beat from an unknown worker;
       with the hello it counts us dead at once and moves our matches */
    worker_control_hello(h, NULL, dh_now_ms());
    worker_control_stopping(h);
}
