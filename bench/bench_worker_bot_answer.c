/*
 * bench_worker_bot_answer.c: what a player's bot answer (Choose.bot) costs the worker
 * (docs/BENCHMARKS.md, "Worker: bot answers"). bench_worker_command's set-up (N two-player
 * Dominion matches through the host on the unit tests' worker rig), but every pending
 * decision is answered with Choose{bot = "default"}, so the worker runs the game's bot
 * (engine_match_bot_answer) before applying its answer. Prints the wall time per command.
 *
 *   bench_worker_bot_answer [MATCHES [COMMANDS]]      (default 64 4000)
 *
 * The bot's share is what callgrind counts inside engine_match_bot_answer:
 *   valgrind --tool=callgrind --toggle-collect=engine_match_bot_answer bench_worker_bot_answer
 * and the whole command's, as in bench_worker_command, inside bench_bot_round.
 */
#include <stdio.h>
#include <stdlib.h>

#include "dh_clock.h"
#include "rig_worker.h"

static long matches = 64, commands = 4000;

/* Ask for the default bot's answer to the pending decision of every match still hosted
 * once (at most left of them), flushing every 64 and at the end. The number asked. */
__attribute__((noinline)) long bench_bot_round(rig_worker *r, uint64_t *cmd, long left)
{
    long n = 0;
    for (size_t i = 0; i < host_active(&r->h) && n < left; i++) {
        host_match *hm = r->h.matches[i];
        const engine_decision *d = engine_match_decision(hm->m);
        if (!d)
            continue;
        Deckhand__Choose c = DECKHAND__CHOOSE__INIT;
        c.decision_id = d->decision_id;
        c.bot = (char *)"default";
        rig_worker_command(r, hm->id, rig_worker_players[d->seat], (*cmd)++, &c);
        if (++n % 64 == 0)
            host_flush(&r->h, r->now);
    }
    host_flush(&r->h, r->now);
    return n;
}

static void bench_bot_answer(void)
{
    rig_worker r;
    rig_worker_open_bench(&r, matches);
    uint64_t cmd = 1;
    long done = 0;
    double t0 = (double)dh_now_ns() / 1e9;
    while (done < commands) {
        long n = bench_bot_round(&r, &cmd, commands - done);
        rig_worker_drop_all(&r);
        if (!n)
            break;
        done += n;
    }
    double dt = (double)dh_now_ns() / 1e9 - t0;
    printf("%ld bot answers over %ld matches: %.1f us/command (wall, host and Redis round "
           "trips)\n",
           done, matches, dt * 1e6 / (double)(done ? done : 1));
    rig_worker_close(&r);
}

int main(int argc, char **argv)
{
    return rig_worker_bench(argc, argv, "bench_worker_bot_answer",
                            "bench_worker_bot_answer [MATCHES [COMMANDS]]", &matches, &commands,
                            bench_bot_answer);
}
