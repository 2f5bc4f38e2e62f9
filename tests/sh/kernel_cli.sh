#!/bin/sh
# kernel_cli.sh: `scopecat kernel` end to end on the small kernels of
# tests/data/kernel-cli/, whose verdicts are worked out by hand in their
# comments: message passing between two CTAs fails without fences (the
# reader may see the flag and stale data: the assertion and a data race)
# and passes with __threadfence() on both sides; a loop of 4 turns is
# UNKNOWN under -unroll 2 and passes under -unroll 4; a spin on a flag
# nobody raises fails -liveness; a CAS lock's spinning runs, cut at
# -unroll 2, leave it UNKNOWN, saying which witness none gave; two
# threads meeting barriers in crossed orders deadlock, and a verdict over no complete execution is UNKNOWN,
# saying why.  The .ptx files run everywhere; the .cu
# files need nvcc (skipped without it).  Then the launch's errors, each
# at its file:line:col, a batch whose bad file lets the others run, and
# the options.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

k="$srcdir/tests/data/kernel-cli"
props() { grep -E '^(Property|Inputs) ' "$tmp/out" | sed 's/:.*//'; }
same() { # same WANT: the Property lines' verdicts (details cut) are WANT
  got=$(props | tr '\n' '|')
  if [ "$got" = "$1" ]; then ok; else fail "verdicts $got, expected $1"; cat "$tmp/out"; fi
}

# ---- Verdicts worked out by hand ---------------------------------------------
expect 0 "$scopecat" kernel "$k/mp.ptx"
same "Property assertion FAIL|Property data-race FAIL|Property shared-race PASS|Property bounds PASS|Inputs these-inputs-only|"
# the herd block comes first, as sim prints it, the flag among its lines
has "$tmp/out" "States 3"
has "$tmp/out" "data[0]=42; flag[0]=1; out[0]=0;"
has "$tmp/out" "Flag data-race"
has "$tmp/out" "Condition forall (out[0]=-1 \\/ out[0]=42)"
# the race named by source line, thread and value, and the level that judges it
has "$tmp/out" "Property data-race FAIL: T0 mp.cu:13 st data[0]=42 / T1 mp.cu:24 ld data[0]=0 (PTX level: not undefined behaviour in PTX; undefined behaviour in CUDA C++)"
# the failing execution's story, per thread: the stale read
has "$tmp/out" "    mp.cu:24  ld.global.u32 %r3, [%rd1]  reads data[0]=0"
has "$tmp/out" "    mp.cu:19  ld.relaxed.gpu.b32 %r2, [%rd2]  reads flag[0]=1"

expect 0 "$scopecat" kernel "$k/mp-fence.ptx"
same "Property assertion PASS|Property data-race PASS|Property shared-race PASS|Property bounds PASS|Inputs these-inputs-only|"
has "$tmp/out" "States 2"
lacks "$tmp/out" "Flag"

# a loop the bound cuts: no run completes (States 0), so no verdict but
# UNKNOWN, the bound said to be why
expect 0 "$scopecat" kernel "$k/fill.ptx"
same "Property assertion UNKNOWN|Property data-race UNKNOWN|Property shared-race UNKNOWN|Property bounds UNKNOWN|Inputs these-inputs-only|"
has "$tmp/out" "Property assertion UNKNOWN: no complete execution (1 run cut by the bound -unroll 2, none completed)"
has "$tmp/out" "Condition forall (A[3]=3 /\\ A[0]<A[1])"
expect 0 "$scopecat" kernel -unroll 4 "$k/fill.ptx"
same "Property assertion PASS|Property data-race PASS|Property shared-race PASS|Property bounds PASS|Inputs these-inputs-only|"
has "$tmp/out" "A[0]=0; A[1]=1; A[2]=2; A[3]=3;"

