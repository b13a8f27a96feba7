/*
 * code_index.h: groups of players found by their code and by a member's player id: what
 * parties and lobbies (group.h) are indexed by. The tables are made at first use, so an
 * empty index costs nothing. A leaf: it knows no group type (the
 * values are the caller's pointers).
 */
#ifndef DECKHAND_MM_CODE_INDEX_H
#define DECKHAND_MM_CODE_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "dh_table.h"

typedef struct {
    dh_table by_code;   /* code -> group (owned by the index once added) */
    dh_table by_player; /* player id -> the group the player is in */
    bool ready;         /* the tables are made */
} code_index;

/* Free the groups with free_group (by code) and the tables; the index is empty again. */
void code_index_free(code_index *x, void (*free_group)(void *));
/* Make the tables if not made yet. False when memory ran out. */
bool code_index_tables(code_index *x);
/* The group the player is in, the group with the code, NULL for none (or NULL asked). */
void *code_index_of(const code_index *x, const char *player_id);
void *code_index_find(const code_index *x, const char *code);
/* Groups indexed. */
size_t code_index_count(const code_index *x);

#endif
