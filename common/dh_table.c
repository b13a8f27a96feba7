/*
 * dh_table.c: see dh_table.h. FNV-1a hashing; the table doubles past two entries per bucket,
 * which keeps lookups short for the tens of thousands of players a gateway may hold.
 */
#include "dh_table.h"

#include "dh_hash.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t dh_table_hash(const char *s)
{
    return dh_fnv1a(DH_FNV_START, s, strlen(s));
}

int dh_table_init(dh_table *t)
{
    t->nbuckets = 64;
    t->count = 0;
    t->buckets = calloc(t->nbuckets, sizeof *t->buckets);
    return t->buckets ? 0 : -1;
}

void dh_table_free(dh_table *t, void (*free_val)(void *))
{
    for (size_t i = 0; t->buckets && i < t->nbuckets; i++) {
        dh_table_entry *e = t->buckets[i];
        while (e) {
            dh_table_entry *next = e->next;
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

static dh_table_entry **dh_table_slot(const dh_table *t, const char *key)
{
    dh_table_entry **p = &t->buckets[dh_table_hash(key) & (t->nbuckets - 1)];
    while (*p && strcmp((*p)->key, key) != 0)
        p = &(*p)->next;
    return p;
}

void *dh_table_get(const dh_table *t, const char *key)
{
    dh_table_entry *e = *dh_table_slot(t, key);
    return e ? e->val : NULL;
}

/* Double the bucket array; on allocation failure the table simply stays denser. */
static void dh_table_grow(dh_table *t)
{
    size_t n = t->nbuckets * 2;
    dh_table_entry **nb = calloc(n, sizeof *nb);
    if (!nb)
        return;
    for (size_t i = 0; i < t->nbuckets; i++) {
        dh_table_entry *e = t->buckets[i];
        while (e) {
            dh_table_entry *next = e->next;
            size_t b = dh_table_hash(e->key) & (n - 1);
            e->next = nb[b];
            nb[b] = e;
            e = next;
        }
    }
    free(t->buckets);
    t->buckets = nb;
    t->nbuckets = n;
}

int dh_table_set(dh_table *t, const char *key, void *val)
{
    dh_table_entry **p = dh_table_slot(t, key);
    if (*p) {
        (*p)->val = val;
        return 0;
    }
    size_t kl = strlen(key);
    dh_table_entry *e = malloc(sizeof *e + kl + 1);
    if (!e)
        return -1;
    memcpy(e->key, key, kl + 1);
    e->val = val;
    e->next = NULL;
    *p = e;
    if (++t->count > t->nbuckets * 2)
        dh_table_grow(t);
    return 0;
}

void *dh_table_del(dh_table *t, const char *key)
{
    dh_table_entry **p = dh_table_slot(t, key);
    dh_table_entry *e = *p;
    if (!e)
        return NULL;
    void *val = e->val;
    *p = e->next;
    free(e);
    t->count--;
    return val;
}

void dh_table_each(dh_table *t, void (*fn)(const char *key, void *val, void *arg), void *arg)
{
    for (size_t i = 0; i < t->nbuckets; i++) {
        dh_table_entry *e = t->buckets[i];
        while (e) {
            dh_table_entry *next = e->next;
            fn(e->key, e->val, arg);
            e = next;
        }
    }
}
