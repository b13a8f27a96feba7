/*
 * test_worker_spectate.c: a worker's watchers (worker/out/out_watch.c) on a real host and the
 * Dominion bundle (rig_worker.h, a fake clock): Catalog and Reply at once, frames only after
 * the delay, one frame per batch with only public zones and public events (what both seats
 * got, never a seat's g:log_to), the cap (FULL), a seated player (BAD_REQUEST), an unknown
 * match, SpectateStop, the last frame's GameOver, a watcher whose gateway is gone, the bound
 * on queued bytes, no frame work for a match nobody watches, and the frames' numbering by
 * the match's public event count.
 */
#include <stdio.h>
#include <string.h>

#include "dh_test.h"
#include "host.h"
#include "rig_worker.h"
#include "out_watch.h"

#define DELAY 1000

static void spectate_via(rig_worker *r, const char *via, const char *match, const char *player,
                         uint64_t cmd_id, bool stop)
{
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    Deckhand__Spectate sp = DECKHAND__SPECTATE__INIT;
    Deckhand__SpectateStop st = DECKHAND__SPECTATE_STOP__INIT;
    pc.match_id = (char *)match;
    pc.player_id = (char *)player;
    pc.cmd_id = cmd_id;
    if (stop) {
        pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_SPECTATE_STOP;
        pc.spectate_stop = &st;
    } else {
        sp.match_id = (char *)match;
        pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_SPECTATE;
        pc.spectate = &sp;
    }
    host_command(&r->h, via, &pc, r->now);
}

static void open_watched(rig_worker *r, uint32_t max)
{
    rig_worker_open(r, "scripts", NULL);
    CU_ASSERT_EQUAL_FATAL(out_watch_init(&r->h, max, DELAY), 0);
}

static void close_watched(rig_worker *r)
{
    rig_worker_close_drained(r);
    out_watch_free(&r->h);
}

/* The Reply to cmd_id for player in o: its code (0 ok), or -1 when none came. */
static int reply_code(const rig_outbox *o, const char *player, uint64_t cmd_id)
{
    for (size_t i = 0; i < o->n; i++) {
        const Deckhand__ServerMessage *m = o->msg[i];
        if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY && m->reply->cmd_id == cmd_id &&
            !strcmp(o->player[i], player))
            return m->reply->ok ? 0 : (m->reply->error ? (int)m->reply->error->code : 99);
    }
    return -1;
}

static size_t count_frames(const rig_outbox *o, const char *player)
{
    size_t n = 0;
    for (size_t i = 0; i < o->n; i++)
        n += o->msg[i]->body_case == DECKHAND__SERVER_MESSAGE__BODY_SPECTATOR_FRAME &&
             !strcmp(o->player[i], player);
    return n;
}

static void test_spectator_gets_catalog_and_reply_then_a_frame_after_the_delay(void)
{
    rig_worker r;
    open_watched(&r, 4);
    host_match *hm = rig_worker_started(&r, "m-w1", "dominion", NULL);
    CU_ASSERT_PTR_NULL(hm->watch); /* nobody watches: nothing kept */
    spectate_via(&r, "gw-t", "m-w1", "p-watch", 7, false);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(o.n, 2);
    CU_ASSERT_PTR_NOT_NULL(rig_outbox_find(&o, "p-watch", DECKHAND__SERVER_MESSAGE__BODY_CATALOG));
    CU_ASSERT_EQUAL(reply_code(&o, "p-watch", 7), 0);
    CU_ASSERT_EQUAL(count_frames(&o, "p-watch"), 0);
    rig_outbox_free(&o);

    out_watch_tick(&r.h, r.now + DELAY - 1);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(o.n, 0); /* not before the delay */
    rig_outbox_free(&o);

    out_watch_tick(&r.h, r.now + DELAY);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL_FATAL(o.n, 1);
    const Deckhand__ServerMessage *m =
        rig_outbox_find(&o, "p-watch", DECKHAND__SERVER_MESSAGE__BODY_SPECTATOR_FRAME);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const Deckhand__SpectatorFrame *f = m->spectator_frame;
    CU_ASSERT_STRING_EQUAL(f->match_id, "m-w1");
    CU_ASSERT_EQUAL(f->spectators, 1);
    CU_ASSERT_EQUAL(f->delay_ms, DELAY);
    CU_ASSERT_PTR_NULL(f->game_over);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f->view);
    CU_ASSERT_PTR_NULL(f->view->decision);
    CU_ASSERT_TRUE(f->view->n_zones > 0);
    CU_ASSERT_EQUAL(r.h.spect->stats.spectators, 1);
    CU_ASSERT_EQUAL(r.h.spect->stats.frames, 1);
    rig_outbox_free(&o);
    close_watched(&r);
}

