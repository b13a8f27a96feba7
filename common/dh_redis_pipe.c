/*
 * dh_redis_pipe.c: commands and pipelines over dh_redis, routed by slot (dh_redis.h).
 *
 * A pipeline is formatted once, appended to each command's node, and read back in command
 * order (each node answers its own commands in order). Replies that move a command
 * (MOVED, ASK) or miss its script (NOSCRIPT) are then settled one command at a time: they
 * are rare (a resharding, a failover, a restarted node), so the simple path is the fast one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_redis_int.h"
#include "dh_str.h"

#define PIPE_REDIRECTS_MAX 5 /* redirects followed for one command before giving up */

/* Append "<c><n>\r\n" to raw at *at (cap bytes in all; the caller sized it). */
static void pipe_head(char *raw, size_t cap, size_t *at, char c, size_t n)
{
    raw[(*at)++] = c;
    dh_str_add_uint(raw, cap, at, n);
    raw[(*at)++] = '\r';
    raw[(*at)++] = '\n';
}

/* The RESP form of a command, as hiredis's redisFormatCommandArgv writes it, without its
 * sprintf per argument (issue 27: a matchmaker write of 150 arguments spent 15,000
 * instructions of its 30,000 in them). malloc'd: redisFreeCommand frees it. */
int dh_redis_format(dh_redis_cmd *cmd, int argc, const char **argv, const size_t *lens)
{
    memset(cmd, 0, sizeof *cmd);
    if (argc < 0)
        return -1;
    size_t total = 24 + 2;
    for (int i = 0; i < argc; i++)
        total += 24 + 2 + (lens ? lens[i] : strlen(argv[i])) + 2;
    char *raw = malloc(total + 1);
    if (!raw)
        return -1;
    size_t at = 0;
    pipe_head(raw, total + 1, &at, '*', (size_t)argc);
    for (int i = 0; i < argc; i++) {
        size_t len = lens ? lens[i] : strlen(argv[i]);
        pipe_head(raw, total + 1, &at, '$', len);
        memcpy(raw + at, argv[i], len);
        at += len;
        raw[at++] = '\r';
        raw[at++] = '\n';
    }
    raw[at] = '\0';
    cmd->raw = raw;
    cmd->rawlen = at;
    cmd->slot = dh_slot_of_command(argc, argv, lens);
    return 0;
}

void dh_redis_format_free(dh_redis_cmd *cmd)
{
    redisFreeCommand((char *)cmd->raw);
    cmd->raw = NULL;
    cmd->rawlen = 0;
}

/* Send raw to node i (after ASKING when asking) and read its reply; NULL when the
 * connection broke (the node is dropped). */
static redisReply *pipe_once(dh_redis *r, size_t i, const char *raw, size_t len, bool asking)
{
    redisContext *c = dh_redis_node_ctx(r, i);
    if (!c)
        return NULL;
    void *ask = NULL, *rep = NULL;
    if ((asking && redisAppendCommand(c, "ASKING") != REDIS_OK) ||
        redisAppendFormattedCommand(c, raw, len) != REDIS_OK ||
        (asking && redisGetReply(c, &ask) != REDIS_OK) || redisGetReply(c, &rep) != REDIS_OK) {
        if (ask)
            freeReplyObject(ask);
        dh_redis_fail(r, 0);
        return NULL;
    }
    if (ask)
        freeReplyObject(ask);
    return rep;
}

static bool pipe_is_error(const redisReply *rep)
{
    return rep && rep->type == REDIS_REPLY_ERROR;
}

/* Settle *rep for cmd, sent to node: follow redirects, load a missing script. -1 when a
 * connection broke. */
static int pipe_settle(dh_redis *r, const dh_redis_cmd *cmd, int node, redisReply **rep)
{
    for (int hops = 0; hops < PIPE_REDIRECTS_MAX && pipe_is_error(*rep); hops++) {
        dh_redirect to;
        bool asking = false;
        int i = dh_redis_redirect(r, *rep, &to);
        if (to.kind != DH_REDIRECT_NONE) {
            if (i < 0)
                return 0;
            asking = to.kind == DH_REDIRECT_ASK;
            node = i;
        } else if (cmd->script && dh_script_missing(*rep)) {
            redisContext *c = dh_redis_node_ctx(r, (size_t)node);
            const dh_script *one[] = {cmd->script};
            if (!c || dh_script_load(c, one, 1) < 0)
                return c && !c->err ? 0 : -1;
        } else {
            return 0; /* an answer: the caller reads it */
        }
        redisReply *again = pipe_once(r, (size_t)node, cmd->raw, cmd->rawlen, asking);
        if (!again)
            return -1;
        freeReplyObject(*rep);
        *rep = again;
    }
    return 0;
}

/* Whether the formatted command is the one-word command word. */
static bool pipe_is(const dh_redis_cmd *c, const char *word)
{
    char want[32];
    int n = snprintf(want, sizeof want, "*1\r\n$%zu\r\n%s\r\n", strlen(word), word);
    return c->rawlen == (size_t)n && !memcmp(c->raw, want, (size_t)n);
}

