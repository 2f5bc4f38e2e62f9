#!/bin/sh
# liveness.sh: `sim -liveness` on loops whose iterations write (a thread
# that turns in an atom.exch loop for ever repeats a state: a recurrence,
# lib/sim/liveness.c).  Two hand-worked tests, tests/data/liveness/, each
# arguing its verdict in its own comment: exch-held (the lock is never
# given back: P1 turns for ever, Fail) and exch-released (a release store
# gives it back: no fair execution leaves P1 turning, Pass), under the
# bundled PTX models and sc.cat and both engines; the witness is drawn.
# stale-flag: a spin whose only source the model refutes as a co-maximal
# write, dropped before the search (lib/sim/live_refute.c), also where co
# is partial and a check orders the spin's source with a later write
# (partial-coherence.cat, ordered-writes.cat, ordered-flag.cat beside it).
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
# stale-flag under models that leave co partial (`let co = co+`): a check
# `empty (E \ (co | co^-1))` with E fixed by the program orders W1 and W2
# (ordered-writes.cat: E the pairs of writes in po at one location;
# ptx-v6.0.cat's axiom-Coherence2, E the morally strong ones, which po
# makes them), so W1, never co-maximal, is refuted before the engine
# (lib/sim/live_refute.c; the search without the cut took 9 and 3
# candidates).  Without the check (partial-coherence.cat), or with it a
# flag (ordered-flag.cat: a flag forbids nothing), W1 and W2 may stay
# unordered and P1 spins on W1 for ever: Fail.  -unroll 2 makes the cut
# run from the first combination (no deeper search waits for its count);
# ordering W1 last of every write of f whatever E says, or taking the
# flag for a check, turns those Fails into Pass
for e in $engines; do
  for u in "" "-unroll 2"; do
    for m in "$srcdir/cat/ptx-v6.0" "$data/ordered-writes"; do
      expect 0 "$scopecat" -liveness -json $u -model "$m.cat" -engine "$e" "$data/stale-flag.litmus"
      has "$tmp/out" '"liveness":"Pass","stuck":[]'
      has "$tmp/out" '"candidates":0,'
    done
    for m in partial-coherence ordered-flag; do
      expect 0 "$scopecat" -liveness -json $u -model "$data/$m.cat" -engine "$e" "$data/stale-flag.litmus"
      has "$tmp/out" '"liveness":"Fail","stuck":[{"thread":"P1","how":"spin"}]'
    done
  done
  expect 0 "$scopecat" -liveness -json -noprune -model "$data/ordered-writes.cat" -engine "$e" "$data/stale-flag.litmus"
  has "$tmp/out" '"liveness":"Pass","stuck":[]'
done
# with -unroll 0 no second turn runs: the loop is not checked, and says so
expect 0 "$scopecat" -liveness -unroll 0 "$data/exch-held.litmus"
has "$tmp/out" "Liveness exch-held Pass"
has "$tmp/out" "Unchecked exch-held the loop of P1 closed at line 18 writes at each turn"
finish
