#!/usr/bin/env bash
# test_partition.sh: a worker that is frozen (SIGSTOP: a long GC-like pause, a partition)
# rather than dead. The matchmaker declares it dead and moves its matches; when it wakes
# up it still holds them in memory, and whatever it tries to write to them fails the
# epoch fence, so it can never change a match it lost. Every match finishes once, with a
# result that replays to the recorded hash, and the frozen worker survives and is used
# again. The workers fence once per loop turn (--fence-per-turn): the takeover deletes
# wk-2's move token, so its trusted matches are fenced all the same.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

MATCHES=30
e2e_start_busy "$MATCHES" 29000 3
pid=$(cut -d" " -f1 "$E2E_RUN/pids/worker-2.pid")
kill -STOP "$pid"
# The victims are the matches still running on wk-2 at the freeze, read after it: one
# listed before the SIGSTOP could finish, or a new one start, in between. A write wk-2
# sent just before it stopped may still be on its way to Redis, hence the short settle.
sleep 0.3
victims=$(e2e_matches_on wk-2)
nvictims=$(wc -w <<<"$victims")
((nvictims > 0)) || e2e_fail "no match runs on wk-2"
e2e_log "SIGSTOP to worker wk-2 (hosting $nvictims matches) for 3 s"
sleep 2.7
kill -CONT "$pid"
e2e_log "SIGCONT to worker wk-2"

e2e_bots_wait "$MATCHES"
# The local cluster's workers fence once per loop turn (--fence-per-turn, cluster.sh): the
# move deleted wk-2's token, and what wk-2 wrote after waking up was fenced all the same.
[[ $(e2e_redis exists 'worker:{wk-1}:moves') == 1 ]] ||
    e2e_fail "the workers do not fence per loop turn (worker:{wk-1}:moves missing)"

mm_log=$E2E_RUN/logs/matchmaker.log
grep -q 'worker wk-2 silent' "$mm_log" || e2e_fail "the matchmaker never declared wk-2 dead"
# (awk rather than sed | grep -q, whose early exit would fail the pipe under pipefail)
awk '/worker wk-2 silent/ { dead = 1 } dead && /worker wk-2 (up|back)/ { seen = 1 }
    END { exit !seen }' "$mm_log" || e2e_fail "wk-2 was not seen again after it woke up"
dropped=$(grep -c 'owned by another worker now' "$E2E_RUN/logs/worker-2.log" || true)
((dropped == nvictims)) || e2e_fail "wk-2 dropped $dropped of its $nvictims lost matches"
# By the fence (the answers queued while it slept) or by its own check after the freeze,
# whichever comes first.
e2e_log "wk-2's own check after the freeze: $(grep -o '[0-9]* matches moved to other workers while we were frozen' \
    "$E2E_RUN/logs/worker-2.log" || echo 'none needed: the fence came first')"
e2e_log "wk-2 woke up, dropped its $dropped lost matches and was registered again"
kill -0 "$pid" 2>/dev/null || e2e_fail "wk-2 died after it woke up"
# shellcheck disable=SC2086 # the victims, one word each
e2e_check_moved_off wk-2 $victims
e2e_log "all $nvictims matches of wk-2 belong to other workers at epoch >= 2"

e2e_check_finished_once "$MATCHES"
e2e_log "every match finished once and replays; wk-2 kept out of the moved matches"
