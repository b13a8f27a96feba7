#!/usr/bin/env bash
# test_stop_after_crash.sh: ./scripts/stop after a crash. A cluster is started the way
# ./scripts/run --detach starts one (dh_cluster_start_near into a .run/ directory), worker
# wk-2 is killed with SIGKILL and its pid file left behind, as a crash leaves it; then
# scripts/stop (the real script, run from a root whose .run/ is this cluster's) must end
# with status 0, name worker-2 as already dead, and stop every other process. It used to
# stop nothing and exit 1 without a word (set -e and the dead pid's status).
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

root=$(mktemp -d "/tmp/deckhand-e2e-stop.XXXXXX")
run=$root/.run
mkdir -p "$root/scripts"
ln -s "$E2E_SRC/scripts/stop" "$root/scripts/stop"
ln -s "$E2E_SRC/scripts/lib" "$root/scripts/lib"
trap 'rc=$?; dh_cluster_stop "$run"; if ((rc == 0)); then rm -rf "$root"; else dh_cluster_tail_logs "$run"; e2e_log "FAILED; logs kept in $run/logs"; fi; exit "$rc"' EXIT
trap 'exit 130' INT TERM

e2e_log "starting a cluster in $run (ports from 20800)"
dh_cluster_start_near "$run" 20800 2 || e2e_fail "the cluster did not start"
dh_cluster_watch "$run" $$

# What is running, before the crash: "NAME PID PROGRAM" lines.
before=$(_dh_live "$run")
(($(wc -l <<<"$before") >= 5)) || e2e_fail "expected redis, matchmaker, 2 workers, gateway: $before"
read -r victim _ <"$run/pids/worker-2.pid"
e2e_log "kill -9 worker-2 (pid $victim), leaving its pid file"
kill -KILL "$victim"
while kill -0 "$victim" 2>/dev/null; do sleep 0.05; done

out=$("$root/scripts/stop" 2>&1)
rc=$?
printf '%s\n' "$out" >&2
((rc == 0)) || e2e_fail "scripts/stop exited $rc"
grep -q "worker-2 (pid $victim) had already exited" <<<"$out" ||
    e2e_fail "scripts/stop did not name the dead worker-2"
grep -q "cluster stopped" <<<"$out" || e2e_fail "scripts/stop did not say it stopped the cluster"
while read -r name pid prog; do
    [[ $name == worker-2 ]] && continue
    ! _dh_pid_is "$pid" "$prog" || e2e_fail "$name (pid $pid) still runs after scripts/stop"
done <<<"$before"
[[ -z $(ls "$run/pids") ]] || e2e_fail "pid files left in $run/pids: $(ls "$run/pids")"

# And a second stop, with nothing left, says so and succeeds.
out=$("$root/scripts/stop" 2>&1) || e2e_fail "a second scripts/stop failed: $out"
grep -q "no cluster is running" <<<"$out" || e2e_fail "a second scripts/stop said: $out"
dh_cluster_check_logs "$run" || e2e_fail "sanitizer reports in the logs"
e2e_log "PASS"
