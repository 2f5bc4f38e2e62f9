#!/bin/sh
# speedcheck.sh: herd7's -speedcheck true and fast against the full run
# (false).  On the seeds, ptx/herd-gpu-ptx and ptx/dat3m's Nvidia tests
# (exists, ~exists and forall conditions): the verdict (Ok/No) is the full
# run's; true lists exactly the full run's states that decide the condition
# (the proposition holds, or fails for forall) with the same counts, the
# other count 0; fast lists at most one of them and counts 1 exactly when
# there is one.  Then herd's block in that mode, worked out from herd's
# top_herd.ml (observation, check_wit) for three hand-checked tests.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

seeds="$srcdir/ptx/seeds"
set -- "$seeds"/*.litmus "$srcdir"/ptx/herd-gpu-ptx/*.litmus \
  "$srcdir"/ptx/dat3m/Nvidia/*.litmus "$srcdir"/ptx/dat3m/Nvidia/*/*.litmus
for mode in false true fast; do
  "$scopecat" sim -json -nohash -speedcheck "$mode" -timeout 300 "$@" \
    >"$tmp/$mode.json" 2>"$tmp/$mode.err"
done

# One line per test: file, validated, the number of states, then the
# states with their counts (those that decide, for the full run).
summary() { # MODE
  awk -v mode="$1" '
    function field(k,   m) {
      if (!match($0, "\"" k "\":[^,]*")) return "";
      m = substr($0, RSTART + length(k) + 3, RLENGTH - length(k) - 3)
      gsub(/"/, "", m); return m
    }
    {
      q = field("quantifier"); rest = $0; states = ""; n = 0
      while (match(rest, /\{"values":\{[^}]*\},"count":[0-9]+,"holds":(true|false)\}/)) {
        s = substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH)
        holds = s ~ /"holds":true/
        decides = (q == "forall") ? !holds : holds
        if (mode != "false" || decides) { states = states " " s; n++ }
      }
      print field("file"), field("validated"), n, states
    }' "$tmp/$1.json"
}
summary false >"$tmp/full"
summary true >"$tmp/true"
if cmp -s "$tmp/full" "$tmp/true"; then ok; else
  fail "-speedcheck true differs from the full run's deciding states"
  diff "$tmp/full" "$tmp/true" | head -10
fi
[ "$(wc -l <"$tmp/full")" -ge 100 ] && ok || fail "only $(wc -l <"$tmp/full") tests ran"
# true: the other count is 0, the Observation word herd's speedcheck one
awk '{ q = $0; sub(/.*"quantifier":"/, "", q); sub(/".*/, "", q)
       p = $0; sub(/.*"positive":/, "", p); sub(/,.*/, "", p)
       n = $0; sub(/.*"negative":/, "", n); sub(/,.*/, "", n)
       o = $0; sub(/.*"observation":"/, "", o); sub(/".*/, "", o)
       if (q == "forall") want = (n == 0) ? "Always" : "Sometimes"
       else want = (p == 0) ? "Never" : "Sometimes"
       if ((q == "forall" ? p : n) != 0 || o != want) { print "bad:", $0; bad = 1 } }
     END { exit bad }' "$tmp/true.json" && ok || fail "-speedcheck true counts or words"
# fast: the full verdict, at most one deciding state, and one exactly when
# the full run has one
join_fast() {
  awk 'NR == FNR { full[$1] = $2 " " ($3 > 0); states[$1] = $0; next }
       { values = $4; sub(/,"count".*/, "", values)
         if (full[$1] != $2 " " ($3 > 0) || $3 > 1) { print "bad:", $0; bad = 1 }
         else if ($3 == 1 && index(states[$1], values) == 0) { print "not a full state:", $0; bad = 1 } }
       END { exit bad }' "$tmp/full" "$tmp/fast"
}
summary fast >"$tmp/fast"
join_fast && ok || fail "-speedcheck fast against the full run"
for mode in true fast; do
  if [ "$(wc -l <"$tmp/$mode.json")" -eq "$(wc -l <"$tmp/false.json")" ]; then ok; else
    fail "$mode: $(wc -l <"$tmp/$mode.json") tests, not $(wc -l <"$tmp/false.json")"; fi
done

# herd's block, hand-checked.  coRR under ptx-rmo.cat: 4 allowed
# executions, the proposition holds in one: fast stops there.
expect 0 "$scopecat" sim -nohash -speedcheck fast "$seeds/coRR.litmus"
grep -v '^Time ' "$tmp/out" >"$tmp/got"
printf '%s\n' 'Test coRR Allowed' 'States 1' '1:r1=1; 1:r2=0;' 'Ok' 'Witnesses' \
  'Positive: 1 Negative: 0' 'Condition exists (1:r1=1 /\ 1:r2=0)' \
  'Observation coRR Sometimes 1 0' '' >"$tmp/want"
if cmp -s "$tmp/want" "$tmp/got"; then ok; else fail "coRR fast block"; diff "$tmp/want" "$tmp/got"; fi
# a ~exists test (herd: Test ... Forbidden, Witnesses swapped by
# check_wit): Proxy-MP-cta-synonym28 allows 3 states, none where the
# proposition holds; under true none is counted: Ok, Never 0 0.
px="$srcdir/ptx/dat3m/Nvidia/proxy/Proxy-MP-cta-synonym28.litmus"
expect 0 "$scopecat" sim -nohash "$px"
has "$tmp/out" "Test Proxy-MP-cta-synonym28 Forbidden"
has "$tmp/out" "Positive: 3 Negative: 0"
has "$tmp/out" "Observation Proxy-MP-cta-synonym28 Never 0 3"
expect 0 "$scopecat" sim -nohash -speedcheck true "$px"
grep -v '^Time ' "$tmp/out" >"$tmp/got"
printf '%s\n' 'Test Proxy-MP-cta-synonym28 Forbidden' 'States 0' 'Ok' 'Witnesses' \
  'Positive: 0 Negative: 0' 'Condition ~exists (1:r0=1 /\ 1:r1!=2)' \
  'Observation Proxy-MP-cta-synonym28 Never 0 0' '' >"$tmp/want"
if cmp -s "$tmp/want" "$tmp/got"; then ok; else fail "~exists true block"; diff "$tmp/want" "$tmp/got"; fi
# a forall test: SB-cta's 4 states all satisfy it, none decides: Always 0 0
expect 0 "$scopecat" sim -nohash -speedcheck true "$srcdir/ptx/dat3m/Nvidia/SB-cta.litmus"
has "$tmp/out" "Test SB-cta Required"
has "$tmp/out" "States 0"
has "$tmp/out" "Positive: 0 Negative: 0"
has "$tmp/out" "Observation SB-cta Always 0 0"
# usage
expect 2 "$scopecat" sim -speedcheck slow "$seeds/coRR.litmus"
has "$tmp/err" "-speedcheck expects false, true or fast, found 'slow'"

finish
