/*
 * test_spectate.c: spectating end to end, on a real cluster (scripts/lib/cluster.sh, ports
 * from 28000; the workers' --spectator-delay-ms and --max-spectators come from the
 * environment this test sets) with players connected like any client (rig_player.c).
 *
 * A watcher finds a Dominion match in the WatchList, spectates it and EVERY message it
 * receives is inspected (pl_on_message): only SpectatorFrames after the Reply; no zone the
 * game's zones table hides (hand, deck, look; a discard shows its top only) carries a
 * card; no card a seat held in hand at the frame's moment is named in the frame (checked
 * while the seats answer slowly, so that the moment is unambiguous); every event it reads
 * reached both seats, none is a seat's g:log_to ("You draw ..."), and the watcher's events
 * are exactly the seats' public ones, in order, each at least the delay after the seats
 * got it; it sees the match to the GameOver, on the last frame. Then the refusals (a
 * seat, an unknown match, the cap), SpectateStop, the board game Elemental (its board
 * public, its hands not), and the worker hosting a watched match killed: the watcher
 * goes on receiving frames from the worker that adopted it.
 */
#include "dh_test.h"
#include "rig_cluster.h"
#include "rig_player.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PORT_BASE  28000
#define DELAY_MS   1500 /* the workers' --spectator-delay-ms here */
#define MAX_WATCH  2    /* the workers' --max-spectators here */
#define PACE_MS    400  /* between answers while hands are compared with frames */
#define SLACK_MS   100  /* a frame's release tick and the reading's lateness */
#define LAG_SLACK  150  /* how late the test may read a seat's event (the delay's tolerance) */
#define EV_MAX     8192
#define FRAMES_MAX 4096
#define HANDS_MAX  4096
#define HAND_CARDS 64

typedef struct {
    long long t;
    char text[160];
} rec_event;

typedef struct {
    long long t;
    size_t n;
    uint32_t ent[HAND_CARDS];
} rec_hand;

typedef struct {
    long long t;
    Deckhand__ServerMessage *m; /* an owned copy */
} rec_frame;

/* Everything the seats and the watcher of one match received, with receipt times. */
static struct {
    pl_player *seat[2], *w;
    bool watching; /* the watcher's Spectate was answered ok: only frames may come */
    rec_event ev[2][EV_MAX];
    size_t nev[2];
    rec_hand hand[2][HANDS_MAX];
    size_t nhand[2];
    rec_frame frame[FRAMES_MAX];
    size_t nframe;
    unsigned not_frames;         /* messages to the watcher other than frames, once watching */
    Deckhand__ServerMessage *wl; /* the last WatchList the watcher got */
} rec;

static Deckhand__ServerMessage *copy_message(const Deckhand__ServerMessage *m)
{
    size_t len = deckhand__server_message__get_packed_size(m);
    uint8_t *buf = malloc(len ? len : 1);
    deckhand__server_message__pack(m, buf);
    Deckhand__ServerMessage *c = deckhand__server_message__unpack(NULL, len, buf);
    free(buf);
    return c;
}

static void on_message(pl_player *p, const Deckhand__ServerMessage *m)
{
    long long now = pl_now_ms();
    for (int s = 0; s < 2; s++) {
        if (p != rec.seat[s] || m->body_case != DECKHAND__SERVER_MESSAGE__BODY_EVENT ||
            rec.nev[s] >= EV_MAX)
            continue;
        rec.ev[s][rec.nev[s]].t = now;
        snprintf(rec.ev[s][rec.nev[s]].text, sizeof rec.ev[s][0].text, "%s", m->event->text);
        rec.nev[s]++;
    }
    if (p != rec.w)
        return;
    switch (m->body_case) {
    case DECKHAND__SERVER_MESSAGE__BODY_SPECTATOR_FRAME:
        if (rec.nframe < FRAMES_MAX)
            rec.frame[rec.nframe++] = (rec_frame){now, copy_message(m)};
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_WATCH_LIST:
        if (rec.wl)
            deckhand__server_message__free_unpacked(rec.wl, NULL);
        rec.wl = copy_message(m);
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_REPLY:
    case DECKHAND__SERVER_MESSAGE__BODY_CATALOG:
    case DECKHAND__SERVER_MESSAGE__BODY_PONG:
        break;
    default:
        if (rec.watching) {
            rec.not_frames++;
            fprintf(stderr, "\nwatcher got a message of body %d\n", (int)m->body_case);
        }
        break;
    }
}

