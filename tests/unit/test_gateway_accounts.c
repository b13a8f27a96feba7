/*
 * test_gateway_accounts.c: players who persist, through the real gateway (rig_gateway.h)
 * and its Redis: Register then AccountLogin give a Welcome that says account and a token
 * that carries it; a taken name (in any case) is NAME_TAKEN; a wrong password and an
 * unknown name get the same UNAUTHENTICATED; bad strings get a clear BAD_REQUEST; too many
 * attempts on one name get RATE_LIMITED; a device id logs in to the same account each
 * time; a device account and a guest never show a registered name bare (a device's
 * name ends in '#' and four characters of its id, a guest's in " (guest)"); a leaderboard and a
 * history are read back as the workers wrote them; a guest has no history.
 */
#include <hiredis/hiredis.h>
#include <string.h>

#include "dh_keys.h"
#include "rig_gateway.h"

#define WAIT_MS 5000

static void send_register(rg_client *c, uint64_t id, const char *name, const char *password)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__Register r = DECKHAND__REGISTER__INIT;
    r.name = (char *)name;
    r.password = (char *)password;
    m.cmd_id = id;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_REGISTER;
    m.register_ = &r;
    rg_send(c, &m);
}

static void send_login(rg_client *c, uint64_t id, const char *name, const char *password,
                       const char *device)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__AccountLogin l = DECKHAND__ACCOUNT_LOGIN__INIT;
    l.name = (char *)name;
    l.password = (char *)(password ? password : "");
    l.device_id = (char *)(device ? device : "");
    m.cmd_id = id;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_ACCOUNT_LOGIN;
    m.account_login = &l;
    rg_send(c, &m);
}

/* The Welcome of an account login: its player id into pid (64 bytes), then the ok Reply. */
static void expect_account(rg_client *c, uint64_t id, const char *name, char *pid)
{
    Deckhand__ServerMessage *sm = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, WAIT_MS, &sm), 1);
    CU_ASSERT_EQUAL_FATAL(sm->body_case, DECKHAND__SERVER_MESSAGE__BODY_WELCOME);
    CU_ASSERT_TRUE(sm->welcome->account);
    CU_ASSERT_STRING_EQUAL(sm->welcome->name, name);
    CU_ASSERT_TRUE(dh_token_is_account_id(sm->welcome->player_id));
    dh_token_claims claims;
    CU_ASSERT_EQUAL(dh_token_verify((const uint8_t *)RG_TOKEN_KEY, strlen(RG_TOKEN_KEY),
                                    sm->welcome->token, 1, &claims),
                    DH_TOKEN_OK);
    CU_ASSERT_TRUE(claims.account);
    CU_ASSERT_STRING_EQUAL(claims.player_id, sm->welcome->player_id);
    if (pid)
        snprintf(pid, 64, "%s", sm->welcome->player_id);
    deckhand__server_message__free_unpacked(sm, NULL);
    rg_expect_reply(c, id, DECKHAND__ERROR_CODE__OK);
}

/* The Welcome of a device login that asked for name: shown as name, '#' and the last four
 * characters of its account id (a device account never shows a bare name), then ok. */
static void expect_device(rg_client *c, uint64_t id, const char *name, char *pid)
{
    Deckhand__ServerMessage *sm = NULL;
    char want[64];
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, WAIT_MS, &sm), 1);
    CU_ASSERT_EQUAL_FATAL(sm->body_case, DECKHAND__SERVER_MESSAGE__BODY_WELCOME);
    CU_ASSERT_TRUE(sm->welcome->account);
    const char *p = sm->welcome->player_id;
    CU_ASSERT_TRUE_FATAL(dh_token_is_account_id(p) && strlen(p) > 4);
    snprintf(want, sizeof want, "%s#%s", name, p + strlen(p) - 4);
    CU_ASSERT_STRING_EQUAL(sm->welcome->name, want);
    snprintf(pid, 64, "%s", p);
    deckhand__server_message__free_unpacked(sm, NULL);
    rg_expect_reply(c, id, DECKHAND__ERROR_CODE__OK);
}

