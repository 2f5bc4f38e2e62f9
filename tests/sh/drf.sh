#!/bin/sh
# drf.sh: `scopecat gpu drf` without a GPU: the checker on traces recorded
# on an H100 (tests/data/drf/), a stale value planted in one, malformed
# traces, the options, the generated program (compiled with nvcc where
# configure found it), and exit 77 without a GPU.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"
d="$srcdir/tests/data/drf"

# a clean trace (gpu drf -trace, H100, seed 3): every load checked, none wrong
expect 0 "$scopecat" gpu drf -check "$d/clean.trace"
has "$tmp/out" "Checked loads: $(grep -c '^load ' "$d/clean.trace") "
has "$tmp/out" "Mismatches: 0"
has "$tmp/out" "Verdict: PASS"
has "$tmp/out" "seed 3; inject none"

# plant a stale value: the first load that read another episode's store
# reads the initial value instead; its writer is named by the value itself
# (episode (v-1)/8, action (v-1)%8: 8 actions per episode)
set -- $(awk '$1 == "load" && $4 != 0 && int(($4 - 1) / 8) != $2 { print $2, $3, $4; exit }' "$d/clean.trace")
e=$1 a=$2 v=$3 we=$(( ($3 - 1) / 8 )) wa=$(( ($3 - 1) % 8 ))
sed "s/^load $e $a $v\$/load $e $a 0/" "$d/clean.trace" >"$tmp/stale.trace"
mkdir "$tmp/rep"
expect 1 "$scopecat" gpu drf -check "$tmp/stale.trace" -o "$tmp/rep"
has "$tmp/out" "Mismatches: 1"
has "$tmp/out" "episode $((e % 4)) of thread $((e / 4)) (CTA $((e / 32)), thread $((e / 4 % 8)) of it; global episode $e), action $a:"
has "$tmp/out" "seen     0: the initial value"
has "$tmp/out" "expected $v: stored by action $wa of episode $((we % 4)) of thread $((we / 4)) (CTA $((we / 32)), thread $((we / 4 % 8)) of it; global episode $we)"
has "$tmp/out" "Verdict: FAIL"
# the two episodes as a litmus test, which the model forbids
lit="$tmp/rep/drf-s3-e$e-a$a.litmus"
if [ -f "$lit" ]; then ok; else fail "no litmus test $lit"; ls "$tmp/rep"; fi
has "$tmp/out" "litmus: $lit: ptx-v6.0.cat forbids it"
has "$tmp/rep/drf.txt" "Mismatches: 1"
expect 0 "$scopecat" sim "$lit"
has "$tmp/out" "Observation drf-s3-e$e-a$a Never"

# a load moved after its release (-inject load-outside, H100): the GPU's own
# check found 417 wrong loads in this round; the host finds the same ones
expect 1 "$scopecat" gpu drf -check "$d/load-outside.trace" -o "$tmp/rep"
has "$tmp/out" "Mismatches: 417"
has "$tmp/out" "inject load-outside"
if grep '^Mismatch ' "$tmp/out" | grep -qv 'moved after the release'; then
  fail "a mismatch at a load that was not moved"; else ok; fi

# an episode that never acquired its lock (place -1): a forward-progress
# failure, named
grep -v '^load 5 ' "$d/clean.trace" | sed 's/^ticket 5 .*/ticket 5 -1/' >"$tmp/stuck.trace"
expect 1 "$scopecat" gpu drf -check "$tmp/stuck.trace" -o "$tmp/rep"
has "$tmp/out" "Forward progress (seed 3): episode 1 of thread 1 (CTA 0, thread 1 of it; global episode 5) did not acquire lock"
has "$tmp/out" "1 did not acquire in time"

# malformed traces: file:line:col
bad() { # bad LINE-TO-REPLACE-LINE-2 MESSAGE
  { sed -n 1,2p "$d/clean.trace"; printf '%s\n' "$1"; } >"$tmp/bad.trace"
  expect 1 "$scopecat" gpu drf -check "$tmp/bad.trace"
  has "$tmp/err" "$tmp/bad.trace:$2"
}
bad "ticket 64 0" "3:8: an episode number out of range"
bad "load 0 x 5" "3:8: expected an action number"
bad "lode 0 1 5" "3:1: expected params, ticket or load, not 'lode'"
bad "ticket 0 0 7" "3:12: unexpected '7'"
st=$(awk '$1 == "load" { l[$2 " " $3] = 1 } END { for (a = 0; a < 8; a++) if (!((0 " " a) in l)) { print a; exit } }' "$d/clean.trace")
bad "load 0 $st 1" "3:8: action $st of episode 0 is a store, not a load"
bad "params ctas 1" "3:1: a second params line"
printf 'params ctas 0 tpb 8\n' >"$tmp/bad.trace"
expect 1 "$scopecat" gpu drf -check "$tmp/bad.trace"
has "$tmp/err" "$tmp/bad.trace:1:13: a value of ctas out of range"
printf 'ticket 0 0\n' >"$tmp/bad.trace"
expect 1 "$scopecat" gpu drf -check "$tmp/bad.trace"
has "$tmp/err" "$tmp/bad.trace:1:7: ticket before the params line"
# an acquired episode whose loads are missing
grep -v '^load 0 ' "$d/clean.trace" >"$tmp/bad.trace"
expect 1 "$scopecat" gpu drf -check "$tmp/bad.trace"
has "$tmp/err" "$tmp/bad.trace:3:1: episode 0 acquired its lock but its load"
expect 1 "$scopecat" gpu drf -check "$tmp/no-such.trace"
has "$tmp/err" "no-such.trace: cannot read"

# options: checked before anything runs
expect 2 "$scopecat" gpu drf -vars 65
has "$tmp/err" "-vars: expected a number from 1 to 64, not '65'"
expect 2 "$scopecat" gpu drf -inject sometimes
has "$tmp/err" "-inject: expected none, release-relaxed"
expect 2 "$scopecat" gpu drf -locks 0 -cta-locks 0
has "$tmp/err" "-locks and -cta-locks are both 0"
expect 2 "$scopecat" gpu drf -loads 101
expect 2 "$scopecat" gpu drf some.litmus
has "$tmp/err" "unexpected argument 'some.litmus'"
expect 0 "$scopecat" gpu drf -help
has "$tmp/out" "-inject FAULT"

# the generated program; compiled for sm_90 when nvcc is there
expect 0 "$scopecat" gpu drf -gen "$tmp/gen"
has "$tmp/gen/drf.cu" '#include "drf_main.cuh"'
nvcc=${SC_NVCC:-}
if [ -n "$nvcc" ] && [ -x "$nvcc" ]; then
  if "$nvcc" -O3 -arch=sm_90 -std=c++17 -I "$srcdir/tools/gpu" \
       -o "$tmp/gen/drf" "$tmp/gen/drf.cu" >"$tmp/nvcc.out" 2>&1; then ok
  else fail "nvcc on the generated program"; cat "$tmp/nvcc.out"; fi
else
  echo "SKIP: no nvcc: the program is not compiled"
fi

# without a GPU: SKIP (77), as gpu run
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  expect 0 "$scopecat" gpu drf -n 1000000 -ctas 8
  has "$tmp/out" "Verdict: PASS"
else
  expect 77 "$scopecat" gpu drf -n 1000
  has "$tmp/err" "scopecat gpu drf: no GPU visible: SKIP"
fi
finish
