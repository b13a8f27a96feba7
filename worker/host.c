/*
 * host.c: matches, player commands and their outputs (see host.h).
 */
#include "host.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bundles.h"
#include "dh_log.h"

#define HOST_RESULT_MAX 4096
#define HOST_GRACE_MS   60000 /* a StartMatch without settings (older matchmaker) */
#define HOST_BOT_IDS    64    /* option ids a default answer may pick */

static uint64_t host_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void host_init(host *h, const char *worker_id, const char *endpoint, void *router, void *dealer,
               engine_bundle *bundle, store *st, uint32_t capacity)
{
    memset(h, 0, sizeof *h);
    h->worker_id = worker_id;
    h->endpoint = endpoint;
    h->router = router;
    h->dealer = dealer;
    h->bundle = bundle;
    h->st = st;
    h->capacity = capacity;
}

void host_set_bundles(host *h, struct bundles *bs)
{
    h->bs = bs;
}

static void host_match_free(host_match *hm)
{
    if (!hm)
        return;
    if (hm->m)
        engine_match_free(hm->m);
    free(hm->seats);
    free(hm);
}

void host_free(host *h)
{
    for (size_t i = 0; i < h->nmatches; i++)
        host_match_free(h->matches[i]);
    free(h->matches);
    free(h->acts);
    h->matches = NULL;
    h->acts = NULL;
    h->nmatches = h->nacts = 0;
}

size_t host_active(const host *h)
{
    return h->nmatches;
}

host_match *host_find(host *h, const char *match_id)
{
    for (size_t i = 0; i < h->nmatches; i++)
        if (!strcmp(h->matches[i]->id, match_id))
            return h->matches[i];
    return NULL;
}

/* Remove hm from the table and free it; then its bundle may go too. */
static void host_drop(host *h, host_match *hm)
{
    for (size_t i = 0; i < h->nmatches; i++) {
        if (h->matches[i] == hm) {
            h->matches[i] = h->matches[--h->nmatches];
            break;
        }
    }
    bundles_entry *pin = hm->pin;
    host_match_free(hm);
    if (pin && h->bs)
        bundles_unpin(h->bs, pin);
}

static int host_seat_of(const host_match *hm, const char *player_id)
{
    for (int i = 0; i < hm->nseats; i++)
        if (!strcmp(hm->seats[i].player_id, player_id))
            return i;
    return -1;
}

/* ---- outputs ------------------------------------------------------------------------ */

/* The match a ServerMessage is about, or "" (a Reply, a Pong). */
static const char *host_message_match(const Deckhand__ServerMessage *sm)
{
    const char *id = NULL;
    switch (sm->body_case) {
    case DECKHAND__SERVER_MESSAGE__BODY_EVENT:
        id = sm->event->match_id;
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_DECISION:
        id = sm->decision->match_id;
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_VIEW:
        id = sm->view->match_id;
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER:
        id = sm->game_over->match_id;
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_MATCH_FOUND:
        id = sm->match_found->match_id;
        break;
    default:
        break;
    }
    return id ? id : "";
}

/* Send one ServerMessage to a player through the gateway at route. A gateway that went
 * away (EHOSTUNREACH) is not an error: the player resyncs when it comes back. */
static void host_send(host *h, const char *route, const char *player_id,
                      const Deckhand__ServerMessage *sm)
{
    if (!route || !*route)
        return;
    size_t len = deckhand__server_message__get_packed_size(sm);
    uint8_t stackbuf[2048];
    uint8_t *buf = len <= sizeof stackbuf ? stackbuf : malloc(len);
    if (!buf) {
        dh_error("out of memory sending to %s", player_id);
        return;
    }
    deckhand__server_message__pack(sm, buf);
    Deckhand__Internal__PlayerOutput po = DECKHAND__INTERNAL__PLAYER_OUTPUT__INIT;
    po.player_id = (char *)player_id;
    po.message.data = buf;
    po.message.len = len;
    po.match_id = (char *)host_message_match(sm);
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUT;
    msg.player_output = &po;
    if (dh_zmq_send(h->router, route, &msg) < 0) {
        if (errno == EHOSTUNREACH)
            dh_debug("gateway %s gone; dropped output for %s", route, player_id);
        else
            dh_warn("cannot send to %s via %s: %s", player_id, route, strerror(errno));
    }
    if (buf != stackbuf)
        free(buf);
}

static void host_send_reply(host *h, const char *route, const char *player_id, uint64_t cmd_id,
                            int code, const char *text)
{
    Deckhand__Reply r = DECKHAND__REPLY__INIT;
    Deckhand__Error e = DECKHAND__ERROR__INIT;
    r.cmd_id = cmd_id;
    r.ok = code == 0;
    if (code) {
        dh_ops_count_code(h->stats.refused, code);
        e.code = (Deckhand__ErrorCode)code;
        e.message = (char *)(text ? text : "");
        r.error = &e;
    }
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_REPLY;
    sm.reply = &r;
    host_send(h, route, player_id, &sm);
}

/* Remember a command's outcome so a retry of its cmd_id gets the same answer. The message
 * is kept to the first 79 bytes: 64 replies per seat stay small, and error texts are short. */
static void host_remember(host_seat *s, uint64_t cmd_id, int code, const char *text)
{
    if (!cmd_id)
        return;
    host_reply *r = &s->replies[s->next_reply++ % HOST_REPLIES];
    r->cmd_id = cmd_id;
    r->code = code;
    snprintf(r->text, sizeof r->text, "%.*s", (int)(sizeof r->text - 1), text ? text : "");
}

static const host_reply *host_recall(const host_seat *s, uint64_t cmd_id)
{
    for (size_t i = 0; cmd_id && i < HOST_REPLIES; i++)
        if (s->replies[i].cmd_id == cmd_id)
            return &s->replies[i];
    return NULL;
}

