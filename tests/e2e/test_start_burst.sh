#!/usr/bin/env bash
# test_start_burst.sh: issue 26's start burst. MATCHES two-player matches (default 300)
# start at once: every bot logs in first, then all 2 x MATCHES queue together (`deckhand
# bots --burst --once`), so that the gateways attach every player of every placed match
# (a Resync to its worker) in one burst. The workers' inbox is shrunk to INBOX commands
# (default 100, DECKHAND_WORKER_INBOX_MAX) so that this burst overflows it as 2,000 matches
# overflow the default 1,000 (bench/start_burst.sh runs that size on Release binaries):
# an attach the full inbox refused with OVERLOADED was lost, and its player got MatchFound,
# then nothing. The test fails unless every player of every match got its first View or
# decision within ATTACH_S seconds of its MatchFound and every match was played to its end.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

MATCHES=${BURST_MATCHES:-300}
export DECKHAND_WORKER_INBOX_MAX=${BURST_INBOX:-100}
ATTACH_S=8 # below the 10 s after which the worker marks an unattached player away

e2e_start 27800 2
log=$E2E_RUN/answers.log
e2e_log "$((MATCHES * 2)) bots log in, then all queue at once (worker inbox $DECKHAND_WORKER_INBOX_MAX)"
rc=0
timeout 300 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players $((MATCHES * 2)) \
    --size 2 --matches "$MATCHES" --once --burst --bot local --timeout 20 --answer-log "$log" \
    --gateway "$DECKHAND_GATEWAY_TCP" >"$E2E_RUN/bots.out" 2>"$E2E_RUN/bots.err" </dev/null ||
    rc=$?
last=$(grep -v '^[[:space:]]*$' "$E2E_RUN/bots.out" | tail -n 1)
e2e_log "bots: $last (exit $rc); $(grep -E '^bots: retried=' "$E2E_RUN/bots.err" | tail -n 1)"

# Per player: its MatchFound and its first View or decision (attached), from the log.
report=$(awk -v limit=$((ATTACH_S * 1000)) '
    $2 == "found" { found[$3 " " $4] = $1; matches[$3] = 1 }
    $2 == "attached" { at[$3 " " $4] = $1 }
    END {
        for (k in found) if (!(k in at) || at[k] - found[k] > limit) { split(k, p, " "); bad[p[1]] = 1 }
        nb = 0; for (m in bad) nb++; nm = 0; for (m in matches) nm++
        printf "%d %d\n", nm, nb
    }' "$log")
read -r started unattached <<<"$report"
e2e_log "$started matches started; $unattached with a player not attached within $ATTACH_S s"
((started == MATCHES)) || e2e_fail "$started of $MATCHES matches started (MatchFound)"
((unattached == 0)) ||
    e2e_fail "$unattached of $MATCHES matches: MatchFound, then nothing for a player for $ATTACH_S s"
if ((rc != 0)) || [[ $last != "matches_completed=$MATCHES errors=0" ]]; then
    e2e_fail "not every match was played to its end: '$last' (exit $rc)"
fi
e2e_check_finished "$MATCHES"
