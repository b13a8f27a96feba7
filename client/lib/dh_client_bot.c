/*
 * dh_client_bot.c: see dh_client_bot.h.
 *
 * The buy priority is Big Money's (Province, then Gold, then Silver, else nothing), which
 * finishes Dominion games in a bounded number of turns whatever the kingdom. Actions are
 * played in the order offered: the bot is a load generator, not a strong player.
 */
#include "dh_client_bot.h"

#include <stdbool.h>
#include <string.h>

static bool has_prefix(const char *s, const char *prefix)
{
    return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The first option whose label equals label, or NULL. */
static const Deckhand__Option *find_label(const Deckhand__DecisionRequest *d, const char *label)
{
    for (size_t i = 0; i < d->n_options; i++)
        if (d->options[i]->label && !strcmp(d->options[i]->label, label))
            return d->options[i];
    return NULL;
}

static const Deckhand__Option *find_prefix(const Deckhand__DecisionRequest *d, const char *prefix)
{
    for (size_t i = 0; i < d->n_options; i++)
        if (has_prefix(d->options[i]->label, prefix))
            return d->options[i];
    return NULL;
}

/* A buy option for card: option.card names it, or failing that the label does. */
static const Deckhand__Option *find_buy(const Deckhand__DecisionRequest *d, const char *card)
{
    size_t cl = strlen(card);
    for (size_t i = 0; i < d->n_options; i++) {
        const Deckhand__Option *o = d->options[i];
        if (!has_prefix(o->label, "Buy "))
            continue;
        if (o->card && *o->card ? !strcmp(o->card, card)
                                : !strncmp(o->label + 4, card, cl) && o->label[4 + cl] == ' ')
            return o;
    }
    return NULL;
}

/* The first `want` options, clamped to what the decision allows. */
static size_t first_options(const Deckhand__DecisionRequest *d, size_t want, uint32_t *ids,
                            size_t max)
{
    if (want > d->max)
        want = d->max;
    if (want > d->n_options)
        want = d->n_options;
    if (want > max)
        want = max;
    for (size_t i = 0; i < want; i++)
        ids[i] = d->options[i]->id;
    return want;
}

static size_t one(const Deckhand__Option *o, uint32_t *ids, size_t max)
{
    if (max == 0)
        return 0;
    ids[0] = o->id;
    return 1;
}

size_t dh_client_bot_choose(const Deckhand__DecisionRequest *d, uint32_t *ids, size_t max)
{
    const char *kind = d->kind ? d->kind : "";
    const Deckhand__Option *o = NULL;
    /* A single pick must be allowed (max >= 1) and may replace the `min` first options
     * only when min <= 1. */
    bool single = d->max >= 1 && d->min <= 1;
    if (single && !strcmp(kind, "action")) {
        o = find_prefix(d, "Play ");
        if (!o)
            o = find_label(d, "End actions");
    } else if (single && !strcmp(kind, "buy")) {
        static const char *const priority[] = {"Province", "Gold", "Silver"};
        o = find_label(d, "Play all treasures");
        for (size_t i = 0; !o && i < sizeof priority / sizeof *priority; i++)
            o = find_buy(d, priority[i]);
        if (!o)
            o = find_label(d, "End turn");
    } else if (single && !strcmp(kind, "reveal") && d->n_options > 0) {
        o = d->options[0];
    }
    if (o)
        return one(o, ids, max);
    return first_options(d, d->min, ids, max);
}
