/*
 * test_table.c: the string-keyed hash table (common/dh_table.h) that holds the gateway's
 * players, routes and requests in flight and the matchmaker's seated players.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_table.h"
#include "dh_test.h"

static void test_table_set_get_replace_delete(void)
{
    dh_table t;
    int a = 1, b = 2;
    CU_ASSERT_EQUAL_FATAL(dh_table_init(&t), 0);
    CU_ASSERT_PTR_NULL(dh_table_get(&t, "x"));
    CU_ASSERT_EQUAL(dh_table_set(&t, "x", &a), 0);
    CU_ASSERT_PTR_EQUAL(dh_table_get(&t, "x"), &a);
    CU_ASSERT_EQUAL(dh_table_set(&t, "x", &b), 0);
    CU_ASSERT_PTR_EQUAL(dh_table_get(&t, "x"), &b);
    CU_ASSERT_EQUAL(t.count, 1);
    CU_ASSERT_PTR_EQUAL(dh_table_del(&t, "x"), &b);
    CU_ASSERT_PTR_NULL(dh_table_del(&t, "x"));
    CU_ASSERT_EQUAL(t.count, 0);
    dh_table_free(&t, NULL);
}

static void test_table_grows_and_keeps_every_key(void)
{
    dh_table t;
    char key[32];
    CU_ASSERT_EQUAL_FATAL(dh_table_init(&t), 0);
    for (long i = 0; i < 20000; i++) {
        snprintf(key, sizeof key, "p-%ld", i);
        CU_ASSERT_EQUAL_FATAL(dh_table_set(&t, key, (void *)(i + 1)), 0);
    }
    CU_ASSERT(t.nbuckets >= 20000 / 2);
    for (long i = 0; i < 20000; i++) {
        snprintf(key, sizeof key, "p-%ld", i);
        CU_ASSERT_PTR_EQUAL_FATAL(dh_table_get(&t, key), (void *)(i + 1));
    }
    dh_table_free(&t, NULL);
}

static void delete_odd(const char *key, void *val, void *arg)
{
    dh_table *t = arg;
    if ((long)val % 2)
        dh_table_del(t, key);
}

static void test_table_each_may_delete_current(void)
{
    dh_table t;
    char key[32];
    CU_ASSERT_EQUAL_FATAL(dh_table_init(&t), 0);
    for (long i = 1; i <= 1000; i++) {
        snprintf(key, sizeof key, "k%ld", i);
        dh_table_set(&t, key, (void *)i);
    }
    dh_table_each(&t, delete_odd, &t);
    CU_ASSERT_EQUAL(t.count, 500);
    CU_ASSERT_PTR_NULL(dh_table_get(&t, "k1"));
    CU_ASSERT_PTR_EQUAL(dh_table_get(&t, "k2"), (void *)2);
    dh_table_free(&t, NULL);
}

static int freed;
static void count_free(void *p)
{
    freed++;
    free(p);
}

static void test_table_free_frees_values(void)
{
    dh_table t;
    CU_ASSERT_EQUAL_FATAL(dh_table_init(&t), 0);
    dh_table_set(&t, "a", malloc(8));
    dh_table_set(&t, "b", malloc(8));
    freed = 0;
    dh_table_free(&t, count_free);
    CU_ASSERT_EQUAL(freed, 2);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"table_set_get_replace_delete", test_table_set_get_replace_delete},
        {"table_grows_and_keeps_every_key", test_table_grows_and_keeps_every_key},
        {"table_each_may_delete_current", test_table_each_may_delete_current},
        {"table_free_frees_values", test_table_free_frees_values},
        {NULL, NULL},
    };
    return dh_test_main("gateway_table", cases);
}
