/*
 * test_worker_replay.c: the worker's replays (worker/replay.c) on a real host, engine,
 * bundle and Redis: a Dominion and a Caveman match played to the end by bot answers, then
 * replayed to a player through the fake gateway: a Catalog first, frames 0..total-1 in
 * order with total = the recorded answers + 1, views that show no hand, deck order or
 * decision, only events every seat got, and the last frame's GameOver equal to the one the
 * seats got (also when a forfeit, not the rules, ended the match). An unknown or running
 * match is UNKNOWN_MATCH, one past the frame cap BAD_REQUEST, more replays than the bound
 * OVERLOADED, a request without a match id BAD_REQUEST, and the replays a stopping worker
 * drops are answered UNAVAILABLE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "worker.h"
#include "rig_worker.h"

#define TEXTS_MAX 8192

/* Event texts a seat got. */
typedef struct {
    char *v[TEXTS_MAX];
    size_t n;
} texts;

static void texts_add(texts *t, const char *s)
{
    if (t->n < TEXTS_MAX)
        t->v[t->n++] = strdup(s ? s : "");
}

static bool texts_has(const texts *t, const char *s)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->v[i], s))
            return true;
    return false;
}

static void texts_free(texts *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->v[i]);
    t->n = 0;
}

/* What the seats of a finished match got: every event text, per seat, and seat 0's
 * GameOver, packed. */
typedef struct {
    texts seen[2];
    uint8_t over[4096];
    size_t over_len;
} played;

/* Play match id of game to its end, both seats asking for the default bot's answer. */
static void play_to_end(rig_worker *r, const char *id, const char *game, played *p)
{
    host_match *hm = rig_worker_started(r, id, game, NULL);
    uint64_t cmd = 1;
    for (int answers = 0; !p->over_len && answers < 20000; answers++) {
        const engine_decision *d = engine_match_decision(hm->m);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        Deckhand__Choose c = DECKHAND__CHOOSE__INIT;
        c.decision_id = d->decision_id;
        c.bot = "default";
        rig_worker_command(r, id, rig_worker_players[d->seat], cmd++, &c);
        host_flush(&r->h, r->now);
        rig_outbox o;
        rig_worker_gw_drain(r, &o);
        for (size_t i = 0; i < o.n; i++) {
            int seat = !strcmp(o.player[i], rig_worker_players[1]);
            const Deckhand__ServerMessage *m = o.msg[i];
            if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_EVENT)
                texts_add(&p->seen[seat], m->event->text);
            if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER && seat == 0) {
                Deckhand__GameOver go = *m->game_over;
                go.event_seq = 0; /* per seat; a replay numbers only public events */
                p->over_len = deckhand__game_over__pack(&go, p->over);
            }
        }
        rig_outbox_free(&o);
    }
    CU_ASSERT_TRUE_FATAL(p->over_len > 0);
    rig_worker_mm_drain(r);
}

/* What a replay sent to its player. */
typedef struct {
    size_t messages, frames, bad_order, catalogs_first, views_hidden, private_events, events;
    size_t bad_seq;    /* frames whose events or view.event_seq do not follow the last one */
    uint64_t last_seq; /* the last frame's view.event_seq */
    uint32_t total;
    int reply; /* -1: none */
    uint8_t over[4096];
    size_t over_len;
} replayed;

static void replay_cmd(rig_worker *r, const char *match_id, uint64_t cmd_id)
{
    Deckhand__ReplayRequest rr = DECKHAND__REPLAY_REQUEST__INIT;
    rr.match_id = (char *)match_id;
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    pc.match_id = (char *)match_id;
    pc.player_id = "p-viewer";
    pc.cmd_id = cmd_id;
    pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_REPLAY;
    pc.replay = &rr;
    replay_request(&r->h, "gw-t", &pc, r->now);
}

/* A view that shows what only a seat may see: a decision, or the cards of a hand or deck. */
static bool view_leaks(const Deckhand__View *v)
{
    if (v->decision)
        return true;
    for (size_t i = 0; i < v->n_zones; i++) {
        const char *name = v->zones[i]->name;
        if ((!strcmp(name, "hand") || !strcmp(name, "deck")) && v->zones[i]->n_cards)
            return true;
    }
    return false;
}

