/*
 * host_stall.c: the stall watcher, so that a match whose script call freezes its worker
 * costs at most that one worker death (issue 24, item 1).
 *
 * A script call can get stuck inside one C function, where the engine's watchdog cannot
 * stop it (it interrupts Lua code, not a C call in progress). The worker then beats no
 * more, the matchmaker declares it dead after REGISTRY_DEAD_MS of silence and moves its
 * matches, and the worker cannot write anything from inside the call: the match arrives
 * on the next worker with nothing to say it was the one that killed the last, and a
 * player who left has a bot replay the same answer there. So a thread watches the calls:
 * the host names the match before each call into its scripts (host_stall_enter) and
 * after it (host_stall_leave); a call still running after h->stall_ms (HOST_STALL_MS,
 * well inside the time the matchmaker waits) is marked in Redis, in match:{ID}.stalled
 * (the epoch it stalled at), by a fenced write on the thread's own connection. The worker
 * that adopts a marked match ends it as a script error without running it (host_adopt.c,
 * host_timers.c). A call that returns, late, takes its mark back through the batch.
 *
 * Why not count in Redis before every call, or count every death: a write before each
 * answer would add a Redis round trip to every command, and a death counted against every
 * match of the dead worker would end healthy matches that only shared it. The watcher
 * costs a lock and a copy of the match id per call, and writes only for a call that
 * stalls; only the match in the call is marked.
 *
 * A process stopped whole (SIGSTOP, a paused VM) is not a stuck call: the mark also needs
 * the watcher to have seen the same call on HOST_STALL_LOOKS of its wakes, which a
 * stopped process does not give it. Limits: a call that returns in the moment between the
 * matchmaker's verdict and its takeover takes its mark back before the move, and a worker
 * killed in a call (SIGKILL) writes nothing; both leave the count of
 * match:{ID}.script_failures for the adopter's own tries (host_count_ahead).
 */
#include "host_stall.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dh_clock.h"
#include "dh_keys.h"
#include "dh_log.h"
#include "dh_thread.h"

#define HOST_STALL_LOOKS 3 /* the watcher's wakes that saw the call before it is marked */

struct host_stall {
    pthread_t thread;
    pthread_mutex_t mu; /* guards everything below but the store, the thread's alone */
    pthread_cond_t cv;
    bool stop;
    store st; /* the watcher's own Redis connection */
    char worker[HOST_ID_MAX];
    uint32_t stall_ms;
    bool in_call; /* the call in progress: */
    uint64_t since_ns;
    char match[HOST_ID_MAX];
    uint64_t epoch;
    unsigned looks; /* wakes that saw it */
    bool marked;    /* its mark is in Redis */
};

/* Write the mark of the call in progress; with mu held, so that its leave waits for the
 * write and the leave's own write comes after it. */
static bool host_stall_mark(struct host_stall *s)
{
    char epoch[24];
    snprintf(epoch, sizeof epoch, "%llu", (unsigned long long)s->epoch);
    uint64_t now_ms = dh_now_ms();
    int op = store_op(&s->st, now_ms);
    bool ok =
        op >= 0 && store_put_field(&s->st, s->worker, s->match, s->epoch, DH_F_STALLED, epoch) == 0;
    if (ok) {
        store_flush(&s->st, now_ms);
        ok = store_ok(&s->st, op);
    }
    store_next(&s->st);
    if (ok)
        dh_warn("match %s: a script call has run %llu ms: marked stalled at epoch %s", s->match,
                (unsigned long long)((dh_now_ns() - s->since_ns) / 1000000), epoch);
    return ok;
}

static void *host_stall_main(void *arg)
{
    struct host_stall *s = arg;
    uint64_t wake_ns = (uint64_t)s->stall_ms * 1000000 / HOST_STALL_LOOKS;
    pthread_mutex_lock(&s->mu);
    while (!s->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        uint64_t at = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec + wake_ns;
        ts.tv_sec = (time_t)(at / 1000000000ULL);
        ts.tv_nsec = (long)(at % 1000000000ULL);
        pthread_cond_timedwait(&s->cv, &s->mu, &ts);
        if (s->stop || !s->in_call || s->marked)
            continue;
        s->looks++;
        if (s->looks >= HOST_STALL_LOOKS &&
            dh_now_ns() - s->since_ns >= (uint64_t)s->stall_ms * 1000000)
            s->marked = host_stall_mark(s);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

int host_stall_start(host *h, const char *redis_url, int timeout_ms)
{
    struct host_stall *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    snprintf(s->worker, sizeof s->worker, "%s", h->worker_id);
    s->stall_ms = h->stall_ms;
    if (store_init(&s->st, redis_url, timeout_ms) < 0)
        goto err_store;
    if (dh_thread_sync_init(&s->mu, &s->cv) < 0)
        goto err_mu;
    /* the thread takes no signal: SIGTERM and the engine's watchdog are the main thread's */
    if (dh_thread_start_quiet(&s->thread, host_stall_main, s) < 0)
        goto err_thread;
    h->stall = s;
    return 0;
err_thread:
    dh_thread_sync_destroy(&s->mu, &s->cv);
err_mu:
    store_close(&s->st);
err_store:
    free(s);
    dh_error("cannot start the stall watcher");
    return -1;
}

void host_stall_stop(host *h)
{
    struct host_stall *s = h->stall;
    if (!s)
        return;
    pthread_mutex_lock(&s->mu);
    s->stop = true;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->thread, NULL);
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    store_close(&s->st);
    free(s);
    h->stall = NULL;
}

void host_stall_enter(host *h, const host_match *hm)
{
    struct host_stall *s = h->stall;
    if (!s)
        return;
    pthread_mutex_lock(&s->mu);
    s->in_call = true;
    s->since_ns = dh_now_ns();
    memcpy(s->match, hm->id, sizeof s->match);
    s->epoch = hm->epoch;
    s->looks = 0;
    s->marked = false;
    pthread_mutex_unlock(&s->mu);
}

void host_stall_leave(host *h, const host_match *hm, uint64_t now_ms)
{
    struct host_stall *s = h->stall;
    if (!s)
        return;
    pthread_mutex_lock(&s->mu);
    bool marked = s->marked;
    uint64_t ran_ms = (dh_now_ns() - s->since_ns) / 1000000;
    s->in_call = s->marked = false;
    pthread_mutex_unlock(&s->mu);
    if (!marked)
        return;
    dh_warn("match %s: its script call returned after %llu ms: taking its stall mark back", hm->id,
            (unsigned long long)ran_ms);
    int op = store_op(h->st, now_ms);
    if (op < 0 || store_put_field(h->st, h->worker_id, hm->id, hm->epoch, DH_F_STALLED, "0") < 0)
        dh_warn("match %s: cannot take its stall mark back", hm->id);
}