static void rec_reset(pl_player *a, pl_player *b, pl_player *w)
{
    for (size_t i = 0; i < rec.nframe; i++)
        deckhand__server_message__free_unpacked(rec.frame[i].m, NULL);
    if (rec.wl)
        deckhand__server_message__free_unpacked(rec.wl, NULL);
    memset(&rec, 0, sizeof rec);
    rec.seat[0] = a && a->seat == 0 ? a : b;
    rec.seat[1] = a && a->seat == 0 ? b : a;
    rec.w = w;
}

static bool is_zone(const char *name, const char *base)
{
    size_t n = strlen(base);
    return !strncmp(name, base, n) && (name[n] == '\0' || name[n] == ':');
}

/* The entities in seat s's own hand in the View it holds now. */
static void hand_of(const pl_player *p, int s, rec_hand *h)
{
    h->n = 0;
    const Deckhand__View *v = p && p->held ? p->held->view : NULL;
    for (size_t z = 0; v && z < v->n_zones; z++) {
        const Deckhand__Zone *zone = v->zones[z];
        if (!is_zone(zone->name, "hand") || zone->owner != s)
            continue;
        for (size_t c = 0; c < zone->n_cards && h->n < HAND_CARDS; c++)
            h->ent[h->n++] = zone->cards[c]->entity;
    }
}

/* Note each seat's hand when it changed since the last note. */
static void note_hands(void)
{
    for (int s = 0; s < 2; s++) {
        rec_hand h;
        hand_of(rec.seat[s], s, &h);
        h.t = pl_now_ms();
        size_t n = rec.nhand[s];
        const rec_hand *last = n ? &rec.hand[s][n - 1] : NULL;
        if (last && last->n == h.n && !memcmp(last->ent, h.ent, h.n * sizeof *h.ent))
            continue;
        if (n < HANDS_MAX)
            rec.hand[s][rec.nhand[s]++] = h;
    }
}

static void pump(int ms)
{
    pl_player *ps[3] = {rec.seat[0], rec.seat[1], rec.w};
    long long until = pl_now_ms() + ms;
    do {
        pl_pump(ps, rec.w ? 3 : 2, 10);
        note_hands();
    } while (pl_now_ms() < until);
}

/* Answer the pending decision of whichever seat has one: with the test's Dominion bot, or
 * (game_bot) as the game's own "default" bot would. 1 answered, -1 refused (the seat
 * resyncs), 0 when no seat must decide. */
static int answer_one(bool game_bot)
{
    pl_player *ps[2] = {rec.seat[0], rec.seat[1]};
    long long until = pl_now_ms() + WAIT_MS;
    pl_player *d;
    while (!(d = pl_decider(ps, 2)) && pl_now_ms() < until &&
           !(ps[0]->game_over && ps[1]->game_over))
        pump(20);
    if (!d)
        return 0;
    int rc = game_bot ? pl_game_bot_answer(d, "default") : pl_bot_answer(d);
    if (rc != 0) { /* refused (its worker died, a timer answered first): look again */
        d->answered = 0;
        pl_resync(d);
    }
    /* what the others got meanwhile is read now, so that its receipt times stay close */
    pl_player *all[3] = {rec.seat[0], rec.seat[1], rec.w};
    pl_pump(all, rec.w ? 3 : 2, 0);
    note_hands();
    return rc == 0 ? 1 : -1;
}