# complete executions and runs the bound cuts (caslock: a CAS spin lock,
# count[0] is 2 in every execution; the spinning runs are cut at -unroll 2,
# taken as repeats from 3 on): the UNKNOWN says which witness is missing,
# a counterexample of forall or an execution where exists holds; one found
# decides whatever the bound cut
expect 0 "$scopecat" kernel "$k/caslock.ptx"
same "Property assertion UNKNOWN|Property data-race UNKNOWN|Property shared-race UNKNOWN|Property bounds UNKNOWN|Inputs these-inputs-only|"
has "$tmp/out" "Property assertion UNKNOWN: no execution violates the condition up to -unroll 2 (2 runs cut by the bound)"
has "$tmp/out" "count[0]=2; mutex[0]=0;"
expect 0 "$scopecat" kernel -output 'exists (count[0] == 1)' "$k/caslock.ptx"
has "$tmp/out" "Property assertion UNKNOWN: no execution satisfies the condition up to -unroll 2 (2 runs cut by the bound)"
expect 0 "$scopecat" kernel -output 'exists (count[0] == 2)' "$k/caslock.ptx"
has "$tmp/out" "Property assertion PASS"
expect 0 "$scopecat" kernel -unroll 3 "$k/caslock.ptx"
same "Property assertion PASS|Property data-race PASS|Property shared-race PASS|Property bounds PASS|Inputs these-inputs-only|"
lacks "$tmp/out" "Unroll"

# -output over @Output, relational comparisons: A[i] = i in the one execution
expect 0 "$scopecat" kernel -unroll 4 -output 'forall (A[0] < A[1] and A[2] <= 2 and not (A[3] > 3) and A[3] >= -1)' "$k/fill.ptx"
has "$tmp/out" "Property assertion PASS"
expect 0 "$scopecat" kernel -unroll 4 -output 'exists (A[3] < 3 or A[1] != 1)' "$k/fill.ptx"
has "$tmp/out" "Property assertion FAIL: no allowed execution satisfies it"
has "$tmp/out" "Condition exists (A[3]<3 \\/ A[1]!=1)"
# -input over @Input: n = 2 fills two elements, a loop -unroll 2 follows
expect 0 "$scopecat" kernel -input 'n = 2' -output 'forall (A[1] == 1 and A[2] == -1)' "$k/fill.ptx"
same "Property assertion PASS|Property data-race PASS|Property shared-race PASS|Property bounds PASS|Inputs these-inputs-only|"

# n named in @Config (-config here) is a launch parameter, not data: the
# loop's bound then reaches no branch from data, and A's contents are never
# read, so the verdict holds for every value of A
expect 0 "$scopecat" kernel -unroll 4 -config '1, 1, 1, n' "$k/fill.ptx"
has "$tmp/out" "Inputs generalise"
expect 1 "$scopecat" kernel -config '1, 1, 1, A' "$k/fill.ptx"
has "$tmp/err" "-config:1:10: expected a scalar parameter that @Input gives a value (a launch parameter), found A (an array: its contents are data)"

# -speedcheck fast: mp's search stops once the condition is decided (the
# stale read) and a flag raised (the race on data): those two FAIL as
# without it, with a witness; what the stopped search had not found is
# UNKNOWN, never PASS; the States are those found by then (at most mp's 3)
expect 0 "$scopecat" kernel -speedcheck fast "$k/mp.ptx"
same "Property assertion FAIL|Property data-race FAIL|Property shared-race UNKNOWN|Property bounds UNKNOWN|Inputs these-inputs-only|"
has "$tmp/out" "Property assertion FAIL: an allowed execution violates it (told below); -speedcheck fast: States lists those found before it stopped"
has "$tmp/out" "Property shared-race UNKNOWN: not found before -speedcheck fast stopped the search"
has "$tmp/out" "Flag data-race"
has "$tmp/out" "    mp.cu:24  ld.global.u32 %r3, [%rd1]  reads data[0]=0"
# the progress line goes to a terminal only: none here
if [ -s "$tmp/err" ]; then fail "stderr not a terminal, yet: $(cat "$tmp/err")"; else ok; fi
expect 0 "$scopecat" kernel -json -speedcheck fast "$k/mp.ptx"
has "$tmp/out" '"stopped_early":true'
# -norace: the condition alone decides when it stops
expect 0 "$scopecat" kernel -norace -speedcheck fast "$k/mp.ptx"
same "Property assertion FAIL|Property bounds UNKNOWN|Inputs these-inputs-only|"
# nothing to find early (every property passes): the whole search, the
# same bytes as without it (Time aside)
expect 0 "$scopecat" kernel "$k/mp-fence.ptx"
grep -v '^Time' "$tmp/out" >"$tmp/full"
expect 0 "$scopecat" kernel -speedcheck fast "$k/mp-fence.ptx"
if grep -v '^Time' "$tmp/out" | cmp -s - "$tmp/full"; then ok; else fail "-speedcheck fast changed mp-fence's answer"; fi
# exists: decided by the first execution that satisfies it, a PASS
expect 0 "$scopecat" kernel -unroll 4 -norace -speedcheck fast -output 'exists (A[3] == 3)' "$k/fill.ptx"
has "$tmp/out" "Property assertion PASS: an allowed execution satisfies it; -speedcheck fast: States lists those found before it stopped"
# -liveness: the first witness is the answer
expect 0 "$scopecat" kernel -liveness -speedcheck fast "$k/wait.ptx"
has "$tmp/out" "Property liveness FAIL: T0 spins for ever"
expect 0 "$scopecat" kernel -liveness -speedcheck fast -input 'flag = {1}' "$k/wait.ptx"
has "$tmp/out" "Property liveness PASS"
# herd's true counts only deciding executions: no kernel verdict reads that
expect 2 "$scopecat" kernel -speedcheck true "$k/mp.ptx"
has "$tmp/err" "-speedcheck expects false or fast, found 'true'"

