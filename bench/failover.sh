#!/usr/bin/env bash
# failover.sh: a worker killed mid-game, as the players feel it (docs/BENCHMARKS.md,
# "Failover"). Starts a cluster of WORKERS workers (default 2; ports from 30700), plays
# MATCHES two-player Dominion bot matches (default 2,000: 4,000 bots) paced at RATE messages
# per second per bot (default 0.25: about 1,000 answers/s, which the survivor still serves
# once it holds every match; at 0.5 it was overloaded after the move) so that they all run
# at once without saturating two cores,
# waits until nine in ten run, then kills -9 the worker wk-2 (with 2 workers about half of
# the matches, ~1,000) and reports over the matches it ran:
# - kill -> the match's next accepted answer (the first Reply{ok} to a Choose of either of
#   its players after the kill, from the bots' --answer-log), p50 / p99 / max, less the
#   time its bot held the decision unsent by its own pace (the players' wait on the
#   cluster: the headline), and as measured (raw: up to 1/RATE s of the bots' pace more);
# - how many moved (were on wk-2), how many never had an answer accepted after the kill;
# - lost answers: accepted answers the match then forgot (LOST), answers with no Reply for
#   10 s (unanswered) and answers refused for good (answers_refused), over the whole run;
# - unfinished: moved matches with no GameOver when the bots stopped;
# - from the logs: when the matchmaker declared wk-2 dead, when the last adoption was logged.
# Bounded in time: the bots run under `timeout`, every wait gives up when they died. Each
# worker's capacity is raised (DECKHAND_WORKER_CAPACITY, default MATCHES + 500) so that the
# survivors can take the moved matches.
# Usage: bench/failover.sh [MATCHES] [ROUNDS] (env WORKERS, RATE, RAMP: the bots log in
# over RAMP s, default 20); binaries from
# DECKHAND_BIN_DIR (a Release build: build-rel/bin). The last line is the summary to quote:
#   failover: kill -> next accepted answer p50 P ms p99 Q ms max M ms over N moved matches ...
# shellcheck source=SCRIPTDIR/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

MATCHES=${1:-2000}
ROUNDS=${2:-1}
WORKERS=${WORKERS:-2}
RATE=${RATE:-0.25}
RAMP=${RAMP:-20} # s over which the bots log in: many matches start, but no start burst
# Every survivor must have room for what it adopts: a worker hosts at most 1,000 matches by
# default, so with 2 workers at 1,000 each the moved ones would find no worker to go to
# (and be given up by their players after 30 s); the bench measures the move, not that.
export DECKHAND_WORKER_CAPACITY=${DECKHAND_WORKER_CAPACITY:-$((MATCHES + 500))}
all=$(mktemp /tmp/deckhand-failover.XXXXXX)
moved=0 none=0 lost=0 unfinished=0

# One round on a fresh cluster; appends each moved match's time to $all.
failover_round() {
    local round=$1 victims kill_ms dead_ms adopted_ms times n s_lost s_unans s_ref not_over
    e2e_start 30700 "$WORKERS"
    bench_bots "$MATCHES" "$RATE" 900 --once --ramp "$RAMP"
    bench_wait_running $((MATCHES * 9 / 10)) 300
    sleep 3
    bench_bots_alive
    victims=$E2E_RUN/victims
    e2e_matches_on wk-2 >"$victims"
    n=$(wc -l <"$victims")
    kill_ms=$(date +%s%3N)
    dh_cluster_kill "$E2E_RUN" worker-2 KILL
    e2e_log "round $round: killed wk-2 with $n of $(e2e_redis hlen matches:running) running matches"
    bench_bots_wait 600
    times=$(bench_next_ok "$E2E_RUN/answers.log" "$kill_ms" "$victims")
    grep -v '^none' <<<"$times" >>"$all"
    waits=$(grep -v '^none' <<<"$times" | cut -d' ' -f2)
    raws=$(grep -v '^none' <<<"$times" | cut -d' ' -f1)
    none=$((none + $(grep -c '^none' <<<"$times")))
    moved=$((moved + n))
    s_lost=$(bench_field "$BENCH_SUMMARY" lost)
    s_unans=$(bench_field "$BENCH_SUMMARY" unanswered)
    s_ref=$(bench_field "$BENCH_SUMMARY" answers_refused)
    lost=$((lost + s_lost + s_unans + s_ref))
    not_over=$(bench_not_over "$E2E_RUN/answers.log" "$victims")
    unfinished=$((unfinished + not_over))
    dead_ms=$(bench_log_ms "$E2E_RUN/logs/matchmaker.log" 'worker wk-2 .*dead')
    adopted_ms=$(cat "$E2E_RUN"/logs/worker-*.log | grep ': adopted at epoch' | cut -d' ' -f1 |
        sort | tail -n 1)
    [[ -n $adopted_ms ]] && adopted_ms=$(date -d "$adopted_ms" +%s%3N)
    e2e_log "round $round: bots: $BENCH_LAST (exit $BENCH_BOTS_RC); $BENCH_SUMMARY"
    echo "round $round: $n moved; kill -> next accepted answer" \
        "p50 $(bench_pct 50 <<<"$waits") ms, p99 $(bench_pct 99 <<<"$waits") ms," \
        "max $(bench_pct 100 <<<"$waits") ms (raw, with the bots' pace:" \
        "p50 $(bench_pct 50 <<<"$raws") p99 $(bench_pct 99 <<<"$raws") max $(bench_pct 100 <<<"$raws"));" \
        "$(grep -c '^none' <<<"$times") with no answer after the kill;" \
        "lost $s_lost, unanswered $s_unans, refused $s_ref; unfinished $not_over;" \
        "declared dead at $((${dead_ms:-$kill_ms} - kill_ms)) ms," \
        "last adopted at $((${adopted_ms:-$kill_ms} - kill_ms)) ms"
    dh_cluster_stop "$E2E_RUN"
    [[ -n ${E2E_KEEP:-} ]] || rm -rf "$E2E_RUN"
    E2E_RUN=
}

for ((round = 1; round <= ROUNDS; round++)); do
    failover_round "$round"
done
w_all=$(cut -d' ' -f2 "$all")
r_all=$(cut -d' ' -f1 "$all")
echo "failover: kill -> next accepted answer p50 $(bench_pct 50 <<<"$w_all") ms" \
    "p99 $(bench_pct 99 <<<"$w_all") ms max $(bench_pct 100 <<<"$w_all") ms over $moved" \
    "moved matches (raw, with the bots' pace: p50 $(bench_pct 50 <<<"$r_all")" \
    "p99 $(bench_pct 99 <<<"$r_all") max $(bench_pct 100 <<<"$r_all") ms)" \
    "($WORKERS workers, $MATCHES matches, $ROUNDS rounds); no answer after the kill $none;" \
    "lost answers $lost; unfinished $unfinished"
rm -f "$all"
