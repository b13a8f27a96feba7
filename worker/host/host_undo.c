/*
 * host_undo.c: a seat takes back a misclick (deckhand.proto UndoRequest, UndoAnswer,
 * UndoState; docs/worker.md, "Undo").
 *
 * The engine says when a seat's last answer may be taken back (engine_match_can_take_back:
 * nothing hidden revealed, no randomness, same turn). Unrated play (against bots, guests,
 * a match marked unrated) takes it back at once; in rated play every other seat is
 * asked (UndoState "asked", with the seats still awaited) and it is taken back when all
 * accept; one refusal ends it ("declined"), and so do HOST_UNDO_MS without every answer or
 * any answer given in the match meanwhile ("expired").
 *
 * Durable first: Redis must hold the match without the answer before anyone is told, or a
 * failover would bring the answer back. The undo is one fenced write (store_put_undo: the
 * history's entry popped, the turn's snapshot and its log without the answer), computed
 * from the engine as it is; only when it landed does the engine take the answer back (the
 * same rebuild an adopting worker makes from what was written), every seat get a full
 * View and the Reply and UndoState "accepted" go out. A failed write changes nothing.
 */
#include "host_persist.h"

#include <stdlib.h>
#include <string.h>

#include "dh_log.h"
#include "dh_token.h"
#include "out.h"

#define HOST_UNDO_MS 15000 /* an asked undo expires after this long without every answer */

/* UndoState of hm's ask (status, the seat that asked, the seats still awaited) to every
 * seat whose player is connected. */
static void host_undo_state(host *h, host_match *hm, int seat, const char *status, uint32_t waiting)
{
    uint32_t seats[HOST_SEATS_MAX];
    Deckhand__UndoState us = DECKHAND__UNDO_STATE__INIT;
    us.match_id = hm->id;
    us.seat = seat;
    us.status = (char *)status;
    for (int i = 0; i < hm->nseats; i++)
        if (waiting & (1u << i))
            seats[us.n_waiting++] = (uint32_t)i;
    us.waiting = seats;
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_UNDO;
    sm.undo = &us;
    for (int i = 0; i < hm->nseats; i++) {
        const host_seat *to = &hm->seats[i];
        if (to->route[0] && !to->away_ms && !to->removed)
            out_send(h, to->route, to->player_id, &sm);
    }
}

void host_undo_expire(host *h, host_match *hm)
{
    if (!hm->undo_asked)
        return;
    hm->undo_asked = false;
    host_undo_state(h, hm, hm->undo_seat, "expired", 0);
}

void host_undo_tick(host *h, host_match *hm, uint64_t now_ms)
{
    if (hm->undo_asked && now_ms - hm->undo_ms >= HOST_UNDO_MS)
        host_undo_expire(h, hm);
}

/* Hold the fenced write of hm without seat's last answer; the Reply goes to reply_seat's
 * cmd_id once it landed (host_undo_release). False when it could not even be held. */
static bool host_undo_write(host *h, host_match *hm, int seat, int reply_seat, uint64_t cmd_id,
                            uint64_t now_ms)
{
    size_t n = engine_match_log_len(hm->m), nlog = 0, snap_len = 0;
    store_blob *log = calloc(n ? n : 1, sizeof *log);
    uint8_t *hist = NULL;
    store_commit c = {.match_id = hm->id, .worker = h->worker_id, .epoch = hm->epoch};
    bool held = false;
    if (!log || !n)
        goto out;
    engine_answer last = engine_match_log_at(hm->m, n - 1);
    if (engine_answer_encode(&last, &hist, &c.hist_len) != 0)
        goto out;
    for (; nlog + 1 < n; nlog++) {
        engine_answer a = engine_match_log_at(hm->m, nlog);
        if (engine_answer_encode(&a, &log[nlog].data, &log[nlog].len) != 0)
            goto out;
    }
    c.snap = engine_match_snapshot(hm->m, &snap_len);
    c.snap_len = snap_len;
    host_persist_tail(h, hm, &c);
    c.hist = hist;
    c.log = log;
    c.nlog = nlog;
    int op = store_op(h->st, now_ms);
    if (op >= 0 && (!c.snap || store_put_undo(h->st, &c) < 0))
        op = -1;
    host_action *a = host_hold(h, HOST_ACT_UNDO, hm, op);
    if (a) {
        hm->snap_writing = engine_match_snapshot_version(hm->m);
        a->seat = reply_seat;
        a->undo_seat = seat;
        a->cmd_id = cmd_id;
        memcpy(a->route, hm->seats[reply_seat].route, sizeof a->route);
        held = true;
    }
out:
    for (size_t i = 0; i < nlog; i++)
        free(log[i].data);
    free(log);
    free(hist);
    return held;
}

