#!/usr/bin/env bash
# test_netns_gateway_alone.sh: one of two gateways' hosts cut off from everything but its
# players for 10 s: the three workers, the matchmaker and Redis (tests/e2e/netns_lib.sh).
# What it pins: a gateway that hears nobody does not keep its match players for as long
# as the cut lasts; with no MatchMoved and no Redis to go by, its own verdict on its worker
# links (gateway/wlink.h) sends them to the other gateway, where they play on; then the
# checks of every partition test (tests/e2e/netns_gateway.sh).
# shellcheck source=SCRIPTDIR/netns_gateway.sh
source "$(dirname "${BASH_SOURCE[0]}")/netns_gateway.sh"

netns_gateway_cut_run 47 12 10 wk-1 wk-2 wk-3 mm-1 redis