/* Every event text each seat received in o, tagged by seat: "0:text" / "1:text". */
typedef struct {
    char text[2048][96];
    int seat[2048];
    size_t n;
} seen_events;

static bool seen_by(const seen_events *s, int seat, const char *text)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->seat[i] == seat && !strncmp(s->text[i], text, sizeof s->text[i] - 1))
            return true;
    return false;
}

static void note_events(seen_events *s, const rig_outbox *o)
{
    for (size_t i = 0; i < o->n && s->n < 2048; i++) {
        if (o->msg[i]->body_case != DECKHAND__SERVER_MESSAGE__BODY_EVENT)
            continue;
        int seat = !strcmp(o->player[i], rig_worker_players[1]);
        s->seat[s->n] = seat;
        snprintf(s->text[s->n], sizeof s->text[s->n], "%s", o->msg[i]->event->text);
        s->n++;
    }
}

/* Nothing in a frame's view that the public may not see: hand, deck and look zones hold no
 * card, a discard pile (a `top` zone) at most its top one. */
static void check_public(const Deckhand__View *v)
{
    CU_ASSERT_PTR_NULL(v->decision);
    for (size_t z = 0; z < v->n_zones; z++) {
        const Deckhand__Zone *zone = v->zones[z];
        if (!strcmp(zone->name, "hand") || !strcmp(zone->name, "deck") ||
            !strcmp(zone->name, "look"))
            CU_ASSERT_EQUAL(zone->n_cards, 0);
        if (!strcmp(zone->name, "discard"))
            CU_ASSERT_TRUE(zone->n_cards <= 1);
    }
}

static void test_spectator_never_sees_a_hand_or_a_private_event(void)
{
    rig_worker r;
    open_watched(&r, 4);
    host_match *hm = rig_worker_started(&r, "m-w2", "dominion", NULL);
    spectate_via(&r, "gw-t", "m-w2", "p-watch", 1, false);
    static seen_events seats;
    seats.n = 0;
    size_t frames = 0, events = 0, private_seen = 0;
    uint64_t cmd = 10;
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    for (int step = 0; step < 40 && (hm = host_find(&r.h, "m-w2")); step++) {
        CU_ASSERT_TRUE_FATAL(rig_worker_answer(&r, hm, cmd++));
        host_flush(&r.h, r.now);
        r.now += DELAY; /* every frame so far is due */
        out_watch_tick(&r.h, r.now);
        rig_worker_gw_drain(&r, &o);
        note_events(&seats, &o);
        for (size_t i = 0; i < o.n; i++) {
            if (o.msg[i]->body_case == DECKHAND__SERVER_MESSAGE__BODY_EVENT) {
                int seat = !strcmp(o.player[i], rig_worker_players[1]);
                /* a text only one seat got so far, with "You": a g:log_to */
                private_seen += !strncmp(o.msg[i]->event->text, "You ", 4) &&
                                !seen_by(&seats, !seat, o.msg[i]->event->text);
            }
            if (strcmp(o.player[i], "p-watch"))
                continue;
            /* the watcher gets frames only: no Event, no View, no DecisionRequest */
            CU_ASSERT_EQUAL_FATAL(o.msg[i]->body_case,
                                  DECKHAND__SERVER_MESSAGE__BODY_SPECTATOR_FRAME);
            const Deckhand__SpectatorFrame *f = o.msg[i]->spectator_frame;
            check_public(f->view);
            frames++;
            for (size_t e = 0; e < f->n_events; e++) {
                /* a public event reached both seats; a private one only its seat */
                CU_ASSERT_TRUE(seen_by(&seats, 0, f->events[e]->text));
                CU_ASSERT_TRUE(seen_by(&seats, 1, f->events[e]->text));
                CU_ASSERT_NOT_EQUAL(strncmp(f->events[e]->text, "You ", 4), 0);
                events++;
            }
        }
        rig_outbox_free(&o);
    }
    CU_ASSERT_TRUE(frames >= 40); /* one per batch, and the attach's */
    CU_ASSERT_TRUE(events > 0);
    CU_ASSERT_TRUE(private_seen >
                   0); /* the seats did get private lines: the check means something */
    close_watched(&r);
}

