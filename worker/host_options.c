/*
 * host_options.c: what a StartMatch asks of a match beyond its seats, as the worker keeps
 * it: the game options as the engine's text ("name=value;name=value"), and the bot seats
 * of a bot-filled match (Seat.bot), as the per-seat list match:{ID}.bots holds so that an
 * adopting worker plays them on.
 *
 * The matchmaker has validated the options against what the game declares; the worker
 * checks them again against its own bundle (engine_bundle_check_options), so a StartMatch
 * from a matchmaker that knew another bundle is refused rather than set up wrong.
 */
#include "host_options.h"

#include <stdio.h>
#include <string.h>

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

void host_bots_split(const char *text, int nseats, char bots[][HOST_BOT_MAX], const char **cfg)
{
    const char *p = text ? text : "";
    for (int i = 0; i < nseats; i++) {
        size_t n = strcspn(p, ",");
        snprintf(bots[i], HOST_BOT_MAX, "%.*s", (int)n, p);
        p += n + (p[n] == ',');
        cfg[i] = bots[i][0] ? bots[i] : NULL;
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
        bots[i] = hm->seats[i].bot[0] ? hm->seats[i].bot : NULL;
}
