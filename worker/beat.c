/*
 * beat.c: the worker's beat, from its own thread on its own socket (see worker.h).
 *
 * Why a thread: the loop calls Redis (hiredis, a timeout of a second per call) and scripts
 * (a budget per call), and a loop that waits on either cannot beat; a matchmaker that
 * hears nothing takes a live worker for dead and moves its matches (issue 26: a 5 s Redis
 * stall did exactly that). So the beat leaves here whatever the loop does, and says what
 * the loop is doing: stalled_ms, how long it has been inside its current turn, and
 * redis_ok, whether the store's last round trip succeeded. The matchmaker tells slow
 * from dead with those, instead of reading silence as death.
 *
 * What the thread touches: its DEALER (routing id "<worker id>/beat", the worker's CURVE
 * client keys), the atomics the loop publishes, and its own lock and condition, which
 * only the stop uses. Never Redis, Lua, the host or the loop's sockets. The loop's side
 * costs two relaxed stores per turn and no lock.
 *
 * The hello (docs/matchmaker.md, "Worker hellos"): the loop sends its WorkerHello, 6 KB
 * with every game's options, and publishes its version here (beat_hello_sent), which every
 * beat names. A matchmaker that holds that hello answers the beat on the control route with
 * a WorkerProbe naming the version (beat_probe, on the loop's side); while those answers
 * keep coming (BEAT_HELLO_HELD_MS) the loop does not repeat its hello (beat_hello_due). A
 * matchmaker that lacks it asks for it (hello_wanted), and one of an earlier release never
 * answers, so it gets the hello every WORKER_HELLO_MS as before. Those fields are the
 * loop's alone; the thread reads only the published version.
 */
#include "worker.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>

#include "dh_clock.h"
#include "dh_log.h"
#include "dh_thread.h"
#include "dh_zmq.h"

#define BEAT_HWM 4 /* a beat not sent soon is stale: few are queued */
/* The matchmaker's last word that it holds our hello is this old at most, or the hello
 * goes again: two beats' answers and a little, so one lost answer costs nothing, and a
 * matchmaker of an earlier release that replaces this one (which never answers) gets the
 * hello within 1.7 s of its start, before it takes unknown workers for dead (2.5 s). */
#define BEAT_HELLO_HELD_MS 1200

struct beat {
    char worker_id[DH_ZMQ_ID_MAX + 1];
    void *sock;               /* the thread's alone while it runs */
    _Atomic uint64_t turn_ms; /* dh_now_ms when the loop's current turn began; 0 between */
    _Atomic uint32_t active;
    _Atomic bool draining, redis_ok;
    _Atomic uint64_t hello_version; /* of the loop's last hello sent: the beats name it */
    /* the loop's alone: the version the matchmaker last said it holds, when, and whether
     * it asked for the hello */
    uint64_t held_version, held_ms;
    bool hello_wanted;
    dh_counter sent;
    pthread_t thread;
    pthread_mutex_t mu; /* guards stop, for the wait only */
    pthread_cond_t cv;
    bool stop, running;
};

static void beat_send(beat *b)
{
    uint64_t start = atomic_load_explicit(&b->turn_ms, memory_order_relaxed);
    uint64_t now = dh_now_ms();
    Deckhand__Internal__WorkerBeat wb = DECKHAND__INTERNAL__WORKER_BEAT__INIT;
    wb.worker_id = b->worker_id;
    wb.active_matches = atomic_load_explicit(&b->active, memory_order_relaxed);
    wb.draining = atomic_load_explicit(&b->draining, memory_order_relaxed);
    wb.redis_ok = atomic_load_explicit(&b->redis_ok, memory_order_relaxed);
    wb.stalled_ms = start && now > start ? (uint32_t)(now - start) : 0;
    wb.hello_version = atomic_load_explicit(&b->hello_version, memory_order_relaxed);
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT;
    m.worker_beat = &wb;
    /* not sent (no matchmaker connected yet, or its queue full): the next one will be */
    if (dh_zmq_send(b->sock, NULL, &m) == 0)
        dh_counter_inc(&b->sent);
}

static void *beat_main(void *arg)
{
    beat *b = arg;
    pthread_mutex_lock(&b->mu);
    while (!b->stop) {
        pthread_mutex_unlock(&b->mu);
        beat_send(b);
        pthread_mutex_lock(&b->mu);
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        uint64_t at = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec +
                      (uint64_t)WORKER_BEAT_MS * 1000000ULL;
        ts.tv_sec = (time_t)(at / 1000000000ULL);
        ts.tv_nsec = (long)(at % 1000000000ULL);
        while (!b->stop && pthread_cond_timedwait(&b->cv, &b->mu, &ts) != ETIMEDOUT)
            ;
    }
    pthread_mutex_unlock(&b->mu);
    return NULL;
}

