#!/bin/sh
# verdicts.sh: scopecat reproduces the verdicts worked out by hand:
#   ptx/seeds/expected.txt          the paper's tests under cat/ptx-rmo.cat
#   ptx/herd-gpu-ptx-expected.txt   herd's corpus under herd's ptx-2015.cat
#   tests/data/co/lock-exch.litmus  a lock never released: States 0 said to
#                                   be the unroll bound's, -liveness's Pass
#                                   said not to cover its loop
# (the reasoning for each is in the *-reasoning.md files beside them).
# A verdict is Allowed when some allowed execution satisfies the condition.
set -u
srcdir=${SC_SRCDIR:-.}
scopecat=${SC_SCOPECAT:-./tools/scopecat}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

# compare EXPECTED GOT: one "key<TAB>verdict" line per test in each
compare() {
  sort "$1" >"$tmp/want"
  sort "$2" >"$tmp/got"
  while IFS="$(printf '\t')" read -r key want; do
    got=$(awk -F'\t' -v k="$key" '$1 == k { print $2 }' "$tmp/got")
    if [ "$got" = "$want" ]; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
      echo "FAIL: $key: expected $want, scopecat says ${got:-nothing}"
    fi
  done <"$tmp/want"
}

verdict() { awk '/^Observation/ { print ($4 > 0 ? "Allowed" : "Forbidden") }'; }

# the seeds, by test name, under the default model (ptx-rmo.cat)
"$scopecat" -nohash "$srcdir/ptx/seeds" >"$tmp/seeds.log" || failed=$((failed + 1))
awk '/^Observation/ { print $2 "\t" ($4 > 0 ? "Allowed" : "Forbidden") }' \
  "$tmp/seeds.log" >"$tmp/seeds.got"
compare "$srcdir/ptx/seeds/expected.txt" "$tmp/seeds.got"

# herd's corpus, by file name (names repeat), under herd's own model, with
# two tests at a time to exercise -j
: >"$tmp/herd.got"
for f in "$srcdir"/ptx/herd-gpu-ptx/*.litmus; do
  v=$("$scopecat" -j 2 -model "$srcdir/cat/corpus/ptx-2015.cat" "$f" | verdict)
  printf '%s\t%s\n' "$(basename "$f")" "$v" >>"$tmp/herd.got"
done
compare "$srcdir/ptx/herd-gpu-ptx-expected.txt" "$tmp/herd.got"

# an atom.exch lock never released (tests/data/co/lock-exch.litmus, worked
# out in its comment): States 0 with the Unroll line last in the block (the
# cut runs; after Hash, in the "Word NAME ..." shape herd's log reader
# skips); -liveness says Pass and that the loop, which writes at each turn,
# is not checked
check() { if eval "$1"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; cat "$tmp/lock.out"; fi; }
lock="$srcdir/tests/data/co/lock-exch.litmus"
"$scopecat" -model "$srcdir/cat/sc.cat" "$lock" >"$tmp/lock.out" 2>&1
check 'grep -qx "States 0" "$tmp/lock.out"'
check 'grep -qx "Unroll lock-exch the -unroll bound cut 2 runs of threads P0 P1: no execution within the bound (States 0), not none at all" "$tmp/lock.out"'
check '[ "$(tail -n 2 "$tmp/lock.out" | head -n 1 | cut -c1-7)" = "Unroll " ]'
"$scopecat" -json -model "$srcdir/cat/sc.cat" "$lock" >"$tmp/lock.out" 2>&1
check 'grep -qF "\"unroll_cut\":{\"runs\":2,\"threads\":[\"P0\",\"P1\"]}" "$tmp/lock.out"'
# the loser turns for ever, reading its own last 1: a recurrence, Fail
"$scopecat" -liveness -model "$srcdir/cat/sc.cat" "$lock" >"$tmp/lock.out" 2>&1
check '[ "$(cat "$tmp/lock.out")" = "Liveness lock-exch Fail" ]'
# with -unroll 0 no second turn runs: the loop is not checked, and says so
"$scopecat" -liveness -unroll 0 -model "$srcdir/cat/sc.cat" "$lock" >"$tmp/lock.out" 2>&1
check 'grep -qx "Liveness lock-exch Pass" "$tmp/lock.out"'
check 'grep -qx "Unchecked lock-exch the loop of P0 closed at line 15 writes at each turn: -liveness does not check such loops" "$tmp/lock.out"'
"$scopecat" -liveness -unroll 0 -json -model "$srcdir/cat/sc.cat" "$lock" >"$tmp/lock.out" 2>&1
check 'grep -qF "\"unchecked_loop\":{\"thread\":\"P0\",\"line\":15}" "$tmp/lock.out"'

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
