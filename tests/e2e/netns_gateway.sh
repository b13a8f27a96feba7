# shellcheck shell=bash
#
# netns_gateway.sh: the run the gateway partition tests share (test_netns_gateway_*.sh):
# two gateways, three workers, bots over both gateways; gw-1 is cut off from the hosts
# the test names while it still reaches its players, and must send its players to gw-2
# (gateway/strand.h) while the cut lasts. Sources netns_lib.sh.
# shellcheck source=SCRIPTDIR/netns_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/netns_lib.sh"

NETNS_GW_TOLD='worker link lost'

# netns_gateway_cut_run OCTET MATCHES CUT_S HOST...: the cluster on 10.231.OCTET.0/24, bots
# for MATCHES matches, gw-1 cut off from every HOST for CUT_S s, then healed. Fails unless
# gw-1 told its players to reconnect elsewhere and at least one resumed through gw-2
# before the heal; then runs every partition test's checks (netns_check_all), checks the
# bots followed the Reconnects, and that no player waited as long as the cut. Prints when
# the players were told, how many moved, and the longest wait.
netns_gateway_cut_run() {
    local octet=$1 matches=$2 cut_s=$3 h gw1 gw2 cut_at told_ms='' resumed summary max
    shift 3
    netns_up "$octet"
    netns_cluster 3 2
    netns_bots_busy "$matches"
    gw1=$(netns_ip gw-1):7000
    gw2=$(netns_ip gw-2):7000
    e2e_log "cutting gw-1 off from $* for $cut_s s"
    cut_at=$(date +%s%3N)
    for h in "$@"; do netns_cut gw-1 "$h"; done
    while (($(date +%s%3N) - cut_at < cut_s * 1000)); do
        if [[ -z $told_ms ]] && grep -q "$NETNS_GW_TOLD" "$E2E_RUN/logs/gateway.log"; then
            told_ms=$(($(date +%s%3N) - cut_at))
        fi
        sleep 0.1
    done
    resumed=$(grep -cF "resumed on $gw2 (was $gw1)" "$E2E_RUN/bots.err" || true)
    for h in "$@"; do netns_heal gw-1 "$h"; done
    e2e_log "gw-1 reaches $* again"
    [[ -n $told_ms ]] || e2e_fail "gw-1 never told its players to reconnect elsewhere during the $cut_s s cut"
    ((resumed > 0)) || e2e_fail "no player of gw-1 resumed through gw-2 during the cut"
    e2e_log "gw-1 told its players to reconnect elsewhere about $told_ms ms after the cut:" \
        "$(grep -m 1 "$NETNS_GW_TOLD" "$E2E_RUN/logs/gateway.log")"
    e2e_log "$resumed players of gw-1 resumed through gw-2 during the cut"
    netns_check_all "$matches"
    summary=$(grep -E '^bots: retried=' "$E2E_RUN/bots.err" | tail -n 1)
    e2e_log "$summary"
    e2e_summary_at_least "$summary" told_reconnect 1 "no bot was told to reconnect"
    e2e_summary_at_least "$summary" moved_gateway 1 "no bot resumed on another gateway"
    read -r max _ <<<"$(netns_waits)"
    ((max < cut_s * 1000)) ||
        e2e_fail "a player waited $max ms for an answer's outcome: as long as the $cut_s s cut (it waited for the heal)"
    e2e_log "players waited at most $max ms (the cut lasted $((cut_s * 1000)) ms)"
    e2e_log "workers refused $(cat "$E2E_RUN"/logs/worker-*.log | grep -c ' overtaken by command' || true)" \
        "commands of gw-1's old connections, overtaken by the new ones"
}
