/*
 * out_seat.c: what a seat is sent (see out.h), through the gateway that last carried its
 * player's command: Replies (and their memory, for retried cmd_ids), events, decision
 * requests, a Resync's answer, a released answer and the GameOver; views are out_view.c's.
 * Nothing here decides when: the host releases outputs only once Redis holds what they show.
 */
#include "out.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_log.h"
#include "dh_wire.h"

/* Make room for one more remembered reply: the ring starts at HOST_REPLIES_FIRST and
 * doubles each time it fills, up to HOST_REPLIES, after which it wraps. A seat that
 * answers a few times costs a few slots, not 64. -1 when out of memory. */
static int host_replies_room(host_seat *s)
{
    if (s->next_reply < s->nreplies || s->nreplies >= HOST_REPLIES)
        return 0;
    unsigned n = s->nreplies ? s->nreplies * 2 : HOST_REPLIES_FIRST;
    n = n < HOST_REPLIES ? n : HOST_REPLIES;
    host_reply *r = realloc(s->replies, n * sizeof *r);
    if (!r)
        return -1;
    memset(r + s->nreplies, 0, (n - s->nreplies) * sizeof *r);
    s->replies = r;
    s->nreplies = n;
    return 0;
}

/* Remember a command's outcome so a retry of its cmd_id gets the same answer: the last
 * HOST_REPLIES of each seat. An error's message is kept to its first 79 bytes (error
 * texts are short); an ok reply keeps none. Out of memory: not remembered (a retry is
 * then worked again, and the engine refuses a stale decision). */
void out_remember(host_seat *s, uint64_t cmd_id, int code, const char *text)
{
    if (!cmd_id || host_replies_room(s) < 0)
        return;
    host_reply *r = &s->replies[s->next_reply++ % s->nreplies];
    free(r->text);
    r->cmd_id = cmd_id;
    r->code = code;
    r->text = text && *text ? strndup(text, 79) : NULL;
}

const host_reply *out_recall(const host_seat *s, uint64_t cmd_id)
{
    for (size_t i = 0; cmd_id && i < s->nreplies; i++)
        if (s->replies[i].cmd_id == cmd_id)
            return &s->replies[i];
    return NULL;
}

void out_forget(host_seat *s)
{
    for (size_t i = 0; i < s->nreplies; i++)
        free(s->replies[i].text);
    free(s->replies);
    s->replies = NULL;
    s->nreplies = s->next_reply = 0;
}

typedef struct {
    host *h;
    host_match *hm;
} host_event_ctx;

static void host_on_event(void *ud, const engine_event *ev)
{
    host_event_ctx *c = ud;
    if (c->hm->watch)
        out_watch_event(c->hm, ev);
    if (ev->to_seat < 0 || ev->to_seat >= c->hm->nseats)
        return;
    const host_seat *s = &c->hm->seats[ev->to_seat];
    if (!s->route[0])
        return;
    Deckhand__Event e = DECKHAND__EVENT__INIT;
    e.match_id = c->hm->id;
    e.event_seq = ev->seq;
    e.kind = (char *)(ev->kind ? ev->kind : "");
    e.text = (char *)(ev->text ? ev->text : "");
    e.seat = ev->about_seat;
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_EVENT;
    sm.event = &e;
    out_send(c->h, s->route, s->player_id, &sm);
}

/* Every event produced since the last drain, to the seats attached now. */
void out_events(host *h, host_match *hm)
{
    host_event_ctx c = {h, hm};
    engine_match_drain_events(hm->m, host_on_event, &c);
}

/* The end of a limit of ms counted from start, as time left from now (at least 1); keeps
 * the smaller of that and *best (0: none yet). A limit of 0 is off. */
static void host_sooner(uint64_t *best, uint64_t start, uint64_t ms, uint64_t now_ms)
{
    if (!ms)
        return;
    uint64_t end = start + ms;
    uint64_t left = end > now_ms ? end - now_ms : 1;
    if (!*best || left < *best)
        *best = left;
}

/* The timers start when host_tick first sees a decision (or a turn): one it has not seen
 * yet starts now, so the time told is never more than the seat really has, and at most
 * one loop turn less. */
uint32_t out_time_left_ms(const host *h, const host_match *hm, uint64_t now_ms)
{
    const engine_decision *d = engine_match_decision(hm->m);
    if (!d || d->seat < 0)
        return 0;
    uint64_t decided = d->decision_id == hm->decision_id ? hm->decision_ms : now_ms;
    uint64_t turned =
        engine_match_snapshot_version(hm->m) == hm->turn_version ? hm->turn_ms : now_ms;
    uint64_t best = 0;
    host_sooner(&best, decided, hm->set.decision_ms, now_ms);
    host_sooner(&best, turned, hm->set.turn_ms, now_ms);
    host_sooner(&best, decided, h->idle_ms, now_ms);
    return best > UINT32_MAX ? UINT32_MAX : (uint32_t)best;
}

