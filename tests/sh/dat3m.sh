#!/bin/sh
# dat3m.sh: scopecat reproduces Dat3M's verdicts on its PTX corpus:
#   ptx/dat3m/expected/PTXv6_0-expected.csv  under cat/ptx-v6.0.cat (the
#                                            default model of these tests)
#   ptx/dat3m/expected/PTXv7_5-expected.csv  under cat/ptx-v7.5.cat
# and Dat3M's liveness verdicts (sim -liveness), line for line:
#   ptx/dat3m/expected/PTXv6_0-Liveness-expected.csv  under cat/ptx-v6.0.cat
#   ptx/dat3m/expected/PTXv7_5-Liveness-expected.csv  under cat/ptx-v7.5.cat
# Verdict 1 is herd's Ok (the condition is validated), 0 is No.  A line on
# which scopecat is sure the CSV errs is listed, with the execution that
# proves it, in ptx/dat3m/expected/exceptions.md: such a line must keep
# disagreeing, every other line must agree.  Also checks that the bundled
# models are Dat3M's files byte for byte, but for their provenance line.
set -u
srcdir=${SC_SRCDIR:-.}
scopecat=${SC_SCOPECAT:-./tools/scopecat}
expected="$srcdir/ptx/dat3m/expected"
jobs=$(nproc 2>/dev/null || echo 2)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# the bundled models, against the corpus copies
for v in v6.0 v7.5; do
  if sed 2d "$srcdir/cat/ptx-$v.cat" | cmp -s - "$srcdir/cat/corpus/ptx-$v.cat"; then
    passed=$((passed + 1))
  else
    fail "cat/ptx-$v.cat differs from cat/corpus/ptx-$v.cat beyond its line 2"
  fi
done

# The exceptions: "| CSV | test | CSV verdict | scopecat verdict | ... |"
# rows of the table in exceptions.md, e.g. "| PTXv6_0 | Manual/X.litmus | 1 | 0 |".
grep '^| PTXv' "$expected/exceptions.md" 2>/dev/null |
  awk -F'|' '{ gsub(/[ `]/, "", $2); gsub(/[ `]/, "", $3); gsub(/ /, "", $5);
               print $2 "," $3 "," $5 }' >"$tmp/exceptions"

