#!/usr/bin/env bash
# test_admin.sh: the admin API on a running cluster, through `deckhand admin` (issue 15).
# A wrong or missing token is refused (401) and changes nothing; the matches are listed,
# filtered and shown; ending a match tells its players GameOver with the operator's
# reason and records it; removing a player hands its seat to a bot (the default abandon
# policy) and the match still finishes; draining a worker stops it and its matches move
# to the other one; the audit trail holds each action with who did it and why.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

DECKHAND_ADMIN_TOKEN="e2e-ops:$(od -An -tx1 -N24 /dev/urandom | tr -d ' \n')"
export DECKHAND_ADMIN_TOKEN
MATCHES=8
e2e_start_busy "$MATCHES" 22200 2

adm() { "$DECKHAND_BIN_DIR/deckhand" admin --url "$DECKHAND_HTTP_MATCHMAKER" "$@"; }
audit_len() { e2e_redis xlen 'audit:{admin}'; }
status_of() { e2e_redis hget "match:{$1}" status; }

# Wait up to 20 s for a condition (a command) to hold.
wait_for() {
    local what=$1 deadline=$((SECONDS + 20))
    shift
    until "$@"; do
        ((SECONDS < deadline)) || e2e_fail "$what: not within 20 s"
        sleep 0.2
    done
}

victim=$(e2e_matches_on wk-1 | head -n 1)
[[ -n $victim ]] || e2e_fail "no match runs on wk-1"

# ---- refused: no token, a wrong token ------------------------------------------------
before=$(audit_len)
exec 3<>"/dev/tcp/${DECKHAND_HTTP_MATCHMAKER%:*}/${DECKHAND_HTTP_MATCHMAKER##*:}"
printf 'POST /admin/matches/%s/end?reason=x HTTP/1.1\r\n\r\n' "$victim" >&3
answer=$(head -n 1 <&3)
exec 3<&-
[[ $answer == "HTTP/1.1 401 "* ]] || e2e_fail "no token: '$answer', want 401"
out=$(DECKHAND_ADMIN_TOKEN=not-the-token-0123456789 adm end "$victim" --reason x 2>&1) &&
    e2e_fail "a wrong token was accepted: $out"
[[ $out == *"HTTP 401"* ]] || e2e_fail "wrong token: '$out', want HTTP 401"
[[ $(status_of "$victim") == running ]] || e2e_fail "a refused end changed $victim"
[[ $(audit_len) == "$before" ]] || e2e_fail "a refused request reached the audit trail"
e2e_log "no token and a wrong token: 401, nothing changed"

# ---- list, filters, show ---------------------------------------------------------------
out=$(adm matches) || e2e_fail "matches"
grep -q "^$victim " <<<"$out" || e2e_fail "$victim is not listed: $out"
out=$(adm --json matches --worker wk-2) || e2e_fail "matches --worker"
[[ $out != *"\"match_id\":\"$victim\""* && $out == *'"worker":"wk-2"'* ]] ||
    e2e_fail "the worker filter: $out"
