/*
 * dh_client_bot.h: the generic network bot, a pure function from a DecisionRequest to the
 * option ids to answer, used by `deckhand bots --bot local` (and by tests that need a
 * player). By default `deckhand bots` has the server answer with the game's own bot
 * instead (Choose.bot), which plays every game; this one plays Dominion and Accession.
 *
 * It knows no game's rules, only the decision conventions of the rules scripts
 * (docs/SCRIPTING.md): kind "action" offers "Play <Card>" and "End actions"; kind "buy"
 * offers "Play all treasures", "Buy <Card> ($N)" with option.card set, and "End turn";
 * every other kind is answered with its first `min` options ("reveal": the first option).
 * It lives in the dh_client library so the unit tests can link it.
 */
#ifndef DECKHAND_DH_CLIENT_BOT_H
#define DECKHAND_DH_CLIENT_BOT_H

#include <stddef.h>
#include <stdint.h>

#include "deckhand.pb-c.h"

/* Fill ids (capacity max) with the chosen option ids and return how many. The answer is
 * always valid for d: distinct ids of d's options, count within d->min..d->max (as far as
 * the options and max allow). */
size_t dh_client_bot_choose(const Deckhand__DecisionRequest *d, uint32_t *ids, size_t max);

#endif
