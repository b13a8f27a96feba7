/*
 * dh_table.h: a string-keyed hash table (separate chaining, doubling): the gateway's maps
 * (player id -> connection, match id -> worker route, endpoint -> dealer, pending
 * matchmaker requests) and the matchmaker's seated players. Keys are copied; values are
 * the caller's.
 */
#ifndef DECKHAND_DH_TABLE_H
#define DECKHAND_DH_TABLE_H

#include <stddef.h>

typedef struct dh_table_entry {
    struct dh_table_entry *next;
    void *val;
    char key[]; /* NUL-terminated copy */
} dh_table_entry;

typedef struct {
    dh_table_entry **buckets;
    size_t nbuckets; /* a power of two */
    size_t count;
} dh_table;

/* Returns 0, or -1 when memory runs out. */
int dh_table_init(dh_table *t);
/* Frees the table and its keys; free_val (may be NULL) is called on every value. */
void dh_table_free(dh_table *t, void (*free_val)(void *));

void *dh_table_get(const dh_table *t, const char *key);
/* Insert or replace. Returns 0, or -1 when memory runs out (the table is unchanged). */
int dh_table_set(dh_table *t, const char *key, void *val);
/* Remove key; returns its value, or NULL when absent. */
void *dh_table_del(dh_table *t, const char *key);

/* Call fn on every entry. fn may delete the entry it is given, and no other. */
void dh_table_each(dh_table *t, void (*fn)(const char *key, void *val, void *arg), void *arg);

#endif
