/*
 * out_watch.c: watchers of hosted matches and their delayed SpectatorFrames (out.h).
 *
 * A frame is kept packed as a SpectatorFrame without its `spectators` field; at release
 * the ServerMessage around it (field 18) and that field (6, the watchers now) are written
 * by hand around the same bytes, so that one pack serves every watcher. The public events
 * are packed as they are drained, each as a SpectatorFrame `events` field (3), and
 * appended to the frame's bytes: protobuf reads fields in any order and concatenates
 * repeated ones.
 */
#include "out_watch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"
#include "dh_log.h"
#include "dh_wire.h"

#define OUT_WATCH_TAG_EVENTS  0x1a /* SpectatorFrame.events: field 3, length-delimited */
#define OUT_WATCH_TAG_COUNT   0x30 /* SpectatorFrame.spectators: field 6, varint */
#define OUT_WATCH_TAG_FRAME_1 0x92 /* ServerMessage.spectator_frame: field 18, length-delimited */
#define OUT_WATCH_TAG_FRAME_2 0x01
#define OUT_WATCH_VARINT_MAX  10

struct out_watch_frame {
    out_watch_frame *next;
    uint64_t due_ms;
    size_t len;
    uint8_t body[];
};

int out_watch_init(host *h, uint32_t max, uint64_t delay_ms)
{
    struct out_watch_set *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->max = max;
    s->delay_ms = delay_ms;
    s->queue_bytes = OUT_WATCH_QUEUE_BYTES;
    h->spect = s;
    return 0;
}

static void out_watch_match_free(out_watch_match *e)
{
    while (e->head) {
        out_watch_frame *f = e->head;
        e->head = f->next;
        free(f);
    }
    free(e->w);
    free(e->ev);
    free(e);
}

void out_watch_free(host *h)
{
    struct out_watch_set *s = h->spect;
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        out_watch_match_free(s->v[i]);
    free(s->v);
    free(s);
    h->spect = NULL;
}

out_watch_stats *out_watch_stats_of(host *h)
{
    return h->spect ? &h->spect->stats : NULL;
}

size_t out_watch_count(const host_match *hm)
{
    return hm->watch ? hm->watch->nw : 0;
}

static out_watch_match *out_watch_find(struct out_watch_set *s, const char *match_id)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->v[i]->id, match_id))
            return s->v[i];
    return NULL;
}

/* Forget the i-th watched match: its watchers, its frames, its link from the match. */
static void out_watch_forget(struct out_watch_set *s, size_t i)
{
    out_watch_match *e = s->v[i];
    dh_gauge_add(&s->stats.spectators, -(int64_t)e->nw);
    if (e->hm)
        e->hm->watch = NULL;
    s->v[i] = s->v[--s->n];
    out_watch_match_free(e);
}

/* A Reply to a watcher's command; none for the gateway's own re-attach after a move
 * (cmd_id 0: nobody waits), though a refusal is still counted. */
static void out_watch_reply(host *h, const char *route, const char *player_id, uint64_t cmd_id,
                            Deckhand__ErrorCode code, const char *text)
{
    if (cmd_id)
        out_reply(h, route, player_id, cmd_id, (int)code, text);
    else if (code != DECKHAND__ERROR_CODE__OK)
        dh_ops_count_code(h->stats.refused, (int)code);
}

/* Queue f on e, then drop the oldest frames (never the newest) while e holds too many bytes. */
static void out_watch_queue(struct out_watch_set *s, out_watch_match *e, out_watch_frame *f)
{
    f->next = NULL;
    if (e->tail)
        e->tail->next = f;
    else
        e->head = f;
    e->tail = f;
    e->qbytes += f->len;
    while (e->qbytes > s->queue_bytes && e->head != e->tail) {
        out_watch_frame *old = e->head;
        e->head = old->next;
        e->qbytes -= old->len;
        free(old);
        dh_counter_inc(&s->stats.dropped);
        dh_warn_every(DH_LOG_EVERY_MS, "match %s: spectator frames past %zu bytes: oldest dropped",
                      e->id, s->queue_bytes);
    }
}

