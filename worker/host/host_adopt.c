/*
 * host_adopt.c: adopting matches the matchmaker moved onto this worker after their
 * worker died or stopped (docs/matchmaker.md, "Takeover"): each is restored from its
 * meta, snapshot and log in Redis on the bundle it is pinned to, and answered with
 * MatchAdopted. A big move (hundreds of matches of a dead worker) is adopted in rounds
 * bounded in time, each batch's reads in one pipeline (store_read_matches), so the worker
 * goes on serving its own matches meanwhile (docs/worker.md, "Adoption").
 */
#include "host_internal.h"
#include "host_options.h"
#include "host_persist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bundles.h"
#include "dh_clock.h"
#include "dh_keys.h"
#include "dh_log.h"
#include "out.h"

/* Split a comma-separated list (dh_list_next) in place into at most max items, each
 * ended by a NUL where its comma was; their count. */
static int host_split(char *list, char **out, int max)
{
    int n = 0;
    const char *cursor = list, *item;
    size_t len;
    while (n < max && dh_list_next(&cursor, &item, &len)) {
        out[n] = list + (item - list);
        out[n++][len] = '\0';
    }
    return n;
}

static void host_match_adopted(host *h, const char *match_id, bool ok, const char *error,
                               const char *player_ids)
{
    Deckhand__Internal__MatchAdopted ma = DECKHAND__INTERNAL__MATCH_ADOPTED__INIT;
    char ids[HOST_ID_MAX * HOST_SEATS_MAX];
    char *list[HOST_SEATS_MAX];
    snprintf(ids, sizeof ids, "%s", player_ids ? player_ids : "");
    int n = host_split(ids, list, HOST_SEATS_MAX);
    ma.match_id = (char *)match_id;
    ma.ok = ok;
    ma.error = (char *)(error ? error : "");
    ma.worker_id = (char *)h->worker_id;
    ma.n_player_ids = (size_t)n;
    ma.player_ids = list;
    out_control(h, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ADOPTED, &ma);
}

/* Resume the grace periods of the seats that were away on the last owner (DH_F_AWAY: the
 * wall-clock ms each left, 0 when present): each runs on from when its player left, on
 * our clock, instead of starting again (a match moved more often than its grace period
 * would never let the bot play an absent seat). A seat with no entry counts as present
 * until HOST_ATTACH_MS says otherwise. */
static void host_resume_away(const host *h, host_match *hm, const char *list, uint64_t now_ms)
{
    uint64_t wall = host_wall_ms(h);
    const char *cursor = list, *item;
    size_t len;
    for (int i = 0; i < hm->nseats && dh_list_next(&cursor, &item, &len); i++) {
        char *end;
        uint64_t left = strtoull(item, &end, 10);
        if (end == item)
            break;
        if (left) {
            uint64_t gone = left < wall ? wall - left : 0;
            hm->seats[i].away_ms = gone < now_ms ? now_ms - gone : 1;
        }
    }
}

/* Take up the seats an operator removed on an earlier owner (DH_F_REMOVED): their
 * players stay refused, and the abandon policy goes on: a bot plays each such seat at
 * once, or it forfeits at the next host_admin_tick. A seat whose player resigned ("2")
 * is a bot's whatever the policy, and still ranks last at the end. */
static void host_resume_removed(host_match *hm, const char *list, uint64_t now_ms)
{
    const char *cursor = list, *item;
    size_t len;
    for (int i = 0; i < hm->nseats && dh_list_next(&cursor, &item, &len); i++) {
        if (len != 1 || (item[0] != '1' && item[0] != '2'))
            continue;
        host_seat *s = &hm->seats[i];
        s->removed = true;
        s->resigned = item[0] == '2';
        s->robot = !hm->set.forfeit || s->resigned;
        if (!s->away_ms)
            s->away_ms = now_ms ? now_ms : 1;
    }
}

/* A bot plays hm's pending decision as soon as the timers look: its seat is the search
 * bot's, or away past its grace period (and the queue does not forfeit it). */