static uint64_t send_spectate(pl_player *w, const char *match_id)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__Spectate s = DECKHAND__SPECTATE__INIT;
    s.match_id = (char *)match_id;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_SPECTATE;
    m.spectate = &s;
    return pl_send(w, &m);
}

static int spectate(pl_player *w, const char *match_id)
{
    return pl_wait_reply(w, send_spectate(w, match_id));
}

static int spectate_stop(pl_player *w)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__SpectateStop s = DECKHAND__SPECTATE_STOP__INIT;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_SPECTATE_STOP;
    m.spectate_stop = &s;
    return pl_wait_reply(w, pl_send(w, &m));
}

static int watch_list(pl_player *w, const char *game)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__WatchListRequest r = DECKHAND__WATCH_LIST_REQUEST__INIT;
    r.game = (char *)game;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_WATCH_LIST_REQUEST;
    m.watch_list_request = &r;
    return pl_wait_reply(w, pl_send(w, &m));
}

/* The seat hand noted last at or before t, or NULL. */
static const rec_hand *hand_at(int s, long long t)
{
    const rec_hand *h = NULL;
    for (size_t i = 0; i < rec.nhand[s] && rec.hand[s][i].t <= t; i++)
        h = &rec.hand[s][i];
    return h;
}

static bool seat_got(int s, const char *text)
{
    for (size_t i = 0; i < rec.nev[s]; i++)
        if (!strcmp(rec.ev[s][i].text, text))
            return true;
    return false;
}

static bool is_private_text(const char *text)
{
    return !strncmp(text, "You ", 4) || seat_got(0, text) != seat_got(1, text);
}

/* The zones a game's zones table hides from everyone but (at most) their owner. */
static bool hidden_zone(const char *game, const char *zone)
{
    if (is_zone(zone, "hand") || is_zone(zone, "deck"))
        return true;
    if (!strcmp(game, "dominion"))
        return is_zone(zone, "look");
    return is_zone(zone, "aside");
}

/* Every check of the frames recorded for match_id of game; paced_until: frames whose
 * moment is before it are compared with the seats' hands. Returns the events checked. */
static size_t check_frames(const char *game, const char *match_id, long long paced_until)
{
    size_t events = 0, hands_checked = 0, public_cards = 0;
    for (size_t i = 0; i < rec.nframe; i++) {
        const Deckhand__SpectatorFrame *f = rec.frame[i].m->spectator_frame;
        CU_ASSERT_STRING_EQUAL(f->match_id, match_id);
        CU_ASSERT_EQUAL(f->delay_ms, DELAY_MS);
        CU_ASSERT_TRUE(f->spectators >= 1 && f->spectators <= MAX_WATCH);
        CU_ASSERT_PTR_NOT_NULL_FATAL(f->view);
        CU_ASSERT_PTR_NULL(f->view->decision);
        for (size_t z = 0; z < f->view->n_zones; z++) {
            const Deckhand__Zone *zone = f->view->zones[z];
            if (hidden_zone(game, zone->name) && zone->n_cards) {
                fprintf(stderr, "\nframe %zu shows %zu cards of %s (owner %d)\n", i, zone->n_cards,
                        zone->name, zone->owner);
                CU_FAIL("a hidden zone's cards in a frame");
            }
            if (is_zone(zone->name, "discard"))
                CU_ASSERT_TRUE(zone->n_cards <= 1);
            if (!hidden_zone(game, zone->name))
                public_cards += zone->n_cards;
        }
        /* the seats' hands at the frame's moment are not named in it */
        long long moment = rec.frame[i].t - DELAY_MS + SLACK_MS;
        for (int s = 0; s < 2 && moment < paced_until; s++) {
            const rec_hand *h = hand_at(s, moment);
            if (!h)
                continue;
            hands_checked++;
            for (size_t z = 0; z < f->view->n_zones; z++)
                for (size_t c = 0; c < f->view->zones[z]->n_cards; c++)
                    for (size_t k = 0; k < h->n; k++)
                        if (f->view->zones[z]->cards[c]->entity == h->ent[k]) {
                            fprintf(stderr, "\nframe %zu names card %u of seat %d's hand in %s\n",
                                    i, h->ent[k], s, f->view->zones[z]->name);
                            CU_FAIL("a card in a seat's hand named in a frame");
                        }
        }
        for (size_t e = 0; e < f->n_events; e++) {
            const char *text = f->events[e]->text;
            events++;
            if (is_private_text(text) || !seat_got(0, text) || !seat_got(1, text)) {
                fprintf(stderr, "\nframe %zu carries a private event: %s\n", i, text);
                CU_FAIL("a private event in a frame");
            }
        }
    }
    fprintf(stderr, "  %s: %zu frames, %zu events, %zu hand checks, %zu public cards\n", game,
            rec.nframe, events, hands_checked, public_cards);
    CU_ASSERT_TRUE(public_cards > 0); /* the public zones are shown */
    if (paced_until)
        CU_ASSERT_TRUE(hands_checked >= 10);
    return events;
}