static void test_spectator_cap_seat_and_unknown_match_are_refused(void)
{
    rig_worker r;
    open_watched(&r, 2);
    rig_worker_started(&r, "m-w3", "dominion", NULL);
    spectate_via(&r, "gw-t", "m-w3", "p-a", 1, false);
    spectate_via(&r, "gw-t", "m-w3", "p-b", 1, false);
    spectate_via(&r, "gw-t", "m-w3", "p-c", 1, false);
    spectate_via(&r, "gw-t", "m-w3", "p-a", 2, false); /* again: not a third watcher */
    spectate_via(&r, "gw-t", "m-w3", rig_worker_players[0], 3, false);
    spectate_via(&r, "gw-t", "m-nope", "p-d", 4, false);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, "p-a", 1), 0);
    CU_ASSERT_EQUAL(reply_code(&o, "p-b", 1), 0);
    CU_ASSERT_EQUAL(reply_code(&o, "p-c", 1), DECKHAND__ERROR_CODE__FULL);
    CU_ASSERT_EQUAL(reply_code(&o, "p-a", 2), 0);
    CU_ASSERT_EQUAL(reply_code(&o, rig_worker_players[0], 3), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(reply_code(&o, "p-d", 4), DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    CU_ASSERT_PTR_NULL(rig_outbox_find(&o, "p-c", DECKHAND__SERVER_MESSAGE__BODY_CATALOG));
    rig_outbox_free(&o);
    CU_ASSERT_EQUAL(out_watch_count(host_find(&r.h, "m-w3")), 2);
    CU_ASSERT_EQUAL(r.h.spect->stats.spectators, 2);
    close_watched(&r);
}

static void test_repeated_spectate_makes_no_more_frames(void)
{
    rig_worker r;
    open_watched(&r, 4);
    rig_worker_started(&r, "m-w10", "dominion", NULL);
    spectate_via(&r, "gw-t", "m-w10", "p-a", 1, false);
    spectate_via(&r, "gw-t", "m-w10", "p-b", 1, false);
    for (uint64_t i = 2; i < 50; i++)
        spectate_via(&r, "gw-t", "m-w10", "p-a", i, false);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, "p-a", 49), 0);
    rig_outbox_free(&o);
    out_watch_tick(&r.h, r.now + DELAY);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(count_frames(&o, "p-b"), 1);
    CU_ASSERT_EQUAL(count_frames(&o, "p-a"), 1);
    rig_outbox_free(&o);
    /* nothing queued any more: a new watcher gets a frame of its own */
    spectate_via(&r, "gw-t", "m-w10", "p-c", 1, false);
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    out_watch_tick(&r.h, r.now + DELAY);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(count_frames(&o, "p-c"), 1);
    rig_outbox_free(&o);
    close_watched(&r);
}

static void test_max_spectators_zero_takes_none(void)
{
    rig_worker r;
    open_watched(&r, 0);
    host_match *hm = rig_worker_started(&r, "m-w9", "dominion", NULL);
    spectate_via(&r, "gw-t", "m-w9", "p-a", 1, false);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, "p-a", 1), DECKHAND__ERROR_CODE__FULL);
    rig_outbox_free(&o);
    CU_ASSERT_PTR_NULL(hm->watch);
    close_watched(&r);
}

static void test_spectate_stop_stops_frames_and_frees_the_match(void)
{
    rig_worker r;
    open_watched(&r, 4);
    host_match *hm = rig_worker_started(&r, "m-w4", "dominion", NULL);
    spectate_via(&r, "gw-t", "m-w4", "p-a", 1, false);
    spectate_via(&r, "gw-t", "m-w4", "p-b", 1, false);
    spectate_via(&r, "gw-other", "m-w4", "p-a", 0, true); /* not its gateway: ignored */
    spectate_via(&r, "gw-t", "m-w4", "p-b", 0, true);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    out_watch_tick(&r.h, r.now + DELAY);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(count_frames(&o, "p-a"), 1); /* one attach frame for both */
    CU_ASSERT_EQUAL(count_frames(&o, "p-b"), 0);
    rig_outbox_free(&o);

    spectate_via(&r, "gw-t", "m-w4", "p-a", 2, true);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, "p-a", 2), 0);
    rig_outbox_free(&o);
    CU_ASSERT_TRUE(rig_worker_answer(&r, hm, 20));
    host_flush(&r.h, r.now);
    out_watch_tick(&r.h, r.now + DELAY);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(count_frames(&o, "p-a"), 0);
    rig_outbox_free(&o);
    CU_ASSERT_PTR_NULL(hm->watch); /* no watcher: no frame work any more */
    CU_ASSERT_EQUAL(r.h.spect->n, 0);
    CU_ASSERT_EQUAL(r.h.spect->stats.spectators, 0);
    close_watched(&r);
}

