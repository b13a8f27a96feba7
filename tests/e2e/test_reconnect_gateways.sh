#!/usr/bin/env bash
# test_reconnect_gateways.sh: a player resumes through another gateway (issue 4: "reconnects
# with its session token through ANY gateway and gets a full view, then live events").
# Two gateways share the cluster's token key; four bots log in spread over both and play
# 8 four-player matches; half of them each close their connection once, right after
# sending an answer, and resume on the other gateway with the token, then resync. Every
# match must finish with no error (the resumed bot gets its View and then the live events
# through the new gateway, or its match would stall), no accepted command may disappear,
# resumes must have crossed gateways, and every finished match must replay to the final
# state hash its worker recorded.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

e2e_start 27000 2 2
[[ $DECKHAND_GATEWAYS_TCP == *,* ]] || e2e_fail "cluster.env lists one gateway: $DECKHAND_GATEWAYS_TCP"
e2e_bots 8 --drop 0.5 --seed 5 --timeout 40 --gateway "$DECKHAND_GATEWAYS_TCP"
summary=$(grep -E '^bots: retried=' "$E2E_RUN/bots.err" | tail -n 1)
e2e_log "$summary"
[[ $summary =~ lost=0 ]] || e2e_fail "a bot saw an accepted command disappear: $summary"
e2e_summary_at_least "$summary" reconnects 1 "no bot reconnected"
e2e_summary_at_least "$summary" moved_gateway 1 "no bot resumed on another gateway"
drops=$(grep -c 'dropping its connection' "$E2E_RUN/bots.err" || true)
((drops == 2)) || e2e_fail "$drops bots dropped their connection, want 2 (half of 4)"
grep -E ': resumed on ' "$E2E_RUN/bots.err" | head -n 4 >&2

# Both gateways served players: each logged logins.
for log in gateway gateway-2; do
    n=$(grep -c 'login player=' "$E2E_RUN/logs/$log.log" || true)
    ((n > 0)) || e2e_fail "$log logged no login"
    e2e_log "$log: $n logins, $(grep -c 'resumed$' "$E2E_RUN/logs/$log.log" || true) of them resumes"
done
e2e_check_finished 8

# Every finished match replays to its recorded final hash.
e2e_check_replays

away=$(cat "$E2E_RUN"/logs/worker-*.log | grep -c ' is away' || true)
back=$(cat "$E2E_RUN"/logs/worker-*.log | grep -c ' is back' || true)
overtaken=$(cat "$E2E_RUN"/logs/worker-*.log | grep -c ' overtaken by command' || true)
e2e_log "workers logged $away players away, $back back, $overtaken commands overtaken"
e2e_log "all matches finished across gateways and replay to their recorded final hash"
