#!/usr/bin/env bash
# bench/load_curve.sh PLAYERS SECONDS RATE...: one point of the load curve per RATE
# (answers per second, 0: flat out), each on a fresh cluster of 2 workers and 1 gateway
# started from DECKHAND_BIN_DIR (build a Release one first; default build-rel/bin) on ports
# from 23700: `deckhand load` over TCP with PLAYERS players for SECONDS seconds, which
# itself reports the CPU per accepted answer of every process of the cluster and of the
# load generator (--cpu-pids: each process's /proc/PID/stat from the first progress line,
# after the logins, to the end, divided by the answers accepted in that time).
#
# With DECKHAND_BIN_DIR_BEFORE set (the previous release's binaries), every point runs
# twice in one sequence, before then after, so the two are compared on the same machine
# minutes apart; the load generator is this tree's `deckhand`, or with DH_CURVE_OWN_LOAD=1
# each point's own (BINS/deckhand), so that the load generator's own cost is compared too.
# The before cluster's workers load DECKHAND_SCRIPTS_BEFORE (default: this tree's scripts;
# a release whose engine does not know them needs its own tree's scripts/).
#
# One line per point on stdout (loadavg: the machine's 1-minute load average as the point
# starts, /proc/loadavg, so each figure carries how busy the cores were):
#   rate=R players=P bins=after loadavg=L | cmds_per_sec=... p50_ms=... p99_ms=... max_ms=... errors=E
#     | steady answers=N p50_ms=.. p99_ms=.. max_ms=.. (the same over the whole seconds after
#       the first with answers, when every match starts at once) | cpu_us_per_cmd answers=N gateway=.. matchmaker=.. redis=.. worker-1=.. worker-2=..
#       workers=.. load=.. total=..
# With DH_CURVE_MARKDOWN=1 each point is a row of docs/BENCHMARKS.md's table instead:
#   | target | bins | load average | answers/s | p50 | p99 | max | steady p99 | gateway | workers | Redis | matchmaker | load | all |
# Results in docs/BENCHMARKS.md ("Load curve", "The data path, second step").
set -uo pipefail

players=${1:?players} secs=${2:?seconds}
shift 2
DH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export DH_ROOT
after=${DECKHAND_BIN_DIR:-$DH_ROOT/build-rel/bin}
before=${DECKHAND_BIN_DIR_BEFORE:-}
load_bin=$after/deckhand
# shellcheck source=SCRIPTDIR/../scripts/lib/cluster.sh
source "$DH_ROOT/scripts/lib/cluster.sh"

# markdown_row RATE LABEL "RESULT CPU" "STEADY" LOADAVG: one table row from the result, cpu
# and steady lines.
markdown_row() {
    local -A v s
    local kv
    for kv in $3; do
        [[ $kv == *=* ]] && v[${kv%%=*}]=${kv#*=}
    done
    for kv in $4; do
        [[ $kv == *=* ]] && s[${kv%%=*}]=${kv#*=}
    done
    local target="flat out"
    (($1 > 0)) && target="$1/s"
    printf '| %s | %s | %s | %.0f | %s ms | %s ms | %s ms | %s ms | %s | %s | %s | %s | %s | %s |\n' "$target" "$2" \
        "$5" "${v[cmds_per_sec]:-0}" "${v[p50_ms]:-?}" "${v[p99_ms]:-?}" "${v[max_ms]:-?}" "${s[p99_ms]:-?}" "${v[gateway]:-?}" \
        "${v[workers]:-?}" "${v[redis]:-?}" "${v[matchmaker]:-?}" "${v[load]:-?}" "${v[total]:-?}"
}

point() {
    local rate=$1 label=$2 run loadavg
    export DECKHAND_BIN_DIR=$3 DH_CLUSTER_SCRIPTS=${4:-}
    local gen=$load_bin
    [[ ${DH_CURVE_OWN_LOAD:-} == 1 ]] && gen=$3/deckhand
    run=$(mktemp -d /tmp/deckhand-load-curve.XXXXXX)
    dh_cluster_start_near "$run" 23700 2 >/dev/null 2>&1 || { echo "the cluster did not start"; return 1; }
    # shellcheck source=/dev/null
    source "$run/cluster.env"
    # --bot local: answers from the generic bot in the client, as when docs/BENCHMARKS.md's
    # figures were taken (the default, the game's bot on the server, adds a script call
    # per answer to the workers' CPU)
    local args=(--game dominion --players "$players" --seconds "$secs" --gateway "$DECKHAND_GATEWAY_TCP"
        --bot local --cpu-pids "$run")
    ((rate > 0)) && args+=(--rate "$rate")
    read -r loadavg _ </proc/loadavg
    "$gen" load "${args[@]}" >"$run/out" 2>"$run/err" </dev/null
    if [[ ${DH_CURVE_MARKDOWN:-} == 1 ]]; then
        markdown_row "$rate" "$label" "$(tail -n 1 "$run/out") $(grep '^cpu_us_per_cmd' "$run/out")" \
            "$(grep '^steady ' "$run/out")" "$loadavg"
    else
        echo "rate=$rate players=$players bins=$label loadavg=$loadavg | $(tail -n 1 "$run/out") | $(grep '^steady ' "$run/out")" \
            "| $(grep '^cpu_us_per_cmd' "$run/out")"
    fi
    dh_cluster_stop "$run" >/dev/null 2>&1
    rm -rf "$run"
}

for rate in "$@"; do
    [[ -n $before ]] && point "$rate" before "$before" "${DECKHAND_SCRIPTS_BEFORE:-}"
    point "$rate" after "$after"
done
