/*
 * accounts.c: see accounts.h. A request is a small state machine over an acct_op: Redis
 * replies and thread-pool results move it on, acct_op_done ends it.
 */
#include "accounts.h"

#include <hiredis/async.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dh_account.h"
#include "dh_keys.h"
#include "dh_log.h"
#include "lookup.h"

struct acct_op {
    gw *g;
    gw_conn *c; /* NULL once the connection closed */
    uint64_t cmd_id;
    uv_work_t work;
    max_align_t data[]; /* the request's own state */
};

acct_op *acct_op_new(gw_conn *c, uint64_t cmd_id, size_t size)
{
    gw *g = c->gw;
    if (c->acct) {
        g->account_done(c, cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST,
                        "another account request is in progress", NULL, NULL);
        return NULL;
    }
    acct_op *op = calloc(1, sizeof *op + size);
    if (!op) {
        g->account_done(c, cmd_id, DECKHAND__ERROR_CODE__INTERNAL, "out of memory", NULL, NULL);
        return NULL;
    }
    op->g = g;
    op->c = c;
    op->cmd_id = cmd_id;
    op->work.data = op;
    c->acct = op;
    return op;
}

void *acct_op_data(acct_op *op)
{
    return op->data;
}

gw *acct_op_gw(const acct_op *op)
{
    return op->g;
}

gw_conn *acct_op_conn(const acct_op *op)
{
    return op->c;
}

void acct_op_done(acct_op *op, Deckhand__ErrorCode code, const char *message, const char *player_id,
                  const char *name)
{
    if (op->c) {
        op->c->acct = NULL;
        op->g->account_done(op->c, op->cmd_id, code, message, player_id, name);
    }
    free(op);
}

void accounts_conn_closed(gw_conn *c)
{
    if (c->acct)
        c->acct->c = NULL;
    c->acct = NULL;
}

/* ---- the requests' state ---------------------------------------------------------------- */

typedef enum { ACCT_REGISTER, ACCT_LOGIN, ACCT_DEVICE } acct_kind;

typedef struct {
    acct_kind kind;
    char name[DH_ACCOUNT_NAME_MAX + 1], lname[DH_ACCOUNT_NAME_MAX + 1];
    char password[DH_ACCOUNT_PASSWORD_MAX + 1]; /* wiped once hashed or checked */
    char hash[DH_ACCOUNT_HASH_MAX];             /* made (register) or stored (login) */
    char id[DH_TOKEN_ID_MAX];
    bool ok; /* the thread pool's answer */
} acct_req;

/* A request of kind for c's command cmd_id: its state (in *op), or NULL once the command
 * is answered: refused with code and why when why is set, or by acct_op_new. */
static acct_req *acct_start(gw_conn *c, uint64_t cmd_id, Deckhand__ErrorCode code, const char *why,
                            acct_kind kind, acct_op **op)
{
    if (why) {
        c->gw->account_done(c, cmd_id, code, why, NULL, NULL);
        return NULL;
    }
    *op = acct_op_new(c, cmd_id, sizeof(acct_req));
    if (!*op)
        return NULL;
    acct_req *r = acct_op_data(*op);
    r->kind = kind;
    return r;
}

static void acct_wipe(acct_req *r)
{
    sodium_memzero(r->password, sizeof r->password);
}

static void acct_fail(acct_op *op, Deckhand__ErrorCode code, const char *message)
{
    acct_wipe(acct_op_data(op));
    acct_op_done(op, code, message, NULL, NULL);
}

static void acct_unavailable(acct_op *op)
{
    acct_fail(op, DECKHAND__ERROR_CODE__UNAVAILABLE, "accounts unavailable, retry later");
}

/* EVAL script with keys and args through the gateway's connection; fn gets the reply. */
static void acct_eval(acct_op *op, const char *script, int nkeys, const char **keys, int nargs,
                      const char **args, void (*fn)(redisAsyncContext *, void *, void *))
{
    const char *argv[16];
    char n[8];
    int argc = 0;
    snprintf(n, sizeof n, "%d", nkeys);
    argv[argc++] = "EVAL";
    argv[argc++] = script;
    argv[argc++] = n;
    for (int i = 0; i < nkeys; i++)
        argv[argc++] = keys[i];
    for (int i = 0; i < nargs; i++)
        argv[argc++] = args[i];
    if (lookup_send(acct_op_gw(op), fn, op, argc, argv, NULL) < 0)
        acct_unavailable(op);
}

static void acct_on_cleared(redisAsyncContext *ac, void *reply, void *priv)
{
    lookup_answered(priv);
}

/* Record id's display name in accounts:names (another slot than the account's in a Redis
 * Cluster: written after the account, again at each login, so a gateway that died in
 * between leaves it missing only until that account's next login). */
