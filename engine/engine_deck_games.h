/*
 * engine_deck_games.h: C primitives for the deck-builders whose turn is their own (not
 * the kernel's action -> buy -> clean-up), built on the deck kit's helpers
 * (engine_deck.h). Today: the play run, Ascension's "play every card in hand" for the
 * cards whose play only moves them and adds to counters, a turn's start (its counters
 * and its line), and the top cards of zones with their names.
 */
#ifndef ENGINE_DECK_GAMES_H
#define ENGINE_DECK_GAMES_H

#include "engine_internal.h"

/* Registers the g methods deck_run, deck_start and deck_tops into g's method table (the names
 * table as their upvalue) and the module `deckhand.deck_games` (their constructors, run
 * and start) in the bundle's loaded modules; engine_vm_init calls it after
 * engine_api_open, as it does engine_deck_open. */
void engine_deck_games_open(engine_bundle *b, lua_State *L);

#endif
