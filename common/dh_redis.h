/*
 * dh_redis.h: one synchronous Redis connection that survives Redis going away.
 *
 * Processes name Redis by URL (redis://[[user]:password@]host[:port][/db], --redis). A
 * dh_redis holds the parsed address and, when up, a hiredis context with connect and
 * command timeouts, so a hung Redis stalls a loop iteration by at most the timeout
 * instead of forever. After an I/O error the caller drops the context
 * (dh_redis_fail); dh_redis_get reconnects on a later call, backing off from 100 ms up to
 * 2 s, so a process keeps serving (and answering UNAVAILABLE) while Redis is down.
 *
 * Credentials: a URL without them takes the user from DECKHAND_REDIS_USER and the password
 * from DECKHAND_REDIS_PASSWORD or the file DECKHAND_REDIS_PASSWORD_FILE (dh_secret.h), so
 * that each process role logs in as its own ACL user (dh_acl.h) without a password on its
 * command line. A connection sends AUTH user password (AUTH password without a user).
 */
#ifndef DECKHAND_DH_REDIS_H
#define DECKHAND_DH_REDIS_H

#include <hiredis/hiredis.h>
#include <stddef.h>
#include <stdint.h>

#define DH_REDIS_DEFAULT_PORT 6379

typedef struct {
    char host[256];
    int port;
    char user[64];      /* empty: the default user */
    char password[128]; /* empty: no AUTH */
    int db;             /* SELECT when not 0 */
} dh_redis_addr;

/* Parse a redis:// URL (a bare "host:port" is accepted too), credentials from the
 * environment when it has none. 0, or -1 when malformed (or a password file is unreadable). */
int dh_redis_parse_url(const char *url, dh_redis_addr *out);

/* The AUTH command for addr into argv (3 entries): its argc, 0 when no AUTH is needed. */
int dh_redis_auth_argv(const dh_redis_addr *addr, const char *argv[3]);

typedef struct {
    dh_redis_addr addr;
    int timeout_ms;       /* connect and per-command timeout */
    redisContext *ctx;    /* NULL while down */
    uint64_t retry_at_ms; /* next reconnect attempt */
    unsigned backoff_ms;  /* current reconnect delay */
    int down_logged;      /* the outage was logged already */
    unsigned connects;    /* connections made so far: a change means a new connection
                           * (users load their scripts again, dh_script.h) */
} dh_redis;

/* Parse url into r (nothing connects yet). 0, or -1 on a malformed URL. */
int dh_redis_init(dh_redis *r, const char *url, int timeout_ms);
/* The live context, connecting first when it is down and the backoff allows. NULL
 * while Redis is unreachable. The context stays owned by r. */
redisContext *dh_redis_get(dh_redis *r, uint64_t now_ms);
/* Drop the context after an I/O or protocol error; the next dh_redis_get reconnects. */
void dh_redis_fail(dh_redis *r, uint64_t now_ms);
void dh_redis_close(dh_redis *r);

#endif