/* The socket, connected: NULL (logged) on failure. */
static void *beat_socket(void *ctx, const char *worker_id, const char *mm_endpoint,
                         const dh_curve *curve)
{
    char id[DH_ZMQ_ID_MAX + 1];
    if ((size_t)snprintf(id, sizeof id, "%s%s", worker_id, BEAT_ID_SUFFIX) >= sizeof id) {
        dh_error("worker id %s too long for its beat's routing id", worker_id);
        return NULL;
    }
    void *s = dh_zmq_socket(ctx, ZMQ_DEALER, id, BEAT_HWM);
    if (!s)
        return NULL;
    /* queued only on a live connection: a matchmaker that comes back gets fresh beats,
     * not the stale ones of its absence */
    int one = 1;
    zmq_setsockopt(s, ZMQ_IMMEDIATE, &one, sizeof one);
    if (curve && dh_curve_client(s, curve) < 0) {
        zmq_close(s);
        return NULL;
    }
    if (zmq_connect(s, mm_endpoint) < 0) {
        dh_error("beat: cannot connect to %s: %s", mm_endpoint, zmq_strerror(errno));
        zmq_close(s);
        return NULL;
    }
    return s;
}

beat *beat_start(void *ctx, const char *worker_id, const char *mm_endpoint, const dh_curve *curve)
{
    beat *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    snprintf(b->worker_id, sizeof b->worker_id, "%s", worker_id);
    atomic_init(&b->redis_ok, true); /* nothing failed yet */
    if (!(b->sock = beat_socket(ctx, worker_id, mm_endpoint, curve)))
        goto err_sock;
    if (dh_thread_sync_init(&b->mu, &b->cv) < 0)
        goto err_mu;
    /* the thread takes no signal: SIGTERM and the engine's watchdog are the main thread's */
    if (dh_thread_start_quiet(&b->thread, beat_main, b) < 0)
        goto err_thread;
    b->running = true;
    return b;
err_thread:
    dh_thread_sync_destroy(&b->mu, &b->cv);
err_mu:
    zmq_close(b->sock);
err_sock:
    free(b);
    dh_error("cannot start the beat thread");
    return NULL;
}

void beat_turn(beat *b, uint64_t now_ms)
{
    if (b)
        atomic_store_explicit(&b->turn_ms, now_ms ? now_ms : 1, memory_order_relaxed);
}

void beat_idle(beat *b, uint32_t active, bool draining, bool redis_ok)
{
    if (!b)
        return;
    atomic_store_explicit(&b->active, active, memory_order_relaxed);
    atomic_store_explicit(&b->draining, draining, memory_order_relaxed);
    atomic_store_explicit(&b->redis_ok, redis_ok, memory_order_relaxed);
    atomic_store_explicit(&b->turn_ms, 0, memory_order_relaxed);
}

/* FNV-1a over the bytes a hello packs into, without a buffer of its own. */
typedef struct {
    ProtobufCBuffer base;
    uint64_t h;
} beat_digest;

static void beat_digest_append(ProtobufCBuffer *buf, size_t len, const uint8_t *data)
{
    beat_digest *d = (beat_digest *)buf;
    for (size_t i = 0; i < len; i++)
        d->h = (d->h ^ data[i]) * 0x100000001b3ULL;
}

uint64_t beat_hello_digest(const Deckhand__Internal__WorkerHello *wh)
{
    Deckhand__Internal__WorkerHello copy = *wh;
    copy.version = 0;
    beat_digest d = {{beat_digest_append}, 0xcbf29ce484222325ULL};
    protobuf_c_message_pack_to_buffer(&copy.base, &d.base);
    return d.h ? d.h : 1;
}

bool beat_hello_due(const beat *b, uint64_t version, uint64_t now_ms)
{
    return !b || b->hello_wanted || version != b->held_version ||
           now_ms - b->held_ms > BEAT_HELLO_HELD_MS;
}

bool beat_hello_wanted(const beat *b)
{
    return b && b->hello_wanted;
}

void beat_hello_sent(beat *b, uint64_t version)
{
    if (!b)
        return;
    b->hello_wanted = false;
    atomic_store_explicit(&b->hello_version, version, memory_order_relaxed);
}

void beat_probe(beat *b, const Deckhand__Internal__WorkerProbe *p, uint64_t now_ms)
{
    if (!b)
        return;
    if (p->hello_wanted)
        b->hello_wanted = true;
    else if (p->hello_version) {
        b->held_version = p->hello_version;
        b->held_ms = now_ms;
    }
}

uint64_t beat_sent(const beat *b)
{
    return b ? atomic_load_explicit(&b->sent, memory_order_relaxed) : 0;
}

void beat_stop(beat *b)
{
    if (!b || !b->running)
        return;
    pthread_mutex_lock(&b->mu);
    b->stop = true;
    pthread_cond_signal(&b->cv);
    pthread_mutex_unlock(&b->mu);
    pthread_join(b->thread, NULL);
    b->running = false;
}

void beat_free(beat *b)
{
    if (!b)
        return;
    beat_stop(b);
    pthread_cond_destroy(&b->cv);
    pthread_mutex_destroy(&b->mu);
    zmq_close(b->sock);
    free(b);
}
