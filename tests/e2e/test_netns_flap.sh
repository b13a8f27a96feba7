#!/usr/bin/env bash
# test_netns_flap.sh: a worker's link flapping: its host's cable out and back in every
# 300 ms for 6 s (tests/e2e/netns_lib.sh), while bots play. No single outage lasts the
# matchmaker's 1.5 s silence limit, but TCP's retransmission backoff stretches what the
# worker sends (beats, replies, Redis commands) across many of them: the worker may be
# declared dead and its matches moved, Redis calls time out and are refused, answers
# wait. Whatever the mix, every match finishes once and replays, and every decision the
# bots answered is in its match's history exactly once.
# shellcheck source=SCRIPTDIR/netns_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/netns_lib.sh"

MATCHES=12
FLAP_S=6

netns_up 45
netns_cluster 3 2
netns_bots_busy "$MATCHES"
victims=$(e2e_matches_on wk-2)
e2e_log "flapping wk-2's link ($(wc -w <<<"$victims") matches) every 300 ms for $FLAP_S s"
end=$((SECONDS + FLAP_S))
flaps=0
while ((SECONDS < end)); do
    netns_isolate wk-2
    sleep 0.3
    netns_rejoin wk-2
    sleep 0.3
    flaps=$((flaps + 1))
done
e2e_log "wk-2's link stays up after $flaps flaps"
netns_check_all "$MATCHES"
mm_log=$E2E_RUN/logs/matchmaker.log
e2e_log "the matchmaker: $(grep -c 'worker wk-2 .*dead' "$mm_log" || true) death verdicts on wk-2," \
    "$(grep -c ' moved from wk-2 to ' "$mm_log" || true) matches moved off it;" \
    "wk-2: $(grep -c 'unreachable\|lost:' "$E2E_RUN/logs/worker-2.log" || true) Redis connection losses"
