/*
 * rig_player.c: see rig_player.h.
 */
#include "rig_player.h"

#include "dh_client_msg.h"
#include "dh_clock.h"
#include "dh_hash.h"
#include "dh_client_view.h"
#include "dh_test.h"

#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

pl_watch_counts pl_watch;
char pl_gateway[128], pl_gateway_ws[160];
void (*pl_on_message)(pl_player *p, const Deckhand__ServerMessage *m);

long long pl_now_ms(void)
{
    return (long long)dh_now_ms(); /* signed: the waits subtract */
}

static void violation(const pl_player *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void violation(const pl_player *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "\nPRIVACY: %s (seat %d) ", p->name, p->seat);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    pl_watch.violations++;
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

/* A fingerprint of everything a View says about the match, to compare two views. */
static uint64_t view_sig(const Deckhand__View *v)
{
    uint64_t h = DH_FNV_START;
    h = dh_fnv1a(h, &v->event_seq, sizeof v->event_seq);
    h = dh_fnv1a(h, &v->waiting_for, sizeof v->waiting_for);
    h = dh_fnv1a(h, &v->finished, sizeof v->finished);
    for (size_t i = 0; i < v->n_zones; i++) {
        const Deckhand__Zone *z = v->zones[i];
        h = dh_fnv1a_str(h, z->name);
        h = dh_fnv1a(h, &z->owner, sizeof z->owner);
        h = dh_fnv1a(h, &z->count, sizeof z->count);
        for (size_t k = 0; k < z->n_cards; k++) {
            h = dh_fnv1a(h, &z->cards[k]->entity, sizeof z->cards[k]->entity);
            h = dh_fnv1a_str(h, z->cards[k]->name);
        }
    }
    for (size_t i = 0; i < v->n_counters; i++) {
        h = dh_fnv1a_str(h, v->counters[i]->name);
        h = dh_fnv1a(h, &v->counters[i]->owner, sizeof v->counters[i]->owner);
        h = dh_fnv1a(h, &v->counters[i]->value, sizeof v->counters[i]->value);
    }
    if (v->decision)
        h = dh_fnv1a(h, &v->decision->decision_id, sizeof v->decision->decision_id);
    return h;
}

static void take_decision(pl_player *p, const Deckhand__DecisionRequest *d)
{
    pl_decision *x = &p->dec;
    long long got = x->valid && x->id == d->decision_id ? x->got_ms : pl_now_ms();
    memset(x, 0, sizeof *x);
    x->got_ms = got;
    x->time_left_ms = d->time_left_ms;
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

/* The zones one seat is shown, in a View or a ViewDelta: never a deck's cards, never
 * another seat's hand. */
static void check_zones(const pl_player *p, uint32_t seat, Deckhand__Zone *const *zones, size_t n)
{
    if (p->seat >= 0 && (int)seat != p->seat)
        violation(p, "got the view of seat %u", seat);
    for (size_t i = 0; i < n; i++) {
        const Deckhand__Zone *z = zones[i];
        bool other_hand = is_zone(z->name, "hand") && z->owner != (int)seat;
        pl_watch.decks_seen += is_zone(z->name, "deck") && z->count > 0;
        pl_watch.other_hands_seen += other_hand && z->count > 0;
        if (is_zone(z->name, "deck") && z->n_cards > 0)
            violation(p, "sees %zu cards of deck (owner %d)", z->n_cards, z->owner);
        if (other_hand && z->n_cards > 0)
            violation(p, "sees %zu cards of the hand of seat %d", z->n_cards, z->owner);
    }
}

/* The privacy rules, applied to every message a player receives. */
static void check_privacy(pl_player *p, const Deckhand__ServerMessage *m)
{
    if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_VIEW) {
        const Deckhand__View *v = m->view;
        check_zones(p, v->seat, v->zones, v->n_zones);
        if (v->decision && v->decision->seat != v->seat)
            violation(p, "view carries the decision of seat %u", v->decision->seat);
    } else if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_VIEW_DELTA) {
        const Deckhand__ViewDelta *d = m->view_delta;
        pl_watch.deltas_seen++;
        for (size_t i = 0; i < d->n_zones; i++)
            pl_watch.delta_other_hands_seen +=
                is_zone(d->zones[i]->name, "hand") && d->zones[i]->owner != (int)d->seat;
        check_zones(p, d->seat, d->zones, d->n_zones);
        if (d->decision && d->decision->seat != d->seat)
            violation(p, "delta carries the decision of seat %u", d->decision->seat);
    } else if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_DECISION) {
        if (p->seat >= 0 && (int)m->decision->seat != p->seat)
            violation(p, "got a DecisionRequest for seat %u", m->decision->seat);
    } else if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_EVENT) {
        /* Private events (g:log_to: "You draw Copper, Estate") say "You"; one about
         * another seat must never arrive here. */
        const Deckhand__Event *e = m->event;
        bool private =
            (e->kind && strstr(e->kind, "private")) || (e->text && !strncmp(e->text, "You ", 4));
        pl_watch.private_events_seen += private;
        if (private && p->seat >= 0 && e->seat >= 0 && e->seat != p->seat)
            violation(p, "got a private event of seat %d: %s", e->seat, e->text);
    }
}

