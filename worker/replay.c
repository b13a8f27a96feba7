/*
 * replay.c: replays served to players (see worker.h): a job per ReplayRequest, loaded from
 * Redis on its first turn, then stepped a bounded number of answers per loop turn, each
 * step sent as a ReplayFrame of public information only.
 */
#include "worker.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bundles.h"
#include "dh_clock.h"
#include "dh_grow.h"
#include "dh_log.h"
#include "dh_replay.h"
#include "engine_replay.h"
#include "out.h"

/* The public events of one step, copied out of the engine's drain. */
typedef struct {
    Deckhand__Event *v;
    Deckhand__Event **p;
    size_t n, cap, pcap;
} replay_events;

struct replay_job {
    char route[DH_ZMQ_ID_MAX + 1];
    char player_id[HOST_ID_MAX];
    char match_id[HOST_ID_MAX];
    uint64_t cmd_id;
    host *h;              /* for the bundle callbacks */
    bool loaded;          /* rec and er are set up, the Catalog and frame 0 sent */
    dh_replay_record rec; /* the match as Redis recorded it */
    engine_replay er;     /* the rebuild */
    uint32_t total;       /* frames: recorded answers + 1 */
    uint64_t sent;        /* bytes sent since the last pause */
    uint64_t resume_ms;   /* paused until then (REPLAY_BURST_MS) */
    replay_events ev;
};

void replays_init(replays *rp)
{
    memset(rp, 0, sizeof *rp);
}

static void replay_events_clear(replay_events *e)
{
    for (size_t i = 0; i < e->n; i++) {
        free(e->v[i].kind);
        free(e->v[i].text);
    }
    e->n = 0;
}

static void replay_job_free(replay_job *j)
{
    engine_replay_free(&j->er);
    dh_replay_record_free(&j->rec);
    replay_events_clear(&j->ev);
    free(j->ev.v);
    free(j->ev.p);
    free(j);
}

void replays_free(host *h, replays *rp)
{
    for (size_t i = 0; i < rp->n; i++) {
        replay_job *j = rp->jobs[i];
        out_reply(h, j->route, j->player_id, j->cmd_id, DECKHAND__ERROR_CODE__UNAVAILABLE,
                  "the worker is stopping; ask again");
        replay_job_free(j);
    }
    rp->n = 0;
}

/* ---- bundles: the worker's own, pinned while a replay uses them ------------------------ */

static engine_bundle *replay_bundle_get(void *ud, const char *sha, char *err, size_t errlen)
{
    replay_job *j = ud;
    host *h = j->h;
    if (!h->bs) {
        if (!strcmp(engine_bundle_id(h->bundle), sha))
            return h->bundle;
        snprintf(err, errlen, "bundle %.12s is not this worker's", sha);
        return NULL;
    }
    bundles_entry *e = bundles_get(h->bs, sha, j->rec.game, dh_now_ms());
    if (!e) {
        snprintf(err, errlen, "bundle %.12s cannot be loaded here", sha);
        return NULL;
    }
    bundles_pin(e);
    return e->b;
}

static void replay_bundle_put(void *ud, engine_bundle *b)
{
    replay_job *j = ud;
    bundles *bs = j->h->bs;
    for (size_t i = 0; bs && i < bs->n; i++) {
        if (bs->v[i]->b == b) {
            bundles_unpin(bs, bs->v[i]);
            return;
        }
    }
}

/* ---- what is sent --------------------------------------------------------------------- */

static void replay_send(host *h, replay_job *j, const Deckhand__ServerMessage *sm)
{
    size_t len = out_send(h, j->route, j->player_id, sm);
    j->sent += len;
    dh_counter_add(&h->rp->bytes, len);
}

static void replay_reply(host *h, replay_job *j, int code, const char *text)
{
    out_reply(h, j->route, j->player_id, j->cmd_id, code, text);
    dh_counter_inc(code ? &h->rp->failed : &h->rp->served);
}

/* Keep the public events only: a g:log every seat got (delivered once per seat, so the
 * copy to seat 0 stands for all), never a g:log_to. */
static void replay_on_event(void *ud, const engine_event *ev)
{
    replay_job *j = ud;
    replay_events *e = &j->ev;
    if (!ev->everyone || ev->to_seat != 0)
        return;
    if (dh_grow(&e->v, &e->cap, e->n + 1, sizeof *e->v, 16) < 0)
        return;
    Deckhand__Event *out = &e->v[e->n];
    deckhand__event__init(out);
    out->match_id = j->match_id;
    out->event_seq = ev->public_seq; /* the match's public count, as spectators see it */
    out->kind = strdup(ev->kind ? ev->kind : "");
    out->text = strdup(ev->text ? ev->text : "");
    out->seat = ev->about_seat;
    if (!out->kind || !out->text) {
        free(out->kind);
        free(out->text);
        return;
    }
    e->n++;
}