/* A guest's Hello as name: the Welcome shows want. */
static void expect_guest_shown(const char *name, const char *want)
{
    rg_client *c = rg_open();
    rg_send_hello(c, 1, name, "");
    Deckhand__ServerMessage *sm = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, WAIT_MS, &sm), 1);
    CU_ASSERT_EQUAL_FATAL(sm->body_case, DECKHAND__SERVER_MESSAGE__BODY_WELCOME);
    CU_ASSERT_FALSE(sm->welcome->account);
    CU_ASSERT_STRING_EQUAL(sm->welcome->name, want);
    deckhand__server_message__free_unpacked(sm, NULL);
    rg_expect_reply(c, 1, DECKHAND__ERROR_CODE__OK);
    rg_close(c);
}

/* The next Reply must be an error with code and text. */
static void expect_error(rg_client *c, uint64_t id, Deckhand__ErrorCode code, const char *text)
{
    Deckhand__ServerMessage *sm = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, WAIT_MS, &sm), 1);
    CU_ASSERT_EQUAL_FATAL(sm->body_case, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    CU_ASSERT_EQUAL(sm->reply->cmd_id, id);
    CU_ASSERT_FALSE(sm->reply->ok);
    CU_ASSERT_TRUE_FATAL(sm->reply->error != NULL);
    CU_ASSERT_EQUAL(sm->reply->error->code, code);
    if (text && !strstr(sm->reply->error->message, text))
        CU_FAIL("error text");
    deckhand__server_message__free_unpacked(sm, NULL);
}

static redisReply *redis_cmd(const char *fmt, const char *a, const char *b)
{
    redisContext *rc = redisConnect("127.0.0.1", rg.redis_port);
    CU_ASSERT_FATAL(rc && !rc->err);
    redisReply *r = redisCommand(rc, fmt, a, b);
    redisFree(rc);
    return r;
}

static void test_account_register_then_login_carries_the_account(void)
{
    char pid[64], pid2[64];
    rg_client *c = rg_open();
    send_register(c, 1, "Alice", "correct horse");
    expect_account(c, 1, "Alice", pid);
    rg_close(c);
    c = rg_open();
    send_login(c, 2, "alice", "correct horse", NULL);
    expect_account(c, 2, "Alice", pid2);
    CU_ASSERT_STRING_EQUAL(pid, pid2);
    send_login(c, 3, "alice", "correct horse", NULL);
    expect_error(c, 3, DECKHAND__ERROR_CODE__BAD_REQUEST, "already logged in");
    rg_close(c);
    redisReply *r = redis_cmd("HGET account:{alice} %s", DH_F_ACCOUNT_PWHASH, NULL);
    CU_ASSERT_TRUE(r && r->type == REDIS_REPLY_STRING && strstr(r->str, "$argon2id$") &&
                   !strstr(r->str, "correct horse"));
    freeReplyObject(r);
}

static void test_account_token_resumes_the_account(void)
{
    char pid[64];
    rg_client *c = rg_open();
    send_register(c, 1, "Ivan", "ivans password");
    Deckhand__ServerMessage *sm = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, WAIT_MS, &sm), 1);
    CU_ASSERT_EQUAL_FATAL(sm->body_case, DECKHAND__SERVER_MESSAGE__BODY_WELCOME);
    char token[DH_TOKEN_MAX];
    snprintf(pid, sizeof pid, "%s", sm->welcome->player_id);
    snprintf(token, sizeof token, "%s", sm->welcome->token);
    deckhand__server_message__free_unpacked(sm, NULL);
    rg_expect_reply(c, 1, DECKHAND__ERROR_CODE__OK);
    rg_close(c);
    c = rg_open();
    rg_send_hello(c, 2, "", token);
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, WAIT_MS, &sm), 1);
    CU_ASSERT_EQUAL_FATAL(sm->body_case, DECKHAND__SERVER_MESSAGE__BODY_WELCOME);
    CU_ASSERT_TRUE(sm->welcome->account);
    CU_ASSERT_STRING_EQUAL(sm->welcome->player_id, pid);
    CU_ASSERT_STRING_EQUAL(sm->welcome->name, "Ivan");
    deckhand__server_message__free_unpacked(sm, NULL);
    rg_expect_reply(c, 2, DECKHAND__ERROR_CODE__OK);
    rg_close(c);
}