/* Ask for match_id's replay and work the replays until it is answered, checking each
 * message against what the seats got (p, may be NULL). */
static void replay_run(rig_worker *r, const char *match_id, const played *p, replayed *out)
{
    memset(out, 0, sizeof *out);
    out->reply = -1;
    replay_cmd(r, match_id, 7);
    for (int turn = 0; out->reply < 0 && turn < 100000; turn++) {
        replay_work(&r->h, r->now);
        rig_worker_advance(r, REPLAY_BURST_MS);
        rig_outbox o;
        rig_worker_drain(r, r->gw, &o);
        for (size_t i = 0; i < o.n; i++) {
            const Deckhand__ServerMessage *m = o.msg[i];
            CU_ASSERT_STRING_EQUAL(o.player[i], "p-viewer");
            if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_CATALOG && out->messages == 0)
                out->catalogs_first++;
            out->messages++;
            if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY) {
                CU_ASSERT_EQUAL(m->reply->cmd_id, 7);
                out->reply = m->reply->ok ? 0 : (int)m->reply->error->code;
            }
            if (m->body_case != DECKHAND__SERVER_MESSAGE__BODY_REPLAY_FRAME)
                continue;
            const Deckhand__ReplayFrame *f = m->replay_frame;
            out->bad_order += f->index != out->frames;
            out->frames++;
            out->total = f->total;
            out->views_hidden += !view_leaks(f->view);
            /* numbered by the match's public count: each frame's events follow the last
             * frame's view.event_seq, and its own view says how far they reached */
            bool seq_ok = f->view->event_seq == out->last_seq + f->n_events;
            for (size_t e = 0; e < f->n_events; e++)
                seq_ok = seq_ok && f->events[e]->event_seq == out->last_seq + 1 + e;
            out->bad_seq += !seq_ok;
            out->last_seq = f->view->event_seq;
            for (size_t e = 0; e < f->n_events; e++) {
                out->events++;
                /* every seat got it; frame 0's events came before the seats attached
                 * (not recorded here): none of them may be one seat's only */
                bool s0 = p && texts_has(&p->seen[0], f->events[e]->text),
                     s1 = p && texts_has(&p->seen[1], f->events[e]->text);
                if (p && (f->index ? !(s0 && s1) : s0 != s1))
                    out->private_events++;
            }
            if (f->game_over)
                out->over_len = deckhand__game_over__pack(f->game_over, out->over);
        }
        rig_outbox_free(&o);
    }
}

/* A rig host on the source tree's bundle that serves replays. */
static void open_replays(rig_worker *r, replays *rp)
{
    rig_worker_open(r, "scripts", NULL);
    replays_init(rp);
    r->h.rp = rp;
}