/* The watcher's events are the seats' public ones from some point on, in order and each
 * at least the delay after seat 0 got it. */
static void check_event_order_and_delay(void)
{
    static rec_event pub[EV_MAX];
    size_t npub = 0, nw = 0;
    static rec_event w[EV_MAX];
    for (size_t i = 0; i < rec.nev[0]; i++)
        if (!is_private_text(rec.ev[0][i].text))
            pub[npub++] = rec.ev[0][i];
    for (size_t i = 0; i < rec.nframe && nw < EV_MAX; i++) {
        const Deckhand__SpectatorFrame *f = rec.frame[i].m->spectator_frame;
        for (size_t e = 0; e < f->n_events && nw < EV_MAX; e++) {
            w[nw].t = rec.frame[i].t;
            snprintf(w[nw].text, sizeof w[nw].text, "%s", f->events[e]->text);
            nw++;
        }
    }
    CU_ASSERT_TRUE_FATAL(nw > 0);
    size_t k = 0;
    bool aligned = false;
    for (; k + nw <= npub && !aligned; k++) {
        aligned = true;
        for (size_t i = 0; i < nw && aligned; i++)
            aligned = !strcmp(pub[k + i].text, w[i].text);
    }
    CU_ASSERT_TRUE_FATAL(aligned);
    k--;
    long long least = 1LL << 40;
    for (size_t i = 0; i < nw; i++) {
        long long lag = w[i].t - pub[k + i].t;
        least = lag < least ? lag : least;
    }
    fprintf(stderr, "  %zu public events of %zu in order; least lag %lld ms (delay %d)\n", nw, npub,
            least, DELAY_MS);
    CU_ASSERT_TRUE(least >= DELAY_MS - LAG_SLACK);
}

