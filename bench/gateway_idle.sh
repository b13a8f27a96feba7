#!/usr/bin/env bash
# bench/gateway_idle.sh [--ws] N...: memory per idle TCP (or WebSocket) connection of one
# gateway. For each N, a fresh Release `deckhand-gateway --redis none --insecure-internal`
# (from DECKHAND_BIN_DIR, default build-rel/bin; it talks to no matchmaker, so it needs no
# internal keys) on port 23900: its resident set (VmRSS) read before and after N
# connections that each sent one empty frame and got their Reply (bench/idle_conns.py),
# then stay idle: (after - before) / N. The descriptor limit is raised to the hard limit
# for both sides. One line per N; results in docs/BENCHMARKS.md ("Gateway: memory per
# idle connection").
set -uo pipefail

DH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${DECKHAND_BIN_DIR:-$DH_ROOT/build-rel/bin}
port=23900
mode=tcp
if [[ ${1:-} == --ws ]]; then
    mode=ws
    shift
fi
ulimit -n "$(ulimit -Hn)"

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

point() {
    local n=$1 dir gw before after i
    dir=$(mktemp -d /tmp/deckhand-gateway-idle.XXXXXX)
    "$bin/deckhand-gateway" --redis none --insecure-internal --tcp "127.0.0.1:$port" \
        --ws "127.0.0.1:$((port + 1))" \
        --token-key "$(printf '%064d' 0)" --max-conns $((n + 16)) >"$dir/gw.log" 2>&1 &
    gw=$!
    for ((i = 0; i < 100; i++)); do
        grep -q listening "$dir/gw.log" 2>/dev/null && break
        sleep 0.05
    done
    sleep 0.5
    before=$(rss_kb "$gw")
    if [[ $mode == ws ]]; then
        python3 "$DH_ROOT/bench/idle_conns.py" $((port + 1)) "$n" "$dir/ready" "$dir/stop" ws &
    else
        python3 "$DH_ROOT/bench/idle_conns.py" "$port" "$n" "$dir/ready" "$dir/stop" &
    fi
    for ((i = 0; i < 1200; i++)); do
        [[ -s $dir/ready ]] && break
        sleep 0.1
    done
    sleep 1
    after=$(rss_kb "$gw")
    touch "$dir/stop"
    wait %2 2>/dev/null
    kill "$gw" 2>/dev/null
    wait "$gw" 2>/dev/null
    awk -v n="$n" -v b="$before" -v a="$after" -v r="$(cat "$dir/ready")" \
        'BEGIN { printf "'"$mode"' connections=%d %s rss_before_kb=%d rss_after_kb=%d per_conn_kb=%.2f\n", n, r, b, a, (a - b) / n }'
    rm -rf "$dir"
}

for n in "${@:-1000 10000}"; do
    point "$n"
done
