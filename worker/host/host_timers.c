/*
 * host_timers.c: decision and turn timers, and seats away past their grace period (see
 * host.h): what is due is answered with the game's default bot, or the seat forfeits.
 *
 * Bot strategies (issue 17): a timer's answer is the game's default bot's; a seat played
 * for a player who stayed away gets the queue's bot (QueueSettings.bot: the default one, or
 * the search bot); a bot-filled seat of the search bot (Seat.bot "search", which the engine
 * cannot play inline) is answered here as soon as its decision is pending. The search runs
 * at most ENGINE_SEARCH_BUDGET_MS a decision, and one tick starts no more searches once
 * HOST_SEARCH_TICK_MS went on them: the rest wait for the next tick, so a worker with many
 * such matches still reads its sockets and beats on time. A tick looks at the matches
 * from the one after the last it searched for (h->search_next), so searches go round the
 * table instead of the first matches taking every tick's budget.
 *
 * The idle cap (h->idle_ms, HOST_IDLE_MS): a decision nobody answered for that long, the
 * seat connected or not, forfeits the seat, so a match whose queue has no timers cannot be
 * held open for good by a client that never answers.
 *
 * Quarantine: such an answer of the worker's own that fails in a card script (an error, a
 * run past the time budget, an illegal bot answer) would fail again on every loop turn,
 * since the match stands still: a poison match. It is tried again after HOST_RETRY_MS,
 * and after h->quarantine_after failures in a row (counted in Redis, so across
 * adoptions) the match ends with the result "script_error" (DH_END_SCRIPT_ERROR): every
 * rank 0, a GameOver saying so, one warning, the quarantined metric. A player's own
 * answer that fails is the player's to change (SCRIPT_ERROR, host.c) and does not count:
 * else a losing player could end a match by provoking errors. But any answer, a player's
 * too, whose script call stalled the last worker until it was declared dead (the stall
 * watcher's mark, host_stall.c) ends the match on its adopter without another try: one
 * worker death is the most a poison match costs.
 */
#include "host_bot.h"
#include "host_internal.h"
#include "host_persist.h"
#include "host_stall.h"

#include <string.h>

#include "dh_clock.h"
#include "dh_log.h"

/* Wall time one host_tick may spend on search answers before it leaves the rest of them
 * for the next tick (a search started may run its own budget past it). */
#define HOST_SEARCH_TICK_MS ENGINE_SEARCH_BUDGET_MS

/* End hm as a script error, once Redis has it; false when the end could not be held. */
static bool host_quarantine_end(host *h, host_match *hm)
{
    hm->quarantined = true;
    if (!host_end(h, hm, 0)) {
        hm->quarantined = false;
        return false;
    }
    host_trial_quarantined(h, hm, dh_now_ms());
    return true;
}

/* End hm as a script error (what failed: detail). */
static void host_quarantine(host *h, host_match *hm, int seat, const char *why, const char *detail)
{
    if (host_quarantine_end(h, hm))
        dh_warn("match %s: quarantined: the default answer for seat %d (%s) failed %u times in a "
                "row: %s",
                hm->id, seat, why, hm->script_failures, detail);
}

/* End hm, whose last worker died stuck in one of its script calls, without running it:
 * HOST_RETRY_MS after its adoption (hm->retry_ms), once the gateways re-attached its
 * players to tell them. */
static void host_stalled_end(host *h, host_match *hm, uint64_t now_ms)
{
    if (now_ms >= hm->retry_ms && host_quarantine_end(h, hm))
        dh_warn("match %s: quarantined: a script call of it stalled its last worker until the "
                "worker was declared dead",
                hm->id);
}

/* The worker's own answer for hm failed in a card script (ee): try again later, or
 * quarantine the match. */
static void host_script_failed(host *h, host_match *hm, int seat, const char *why,
                               const engine_error *ee, uint64_t now_ms)
{
    dh_counter_inc(&h->stats.script_failures);
    host_script_error(h, hm, now_ms);
    if (!hm->counted_ahead) /* else its adoption counted this try already */
        hm->script_failures++;
    hm->counted_ahead = false;
    hm->retry_ms = now_ms + HOST_RETRY_MS;
    if (hm->script_failures < h->quarantine_after) {
        dh_info("match %s: no default answer for seat %d (%s), failure %u of %u: %s", hm->id, seat,
                why, hm->script_failures, h->quarantine_after, ee->message);
        host_persist_notes(h, hm, now_ms);
        return;
    }
    host_quarantine(h, hm, seat, why, ee->message);
}

/* The answer of strategy (NULL: the game's default bot; ENGINE_SEARCH_BOT: the search,
 * bounded, with the default bot when it cannot finish: host_bot_search) to hm's pending
 * decision; *searched says whether the search gave it. */
static engine_code host_strategy_answer(host_match *hm, const char *strategy, uint32_t *ids,
                                        size_t *n, bool *searched, engine_error *ee)
{
    *searched = false;
    if (engine_search_strategy(strategy))
        return host_bot_search(hm, ids, n, searched, ee);
    return engine_match_bot_answer(hm->m, strategy, ids, n, ee);
}

