/*
 * load_players.c: one worker process of `deckhand load`: its share of the players, run
 * by `deckhand bots`' machinery (bots.h: login, queue, answer with the game's bot on
 * the server or the generic one, survive refusals, queue again after each GameOver) with
 * three additions hooked into it: a stop time, one bucket for the share's --rate over all
 * its players, and the latency of every accepted answer counted in a histogram. Once a
 * second, and at the end, what it counted goes down the pipe to cmd_load.c as a
 * load_report. Its connections decode only what a bot reads (dh_client_lean.h): the
 * generator's own CPU is part of what a load test measures.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "bots.h"
#include "load.h"

typedef struct {
    bots_run *run;
    int fd;
    load_report rep; /* the interval being counted */
    bool pipe_broken;
} load_players_state;

/* Write all of rep to fd; a broken pipe (cmd_load.c is gone) ends the reports. */
static void load_players_write(load_players_state *s)
{
    const char *p = (const char *)&s->rep;
    size_t left = sizeof s->rep;
    while (left && !s->pipe_broken) {
        ssize_t w = write(s->fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            s->pipe_broken = true;
            break;
        }
        p += w;
        left -= (size_t)w;
    }
}

/* Send the interval's record and start the next one. */
static void load_players_report(load_players_state *s, bool done, long long elapsed_ms)
{
    s->rep.seq++;
    s->rep.done = done;
    s->rep.errors = (uint64_t)s->run->errors;
    s->rep.retried = (uint64_t)s->run->retried;
    s->rep.elapsed_ms = (uint64_t)elapsed_ms;
    load_players_write(s);
    s->rep.cmds = 0;
    dh_hist_reset(&s->rep.hist);
    dh_hist_reset(&s->rep.rx_hist);
}

static void load_players_tick(void *ctx)
{
    load_players_report(ctx, false, 0);
}

static void load_players_answered(void *ctx, uint64_t latency_us, uint64_t rx_us, bool ok)
{
    load_players_state *s = ctx;
    if (!ok)
        return; /* refused: counted by the bots as retried or as an error */
    s->rep.cmds++;
    dh_hist_record(&s->rep.hist, latency_us);
    dh_hist_record(&s->rep.rx_hist, rx_us);
}

int load_players(const load_share *share, int fd)
{
    bots_run r = {.n = share->players,
                  .game = dh_flags_str(share->flags, "game", NULL, "dominion"),
                  .size = share->size,
                  .target = LONG_MAX,
                  .rate = BOTS_RATE,
                  .total_rate = share->rate,
                  .quiet = true,
                  .lean = true,
                  .rx_stamps = true};
    load_players_state *s = calloc(1, sizeof *s);
    long long start = 0, end = 0;
    if (!s)
        goto oom;
    s->run = &r;
    s->fd = fd;
    if (!(r.bots = calloc((size_t)r.n, sizeof *r.bots)))
        goto oom;
    r.ctx = s;
    r.answered = load_players_answered;
    r.tick = load_players_tick;
    if (bots_gateways(share->flags, "deckhand load", &r) < 0 ||
        bots_bot_flag(share->flags, "deckhand load", &r) < 0 || bots_start(&r) < 0) {
        r.errors++;
        goto out;
    }
    start = cli_now_ms();
    r.stop_at = start + share->seconds * 1000;
    r.total_ms = start;
    bots_loop(&r, LOAD_STALL_S);
    end = cli_now_ms();
    bots_leave(&r);
    goto out;
oom:
    fprintf(stderr, "load: out of memory\n");
    r.errors++;
out:
    if (s)
        load_players_report(s, true, end - start);
    bots_run_free(&r);
    free(s);
    return r.errors == 0 ? 0 : 1;
}
