/*
 * test_protocol.c: the client protocol's promises, checked end to end on a real cluster
 * (redis-server, matchmaker, two workers, gateway) started by scripts/lib/cluster.sh on
 * 127.0.0.1, ports 23000-23011 (or 23100... when another run holds them).
 *
 * Every test talks to the gateway through dh_client like any player would. Every
 * ServerMessage any test receives also goes through check_privacy(), so the promise "no
 * client sees another's hand or deck order" is watched in every test, and pinned by a
 * dedicated one that plays whole matches with a tiny bot written here. Every wait is
 * bounded, so a hang fails a test instead of blocking the run.
 */
#include "dh_client.h"
#include "dh_client_env.h"
#include "dh_test.h"

#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PORT_BASE 23000
#define WAIT_MS   8000 /* the longest a single answer may take */
#define MATCH_MS  180000
#define MAX_OPTS  64

/* ---- one connected player and what it has seen ----------------------------------------- */

typedef struct {
    bool valid;
    uint64_t id;
    uint32_t seat;
    char kind[32];
    uint32_t min, max;
    size_t nopt;
    uint32_t opt_id[MAX_OPTS];
    char opt_card[MAX_OPTS][48];
    char opt_label[MAX_OPTS][96];
} decision;

typedef struct {
    uint64_t cmd_id;
    bool ok;
    int code;
} reply;

typedef struct {
    dh_client *c;
    char name[32];
    char match_id[96];
    int seat; /* -1 until MatchFound */
    decision dec;
    uint64_t answered; /* the last decision id this player answered */
    bool played_treasures;
    int waiting_for;
    uint64_t view_sig;
    unsigned nviews, ndecisions, nevents;
    uint64_t last_pong;
    bool game_over, closed;
    reply replies[64];
    size_t nreplies;
} player;

static char g_run[256];
static char g_gateway[128], g_gateway_ws[160]; /* from the cluster's cluster.env */
static unsigned g_violations;
/* What the privacy checks looked at, so they cannot pass by seeing nothing. */
static unsigned g_decks_seen, g_other_hands_seen, g_private_events_seen;

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void violation(const player *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "\nPRIVACY: %s (seat %d) ", p->name, p->seat);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    g_violations++;
}

static void copy(char *dst, size_t len, const char *src)
{
    snprintf(dst, len, "%s", src ? src : "");
}

static bool is_zone(const char *name, const char *base)
{
    size_t n = strlen(base);
    return !strncmp(name, base, n) && (name[n] == '\0' || name[n] == ':');
}