# tally: four threads add to a plain tally, thread 0 waits for thread 1's
# release (its header argues liveness PASS; the tally's accesses race).
# The tally's values multiply the states search's candidates past
# -max-executions 1000; a search that collapses them (they decide nothing)
# and computes them after each execution still answers: the same States
# as the whole search's, the race pair's values told.  At 100 that search
# stops too: UNKNOWN, said so; with -norace and no -liveness, the limit's
# error.
stopped="the states search stopped: tally.cu: expected at most"
expect 0 "$scopecat" kernel -liveness "$k/tally.ptx"
has "$tmp/out" "Property liveness PASS"
has "$tmp/out" "Property data-race FAIL: T0 tally.cu:14 ld tally[0]=0 / T1 tally.cu:15 st tally[0]=2"
has "$tmp/out" "States 464"
sed -n '/^States/,/^Ok/p' "$tmp/out" >"$tmp/whole-states"
# (-engine auto's symbolic road counts combinations of runs, which the
# collapse makes fewer; the enumerator counts each rf choice too, and a
# collapsed read may read any write of its cell: as many candidates, so
# without Z3 the collapsed search stops at 1000 as well)
if "$scopecat" -engine smt "$srcdir/ptx/seeds/coRR.litmus" >/dev/null 2>&1; then
  expect 0 "$scopecat" kernel -max-executions 1000 -liveness "$k/tally.ptx"
  has "$tmp/out" "Property liveness PASS"
  has "$tmp/out" "Property assertion UNKNOWN: no execution violates the condition up to -unroll 2"
  has "$tmp/out" "Property data-race FAIL: T0 tally.cu:14 ld tally[0]=0 / T1 tally.cu:15 st tally[0]=2"
  has "$tmp/out" "tally.cu:16  st.global.u32 [%rd7], %r2  writes seen[0]=0"
  has "$tmp/out" "reads done[0]=1"
  lacks "$tmp/out" "=?"
  sed -n '/^States/,/^Ok/p' "$tmp/out" >"$tmp/collapsed-states"
  cmp -s "$tmp/whole-states" "$tmp/collapsed-states" ||
    fail "tally at -max-executions 1000: the collapsed search's States differ from the whole one's"
  expect 0 "$scopecat" kernel -json -max-executions 1000 -liveness "$k/tally.ptx"
  lacks "$tmp/out" '"result":null'