# run CSV [MODEL]: every test of the CSV, in order; a test that fails to
# run counts as a disagreement
run() {
  csv=$1
  shift
  grep -v '^$' "$expected/$csv-expected.csv" | sed 's|^litmus/PTX/||' >"$tmp/$csv.list"
  files=$(cut -d, -f1 "$tmp/$csv.list" | sed "s|^|$srcdir/ptx/dat3m/|")
  # shellcheck disable=SC2086 # one word per file
  "$scopecat" -nohash -j "$jobs" "$@" $files >"$tmp/$csv.log" 2>"$tmp/$csv.err"
  if [ -s "$tmp/$csv.err" ]; then
    fail "$csv: scopecat reported errors:"
    cat "$tmp/$csv.err"
  fi
  # the blocks in order: name and verdict
  awk '/^Test / { name = $2 } /^(Ok|No)$/ { print name, ($1 == "Ok" ? 1 : 0) }' \
    "$tmp/$csv.log" >"$tmp/$csv.got"
  n=0
  while IFS=, read -r path want; do
    name=$(head -1 "$srcdir/ptx/dat3m/$path" | awk '{ print $2 }')
    n=$((n + 1))
    line=$(sed -n "${n}p" "$tmp/$csv.got")
    if [ "${line% *}" != "$name" ]; then
      fail "$csv: $path: no verdict (expected test $name, found '${line% *}')"
      n=$((n - 1)) # its block is missing: the next file takes this line
      continue
    fi
    got=${line##* }
    listed=$(awk -F, -v c="$csv" -v p="$path" '$1 == c && $2 == p { print $3 }' \
      "$tmp/exceptions")
    if [ -n "$listed" ]; then
      if [ "$got" = "$want" ]; then
        fail "$csv: $path: listed as an exception, but now agrees ($got)"
      elif [ "$got" != "$listed" ]; then
        fail "$csv: $path: exceptions.md says scopecat says $listed, it says $got"
      else
        passed=$((passed + 1))
      fi
    elif [ "$got" = "$want" ]; then
      passed=$((passed + 1))
    else
      fail "$csv: $path: the CSV says $want, scopecat says $got"
    fi
  done <"$tmp/$csv.list"
}

run PTXv6_0
run PTXv7_5 -model "$srcdir/cat/ptx-v7.5.cat"

# liveness CSV MODEL [ARGS...]: `sim -liveness` over the CSV's tests, in
# order, under MODEL; 1 is Pass (no fair execution leaves a thread stuck),
# 0 Fail.  Both CSVs must agree line for line (no exceptions).
liveness() {
  csv=$1
  model=$2
  shift 2
  grep -v '^$' "$expected/$csv-Liveness-expected.csv" | sed 's|^litmus/PTX/||' \
    >"$tmp/$csv.live.list"
  files=$(cut -d, -f1 "$tmp/$csv.live.list" | sed "s|^|$srcdir/ptx/dat3m/|")
  # shellcheck disable=SC2086 # one word per file
  "$scopecat" -liveness -j "$jobs" -model "$srcdir/cat/$model" "$@" $files \
    >"$tmp/$csv.live.log" 2>"$tmp/$csv.live.err"
  if [ -s "$tmp/$csv.live.err" ]; then
    fail "$csv liveness: scopecat reported errors:"
    cat "$tmp/$csv.live.err"
  fi
  while IFS=, read -r path want; do
    name=$(head -1 "$srcdir/ptx/dat3m/$path" | awk '{ print $2 }')
    echo "Liveness $name $([ "$want" = 1 ] && echo Pass || echo Fail)"
  done <"$tmp/$csv.live.list" >"$tmp/$csv.live.want"
  n=$(wc -l <"$tmp/$csv.live.want")
  if [ "$n" -lt 91 ]; then
    fail "$csv liveness: expected the CSV's 91 tests, found $n"
  elif grep '^Liveness ' "$tmp/$csv.live.log" | cmp -s "$tmp/$csv.live.want" -; then
    passed=$((passed + n))
  else
    fail "$csv liveness: scopecat and the CSV disagree:"
    grep '^Liveness ' "$tmp/$csv.live.log" | diff "$tmp/$csv.live.want" - | head -20
  fi
}

liveness PTXv6_0 ptx-v6.0.cat
# a Pass whose runs the bound cut says so on a line of its own (4_simple:
# P0's spin goes round more than -unroll 2 allows on some path), searched
# again at -unroll 3, where the spin's third failed turn repeats the state
# and is cut (sem.c's live_repeat_cut: P0's one loop writes nothing), not
# bound: the Pass holds at every bound (it said the bound cut 1 run there)
if grep -qx 'Unroll 4_simple Pass at -unroll 3 (the bound 2 cut runs: searched again up to -liveness-unroll-max 3)' \
  "$tmp/PTXv6_0.live.log"; then
  passed=$((passed + 1))
else
  fail "PTXv6_0 liveness: no Unroll line after 4_simple's Pass"
fi
liveness PTXv7_5 ptx-v7.5.cat
# the verdicts do not hang on the unroll bound: a spin shows in its first
# iteration already (its live registers as at the head)
liveness PTXv6_0 ptx-v6.0.cat -unroll 0
liveness PTXv7_5 ptx-v7.5.cat -unroll 0

# CADP 2_simple ends (worked by hand): P1's first exchange reads 0 and
# writes 1, its second reads that 1 and leaves; P0's reads the 1 and
# leaves.  The 1 is written only by P1's runs that keep reading 0 and are
# cut by the unroll bound, whose writes must feed the values a read may
# take (without them: States 0, and the H100, where every instance ended,
# looked unsound)
for m in ptx-v6.0.cat ptx-v7.5.cat; do
  for e in enum smt; do
    [ $e = smt ] && ! "$scopecat" -engine smt -model "$srcdir/cat/$m" \
      "$srcdir/ptx/dat3m/CADP/2_threads_2_instructions/2_simple.litmus" >/dev/null 2>&1 &&
      continue # no Z3 in this build
    if "$scopecat" -engine $e -model "$srcdir/cat/$m" \
         "$srcdir/ptx/dat3m/CADP/2_threads_2_instructions/2_simple.litmus" 2>&1 |
         grep -q '^Ok$'; then
      passed=$((passed + 1))
    else
      fail "CADP 2_simple under $m, -engine $e: no execution ends"
    fi
  done
done

# an exception whose test is no longer in its CSV is stale
while IFS=, read -r csv path got; do
  grep -q "^litmus/PTX/$path," "$expected/$csv-expected.csv" ||
    fail "exceptions.md: $csv $path is not in $csv-expected.csv"
done <"$tmp/exceptions"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
