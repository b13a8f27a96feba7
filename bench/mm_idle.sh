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
# shellcheck source=SCRIPTDIR/lib/mm_cluster.sh
source "$DH_ROOT/bench/lib/mm_cluster.sh"
mm_cluster_start mm-idle 25900

sleep 5
read -r c0 m0 s0 < <(mm_cpu)
sleep "$secs"
read -r c1 m1 s1 < <(mm_cpu)
awk -v c=$((c1 - c0)) -v m=$((m1 - m0)) -v s=$((s1 - s0)) -v t="$secs" 'BEGIN {
    printf "mm_cpu_us_per_s=%.0f main_us_per_s=%.0f io_us_per_s=%.0f slices_per_s=%.1f\n",
        c / t, m / t, (c - m) / t, s / t }'
