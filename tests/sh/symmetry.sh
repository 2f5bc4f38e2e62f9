#!/bin/sh
# symmetry.sh: thread symmetry (lib/sim/symmetry.c) changes no figure.
# Each test runs with -symmetry on (the default) and off under every
# engine, and the two outputs must be the same bytes (the Time line and
# -json's candidates aside: the combinations searched are what symmetry
# saves).  The hand-made tests of tests/data/symmetry/ say in their
# comments which symmetries they have; the candidates show that the search
# used them (fewer) or found none (as many).  Facts known by hand: four
# unsynchronised increments of x end at x=4 exactly when the reads were
# 0, 1, 2, 3 in some order, 24 states; the condition holds in 144 of the
# 576 executions (what -symmetry off counts, one per execution as herd).
# Then kernels: caslock-acq2rx (two threads, whose races and stories must
# be the same), caslock-dv2wg-2.2.1 (four threads; its 24 states:
# tests/sh/kernel_speed.sh), and the option's error.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

d="$srcdir/tests/data/symmetry"

# same_output CMD...: CMD with and without -symmetry off prints the same
same_output() {
  "$scopecat" "$@" 2>&1 | grep -v '^Time' | sed -e 's/"candidates":[0-9]*//' -e 's/"time":[0-9.]*//' >"$tmp/on"
  "$scopecat" "$@" -symmetry off 2>&1 | grep -v '^Time' | sed -e 's/"candidates":[0-9]*//' -e 's/"time":[0-9.]*//' >"$tmp/off"
  if cmp -s "$tmp/on" "$tmp/off"; then ok; else fail "symmetry changed the output of $*"; diff "$tmp/on" "$tmp/off" | head -20; fi
}

# candidates ARGS...: the candidates -engine enum -json counts
candidates() {
  "$scopecat" -engine enum -json "$@" | sed -n 's/.*"candidates":\([0-9]*\).*/\1/p'
}

# fewer TEST / as_many TEST: symmetry searched fewer candidates, or as many
fewer() {
  on=$(candidates "$1") off=$(candidates "$1" -symmetry off)
  if [ -n "$on" ] && [ "$on" -lt "$off" ]; then ok; else fail "$1: $on candidates with symmetry, $off without"; fi
}
as_many() {
  on=$(candidates "$1") off=$(candidates "$1" -symmetry off)
  if [ -n "$on" ] && [ "$on" -eq "$off" ]; then ok; else fail "$1: $on candidates with symmetry, $off without"; fi
}

for t in "$d"/*.litmus "$srcdir/ptx/seeds/sb.litmus"; do
  for e in enum smt auto; do
    same_output -engine "$e" "$t"
    same_output -engine "$e" -json "$t"
  done
done
same_output -engine enum -liveness "$d/inc4.litmus"
same_output -engine enum -model "$srcdir/cat/ptx-v7.5.cat" "$d/inc4.litmus"
same_output -engine enum -model "$srcdir/cat/ptx-v7.5.cat" "$d/sb-global.litmus"

fewer "$d/inc4.litmus"        # order 8: two CTAs of two
fewer "$d/inc4-pair.litmus"   # order 4: P0<->P1, P2<->P3
fewer "$d/sb-global.litmus"   # order 2: P0<->P1 with x<->y
as_many "$d/inc4-asym.litmus" # none: the condition and the scope tree
as_many "$srcdir/ptx/seeds/sb.litmus" # none: x is shared, y global

# the counts by hand
expect 0 "$scopecat" -engine enum "$d/inc4.litmus"
has "$tmp/out" "Positive: 144 Negative: 432"
n=$(grep -c 'x=4;' "$tmp/out")
if [ "$n" -eq 24 ]; then ok; else fail "$n states with x=4, expected 24"; fi
lacks "$tmp/out" "x=0;"

# a kernel of two threads whose lock fails (caslock-acq2rx: the
# assertion and a data race, each told as a story of both threads), its
# two threads swapped with A[0] and A[1]; and its liveness
acq="$srcdir/ptx/kernels/caslock-acq2rx.ptx"
v75="$srcdir/cat/ptx-v7.5.cat"
same_output kernel -engine enum -model "$v75" -unroll 0 "$acq"
has "$tmp/on" "Property data-race FAIL"
has "$tmp/on" "Property assertion FAIL"
same_output kernel -engine enum -model "$v75" -unroll 3 -norace -liveness "$acq"
on=$("$scopecat" kernel -engine enum -json -model "$v75" -unroll 0 "$acq" | sed -n 's/.*"candidates":\([0-9]*\).*/\1/p')
off=$("$scopecat" kernel -engine enum -json -model "$v75" -unroll 0 -symmetry off "$acq" | sed -n 's/.*"candidates":\([0-9]*\).*/\1/p')
if [ -n "$on" ] && [ "$on" -lt "$off" ]; then ok; else fail "caslock-acq2rx: $on candidates with symmetry, $off without"; fi

# a kernel of four threads (the solver's road: minutes enumerated)
if "$scopecat" -engine smt "$srcdir/ptx/seeds/coRR.litmus" 2>&1 | grep -q 'built without Z3'; then
  echo "no Z3 in this build: the kernel skipped"
else
  same_output kernel -model "$srcdir/cat/ptx-v7.5.cat" -unroll 3 -norace \
    "$srcdir/ptx/kernels/caslock-dv2wg-2.2.1.ptx"
  has "$tmp/on" "States 24"
fi

expect 2 "$scopecat" -symmetry maybe "$d/inc4.litmus"
has "$tmp/err" "-symmetry expects on or off, found 'maybe'"

finish
