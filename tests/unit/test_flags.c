/*
 * test_flags.c: the flag parser every binary and `deckhand` subcommand uses
 * (common/dh_flags.c, getopt_long over a table): values in both spellings, environment
 * and default fallbacks, positionals in order, and every kind of bad usage refused with
 * DH_FLAGS_ERROR (exit 2) instead of being read as something else.
 */
#include "dh_flags.h"

#include <stdlib.h>
#include <string.h>

#include "dh_test.h"

static const dh_flag_spec spec[] = {{"name", DH_FLAG_VALUE},
                                    {"size", DH_FLAG_INT},
                                    {"ws", DH_FLAG_SWITCH},
                                    {"redis", DH_FLAG_VALUE},
                                    {NULL, 0}};

/* Copy a NULL-terminated list into store (getopt_long reorders argv); argc. */
static int fill(char **store, const char *const *args)
{
    int argc = 0;
    for (; args[argc]; argc++)
        store[argc] = (char *)args[argc];
    store[argc] = NULL;
    return argc;
}

static int parse(dh_flags *f, char **store, const char *const *args)
{
    return dh_flags_parse(f, spec, fill(store, args), store, "test", "usage: test\n");
}

static void test_flags_value_in_both_spellings(void)
{
    dh_flags f;
    char *argv[8];
    const char *a[] = {"play", "--name", "ann", "--size=3", NULL};
    CU_ASSERT_EQUAL(parse(&f, argv, a), DH_FLAGS_OK);
    CU_ASSERT_STRING_EQUAL(dh_flags_str(&f, "name", NULL, "x"), "ann");
    CU_ASSERT_EQUAL(dh_flags_int(&f, "size", NULL, 2), 3);
    CU_ASSERT_FALSE(dh_flags_has(&f, "ws"));
    CU_ASSERT_EQUAL(f.npos, 0);
}

static void test_flags_missing_value_is_not_the_next_flag(void)
{
    dh_flags f;
    char *argv[8];
    const char *a[] = {"play", "--name", "--ws", NULL};
    CU_ASSERT_EQUAL(parse(&f, argv, a), DH_FLAGS_ERROR);
    const char *end[] = {"play", "--ws", "--name", NULL};
    CU_ASSERT_EQUAL(parse(&f, argv, end), DH_FLAGS_ERROR);
    /* A value that starts with -- is still possible, written with '='. */
    const char *eq[] = {"play", "--name=--ws", NULL};
    CU_ASSERT_EQUAL(parse(&f, argv, eq), DH_FLAGS_OK);
    CU_ASSERT_STRING_EQUAL(dh_flags_str(&f, "name", NULL, NULL), "--ws");
    CU_ASSERT_FALSE(dh_flags_has(&f, "ws"));
}

static void test_flags_unknown_flag_is_an_error(void)
{
    dh_flags f;
    char *argv[8];
    const char *a[] = {"worker", "--capcity", "3", NULL};
    CU_ASSERT_EQUAL(parse(&f, argv, a), DH_FLAGS_ERROR);
    const char *s[] = {"worker", "-x", NULL};
    CU_ASSERT_EQUAL(parse(&f, argv, s), DH_FLAGS_ERROR);
    const char *sw[] = {"worker", "--ws=yes", NULL};
    CU_ASSERT_EQUAL(parse(&f, argv, sw), DH_FLAGS_ERROR);
}

static void test_flags_integer_flag_must_parse(void)
{
    dh_flags f;
    char *argv[8];
    const char *a[] = {"sim", "--size", "3x", NULL};
    CU_ASSERT_EQUAL(parse(&f, argv, a), DH_FLAGS_ERROR);
    const char *b[] = {"sim", "--size", "-4", NULL};
    CU_ASSERT_EQUAL(parse(&f, argv, b), DH_FLAGS_OK);
    CU_ASSERT_EQUAL(dh_flags_int(&f, "size", NULL, 0), -4);
}

static void test_flags_help_is_not_an_error(void)
{
    dh_flags f;
    char *argv[8];
    const char *a[] = {"sim", "--size", "2", "--help", NULL};
    CU_ASSERT_EQUAL(parse(&f, argv, a), DH_FLAGS_HELP);
    const char *h[] = {"sim", "-h", NULL};
    CU_ASSERT_EQUAL(parse(&f, argv, h), DH_FLAGS_HELP);
}