/* One frame of hm now (with go: the last), released delay_ms from now. */
static void out_watch_frame_make(host *h, host_match *hm, const Deckhand__GameOver *go,
                                 uint64_t now_ms)
{
    struct out_watch_set *s = h->spect;
    out_watch_match *e = hm->watch;
    Deckhand__View *v = engine_match_view(hm->m, ENGINE_SEAT_PUBLIC);
    if (!v) {
        dh_error_every(DH_LOG_EVERY_MS, "match %s: no public view (out of memory)", hm->id);
        return;
    }
    for (size_t i = 0; i < v->n_players; i++) {
        uint32_t seat = v->players[i]->seat;
        v->players[i]->connected = seat < (uint32_t)hm->nseats && !hm->seats[seat].away_ms;
    }
    Deckhand__SpectatorFrame sf = DECKHAND__SPECTATOR_FRAME__INIT;
    sf.match_id = hm->id;
    sf.view = v;
    sf.delay_ms = (uint32_t)s->delay_ms;
    sf.game_over = (Deckhand__GameOver *)go;
    size_t len = deckhand__spectator_frame__get_packed_size(&sf);
    out_watch_frame *f = malloc(sizeof *f + len + e->evlen);
    if (!f) {
        dh_error_every(DH_LOG_EVERY_MS, "match %s: out of memory for a spectator frame", hm->id);
        engine_view_free(v);
        return;
    }
    deckhand__spectator_frame__pack(&sf, f->body);
    engine_view_free(v);
    if (e->evlen)
        memcpy(f->body + len, e->ev, e->evlen);
    f->len = len + e->evlen;
    f->due_ms = now_ms + s->delay_ms;
    e->evlen = 0;
    out_watch_queue(s, e, f);
}

void out_watch_event(host_match *hm, const engine_event *ev)
{
    out_watch_match *e = hm->watch;
    /* an event for everyone comes once per seat: seat 0's copy stands for all */
    if (!ev->everyone || ev->to_seat != 0 || e->over)
        return;
    Deckhand__Event pe = DECKHAND__EVENT__INIT;
    pe.match_id = hm->id;
    pe.event_seq = ev->public_seq; /* the match's public count: frames line up by it */
    pe.kind = (char *)(ev->kind ? ev->kind : "");
    pe.text = (char *)(ev->text ? ev->text : "");
    pe.seat = ev->about_seat;
    size_t len = deckhand__event__get_packed_size(&pe);
    if (dh_grow(&e->ev, &e->evcap, e->evlen + 1 + OUT_WATCH_VARINT_MAX + len, 1, 256) < 0) {
        dh_error_every(DH_LOG_EVERY_MS, "match %s: out of memory for a spectator event", hm->id);
        return;
    }
    e->ev[e->evlen++] = OUT_WATCH_TAG_EVENTS;
    e->evlen += dh_wire_put_varint(e->ev + e->evlen, len);
    e->evlen += deckhand__event__pack(&pe, e->ev + e->evlen);
}

void out_watch_changed(host *h, host_match *hm, uint64_t now_ms)
{
    if (!hm->watch->over)
        out_watch_frame_make(h, hm, NULL, now_ms);
}

void out_watch_over(host *h, host_match *hm, const Deckhand__GameOver *go, uint64_t now_ms)
{
    if (hm->watch->over)
        return;
    Deckhand__GameOver g = *go;
    g.event_seq = engine_match_event_seq(hm->m, ENGINE_SEAT_PUBLIC);
    out_watch_frame_make(h, hm, &g, now_ms);
    hm->watch->over = true;
}