static void test_spectator_sees_the_match_to_its_game_over(void)
{
    rig_worker r;
    open_watched(&r, 4);
    host_match *hm = rig_worker_started(&r, "m-w5", "dominion", NULL);
    spectate_via(&r, "gw-t", "m-w5", "p-a", 1, false);
    uint64_t cmd = 10;
    size_t overs = 0, after_over = 0;
    rig_outbox o;
    for (int step = 0; step < 5000 && (hm = host_find(&r.h, "m-w5")); step++) {
        CU_ASSERT_TRUE_FATAL(rig_worker_answer(&r, hm, cmd++));
        host_flush(&r.h, r.now);
        r.now += 10;
        out_watch_tick(&r.h, r.now);
        rig_worker_gw_drain(&r, &o);
        rig_outbox_free(&o);
    }
    CU_ASSERT_PTR_NULL_FATAL(host_find(&r.h, "m-w5")); /* over */
    CU_ASSERT_EQUAL(r.h.spect->n, 1);                  /* its last frames still to go */
    for (int i = 0; i < 3; i++) {
        r.now += DELAY;
        out_watch_tick(&r.h, r.now);
        rig_worker_gw_drain(&r, &o);
        for (size_t k = 0; k < o.n; k++) {
            if (o.msg[k]->body_case != DECKHAND__SERVER_MESSAGE__BODY_SPECTATOR_FRAME)
                continue;
            after_over += overs > 0;
            if (o.msg[k]->spectator_frame->game_over) {
                overs++;
                CU_ASSERT_EQUAL(o.msg[k]->spectator_frame->game_over->n_results, 2);
                CU_ASSERT_TRUE(o.msg[k]->spectator_frame->view->finished);
            }
        }
        rig_outbox_free(&o);
    }
    CU_ASSERT_EQUAL(overs, 1);
    CU_ASSERT_EQUAL(after_over, 0); /* the GameOver frame is the last */
    CU_ASSERT_EQUAL(r.h.spect->n, 0);
    CU_ASSERT_EQUAL(r.h.spect->stats.spectators, 0);
    close_watched(&r);
}

static void test_watcher_whose_gateway_is_gone_is_dropped(void)
{
    rig_worker r;
    open_watched(&r, 4);
    rig_worker_started(&r, "m-w6", "dominion", NULL);
    spectate_via(&r, "gw-gone", "m-w6", "p-a", 1, false);
    spectate_via(&r, "gw-t", "m-w6", "p-b", 1, false);
    CU_ASSERT_EQUAL(r.h.spect->stats.spectators, 2);
    out_flush(&r.h); /* the loop turn ends: the Replies go, gw-gone is found gone */
    out_watch_tick(&r.h, r.now + DELAY);
    CU_ASSERT_EQUAL(r.h.spect->stats.spectators, 1);
    CU_ASSERT_EQUAL(out_watch_count(host_find(&r.h, "m-w6")), 1);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(count_frames(&o, "p-b"), 1);
    rig_outbox_free(&o);
    close_watched(&r);
}

static void test_queued_frames_past_the_bound_drop_the_oldest(void)
{
    rig_worker r;
    open_watched(&r, 4);
    host_match *hm = rig_worker_started(&r, "m-w7", "dominion", NULL);
    r.h.spect->queue_bytes = 1; /* any second frame is past it */
    spectate_via(&r, "gw-t", "m-w7", "p-a", 1, false);
    uint64_t cmd = 10;
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_TRUE_FATAL(rig_worker_answer(&r, hm, cmd++));
        host_flush(&r.h, r.now);
    }
    CU_ASSERT_EQUAL(r.h.spect->stats.dropped, 3);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    out_watch_tick(&r.h, r.now + DELAY);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(count_frames(&o, "p-a"), 1); /* the newest only */
    rig_outbox_free(&o);
    close_watched(&r);
}

