# shellcheck shell=bash
#
# mm_cluster.sh: what the matchmaker's benches (mm_idle.sh, mm_per_match.sh,
# mm_syscalls.sh, mm_callgrind.sh) share: a fresh local cluster (1 gateway, 1 matchmaker,
# 2 workers, one Redis, scripts/lib/cluster.sh) stopped and removed when the bench exits,
# the matchmaker's pid, its /metrics counters and its threads' run time. Sourced with
# DH_ROOT and DECKHAND_BIN_DIR set.
# shellcheck source=SCRIPTDIR/../../scripts/lib/cluster.sh
source "$DH_ROOT/scripts/lib/cluster.sh"

# mm_cluster_start NAME PORT [RUN]: the cluster on ports from PORT in RUN (default a new
# /tmp/deckhand-NAME.XXXXXX); exits the bench when it does not start. Sets RUN, MM_PID and
# MM_METRICS, and the cluster's own variables (cluster.env: DECKHAND_GATEWAY_TCP, ...).
mm_cluster_start() {
    RUN=${3:-$(mktemp -d "/tmp/deckhand-$1.XXXXXX")}
    trap 'dh_cluster_stop "$RUN" >/dev/null 2>&1; rm -rf "$RUN"' EXIT
    dh_cluster_start_near "$RUN" "$2" 2 >/dev/null 2>&1 || {
        echo "the cluster did not start" >&2
        exit 1
    }
    # shellcheck source=/dev/null
    source "$RUN/cluster.env"
    read -r MM_PID _ <"$RUN/pids/matchmaker.pid"
    MM_METRICS=http://$DECKHAND_HTTP_MATCHMAKER/metrics
}

# mm_metric NAME: the matchmaker's counter NAME, as an integer.
mm_metric() { curl -s "$MM_METRICS" | awk -v k="$1" '$1 == k { printf "%d", $2 }'; }

# mm_cpu: the matchmaker's threads' run time in microseconds (kernel and user, from
# /proc/PID/task/TID/schedstat, finer than clock ticks), all of them and the loop's
# thread, and the timeslices they ran (about their wake-ups): "ALL MAIN SLICES".
mm_cpu() {
    local t all=0 main=0 sw=0 ns n
    for t in /proc/"$MM_PID"/task/*; do
        read -r ns _ n <"$t/schedstat"
        all=$((all + ns / 1000))
        sw=$((sw + n))
        [[ ${t##*/} == "$MM_PID" ]] && main=$((ns / 1000))
    done
    echo "$all $main $sw"
}
