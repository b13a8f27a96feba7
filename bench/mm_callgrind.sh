#!/usr/bin/env bash
# bench/mm_callgrind.sh SECONDS [RATE] [PLAYERS]: the matchmaker's instructions under load,
# counted by callgrind, which the machine's other work cannot blur (issue 27). Starts a
# fresh cluster from a copy of DECKHAND_BIN_DIR (default build-rel/bin; 1 gateway, 1
# matchmaker, 2 workers, one Redis, ports from 24900) whose deckhand-matchmaker runs under
# `valgrind --tool=callgrind`, runs `deckhand load` with PLAYERS (default 1000) players of
# two-player Dominion (--bot local) for SECONDS (at least 15) at RATE answers a second
# (0 or absent: flat out; PLAYERS 0: no load at all, the idle cluster), zeroes the counts
# 6 s in and dumps them 3 s before the end.
# One line (matches: started from just before the window to just after it):
#   mm_instr=.. window_s=.. matches=.. instr_per_match=.. instr_per_s=.. answers=..
#     instr_per_answer=.. | the load's own last line
# answers: those the load generator counted over its whole run, scaled to the window. The
# dump stays in $DH_CALLGRIND_KEEP (a directory) when set, for callgrind_annotate.
set -uo pipefail

secs=${1:?seconds} rate=${2:-0} players=${3:-1000}
((secs >= 15)) || {
    echo "SECONDS: at least 15" >&2
    exit 2
}
DH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export DH_ROOT
src=${DECKHAND_BIN_DIR:-$DH_ROOT/build-rel/bin}
if ! command -v valgrind >/dev/null || ! command -v callgrind_control >/dev/null; then
    echo "valgrind (callgrind) is not installed" >&2
    exit 1
fi
run=$(mktemp -d /tmp/deckhand-mm-callgrind.XXXXXX)
bin=$run/bin
mkdir -p "$bin" "$run/cg"
cp -a "$src"/deckhand "$src"/deckhand-worker "$src"/deckhand-gateway "$bin"/
cp -a "$src"/deckhand-matchmaker "$bin"/deckhand-matchmaker.real
cat >"$bin/deckhand-matchmaker" <<EOF
#!/bin/sh
exec valgrind --tool=callgrind --callgrind-out-file=$run/cg/mm.%p -q "$bin/deckhand-matchmaker.real" "\$@"
EOF
chmod +x "$bin/deckhand-matchmaker"
export DECKHAND_BIN_DIR=$bin
# shellcheck source=SCRIPTDIR/lib/mm_cluster.sh
source "$DH_ROOT/bench/lib/mm_cluster.sh"
mm_cluster_start mm-callgrind 24900 "$run"
rateflag=()
((rate > 0)) && rateflag=(--rate "$rate")

if ((players > 0)); then
    "$bin/deckhand" load --game dominion --players "$players" --seconds "$secs" "${rateflag[@]}" \
        --gateway "$DECKHAND_GATEWAY_TCP" --bot local >"$run/out" 2>"$run/err" </dev/null &
else # the idle cluster: what the matchmaker costs with nobody playing
    echo "idle" >"$run/out"
    sleep "$secs" &
fi
load=$!
sleep 6
# the /metrics reads stay outside the counted window (a render costs ~1 M instructions)
n0=$(mm_metric deckhand_matchmaker_matches_started_total)
callgrind_control -z "$MM_PID" >/dev/null 2>&1
t0=$(date +%s.%N)
sleep $((secs - 9))
callgrind_control -d "$MM_PID" >/dev/null 2>&1
t1=$(date +%s.%N)
n1=$(mm_metric deckhand_matchmaker_matches_started_total)
wait "$load"
dump=
for f in "$run"/cg/mm.*.*; do # the one dump (-d); the last one, were there more
    [[ -f $f ]] && dump=$f
done
[[ -n $dump ]] || {
    echo "no callgrind dump" >&2
    exit 1
}
instr=$(awk '/^summary:/ { print $2 }' "$dump")
[[ -n ${DH_CALLGRIND_KEEP:-} ]] && cp "$dump" "$DH_CALLGRIND_KEEP"/
last=$(tail -n 1 "$run/out")
cps=$(sed -n 's/.*cmds_per_sec=\([0-9.]*\).*/\1/p' <<<"$last")
awk -v i="$instr" -v n=$((n1 - n0)) -v t0="$t0" -v t1="$t1" -v cps="${cps:-0}" 'BEGIN {
    w = t1 - t0; a = cps * w
    printf "mm_instr=%d window_s=%.1f matches=%d instr_per_match=%.0f instr_per_s=%.0f answers=%.0f instr_per_answer=%.0f",
        i, w, n, (n > 0 ? i / n : 0), i / w, a, (a > 0 ? i / a : 0) }'
echo " | $last"
