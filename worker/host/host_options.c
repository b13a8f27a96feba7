/*
 * host_options.c: what a StartMatch asks of a match beyond its seats, as the worker keeps
 * it: the game options as the engine's text ("name=value;name=value"), and the bot seats
 * of a bot-filled match (Seat.bot), as the per-seat list match:{ID}.bots holds so that an
 * adopting worker plays them on (the engine inline, or the worker for the search bot).
 *
 * The matchmaker has validated the options against what the game declares; the worker
 * checks them again against its own bundle (engine_bundle_check_options), so a StartMatch
 * from a matchmaker that knew another bundle is refused rather than set up wrong.
 */
#include "host_options.h"

#include <stdio.h>
#include <string.h>

#include "dh_keys.h"

int host_options_text(const Deckhand__Internal__StartMatch *sm, char *out, size_t cap)
{
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < sm->n_options; i++) {
        const Deckhand__GameOption *o = sm->options[i];
        if (!o || !o->name || !o->value || strpbrk(o->name, ";=") || strchr(o->value, ';'))
            return -1;
        int n = snprintf(out + at, cap - at, "%s%s=%s", i ? ";" : "", o->name, o->value);
        if (n < 0 || (size_t)n >= cap - at)
            return -1;
        at += (size_t)n;
    }
    return 0;
}

int host_bots_text(const host_match *hm, char *out, size_t cap)
{
    size_t at = 0;
    out[0] = '\0';
    for (int i = 0; i < hm->nseats; i++) {
        int n = snprintf(out + at, cap - at, "%s%s", i ? "," : "", hm->seats[i].bot);
        if (n < 0 || (size_t)n >= cap - at)
            return -1;
        at += (size_t)n;
    }
    return 0;
}

/* The engine plays a bot seat inline, except the search bot's: it copies the match, which
 * an inline bot is in the middle of (engine.h), so the worker asks it between answers. */
static const char *host_inline_bot(const char *name)
{
    return name[0] && !engine_search_strategy(name) ? name : NULL;
}

bool host_queue_bot_ok(const char *name)
{
    static const char *const ok[] = {"default", ENGINE_SEARCH_BOT, ENGINE_EASY_BOT,
                                     ENGINE_NORMAL_BOT, ENGINE_HARD_BOT};
    for (size_t i = 0; name && *name && i < sizeof ok / sizeof *ok; i++)
        if (!strcmp(name, ok[i]))
            return true;
    return !name || !*name;
}

void host_bots_split(const char *text, int nseats, char bots[][HOST_BOT_MAX], const char **cfg)
{
    const char *cursor = text, *item = "";
    size_t len = 0;
    for (int i = 0; i < nseats; i++) {
        if (!dh_list_next(&cursor, &item, &len))
            len = 0; /* past the list's end: a player's seat */
        snprintf(bots[i], HOST_BOT_MAX, "%.*s", (int)len, item);
        cfg[i] = host_inline_bot(bots[i]);
    }
}

bool host_has_bots(const host_match *hm)
{
    for (int i = 0; i < hm->nseats; i++)
        if (hm->seats[i].bot[0])
            return true;
    return false;
}

void host_bots_config(const host_match *hm, const char **bots)
{
    for (int i = 0; i < hm->nseats; i++)
        bots[i] = host_inline_bot(hm->seats[i].bot);
}