static bool host_bot_decides(const host_match *hm, uint64_t now_ms)
{
    const engine_decision *d = engine_match_decision(hm->m);
    if (!d || d->seat < 0 || d->seat >= hm->nseats)
        return false;
    const host_seat *s = &hm->seats[d->seat];
    if (s->bot[0] || s->robot) /* the search bot's seat, or a removed player's: at once */
        return true;
    return !hm->set.forfeit && s->away_ms && now_ms - s->away_ms >= hm->set.grace_ms;
}

/* A try that never returns (a script call stuck inside C, beyond the watchdog) kills its
 * worker before it can count as a failure, and the match moves to the next worker, which
 * tries again: so when a bot is to play an adopted match at once, its try is counted in
 * Redis before it can run (an answer accepted resets the count). A match whose count has
 * reached the limit is not tried again: its first due default answer quarantines it
 * (host_timers.c), a second from now, once the gateways have re-attached its players to
 * tell them. */
static void host_count_ahead(host *h, host_match *hm, uint64_t now_ms)
{
    if (!host_bot_decides(hm, now_ms))
        return;
    if (hm->script_failures >= h->quarantine_after) {
        hm->retry_ms = now_ms + HOST_RETRY_MS;
        return;
    }
    hm->script_failures++;
    hm->counted_ahead = true;
    host_persist_notes(h, hm, now_ms);
    host_flush(h, now_ms); /* Redis holds the count before the try can run */
}

/* Restore rd's match from its snapshot and log on bundle b (NULL with why set on
 * failure). */
static engine_match *host_restore(const char *id, const store_match_read *rd, engine_bundle *b,
                                  char **names, int nseats, const char **why)
{
    const store_match *meta = &rd->meta;
    long nlog = rd->nlog;
    engine_answer *answers = calloc((size_t)nlog + 1, sizeof *answers);
    uint32_t *ids = calloc(((size_t)nlog + 1) * HOST_BOT_IDS, sizeof *ids);
    engine_match *m = NULL;
    static char err[sizeof((engine_error *)0)->message + 32];
    if (!answers || !ids) {
        *why = "out of memory";
        goto out;
    }
    for (long i = 0; i < nlog; i++) {
        if (engine_answer_decode(rd->log[i].data, rd->log[i].len, &answers[i],
                                 ids + HOST_BOT_IDS * i, HOST_BOT_IDS)) {
            *why = "a log entry does not decode";
            goto out;
        }
    }
    char bots[HOST_SEATS_MAX][HOST_BOT_MAX];
    const char *botp[HOST_SEATS_MAX];
    host_bots_split(meta->bots, nseats, bots, botp);
    engine_match_config cfg = {.match_id = id,
                               .game = meta->game,
                               .seed = meta->seed,
                               .nplayers = nseats,
                               .names = (const char **)names,
                               .bots = meta->bots[0] ? botp : NULL,
                               .options = meta->options};
    engine_error ee = {0};
    m = engine_match_restore(b, &cfg, rd->snap, rd->snap_len, answers, (size_t)nlog, &ee);
    if (!m) {
        snprintf(err, sizeof err, "restore failed: %s", ee.message);
        *why = err;
    }
out:
    free(answers);
    free(ids);
    return m;
}

/* Why rd (found) cannot be adopted here, before the restore; NULL when it can. *down: the
 * reason may pass (a reply was unreadable): the id goes back into the set. */
static const char *host_adopt_check(const host *h, const store_match_read *rd, bool *down)
{
    if (rd->snap_found < 0 || rd->nlog < 0) {
        *down = true;
        return rd->snap_found < 0 ? "cannot read the snapshot" : "cannot read the log";
    }
    if (strcmp(rd->meta.worker, h->worker_id))
        return "the match belongs to another worker";
    if (strcmp(rd->meta.status, "running"))
        return "the match is not running";
    if (h->nmatches >= h->capacity)
        return "worker full";
    if (!rd->snap_found)
        return "no snapshot";
    return NULL;
}

