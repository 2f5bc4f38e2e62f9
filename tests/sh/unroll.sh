#!/bin/sh
# unroll.sh: -unroll past herd7's default on a loop whose iterations repeat
# a state (lib/sim/sem.c cuts them past the second backward jump).
# data/spinlock.litmus: two threads take a spin lock (atom.cas acquire,
# retried while it reads 1), add 1 to x, release it (st.release); each
# failed cas reads only and leaves the registers as they were.  Under
# -unroll 2 the runs are herd7's, so its States are the reference: under
# -unroll 10, 15, 20 and 40 each model must give the same States and the
# same verdict.  Worked out by hand: the PTX models (release/acquire at gpu
# scope, the cas atomic) and the SC models (herd's sc.cat, and cat/sc.cat:
# coherence and rmw atomicity over herd's total co, so one cas fails while
# the other holds the lock) leave x only at 2; rmo.cat and ptx-rmo.cat do
# not order the plain accesses of x after the cas (they know no .acquire
# nor .release) and herd's uni.cat and uniproc.cat give only coherence:
# x=1 too.
# Each run stays far from the -timeout (before the cut, -unroll 20 took
# minutes).  -liveness is unchanged by the cut (its spin runs are per
# iteration): the same verdict under -unroll 2 and 4.  A loop of no
# events under -unroll 2000000000 ends at once.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

spin="$srcdir/tests/data/spinlock.litmus"

# states MODEL UNROLL: the States block and verdict into $tmp/MODEL-UNROLL
states() {
  out="$tmp/$(basename "$1" .cat)-$2"
  expect 0 "$scopecat" sim -nohash -timeout 60 -model "$1" -unroll "$2" "$spin"
  awk '/^States /, /^(Ok|No)$/' "$tmp/out" >"$out"
}

