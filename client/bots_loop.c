/*
 * bots_loop.c: the connections of `deckhand bots` (start, lose, reconnect across
 * gateways) and the one epoll loop that drives every bot and its timers.
 */
#include <errno.h>
#include <sys/epoll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "dh_client.h"
#include "dh_client_bot.h"
#include "dh_client_gws.h"
#include "dh_client_env.h"
#include "dh_client_msg.h"
#include "dh_client_track.h"
#include "bots.h"

/* ---- connections ---------------------------------------------------------------------- */

/* --gateway's comma-separated list, or the one gateway the environment names
 * (dh_client_gws.h); -1 with a message prefixed by who. */
int bots_gateways(const dh_flags *f, const char *who, bots_run *r)
{
    _Static_assert(sizeof r->addrs == sizeof((dh_client_gws *)0)->addrs, "one list size");
    char err[512];
    dh_client_gws g;
    if (dh_client_gws_parse(&g, dh_flags_str(f, "gateway", NULL, NULL), dh_flags_has(f, "ws"), err,
                            sizeof err) < 0) {
        fprintf(stderr, "%s: %s\n", who, err);
        return -1;
    }
    memcpy(r->addrs, g.addrs, sizeof r->addrs);
    r->naddrs = g.n;
    return 0;
}

int bots_bot_flag(const dh_flags *f, const char *who, bots_run *r)
{
    const char *name = dh_flags_str(f, "bot", NULL, "default");
    size_t n = strlen(name);
    r->server_bot = NULL;
    if (!strcmp(name, BOTS_BOT_LOCAL))
        return 0;
    bool ok = n > 0 && n <= BOTS_BOT_NAME_MAX;
    for (size_t i = 0; ok && i < n; i++)
        ok = name[i] > ' ' && name[i] <= '~';
    if (!ok) {
        fprintf(stderr,
                "%s: --bot wants a strategy name of the game (1..%d printable characters) "
                "or '%s'\n",
                who, BOTS_BOT_NAME_MAX, BOTS_BOT_LOCAL);
        return -1;
    }
    r->server_bot = name;
    return 0;
}

/* A lean run's connections decode into the run's arena (dh_client_arena.h), from after
 * the login on: no malloc and no free per field of every message. */
static void bots_use_arena(bots_run *r, bot *b)
{
    if (r->lean)
        dh_client_set_arena(b->c, &r->arena);
}

/* One reconnect attempt: connect, resume the session with the saved token, then resync
 * the match or queue again. On failure the next attempt waits a backoff; after
 * BOTS_DOWN_MAX the run is broken. */
static void bots_reconnect(bots_run *r, bot *b, long long now)
{
    char err[256], token[sizeof b->token];
    dh_client *c = dh_client_connect(r->addrs[b->gw], err, sizeof err);
    if (c) {
        dh_client_set_lean(c, r->lean);
        if (r->rx_stamps)
            dh_client_set_rx_stamps(c, true);
        dh_client_set_next_cmd(c, b->next_cmd);
        if (dh_client_resume(c, b->token, NULL, 0, token, sizeof token) == 0)
            goto resumed;
        snprintf(err, sizeof err, "the session was not resumed");
        dh_client_close(c);
    }
    now = cli_now_ms();
    if (now - b->down_since > BOTS_DOWN_MAX) {
        fprintf(stderr, "bots: %s: cannot reconnect for %d s (%s), giving up\n", b->name,
                BOTS_DOWN_MAX / 1000, err);
        r->errors++;
        r->broken = true;
        return;
    }
    b->gw = (b->gw + 1) % r->naddrs; /* that one is down, perhaps: try the next */
    b->reconnect_at = now + bots_backoff(b);
    return;
resumed:
    b->c = c;
    bots_use_arena(r, b);
    b->conn_seq++;
    memcpy(b->token, token, sizeof token);
    b->reconnect_at = 0;
    b->down_since = 0;
    b->backoff = BOTS_BACKOFF_MIN;
    b->tokens_ms = cli_now_ms();
    r->reconnects++;
    r->last_progress = b->tokens_ms;
    fprintf(stderr, "bots: %s: reconnected%s%s\n", b->name, b->match_id[0] ? ", resync " : "",
            b->match_id);
    if (b->gw != b->lost_gw) {
        r->moved++;
        fprintf(stderr, "bots: %s: resumed on %s (was %s)\n", b->name, r->addrs[b->gw],
                r->addrs[b->lost_gw]);
    }
    if (b->match_id[0]) {
        bots_resync(r, b);
    } else if (b->want_match) {
        b->rejoin = true;
        bots_queue(r, b);
    }
}

