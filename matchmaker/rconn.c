/*
 * rconn.c: the matchmaker's Redis connection (see rconn.h).
 */
#include "rconn.h"

#include "dh_clock.h"
#include "mm.h"

/* Load cmd's script and run cmd again, replacing *out with the new reply; -1 when the
 * connection broke. */
static int rconn_reload(redisContext *c, const rconn_cmd *cmd, redisReply **out)
{
    const dh_script *scripts[] = {cmd->script};
    if (dh_script_load(c, scripts, 1) < 0)
        return c->err ? -1 : 0; /* Redis refused: the caller sees the NOSCRIPT reply */
    redisReply *r = redisCommandArgv(c, cmd->argc, cmd->argv, cmd->lens);
    if (!r)
        return -1;
    freeReplyObject(*out);
    *out = r;
    return 0;
}

redisReply *rconn_command_cmd(mm_state *mm, uint64_t now_ms, const rconn_cmd *c)
{
    redisReply *r = NULL;
    if (rconn_pipeline(mm, now_ms, c, 1, &r) < 0)
        return NULL;
    return r;
}

redisReply *rconn_command(mm_state *mm, uint64_t now_ms, int argc, const char **argv)
{
    rconn_cmd c = {.argc = argc, .argv = argv, .lens = NULL, .script = NULL};
    return rconn_command_cmd(mm, now_ms, &c);
}

redisReply *rconn_script(mm_state *mm, uint64_t now_ms, const dh_script *s, int argc,
                         const char **argv)
{
    rconn_cmd c = {.argc = argc, .argv = argv, .lens = NULL, .script = s};
    return rconn_command_cmd(mm, now_ms, &c);
}

int rconn_pipeline(mm_state *mm, uint64_t now_ms, const rconn_cmd *cmds, size_t n, redisReply **out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = NULL;
    redisContext *c = mm->redis_on ? dh_redis_get(&mm->redis, now_ms) : NULL;
    if (!c)
        return -1;
    uint64_t start_ns = dh_now_ns();
    for (size_t i = 0; i < n; i++)
        if (redisAppendCommandArgv(c, cmds[i].argc, cmds[i].argv, cmds[i].lens) != REDIS_OK)
            goto err;
    for (size_t i = 0; i < n; i++) {
        void *r = NULL;
        if (redisGetReply(c, &r) != REDIS_OK || !r)
            goto err;
        out[i] = r;
    }
    for (size_t i = 0; i < n; i++)
        if (cmds[i].script && dh_script_missing(out[i]) && rconn_reload(c, &cmds[i], &out[i]) < 0)
            goto err;
    dh_histogram_since(&mm->stats.redis_seconds, start_ns);
    return 0;
err:
    for (size_t i = 0; i < n; i++) {
        if (out[i])
            freeReplyObject(out[i]);
        out[i] = NULL;
    }
    dh_redis_fail(&mm->redis, now_ms);
    return -1;
}