/* Options of a decision built on the stack; a longer list goes on the heap. */
#define HOST_OPTIONS_STACK 32

/* The pending decision, to its seat only. */
void out_decision(host *h, host_match *hm, int seat)
{
    const engine_decision *d = engine_match_decision(hm->m);
    const host_seat *s = &hm->seats[seat];
    if (!d || d->seat != seat || !s->route[0])
        return;
    Deckhand__Option optbuf[HOST_OPTIONS_STACK], *optpbuf[HOST_OPTIONS_STACK];
    bool small = d->noptions <= HOST_OPTIONS_STACK;
    Deckhand__Option *opts = small ? optbuf : calloc(d->noptions, sizeof *opts);
    Deckhand__Option **optp = small ? optpbuf : calloc(d->noptions, sizeof *optp);
    if (!opts || !optp) {
        dh_error_every(DH_LOG_EVERY_MS, "match %s: out of memory building a decision", hm->id);
        goto out;
    }
    for (size_t i = 0; i < d->noptions; i++) {
        deckhand__option__init(&opts[i]);
        opts[i].id = d->options[i].id;
        opts[i].label = (char *)(d->options[i].label ? d->options[i].label : "");
        opts[i].card = (char *)(d->options[i].card ? d->options[i].card : "");
        opts[i].entity = d->options[i].entity;
        opts[i].verb = (char *)(d->options[i].verb ? d->options[i].verb : "");
        opts[i].target = d->options[i].target;
        opts[i].space = (char *)(d->options[i].space ? d->options[i].space : "");
        optp[i] = &opts[i];
    }
    Deckhand__DecisionRequest dr = DECKHAND__DECISION_REQUEST__INIT;
    dr.match_id = hm->id;
    dr.event_seq = engine_match_event_seq(hm->m, seat);
    dr.decision_id = d->decision_id;
    dr.seat = (uint32_t)seat;
    dr.prompt = (char *)(d->prompt ? d->prompt : "");
    dr.kind = (char *)(d->kind ? d->kind : "");
    dr.n_options = d->noptions;
    dr.options = optp;
    dr.min = d->min;
    dr.max = d->max;
    dr.time_left_ms = out_time_left_ms(h, hm, h->now_ms);
    dr.can_undo = engine_match_can_take_back(hm->m, seat);
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_DECISION;
    sm.decision = &dr;
    out_send(h, s->route, s->player_id, &sm);
out:
    if (!small) {
        free(opts);
        free(optp);
    }
}

/* DecisionRequest is ServerMessage field 5; can_undo its field 11, the last. */
#define OUT_DECISION_KEY 0x2a
#define OUT_CAN_UNDO_KEY 0x58

void out_decision_kept(host *h, host_match *hm, int seat)
{
    const out_bytes *k = &h->kept_decision;
    const host_seat *s = &hm->seats[seat];
    if (!k->len || !s->route[0]) {
        out_decision(h, hm, seat);
        return;
    }
    /* The View's DecisionRequest leaves can_undo out (false); it is the last field, so
     * adding it is appending it. Everything else is the same: out_decision and the
     * engine's View build it from the same pending decision, the same clock. */
    bool undo = engine_match_can_take_back(hm->m, seat);
    size_t body = k->len + (undo ? 2 : 0), cap = 16 + body, n = 0;
    uint8_t stackbuf[2048];
    uint8_t *msg = cap <= sizeof stackbuf ? stackbuf : malloc(cap);
    if (!msg) {
        out_decision(h, hm, seat);
        return;
    }
    msg[n++] = OUT_DECISION_KEY;
    n += dh_wire_put_varint(msg + n, body);
    memcpy(msg + n, k->p, k->len);
    n += k->len;
    if (undo) {
        msg[n++] = OUT_CAN_UNDO_KEY;
        msg[n++] = 1;
    }
    out_send_packed(h, s->route, s->player_id, hm->id,
                    DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__OTHER, msg, n);
    if (msg != stackbuf)
        free(msg);
}

void out_catalog(host *h, host_match *hm, const char *route, const char *player_id)
{
    Deckhand__Catalog *c = engine_match_catalog(hm->m);
    if (!c) {
        dh_error_every(DH_LOG_EVERY_MS, "match %s: no catalog (out of memory)", hm->id);
        return;
    }
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_CATALOG;
    sm.catalog = c;
    out_send(h, route, player_id, &sm);
    engine_catalog_free(c);
}

void out_resync(host *h, host_match *hm, int seat, uint64_t cmd_id)
{
    host_seat *s = &hm->seats[seat];
    if (cmd_id)
        out_reply(h, s->route, s->player_id, cmd_id, 0, NULL);
    out_events(h, hm);
    out_view(h, hm, seat);
    out_decision(h, hm, seat);
}

void out_answer(host *h, host_match *hm, int seat, uint64_t cmd_id, const char *route)
{
    host_seat *s = &hm->seats[seat];
    if (cmd_id) {
        out_remember(s, cmd_id, 0, NULL);
        out_reply(h, route, s->player_id, cmd_id, 0, NULL);
    }
    out_state(h, hm);
}

