/*
 * worker.h: the front door of the worker's root wing (worker/): what main.c runs and the
 * tests drive. The inbox of commands read off the sockets, the replays served to players,
 * the control path to the matchmaker (hello, beats, its messages), the loop that turns
 * them with the host's batches, timers and sweeps, and the metrics and probes of the
 * operator port. It stands on the host wing (host.h) and, through it, on out, bundles and
 * store (docs/worker.md).
 */
#ifndef DECKHAND_WORKER_H
#define DECKHAND_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bundles.h"
#include "dh_curve.h"
#include "dh_metrics.h"
#include "dh_ops.h"
#include "dh_zmq.h"
#include "host.h"
#include "internal.pb-c.h"
#include "out.h"
#include "store.h"

/* ---- the inbox (inbox.c) ----------------------------------------------------------------
 *
 * The worker's bounded queue of gateway commands, between the data socket and
 * the host.
 *
 * The loop reads the gateways' PlayerCommands into the inbox as fast as they come and the
 * host works them off in time-bounded batches, so bulk work never holds up the beat
 * (docs/worker.md, "Liveness"). The inbox holds at most max commands (INBOX_MAX
 * unless --inbox-max says otherwise): one
 * that finds it full is answered OVERLOADED at once (the client retries later) instead of
 * waiting behind seconds of work. The gateway's own notices about a seat are never
 * refused, since nobody would retry them: an Away (a dropped connection) and an attach (the
 * Resync with cmd_id 0 the gateway sends each player of a placed or moved match; refused,
 * the player never got the match: issue 26). They are kept whatever the length.

 */

/* The default bound: about 0.15 s of work at the worker's ~150 us per command: the longest a
 * command waits here before the host looks at it. */
#define INBOX_MAX 1000

typedef struct {
    char route[DH_ZMQ_ID_MAX + 1];     /* the gateway it came through */
    Deckhand__Internal__Internal *msg; /* owned by the inbox until popped */
    uint64_t recv_ns;                  /* dh_now_ns when it was queued (command latency) */
} inbox_item;

typedef struct {
    inbox_item *v; /* v[head .. head+n) are queued, oldest first */
    size_t head, n, cap;
    size_t max; /* refuse commands beyond this many queued */
} inbox;

/* An empty inbox bounded at max commands (INBOX_MAX when 0). */
void inbox_init(inbox *q, size_t max);
/* Free every queued message and the array. */
void inbox_free(inbox *q);
/* Whether a command must be refused now: the inbox holds max (Aways and attaches are
 * always taken). */
bool inbox_full(const inbox *q, const Deckhand__Internal__Internal *msg);
/* Queue msg from route; the inbox owns msg from here. -1 when out of memory (msg is then
 * still the caller's). */
int inbox_push(inbox *q, const char *route, Deckhand__Internal__Internal *msg);
/* The oldest item, or NULL when empty; the caller owns item->msg then. The pointer stays
 * valid until the next push. */
inbox_item *inbox_pop(inbox *q);
size_t inbox_len(const inbox *q);

/* ---- replays (replay.c) -----------------------------------------------------------------
 *
 * Replays served to players (deckhand.proto, "Watching": ReplayRequest). Any
 * worker serves any finished match: it reads the match's record from Redis
 * (common/dh_replay.h), loads the exact bundles the match ran on (bundles.h: from Redis
 * when not loaded here), rebuilds it answer by answer (engine/engine_replay.h) and after
 * each step sends the public view (ENGINE_SEAT_PUBLIC: no hand, no deck order, no
 * decision) with the public events (g:log, never g:log_to) that step produced: a Catalog,
 * then ReplayFrames 0..total-1 (the last with the match's GameOver), then the Reply.
 *
 * Bounds, so that replays never stall the live matches of the worker:
 *   - at most REPLAY_ACTIVE_MAX replays at once per worker: more are refused OVERLOADED;
 *   - a match of more than REPLAY_FRAMES_MAX - 1 answers is refused (BAD_REQUEST);
 *   - replay_work rebuilds at most REPLAY_STEPS_TURN answers per loop turn over every
 *     replay, and stops past REPLAY_TURN_MS, between batches (the live matches' commands
 *     are worked first, each turn);
 *   - one replay sends at most REPLAY_BURST_BYTES, then waits REPLAY_BURST_MS, so a long
 *     replay does not fill a gateway's write queue for a slow client (GW_WRITE_CAP).
 * The record is read on the store's connection between batches (nothing pending), like
 * the rating sweep. A replay's bundle is pinned while it runs (it counts in
 * worker:{ID}:bundles as a match on it).

 */

#define REPLAY_ACTIVE_MAX  4
#define REPLAY_FRAMES_MAX  5000 /* a Dominion match has a few hundred answers */
#define REPLAY_STEPS_TURN  200
#define REPLAY_TURN_MS     10
#define REPLAY_BURST_BYTES (64 * 1024)
#define REPLAY_BURST_MS    10

typedef struct replay_job replay_job;

