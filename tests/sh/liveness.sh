#!/bin/sh
# liveness.sh: `sim -liveness` on loops whose iterations write (a thread
# that turns in an atom.exch loop for ever repeats a state: a recurrence,
# lib/sim/liveness.c).  Two hand-worked tests, tests/data/liveness/, each
# arguing its verdict in its own comment: exch-held (the lock is never
# given back: P1 turns for ever, Fail) and exch-released (a release store
# gives it back: no fair execution leaves P1 turning, Pass), under the
# bundled PTX models and sc.cat and both engines; the witness is drawn.
# stale-flag: a spin whose only source the model refutes as a co-maximal
# write, dropped before the search (lib/sim/live_refute.c).
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"
data="$srcdir/tests/data/liveness"

# verdict FILE MODEL ENGINE WANT STUCK: the JSON's verdict and stuck threads
verdict() {
  expect 0 "$scopecat" -liveness -json -model "$srcdir/cat/$2.cat" -engine "$3" "$data/$1.litmus"
  has "$tmp/out" "\"liveness\":\"$4\",\"stuck\":[$5]"
}

engines="enum"
"$scopecat" -engine smt -liveness "$data/exch-held.litmus" >/dev/null 2>&1 && engines="enum smt"
for e in $engines; do
  for m in ptx-v6.0 ptx-v7.5 sc; do
    verdict exch-held $m $e Fail '{"thread":"P1","how":"spin"}'
    verdict exch-released $m $e Pass ''
  done
  # the witness is drawn, P1 marked stuck
  rm -rf "$tmp/show"
  expect 0 "$scopecat" -liveness -engine "$e" -show all -o "$tmp/show" "$data/exch-held.litmus"
  has "$tmp/out" "Liveness exch-held Fail"
  has "$tmp/show/exch-held-1.dot" 'label="P1 (stuck: spins for ever)"'
done
# stale-flag (its comment argues each verdict): where the model refutes
# the spin's only source as a co-maximal write (sc.cat by sc-per-location,
# ptx-v7.5.cat by its coherence axioms), the combination is dropped before
# the engine (lib/sim/live_refute.c: no candidate searched, where the
# search without the cut took 8 and 12); a model that does not (only
# acyclic po | rf) keeps its Fail; -noprune, which turns the cut off,
# gives the same verdicts
for e in $engines; do
  for m in sc ptx-v7.5; do
    for np in "" -noprune; do
      expect 0 "$scopecat" -liveness -json -model "$srcdir/cat/$m.cat" -engine "$e" $np "$data/stale-flag.litmus"
      has "$tmp/out" '"liveness":"Pass","stuck":[]'
    done
    expect 0 "$scopecat" -liveness -json -model "$srcdir/cat/$m.cat" -engine "$e" "$data/stale-flag.litmus"
    has "$tmp/out" '"candidates":0,'
  done
  for np in "" -noprune; do
    expect 0 "$scopecat" -liveness -json -model "$data/no-coherence.cat" -engine "$e" $np "$data/stale-flag.litmus"
    has "$tmp/out" '"liveness":"Fail","stuck":[{"thread":"P1","how":"spin"}]'
  done
done
# with -unroll 0 no second turn runs: the loop is not checked, and says so
expect 0 "$scopecat" -liveness -unroll 0 "$data/exch-held.litmus"
has "$tmp/out" "Liveness exch-held Pass"
has "$tmp/out" "Unchecked exch-held the loop of P1 closed at line 18 writes at each turn"
finish