static void acct_record_name(acct_op *op, const char *id, const char *name)
{
    const char *argv[] = {"HSET", DH_KEY_ACCOUNT_NAMES, id, name};
    lookup_send(acct_op_gw(op), acct_on_cleared, acct_op_gw(op), 4, argv, NULL);
}

/* ---- register ------------------------------------------------------------------------- */

static void acct_on_created(redisAsyncContext *ac, void *reply, void *priv)
{
    acct_op *op = priv;
    acct_req *r = acct_op_data(op);
    redisReply *rep = reply;
    lookup_answered(acct_op_gw(op));
    if (rep && rep->type == REDIS_REPLY_ERROR &&
        strncmp(rep->str, DH_REPLY_TAKEN, sizeof DH_REPLY_TAKEN - 1) == 0) {
        acct_fail(op, DECKHAND__ERROR_CODE__NAME_TAKEN, "account name taken");
        return;
    }
    if (!rep || rep->type != REDIS_REPLY_INTEGER) {
        acct_unavailable(op);
        return;
    }
    dh_info("account registered id=%s name=\"%s\"", r->id, r->name);
    acct_record_name(op, r->id, r->name);
    acct_op_done(op, DECKHAND__ERROR_CODE__OK, NULL, r->id, r->name);
}

static void acct_hash_work(uv_work_t *w)
{
    acct_req *r = acct_op_data(w->data);
    r->ok = dh_account_hash(r->password, r->hash) == 0;
    acct_wipe(r);
}

static void acct_hash_after(uv_work_t *w, int status)
{
    acct_op *op = w->data;
    acct_req *r = acct_op_data(op);
    char key[DH_KEY_MAX], created[24];
    if (status != 0 || !r->ok || dh_account_new_id(r->id) < 0) {
        acct_fail(op, DECKHAND__ERROR_CODE__INTERNAL, "cannot register now");
        return;
    }
    snprintf(created, sizeof created, "%lld", (long long)time(NULL) * 1000);
    const char *keys[] = {dh_key_account(key, r->lname)};
    const char *args[] = {r->id, r->name, r->hash, created};
    acct_eval(op, dh_script_account_create, 1, keys, 4, args, acct_on_created);
}

void accounts_register(gw_conn *c, uint64_t cmd_id, const Deckhand__Register *m)
{
    const char *err = dh_account_name_error(m->name);
    if (!err)
        err = dh_account_password_error(m->password);
    acct_op *op;
    acct_req *r = acct_start(c, cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST, err, ACCT_REGISTER, &op);
    if (!r)
        return;
    snprintf(r->name, sizeof r->name, "%s", m->name);
    dh_account_name_key(r->name, r->lname);
    snprintf(r->password, sizeof r->password, "%s", m->password);
    if (uv_queue_work(c->gw->loop, &op->work, acct_hash_work, acct_hash_after) != 0)
        acct_fail(op, DECKHAND__ERROR_CODE__INTERNAL, "cannot register now");
}

/* ---- password login ------------------------------------------------------------------- */

static void acct_verify_work(uv_work_t *w)
{
    acct_req *r = acct_op_data(w->data);
    /* an unknown name costs the same work as a wrong password */
    r->ok = dh_account_verify(r->hash[0] ? r->hash : dh_account_dummy_hash(), r->password) &&
            r->hash[0] && r->id[0];
    acct_wipe(r);
}

static void acct_verify_after(uv_work_t *w, int status)
{
    acct_op *op = w->data;
    acct_req *r = acct_op_data(op);
    if (status != 0 || !r->ok) {
        dh_info_every(DH_LOG_EVERY_MS, "account login refused for a name (wrong password?)");
        acct_fail(op, DECKHAND__ERROR_CODE__UNAUTHENTICATED, "wrong name or password");
        return;
    }
    char key[DH_KEY_MAX];
    const char *argv[] = {"DEL", dh_key_account_fails(key, r->lname)};
    lookup_send(acct_op_gw(op), acct_on_cleared, acct_op_gw(op), 2, argv, NULL);
    acct_record_name(op, r->id, r->name);
    acct_op_done(op, DECKHAND__ERROR_CODE__OK, NULL, r->id, r->name);
}

/* Copy a reply string of at most cap - 1 bytes; false when it is not one or too long. */
static bool acct_copy(const redisReply *v, char *out, size_t cap)
{
    if (v->type != REDIS_REPLY_STRING || v->len >= cap)
        return false;
    memcpy(out, v->str, v->len);
    out[v->len] = '\0';
    return true;
}

