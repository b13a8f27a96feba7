/*
 * dh_table.h: a string-keyed hash table (separate chaining, doubling): the gateway's maps
 * (player id -> connection, match id -> worker route, endpoint -> dealer, pending
 * matchmaker requests) and the matchmaker's seated players. Keys are copied; values are
 * the caller's.
 */
#ifndef DECKHAND_DH_TABLE_H
#define DECKHAND_DH_TABLE_H

#include <stddef.h>

typedef struct table_entry {
    struct table_entry *next;
    void *val;
    char key[]; /* NUL-terminated copy */
} table_entry;

typedef struct {
    table_entry **buckets;
    size_t nbuckets; /* a power of two */
    size_t count;
} table;

/* Returns 0, or -1 when memory runs out. */
int table_init(table *t);
/* Frees the table and its keys; free_val (may be NULL) is called on every value. */
void table_free(table *t, void (*free_val)(void *));

void *table_get(const table *t, const char *key);
/* Insert or replace. Returns 0, or -1 when memory runs out (the table is unchanged). */
int table_set(table *t, const char *key, void *val);
/* Remove key; returns its value, or NULL when absent. */
void *table_del(table *t, const char *key);

/* Call fn on every entry. fn may delete the entry it is given, and no other. */
void table_each(table *t, void (*fn)(const char *key, void *val, void *arg), void *arg);

#endif