static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
    return fnv(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

/* A fingerprint of everything a View says about the match, to compare two views. */
static uint64_t view_sig(const Deckhand__View *v)
{
    uint64_t h = 1469598103934665603ULL;
    h = fnv(h, &v->event_seq, sizeof v->event_seq);
    h = fnv(h, &v->waiting_for, sizeof v->waiting_for);
    h = fnv(h, &v->finished, sizeof v->finished);
    for (size_t i = 0; i < v->n_zones; i++) {
        const Deckhand__Zone *z = v->zones[i];
        h = fnv_str(h, z->name);
        h = fnv(h, &z->owner, sizeof z->owner);
        h = fnv(h, &z->count, sizeof z->count);
        for (size_t k = 0; k < z->n_cards; k++) {
            h = fnv(h, &z->cards[k]->entity, sizeof z->cards[k]->entity);
            h = fnv_str(h, z->cards[k]->name);
        }
    }
    for (size_t i = 0; i < v->n_counters; i++) {
        h = fnv_str(h, v->counters[i]->name);
        h = fnv(h, &v->counters[i]->owner, sizeof v->counters[i]->owner);
        h = fnv(h, &v->counters[i]->value, sizeof v->counters[i]->value);
    }
    if (v->decision)
        h = fnv(h, &v->decision->decision_id, sizeof v->decision->decision_id);
    return h;
}

static void take_decision(player *p, const Deckhand__DecisionRequest *d)
{
    decision *x = &p->dec;
    memset(x, 0, sizeof *x);
    x->valid = true;
    x->id = d->decision_id;
    x->seat = d->seat;
    copy(x->kind, sizeof x->kind, d->kind);
    x->min = d->min;
    x->max = d->max;
    x->nopt = d->n_options < MAX_OPTS ? d->n_options : MAX_OPTS;
    for (size_t i = 0; i < x->nopt; i++) {
        x->opt_id[i] = d->options[i]->id;
        copy(x->opt_card[i], sizeof x->opt_card[i], d->options[i]->card);
        copy(x->opt_label[i], sizeof x->opt_label[i], d->options[i]->label);
    }
}

/* The privacy rules, applied to every message a player receives. */
static void check_privacy(player *p, const Deckhand__ServerMessage *m)
{
    if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_VIEW) {
        const Deckhand__View *v = m->view;
        if (p->seat >= 0 && (int)v->seat != p->seat)
            violation(p, "got the view of seat %u", v->seat);
        for (size_t i = 0; i < v->n_zones; i++) {
            const Deckhand__Zone *z = v->zones[i];
            bool other_hand = is_zone(z->name, "hand") && z->owner != (int)v->seat;
            g_decks_seen += is_zone(z->name, "deck") && z->count > 0;
            g_other_hands_seen += other_hand && z->count > 0;
            if (is_zone(z->name, "deck") && z->n_cards > 0)
                violation(p, "sees %zu cards of deck (owner %d)", z->n_cards, z->owner);
            if (other_hand && z->n_cards > 0)
                violation(p, "sees %zu cards of the hand of seat %d", z->n_cards, z->owner);
        }
        if (v->decision && v->decision->seat != v->seat)
            violation(p, "view carries the decision of seat %u", v->decision->seat);
    } else if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_DECISION) {
        if (p->seat >= 0 && (int)m->decision->seat != p->seat)
            violation(p, "got a DecisionRequest for seat %u", m->decision->seat);
    } else if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_EVENT) {
        /* Private events (g:log_to: "You draw Copper, Estate") say "You"; one about
         * another seat must never arrive here. */
        const Deckhand__Event *e = m->event;
        bool private =
            (e->kind && strstr(e->kind, "private")) || (e->text && !strncmp(e->text, "You ", 4));
        g_private_events_seen += private;
        if (private && p->seat >= 0 && e->seat >= 0 && e->seat != p->seat)
            violation(p, "got a private event of seat %d: %s", e->seat, e->text);
    }
}

/* Record what one message says; the message stays owned by the caller. */
static void handle(player *p, const Deckhand__ServerMessage *m)
{
    check_privacy(p, m);
    switch (m->body_case) {
    case DECKHAND__SERVER_MESSAGE__BODY_REPLY: {
        reply *r = &p->replies[p->nreplies++ % 64];
        r->cmd_id = m->reply->cmd_id;
        r->ok = m->reply->ok;
        r->code = m->reply->error ? (int)m->reply->error->code : 0;
        break;
    }
    case DECKHAND__SERVER_MESSAGE__BODY_MATCH_FOUND:
        copy(p->match_id, sizeof p->match_id, m->match_found->match_id);
        p->seat = (int)m->match_found->seat;
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_DECISION:
        if ((int)m->decision->seat == p->seat && m->decision->decision_id != p->answered)
            take_decision(p, m->decision);
        p->ndecisions++;
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_VIEW:
        p->nviews++;
        p->view_sig = view_sig(m->view);
        p->waiting_for = m->view->waiting_for;
        if (m->view->decision && m->view->decision->decision_id != p->answered)
            take_decision(p, m->view->decision);
        else if (!m->view->decision)
            p->dec.valid = false;
        if (m->view->finished)
            p->game_over = true;
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_EVENT:
        p->nevents++;
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER:
        p->game_over = true;
        p->dec.valid = false;
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_PONG:
        p->last_pong = m->pong->nonce;
        break;
    default:
        break;
    }
}

/* Receive one message (up to ms) and handle it. 1, 0 on timeout, -1 when closed. */
static int step(player *p, int ms)
{
    Deckhand__ServerMessage *m = NULL;
    int r = dh_client_recv(p->c, ms, &m);
    if (r < 0)
        p->closed = true;
    if (r != 1)
        return r;
    handle(p, m);
    deckhand__server_message__free_unpacked(m, NULL);
    return 1;
}

