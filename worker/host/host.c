/*
 * host.c: hosting matches (see host.h): the table of hosted matches, StartMatch and
 * PlayerCommand, and the batch that releases their outputs once Redis holds their writes
 * (or undoes them). What it stands on: the out wing (out.h: everything sent),
 * host_persist.c (writing to Redis) and host_bot.c (a bot's answer a player asks for);
 * adoption, timers and bundle moves stand on it.
 */
#include "host_internal.h"
#include "host_bot.h"
#include "host_options.h"
#include "host_persist.h"
#include "host_resign.h"
#include "host_stall.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bundles.h"
#include "dh_clock.h"
#include "dh_grow.h"
#include "dh_keys.h"
#include "dh_log.h"
#include "dh_str.h"
#include "out.h"

#define HOST_GRACE_MS 60000 /* a StartMatch without settings (older matchmaker) */

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
    h->quarantine_after = HOST_QUARANTINE_AFTER;
    h->snap_every = HOST_SNAPSHOT_EVERY;
    h->idle_ms = HOST_IDLE_MS;
    h->stall_ms = HOST_STALL_MS;
    dh_histogram_init(&h->stats.command_seconds, dh_metrics_latency_bounds, dh_metrics_latency_n);
    dh_histogram_init(&h->stats.redis_seconds, dh_metrics_latency_bounds, dh_metrics_latency_n);
    dh_family_init(&h->stats.finished, "game", DH_METRIC_COUNTER, NULL, 0);
    dh_family_init(&h->stats.duration, "game", DH_METRIC_HISTOGRAM, dh_metrics_duration_bounds,
                   dh_metrics_duration_n);
    if (st)
        st->round_trips = &h->stats.redis_seconds;
}

void host_set_bundles(host *h, struct bundles *bs)
{
    h->bs = bs;
}

void host_match_free(host_match *hm)
{
    if (!hm)
        return;
    if (hm->m)
        engine_match_free(hm->m);
    for (int i = 0; hm->seats && i < hm->nseats; i++) {
        out_forget(&hm->seats[i]);
        out_view_forget(&hm->seats[i]);
    }
    free(hm->seats);
    free(hm);
}

void host_free(host *h)
{
    host_stall_stop(h);
    host_walk w = host_walk_from(h, 0);
    for (host_match *hm; (hm = host_walk_next(&w));)
        host_match_free(hm);
    free(h->matches);
    host_index_free(h);
    free(h->acts);
    out_batch_free(h);
    h->matches = NULL;
    h->acts = NULL;
    h->nmatches = h->nacts = 0;
}

size_t host_active(const host *h)
{
    return h->nmatches;
}

bool host_reserve(host *h)
{
    return dh_grow(&h->matches, &h->capmatches, h->nmatches + 1, sizeof *h->matches, 64) == 0;
}

