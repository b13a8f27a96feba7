/*
 * accounts.h: players who persist, at the gateway: Register and AccountLogin (docs/
 * PROTOCOL.md), against the account keys of dh_keys.h through the gateway's Redis
 * connection (lookup.h).
 *
 * Password hashing and checking (dh_account.h, Argon2id, tens of milliseconds) run on
 * libuv's thread pool, never on the loop. An unknown name is checked against a dummy hash,
 * so it answers the same "wrong name or password" after the same work as a wrong
 * password. Every attempt on a name counts in account:fails:{NAME} for ACCOUNTS_WINDOW_MS
 * (shared by every gateway); past ACCOUNTS_ATTEMPTS the name is refused RATE_LIMITED
 * without checking, until the window passes. A successful login clears the count.
 *
 * One request (an account request, or a board read, boards.h) is in flight per connection
 * at a time; it ends through g->account_done exactly once, unless the connection closes
 * first (accounts_conn_closed: its answer is then dropped).
 */
#ifndef DECKHAND_GW_ACCOUNTS_H
#define DECKHAND_GW_ACCOUNTS_H

#include "conn.h"
#include "deckhand.pb-c.h"

#define ACCOUNTS_ATTEMPTS  10
#define ACCOUNTS_WINDOW_MS (15 * 60 * 1000)

/* A request in flight for one connection. */
typedef struct acct_op acct_op;

/* Start a request for c; NULL when one is in flight already or memory ran out (c was
 * answered then). The caller fills the op's data through its own struct (size bytes). */
acct_op *acct_op_new(gw_conn *c, uint64_t cmd_id, size_t size);
/* The op's data block (size bytes of acct_op_new, zeroed) and its gateway. */
void *acct_op_data(acct_op *op);
gw *acct_op_gw(const acct_op *op);
/* The connection still waiting for the op, or NULL when it closed. */
gw_conn *acct_op_conn(const acct_op *op);
/* End the op: answer through g->account_done (when c is still there) and free it. */
void acct_op_done(acct_op *op, Deckhand__ErrorCode code, const char *message, const char *player_id,
                  const char *name);

void accounts_register(gw_conn *c, uint64_t cmd_id, const Deckhand__Register *m);
void accounts_login(gw_conn *c, uint64_t cmd_id, const Deckhand__AccountLogin *m);
/* c is going away: its op, if any, answers nobody. */
void accounts_conn_closed(gw_conn *c);

#endif
