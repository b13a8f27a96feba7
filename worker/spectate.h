/*
 * spectate.h: watchers of the matches a worker hosts (docs/ARCHITECTURE.md, "Spectators").
 *
 * A watcher is a player who is not seated in a match and asked its gateway to watch it
 * (PlayerCommand.spectate). Per watched match the worker keeps its watchers (player id and
 * the gateway identity to send through, at most --max-spectators) and a queue of
 * SpectatorFrames. After each batch that changed the match (and when a watcher attaches
 * while no frame is queued) ONE frame is built: the public View (engine_match_view with
 * ENGINE_SEAT_PUBLIC: no hand, no deck order, no decision) and the public events since the
 * last frame (engine_event.everyone, never a g:log_to). It is queued, packed, with a
 * release time of now + --spectator-delay-ms; spectate_tick sends the frames that are due
 * to every watcher of the match, the same bytes to each. The last frame carries GameOver;
 * once it is out the match's watchers are forgotten.
 *
 * Costs: a match nobody watches pays one NULL test per batch and per event
 * (host_match.watch); a watched one pays one public View and one pack per batch, whatever
 * its number of watchers, and one send per watcher per frame. The queued bytes of one
 * match are bounded (SPECTATE_QUEUE_BYTES): past it the oldest queued frames go (each
 * frame is a whole View, so a watcher only skips ahead; their events are lost).
 *
 * A watcher whose gateway is gone (EHOSTUNREACH) is dropped. This module stands on
 * worker.h and the engine only: host.c and host_output.c call it, it calls nothing of theirs.
 */
#ifndef DECKHAND_WORKER_SPECTATE_H
#define DECKHAND_WORKER_SPECTATE_H

#include "worker.h"

#define SPECTATE_MAX_DEFAULT   32    /* --max-spectators */
#define SPECTATE_DELAY_DEFAULT 10000 /* --spectator-delay-ms */
#define SPECTATE_MAX_LIMIT     10000
#define SPECTATE_DELAY_LIMIT   3600000
#define SPECTATE_QUEUE_BYTES   (1u << 20) /* queued frame bytes per match */

typedef struct {
    char player_id[HOST_ID_MAX];
    char route[DH_ZMQ_ID_MAX + 1]; /* the gateway identity its Spectate came through */
} spectate_watcher;

typedef struct spectate_frame spectate_frame;

/* One watched match; it outlives its host_match until its last frame is out. */
typedef struct spectate_match {
    char id[HOST_ID_MAX];
    host_match *hm; /* NULL once the match ended here */
    spectate_watcher *w;
    size_t nw, capw;
    spectate_frame *head, *tail; /* queued frames, oldest first */
    size_t qbytes;
    uint8_t *ev; /* the public events since the last frame, packed as SpectatorFrame.events */
    size_t evlen, evcap;
    bool over; /* the GameOver frame is queued */
} spectate_match;

struct spectate_set {
    spectate_match **v;
    size_t n, cap;
    uint32_t max;        /* watchers per match */
    uint64_t delay_ms;   /* how far behind the match a frame is released */
    size_t queue_bytes;  /* per match */
    dh_gauge spectators; /* watchers now, over every match */
    dh_counter frames;   /* SpectatorFrames sent (one per watcher per frame) */
    dh_counter dropped;  /* frames dropped unsent past queue_bytes */
};

/* Watchers for h: at most max per match, frames delay_ms behind. h->spect is the set;
 * without one (tests of other parts) every hook is a no-op and Spectate is UNAVAILABLE.
 * 0, or -1 out of memory. */
int spectate_init(host *h, uint32_t max, uint64_t delay_ms);
/* Forget every watcher and frame (after host_free). */
void spectate_free(host *h);

/* PlayerCommand.spectate or .spectate_stop from the gateway at identity; hm is the match
 * of that id hosted here, or NULL. Spectate: Catalog then Reply ok and a frame of now
 * queued (unless one is queued already); UNKNOWN_MATCH (not here, not started), BAD_REQUEST (seated
 * in it), FULL. A repeated Spectate of a watcher moves it to identity. SpectateStop: the watcher
 * goes when it came through identity; no Reply for cmd_id 0. */
void spectate_command(host *h, host_match *hm, const char *identity,
                      const Deckhand__Internal__PlayerCommand *pc, uint64_t now_ms);
/* One drained event of hm (call only when hm->watch): kept when public. */
void spectate_event(host_match *hm, const engine_event *ev);
/* A batch changed hm (call only when hm->watch): one frame queued. */
void spectate_changed(host *h, host_match *hm, uint64_t now_ms);
/* hm is over (call only when hm->watch): its last frame, with go, queued. */
void spectate_over(host *h, host_match *hm, const Deckhand__GameOver *go, uint64_t now_ms);
/* hm leaves this worker (call only when hm->watch): after spectate_over its frames still
 * go out; otherwise (another worker has it) its watchers and frames are forgotten. */
void spectate_gone(host *h, host_match *hm);
/* Send every frame that is due; forget matches with no watchers left or all sent. */
void spectate_tick(host *h, uint64_t now_ms);
/* Watchers of hm now. */
size_t spectate_count(const host_match *hm);

#endif