/* The match's GameOver as its seats got it: the results the worker stored with it
 * (match:{ID}.result, from host_results: a forfeit, an operator's end or a quarantine are
 * not the engine's), each `{"seat":S,"name":...,"score":N,"rank":R,"turns":T}` and, for a
 * seat that forfeited or resigned, `"forfeit":true` or `"resigned":true` after them (a
 * name's quotes are escaped, so no name can forge a key), names from the seats. The
 * number of results in pr; *forfeit the seat marked "forfeit", else -1. */
static size_t replay_results(const dh_replay_record *rec, Deckhand__PlayerResult *pr, size_t max,
                             int *forfeit)
{
    size_t n = 0;
    *forfeit = -1;
    for (const char *p = rec->result; p && n < max && (p = strstr(p, "\"seat\":"));) {
        long seat = strtol(p + 7, NULL, 10);
        const char *sc = strstr(p, "\"score\":"), *rk = strstr(p, "\"rank\":"),
                   *tu = strstr(p, "\"turns\":");
        if (!sc || !rk || !tu || seat < 0 || seat >= rec->nseats)
            break;
        deckhand__player_result__init(&pr[n]);
        pr[n].seat = (uint32_t)seat;
        pr[n].name = (char *)rec->names[seat];
        pr[n].score = (int32_t)strtol(sc + 8, NULL, 10);
        pr[n].rank = (uint32_t)strtoul(rk + 7, NULL, 10);
        pr[n].turns = (uint32_t)strtoul(tu + 8, NULL, 10);
        const char *close = strchr(tu, '}');
        const char *fo = strstr(tu, "\"forfeit\":true"), *re = strstr(tu, "\"resigned\":true");
        if (fo && close && fo < close)
            *forfeit = (int)seat;
        pr[n].resigned = (fo && close && fo < close) || (re && close && re < close);
        n++;
        p = tu;
    }
    return n;
}

/* The last frame's GameOver beyond its results, as the seats got it (out_finish): the
 * words for the end, each seat's deck from the rebuilt match, whether it was rated. */
static void replay_game_over_end(replay_job *j, Deckhand__GameOver *go, int forfeit, char *summary,
                                 Deckhand__DeckCount (*dc)[OUT_END_DECK_MAX],
                                 Deckhand__DeckCount *(*dcp)[OUT_END_DECK_MAX])
{
    engine_result res[DH_REPLAY_SEATS_MAX];
    for (size_t i = 0; i < go->n_results; i++) {
        Deckhand__PlayerResult *pr = go->results[i];
        res[i] = (engine_result){.seat = (int)pr->seat, .rank = (int)pr->rank};
        pr->n_deck = out_end_deck(j->er.m, (int)pr->seat, dc[i], dcp[i]);
        pr->deck = dcp[i];
    }
    out_end_why w = {.names = j->rec.names,
                     .nseats = j->rec.nseats,
                     .forfeit_seat = forfeit,
                     .reason = go->reason,
                     .rules = engine_match_end_summary(j->er.m)};
    out_end_summary(&w, res, go->n_results, summary, OUT_END_SUMMARY_MAX);
    go->summary = summary;
    go->unrated = out_end_unrated(j->rec.unrated && !strcmp(j->rec.unrated, "1"), go->reason,
                                  j->rec.ids, j->rec.nseats);
}

/* Frame index: the public view after it, the public events drained since the last one,
 * and on the last frame the GameOver. 0, or -1 when out of memory. */
