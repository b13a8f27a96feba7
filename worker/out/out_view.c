/*
 * out_view.c: what each seat is shown of its match, as full Views and ViewDeltas.
 *
 * The engine decides visibility (engine_match_view); this file never looks at the match
 * itself. For every seat it remembers a fingerprint of each zone (the engine's, made from
 * its ids as it built the View) and the value of each counter of the View it last sent, and after a
 * change it compares the seat's new View with that memory and sends only the zones and counters
 * that differ, copied from the new View. A delta therefore carries nothing the seat's own full View
 * would not show it. A full View goes when the seat has nothing to build on (just attached, a new
 * connection, Resync, another worker) or when the zones or counters themselves came or
 * went; the Catalog of the match's bundle goes before the first one a connection gets.
 */
#include "out.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dh_hash.h"
#include "dh_log.h"

struct host_seen {
    char catalog[72]; /* the bundle whose Catalog this connection has, "" for none */
    bool have;        /* the fields below describe a View the seat was sent */
    uint64_t shape;   /* the zones' and counters' names and owners, and the players */
    uint64_t eshape;  /* the engine's part of it (engine_view_shape) */
    size_t nzones, ncounters;
    size_t zcap, ccap; /* the arrays below hold that many; they only grow */
    uint64_t *zone;    /* a fingerprint of each zone as the seat saw it */
    uint64_t *stamp;   /* each zone's stamp (engine_view_zone_stamp) when it was seen */
    uint64_t epoch;    /* the stamps' (engine_view_epoch) */
    int64_t *counter;  /* each counter's value */
    /* the pending state it was last sent: a delta that would change none of it, nor a
     * zone or counter, is not sent (see send_delta) */
    int32_t waiting_for;
    uint64_t decision_id; /* its own pending decision, 0 for none */
    uint64_t event_seq;
    bool finished;
};

/* The View's shape (engine_view_shape) with the players' connected flags, which the worker
 * sets on it (mark_connected). */
static uint64_t view_shape(const Deckhand__View *v)
{
    uint64_t h = engine_view_shape(v);
    for (size_t i = 0; i < v->n_players; i++)
        h = dh_fnv1a(h, &v->players[i]->connected, sizeof v->players[i]->connected);
    return h;
}

void out_view_forget(host_seat *s)
{
    if (!s->seen)
        return;
    free(s->seen->zone);
    free(s->seen->stamp);
    free(s->seen->counter);
    free(s->seen);
    s->seen = NULL;
}

/* Remember v as what the seat was shown. False when out of memory (then nothing is
 * remembered, and the next update is a full View). */
static bool seen_keep(host_seen *sn, const Deckhand__View *v)
{
    /* a full View whose zones or counters came or went reuses the arrays while they fit
     * (they grow with room to spare: counters come one at a time) */
    if (v->n_zones >= sn->zcap || !sn->zone || !sn->stamp) {
        free(sn->zone);
        free(sn->stamp);
        sn->zcap = v->n_zones + v->n_zones / 2 + 8;
        sn->zone = malloc(sn->zcap * sizeof *sn->zone);
        sn->stamp = malloc(sn->zcap * sizeof *sn->stamp);
    }
    if (v->n_counters >= sn->ccap || !sn->counter) {
        free(sn->counter);
        sn->ccap = v->n_counters + v->n_counters / 2 + 8;
        sn->counter = malloc(sn->ccap * sizeof *sn->counter);
    }
    sn->have = sn->zone && sn->stamp && sn->counter;
    if (!sn->have) {
        sn->zcap = sn->ccap = 0; /* whatever was allocated is freed and made again */
        return false;
    }
    sn->nzones = v->n_zones;
    sn->ncounters = v->n_counters;
    sn->shape = view_shape(v);
    sn->eshape = engine_view_shape(v);
    sn->epoch = engine_view_epoch(v);
    if (v->n_zones) {
        memcpy(sn->zone, engine_view_zone_prints(v), v->n_zones * sizeof *sn->zone);
        memcpy(sn->stamp, engine_view_zone_stamps(v), v->n_zones * sizeof *sn->stamp);
    }
    for (size_t i = 0; i < v->n_counters; i++)
        sn->counter[i] = v->counters[i]->value;
    sn->waiting_for = v->waiting_for;
    sn->decision_id = v->decision ? v->decision->decision_id : 0;
    sn->event_seq = v->event_seq;
    sn->finished = v->finished;
    return true;
}