[[ $(adm --json matches --game nosuchgame) == *'"count":0'* ]] || e2e_fail "the game filter"
[[ $(adm --json matches --min-age 3600) == *'"count":0'* ]] || e2e_fail "the age filter"
# pages of one row, walked to the end: every running match once
cursor='' seen=()
for ((i = 0; i < 40; i++)); do
    page=$(adm --json matches --limit 1 ${cursor:+--cursor "$cursor"}) || e2e_fail "a page"
    [[ $page =~ \"count\":([0-9]+) ]] || e2e_fail "no count: $page"
    ((BASH_REMATCH[1] <= 1)) || e2e_fail "limit 1: $page"
    [[ $page =~ \"match_id\":\"([^\"]+)\" ]] && seen+=("${BASH_REMATCH[1]}")
    [[ $page =~ \"next\":\"([^\"]*)\" ]] || e2e_fail "no next cursor: $page"
    cursor=${BASH_REMATCH[1]}
    [[ -n $cursor ]] || break
done
[[ -z $cursor ]] || e2e_fail "the pages never ended"
[[ " ${seen[*]} " == *" $victim "* ]] || e2e_fail "the pages missed $victim: ${seen[*]}"
(($(printf '%s\n' "${seen[@]}" | sort | uniq -d | wc -l) == 0)) ||
    e2e_fail "a match was listed twice: ${seen[*]}"
shown=$(adm --json show "$victim") || e2e_fail "show $victim"
for want in '"worker":"wk-1"' '"status":"running"' '"game":"dominion"' '"connected":true' \
    '"seat":1' '"answers":' '"live":{"turn":' '"bot":false,"removed":false'; do
    [[ $shown == *"$want"* ]] || e2e_fail "show lacks $want: $shown"
done
shown=$(adm show "$victim") || e2e_fail "show $victim as a table"
[[ $shown == *"worker      wk-1"* && $shown =~ turn\ +[0-9]+ && $shown == *"the worker says"* ]] ||
    e2e_fail "the show table: $shown"
out=$(adm show no-such-match 2>&1) && e2e_fail "show of an unknown match succeeded"
[[ $out == *"HTTP 404"* ]] || e2e_fail "show of an unknown match: $out"
e2e_log "list, filters and show answer"

# ---- end a match -----------------------------------------------------------------------
adm end "$victim" --reason "stuck in e2e" >/dev/null || e2e_fail "end $victim"
wait_for "$victim finished" test "$(status_of "$victim")" = finished
reason=$(e2e_redis hget "match:{$victim}" end_reason)
[[ $reason == "admin: stuck in e2e" ]] || e2e_fail "end_reason '$reason'"
wait_for "its bots told" grep -q "match $victim over for a bot: admin: stuck in e2e" \
    "$E2E_RUN/bots.err"
out=$(adm end "$victim" --reason again 2>&1) && e2e_fail "a second end succeeded"
[[ $out == *"HTTP 409"* ]] || e2e_fail "a second end: $out"
e2e_log "$victim ended: its players got GameOver 'admin: stuck in e2e'"

# ---- remove a player -------------------------------------------------------------------
target=$(e2e_matches_on wk-1 | head -n 1)
[[ -n $target ]] || target=$(e2e_matches_on wk-2 | head -n 1)
[[ -n $target ]] || e2e_fail "no running match left to remove a player from"
player=$(e2e_redis hget "match:{$target}" player_ids | cut -d, -f1)
out=$(adm remove "$target" --player "$player" --reason abusive) || e2e_fail "remove: $out"
[[ $out == *"abandon=bot"* ]] || e2e_fail "remove did not name the abandon policy: $out"
wait_for "the removed bot told" grep -q "match $target over for a bot: admin: removed: abusive" \
    "$E2E_RUN/bots.err"
# no queue timer is set, and the grace period (60 s) is far: every default answer of
# the target's worker is the bot playing the removed seat
wk=$(e2e_redis hget "match:{$target}" worker)
metrics_var=DECKHAND_HTTP_WORKER_${wk#wk-}
bot_answers() {
    local addr=${!metrics_var} n
    exec 4<>"/dev/tcp/${addr%:*}/${addr##*:}"
    printf 'GET /metrics HTTP/1.1\r\n\r\n' >&4
    n=$(grep -E '^deckhand_worker_default_answers_total ' <&4 | awk '{print $2}')
    exec 4<&-
    ((${n:-0} > 0))
}
wait_for "a bot answering for $player in $target" bot_answers
shown=$(adm --json show "$target") || e2e_fail "show $target"
[[ $shown == *"\"player_id\":\"$player\",\"name\":\""*"\"connected\":false"* ]] ||
    e2e_fail "the removed seat is not away: $shown"
e2e_log "$player removed from $target: told, a bot plays the seat"

# ---- workers, gateways, drain ----------------------------------------------------------
out=$(adm workers) || e2e_fail "workers"
grep -Eq '^wk-2 +yes' <<<"$out" || e2e_fail "wk-2 is not listed alive: $out"
out=$(adm gateways) || e2e_fail "gateways"
grep -Eq '^gw-1 +yes +[1-9]' <<<"$out" || e2e_fail "gateway load: $out"
moving=$(e2e_matches_on wk-2)
out=$(adm drain wk-2 --reason "e2e drain") || e2e_fail "drain: $out"
read -r pid _ <"$E2E_RUN/pids/worker-2.pid"
wait_for "wk-2 stopped" bash -c "! kill -0 $pid 2>/dev/null"
rm -f "$E2E_RUN/pids/worker-2.pid" # it stopped on purpose
grep -q 'stopping with' "$E2E_RUN/logs/worker-2.log" || e2e_fail "wk-2 did not stop cleanly"
for id in $moving; do
    wait_for "$id moved off wk-2" bash -c \
        "[[ \$(redis-cli -p $DECKHAND_REDIS_PORT hget matches:running $id) != wk-2 ]]"
done
e2e_log "wk-2 drained: $(wc -w <<<"$moving") matches moved"
out=$(adm workers) || e2e_fail "workers"
if grep -Eq '^wk-2 ' <<<"$out"; then e2e_fail "wk-2 still listed after its drain: $out"; fi

# ---- the audit trail -------------------------------------------------------------------
trail=$(adm --json audit) || e2e_fail "audit"
for want in '"action":"end"' '"action":"remove"' '"action":"drain"' '"reason":"stuck in e2e"' \
    '"reason":"abusive"' '"reason":"e2e drain"' '"who":"e2e-ops"' "\"target\":\"$target/$player\""; do
    [[ $trail == *"$want"* ]] || e2e_fail "the audit trail lacks $want: $trail"
done
[[ $(audit_len) == $((before + 4)) ]] || e2e_fail "audit entries: $(audit_len), want $((before + 4))"
[[ $(adm audit) == *e2e-ops* ]] || e2e_fail "audit table"
e2e_log "the audit trail holds every action"

e2e_bots_wait "$MATCHES"
