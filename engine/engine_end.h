/*
 * engine_end.h: the end screen's data (engine_end.c), private to the engine: read from a
 * game's table when its bundle loads, and the rules' words kept when a match ends.
 */
#ifndef ENGINE_END_H
#define ENGINE_END_H

#include "engine_internal.h"

/* Once the results are read at the match's end, the game's `summary(g)` (if any) into
 * m->end_summary; an error in it leaves the words empty. Not for a search's copy or a
 * quiet match (nobody reads them). */
void engine_end_words(lua_State *L, engine_match *m);
/* The game table's `deck_zones` (a list of zone names) into g (raises when out of memory);
 * engine_end_free gives them back. */
void engine_end_read(lua_State *L, int t, engine_game *g);
void engine_end_free(engine_game *g);

#endif
