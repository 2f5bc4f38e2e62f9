#!/bin/sh
# verdicts.sh: scopecat reproduces the verdicts worked out by hand:
#   ptx/seeds/expected.txt          the paper's tests under cat/ptx-rmo.cat
#   ptx/herd-gpu-ptx-expected.txt   herd's corpus under herd's ptx-2015.cat
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

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