fi
expect 0 "$scopecat" kernel -max-executions 100 -liveness "$k/tally.ptx"
has "$tmp/out" "Property liveness PASS"
has "$tmp/out" "Property data-race UNKNOWN: $stopped 100 candidate executions (the -max-executions limit); so did the search that collapses the values deciding nothing"
has "$tmp/out" "Property assertion UNKNOWN: $stopped 100 candidate executions"
lacks "$tmp/out" "States "
expect 0 "$scopecat" kernel -json -max-executions 100 -liveness "$k/tally.ptx"
has "$tmp/out" '"result":null'
has "$tmp/out" '{"property":"liveness","verdict":"PASS","detail":null}'
# -engine enum: no second states search (the enumerator would count as
# many candidates): the races and liveness alone, the assertion UNKNOWN
expect 0 "$scopecat" kernel -engine enum -max-executions 1000 -liveness "$k/tally.ptx"
has "$tmp/out" "Property assertion UNKNOWN: $stopped 1000 candidate executions (the -max-executions limit)"
has "$tmp/out" "Property liveness PASS"
lacks "$tmp/out" "States "
# -norace without -liveness: nothing but the states to ask, the limit's error
expect 1 "$scopecat" kernel -norace -max-executions 100 "$k/tally.ptx"
has "$tmp/err" "expected at most 100 candidate executions (the -max-executions limit)"
# -liveness: the spin never ends with flag 0, never starts with flag 1
expect 0 "$scopecat" kernel -liveness "$k/wait.ptx"
has "$tmp/out" "Property liveness FAIL: T0 spins for ever"
expect 0 "$scopecat" kernel -liveness -input 'flag = {1}' "$k/wait.ptx"
has "$tmp/out" "Property liveness PASS"
# -norace: the liveness search cuts the repeated spin turn (sem.c's
# loops_unnested) only after it kept the run stuck there (PASS if not)
expect 0 "$scopecat" kernel -norace -liveness "$k/wait.ptx"
has "$tmp/out" "Property liveness FAIL: T0 spins for ever"
expect 0 "$scopecat" kernel "$k/wait.ptx"
lacks "$tmp/out" "Property liveness"
has "$tmp/out" "Property assertion PASS: nothing asserted (no @Output, no -output)"
# ... and without -liveness no run completes (States 0): no property that
# looks at executions may pass over none; the bound is why
has "$tmp/out" "States 0"
has "$tmp/out" "Property data-race UNKNOWN: no complete execution (1 run cut by the bound -unroll 2, none completed)"
has "$tmp/out" "Property bounds UNKNOWN: no complete execution (1 run cut by the bound -unroll 2, none completed)"

# ---- Over no complete execution: UNKNOWN, saying why ---------------------------
# barriers met in crossed orders deadlock: the forall holds of no
# execution, which is no PASS (it was one); -liveness names the threads
deadlock="no complete execution (a hang: in every execution some thread waits for ever, at a barrier or in a loop no write ends; -liveness names it)"
for engine in enum smt; do
  [ "$engine" = smt ] && ! "$scopecat" -engine smt "$srcdir/ptx/seeds/coRR.litmus" >/dev/null 2>&1 && continue
  expect 0 "$scopecat" kernel -engine "$engine" "$k/crossed.ptx"
  same "Property assertion UNKNOWN|Property data-race UNKNOWN|Property shared-race UNKNOWN|Property bounds UNKNOWN|Inputs generalise|"
  has "$tmp/out" "States 0"
  has "$tmp/out" "Property assertion UNKNOWN: $deadlock"
  has "$tmp/out" "Property bounds UNKNOWN: $deadlock"
done
expect 0 "$scopecat" kernel -norace -liveness "$k/crossed.ptx"
has "$tmp/out" "Property liveness FAIL: T0 waits at a barrier for ever, T1 waits at a barrier for ever"
# a hang in a spin, no barrier (spin-hang.ptx, worked out in its header):
# the same words, which say a loop may be where it waits
expect 0 "$scopecat" kernel -norace -unroll 3 "$k/spin-hang.ptx"
has "$tmp/out" "States 0"
has "$tmp/out" "Property assertion UNKNOWN: $deadlock"
expect 0 "$scopecat" kernel -norace -unroll 3 -liveness "$k/spin-hang.ptx"
has "$tmp/out" "Property liveness FAIL: T1 spins for ever"
# a recurrence whose infix is a spin turn the liveness search cuts
# (infix-spin.ptx, worked out in its header): found only because the cut
# turn is watched as an infix (sem.c's watch_as_infix; PASS without),
# under each engine and the bundled PTX models
for engine in enum smt; do
  [ "$engine" = smt ] && ! "$scopecat" -engine smt "$srcdir/ptx/seeds/coRR.litmus" >/dev/null 2>&1 && continue
  for m in ptx-v6.0 ptx-v7.5; do
    expect 0 "$scopecat" kernel -norace -unroll 1 -liveness -engine "$engine" -model "$srcdir/cat/$m.cat" "$k/infix-spin.ptx"
    has "$tmp/out" "Property liveness FAIL: T0 spins for ever, T1 spins for ever"
  done
