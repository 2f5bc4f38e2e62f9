#!/bin/sh
# engines.sh: the two engines agree.  On the seeds, ptx/herd-gpu-ptx, a
# sample of ptx/dat3m (under both Dat3M models), a sample of two generated
# families (`scopecat gen`) and of tools/random-tests.sh, `sim -engine
# enum` and `sim -engine smt` must print the same States, Ok/No, Flag,
# Condition and
# Observation word (the Witnesses counts differ by design: under smt they
# count states); and `sim -liveness` the same verdicts and stuck threads
# on the seeds and the tests of Dat3M's liveness CSVs.  Skipped (77) only
# where configure found no Z3.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"
jobs=$(nproc 2>/dev/null || echo 2)
# a guard against a hang, not a speed bound (that is the benchmark's): the
# suite also runs under ASan on loaded machines, where random-8 under smt
# took over 20 s
limit=${ENGINES_TIMEOUT:-300}
needs_z3

# the parts of herd's block both engines must agree on
verdicts() {
  awk '/^Test / { print; next }
       /^States / || /^(Ok|No)$/ || /^Flag / || /^Condition / { print; next }
       /^[0-9]+:|^[a-zA-Z_][a-zA-Z0-9_]*=|^\[/ { print; next }
       /^Observation / { print $1, $2, $3; next }' "$1"
}

# agree NAME KEEP COUNTED ARGS... FILES: both engines over the files give
# the same output once the function KEEP has kept what is compared of it;
# COUNTED matches one line of it per test
agree() {
  name=$1 keep=$2 counted=$3
  shift 3
  for e in enum smt; do
    "$scopecat" -nohash -j "$jobs" -engine "$e" "$@" >"$tmp/$e" 2>"$tmp/$e.err"
    "$keep" "$tmp/$e" >"$tmp/$e.v"
  done
  if [ -s "$tmp/smt.err" ] || [ -s "$tmp/enum.err" ]; then
    fail "$name: errors:"
    cat "$tmp/enum.err" "$tmp/smt.err"
  fi
  n=$(grep -c "$counted" "$tmp/enum.v")
  if [ "$n" -eq 0 ]; then
    fail "$name: no test ran"
  elif cmp -s "$tmp/enum.v" "$tmp/smt.v"; then
    passed=$((passed + n))
  else
    fail "$name: the engines disagree:"
    diff "$tmp/enum.v" "$tmp/smt.v" | head -40
  fi
}

# compare NAME ARGS... FILES: the same States, Ok/No, flags
compare() {
  name=$1
  shift
  agree "$name" verdicts '^Test ' "$@"
}

compare seeds "$srcdir"/ptx/seeds/*.litmus
compare herd-gpu-ptx "$srcdir"/ptx/herd-gpu-ptx/*.litmus
# a sample of Dat3M's corpus (every third test of each folder but CADP),
# under both models
sample=$(for d in Manual Nvidia Memalloy Barrier; do
  find "$srcdir/ptx/dat3m/$d" -name '*.litmus' | LC_ALL=C sort | awk 'NR % 3 == 1'
done)
# shellcheck disable=SC2086 # one word per file
compare dat3m-v6.0 -model "$srcdir/cat/ptx-v6.0.cat" -timeout "$limit" $sample
# shellcheck disable=SC2086
compare dat3m-v7.5 -model "$srcdir/cat/ptx-v7.5.cat" -timeout "$limit" $sample

# a sample of generated families (README "Generating tests"): GPU_PTX from
# asplos15.edges (co total) and Dat3M's PTX dialect from modern.edges (co
# partial), every cycle of 2 to 4 edges, one test in 15
for fam in "asplos15 gpu_ptx" "modern ptx"; do
  set -- $fam
  if "$scopecat" gen -size 4 -dialect "$2" -edges "$srcdir/ptx/families/$1.edges" \
       -o "$tmp/$1" >/dev/null 2>"$tmp/gen.err"; then
    # shellcheck disable=SC2046 # one word per file
    compare "gen-$1" -timeout "$limit" $(LC_ALL=C ls "$tmp/$1"/*.litmus | awk 'NR % 15 == 1')
  else
    fail "gen $1: $(cat "$tmp/gen.err")"
  fi
done
# a sample of issue 29's random family (tools/random-tests.sh: four
# threads, dependencies, `locations` over every register: many states),
# where -engine auto now enumerates: the two engines agree on its states
if "$srcdir/tools/random-tests.sh" "$tmp/random" 12 1 2>"$tmp/gen.err"; then
  compare random -timeout "$limit" "$tmp"/random/random-*.litmus
else
  fail "random-tests.sh: $(cat "$tmp/gen.err")"
fi
# liveness NAME ARGS... FILES: `sim -liveness` under both engines prints
# the same Liveness lines and marks the same threads stuck (-json; the
# candidate counts differ)
live_lines() { sed 's/"candidates":.*//' "$1"; }
liveness() {
  name=$1
  shift
  agree "$name liveness" live_lines '"liveness"' -liveness -json "$@"
}

liveness seeds "$srcdir"/ptx/seeds/*.litmus
# every test of Dat3M's liveness CSVs (all finish under enumeration too)
live=$(grep -v '^$' "$srcdir/ptx/dat3m/expected/PTXv6_0-Liveness-expected.csv" |
  sed "s|^litmus/PTX/|$srcdir/ptx/dat3m/|; s|,.*||")
# shellcheck disable=SC2086 # one word per file
liveness dat3m-v6.0 -model "$srcdir/cat/ptx-v6.0.cat" -timeout "$limit" $live
# shellcheck disable=SC2086
liveness dat3m-v7.5 -model "$srcdir/cat/ptx-v7.5.cat" -timeout "$limit" $live

finish
