/*
 * bench_worker_replay.c: what serving the replay of one Dominion match costs a worker
 * (docs/BENCHMARKS.md, "Worker: replays"). A two-player Dominion match is played to its
 * end through the host on the unit tests' worker rig (its own Redis), both seats asking
 * for the default bot's answer; then its replay is served REPLAYS times (worker/replay.h:
 * the record read from Redis, the rebuild on the engine, a public view and events per
 * answer, packed and sent to the rig's gateway). Prints the answers, frames and bytes of
 * one replay and the worker's time per replay: the work itself (replay_work's calls,
 * with the pacing pauses skipped by the rig's clock), and what the pacing adds at
 * REPLAY_BURST_BYTES per REPLAY_BURST_MS.
 *
 *   bench_worker_replay [REPLAYS]      (default 20)
 *
 * Instructions, against what playing the match cost the same worker:
 *   valgrind --tool=callgrind --toggle-collect=replay_work bench_worker_replay 10
 *   valgrind --tool=callgrind --toggle-collect=bench_play bench_worker_replay 1
 */
#include <stdio.h>
#include <stdlib.h>

#include "dh_clock.h"
#include "worker.h"
#include "rig_worker.h"

static long replays_n = 20, unused;

/* Play the rig's match m-000000 to its end; the number of answers. Not inlined, so that
 * callgrind can count it (--toggle-collect=bench_play): what the match cost to play. */
__attribute__((noinline)) long bench_play(rig_worker *r)
{
    host_match *hm = host_find(&r->h, "m-000000");
    uint64_t cmd = 1;
    long answers = 0;
    while (hm && host_find(&r->h, "m-000000") && answers < 20000) {
        const engine_decision *d = engine_match_decision(hm->m);
        if (!d)
            break;
        Deckhand__Choose c = DECKHAND__CHOOSE__INIT;
        c.decision_id = d->decision_id;
        c.bot = (char *)"default";
        rig_worker_command(r, "m-000000", rig_worker_players[d->seat], cmd++, &c);
        host_flush(&r->h, r->now);
        rig_worker_drop_all(r);
        answers++;
    }
    return answers;
}

static void bench_replay(void)
{
    rig_worker r;
    rig_worker_open_bench(&r, 1);
    long answers = bench_play(&r);
    replays rp;
    replays_init(&rp);
    r.h.rp = &rp;
    uint64_t work_ns = 0;
    long turns = 0;
    for (long i = 0; i < replays_n; i++) {
        Deckhand__ReplayRequest rr = DECKHAND__REPLAY_REQUEST__INIT;
        rr.match_id = (char *)"m-000000";
        Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
        pc.match_id = rr.match_id;
        pc.player_id = (char *)"p-viewer";
        pc.cmd_id = (uint64_t)i + 1;
        pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_REPLAY;
        pc.replay = &rr;
        replay_request(&r.h, "gw-t", &pc, r.now);
        bool more = true;
        while (more) {
            uint64_t t0 = dh_now_ns();
            more = replay_work(&r.h, r.now);
            work_ns += dh_now_ns() - t0;
            turns++;
            rig_worker_advance(&r, REPLAY_BURST_MS);
            rig_worker_drop_all(&r);
        }
    }
    double per = (double)work_ns / 1e6 / (double)replays_n;
    double frames = (double)rp.frames / (double)replays_n;
    double kb = (double)rp.bytes / 1024.0 / (double)replays_n;
    double paced = (double)rp.bytes / (double)replays_n / REPLAY_BURST_BYTES * REPLAY_BURST_MS;
    printf("one dominion match of %ld answers, replayed %ld times (served %llu): %.0f frames, "
           "%.1f KB, %.0f bytes/frame; worker time %.2f ms/replay over %.1f loop turns, "
           "the pacing adds about %.0f ms\n",
           answers, replays_n, (unsigned long long)rp.served, frames, kb,
           (double)rp.bytes / (double)rp.frames, per, (double)turns / (double)replays_n, paced);
    replays_free(&r.h, &rp);
    rig_worker_close(&r);
}

int main(int argc, char **argv)
{
    return rig_worker_bench(argc, argv, "bench_worker_replay", "bench_worker_replay [REPLAYS]",
                            &replays_n, &unused, bench_replay);
}