static void test_spectator_sees_only_public_dominion_to_its_game_over(void)
{
    pl_player *a, *b;
    CU_ASSERT_FATAL(pl_start_match("spx", &a, &b));
    pl_player *w = pl_login("spx-w");
    CU_ASSERT_FATAL(w != NULL);
    rec_reset(a, b, w);
    pl_on_message = on_message;

    CU_ASSERT_EQUAL_FATAL(watch_list(w, "dominion"), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec.wl);
    const Deckhand__WatchList *wl = rec.wl->watch_list;
    const Deckhand__WatchEntry *mine = NULL;
    for (size_t i = 0; i < wl->n_matches; i++)
        if (!strcmp(wl->matches[i]->match_id, a->match_id))
            mine = wl->matches[i];
    CU_ASSERT_PTR_NOT_NULL_FATAL(mine);
    CU_ASSERT_STRING_EQUAL(mine->game, "dominion");
    CU_ASSERT_EQUAL_FATAL(mine->n_players, 2);
    CU_ASSERT_STRING_EQUAL(mine->players[rec.seat[0] == a ? 0 : 1],
                           "spx-a (guest)"); /* guests are marked */
    CU_ASSERT_TRUE(mine->started_ms > 0);

    long long asked = pl_now_ms();
    CU_ASSERT_EQUAL_FATAL(spectate(w, a->match_id), 0);
    CU_ASSERT_EQUAL(w->ncatalogs, 1); /* the cards' data, before the Reply */
    rec.watching = true;

    /* slowly first: the seats' hands at each frame's moment are unambiguous */
    for (int i = 0; i < 15; i++) {
        pump(PACE_MS);
        CU_ASSERT_EQUAL_FATAL(answer_one(false), 1);
    }
    long long paced_until = pl_now_ms();
    long long deadline = pl_now_ms() + 240000;
    while (!(a->game_over && b->game_over) && pl_now_ms() < deadline)
        if (answer_one(false) == 0)
            pump(50);
    CU_ASSERT_TRUE_FATAL(a->game_over && b->game_over);
    /* the watcher's last frame, the GameOver, comes the delay later */
    deadline = pl_now_ms() + DELAY_MS + 10000;
    bool over = false;
    while (!over && pl_now_ms() < deadline) {
        pump(50);
        over = rec.nframe && rec.frame[rec.nframe - 1].m->spectator_frame->game_over;
    }
    pump(DELAY_MS + 500); /* nothing may follow it */
    CU_ASSERT_TRUE_FATAL(over);
    const Deckhand__SpectatorFrame *last = rec.frame[rec.nframe - 1].m->spectator_frame;
    CU_ASSERT_PTR_NOT_NULL_FATAL(last->game_over);
    CU_ASSERT_EQUAL(last->game_over->n_results, 2);
    CU_ASSERT_TRUE(last->view->finished);
    for (size_t i = 0; i + 1 < rec.nframe; i++)
        CU_ASSERT_PTR_NULL(rec.frame[i].m->spectator_frame->game_over);
    CU_ASSERT_TRUE(rec.frame[0].t - asked >= DELAY_MS - LAG_SLACK);
    CU_ASSERT_EQUAL(rec.not_frames, 0);

    check_frames("dominion", a->match_id, paced_until);
    check_event_order_and_delay();
    /* the seats did get private lines, so the checks above mean something */
    size_t private = 0;
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < rec.nev[s]; i++)
    private += !strncmp(rec.ev[s][i].text, "You ", 4);
    CU_ASSERT_TRUE(private > 0);
    pl_on_message = NULL;
    pl_drop(w);
    pl_end_match(a, b);
    rec_reset(NULL, NULL, NULL);
}