done
expect 0 "$scopecat" kernel -json "$k/crossed.ptx"
has "$tmp/out" "{\"property\":\"assertion\",\"verdict\":\"UNKNOWN\",\"detail\":\"$deadlock\"}"
# a model that forbids every execution: no allowed one, each of 3 candidates
printf '"forbids all"\nirreflexive id as never\n' >"$tmp/never.cat"
expect 0 "$scopecat" kernel -norace -model "$tmp/never.cat" "$k/mp-fence.ptx"
same "Property assertion UNKNOWN|Property bounds UNKNOWN|Inputs these-inputs-only|"
has "$tmp/out" "Property assertion UNKNOWN: no allowed execution (the model forbids all 3 candidates)"

# -norace: the model alone; -engine smt gives the same verdicts (with Z3)
expect 0 "$scopecat" kernel -norace "$k/mp.ptx"
same "Property assertion FAIL|Property bounds PASS|Inputs these-inputs-only|"
if "$scopecat" kernel -engine smt "$k/mp.ptx" >"$tmp/smt" 2>&1; then
  "$scopecat" kernel -engine enum "$k/mp.ptx" >"$tmp/enum" 2>&1
  if [ "$(grep '^Property' "$tmp/smt")" = "$(grep '^Property' "$tmp/enum")" ]; then ok
  else fail "-engine smt and enum disagree on mp.ptx"; diff "$tmp/smt" "$tmp/enum"; fi
fi

# -json: one object a kernel, the properties in it
expect 0 "$scopecat" kernel -json "$k/mp.ptx" "$k/mp-fence.ptx"
if [ "$(wc -l <"$tmp/out")" -eq 2 ]; then ok; else fail "-json: expected 2 lines"; cat "$tmp/out"; fi
has "$tmp/out" '"properties":[{"property":"assertion","verdict":"FAIL"'
has "$tmp/out" '{"property":"data-race","verdict":"PASS","detail":null}'
if command -v python3 >/dev/null 2>&1; then
  if python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$tmp/out"; then ok
  else fail "-json: not JSON"; fi
fi

# -show: the witness of each failing property drawn after its story
expect 0 "$scopecat" kernel -show prop "$k/mp.ptx"
has "$tmp/out" "digraph"

