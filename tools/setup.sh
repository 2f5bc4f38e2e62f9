#!/bin/bash
# tools/setup.sh: set up a fresh Debian 12 machine (as root) and build scopecat in place.
# Installs the Debian packages the build needs, then autoreconf, configure and make, each
# only when needed, so a second run is fast. Extra arguments go to ./configure, e.g.
#   ./tools/setup.sh --enable-sanitizers
# (when they differ from the ones config.status was made with, configure runs again).
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

# --- Debian packages ---------------------------------------------------------
# slurm-wlm and munge: tests/sh/slurm.sh runs tools/slurm/ on a Slurm of its own
packages=(build-essential autoconf automake libtool pkg-config libgc-dev libpcre2-dev check
          libgraphviz-dev libz3-dev slurm-wlm munge)
if command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then
    missing=()
    for p in "${packages[@]}"; do
        status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
        [[ $status == "install ok installed" ]] || missing+=("$p")
    done
    if ((${#missing[@]})); then
        if [[ $(id -u) -ne 0 ]]; then
            printf 'setup: missing Debian packages: %s\n' "${missing[*]}" >&2
            printf 'setup: install them as root, then run this script again:\n' >&2
            printf '  sudo apt-get update && sudo apt-get install -y --no-install-recommends %s\n' \
                "${missing[*]}" >&2
            exit 1
        fi
        say "installing ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq </dev/null || die "apt-get update failed"
        apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null \
            || die "apt-get install failed"
    fi
else
    say "no apt-get/dpkg-query here: not installing packages; make sure these are present:"
    say "  ${packages[*]}"
fi

# --- autoreconf ----------------------------------------------------------------
if [[ ! -x configure || configure.ac -nt configure ]]; then
    say "autoreconf -fi"
    log=$(mktemp)
    if ! autoreconf -fi >"$log" 2>&1; then
        cat "$log" >&2; rm -f "$log"; die "autoreconf failed"
    fi
    # show warnings, hide the list of files it copied
    grep -v -e '^libtoolize: ' -e ": installing '" "$log" >&2 || true
    rm -f "$log"
fi

# --- configure -----------------------------------------------------------------
same_args() {  # are "$@" the arguments config.status was made with?
    local prev=()
    eval "prev=($(./config.status --config))" 2>/dev/null || return 1
    [[ "${prev[*]}" == "$*" ]]
}
if [[ ! -x config.status ]]; then
    run_configure=yes
elif (($#)) && ! same_args "$@"; then
    say "configure arguments changed: reconfiguring and rebuilding from clean"
    make -s --no-print-directory clean >/dev/null 2>&1 || true
    run_configure=yes
else
    run_configure=no
fi
if [[ $run_configure == yes ]]; then
    say "./configure $*"
    ./configure -q "$@" || { tail -n 30 config.log >&2 || true; die "configure failed (see config.log)"; }
fi

# --- make ------------------------------------------------------------------------
jobs=$(nproc 2>/dev/null || echo 2)
say "make -j$jobs"
make -s --no-print-directory -j"$jobs" || die "make failed"
say "done: tools/scopecat is built"