static void test_spectate_refusals_cap_and_stop(void)
{
    pl_player *a, *b;
    CU_ASSERT_FATAL(pl_start_match("spr", &a, &b));
    pl_player *w1 = pl_login("spr-w1"), *w2 = pl_login("spr-w2"), *w3 = pl_login("spr-w3");
    CU_ASSERT_FATAL(w1 && w2 && w3);
    /* a seat of the match */
    CU_ASSERT_EQUAL(spectate(a, a->match_id), DECKHAND__ERROR_CODE__BAD_REQUEST);
    /* no such match */
    CU_ASSERT_EQUAL(spectate(w1, "m-0000000000000000"), DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    /* the cap */
    CU_ASSERT_EQUAL(spectate(w1, a->match_id), 0);
    CU_ASSERT_EQUAL(spectate(w2, a->match_id), 0);
    CU_ASSERT_EQUAL(spectate(w3, a->match_id), DECKHAND__ERROR_CODE__FULL);

    /* w1 gets frames while it watches ... */
    rec_reset(a, b, w1);
    pl_on_message = on_message;
    pump(DELAY_MS + 500);
    CU_ASSERT_TRUE(rec.nframe > 0);
    /* ... and none once it stopped, while the match goes on */
    CU_ASSERT_EQUAL(spectate_stop(w1), 0);
    size_t before = rec.nframe;
    for (int i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(answer_one(false), 1);
    pump(DELAY_MS + 1000);
    CU_ASSERT_EQUAL(rec.nframe, before);
    /* w2 went on watching */
    rec_reset(a, b, w2);
    CU_ASSERT_EQUAL(answer_one(false), 1);
    pump(DELAY_MS + 500);
    CU_ASSERT_TRUE(rec.nframe > 0);
    /* the stopped watcher's place is free again */
    CU_ASSERT_EQUAL(spectate(w3, a->match_id), 0);
    pl_on_message = NULL;
    pl_drop(w1);
    pl_drop(w2);
    pl_drop(w3);
    pl_end_match(a, b);
    rec_reset(NULL, NULL, NULL);
}

/* Two fresh players queued for a two-player match of game, both seated with a view. */
static bool start_game(const char *game, const char *tag, pl_player **a, pl_player **b)
{
    char na[32], nb[32];
    snprintf(na, sizeof na, "%s-a", tag);
    snprintf(nb, sizeof nb, "%s-b", tag);
    *a = pl_login(na);
    *b = pl_login(nb);
    if (!*a || !*b)
        return false;
    pl_player *ps[2] = {*a, *b};
    for (int i = 0; i < 2; i++)
        if (pl_wait_reply(ps[i], pl_send_queue(ps[i], game, 2)) != 0)
            return false;
    long long deadline = pl_now_ms() + WAIT_MS;
    while (pl_now_ms() < deadline &&
           (ps[0]->seat < 0 || ps[1]->seat < 0 || !ps[0]->nviews || !ps[1]->nviews))
        pl_pump(ps, 2, 100);
    return ps[0]->seat >= 0 && ps[1]->seat >= 0 && !strcmp(ps[0]->match_id, ps[1]->match_id);
}

static void test_spectator_sees_elemental_board_but_no_hand(void)
{
    pl_player *a, *b;
    CU_ASSERT_FATAL(start_game("elemental", "spe", &a, &b));
    pl_player *w = pl_login("spe-w");
    CU_ASSERT_FATAL(w != NULL);
    rec_reset(a, b, w);
    pl_on_message = on_message;
    CU_ASSERT_EQUAL_FATAL(spectate(w, a->match_id), 0);
    rec.watching = true;
    for (int i = 0; i < 15; i++) {
        pump(PACE_MS);
        if (answer_one(true) == 0)
            break;
    }
    long long paced_until = pl_now_ms();
    for (int i = 0; i < 120 && !(a->game_over && b->game_over); i++)
        if (answer_one(true) == 0)
            break;
    pump(DELAY_MS + 500);
    CU_ASSERT_TRUE_FATAL(rec.nframe > 10);
    CU_ASSERT_EQUAL(rec.not_frames, 0);
    check_frames("elemental", a->match_id, paced_until);
    /* the board is a public zone: its cards show once some are on it */
    size_t board = 0;
    for (size_t i = 0; i < rec.nframe; i++) {
        const Deckhand__View *v = rec.frame[i].m->spectator_frame->view;
        for (size_t z = 0; z < v->n_zones; z++)
            if (is_zone(v->zones[z]->name, "board") || is_zone(v->zones[z]->name, "hero"))
                board += v->zones[z]->n_cards;
    }
    CU_ASSERT_TRUE(board > 0);
    pl_on_message = NULL;
    pl_drop(w);
    pl_end_match(a, b);
    rec_reset(NULL, NULL, NULL);
}

/* The worker (worker-N) whose log says it started match_id: N, or 0. */
static int worker_of(const char *match_id)
{
    char pattern[32], needle[128];
    snprintf(needle, sizeof needle, "match %s: dominion for", match_id);
    for (int i = 1; i <= 2; i++) {
        snprintf(pattern, sizeof pattern, "worker-%d.log", i);
        if (rc_log_count(pattern, needle, NULL) > 0)
            return i;
    }
    return 0;
}

static void test_watcher_keeps_watching_when_the_worker_dies(void)
{
    pl_player *a, *b;
    CU_ASSERT_FATAL(pl_start_match("spk", &a, &b));
    pl_player *w = pl_login("spk-w");
    CU_ASSERT_FATAL(w != NULL);
    rec_reset(a, b, w);
    pl_on_message = on_message;
    CU_ASSERT_EQUAL_FATAL(spectate(w, a->match_id), 0);
    rec.watching = true;
    for (int i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(answer_one(false), 1);
    pump(DELAY_MS + 500);
    CU_ASSERT_TRUE_FATAL(rec.nframe > 0);

    int victim = worker_of(a->match_id);
    CU_ASSERT_FATAL(victim > 0);
    char pidfile[512];
    snprintf(pidfile, sizeof pidfile, "%s/pids/worker-%d.pid", rc_dir(), victim);
    FILE *f = fopen(pidfile, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    long pid = 0;
    CU_ASSERT_EQUAL_FATAL(fscanf(f, "%ld", &pid), 1);
    fclose(f);
    fprintf(stderr, "  kill -9 worker-%d (pid %ld), which hosts %s\n", victim, pid, a->match_id);
    CU_ASSERT_EQUAL_FATAL(kill((pid_t)pid, SIGKILL), 0);
    unlink(pidfile); /* killed on purpose: the end-of-run liveness check skips it */
    long long killed = pl_now_ms();

    /* the match moves; the seats play on and the watcher's frames come from the adopter */
    /* a frame released after the seats' first answer to the adopter (and its delay) can
     * only come from the adopter */
    long long deadline = pl_now_ms() + 60000, first_ok = 0;
    size_t answered = 0, after = 0;
    while (pl_now_ms() < deadline && (!after || answered < 3)) {
        if (answer_one(false) == 1 && !answered++)
            first_ok = pl_now_ms();
        pump(100);
        after = 0;
        for (size_t i = 0; first_ok && i < rec.nframe; i++)
            after += rec.frame[i].t >= first_ok + DELAY_MS - LAG_SLACK;
    }
    CU_ASSERT_TRUE(answered >= 3);
    CU_ASSERT_TRUE_FATAL(after > 0);
    fprintf(stderr, "  seats answered again %lld ms after the kill; %zu frames since\n",
            first_ok - killed, after);
    char needle[128];
    snprintf(needle, sizeof needle, "match %s: adopted", a->match_id);
    CU_ASSERT_TRUE(rc_log_count("worker-*.log", needle, NULL) > 0);
    check_frames("dominion", a->match_id, 0);
    CU_ASSERT_EQUAL(rec.not_frames, 0);
    pl_on_message = NULL;
    pl_drop(w);
    pl_end_match(a, b);
    rec_reset(NULL, NULL, NULL);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"spectator_sees_only_public_dominion_to_its_game_over",
         test_spectator_sees_only_public_dominion_to_its_game_over},
        {"spectate_refusals_cap_and_stop", test_spectate_refusals_cap_and_stop},
        {"spectator_sees_elemental_board_but_no_hand",
         test_spectator_sees_elemental_board_but_no_hand},
        {"watcher_keeps_watching_when_the_worker_dies",
         test_watcher_keeps_watching_when_the_worker_dies},
        {NULL, NULL},
    };
    signal(SIGPIPE, SIG_IGN);
    char delay[16], max[16];
    snprintf(delay, sizeof delay, "%d", DELAY_MS);
    snprintf(max, sizeof max, "%d", MAX_WATCH);
    setenv("DECKHAND_SPECTATOR_DELAY_MS", delay, 1);
    setenv("DECKHAND_MAX_SPECTATORS", max, 1);
    if (rc_start("spectate", PORT_BASE) != 0)
        return 1;
    return rc_finish(dh_test_main("e2e_spectate", cases));
}
