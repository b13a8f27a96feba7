#!/usr/bin/env bash
# test_image.sh: the container image, built from k8s/Dockerfile by scripts/image (or
# reused when it was built from this very tree), runs the cluster. The matchmaker, two
# workers and the gateway each run as their own container command (`buildah run
# --isolation chroot`, on the host's network, as the image's uid 10001, with the keys
# mounted read-only as k8s/base mounts its Secret), against a redis-server on this host;
# bots from this build play matches through the gateway, and every match finishes once
# and replays to its recorded hash. Skipped (77) without root, which buildah needs here.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

MATCHES=6
IMAGE=${DECKHAND_IMAGE:-localhost/deckhand:dev}
BASE=15100
CONTAINERS=()
PGIDS=()

if ((EUID != 0)); then
    e2e_log "SKIPPED: building and running the image with buildah needs root here"
    exit 77
fi

# Stop every container command (its whole process group) and remove its container.
stop_containers() {
    local g c
    for g in "${PGIDS[@]}"; do kill -TERM -- "-$g" 2>/dev/null; done
    for ((c = 0; c < 50; c++)); do
        local alive=0
        for g in "${PGIDS[@]}"; do kill -0 -- "-$g" 2>/dev/null && alive=1; done
        ((alive)) || break
        sleep 0.1
    done
    for g in "${PGIDS[@]}"; do kill -KILL -- "-$g" 2>/dev/null; done
    for c in "${CONTAINERS[@]}"; do buildah rm "$c" >/dev/null 2>&1; done
    PGIDS=()
    CONTAINERS=()
}

