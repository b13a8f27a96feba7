#!/usr/bin/env bash
# bench/redis_commit_cost.sh BINDIR... : what a worker's commits cost Redis, per commit,
# for each BINDIR's bench_redis_commit (build it in each tree: the store's API is the same
# before and after the commit batch's own format), in one sequence:
#   - instructions of redis-server per commit (valgrind's callgrind, which the machine's
#     load does not move): the run's total with 600 flushes less the one with 100, over
#     the 500 x 20 commits between;
#   - Redis's CPU per commit and its command calls per commit (INFO cpu and commandstats,
#     1,500 flushes of 20 commits; the CPU moves with the machine's load).
# Each run on a fresh redis-server with its append-only file on, as scripts/lib/cluster.sh
# starts it. Results in docs/BENCHMARKS.md ("Redis per answer, fifth step"; with
# DH_BENCH_REDIS_CLUSTER=1 the server is a Redis Cluster of one master holding every slot,
# so that each commit goes as a call of its own, as on a Cluster: "sixth step").
set -uo pipefail
port=${DH_BENCH_REDIS_PORT:-17411}
cluster=${DH_BENCH_REDIS_CLUSTER:-0}
url="redis://127.0.0.1:$port"
cluster_args=()
if [[ $cluster == 1 ]]; then
    url="redis+cluster://127.0.0.1:$port"
    cluster_args=(--cluster-enabled yes --cluster-config-file nodes.conf
        --cluster-announce-ip 127.0.0.1)
fi

# redis_run DIR WRAP...: redis-server in DIR on $port (under WRAP..., e.g. valgrind); its pid.
redis_run() {
    local dir=$1
    shift
    "$@" redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --save "" \
        --appendonly yes --appendfsync everysec --daemonize no "${cluster_args[@]}" \
        >"$dir/redis.log" 2>&1 &
    echo $!
    for _ in $(seq 150); do
        if redis-cli -p "$port" ping >/dev/null 2>&1; then
            [[ $cluster == 1 ]] || return 0
            redis-cli -p "$port" cluster addslotsrange 0 16383 >/dev/null 2>&1
            redis-cli -p "$port" cluster info | grep -q '^cluster_state:ok' && return 0
        fi
        sleep 0.2
    done
    return 1
}

redis_end() {
    redis-cli -p "$port" shutdown nosave >/dev/null 2>&1
    wait "$1" 2>/dev/null
}

# instructions BINDIR FLUSHES: redis-server's instruction total for one run.
instructions() {
    local dir pid ir
    dir=$(mktemp -d /tmp/redis-commit-cost.XXXXXX)
    pid=$(redis_run "$dir" valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out") ||
        { echo "redis-server did not start" >&2; return 1; }
    "$1/bench_redis_commit" "$url" "$2" 20 >/dev/null || echo "the bench failed" >&2
    redis_end "$pid"
    ir=$(awk '/^(summary|totals):/ {print $2; exit}' "$dir/cg.out")
    rm -rf "$dir"
    echo "$ir"
}

for bin in "$@"; do
    a=$(instructions "$bin" 100) b=$(instructions "$bin" 600)
    dir=$(mktemp -d /tmp/redis-commit-cost.XXXXXX)
    pid=$(redis_run "$dir") || { echo "redis-server did not start" >&2; exit 1; }
    out=$("$bin/bench_redis_commit" "$url" 1500 20)
    redis_end "$pid"
    rm -rf "$dir"
    echo "$bin: instructions_per_commit=$(((b - a) / 10000)) $out"
done
