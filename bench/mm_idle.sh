#!/usr/bin/env bash
# bench/mm_idle.sh SECONDS: what an idle matchmaker costs (issue 27: at low load its fixed
# costs are most of its CPU). Starts a fresh cluster from DECKHAND_BIN_DIR (default
# build-rel/bin; 1 gateway, 1 matchmaker, 2 workers, one Redis, ports from 25900) and, from
# 5 s after its start (the hellos and the lease settled) for SECONDS, with nobody playing,
# reads the matchmaker's CPU (the sum of its threads' /proc/PID/task/TID/schedstat run time,
# kernel and user, finer than clock ticks) and how often its threads ran (schedstat's
# timeslices: about its wake-ups). One line:
#   mm_cpu_us_per_s=.. main_us_per_s=.. io_us_per_s=.. slices_per_s=..
# main: the loop's thread; io: the rest (ZeroMQ's I/O thread: CURVE, the sockets; the ZAP
# and operator-port threads, idle here).
set -uo pipefail

secs=${1:?seconds}
DH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export DH_ROOT
export DECKHAND_BIN_DIR=${DECKHAND_BIN_DIR:-$DH_ROOT/build-rel/bin}
# shellcheck source=SCRIPTDIR/../scripts/lib/cluster.sh
source "$DH_ROOT/scripts/lib/cluster.sh"

run=$(mktemp -d /tmp/deckhand-mm-idle.XXXXXX)
trap 'dh_cluster_stop "$run" >/dev/null 2>&1; rm -rf "$run"' EXIT
dh_cluster_start_near "$run" 25900 2 >/dev/null 2>&1 || {
    echo "the cluster did not start" >&2
    exit 1
}
read -r mmpid _ <"$run/pids/matchmaker.pid"

# run time in microseconds (all threads, the main one) and timeslices run (all threads)
cpu() {
    local t all=0 main=0 sw=0 ns n
    for t in /proc/"$mmpid"/task/*; do
        read -r ns _ n <"$t/schedstat"
        all=$((all + ns / 1000))
        sw=$((sw + n))
        [[ ${t##*/} == "$mmpid" ]] && main=$((ns / 1000))
    done
    echo "$all $main $sw"
}
sleep 5
read -r c0 m0 s0 < <(cpu)
sleep "$secs"
read -r c1 m1 s1 < <(cpu)
awk -v c=$((c1 - c0)) -v m=$((m1 - m0)) -v s=$((s1 - s0)) -v t="$secs" 'BEGIN {
    printf "mm_cpu_us_per_s=%.0f main_us_per_s=%.0f io_us_per_s=%.0f slices_per_s=%.1f\n",
        c / t, m / t, (c - m) / t, s / t }'
