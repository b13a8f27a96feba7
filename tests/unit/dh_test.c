/*
 * dh_test.c: the shared CUnit runner behind dh_test.h.
 */
#include "dh_test.h"

#include <CUnit/Basic.h>
#include <stdio.h>

int dh_test_main(const char *suite, const dh_test_case *cases)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite s = CU_add_suite(suite, NULL, NULL);
    if (!s)
        goto err;
    for (const dh_test_case *c = cases; c->name; c++)
        if (!CU_add_test(s, c->name, c->fn))
            goto err;
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    unsigned run = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    return (failed == 0 && run > 0) ? 0 : 1;
err:
    fprintf(stderr, "%s: CUnit setup failed: %s\n", suite, CU_get_error_msg());
    CU_cleanup_registry();
    return 2;
}

const char *dh_test_path(const char *rel)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", DECKHAND_SOURCE_DIR, rel);
    return buf;
}