/* hm's fields from rd's meta, for its nseats seats (hm->m restored already). */
static void host_adopt_fill(host_match *hm, const char *match_id, const store_match *meta,
                            char **names, char **pids, int nseats, uint32_t snap_every, bool tail,
                            uint64_t now_ms)
{
    snprintf(hm->id, sizeof hm->id, "%s", match_id);
    snprintf(hm->game, sizeof hm->game, "%s", meta->game);
    snprintf(hm->mode, sizeof hm->mode, "%s", meta->mode);
    hm->nseats = nseats;
    char bots[HOST_SEATS_MAX][HOST_BOT_MAX];
    const char *botp[HOST_SEATS_MAX];
    host_bots_split(meta->bots, nseats, bots, botp);
    for (int i = 0; i < nseats; i++) {
        snprintf(hm->seats[i].player_id, sizeof hm->seats[i].player_id, "%s", pids[i]);
        snprintf(hm->seats[i].name, sizeof hm->seats[i].name, "%s", names[i]);
        memcpy(hm->seats[i].bot, bots[i], sizeof hm->seats[i].bot);
    }
    snprintf(hm->options, sizeof hm->options, "%s", meta->options);
    hm->unrated = meta->unrated;
    hm->epoch = meta->epoch;
    hm->answers = meta->history;
    hm->set = (host_settings){.grace_ms = meta->grace_ms,
                              .decision_ms = meta->decision_ms,
                              .turn_ms = meta->turn_ms,
                              .forfeit = !strcmp(meta->abandon, "forfeit")};
    snprintf(hm->set.bot, sizeof hm->set.bot, "%s", meta->queue_bot);
    hm->forfeit_seat = -1;
    hm->script_failures = meta->script_failures;
    hm->stalled = meta->stalled != 0;
    /* Redis holds an older snapshot and the answers since: the next write brings a new one,
     * so the log an adopter replays stays short however often the match moves. */
    hm->turn_version = engine_match_snapshot_version(hm->m);
    hm->tail = tail;
    hm->snap_version = hm->turn_version - snap_every;
    hm->started = true;
    hm->turn_ms = now_ms;
}

/* The bundle meta's match is pinned to, loaded (NULL: it cannot be here); *pin its entry
 * when it comes from the bundles (pinned by the caller once the match is kept). */
static engine_bundle *host_adopt_bundle(host *h, const store_match *meta, bundles_entry **pin,
                                        uint64_t now_ms)
{
    *pin = NULL;
    if (h->bs) {
        *pin = bundles_get(h->bs, meta->bundle, meta->game, now_ms);
        return *pin ? (*pin)->b : NULL;
    }
    return strcmp(engine_bundle_id(h->bundle), meta->bundle) ? NULL : h->bundle;
}

/* Adopt match_id from what was read of it (host_adopt's answers). */
static int host_adopt_read(host *h, const char *match_id, const store_match_read *rd,
                           uint64_t now_ms)
{
    const store_match *meta = &rd->meta;
    host_match *hm = calloc(1, sizeof *hm);
    const char *why = NULL;
    bool down = rd->found < 0;
    bundles_entry *pin = NULL;
    engine_bundle *b = NULL;
    char *names[HOST_SEATS_MAX], *pids[HOST_SEATS_MAX];
    char players[sizeof meta->players], player_ids[sizeof meta->player_ids];
    if (down)
        goto refuse;
    if (!hm) {
        why = "out of memory";
        goto refuse;
    }
    if (!rd->found) {
        why = "no such match in Redis";
        goto refuse;
    }
    if ((why = host_adopt_check(h, rd, &down)))
        goto refuse;
    snprintf(players, sizeof players, "%s", meta->players);
    snprintf(player_ids, sizeof player_ids, "%s", meta->player_ids);
    int nseats = host_split(players, names, HOST_SEATS_MAX);
    if (nseats < 1 || host_split(player_ids, pids, HOST_SEATS_MAX) != nseats) {
        why = "bad player lists";
        goto refuse;
    }
    if (!(b = host_adopt_bundle(h, meta, &pin, now_ms))) {
        why = "its bundle cannot be loaded here";
        goto refuse;
    }
    if (!(hm->m = host_restore(match_id, rd, b, names, nseats, &why)))
        goto refuse;
    if (!host_reserve(h) || !(hm->seats = calloc((size_t)nseats, sizeof *hm->seats))) {
        why = "out of memory";
        goto refuse;
    }
    host_adopt_fill(hm, match_id, meta, names, pids, nseats, h->snap_every, rd->tail, now_ms);
    host_resume_away(h, hm, meta->away, now_ms);
    host_resume_removed(hm, meta->removed, now_ms);
    if (pin) {
        hm->pin = pin;
        bundles_pin(pin);
    }
    host_index_add(h, hm);
    dh_counter_inc(&h->stats.adoptions);
    dh_info("match %s: adopted at epoch %llu (%llu answers, bundle %.12s)", match_id,
            (unsigned long long)hm->epoch, (unsigned long long)hm->answers, meta->bundle);
    host_match_adopted(h, match_id, true, NULL, meta->player_ids);
    if (hm->stalled)
        hm->retry_ms = now_ms + HOST_RETRY_MS; /* ended then, untried (host_timers.c) */
    else
        host_count_ahead(h, hm, now_ms);
    return 1;
refuse:
    if (hm && hm->m)
        engine_match_free(hm->m);
    if (hm)
        free(hm->seats);
    free(hm);
    if (down)
        return -1;
    /* the matchmaker offers a refused match again (elsewhere, or here once this is the
     * only live worker): one line per interval however often */
    dh_warn_every(DH_LOG_EVERY_MS, "match %s: cannot adopt: %s", match_id, why);
    host_match_adopted(h, match_id, false, why, rd->found > 0 ? meta->player_ids : NULL);
    return 0;
}

