/*
 * dh_client_account.c: see dh_client_account.h. Each call sends one message and waits for
 * what answers it: the message of the kind it expects (Welcome, Leaderboard, History),
 * then the Reply with its cmd_id; anything else that arrives meanwhile is dropped.
 */
#include "dh_client_account.h"

#include <stdio.h>
#include <string.h>

#include "dh_clock.h"

#define ACCOUNT_WAIT_MS 10000

/* Send m and wait: the first message of body case want into *got (may be NULL: not
 * kept), then the Reply to m. 0 when the Reply is ok (and a wanted message came), 1 when
 * the Reply is an error (its code into *code and text into err), -1 on a lost connection. */
static int account_call(dh_client *c, Deckhand__ClientMessage *m, int want,
                        Deckhand__ServerMessage **got, int *code, char *err, size_t errlen)
{
    m->cmd_id = dh_client_next_cmd(c);
    *got = NULL;
    if (dh_client_send(c, m) < 0) {
        snprintf(err, errlen, "connection lost");
        return -1;
    }
    long long deadline = (long long)dh_now_ms() + ACCOUNT_WAIT_MS;
    for (;;) {
        long long left = deadline - (long long)dh_now_ms();
        Deckhand__ServerMessage *s = NULL;
        if (left <= 0 || dh_client_recv(c, (int)left, &s) != 1) {
            snprintf(err, errlen, "no answer from the gateway");
            goto lost;
        }
        if ((int)s->body_case == want && !*got) {
            *got = s;
            continue;
        }
        if (s->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY && s->reply->cmd_id == m->cmd_id) {
            int rc = 0;
            if (!s->reply->ok || !*got) {
                *code = s->reply->error ? (int)s->reply->error->code : 0;
                snprintf(err, errlen, "%s",
                         s->reply->error && s->reply->error->message ? s->reply->error->message
                                                                     : "refused");
                rc = 1;
            }
            deckhand__server_message__free_unpacked(s, NULL);
            if (rc && *got) {
                deckhand__server_message__free_unpacked(*got, NULL);
                *got = NULL;
            }
            return rc;
        }
        deckhand__server_message__free_unpacked(s, NULL);
    }
lost:
    if (*got)
        deckhand__server_message__free_unpacked(*got, NULL);
    *got = NULL;
    return -1;
}

static void account_copy(char *out, size_t n, const char *s)
{
    if (out && n)
        snprintf(out, n, "%s", s ? s : "");
}

int dh_client_account_login(dh_client *c, const char *name, const char *password,
                            bool register_first, char *player_id, size_t idlen, char *token,
                            size_t toklen, char *err, size_t errlen)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__Register reg = DECKHAND__REGISTER__INIT;
    Deckhand__AccountLogin login = DECKHAND__ACCOUNT_LOGIN__INIT;
    Deckhand__ServerMessage *w = NULL;
    int code = 0, rc = 1;
    if (register_first) {
        reg.name = (char *)name;
        reg.password = (char *)password;
        m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_REGISTER;
        m.register_ = &reg;
        rc = account_call(c, &m, DECKHAND__SERVER_MESSAGE__BODY_WELCOME, &w, &code, err, errlen);
        if (rc < 0 || (rc > 0 && code != DECKHAND__ERROR_CODE__NAME_TAKEN))
            return -1;
    }
    if (rc != 0) {
        login.name = (char *)name;
        login.password = (char *)password;
        m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_ACCOUNT_LOGIN;
        m.account_login = &login;
        rc = account_call(c, &m, DECKHAND__SERVER_MESSAGE__BODY_WELCOME, &w, &code, err, errlen);
        if (rc != 0)
            return -1;
    }
    account_copy(player_id, idlen, w->welcome->player_id);
    account_copy(token, toklen, w->welcome->token);
    deckhand__server_message__free_unpacked(w, NULL);
    return 0;
}

int dh_client_leaderboard(dh_client *c, const char *game, const char *mode, unsigned limit,
                          Deckhand__ServerMessage **out, char *err, size_t errlen)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__LeaderboardRequest lr = DECKHAND__LEADERBOARD_REQUEST__INIT;
    int code = 0;
    lr.game = (char *)game;
    lr.mode = (char *)(mode ? mode : "");
    lr.limit = limit;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_LEADERBOARD_REQUEST;
    m.leaderboard_request = &lr;
    return account_call(c, &m, DECKHAND__SERVER_MESSAGE__BODY_LEADERBOARD, out, &code, err,
                        errlen) == 0
               ? 0
               : -1;
}

int dh_client_history(dh_client *c, unsigned limit, Deckhand__ServerMessage **out, char *err,
                      size_t errlen)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__HistoryRequest hr = DECKHAND__HISTORY_REQUEST__INIT;
    int code = 0;
    hr.limit = limit;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_HISTORY_REQUEST;
    m.history_request = &hr;
    return account_call(c, &m, DECKHAND__SERVER_MESSAGE__BODY_HISTORY, out, &code, err, errlen) == 0
               ? 0
               : -1;
}
