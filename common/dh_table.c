/*
 * dh_table.c: see dh_table.h. FNV-1a hashing; the table doubles past two entries per bucket,
 * which keeps lookups short for the tens of thousands of players a gateway may hold.
 */
#include "dh_table.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t table_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

int table_init(table *t)
{
    t->nbuckets = 64;
    t->count = 0;
    t->buckets = calloc(t->nbuckets, sizeof *t->buckets);
    return t->buckets ? 0 : -1;
}

void table_free(table *t, void (*free_val)(void *))
{
    for (size_t i = 0; t->buckets && i < t->nbuckets; i++) {
        table_entry *e = t->buckets[i];
        while (e) {
            table_entry *next = e->next;
            if (free_val)
                free_val(e->val);
            free(e);
            e = next;
        }
    }
    free(t->buckets);
    t->buckets = NULL;
    t->nbuckets = t->count = 0;
}

static table_entry **table_slot(const table *t, const char *key)
{
    table_entry **p = &t->buckets[table_hash(key) & (t->nbuckets - 1)];
    while (*p && strcmp((*p)->key, key) != 0)
        p = &(*p)->next;
    return p;
}

void *table_get(const table *t, const char *key)
{
    table_entry *e = *table_slot(t, key);
    return e ? e->val : NULL;
}

/* Double the bucket array; on allocation failure the table simply stays denser. */
static void table_grow(table *t)
{
    size_t n = t->nbuckets * 2;
    table_entry **nb = calloc(n, sizeof *nb);
    if (!nb)
        return;
    for (size_t i = 0; i < t->nbuckets; i++) {
        table_entry *e = t->buckets[i];
        while (e) {
            table_entry *next = e->next;
            size_t b = table_hash(e->key) & (n - 1);
            e->next = nb[b];
            nb[b] = e;
            e = next;
        }
    }
    free(t->buckets);
    t->buckets = nb;
    t->nbuckets = n;
}

int table_set(table *t, const char *key, void *val)
{
    table_entry **p = table_slot(t, key);
    if (*p) {
        (*p)->val = val;
        return 0;
    }
    size_t kl = strlen(key);
    table_entry *e = malloc(sizeof *e + kl + 1);
    if (!e)
        return -1;
    memcpy(e->key, key, kl + 1);
    e->val = val;
    e->next = NULL;
    *p = e;
    if (++t->count > t->nbuckets * 2)
        table_grow(t);
    return 0;
}

void *table_del(table *t, const char *key)
{
    table_entry **p = table_slot(t, key);
    table_entry *e = *p;
    if (!e)
        return NULL;
    void *val = e->val;
    *p = e->next;
    free(e);
    t->count--;
    return val;
}

void table_each(table *t, void (*fn)(const char *key, void *val, void *arg), void *arg)
{
    for (size_t i = 0; i < t->nbuckets; i++) {
        table_entry *e = t->buckets[i];
        while (e) {
            table_entry *next = e->next;
            fn(e->key, e->val, arg);
            e = next;
        }
    }
}