static int replay_frame(host *h, replay_job *j, uint32_t index)
{
    Deckhand__View *view = engine_match_view(j->er.m, ENGINE_SEAT_PUBLIC);
    if (!view)
        return -1;
    replay_events_clear(&j->ev);
    engine_match_drain_events(j->er.m, replay_on_event, j);
    replay_events *e = &j->ev;
    if (dh_grow(&e->p, &e->pcap, e->n ? e->n : 1, sizeof *e->p, 16) < 0) {
        engine_view_free(view);
        return -1;
    }
    for (size_t i = 0; i < e->n; i++)
        e->p[i] = &e->v[i];
    Deckhand__ReplayFrame f = DECKHAND__REPLAY_FRAME__INIT;
    f.match_id = j->match_id;
    f.index = index;
    f.total = j->total;
    f.view = view;
    f.n_events = e->n;
    f.events = e->p;
    f.game = (char *)j->rec.game;
    f.n_players = (size_t)j->rec.nseats;
    f.players = (char **)j->rec.names;
    Deckhand__GameOver go = DECKHAND__GAME_OVER__INIT;
    Deckhand__PlayerResult pr[DH_REPLAY_SEATS_MAX];
    Deckhand__PlayerResult *prp[DH_REPLAY_SEATS_MAX];
    Deckhand__DeckCount dc[DH_REPLAY_SEATS_MAX][OUT_END_DECK_MAX];
    Deckhand__DeckCount *dcp[DH_REPLAY_SEATS_MAX][OUT_END_DECK_MAX];
    char summary[OUT_END_SUMMARY_MAX];
    if (index + 1 == j->total) {
        int forfeit;
        go.match_id = j->match_id;
        go.n_results = replay_results(&j->rec, pr, DH_REPLAY_SEATS_MAX, &forfeit);
        for (size_t i = 0; i < go.n_results; i++)
            prp[i] = &pr[i];
        go.results = prp;
        go.reason = (char *)(j->rec.end_reason ? j->rec.end_reason : "");
        replay_game_over_end(j, &go, forfeit, summary, dc, dcp);
        f.game_over = &go;
    }
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_REPLAY_FRAME;
    sm.replay_frame = &f;
    replay_send(h, j, &sm);
    dh_counter_inc(&h->rp->frames);
    engine_view_free(view);
    return 0;
}

/* ---- the life of a job ----------------------------------------------------------------- */

/* Read the record, check that it may be replayed, start the rebuild, send the Catalog and
 * frame 0. 0 when loaded; -1 when the job was answered with an error (it is done). */
static int replay_load(host *h, replay_job *j, uint64_t now_ms)
{
    char err[512];
    dh_replay_status st =
        dh_replay_read(&h->st->redis, now_ms, j->match_id, &j->rec, err, sizeof err);
    if (st == DH_REPLAY_MISSING || (st == DH_REPLAY_OK && !dh_replay_finished(&j->rec))) {
        replay_reply(h, j, DECKHAND__ERROR_CODE__UNKNOWN_MATCH,
                     "no such finished match (or it is past its retention)");
        return -1;
    }
    if (st == DH_REPLAY_DOWN) {
        replay_reply(h, j, DECKHAND__ERROR_CODE__UNAVAILABLE, "cannot read the match now");
        return -1;
    }
    if (st != DH_REPLAY_OK) {
        dh_warn("replay of %s: %s", j->match_id, err);
        replay_reply(h, j, DECKHAND__ERROR_CODE__INTERNAL, "the match's record cannot be replayed");
        return -1;
    }
    size_t answers = j->rec.history->elements;
    if (answers + 1 > REPLAY_FRAMES_MAX) {
        char why[128];
        snprintf(why, sizeof why, "the match has %zu answers; replays stop at %d", answers,
                 REPLAY_FRAMES_MAX - 1);
        replay_reply(h, j, DECKHAND__ERROR_CODE__BAD_REQUEST, why);
        return -1;
    }
    j->total = (uint32_t)answers + 1;
    engine_replay_bundles src = {replay_bundle_get, replay_bundle_put, NULL, j};
    if (engine_replay_start(&j->er, &j->rec, &src) < 0) {
        dh_warn("replay of %s: %s", j->match_id, j->er.err);
        replay_reply(h, j, DECKHAND__ERROR_CODE__UNAVAILABLE,
                     "the match's bundle cannot be loaded now");
        return -1;
    }
    j->loaded = true;
    Deckhand__Catalog *cat = engine_match_catalog(j->er.m);
    if (!cat) {
        replay_reply(h, j, DECKHAND__ERROR_CODE__INTERNAL, "out of memory");
        return -1;
    }
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_CATALOG;
    sm.catalog = cat;
    replay_send(h, j, &sm);
    engine_catalog_free(cat);
    if (replay_frame(h, j, 0) < 0) {
        replay_reply(h, j, DECKHAND__ERROR_CODE__INTERNAL, "out of memory");
        return -1;
    }
    return 0;
}

/* One more answer and its frame; at the end, the check against the recorded state and the
 * Reply. 1 while there is more, 0 when the job is done (answered). */
