#!/usr/bin/env bash
# test_netns_gateway_isolated.sh: one of two gateways' hosts cut off from every worker for
# 10 s while it still reaches its players, the matchmaker and Redis (tests/e2e/netns_lib.sh).
# What it pins: the gateway finds its links to the workers dead (no output, no reply, not
# even ZeroMQ's heartbeat answered) and tells each player whose match routes there to
# Reconnect elsewhere (deckhand.proto), then closes those connections; the bots, which know
# both gateways, resume through the other one while the cut lasts, so no player waits for
# the heal. Then, after the heal, as every partition test: every match finishes once and
# replays, and every decision is in its match's history exactly once (a command gw-1 sent
# into the cut is never applied twice). Prints when the players were told to go and the
# longest wait any player saw (tests/e2e/netns_gateway.sh).
# shellcheck source=SCRIPTDIR/netns_gateway.sh
source "$(dirname "${BASH_SOURCE[0]}")/netns_gateway.sh"

netns_gateway_cut_run 44 12 10 wk-1 wk-2 wk-3
