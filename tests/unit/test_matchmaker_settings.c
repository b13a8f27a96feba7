/*
 * test_matchmaker_settings.c: per-queue match settings (matchmaker/data/settings.c): the flag
 * defaults, the --queues file that overrides them per (game, mode), and its errors.
 */
#include "settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dh_test.h"

static void test_settings_defaults_are_a_minute_of_grace_no_timers_and_a_bot(void)
{
    settings_table t;
    settings_init(&t);
    const settings_values *v = settings_for(&t, "dominion", "");
    CU_ASSERT_EQUAL(v->grace_ms, 60000);
    CU_ASSERT_EQUAL(v->decision_ms, 0);
    CU_ASSERT_EQUAL(v->turn_ms, 0);
    CU_ASSERT_STRING_EQUAL(v->abandon, "bot");
    CU_ASSERT_STRING_EQUAL(v->bot, "default");
    settings_free(&t);
}

static void test_settings_queue_bot_names_the_strategy_of_bot_seats(void)
{
    settings_table t;
    settings_init(&t);
    char err[256] = "";
    CU_ASSERT_EQUAL(
        settings_parse_line(&t, "caveman casual bot=search bot_fill_ms=500", err, sizeof err), 0);
    CU_ASSERT_EQUAL(settings_parse_line(&t, "dominion casual bot=default", err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(settings_for(&t, "caveman", "casual")->bot, "search");
    CU_ASSERT_EQUAL(settings_for(&t, "caveman", "casual")->bot_fill_ms, 500);
    CU_ASSERT_STRING_EQUAL(settings_for(&t, "dominion", "")->bot, "default");
    CU_ASSERT_STRING_EQUAL(settings_for(&t, "accession", "")->bot, "default"); /* the default */
    settings_free(&t);
}

/* The difficulties every game offers (engine.h, ENGINE_EASY_BOT) are queue bots too. */
static void test_settings_queue_bot_may_be_a_difficulty(void)
{
    settings_table t;
    settings_init(&t);
    char err[256] = "";
    static const char *const modes[] = {"easy", "normal", "hard"};
    for (size_t i = 0; i < 3; i++) {
        char line[64];
        snprintf(line, sizeof line, "mlw %s bot=%s bot_fill_ms=1", modes[i], modes[i]);
        CU_ASSERT_EQUAL(settings_parse_line(&t, line, err, sizeof err), 0);
    }
    for (size_t i = 0; i < 3; i++)
        CU_ASSERT_STRING_EQUAL(settings_for(&t, "mlw", modes[i])->bot, modes[i]);
    CU_ASSERT_EQUAL(settings_parse_line(&t, "mlw casual bot=Hard", err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "easy|normal|hard"));
    settings_free(&t);
}

static void test_settings_unknown_queue_bot_is_refused_and_changes_nothing(void)
{
    settings_table t;
    settings_init(&t);
    char err[256] = "";
    CU_ASSERT_EQUAL(settings_parse_line(&t, "caveman casual bot=search", err, sizeof err), 0);
    static const char *const bad[] = {"caveman casual bot=big_money",
                                      "caveman casual bot=", "caveman casual bot=Search",
                                      "caveman casual bot=search2"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = '\0';
        CU_ASSERT_EQUAL(settings_parse_line(&t, bad[i], err, sizeof err), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown bot"));
        CU_ASSERT_PTR_NOT_NULL(strstr(err, "default|search"));
    }
    CU_ASSERT_STRING_EQUAL(settings_for(&t, "caveman", "casual")->bot, "search");
    /* a queues file with one: the load fails, naming the line */
    char path[] = "/tmp/dh-queues-bot-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("dominion casual bot=search\ndominion ranked bot=cheater\n", f);
    fclose(f);
    CU_ASSERT_EQUAL(settings_load(&t, path, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, ":2: unknown bot 'cheater'"));
    unlink(path);
    settings_free(&t);
}

static void test_settings_file_overrides_one_queue_and_keeps_defaults_elsewhere(void)
{
    settings_table t;
    settings_init(&t);
    CU_ASSERT_EQUAL(settings_set(&t.defaults, "grace_ms", "30000"), 0);
    char path[] = "/tmp/dh-queues-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("# queues\n"
          "\n"
          "dominion ranked decision_ms=20000 abandon=forfeit   # strict\n"
          "dominion casual turn_ms=90000\n"
          "dominion casual grace_ms=5000\n",
          f);
    fclose(f);
    char err[256] = "";
    CU_ASSERT_EQUAL(settings_load(&t, path, err, sizeof err), 0);
    unlink(path);
    const settings_values *ranked = settings_for(&t, "dominion", "ranked");
    CU_ASSERT_EQUAL(ranked->grace_ms, 30000);
    CU_ASSERT_EQUAL(ranked->decision_ms, 20000);
    CU_ASSERT_STRING_EQUAL(ranked->abandon, "forfeit");
    /* a later line for the same queue adds to it; an empty mode is casual */
    const settings_values *casual = settings_for(&t, "dominion", "");
    CU_ASSERT_EQUAL(casual->turn_ms, 90000);
    CU_ASSERT_EQUAL(casual->grace_ms, 5000);
    CU_ASSERT_STRING_EQUAL(casual->abandon, "bot");
    const settings_values *other = settings_for(&t, "deckbuilder", "ranked");
    CU_ASSERT_EQUAL(other->grace_ms, 30000);
    CU_ASSERT_EQUAL(other->decision_ms, 0);
    settings_free(&t);
}

static void test_settings_bad_lines_are_refused_with_their_line_number(void)
{
    settings_table t;
    settings_init(&t);
    char err[256];
    CU_ASSERT_EQUAL(settings_parse_line(&t, "dominion", err, sizeof err), -1);
    CU_ASSERT_EQUAL(settings_parse_line(&t, "dominion ranked abandon=quit", err, sizeof err), -1);
    CU_ASSERT_EQUAL(settings_parse_line(&t, "dominion ranked grace_ms=-5", err, sizeof err), -1);
    CU_ASSERT_EQUAL(settings_parse_line(&t, "dominion ranked grace_ms=1x", err, sizeof err), -1);
    CU_ASSERT_EQUAL(settings_parse_line(&t, "dominion ranked colour=red", err, sizeof err), -1);
    CU_ASSERT_EQUAL(settings_parse_line(&t, "dominion ranked grace_ms", err, sizeof err), -1);
    CU_ASSERT_EQUAL(t.n, 0);
    char path[] = "/tmp/dh-queues-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("dominion ranked grace_ms=1\nbroken\n", f);
    fclose(f);
    CU_ASSERT_EQUAL(settings_load(&t, path, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, ":2:"));
    unlink(path);
    CU_ASSERT_EQUAL(settings_load(&t, "/nonexistent/queues", err, sizeof err), -1);
    settings_free(&t);
}

static void test_settings_bot_fill_is_off_by_default_and_set_per_queue(void)
{
    settings_table t;
    settings_init(&t);
    char err[256];
    CU_ASSERT_EQUAL(t.defaults.bot_fill_ms, 0);
    CU_ASSERT_EQUAL(settings_parse_line(&t, "caveman casual bot_fill_ms=30000", err, sizeof err),
                    0);
    CU_ASSERT_EQUAL(settings_for(&t, "caveman", "")->bot_fill_ms, 30000);
    CU_ASSERT_EQUAL(settings_for(&t, "dominion", "")->bot_fill_ms, 0);
    CU_ASSERT_EQUAL(settings_parse_line(&t, "caveman casual bot_fill_ms=soon", err, sizeof err),
                    -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "bot_fill_ms"));
    settings_free(&t);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"test_settings_queue_bot_names_the_strategy_of_bot_seats",
         test_settings_queue_bot_names_the_strategy_of_bot_seats},
        {"test_settings_queue_bot_may_be_a_difficulty",
         test_settings_queue_bot_may_be_a_difficulty},
        {"test_settings_unknown_queue_bot_is_refused_and_changes_nothing",
         test_settings_unknown_queue_bot_is_refused_and_changes_nothing},
        {"settings_defaults_are_a_minute_of_grace_no_timers_and_a_bot",
         test_settings_defaults_are_a_minute_of_grace_no_timers_and_a_bot},
        {"settings_file_overrides_one_queue_and_keeps_defaults_elsewhere",
         test_settings_file_overrides_one_queue_and_keeps_defaults_elsewhere},
        {"settings_bad_lines_are_refused_with_their_line_number",
         test_settings_bad_lines_are_refused_with_their_line_number},
        {"settings_bot_fill_is_off_by_default_and_set_per_queue",
         test_settings_bot_fill_is_off_by_default_and_set_per_queue},
        {NULL, NULL},
    };
    return dh_test_main("matchmaker_settings", cases);
}
