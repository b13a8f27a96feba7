#!/usr/bin/env bash
# chaos.sh: the cluster's faults together, under MATCHES two-player Dominion matches
# (default 1,000: 2,000 bots, each playing one match, --once) on 3 workers behind 2 gateways
# (ports from 31500), paced at RATE messages/s per bot (default 0.5) so that every fault
# lands mid-game (docs/BENCHMARKS.md, "Chaos"). Once nine in ten matches run:
#   t+0 s   kill -9 of worker wk-2
#   t+4 s   kill -9 of the matchmaker, started again at once
#   t+8 s   Redis stopped for 5 s (SIGSTOP, then SIGCONT)
# while a third of the bots drop their connection once and come back through the other
# gateway (--drop 0.33). Then every match is played to its end (bounded), every finished
# match is replayed (`deckhand replay`, to the final state hash its worker recorded), and
# the report says: % of the matches finished, lost answers (LOST + unanswered + refused
# for good, as bench/failover.sh), replays matching, and live workers wrongly declared dead
# (the matchmaker's verdicts on workers other than wk-2). The last line is the summary:
#   chaos: finished F/M (P%), lost answers L, replays matching R/F, live workers declared dead D
# Usage: bench/chaos.sh [MATCHES] (env RATE, RAMP: logins over RAMP s, default 20);
# binaries from DECKHAND_BIN_DIR (Release).
# shellcheck source=SCRIPTDIR/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

MATCHES=${1:-1000}
RATE=${RATE:-0.5}
RAMP=${RAMP:-20} # s over which the bots log in: many matches start, but no start burst
e2e_start 31500 3 2
export DECKHAND_REDIS_URL
bench_bots "$MATCHES" "$RATE" 1200 --once --ramp "$RAMP" --drop 0.33 --seed 7
bench_wait_running $((MATCHES * 9 / 10)) 300
sleep 2

e2e_log "kill -9 worker wk-2 ($(e2e_matches_on wk-2 | wc -l) matches)"
dh_cluster_kill "$E2E_RUN" worker-2 KILL
sleep 4
bench_bots_alive
e2e_log "kill -9 the matchmaker and start it again"
dh_cluster_kill "$E2E_RUN" matchmaker KILL
dh_cluster_restart "$E2E_RUN" matchmaker
sleep 4
bench_bots_alive
read -r redis_pid _ <"$E2E_RUN/pids/redis.pid"
e2e_log "Redis stopped for 5 s"
kill -STOP "$redis_pid"
sleep 5
kill -CONT "$redis_pid"

bench_bots_wait 900
e2e_log "bots: $BENCH_LAST (exit $BENCH_BOTS_RC); $BENCH_SUMMARY"
done_n=$(bench_field "$BENCH_LAST" matches_completed)
lost=$(($(bench_field "$BENCH_SUMMARY" lost) + $(bench_field "$BENCH_SUMMARY" unanswered) +
    $(bench_field "$BENCH_SUMMARY" answers_refused)))

# Every finished match replays to its recorded hash.
replayed=0 matching=0
while read -r id; do
    [[ -n $id ]] || continue
    replayed=$((replayed + 1))
    out=$("$DECKHAND_BIN_DIR/deckhand" replay "$id" --quiet --redis "$DECKHAND_REDIS_URL" 2>&1) &&
        [[ $out == *"result=ok"* ]] && matching=$((matching + 1))
done < <(e2e_redis lrange matches:finished 0 -1)

# Verdicts on live workers: any "worker wk-N ... dead" line of the matchmaker (before and
# after its restart) naming another worker than the one killed.
wrong=$(grep -oE 'worker wk-[0-9]+ [^:]*: dead' "$E2E_RUN/logs/matchmaker.log" |
    grep -v '^worker wk-2 ' | sort -u)
nwrong=$(grep -c . <<<"$wrong")
[[ -z $wrong ]] || e2e_log "live workers declared dead: $wrong"
echo "chaos: finished $done_n/$MATCHES ($((done_n * 100 / MATCHES))%), lost answers $lost," \
    "replays matching $matching/$replayed, live workers declared dead $nwrong" \
    "(3 workers, 2 gateways, a third of the bots dropping once)"
