#!/usr/bin/env bash
# test_flags.sh: every binary and `deckhand` subcommand refuses bad usage the same way
# (common/dh_flags.c): an unknown or misspelled flag, a flag without its value (also
# `--name --ws`, which once named the player "--ws" and switched to WebSocket) and a
# stray argument print what is wrong and the usage on stderr and exit 2 before doing
# anything (no daemon binds, no client connects); --help prints the usage on stdout and
# exits 0. Real processes, no cluster: a refused start must not need one.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

bin=$DECKHAND_BIN_DIR
out=$(mktemp -d /tmp/deckhand-e2e-flags.XXXXXX)
trap 'rm -rf "$out"' EXIT

# refused WHAT CMD...: CMD exits 2 within 10 s, with "usage:" and WHAT on stderr.
refused() {
    refused_value "$@"
    grep -q 'usage:' "$out/stderr" || e2e_fail "'${*:2}' printed no usage on stderr"
}

# refused_value WHAT CMD...: the same for a well-formed flag whose value is out of range,
# which names the range instead of printing the whole usage.
refused_value() {
    local what=$1 rc=0
    shift
    timeout 10 "$@" >"$out/stdout" 2>"$out/stderr" </dev/null || rc=$?
    ((rc == 2)) || e2e_fail "'$*' exited $rc, want 2 (stderr: $(head -c 300 "$out/stderr"))"
    grep -qF -- "$what" "$out/stderr" || e2e_fail "'$*' did not say '$what': $(head -n 1 "$out/stderr")"
    [[ ! -s $out/stdout ]] || e2e_fail "'$*' wrote to stdout: $(head -c 200 "$out/stdout")"
    e2e_log "refused (2): $* -> $(head -n 1 "$out/stderr")"
}

# helped CMD...: CMD --help exits 0 with the usage on stdout.
helped() {
    local rc=0
    timeout 10 "$@" --help >"$out/stdout" 2>"$out/stderr" </dev/null || rc=$?
    ((rc == 0)) || e2e_fail "'$* --help' exited $rc"
    grep -q 'usage:' "$out/stdout" || e2e_fail "'$* --help' printed no usage on stdout"
}

for daemon in deckhand-gateway deckhand-matchmaker deckhand-worker; do
    refused "unknown flag '--bogus'" "$bin/$daemon" --bogus
    refused "needs a value" "$bin/$daemon" --redis
    refused "needs a value" "$bin/$daemon" --id --redis
    refused "unexpected argument 'extra'" "$bin/$daemon" extra
    helped "$bin/$daemon"
done
refused "unknown flag '--capcity'" "$bin/deckhand-worker" --capcity 10
refused "needs an integer" "$bin/deckhand-worker" --capacity ten
refused "needs an integer" "$bin/deckhand-gateway" --max-frame 1k

# A worker value outside its own set (the snapshot codec): named, exit 1, before the
# worker reaches for Redis (port 1: nothing listens) or binds.
rc=0
timeout 10 "$bin/deckhand-worker" --snapshot-codec lz4 --redis redis://127.0.0.1:1 \
    >"$out/stdout" 2>"$out/stderr" </dev/null || rc=$?
((rc == 1)) || e2e_fail "deckhand-worker --snapshot-codec lz4 exited $rc, want 1"
grep -qF -- "bad --snapshot-codec lz4 (zstd or zlib)" "$out/stderr" ||
    e2e_fail "deckhand-worker --snapshot-codec lz4 said: $(head -n 1 "$out/stderr")"
e2e_log "refused (1): deckhand-worker --snapshot-codec lz4"

refused "flag '--name' needs a value" "$bin/deckhand" play --name --ws
refused "unknown flag '--nmae'" "$bin/deckhand" play --nmae ann
refused "switch given a value" "$bin/deckhand" bots --ws=1
refused "needs an integer" "$bin/deckhand" sim --games many
refused_value "wants an integer in 1.." "$bin/deckhand" sim --players 0
refused "missing argument" "$bin/deckhand" replay
refused "unexpected argument" "$bin/deckhand" replay m-1 m-2
refused "missing argument" "$bin/deckhand" scripts push
refused "unknown flag '--force'" "$bin/deckhand" scripts list --force
refused "needs a value" "$bin/deckhand" scripts show --match
# A name the scripts do not have: said before any game is played, with what there is, and
# nothing written (no results on stdout, no position log).
refused_value "no bot 'zzz' in dominion (bots: default" "$bin/deckhand" sim --game dominion \
    --bots default,zzz --positions "$out/positions" --scripts "$E2E_SRC/scripts"
[[ ! -e $out/positions ]] || e2e_fail "a refused sim created its position log"
refused_value "no game 'nosuch' in the scripts (games: accession" "$bin/deckhand" sim \
    --game nosuch --scripts "$E2E_SRC/scripts"
for sub in play bots sim replay; do
    helped "$bin/deckhand" "$sub"
done
helped "$bin/deckhand" scripts push

# A good command line still works: a two-game sim with both value spellings.
rc=0
"$bin/deckhand" sim --game=dominion --games 2 --seed=3 --scripts "$E2E_SRC/scripts" \
    >"$out/sim" 2>&1 || rc=$?
((rc == 0)) || e2e_fail "deckhand sim with good flags exited $rc: $(tail -n 3 "$out/sim")"
grep -q '^games=2 ' "$out/sim" || e2e_fail "deckhand sim did not play 2 games: $(tail -n 1 "$out/sim")"
e2e_log "PASS"
