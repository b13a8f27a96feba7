#!/usr/bin/env bash
# bench/load_curve.sh PLAYERS SECONDS RATE...: one point of the load curve per RATE
# (answers per second, 0: flat out), each on a fresh cluster of 2 workers and 1 gateway
# started from DECKHAND_BIN_DIR (build a Release one first; default build-rel/bin) on ports
# from 23700: `deckhand load` over TCP with PLAYERS players for SECONDS seconds, and the CPU
# per accepted answer of every process (its /proc/PID/stat utime+stime from the first
# progress line, after the logins, to the end, divided by the answers in that time). One
# line per rate on stdout; results in docs/BENCHMARKS.md ("Load curve").
set -uo pipefail

players=${1:?players} secs=${2:?seconds}
shift 2
DH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export DH_ROOT
export DECKHAND_BIN_DIR=${DECKHAND_BIN_DIR:-$DH_ROOT/build-rel/bin}
# shellcheck source=SCRIPTDIR/../scripts/lib/cluster.sh
source "$DH_ROOT/scripts/lib/cluster.sh"

cpu() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null; }
per_cmd() { awk -v d="$1" -v n="$2" -v t="$(getconf CLK_TCK)" 'BEGIN { printf "%.0f", d / t * 1e6 / n }'; }

point() {
    local rate=$1 run lp f p k c v first total cmds line
    local -A pid c0 l0 l1
    run=$(mktemp -d /tmp/deckhand-load-curve.XXXXXX)
    dh_cluster_start_near "$run" 23700 2 >/dev/null 2>&1 || { echo "the cluster did not start"; return 1; }
    # shellcheck source=/dev/null
    source "$run/cluster.env"
    for f in "$run"/pids/*.pid; do
        read -r p _ <"$f"
        pid[$(basename "$f" .pid)]=$p
    done
    # --bot local: answers from the generic bot in the client, as when docs/BENCHMARKS.md's
    # figures were taken (the default, the game's bot on the server, adds a script call
    # per answer to the workers' CPU)
    local args=(--game dominion --players "$players" --seconds "$secs" --gateway "$DECKHAND_GATEWAY_TCP"
        --bot local)
    ((rate > 0)) && args+=(--rate "$rate")
    "$DECKHAND_BIN_DIR/deckhand" load "${args[@]}" >"$run/out" 2>"$run/err" </dev/null &
    lp=$!
    until grep -q '^load: 1 s:' "$run/err" 2>/dev/null || ! kill -0 "$lp" 2>/dev/null; do
        sleep 0.05
    done
    for k in "${!pid[@]}"; do c0[$k]=$(cpu "${pid[$k]}"); done
    for c in $(pgrep -P "$lp") "$lp"; do l0[$c]=$(cpu "$c"); done
    while kill -0 "$lp" 2>/dev/null; do # the load processes: their last sample
        for c in "${!l0[@]}"; do v=$(cpu "$c") && [[ -n $v ]] && l1[$c]=$v; done
        sleep 0.1
    done
    wait "$lp"
    first=$(awk '/^load: 1 s:/ { print $4 }' "$run/err")
    total=$(sed -n 's/.* \([0-9]*\) answers in .*/\1/p' "$run/err")
    cmds=$((total - first))
    line="rate=$rate players=$players | $(tail -n 1 "$run/out") | answers_after_login=$cmds"
    for k in $(printf '%s\n' "${!pid[@]}" | sort); do
        line+=" | $k $(per_cmd $(($(cpu "${pid[$k]}") - c0[$k])) "$cmds") us"
    done
    v=0
    for c in "${!l0[@]}"; do v=$((v + ${l1[$c]:-${l0[$c]}} - l0[$c])); done
    echo "$line | load $(per_cmd "$v" "$cmds") us"
    dh_cluster_stop "$run" >/dev/null 2>&1
    rm -rf "$run"
}

for rate in "$@"; do
    point "$rate"
done