void out_watch_gone(host *h, host_match *hm)
{
    struct out_watch_set *s = h->spect;
    out_watch_match *e = hm->watch;
    hm->watch = NULL;
    e->hm = NULL;
    if (e->over)
        return; /* its last frames still go out */
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i] == e)
            out_watch_forget(s, i);
}

/* The watcher player_id of e, or NULL. */
static out_watch_watcher *out_watch_watcher_of(out_watch_match *e, const char *player_id)
{
    for (size_t i = 0; e && i < e->nw; i++)
        if (!strcmp(e->w[i].player_id, player_id))
            return &e->w[i];
    return NULL;
}

static void out_watch_drop_watcher(struct out_watch_set *s, out_watch_match *e, size_t i)
{
    e->w[i] = e->w[--e->nw];
    dh_gauge_add(&s->stats.spectators, -1);
}

/* A Spectate: checks, the watcher added (or moved), Catalog, Reply, a frame of now. */
static void out_watch_add(host *h, host_match *hm, const char *identity, const char *pid,
                          uint64_t cmd_id, uint64_t now_ms)
{
    struct out_watch_set *s = h->spect;
    if (!hm || !hm->started || engine_match_finished(hm->m)) {
        out_watch_reply(h, identity, pid, cmd_id, DECKHAND__ERROR_CODE__UNKNOWN_MATCH,
                        "no such running match here");
        return;
    }
    for (int i = 0; i < hm->nseats; i++) {
        if (!strcmp(hm->seats[i].player_id, pid)) {
            out_watch_reply(h, identity, pid, cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST,
                            "you are seated in this match: resync to play it");
            return;
        }
    }
    out_watch_match *e = hm->watch;
    out_watch_watcher *w = out_watch_watcher_of(e, pid);
    if (!w && (e ? e->nw : 0) >= s->max) {
        out_watch_reply(h, identity, pid, cmd_id, DECKHAND__ERROR_CODE__FULL,
                        "this match has its most spectators");
        return;
    }
    if (!e) {
        if (dh_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v, 16) < 0 || !(e = calloc(1, sizeof *e)))
            goto nomem;
        snprintf(e->id, sizeof e->id, "%s", hm->id);
        e->hm = hm;
        hm->watch = e;
        s->v[s->n++] = e;
    }
    if (!w) {
        if (dh_grow(&e->w, &e->capw, e->nw + 1, sizeof *e->w, 4) < 0)
            goto nomem;
        w = &e->w[e->nw++];
        snprintf(w->player_id, sizeof w->player_id, "%s", pid);
        dh_gauge_add(&s->stats.spectators, 1);
        dh_info("match %s: %s watches (%zu watching)", hm->id, pid, e->nw);
    }
    snprintf(w->route, sizeof w->route, "%s", identity);
    out_catalog(h, hm, w->route, w->player_id); /* the cards frames' Views name */
    out_watch_reply(h, identity, pid, cmd_id, DECKHAND__ERROR_CODE__OK, NULL);
    /* A frame of now, unless frames are queued already: those reach this watcher too (each
     * is a whole View), and a watcher repeating Spectate cannot flood the others. */
    if (!e->tail)
        out_watch_frame_make(h, hm, NULL, now_ms);
    return;
nomem:
    if (e && !e->nw)
        out_watch_forget(s, s->n - 1);
    out_watch_reply(h, identity, pid, cmd_id, DECKHAND__ERROR_CODE__INTERNAL, "out of memory");
}