/* Take seat's last answer back (its write first); reply_seat's cmd_id is answered. */
static void host_undo_start(host *h, host_match *hm, int seat, int reply_seat, uint64_t cmd_id,
                            uint64_t now_ms)
{
    const host_seat *s = &hm->seats[reply_seat];
    if (!host_undo_write(h, hm, seat, reply_seat, cmd_id, now_ms))
        out_reply(h, s->route, s->player_id, cmd_id, DECKHAND__ERROR_CODE__INTERNAL,
                  "out of memory");
}

/* The seats whose consent seat's undo needs: every other seat when the match is rated
 * (not marked unrated, every seat an account, as the rating job asks: host_persist.c),
 * else none (guests, bots: the undo is at once). */
static uint32_t host_undo_others(const host_match *hm, int seat)
{
    uint32_t mask = 0;
    if (hm->unrated)
        return 0;
    for (int i = 0; i < hm->nseats && i < 32; i++) {
        if (hm->seats[i].bot[0] || !dh_token_is_account_id(hm->seats[i].player_id))
            return 0;
        if (i != seat)
            mask |= 1u << i;
    }
    return mask;
}

void host_undo_request(host *h, host_match *hm, int seat, uint64_t cmd_id, uint64_t now_ms)
{
    host_seat *s = &hm->seats[seat];
    if (host_over(hm) || !engine_match_can_take_back(hm->m, seat)) {
        out_reply(h, s->route, s->player_id, cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST,
                  "nothing to undo: only your last answer, in the same turn, before anything "
                  "hidden was revealed or anything random happened");
        return;
    }
    if (hm->undo_asked) {
        out_reply(h, s->route, s->player_id, cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST,
                  "an undo is already waiting for the other players");
        return;
    }
    uint32_t others = host_undo_others(hm, seat);
    if (!others) {
        host_undo_start(h, hm, seat, seat, cmd_id, now_ms);
        return;
    }
    hm->undo_asked = true;
    hm->undo_seat = seat;
    hm->undo_waiting = others;
    hm->undo_ms = now_ms;
    out_reply(h, s->route, s->player_id, cmd_id, DECKHAND__ERROR_CODE__OK, NULL);
    host_undo_state(h, hm, seat, "asked", others);
}

void host_undo_answer(host *h, host_match *hm, int seat, uint64_t cmd_id, bool accept,
                      uint64_t now_ms)
{
    host_seat *s = &hm->seats[seat];
    if (!hm->undo_asked || !(hm->undo_waiting & (1u << seat))) {
        out_reply(h, s->route, s->player_id, cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST,
                  "no undo is waiting for your answer");
        return;
    }
    if (!accept) {
        hm->undo_asked = false;
        out_reply(h, s->route, s->player_id, cmd_id, DECKHAND__ERROR_CODE__OK, NULL);
        host_undo_state(h, hm, hm->undo_seat, "declined", 0);
        return;
    }
    hm->undo_waiting &= ~(1u << seat);
    if (hm->undo_waiting) {
        out_reply(h, s->route, s->player_id, cmd_id, DECKHAND__ERROR_CODE__OK, NULL);
        host_undo_state(h, hm, hm->undo_seat, "asked", hm->undo_waiting);
        return;
    }
    hm->undo_asked = false;
    host_undo_start(h, hm, hm->undo_seat, seat, cmd_id, now_ms);
}

bool host_undo_release(host *h, host_action *a, uint64_t now_ms)
{
    host_match *hm = a->hm;
    host_seat *s = &hm->seats[a->seat];
    bool ok = store_ok(h->st, a->op);
    host_persist_landed(hm, ok);
    if (!ok) {
        bool fenced = store_fenced(h->st, a->op);
        out_reply(h, a->route, s->player_id, a->cmd_id,
                  fenced ? DECKHAND__ERROR_CODE__UNKNOWN_MATCH : DECKHAND__ERROR_CODE__UNAVAILABLE,
                  fenced ? "the match moved to another worker; resync"
                         : "store unavailable, retry");
        return !fenced;
    }
    engine_error ee = {0};
    if (engine_match_take_back(hm->m, &ee) != ENGINE_OK)
        dh_error("match %s: the undo landed in redis but not in the engine: %s", hm->id,
                 ee.message);
    if (hm->answers)
        hm->answers--;
    dh_info("match %s: seat %d took back its last answer", hm->id, a->undo_seat);
    out_reply(h, a->route, s->player_id, a->cmd_id, DECKHAND__ERROR_CODE__OK, NULL);
    host_undo_state(h, hm, a->undo_seat, "accepted", 0);
    for (int i = 0; i < hm->nseats; i++)
        out_view_forget(&hm->seats[i]); /* a full View to every seat */
    out_state(h, hm);
    if (hm->watch)
        out_watch_changed(h, hm, now_ms);
    engine_match_settle(hm->m);
    return true;
}