# check MODEL STATES...: the States under -unroll 2 are STATES (x=...;
# lines), and under every larger -unroll in $unrolls the same
unrolls="10 15 20 40"
check() {
  model=$1
  shift
  name=$(basename "$model" .cat)
  states "$model" 2
  printf 'States %d\n' $# >"$tmp/want"
  printf '%s\n' "$@" >>"$tmp/want"
  if head -n $(($# + 1)) "$tmp/$name-2" | cmp -s - "$tmp/want"; then ok; else
    fail "$model: -unroll 2 States are not: $*"; cat "$tmp/$name-2"
  fi
  for u in $unrolls; do
    states "$model" "$u"
    if cmp -s "$tmp/$name-2" "$tmp/$name-$u"; then ok; else
      fail "$model: -unroll $u differs from -unroll 2"
      diff "$tmp/$name-2" "$tmp/$name-$u"
    fi
  done
}

check "$srcdir/cat/ptx-v7.5.cat" "x=2;"
check "$srcdir/cat/ptx-v6.0.cat" "x=2;"
check "$srcdir/cat/sc.cat" "x=2;"
check "$srcdir/cat/rmo.cat" "x=1;" "x=2;"
check "$srcdir/cat/ptx-rmo.cat" "x=1;" "x=2;"
# herd's models build co with `with co from generate_cos(...)`, whose S the
# gate cannot see into: no cut, full unrolling as herd7, so small bounds
unrolls="3 4"
check "$srcdir/tests/data/herd/sc.cat" "x=2;"
check "$srcdir/tests/data/herd/uni.cat" "x=1;" "x=2;"
check "$srcdir/tests/data/herd/uniproc.cat" "x=1;" "x=2;"
unrolls="10 15 20 40"

# the verdict of -liveness: a thread may spin for ever only while the
# other holds the lock, which it releases: Pass, whatever the bound
for u in 2 4; do
  expect 0 "$scopecat" sim -liveness -model "$srcdir/cat/ptx-v7.5.cat" -unroll "$u" "$spin"
  has "$tmp/out" "Liveness spinlock Pass"
done

# a loop of no events that changes nothing (goto to itself) under
# -unroll 2000000000: its every run is cut at the third jump, at once
# (before: two billion jumps, 100 s past a 1 s -timeout, then a result);
# no run completes, so no state
printf 'PTX empty\n{ x=0; }\n P0@cta 0,gpu 0 ;\n LC0: ;\n goto LC0 ;\nexists (x=0)\n' \
  >"$tmp/empty.litmus"
start=$(date +%s)
expect 0 "$scopecat" sim -timeout 1 -unroll 2000000000 "$tmp/empty.litmus"
took=$(($(date +%s) - start))
if [ "$took" -le 5 ]; then ok; else fail "the empty loop took ${took}s"; fi
has "$tmp/out" "States 0"


# The cut stands for a shorter run: the longer one's execution with a
# repeated iteration's reads and fences taken out.  A model that forbids
# the shorter run where it allowed the longer keeps full unrolling.
# spin-mp: P0 spins on flag (ld.acquire, an iteration of one read that
# repeats a state) until it reads P1's release, then reads x.  Under SC
# (the first check) P0 reads flag=0 k times, then 1, then x=1.  The second
# check asks for k >= 3 (five reads in P0, or each relaxed read after four
# acquire reads): -unroll 2 keeps k <= 2, no execution; -unroll 3 and 4
# reach k = 3: the state 0:r1=1, as herd7's unrolling finds it (the cut,
# applied to these models, lost it: States 0).
printf 'PTX spin-mp\n{ x=0; flag=0; P0:r0=0; P0:r1=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n LC00: | st.relaxed.gpu x, 1 ;\n ld.acquire.gpu r0, flag | st.release.gpu flag, 1 ;\n bne r0, 1, LC00 | ;\n ld.relaxed.gpu r1, x | ;\nexists (P0:r1=1)\n' \
  >"$tmp/spin-mp.litmus"
printf '"SC, and a thread reads five times"\nacyclic po | rf | co | fr as sc\n~empty [R];po;[R];po;[R];po;[R];po;[R] as five-reads\n' \
  >"$tmp/negated.cat"
printf '"SC, and each relaxed read follows four acquire reads"\nacyclic po | rf | co | fr as sc\nempty (R & RLX) \\ range([R & ACQ];po;[R & ACQ];po;[R & ACQ];po;[R & ACQ];po) as four-acquires\n' \
  >"$tmp/difference.cat"
for model in negated difference; do
  expect 0 "$scopecat" sim -nohash -model "$tmp/$model.cat" -unroll 2 "$tmp/spin-mp.litmus"
  has "$tmp/out" "States 0"
  for u in 3 4; do
    expect 0 "$scopecat" sim -nohash -model "$tmp/$model.cat" -unroll "$u" "$tmp/spin-mp.litmus"
    awk '/^States /, /^(Ok|No)$/' "$tmp/out" >"$tmp/got"
    printf 'States 1\n0:r1=1;\nOk\n' >"$tmp/want"
    if cmp -s "$tmp/got" "$tmp/want"; then ok; else
      fail "$model.cat -unroll $u: States are not 0:r1=1"; cat "$tmp/got"
    fi
  done
done

# A loop of no events under -unroll 2000000000: the trace search looks at
# the clock, so -timeout 1 ends it with the timeout error (before: minutes,
# then a result and exit 0).
printf 'PTX counter\n{ x=0; P0:r0=0; }\n P0@cta 0,gpu 0 ;\n LC0: ;\n add r0, r0, 1 ;\n goto LC0 ;\nexists (x=0)\n' \
  >"$tmp/counter.litmus"
start=$(date +%s)
expect 1 "$scopecat" sim -timeout 1 -unroll 2000000000 "$tmp/counter.litmus"
has "$tmp/err" "(the -timeout limit)"
if [ $(($(date +%s) - start)) -le 10 ]; then ok; else fail "counter: -timeout 1 took over 10 s"; fi

finish
