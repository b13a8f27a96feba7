# shellcheck shell=bash
#
# netns_lib.sh: a deckhand cluster spread over separate network "hosts", for the partition
# tests (tests/e2e/test_netns_*.sh). Each host is a Linux network namespace with its own
# address on one bridge, the way pods sit on nodes; the bots stay outside, on the host
# side of the bridge (its first address). Failures are real network failures between live
# processes, not signals:
#   netns_cut A B       A and B stop hearing each other: each gets a neighbour entry for
#                       the other pointing at a MAC nobody has, so every packet between
#                       them leaves and vanishes on the bridge (no reset, no error: a
#                       partition); every other pair still talks
#   netns_heal A B      undo it (ARP resolves the real MAC again)
#   netns_isolate A     A's cable pulled: its bridge port goes down, nothing in or out
#   netns_rejoin A      plug it back
# (The kernel here has no netem and no packet filter, so there is no latency to inject:
# only silence.)
#
# A test sources this file (it sources e2e_lib.sh), calls netns_up SUBNET_OCTET (its own
# 10.231.OCTET.0/24: each test has its own, so no two tests share addresses), adds hosts
# with netns_host NAME, starts processes in them (netns_redis, netns_matchmaker,
# netns_worker, netns_gateway or netns_spawn), and exits. Whatever way it exits, the EXIT
# trap stops the processes and removes every namespace, veth and the bridge; a watcher
# does the same if the test is killed outright (SIGKILL), and netns_up first removes what
# a dead test of an earlier run left behind. Where namespaces cannot be made (no root, no
# CAP_NET_ADMIN), netns_up skips the test with 77 and says so.
#
# Names: namespaces "dhn-PID-HOST", links "dhnPID..." (at most 15 characters), so that
# leftovers are recognised by their owner's pid. The cluster's bookkeeping (RUNDIR/pids,
# logs, keys, cluster.env) is that of scripts/lib/cluster.sh, so e2e_lib.sh's checks work
# unchanged; e2e_redis is redefined to reach Redis at its host's address.

# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

NETNS_ID=$$
NETNS_NET=
NETNS_BR=
NETNS_BOGUS_MAC=02:00:00:de:ad:00
declare -A NETNS_IP=()   # host name -> address
declare -A NETNS_VETH=() # host name -> the bridge end of its veth
NETNS_NEXT=10
NETNS_REDIS_HOST=
NETNS_UP=0

netns_name() { printf 'dhn-%s-%s' "$NETNS_ID" "$1"; }

# Run a command inside host NAME's namespace.
netns_exec() {
    local host=$1
    shift
    ip netns exec "$(netns_name "$host")" "$@"
}

# True when this machine lets us make a namespace, a bridge and a veth pair.
netns_possible() {
    local probe=dhn-probe-$$ ok=1
    command -v ip >/dev/null || return 1
    ip netns add "$probe" 2>/dev/null || return 1
    ip link add "dhnp$$" type veth peer name "dhnq$$" 2>/dev/null || ok=0
    ip link del "dhnp$$" 2>/dev/null
    ip netns del "$probe" 2>/dev/null
    ((ok))
}

# Remove every namespace and link of the test with owner PID (default ours).
netns_remove_all() {
    local id=${1:-$NETNS_ID} ns link
    for ns in $(ip netns list 2>/dev/null | awk -v p="dhn-$id-" 'index($1, p) == 1 { print $1 }'); do
        ip netns pids "$ns" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
        ip netns del "$ns" 2>/dev/null
    done
    for link in $(ip -o link show 2>/dev/null | awk -F': ' -v p="dhn$id" \
        '{ sub(/@.*/, "", $2) } index($2, p) == 1 { print $2 }'); do
        ip link del "$link" 2>/dev/null
    done
    return 0
}

# Remove what tests killed in earlier runs left behind (their owner pid is gone).
_netns_remove_stale() {
    local pid
    for pid in $(ip netns list 2>/dev/null | sed -nE 's/^dhn-([0-9]+)-.*/\1/p' | sort -u); do
        kill -0 "$pid" 2>/dev/null || netns_remove_all "$pid"
    done
}