/* Handle whatever arrives on any of ps within ms. Returns the number of messages. */
static int pump(player **ps, size_t n, int ms)
{
    int got = 0;
    for (size_t i = 0; i < n; i++)
        while (!ps[i]->closed && dh_client_pending(ps[i]->c))
            got += step(ps[i], 0) > 0;
    if (got)
        return got;
    struct pollfd fds[16];
    for (size_t i = 0; i < n; i++)
        fds[i] =
            (struct pollfd){.fd = ps[i]->closed ? -1 : dh_client_fd(ps[i]->c), .events = POLLIN};
    if (poll(fds, (nfds_t)n, ms) <= 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (fds[i].revents)
            got += step(ps[i], 0) > 0;
    return got;
}

static const reply *find_reply(const player *p, uint64_t cmd_id)
{
    size_t lo = p->nreplies > 64 ? p->nreplies - 64 : 0;
    for (size_t i = p->nreplies; i > lo; i--)
        if (p->replies[(i - 1) % 64].cmd_id == cmd_id)
            return &p->replies[(i - 1) % 64];
    return NULL;
}

/* Wait for the Reply to cmd_id: its error code (0 = ok), or -1 when none came. */
static int wait_reply(player *p, uint64_t cmd_id)
{
    long long deadline = now_ms() + WAIT_MS;
    const reply *r;
    while (!(r = find_reply(p, cmd_id))) {
        long long left = deadline - now_ms();
        if (left <= 0 || step(p, (int)left) < 0)
            return -1;
    }
    return r->ok ? 0 : (r->code ? r->code : -2);
}

static player *connect_to(const char *addr, const char *name)
{
    player *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    char err[256];
    p->c = dh_client_connect(addr, err, sizeof err);
    if (!p->c) {
        fprintf(stderr, "\nconnect %s: %s\n", addr, err);
        free(p);
        return NULL;
    }
    copy(p->name, sizeof p->name, name);
    p->seat = -1;
    p->waiting_for = -1;
    return p;
}

static player *connect_player(const char *name)
{
    return connect_to(g_gateway, name);
}

static player *login_to(const char *addr, const char *name)
{
    player *p = connect_to(addr, name);
    if (p && dh_client_login(p->c, name, NULL, 0, NULL, 0) != 0) {
        fprintf(stderr, "\nlogin %s failed\n", name);
        dh_client_close(p->c);
        free(p);
        return NULL;
    }
    return p;
}

static player *login(const char *name)
{
    return login_to(g_gateway, name);
}

static void drop(player *p)
{
    if (!p)
        return;
    dh_client_close(p->c);
    free(p);
}

static uint64_t send_msg(player *p, Deckhand__ClientMessage *m, uint64_t cmd_id)
{
    m->cmd_id = cmd_id ? cmd_id : dh_client_next_cmd(p->c);
    if (dh_client_send(p->c, m) < 0)
        p->closed = true;
    return m->cmd_id;
}

static uint64_t send_ping(player *p, uint64_t nonce)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__Ping ping = DECKHAND__PING__INIT;
    ping.nonce = nonce;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_PING;
    m.ping = &ping;
    return send_msg(p, &m, 0);
}

static uint64_t send_queue(player *p, const char *game, uint32_t players)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__QueueJoin q = DECKHAND__QUEUE_JOIN__INIT;
    q.game = (char *)game;
    q.players = players;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_QUEUE_JOIN;
    m.queue_join = &q;
    return send_msg(p, &m, 0);
}

static uint64_t send_choose(player *p, const char *match_id, uint64_t decision_id,
                            const uint32_t *ids, size_t n, uint64_t cmd_id)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__Choose ch = DECKHAND__CHOOSE__INIT;
    ch.match_id = (char *)match_id;
    ch.decision_id = decision_id;
    ch.option_ids = (uint32_t *)ids;
    ch.n_option_ids = n;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_CHOOSE;
    m.choose = &ch;
    return send_msg(p, &m, cmd_id);
}

static uint64_t send_resync(player *p, const char *match_id)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__Resync rs = DECKHAND__RESYNC__INIT;
    rs.match_id = (char *)match_id;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_RESYNC;
    m.resync = &rs;
    return send_msg(p, &m, 0);
}

