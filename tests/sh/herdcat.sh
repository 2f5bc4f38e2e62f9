#!/bin/sh
# herdcat.sh: herd's own model files (tests/data/herd/, herdtools7's libdir:
# uni.cat, uniproc.cat and sc.cat include cos.cat, whose instruction-level
# `if "cos-opt" ... else ... end` picks how co is generated) load and give
# the verdicts worked by hand below, under both branches; a test-written
# model shows which branch ran; each engine answers or says why not.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

herd="$srcdir/tests/data/herd"
seeds="$srcdir/ptx/seeds"

# coRR: r1 and r2 read x (init 0 or P0's 1): 4 rf choices, one co; r1=1,
# r2=0 is a cycle po-loc;fr;rf, so 3 executions, none satisfying.
# coWWW: 3 writes to x in po, 3! co orders, uniproc keeps the po one: 1
# execution, x=3.  sb: different locations, uniproc allows all 4.
for variant in "" "-variant cos-opt"; do
  for model in uni.cat uniproc.cat; do
    # shellcheck disable=SC2086 # $variant is two words or none
    expect 0 "$scopecat" sim $variant -model "$herd/$model" "$seeds/coRR.litmus" \
      "$herd/coWWW.litmus" "$seeds/sb.litmus"
    has "$tmp/out" "Observation coRR Never 0 3"
    has "$tmp/out" "Observation coWWW Never 0 1"
    has "$tmp/out" "Observation sb Sometimes 1 3"
    lacks "$tmp/out" "Flag"
  done
done

# the branch: only cos-ok-opt.cat binds rmwco
expect 0 "$scopecat" sim -model "$herd/cos-branch.cat" "$seeds/coRR.litmus"
lacks "$tmp/out" "Flag cos-ok-opt"
expect 0 "$scopecat" sim -variant cos-opt -model "$herd/cos-branch.cat" "$seeds/coRR.litmus"
has "$tmp/out" "Flag cos-ok-opt"

# with co from generate_cos(...) picks the candidate's own co: the same
# block, counts included, as uniproc written without cos.cat
printf '"plain"\nacyclic po-loc | fr | rf | co as uniproc\n' >"$tmp/plain.cat"
"$scopecat" sim -nohash -model "$tmp/plain.cat" "$seeds"/*.litmus "$herd/coWWW.litmus" 2>&1 |
  grep -v '^Time ' >"$tmp/plain.out"
"$scopecat" sim -nohash -model "$herd/uni.cat" "$seeds"/*.litmus "$herd/coWWW.litmus" 2>&1 |
  grep -v '^Time ' >"$tmp/uni.out"
if cmp -s "$tmp/plain.out" "$tmp/uni.out"; then ok; else
  fail "uni.cat and plain uniproc differ"; diff "$tmp/plain.out" "$tmp/uni.out" | head -20
fi

# herd's sc.cat (cos.cat, fences.cat, sm) gives the block of scopecat's
# cat/sc.cat, written from it without cos.cat, on every seed
"$scopecat" sim -nohash -model "$srcdir/cat/sc.cat" "$seeds"/*.litmus 2>&1 |
  grep -v '^Time ' >"$tmp/sc.out"
"$scopecat" sim -nohash -model "$herd/sc.cat" "$seeds"/*.litmus 2>&1 |
  grep -v '^Time ' >"$tmp/herd-sc.out"
if cmp -s "$tmp/sc.out" "$tmp/herd-sc.out" && grep -q '^Observation sb Never 0 3$' "$tmp/sc.out"
then ok; else
  fail "herd's sc.cat and cat/sc.cat differ"; diff "$tmp/sc.out" "$tmp/herd-sc.out" | head -20
fi

# the symbolic engine: `with co from S` (co the execution's own) is left to
# a concrete run of each execution the solver finds, herd's `try` is
# encoded: both engines give the same States, Ok/No, flags and conditions
# under every herd model here, both cos branches
if "$scopecat" sim -engine smt "$seeds/coRR.litmus" >/dev/null 2>&1; then
  verdicts() { grep -E '^(Test|States|Ok|No|Flag|Condition)|;$' "$1"; }
  for variant in "" "-variant cos-opt"; do
    for model in uni.cat uniproc.cat sc.cat; do
      for engine in enum smt; do
        # shellcheck disable=SC2086 # $variant is two words or none
        "$scopecat" sim -nohash $variant -engine $engine -model "$herd/$model" \
          "$seeds"/*.litmus "$herd/coWWW.litmus" >"$tmp/$engine.out" 2>&1
      done
      if [ "$(grep -c '^Test' "$tmp/smt.out")" -gt 20 ] &&
        verdicts "$tmp/enum.out" >"$tmp/enum.v" && verdicts "$tmp/smt.out" >"$tmp/smt.v" &&
        cmp -s "$tmp/enum.v" "$tmp/smt.v"; then ok; else
        fail "engines differ under $model $variant"; diff "$tmp/enum.v" "$tmp/smt.v" | head -10
      fi
    done
  done

  # the membership is what the concrete run decides: co must follow po
  # (with co from generate_cos(po-loc on writes | co0)), so coWWW ends
  # with x=3 only and no co runs against po (the flag); without the
  # `with`, the same flag and all three values (hand-worked)
  printf '"co after po"\ninclude "cross.cat"\nwith co from generate_cos((po-loc & (W * W)) | co0)\nflag ~empty (co & (po-loc^-1)) as against-po\n' >"$tmp/copo.cat"
  printf '"co any"\nflag ~empty (co & (po-loc^-1)) as against-po\n' >"$tmp/coany.cat"
  for engine in enum smt; do
    expect 0 "$scopecat" sim -engine $engine -I "$herd" -model "$tmp/copo.cat" "$herd/coWWW.litmus"
    has "$tmp/out" "States 1"
    has "$tmp/out" "x=3;"
    lacks "$tmp/out" "Flag against-po"
    expect 0 "$scopecat" sim -engine $engine -through invalid -I "$herd" \
      -model "$tmp/copo.cat" "$herd/coWWW.litmus"
    has "$tmp/out" "States 3" # kept, not allowed: no flag
    lacks "$tmp/out" "Flag against-po"
    expect 0 "$scopecat" sim -engine $engine -model "$tmp/coany.cat" "$herd/coWWW.litmus"
    has "$tmp/out" "States 3"
    has "$tmp/out" "Flag against-po"
  done
  # S empty: no execution is one of its runs
  printf '"none"\nwith co from {}\n' >"$tmp/none.cat"
  expect 0 "$scopecat" sim -engine smt -model "$tmp/none.cat" "$herd/coWWW.litmus"
  has "$tmp/out" "States 0"

  # over a name the model binds it is not encoded: it says where, and
  # auto enumerates
  printf '"own"\nwith s from {po}\nacyclic s\n' >"$tmp/own.cat"
  expect 1 "$scopecat" sim -engine smt -model "$tmp/own.cat" "$seeds/coRR.litmus"
  has "$tmp/err" "own.cat:2:1: the symbolic engine cannot encode 'with s from ...' over a name the model binds"
  expect 0 "$scopecat" sim -engine auto -model "$tmp/own.cat" "$seeds/coRR.litmus"
  has "$tmp/out" "Observation coRR Sometimes 1 3"
fi

# a malformed instruction-level if: its position, the others still run
printf '"bad"\nif "cos-opt" let x = po\nacyclic po\n' >"$tmp/bad.cat"
expect 1 "$scopecat" sim -model "$tmp/bad.cat" "$seeds/coRR.litmus"
has "$tmp/err" "bad.cat:4:1: expected 'end' closing the 'if' at 2:1, found end of file"

finish
