/*
 * group.c: the parties and lobbies held in memory, as pure data (see group.h).
 */
#include "group.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void group_set_init(group_set *s, size_t max)
{
    memset(s, 0, sizeof *s);
    s->max = max;
}

void group_set_free(group_set *s)
{
    size_t max = s->max;
    code_index_free(&s->ix, free);
    group_set_init(s, max);
}

group group_party_spec(const char *code)
{
    group spec;
    memset(&spec, 0, sizeof spec);
    snprintf(spec.code, sizeof spec.code, "%s", code);
    spec.seats = GROUP_MEMBERS_MAX;
    return spec;
}

group *group_set_of(const group_set *s, const char *player_id)
{
    return code_index_of(&s->ix, player_id);
}

group *group_set_find(const group_set *s, const char *code)
{
    return code_index_find(&s->ix, code);
}

size_t group_set_count(const group_set *s)
{
    return code_index_count(&s->ix);
}

member_info *group_set_member(group *g, const char *player_id)
{
    return g ? member_find(g->members, g->n, player_id) : NULL;
}

group_status group_set_create(group_set *s, const group *spec, const member_info *leader,
                              group **out)
{
    if (!code_index_tables(&s->ix))
        return GROUP_NOMEM;
    if (group_set_of(s, leader->player_id) || group_set_find(s, spec->code))
        return GROUP_ALREADY;
    if (group_set_count(s) >= s->max)
        return GROUP_TOO_MANY;
    group *g = malloc(sizeof *g);
    if (!g)
        return GROUP_NOMEM;
    *g = *spec;
    g->members[0] = *leader;
    g->members[0].ready = false;
    g->n = 1;
    if (dh_table_set(&s->ix.by_code, g->code, g) < 0)
        goto nomem;
    if (dh_table_set(&s->ix.by_player, leader->player_id, g) < 0) {
        dh_table_del(&s->ix.by_code, g->code);
        goto nomem;
    }
    g->older = s->newest;
    g->newer = NULL;
    if (s->newest)
        s->newest->newer = g;
    else
        s->oldest = g;
    s->newest = g;
    *out = g;
    return GROUP_OK;
nomem:
    free(g);
    return GROUP_NOMEM;
}

group_status group_set_join(group_set *s, const char *code, const member_info *m, group **out)
{
    group *g = group_set_find(s, code);
    if (!g)
        return GROUP_NOT_FOUND;
    if (group_set_of(s, m->player_id))
        return GROUP_ALREADY;
    if (g->n >= g->seats || g->n >= GROUP_MEMBERS_MAX)
        return GROUP_FULL;
    if (dh_table_set(&s->ix.by_player, m->player_id, g) < 0)
        return GROUP_NOMEM;
    g->members[g->n] = *m;
    g->members[g->n++].ready = false;
    *out = g;
    return GROUP_OK;
}

void group_set_close(group_set *s, group *g)
{
    for (size_t i = 0; i < g->n; i++)
        dh_table_del(&s->ix.by_player, g->members[i].player_id);
    if (g->newer)
        g->newer->older = g->older;
    else
        s->newest = g->older;
    if (g->older)
        g->older->newer = g->newer;
    else
        s->oldest = g->newer;
    dh_table_del(&s->ix.by_code, g->code);
    free(g);
}

group_status group_set_leave(group_set *s, const char *player_id, group **out)
{
    group *g = group_set_of(s, player_id);
    *out = NULL;
    if (!g)
        return GROUP_NOT_IN;
    member_info *m = group_set_member(g, player_id);
    dh_table_del(&s->ix.by_player, player_id);
    /* the order stays: the next member leads when the leader goes */
    memmove(m, m + 1, (size_t)(g->members + g->n - (m + 1)) * sizeof *m);
    if (--g->n == 0) {
        group_set_close(s, g);
        return GROUP_OK;
    }
    *out = g;
    return GROUP_OK;
}

group_status group_set_ready(group_set *s, const char *player_id, bool ready)
{
    member_info *m = group_set_member(group_set_of(s, player_id), player_id);
    if (!m)
        return GROUP_NOT_IN;
    m->ready = ready;
    return GROUP_OK;
}

size_t group_set_list(const group_set *s, const char *game, const group **out, size_t cap)
{
    size_t n = 0;
    for (const group *g = s->newest; g && n < cap; g = g->older)
        if (g->public && g->n < g->seats && (!game || !*game || !strcmp(g->game, game)))
            out[n++] = g;
    return n;
}

const char *group_start_check(const group *g, const char *player_id, uint32_t min_players)
{
    if (strcmp(g->members[0].player_id, player_id))
        return "only the host starts the lobby";
    for (size_t i = 0; i < g->n; i++)
        if (!g->members[i].ready)
            return "not every member is ready";
    if (g->n < min_players)
        return "too few players for the game";
    return NULL;
}