typedef struct replays {
    replay_job *jobs[REPLAY_ACTIVE_MAX];
    size_t n;
    size_t next;        /* the job the next turn starts with (round robin) */
    dh_counter served;  /* replays sent whole (Reply ok) */
    dh_counter failed;  /* replays answered with an error (not overloaded) */
    dh_counter refused; /* replays refused OVERLOADED */
    dh_counter frames;  /* ReplayFrames sent */
    dh_counter bytes;   /* bytes of Catalogs and ReplayFrames sent */
} replays;

void replays_init(replays *rp);
/* Drop every replay in progress, each answered UNAVAILABLE (its player asks again, and
 * another worker serves it); before the sockets and the bundles go. */
void replays_free(host *h, replays *rp);

/* A PlayerCommand{replay} from the gateway at route: taken (its outputs follow from
 * replay_work), or answered now (BAD_REQUEST, OVERLOADED, UNAVAILABLE without h->rp). */
void replay_request(host *h, const char *route, const Deckhand__Internal__PlayerCommand *pc,
                    uint64_t now_ms);
/* Work the replays in progress within the bounds above; call between batches. True while
 * some replay has work left (the loop should come back soon). */
bool replay_work(host *h, uint64_t now_ms);

/* ---- the control path (worker_control.c) ------------------------------------------------
 *
 * The worker's messages with the rest of the cluster, the module that
 * main.c's loop hands every socket to. In: what the matchmaker sends on the control path
 * (StartMatch, AdoptMatch) and what gateways send on the data path (PlayerCommand), each
 * handed to the host (host.h). Out, unasked: WorkerHello (which games, which bundle, what
 * capacity), the worker:{ID} lease, and the last WorkerBeat, "stopping" (the others come
 * from the beat thread, beat.c).
 *
 * Named worker_control, not control: every process folder is on the unit tests' include
 * path, and the matchmaker has a control.h of its own.
 */

struct beat; /* the beat thread (below), which also keeps what the matchmaker said of our hello */

#define WORKER_LEASE_MS    2000 /* worker:{ID}'s TTL... */
#define WORKER_LEASE_RENEW 500  /* ...renewed this often, by the loop */

/* Drain the matchmaker's messages (up to a bound per call, in number and in time: a join
 * storm brings StartMatches by the hundred). true when an AdoptMatch asks
 * for an adoption round now: the caller runs it between batches (host_adopt_pending).
 * A WorkerProbe (the matchmaker checking that our route stands) needs no answer; one
 * that answers a beat about our hello goes to b (beat_probe). */
bool worker_control_matchmaker(host *h, struct beat *b, uint64_t now_ms);
/* Move the gateways' PlayerCommands from the data socket into the inbox (up to a bound
 * per call); a command the full inbox cannot take is answered OVERLOADED now. How many
 * were refused. */
size_t worker_control_receive(host *h, inbox *q);
/* Hand queued commands to the host, oldest first, until the inbox is empty or the clock
 * passes until_ms (at least one is worked). How many were. */
size_t worker_control_work(host *h, inbox *q, uint64_t until_ms);

/* The WorkerHello, when due (beat_hello_due: the matchmaker has not said it holds this
 * one; b NULL: always). */
void worker_control_hello(host *h, struct beat *b, uint64_t now_ms);
/* The worker:{ID} lease renewed (in the next flush) and the bundles in use reported. */
void worker_control_lease(host *h, uint64_t now_ms);
/* The last beat, on the control DEALER after the last outputs, as the worker exits: the
 * matchmaker moves our matches now rather than when the beats stop. */
void worker_control_stopping(host *h);

/* ---- the beat (beat.c) ------------------------------------------------------------------
 *
 * The beat thread: every WORKER_BEAT_MS a WorkerBeat to the matchmaker, on a DEALER of
 * its own (routing id "<worker id>/beat", the same CURVE client keys as the control
 * DEALER), whatever the loop is doing, so a loop waiting on Redis or inside a script call
 * is not taken for dead. The loop publishes what the beat says through atomics (no lock):
 * beat_turn as a turn begins (stalled_ms counts from it), beat_idle as it ends (active
 * matches, draining, redis_ok: the store's last round trip succeeded; stalled_ms 0). The
 * thread touches nothing else: not Redis, Lua, the host or the loop's sockets.
 */

#define BEAT_ID_SUFFIX "/beat"

typedef struct beat beat;

/* Connect a beat DEALER on ctx to mm_endpoint as "<worker_id>/beat" (curve NULL or off:
 * plaintext) and start beating. NULL (logged) on failure. */
beat *beat_start(void *ctx, const char *worker_id, const char *mm_endpoint, const dh_curve *curve);
/* A turn of the loop begins at now_ms. b may be NULL (no beats: tests). */
void beat_turn(beat *b, uint64_t now_ms);
/* The turn ended; what the next beats say. */
void beat_idle(beat *b, uint32_t active, bool draining, bool redis_ok);
/* The version WorkerHello.version carries: a digest of wh packed without it (never 0). */
uint64_t beat_hello_digest(const Deckhand__Internal__WorkerHello *wh);
/* Whether the loop's hello of this version goes out now: the matchmaker asked for it, or
 * has not said within BEAT_HELLO_HELD_MS that it holds this version (a new version, a
 * matchmaker of an earlier release, a restarted one). b NULL (tests): always. */