/* A GameOver of hm with the final table, for seat (-1: the watchers, whose frames count
 * events their own way). */
static void out_game_over(Deckhand__GameOver *go, host_match *hm, int seat,
                          Deckhand__PlayerResult **prp, size_t n, const char *reason)
{
    deckhand__game_over__init(go);
    go->match_id = hm->id;
    go->event_seq = seat >= 0 ? engine_match_event_seq(hm->m, seat) : 0;
    go->n_results = n;
    go->results = prp;
    go->reason = (char *)reason;
}

/* The end screen's part of the GameOver: why and who won, and whether it was rated. */
static void out_game_over_end(Deckhand__GameOver *go, const host_match *hm, char *summary)
{
    const char *ids[HOST_SEATS_MAX];
    int n = hm->nseats < HOST_SEATS_MAX ? hm->nseats : HOST_SEATS_MAX;
    for (int i = 0; i < n; i++)
        ids[i] = hm->seats[i].player_id;
    go->summary = summary;
    go->unrated = out_end_unrated(hm->unrated, go->reason, ids, n);
}

/* Why hm ended and who won, into summary (OUT_END_SUMMARY_MAX). */
static void out_finish_summary(const host_match *hm, const engine_result *res, size_t n,
                               const char *reason, char *summary)
{
    const char *names[HOST_SEATS_MAX];
    for (int i = 0; i < hm->nseats && i < HOST_SEATS_MAX; i++)
        names[i] = hm->seats[i].name;
    out_end_why w = {.names = names,
                     .nseats = hm->nseats < HOST_SEATS_MAX ? hm->nseats : HOST_SEATS_MAX,
                     .forfeit_seat = hm->forfeit_seat,
                     .reason = reason,
                     .rules = engine_match_end_summary(hm->m)};
    out_end_summary(&w, res, n, summary, OUT_END_SUMMARY_MAX);
}

void out_finish(host *h, host_match *hm, const engine_result *res, size_t n, const char *reason,
                uint64_t now_ms)
{
    Deckhand__PlayerResult pr[HOST_SEATS_MAX];
    Deckhand__PlayerResult *prp[HOST_SEATS_MAX];
    Deckhand__DeckCount dc[HOST_SEATS_MAX][OUT_END_DECK_MAX];
    Deckhand__DeckCount *dcp[HOST_SEATS_MAX][OUT_END_DECK_MAX];
    char summary[OUT_END_SUMMARY_MAX];
    n = n < HOST_SEATS_MAX ? n : HOST_SEATS_MAX;
    for (size_t i = 0; i < n; i++) {
        deckhand__player_result__init(&pr[i]);
        int seat = res[i].seat;
        pr[i].seat = (uint32_t)seat;
        pr[i].name = seat >= 0 && seat < hm->nseats ? hm->seats[seat].name : (char *)"";
        pr[i].score = res[i].score;
        pr[i].rank = (uint32_t)res[i].rank;
        pr[i].turns = (uint32_t)res[i].turns;
        pr[i].resigned = seat >= 0 && seat < hm->nseats &&
                         (hm->seats[seat].resigned || seat == hm->forfeit_seat);
        pr[i].n_deck = out_end_deck(hm->m, seat, dc[i], dcp[i]);
        pr[i].deck = dcp[i];
        prp[i] = &pr[i];
    }
    out_finish_summary(hm, res, n, reason, summary);
    Deckhand__GameOver go;
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER;
    sm.game_over = &go;
    for (int s = 0; s < hm->nseats; s++) {
        out_game_over(&go, hm, s, prp, n, reason);
        out_game_over_end(&go, hm, summary);
        out_send(h, hm->seats[s].route, hm->seats[s].player_id, &sm);
    }
    if (hm->watch) {
        out_game_over(&go, hm, -1, prp, n, reason);
        out_game_over_end(&go, hm, summary);
        out_watch_over(h, hm, &go, now_ms);
    }
    /* The matchmaker reads no deck: the lists were most of MatchEnded's bytes, which it
     * decrypts and unpacks (docs/BENCHMARKS.md, issue 27). */
    for (size_t i = 0; i < n; i++) {
        pr[i].n_deck = 0;
        pr[i].deck = NULL;
    }
    Deckhand__Internal__MatchEnded me = DECKHAND__INTERNAL__MATCH_ENDED__INIT;
    me.match_id = hm->id;
    me.worker_id = (char *)h->worker_id;
    me.n_results = n;
    me.results = prp;
    out_control(h, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ENDED, &me);
}

void out_removed(host *h, host_match *hm, const host_seat *s, const char *reason)
{
    char text[HOST_ADMIN_REASON_MAX];
    snprintf(text, sizeof text, "admin: removed: %s", reason);
    Deckhand__GameOver go;
    out_game_over(&go, hm, -1, NULL, 0, text);
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER;
    sm.game_over = &go;
    out_send(h, s->route, s->player_id, &sm);
}
