/*
 * host_adopt.c: adopting matches the matchmaker moved onto this worker after their
 * worker died or stopped (docs/matchmaker.md, "Takeover"): each is restored from its
 * meta, snapshot and log in Redis on the bundle it is pinned to, and answered with
 * MatchAdopted.
 */
#include "host_internal.h"
#include "host_options.h"
#include "host_persist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bundles.h"
#include "dh_keys.h"
#include "dh_log.h"
#include "out.h"

#define HOST_ADOPT_BATCH 64 /* ids taken from worker:{ID}:adopt per round */

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
 * once, or it forfeits at the next host_admin_tick. */
static void host_resume_removed(host_match *hm, const char *list, uint64_t now_ms)
{
    const char *cursor = list, *item;
    size_t len;
    for (int i = 0; i < hm->nseats && dh_list_next(&cursor, &item, &len); i++) {
        if (len != 1 || item[0] != '1')
            continue;
        host_seat *s = &hm->seats[i];
        s->removed = true;
        s->robot = !hm->set.forfeit;
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
    h->now_ms = now_ms;
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
    if (!host_reserve(h) || !(hm->seats = calloc((size_t)nseats, sizeof *hm->seats))) {
        why = "out of memory";
        goto refuse;
    }
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
    host_resume_away(h, hm, meta->away, now_ms);
    host_resume_removed(hm, meta->removed, now_ms);
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
    if (down) {
        free(meta);
        return -1;
    }
    /* the matchmaker offers a refused match again (elsewhere, or here once this is the
     * only live worker): one line per interval however often */
    dh_warn_every(DH_LOG_EVERY_MS, "match %s: cannot adopt: %s", match_id, why);
    host_match_adopted(h, match_id, false, why, meta ? meta->player_ids : NULL);
    free(meta);
    return 0;
}

void host_adopt_pending(host *h, uint64_t now_ms)
{
    h->now_ms = now_ms;
    char ids[HOST_ADOPT_BATCH][STORE_ID_MAX];
    long n = store_adopt_pop(h->st, h->worker_id, ids, HOST_ADOPT_BATCH, now_ms);
    for (long i = 0; i < n; i++)
        if (host_adopt(h, ids[i], now_ms) < 0 &&
            store_adopt_return(h->st, h->worker_id, ids[i], now_ms) < 0)
            dh_error("match %s: adoption failed and could not be requeued", ids[i]);
}