/* b, just logged in, queues (a lost connection here is the start's failure). */
static int bots_start_queue(bots_run *r, bot *b)
{
    bots_queue(r, b);
    return b->c ? 0 : -1;
}

/* Log bot i in and (unless --burst, which queues everyone afterwards) queue it; 0 or -1. */
static int bots_start_one(bots_run *r, int i)
{
    bot *b = &r->bots[i];
    char err[256];
    b->start_at = 0;
    b->tokens = bots_bucket(r);
    b->tokens_ms = cli_now_ms();
    b->c = dh_client_connect(r->addrs[b->gw], err, sizeof err);
    b->conn_seq++;
    if (!b->c) {
        fprintf(stderr, "bots: %s: %s\n", b->name, err);
        return -1;
    }
    dh_client_set_lean(b->c, r->lean);
    if (r->rx_stamps)
        dh_client_set_rx_stamps(b->c, true);
    if (cli_login(b->c, "bots", r->account ? b->name : NULL, r->register_first, b->name, b->token,
                  sizeof b->token) < 0)
        return -1;
    bots_use_arena(r, b);
    r->last_progress = cli_now_ms();
    return r->burst ? 0 : bots_start_queue(r, b);
}

/* The timers: reconnects, resyncs, re-joins, paced answers. */
static void bots_timers(bots_run *r, long long now)
{
    int from = r->flush_from;
    r->flush_from = (from + 1) % r->n; /* with a shared bucket, the first served rotates */
    for (int k = 0; k < r->n && !r->broken; k++) {
        bot *b = &r->bots[(from + k) % r->n];
        if (!b->c) {
            if (b->start_at && now >= b->start_at && bots_start_one(r, (from + k) % r->n) < 0) {
                r->errors++;
                r->broken = true;
            } else if (b->reconnect_at && now >= b->reconnect_at) {
                bots_reconnect(r, b, now);
            }
            continue;
        }
        if (b->resync_at && now >= b->resync_at && !b->resync_cmd && b->match_id[0]) {
            if (bots_is_done(r, b->match_id)) {
                fprintf(stderr, "bots: %s: match %s finished while it was away\n", b->name,
                        b->match_id);
                bots_leave_match(r, b);
            } else {
                bots_resync(r, b);
            }
        }
        if (b->c && b->join_at && now >= b->join_at) {
            b->join_at = 0;
            if (b->want_match && !b->match_id[0] && !b->join_cmd)
                bots_queue(r, b);
        }
        if (b->c)
            bots_flush(r, b, now);
        bots_check_late(r, b, now);
    }
}

/* Milliseconds until the earliest timer of b (limit when none is sooner). */
static long long bots_next_timer(const bots_run *r, const bot *b, long long now, long long limit)
{
    long long at[4] = {b->c ? 0 : b->reconnect_at, b->c ? b->resync_at : 0, b->c ? b->join_at : 0,
                       b->c ? 0 : b->start_at};
    for (int i = 0; i < 4; i++)
        if (at[i] && at[i] - now < limit)
            limit = at[i] > now ? at[i] - now : 0;
    if (b->c && b->has_answer && !b->answer_cmd && !b->paced && bots_wait_ms(r, b, now) < limit)
        limit = bots_wait_ms(r, b, now);
    return limit;
}

