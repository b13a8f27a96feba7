# shellcheck shell=bash
#
# bench_lib.sh: what the cluster benchmarks that measure what players feel share
# (failover.sh, chaos.sh, start_burst.sh, liveops.sh): bots started in the background with
# an answer log (`deckhand bots --answer-log`, one "WALL_MS KIND MATCH BOT" line per
# event), waits that give up when the bots died, and the arithmetic over the logs
# (percentiles, each match's first accepted answer after an instant). On top of
# tests/e2e/e2e_lib.sh (the cluster), with Release binaries from DECKHAND_BIN_DIR.
# shellcheck source=SCRIPTDIR/../tests/e2e/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../tests/e2e/e2e_lib.sh"

# bench_bots MATCHES RATE TIMEOUT_S [BOTS ARGS...]: two bots per two-player Dominion match
# in the background, answering with the local generic bot (no script call in the workers
# for the answer, so the workers' CPU goes to the matches), paced at RATE messages/s each,
# over every gateway, bounded by TIMEOUT_S; they stop once BENCH_TARGET (default MATCHES)
# matches finished, or after BENCH_STALL s without progress (default 120). Files: $E2E_RUN/bots.out, bots.err, answers.log; pid in BENCH_BOTS.
bench_bots() {
    local matches=$1 rate=$2 limit=$3
    shift 3
    timeout "$limit" "$DECKHAND_BIN_DIR/deckhand" bots --game dominion \
        --players $((matches * 2)) --size 2 --matches "${BENCH_TARGET:-$matches}" \
        --rate "$rate" --bot local \
        --timeout "${BENCH_STALL:-120}" --answer-log "$E2E_RUN/answers.log" --gateway "$DECKHAND_GATEWAYS_TCP" \
        "$@" >"$E2E_RUN/bots.out" 2>"$E2E_RUN/bots.err" </dev/null &
    BENCH_BOTS=$!
}

# Fail unless the bots still run.
bench_bots_alive() {
    kill -0 "$BENCH_BOTS" 2>/dev/null ||
        e2e_fail "the bots exited early: $(tail -n 5 "$E2E_RUN/bots.err")"
}

# bench_wait_running WANT LIMIT_S: until matches:running holds WANT, the bots alive.
bench_wait_running() {
    local want=$1 deadline=$((SECONDS + $2)) n=0
    while :; do
        n=$(e2e_redis hlen matches:running)
        ((n >= want)) && return 0
        ((SECONDS < deadline)) || e2e_fail "only $n of $want matches running after $2 s"
        bench_bots_alive
        sleep 0.5
    done
}

# bench_bots_wait LIMIT_S: wait (bounded) for the bots to exit; sets BENCH_BOTS_RC, the
# stdout's last line in BENCH_LAST and the summary line in BENCH_SUMMARY (for the caller).
# shellcheck disable=SC2034
bench_bots_wait() {
    local deadline=$((SECONDS + $1))
    while kill -0 "$BENCH_BOTS" 2>/dev/null; do
        if ((SECONDS >= deadline)); then
            e2e_log "the bots still run after $1 s: stopping them"
            kill "$BENCH_BOTS" 2>/dev/null
        fi
        sleep 1
    done
    BENCH_BOTS_RC=0
    wait "$BENCH_BOTS" || BENCH_BOTS_RC=$?
    BENCH_LAST=$(grep -v '^[[:space:]]*$' "$E2E_RUN/bots.out" | tail -n 1)
    BENCH_SUMMARY=$(grep -E '^bots: retried=' "$E2E_RUN/bots.err" | tail -n 1)
}

# The value of KEY in a "k=v k=v" line (0 when absent).
bench_field() {
    if [[ $1 =~ (^|[ ])$2=([0-9]+) ]]; then echo "${BASH_REMATCH[2]}"; else echo 0; fi
}

# Percentile P (0..100, nearest rank) of the numbers on stdin; "-" when there are none.
bench_pct() {
    sort -n | awk -v p="$1" '{ v[NR] = $1 }
        END { if (!NR) { print "-"; exit } k = int((p * NR + 99) / 100); if (k < 1) k = 1;
              print v[k] }'
}

# bench_next_ok LOG SINCE_MS IDS_FILE: for each match id in IDS_FILE, "RAW WAIT": RAW the
# ms from SINCE_MS to its first accepted answer after it ("ok"), WAIT that less the time
# the answering bot held the decision unsent by its own pace (from the later of SINCE_MS
# and the decision's arrival to its first send): the players' wait on the cluster, not on
# the bots' think time (with --rate 0.25, up to 4 s). A match with no answer accepted after
# SINCE_MS prints "none ID".
bench_next_ok() {
    awk -v since="$2" 'FNR == NR { want[$1] = 1; next }
        !($3 in want) { next }
        { k = $3 " " $4 " " $5 }
        $2 == "decision" && !(k in dec) { dec[k] = $1 }
        $2 == "sent" && !(k in sent) { sent[k] = $1 }
        $2 == "ok" && $1 >= since && !($3 in raw) {
            raw[$3] = $1 - since
            ready = (k in dec && dec[k] > since) ? dec[k] : since
            pace = (k in sent && sent[k] > ready) ? sent[k] - ready : 0
            wait[$3] = raw[$3] - pace
        }
        END { for (id in want) if (id in raw) print raw[id], wait[id]; else print "none " id }' \
        "$3" "$1"
}

# bench_not_over LOG IDS_FILE: how many matches of IDS_FILE have no "over" line in LOG.
bench_not_over() {
    awk 'FNR == NR { want[$1] = 1; next } $2 == "over" { over[$3] = 1 }
        END { n = 0; for (id in want) if (!(id in over)) n++; print n }' "$2" "$1"
}

# The ms of the first line of FILE matching the extended regex RE, from its leading UTC
# timestamp ("2026-11-29T09:00:00.123Z ..."), or nothing.
bench_log_ms() {
    local stamp
    stamp=$(grep -m1 -E "$2" "$1" | cut -d' ' -f1) || return 0
    [[ -n $stamp ]] && date -d "$stamp" +%s%3N
}
