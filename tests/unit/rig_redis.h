/*
 * rig_redis.h: the redis-server of one test program, for the tests that store in a real
 * Redis (the matchmaker's, the worker store's): rig_redis_main starts it on a free port
 * of 127.0.0.1 around the cases and stops it after; the tests reach it through a fresh
 * connection per command, and may stop and start it to play an outage (it comes back
 * empty: no persistence).
 */
#ifndef DECKHAND_RIG_REDIS_H
#define DECKHAND_RIG_REDIS_H

#include <hiredis/hiredis.h>

#include "dh_test.h"

/* Start redis-server, run the cases as suite, stop it: main()'s whole body. The process
 * exit code (1 when Redis does not start). */
int rig_redis_main(const char *suite, const dh_test_case *cases);
const char *rig_redis_url(void); /* redis://127.0.0.1:PORT */
int rig_redis_port(void);

/* An outage: stop kills the server; start brings it back on the same port (fatal when it
 * does not answer). */
void rig_redis_stop(void);
void rig_redis_start(void);

/* One command on a fresh connection: its reply (the caller frees it), or NULL when Redis
 * does not answer. */
redisReply *rig_redis_cmd(const char *fmt, ...);
/* The same for an integer reply: its value, or -1 when it is not one. */
long long rig_redis_int(const char *fmt, ...);
/* A command that must succeed: a failed connection or an error reply is fatal. */
void rig_redis_ok(const char *fmt, ...);
/* Empty every key (fatal when Redis does not answer). */
void rig_redis_flushall(void);
/* How many times Redis ran command NAME (INFO commandstats' cmdstat_NAME calls=); 0 when
 * never. */
long long rig_redis_calls(const char *name);

#endif
