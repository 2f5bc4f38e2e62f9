#!/bin/sh
# repeat_races.sh: the repeated-state cut that keeps the race flags
# (sim/repeat_gate.c, doc/engines.md "Race flags and the repeat cut"), end
# to end on the hand-made kernels of tests/data/repeat-races/, under both
# PTX models and, with Z3, both engines:
#  - race-in-spin.ptx: the racing read is in the spin's failing turn only;
#    a cut at the first repeated turn would say data-race PASS; the twin
#    cut keeps one failing turn: FAIL, naming the two accesses' lines;
#  - fence-in-spin.ptx: race free, but its turn meets a fence, which the
#    twin cut never cuts: data-race UNKNOWN at -unroll 3 and 5 (the runs
#    are followed up to the bound), while -norace (the model alone, the
#    plain cut) says PASS;
#  - acquire-spin.ptx: the racing read is an acquiring spin's failing
#    turn's only read; the next turn's read, which reads the release, is
#    no twin of it: data-race FAIL (a cut taking it for one: PASS);
#  - cas-spin-shared.ptx: the racing read is a failed cas's (no RMW event);
#    the next turn's cas, which writes, is no twin of it: shared-race FAIL
#    (a cut taking it for one: PASS);
#  - scope-spin.ptx: an acquiring spin whose failing turns race with a
#    strong write of too narrow a scope (.cta, another CTA): the read is
#    not race-free (sim/repeat_gate.c), so no twin: data-race FAIL (a cut
#    that took every strong write for morally strong: PASS);
#  - strong-spin.ptx: the same with every write of the spin's location
#    morally strong with its read: race-free, the failing turns are cut
#    as in the -norace run, which counts the same executions (Positive:
#    1, where the twin cut alone counts 3), and data-race PASS;
#  - caslock-2.1.1.ptx of the corpus: race free, data-race PASS at -unroll 3
#    (the gate used to close for the flags: UNKNOWN at every bound), and
#    still UNKNOWN at -unroll 2, which cuts the second failing turn first.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

data="$srcdir/tests/data/repeat-races"
engines=enum
if ! "$scopecat" -engine smt "$srcdir/ptx/seeds/coRR.litmus" 2>&1 | grep -q 'built without Z3'; then
  engines="enum smt"
fi

# verdict_is FILE MODEL UNROLL ENGINE PROPERTY VERDICT [OPTION...]: the run
# exits 0 and prints `Property PROPERTY VERDICT` (expect sets $want)
verdict_is() {
  v_file=$1 v_model=$2 v_unroll=$3 v_engine=$4 v_line="Property $5 $6"
  shift 6
  expect 0 "$scopecat" kernel -model "$srcdir/cat/$v_model.cat" -unroll "$v_unroll" \
    -engine "$v_engine" "$@" "$v_file"
  has "$tmp/out" "$v_line"
}

for model in ptx-v7.5 ptx-v6.0; do
  for engine in $engines; do
    verdict_is "$data/race-in-spin.ptx" $model 3 $engine data-race FAIL
    has "$tmp/out" "race-in-spin.ptx:45 ld x[0]=0 / T1"
    has "$tmp/out" "race-in-spin.ptx:36 st x[0]=1"
    verdict_is "$data/acquire-spin.ptx" $model 3 $engine data-race FAIL
    has "$tmp/out" "acquire-spin.ptx:41 ld flag[0]=0 / T1"
    has "$tmp/out" "acquire-spin.ptx:35 st flag[0]=1"
    verdict_is "$data/cas-spin-shared.ptx" $model 3 $engine shared-race FAIL
    has "$tmp/out" "cas-spin-shared.ptx:31 atom s@cta0=0 / T1"
    verdict_is "$data/scope-spin.ptx" $model 3 $engine data-race FAIL
    has "$tmp/out" "scope-spin.ptx:41 ld flag[0]=0 / T1"
    has "$tmp/out" "scope-spin.ptx:35 st flag[0]=1"
    verdict_is "$data/strong-spin.ptx" $model 3 $engine data-race PASS
    has "$tmp/out" "Positive: 1 Negative: 0"
    verdict_is "$data/strong-spin.ptx" $model 3 $engine assertion PASS -norace
    has "$tmp/out" "Positive: 1 Negative: 0"
    verdict_is "$data/fence-in-spin.ptx" $model 3 $engine data-race UNKNOWN
    verdict_is "$data/fence-in-spin.ptx" $model 5 $engine data-race UNKNOWN
    verdict_is "$data/fence-in-spin.ptx" $model 3 $engine assertion PASS -norace
    verdict_is "$srcdir/ptx/kernels/caslock-2.1.1.ptx" $model 3 $engine data-race PASS
    verdict_is "$srcdir/ptx/kernels/caslock-2.1.1.ptx" $model 2 $engine data-race UNKNOWN
  done
done
finish