static int replay_step(host *h, replay_job *j)
{
    engine_error ee = {0};
    engine_replay_status st = engine_replay_step(&j->er, &ee);
    if (st == ENGINE_REPLAY_STEP) {
        if (replay_frame(h, j, (uint32_t)j->er.answers) < 0) {
            replay_reply(h, j, DECKHAND__ERROR_CODE__INTERNAL, "out of memory");
            return 0;
        }
        return 1;
    }
    if (st != ENGINE_REPLAY_END) {
        dh_warn("replay of %s stopped after %zu answers: %s", j->match_id, j->er.answers,
                st == ENGINE_REPLAY_REFUSED ? ee.message : j->er.err);
        replay_reply(h, j, DECKHAND__ERROR_CODE__INTERNAL, "the match's record does not replay");
        return 0;
    }
    char mine[24];
    snprintf(mine, sizeof mine, "%016" PRIx64, engine_match_hash(j->er.m));
    if (j->rec.final_hash && *j->rec.final_hash && strcmp(mine, j->rec.final_hash)) {
        dh_warn("replay of %s ends on hash %s, recorded %s", j->match_id, mine, j->rec.final_hash);
        replay_reply(h, j, DECKHAND__ERROR_CODE__INTERNAL,
                     "the replay does not reach the match's recorded end");
        return 0;
    }
    replay_reply(h, j, 0, NULL);
    return 0;
}

void replay_request(host *h, const char *route, const Deckhand__Internal__PlayerCommand *pc,
                    uint64_t now_ms)
{
    const char *pid = pc->player_id ? pc->player_id : "";
    const char *mid = pc->replay && pc->replay->match_id ? pc->replay->match_id : "";
    replays *rp = h->rp;
    if (!rp) {
        out_reply(h, route, pid, pc->cmd_id, DECKHAND__ERROR_CODE__UNAVAILABLE,
                  "this worker serves no replays");
        return;
    }
    if (!*mid || strlen(mid) >= HOST_ID_MAX || strpbrk(mid, "{}") || strlen(pid) >= HOST_ID_MAX) {
        out_reply(h, route, pid, pc->cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST,
                  "ReplayRequest needs a match id");
        dh_counter_inc(&rp->failed);
        return;
    }
    replay_job *j = rp->n < REPLAY_ACTIVE_MAX ? calloc(1, sizeof *j) : NULL;
    if (!j) {
        out_reply(h, route, pid, pc->cmd_id, DECKHAND__ERROR_CODE__OVERLOADED,
                  "too many replays on this worker; retry");
        dh_counter_inc(&rp->refused);
        return;
    }
    snprintf(j->route, sizeof j->route, "%s", route);
    snprintf(j->player_id, sizeof j->player_id, "%s", pid);
    snprintf(j->match_id, sizeof j->match_id, "%s", mid);
    j->cmd_id = pc->cmd_id;
    j->h = h;
    rp->jobs[rp->n++] = j;
    dh_debug("replay of %s for %s taken (%zu running)", mid, pid, rp->n);
}

/* Work job j for at most *steps answers (decremented); true when it is done. */
static bool replay_turn(host *h, replay_job *j, int *steps, uint64_t now_ms, uint64_t until_ms)
{
    if (j->resume_ms > now_ms)
        return false;
    if (!j->loaded) {
        if (replay_load(h, j, now_ms) < 0)
            return true;
        (*steps)--;
    }
    while (*steps > 0 && j->sent < REPLAY_BURST_BYTES) {
        (*steps)--;
        if (!replay_step(h, j))
            return true;
        if (dh_now_ms() >= until_ms)
            break;
    }
    if (j->sent >= REPLAY_BURST_BYTES) {
        j->sent = 0;
        j->resume_ms = now_ms + REPLAY_BURST_MS;
    }
    return false;
}

bool replay_work(host *h, uint64_t now_ms)
{
    replays *rp = h->rp;
    if (!rp || !rp->n || store_pending(h->st))
        return rp && rp->n;
    int steps = REPLAY_STEPS_TURN;
    uint64_t until = dh_now_ms() + REPLAY_TURN_MS;
    size_t n = rp->n;
    for (size_t k = 0; k < n && steps > 0 && dh_now_ms() < until; k++) {
        size_t i = (rp->next + k) % n;
        replay_job *j = rp->jobs[i];
        if (j && replay_turn(h, j, &steps, now_ms, until)) {
            replay_job_free(j);
            rp->jobs[i] = NULL;
        }
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (rp->jobs[i])
            rp->jobs[kept++] = rp->jobs[i];
    rp->n = kept;
    rp->next = kept ? (rp->next + 1) % kept : 0;
    return rp->n > 0;
}