/* What the View held (deltas applied) now says. */
static void take_view(pl_player *p, const Deckhand__View *v)
{
    p->view_sig = view_sig(v);
    p->waiting_for = v->waiting_for;
    if (v->decision && v->decision->decision_id != p->answered)
        take_decision(p, v->decision);
    else if (!v->decision)
        p->dec.valid = false;
    if (v->finished)
        p->game_over = true;
}

/* A delta to the View held; one that does not fit asks for a full View. */
static void take_delta(pl_player *p, Deckhand__ViewDelta *d)
{
    Deckhand__View *v = p->held ? p->held->view : NULL;
    if (strcmp(d->match_id, p->match_id) != 0)
        return;
    p->ndeltas++;
    if (dh_view_apply(v, d) != DH_VIEW_APPLIED) {
        pl_send_resync(p, p->match_id);
        return;
    }
    take_view(p, v);
}

/* Record what one message says. True when p kept m (the View it holds); otherwise the
 * caller frees it. */
static bool handle(pl_player *p, Deckhand__ServerMessage *m)
{
    check_privacy(p, m);
    switch (m->body_case) {
    case DECKHAND__SERVER_MESSAGE__BODY_REPLY: {
        pl_reply *r = &p->replies[p->nreplies++ % 64];
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
        p->held_sig = p->held ? view_sig(p->held->view) : 0;
        if (p->held)
            deckhand__server_message__free_unpacked(p->held, NULL);
        p->held = m;
        take_view(p, m->view);
        return true;
    case DECKHAND__SERVER_MESSAGE__BODY_VIEW_DELTA:
        take_delta(p, m->view_delta);
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_CATALOG:
        p->ncatalogs++;
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
    return false;
}

/* The bytes of a TCP frame of m. */
static size_t frame_size(const Deckhand__ServerMessage *m)
{
    return 4 + deckhand__server_message__get_packed_size(m);
}

/* The frame the View held would have been before deltas: every View in full, with the
 * text of every card (the catalog's) and without the two fields deltas added. */
static size_t full_view_frame(pl_player *p)
{
    if (!p->held)
        return 0;
    Deckhand__View *v = p->held->view;
    const Deckhand__Catalog *c = p->catalog ? p->catalog->catalog : NULL;
    char *bundle = v->bundle_id;
    uint64_t seq = v->view_seq;
    v->bundle_id = (char *)"";
    v->view_seq = 0;
    v->n_cards = c ? c->n_cards : 0;
    v->cards = c ? c->cards : NULL;
    size_t n = frame_size(p->held);
    v->n_cards = 0;
    v->cards = NULL;
    v->bundle_id = bundle;
    v->view_seq = seq;
    return n;
}

/* Count what a message of n bytes costs on the wire now, and what it cost when every change sent a
 * full View (a Catalog was not sent then). */
static void count_bytes(pl_player *p, Deckhand__ServerMessage__BodyCase body, size_t n)
{
    p->bytes_in += n;
    if (body == DECKHAND__SERVER_MESSAGE__BODY_VIEW ||
        body == DECKHAND__SERVER_MESSAGE__BODY_VIEW_DELTA)
        p->bytes_full += full_view_frame(p);
    else if (body != DECKHAND__SERVER_MESSAGE__BODY_CATALOG)
        p->bytes_full += n;
}

/* Receive one message (up to ms) and handle it. 1, 0 on timeout, -1 when closed. */
int pl_step(pl_player *p, int ms)
{
    Deckhand__ServerMessage *m = NULL;
    int r = dh_client_recv(p->c, ms, &m);
    if (r < 0)
        p->closed = true;
    if (r != 1)
        return r;
    if (pl_on_message)
        pl_on_message(p, m);
    size_t n = frame_size(m); /* before handle: applying a delta empties it */
    Deckhand__ServerMessage__BodyCase body = m->body_case;
    bool kept = handle(p, m);
    count_bytes(p, body, n);
    Deckhand__ServerMessage **slot = NULL;
    if (body == DECKHAND__SERVER_MESSAGE__BODY_CATALOG)
        slot = &p->catalog;
    else if (body == DECKHAND__SERVER_MESSAGE__BODY_PARTY)
        slot = &p->party;
    else if (body == DECKHAND__SERVER_MESSAGE__BODY_LOBBY)
        slot = &p->lobby;
    else if (body == DECKHAND__SERVER_MESSAGE__BODY_LOBBY_LIST)
        slot = &p->lobby_list;
    if (!kept && slot) {
        if (*slot)
            deckhand__server_message__free_unpacked(*slot, NULL);
        *slot = m;
        return 1;
    }
    if (!kept)
        deckhand__server_message__free_unpacked(m, NULL);
    return 1;
}

/* Handle whatever arrives on any of ps within ms. Returns the number of messages. */
int pl_pump(pl_player **ps, size_t n, int ms)
{
    int got = 0;
    for (size_t i = 0; i < n; i++)
        while (!ps[i]->closed && dh_client_pending(ps[i]->c))
            got += pl_step(ps[i], 0) > 0;
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
            got += pl_step(ps[i], 0) > 0;
    return got;
}

static const pl_reply *pl_find_reply(const pl_player *p, uint64_t cmd_id)
{
    size_t lo = p->nreplies > 64 ? p->nreplies - 64 : 0;
    for (size_t i = p->nreplies; i > lo; i--)
        if (p->replies[(i - 1) % 64].cmd_id == cmd_id)
            return &p->replies[(i - 1) % 64];
    return NULL;
}

/* Wait for the Reply to cmd_id: its error code (0 = ok), or -1 when none came. */
int pl_wait_reply(pl_player *p, uint64_t cmd_id)
{
    long long deadline = pl_now_ms() + WAIT_MS;
    const pl_reply *r;
    while (!(r = pl_find_reply(p, cmd_id))) {
        long long left = deadline - pl_now_ms();
        if (left <= 0 || pl_step(p, (int)left) < 0)
            return -1;
    }
    return r->ok ? 0 : (r->code ? r->code : -2);
}

static pl_player *pl_connect_to(const char *addr, const char *name)
{
    pl_player *p = calloc(1, sizeof *p);
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

pl_player *pl_connect(const char *name)
{
    return pl_connect_to(pl_gateway, name);
}

pl_player *pl_login_to(const char *addr, const char *name)
{
    pl_player *p = pl_connect_to(addr, name);
    if (p && dh_client_login(p->c, name, NULL, 0, NULL, 0) != 0) {
        fprintf(stderr, "\nlogin %s failed\n", name);
        dh_client_close(p->c);
        free(p);
        return NULL;
    }
    return p;
}

pl_player *pl_login(const char *name)
{
    return pl_login_to(pl_gateway, name);
}

void pl_drop(pl_player *p)
{
    if (!p)
        return;
    if (p->held)
        deckhand__server_message__free_unpacked(p->held, NULL);
    Deckhand__ServerMessage *kept[] = {p->catalog, p->party, p->lobby, p->lobby_list};
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
        if (kept[i])
            deckhand__server_message__free_unpacked(kept[i], NULL);
    dh_client_close(p->c);
    free(p);
}

static uint64_t pl_send_msg(pl_player *p, Deckhand__ClientMessage *m, uint64_t cmd_id)
{
    m->cmd_id = cmd_id ? cmd_id : dh_client_next_cmd(p->c);
    if (dh_client_send(p->c, m) < 0)
        p->closed = true;
    return m->cmd_id;
}

uint64_t pl_send(pl_player *p, Deckhand__ClientMessage *m)
{
    return pl_send_msg(p, m, 0);
}

uint64_t pl_send_ping(pl_player *p, uint64_t nonce)
{
    dh_client_msg msg;
    Deckhand__ClientMessage *m = dh_client_msg_ping(&msg, nonce);
    return pl_send_msg(p, m, 0);
}

uint64_t pl_send_queue(pl_player *p, const char *game, uint32_t players)
{
    dh_client_msg msg;
    Deckhand__ClientMessage *m = dh_client_msg_queue_join(&msg, game, players);
    return pl_send_msg(p, m, 0);
}

uint64_t pl_send_choose(pl_player *p, const char *match_id, uint64_t decision_id,
                        const uint32_t *ids, size_t n, uint64_t cmd_id)
{
    dh_client_msg msg;
    Deckhand__ClientMessage *m = dh_client_msg_choose(&msg, match_id, decision_id, ids, n);
    return pl_send_msg(p, m, cmd_id);
}

uint64_t pl_send_resync(pl_player *p, const char *match_id)
{
    dh_client_msg msg;
    Deckhand__ClientMessage *m = dh_client_msg_resync(&msg, match_id);
    return pl_send_msg(p, m, 0);
}

/* Ask for a full view and wait for the Reply and the View that follows it (a View that
 * arrives before the Reply was sent before the Resync). The view's fingerprint, 0 if none. */
uint64_t pl_resync(pl_player *p)
{
    uint64_t cmd = pl_send_resync(p, p->match_id);
    long long deadline = pl_now_ms() + WAIT_MS;
    bool replied = false;
    unsigned at_reply = 0;
    while (!replied || p->nviews == at_reply) {
        long long left = deadline - pl_now_ms();
        if (left <= 0 || pl_step(p, (int)left) < 0)
            break;
        if (!replied && pl_find_reply(p, cmd)) {
            replied = true;
            at_reply = p->nviews;
        }
    }
    if (!replied)
        fprintf(stderr, "\n%s: no Reply to Resync (cmd_id %" PRIu64 ")\n", p->name, cmd);
    CU_ASSERT(replied);
    if (!replied || p->nviews == at_reply)
        fprintf(stderr, "\n%s: no View after Resync\n", p->name);
    return replied && p->nviews > at_reply ? p->view_sig : 0;
}

/* The player of ps whose decision is pending and unanswered, or NULL. */
pl_player *pl_decider(pl_player **ps, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (ps[i]->dec.valid && ps[i]->dec.id != ps[i]->answered &&
            (int)ps[i]->dec.seat == ps[i]->seat && !ps[i]->game_over)
            return ps[i];
    return NULL;
}

/* Pump ps until one of them must decide. */
pl_player *pl_wait_decider(pl_player **ps, size_t n)
{
    long long deadline = pl_now_ms() + WAIT_MS;
    pl_player *d;
    while (!(d = pl_decider(ps, n)) && pl_now_ms() < deadline)
        pl_pump(ps, n, 100);
    return d;
}

/* Log in two fresh guests (names from tag) and queue them for a 2-player dominion match.
 * Both end up seated, with a view, and one of them with a decision. */
bool pl_start_match(const char *tag, pl_player **a, pl_player **b)
{
    char na[32], nb[32];
    snprintf(na, sizeof na, "%s-a", tag);
    snprintf(nb, sizeof nb, "%s-b", tag);
    *a = pl_login(na);
    *b = pl_login(nb);
    if (!*a || !*b)
        return false;
    pl_player *ps[2] = {*a, *b};
    for (int i = 0; i < 2; i++) {
        int rc = pl_wait_reply(ps[i], pl_send_queue(ps[i], "dominion", 2));
        if (rc != 0) {
            fprintf(stderr, "\n%s: QueueJoin answered %d\n", ps[i]->name, rc);
            return false;
        }
    }
    long long deadline = pl_now_ms() + WAIT_MS;
    while (pl_now_ms() < deadline && (ps[0]->seat < 0 || ps[1]->seat < 0 || !ps[0]->nviews ||
                                      !ps[1]->nviews || !pl_decider(ps, 2)))
        pl_pump(ps, 2, 100);
    if (ps[0]->seat < 0 || ps[1]->seat < 0 || !pl_decider(ps, 2)) {
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
size_t pl_bot_choose(pl_player *p, uint32_t *ids)
{
    const pl_decision *d = &p->dec;
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

int pl_rate_limited;

/* Send m for p's pending decision (marked answered) and wait for its Reply, sending it
 * again after a pause while the gateway says RATE_LIMITED (at most 50 times). */
static int pl_answer_msg(pl_player *p, Deckhand__ClientMessage *m)
{
    p->answered = p->dec.id;
    p->dec.valid = false;
    for (int tries = 0;; tries++) {
        int rc = pl_wait_reply(p, pl_send(p, m));
        if (rc != DECKHAND__ERROR_CODE__RATE_LIMITED || tries == 50)
            return rc;
        pl_rate_limited++;
        usleep(100 * 1000);
    }
}

int pl_bot_answer(pl_player *p)
{
    uint32_t ids[MAX_OPTS];
    size_t n = pl_bot_choose(p, ids);
    dh_client_msg msg;
    return pl_answer_msg(p, dh_client_msg_choose(&msg, p->match_id, p->dec.id, ids, n));
}

int pl_game_bot_answer(pl_player *p, const char *strategy)
{
    Deckhand__Choose c = DECKHAND__CHOOSE__INIT;
    c.match_id = p->match_id;
    c.decision_id = p->dec.id;
    c.bot = (char *)strategy;
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_CHOOSE;
    m.choose = &c;
    return pl_answer_msg(p, &m);
}

void pl_end_match(pl_player *a, pl_player *b)
{
    pl_drop(a);
    pl_drop(b);
}