/* A match hosted here already (an AdoptMatch repeated): answered again, nothing read. */
static bool host_adopted_already(host *h, const char *match_id)
{
    if (!host_find(h, match_id))
        return false;
    host_match_adopted(h, match_id, true, NULL, NULL);
    return true;
}

int host_adopt(host *h, const char *match_id, uint64_t now_ms)
{
    h->now_ms = now_ms;
    if (host_adopted_already(h, match_id))
        return 1;
    if (store_pending(h->st))
        host_flush(h, now_ms);
    store_match_read *rd = calloc(1, sizeof *rd);
    if (!rd)
        return -1;
    store_read_matches(h->st, &match_id, 1, rd, now_ms);
    int rc = host_adopt_read(h, match_id, rd, now_ms);
    store_match_read_free(rd);
    free(rd);
    return rc;
}

/* Adopt ids[0..n) from rd, the first whatever the clock and the others until until_ms;
 * how many were tried (the rest go back into the set). */
static long host_adopt_batch(host *h, char (*ids)[STORE_ID_MAX], const store_match_read *rd, long n,
                             uint64_t until_ms)
{
    long i = 0;
    for (; i < n && (!i || dh_now_ms() < until_ms); i++) {
        h->now_ms = dh_now_ms();
        int rc =
            host_adopted_already(h, ids[i]) ? 1 : host_adopt_read(h, ids[i], &rd[i], h->now_ms);
        if (rc < 0 && store_adopt_return(h->st, h->worker_id, ids[i], h->now_ms) < 0)
            dh_error("match %s: adoption failed and could not be requeued", ids[i]);
    }
    return i;
}

bool host_adopt_pending(host *h, uint64_t now_ms, uint64_t until_ms)
{
    h->now_ms = now_ms;
    char ids[HOST_ADOPT_BATCH][STORE_ID_MAX];
    const char *idp[HOST_ADOPT_BATCH];
    store_match_read *rd = calloc(HOST_ADOPT_BATCH, sizeof *rd);
    bool more = rd != NULL;
    for (bool first = true; more && (first || dh_now_ms() < until_ms); first = false) {
        if (store_pending(h->st))
            host_flush(h, dh_now_ms());
        long n = store_adopt_pop(h->st, h->worker_id, ids, HOST_ADOPT_BATCH, dh_now_ms());
        if (n <= 0) { /* empty, or Redis down: the poll tries again */
            more = false;
            break;
        }
        for (long i = 0; i < n; i++)
            idp[i] = ids[i];
        store_read_matches(h->st, idp, (size_t)n, rd, dh_now_ms());
        long done = host_adopt_batch(h, ids, rd, n, until_ms);
        if (done < n && store_adopt_return_all(h->st, h->worker_id, ids + done, (size_t)(n - done),
                                               dh_now_ms()) < 0)
            dh_error("%ld adoptions could not be requeued", n - done);
        for (long i = 0; i < n; i++)
            store_match_read_free(&rd[i]);
        more = done < n || n == HOST_ADOPT_BATCH;
    }
    free(rd);
    return more;
}
