/*
 * host_resign.c: a player leaves a running match for good (deckhand.Resign; docs/PROTOCOL.md,
 * "In a match").
 *
 * It reuses the two ways a seat already leaves a match: a forfeit (host_timers.c, an
 * operator's removal under "forfeit") when fewer than two seats would play on, and a
 * removal with a bot playing the seat (host_admin.c under "bot") otherwise.
 *   - Ending (two seats, or no other player left to play on): the seat forfeits with the end reason
 * DH_END_RESIGNED; it ranks last, the others share first place, and the result is rated (a loss)
 * where the match is. The resigner's Reply ok goes out with the GameOver, once Redis has the end.
 *   - Playing on: the seat is marked resigned and removed (its player is refused from now
 *     on, on this worker and any adopter: DH_F_REMOVED "2"), a bot plays it whatever the
 *     queue's abandon policy, and it ranks last at the end (host_results). Its player gets
 *     Reply ok and a GameOver with reason "resigned" and no results; the others see it
 *     leave in their next View.
 */
#include "host_resign.h"

#include "host_persist.h"

#include <stdio.h>
#include <string.h>

#include "dh_keys.h"
#include "dh_log.h"
#include "out.h"

/* Whether the match plays on without seat: two seats or more have not resigned, and a
 * player (not a bot) still sits at one of them. */
static bool host_resign_plays_on(const host_match *hm, int seat)
{
    int on = 0, players = 0;
    for (int i = 0; i < hm->nseats; i++) {
        bool in = i != seat && !hm->seats[i].resigned;
        on += in;
        players += in && !hm->seats[i].bot[0];
    }
    return on >= 2 && players > 0;
}

/* Too few seats would play on: the match ends, the resigner forfeits. The Reply waits on
 * the end's write (host.c releases it with the GameOver). */
static void host_resign_end(host *h, host_match *hm, int seat, uint64_t cmd_id, const char *route,
                            uint64_t now_ms)
{
    host_seat *s = &hm->seats[seat];
    s->resigned = true;
    hm->forfeit_seat = seat;
    hm->resign_end = true;
    if (!host_end(h, hm, now_ms)) {
        s->resigned = hm->resign_end = false;
        hm->forfeit_seat = -1;
        out_reply(h, route, s->player_id, cmd_id, DECKHAND__ERROR_CODE__UNAVAILABLE,
                  "out of memory; resign again");
        return;
    }
    host_action *a = &h->acts[h->nacts - 1]; /* the end host_end just held */
    a->seat = seat;
    a->cmd_id = cmd_id;
    snprintf(a->route, sizeof a->route, "%s", route);
    dh_info("match %s: %s (seat %d) resigns: the match ends", hm->id, s->player_id, seat);
}

/* The resigner of a match that plays on: its GameOver without results, and it is detached. */
static void host_resign_leave(host *h, host_match *hm, int seat, uint64_t cmd_id, const char *route,
                              uint64_t now_ms)
{
    host_seat *s = &hm->seats[seat];
    s->resigned = s->removed = s->robot = true;
    s->away_ms = now_ms ? now_ms : 1;
    host_persist_notes(h, hm, now_ms); /* an adopter keeps it a bot's, and it ranks last */
    out_remember(s, cmd_id, 0, NULL);
    out_reply(h, route, s->player_id, cmd_id, 0, NULL);
    Deckhand__GameOver go = DECKHAND__GAME_OVER__INIT;
    go.match_id = hm->id;
    go.event_seq = engine_match_event_seq(hm->m, seat);
    go.reason = DH_END_RESIGNED;
    go.summary = "You resigned; a bot plays your seat and the others play on.";
    const char *ids[HOST_SEATS_MAX];
    for (int i = 0; i < hm->nseats && i < HOST_SEATS_MAX; i++)
        ids[i] = hm->seats[i].player_id;
    go.unrated = out_end_unrated(hm->unrated, "", ids,
                                 hm->nseats < HOST_SEATS_MAX ? hm->nseats : HOST_SEATS_MAX);
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER;
    sm.game_over = &go;
    out_send(h, route, s->player_id, &sm);
    s->route[0] = '\0';
    for (int i = 0; i < hm->nseats; i++)
        if (i != seat && hm->seats[i].route[0])
            out_update(h, hm, i); /* it left: their Views say so */
    dh_info("match %s: %s (seat %d) resigns: a bot plays on for it", hm->id, s->player_id, seat);
}

void host_resign(host *h, host_match *hm, int seat, uint64_t cmd_id, const char *route,
                 uint64_t now_ms)
{
    host_seat *s = &hm->seats[seat];
    const host_reply *old = out_recall(s, cmd_id);
    if (old) {
        out_reply(h, route, s->player_id, cmd_id, old->code, old->text);
        return;
    }
    if (host_over(hm) || hm->stalled) {
        out_reply(h, route, s->player_id, cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST,
                  "the match is over already");
        return;
    }
    if (host_resign_plays_on(hm, seat))
        host_resign_leave(h, hm, seat, cmd_id, route, now_ms);
    else
        host_resign_end(h, hm, seat, cmd_id, route, now_ms);
}