# ---- -fences: the fences the model needs (Alg. 1, the model as the check) ------
# mp.ptx's 5 global accesses, in PTX order: 0 the reader's ld.relaxed
# flag (mp.cu:19), 1 its ld data and 2 its st out (24), 3 the writer's st
# data (13), 4 its st.relaxed flag (16).  By hand: data is a weak access,
# so nothing orders it but a fence on each side of the relaxed flag: after
# the writer's store of data and after the reader's load of the flag
# (what mp-fence.ptx's two __threadfence()s do); a fence elsewhere leaves
# the stale read.  Alg. 1: none fails, all 5 pass; binary: keeping
# {2,3,4} fails, keeping {0,1} fails; linear, by halves: without 0 fails,
# without 1 passes; then without 2 passes, without 3 fails, without 4
# passes: {0,3}, whose confirmation is the answer already simulated (10
# checks, 9 simulated).
expect 0 "$scopecat" kernel -fences "$k/mp.ptx"
has "$tmp/out" "Fences in $k/mp.ptx: 5 global accesses, fence.sc.gpu after each, checked by the model ptx-v7.5.cat"
has "$tmp/out" "  2 of 5 fences needed (10 checks, 9 simulated):"
has "$tmp/out" "  mp.cu:19  after ld.relaxed.gpu.b32 in _Z2mpPiS_S_ ($k/mp.ptx:50:2, offset 1431)"
has "$tmp/out" "  mp.cu:13  after st.global.u32 in _Z2mpPiS_S_ ($k/mp.ptx:68:2, offset 1803)"
[ "$(grep -c '^  mp.cu' "$tmp/out")" -eq 2 ] && ok || fail "-fences: two fences expected"
# the fence the search keeps does what mp-fence.ptx's do: the kernel with
# a fence.sc.gpu at those two offsets passes (and with one of them, fails)
ins() { # ins OFFSET...: mp.ptx with " fence.sc.gpu;" after each offset (descending)
  cp "$k/mp.ptx" "$tmp/ins.ptx"
  for o in "$@"; do
    { head -c "$o" "$tmp/ins.ptx"; printf ' fence.sc.gpu;'; tail -c +"$((o + 1))" "$tmp/ins.ptx"; } >"$tmp/ins2.ptx"
    mv "$tmp/ins2.ptx" "$tmp/ins.ptx"
  done
}
ins 1803 1431
expect 0 "$scopecat" kernel -norace "$tmp/ins.ptx"
has "$tmp/out" "Property assertion PASS"
ins 1803
expect 0 "$scopecat" kernel -norace "$tmp/ins.ptx"
has "$tmp/out" "Property assertion FAIL"
# -v: each check on stderr; the same answer under ptx-v6.0
expect 0 "$scopecat" kernel -fences -v -model ptx-v6.0.cat "$k/mp.ptx"
has "$tmp/err" "check 1: 0 of 5 fences: the condition fails ("
has "$tmp/err" "check 2: 5 of 5 fences: the condition holds ("
has "$tmp/err" "check 10: 2 of 5 fences: the condition holds (as checked before)"
has "$tmp/out" "  2 of 5 fences needed (10 checks, 9 simulated):"
# CTA-scoped fences do not order two CTAs: nothing fixes it
expect 1 "$scopecat" kernel -fences -fence-kind membar.cta "$k/mp.ptx"
has "$tmp/out" "  the condition fails even with a fence after every access (2 checks): fences do not fix it"
# a condition no fence can make hold (the reader may see the flag 0)
expect 1 "$scopecat" kernel -fences -output 'forall (out[0] == 42)' "$k/mp.ptx"
has "$tmp/out" "fences do not fix it"
expect 0 "$scopecat" kernel -fences "$k/mp-fence.ptx"
has "$tmp/out" "  no fence needed: the condition holds without fences (1 check)"
# a verdict the bound or a deadlock leaves open is no answer, never a PASS
expect 1 "$scopecat" kernel -fences "$k/fill.ptx"
has "$tmp/out" "  no answer after 1 check: with 0 of the fences, the condition is UNKNOWN: no complete execution (1 run cut by the bound -unroll 2, none completed)"
expect 0 "$scopecat" kernel -fences -unroll 4 "$k/fill.ptx"
has "$tmp/out" "Fences in $k/fill.ptx: 1 global access, "
has "$tmp/out" "  no fence needed"
expect 1 "$scopecat" kernel -fences "$k/crossed.ptx"
has "$tmp/out" "the condition is UNKNOWN: no complete execution (a hang"
# what -fences needs and refuses
expect 1 "$scopecat" kernel -fences "$k/wait.ptx"
has "$tmp/err" "$k/wait.ptx:1:1: expected '// @Output: ...' (or -output): -fences finds the fences that make it hold"
expect 2 "$scopecat" kernel -fences -fence-kind fence.sc "$k/mp.ptx"
has "$tmp/err" "-fence-kind expects membar.cta|gl|sys, fence.sc.SCOPE or fence.acq_rel.SCOPE (SCOPE: cta, cluster, gpu, sys), found 'fence.sc'"
expect 2 "$scopecat" kernel -fence-kind membar.gl "$k/mp.ptx"
has "$tmp/err" "scopecat kernel: -fence-kind goes with -fences"
expect 2 "$scopecat" kernel -fences -json "$k/mp.ptx"
has "$tmp/err" "-fences reports fences, under the model alone: not with -json, -show, -liveness or -races"
# a kernel that does not load is said as kernel says it, before any search
printf '// @Config: 1, 1, 2\n// @Output: forall (x[0] == 0)\n' >"$tmp/noentry.ptx"
expect 1 "$scopecat" kernel -fences "$tmp/noentry.ptx"
has "$tmp/err" "noentry.ptx: expected a kernel (.entry) in the PTX, found none"
lacks "$tmp/out" "Fences in"
# -timeout bounds the whole search
expect 1 "$scopecat" kernel -fences -timeout 0.000001 "$k/mp.ptx"
has "$tmp/out" "no answer after"