# The EXIT trap: e2e_lib's checks and cluster stop, then the topology goes, however the
# test ended.
_netns_cleanup() {
    local rc=$?
    trap - EXIT
    if [[ -n $E2E_RUN ]]; then
        [[ -s $E2E_RUN/bots.pid ]] && kill "$(<"$E2E_RUN/bots.pid")" 2>/dev/null
        dh_cluster_alive "$E2E_RUN" || rc=1
        dh_cluster_stop "$E2E_RUN"
        dh_cluster_check_logs "$E2E_RUN" || rc=1
    fi
    ((NETNS_UP)) && netns_remove_all
    [[ -n $E2E_RUN ]] && e2e_verdict "$rc"
    exit "$rc"
}

# A watcher that removes everything if the test dies without its trap (SIGKILL): the
# bots (RUNDIR/bots.pid), the cluster, the namespaces and links.
_netns_watch() {
    local owner=$$ run=$E2E_RUN
    (
        trap '' HUP INT TERM
        while kill -0 "$owner" 2>/dev/null; do sleep 1; done
        [[ -s $run/bots.pid ]] && kill "$(<"$run/bots.pid")" 2>/dev/null
        [[ -d $run/pids ]] && dh_cluster_stop "$run"
        netns_remove_all "$owner"
    ) </dev/null >/dev/null 2>&1 &
    disown 2>/dev/null || true
}

# Make the bridge of 10.231.OCTET.0/24 with the host side on .1, and the run directory.
netns_up() {
    local octet=$1
    if ((EUID != 0)) || ! netns_possible; then
        e2e_log "SKIPPED: this machine cannot make network namespaces, veth pairs and a bridge (needs root with CAP_NET_ADMIN)"
        exit 77
    fi
    _netns_remove_stale
    NETNS_NET=10.231.$octet
    NETNS_BR=dhn${NETNS_ID}br
    E2E_RUN=$(mktemp -d "/tmp/deckhand-e2e-$(basename "$0" .sh).XXXXXX")
    mkdir -p "$E2E_RUN/pids" "$E2E_RUN/logs"
    NETNS_UP=1
    trap _netns_cleanup EXIT
    trap 'exit 130' INT TERM
    _netns_watch
    ip link add "$NETNS_BR" type bridge || e2e_fail "cannot make bridge $NETNS_BR"
    ip addr add "$NETNS_NET.1/24" dev "$NETNS_BR"
    ip link set "$NETNS_BR" up
    e2e_log "network $NETNS_NET.0/24 on bridge $NETNS_BR; run directory $E2E_RUN"
}

# A host NAME: a namespace with lo up and eth0 on the bridge at the next address.
netns_host() {
    local host=$1 ns ip veth
    ns=$(netns_name "$host")
    ip=$NETNS_NET.$NETNS_NEXT
    veth=dhn${NETNS_ID}v$NETNS_NEXT
    NETNS_NEXT=$((NETNS_NEXT + 1))
    ip netns add "$ns" || e2e_fail "cannot make namespace $ns"
    ip link add "$veth" type veth peer name eth0 netns "$ns" || e2e_fail "cannot make $veth"
    ip link set "$veth" master "$NETNS_BR" up
    ip -n "$ns" link set lo up
    ip -n "$ns" addr add "$ip/24" dev eth0
    ip -n "$ns" link set eth0 up
    NETNS_IP[$host]=$ip
    NETNS_VETH[$host]=$veth
}

# The address of host NAME ("host": the bridge's, where the bots are).
netns_ip() {
    if [[ $1 == host ]]; then echo "$NETNS_NET.1"; else echo "${NETNS_IP[$1]}"; fi
}

# Set (MAC given) or delete the neighbour entry for address IP seen from host FROM.
_netns_neigh() {
    local from=$1 ip=$2 mac=${3:-}
    local cmd=(ip)
    local dev=eth0
    if [[ $from == host ]]; then
        dev=$NETNS_BR
    else
        cmd=(ip -n "$(netns_name "$from")")
    fi
    if [[ -n $mac ]]; then
        "${cmd[@]}" neigh replace "$ip" lladdr "$mac" nud permanent dev "$dev"
    else
        "${cmd[@]}" neigh del "$ip" dev "$dev" 2>/dev/null || true
    fi
}

