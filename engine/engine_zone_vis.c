/*
 * engine_zone_vis.c: a zone's visibility under the game's `zones` rules (public, owner,
 * top, hidden; an unlisted zone is hidden), by its name and, memoized, by its interned name
 * id. The one rule every reader of a seat's knowledge asks: views (engine_view.c) and the
 * card stats they show (engine_view_stats.c), the search's worlds (engine_search_world.c)
 * and undo's check that nothing hidden was revealed (engine_undo.c).
 */
#include <string.h>

#include "engine_internal.h"

engine_vis engine_zone_vis(const engine_game *g, const char *name)
{
    const char *colon = strchr(name, ':');
    size_t plen = colon ? (size_t)(colon - name) : strlen(name);
    engine_vis prefix = ENGINE_VIS_HIDDEN;
    for (size_t i = 0; i < g->nzones; i++) {
        if (!strcmp(g->zones[i].name, name))
            return g->zones[i].vis;
        if (colon && strlen(g->zones[i].name) == plen && !strncmp(g->zones[i].name, name, plen))
            prefix = g->zones[i].vis;
    }
    return prefix;
}

engine_vis engine_zone_vis_find(const engine_game *g, const engine_intern *in, uint32_t name)
{
    if (!g->vis_memo || name >= ENGINE_MAX_NAMES)
        return engine_zone_vis(g, in->v[name].s);
    if (!g->vis_memo[name]) /* the game's zone rules never change: found once is found */
        g->vis_memo[name] = (uint8_t)(engine_zone_vis(g, in->v[name].s) + 1);
    return (engine_vis)(g->vis_memo[name] - 1);
}
