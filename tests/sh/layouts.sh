#!/bin/sh
# layouts.sh: -layouts (sc_sim_options.layout_search), where the solver
# chooses each thread's trace too (doc/engines.md, "The solver chooses the
# traces too").  Forced on, it tells what the search without it tells: on
# litmus tests under -speedcheck fast (the verdict, the flags, the
# Observation word) and on CADP tests under -liveness (fair, and the OBE
# progress model); and it answers some of them itself (the engine's
# reason says so under -v), so that the comparison tests it.  On
# ticketlock-dv2wg-2.2.2 (eight threads of 81 runs) it answers under
# -layouts auto where the walk of the combinations meets -max-executions
# (-layouts off: the limit's error, as before).  A six-thread ticket draw
# (tests/data/kernel-cli/tickets.cu) that passes gives the same bytes both
# ways, and fails in three CTAs.  Skipped without Z3.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"
needs_z3

# verdict FILE: the lines of a sim run that must agree (counts aside)
verdict() {
  grep -E '^(Ok|No)$|^Flag |^Observation |^Liveness ' "$1" | sed 's/ [0-9]* [0-9]*$//'
}

# agree FLAGS FILE...: each file under FLAGS with -layouts on and off
agree() {
  flags=$1; shift
  for f in "$@"; do
    # shellcheck disable=SC2086  # $flags: several words
    "$scopecat" sim -engine smt $flags -layouts on -v "$f" >"$tmp/on" 2>&1
    # shellcheck disable=SC2086
    "$scopecat" sim -engine smt $flags -layouts off "$f" >"$tmp/off" 2>&1
    if [ "$(verdict "$tmp/on")" = "$(verdict "$tmp/off")" ] && [ -n "$(verdict "$tmp/off")" ]; then
      ok
    else
      fail "$flags -layouts on and off differ on $f"
      diff "$tmp/on" "$tmp/off" | head -20
    fi
    grep -q 'the solver chose the traces too' "$tmp/on" && answered=$((answered + 1))
  done
}

d="$srcdir/ptx/dat3m"
answered=0
agree "-speedcheck fast" "$srcdir"/ptx/seeds/coRR.litmus "$srcdir"/ptx/seeds/mp-L1.litmus \
  "$srcdir"/ptx/seeds/dlb-mp.litmus "$srcdir"/ptx/seeds/cas-sl.litmus \
  "$d"/Nvidia/Atom-SB.litmus "$d"/Nvidia/SB-cta.litmus "$d"/Nvidia/Release-acquire-pattern.litmus \
  "$d"/Manual/Ticketlock-rel2rlx.litmus "$d"/Manual/Ticketlock-same-gpu.litmus
if [ "$answered" -ge 3 ]; then ok; else fail "-layouts on answered $answered of the litmus tests"; fi

answered=0
set -- "$d"/CADP/2_threads_3_instructions/*.litmus
cadp="$1 $2 $3 $4 $5 $6 $7 $8"
# shellcheck disable=SC2086  # $cadp: the files
agree "-liveness" $cadp
# shellcheck disable=SC2086
agree "-liveness -progress obe" $cadp
if [ "$answered" -ge 4 ]; then ok; else fail "-layouts on answered $answered liveness runs"; fi

# the kernel whose combinations are too many to walk
k="$srcdir/ptx/kernels/ticketlock-dv2wg-2.2.2.ptx"
expect 0 "$scopecat" kernel -norace -speedcheck fast -unroll 0 -max-executions 100000 "$k"
has "$tmp/out" "Property assertion FAIL: an allowed execution violates it (told below)"
expect 1 "$scopecat" kernel -layouts off -norace -speedcheck fast -unroll 0 \
  -max-executions 100000 "$k"
has "$tmp/err" "expected at most 100000 candidate executions (the -max-executions limit)"

# a kernel that passes: the layout search finds no violation and the
# search runs as without it, to the same bytes (720 states: six threads of
# one CTA draw six tickets); in three CTAs two draw the same ticket
t="$srcdir/tests/data/kernel-cli/tickets.ptx"
expect 0 "$scopecat" kernel -nohash -layouts on -speedcheck fast "$t"
grep -v '^Time' "$tmp/out" >"$tmp/on"
has "$tmp/on" "States 720"
has "$tmp/on" "Property assertion PASS"
expect 0 "$scopecat" kernel -nohash -layouts off -speedcheck fast "$t"
if grep -v '^Time' "$tmp/out" | cmp -s - "$tmp/on"; then ok; else fail "tickets: -layouts on and off differ"; fi
expect 0 "$scopecat" kernel -layouts on -config 2,1,3 -speedcheck fast "$t"
has "$tmp/out" "Property assertion FAIL: an allowed execution violates it (told below)"
has "$tmp/out" "Property data-race FAIL: T0 tickets.cu:12 atom next[0]="

# usage
expect 2 "$scopecat" sim -layouts sometimes "$srcdir/ptx/seeds/coRR.litmus"
has "$tmp/err" "-layouts expects auto, on or off, found 'sometimes'"

finish