typedef struct {
    host *h;
    host_match *hm;
} host_event_ctx;

static void host_on_event(void *ud, const engine_event *ev)
{
    host_event_ctx *c = ud;
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
static void host_release_events(host *h, host_match *hm)
{
    host_event_ctx c = {h, hm};
    engine_match_drain_events(hm->m, host_on_event, &c);
}

static void host_send_view(host *h, host_match *hm, int seat)
{
    const host_seat *s = &hm->seats[seat];
    if (!s->route[0])
        return;
    Deckhand__View *v = engine_match_view(hm->m, seat);
    if (!v) {
        dh_error("match %s: no view for seat %d (out of memory)", hm->id, seat);
        return;
    }
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_VIEW;
    sm.view = v;
    host_send(h, s->route, s->player_id, &sm);
    engine_view_free(v);
}

/* The pending decision, to its seat only. */
static void host_send_decision(host *h, host_match *hm, int seat)
{
    const engine_decision *d = engine_match_decision(hm->m);
    const host_seat *s = &hm->seats[seat];
    if (!d || d->seat != seat || !s->route[0])
        return;
    Deckhand__Option *opts = calloc(d->noptions ? d->noptions : 1, sizeof *opts);
    Deckhand__Option **optp = calloc(d->noptions ? d->noptions : 1, sizeof *optp);
    if (!opts || !optp) {
        dh_error("match %s: out of memory building a decision", hm->id);
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
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_DECISION;
    sm.decision = &dr;
    host_send(h, s->route, s->player_id, &sm);
out:
    free(opts);
    free(optp);
}

/* After a change everyone saw: events, then every attached seat's view, then the
 * decider's request. */
static void host_release_state(host *h, host_match *hm)
{
    host_release_events(h, hm);
    for (int i = 0; i < hm->nseats; i++)
        host_send_view(h, hm, i);
    const engine_decision *d = engine_match_decision(hm->m);
    if (d && d->seat >= 0 && d->seat < hm->nseats)
        host_send_decision(h, hm, d->seat);
}

static void host_send_control(host *h, Deckhand__Internal__Internal *msg)
{
    if (dh_zmq_send(h->dealer, NULL, msg) < 0)
        dh_warn("cannot reach the matchmaker: %s", strerror(errno));
}

static void host_match_started(host *h, const char *match_id, bool ok, const char *error)
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

/* ---- persistence -------------------------------------------------------------------- */

/* A bounded text buffer: appends past the end are cut, never overflow. */
typedef struct {
    char *p;
    size_t at, cap;
} host_text;

static void host_text_add(host_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void host_text_add(host_text *t, const char *fmt, ...)
{
    if (t->at + 1 >= t->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->p + t->at, t->cap - t->at, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->at = t->at + (size_t)n < t->cap ? t->at + (size_t)n : t->cap - 1;
}

static void host_text_json_str(host_text *t, const char *s)
{
    host_text_add(t, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            host_text_add(t, "\\%c", c);
        else if (c < 0x20)
            host_text_add(t, "\\u%04x", c);
        else
            host_text_add(t, "%c", c);
    }
    host_text_add(t, "\"");
}

/* Over: the rules ended it, or a seat forfeited. */
static bool host_over(const host_match *hm)
{
    return hm->forfeit_seat >= 0 || engine_match_finished(hm->m);
}

/* The final table by seat: the engine's, or after a forfeit every other seat shares first
 * place and the forfeiting seat is last (scores are the points held when it happened,
 * unknown to the host: 0). */
static size_t host_results(const host_match *hm, engine_result *res, size_t max)
{
    if (hm->forfeit_seat < 0)
        return engine_match_results(hm->m, res, max);
    size_t n = (size_t)hm->nseats < max ? (size_t)hm->nseats : max;
    for (size_t i = 0; i < n; i++)
        res[i] = (engine_result){.seat = (int)i,
                                 .score = 0,
                                 .rank = (int)i == hm->forfeit_seat ? hm->nseats : 1,
                                 .turns = 0};
    return n;
}

/* The result as stored in match:{ID}.result: [{seat,name,score,rank,turns}...]. A
 * result cut by the buffer's end is not valid JSON; 4 KiB holds any real table. */
static void host_results_json(host_match *hm, char *json, size_t cap)
{
    engine_result res[HOST_SEATS_MAX];
    size_t n = host_results(hm, res, HOST_SEATS_MAX);
    host_text t = {json, 0, cap};
    json[0] = '\0';
    host_text_add(&t, "[");
    for (size_t i = 0; i < n; i++) {
        int seat = res[i].seat;
        host_text_add(&t, "%s{\"seat\":%d,\"name\":", i ? "," : "", seat);
        host_text_json_str(&t, seat >= 0 && seat < hm->nseats ? hm->seats[seat].name : "");
        host_text_add(&t, ",\"score\":%d,\"rank\":%d,\"turns\":%d%s}", res[i].score, res[i].rank,
                      res[i].turns, seat == hm->forfeit_seat ? ",\"forfeit\":true" : "");
    }
    host_text_add(&t, "]");
}

/* Append the one fenced write that makes Redis hold hm as the engine has it now: a new
 * snapshot (which resets the log) when a turn boundary passed, else the answer just
 * accepted on the log; the accepted answer (NULL for a new match) on the history; the
 * result and final hash once finished. -1 when the write could not be queued. */
static int host_persist(host *h, host_match *hm, const engine_answer *accepted)
{
    int rc = -1;
    store_commit c = {.match_id = hm->id, .worker = h->worker_id, .epoch = hm->epoch};
    size_t nlog = engine_match_log_len(hm->m), from = 0;
    uint64_t version = engine_match_snapshot_version(hm->m);
    if (version != hm->snap_version)
        c.snap = engine_match_snapshot(hm->m, &c.snap_len);
    else
        from = nlog ? nlog - 1 : 0; /* only the newest answer is new to the log */
    store_blob *log = calloc(nlog ? nlog : 1, sizeof *log);
    uint8_t *hist = NULL;
    char json[HOST_RESULT_MAX], hash[24];
    if (!log)
        return -1;
    for (size_t i = from; i < nlog; i++) {
        engine_answer a = engine_match_log_at(hm->m, i);
        if (engine_answer_encode(&a, &log[c.nlog].data, &log[c.nlog].len) != 0)
            goto out;
        c.nlog++;
    }
    c.log = log;
    if (accepted) {
        if (engine_answer_encode(accepted, &hist, &c.hist_len) != 0)
            goto out;
        c.hist = hist;
    }
    if (host_over(hm)) {
        host_results_json(hm, json, sizeof json);
        snprintf(hash, sizeof hash, "%016llx", (unsigned long long)engine_match_hash(hm->m));
        c.finish = true;
        c.ended_ms = host_wall_ms();
        c.result = json;
        c.final_hash = hash;
    }
    rc = store_put_commit(h->st, &c);
out:
    for (size_t i = 0; i < c.nlog; i++)
        free(log[i].data);
    free(log);
    free(hist);
    return rc;
}

static host_action *host_hold(host *h, host_act_kind kind, host_match *hm, int op)
{
    if (h->nacts == h->capacts) {
        size_t cap = h->capacts ? h->capacts * 2 : 64;
        host_action *a = realloc(h->acts, cap * sizeof *a);
        if (!a)
            return NULL;
        h->acts = a;
        h->capacts = cap;
    }
    host_action *a = &h->acts[h->nacts++];
    memset(a, 0, sizeof *a);
    a->kind = kind;
    a->hm = hm;
    a->op = op;
    hm->busy = true;
    return a;
}

/* ---- match life --------------------------------------------------------------------- */

void host_start_match(host *h, const Deckhand__Internal__StartMatch *sm, uint64_t now_ms)
{
    const char *id = sm->match_id ? sm->match_id : "";
    const char *why = NULL;
    host_match *hm = host_find(h, id);
    char players[HOST_ID_MAX * 8], player_ids[HOST_ID_MAX * 8];
    const char **names = NULL;
    if (hm) {
        /* a repeated StartMatch: answer again, once this match's own write settled */
        if (hm->busy)
            host_flush(h, now_ms);
        if (host_find(h, id))
            host_match_started(h, id, true, NULL);
        return;
    }
    if (!*id || strlen(id) >= HOST_ID_MAX || !sm->game || strlen(sm->game) >= HOST_ID_MAX ||
        sm->n_seats == 0 || sm->n_seats > HOST_SEATS_MAX) {
        why = "bad StartMatch";
        goto err;
    }
    if (h->nmatches >= h->capacity) {
        why = "worker full";
        goto err;
    }
    if (h->nmatches == h->capmatches) {
        size_t cap = h->capmatches ? h->capmatches * 2 : 64;
        host_match **m = realloc(h->matches, cap * sizeof *m);
        if (!m)
            goto err_nomem;
        h->matches = m;
        h->capmatches = cap;
    }
    hm = calloc(1, sizeof *hm);
    names = calloc(sm->n_seats, sizeof *names);
    if (!hm || !names || !(hm->seats = calloc(sm->n_seats, sizeof *hm->seats)))
        goto err_nomem;
    snprintf(hm->id, sizeof hm->id, "%s", id);
    snprintf(hm->game, sizeof hm->game, "%s", sm->game);
    snprintf(hm->mode, sizeof hm->mode, "%s", sm->mode ? sm->mode : "");
    hm->nseats = (int)sm->n_seats;
    hm->epoch = 1;
    hm->forfeit_seat = -1;
    if (sm->settings) {
        hm->set.grace_ms = sm->settings->grace_ms;
        hm->set.decision_ms = sm->settings->decision_ms;
        hm->set.turn_ms = sm->settings->turn_ms;
        hm->set.forfeit = sm->settings->abandon && !strcmp(sm->settings->abandon, "forfeit");
    } else {
        hm->set.grace_ms = HOST_GRACE_MS;
    }
    size_t pat = 0, iat = 0;
    players[0] = player_ids[0] = '\0';
    for (size_t i = 0; i < sm->n_seats; i++) {
        host_seat *s = &hm->seats[i];
        const Deckhand__Internal__Seat *in = sm->seats[i];
        if (!in->player_id || !*in->player_id || strlen(in->player_id) >= HOST_ID_MAX) {
            why = "bad player id";
            goto err;
        }
        snprintf(s->player_id, sizeof s->player_id, "%s", in->player_id);
        snprintf(s->name, sizeof s->name, "%s", in->name && *in->name ? in->name : s->player_id);
        names[i] = s->name;
        pat += (size_t)snprintf(players + pat, sizeof players - pat, "%s%s", i ? "," : "", s->name);
        iat += (size_t)snprintf(player_ids + iat, sizeof player_ids - iat, "%s%s", i ? "," : "",
                                s->player_id);
        if (pat >= sizeof players || iat >= sizeof player_ids) {
            why = "too many players";
            goto err;
        }
    }
    engine_match_config cfg = {
        .match_id = hm->id,
        .game = hm->game,
        .seed = sm->seed,
        .nplayers = hm->nseats,
        .names = names,
    };
    engine_error ee = {0};
    engine_bundle *bundle = h->bundle;
    bundles_entry *pin = h->bs ? bundles_pick(h->bs, hm->game) : NULL;
    if (pin)
        bundle = pin->b;
    hm->m = engine_match_new(bundle, &cfg, &ee);
    if (!hm->m) {
        dh_warn("match %s: cannot create %s: %s", id, sm->game, ee.message);
        why = ee.message[0] ? ee.message : "engine refused the match";
        goto err;
    }
    free(names);
    names = NULL;
    h->matches[h->nmatches++] = hm;
    if (pin) {
        hm->pin = pin;
        bundles_pin(pin);
    }

    int op = store_op(h->st, now_ms);
    store_meta meta = {
        .match_id = hm->id,
        .game = hm->game,
        .bundle = engine_bundle_id(bundle),
        .worker = h->worker_id,
        .seed = sm->seed,
        .players = players,
        .player_ids = player_ids,
        .created_ms = host_wall_ms(),
        .mode = hm->mode,
        .abandon = hm->set.forfeit ? "forfeit" : "bot",
        .grace_ms = hm->set.grace_ms,
        .decision_ms = hm->set.decision_ms,
        .turn_ms = hm->set.turn_ms,
    };
    /* The first snapshot is written whatever its version. */
    hm->snap_version = engine_match_snapshot_version(hm->m) - 1;
    if (op >= 0 && (store_put_meta(h->st, &meta) < 0 || host_persist(h, hm, NULL) < 0))
        op = -1;
    if (!host_hold(h, HOST_ACT_START, hm, op)) {
        host_drop(h, hm);
        hm = NULL;
        why = "out of memory";
        goto err;
    }
    dh_info("match %s: %s for %s", hm->id, hm->game, players);
    return;
err_nomem:
    why = "out of memory";
err:
    dh_warn("match %s refused: %s", id, why);
    host_match_started(h, id, false, why);
    free(names);
    host_match_free(hm);
}

/* The match is over and Redis has its result: tell the seats and the matchmaker. */
static void host_finish(host *h, host_match *hm)
{
    engine_result res[HOST_SEATS_MAX];
    size_t n = host_results(hm, res, HOST_SEATS_MAX);
    Deckhand__PlayerResult pr[HOST_SEATS_MAX];
    Deckhand__PlayerResult *prp[HOST_SEATS_MAX];
    for (size_t i = 0; i < n; i++) {
        deckhand__player_result__init(&pr[i]);
        int seat = res[i].seat;
        pr[i].seat = (uint32_t)seat;
        pr[i].name = seat >= 0 && seat < hm->nseats ? hm->seats[seat].name : (char *)"";
        pr[i].score = res[i].score;
        pr[i].rank = (uint32_t)res[i].rank;
        pr[i].turns = (uint32_t)res[i].turns;
        prp[i] = &pr[i];
    }
    for (int s = 0; s < hm->nseats; s++) {
        Deckhand__GameOver go = DECKHAND__GAME_OVER__INIT;
        go.match_id = hm->id;
        go.event_seq = engine_match_event_seq(hm->m, s);
        go.n_results = n;
        go.results = prp;
        Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
        sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER;
        sm.game_over = &go;
        host_send(h, hm->seats[s].route, hm->seats[s].player_id, &sm);
    }
    Deckhand__Internal__MatchEnded me = DECKHAND__INTERNAL__MATCH_ENDED__INIT;
    me.match_id = hm->id;
    me.worker_id = (char *)h->worker_id;
    me.n_results = n;
    me.results = prp;
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ENDED;
    msg.match_ended = &me;
    host_send_control(h, &msg);
    dh_info("match %s finished", hm->id);
    host_drop(h, hm);
}

/* ---- commands ----------------------------------------------------------------------- */

static void host_resync(host *h, host_match *hm, int seat, uint64_t cmd_id)
{
    host_seat *s = &hm->seats[seat];
    if (cmd_id)
        host_send_reply(h, s->route, s->player_id, cmd_id, 0, NULL);
    host_release_events(h, hm);
    host_send_view(h, hm, seat);
    host_send_decision(h, hm, seat);
}

/* Apply one answer for seat and hold its outputs until Redis has it (cmd_id 0: a timer or
 * a bot answered for the seat; there is nobody to Reply to). ENGINE_OK when held. */
static engine_code host_apply(host *h, host_match *hm, int seat, uint64_t cmd_id,
                              uint64_t decision_id, const uint32_t *ids, size_t n, uint64_t now_ms,
                              engine_error *ee)
{
    host_seat *s = &hm->seats[seat];
    engine_code code = engine_match_answer(hm->m, seat, decision_id, ids, n, ee);
    if (code != ENGINE_OK)
        return code;
    engine_answer accepted = {.seat = seat, .decision_id = decision_id, .option_ids = ids, .n = n};
    int op = store_op(h->st, now_ms);
    if (op >= 0 && host_persist(h, hm, &accepted) < 0)
        op = -1;
    host_action *a = host_hold(h, HOST_ACT_CHOOSE, hm, op);
    if (!a) {
        engine_match_undo(hm->m, ee);
        hm->busy = false;
        snprintf(ee->message, sizeof ee->message, "out of memory");
        return ENGINE_INTERNAL;
    }
    a->seat = seat;
    a->cmd_id = cmd_id;
    snprintf(a->route, sizeof a->route, "%s", s->route);
    return ENGINE_OK;
}

static void host_choose(host *h, host_match *hm, int seat, uint64_t cmd_id,
                        const Deckhand__Choose *c, uint64_t now_ms)
{
    host_seat *s = &hm->seats[seat];
    const host_reply *old = host_recall(s, cmd_id);
    if (old) {
        host_send_reply(h, s->route, s->player_id, cmd_id, old->code, old->text);
        return;
    }
    engine_error ee = {0};
    engine_code code = host_apply(h, hm, seat, cmd_id, c->decision_id, c->option_ids,
                                  c->n_option_ids, now_ms, &ee);
    if (code == ENGINE_INTERNAL) {
        host_send_reply(h, s->route, s->player_id, cmd_id, DECKHAND__ERROR_CODE__INTERNAL,
                        ee.message);
    } else if (code != ENGINE_OK) {
        host_remember(s, cmd_id, (int)code, ee.message);
        host_send_reply(h, s->route, s->player_id, cmd_id, (int)code, ee.message);
    }
}

/* A player who reconnects through another gateway goes on with the cmd_id sequence of the
 * lost connection (docs/PROTOCOL.md), but the two gateways' pipes to this worker are not
 * ordered: a command the old connection sent last can arrive after the new connection's
 * Resync. Applied then, it would change the match behind the View that Resync returned,
 * and move the seat's route (its outputs) back to a gateway the player left, where the
 * old gateway's Away would then start the grace period. So a command through a gateway
 * other than the seat's route, numbered below one already taken from the player, is
 * overtaken: refused with UNAVAILABLE (it may be sent again) and nothing changes. The
 * same cmd_id again is a retry (answered from memory); the gateway's own attach (cmd_id
 * 0) always routes; and once the seat's gateway said the player left, any gateway it
 * shows up on is news, so a client that starts its cmd_ids again at 1 still gets back. */
static bool host_overtaken(const host_seat *s, const char *identity, uint64_t cmd_id)
{
    return cmd_id && cmd_id < s->top_cmd && !s->away_ms && s->route[0] &&
           strcmp(s->route, identity) != 0;
}

void host_command(host *h, const char *identity, const Deckhand__Internal__PlayerCommand *pc,
                  uint64_t now_ms)
{
    const char *pid = pc->player_id ? pc->player_id : "";
    const char *mid = pc->match_id ? pc->match_id : "";
    host_match *hm = host_find(h, mid);
    if (hm && hm->busy) {
        /* one write in flight per match: settle it before looking at this command */
        host_flush(h, now_ms);
        hm = host_find(h, mid);
    }
    int seat = hm && hm->started ? host_seat_of(hm, pid) : -1;
    if (seat < 0) {
        host_send_reply(h, identity, pid, pc->cmd_id, DECKHAND__ERROR_CODE__UNKNOWN_MATCH,
                        "no such match here, or you are not seated in it");
        return;
    }
    host_seat *s = &hm->seats[seat];
    if (pc->body_case == DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_AWAY) {
        /* only the gateway that holds the player may say it left */
        if (!strcmp(s->route, identity) && !s->away_ms) {
            s->away_ms = now_ms ? now_ms : 1;
            dh_info("match %s: %s is away (grace %u ms)", hm->id, pid, hm->set.grace_ms);
        }
        return;
    }
    if (host_overtaken(s, identity, pc->cmd_id)) {
        dh_info("match %s: command %llu of %s via %s overtaken by command %llu via %s; refused",
                hm->id, (unsigned long long)pc->cmd_id, pid, identity,
                (unsigned long long)s->top_cmd, s->route);
        host_send_reply(h, identity, pid, pc->cmd_id, DECKHAND__ERROR_CODE__UNAVAILABLE,
                        "a newer connection of the player spoke first; resync");
        return;
    }
    if (pc->cmd_id > s->top_cmd)
        s->top_cmd = pc->cmd_id;
    if (s->away_ms || s->robot)
        dh_info("match %s: %s is back", hm->id, pid);
    s->away_ms = 0;
    s->robot = false;
    if (strcmp(s->route, identity)) {
        dh_debug("match %s: %s attached via %s", hm->id, pid, identity);
        snprintf(s->route, sizeof s->route, "%s", identity);
    }
    switch (pc->body_case) {
    case DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC:
        host_resync(h, hm, seat, pc->cmd_id);
        break;
    case DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE:
        host_choose(h, hm, seat, pc->cmd_id, pc->choose, now_ms);
        break;
    default:
        host_send_reply(h, identity, pid, pc->cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST,
                        "empty command");
        break;
    }
}

/* ---- the batch ---------------------------------------------------------------------- */

/* The match is another worker's now (a fenced write): forget it without a word to the
 * matchmaker, which moved it. */
static void host_lose(host *h, host_match *hm)
{
    dh_counter_inc(&h->stats.lost);
    dh_warn("match %s: owned by another worker now (epoch %llu was ours); dropped", hm->id,
            (unsigned long long)hm->epoch);
    host_drop(h, hm);
}

long host_check_owned(host *h, uint64_t now_ms)
{
    size_t n = h->nmatches;
    if (!n)
        return 0;
    const char **ids = calloc(n, sizeof *ids);
    uint64_t *epochs = calloc(n, sizeof *epochs);
    int *owned = calloc(n, sizeof *owned);
    host_match **snapshot = calloc(n, sizeof *snapshot);
    long dropped = -1;
    if (ids && epochs && owned && snapshot) {
        for (size_t i = 0; i < n; i++) {
            snapshot[i] = h->matches[i];
            ids[i] = snapshot[i]->id;
            epochs[i] = snapshot[i]->epoch;
        }
        if (store_owned(h->st, h->worker_id, ids, epochs, n, owned, now_ms) == 0) {
            dropped = 0;
            for (size_t i = 0; i < n; i++) {
                if (!owned[i]) {
                    host_lose(h, snapshot[i]);
                    dropped++;
                }
            }
        }
    }
    free(ids);
    free(epochs);
    free(owned);
    free(snapshot);
    return dropped;
}

static void host_release(host *h, host_action *a)
{
    host_match *hm = a->hm;
    bool ok = store_ok(h->st, a->op);
    bool fenced = store_fenced(h->st, a->op);
    hm->busy = false;
    if (fenced)
        dh_counter_inc(&h->stats.fenced);
    if (a->kind == HOST_ACT_START) {
        if (!ok) {
            dh_warn("match %s: store unavailable, not started", hm->id);
            host_match_started(h, hm->id, false, "store unavailable");
            host_drop(h, hm);
            return;
        }
        hm->snap_version = engine_match_snapshot_version(hm->m);
        hm->started = true;
        host_match_started(h, hm->id, true, NULL);
        if (engine_match_finished(hm->m))
            host_finish(h, hm);
        return;
    }
    if (a->kind == HOST_ACT_FORFEIT) {
        if (ok) {
            host_finish(h, hm);
        } else {
            hm->forfeit_seat = -1;
            if (fenced)
                host_lose(h, hm);
        }
        return;
    }
    host_seat *s = &hm->seats[a->seat];
    if (!ok) {
        engine_error ee = {0};
        if (engine_match_undo(hm->m, &ee) != ENGINE_OK)
            dh_error("match %s: undo failed after a lost write: %s", hm->id, ee.message);
        if (fenced) {
            if (a->cmd_id)
                host_send_reply(h, a->route, s->player_id, a->cmd_id,
                                DECKHAND__ERROR_CODE__UNKNOWN_MATCH,
                                "the match moved to another worker; resync");
            host_lose(h, hm);
            return;
        }
        if (a->cmd_id)
            host_send_reply(h, a->route, s->player_id, a->cmd_id, DECKHAND__ERROR_CODE__UNAVAILABLE,
                            "store unavailable, retry");
        return;
    }
    hm->snap_version = engine_match_snapshot_version(hm->m);
    hm->answers++;
    dh_counter_inc(&h->stats.answers);
    if (a->cmd_id) {
        host_remember(s, a->cmd_id, 0, NULL);
        host_send_reply(h, a->route, s->player_id, a->cmd_id, 0, NULL);
    }
    host_release_state(h, hm);
    if (engine_match_finished(hm->m))
        host_finish(h, hm);
}

/* Rebuild hm on bundle e from its last snapshot; the Redis write goes first, in a batch of
 * its own. false (nothing changed) when the rebuild or the write fails. */
static bool host_move(host *h, host_match *hm, bundles_entry *e, uint64_t now_ms)
{
    const char *names[HOST_SEATS_MAX];
    for (int i = 0; i < hm->nseats; i++)
        names[i] = hm->seats[i].name;
    engine_match_config cfg = {
        .match_id = hm->id, .game = hm->game, .nplayers = hm->nseats, .names = names};
    size_t len = 0;
    const uint8_t *snap = engine_match_snapshot(hm->m, &len);
    engine_error ee = {0};
    engine_match *m = engine_match_restore(e->b, &cfg, snap, len, NULL, 0, &ee);
    if (!m) {
        dh_warn("match %s: stays on bundle %.12s, cannot move to %.12s: %s", hm->id, hm->pin->id,
                e->id, ee.message);
        return false;
    }
    char note[200];
    snprintf(note, sizeof note, "%s %s %llu %llu", hm->pin->id, e->id,
             (unsigned long long)engine_match_snapshot_version(hm->m),
             (unsigned long long)hm->answers);
    int op = store_op(h->st, now_ms);
    if (op >= 0 && store_move_bundle(h->st, h->worker_id, hm->id, hm->epoch, e->id, note) < 0)
        op = -1;
    store_flush(h->st, now_ms);
    bool ok = store_ok(h->st, op), fenced = store_fenced(h->st, op);
    store_next(h->st);
    if (!ok) {
        engine_match_free(m);
        if (fenced)
            host_lose(h, hm);
        return false;
    }
    dh_info("match %s: moved from bundle %.12s to %.12s at snapshot %llu", hm->id, hm->pin->id,
            e->id, (unsigned long long)engine_match_snapshot_version(hm->m));
    engine_match_free(hm->m);
    hm->m = m;
    bundles_entry *old = hm->pin;
    hm->pin = e;
    bundles_pin(e);
    bundles_unpin(h->bs, old);
    for (int i = 0; i < hm->nseats; i++)
        host_send_view(h, hm, i);
    return true;
}

void host_apply_bundles(host *h, uint64_t now_ms)
{
    if (!h->bs || store_pending(h->st))
        return;
    bool any = false; /* the common case, nothing to apply, costs one pass over the games */
    for (size_t i = 0; i < h->bs->ncur; i++)
        any = any || h->bs->cur[i].e->apply_running;
    for (size_t i = 0; any && i < h->nmatches; i++) {
        host_match *hm = h->matches[i];
        bundles_entry *cur = bundles_pick(h->bs, hm->game);
        if (!hm->pin || hm->pin == cur || !cur->apply_running || hm->busy || !hm->started ||
            engine_match_finished(hm->m) || engine_match_log_len(hm->m) != 0)
            continue;
        host_move(h, hm, cur, now_ms);
    }
}

void host_flush(host *h, uint64_t now_ms)
{
    store_flush(h->st, now_ms);
    if (h->nacts) {
        bool failed = false;
        for (size_t i = 0; i < h->nacts; i++)
            failed |= !store_ok(h->st, h->acts[i].op) && !store_fenced(h->st, h->acts[i].op);
        dh_counter_inc(&h->stats.batches);
        if (failed)
            dh_counter_inc(&h->stats.batch_failures);
    }
    /* Releasing may drop matches, but never adds actions, so the array is stable. */
    for (size_t i = 0; i < h->nacts; i++)
        host_release(h, &h->acts[i]);
    h->nacts = 0;
    store_next(h->st);
}

/* ---- adoption ----------------------------------------------------------------------- */

static void host_match_adopted(host *h, const char *match_id, bool ok, const char *error,
                               const char *player_ids)
{
    Deckhand__Internal__MatchAdopted ma = DECKHAND__INTERNAL__MATCH_ADOPTED__INIT;
    char ids[HOST_ID_MAX * HOST_SEATS_MAX];
    char *list[HOST_SEATS_MAX];
    snprintf(ids, sizeof ids, "%s", player_ids ? player_ids : "");
    size_t n = 0;
    char *save = NULL;
    for (char *p = strtok_r(ids, ",", &save); p && n < HOST_SEATS_MAX;
         p = strtok_r(NULL, ",", &save))
        list[n++] = p;
    ma.match_id = (char *)match_id;
    ma.ok = ok;
    ma.error = (char *)(error ? error : "");
    ma.worker_id = (char *)h->worker_id;
    ma.n_player_ids = n;
    ma.player_ids = list;
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ADOPTED;
    msg.match_adopted = &ma;
    host_send_control(h, &msg);
}

/* Split a comma-separated list in place into at most max items; their count. */
static int host_split(char *list, char **out, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *p = strtok_r(list, ",", &save); p && n < max; p = strtok_r(NULL, ",", &save))
        out[n++] = p;
    return n;
}

/* Restore meta's match from its snapshot and log on bundle b (NULL with why set on
 * failure, -1 in *down when Redis failed). */
static engine_match *host_restore(host *h, const char *id, const store_match *meta,
                                  engine_bundle *b, char **names, int nseats, uint64_t now_ms,
                                  const char **why, bool *down)
{
    uint8_t *snap = NULL;
    size_t len = 0;
    store_blob *log = NULL;
    long nlog = -1;
    engine_answer *answers = NULL;
    uint32_t *ids = NULL;
    engine_match *m = NULL;
    static char err[sizeof((engine_error *)0)->message + 32];
    int rc = store_get_snapshot(h->st, id, &snap, &len, now_ms);
    if (rc <= 0) {
        *down = rc < 0;
        *why = "no snapshot";
        goto out;
    }
    if ((nlog = store_get_log(h->st, id, &log, now_ms)) < 0) {
        *down = true;
        *why = "cannot read the log";
        goto out;
    }
    answers = calloc((size_t)nlog + 1, sizeof *answers);
    ids = calloc(((size_t)nlog + 1) * HOST_BOT_IDS, sizeof *ids);
    if (!answers || !ids) {
        *why = "out of memory";
        goto out;
    }
    for (long i = 0; i < nlog; i++) {
        if (engine_answer_decode(log[i].data, log[i].len, &answers[i], ids + HOST_BOT_IDS * i,
                                 HOST_BOT_IDS)) {
            *why = "a log entry does not decode";
            goto out;
        }
    }
    engine_match_config cfg = {.match_id = id,
                               .game = meta->game,
                               .seed = meta->seed,
                               .nplayers = nseats,
                               .names = (const char **)names};
    engine_error ee = {0};
    m = engine_match_restore(b, &cfg, snap, len, answers, (size_t)nlog, &ee);
    if (!m) {
        snprintf(err, sizeof err, "restore failed: %s", ee.message);
        *why = err;
    }
out:
    free(snap);
    store_blobs_free(log, nlog > 0 ? (size_t)nlog : 0);
    free(answers);
    free(ids);
    return m;
}

int host_adopt(host *h, const char *match_id, uint64_t now_ms)
{
    if (host_find(h, match_id)) {
        host_match_adopted(h, match_id, true, NULL, NULL);
        return 1;
    }
    if (store_pending(h->st))
        host_flush(h, now_ms);
    store_match *meta = calloc(1, sizeof *meta);
    host_match *hm = calloc(1, sizeof *hm);
    const char *why = NULL;
    bool down = false;
    bundles_entry *pin = NULL;
    engine_bundle *b = NULL;
    char *names[HOST_SEATS_MAX], *pids[HOST_SEATS_MAX];
    char players[sizeof meta->players], player_ids[sizeof meta->player_ids];
    if (!meta || !hm) {
        why = "out of memory";
        goto refuse;
    }
    int rc = store_get_match(h->st, match_id, meta, now_ms);
    if (rc < 0) {
        free(meta);
        free(hm);
        return -1;
    }
    if (rc == 0) {
        why = "no such match in Redis";
        goto refuse;
    }
    if (strcmp(meta->worker, h->worker_id)) {
        why = "the match belongs to another worker";
        goto refuse;
    }
    if (strcmp(meta->status, "running")) {
        why = "the match is not running";
        goto refuse;
    }
    if (h->nmatches >= h->capacity) {
        why = "worker full";
        goto refuse;
    }
    snprintf(players, sizeof players, "%s", meta->players);
    snprintf(player_ids, sizeof player_ids, "%s", meta->player_ids);
    int nseats = host_split(players, names, HOST_SEATS_MAX);
    if (nseats < 1 || host_split(player_ids, pids, HOST_SEATS_MAX) != nseats) {
        why = "bad player lists";
        goto refuse;
    }
    if (h->bs) {
        pin = bundles_get(h->bs, meta->bundle, meta->game, now_ms);
        b = pin ? pin->b : NULL;
    } else if (!strcmp(engine_bundle_id(h->bundle), meta->bundle)) {
        b = h->bundle;
    }
    if (!b) {
        why = "its bundle cannot be loaded here";
        goto refuse;
    }
    hm->m = host_restore(h, match_id, meta, b, names, nseats, now_ms, &why, &down);
    if (!hm->m)
        goto refuse;
    if (h->nmatches == h->capmatches) {
        size_t cap = h->capmatches ? h->capmatches * 2 : 64;
        host_match **mm = realloc(h->matches, cap * sizeof *mm);
        if (!mm) {
            why = "out of memory";
            goto refuse;
        }
        h->matches = mm;
        h->capmatches = cap;
    }
    if (!(hm->seats = calloc((size_t)nseats, sizeof *hm->seats))) {
        why = "out of memory";
        goto refuse;
    }
    snprintf(hm->id, sizeof hm->id, "%s", match_id);
    snprintf(hm->game, sizeof hm->game, "%s", meta->game);
    snprintf(hm->mode, sizeof hm->mode, "%s", meta->mode);
    hm->nseats = nseats;
    for (int i = 0; i < nseats; i++) {
        snprintf(hm->seats[i].player_id, sizeof hm->seats[i].player_id, "%s", pids[i]);
        snprintf(hm->seats[i].name, sizeof hm->seats[i].name, "%s", names[i]);
    }
    hm->epoch = meta->epoch;
    hm->answers = meta->history;
    hm->set = (host_settings){.grace_ms = meta->grace_ms,
                              .decision_ms = meta->decision_ms,
                              .turn_ms = meta->turn_ms,
                              .forfeit = !strcmp(meta->abandon, "forfeit")};
    hm->forfeit_seat = -1;
    hm->snap_version = engine_match_snapshot_version(hm->m);
    hm->started = true;
    hm->turn_version = hm->snap_version;
    hm->turn_ms = now_ms;
    if (pin) {
        hm->pin = pin;
        bundles_pin(pin);
    }
    h->matches[h->nmatches++] = hm;
    dh_counter_inc(&h->stats.adoptions);
    dh_info("match %s: adopted at epoch %llu (%llu answers, bundle %.12s)", match_id,
            (unsigned long long)hm->epoch, (unsigned long long)hm->answers, meta->bundle);
    host_match_adopted(h, match_id, true, NULL, meta->player_ids);
    free(meta);
    return 1;
refuse:
    if (hm && hm->m)
        engine_match_free(hm->m);
    if (hm)
        free(hm->seats);
    free(hm);
    if (down) {
        free(meta);
        return -1;
    }
    dh_warn("match %s: cannot adopt: %s", match_id, why);
    host_match_adopted(h, match_id, false, why, meta ? meta->player_ids : NULL);
    free(meta);
    return 0;
}

/* ---- timers and absence ------------------------------------------------------------- */

/* Answer hm's pending decision with the game's default bot, as if its seat had. */
static bool host_default_answer(host *h, host_match *hm, const char *why, uint64_t now_ms)
{
    uint32_t ids[HOST_BOT_IDS];
    size_t n = HOST_BOT_IDS;
    engine_error ee = {0};
    const engine_decision *d = engine_match_decision(hm->m);
    int seat = d->seat;
    uint64_t decision_id = d->decision_id;
    engine_code code = engine_match_bot_answer(hm->m, NULL, ids, &n, &ee);
    if (code == ENGINE_OK)
        code = host_apply(h, hm, seat, 0, decision_id, ids, n, now_ms, &ee);
    if (code != ENGINE_OK) {
        dh_warn("match %s: no default answer for seat %d (%s): %s", hm->id, seat, why, ee.message);
        return false;
    }
    dh_counter_inc(&h->stats.default_answers);
    dh_debug("match %s: seat %d answered by default (%s)", hm->id, seat, why);
    return true;
}

/* Seat forfeits: the match ends now, once Redis has the result. */
static void host_forfeit(host *h, host_match *hm, int seat, uint64_t now_ms)
{
    hm->forfeit_seat = seat;
    int op = store_op(h->st, now_ms);
    if (op >= 0 && host_persist(h, hm, NULL) < 0)
        op = -1;
    if (!host_hold(h, HOST_ACT_FORFEIT, hm, op)) {
        hm->forfeit_seat = -1;
        hm->busy = false;
        return;
    }
    dh_info("match %s: seat %d forfeits after %u ms away", hm->id, seat, hm->set.grace_ms);
}

size_t host_tick(host *h, uint64_t now_ms)
{
    size_t made = 0;
    for (size_t i = 0; i < h->nmatches; i++) {
        host_match *hm = h->matches[i];
        if (!hm->started || hm->busy || host_over(hm))
            continue;
        const engine_decision *d = engine_match_decision(hm->m);
        if (!d || d->seat < 0 || d->seat >= hm->nseats)
            continue;
        if (d->decision_id != hm->decision_id) {
            hm->decision_id = d->decision_id;
            hm->decision_ms = now_ms;
        }
        uint64_t version = engine_match_snapshot_version(hm->m);
        if (version != hm->turn_version) {
            hm->turn_version = version;
            hm->turn_ms = now_ms;
        }
        host_seat *s = &hm->seats[d->seat];
        if (!s->route[0] && !s->away_ms && now_ms - hm->decision_ms >= HOST_ATTACH_MS) {
            s->away_ms = now_ms;
            dh_info("match %s: %s never attached in %d ms: away (grace %u ms)", hm->id,
                    s->player_id, HOST_ATTACH_MS, hm->set.grace_ms);
        }
        if (s->away_ms && !s->robot && now_ms - s->away_ms >= hm->set.grace_ms) {
            if (hm->set.forfeit) {
                host_forfeit(h, hm, d->seat, now_ms);
                continue;
            }
            s->robot = true;
            dh_info("match %s: %s stayed away %u ms; a bot plays the seat", hm->id, s->player_id,
                    hm->set.grace_ms);
        }
        const char *why = NULL;
        if (s->robot)
            why = "seat played by a bot";
        else if (hm->set.decision_ms && now_ms - hm->decision_ms >= hm->set.decision_ms)
            why = "decision timer";
        else if (hm->set.turn_ms && now_ms - hm->turn_ms >= hm->set.turn_ms)
            why = "turn timer";
        if (why && host_default_answer(h, hm, why, now_ms))
            made++;
    }
    return made;
}