static void test_account_name_taken_in_any_case(void)
{
    rg_client *c = rg_open();
    send_register(c, 1, "Bobby", "password one");
    expect_account(c, 1, "Bobby", NULL);
    rg_close(c);
    c = rg_open();
    send_register(c, 2, "BOBBY", "password two");
    expect_error(c, 2, DECKHAND__ERROR_CODE__NAME_TAKEN, "taken");
    rg_close(c);
}

static void test_account_wrong_password_and_unknown_name_answer_alike(void)
{
    rg_client *c = rg_open();
    send_register(c, 1, "Carol", "carols password");
    expect_account(c, 1, "Carol", NULL);
    rg_close(c);
    c = rg_open();
    send_login(c, 2, "Carol", "not her password", NULL);
    expect_error(c, 2, DECKHAND__ERROR_CODE__UNAUTHENTICATED, "wrong name or password");
    send_login(c, 3, "Nobody", "not her password", NULL);
    expect_error(c, 3, DECKHAND__ERROR_CODE__UNAUTHENTICATED, "wrong name or password");
    rg_close(c);
}

static void test_account_bad_strings_refused_clearly(void)
{
    rg_client *c = rg_open();
    send_register(c, 1, "Dan ny", "a fine password");
    expect_error(c, 1, DECKHAND__ERROR_CODE__BAD_REQUEST, "letters, digits");
    send_register(c, 1, "Dan\nny", "a fine password"); /* any string: textguard.h */
    expect_error(c, 1, DECKHAND__ERROR_CODE__BAD_REQUEST, "Register.name must not hold control");
    send_register(c, 2, "Da", "a fine password");
    expect_error(c, 2, DECKHAND__ERROR_CODE__BAD_REQUEST, "3-24");
    send_register(c, 3, "Danny", "short");
    expect_error(c, 3, DECKHAND__ERROR_CODE__BAD_REQUEST, "8-128");
    send_register(c, 4, "Danny", "tab\there ok?");
    expect_error(c, 4, DECKHAND__ERROR_CODE__BAD_REQUEST, "control characters");
    send_login(c, 5, "Danny", NULL, "short-device");
    expect_error(c, 5, DECKHAND__ERROR_CODE__BAD_REQUEST, "device id");
    rg_close(c);
}

static void test_account_password_attempts_rate_limited_per_name(void)
{
    rg_client *c = rg_open();
    send_register(c, 1, "Erin", "erins password");
    expect_account(c, 1, "Erin", NULL);
    rg_close(c);
    for (uint64_t i = 0; i < 10; i++) {
        c = rg_open();
        send_login(c, 10 + i, "erin", "guessing wrong", NULL);
        expect_error(c, 10 + i, DECKHAND__ERROR_CODE__UNAUTHENTICATED, NULL);
        rg_close(c);
    }
    c = rg_open();
    send_login(c, 30, "Erin", "erins password", NULL); /* even the right one, for a while */
    expect_error(c, 30, DECKHAND__ERROR_CODE__RATE_LIMITED, "too many");
    send_register(c, 31, "Frank", "franks password"); /* other names are not held up */
    expect_account(c, 31, "Frank", NULL);
    rg_close(c);
}