/* Remove hm from the table and free it; then its bundle may go too. */
void host_drop(host *h, host_match *hm)
{
    host_index_del(h, hm);
    bundles_entry *pin = hm->pin;
    if (hm->watch)
        out_watch_gone(h, hm);
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

/* ---- match life --------------------------------------------------------------------- */

void host_start_match(host *h, const Deckhand__Internal__StartMatch *sm, uint64_t now_ms)
{
    h->now_ms = now_ms;
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
            out_match_started(h, id, true, NULL);
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
    if (dh_redis_full(&h->st->redis, now_ms)) { /* the headroom is for running matches */
        why = "store full";
        goto err;
    }
    if (!host_reserve(h))
        goto err_nomem;
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
        if (!host_queue_bot_ok(sm->settings->bot)) {
            why = "unknown queue bot";
            goto err;
        }
        snprintf(hm->set.bot, sizeof hm->set.bot, "%s", sm->settings->bot ? sm->settings->bot : "");
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
        if (in->bot && strlen(in->bot) >= sizeof s->bot) {
            why = "bad bot seat";
            goto err;
        }
        snprintf(s->bot, sizeof s->bot, "%s", in->bot ? in->bot : "");
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
    const char *bots[HOST_SEATS_MAX];
    host_bots_config(hm, bots);
    char bots_text[sizeof((store_match *)0)->bots];
    hm->unrated = sm->unrated;
    if (host_options_text(sm, hm->options, sizeof hm->options) < 0 ||
        host_bots_text(hm, bots_text, sizeof bots_text) < 0) {
        why = "options or bot seats too long";
        goto err;
    }
    engine_match_config cfg = {
        .match_id = hm->id,
        .game = hm->game,
        .seed = sm->seed,
        .nplayers = hm->nseats,
        .names = names,
        .bots = host_has_bots(hm) ? bots : NULL,
        .options = hm->options,
    };
    engine_error ee = {0};
    engine_bundle *bundle = h->bundle;
    bundles_entry *pin = h->bs ? bundles_pick_new(h->bs, hm->game, hm->id) : NULL;
    if (pin)
        bundle = pin->b;
    if (engine_bundle_check_options(bundle, hm->game, hm->options, &ee) == ENGINE_OK)
        hm->m = engine_match_new(bundle, &cfg, &ee);
    if (!hm->m) {
        /* the matchmaker forms it again and again (a new id each time): one line per
         * interval however often */
        dh_warn_every(DH_LOG_EVERY_MS, "match %s: cannot create %s: %s", id, sm->game, ee.message);
        why = ee.message[0] ? ee.message : "engine refused the match";
        goto err;
    }
    free(names);
    names = NULL;
    host_index_add(h, hm);
    if (pin) {
        hm->pin = pin;
        bundles_started(h->bs, pin);
        hm->trial = bundles_trial_start(h->bs, hm->game, pin, hm->trial_sha, now_ms);
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
        .created_ms = host_wall_ms(h),
        .mode = hm->mode,
        .abandon = hm->set.forfeit ? "forfeit" : "bot",
        .grace_ms = hm->set.grace_ms,
        .decision_ms = hm->set.decision_ms,
        .turn_ms = hm->set.turn_ms,
        .options = hm->options,
        .bots = bots_text,
        .queue_bot = hm->set.bot,
        .unrated = hm->unrated,
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
    hm->started_ns = dh_now_ns();
    dh_info("match %s: %s for %s", hm->id, hm->game, players);
    return;
err_nomem:
    why = "out of memory";
err:
    dh_warn_every(DH_LOG_EVERY_MS, "match %s refused: %s", id, why);
    out_match_started(h, id, false, why);
    free(names);
    host_match_free(hm);
}

/* The match is over and Redis has its result: tell the seats, the watchers and the
 * matchmaker, then let it go. */
static void host_finish(host *h, host_match *hm, uint64_t now_ms)
{
    engine_result res[HOST_SEATS_MAX];
    size_t n = host_results(hm, res, HOST_SEATS_MAX);
    const char *reason = host_end_reason(hm);
    out_finish(h, hm, res, n, reason ? reason : "", now_ms);
    if (!hm->quarantined)
        dh_info("match %s finished", hm->id);
    dh_counter_inc(dh_family_counter(&h->stats.finished, hm->game));
    if (hm->started_ns)
        dh_histogram_since(dh_family_histogram(&h->stats.duration, hm->game), hm->started_ns);
    host_drop(h, hm);
}

/* ---- commands ----------------------------------------------------------------------- */

/* Apply one answer for seat and hold its outputs until Redis has it (cmd_id 0: a timer or
 * a bot answered for the seat; there is nobody to Reply to). ENGINE_OK when held. */
engine_code host_apply(host *h, host_match *hm, int seat, uint64_t cmd_id, uint64_t decision_id,
                       const uint32_t *ids, size_t n, uint64_t now_ms, engine_error *ee)
{
    host_seat *s = &hm->seats[seat];
    engine_code code = engine_match_answer(hm->m, seat, decision_id, ids, n, ee);
    if (code != ENGINE_OK)
        return code;
    host_undo_expire(h, hm); /* an answer ends an asked undo */
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
    a->recv_ns = cmd_id ? h->cmd_recv_ns : 0;
    dh_str_copy(a->route, sizeof a->route, s->route);
    return ENGINE_OK;
}

static void host_choose(host *h, host_match *hm, int seat, uint64_t cmd_id,
                        const Deckhand__Choose *c, uint64_t now_ms)
{
    host_seat *s = &hm->seats[seat];
    const host_reply *old = out_recall(s, cmd_id);
    if (old) {
        out_reply(h, s->route, s->player_id, cmd_id, old->code, old->text);
        return;
    }
    if (hm->stalled) { /* its end is due (host_timers.c): never run its scripts again */
        out_reply(h, s->route, s->player_id, cmd_id, DECKHAND__ERROR_CODE__UNAVAILABLE,
                  "this match is ending: a card script stalled its server");
        return;
    }
    engine_error ee = {0};
    uint32_t bot_ids[HOST_BOT_IDS];
    size_t n = HOST_BOT_IDS;
    const uint32_t *ids = c->option_ids;
    engine_code code = ENGINE_OK;
    host_stall_enter(h, hm);
    if (c->bot && *c->bot) { /* the player asks for the game's bot's answer */
        code = host_bot_pick(hm, seat, c, bot_ids, &n, &ee);
        ids = bot_ids;
    } else {
        n = c->n_option_ids;
    }
    if (code == ENGINE_OK)
        code = host_apply(h, hm, seat, cmd_id, c->decision_id, ids, n, now_ms, &ee);
    host_stall_leave(h, hm, now_ms);
    if (code == ENGINE_INTERNAL) {
        out_reply(h, s->route, s->player_id, cmd_id, DECKHAND__ERROR_CODE__INTERNAL, ee.message);
    } else if (code != ENGINE_OK) {
        /* the detail for operators, an error id for players; a player can repeat it at will */
        char words[sizeof ee.public_message];
        snprintf(words, sizeof words, "%s", ee.public_message);
        if (code == ENGINE_SCRIPT_ERROR) {
            dh_warn_every(DH_LOG_EVERY_MS, "match %s: seat %d: %s", hm->id, seat, ee.message);
            host_script_error(h, hm, now_ms);
            host_script_words(&ee, c->bot && *c->bot, words, sizeof words);
        }
        out_remember(s, cmd_id, (int)code, words);
        out_reply(h, s->route, s->player_id, cmd_id, (int)code, words);
    }
}

void host_script_error(host *h, host_match *hm, uint64_t now_ms)
{
    if (!h->bs)
        return;
    bundles_script_error(h->bs, hm->pin);
    if (hm->trial && !hm->trial_erred) {
        hm->trial_erred = true;
        bundles_trial_note(h->bs, hm->game, hm->trial_sha, hm->trial, DH_TRIAL_ERRORED, now_ms);
    }
}

void host_trial_quarantined(host *h, host_match *hm, uint64_t now_ms)
{
    if (h->bs && hm->trial)
        bundles_trial_note(h->bs, hm->game, hm->trial_sha, hm->trial, DH_TRIAL_QUARANTINED, now_ms);
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

/* Seat's player left or came back: the other seats' Views say who is connected, so each
 * gets its update now rather than with the next move (a full View: the players changed). */
static void host_connection_changed(host *h, host_match *hm, int seat)
{
    for (int i = 0; i < hm->nseats; i++)
        if (i != seat && hm->seats[i].route[0])
            out_update(h, hm, i);
}

void host_command(host *h, const char *identity, const Deckhand__Internal__PlayerCommand *pc,
                  uint64_t now_ms)
{
    h->now_ms = now_ms;
    const char *pid = pc->player_id ? pc->player_id : "";
    const char *mid = pc->match_id ? pc->match_id : "";
    host_match *hm = host_find(h, mid);
    if (hm && hm->busy) {
        /* one write in flight per match: settle it before looking at this command */
        host_flush(h, now_ms);
        hm = host_find(h, mid);
    }
    if (pc->body_case == DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_SPECTATE ||
        pc->body_case == DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_SPECTATE_STOP) {
        out_watch_command(h, hm, identity, pc, now_ms);
        return;
    }
    int seat = hm && hm->started ? host_seat_of(hm, pid) : -1;
    if (seat < 0 && hm && pc->body_case == DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHAT) {
        out_reply(h, identity, pid, pc->cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST,
                  "only the match's players may chat; watchers read it");
        return;
    }
    if (seat < 0) {
        out_reply(h, identity, pid, pc->cmd_id, DECKHAND__ERROR_CODE__UNKNOWN_MATCH,
                  "no such match here, or you are not seated in it");
        return;
    }
    host_seat *s = &hm->seats[seat];
    if (s->removed) {
        if (pc->body_case != DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_AWAY)
            out_reply(h, identity, pid, pc->cmd_id, DECKHAND__ERROR_CODE__UNKNOWN_MATCH,
                      s->resigned ? "you resigned from this match"
                                  : "an operator removed you from this match");
        return;
    }
    if (pc->body_case == DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_AWAY) {
        /* only the gateway that holds the player may say it left */
        if (!strcmp(s->route, identity) && !s->away_ms) {
            s->away_ms = now_ms ? now_ms : 1;
            out_view_forget(s); /* its next connection starts from a full View */
            dh_info("match %s: %s is away (grace %u ms)", hm->id, pid, hm->set.grace_ms);
            host_connection_changed(h, hm, seat);
            host_persist_notes(h, hm, now_ms);
        }
        return;
    }
    if (host_overtaken(s, identity, pc->cmd_id)) {
        dh_info("match %s: command %llu of %s via %s overtaken by command %llu via %s; refused",
                hm->id, (unsigned long long)pc->cmd_id, pid, identity,
                (unsigned long long)s->top_cmd, s->route);
        out_reply(h, identity, pid, pc->cmd_id, DECKHAND__ERROR_CODE__UNAVAILABLE,
                  "a newer connection of the player spoke first; resync");
        return;
    }
    if (pc->cmd_id > s->top_cmd)
        s->top_cmd = pc->cmd_id;

    bool was_away = s->away_ms != 0;
    if (s->away_ms || s->robot)
        dh_info("match %s: %s is back", hm->id, pid);
    if (s->away_ms)
        out_view_forget(s); /* back on a new connection: a full View first */
    s->away_ms = 0;
    s->robot = false;
    if (strcmp(s->route, identity)) {
        dh_debug("match %s: %s attached via %s", hm->id, pid, identity);
        snprintf(s->route, sizeof s->route, "%s", identity);
        out_view_forget(s); /* a new connection: its first View is in full */
    }
    if (was_away) {
        host_connection_changed(h, hm, seat);
        host_persist_notes(h, hm, now_ms);
    }
    switch (pc->body_case) {
    case DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC:
        out_resync(h, hm, seat, pc->cmd_id);
        break;
    case DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE:
        host_choose(h, hm, seat, pc->cmd_id, pc->choose, now_ms);
        break;
    case DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHAT:
        host_chat(h, hm, seat, pc->cmd_id, pc->chat);
        break;
    case DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_UNDO:
        host_undo_request(h, hm, seat, pc->cmd_id, now_ms);
        break;
    case DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_UNDO_ANSWER:
        host_undo_answer(h, hm, seat, pc->cmd_id, pc->undo_answer->accept, now_ms);
        break;
    case DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESIGN:
        host_resign(h, hm, seat, pc->cmd_id, identity, now_ms);
        break;
    default:
        out_reply(h, identity, pid, pc->cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST, "empty command");
        break;
    }
}

/* ---- the batch ---------------------------------------------------------------------- */

/* The match is another worker's now (a fenced write): forget it without a word to the
 * matchmaker, which moved it. */
void host_lose(host *h, host_match *hm)
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
        host_walk w = host_walk_from(h, 0);
        for (host_match *hm; (hm = host_walk_next(&w));) {
            snapshot[w.at] = hm;
            ids[w.at] = hm->id;
            epochs[w.at] = hm->epoch;
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

static void host_release(host *h, host_action *a, uint64_t now_ms)
{
    host_match *hm = a->hm;
    bool ok = store_ok(h->st, a->op);
    bool fenced = store_fenced(h->st, a->op);
    hm->busy = false;
    if (fenced)
        dh_counter_inc(&h->stats.fenced);
    if (a->kind == HOST_ACT_START) {
        if (!ok) {
            dh_warn_every(DH_LOG_EVERY_MS, "match %s: store unavailable, not started", hm->id);
            out_match_started(h, hm->id, false, "store unavailable");
            host_drop(h, hm);
            return;
        }
        hm->snap_version = engine_match_snapshot_version(hm->m);
        hm->tail = hm->tail_writing;
        hm->started = true;
        out_match_started(h, hm->id, true, NULL);
        if (engine_match_finished(hm->m))
            host_finish(h, hm, now_ms);
        else
            engine_match_settle(hm->m); /* in Redis: keep only what the next answer needs */
        return;
    }
    if (a->kind == HOST_ACT_END) {
        host_seat *by = a->cmd_id ? &hm->seats[a->seat] : NULL; /* a Resign's end */
        if (ok) {
            if (hm->quarantined)
                dh_counter_inc(&h->stats.quarantined);
            if (by)
                out_reply(h, a->route, by->player_id, a->cmd_id, 0, NULL);
            host_finish(h, hm, now_ms);
            return;
        }
        hm->forfeit_seat = -1;
        hm->quarantined = hm->resign_end = false;
        if (by) {
            by->resigned = false;
            out_reply(
                h, a->route, by->player_id, a->cmd_id,
                fenced ? DECKHAND__ERROR_CODE__UNKNOWN_MATCH : DECKHAND__ERROR_CODE__UNAVAILABLE,
                fenced ? "the match moved to another worker; resync" : "store unavailable, retry");
        }
        if (fenced)
            host_lose(h, hm);
        return;
    }
    if (a->kind == HOST_ACT_UNDO) {
        if (!host_undo_release(h, a, now_ms))
            host_lose(h, hm);
        return;
    }
    host_seat *s = &hm->seats[a->seat];
    host_persist_landed(hm, ok);
    if (!ok) {
        engine_error ee = {0};
        if (engine_match_undo(hm->m, &ee) != ENGINE_OK)
            dh_error("match %s: undo failed after a lost write: %s", hm->id, ee.message);
        if (fenced) {
            if (a->cmd_id)
                out_reply(h, a->route, s->player_id, a->cmd_id, DECKHAND__ERROR_CODE__UNKNOWN_MATCH,
                          "the match moved to another worker; resync");
            host_lose(h, hm);
            return;
        }
        if (a->cmd_id)
            out_reply(h, a->route, s->player_id, a->cmd_id, DECKHAND__ERROR_CODE__UNAVAILABLE,
                      "store unavailable, retry");
        return;
    }
    hm->answers++;
    dh_counter_inc(&h->stats.answers);
    if (hm->script_failures) {
        hm->script_failures = 0; /* the match moves again: its failures are no longer in a row */
        hm->notes_due = true;    /* written by host_tick: no new op while a batch is released */
    }
    out_answer(h, hm, a->seat, a->cmd_id, a->route);
    if (a->cmd_id && a->recv_ns)
        dh_histogram_since(&h->stats.command_seconds, a->recv_ns);
    if (engine_match_finished(hm->m)) {
        host_finish(h, hm, now_ms);
        return;
    }
    if (hm->watch)
        out_watch_changed(h, hm, now_ms);
    engine_match_settle(hm->m); /* in Redis: keep only what the next answer needs */
}

void host_flush(host *h, uint64_t now_ms)
{
    h->now_ms = now_ms;
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
        host_release(h, &h->acts[i], now_ms);
    h->nacts = 0;
    store_next(h->st);
    out_flush(h); /* what the release made, one message per gateway */
}
