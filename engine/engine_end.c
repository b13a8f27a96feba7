/*
 * engine_end.c: what the end screen shows of a finished match (engine.h, "The end
 * screen"): the rules' own words for how it ended, and each seat's deck.
 *
 * Both come from the game's table, so the words a player reads stay in the scripts: its
 * optional `summary(g)`, called once the results are read, returns a sentence ("The
 * Province pile ran out."); its optional `deck_zones` lists the zones a seat's owned cards
 * lie in (a deck-builder's deck, hand, discard, play...), counted here by card name. A
 * game without them (the board games) gives "" and no deck. The words are kept on the
 * match (not in its state: they are read once, when the host tells the seats the end).
 */
#include <stdlib.h>
#include <string.h>

#include "engine_end.h"

void engine_end_read(lua_State *L, int t, engine_game *g)
{
    lua_getfield(L, t, "deck_zones");
    if (lua_istable(L, -1)) {
        size_t n = (size_t)lua_rawlen(L, -1);
        g->deck_zones = calloc(n ? n : 1, sizeof *g->deck_zones);
        if (!g->deck_zones)
            luaL_error(L, "out of memory");
        for (size_t i = 1; i <= n; i++) {
            if (lua_rawgeti(L, -1, (lua_Integer)i) != LUA_TSTRING)
                luaL_error(L, "game '%s': deck_zones lists zone names", g->name);
            g->deck_zones[g->ndeck_zones] = strdup(lua_tostring(L, -1));
            lua_pop(L, 1);
            if (!g->deck_zones[g->ndeck_zones])
                luaL_error(L, "out of memory");
            g->ndeck_zones++;
        }
    }
    lua_pop(L, 1);
}

void engine_end_free(engine_game *g)
{
    for (size_t i = 0; i < g->ndeck_zones; i++)
        free(g->deck_zones[i]);
    free(g->deck_zones);
    g->deck_zones = NULL;
    g->ndeck_zones = 0;
}

void engine_end_words(lua_State *L, engine_match *m)
{
    m->end_summary[0] = '\0';
    if (m->copy || m->quiet || m->game->summary_ref == LUA_NOREF)
        return;
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->game->summary_ref);
    engine_match_push_g(m, L);
    if (lua_pcall(L, 1, 1, 0) == LUA_OK && lua_type(L, -1) == LUA_TSTRING) {
        size_t len;
        const char *s = lua_tolstring(L, -1, &len);
        len = len < sizeof m->end_summary - 1 ? len : sizeof m->end_summary - 1;
        memcpy(m->end_summary, s, len);
        m->end_summary[len] = '\0';
    }
    lua_pop(L, 1);
}

const char *engine_match_end_summary(const engine_match *m)
{
    return m->st.finished ? m->end_summary : "";
}

static bool end_deck_zone(const engine_game *g, const char *name)
{
    for (size_t i = 0; i < g->ndeck_zones; i++)
        if (!strcmp(g->deck_zones[i], name))
            return true;
    return false;
}

static int end_deck_cmp(const void *a, const void *b)
{
    return strcmp(((const engine_deck_count *)a)->card, ((const engine_deck_count *)b)->card);
}

/* Count one card named name into out (n used of max). */
static void end_deck_add(engine_deck_count *out, size_t *n, size_t max, const char *name)
{
    for (size_t i = 0; i < *n; i++) {
        if (out[i].card == name || !strcmp(out[i].card, name)) {
            out[i].count++;
            return;
        }
    }
    if (*n < max)
        out[(*n)++] = (engine_deck_count){.card = name, .count = 1};
}

size_t engine_match_deck(const engine_match *m, int seat, engine_deck_count *out, size_t max)
{
    const engine_intern *names = &m->b->names;
    size_t n = 0;
    if (seat < 0 || seat >= m->np)
        return 0;
    for (uint32_t zi = 0; zi < m->st.nzones; zi++) {
        const engine_zone *z = &m->st.zones[zi];
        if (z->owner != seat + 1 || !end_deck_zone(m->game, names->v[z->name].s))
            continue;
        for (uint32_t i = 0; i < z->n; i++)
            end_deck_add(out, &n, max, names->v[m->st.ents[z->ids[i] - 1].name].s);
    }
    qsort(out, n, sizeof *out, end_deck_cmp);
    return n;
}
