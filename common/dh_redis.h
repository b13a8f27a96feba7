/*
 * dh_redis.h: one synchronous Redis store that survives Redis going away: a single Redis
 * or a Redis Cluster, routed by slot.
 *
 * Processes name Redis by URL (--redis):
 *   redis://[[user]:password@]host[:port][/db]        one Redis (the default)
 *   redis+cluster://[[user]:password@]host:port[,host:port...]
 *                                                     a Redis Cluster, from a seed list
 * DECKHAND_REDIS_CLUSTER=1 in the environment reads a plain redis:// URL as one seed of a
 * cluster too. A bare "host:port" is accepted. A dh_redis holds the parsed address and,
 * when up, hiredis contexts with connect and command timeouts, so a hung Redis stalls a
 * loop iteration by at most the timeout instead of forever. After an I/O error the
 * context is dropped (dh_redis_fail); the next call reconnects, backing off from 100 ms
 * up to 2 s, so a process keeps serving (and answering UNAVAILABLE) while Redis is down.
 *
 * Cluster routing (Debian's hiredis 0.14 has none): the slot map comes from CLUSTER SLOTS
 * asked of any known node (seeds first time), one connection per master, opened when a
 * command first needs it. A command goes to the master of its key's slot (dh_slot.h); a
 * MOVED reply updates the map (and refreshes it whole on the next call) and the command
 * is sent again to the named node; ASK sends ASKING and the command to the named node
 * once. A node that fails drops its connection and marks the map stale; the map is read
 * again every DH_REDIS_REFRESH_MS anyway (a replica added or promoted changes no route
 * but changes what dh_redis_wait waits for). Pipelines are
 * split per node and their replies handed back in command order. Scripts go by EVALSHA
 * and are loaded on the node that answers NOSCRIPT (dh_redis_cmd.script).
 * The single-Redis mode is the same code with one node that serves every slot.
 *
 * Credentials: a URL without them takes the user from DECKHAND_REDIS_USER and the password
 * from DECKHAND_REDIS_PASSWORD or the file DECKHAND_REDIS_PASSWORD_FILE (dh_secret.h), so
 * that each process role logs in as its own ACL user (dh_acl.h) without a password on its
 * command line. A connection sends AUTH user password (AUTH password without a user);
 * every node of a cluster holds the same users (they load one users.acl).
 */
#ifndef DECKHAND_DH_REDIS_H
#define DECKHAND_DH_REDIS_H

#include <hiredis/hiredis.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dh_script.h"
#include "dh_slot.h"

#define DH_REDIS_DEFAULT_PORT 6379
#define DH_REDIS_SEEDS        8  /* seeds a cluster URL may list */
#define DH_REDIS_NODES        64 /* masters a cluster may have */
#define DH_REDIS_REFRESH_MS   10000

typedef struct {
    char host[256];
    int port;
} dh_redis_hostport;

typedef struct {
    char host[256];
    int port;
    char user[64];      /* empty: the default user */
    char password[128]; /* empty: no AUTH */
    int db;             /* SELECT when not 0 (one Redis only) */
    bool cluster;       /* redis+cluster:// or DECKHAND_REDIS_CLUSTER=1 */
    int nseeds;         /* seeds[0] is host:port */
    dh_redis_hostport seeds[DH_REDIS_SEEDS];
} dh_redis_addr;

/* Parse a URL (above), credentials from the environment when it has none. 0, or -1 when
 * malformed (or a password file is unreadable). */
int dh_redis_parse_url(const char *url, dh_redis_addr *out);

/* The AUTH command for addr into argv (3 entries): its argc, 0 when no AUTH is needed. */
int dh_redis_auth_argv(const dh_redis_addr *addr, const char *argv[3]);

typedef struct {
    dh_redis_hostport at;
    redisContext *ctx; /* NULL until needed or after a failure */
    bool touched;      /* commands sent since the last dh_redis_wait */
    bool unreplicated; /* the last dh_redis_wait saw its writes reach too few replicas */
    int replicas;      /* its live replicas in the slot map (one Redis: wait_replicas) */
} dh_redis_node;

typedef struct {
    dh_redis_addr addr;
    int timeout_ms;       /* connect and per-command timeout */
    redisContext *ctx;    /* a live context (one Redis: the one), NULL while down */
    uint64_t retry_at_ms; /* next reconnect attempt */
    unsigned backoff_ms;  /* current reconnect delay */
    int down_logged;      /* the outage was logged already */
    unsigned connects;    /* connections made so far: a change means a new connection
                           * (users load their scripts again, dh_script.h) */
    /* Routing: one node serving every slot for one Redis; the masters for a cluster. */
    size_t nnodes;
    dh_redis_node nodes[DH_REDIS_NODES];
    int8_t slot_node[DH_SLOTS]; /* index into nodes, -1 unknown */
    bool stale;                 /* refresh the slot map before the next command */
    unsigned refreshes;         /* slot maps read so far */
    uint64_t refreshed_at_ms;   /* the last one, on the caller's clock */
    unsigned redirects;         /* MOVED and ASK replies followed so far */
    int wait_replicas;          /* dh_redis_wait: replicas each write must reach (0: none) */
    int wait_ms;                /* ... and how long it waits for them */
    unsigned wait_short;        /* WAITs that timed out with fewer replicas */
    int full_pct;               /* dh_redis_full: the share of maxmemory that is "full" */
    bool full;                  /* ... as last measured */
    uint64_t full_at_ms;        /* when, on the caller's clock */
} dh_redis;

