/*
 * code_index.c: groups by code and by member (see code_index.h).
 */
#include "code_index.h"

#include <string.h>

void code_index_free(code_index *x, void (*free_group)(void *))
{
    if (x->ready) {
        dh_table_free(&x->by_code, free_group);
        dh_table_free(&x->by_player, NULL);
    }
    memset(x, 0, sizeof *x);
}

bool code_index_tables(code_index *x)
{
    if (x->ready)
        return true;
    if (dh_table_init(&x->by_code) < 0)
        return false;
    if (dh_table_init(&x->by_player) < 0) {
        dh_table_free(&x->by_code, NULL);
        return false;
    }
    x->ready = true;
    return true;
}

void *code_index_of(const code_index *x, const char *player_id)
{
    return x->ready && player_id ? dh_table_get(&x->by_player, player_id) : NULL;
}

void *code_index_find(const code_index *x, const char *code)
{
    return x->ready && code ? dh_table_get(&x->by_code, code) : NULL;
}

size_t code_index_count(const code_index *x)
{
    return x->ready ? x->by_code.count : 0;
}
