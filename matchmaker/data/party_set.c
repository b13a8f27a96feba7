/*
 * party_set.c: the parties held in memory, as pure data (see party_set.h).
 */
#include "party_set.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void party_set_init(party_set *s)
{
    memset(s, 0, sizeof *s);
    s->max = PARTIES_MAX;
}

void party_set_free(party_set *s)
{
    size_t max = s->max;
    code_index_free(&s->ix, free);
    memset(s, 0, sizeof *s);
    s->max = max;
}

party_group *party_set_of(const party_set *s, const char *player_id)
{
    return code_index_of(&s->ix, player_id);
}

party_group *party_set_find(const party_set *s, const char *code)
{
    return code_index_find(&s->ix, code);
}

size_t party_set_count(const party_set *s)
{
    return code_index_count(&s->ix);
}

member_info *party_set_member(party_group *p, const char *player_id)
{
    return p ? member_find(p->members, p->n, player_id) : NULL;
}

party_status party_set_create(party_set *s, const char *code, const member_info *leader,
                              party_group **out)
{
    if (!code_index_tables(&s->ix))
        return PARTY_NOMEM;
    if (party_set_of(s, leader->player_id) || party_set_find(s, code))
        return PARTY_ALREADY;
    if (party_set_count(s) >= (s->max ? s->max : PARTIES_MAX))
        return PARTY_TOO_MANY;
    party_group *p = calloc(1, sizeof *p);
    if (!p)
        return PARTY_NOMEM;
    snprintf(p->code, sizeof p->code, "%s", code);
    p->members[0] = *leader;
    p->n = 1;
    if (dh_table_set(&s->ix.by_code, p->code, p) < 0)
        goto nomem;
    if (dh_table_set(&s->ix.by_player, leader->player_id, p) < 0) {
        dh_table_del(&s->ix.by_code, p->code);
        goto nomem;
    }
    *out = p;
    return PARTY_OK;
nomem:
    free(p);
    return PARTY_NOMEM;
}

party_status party_set_join(party_set *s, const char *code, const member_info *m, party_group **out)
{
    party_group *p = party_set_find(s, code);
    if (!p)
        return PARTY_NOT_FOUND;
    if (party_set_of(s, m->player_id))
        return PARTY_ALREADY;
    if (p->n >= QUEUE_PARTY_MAX)
        return PARTY_FULL;
    if (dh_table_set(&s->ix.by_player, m->player_id, p) < 0)
        return PARTY_NOMEM;
    p->members[p->n++] = *m;
    *out = p;
    return PARTY_OK;
}

party_status party_set_leave(party_set *s, const char *player_id, party_group **out)
{
    party_group *p = party_set_of(s, player_id);
    *out = NULL;
    if (!p)
        return PARTY_NOT_IN;
    member_info *m = party_set_member(p, player_id);
    dh_table_del(&s->ix.by_player, player_id);
    /* the order stays: the next member leads when the leader goes */
    memmove(m, m + 1, (size_t)(p->members + p->n - (m + 1)) * sizeof *m);
    p->n--;
    if (p->n == 0) {
        dh_table_del(&s->ix.by_code, p->code);
        free(p);
        return PARTY_OK;
    }
    *out = p;
    return PARTY_OK;
}
