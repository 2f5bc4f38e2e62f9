#!/bin/sh
# progress.sh: progress models (-progress) for -liveness.
#   - hand-worked tests (tests/data/progress/, each argued in its comment,
#     the verdicts in expected.txt) under every model they list, with both
#     engines (smt skipped without Z3);
#   - the witness names the halted threads (-json "how":"halted");
#   - a Pass the unroll bound cut is searched again deeper
#     (-liveness-unroll-max), under both engines;
#   - malformed -progress values: exit 2 and what was expected;
#   - compare -progress says the model in the table and the HTML report,
#     and says nothing without it;
#   - Dat3M's Vulkan liveness verdicts on a subset of CADP
#     (ptx/dat3m-placement/subset.txt) through tools/progress-vulkan.sh
#     -check: every difference is one DIFFERENCES.md explains (with Z3
#     only: see there).
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"
data="$srcdir/tests/data/progress"

engines=enum
if "$scopecat" -engine smt "$srcdir/ptx/seeds/coRR.litmus" >/dev/null 2>&1; then
  engines="enum smt"
else
  echo "no Z3 in this build: the symbolic engine's half skipped"
fi

# The hand-worked verdicts, each model, each engine.
while read -r test model want; do
  case $test in '#'* | '') continue ;; esac
  for e in $engines; do
    got=$("$scopecat" -engine "$e" -liveness -progress "$model" "$data/$test.litmus" 2>&1 | head -1)
    if [ "$got" = "Liveness $test $want" ]; then
      ok
    else
      fail "$test -progress $model -engine $e: got '$got', expected $want"
    fi
  done
done <"$data/expected.txt"

# Without -progress: fair, as before.
expect 0 "$scopecat" -liveness "$data/spin-higher.litmus"
has "$tmp/out" "Liveness spin-higher Pass"

# The witness: P0 spins, P1 never starts.
for e in $engines; do
  expect 0 "$scopecat" -engine "$e" -liveness -json -progress obe "$data/spin-higher.litmus"
  has "$tmp/out" '"stuck":[{"thread":"P0","how":"spin"},{"thread":"P1","how":"halted"}]'
done
mkdir -p "$tmp/show"
expect 0 "$scopecat" -liveness -progress obe -show all -o "$tmp/show" "$data/spin-higher.litmus"
has "$tmp/show/spin-higher-1.dot" "P1 (halted: never scheduled again)"

# A Pass the unroll bound cut is searched deeper (-liveness-unroll-max):
# spin-past-bound's spin starts after three backward jumps, so the default
# bound's Pass becomes a Fail at -unroll 3, and the Unroll line says so;
# -unroll N alone, or -liveness-unroll-max at the bound, keeps the bound's
# answer.  Both engines.
for e in $engines; do
  expect 0 "$scopecat" -engine "$e" -liveness "$data/spin-past-bound.litmus"
  has "$tmp/out" "Liveness spin-past-bound Fail"
  has "$tmp/out" "Unroll spin-past-bound Fail at -unroll 3 (the bound 2 cut runs: searched again up to -liveness-unroll-max 3)"
  expect 0 "$scopecat" -engine "$e" -liveness -unroll 2 "$data/spin-past-bound.litmus"
  has "$tmp/out" "Liveness spin-past-bound Pass"
  has "$tmp/out" "Pass holds up to the bound (a thread stuck only past it is not found)"
  lacks "$tmp/out" "searched again"
  expect 0 "$scopecat" -engine "$e" -liveness -liveness-unroll-max 2 "$data/spin-past-bound.litmus"
  has "$tmp/out" "Liveness spin-past-bound Pass"
  expect 0 "$scopecat" -engine "$e" -liveness -unroll 1 -liveness-unroll-max 2 "$data/spin-past-bound.litmus"
  has "$tmp/out" "Pass holds up to the bound (a thread stuck only past it is not found); at -unroll 2 (the bound 1 cut runs: searched again up to -liveness-unroll-max 2)"
  expect 0 "$scopecat" -engine "$e" -liveness -json -unroll 0 -liveness-unroll-max 3 "$data/spin-past-bound.litmus"
  has "$tmp/out" '"liveness":"Fail","stuck":[{"thread":"P0","how":"spin"}],"liveness_unroll":{"from":0,"reached":3,"max":3}'
