/*
 * test_lobby.c: lobbies end to end, on a real cluster (scripts/lib/cluster.sh, ports from
 * 24700) with players connected to the gateway like any client (rig_player.c): a private
 * lobby joined by its code, a ready check the host's start must pass (and only the host
 * starts), the match placed with every member (LobbyState with its id, then MatchFound to
 * each); and a public lobby found in the list and joined from it.
 */
#include "dh_client_social.h"
#include "dh_test.h"
#include "rig_cluster.h"
#include "rig_player.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#define PORT_BASE 24700

#define WAIT_UNTIL(ps, n, cond)                                                                    \
    do {                                                                                           \
        long long until_ = pl_now_ms() + WAIT_MS;                                                  \
        while (!(cond) && pl_now_ms() < until_)                                                    \
            pl_pump((ps), (n), 50);                                                                \
    } while (0)

static const Deckhand__LobbyState *lobby_of(const pl_player *p)
{
    return p->lobby ? p->lobby->lobby : NULL;
}

/* Both members ready, then the host h starts: both get the match. */
static void ready_and_start(pl_player *h, pl_player *g)
{
    dh_client_social msg;
    pl_player *ps[2] = {h, g};
    CU_ASSERT_EQUAL(pl_wait_reply(h, pl_send(h, dh_client_social_lobby_ready(&msg, true))), 0);
    CU_ASSERT_EQUAL(pl_wait_reply(g, pl_send(g, dh_client_social_lobby_ready(&msg, true))), 0);
    CU_ASSERT_EQUAL(pl_wait_reply(g, pl_send(g, dh_client_social_lobby_start(&msg))),
                    DECKHAND__ERROR_CODE__BAD_REQUEST); /* only the host */
    CU_ASSERT_EQUAL_FATAL(pl_wait_reply(h, pl_send(h, dh_client_social_lobby_start(&msg))), 0);
    WAIT_UNTIL(ps, 2, h->seat >= 0 && g->seat >= 0 && *lobby_of(g)->match_id);
    CU_ASSERT_TRUE(h->seat >= 0 && g->seat >= 0);
    CU_ASSERT_STRING_EQUAL(h->match_id, g->match_id);
    CU_ASSERT_STRING_EQUAL(lobby_of(g)->match_id, g->match_id);
    CU_ASSERT_TRUE(lobby_of(h)->closed);
}

static void test_lobby_private_joined_by_code_ready_checked_and_started(void)
{
    pl_player *h = pl_login("lp-h"), *g = pl_login("lp-g");
    CU_ASSERT_FATAL(h && g);
    dh_client_social msg;
    CU_ASSERT_EQUAL_FATAL(
        pl_wait_reply(
            h, pl_send(h, dh_client_social_lobby_create(&msg, "dominion", "", 2, false, NULL, 0))),
        0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(lobby_of(h));
    char code[16];
    snprintf(code, sizeof code, "%s", lobby_of(h)->code);
    CU_ASSERT_EQUAL(pl_wait_reply(g, pl_send(g, dh_client_social_lobby_list(&msg, "dominion"))), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g->lobby_list);
    for (size_t i = 0; i < g->lobby_list->lobby_list->n_lobbies; i++) /* private: not listed */
        CU_ASSERT_STRING_NOT_EQUAL(g->lobby_list->lobby_list->lobbies[i]->code, code);
    CU_ASSERT_EQUAL(pl_wait_reply(g, pl_send(g, dh_client_social_lobby_join(&msg, code))), 0);
    pl_player *ps[2] = {h, g};
    WAIT_UNTIL(ps, 2, lobby_of(h)->n_members == 2);
    CU_ASSERT_EQUAL(lobby_of(h)->n_members, 2);
    CU_ASSERT_EQUAL(pl_wait_reply(h, pl_send(h, dh_client_social_lobby_start(&msg))),
                    DECKHAND__ERROR_CODE__BAD_REQUEST); /* nobody is ready yet */
    ready_and_start(h, g);
    pl_drop(h);
    pl_drop(g);
}

static void test_lobby_public_found_in_the_list_and_joined(void)
{
    pl_player *h = pl_login("lq-h"), *g = pl_login("lq-g");
    CU_ASSERT_FATAL(h && g);
    dh_client_social msg;
    CU_ASSERT_EQUAL_FATAL(pl_wait_reply(h, pl_send(h, dh_client_social_lobby_create(
                                                          &msg, "dominion", "", 2, true, NULL, 0))),
                          0);
    CU_ASSERT_EQUAL(pl_wait_reply(g, pl_send(g, dh_client_social_lobby_list(&msg, "dominion"))), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g->lobby_list);
    const Deckhand__LobbyList *ls = g->lobby_list->lobby_list;
    CU_ASSERT_FATAL(ls->n_lobbies >= 1);
    CU_ASSERT_STRING_EQUAL(ls->lobbies[0]->code, lobby_of(h)->code); /* newest first */
    CU_ASSERT_STRING_EQUAL(ls->lobbies[0]->host, "lq-h (guest)");    /* guests are marked */
    char code[16];
    snprintf(code, sizeof code, "%s", ls->lobbies[0]->code);
    CU_ASSERT_EQUAL(pl_wait_reply(g, pl_send(g, dh_client_social_lobby_join(&msg, code))), 0);
    ready_and_start(h, g);
    pl_drop(h);
    pl_drop(g);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"lobby_private_joined_by_code_ready_checked_and_started",
         test_lobby_private_joined_by_code_ready_checked_and_started},
        {"lobby_public_found_in_the_list_and_joined",
         test_lobby_public_found_in_the_list_and_joined},
        {NULL, NULL},
    };
    signal(SIGPIPE, SIG_IGN);
    if (rc_start("lobby", PORT_BASE) != 0)
        return 1;
    return rc_finish(dh_test_main("e2e_lobby", cases));
}