# Cut A from B (both ways), leaving every other path up.
netns_cut() {
    _netns_neigh "$1" "$(netns_ip "$2")" "$NETNS_BOGUS_MAC"
    _netns_neigh "$2" "$(netns_ip "$1")" "$NETNS_BOGUS_MAC"
}

netns_heal() {
    _netns_neigh "$1" "$(netns_ip "$2")"
    _netns_neigh "$2" "$(netns_ip "$1")"
}

# Pull host A's cable (its bridge port down) and plug it back.
netns_isolate() { ip link set "${NETNS_VETH[$1]}" down; }
netns_rejoin() { ip link set "${NETNS_VETH[$1]}" up; }

# Start NAME (its pid file name) in host HOST: PROGRAM ARGS..., logged as cluster.sh's
# processes are, logged in to Redis as NAME's role when the cluster has keys.
netns_spawn() {
    local host=$1 name=$2 prog=$3 role
    shift 3
    role=$(_dh_role "${name%-[0-9]*}")
    local env=()
    if [[ -r $E2E_RUN/keys/redis-$role.password ]]; then
        env=(DECKHAND_REDIS_USER="$role" DECKHAND_REDIS_PASSWORD_FILE="$E2E_RUN/keys/redis-$role.password")
    fi
    # ip netns exec execs the program in place: the pid is the program's.
    env "${env[@]}" setsid ip netns exec "$(netns_name "$host")" "$prog" "$@" \
        </dev/null >>"$E2E_RUN/logs/$name.log" 2>&1 &
    local pid=$! base i
    base=$(basename "$prog")
    for ((i = 0; i < 300; i++)); do
        [[ $(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline") == "$prog"* ]] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.01
    done
    printf '%s %s\n' "$pid" "$base" >"$E2E_RUN/pids/$name.pid"
}

# The cluster's secrets (deckhand keygen), the gateways' token key and cluster.env's
# first lines.
netns_keys() {
    "$DECKHAND_BIN_DIR/deckhand" keygen "$E2E_RUN/keys" >/dev/null || e2e_fail "deckhand keygen failed"
    DH_REDIS_OPS_PASSWORD=$(<"$E2E_RUN/keys/redis-default.password")
    export REDISCLI_AUTH=$DH_REDIS_OPS_PASSWORD
    (umask 077 && od -An -N32 -tx1 /dev/urandom | tr -d ' \n' >"$E2E_RUN/token.key" &&
        printf 'local:%s\n' "$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')" >"$E2E_RUN/keys/admin.token")
}

# Wait (bounded by DH_READY_TIMEOUT) until CHECK succeeds while every process lives.
netns_wait() {
    _dh_wait_for "$E2E_RUN" "$1" "$2" || e2e_fail "$1: not ready"
}

# redis-cli on the cluster's Redis at its host's address (-c: a Redis Cluster's redirects).
e2e_redis() {
    if [[ ${DECKHAND_REDIS_CLUSTER:-0} == 1 ]]; then
        redis-cli -c -h "$NETNS_REDIS_HOST" -p 6379 "$@"
    else
        redis-cli -h "$NETNS_REDIS_HOST" -p 6379 "$@"
    fi
}

# One Redis on host HOST, port 6379, append-only as in cluster.sh.
netns_redis() {
    local host=$1 ip
    ip=$(netns_ip "$host")
    mkdir -p "$E2E_RUN/redis"
    netns_spawn "$host" redis "$(command -v redis-server)" --port 6379 --bind "$ip" \
        --dir "$E2E_RUN/redis" --save "" --appendonly yes --appendfsync everysec \
        --aclfile "$E2E_RUN/keys/users.acl" --daemonize no
    NETNS_REDIS_HOST=$ip
    DECKHAND_REDIS_CLUSTER=0
    NETNS_REDIS_URL=redis://$ip:6379
    netns_wait redis "e2e_redis ping >/dev/null 2>&1"
}

NETNS_CURVE=()
_netns_curve() { NETNS_CURVE=(--curve-dir "$E2E_RUN/keys"); }

# A matchmaker NAME (matchmaker, matchmaker-2) with id ID on host HOST, bound to its own
# address on 5560 (and to ALSO, an extra address: the Service's, when it holds it).
netns_matchmaker() {
    local host=$1 name=$2 id=$3 ip
    ip=$(netns_ip "$host")
    _netns_curve
    DECKHAND_ADMIN_TOKEN_FILE=$E2E_RUN/keys/admin.token netns_spawn "$host" "$name" \
        "$DECKHAND_BIN_DIR/deckhand-matchmaker" --redis "$NETNS_REDIS_URL" \
        --bind "tcp://*:5560" --id "$id" --http "$ip:5561" \
        --queues "$DH_ROOT/scripts/lib/queues.conf" "${NETNS_CURVE[@]}"
}

# Worker wk-N (pid file worker-N) on host HOST, reached at its host's address.
netns_worker() {
    local host=$1 n=$2 ip
    ip=$(netns_ip "$host")
    _netns_curve
    netns_spawn "$host" "worker-$n" "$DECKHAND_BIN_DIR/deckhand-worker" --redis "$NETNS_REDIS_URL" \
        --matchmaker "$NETNS_MM" --bind "tcp://$ip:5570" --id "wk-$n" \
        --scripts "$DH_ROOT/scripts" --http "$ip:5580" --spectator-delay-ms 3000 "${NETNS_CURVE[@]}"
}

# Gateway gw-N (pid file gateway for the first, gateway-N after) on host HOST: 7000 TCP,
# 7001 WebSocket, 7010 HTTP on its address.
netns_gateway() {
    local host=$1 n=$2 ip name=gateway
    ip=$(netns_ip "$host")
    ((n == 1)) || name=gateway-$n
    _netns_curve
    DECKHAND_TOKEN_KEY=$(<"$E2E_RUN/token.key") netns_spawn "$host" "$name" \
        "$DECKHAND_BIN_DIR/deckhand-gateway" --redis "$NETNS_REDIS_URL" --matchmaker "$NETNS_MM" \
        --tcp "$ip:7000" --ws "$ip:7001" --id "gw-$n" --http "$ip:7010" "${NETNS_CURVE[@]}"
}

# True when something accepts TCP connections on ADDR:PORT.
netns_port_open() {
    (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null
}

# How many of the workers wk-1..wk-N are registered in Redis (their worker:{ID} key).
netns_workers_registered() {
    local n=$1 i c=0
    for ((i = 1; i <= n; i++)); do
        (($(e2e_redis exists "worker:{wk-$i}" 2>/dev/null || echo 0) > 0)) && c=$((c + 1))
    done
    echo "$c"
}

# A Redis Cluster of six nodes, each on its own host rc-1..rc-6 (port 6379, bus 16379),
# three masters with a replica each on another host (redis-cli --cluster create), with
# scripts/lib/rcluster.sh's settings (AOF, node timeout DH_RCLUSTER_TIMEOUT_MS).
netns_rcluster() {
    local i ip addrs=() seeds=
    for ((i = 1; i <= 6; i++)); do
        netns_host "rc-$i"
        ip=$(netns_ip "rc-$i")
        mkdir -p "$E2E_RUN/redis/$i"
        (umask 077 && printf 'masteruser default\nmasterauth %s\n' "$DH_REDIS_OPS_PASSWORD" \
            >"$E2E_RUN/redis/$i/node.conf")
        netns_spawn "rc-$i" "redis-$i" "$(command -v redis-server)" "$E2E_RUN/redis/$i/node.conf" \
            --port 6379 --bind "$ip" --cluster-enabled yes \
            --cluster-config-file "$E2E_RUN/redis/$i/nodes.conf" \
            --cluster-node-timeout "$DH_RCLUSTER_TIMEOUT_MS" --dir "$E2E_RUN/redis/$i" --save "" \
            --appendonly yes --appendfsync everysec --aclfile "$E2E_RUN/keys/users.acl" --daemonize no
        addrs+=("$ip:6379")
        seeds+="${seeds:+,}$ip:6379"
    done
    NETNS_REDIS_HOST=$(netns_ip rc-1)
    DECKHAND_REDIS_CLUSTER=1
    NETNS_REDIS_URL=redis+cluster://$seeds
    for ((i = 1; i <= 6; i++)); do
        netns_wait "redis node $i" "redis-cli -h $(netns_ip "rc-$i") ping >/dev/null 2>&1"
    done
    redis-cli --cluster create "${addrs[@]}" --cluster-replicas 1 --cluster-yes \
        >"$E2E_RUN/logs/redis-create.log" 2>&1 || e2e_fail "redis-cli --cluster create failed"
    netns_wait "the Redis Cluster" _netns_rcluster_ok
}

# Every node says cluster_state:ok, three replicas have their master link up, and every
# node's slot map lists them (the processes read it once: a map without a master's
# replica would have them skip the WAIT for it), as scripts/lib/rcluster.sh waits.
_netns_rcluster_ok() {
    local i replicas=0 info
    for ((i = 1; i <= 6; i++)); do
        redis-cli -h "$(netns_ip "rc-$i")" cluster info 2>/dev/null | grep -q '^cluster_state:ok' || return 1
        info=$(redis-cli -h "$(netns_ip "rc-$i")" info replication 2>/dev/null)
        grep -q '^master_link_status:up' <<<"$info" && replicas=$((replicas + 1))
        (($(redis-cli -h "$(netns_ip "rc-$i")" cluster slots | grep -c .) > 3 * 7)) || return 1
    done
    ((replicas == 3))
}

# Write cluster.env for the e2e checks and export it: gateways GW_HOSTS (host names).
netns_env() {
    local gws=() h
    for h in "$@"; do gws+=("$(netns_ip "$h"):7000"); done
    local IFS=,
    cat >"$E2E_RUN/cluster.env" <<ENV
DECKHAND_GATEWAY_TCP=${gws[0]}
DECKHAND_GATEWAYS_TCP=${gws[*]}
DECKHAND_REDIS_URL=${NETNS_REDIS_URL/:\/\//://:$DH_REDIS_OPS_PASSWORD@}
DECKHAND_REDIS_PORT=6379
DECKHAND_REDIS_CLUSTER=${DECKHAND_REDIS_CLUSTER:-0}
REDISCLI_AUTH=$DH_REDIS_OPS_PASSWORD
ENV
    set -a
    # shellcheck source=/dev/null
    source "$E2E_RUN/cluster.env"
    set +a
}

# The standard topology: Redis on its host, matchmaker mm-1 (and with STANDBY=1 mm-2) each
# on its own, WORKERS workers and GATEWAYS gateways each on its own; the matchmaker is
# reached at NETNS_MM (mm-1's address; with a standby, the Service address netns_service
# moves). Waits until every gateway accepts and every worker is registered.
netns_cluster() {
    local nworkers=$1 ngateways=$2 standby=${3:-0} i gws=()
    netns_keys
    if [[ ${NETNS_RCLUSTER:-0} == 1 ]]; then
        netns_rcluster
    else
        netns_host redis
        netns_redis redis
    fi
    netns_host mm-1
    NETNS_MM=tcp://$(netns_ip mm-1):5560
    if ((standby)); then
        netns_host mm-2
        NETNS_SERVICE=$NETNS_NET.5
        NETNS_MM=tcp://$NETNS_SERVICE:5560
        ip -n "$(netns_name mm-1)" addr add "$NETNS_SERVICE/32" dev eth0
        NETNS_SERVICE_ON="mm-1"
    fi
    netns_matchmaker mm-1 matchmaker mm-1
    ((standby)) && netns_matchmaker mm-2 matchmaker-2 mm-2
    for ((i = 1; i <= nworkers; i++)); do
        netns_host "wk-$i"
        netns_worker "wk-$i" "$i"
    done
    for ((i = 1; i <= ngateways; i++)); do
        netns_host "gw-$i"
        netns_gateway "gw-$i" "$i"
        gws+=("gw-$i")
    done
    netns_wait "$ngateways gateways and $nworkers workers" \
        "_netns_gateways_open ${gws[*]} && ((\$(netns_workers_registered $nworkers) == $nworkers))"
    netns_env "${gws[@]}"
    e2e_log "cluster up: redis $NETNS_REDIS_URL, matchmaker $NETNS_MM, workers on" \
        "$(for ((i = 1; i <= nworkers; i++)); do printf '%s ' "$(netns_ip "wk-$i")"; done)gateways $DECKHAND_GATEWAYS_TCP"
}

_netns_gateways_open() {
    local h
    for h in "$@"; do netns_port_open "$(netns_ip "$h")" 7000 || return 1; done
}

# Move the Service address (the matchmaker endpoint everyone dials) to host TO, as
# k8s/base's leader-label sidecar and Service do for the lease holder, and announce it
# (the neighbour caches that knew the old host forget it, as a gratuitous ARP does).
netns_service_move() {
    local to=$1 h
    ip -n "$(netns_name "$NETNS_SERVICE_ON")" addr del "$NETNS_SERVICE/32" dev eth0 2>/dev/null
    ip -n "$(netns_name "$to")" addr add "$NETNS_SERVICE/32" dev eth0
    NETNS_SERVICE_ON=$to
    for h in "${!NETNS_IP[@]}"; do _netns_neigh "$h" "$NETNS_SERVICE"; done
    _netns_neigh host "$NETNS_SERVICE"
}

# Bots for MATCHES two-player matches (e2e_bots_start: paced, over every gateway), with
# their answer log in RUNDIR/answers.log; then wait until three quarters run, a second in.
netns_bots_busy() {
    local matches=$1
    shift
    e2e_bots_start "$matches" --answer-log "$E2E_RUN/answers.log" "$@"
    echo "$E2E_BOTS_PID" >"$E2E_RUN/bots.pid" # for the watcher, if the test is killed
    e2e_wait_running $((matches * 3 / 4))
    sleep 1
}

# What players felt, from the answer logs (RUNDIR/answers*.log: the bots' --answer-log):
# "WAITED_MAX_MS WAITED_OVER_1S ANSWERS": the longest time from a bot's answer, as first
# sent, to the next thing it heard of its match (Reply{ok}, the next decision, GameOver),
# retries and resyncs included; how many answers waited over 1 s; how many were sent.
netns_waits() {
    awk '$2 == "sent" { n++; k = $3 " " $4; if (!(k in t)) t[k] = $1 }
        ($2 == "ok" || $2 == "decision" || $2 == "over") && (($3 " " $4) in t) {
            k = $3 " " $4; w = $1 - t[k]; if (w > max) max = w; if (w > 1000) over++; delete t[k] }
        END { printf "%d %d %d\n", max, over, n }' "$E2E_RUN"/answers*.log
}

# How many decisions of match ID the bots answered (one answer each, however often it
# was sent again), and how many of those answers got Reply{ok}, or ended the match (the
# last one sent, when its GameOver came first): "ANSWERED TOLD_OK".
_netns_answered() {
    awk -v m="$1" '$3 != m { next }
        $2 == "sent" { sent[$4 " " $5] = 1; last = $4 " " $5 }
        $2 == "ok" { ok[$4 " " $5] = 1 }
        $2 == "over" { over = 1 }
        END { n = 0; k = 0; for (d in sent) n++; for (d in ok) k++
              if (over && last != "" && !(last in ok)) k++; print n, k }' \
        "$E2E_RUN"/answers*.log
}

# The checks every partition test ends with: the bots finished MATCHES matches without an
# error or a lost command (an accepted answer whose decision came again), every match
# finished once and replays to its hash, and in every finished match each decision its
# bots answered is in its history exactly once (none lost, none applied twice), which
# holds at least every answer they were told was accepted. Prints what it checked, and the longest a
# player waited for an answer's outcome (netns_waits).
netns_check_all() {
    local matches=$1 id n=0 hist=0 told=0 len answered ok max over
    e2e_bots_wait "$matches"
    rm -f "$E2E_RUN/bots.pid" # reaped: its pid may be anyone's now
    e2e_check_finished_once "$matches"
    while read -r id; do
        [[ -n $id ]] || continue
        len=$(e2e_redis llen "match:{$id}:history")
        read -r answered ok <<<"$(_netns_answered "$id")"
        ((answered == len && ok <= len)) ||
            e2e_fail "match $id: the bots answered $answered decisions ($ok told accepted); its history holds $len"
        hist=$((hist + len))
        told=$((told + ok))
        n=$((n + 1))
    done < <(e2e_redis lrange matches:finished 0 -1)
    read -r max over ok <<<"$(netns_waits)"
    e2e_log "checked: $hist decisions answered = $hist answers in the histories of $n finished" \
        "matches ($told of them told accepted), each finished once and replayed to its hash; players waited at most $max ms for an" \
        "answer's outcome ($over of $ok answers over 1 s)"
}