# ---- .cu files through nvcc ---------------------------------------------------
nvcc=${NVCC:-nvcc}
command -v "$nvcc" >/dev/null 2>&1 || nvcc=/usr/local/cuda/bin/nvcc
if command -v "$nvcc" >/dev/null 2>&1; then
  expect 0 "$scopecat" kernel -nvcc "$nvcc" "$k/mp.cu"
  same "Property assertion FAIL|Property data-race FAIL|Property shared-race PASS|Property bounds PASS|Inputs these-inputs-only|"
  expect 0 "$scopecat" kernel -nvcc "$nvcc" "$k/crossed.cu"
  has "$tmp/out" "Property assertion UNKNOWN: $deadlock"
  expect 0 "$scopecat" kernel -nvcc "$nvcc" -D FENCE "$k/mp.cu"
  same "Property assertion PASS|Property data-race PASS|Property shared-race PASS|Property bounds PASS|Inputs these-inputs-only|"
  # nvcc's joined spelling -DFENCE
  expect 0 "$scopecat" kernel -nvcc "$nvcc" -DFENCE "$k/mp.cu"
  has "$tmp/out" "Property assertion PASS"
  # -nvcc-flags pass through: -DFENCE given that way
  expect 0 "$scopecat" kernel -nvcc "$nvcc" -nvcc-flags "-DFENCE -Xptxas -O3" "$k/mp.cu"
  has "$tmp/out" "Property assertion PASS"
  # a .cu that does not compile: nvcc's message, then ours
  printf '// @Config: 1, 1, 1\n__global__ void k(int *a) { a[0] = ; }\n' >"$tmp/bad.cu"
  expect 1 "$scopecat" kernel -nvcc "$nvcc" "$tmp/bad.cu"
  has "$tmp/err" "$tmp/bad.cu: expected nvcc to compile it, found it failed (exit status"
  # a .cu nvcc compiles to an instruction the front end lacks (popc, at
  # the .cu's line 3): the PTX's position, the .cu line its .loc gives,
  # and how to make the PTX, which is not kept
  printf '// @Input: a = {1}\n// @Config: 1, 1, 1\n__global__ void k(int *a) {\n  a[0] = __popc(a[0]); }\n' >"$tmp/popc.cu"
  expect 1 "$scopecat" kernel -nvcc "$nvcc" -D X=1 "$tmp/popc.cu"
  has "$tmp/err" "found unknown instruction 'popc' (source line 4, by .loc)"
  has "$tmp/err" "$tmp/popc.cu.ptx: the PTX nvcc made of $tmp/popc.cu (not kept; to read it: '$nvcc' -ptx -arch=sm_90 -O3 -lineinfo -D'X=1' -o '$tmp/popc.cu.ptx' '$tmp/popc.cu')"
else
  echo "kernel_cli.sh: no nvcc: the .cu files are not checked"
fi
# no nvcc where it is said to be: a clear error, the .ptx beside it still runs
expect 1 "$scopecat" kernel -nvcc "$tmp/no-such-nvcc" "$k/mp.cu" "$k/mp-fence.ptx"
has "$tmp/err" "mp.cu: expected nvcc to compile a .cu file, found no command '$tmp/no-such-nvcc'"
has "$tmp/out" "Property assertion PASS"

