/*
 * dh_test.h: the tiny harness every CUnit test program shares, so a test file holds only
 * its tests: list them in a dh_test_case array and call dh_test_main from main().
 */
#ifndef DECKHAND_DH_TEST_H
#define DECKHAND_DH_TEST_H

#include <CUnit/CUnit.h>

typedef struct {
    const char *name;
    void (*fn)(void);
} dh_test_case;

/* Runs the cases (terminated by {NULL, NULL}) as one suite with CUnit's basic runner.
 * Returns the process exit code: 0 when every test passed. */
int dh_test_main(const char *suite, const dh_test_case *cases);

/* Path of a file in the source tree, e.g. dh_test_path("scripts"). Static buffer. */
const char *dh_test_path(const char *rel);

#endif