static void acct_on_attempt(redisAsyncContext *ac, void *reply, void *priv)
{
    acct_op *op = priv;
    acct_req *r = acct_op_data(op);
    redisReply *rep = reply;
    lookup_answered(acct_op_gw(op));
    if (!rep || rep->type != REDIS_REPLY_ARRAY || rep->elements != 4 ||
        rep->element[0]->type != REDIS_REPLY_INTEGER) {
        acct_unavailable(op);
        return;
    }
    if (rep->element[0]->integer > ACCOUNTS_ATTEMPTS) {
        acct_fail(op, DECKHAND__ERROR_CODE__RATE_LIMITED,
                  "too many login attempts for this name; try again later");
        return;
    }
    if (!acct_copy(rep->element[1], r->id, sizeof r->id) ||
        !acct_copy(rep->element[2], r->name, sizeof r->name) ||
        !acct_copy(rep->element[3], r->hash, sizeof r->hash))
        r->id[0] = r->hash[0] = '\0'; /* no such account: checked against the dummy */
    if (uv_queue_work(acct_op_gw(op)->loop, &op->work, acct_verify_work, acct_verify_after) != 0)
        acct_fail(op, DECKHAND__ERROR_CODE__INTERNAL, "cannot log in now");
}

static void accounts_login_password(gw_conn *c, uint64_t cmd_id, const Deckhand__AccountLogin *m)
{
    bool bad = dh_account_name_error(m->name) || !m->password ||
               strlen(m->password) > DH_ACCOUNT_PASSWORD_MAX;
    acct_op *op;
    acct_req *r = acct_start(c, cmd_id, DECKHAND__ERROR_CODE__UNAUTHENTICATED,
                             bad ? "wrong name or password" : NULL, ACCT_LOGIN, &op);
    if (!r)
        return;
    char key[DH_KEY_MAX], fails[DH_KEY_MAX], window[24];
    dh_account_name_key(m->name, r->lname);
    snprintf(r->password, sizeof r->password, "%s", m->password);
    snprintf(window, sizeof window, "%d", ACCOUNTS_WINDOW_MS);
    const char *keys[] = {dh_key_account(key, r->lname), dh_key_account_fails(fails, r->lname)};
    const char *args[] = {window};
    acct_eval(op, dh_script_login_attempt, 2, keys, 1, args, acct_on_attempt);
}

/* ---- device login --------------------------------------------------------------------- */

static void acct_on_device(redisAsyncContext *ac, void *reply, void *priv)
{
    acct_op *op = priv;
    acct_req *r = acct_op_data(op);
    redisReply *rep = reply;
    lookup_answered(acct_op_gw(op));
    const char *nl = rep && rep->type == REDIS_REPLY_STRING ? strchr(rep->str, '\n') : NULL;
    if (!nl || (size_t)(nl - rep->str) >= sizeof r->id || strlen(nl + 1) >= sizeof r->name) {
        acct_unavailable(op);
        return;
    }
    memcpy(r->id, rep->str, (size_t)(nl - rep->str));
    r->id[nl - rep->str] = '\0';
    char shown[DH_ACCOUNT_SHOWN_MAX]; /* never a password account's name (dh_account.h) */
    dh_account_device_shown(nl + 1, r->id, shown);
    acct_record_name(op, r->id, shown);
    acct_op_done(op, DECKHAND__ERROR_CODE__OK, NULL, r->id, shown);
}

static void accounts_login_device(gw_conn *c, uint64_t cmd_id, const Deckhand__AccountLogin *m)
{
    const char *err = dh_account_device_error(m->device_id);
    if (!err)
        err = dh_account_name_error(m->name);
    acct_op *op;
    acct_req *r = acct_start(c, cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST, err, ACCT_DEVICE, &op);
    if (!r)
        return;
    char key[DH_KEY_MAX], digest[DH_ACCOUNT_DIGEST_LEN + 1], created[24];
    if (dh_account_new_id(r->id) < 0) { /* used only when the device is new */
        acct_fail(op, DECKHAND__ERROR_CODE__INTERNAL, "cannot log in now");
        return;
    }
    snprintf(r->name, sizeof r->name, "%s", m->name);
    dh_account_device_digest(m->device_id, digest);
    snprintf(created, sizeof created, "%lld", (long long)time(NULL) * 1000);
    const char *keys[] = {dh_key_device(key, digest)};
    const char *args[] = {r->id, r->name, created};
    acct_eval(op, dh_script_device_login, 1, keys, 3, args, acct_on_device);
}

void accounts_login(gw_conn *c, uint64_t cmd_id, const Deckhand__AccountLogin *m)
{
    if (m->device_id && m->device_id[0])
        accounts_login_device(c, cmd_id, m);
    else
        accounts_login_password(c, cmd_id, m);
}
