/*
 * host_admin.c: ending a match, removing a player and draining, as an operator asked
 * (host.h).
 */
#include "host.h"
#include "host_internal.h"
#include "host_persist.h"

#include <stdio.h>
#include <string.h>

#include "dh_log.h"
#include "out.h"

static const char *admin_str(const char *s)
{
    return s ? s : "";
}

/* Apply hm's pending end: the reason moves to admin_end, which makes it over. */
static void admin_end_now(host *h, host_match *hm, uint64_t now_ms)
{
    memcpy(hm->admin_end, hm->admin_ask, sizeof hm->admin_end);
    hm->admin_ask[0] = '\0';
    if (!host_end(h, hm, now_ms)) {
        memcpy(hm->admin_ask, hm->admin_end, sizeof hm->admin_ask); /* again next turn */
        hm->admin_end[0] = '\0';
        return;
    }
    dh_info("match %s: ended by an operator (%s)", hm->id, hm->admin_end);
}

/* The running match named id, or NULL (logged). */
static host_match *admin_match(host *h, const char *id, const char *what)
{
    host_match *hm = host_find(h, id);
    if (!hm || !hm->started || host_over(hm) || hm->admin_ask[0]) {
        dh_info("admin: %s of match %s ignored: not running here", what, id);
        return NULL;
    }
    return hm;
}

void host_admin_end(host *h, const Deckhand__Internal__AdminEndMatch *e, uint64_t now_ms)
{
    host_match *hm = admin_match(h, admin_str(e->match_id), "end");
    if (!hm)
        return;
    dh_info("admin: %s asks to end match %s: %s", admin_str(e->who), hm->id, admin_str(e->reason));
    snprintf(hm->admin_ask, sizeof hm->admin_ask, "admin: %s", admin_str(e->reason));
    if (!hm->busy)
        admin_end_now(h, hm, now_ms);
}

/* Under the "forfeit" policy a removed seat forfeits: the match ends once Redis has it. */
static void admin_forfeit(host *h, host_match *hm, uint64_t now_ms)
{
    for (int seat = 0; seat < hm->nseats; seat++) {
        if (!hm->seats[seat].removed || hm->seats[seat].resigned) /* a bot plays a resigner's */
            continue;
        hm->forfeit_seat = seat;
        if (!host_end(h, hm, now_ms))
            hm->forfeit_seat = -1;
        else
            dh_info("match %s: seat %d forfeits: an operator removed its player", hm->id, seat);
        return;
    }
}

void host_admin_tick(host *h, uint64_t now_ms)
{
    host_walk w = host_walk_from(h, 0);
    for (host_match *hm; (hm = host_walk_next(&w));) {
        if (hm->busy || host_over(hm))
            continue;
        if (hm->admin_ask[0])
            admin_end_now(h, hm, now_ms);
        else if (hm->set.forfeit)
            admin_forfeit(h, hm, now_ms);
    }
}

/* Tell the removed player its match is over for it, and detach its connection. */
static void admin_tell_removed(host *h, host_match *hm, host_seat *s, const char *reason)
{
    out_removed(h, hm, s, reason);
    s->route[0] = '\0';
}

void host_admin_remove(host *h, const Deckhand__Internal__AdminRemovePlayer *r, uint64_t now_ms)
{
    const char *pid = admin_str(r->player_id);
    host_match *hm = admin_match(h, admin_str(r->match_id), "remove");
    int seat = -1;
    for (int i = 0; hm && i < hm->nseats && seat < 0; i++)
        if (!strcmp(hm->seats[i].player_id, pid))
            seat = i;
    if (!hm || seat < 0 || hm->seats[seat].removed) {
        if (hm)
            dh_info("admin: remove of %s from match %s ignored: not seated", pid, hm->id);
        return;
    }
    host_seat *s = &hm->seats[seat];
    dh_info("admin: %s removes %s (seat %d) from match %s (abandon %s): %s", admin_str(r->who), pid,
            seat, hm->id, hm->set.forfeit ? "forfeit" : "bot", admin_str(r->reason));
    admin_tell_removed(h, hm, s, admin_str(r->reason));
    s->removed = true;
    s->away_ms = now_ms ? now_ms : 1;
    s->robot = !hm->set.forfeit; /* a bot plays the seat from now on, or it forfeits */
    /* in Redis before the forfeit: a worker that dies first leaves it to its adopter */
    host_persist_notes(h, hm, now_ms);
    if (hm->set.forfeit && !hm->busy) /* now, or at the next turn while a write is in flight */
        admin_forfeit(h, hm, now_ms);
}

void host_admin_drain(host *h, const Deckhand__Internal__AdminDrain *d)
{
    dh_info("admin: %s asks this worker to drain (%s): stopping; %zu matches move",
            admin_str(d->who), admin_str(d->reason), host_active(h));
    h->drain_asked = true;
}

void host_admin_query(host *h, const Deckhand__Internal__AdminQuery *q, uint64_t now_ms)
{
    Deckhand__Internal__AdminMatchInfo info = DECKHAND__INTERNAL__ADMIN_MATCH_INFO__INIT;
    Deckhand__Internal__AdminSeatInfo seats[HOST_SEATS_MAX], *seatp[HOST_SEATS_MAX];
    host_match *hm = host_find(h, admin_str(q->match_id));
    info.query_id = q->query_id;
    info.match_id = (char *)admin_str(q->match_id);
    info.waiting_seat = -1;
    if (hm && hm->started) {
        const engine_decision *d = engine_match_decision(hm->m);
        info.found = true;
        info.turn = engine_match_snapshot_version(hm->m);
        info.answers = hm->answers;
        if (d && d->seat >= 0) {
            info.waiting_seat = d->seat;
            info.waiting_ms = now_ms > hm->decision_ms ? now_ms - hm->decision_ms : 0;
        }
        for (int i = 0; i < hm->nseats && i < HOST_SEATS_MAX; i++) {
            const host_seat *s = &hm->seats[i];
            deckhand__internal__admin_seat_info__init(&seats[i]);
            seats[i].connected = s->route[0] && !s->away_ms;
            seats[i].bot = s->robot;
            seats[i].removed = s->removed;
            seatp[i] = &seats[i];
            info.n_seats++;
        }
        info.seats = seatp;
    }
    out_control(h, DECKHAND__INTERNAL__INTERNAL__BODY_ADMIN_INFO, &info);
}