/* One command of a pipeline: argv (lens NULL: C strings), or an already formatted
 * command (raw, rawlen: dh_redis_format) with its slot. script: the command is EVALSHA
 * of it (NOSCRIPT loads it on that node and sends the command again). */
typedef struct {
    int argc;
    const char **argv;
    const size_t *lens;
    const char *raw;
    size_t rawlen;
    int slot;
    const dh_script *script;
} dh_redis_cmd;

/* Parse url into r (nothing connects yet). 0, or -1 on a malformed URL. */
int dh_redis_init(dh_redis *r, const char *url, int timeout_ms);
/* A live context (connecting first when it is down and the backoff allows; for a
 * cluster, reading the slot map): for commands without a key, or as "is Redis up".
 * NULL while Redis is unreachable. The context stays owned by r. */
redisContext *dh_redis_get(dh_redis *r, uint64_t now_ms);
/* The live context of the node serving key's slot, NULL when unreachable. */
redisContext *dh_redis_for_key(dh_redis *r, const char *key, uint64_t now_ms);
/* Drop every connection after an I/O or protocol error; the next call reconnects. */
void dh_redis_fail(dh_redis *r, uint64_t now_ms);
void dh_redis_close(dh_redis *r);

/* Send n commands (split per node) and read their n replies into out, in command order,
 * following MOVED/ASK and reloading scripts. 0, or -1 when Redis is down or a connection
 * broke (every out NULL; the broken connection is dropped). Error replies are returned
 * as such. The caller frees each reply. */
int dh_redis_pipeline(dh_redis *r, uint64_t now_ms, const dh_redis_cmd *cmds, size_t n,
                      redisReply **out);
/* The same, but a node that fails costs only its own commands: their replies stay NULL,
 * every other reply is read and returned. The number of NULL replies (0: all answered).
 * For writes whose fate must be known one by one (a command that ran on a healthy node
 * must not be taken for failed and done again). */
int dh_redis_pipeline_partial(dh_redis *r, uint64_t now_ms, const dh_redis_cmd *cmds, size_t n,
                              redisReply **out);
/* One command; the reply, or NULL as above. */
redisReply *dh_redis_command(dh_redis *r, uint64_t now_ms, int argc, const char **argv,
                             const size_t *lens);
/* EVALSHA of s: argv is "EVALSHA", s->sha, numkeys, keys..., args... */
redisReply *dh_redis_script(dh_redis *r, uint64_t now_ms, const dh_script *s, int argc,
                            const char **argv, const size_t *lens);
/* Format argv into cmd (raw and slot; cmd->raw is malloc'd: dh_redis_format_free). */
int dh_redis_format(dh_redis_cmd *cmd, int argc, const char **argv, const size_t *lens);
void dh_redis_format_free(dh_redis_cmd *cmd);

/* After writes that must survive a failover: WAIT for wait_replicas replicas on every
 * node written since the last call (Redis replicates asynchronously; a master killed
 * before its replica has a write would lose it when the replica takes over). From
 * DECKHAND_REDIS_WAIT (replicas; default 1 for a cluster, 0 for one Redis) and
 * DECKHAND_REDIS_WAIT_MS (default 500). A master the slot map shows without a live
 * replica (its replica took over from a dead master and has none yet) is not waited on:
 * nothing could keep its writes anyway. The fewest replicas any node reached (a
 * shortfall is logged and counted, and marks the node: dh_redis_unreplicated), or -1 when
 * a connection broke (dropped). Nothing to wait for: wait_replicas. */
int dh_redis_wait(dh_redis *r, uint64_t now_ms);
/* True when the writes of the last dh_redis_wait to the node serving slot (-1: one Redis)
 * reached fewer replicas than asked in time: a master cut off from its replica takes
 * writes until it sees itself in the minority, and its replica, promoted meanwhile, never
 * had them, so they must not be acknowledged (tests/e2e/test_netns_rcluster_master.sh). */
bool dh_redis_unreplicated(const dh_redis *r, int slot);

/* Whether any master's used_memory has reached DECKHAND_REDIS_FULL_PCT (default 90) %
 * of its maxmemory (INFO memory, asked at most once a second; no maxmemory: never full).
 * Redis runs with maxmemory-policy noeviction (docs/OPERATIONS.md): at maxmemory it
 * refuses writes, so the processes stop taking new matches before it, and the headroom
 * left is for the matches already running. Unreachable: the last answer. */
bool dh_redis_full(dh_redis *r, uint64_t now_ms);

/* Every master's context, for commands that go to each node (SCAN): out gets up to max,
 * the count is returned (0 while unreachable). */
size_t dh_redis_masters(dh_redis *r, uint64_t now_ms, redisContext **out, size_t max);

#endif