bool beat_hello_due(const beat *b, uint64_t version, uint64_t now_ms);
/* The matchmaker asked for the hello: the loop sends it now, not when it is next due. */
bool beat_hello_wanted(const beat *b);
/* The loop sent its hello of this version: the beats name it from now on. */
void beat_hello_sent(beat *b, uint64_t version);
/* The matchmaker's WorkerProbe, read by the loop: an answer to a beat (it holds our hello
 * of hello_version, or wants it), or an empty probe of our route (nothing). */
void beat_probe(beat *b, const Deckhand__Internal__WorkerProbe *p, uint64_t now_ms);
/* Beats handed to ZeroMQ so far (readiness). */
uint64_t beat_sent(const beat *b);
/* Stop beating and join the thread (again: nothing). Before the last, stopping beat. */
void beat_stop(beat *b);
/* Stop, close the socket, free; before the context closes. NULL: nothing. */
void beat_free(beat *b);

/* ---- the loop (worker_loop.c) -----------------------------------------------------------
 *
 * One turn of the worker's loop, and when the next one is due; main.c
 * polls the two sockets and calls worker_loop_turn after every wake-up.
 *
 * A turn reads what waits (StartMatch and AdoptMatch from the matchmaker, PlayerCommands
 * from gateways into the inbox, inbox.c), lets the host work the inbox for at most
 * WORKER_BATCH_MS, flushes (every Redis write of the batch goes out as one pipeline and
 * only then are the outputs released, host.h), and runs what is due: the lease, the hello,
 * adoption, timers, the bundle poll, the rating sweep (rater_sweep, store.h), and last the replays
 * sent to players (replay.c), a bounded share of them per turn. Adoption rounds are bounded in
 * time (HOST_ADOPT_TURN_MS) and follow each other turn after turn while the adopt set holds
 * ids, like the inbox's batches. The beats come from the beat thread (beat.c), which the turn
 * tells when it begins and ends. What stays queued is worked in the next turns, which poll
 * without waiting.
 */

#define WORKER_BEAT_MS  500
#define WORKER_HELLO_MS 500 /* a restarted matchmaker knows us within one beat */
#define WORKER_BATCH_MS 50  /* the host works the inbox this long per turn, at most */
#define WORKER_RATE_MS  250 /* matches:unrated is swept this often */
#define WORKER_RATE_MAX 16  /* jobs one sweep takes, at most */

typedef struct {
    inbox in;
    unsigned batch_ms; /* WORKER_BATCH_MS; 0: one command per turn (tests) */
    uint64_t next_lease, next_hello, next_poll, next_adopt, next_owned, next_rate, last_wake;
    rater rater;
    beat *beat;     /* borrowed (NULL: no beats); worker_loop_stop stops it */
    size_t due;     /* default answers made last turn: more may be due at once */
    bool adopting;  /* the adopt set held more ids: the next turn adopts at once */
    bool replaying; /* replays have work left (replay_work): the next turn comes soon */
    bool announced; /* main.c's poll found a bundle announcement waiting (bundles_tick) */
} worker_loop;

/* A loop whose inbox refuses commands beyond inbox_max queued (INBOX_MAX when 0). */
void worker_loop_init(worker_loop *l, uint64_t now_ms, size_t inbox_max);
void worker_loop_free(worker_loop *l);
/* How long the poll before the next turn may wait, in ms (0: work is queued). */
long worker_loop_timeout(const worker_loop *l, uint64_t now_ms);
/* One turn, on the real clock (dh_now_ms). */
void worker_loop_turn(worker_loop *l, host *h);
/* Whether the matchmaker has had a beat (readiness). */
bool worker_loop_beaten(const worker_loop *l);
/* The last word as the worker stops: flush, stop the beat thread, and a stopping beat on
 * the control DEALER, so the matchmaker moves our matches now rather than when the beats
 * stop. */
void worker_loop_stop(worker_loop *l, host *h);

/* ---- metrics and probes (worker_metrics.c) ----------------------------------------------
 *
 * What the worker's operator port shows (dh_ops.h; docs/OPERATIONS.md lists
 * every metric): the host's and the bundles' counters registered once at start-up, and
 * once per loop iteration the active-matches gauge, readiness and the heartbeat.

 */

/* Register every metric; h, bs and active are borrowed and must outlive ops. <0 on failure. */
int worker_metrics_register(host *h, bundles *bs, dh_ops *ops, dh_gauge *active);
/* The gauge and the probes, once per iteration; beaten: the matchmaker has had a beat. */
void worker_metrics_publish(host *h, dh_ops *ops, dh_gauge *active, bool beaten);

#endif