/* Ask for a full view and wait for it and the Reply. The view's fingerprint, 0 if none. */
static uint64_t resync(player *p)
{
    unsigned before = p->nviews;
    uint64_t cmd = send_resync(p, p->match_id);
    long long deadline = now_ms() + WAIT_MS;
    while (p->nviews == before || !find_reply(p, cmd)) {
        long long left = deadline - now_ms();
        if (left <= 0 || step(p, (int)left) < 0)
            break;
    }
    if (!find_reply(p, cmd))
        fprintf(stderr, "\n%s: no Reply to Resync (cmd_id %" PRIu64 ")\n", p->name, cmd);
    CU_ASSERT(find_reply(p, cmd) != NULL);
    if (p->nviews == before)
        fprintf(stderr, "\n%s: no View after Resync\n", p->name);
    return p->nviews > before ? p->view_sig : 0;
}

/* The player of ps whose decision is pending and unanswered, or NULL. */
static player *decider(player **ps, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (ps[i]->dec.valid && ps[i]->dec.id != ps[i]->answered &&
            (int)ps[i]->dec.seat == ps[i]->seat && !ps[i]->game_over)
            return ps[i];
    return NULL;
}

/* Pump ps until one of them must decide. */
static player *wait_decider(player **ps, size_t n)
{
    long long deadline = now_ms() + WAIT_MS;
    player *d;
    while (!(d = decider(ps, n)) && now_ms() < deadline)
        pump(ps, n, 100);
    return d;
}

/* Log in two fresh guests (names from tag) and queue them for a 2-player dominion match.
 * Both end up seated, with a view, and one of them with a decision. */
static bool start_match(const char *tag, player **a, player **b)
{
    char na[32], nb[32];
    snprintf(na, sizeof na, "%s-a", tag);
    snprintf(nb, sizeof nb, "%s-b", tag);
    *a = login(na);
    *b = login(nb);
    if (!*a || !*b)
        return false;
    player *ps[2] = {*a, *b};
    for (int i = 0; i < 2; i++) {
        int rc = wait_reply(ps[i], send_queue(ps[i], "dominion", 2));
        if (rc != 0) {
            fprintf(stderr, "\n%s: QueueJoin answered %d\n", ps[i]->name, rc);
            return false;
        }
    }
    long long deadline = now_ms() + WAIT_MS;
    while (now_ms() < deadline && (ps[0]->seat < 0 || ps[1]->seat < 0 || !ps[0]->nviews ||
                                   !ps[1]->nviews || !decider(ps, 2)))
        pump(ps, 2, 100);
    if (ps[0]->seat < 0 || ps[1]->seat < 0 || !decider(ps, 2)) {
        fprintf(stderr, "\n%s: the match did not start (seats %d %d, views %u %u)\n", tag,
                ps[0]->seat, ps[1]->seat, ps[0]->nviews, ps[1]->nviews);
        return false;
    }
    return !strcmp(ps[0]->match_id, ps[1]->match_id) && ps[0]->seat != ps[1]->seat;
}

/* True for a label "Buy NAME" or "Buy NAME ($N)". */
static bool is_buy_of(const char *label, const char *name)
{
    size_t n = strlen(name);
    return !strncmp(label, "Buy ", 4) && !strncmp(label + 4, name, n) &&
           (label[4 + n] == '\0' || label[4 + n] == ' ');
}

/* The test's own bot: play all treasures, buy Province, Gold or Silver, else end the
 * turn, else the first min options. Fills ids, returns how many. */
static size_t bot_choose(player *p, uint32_t *ids)
{
    const decision *d = &p->dec;
    size_t i;
    if (!p->played_treasures)
        for (i = 0; i < d->nopt; i++)
            if (!strncmp(d->opt_label[i], "Play all treasures", 18)) {
                p->played_treasures = true;
                ids[0] = d->opt_id[i];
                return 1;
            }
    /* Offered again right after playing them: there was nothing to play; go on. */
    p->played_treasures = false;
    static const char *const wanted[] = {"Province", "Gold", "Silver"};
    for (size_t w = 0; w < 3 && !strcmp(d->kind, "buy"); w++)
        for (i = 0; i < d->nopt; i++)
            if (!strcmp(d->opt_card[i], wanted[w]) || is_buy_of(d->opt_label[i], wanted[w])) {
                ids[0] = d->opt_id[i];
                return 1;
            }
    for (i = 0; i < d->nopt && !strcmp(d->kind, "buy"); i++)
        if (!strncmp(d->opt_label[i], "End", 3)) {
            ids[0] = d->opt_id[i];
            return 1;
        }
    size_t n = d->min < d->nopt ? d->min : d->nopt;
    for (i = 0; i < n; i++)
        ids[i] = d->opt_id[i];
    return n;
}