int bots_start(bots_run *r)
{
    long long t0 = cli_now_ms();
    dh_arena_init(&r->arena);
    for (int i = 0; i < r->n; i++) {
        bot *b = &r->bots[i];
        if (r->account && r->n == 1)
            snprintf(b->name, sizeof b->name, "%s", r->account);
        else if (r->account)
            snprintf(b->name, sizeof b->name, "%.16s-%d", r->account, i + 1);
        else
            snprintf(b->name, sizeof b->name, "bot-%d-%d", (int)getpid() % 100000, i + 1);
        b->backoff = BOTS_BACKOFF_MIN;
        b->gw = b->lost_gw = i % r->naddrs;
        /* --ramp: bot i logs in i/n of the way through it, from the loop's timers */
        b->start_at = r->ramp_ms && i ? t0 + r->ramp_ms * i / r->n : 0;
        if (!b->start_at && bots_start_one(r, i) < 0)
            return -1;
    }
    for (int i = 0; r->burst && i < r->n; i++)
        if (bots_start_queue(r, &r->bots[i]) < 0)
            return -1;
    fprintf(stderr, "bots: %d bots %s at %s%s, queued for %s (%u players), answering with %s%s\n",
            r->n, r->ramp_ms ? "logging in over the ramp" : "logged in", r->addrs[0],
            r->naddrs > 1 ? " and the other gateways" : "", r->game, r->size,
            r->server_bot ? "the server's bot " : "the local generic bot",
            r->server_bot ? r->server_bot : "");
    return 0;
}

/* Take the bots that wait in the queue out of it, so a later run (or a human) is not
 * matched with players that are gone; waits up to a second for the Replies. Failures
 * here are not the run's errors. */
void bots_run_free(bots_run *r)
{
    for (int i = 0; r->bots && i < r->n; i++)
        dh_client_close(r->bots[i].c);
    dh_arena_free(&r->arena);
    free(r->bots);
    r->bots = NULL;
    for (long i = 0; i < r->ndone; i++)
        free(r->done[i]);
    free(r->done);
    r->done = NULL;
    r->ndone = 0;
}

void bots_leave(bots_run *r)
{
    unsigned long long *cmd = calloc((size_t)r->n, sizeof *cmd);
    if (!cmd)
        return;
    for (int i = 0; i < r->n; i++) {
        bot *b = &r->bots[i];
        if (!b->c || b->match_id[0])
            continue;
        dh_client_msg msg;
        Deckhand__ClientMessage *m = dh_client_msg_queue_leave(&msg, r->game);
        m->cmd_id = dh_client_next_cmd(b->c);
        if (dh_client_send(b->c, m) == 0)
            cmd[i] = m->cmd_id;
    }
    long long deadline = cli_now_ms() + 1000;
    for (int i = 0; i < r->n; i++) {
        Deckhand__ServerMessage *s;
        long long left;
        while (cmd[i] && (left = deadline - cli_now_ms()) > 0 &&
               dh_client_recv(r->bots[i].c, (int)left, &s) == 1) {
            if (s->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY && s->reply->cmd_id == cmd[i])
                cmd[i] = 0;
            dh_arena_release(&r->arena, s);
        }
    }
    free(cmd);
}

/* The loop's epoll set: each bot's connection registered under its index, and which
 * connection (bot.conn_seq) that was, so a reconnect is registered again even when the
 * new socket got the old descriptor number back. A closed socket leaves the set by
 * itself. One epoll_wait costs what the ready sockets cost, where a poll() over every
 * player cost what all of them do (docs/BENCHMARKS.md, the load generator). */
typedef struct {
    int ep;
    unsigned long *seq; /* per bot: the conn_seq registered, 0: none */
    struct epoll_event *ev;
} bots_epoll;

static int bots_epoll_open(bots_epoll *e, int n)
{
    *e = (bots_epoll){.ep = epoll_create1(EPOLL_CLOEXEC)};
    n = n > 0 ? n : 1;
    e->seq = calloc((size_t)n, sizeof *e->seq);
    e->ev = calloc((size_t)n, sizeof *e->ev);
    return e->ep >= 0 && e->seq && e->ev ? 0 : -1;
}

static void bots_epoll_close(bots_epoll *e)
{
    if (e->ep >= 0)
        close(e->ep);
    free(e->seq);
    free(e->ev);
}

/* Register bot i's connection if it is new to the set. */
static void bots_epoll_watch(bots_epoll *e, const bot *b, int i)
{
    if (!b->c || e->seq[i] == b->conn_seq)
        return;
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
    int fd = dh_client_fd(b->c);
    if (epoll_ctl(e->ep, EPOLL_CTL_ADD, fd, &ev) < 0 && errno == EEXIST)
        epoll_ctl(e->ep, EPOLL_CTL_MOD, fd, &ev);
    e->seq[i] = b->conn_seq;
}

/* A full turn's scan before the wait: register new connections, and from every bot's
 * timers (and buffered messages: wait 0) the wait and when the next full turn is due. */
