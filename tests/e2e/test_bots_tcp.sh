#!/usr/bin/env bash
# 20 four-player dominion matches played by bots over TCP: all complete without an error,
# and Redis records each one as finished with its result.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

e2e_start 21000
e2e_bots 20
e2e_check_finished 20