/* Answer p's pending decision with the bot and wait for the Reply: its code (0 = ok), -1
 * for none. RATE_LIMITED (over 50 messages/s on one connection) is waited out. */
static int bot_answer(player *p)
{
    uint32_t ids[MAX_OPTS];
    size_t n = bot_choose(p, ids);
    p->answered = p->dec.id;
    p->dec.valid = false;
    for (int tries = 0;; tries++) {
        int rc = wait_reply(p, send_choose(p, p->match_id, p->answered, ids, n, 0));
        if (rc != DECKHAND__ERROR_CODE__RATE_LIMITED || tries == 50)
            return rc;
        usleep(100 * 1000);
    }
}

static void end_match(player *a, player *b)
{
    drop(a);
    drop(b);
}

/* ---- the tests ------------------------------------------------------------------------- */

static void test_message_before_hello_is_unauthenticated(void)
{
    player *p = connect_player("nohello");
    CU_ASSERT_FATAL(p != NULL);
    CU_ASSERT_EQUAL(wait_reply(p, send_ping(p, 7)), DECKHAND__ERROR_CODE__UNAUTHENTICATED);
    CU_ASSERT_EQUAL(wait_reply(p, send_queue(p, "dominion", 2)),
                    DECKHAND__ERROR_CODE__UNAUTHENTICATED);
    CU_ASSERT_EQUAL(wait_reply(p, send_resync(p, "m-1")), DECKHAND__ERROR_CODE__UNAUTHENTICATED);
    CU_ASSERT_NOT_EQUAL(p->last_pong, 7);
    drop(p);
}

static void test_command_out_of_turn_gets_not_your_turn_and_changes_nothing(void)
{
    player *a, *b;
    CU_ASSERT_FATAL(start_match("turn", &a, &b));
    player *ps[2] = {a, b};
    player *d = decider(ps, 2), *o = d == a ? b : a;
    uint64_t dec_id = d->dec.id, opt = d->dec.opt_id[0];
    CU_ASSERT_FATAL(d->dec.nopt > 0);

    uint64_t sig_o = resync(o), sig_d = resync(d);
    CU_ASSERT_FATAL(sig_o != 0 && sig_d != 0);

    uint32_t ids[1] = {(uint32_t)opt};
    CU_ASSERT_EQUAL(wait_reply(o, send_choose(o, o->match_id, dec_id, ids, 1, 0)),
                    DECKHAND__ERROR_CODE__NOT_YOUR_TURN);
    CU_ASSERT_EQUAL(resync(o), sig_o);
    CU_ASSERT_EQUAL(resync(d), sig_d);
    CU_ASSERT_TRUE(d->dec.valid && d->dec.id == dec_id);
    CU_ASSERT_FALSE(o->dec.valid && o->dec.id != o->answered);
    end_match(a, b);
}

