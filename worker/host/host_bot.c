/*
 * host_bot.c: see host_bot.h.
 *
 * Why the checks come before the bot runs, though engine_match_answer repeats them: a
 * bot costs a script call of up to the call deadline, and a player must not be able to
 * spend the worker's time on decisions that are not theirs to answer. What the bot may
 * read is the whole match (hidden cards too), so the answer it gives can carry what the
 * seat cannot see; docs/SECURITY.md ("Bot answers") says why that is accepted.
 *
 * The search bot (host_bot_search, also what host_timers.c plays the search seats with)
 * is bounded in time, and its copies run the game's scripts under the same call deadline
 * as the match: on a loaded or sanitized machine one of them may overrun it. That is the
 * search's failure, not the game's, so the game's default bot answers instead: a player
 * who asked for the search bot's answer, or a bot-filled seat, still gets one, and a
 * match is not quarantined for a slow copy.
 */
#include "host_bot.h"

#include <stdio.h>
#include <string.h>

#include "dh_log.h"

static engine_code host_bot_refuse(engine_error *ee, engine_code code, const char *why)
{
    ee->code = code;
    snprintf(ee->message, sizeof ee->message, "%s", why);
    snprintf(ee->public_message, sizeof ee->public_message, "%s", why);
    return code;
}

/* A strategy name as the bundles write them: printable ASCII without spaces, bounded, so
 * it can go into a log line as it is. */
static bool host_bot_name_ok(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (n >= HOST_BOT_NAME_MAX || (unsigned char)s[n] <= ' ' || (unsigned char)s[n] > '~')
            return false;
    return n > 0;
}

engine_code host_bot_pick(host_match *hm, int seat, const Deckhand__Choose *c, uint32_t *ids,
                          size_t *n, engine_error *ee)
{
    if (!host_bot_name_ok(c->bot))
        return host_bot_refuse(ee, ENGINE_BAD_REQUEST,
                               "bot must be a strategy name of 1..63 printable characters");
    if (c->n_option_ids)
        return host_bot_refuse(ee, ENGINE_BAD_REQUEST, "a bot answer carries no option ids");
    const engine_decision *d = engine_match_decision(hm->m);
    if (!d)
        return host_bot_refuse(ee, ENGINE_ILLEGAL_CHOICE, "no decision is pending");
    if (d->seat != seat)
        return host_bot_refuse(ee, ENGINE_NOT_YOUR_TURN, "the pending decision is another seat's");
    if (d->decision_id != c->decision_id)
        return host_bot_refuse(ee, ENGINE_ILLEGAL_CHOICE, "that decision is not the pending one");
    if (engine_search_strategy(c->bot)) /* the search bot of every game, bounded */
        return host_bot_search(hm, ids, n, NULL, ee);
    return engine_match_bot_answer(hm->m, c->bot, ids, n, ee);
}

engine_code host_bot_search(host_match *hm, uint32_t *ids, size_t *n, bool *searched,
                            engine_error *ee)
{
    engine_search_config sc;
    engine_search_host_config(&sc);
    size_t cap = *n;
    engine_code code = engine_search_answer(hm->m, &sc, ids, n, NULL, ee);
    if (searched)
        *searched = code == ENGINE_OK;
    if (code != ENGINE_SCRIPT_ERROR)
        return code;
    dh_info("match %s: the search found no answer (%s); the default bot answers", hm->id,
            ee->message);
    *n = cap;
    return engine_match_bot_answer(hm->m, NULL, ids, n, ee);
}
