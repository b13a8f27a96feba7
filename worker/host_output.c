/*
 * host_output.c: what the host sends out (see host.h). To the players, through the gateway
 * that last carried their command: Replies, events, decision requests (views are
 * host_view.c's). To the
 * matchmaker: MatchStarted and other control messages. Nothing here decides when: the
 * callers release outputs only once Redis holds what they show.
 */
#include "host_output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_log.h"
#include "spectate.h"

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
void host_remember(host_seat *s, uint64_t cmd_id, int code, const char *text)
{
    if (!cmd_id || host_replies_room(s) < 0)
        return;
    host_reply *r = &s->replies[s->next_reply++ % s->nreplies];
    free(r->text);
    r->cmd_id = cmd_id;
    r->code = code;
    r->text = text && *text ? strndup(text, 79) : NULL;
}

const host_reply *host_recall(const host_seat *s, uint64_t cmd_id)
{
    for (size_t i = 0; cmd_id && i < s->nreplies; i++)
        if (s->replies[i].cmd_id == cmd_id)
            return &s->replies[i];
    return NULL;
}

void host_forget(host_seat *s)
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
        spectate_event(c->hm, ev);
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
    host_send(c->h, s->route, s->player_id, &sm);
}

/* Every event produced since the last drain, to the seats attached now. */
void host_release_events(host *h, host_match *hm)
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
uint32_t host_time_left_ms(const host *h, const host_match *hm, uint64_t now_ms)
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
void host_send_decision(host *h, host_match *hm, int seat)
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
    dr.time_left_ms = host_time_left_ms(h, hm, h->now_ms);
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_DECISION;
    sm.decision = &dr;
    host_send(h, s->route, s->player_id, &sm);
out:
    if (!small) {
        free(opts);
        free(optp);
    }
}

void host_send_control(host *h, Deckhand__Internal__Internal *msg)
{
    if (dh_zmq_send(h->dealer, NULL, msg) < 0)
        dh_warn_every(DH_LOG_EVERY_MS, "cannot reach the matchmaker: %s", strerror(errno));
}

void host_match_started(host *h, const char *match_id, bool ok, const char *error)
{
    Deckhand__Internal__MatchStarted ms = DECKHAND__INTERNAL__MATCH_STARTED__INIT;
    ms.match_id = (char *)match_id;
    ms.ok = ok;
    ms.error = (char *)(error ? error : "");
    ms.worker_id = (char *)h->worker_id;
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_STARTED;
    msg.match_started = &ms;
    host_send_control(h, &msg);
}