static void test_account_device_id_logs_in_to_the_same_account(void)
{
    char pid[64], pid2[64];
    rg_client *c = rg_open();
    send_login(c, 1, "Gina", NULL, "device-secret-0123456789");
    expect_device(c, 1, "Gina", pid);
    rg_close(c);
    c = rg_open();
    send_login(c, 2, "Gina", NULL, "device-secret-0123456789");
    expect_device(c, 2, "Gina", pid2);
    CU_ASSERT_STRING_EQUAL(pid, pid2);
    rg_close(c);
    redisReply *r = redis_cmd("KEYS %s", "device:*", NULL);
    CU_ASSERT_TRUE(r && r->type == REDIS_REPLY_ARRAY && r->elements == 1 &&
                   !strstr(r->element[0]->str, "secret"));
    freeReplyObject(r);
}

/* Issue 24, item 5: a device login asking for a registered account's name, before or after
 * it was registered, never shows that name; the registered account keeps it. */
static void test_account_device_login_never_shows_a_registered_name(void)
{
    char pid[64], dev[64], dev2[64], names[64];
    rg_client *c = rg_open();
    send_register(c, 1, "Judy", "judys password");
    expect_account(c, 1, "Judy", pid);
    rg_close(c);
    c = rg_open();
    send_login(c, 2, "Judy", NULL, "device-secret-judy-0000001");
    expect_device(c, 2, "Judy", dev);
    rg_close(c);
    CU_ASSERT_STRING_NOT_EQUAL(pid, dev);
    c = rg_open();
    send_login(c, 3, "Kate", NULL, "device-secret-kate-0000001");
    expect_device(c, 3, "Kate", dev2);
    rg_close(c);
    c = rg_open(); /* a later registration of the name a device asked for is its own */
    send_register(c, 4, "Kate", "kates password");
    expect_account(c, 4, "Kate", NULL);
    rg_close(c);
    /* what leaderboards and histories show */
    redisReply *r = redis_cmd("HGET accounts:names %s", dev, NULL);
    snprintf(names, sizeof names, "Judy#%s", dev + strlen(dev) - 4);
    CU_ASSERT_TRUE(r && r->type == REDIS_REPLY_STRING && strcmp(r->str, names) == 0);
    freeReplyObject(r);
}

/* Issue 24, item 5: a guest is always shown as one, so no guest shows as an account. */
static void test_account_guest_name_is_marked(void)
{
    rg_client *c = rg_open();
    send_register(c, 1, "Liam", "liams password");
    expect_account(c, 1, "Liam", NULL);
    rg_close(c);
    expect_guest_shown("Liam", "Liam (guest)");
    expect_guest_shown("liam", "liam (guest)");
    expect_guest_shown("Mo Nobody", "Mo Nobody (guest)");
}

