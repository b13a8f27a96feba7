/*
 * engine_view_stats.c: which of a card's own counters a seat's View shows.
 *
 * The board games publish a piece's statuses as counters `NAME:ID` (boardkit/status.lua:
 * attack, health, keywords), which a client draws on the card. When the piece leaves
 * play they are set to 0, not removed (the match state keeps every counter it ever had,
 * and old recordings replay through the same C), so a card in a graveyard showed
 * "Attack 0 Health 0 Max Health 0" (issue 29). A View therefore lists a card's counter
 * only while the seat sees that card in play: in a zone whose cards it may see, which
 * the game's presentation does not call hand, discard, deck or hidden. This is a rule of
 * the View alone: the state, its hash and replays are unchanged. It also shows a seat no
 * statuses of a card it cannot see (one returned to a hand, a deck), which it did before.
 *
 * A counter is a card's when its name ends in `:N`, N an entity of the match.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "engine_present.h"

static const char *const out_kinds[] = {"hand", "discard", "deck", "hidden"};

/* The hint covering zone name (its exact name, else its name before the first ':'). */
static const engine_zone_hint *hint_of(const engine_game *g, const char *name)
{
    const char *colon = strchr(name, ':');
    size_t plen = colon ? (size_t)(colon - name) : strlen(name);
    const engine_zone_hint *prefix = NULL;
    for (size_t i = 0; i < g->nhints; i++) {
        if (!strcmp(g->hints[i].zone, name))
            return &g->hints[i];
        if (colon && strlen(g->hints[i].zone) == plen && !strncmp(g->hints[i].zone, name, plen))
            prefix = &g->hints[i];
    }
    return prefix;
}

/* Zone name id is in play by the game's hints (an unhinted zone is). */
static bool in_play(const engine_game *g, const engine_intern *in, uint32_t name)
{
    if (name < ENGINE_MAX_NAMES && g->play_memo && g->play_memo[name])
        return g->play_memo[name] == 1;
    const engine_zone_hint *h = hint_of(g, in->v[name].s);
    bool play = true;
    for (size_t i = 0; h && i < sizeof out_kinds / sizeof *out_kinds; i++)
        play = play && strcmp(h->kind, out_kinds[i]);
    if (name < ENGINE_MAX_NAMES && g->play_memo) /* the hints never change: found once */
        g->play_memo[name] = play ? 1 : 2;
    return play;
}

/* The number a card's counter name ends with (`attack:57`: 57), or 0. */
static uint32_t counter_suffix(const char *name)
{
    const char *colon = strrchr(name, ':');
    if (!colon || !colon[1] || strlen(colon + 1) > 9)
        return 0;
    uint32_t id = 0;
    for (const char *p = colon + 1; *p; p++) {
        if (*p < '0' || *p > '9')
            return 0;
        id = id * 10 + (uint32_t)(*p - '0');
    }
    return id;
}

/* The entity of m the counter name id is a card's counter of, or 0. Whether a name ends in
 * a number is the name's alone: found once per game and name (g->card_memo), so the
 * counters that are no card's (all of a deck builder's) cost no string walk per View. */
static uint32_t counter_entity(const engine_match *m, uint32_t name)
{
    uint8_t *memo = name < ENGINE_MAX_NAMES ? m->game->card_memo : NULL;
    if (memo && memo[name] == 1)
        return 0;
    uint32_t id = counter_suffix(m->b->names.v[name].s);
    if (memo)
        memo[name] = id ? 2 : 1;
    return id >= 1 && id <= m->st.nents ? id : 0;
}

bool engine_view_counter_shown(const engine_match *m, uint32_t name, int seat)
{
    uint32_t id = counter_entity(m, name);
    if (!id)
        return true;
    const engine_zone *z = &m->st.zones[m->st.ents[id - 1].zone];
    engine_vis vis = engine_zone_vis_id(m->game, &m->b->names, z->name);
    bool seen = vis == ENGINE_VIS_PUBLIC ||
                (vis == ENGINE_VIS_OWNER && seat >= 0 && z->owner == seat + 1) ||
                (vis == ENGINE_VIS_TOP && z->n && z->ids[z->n - 1] == id);
    return seen && in_play(m->game, &m->b->names, z->name);
}
