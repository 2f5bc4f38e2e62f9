#!/bin/bash
# tools/bench-kernels.sh: the corpus kernels' rows (ptx/kernels/expected.csv)
# of N threads or more, each run as tests/sh/kernels.sh runs it, with thread
# symmetry on (the default) and off, side by side: CPU seconds (user +
# system: steadier than wall time on a shared machine) under a CPU limit,
# the verdict each got, and whether the two outputs are the same bytes
# (Time lines aside) where both finished.
#   tools/bench-kernels.sh [-min-threads N] [-cpu S] [-only REGEX] [-on-only] [-fast]
# Defaults: 4 threads, 15 s of CPU, every row, both ways (-on-only: with
# symmetry on alone, as kernels.sh runs the rows: half the time; -fast:
# every row with -speedcheck fast, which stops at the first violation).  One line a row:
#   ROW MODEL PROPERTY EXPECTED | on: VERDICT SECONDS | off: VERDICT SECONDS | same
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sc=${SCOPECAT:-$top/tools/scopecat}
min=4 cpu=15 only=. both=1 fast=
while [ $# -gt 0 ]; do
  case $1 in
    -min-threads) min=$2; shift 2 ;;
    -cpu) cpu=$2; shift 2 ;;
    -only) only=$2; shift 2 ;;
    -on-only) both=0; shift ;;
    -fast) fast="-speedcheck fast"; shift ;;
    *) echo "usage: $0 [-min-threads N] [-cpu S] [-only REGEX] [-on-only] [-fast]" >&2; exit 2 ;;
  esac
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dir=$top/ptx/kernels

# one run of property $2: its output in $1, "VERDICT SECONDS" on stdout
# ("cut" past the CPU limit, "error" on any other failure)
run() {
  local out=$1 property=$2; shift 2
  ( ulimit -t "$cpu"; /usr/bin/time -f '%U %S' -o "$out.time" "$sc" "$@" >"$out" 2>&1 )
  local status=$?
  local secs
  secs=$(awk '{ printf "%.1f\n", $1 + $2 }' "$out.time" 2>/dev/null | tail -n 1)
  [ -n "$secs" ] || secs="> $cpu"
  local v
  v=$(sed -n "s/^Property $property \\([A-Z]*\\).*/\\1/p" "$out" | head -n 1)
  if [ "$status" -ne 0 ] || [ -z "$v" ]; then
    if grep -q 'CPU time limit\|Killed' "$out.time" "$out" 2>/dev/null || [ "$status" -ge 128 ]; then
      v=cut
    else
      v=error
    fi
  fi
  echo "$v $secs"
}

tail -n +2 "$dir/expected.csv" | grep -E "^[^,]*,[^,]*($only)" |
  while IFS=, read -r _ ptx config model property want unroll; do
    n=$(echo "$config" | awk -F';' '{ print $1 * $2 * $3 }')
    [ "$n" -ge "$min" ] || continue
    case $property in
      assertion) live=-norace ;;
      liveness) live="-norace -liveness" ;;
      *) live= ;;
    esac
    live="$live $fast"
    # shellcheck disable=SC2086  # $live: several words
    on=$(run "$tmp/on" "$property" kernel -model "$top/cat/$model.cat" -unroll "$unroll" $live "$dir/$ptx")
    # shellcheck disable=SC2086
    off="not run"
    [ "$both" = 1 ] &&
      off=$(run "$tmp/off" "$property" kernel -model "$top/cat/$model.cat" -unroll "$unroll" $live -symmetry off "$dir/$ptx")
    same=-
    case "$on $off" in
      cut*|error*|*" cut "*|*" error "*|*"not run"*) ;;
      *) if diff -q <(grep -v '^Time' "$tmp/on") <(grep -v '^Time' "$tmp/off") >/dev/null; then
           same=same
         else
           same=DIFFERENT
         fi ;;
    esac
    printf '%-24s %-9s %-10s %-8s | on: %-14s | off: %-14s | %s\n' "${ptx%.ptx}" "$model" \
      "$property" "$want" "$on" "$off" "$same"
  done