static long long bots_scan(bots_run *r, bots_epoll *e, long long now, long long wait)
{
    for (int i = 0; i < r->n; i++) {
        bot *b = &r->bots[i];
        bots_epoll_watch(e, b, i);
        if (b->c && dh_client_pending(b->c))
            wait = 0;
        if (b->c && b->has_answer && !b->answer_cmd)
            r->last_progress = now; /* waiting on our own pacing is not a stall */
        wait = bots_next_timer(r, b, now, wait);
    }
    return wait;
}

/* Drain b (read first when its socket is readable) and bring the next full turn forward
 * to b's earliest timer, which what it read may have set (a resync, a paced answer). */
static void bots_serve(bots_run *r, bot *b, bool readable, long long *full_at)
{
    bots_drain(r, b, readable);
    long long now = cli_now_ms();
    long long next = now + bots_next_timer(r, b, now, *full_at > now ? *full_at - now : 0);
    if (next < *full_at)
        *full_at = next;
    if (!b->c)
        *full_at = now; /* lost: its reconnect is the timers' */
}

void bots_loop(bots_run *r, long timeout_s)
{
    bots_epoll e;
    if (bots_epoll_open(&e, r->n) < 0) {
        fprintf(stderr, "bots: cannot set up the loop: %s\n", strerror(errno));
        bots_epoll_close(&e);
        r->errors++;
        return;
    }
    r->last_progress = cli_now_ms();
    r->tick_at = r->last_progress + 1000;
    /* A turn looks at every bot (timers, new connections, buffered messages) only when
     * full: when the earliest timer a full turn found is due, and at least every
     * BOTS_FULL_MS; the turns between serve only the bots whose socket is readable and
     * the answers waiting in the run's line (--rate) as its bucket refills, so a turn
     * costs what the ready bots cost, not what all of them do. */
    long long full_at = 0;
    r->line = calloc((size_t)(r->n > 0 ? r->n : 1), sizeof *r->line);
    r->line_head = r->line_len = 0;
    while (!r->broken && r->ndone < r->target) {
        long long now = cli_now_ms();
        long long idle = now - r->last_progress;
        if (r->stop_at && now >= r->stop_at)
            break;
        if (r->tick && now >= r->tick_at) {
            r->tick(r->ctx);
            r->tick_at += 1000;
        }
        if (idle >= timeout_s * 1000) {
            fprintf(stderr, "bots: no progress for %ld s (%ld/%ld matches finished)\n", timeout_s,
                    r->ndone, r->target);
            r->errors++;
            break;
        }
        long long wait = timeout_s * 1000 - idle;
        if (wait > 1000)
            wait = 1000;
        if (r->tick && wait > r->tick_at - now)
            wait = r->tick_at > now ? r->tick_at - now : 0;
        if (r->stop_at && wait > r->stop_at - now)
            wait = r->stop_at > now ? r->stop_at - now : 0;
        bool full = now >= full_at;
        if (full) {
            wait = bots_scan(r, &e, now, wait < BOTS_FULL_MS ? wait : BOTS_FULL_MS);
            full_at = now + wait;
        } else if (wait > full_at - now) {
            wait = full_at - now;
        }
        wait = bots_line_wait_ms(r, now, wait); /* the line is served at every turn */
        int got = epoll_wait(e.ep, e.ev, r->n, (int)wait);
        if (got < 0 && errno != EINTR)
            break;
        for (int k = 0; k < got && !r->broken; k++) {
            uint32_t i = e.ev[k].data.u32;
            if (i < (uint32_t)r->n && r->bots[i].c)
                bots_serve(r, &r->bots[i], true, &full_at);
        }
        bots_line_serve(r, cli_now_ms());
        if (!full)
            continue;
        for (int i = 0; i < r->n && !r->broken; i++) /* what a login or resume buffered */
            if (r->bots[i].c && dh_client_pending(r->bots[i].c))
                bots_serve(r, &r->bots[i], false, &full_at);
        bots_timers(r, cli_now_ms());
        for (int i = 0; i < r->n; i++) /* connections the timers made or remade */
            bots_epoll_watch(&e, &r->bots[i], i);
    }
    free(r->line);
    r->line = NULL;
    for (int i = 0; i < r->n; i++)
        r->bots[i].paced = false;
    bots_epoll_close(&e);
}
