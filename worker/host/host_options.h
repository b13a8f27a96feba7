/*
 * host_options.h: a match's game options and bot seats as the worker keeps them (see
 * host_options.c). Below host.c and host_adopt.c; calls nothing of the worker's.
 */
#ifndef DECKHAND_WORKER_HOST_OPTIONS_H
#define DECKHAND_WORKER_HOST_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "internal.pb-c.h"
#include "host_internal.h"

/* StartMatch.options as "name=value;name=value" into out (cap bytes): 0, or -1 when one
 * holds a separator or they do not fit. */
int host_options_text(const Deckhand__Internal__StartMatch *sm, char *out, size_t cap);
/* The seats' bot strategies, comma-separated ("" for a player's seat): 0, or -1 when
 * they do not fit. */
int host_bots_text(const host_match *hm, char *out, size_t cap);
/* The reverse, into bots[0..nseats) (missing entries are players), with cfg[seat] the
 * engine's per-seat bot (NULL for a player). */
void host_bots_split(const char *text, int nseats, char bots[][HOST_BOT_MAX], const char **cfg);
bool host_has_bots(const host_match *hm);
/* A queue's bot (QueueSettings.bot) this worker plays: "" or "default" (the game's
 * default bot), ENGINE_SEARCH_BOT or a difficulty (ENGINE_EASY_BOT, _NORMAL_, _HARD_). */
bool host_queue_bot_ok(const char *name);
/* bots[seat]: the engine's per-seat bot (engine_match_config.bots), NULL for a player and
 * for a seat of the search bot, which the worker plays instead (it cannot run inline). */
void host_bots_config(const host_match *hm, const char **bots);

#endif