static void test_illegal_choice_is_rejected(void)
{
    player *a, *b;
    CU_ASSERT_FATAL(start_match("illegal", &a, &b));
    player *ps[2] = {a, b};
    player *d = decider(ps, 2);
    const decision *x = &d->dec;
    CU_ASSERT_FATAL(x->nopt > 0);
    uint64_t sig = resync(d);

    /* an option id no option has */
    uint32_t top = 0;
    for (size_t i = 0; i < x->nopt; i++)
        top = x->opt_id[i] > top ? x->opt_id[i] : top;
    uint32_t bad[MAX_OPTS + 2] = {top + 100};
    CU_ASSERT_EQUAL(wait_reply(d, send_choose(d, d->match_id, x->id, bad, 1, 0)),
                    DECKHAND__ERROR_CODE__ILLEGAL_CHOICE);

    /* more ids than max (repeating ids when there are not enough options) */
    size_t many = x->max + 1 < MAX_OPTS ? x->max + 1 : MAX_OPTS;
    for (size_t i = 0; i < many; i++)
        bad[i] = x->opt_id[i % x->nopt];
    CU_ASSERT_EQUAL(wait_reply(d, send_choose(d, d->match_id, x->id, bad, many, 0)),
                    DECKHAND__ERROR_CODE__ILLEGAL_CHOICE);

    /* a decision id that is not the pending one */
    bad[0] = x->opt_id[0];
    CU_ASSERT_EQUAL(wait_reply(d, send_choose(d, d->match_id, x->id + 1000, bad, 1, 0)),
                    DECKHAND__ERROR_CODE__ILLEGAL_CHOICE);
    CU_ASSERT_EQUAL(resync(d), sig);

    /* the decider's next valid answer still works */
    uint64_t first = d->dec.id;
    CU_ASSERT_FATAL(d->dec.valid);
    CU_ASSERT_EQUAL(bot_answer(d), 0);

    /* then the answered (now stale) decision id is rejected too, and play goes on */
    player *n = wait_decider(ps, 2);
    CU_ASSERT_FATAL(n != NULL);
    CU_ASSERT_NOT_EQUAL(n->dec.id, first);
    bad[0] = n->dec.opt_id[0];
    CU_ASSERT_EQUAL(wait_reply(n, send_choose(n, n->match_id, first, bad, 1, 0)),
                    DECKHAND__ERROR_CODE__ILLEGAL_CHOICE);
    CU_ASSERT_EQUAL(bot_answer(n), 0);
    end_match(a, b);
}

/* Read until the connection closes (bounded): true when a BAD_FRAME Reply came first. */
static bool closed_with_bad_frame(player *p)
{
    bool bad_frame = false;
    long long deadline = now_ms() + WAIT_MS;
    while (!p->closed && now_ms() < deadline) {
        size_t before = p->nreplies;
        step(p, 200);
        if (p->nreplies > before) {
            const reply *r = &p->replies[(p->nreplies - 1) % 64];
            bad_frame |= !r->ok && r->code == DECKHAND__ERROR_CODE__BAD_FRAME;
        }
    }
    if (!p->closed)
        fprintf(stderr, "\n%s: the connection stayed open\n", p->name);
    return bad_frame && p->closed;
}

static bool still_works(player *p, uint64_t nonce)
{
    send_ping(p, nonce);
    long long deadline = now_ms() + WAIT_MS;
    while (p->last_pong != nonce && now_ms() < deadline)
        if (step(p, 200) < 0)
            return false;
    return p->last_pong == nonce;
}