static void test_flags_positionals_kept_in_order(void)
{
    dh_flags f;
    char *argv[8];
    const char *a[] = {"push", "dir1", "--ws", "dir2", "--name", "n", NULL};
    CU_ASSERT_EQUAL(parse(&f, argv, a), DH_FLAGS_OK);
    CU_ASSERT_EQUAL_FATAL(f.npos, 2);
    CU_ASSERT_STRING_EQUAL(f.pos[0], "dir1");
    CU_ASSERT_STRING_EQUAL(f.pos[1], "dir2");
    CU_ASSERT_TRUE(dh_flags_has(&f, "ws"));
    /* "--" ends the flags: what follows is positional even when it looks like one. */
    const char *dd[] = {"push", "--", "--ws", NULL};
    CU_ASSERT_EQUAL(parse(&f, argv, dd), DH_FLAGS_OK);
    CU_ASSERT_EQUAL_FATAL(f.npos, 1);
    CU_ASSERT_STRING_EQUAL(f.pos[0], "--ws");
    CU_ASSERT_FALSE(dh_flags_has(&f, "ws"));
}

/* For a main(): the exit status, or -1 to go on, with the positionals counted. */
static void test_flags_parse_main_counts_positionals(void)
{
    dh_flags f;
    char *argv[8];
    const char *none[] = {"gw", NULL}, *one[] = {"replay", "m-1", NULL};
    const char *two[] = {"replay", "m-1", "m-2", NULL}, *help[] = {"gw", "--help", NULL};
    const char *bad[] = {"gw", "--nope", NULL};
    const char *const *cases[] = {none, one, two, help, bad};
    const int want[][5] = {{-1, 2, 2, 0, 2}, {2, -1, 2, 0, 2}};
    for (int range = 0; range < 2; range++)
        for (int i = 0; i < 5; i++) {
            int argc = 0;
            for (; cases[i][argc]; argc++)
                argv[argc] = (char *)cases[i][argc];
            argv[argc] = NULL;
            CU_ASSERT_EQUAL(
                dh_flags_parse_main(&f, spec, argc, argv, "test", "usage: test\n", range, range),
                want[range][i]);
        }
}

static void test_flags_flag_then_environment_then_default(void)
{
    dh_flags f;
    char *argv[8];
    const char *none[] = {"gw", NULL};
    setenv("DH_TEST_REDIS", "redis://env", 1);
    CU_ASSERT_EQUAL(parse(&f, argv, none), DH_FLAGS_OK);
    CU_ASSERT_STRING_EQUAL(dh_flags_str(&f, "redis", "DH_TEST_REDIS", "redis://def"),
                           "redis://env");
    CU_ASSERT_STRING_EQUAL(dh_flags_str(&f, "redis", NULL, "redis://def"), "redis://def");
    const char *a[] = {"gw", "--redis", "redis://flag", NULL};
    CU_ASSERT_EQUAL(parse(&f, argv, a), DH_FLAGS_OK);
    CU_ASSERT_STRING_EQUAL(dh_flags_str(&f, "redis", "DH_TEST_REDIS", "redis://def"),
                           "redis://flag");
    setenv("DH_TEST_SIZE", "12x", 1);
    CU_ASSERT_EQUAL(dh_flags_int(&f, "size", "DH_TEST_SIZE", 7), 7); /* bad env: default */
    unsetenv("DH_TEST_REDIS");
    unsetenv("DH_TEST_SIZE");
}

static void test_flags_hostport_splits_and_checks(void)
{
    char host[32];
    int port = 0;
    CU_ASSERT_EQUAL(dh_flags_hostport("127.0.0.1:7000", host, sizeof host, &port), 0);
    CU_ASSERT_STRING_EQUAL(host, "127.0.0.1");
    CU_ASSERT_EQUAL(port, 7000);
    CU_ASSERT_EQUAL(dh_flags_hostport("127.0.0.1:0", host, sizeof host, &port), -1);
    CU_ASSERT_EQUAL(dh_flags_hostport("nohost", host, sizeof host, &port), -1);
    CU_ASSERT_EQUAL(dh_flags_hostport(":80", host, sizeof host, &port), -1);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"flags_value_in_both_spellings", test_flags_value_in_both_spellings},
        {"flags_missing_value_is_not_the_next_flag", test_flags_missing_value_is_not_the_next_flag},
        {"flags_unknown_flag_is_an_error", test_flags_unknown_flag_is_an_error},
        {"flags_integer_flag_must_parse", test_flags_integer_flag_must_parse},
        {"flags_help_is_not_an_error", test_flags_help_is_not_an_error},
        {"flags_positionals_kept_in_order", test_flags_positionals_kept_in_order},
        {"flags_parse_main_counts_positionals", test_flags_parse_main_counts_positionals},
        {"flags_flag_then_environment_then_default", test_flags_flag_then_environment_then_default},
        {"flags_hostport_splits_and_checks", test_flags_hostport_splits_and_checks},
        {NULL, NULL},
    };
    return dh_test_main("flags", cases);
}
