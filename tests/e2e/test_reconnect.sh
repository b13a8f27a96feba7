#!/usr/bin/env bash
# test_reconnect.sh: players drop their connection in the middle of a match and come back.
# Four bots play 8 four-player matches; half of them each close their connection once,
# right after sending an answer, reconnect to the gateway, resume their session with the
# token and resync. Every match must finish with no error (an answer lost with the
# connection is answered again, never twice; nothing accepted disappears), and the bots
# must have reconnected. How many of them the workers saw away and back is logged, not
# checked: a resume that overtakes the old connection's close replaces it silently (and
# test_gateway_route pins the away report itself).
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

e2e_start 26000 2
e2e_bots 8 --drop 0.5 --seed 3 --timeout 40
summary=$(grep -E '^bots: retried=' "$E2E_RUN/bots.err" | tail -n 1)
e2e_log "$summary"
[[ $summary =~ lost=0 ]] || e2e_fail "a bot saw an accepted command disappear: $summary"
e2e_summary_at_least "$summary" reconnects 1 "no bot reconnected"
drops=$(grep -c 'dropping its connection' "$E2E_RUN/bots.err" || true)
((drops == 2)) || e2e_fail "$drops bots dropped their connection, want 2 (half of 4)"
e2e_check_finished 8

# The gateway told the workers who left, and the workers took them back.
away=$(cat "$E2E_RUN"/logs/worker-*.log | grep -c ' is away' || true)
back=$(cat "$E2E_RUN"/logs/worker-*.log | grep -c ' is back' || true)
e2e_log "workers logged $away players away and $back back"