/* Whether v's pending state differs from what the seat was last sent; remembers v's. */
static bool pending_changed(host_seen *sn, const Deckhand__View *v)
{
    uint64_t decision_id = v->decision ? v->decision->decision_id : 0;
    bool changed = sn->waiting_for != v->waiting_for || sn->decision_id != decision_id ||
                   sn->event_seq != v->event_seq || sn->finished != v->finished;
    sn->waiting_for = v->waiting_for;
    sn->decision_id = decision_id;
    sn->event_seq = v->event_seq;
    sn->finished = v->finished;
    return changed;
}

/* The next number of this seat's Views: it starts from the wall clock so a seat's
 * numbers from another worker (the match moved) do not repeat ours. */
static uint64_t next_view_seq(host_seat *s)
{
    if (!s->view_seq) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        s->view_seq = ((uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000) << 8;
    }
    return ++s->view_seq;
}

static void send_catalog(host *h, host_match *hm, host_seat *s, const char *bundle_id)
{
    if (!strcmp(s->seen->catalog, bundle_id))
        return;
    out_catalog(h, hm, s->route, s->player_id);
    snprintf(s->seen->catalog, sizeof s->seen->catalog, "%s", bundle_id);
}

/* v in full, after the Catalog when this connection lacks it. */
static void send_full(host *h, host_match *hm, host_seat *s, Deckhand__View *v)
{
    send_catalog(h, hm, s, v->bundle_id);
    v->view_seq = next_view_seq(s);
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_VIEW;
    sm.view = v;
    out_send(h, s->route, s->player_id, &sm);
    seen_keep(s->seen, v);
}

/* Zones and counters a delta lists on the stack; more go on the heap. */
#define HOST_DELTA_STACK 64

/* What differs between the seat's last View and v, or -1 when v is a different shape
 * (or out of memory): then only a full View will do. When nothing the seat sees differs,
 * nothing is sent: a change the seat cannot see (another player answering a question
 * about its hidden hand, such as declining to reveal a Moat) must not show as a message
 * either, or the pattern of messages tells what the content hides (issue 12, case 8). */
static int send_delta(host *h, host_seat *s, Deckhand__View *v)
{
    host_seen *sn = s->seen;
    if (!sn->have || sn->nzones != v->n_zones || sn->ncounters != v->n_counters ||
        sn->shape != view_shape(v))
        return -1;
    int rc = -1;
    Deckhand__ViewDelta d = DECKHAND__VIEW_DELTA__INIT;
    Deckhand__Zone *zbuf[HOST_DELTA_STACK];
    Deckhand__Counter *cbuf[HOST_DELTA_STACK];
    d.zones = v->n_zones <= HOST_DELTA_STACK ? zbuf : malloc(v->n_zones * sizeof *d.zones);
    d.counters =
        v->n_counters <= HOST_DELTA_STACK ? cbuf : malloc(v->n_counters * sizeof *d.counters);
    if (!d.zones || !d.counters)
        goto out;
    /* The same shape: remembering v is updating what changed, while listing it. A zone
     * engine_match_view_since kept has the fingerprint it had: it is never listed. */
    sn->eshape = engine_view_shape(v);
    sn->epoch = engine_view_epoch(v);
    const uint64_t *prints = engine_view_zone_prints(v), *stamps = engine_view_zone_stamps(v);
    for (size_t i = 0; i < v->n_zones; i++) {
        if (prints[i] != sn->zone[i])
            d.zones[d.n_zones++] = v->zones[i];
        sn->zone[i] = prints[i];
        sn->stamp[i] = stamps[i];
    }
    for (size_t i = 0; i < v->n_counters; i++) {
        if (v->counters[i]->value != sn->counter[i])
            d.counters[d.n_counters++] = v->counters[i];
        sn->counter[i] = v->counters[i]->value;
    }
    if (!pending_changed(sn, v) && !d.n_zones && !d.n_counters) {
        rc = 0;
        goto out;
    }
    d.match_id = v->match_id;
    d.event_seq = v->event_seq;
    d.seat = v->seat;
    d.base_view_seq = s->view_seq;
    d.view_seq = next_view_seq(s);
    d.waiting_for = v->waiting_for;
    d.decision = v->decision;
    d.finished = v->finished;
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_VIEW_DELTA;
    sm.view_delta = &d;
    out_send(h, s->route, s->player_id, &sm);
    rc = 0;
out:
    if (d.zones != zbuf)
        free(d.zones);
    if (d.counters != cbuf)
        free(d.counters);
    return rc;
}

