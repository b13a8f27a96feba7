/*
 * test_gateway_token_rotation.c: rotating the token key on the real deckhand-gateway
 * binary (gateway/main.c flags over common/dh_token.h's ring). A gateway started with a new
 * --token-key and the old one as --token-key-previous resumes a player holding a token of
 * the old key and hands out one of the new key; once --token-key-previous-until has
 * passed, the old token is refused as "token key retired".
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rig_gateway.h"

#define NEW_KEY "the-new-token-key-0123456789"

/* A gateway on rg.gw2_port whose ring is NEW_KEY, then RG_TOKEN_KEY until until. */
static pid_t rotated_gateway(long until)
{
    char until_s[32];
    snprintf(until_s, sizeof until_s, "%ld", until);
    const char *const extra[] = {"--token-key-previous", RG_TOKEN_KEY, "--token-key-previous-until",
                                 until_s, NULL};
    pid_t p = rg_start_gateway2_with("gw-rotated", "none", NEW_KEY, extra);
    if (p < 0)
        CU_FAIL_FATAL("the rotated gateway did not start");
    return p;
}

static void stop(pid_t p)
{
    kill(p, SIGTERM);
    waitpid(p, NULL, 0);
}

/* A token the gateways signed before the rotation (with the rig's key). */
static void old_token(char *tok)
{
    CU_ASSERT_EQUAL_FATAL(dh_token_sign((const uint8_t *)RG_TOKEN_KEY, strlen(RG_TOKEN_KEY),
                                        "p-rotated", "alice", time(NULL) + 3600, tok, DH_TOKEN_MAX),
                          0);
}

static void test_gateway_resumes_old_token_within_window(void)
{
    char tok[DH_TOKEN_MAX];
    old_token(tok);
    pid_t gw = rotated_gateway((long)time(NULL) + 3600);
    rg_client *c = rg_open_port(rg.gw2_port);
    rg_send_hello(c, 1, NULL, tok);
    Deckhand__ServerMessage *m = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, 5000, &m), 1);
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__SERVER_MESSAGE__BODY_WELCOME);
    CU_ASSERT_STRING_EQUAL(m->welcome->player_id, "p-rotated");
    /* the new token names the new key and verifies with it alone */
    dh_token_ring fresh;
    dh_token_claims claims;
    char kid[DH_TOKEN_KID_MAX];
    CU_ASSERT_EQUAL_FATAL(dh_token_ring_init(&fresh, (const uint8_t *)NEW_KEY, strlen(NEW_KEY)), 0);
    CU_ASSERT_EQUAL(dh_token_key_id_of(m->welcome->token, kid, sizeof kid), 0);
    CU_ASSERT_STRING_EQUAL(kid, fresh.current.id);
    CU_ASSERT_EQUAL(dh_token_ring_verify(&fresh, m->welcome->token, time(NULL), &claims),
                    DH_TOKEN_OK);
    deckhand__server_message__free_unpacked(m, NULL);
    rg_close(c);
    stop(gw);
}

static void test_gateway_refuses_old_token_after_window(void)
{
    char tok[DH_TOKEN_MAX];
    old_token(tok);
    pid_t gw = rotated_gateway((long)time(NULL) - 1);
    rg_client *c = rg_open_port(rg.gw2_port);
    rg_send_hello(c, 1, NULL, tok);
    Deckhand__ServerMessage *m = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, 5000, &m), 1);
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    CU_ASSERT_FALSE(m->reply->ok);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m->reply->error);
    CU_ASSERT_EQUAL(m->reply->error->code, DECKHAND__ERROR_CODE__UNAUTHENTICATED);
    CU_ASSERT_STRING_EQUAL(m->reply->error->message, "token key retired");
    deckhand__server_message__free_unpacked(m, NULL);
    rg_close(c);
    stop(gw);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"gateway_resumes_old_token_within_window", test_gateway_resumes_old_token_within_window},
        {"gateway_refuses_old_token_after_window", test_gateway_refuses_old_token_after_window},
        {"sigterm_exits_zero", rg_test_sigterm_exits_zero},
        {NULL, NULL},
    };
    return rg_main("gateway_token_rotation", cases);
}