static void replay_a_finished_match(const char *game)
{
    rig_worker r;
    replays rp;
    open_replays(&r, &rp);
    char id[64], key[96];
    snprintf(id, sizeof id, "m-replay-%s", game);
    played *p = calloc(1, sizeof *p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    play_to_end(&r, id, game, p);
    snprintf(key, sizeof key, "match:{%s}:history", id);
    long long answers = rig_worker_redis_int("LLEN", key);
    CU_ASSERT_TRUE(answers > 10);

    replayed out;
    replay_run(&r, id, p, &out);
    CU_ASSERT_EQUAL(out.reply, 0);
    CU_ASSERT_EQUAL(out.catalogs_first, 1);
    CU_ASSERT_EQUAL(out.frames, (size_t)answers + 1);
    CU_ASSERT_EQUAL(out.total, (uint32_t)answers + 1);
    CU_ASSERT_EQUAL(out.messages, out.frames + 2); /* the Catalog, the frames, the Reply */
    CU_ASSERT_EQUAL(out.bad_order, 0);
    CU_ASSERT_EQUAL(out.bad_seq, 0);
    CU_ASSERT_EQUAL(out.last_seq, (uint64_t)out.events); /* every public event, once */
    CU_ASSERT_EQUAL(out.views_hidden, out.frames);
    CU_ASSERT_TRUE(out.events > 0);
    CU_ASSERT_EQUAL(out.private_events, 0);
    CU_ASSERT_EQUAL(out.over_len, p->over_len);
    CU_ASSERT_TRUE(out.over_len == p->over_len && !memcmp(out.over, p->over, p->over_len));
    CU_ASSERT_EQUAL((uint64_t)rp.served, 1);
    CU_ASSERT_EQUAL((uint64_t)rp.frames, (uint64_t)answers + 1);
    CU_ASSERT_EQUAL(rp.n, 0);

    texts_free(&p->seen[0]);
    texts_free(&p->seen[1]);
    free(p);
    replays_free(&r.h, &rp);
    rig_worker_close_drained(&r);
}

static void test_replay_of_a_dominion_match_is_public_and_whole(void)
{
    replay_a_finished_match("dominion");
}

static void test_replay_of_a_caveman_match_is_public_and_whole(void)
{
    replay_a_finished_match("caveman");
}

/* A match that ended by a forfeit, not by its rules: the last frame's GameOver is still
 * the one its seats got (the forfeit's table, not the unfinished engine's). */
static void test_replay_of_a_forfeited_match_ends_on_its_real_game_over(void)
{
    rig_worker r;
    replays rp;
    open_replays(&r, &rp);
    host_match *hm = rig_worker_started_away(&r, "m-replay-forfeit", 10, "forfeit");
    uint64_t cmd = 1;
    rig_worker_play(&r, hm, 5, &cmd);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    int seat = engine_match_decision(hm->m)->seat;
    rig_worker_away_via(&r, "gw-t", "m-replay-forfeit", rig_worker_players[seat]);
    rig_worker_advance(&r, 30);
    host_tick(&r.h, r.now);
    host_flush(&r.h, r.now);
    rig_worker_gw_drain(&r, &o);
    const Deckhand__ServerMessage *go =
        rig_outbox_find(&o, rig_worker_players[1 - seat], DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER);
    CU_ASSERT_PTR_NOT_NULL_FATAL(go);
    Deckhand__GameOver want = *go->game_over;
    want.event_seq = 0;
    uint8_t packed[4096];
    size_t len = deckhand__game_over__pack(&want, packed);
    rig_outbox_free(&o);
    rig_worker_mm_drain(&r);

    replayed out;
    replay_run(&r, "m-replay-forfeit", NULL, &out);
    CU_ASSERT_EQUAL(out.reply, 0);
    CU_ASSERT_EQUAL(out.frames, 6); /* five answers */
    CU_ASSERT_EQUAL(out.over_len, len);
    CU_ASSERT_TRUE(out.over_len == len && !memcmp(out.over, packed, len));
    replays_free(&r.h, &rp);
    rig_worker_close_drained(&r);
}

static void test_replay_of_an_unknown_or_running_match_is_unknown_match(void)
{
    rig_worker r;
    replays rp;
    open_replays(&r, &rp);
    replayed out;
    replay_run(&r, "m-never-played", NULL, &out);
    CU_ASSERT_EQUAL(out.reply, DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    CU_ASSERT_EQUAL(out.frames, 0);
    rig_worker_started(&r, "m-running", "dominion", NULL);
    replay_run(&r, "m-running", NULL, &out);
    CU_ASSERT_EQUAL(out.reply, DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    CU_ASSERT_EQUAL(out.frames, 0);
    CU_ASSERT_EQUAL(out.messages, 1);
    CU_ASSERT_EQUAL((uint64_t)rp.failed, 2);
    replays_free(&r.h, &rp);
    rig_worker_close_drained(&r);
}

/* A finished match of REPLAY_FRAMES_MAX answers (one too many) is refused before any work:
 * its record is read, not rebuilt. */
static void test_replay_of_a_match_past_the_frame_cap_is_refused(void)
{
    rig_worker r;
    replays rp;
    open_replays(&r, &rp);
    char n[16];
    snprintf(n, sizeof n, "%d", REPLAY_FRAMES_MAX);
    rig_worker_redis_do("EVAL %s 0 %s",
                        "for i = 1, tonumber(ARGV[1]) do "
                        "redis.call('RPUSH', 'match:{m-long}:history', 'x') end "
                        "redis.call('HSET', 'match:{m-long}', 'game', 'dominion', 'bundle', 'b', "
                        "'seed', '1', 'players', 'ann,bob', 'player_ids', 'p-a,p-b', "
                        "'status', 'finished')",
                        n);
    replayed out;
    replay_run(&r, "m-long", NULL, &out);
    CU_ASSERT_EQUAL(out.reply, DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(out.messages, 1);
    replays_free(&r.h, &rp);
    rig_worker_close_drained(&r);
}

/* The reply to the request just made, if it came at once. */
static int reply_now(rig_worker *r)
{
    rig_outbox o;
    rig_worker_drain(r, r->gw, &o);
    int code = -1;
    for (size_t i = 0; i < o.n; i++)
        if (o.msg[i]->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY)
            code = o.msg[i]->reply->ok ? 0 : (int)o.msg[i]->reply->error->code;
    rig_outbox_free(&o);
    return code;
}

static void
test_replays_past_the_bound_are_overloaded_bad_ones_refused_and_stopping_ones_answered(void)
{
    rig_worker r;
    replays rp;
    open_replays(&r, &rp);
    for (int i = 0; i < REPLAY_ACTIVE_MAX; i++) {
        replay_cmd(&r, "m-some", (uint64_t)i + 1);
        CU_ASSERT_EQUAL(reply_now(&r), -1); /* taken: answered later */
    }
    replay_cmd(&r, "m-some", 99);
    CU_ASSERT_EQUAL(reply_now(&r), DECKHAND__ERROR_CODE__OVERLOADED);
    CU_ASSERT_EQUAL((uint64_t)rp.refused, 1);
    CU_ASSERT_EQUAL(rp.n, REPLAY_ACTIVE_MAX);
    replay_cmd(&r, "", 100);
    CU_ASSERT_EQUAL(reply_now(&r), DECKHAND__ERROR_CODE__BAD_REQUEST);
    replays_free(&r.h, &rp); /* a stopping worker: the replays taken are answered */
    rig_outbox o;
    rig_worker_drain(&r, r.gw, &o);
    size_t unavailable = 0;
    for (size_t i = 0; i < o.n; i++)
        unavailable += o.msg[i]->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY &&
                       !o.msg[i]->reply->ok &&
                       o.msg[i]->reply->error->code == DECKHAND__ERROR_CODE__UNAVAILABLE;
    CU_ASSERT_EQUAL(o.n, REPLAY_ACTIVE_MAX);
    CU_ASSERT_EQUAL(unavailable, REPLAY_ACTIVE_MAX);
    rig_outbox_free(&o);
    rig_worker_close_drained(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"replay_of_a_dominion_match_is_public_and_whole",
         test_replay_of_a_dominion_match_is_public_and_whole},
        {"replay_of_a_caveman_match_is_public_and_whole",
         test_replay_of_a_caveman_match_is_public_and_whole},
        {"replay_of_a_forfeited_match_ends_on_its_real_game_over",
         test_replay_of_a_forfeited_match_ends_on_its_real_game_over},
        {"replay_of_an_unknown_or_running_match_is_unknown_match",
         test_replay_of_an_unknown_or_running_match_is_unknown_match},
        {"replay_of_a_match_past_the_frame_cap_is_refused",
         test_replay_of_a_match_past_the_frame_cap_is_refused},
        {"replays_past_the_bound_are_overloaded_bad_ones_refused_and_stopping_ones_answered",
         test_replays_past_the_bound_are_overloaded_bad_ones_refused_and_stopping_ones_answered},
        {NULL, NULL},
    };
    return rig_worker_main("worker_replay", cases);
}