/* The engine knows nothing of connections: a player is connected unless the worker counts
 * it away (its gateway said it left, or it never attached within HOST_ATTACH_MS). A seat
 * not attached yet (the match just started or moved) counts as connected meanwhile, so
 * the start of a match or a move costs no extra full View. */
static void mark_connected(const host_match *hm, Deckhand__View *v)
{
    for (size_t i = 0; i < v->n_players; i++) {
        uint32_t seat = v->players[i]->seat;
        const host_seat *s = seat < (uint32_t)hm->nseats ? &hm->seats[seat] : NULL;
        v->players[i]->connected = s && !s->away_ms;
    }
}

/* The seat's View as the worker sends it; with sn (what the seat was last shown), the
 * zones unchanged since left without their cards (engine_match_view_since), for a delta. */
static Deckhand__View *view_build(host *h, host_match *hm, int seat, const host_seen *sn)
{
    engine_view_since since = {0};
    if (sn && sn->have)
        since = (engine_view_since){sn->eshape, sn->epoch, sn->nzones, sn->stamp, sn->zone};
    Deckhand__View *v = engine_match_view_since(hm->m, seat, since.n ? &since : NULL);
    if (!v)
        return NULL;
    mark_connected(hm, v);
    if (v->decision)
        v->decision->time_left_ms = out_time_left_ms(h, hm, h->now_ms);
    return v;
}

static void out_view_seat(host *h, host_match *hm, int seat, bool full)
{
    host_seat *s = &hm->seats[seat];
    if (!s->route[0]) {
        out_view_forget(s); /* nobody saw it: the next one is in full */
        return;
    }
    if (!s->seen && !(s->seen = calloc(1, sizeof *s->seen))) {
        dh_error_every(DH_LOG_EVERY_MS, "match %s: out of memory for seat %d", hm->id, seat);
        return;
    }
    Deckhand__View *v = view_build(h, hm, seat, full ? NULL : s->seen);
    if (v && !full && send_delta(h, s, v) == 0) {
        engine_view_free(v);
        return;
    }
    if (v && engine_view_kept(v)) { /* zones without their cards: never sent in full */
        engine_view_free(v);
        v = view_build(h, hm, seat, NULL);
    }
    if (!v) {
        dh_error_every(DH_LOG_EVERY_MS, "match %s: no view for seat %d (out of memory)", hm->id,
                       seat);
        s->seen->have = false;
        return;
    }
    send_full(h, hm, s, v);
    engine_view_free(v);
}

void out_view(host *h, host_match *hm, int seat)
{
    out_view_seat(h, hm, seat, true);
}

void out_update(host *h, host_match *hm, int seat)
{
    out_view_seat(h, hm, seat, false);
}

/* The decider's View or ViewDelta carries its DecisionRequest (without can_undo), which
 * it is also sent on its own: those bytes are kept as they are packed and sent again
 * (out_decision_kept), not built and packed a second time. */
void out_state(host *h, host_match *hm)
{
    out_events(h, hm);
    const engine_decision *d = engine_match_decision(hm->m);
    int decider = d && d->seat >= 0 && d->seat < hm->nseats ? d->seat : -1;
    h->kept_decision.len = 0;
    for (int i = 0; i < hm->nseats; i++) {
        h->keep_decision = i == decider;
        out_update(h, hm, i);
        h->keep_decision = false;
    }
    if (decider >= 0)
        out_decision_kept(h, hm, decider);
}
