/* engine_present.h: how a bundle's game tables are read for what players and clients see
 * (its options, its presentation hints and words) and which counters a view shows. Split
 * from engine_internal.h, which every engine file includes, because only these few do. */
#ifndef ENGINE_PRESENT_H
#define ENGINE_PRESENT_H

#include "engine_internal.h"

/* engine_options.c: reads the game table at t's `options` (raising on a bad one) and
 * orders its bots' names; engine_options_free gives back what it made. */
void engine_options_read(lua_State *L, int t, engine_game *g);
void engine_options_free(engine_game *g);
/* v (len bytes) is a value o accepts. */
bool engine_option_value_ok(const engine_option_spec *o, const char *v, size_t len);

/* engine_view_stats.c: whether seat's view shows the counter named by the interned name
 * id: anything but a card's counter `NAME:ID` whose card the seat does not see in play (in
 * a zone it sees the cards of, hinted as neither hand, discard, deck nor hidden). */
bool engine_view_counter_shown(const engine_match *m, uint32_t name, int seat);

/* engine_present.c: reads the game table at t's `presentation` (raising on a bad one,
 * after the zones are read: a hint must name one of them); engine_present_free gives
 * back what it made; engine_present_catalog puts the hints into c (0, or -1 when out of
 * memory: c then holds what was made so far, for engine_catalog_free). */
void engine_present_read(lua_State *L, int t, engine_game *g);
void engine_present_free(engine_game *g);
int engine_present_catalog(const engine_game *g, Deckhand__Catalog *c);
/* engine_present_words.c: the presentation's words (title, summary, deck_builder, counter
 * hints) of the table at p, read by engine_present_read; freed by engine_present_free and
 * put into p by engine_present_catalog (0, or -1 out of memory). text_ok: s is valid UTF-8
 * of at most max bytes without control characters ('\n' allowed when lines). */
void engine_present_words_read(lua_State *L, int p, engine_game *g);
void engine_present_words_free(engine_game *g);
int engine_present_words_catalog(const engine_game *g, Deckhand__Presentation *p);
bool engine_present_text_ok(const char *s, size_t max, bool lines);
/* Every key of the table at t is one of names (a NULL-ended list); raises naming the first
 * that is not, under path ("presentation.zones.hand"). */
void engine_present_keys(lua_State *L, const engine_game *g, int t, const char *path,
                         const char *const *names);

#endif
