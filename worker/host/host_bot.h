/*
 * host_bot.h: the answer a player asks the server to give for them (Choose.bot,
 * docs/PROTOCOL.md): "answer this decision of mine as the game's bot STRATEGY would".
 * host.c asks here for the bot's option ids, then applies them like any answer of the
 * player's own (host_apply: the same validation, Reply, persistence and idempotency by
 * cmd_id). Below host.c; it only reads the match.
 */
#ifndef DECKHAND_WORKER_HOST_BOT_H
#define DECKHAND_WORKER_HOST_BOT_H

#include "host_internal.h"

#define HOST_BOT_NAME_MAX 63 /* a strategy name: 1..63 printable ASCII characters, no space */

/* The option ids the game's bot c->bot would answer for seat to decision c->decision_id of
 * hm, into ids (capacity *n; *n becomes their count). Only the requester's own pending
 * decision is answered: ENGINE_NOT_YOUR_TURN when the pending decision is another seat's,
 * ENGINE_ILLEGAL_CHOICE when c->decision_id is not the pending one (or none is pending),
 * both before any script runs; ENGINE_BAD_REQUEST for a bad or unknown strategy name or
 * option ids sent along; ENGINE_SCRIPT_ERROR when the bot failed. The match is unchanged
 * whatever happens (engine_match_bot_answer). */
engine_code host_bot_pick(host_match *hm, int seat, const Deckhand__Choose *c, uint32_t *ids,
                          size_t *n, engine_error *ee);

/* The search bot's answer to hm's pending decision (ENGINE_SEARCH_ITERATIONS play-outs, at
 * most ENGINE_SEARCH_BUDGET_MS), ids and *n as above. A search that cannot finish (a copy's
 * script overran its call deadline: a loaded machine, a sanitized build) falls back to the
 * game's default bot, so the seat still gets an answer; *searched (may be NULL) says which
 * answered. ENGINE_SCRIPT_ERROR only when the default bot fails too. */
engine_code host_bot_search(host_match *hm, uint32_t *ids, size_t *n, bool *searched,
                            engine_error *ee);

#endif
