/*
 * test_script_words.c: when a card script fails on a player's move, the player is told in
 * words and offered the way out (issue 29; worker/host/host_words.c), on a real cluster
 * (ports from 13800) running a Dominion pushed with a broken rule: buying a Curse fails in
 * its script for players whose name starts "sw-" (so the push's own rules tests and bots
 * never meet it). The player who buys a Curse gets SCRIPT_ERROR whose message says the
 * move was not played, nothing changed, to choose again or let the bot answer, and what
 * happens if the rules keep failing, with the error's id; nothing moved (the same
 * decision is still pending); and Choose{bot:"default"} then answers for the player.
 */
#include "dh_test.h"
#include "rig_cluster.h"
#include "rig_player.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PORT_BASE 13800

static char last_error[512]; /* the text of the last error Reply a player got */

static void on_message(pl_player *p, const Deckhand__ServerMessage *m)
{
    (void)p;
    if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY && !m->reply->ok && m->reply->error)
        snprintf(last_error, sizeof last_error, "%s", m->reply->error->message);
}

/* Copy the shipped Dominion into DIR with buying a Curse broken for "sw-" players, and push
 * it as the game's bundle. 0 when the push succeeded. */
static int push_broken(void)
{
    char cmd[4096];
    const char *bin = getenv("DECKHAND_BIN_DIR");
    snprintf(
        cmd, sizeof cmd,
        "set -e; d='%s/broken'; mkdir -p \"$d\"; cp -r '%s/deckbuilder' '%s/dominion' \"$d/\"; "
        "g=\"$d/dominion/game.lua\"; head -n -1 \"$g\" > \"$d/game.lua\"; "
        "cat >> \"$d/game.lua\" <<'LUA'\n"
        "local kernel = require(\"deckbuilder.kernel\")\n"
        "local buy = kernel.buy\n"
        "function kernel.buy(self, g, p, name)\n"
        "  if name == \"Curse\" and g:player_name(p):match(\"^sw%%-\") then\n"
        "    error(\"the new rules break on buying a Curse\")\n"
        "  end\n"
        "  return buy(self, g, p, name)\n"
        "end\n"
        "\n"
        "return game\n"
        "LUA\n"
        "mv \"$d/game.lua\" \"$g\"; set -a; . '%s/cluster.env'; set +a; "
        "'%s/deckhand' scripts push \"$d\" --game dominion --label broken-curse --by test "
        "--reason 'script words' --wait 10 >&2",
        rc_dir(), dh_test_path("scripts"), dh_test_path("scripts"), rc_dir(),
        bin && *bin ? bin : DECKHAND_BIN_DIR);
    return system(cmd) == 0 ? 0 : -1;
}

/* The option of p's pending decision whose label starts with prefix, or 0. */
static uint32_t option(const pl_player *p, const char *prefix)
{
    for (size_t i = 0; p->dec.valid && i < p->dec.nopt; i++)
        if (!strncmp(p->dec.opt_label[i], prefix, strlen(prefix)))
            return p->dec.opt_id[i];
    return 0;
}

static void test_script_failure_told_in_words_and_the_bot_answers(void)
{
    CU_ASSERT_EQUAL_FATAL(push_broken(), 0);
    pl_player *a = pl_login("sw-a"), *b = pl_login("sw-b");
    CU_ASSERT_FATAL(a && b);
    pl_player *ps[2] = {a, b};
    pl_on_message = on_message;
    CU_ASSERT_EQUAL_FATAL(pl_wait_reply(a, pl_send_queue(a, "dominion", 2)), 0);
    CU_ASSERT_EQUAL_FATAL(pl_wait_reply(b, pl_send_queue(b, "dominion", 2)), 0);
    /* play until a seat may buy a Curse */
    pl_player *d = NULL;
    for (int n = 0; n < 200; n++) {
        d = pl_wait_decider(ps, 2);
        CU_ASSERT_FATAL(d != NULL);
        if (option(d, "Buy Curse"))
            break;
        CU_ASSERT_EQUAL_FATAL(pl_bot_answer(d), 0);
    }
    uint32_t curse = option(d, "Buy Curse");
    CU_ASSERT_FATAL(curse != 0);
    uint64_t decision = d->dec.id;
    int rc = pl_wait_reply(d, pl_send_choose(d, d->match_id, decision, &curse, 1, 0));
    fprintf(stderr, "  told: %s\n", last_error);
    CU_ASSERT_EQUAL(rc, DECKHAND__ERROR_CODE__SCRIPT_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(last_error, "Your move could not be played"));
    CU_ASSERT_PTR_NOT_NULL(strstr(last_error, "(error E"));
    CU_ASSERT_PTR_NOT_NULL(strstr(last_error, "Nothing changed."));
    CU_ASSERT_PTR_NOT_NULL(strstr(last_error, "let the bot answer for you"));
    CU_ASSERT_PTR_NOT_NULL(strstr(last_error, "the match is stopped with no winner"));
    CU_ASSERT_PTR_NULL(
        strstr(last_error, "Curse")); /* the script's own words stay with operators */
    CU_ASSERT(rc_log_count("worker-*.log", "the new rules break on buying a Curse", NULL) > 0);
    /* nothing moved: the same decision is still the player's, and the bot answers it */
    pl_resync(d);
    CU_ASSERT_TRUE(d->dec.valid);
    CU_ASSERT_EQUAL(d->dec.id, decision);
    CU_ASSERT_EQUAL(pl_game_bot_answer(d, "default"), 0);
    long long until = pl_now_ms() + WAIT_MS;
    while ((!pl_decider(ps, 2) || pl_decider(ps, 2)->dec.id == decision) && pl_now_ms() < until)
        pl_pump(ps, 2, 20);
    CU_ASSERT_PTR_NOT_NULL(pl_decider(ps, 2));
    pl_on_message = NULL;
    pl_end_match(a, b);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"script_failure_told_in_words_and_the_bot_answers",
         test_script_failure_told_in_words_and_the_bot_answers},
        {NULL, NULL},
    };
    signal(SIGPIPE, SIG_IGN);
    if (rc_start("script-words", PORT_BASE) != 0)
        return 1;
    return rc_finish(dh_test_main("e2e_script_words", cases));
}