/* Answer hm's pending decision with strategy (host_strategy_answer), as if its seat had. */
static bool host_default_answer(host *h, host_match *hm, const char *why, const char *strategy,
                                uint64_t now_ms)
{
    uint32_t ids[HOST_BOT_IDS];
    size_t n = HOST_BOT_IDS;
    engine_error ee = {0};
    const engine_decision *d = engine_match_decision(hm->m);
    int seat = d->seat;
    uint64_t decision_id = d->decision_id;
    if (!hm->counted_ahead && hm->script_failures >= h->quarantine_after) {
        /* its adoption found it had failed enough (its workers died trying): not again */
        host_quarantine(h, hm, seat, why, "its workers died trying it");
        return false;
    }
    bool searched = false;
    host_stall_enter(h, hm);
    engine_code code = host_strategy_answer(hm, strategy, ids, &n, &searched, &ee);
    if (code == ENGINE_OK)
        code = host_apply(h, hm, seat, 0, decision_id, ids, n, now_ms, &ee);
    host_stall_leave(h, hm, now_ms);
    if (code != ENGINE_SCRIPT_ERROR)
        hm->counted_ahead = false; /* it returned, and did not fail in a script */
    if (code == ENGINE_SCRIPT_ERROR) {
        host_script_failed(h, hm, seat, why, &ee, now_ms);
        return false;
    }
    if (code != ENGINE_OK) {
        hm->retry_ms = now_ms + HOST_RETRY_MS;
        dh_warn_every(DH_LOG_EVERY_MS, "match %s: no default answer for seat %d (%s): %s", hm->id,
                      seat, why, ee.message);
        return false;
    }
    dh_counter_inc(&h->stats.default_answers);
    if (searched)
        dh_counter_inc(&h->stats.search_answers);
    dh_debug("match %s: seat %d answered by default (%s)", hm->id, seat, why);
    return true;
}

/* Seat forfeits (idle: at the idle cap, else away past grace): the match ends now, once
 * Redis has the result. */
static void host_forfeit(host *h, host_match *hm, int seat, bool idle, uint64_t now_ms)
{
    hm->forfeit_seat = seat;
    hm->idle = idle;
    if (!host_end(h, hm, now_ms)) {
        hm->forfeit_seat = -1;
        hm->idle = false;
        return;
    }
    if (idle)
        dh_info("match %s: seat %d forfeits: its decision waited %llu ms (the idle cap)", hm->id,
                seat, (unsigned long long)h->idle_ms);
    else
        dh_info("match %s: seat %d forfeits after %u ms away", hm->id, seat, hm->set.grace_ms);
}

/* The strategy that plays a seat whose player stayed away: the queue's bot (the search
 * bot or a difficulty), or the game's default bot (NULL). */
static const char *host_away_strategy(const host_match *hm)
{
    return hm->set.bot[0] && strcmp(hm->set.bot, "default") ? hm->set.bot : NULL;
}

size_t host_tick(host *h, uint64_t now_ms)
{
    h->now_ms = now_ms;
    size_t made = 0;
    uint64_t search_ns = 0; /* spent on search answers this tick */
    host_walk w = host_walk_from(h, h->search_next);
    for (host_match *hm; (hm = host_walk_next(&w));) {
        if (!hm->started || hm->busy || host_over(hm))
            continue;
        if (hm->stalled) {
            host_stalled_end(h, hm, now_ms);
            continue;
        }
        if (hm->notes_due) {
            hm->notes_due = false;
            host_persist_notes(h, hm, now_ms);
        }
        host_undo_tick(h, hm, now_ms);
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
        if (h->idle_ms && now_ms - hm->decision_ms >= h->idle_ms) {
            host_forfeit(h, hm, d->seat, true, now_ms);
            continue;
        }
        host_seat *s = &hm->seats[d->seat];
        if (s->bot[0]) { /* a bot seat the engine does not play inline: the search's */
            if (now_ms < hm->retry_ms || search_ns >= HOST_SEARCH_TICK_MS * 1000000ULL)
                continue;
            uint64_t t0 = dh_now_ns();
            if (host_default_answer(h, hm, "bot seat", s->bot, now_ms))
                made++;
            search_ns += dh_now_ns() - t0;
            h->search_next = w.at + 1;
            continue;
        }
        if (!s->route[0] && !s->away_ms && now_ms - hm->decision_ms >= HOST_ATTACH_MS) {
            s->away_ms = now_ms;
            dh_info("match %s: %s never attached in %d ms: away (grace %u ms)", hm->id,
                    s->player_id, HOST_ATTACH_MS, hm->set.grace_ms);
            host_persist_notes(h, hm, now_ms);
        }
        if (s->away_ms && !s->robot && now_ms - s->away_ms >= hm->set.grace_ms) {
            if (hm->set.forfeit) {
                host_forfeit(h, hm, d->seat, false, now_ms);
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
        if (why && now_ms < hm->retry_ms)
            continue; /* its last try failed: not again so soon */
        const char *strategy = s->robot ? host_away_strategy(hm) : NULL;
        if (strategy && search_ns >= HOST_SEARCH_TICK_MS * 1000000ULL)
            continue; /* enough searching this tick */
        uint64_t t0 = strategy ? dh_now_ns() : 0;
        if (why && host_default_answer(h, hm, why, strategy, now_ms))
            made++;
        if (strategy) {
            search_ns += dh_now_ns() - t0;
            h->search_next = w.at + 1;
        }
    }
    return made;
}
