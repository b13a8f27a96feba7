# shellcheck shell=bash
#
# setup.sh: the one place that makes a machine able to build and run deckhand.
#
# Sourced by scripts/run and scripts/test. It installs the Debian packages the build and
# the local cluster need (only those missing, so a second run costs a dpkg query), then
# configures and builds one build directory. Both steps are quiet when they succeed and
# print their whole output when they fail, so CI logs stay short but failures are whole.

DH_PACKAGES=(build-essential cmake pkg-config libzmq3-dev libprotobuf-c-dev
             protobuf-c-compiler libhiredis-dev liblua5.4-dev lua5.4 libcunit1-dev
             redis-server libuv1-dev libwslay-dev libssl-dev lua-check python3-yaml
             shellcheck clang-format zlib1g-dev libzstd-dev libsodium-dev clang libclang-rt-14-dev)

# The web client's tools, by command rather than by package: Node.js and npm build it
# (client/web), and with DH_BROWSER=1 (./scripts/test) Chromium drives it. A node whose
# npm came with it (NodeSource's nodejs) is kept: Debian's npm would conflict with it.
dh_web_packages() {
    command -v node >/dev/null && command -v npm >/dev/null || printf '%s\n' nodejs npm
    if [[ ${DH_BROWSER:-} == 1 ]] && ! command -v chromium >/dev/null; then
        printf '%s\n' chromium
    fi
}

# Print "deckhand: ..." on stderr.
dh_say() { printf 'deckhand: %s\n' "$*" >&2; }

# Run a command with its output in LOG; on failure print the log and return its status.
dh_quiet() {
    local log=$1
    shift
    "$@" >"$log" 2>&1 && return 0
    local rc=$?
    dh_say "failed ($rc): $*"
    cat "$log" >&2
    return "$rc"
}

# The packages of DH_PACKAGES that are not installed, one per line.
dh_missing_packages() {
    local p status
    for p in "${DH_PACKAGES[@]}"; do
        status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
        [[ $status == "install ok installed" ]] || printf '%s\n' "$p"
    done
    dh_web_packages
}

# Install whatever is missing. apt-get runs as root, through sudo when we are not root.
dh_setup_packages() {
    local missing
    mapfile -t missing < <(dh_missing_packages)
    ((${#missing[@]} == 0)) && return 0
    local sudo=()
    if ((EUID != 0)); then
        command -v sudo >/dev/null || { dh_say "need root to install: ${missing[*]}"; return 1; }
        sudo=(sudo -n)
    fi
    local log
    log=$(mktemp /tmp/deckhand-apt.XXXXXX)
    dh_say "installing ${missing[*]}"
    # Two tries: a mirror that hiccups once should not fail a CI run.
    local try
    for try in 1 2; do
        dh_quiet "$log" "${sudo[@]}" apt-get update -q &&
            dh_quiet "$log" "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
                apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null &&
            break
        ((try == 2)) && return 1
        dh_say "retrying the installation"
        sleep 5
    done
    rm -f "$log"
}

# Configure (when needed) and build BUILD_DIR from DH_ROOT with -j jobs = cores.
# Extra arguments go to cmake's configure step, e.g. -DCMAKE_BUILD_TYPE=RelWithDebInfo.
# The configure step runs only for a new build directory or other arguments than last
# time (kept in BUILD_DIR/.deckhand-configure); the build itself configures again when a
# CMakeLists.txt changed. A second configure of the same directory with the same
# arguments is not free: CMake's pkg-config module then hands libzmq's -isystem flag over
# as a compile option instead of an include directory, which changes every target's flags
# and rebuilds everything (./scripts/fuzz configured build-fuzz/ once per fuzz test).
dh_build() {
    local dir=$1
    shift
    local jobs want stamp
    jobs=$(nproc 2>/dev/null || echo 2)
    mkdir -p "$dir"
    dh_say "building $(basename "$dir")/ (log: $dir/build.log)"
    want=$(printf '%q ' "$DH_ROOT" "$@")
    stamp=$dir/.deckhand-configure
    if [[ ! -f $dir/CMakeCache.txt || ! -f $stamp || $(<"$stamp") != "$want" ]]; then
        rm -f "$stamp"
        dh_quiet "$dir/configure.log" cmake -S "$DH_ROOT" -B "$dir" "$@" || return 1
        printf '%s' "$want" >"$stamp"
    fi
    dh_quiet "$dir/build.log" cmake --build "$dir" -j "$jobs" || return 1
}

# Both steps; the build directory and cmake arguments as for dh_build.
dh_setup() {
    dh_setup_packages || return 1
    dh_build "$@"
}