static void test_spectator_frames_are_numbered_by_the_public_event_count(void)
{
    rig_worker r;
    open_watched(&r, 4);
    host_match *hm = rig_worker_started(&r, "m-w9", "dominion", NULL);
    uint64_t cmd = 10;
    for (int i = 0; i < 4; i++) { /* played before anyone watches */
        CU_ASSERT_TRUE_FATAL(rig_worker_answer(&r, hm, cmd++));
        host_flush(&r.h, r.now);
    }
    uint64_t at_attach = engine_match_event_seq(hm->m, ENGINE_SEAT_PUBLIC);
    CU_ASSERT_TRUE(at_attach > 0);
    spectate_via(&r, "gw-t", "m-w9", "p-a", 1, false);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    size_t frames = 0, events = 0, bad = 0;
    uint64_t last = 0;
    for (int step = 0; step < 30 && (hm = host_find(&r.h, "m-w9")); step++) {
        CU_ASSERT_TRUE_FATAL(rig_worker_answer(&r, hm, cmd++));
        host_flush(&r.h, r.now);
        r.now += DELAY;
        out_watch_tick(&r.h, r.now);
        rig_worker_gw_drain(&r, &o);
        for (size_t i = 0; i < o.n; i++) {
            if (o.msg[i]->body_case != DECKHAND__SERVER_MESSAGE__BODY_SPECTATOR_FRAME)
                continue;
            const Deckhand__SpectatorFrame *f = o.msg[i]->spectator_frame;
            if (frames++ == 0) { /* the attach's frame: the match's count, not the watcher's */
                CU_ASSERT_EQUAL(f->view->event_seq, at_attach);
                CU_ASSERT_EQUAL(f->n_events, 0);
            } else {
                bad += f->view->event_seq != last + f->n_events;
                for (size_t e = 0; e < f->n_events; e++)
                    bad += f->events[e]->event_seq != last + 1 + e;
            }
            events += f->n_events;
            last = f->view->event_seq;
        }
        rig_outbox_free(&o);
    }
    CU_ASSERT_TRUE(frames > 20);
    CU_ASSERT_TRUE(events > 0);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(last, at_attach + events); /* no gap, no repeat */
    close_watched(&r);
}

static void test_unwatched_match_builds_no_frames(void)
{
    rig_worker r;
    open_watched(&r, 4);
    host_match *hm = rig_worker_started(&r, "m-w8", "dominion", NULL);
    uint64_t cmd = 10;
    for (int i = 0; i < 5; i++) {
        CU_ASSERT_TRUE_FATAL(rig_worker_answer(&r, hm, cmd++));
        host_flush(&r.h, r.now);
    }
    CU_ASSERT_PTR_NULL(hm->watch);
    CU_ASSERT_EQUAL(r.h.spect->n, 0);
    out_watch_tick(&r.h, r.now + DELAY);
    CU_ASSERT_EQUAL(r.h.spect->stats.frames, 0);
    close_watched(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"spectator_gets_catalog_and_reply_then_a_frame_after_the_delay",
         test_spectator_gets_catalog_and_reply_then_a_frame_after_the_delay},
        {"spectator_frames_are_numbered_by_the_public_event_count",
         test_spectator_frames_are_numbered_by_the_public_event_count},
        {"spectator_never_sees_a_hand_or_a_private_event",
         test_spectator_never_sees_a_hand_or_a_private_event},
        {"spectator_cap_seat_and_unknown_match_are_refused",
         test_spectator_cap_seat_and_unknown_match_are_refused},
        {"max_spectators_zero_takes_none", test_max_spectators_zero_takes_none},
        {"repeated_spectate_makes_no_more_frames", test_repeated_spectate_makes_no_more_frames},
        {"out_watch_stop_stops_frames_and_frees_the_match",
         test_spectate_stop_stops_frames_and_frees_the_match},
        {"spectator_sees_the_match_to_its_game_over",
         test_spectator_sees_the_match_to_its_game_over},
        {"watcher_whose_gateway_is_gone_is_dropped", test_watcher_whose_gateway_is_gone_is_dropped},
        {"queued_frames_past_the_bound_drop_the_oldest",
         test_queued_frames_past_the_bound_drop_the_oldest},
        {"unwatched_match_builds_no_frames", test_unwatched_match_builds_no_frames},
        {NULL, NULL},
    };
    return rig_worker_main("worker_spectate", cases);
}