static void test_malformed_frame_closes_only_that_connection(void)
{
    player *keep = login("keeper");
    CU_ASSERT_FATAL(keep != NULL);
    CU_ASSERT_TRUE(still_works(keep, 1));

    /* a length prefix far over --max-frame */
    player *big = login("oversize");
    CU_ASSERT_FATAL(big != NULL);
    static const unsigned char huge[4] = {0x7f, 0xff, 0xff, 0xf0};
    CU_ASSERT_EQUAL(dh_client_send_bytes(big->c, huge, sizeof huge), 0);
    CU_ASSERT_TRUE(closed_with_bad_frame(big));
    CU_ASSERT_TRUE(still_works(keep, 2));

    /* a well-framed payload that is not a ClientMessage (field 1 with wire type 7) */
    player *junk = login("garbage");
    CU_ASSERT_FATAL(junk != NULL);
    static const unsigned char garbage[] = {0x0f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                            0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    CU_ASSERT_EQUAL(dh_client_send_raw(junk->c, garbage, sizeof garbage), 0);
    CU_ASSERT_TRUE(closed_with_bad_frame(junk));
    CU_ASSERT_TRUE(still_works(keep, 3));

    /* on WebSocket: a binary message over the limit */
    player *wsbig = login_to(g_gateway_ws, "ws-oversize");
    CU_ASSERT_FATAL(wsbig != NULL);
    size_t biglen = 70000;
    unsigned char *blob = calloc(1, biglen);
    CU_ASSERT_FATAL(blob != NULL);
    CU_ASSERT_EQUAL(dh_client_send_raw(wsbig->c, blob, biglen), 0);
    free(blob);
    CU_ASSERT_TRUE(closed_with_bad_frame(wsbig));
    CU_ASSERT_TRUE(still_works(keep, 4));
    drop(wsbig);

    /* and a fresh connection is still welcome */
    player *fresh = login("fresh");
    CU_ASSERT_TRUE(fresh != NULL && still_works(fresh, 5));
    drop(fresh);
    drop(junk);
    drop(big);
    drop(keep);
}

static void test_unknown_match_is_rejected(void)
{
    player *p = login("nomatch");
    CU_ASSERT_FATAL(p != NULL);
    uint32_t ids[1] = {0};
    CU_ASSERT_EQUAL(wait_reply(p, send_choose(p, "no-such-match", 1, ids, 1, 0)),
                    DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    CU_ASSERT_EQUAL(wait_reply(p, send_resync(p, "no-such-match")),
                    DECKHAND__ERROR_CODE__UNKNOWN_MATCH);

    /* a real match this player is not seated in */
    player *a, *b;
    CU_ASSERT_FATAL(start_match("seated", &a, &b));
    player *ps[2] = {a, b};
    player *d = decider(ps, 2);
    ids[0] = d->dec.opt_id[0];
    CU_ASSERT_EQUAL(wait_reply(p, send_choose(p, a->match_id, d->dec.id, ids, 1, 0)),
                    DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    CU_ASSERT_EQUAL(wait_reply(p, send_resync(p, a->match_id)),
                    DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    CU_ASSERT_EQUAL(p->nviews, 0);
    CU_ASSERT_TRUE(d->dec.valid);
    end_match(a, b);
    drop(p);
}

static void test_retried_cmd_id_is_not_applied_twice(void)
{
    player *a, *b;
    CU_ASSERT_FATAL(start_match("retry", &a, &b));
    player *ps[2] = {a, b};
    player *d = decider(ps, 2);
    uint32_t ids[MAX_OPTS];
    size_t n = bot_choose(d, ids);
    uint64_t dec_id = d->dec.id;
    d->answered = dec_id;
    d->dec.valid = false;
    uint64_t cmd = send_choose(d, d->match_id, dec_id, ids, n, 0);
    CU_ASSERT_EQUAL_FATAL(wait_reply(d, cmd), 0);

    /* settle: the next decision is out, then fingerprint both views */
    CU_ASSERT_FATAL(wait_decider(ps, 2) != NULL);
    uint64_t sig_a = resync(a), sig_b = resync(b);
    CU_ASSERT_FATAL(sig_a != 0 && sig_b != 0);

    /* the very same message again: answered again (ok), not applied again */
    size_t before = d->nreplies;
    send_choose(d, d->match_id, dec_id, ids, n, cmd);
    long long deadline = now_ms() + WAIT_MS;
    while (d->nreplies == before && now_ms() < deadline)
        step(d, 200);
    CU_ASSERT_FATAL(d->nreplies > before);
    const reply *r = &d->replies[(d->nreplies - 1) % 64];
    CU_ASSERT_EQUAL(r->cmd_id, cmd);
    CU_ASSERT_TRUE(r->ok);
    CU_ASSERT_EQUAL(resync(a), sig_a);
    CU_ASSERT_EQUAL(resync(b), sig_b);
    end_match(a, b);
}

static void test_no_client_sees_another_hand_or_deck_order(void)
{
    unsigned violations = g_violations;
    player *a, *b, *c, *d;
    CU_ASSERT_FATAL(start_match("priv1", &a, &b));
    CU_ASSERT_FATAL(start_match("priv2", &c, &d));
    player *ps[4] = {a, b, c, d};
    long long deadline = now_ms() + MATCH_MS;
    unsigned answers = 0, errors = 0;
    bool done = false;
    while (!done && now_ms() < deadline) {
        pump(ps, 4, 100);
        player *x;
        while ((x = decider(ps, 4))) {
            int rc = bot_answer(x);
            if (rc != 0) {
                fprintf(stderr, "\n%s: Choose answered %d\n", x->name, rc);
                errors++;
            }
            answers++;
        }
        done = true;
        for (int i = 0; i < 4; i++) {
            done &= ps[i]->game_over;
            if (ps[i]->closed && !ps[i]->game_over) {
                fprintf(stderr, "\n%s: connection closed mid-match\n", ps[i]->name);
                deadline = 0;
            }
        }
    }
    for (int i = 0; i < 4; i++) {
        CU_ASSERT_TRUE(ps[i]->game_over);
        CU_ASSERT_TRUE(ps[i]->nviews > 0 && ps[i]->nevents > 0);
    }
    fprintf(stderr, "\n  2 matches: %u answers, %u views, %u decisions, %u errors\n", answers,
            a->nviews + b->nviews + c->nviews + d->nviews,
            a->ndecisions + b->ndecisions + c->ndecisions + d->ndecisions, errors);
    fprintf(stderr, "  checked: %u deck zones, %u other hands, %u private events\n", g_decks_seen,
            g_other_hands_seen, g_private_events_seen);
    CU_ASSERT_EQUAL(errors, 0);
    CU_ASSERT_EQUAL(g_violations, violations);
    CU_ASSERT_TRUE(g_decks_seen > 0 && g_other_hands_seen > 0 && g_private_events_seen > 0);
    end_match(a, b);
    end_match(c, d);
}

static void test_no_privacy_violation_in_any_test(void)
{
    CU_ASSERT_EQUAL(g_violations, 0);
}

/* ---- the cluster around the tests ------------------------------------------------------ */

static int cluster(const char *verb, bool with_base)
{
    char cmd[2048];
    char args[64] = "";
    if (with_base)
        snprintf(args, sizeof args, "%d 2 %ld", PORT_BASE, (long)getpid());
    snprintf(cmd, sizeof cmd, "DECKHAND_BIN_DIR='%s' DH_READY_TIMEOUT=30 bash '%s' %s '%s' %s",
             DECKHAND_BIN_DIR, dh_test_path("scripts/lib/cluster.sh"), verb, g_run, args);
    int rc = system(cmd);
    return rc == 0 ? 0 : -1;
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"test_message_before_hello_is_unauthenticated",
         test_message_before_hello_is_unauthenticated},
        {"test_command_out_of_turn_gets_not_your_turn_and_changes_nothing",
         test_command_out_of_turn_gets_not_your_turn_and_changes_nothing},
        {"test_illegal_choice_is_rejected", test_illegal_choice_is_rejected},
        {"test_malformed_frame_closes_only_that_connection",
         test_malformed_frame_closes_only_that_connection},
        {"test_unknown_match_is_rejected", test_unknown_match_is_rejected},
        {"test_retried_cmd_id_is_not_applied_twice", test_retried_cmd_id_is_not_applied_twice},
        {"test_no_client_sees_another_hand_or_deck_order",
         test_no_client_sees_another_hand_or_deck_order},
        {"test_no_privacy_violation_in_any_test", test_no_privacy_violation_in_any_test},
        {NULL, NULL},
    };
    signal(SIGPIPE, SIG_IGN);
    snprintf(g_run, sizeof g_run, "/tmp/deckhand-e2e-protocol.XXXXXX");
    if (!mkdtemp(g_run)) {
        perror("mkdtemp");
        return 1;
    }
    if (cluster("start", true) != 0) {
        fprintf(stderr, "test_protocol: the cluster did not start (run dir %s)\n", g_run);
        return 1;
    }
    char env[512];
    snprintf(env, sizeof env, "%s/cluster.env", g_run);
    if (dh_client_env_file(env, "DECKHAND_GATEWAY_TCP", g_gateway, sizeof g_gateway) != 0 ||
        dh_client_env_file(env, "DECKHAND_GATEWAY_WS", g_gateway_ws, sizeof g_gateway_ws) != 0) {
        fprintf(stderr, "test_protocol: no gateway addresses in %s\n", env);
        cluster("stop", false);
        return 1;
    }
    int rc = dh_test_main("e2e_protocol", cases);
    if (cluster("alive", false) != 0)
        rc = 1;
    cluster("stop", false);
    if (cluster("check", false) != 0)
        rc = 1;
    if (rc == 0) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_run);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", g_run);
    } else {
        fprintf(stderr, "test_protocol: logs kept in %s/logs\n", g_run);
    }
    return rc;
}
