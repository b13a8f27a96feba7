/*
 * seated.c: players seated in running matches (see seated.h). The players table owns
 * the copies; the matches table maps a match to a list of its players' ids (a
 * NUL-separated, double-NUL-terminated string), so that ending or moving a match touches
 * its own players only.
 */
#include "seated.h"

#include <stdlib.h>
#include <string.h>

#include "internal.pb-c.h"

static void seated_free_assigned(void *v)
{
    deckhand__internal__match_assigned__free_unpacked(v, NULL);
}

int seated_init(seated_list *l)
{
    memset(l, 0, sizeof *l);
    if (dh_table_init(&l->players) < 0)
        return -1;
    if (dh_table_init(&l->matches) < 0) {
        dh_table_free(&l->players, NULL);
        return -1;
    }
    return 0;
}

void seated_free(seated_list *l)
{
    dh_table_free(&l->players, seated_free_assigned);
    dh_table_free(&l->matches, free);
    memset(l, 0, sizeof *l);
}

/* Add player_id to match_id's list of ids. 0, or -1 out of memory. */
static int seated_list_add(seated_list *l, const char *match_id, const char *player_id)
{
    char *ids = dh_table_get(&l->matches, match_id);
    size_t used = 0;
    if (ids) {
        for (const char *p = ids; *p; p += strlen(p) + 1)
            if (!strcmp(p, player_id))
                return 0;
        while (ids[used])
            used += strlen(ids + used) + 1;
    }
    size_t add = strlen(player_id) + 1;
    char *grown = realloc(ids, used + add + 1);
    if (!grown)
        return -1;
    memcpy(grown + used, player_id, add);
    grown[used + add] = '\0';
    /* replacing an existing key's value allocates nothing and cannot fail */
    if (dh_table_set(&l->matches, match_id, grown) < 0) {
        free(grown);
        return -1;
    }
    return 0;
}

/* A string field of a copy: a heap copy (free_unpacked frees it), or the empty default. */
static bool seated_copy_str(char **field, const char *value)
{
    if (!value || !*value)
        return true; /* left at protobuf_c_empty_string, which free_unpacked skips */
    *field = strdup(value);
    if (!*field) {
        *field = (char *)protobuf_c_empty_string;
        return false;
    }
    return true;
}

/* A deep copy of ma, field by field (issue 27: pb_copy's pack and unpack cost 5,000
 * instructions a player), freed by deckhand__internal__match_assigned__free_unpacked as
 * an unpacked one; NULL when memory ran out. ma comes from placement.c, without unknown
 * fields. A field added to MatchAssigned must be copied here too: the unit test
 * seated_copy_keeps_every_field_the_message_has fills every field the descriptor has. */
static Deckhand__Internal__MatchAssigned *seated_copy(const Deckhand__Internal__MatchAssigned *ma)
{
    Deckhand__Internal__MatchAssigned *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    deckhand__internal__match_assigned__init(c);
    c->seat = ma->seat;
    bool ok = seated_copy_str(&c->player_id, ma->player_id) &&
              seated_copy_str(&c->match_id, ma->match_id) && seated_copy_str(&c->game, ma->game) &&
              seated_copy_str(&c->worker_id, ma->worker_id) &&
              seated_copy_str(&c->worker_endpoint, ma->worker_endpoint);
    if (ok && ma->n_players) {
        c->players = calloc(ma->n_players, sizeof *c->players);
        ok = c->players != NULL;
        for (size_t i = 0; ok && i < ma->n_players; i++) {
            c->players[i] = strdup(ma->players[i] ? ma->players[i] : "");
            ok = c->players[i] != NULL;
            c->n_players += ok;
        }
    }
    if (!ok) {
        seated_free_assigned(c);
        return NULL;
    }
    return c;
}

int seated_add(seated_list *l, const Deckhand__Internal__MatchAssigned *ma)
{
    if (!ma->player_id || !ma->match_id || !ma->player_id[0] || !ma->match_id[0])
        return -1;
    Deckhand__Internal__MatchAssigned *copy = seated_copy(ma);
    if (!copy)
        return -1;
    if (seated_list_add(l, ma->match_id, ma->player_id) < 0) {
        seated_free_assigned(copy);
        return -1;
    }
    Deckhand__Internal__MatchAssigned *old = dh_table_get(&l->players, ma->player_id);
    if (dh_table_set(&l->players, ma->player_id, copy) < 0) {
        seated_free_assigned(copy);
        return -1;
    }
    if (old)
        seated_free_assigned(old);
    return 0;
}

const Deckhand__Internal__MatchAssigned *seated_find(const seated_list *l, const char *player_id)
{
    return dh_table_get(&l->players, player_id);
}

bool seated_leave(seated_list *l, const char *player_id, const char *match_id)
{
    Deckhand__Internal__MatchAssigned *a = dh_table_get(&l->players, player_id);
    if (!a || strcmp(a->match_id, match_id) != 0)
        return false;
    /* match_id's list keeps the id: seated_end skips a player no longer seated there */
    seated_free_assigned(dh_table_del(&l->players, player_id));
    return true;
}

size_t seated_end(seated_list *l, const char *match_id)
{
    /* match_id may be an entry's own string, which this frees: work on a copy */
    char *mid = strdup(match_id);
    if (!mid)
        return 0;
    char *ids = dh_table_del(&l->matches, mid);
    size_t gone = 0;
    for (const char *p = ids; p && *p; p += strlen(p) + 1) {
        Deckhand__Internal__MatchAssigned *a = dh_table_get(&l->players, p);
        if (a && !strcmp(a->match_id, mid)) { /* not since seated elsewhere */
            seated_free_assigned(dh_table_del(&l->players, p));
            gone++;
        }
    }
    free(ids);
    free(mid);
    return gone;
}

/* Replace an unpacked message's string field the way free_unpacked will free it. */
static void seated_set_str(char **field, const char *value)
{
    char *copy = strdup(value ? value : "");
    if (!copy)
        return; /* keeps the old worker: a resync finds the new one in Redis */
    if (*field != protobuf_c_empty_string)
        free(*field);
    *field = copy;
}

void seated_moved(seated_list *l, const char *match_id, const char *worker_id, const char *endpoint)
{
    const char *ids = dh_table_get(&l->matches, match_id);
    for (const char *p = ids; p && *p; p += strlen(p) + 1) {
        Deckhand__Internal__MatchAssigned *a = dh_table_get(&l->players, p);
        if (!a || strcmp(a->match_id, match_id))
            continue;
        seated_set_str(&a->worker_id, worker_id);
        seated_set_str(&a->worker_endpoint, endpoint);
    }
}
