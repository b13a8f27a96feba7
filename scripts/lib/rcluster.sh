# shellcheck shell=bash
#
# rcluster.sh: a local Redis Cluster for scripts/lib/cluster.sh (sourced by it), used when
# DECKHAND_REDIS_CLUSTER=1: three masters and three replicas, redis-server
# --cluster-enabled, joined with `redis-cli --cluster create --cluster-replicas 1`.
#
# Node N (1..6) listens on DH_RCLUSTER_BASE + N - 1 (default 6391: 6391..6396; tests pick
# theirs from 21700..21759) with its cluster bus on that port + 1000 (--cluster-port:
# Redis' default, port + 10000, would leave the ports below 32768 for high bases). Each
# node loads the cluster's users.acl, so every node has every role's user (dh_acl.h);
# its pid file is RUNDIR/pids/redis-N.pid, its --dir RUNDIR/redis/N (nodes.conf, AOF).
#
# Durability (docs/OPERATIONS.md, "Redis Cluster"): --appendonly yes, appendfsync
# everysec as with one Redis; the worker sends WAIT 1 after a batch of match writes
# (DECKHAND_REDIS_WAIT, dh_redis.h) so an acknowledged answer is on a replica before the
# player hears of it. Not min-replicas-to-write 1: with one replica per master, the
# replica promoted after a failover has none, and would refuse every write of its slots
# until the dead master came back.
# cluster-node-timeout DH_RCLUSTER_TIMEOUT_MS (default 2000): a dead master's replica is
# promoted about that long after it stopped answering.

DH_RCLUSTER_NODES=6
DH_RCLUSTER_TIMEOUT_MS=${DH_RCLUSTER_TIMEOUT_MS:-2000}

# The port of node N.
dh_rcluster_port() {
    echo $((${DH_RCLUSTER_BASE:-6391} + $1 - 1))
}

# redis-cli on node N as the operators' user (extra arguments follow).
dh_rcluster_cli() {
    local n=$1
    shift
    REDISCLI_AUTH=${DH_REDIS_OPS_PASSWORD:-} redis-cli -p "$(dh_rcluster_port "$n")" "$@"
}

# The seed list of the cluster's URL: every master's host:port, comma-separated.
dh_rcluster_seeds() {
    local i out=
    for ((i = 1; i <= DH_RCLUSTER_NODES; i++)); do
        out+="${out:+,}127.0.0.1:$(dh_rcluster_port "$i")"
    done
    echo "$out"
}

# True when every node answers and says cluster_state:ok, and the three replicas are
# replicas with their link to their master up (until then a master's writes have nowhere
# to go, and the processes would read a slot map without replicas).
_dh_rcluster_ok() {
    local i info replicas=0
    for ((i = 1; i <= DH_RCLUSTER_NODES; i++)); do
        dh_rcluster_cli "$i" cluster info 2>/dev/null | grep -q '^cluster_state:ok' || return 1
        info=$(dh_rcluster_cli "$i" info replication 2>/dev/null) || return 1
        if grep -q '^role:slave' <<<"$info" && grep -q '^master_link_status:up' <<<"$info"; then
            replicas=$((replicas + 1))
        fi
    done
    ((replicas == DH_RCLUSTER_NODES / 2)) &&
        (($(dh_rcluster_cli 1 cluster slots | grep -c .) > 3 * 7)) # replicas in the map too
}

# The ports the nodes and their buses need (for the start's free-port check).
dh_rcluster_ports() {
    local i p
    for ((i = 1; i <= DH_RCLUSTER_NODES; i++)); do
        p=$(dh_rcluster_port "$i")
        echo "$p" $((p + 1000))
    done
}

# Start the six nodes of the cluster in RUNDIR and create the cluster; 0 when it is up
# (cluster_state:ok everywhere), else 1.
dh_rcluster_start() {
    local run=$1 i p addrs=()
    for ((i = 1; i <= DH_RCLUSTER_NODES; i++)); do
        p=$(dh_rcluster_port "$i")
        mkdir -p "$run/redis/$i"
        addrs+=("127.0.0.1:$p")
        # a replica logs in to its master as the operators' user: the password goes in a
        # file only the owner reads, not on a command line
        (umask 077 && printf 'masteruser default\nmasterauth %s\n' \
            "${DH_REDIS_OPS_PASSWORD:-}" >"$run/redis/$i/node.conf")
        _dh_spawn "$run" "redis-$i" "$(command -v redis-server)" "$run/redis/$i/node.conf" \
            --port "$p" \
            --cluster-port $((p + 1000)) --cluster-enabled yes \
            --cluster-config-file "$run/redis/$i/nodes.conf" \
            --cluster-node-timeout "$DH_RCLUSTER_TIMEOUT_MS" --bind 127.0.0.1 \
            --dir "$run/redis/$i" --save "" --appendonly yes --appendfsync everysec \
            --aclfile "$run/keys/users.acl" --daemonize no
    done
    for ((i = 1; i <= DH_RCLUSTER_NODES; i++)); do
        _dh_wait_for "$run" "redis node $i" "dh_rcluster_cli $i ping >/dev/null 2>&1" || return 1
    done
    REDISCLI_AUTH=${DH_REDIS_OPS_PASSWORD:-} redis-cli --cluster create "${addrs[@]}" \
        --cluster-replicas 1 --cluster-yes >"$run/logs/redis-create.log" 2>&1 || {
        _dh_log "redis-cli --cluster create failed: $(tail -n 3 "$run/logs/redis-create.log")"
        return 1
    }
    _dh_wait_for "$run" "the Redis Cluster (cluster_state:ok on every node)" _dh_rcluster_ok
}

# Every key matching PATTERN, from every node (SCAN is per node; replicas repeat their
# master's keys, hence sort -u).
dh_rcluster_scan() {
    local i
    for ((i = 1; i <= DH_RCLUSTER_NODES; i++)); do
        dh_rcluster_cli "$i" --scan --pattern "$1" 2>/dev/null
    done | sort -u
}

# The node number (1..6) of the master serving KEY now: the master whose own line in
# CLUSTER NODES lists a slot range holding KEY's slot.
dh_rcluster_master_of() {
    local slot i
    slot=$(dh_rcluster_cli 1 cluster keyslot "$1") || return 1
    for ((i = 1; i <= DH_RCLUSTER_NODES; i++)); do
        dh_rcluster_cli "$i" cluster nodes 2>/dev/null | awk -v s="$slot" '
            $3 ~ /myself/ && $3 ~ /master/ {
                for (f = 9; f <= NF; f++) {
                    n = split($f, r, "-"); if (n == 1) r[2] = r[1]
                    if (s + 0 >= r[1] + 0 && s + 0 <= r[2] + 0) ok = 1
                }
            }
            END { exit !ok }' && {
            echo "$i"
            return 0
        }
    done
    return 1
}
