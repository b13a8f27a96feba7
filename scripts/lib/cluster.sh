# shellcheck shell=bash
#
# cluster.sh: start and stop a local deckhand cluster (redis-server, one matchmaker,
# N workers, one gateway or more) in a run directory.
#
# Used two ways:
#   sourced   by scripts/run, scripts/stop and the e2e shell tests (dh_cluster_* functions);
#   executed  by anything else, e.g. the CUnit e2e tests through system():
#     bash scripts/lib/cluster.sh start RUNDIR BASE [WORKERS] [OWNER_PID]
#         (ports from BASE, or BASE+100... when taken: read RUNDIR/cluster.env; with
#         OWNER_PID, the cluster stops by itself once that process is gone; DH_GATEWAYS
#         in the environment: how many gateways, default 1)
#     bash scripts/lib/cluster.sh stop RUNDIR
#     bash scripts/lib/cluster.sh alive RUNDIR     # is every process still running?
#     bash scripts/lib/cluster.sh check RUNDIR     # sanitizer reports in the logs?
#
# A run directory holds everything of one cluster, so clusters never share state:
#   RUNDIR/redis/        redis-server's --dir (nothing is saved: --save "")
#   RUNDIR/logs/NAME.log each process's stdout and stderr
#   RUNDIR/pids/NAME.pid "PID PROGRAM", so stop never signals a recycled pid
#   RUNDIR/cluster.env   where everything listens, in KEY=VALUE lines a shell can source
#                        (DECKHAND_HTTP_<NAME>: each process's operator port, /healthz...)
#   RUNDIR/token.key     the gateways' shared token key (mode 600; never on a command line)
#   RUNDIR/keys/         the cluster's secrets (`deckhand keygen`): the CURVE keys of the
#                        ZeroMQ links (each process gets --curve-dir RUNDIR/keys), a Redis
#                        password per role and users.acl, which redis-server loads; each
#                        process logs in as its role's Redis user (DECKHAND_REDIS_USER,
#                        DECKHAND_REDIS_PASSWORD_FILE); the default user is the operators'
#                        and needs its password: cluster.env carries it (REDISCLI_AUTH for
#                        redis-cli, and in DECKHAND_REDIS_URL for the deckhand command);
#                        admin.token, the admin API's ("local:..."), which the matchmaker
#                        reads unless DECKHAND_ADMIN_TOKEN is set, and `deckhand admin`
#                        finds through cluster.env (DECKHAND_ADMIN_TOKEN_FILE)
#
# DECKHAND_REDIS_CLUSTER=1 starts a local Redis Cluster instead of one redis-server
# (rcluster.sh: six nodes from DH_RCLUSTER_BASE, default 6391), and every process finds
# it from DECKHAND_REDIS_URL=redis+cluster://SEEDS; cluster.env then also says
# DECKHAND_REDIS_CLUSTER=1 and DECKHAND_REDIS_PORT is node 1's port (redis-cli -c).
#
# DH_INSECURE_INTERNAL=1 starts every process with --insecure-internal (no CURVE; the
# processes log it loudly); only for debugging with a packet capture.
#
# Ports come from DH_PORT_* variables (dh_cluster_ports_default: the documented
# defaults; dh_cluster_ports_base BASE: BASE, BASE+1... for tests). Gateway N (gw-N, 1..4)
# listens on DH_PORT_TCP + 2(N-1) and DH_PORT_WS + 2(N-1): with a BASE, gw-1 on BASE+2 and
# BASE+3, gw-2 on BASE+4 and BASE+5... below the workers' BASE+10. Every process also
# serves its operator HTTP port (/healthz, /readyz, /metrics) on 127.0.0.1: the
# matchmaker on DH_PORT_HTTP_MM, gw-N on DH_PORT_HTTP_GW + N-1, worker wk-N on
# DH_PORT_HTTP_WORKER + N-1 (BASE+20, BASE+21..24, BASE+30...). Binaries come from
# DECKHAND_BIN_DIR (default build/bin), the Lua bundle from DH_CLUSTER_SCRIPTS (default
# DH_ROOT/scripts: another tree's binaries need that tree's scripts).