static void test_account_leaderboard_and_history_read_back(void)
{
    char pid[64];
    rg_client *c = rg_open();
    send_register(c, 1, "Hanna", "hannas password");
    expect_account(c, 1, "Hanna", pid);
    freeReplyObject(redis_cmd("HSET accounts:names a-other Otto", NULL, NULL));
    freeReplyObject(redis_cmd("HSET rating:{dominion}:casual %s %s", pid, "30 5 3"));
    freeReplyObject(redis_cmd("HSET rating:{dominion}:casual a-other %s", "25 8 1", NULL));
    freeReplyObject(redis_cmd("ZADD leaderboard:{dominion}:casual 15 %s", pid, NULL));
    freeReplyObject(redis_cmd("ZADD leaderboard:{dominion}:casual 1 a-other", NULL, NULL));
    freeReplyObject(redis_cmd("LPUSH history:{%s} %s", pid,
                              "m-9\tdominion\tcasual\tsha\t1000\t1\t2\t0.00\t3.44\tOtto"));

    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__LeaderboardRequest lr = DECKHAND__LEADERBOARD_REQUEST__INIT;
    lr.game = (char *)"dominion";
    m.cmd_id = 2;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_LEADERBOARD_REQUEST;
    m.leaderboard_request = &lr;
    rg_send(c, &m);
    Deckhand__ServerMessage *sm = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, WAIT_MS, &sm), 1);
    CU_ASSERT_EQUAL_FATAL(sm->body_case, DECKHAND__SERVER_MESSAGE__BODY_LEADERBOARD);
    CU_ASSERT_STRING_EQUAL(sm->leaderboard->mode, "casual");
    CU_ASSERT_EQUAL_FATAL(sm->leaderboard->n_entries, 2);
    CU_ASSERT_STRING_EQUAL(sm->leaderboard->entries[0]->name, "Hanna");
    CU_ASSERT_EQUAL(sm->leaderboard->entries[0]->rank, 1);
    CU_ASSERT_DOUBLE_EQUAL(sm->leaderboard->entries[0]->ordinal, 15.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sm->leaderboard->entries[0]->mu, 30.0, 1e-9);
    CU_ASSERT_EQUAL(sm->leaderboard->entries[0]->matches, 3);
    CU_ASSERT_STRING_EQUAL(sm->leaderboard->entries[1]->name, "Otto");
    deckhand__server_message__free_unpacked(sm, NULL);
    rg_expect_reply(c, 2, DECKHAND__ERROR_CODE__OK);

    Deckhand__HistoryRequest hr = DECKHAND__HISTORY_REQUEST__INIT;
    m.cmd_id = 3;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_HISTORY_REQUEST;
    m.history_request = &hr;
    rg_send(c, &m);
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, WAIT_MS, &sm), 1);
    CU_ASSERT_EQUAL_FATAL(sm->body_case, DECKHAND__SERVER_MESSAGE__BODY_HISTORY);
    CU_ASSERT_EQUAL_FATAL(sm->history->n_entries, 1);
    CU_ASSERT_STRING_EQUAL(sm->history->entries[0]->match_id, "m-9");
    CU_ASSERT_EQUAL(sm->history->entries[0]->place, 1);
    CU_ASSERT_DOUBLE_EQUAL(sm->history->entries[0]->ordinal_after, 3.44, 1e-9);
    CU_ASSERT_EQUAL_FATAL(sm->history->entries[0]->n_opponents, 1);
    CU_ASSERT_STRING_EQUAL(sm->history->entries[0]->opponents[0], "Otto");
    deckhand__server_message__free_unpacked(sm, NULL);
    rg_expect_reply(c, 3, DECKHAND__ERROR_CODE__OK);
    rg_close(c);
}

static void test_account_guest_has_no_history(void)
{
    rg_client *c = rg_open_as("guest", NULL);
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__HistoryRequest hr = DECKHAND__HISTORY_REQUEST__INIT;
    m.cmd_id = 7;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_HISTORY_REQUEST;
    m.history_request = &hr;
    rg_send(c, &m);
    expect_error(c, 7, DECKHAND__ERROR_CODE__BAD_REQUEST, "guests");
    rg_close(c);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"account_register_then_login_carries_the_account",
         test_account_register_then_login_carries_the_account},
        {"account_token_resumes_the_account", test_account_token_resumes_the_account},
        {"account_name_taken_in_any_case", test_account_name_taken_in_any_case},
        {"account_wrong_password_and_unknown_name_answer_alike",
         test_account_wrong_password_and_unknown_name_answer_alike},
        {"account_bad_strings_refused_clearly", test_account_bad_strings_refused_clearly},
        {"account_password_attempts_rate_limited_per_name",
         test_account_password_attempts_rate_limited_per_name},
        {"account_device_id_logs_in_to_the_same_account",
         test_account_device_id_logs_in_to_the_same_account},
        {"account_device_login_never_shows_a_registered_name",
         test_account_device_login_never_shows_a_registered_name},
        {"account_guest_name_is_marked", test_account_guest_name_is_marked},
        {"account_leaderboard_and_history_read_back",
         test_account_leaderboard_and_history_read_back},
        {"account_guest_has_no_history", test_account_guest_has_no_history},
        {"sigterm_exits_zero", rg_test_sigterm_exits_zero},
        {NULL, NULL},
    };
    return rg_main("gateway_accounts", cases);
}
