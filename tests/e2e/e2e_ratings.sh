# shellcheck shell=bash
#
# e2e_ratings.sh: what the e2e tests of accounts share (sourced after e2e_lib.sh): the
# check that every finished match between accounts moved its players' ratings exactly
# once, read from Redis as the workers wrote it (dh_keys.h: rating:{GAME}:{MODE},
# history:{ACCOUNT}, match:{ID}.rated, matches:unrated).

# e2e_rating_count ID: the rated matches in its dominion/casual rating (0 when none).
e2e_rating_count() { e2e_redis hget 'rating:{dominion}:casual' "$1" | awk '{print $3 + 0}'; }
e2e_history_count() { e2e_redis llen "history:{$1}"; }

# e2e_finished_with ID: finished matches whose seats include ID (fails the test when one
# of them finished between accounts, not quarantined, and is not rated: call it once the
# jobs are swept).
e2e_finished_with() {
    local n=0 id
    for id in $(e2e_redis lrange matches:finished 0 -1); do
        [[ ,$(e2e_redis hget "match:{$id}" player_ids), == *",$1,"* ]] || continue
        [[ $(e2e_redis hget "match:{$id}" rated) == 1 ]] || return 1
        n=$((n + 1))
    done
    echo "$n"
}

# True when no job waits and, for every account of accounts:names, its rating count, its
# history length and the finished matches it sat in agree (and are at least 1).
e2e_ratings_consistent() {
    local id k
    (($(e2e_redis hlen matches:unrated) == 0)) || return 1
    for id in $(e2e_redis hkeys accounts:names); do
        k=$(e2e_finished_with "$id") || return 1
        if ((k < 1 || $(e2e_rating_count "$id") != k || $(e2e_history_count "$id") != k)); then
            return 1
        fi
    done
}

# Wait up to 20 s for e2e_ratings_consistent; fail with every account's counts.
e2e_wait_ratings_consistent() {
    local deadline=$((SECONDS + 20)) id report
    until e2e_ratings_consistent; do
        if ((SECONDS >= deadline)); then
            report="unrated=$(e2e_redis hlen matches:unrated)"
            for id in $(e2e_redis hkeys accounts:names); do
                report+=" $id:rating=$(e2e_rating_count "$id"),history=$(e2e_history_count \
                    "$id"),finished=$(e2e_finished_with "$id" || echo unrated)"
            done
            e2e_fail "ratings never matched the finished matches: $report"
        fi
        sleep 0.5
    done
    e2e_log "each finished match moved its players' ratings exactly once"
}
