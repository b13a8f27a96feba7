/*
 * lobby_set.c: the lobbies held in memory, as pure data (see lobby_set.h).
 */
#include "lobby_set.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lobby_set_init(lobby_set *s)
{
    memset(s, 0, sizeof *s);
    s->max = LOBBIES_MAX;
}

void lobby_set_free(lobby_set *s)
{
    size_t max = s->max;
    code_index_free(&s->ix, free);
    memset(s, 0, sizeof *s);
    s->max = max;
}

lobby *lobby_set_of(const lobby_set *s, const char *player_id)
{
    return code_index_of(&s->ix, player_id);
}

lobby *lobby_set_find(const lobby_set *s, const char *code)
{
    return code_index_find(&s->ix, code);
}

size_t lobby_set_count(const lobby_set *s)
{
    return code_index_count(&s->ix);
}

member_info *lobby_set_member(lobby *l, const char *player_id)
{
    return l ? member_find(l->members, l->n, player_id) : NULL;
}

lobby_status lobby_set_create(lobby_set *s, const lobby *spec, const member_info *host, lobby **out)
{
    if (!code_index_tables(&s->ix))
        return LOBBY_NOMEM;
    if (lobby_set_of(s, host->player_id) || lobby_set_find(s, spec->code))
        return LOBBY_ALREADY;
    if (lobby_set_count(s) >= (s->max ? s->max : LOBBIES_MAX))
        return LOBBY_TOO_MANY;
    lobby *l = malloc(sizeof *l);
    if (!l)
        return LOBBY_NOMEM;
    *l = *spec;
    l->members[0] = *host;
    l->members[0].ready = false;
    l->n = 1;
    if (dh_table_set(&s->ix.by_code, l->code, l) < 0)
        goto nomem;
    if (dh_table_set(&s->ix.by_player, host->player_id, l) < 0) {
        dh_table_del(&s->ix.by_code, l->code);
        goto nomem;
    }
    l->older = s->newest;
    l->newer = NULL;
    if (s->newest)
        s->newest->newer = l;
    else
        s->oldest = l;
    s->newest = l;
    *out = l;
    return LOBBY_OK;
nomem:
    free(l);
    return LOBBY_NOMEM;
}

lobby_status lobby_set_join(lobby_set *s, const char *code, const member_info *m, lobby **out)
{
    lobby *l = lobby_set_find(s, code);
    if (!l)
        return LOBBY_NOT_FOUND;
    if (lobby_set_of(s, m->player_id))
        return LOBBY_ALREADY;
    if (l->n >= l->seats || l->n >= LOBBY_SEATS_MAX)
        return LOBBY_FULL;
    if (dh_table_set(&s->ix.by_player, m->player_id, l) < 0)
        return LOBBY_NOMEM;
    l->members[l->n] = *m;
    l->members[l->n++].ready = false;
    *out = l;
    return LOBBY_OK;
}

void lobby_set_close(lobby_set *s, lobby *l)
{
    for (size_t i = 0; i < l->n; i++)
        dh_table_del(&s->ix.by_player, l->members[i].player_id);
    if (l->newer)
        l->newer->older = l->older;
    else
        s->newest = l->older;
    if (l->older)
        l->older->newer = l->newer;
    else
        s->oldest = l->newer;
    dh_table_del(&s->ix.by_code, l->code);
    free(l);
}

lobby_status lobby_set_leave(lobby_set *s, const char *player_id, lobby **out)
{
    lobby *l = lobby_set_of(s, player_id);
    *out = NULL;
    if (!l)
        return LOBBY_NOT_IN;
    member_info *m = lobby_set_member(l, player_id);
    dh_table_del(&s->ix.by_player, player_id);
    /* the order stays: the next member hosts when the host goes */
    memmove(m, m + 1, (size_t)(l->members + l->n - (m + 1)) * sizeof *m);
    if (--l->n == 0) {
        lobby_set_close(s, l);
        return LOBBY_OK;
    }
    *out = l;
    return LOBBY_OK;
}

lobby_status lobby_set_ready(lobby_set *s, const char *player_id, bool ready)
{
    member_info *m = lobby_set_member(lobby_set_of(s, player_id), player_id);
    if (!m)
        return LOBBY_NOT_IN;
    m->ready = ready;
    return LOBBY_OK;
}

size_t lobby_set_list(const lobby_set *s, const char *game, const lobby **out, size_t cap)
{
    size_t n = 0;
    for (const lobby *l = s->newest; l && n < cap; l = l->older)
        if (l->public && l->n < l->seats && (!game || !*game || !strcmp(l->game, game)))
            out[n++] = l;
    return n;
}

const char *lobby_set_start_check(const lobby *l, const char *player_id, uint32_t min_players)
{
    if (strcmp(l->members[0].player_id, player_id))
        return "only the host starts the lobby";
    for (size_t i = 0; i < l->n; i++)
        if (!l->members[i].ready)
            return "not every member is ready";
    if (l->n < min_players)
        return "too few players for the game";
    return NULL;
}