/* A transaction goes to the node of its commands: MULTI takes the slot of the next keyed
 * command, EXEC and DISCARD that of the previous one (their keys share a slot). */
static void pipe_transactions(dh_redis_cmd *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (f[i].slot >= 0)
            continue;
        bool multi = pipe_is(&f[i], "MULTI");
        bool exec = pipe_is(&f[i], "EXEC") || pipe_is(&f[i], "DISCARD");
        for (size_t k = i + 1; multi && k < n && f[i].slot < 0; k++)
            f[i].slot = f[k].slot;
        for (size_t k = i; exec && k-- > 0 && f[i].slot < 0;)
            f[i].slot = f[k].slot;
    }
}

/* The node of slot for a command of a pipeline under way (the map is not read again
 * mid-pipeline: that would renumber the nodes commands were sent to), connected; -1. */
static int pipe_node(dh_redis *r, int slot, uint64_t now_ms)
{
    int i = slot >= 0 ? r->slot_node[slot] : 0;
    if (i < 0 || (size_t)i >= r->nnodes) {
        r->stale = r->addr.cluster;
        return -1;
    }
    return dh_redis_node_up(r, (size_t)i, now_ms) < 0 ? -1 : i;
}

/* Drop node i after a failure mid-pipeline; its commands get no reply. */
static void pipe_drop(dh_redis *r, int i, bool *broken)
{
    broken[i] = true;
    dh_redis_node_fail(r, (size_t)i);
    r->stale = r->addr.cluster;
}

int dh_redis_pipeline_partial(dh_redis *r, uint64_t now_ms, const dh_redis_cmd *cmds, size_t n,
                              redisReply **out)
{
    dh_redis_cmd *f = calloc(n ? n : 1, sizeof *f);
    int *node = calloc(n ? n : 1, sizeof *node);
    bool broken[DH_REDIS_NODES] = {false};
    size_t nf = 0, missing = n;
    for (size_t k = 0; k < n; k++)
        out[k] = NULL;
    if (!f || !node)
        goto out;
    for (size_t k = 0; k < n; k++) {
        if (cmds[k].raw) {
            f[k] = cmds[k];
        } else {
            if (dh_redis_format(&f[k], cmds[k].argc, cmds[k].argv, cmds[k].lens) < 0)
                goto out;
            f[k].script = cmds[k].script;
            nf = k + 1;
        }
    }
    pipe_transactions(f, n);
    if (n && dh_redis_route(r, f[0].slot, now_ms) < 0) /* reads the map when it is stale */
        goto out;
    for (size_t k = 0; k < n; k++) {
        node[k] = pipe_node(r, f[k].slot, now_ms);
        if (node[k] < 0 || broken[node[k]])
            continue;
        r->nodes[node[k]].touched = true;
        if (redisAppendFormattedCommand(r->nodes[node[k]].ctx, f[k].raw, f[k].rawlen) != REDIS_OK)
            pipe_drop(r, node[k], broken);
    }
    for (size_t k = 0; k < n; k++) {
        void *rep = NULL;
        if (node[k] < 0 || broken[node[k]])
            continue;
        if (redisGetReply(r->nodes[node[k]].ctx, &rep) != REDIS_OK || !rep) {
            pipe_drop(r, node[k], broken);
            continue;
        }
        out[k] = rep;
    }
    missing = 0;
    for (size_t k = 0; k < n; k++) {
        if (out[k] && pipe_is_error(out[k]) && pipe_settle(r, &f[k], node[k], &out[k]) < 0) {
            freeReplyObject(out[k]);
            out[k] = NULL;
        }
        missing += !out[k];
    }
    if (missing)
        r->retry_at_ms = now_ms + r->backoff_ms;
out:
    for (size_t k = 0; f && k < nf; k++)
        if (!cmds[k].raw)
            dh_redis_format_free(&f[k]);
    free(f);
    free(node);
    return (int)missing;
}

int dh_redis_pipeline(dh_redis *r, uint64_t now_ms, const dh_redis_cmd *cmds, size_t n,
                      redisReply **out)
{
    if (dh_redis_pipeline_partial(r, now_ms, cmds, n, out) == 0)
        return 0;
    for (size_t k = 0; k < n; k++) {
        if (out[k])
            freeReplyObject(out[k]);
        out[k] = NULL;
    }
    return -1;
}

redisReply *dh_redis_command(dh_redis *r, uint64_t now_ms, int argc, const char **argv,
                             const size_t *lens)
{
    dh_redis_cmd c = {.argc = argc, .argv = argv, .lens = lens};
    redisReply *rep = NULL;
    return dh_redis_pipeline(r, now_ms, &c, 1, &rep) < 0 ? NULL : rep;
}

redisReply *dh_redis_script(dh_redis *r, uint64_t now_ms, const dh_script *s, int argc,
                            const char **argv, const size_t *lens)
{
    dh_redis_cmd c = {.argc = argc, .argv = argv, .lens = lens, .script = s};
    redisReply *rep = NULL;
    return dh_redis_pipeline(r, now_ms, &c, 1, &rep) < 0 ? NULL : rep;
}
