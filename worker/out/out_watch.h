/*
 * out_watch.h: the watchers' own data (out_watch.c), private to the out wing: the rest of
 * the worker sees hm->watch and the counters (out.h). Its unit test reads it too, through
 * the written exception dh_worker_internal (worker/CMakeLists.txt).
 */
#ifndef DECKHAND_WORKER_OUT_WATCH_H
#define DECKHAND_WORKER_OUT_WATCH_H

#include "out.h"

typedef struct out_watch_frame out_watch_frame;

typedef struct {
    char player_id[HOST_ID_MAX];
    char route[DH_ZMQ_ID_MAX + 1]; /* the gateway identity its Spectate came through */
} out_watch_watcher;

/* One watched match; it outlives its host_match until its last frame is out. */
typedef struct out_watch_match {
    char id[HOST_ID_MAX];
    host_match *hm; /* NULL once the match ended here */
    out_watch_watcher *w;
    size_t nw, capw;
    out_watch_frame *head, *tail; /* queued frames, oldest first */
    size_t qbytes;
    uint8_t *ev; /* the public events since the last frame, packed as SpectatorFrame.events */
    size_t evlen, evcap;
    bool over; /* the GameOver frame is queued */
} out_watch_match;

struct out_watch_set {
    out_watch_match **v;
    size_t n, cap;
    uint32_t max;       /* watchers per match */
    uint64_t delay_ms;  /* how far behind the match a frame is released */
    size_t queue_bytes; /* per match */
    out_watch_stats stats;
};

#endif