DH_ROOT=${DH_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# shellcheck source=SCRIPTDIR/rcluster.sh
source "$DH_ROOT/scripts/lib/rcluster.sh"
DH_READY_TIMEOUT=${DH_READY_TIMEOUT:-20}
DH_STOP_TIMEOUT=${DH_STOP_TIMEOUT:-5}
DH_GATEWAYS_MAX=4

# The ports of docs/deployment.md: redis 6390, matchmaker 5560, workers 5570+,
# gateway tcp 7000 and ws 7001; HTTP: matchmaker 5561, workers 5580+, gateways 7010+.
dh_cluster_ports_default() {
    DH_PORT_REDIS=6390
    DH_PORT_MATCHMAKER=5560
    DH_PORT_WORKER=5570
    DH_PORT_TCP=7000
    DH_PORT_WS=7001
    DH_PORT_HTTP_MM=5561
    DH_PORT_HTTP_WORKER=5580
    DH_PORT_HTTP_GW=7010
}

# Test ports from one base: redis BASE, matchmaker BASE+1, tcp BASE+2, ws BASE+3,
# workers BASE+10, BASE+11...; HTTP: matchmaker BASE+20, gateways BASE+21..., workers
# BASE+30...
dh_cluster_ports_base() {
    local base=$1
    DH_PORT_REDIS=$base
    DH_PORT_MATCHMAKER=$((base + 1))
    DH_PORT_TCP=$((base + 2))
    DH_PORT_WS=$((base + 3))
    DH_PORT_WORKER=$((base + 10))
    DH_PORT_HTTP_MM=$((base + 20))
    DH_PORT_HTTP_GW=$((base + 21))
    DH_PORT_HTTP_WORKER=$((base + 30))
}

# A process's line in cluster.env: DECKHAND_HTTP_ + its pid-file name in capitals, - as _
# (DECKHAND_HTTP_MATCHMAKER, DECKHAND_HTTP_GATEWAY, DECKHAND_HTTP_GATEWAY_2,
# DECKHAND_HTTP_WORKER_1).
_dh_http_var() {
    local n=${1^^}
    printf 'DECKHAND_HTTP_%s' "${n//-/_}"
}

_dh_log() { printf 'cluster: %s\n' "$*" >&2; }

# True when something accepts TCP connections on 127.0.0.1:PORT.
dh_port_open() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# True when PID is alive and still runs PROGRAM (not a recycled pid).
# A live process whose cmdline reads otherwise is asked again a few times: /proc shows
# nothing, or the forking shell, while a process execs (a sanitizer may re-exec itself).
_dh_pid_is() {
    local pid=$1 prog=$2 cmdline i
    for ((i = 0; i < 5; i++)); do
        kill -0 "$pid" 2>/dev/null || return 1
        cmdline=$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline") || cmdline=
        [[ $cmdline == *"$prog"* ]] && return 0
        sleep 0.05
    done
    return 1
}

# Every "NAME PID PROGRAM" of RUNDIR/pids whose process is still alive (with DEAD=1:
# whose process is gone). Always true, so `x=$(_dh_live ...)` under set -e goes on when
# the last process listed has died.
_dh_live() {
    local run=$1 dead=${2:-0} f pid prog alive
    for f in "$run"/pids/*.pid; do
        [[ -e $f ]] || continue
        read -r pid prog <"$f" || continue
        alive=0
        _dh_pid_is "$pid" "$prog" && alive=1
        if ((alive != dead)); then
            printf '%s %s %s\n' "$(basename "$f" .pid)" "$pid" "$prog"
        fi
    done
    return 0
}

# True when any process of the cluster in RUNDIR is alive.
dh_cluster_running() {
    [[ -n $(_dh_live "$1") ]]
}

# Start NAME as a background process: stdin from /dev/null, output to its log, own
# session (so a terminal's Ctrl-C reaches only the script that owns the cluster, which
# then stops everything in order).
_dh_spawn() {
    local run=$1 name=$2 prog=$3
    shift 3
    setsid "$prog" "$@" </dev/null >>"$run/logs/$name.log" 2>&1 &
    local pid=$! base i
    base=$(basename "$prog")
    printf '%s %s\n' "$pid" "$base" >"$run/pids/$name.pid"
    # Until the forked shell has exec'd, /proc shows it as bash and _dh_pid_is would call
    # the process gone: wait for the exec (a loaded machine can take a while).
    for ((i = 0; i < 300; i++)); do
        [[ $(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline") == *"$base"* ]] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.01
    done
    mkdir -p "$run/cmds"
    printf '%q ' "$prog" "$@" >"$run/cmds/$name"
}

# The role of process NAME: matchmaker, worker or gateway.
_dh_role() {
    case $1 in
    worker*) echo worker ;;
    gateway*) echo gateway ;;
    *) echo "$1" ;;
    esac
}

# _dh_spawn RUNDIR NAME PROGRAM ARGS..., logged in to Redis as NAME's role (its ACL user
# and password file in RUNDIR/keys) when the cluster has keys.
_dh_spawn_as() {
    local run=$1 name=$2 role
    role=$(_dh_role "$name")
    if [[ -r $run/keys/redis-$role.password ]]; then
        DECKHAND_REDIS_USER=$role DECKHAND_REDIS_PASSWORD_FILE=$run/keys/redis-$role.password \
            _dh_spawn "$@"
    else
        _dh_spawn "$@"
    fi
}

# redis-cli on the cluster's Redis (DH_PORT_REDIS) as the operators' user.
_dh_redis_cli() {
    if [[ ${DECKHAND_REDIS_CLUSTER:-} == 1 ]]; then
        REDISCLI_AUTH=${DH_REDIS_OPS_PASSWORD:-} redis-cli -c -p "$(dh_rcluster_port 1)" "$@"
    else
        REDISCLI_AUTH=${DH_REDIS_OPS_PASSWORD:-} redis-cli -p "$DH_PORT_REDIS" "$@"
    fi
}

# Kill NAME of the cluster in RUNDIR with SIGNAL (default KILL: a crash) and forget it,
# so the cluster does not count it as died unexpectedly.
dh_cluster_kill() {
    local run=$1 name=$2 sig=${3:-KILL} pid prog
    read -r pid prog <"$run/pids/$name.pid" || return 1
    _dh_pid_is "$pid" "$prog" && kill "-$sig" "$pid"
    while _dh_pid_is "$pid" "$prog"; do sleep 0.05; done
    rm -f "$run/pids/$name.pid"
}

# Start NAME again with the arguments it was first started with (after dh_cluster_kill);
# a gateway gets the cluster's token key again, so its sessions stay valid, and a worker
# its fence per loop turn.
dh_cluster_restart() {
    local run=$1 name=$2 cmd
    cmd=$(<"$run/cmds/$name") || return 1
    if [[ $name == gateway* && -r $run/token.key ]]; then
        DECKHAND_TOKEN_KEY=$(<"$run/token.key") eval "_dh_spawn_as \"\$run\" \"\$name\" $cmd"
    elif [[ $name == matchmaker* && -r $run/keys/admin.token ]]; then
        DECKHAND_ADMIN_TOKEN_FILE=$run/keys/admin.token \
            eval "_dh_spawn_as \"\$run\" \"\$name\" $cmd"
    elif [[ $name == worker* ]]; then
        DECKHAND_WORKER_FENCE_PER_TURN=${DECKHAND_WORKER_FENCE_PER_TURN:-1} \
            DECKHAND_WORKER_LOG_IN_HISTORY=${DECKHAND_WORKER_LOG_IN_HISTORY:-1} \
            eval "_dh_spawn_as \"\$run\" \"\$name\" $cmd"
    else
        eval "_dh_spawn_as \"\$run\" \"\$name\" $cmd"
    fi
}

# The pid-file name of gateway N: "gateway" for the first (as with one gateway),
# "gateway-N" for the others.
_dh_gateway_name() {
    if (($1 == 1)); then echo gateway; else echo "gateway-$1"; fi
}

# True when every gateway 1..N accepts TCP connections.
_dh_gateways_open() {
    local n=$1 i
    for ((i = 1; i <= n; i++)); do
        dh_port_open $((DH_PORT_TCP + 2 * (i - 1))) || return 1
    done
}

# Print the last lines of every log of RUNDIR on stderr.
dh_cluster_tail_logs() {
    local f
    for f in "$1"/logs/*.log; do
        [[ -e $f ]] || continue
        printf -- '----- %s (last 30 lines) -----\n' "$(basename "$f")" >&2
        tail -n 30 "$f" >&2
    done
}

# Count the workers wk-1..wk-N whose worker:{ID} key exists (with or without the hash-tag
# braces: both spellings are accepted).
_dh_workers_registered() {
    local n=$1 i c=0 keys
    if [[ ${DECKHAND_REDIS_CLUSTER:-} == 1 ]]; then
        keys=$(dh_rcluster_scan 'worker:*')
    else
        keys=$(_dh_redis_cli --scan --pattern 'worker:*' 2>/dev/null) || {
            echo 0
            return
        }
    fi
    for ((i = 1; i <= n; i++)); do
        grep -qxE "worker:(wk-$i|\\{wk-$i\\})" <<<"$keys" && c=$((c + 1))
    done
    echo "$c"
}

# Wait (bounded) until CHECK succeeds while every process in RUNDIR stays alive.
# Returns 1 on timeout or when a process died.
_dh_wait_for() {
    local run=$1 what=$2 check=$3 deadline f pid prog
    deadline=$((SECONDS + DH_READY_TIMEOUT))
    while ((SECONDS < deadline)); do
        for f in "$run"/pids/*.pid; do
            read -r pid prog <"$f"
            if ! _dh_pid_is "$pid" "$prog"; then
                _dh_log "$(basename "$f" .pid) exited while waiting for $what"
                return 1
            fi
        done
        eval "$check" && return 0
        sleep 0.1
    done
    _dh_log "timed out after ${DH_READY_TIMEOUT}s waiting for $what"
    return 1
}

# Start a cluster in RUNDIR with WORKERS workers (default 2) and GATEWAYS gateways
# (default DH_GATEWAYS, else 1) on the DH_PORT_* ports, wait until it is ready, write
# RUNDIR/cluster.env. Returns 2 when a port is taken (nothing was started), 1 (after
# stopping whatever started and printing the logs' tails) when the cluster does not come
# up.
dh_cluster_start() {
    local run=$1 nworkers=${2:-2} ngateways=${3:-${DH_GATEWAYS:-1}}
    local bin=${DECKHAND_BIN_DIR:-$DH_ROOT/build/bin}
    local redis_url="redis://127.0.0.1:$DH_PORT_REDIS" rcluster=${DECKHAND_REDIS_CLUSTER:-}
    local mm="tcp://127.0.0.1:$DH_PORT_MATCHMAKER"
    local b p i key workers=() gw_tcp=() gw_ws=() ports=() http=()

    local curve=()
    for b in deckhand-matchmaker deckhand-worker deckhand-gateway deckhand; do
        [[ -x $bin/$b ]] || { _dh_log "missing $bin/$b (not built?)"; return 1; }
    done
    command -v redis-server >/dev/null || { _dh_log "redis-server is not installed"; return 1; }
    if ! [[ $ngateways =~ ^[0-9]+$ ]] || ((ngateways < 1 || ngateways > DH_GATEWAYS_MAX)); then
        _dh_log "gateways: want 1..$DH_GATEWAYS_MAX, not '$ngateways'"
        return 1
    fi
    ports=("$DH_PORT_REDIS" "$DH_PORT_MATCHMAKER" "$DH_PORT_HTTP_MM")
    if [[ $rcluster == 1 ]]; then
        read -ra ports <<<"$DH_PORT_MATCHMAKER $DH_PORT_HTTP_MM $(dh_rcluster_ports | tr '\n' ' ')"
        redis_url="redis+cluster://$(dh_rcluster_seeds)"
    fi
    http=("matchmaker=127.0.0.1:$DH_PORT_HTTP_MM")
    for ((i = 1; i <= nworkers; i++)); do
        ports+=($((DH_PORT_HTTP_WORKER + i - 1)))
        http+=("worker-$i=127.0.0.1:$((DH_PORT_HTTP_WORKER + i - 1))")
    done
    for ((i = 1; i <= ngateways; i++)); do
        ports+=($((DH_PORT_TCP + 2 * (i - 1))) $((DH_PORT_WS + 2 * (i - 1))))
        ports+=($((DH_PORT_HTTP_GW + i - 1)))
        http+=("$(_dh_gateway_name "$i")=127.0.0.1:$((DH_PORT_HTTP_GW + i - 1))")
        gw_tcp+=("127.0.0.1:$((DH_PORT_TCP + 2 * (i - 1)))")
        gw_ws+=("127.0.0.1:$((DH_PORT_WS + 2 * (i - 1)))")
    done
    if dh_cluster_running "$run"; then
        _dh_log "a cluster is already running from $run"
        return 1
    fi
    for p in "${ports[@]}" $(seq "$DH_PORT_WORKER" $((DH_PORT_WORKER + nworkers - 1))); do
        if dh_port_open "$p"; then
            _dh_log "port $p on 127.0.0.1 is already in use"
            return 2
        fi
    done

    mkdir -p "$run"
    run=$(cd "$run" && pwd)
    rm -rf "$run/pids" "$run/logs" "$run/redis" "$run/cluster.env" "$run/token.key"
    mkdir -p "$run/pids" "$run/logs" "$run/redis"
    # The cluster's secrets, kept across restarts of the same run directory.
    "$bin/deckhand" keygen "$run/keys" || { _dh_log "deckhand keygen failed"; return 1; }
    curve=(--curve-dir "$run/keys")
    if [[ -n ${DH_INSECURE_INTERNAL:-} ]]; then
        _dh_log "INSECURE: --insecure-internal, the ZeroMQ links run without CURVE"
        curve=(--insecure-internal)
    fi
    DH_REDIS_OPS_PASSWORD=$(<"$run/keys/redis-default.password")
    # The admin API's token (docs/OPERATIONS.md, "Admin API"), kept like the keys; a
    # DECKHAND_ADMIN_TOKEN in the environment wins over it.
    [[ -s $run/keys/admin.token ]] ||
        (umask 077 && printf 'local:%s\n' "$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')" \
            >"$run/keys/admin.token")

    if [[ $rcluster == 1 ]]; then
        dh_rcluster_start "$run" || {
            dh_cluster_fail "$run"
            return 1
        }
    else
        _dh_spawn "$run" redis "$(command -v redis-server)" --port "$DH_PORT_REDIS" \
            --bind 127.0.0.1 --dir "$run/redis" --save "" --appendonly yes \
            --appendfsync everysec --aclfile "$run/keys/users.acl" --daemonize no
        _dh_wait_for "$run" redis "_dh_redis_cli ping >/dev/null 2>&1" || {
            dh_cluster_fail "$run"
            return 1
        }
    fi

    # The queues: the caller's DECKHAND_QUEUES, else the ones shipped (casual and ranked);
    # a flag, so that dh_cluster_restart starts the matchmaker with the same.
    DECKHAND_ADMIN_TOKEN_FILE=$run/keys/admin.token _dh_spawn_as "$run" matchmaker \
        "$bin/deckhand-matchmaker" --redis "$redis_url" --bind "$mm" \
        --id mm-1 --http "127.0.0.1:$DH_PORT_HTTP_MM" \
        --queues "${DECKHAND_QUEUES:-$DH_ROOT/scripts/lib/queues.conf}" "${curve[@]}"
    for ((i = 1; i <= nworkers; i++)); do
        p=$((DH_PORT_WORKER + i - 1))
        workers+=("tcp://127.0.0.1:$p")
        # A fence per loop turn (--fence-per-turn): every matchmaker here is of the same
        # build, so each move deletes the worker's token; DECKHAND_WORKER_FENCE_PER_TURN=0
        # turns it off. By the environment: a worker of a release before ignores it.
        # Likewise the log as the history's tail (--log-in-history): every worker here is
        # of the same build; DECKHAND_WORKER_LOG_IN_HISTORY=0 turns it off.
        DECKHAND_WORKER_FENCE_PER_TURN=${DECKHAND_WORKER_FENCE_PER_TURN:-1} \
            DECKHAND_WORKER_LOG_IN_HISTORY=${DECKHAND_WORKER_LOG_IN_HISTORY:-1} \
            _dh_spawn_as "$run" "worker-$i" "$bin/deckhand-worker" --redis "$redis_url" \
            --matchmaker "$mm" --bind "tcp://127.0.0.1:$p" --id "wk-$i" \
            --scripts "${DH_CLUSTER_SCRIPTS:-$DH_ROOT/scripts}" --http "127.0.0.1:$((DH_PORT_HTTP_WORKER + i - 1))" \
            --spectator-delay-ms "${DECKHAND_SPECTATOR_DELAY_MS:-3000}" "${curve[@]}"
    done
    # One fresh signing key per cluster, shared by its gateways so that a session resumes
    # on any of them; passed through the environment so that it does not show in ps, and
    # kept in a file only its owner reads, for dh_cluster_restart.
    key=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
    (umask 077 && printf '%s\n' "$key" >"$run/token.key")
    for ((i = 1; i <= ngateways; i++)); do
        DECKHAND_TOKEN_KEY=$key _dh_spawn_as "$run" "$(_dh_gateway_name "$i")" \
            "$bin/deckhand-gateway" --redis "$redis_url" --matchmaker "$mm" \
            --tcp "${gw_tcp[i - 1]}" --ws "${gw_ws[i - 1]}" --id "gw-$i" \
            --http "127.0.0.1:$((DH_PORT_HTTP_GW + i - 1))" "${curve[@]}"
        gw_ws[i - 1]="ws://${gw_ws[i - 1]}/ws"
    done

    _dh_wait_for "$run" "$ngateways gateway(s) from $DH_PORT_TCP and $nworkers workers in redis" \
        "_dh_gateways_open $ngateways && (( \$(_dh_workers_registered $nworkers) == $nworkers ))" || {
        dh_cluster_fail "$run"
        return 1
    }

    local ops_url="redis://:$DH_REDIS_OPS_PASSWORD@127.0.0.1:$DH_PORT_REDIS"
    local redis_port=$DH_PORT_REDIS
    if [[ $rcluster == 1 ]]; then
        ops_url="redis+cluster://:$DH_REDIS_OPS_PASSWORD@$(dh_rcluster_seeds)"
        redis_port=$(dh_rcluster_port 1)
    fi
    local IFS=,
    cat >"$run/cluster.env" <<ENV
DECKHAND_GATEWAY_TCP=${gw_tcp[0]}
DECKHAND_GATEWAY_WS=${gw_ws[0]}
DECKHAND_GATEWAYS_TCP=${gw_tcp[*]}
DECKHAND_GATEWAYS_WS=${gw_ws[*]}
DECKHAND_REDIS_URL=$ops_url
DECKHAND_REDIS_PORT=$redis_port
DECKHAND_REDIS_CLUSTER=${rcluster:-0}
REDISCLI_AUTH=$DH_REDIS_OPS_PASSWORD
DECKHAND_CURVE_DIR=$run/keys
DECKHAND_ADMIN_TOKEN_FILE=$run/keys/admin.token
DECKHAND_MATCHMAKER=$mm
DECKHAND_WORKERS=${workers[*]}
ENV
    for p in "${http[@]}"; do
        printf '%s=%s\n' "$(_dh_http_var "${p%%=*}")" "${p#*=}" >>"$run/cluster.env"
    done
}

# Start a cluster like dh_cluster_start (WORKERS, GATEWAYS) on ports from BASE; when a
# port there is taken (another test run on this machine), try BASE+100, BASE+200... up to
# BASE+900. cluster.env says which ports it got.
dh_cluster_start_near() {
    local run=$1 base=$2 nworkers=${3:-2} ngateways=${4:-${DH_GATEWAYS:-1}} i rc
    for ((i = 0; i < 10; i++)); do
        dh_cluster_ports_base $((base + 100 * i))
        dh_cluster_start "$run" "$nworkers" "$ngateways"
        rc=$?
        ((rc == 2)) || return "$rc"
    done
    return 1
}

# Report a failed start: the logs' tails, then stop what is running.
dh_cluster_fail() {
    _dh_log "the cluster in $1 did not come up; logs:"
    dh_cluster_tail_logs "$1"
    dh_cluster_stop "$1"
}

# SIGTERM the processes named by the arguments (lines "NAME PID PROGRAM"), wait up to
# DH_STOP_TIMEOUT seconds, SIGKILL what is left.
_dh_terminate() {
    local lines=$1 name pid prog deadline alive
    [[ -n $lines ]] || return 0
    while read -r name pid prog; do
        kill -TERM "$pid" 2>/dev/null || true
    done <<<"$lines"
    deadline=$((SECONDS + DH_STOP_TIMEOUT))
    while :; do
        alive=0
        while read -r name pid prog; do
            _dh_pid_is "$pid" "$prog" && alive=1
        done <<<"$lines"
        ((alive)) || return 0
        ((SECONDS < deadline)) || break
        sleep 0.1
    done
    while read -r name pid prog; do
        if _dh_pid_is "$pid" "$prog"; then
            _dh_log "$name (pid $pid) ignored SIGTERM; killing it"
            kill -KILL "$pid" 2>/dev/null || true
        fi
    done <<<"$lines"
}

# Stop the cluster in RUNDIR: gateway, matchmaker and workers first, then Redis, so the
# workers' last writes land. Safe to call twice or on a half-started cluster; a process
# that had died already (a crash) is named, and the others are stopped all the same.
dh_cluster_stop() {
    local run=$1 live name pid prog
    [[ -d $run/pids ]] || return 0
    while read -r name pid prog; do
        if [[ -n $name ]]; then
            _dh_log "$name (pid $pid) had already exited"
        fi
    done <<<"$(_dh_live "$run" 1)"
    live=$(_dh_live "$run")
    _dh_terminate "$(grep -vE '^redis(-[0-9]+)? ' <<<"$live" || true)"
    _dh_terminate "$(grep -E '^redis(-[0-9]+)? ' <<<"$live" || true)"
    rm -f "$run"/pids/*.pid
}

# True when every process of the cluster in RUNDIR is still alive; names the dead ones.
dh_cluster_alive() {
    local run=$1 f pid prog rc=0
    for f in "$run"/pids/*.pid; do
        [[ -e $f ]] || continue
        read -r pid prog <"$f"
        if ! _dh_pid_is "$pid" "$prog"; then
            _dh_log "$(basename "$f" .pid) (pid $pid) is no longer running"
            rc=1
        fi
    done
    return "$rc"
}

# Print every sanitizer report in RUNDIR's logs; non-zero when there is one.
dh_cluster_check_logs() {
    local run=$1 hits
    hits=$(grep -nHE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' \
        "$run"/logs/*.log 2>/dev/null) || return 0
    _dh_log "sanitizer reports in $run/logs:"
    printf '%s\n' "$hits" >&2
    return 1
}

# Stop the cluster in RUNDIR as soon as OWNER_PID exits, whatever way it exits (a test
# that crashes or is killed must not leave a cluster behind).
dh_cluster_watch() {
    local run=$1 owner=$2
    (
        trap '' HUP INT
        while kill -0 "$owner" 2>/dev/null && [[ -d $run/pids ]] && dh_cluster_running "$run"; do
            sleep 1
        done
        dh_cluster_stop "$run"
    ) </dev/null >>"$run/logs/watch.log" 2>&1 &
    disown 2>/dev/null || true
}

_dh_cluster_main() {
    local cmd=${1:-} run=${2:-}
    case $cmd in
    start)
        [[ -n $run && -n ${3:-} ]] || {
            echo "usage: [DH_GATEWAYS=N] cluster.sh start RUNDIR BASE [WORKERS] [OWNER_PID]" >&2
            return 2
        }
        dh_cluster_start_near "$run" "$3" "${4:-2}" || return 1
        [[ -z ${5:-} ]] || dh_cluster_watch "$run" "$5"
        ;;
    stop) [[ -n $run ]] && dh_cluster_stop "$run" ;;
    alive) [[ -n $run ]] && dh_cluster_alive "$run" ;;
    check) [[ -n $run ]] && dh_cluster_check_logs "$run" ;;
    *)
        echo "usage: cluster.sh start RUNDIR BASE [WORKERS] [OWNER_PID] | stop|alive|check RUNDIR" >&2
        return 2
        ;;
    esac
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    set -uo pipefail
    _dh_cluster_main "$@"
fi