# ---- Errors, each at its place --------------------------------------------------
cp "$k/mp.ptx" "$tmp/noparam.ptx"
sed -i 's|^// @Input: data = {0}, flag = {0}, out = {-1}|// @Input: data = {0}, flag = {0}, nope = {-1}|' "$tmp/noparam.ptx"
expect 1 "$scopecat" kernel "$tmp/noparam.ptx"
has "$tmp/err" "$tmp/noparam.ptx:1:36: expected a parameter of _Z2mpPiS_S_ (data, flag, out), found 'nope'"
expect 1 "$scopecat" kernel -input 'flag = {0}, x = 3' "$k/mp.ptx"
has "$tmp/err" "-input:1:13: expected a parameter of _Z2mpPiS_S_ (data, flag, out), found 'x'"
expect 1 "$scopecat" kernel -input 'flag = {0' "$k/mp.ptx"
has "$tmp/err" "-input:1:10: expected ',' or '}' closing the array, found the end of the line"
expect 1 "$scopecat" kernel -output 'forall (out[1] == 0)' "$k/mp.ptx"
has "$tmp/err" "-output:1:9: expected an element of out (out[0] to out[0]), found out[1]"
cp "$k/mp.ptx" "$tmp/badout.ptx"
sed -i 's|^// @Output: .*|// @Output: forall (out[0] = 1)|' "$tmp/badout.ptx"
expect 1 "$scopecat" kernel "$tmp/badout.ptx"
has "$tmp/err" "$tmp/badout.ptx:2:28: expected a comparison (==, !=, <, <=, > or >=), found '='"
# a scalar .shared variable is named without an index (s@cta0): one
# thread writes 1 to it, so the condition holds; with an index, or a name
# the kernel lacks, the error says which forms there are
cat >"$tmp/scalar.ptx" <<'EOF'
// @Config: 1, 1, 1
// @Output: forall (s@cta0 == 1)
.version 8.0
.target sm_90
.address_size 64
.visible .entry k()
{
	.shared .align 4 .u32 s;
	.reg .b32 %r<2>;
	mov.u32 %r1, 1;
	st.shared.u32 [s], %r1;
	ret;
}
EOF
expect 0 "$scopecat" kernel "$tmp/scalar.ptx"
has "$tmp/out" "Property assertion PASS"
expect 0 "$scopecat" kernel -output 'exists (s@cta0 == 0)' "$tmp/scalar.ptx"
has "$tmp/out" "Property assertion FAIL"
expect 1 "$scopecat" kernel -output 'forall (s@cta0[0] == 1)' "$tmp/scalar.ptx"
has "$tmp/err" "-output:1:9: expected s@cta0 without an index (a scalar), found s@cta0[0]"
expect 1 "$scopecat" kernel -output 'forall (t@cta0 == 1)' "$tmp/scalar.ptx"
has "$tmp/err" "-output:1:9: expected a location of the kernel (a parameter's element as A[0], a CTA's .shared variable as s@cta0, an element of a .shared array as s@cta0[0]), found t@cta0"
printf '// @Config: 1, 1, 100000000000000000000\n' >"$tmp/huge.ptx"
expect 1 "$scopecat" kernel "$tmp/huge.ptx"
has "$tmp/err" "$tmp/huge.ptx:1:19: expected a number of CTAs in 64 bits"
printf '// @Config: 32, 32, 64\n' >"$tmp/big.ptx"
expect 1 "$scopecat" kernel "$tmp/big.ptx"
has "$tmp/err" "$tmp/big.ptx:1:13: expected a grid of at most 256 threads (the -max-threads limit), found 32 x 32 x 64 = 65536"
expect 1 "$scopecat" kernel -config '1, 1, 0' "$k/mp.ptx"
has "$tmp/err" "-config:1:7: expected a number of CTAs (at least 1), found 0"
: >"$tmp/empty.ptx"
expect 1 "$scopecat" kernel "$tmp/empty.ptx"
has "$tmp/err" "$tmp/empty.ptx:1:1: expected a launch, '// @Config: X, Y, Z' (threads per warp, warps per CTA, CTAs) in the header or -config, found none"
expect 1 "$scopecat" kernel -config 1,1,1 "$tmp/empty.ptx"
expect 1 "$scopecat" kernel "$tmp/missing.ptx"
has "$tmp/err" "missing.ptx"
expect 2 "$scopecat" kernel -races -norace "$k/mp.ptx"
expect 2 "$scopecat" kernel
expect 2 "$scopecat" kernel -unroll x "$k/mp.ptx"
expect 0 "$scopecat" kernel -help
has "$tmp/out" "-output TEXT"
# a model without morally-strong: said, with the way out
expect 1 "$scopecat" kernel -model "$srcdir/cat/sc.cat" "$k/mp.ptx"
has "$tmp/err" "mp.ptx: the model does not define what ptx-race.cat reads (a PTX model's morally-strong and cause): -norace checks without races"
expect 0 "$scopecat" kernel -norace -model "$srcdir/cat/sc.cat" "$k/mp.ptx"
has "$tmp/out" "Property assertion PASS"

# ---- A batch: a file that fails lets the others run, in order -------------------
expect 1 "$scopecat" kernel "$k/mp.ptx" "$tmp/empty.ptx" "$tmp/noparam.ptx" "$k/mp-fence.ptx"
if [ "$(grep -c '^Test ' "$tmp/out")" -eq 2 ]; then ok; else fail "batch: expected 2 blocks"; cat "$tmp/out"; fi
if [ "$(grep '^Property assertion' "$tmp/out" | sed 's/:.*//' | tr '\n' '|')" = "Property assertion FAIL|Property assertion PASS|" ]; then ok
else fail "batch: the answers out of order"; cat "$tmp/out"; fi
has "$tmp/err" "empty.ptx:1:1: expected a launch"
has "$tmp/err" "noparam.ptx:1:36:"

finish