void out_watch_command(host *h, host_match *hm, const char *identity,
                       const Deckhand__Internal__PlayerCommand *pc, uint64_t now_ms)
{
    const char *pid = pc->player_id ? pc->player_id : "";
    const char *mid = pc->match_id ? pc->match_id : "";
    struct out_watch_set *s = h->spect;
    if (!s || !*pid) {
        out_watch_reply(h, identity, pid, pc->cmd_id, DECKHAND__ERROR_CODE__UNAVAILABLE,
                        "this worker takes no spectators");
        return;
    }
    if (pc->body_case == DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_SPECTATE) {
        out_watch_add(h, hm, identity, pid, pc->cmd_id, now_ms);
        return;
    }
    out_watch_match *e = out_watch_find(s, mid);
    out_watch_watcher *w = out_watch_watcher_of(e, pid);
    /* only the gateway that holds the watcher may stop it (it may have moved on) */
    if (w && !strcmp(w->route, identity)) {
        out_watch_drop_watcher(s, e, (size_t)(w - e->w));
        dh_info("match %s: %s stops watching (%zu watching)", mid, pid, e->nw);
    }
    out_watch_reply(h, identity, pid, pc->cmd_id, DECKHAND__ERROR_CODE__OK, NULL);
}

/* Send f to every watcher of e, who are counted in it; a watcher whose gateway is gone goes. */
static void out_watch_release(host *h, out_watch_match *e, const out_watch_frame *f)
{
    struct out_watch_set *s = h->spect;
    uint8_t count[1 + OUT_WATCH_VARINT_MAX], head[2 + OUT_WATCH_VARINT_MAX];
    size_t ncount = 0, nhead = 0;
    count[ncount++] = OUT_WATCH_TAG_COUNT;
    ncount += dh_wire_put_varint(count + ncount, e->nw);
    head[nhead++] = OUT_WATCH_TAG_FRAME_1;
    head[nhead++] = OUT_WATCH_TAG_FRAME_2;
    nhead += dh_wire_put_varint(head + nhead, f->len + ncount);
    uint8_t *msg = malloc(nhead + f->len + ncount);
    if (!msg) {
        dh_error_every(DH_LOG_EVERY_MS, "match %s: out of memory releasing a frame", e->id);
        return;
    }
    memcpy(msg, head, nhead);
    memcpy(msg + nhead, f->body, f->len);
    memcpy(msg + nhead + f->len, count, ncount);
    for (size_t i = e->nw; i-- > 0;) {
        if (out_send_packed(h, e->w[i].route, e->w[i].player_id, e->id,
                            DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__OTHER, msg,
                            nhead + f->len + ncount) < 0) {
            dh_info("match %s: watcher %s's gateway %s is gone: dropped", e->id, e->w[i].player_id,
                    e->w[i].route);
            out_watch_drop_watcher(s, e, i);
        } else {
            dh_counter_inc(&s->stats.frames);
        }
    }
    free(msg);
}

void out_watch_send(host *h, host_match *hm, const Deckhand__ServerMessage *sm)
{
    struct out_watch_set *s = h->spect;
    out_watch_match *e = s ? hm->watch : NULL;
    if (!e || !e->nw)
        return;
    size_t len = deckhand__server_message__get_packed_size(sm);
    uint8_t *msg = malloc(len ? len : 1);
    if (!msg) {
        dh_error_every(DH_LOG_EVERY_MS, "match %s: out of memory sending to watchers", e->id);
        return;
    }
    deckhand__server_message__pack(sm, msg);
    for (size_t i = e->nw; i-- > 0;)
        if (out_send_packed(h, e->w[i].route, e->w[i].player_id, e->id,
                            DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__OTHER, msg, len) < 0)
            out_watch_drop_watcher(s, e, i);
    free(msg);
}

void out_watch_tick(host *h, uint64_t now_ms)
{
    struct out_watch_set *s = h->spect;
    if (!s)
        return;
    for (size_t i = s->n; i-- > 0;) {
        out_watch_match *e = s->v[i];
        while (e->head && e->head->due_ms <= now_ms && e->nw) {
            out_watch_frame *f = e->head;
            out_watch_release(h, e, f);
            e->head = f->next;
            if (!e->head)
                e->tail = NULL;
            e->qbytes -= f->len;
            free(f);
        }
        if (!e->nw || (e->over && !e->head))
            out_watch_forget(s, i);
    }
}