cleanup() {
    local rc=$?
    stop_containers
    [[ -n $E2E_RUN ]] && dh_cluster_stop "$E2E_RUN"
    if ((rc == 0)); then
        [[ -n $E2E_RUN && -z ${E2E_KEEP:-} ]] && rm -rf "$E2E_RUN"
        e2e_log "PASS"
    else
        [[ -n $E2E_RUN ]] && dh_cluster_tail_logs "$E2E_RUN"
        e2e_log "FAILED; logs kept in $E2E_RUN/logs"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

started=$SECONDS
"$E2E_SRC/scripts/image" || e2e_fail "scripts/image could not build $IMAGE"
e2e_log "image $IMAGE ready in $((SECONDS - started)) s"

# The manifests use the image as built: every deckhand container's command is a program
# of the image, run as the image's user (k8s/base: runAsUser), with the keys where the
# processes are told to read them.
user=$(buildah inspect --type image --format '{{.Docker.Config.User}}' "$IMAGE")
[[ $user == 10001:10001 ]] || e2e_fail "$IMAGE runs as '$user', not 10001:10001"
checker=$(buildah from --name "deckhand-test-$$-check" "$IMAGE") || e2e_fail "buildah from failed"
CONTAINERS+=("$checker")
while read -r kind cmd uid; do
    [[ $uid == 10001 ]] || e2e_fail "k8s/base $kind runs $cmd as uid $uid, not the image's 10001"
    buildah run --isolation chroot "$checker" -- sh -c "command -v $cmd" </dev/null >/dev/null 2>&1 ||
        e2e_fail "k8s/base $kind runs $cmd, which $IMAGE does not have"
    e2e_log "k8s/base $kind: $cmd as uid $uid is in the image"
done < <(python3 - "$E2E_SRC/k8s/base" <<'PY'
import glob, sys, yaml
for f in sorted(glob.glob(sys.argv[1] + "/*.yaml")):
    for doc in yaml.safe_load_all(open(f)):
        spec = ((doc or {}).get("spec") or {}).get("template", {}).get("spec", {})
        uid = (spec.get("securityContext") or {}).get("runAsUser", "")
        for c in spec.get("containers", []):
            if c.get("image") == "deckhand":
                print(doc["kind"] + "/" + doc["metadata"]["name"], c["command"][0],
                      (c.get("securityContext") or {}).get("runAsUser", uid))
PY
)

E2E_RUN=$(mktemp -d /tmp/deckhand-e2e-test_image.XXXXXX)
mkdir -p "$E2E_RUN/pids" "$E2E_RUN/logs" "$E2E_RUN/redis"
"$DECKHAND_BIN_DIR/deckhand" keygen "$E2E_RUN/keys" >/dev/null || e2e_fail "deckhand keygen failed"
# The keys as a Secret volume gives them: readable by the image's user, no one else.
chown -R 10001:10001 "$E2E_RUN/keys"
chmod 0750 "$E2E_RUN/keys"
ops=$(<"$E2E_RUN/keys/redis-default.password")
_dh_spawn "$E2E_RUN" redis "$(command -v redis-server)" --port "$BASE" --bind 127.0.0.1 \
    --dir "$E2E_RUN/redis" --save "" --appendonly yes --aclfile "$E2E_RUN/keys/users.acl" --daemonize no
export DECKHAND_REDIS_PORT=$BASE REDISCLI_AUTH=$ops DECKHAND_REDIS_CLUSTER=0
export DECKHAND_REDIS_URL=redis://:$ops@127.0.0.1:$BASE
DH_REDIS_OPS_PASSWORD=$ops _dh_wait_for "$E2E_RUN" redis "e2e_redis ping >/dev/null 2>&1" ||
    e2e_fail "redis did not start"

# Run NAME (role ROLE) from the image: COMMAND ARGS..., in a container of its own.
run_in_image() {
    local name=$1 role=$2 c
    shift 2
    c=$(buildah from --name "deckhand-test-$$-$name" "$IMAGE") || e2e_fail "buildah from $IMAGE failed"
    CONTAINERS+=("$c")
    setsid buildah run --isolation chroot -v "$E2E_RUN/keys:/etc/deckhand/curve:ro" \
        --env DECKHAND_REDIS_USER="$role" \
        --env DECKHAND_REDIS_PASSWORD_FILE="/etc/deckhand/curve/redis-$role.password" \
        --env DECKHAND_TOKEN_KEY="${TOKEN_KEY:-}" \
        "$c" -- "$@" --curve-dir /etc/deckhand/curve </dev/null >"$E2E_RUN/logs/$name.log" 2>&1 &
    PGIDS+=($!)
}

redis=redis://127.0.0.1:$BASE
mm=tcp://127.0.0.1:$((BASE + 1))
run_in_image matchmaker matchmaker deckhand-matchmaker --redis "$redis" --bind "$mm" --id mm-1 \
    --http "127.0.0.1:$((BASE + 20))"
for i in 1 2; do
    run_in_image "worker-$i" worker deckhand-worker --redis "$redis" --matchmaker "$mm" \
        --bind "tcp://127.0.0.1:$((BASE + 9 + i))" --id "wk-$i" --http "127.0.0.1:$((BASE + 29 + i))"
done
TOKEN_KEY=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n') run_in_image gateway gateway \
    deckhand-gateway --redis "$redis" --matchmaker "$mm" --tcp "127.0.0.1:$((BASE + 2))" \
    --ws "127.0.0.1:$((BASE + 3))" --id gw-1 --http "127.0.0.1:$((BASE + 21))"

deadline=$((SECONDS + 30))
until curl -fsS -m 1 "http://127.0.0.1:$((BASE + 21))/readyz" >/dev/null 2>&1 &&
    curl -fsS -m 1 "http://127.0.0.1:$((BASE + 30))/readyz" >/dev/null 2>&1 &&
    curl -fsS -m 1 "http://127.0.0.1:$((BASE + 31))/readyz" >/dev/null 2>&1 &&
    curl -fsS -m 1 "http://127.0.0.1:$((BASE + 20))/readyz" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || e2e_fail "the containers were not ready within 30 s"
    sleep 0.2
done
e2e_log "matchmaker, 2 workers and the gateway run from $IMAGE, each in its own container, all ready"
for f in matchmaker worker-1 worker-2 gateway; do
    grep -q 'CURVE on' "$E2E_RUN/logs/$f.log" || e2e_fail "$f does not run its links with CURVE"
done

out=$(timeout 120 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players $((MATCHES * 2)) \
    --size 2 --matches "$MATCHES" --gateway "127.0.0.1:$((BASE + 2))" 2>"$E2E_RUN/bots.err" </dev/null) ||
    e2e_fail "the bots failed: $(tail -n 5 "$E2E_RUN/bots.err")"
[[ $(tail -n 1 <<<"$out") == "matches_completed=$MATCHES errors=0" ]] ||
    e2e_fail "the bots ended with '$(tail -n 1 <<<"$out")'"
e2e_check_finished_once "$MATCHES"
e2e_log "$MATCHES matches played through the image's processes, each finished once and replayed"
