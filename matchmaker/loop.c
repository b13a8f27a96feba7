/*
 * loop.c: one drain of the matchmaker's socket (loop.h says why the control traffic
 * cannot wait behind the joins).
 */
#include "loop.h"

#include "control.h"
#include "dh_arena.h"
#include "dh_clock.h"
#include "dh_zmq.h"
#include "mm_data.h"
#include "mm_play.h"
#include "mm_store.h"

#define LOOP_CLOCK_EVERY 64 /* messages between two looks at the drain's time budget */

/* A MatchStarted from a worker that had REGISTRY_PENDING_MAX StartMatches unanswered: the
 * tickets that waited for it may form now, without waiting for the next full pass. */
static bool loop_frees_a_worker(mm_state *mm, const char *identity,
                                const Deckhand__Internal__Internal *msg)
{
    if (msg->body_case != DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_STARTED)
        return false;
    const registry_worker *w = registry_find(&mm->reg, identity);
    return w && w->pending >= REGISTRY_PENDING_MAX;
}

/* Whether body may be a WorkerHello: field 1 of Internal, length-delimited, comes first. */
static bool loop_maybe_hello(zmq_msg_t *body)
{
    return zmq_msg_size(body) && *(const uint8_t *)zmq_msg_data(body) == 0x0a;
}

/* A worker's hello that repeats its last one byte for byte (one every 500 ms from each
 * worker, 6 KB with every game's options): its worker refreshed without unpacking it, as
 * control_handle would (true, as a hello asks for a tick). False when it is no such repeat:
 * the caller unpacks it. */
static bool loop_hello_again(mm_state *mm, const char *identity, zmq_msg_t *body, uint64_t now_ms)
{
    const uint8_t *b = zmq_msg_data(body);
    size_t len = zmq_msg_size(body);
    return loop_maybe_hello(body) &&
           dh_zmq_frame_may_send(body, identity, DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO) &&
           registry_hello_again(&mm->reg, identity, b, len, now_ms);
}

/* Hand one received frame to control_handle: true when the tick should run now. A hello
 * handled is kept packed for loop_hello_again. Closes body. */
static bool loop_handle(mm_state *mm, const char *identity, zmq_msg_t *body, uint64_t now_ms,
                        bool *freed)
{
    if (loop_hello_again(mm, identity, body, now_ms)) {
        zmq_msg_close(body);
        return true;
    }
    Deckhand__Internal__Internal *msg = NULL;
    /* a hello's packed bytes outlive the unpack, which closes body */
    zmq_msg_t keep;
    zmq_msg_init(&keep);
    if (loop_maybe_hello(body))
        zmq_msg_copy(&keep, body);
    bool form = false;
    /* into the loop's arena: no malloc per field, no free_unpacked's walk (issue 27); what
     * a handler keeps of a message it copies, as it did before the message was freed */
    if (dh_zmq_unpack_frame(body, identity, &mm->arena.pa, &msg) == 1) {
        *freed |= loop_frees_a_worker(mm, identity, msg);
        form = control_handle(mm, identity, msg, now_ms);
        if (msg->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO &&
            zmq_msg_size(&keep))
            registry_hello_keep(&mm->reg, identity, zmq_msg_data(&keep), zmq_msg_size(&keep));
    }
    dh_arena_reset(&mm->arena); /* the message is given back whole */
    zmq_msg_close(&keep);
    return form;
}

void loop_finish(mm_state *mm, uint64_t now_ms)
{
    tickets_flush(mm, now_ms); /* the held joins no formation pass wrote */
    state_flush_due(mm, now_ms);
    gwout_flush(mm); /* the turn's messages to each gateway, one send each */
}

loop_turn loop_drain(mm_state *mm, uint64_t now_ms)
{
    bool freed = false;
    loop_turn t = {0};
    uint64_t start = dh_now_ms();
    char identity[DH_ZMQ_ID_MAX + 1];
    for (;;) {
        if (t.handled >= LOOP_DRAIN_MAX || (t.handled % LOOP_CLOCK_EVERY == LOOP_CLOCK_EVERY - 1 &&
                                            dh_now_ms() - start >= LOOP_DRAIN_MS)) {
            t.full = true;
            break;
        }
        zmq_msg_t body;
        int rc = dh_zmq_recv_frame(mm->router, identity, &body);
        if (rc == 0) {
            mm->heard_ms = now_ms + (dh_now_ms() - start); /* everything sent so far is read */
            t.quiet = true; /* and the ROUTER's fd is armed for the next (wait.h) */
            t.quiet_sends = dh_zmq_sends();
            break;
        }
        t.handled++;
        if (rc < 0)
            continue;
        /* at the time it was read: a beat read after a handler waited on Redis is not
         * stamped with the drain's start, seconds earlier */
        t.form |= loop_handle(mm, identity, &body, now_ms + (dh_now_ms() - start), &freed);
    }
    if (freed) {
        mm->next_pass_ms = 0; /* a pass over every ticket, now */
        t.form = true;
    }
    if (mm->joins.n) {
        tickets_rate_held(mm, now_ms); /* before the tick's pass sees them */
        t.form = true;
    }
    if (!t.full)
        mm->behind_since_ms = 0;
    else if (!mm->behind_since_ms)
        mm->behind_since_ms = now_ms ? now_ms : 1;
    return t;
}