done
# a cut Pass of a larger search is not searched again: CADP 109_simple takes
# 53 candidates at the default bound, past SC_LIVE_DEEPEN_CANDIDATES (16)
# (with Z3: by enumeration alone its loops that write take many minutes)
case $engines in
*smt*)
  expect 0 "$scopecat" -liveness -json "$srcdir/ptx/dat3m/CADP/2_threads_3_instructions/109_simple.litmus"
  has "$tmp/out" '"liveness":"Pass"'
  has "$tmp/out" '"candidates":53'
  lacks "$tmp/out" "liveness_unroll"
  ;;
esac
# a Pass the bound does not cut is not searched again
expect 0 "$scopecat" -liveness -json "$data/barrier-alone.litmus"
lacks "$tmp/out" "liveness_unroll"
expect 2 "$scopecat" -liveness -liveness-unroll-max -1 "$data/spin-past-bound.litmus"

# Malformed values.
expect 2 "$scopecat" -liveness -progress fast "$data/spin-higher.litmus"
has "$tmp/err" "scopecat sim: -progress expects a progress model (fair, hsa, obe, hsa_obe, lobe or unfair) or LEVEL=MODEL pairs, found 'fast'"
expect 2 "$scopecat" -liveness -progress cta=obe,block=fair "$data/spin-higher.litmus"
has "$tmp/err" "expects a level warp, cta, gpu (or kernel), device, sys or default before '='"
expect 2 "$scopecat" -liveness -progress cta=obe,cta=hsa "$data/spin-higher.litmus"
has "$tmp/err" "expects each level named once"
expect 2 "$scopecat" -liveness -progress cta=slow "$data/spin-higher.litmus"
has "$tmp/err" "after '=', found 'cta=slow'"
expect 2 "$scopecat" -liveness -progress cta=obe, "$data/spin-higher.litmus"
has "$tmp/err" "LEVEL=MODEL pairs separated by commas"
# case and Dat3M's spelling of the gpu level as kernel
expect 0 "$scopecat" -liveness -progress KERNEL=OBE,cta=fair "$data/spin-higher-ctas.litmus"
has "$tmp/out" "Liveness spin-higher-ctas Fail"

# compare names the model under which it judged the hang's liveness.
log="$srcdir/ptx/results/H100-dat3m/CADP__2_threads_2_instructions__0_simple.txt"
expect 0 "$scopecat" compare -tests "$srcdir/ptx/dat3m" -progress cta=obe -html "$tmp/r.html" "$log"
has "$tmp/out" "Progress cta=obe,default=fair (the model's liveness verdicts beside hangs)"
has "$tmp/r.html" "Progress model of the liveness verdicts beside hangs: cta=obe,default=fair"
expect 0 "$scopecat" compare -tests "$srcdir/ptx/dat3m" -progress unfair "$log"
has "$tmp/out" "Progress unfair ("
expect 0 "$scopecat" compare -tests "$srcdir/ptx/dat3m" -html "$tmp/r0.html" "$log"
lacks "$tmp/out" "Progress"
lacks "$tmp/r0.html" "Progress model"

# Dat3M's Vulkan verdicts on the committed subset.  Its loops that write
# are checked as recurrences, which -engine auto hands to the solver: by
# enumeration alone some of them take minutes each (59_simple over 100 s
# against 0.3 s), five models over, so a build without Z3 skips this part.
case $engines in
*smt*)
  if SC_SCOPECAT="$scopecat" SC_SRCDIR="$srcdir" sh "$srcdir/tools/progress-vulkan.sh" -check \
    -list "$srcdir/ptx/dat3m-placement/subset.txt" >"$tmp/vulkan" 2>&1; then
    ok
  else
    fail "progress-vulkan.sh -check on the subset:"
    cat "$tmp/vulkan"
  fi
  has "$tmp/vulkan" "OBE: "
  ;;
*) echo "no Z3 in this build: the Vulkan subset skipped" ;;
esac

finish
