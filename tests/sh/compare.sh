#!/bin/sh
# compare.sh: end-to-end checks of `scopecat compare`: the GTX TITAN logs
# under every bundled model against the verdicts worked out by hand
# (ptx/results/titan/expected-compare.txt), exit statuses (0 all sound,
# 3 UNSOUND, 1 something could not be compared (whatever else was found),
# 2 bad usage), malformed
# logs in a batch, merging logs of one test, -verdicts, -html; readers that
# refuse what they cannot read (empty logs, damaged trailers, Hangs lines,
# values and names the test does not have, sums past a long), the labels
# and per-test defaults (-v), -tests folders holding other architectures.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

titan="$srcdir/ptx/results/titan"
tests="$srcdir/ptx"
herd="$srcdir/ptx/herd-gpu-ptx"

# ---- usage --------------------------------------------------------------------
expect 2 "$scopecat" compare
expect 2 "$scopecat" compare -frob "$titan"
has "$tmp/err" "unknown option '-frob'"
expect 2 "$scopecat" compare -timeout soon "$titan"
expect 0 "$scopecat" compare -help
has "$tmp/out" "-verdicts LOG"
has "$tmp/out" "3 some test UNSOUND"
expect 0 "$scopecat" -help
has "$tmp/out" "compare   compare hardware histograms"

# ---- the TITAN logs under each bundled model, against the hand-worked file ----
# The table's rows name the log when several tests share a name (all of them
# do here): "CoRR [IRIW_uniproc__IRIW_uniproc.txt]  100002  47  0  43  sound".
for model in ptx-rmo.cat rmo.cat sc.cat ptx-2015.cat; do
  m=$model
  [ "$model" = ptx-2015.cat ] && m="$srcdir/cat/corpus/ptx-2015.cat"
  expect 0 "$scopecat" compare -tests "$tests" -model "$m" "$titan"
  sed -n 's/^[^ ]* \[\([^]]*\)\] *[0-9]* *\([0-9]*\) *\([0-9]*\) *\([0-9]*\) *\([a-zA-Z]*\)$/\1	\5	\2	\3	\4/p' \
    "$tmp/out" | sort >"$tmp/got"
  awk -F'\t' -v m="$model" '$1 == m { print $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6 }' \
    "$titan/expected-compare.txt" | sort >"$tmp/want"
  if [ -s "$tmp/want" ] && cmp -s "$tmp/got" "$tmp/want"; then ok; else
    fail "compare under $model differs from expected-compare.txt"; diff "$tmp/want" "$tmp/got"
  fi
done
# the default model is ptx-rmo.cat; the names that repeat are flagged
expect 0 "$scopecat" compare -tests "$tests" "$titan"
has "$tmp/out" "Model ptx-rmo.cat: PTX RMO per scope (ASPLOS'15 Figs. 15-16) (the default)"
has "$tmp/out" "total: 6 tests: 6 sound, 0 UNSOUND, 0 without a verdict; 600008 instances, 122 outcomes observed, 0 forbidden (0 instances)"
has "$tmp/out" "note: 4 different tests are named CoRR"
has "$tmp/out" "note: 2 different tests are named IRIW"
# several models: one table each
expect 0 "$scopecat" compare -tests "$tests" -model sc.cat -model rmo.cat "$titan"
n=$(grep -c '^Model ' "$tmp/out")
if [ "$n" -eq 2 ]; then ok; else fail "$n tables for 2 models"; fi
# without -tests, the logs' tests cannot be completed: file:line, exit 1
expect 1 "$scopecat" compare "$titan/RWC_uniproc__RWC_uniproc.txt"
has "$tmp/err" "RWC_uniproc__RWC_uniproc.txt:9:10: expected a declared register of thread 0"
has "$tmp/err" "without its initial state ({}), and no candidate test of that name completes it"
has "$tmp/err" "(give -tests DIR)"

# ---- UNSOUND: a log showing what the model forbids --------------------------------
# MP+membar.gls: the membar.gl fences forbid 1:r0=1 /\ 1:r2=0 (ptx-rmo.cat);
# a log without the test's source is matched by name.
cat >"$tmp/mp.txt" <<'EOF'
Test MP+membar.gls Allowed
Histogram (4 states)
50    :>1:r0=0; 1:r2=0;
20    :>1:r0=0; 1:r2=1;
3     *>1:r0=1; 1:r2=0;
27    :>1:r0=1; 1:r2=1;
Ok

Witnesses
Positive: 3, Negative: 97
Condition exists (1:r0=1 /\ 1:r2=0) is validated
Observation MP+membar.gls Sometimes 3 97
EOF
expect 3 "$scopecat" compare -tests "$herd" "$tmp/mp.txt"
has "$tmp/out" "MP+membar.gls        100         4          1       0  UNSOUND"
has "$tmp/out" "UNSOUND MP+membar.gls: observed outcomes the model forbids:"
has "$tmp/out" "          3  1:r0=1; 1:r2=0;"
# -detail lists every outcome, allowed or FORBIDDEN
expect 3 "$scopecat" compare -detail -tests "$herd" "$tmp/mp.txt"
has "$tmp/out" "         27  allowed   1:r0=1; 1:r2=1;"
has "$tmp/out" "          3  FORBIDDEN 1:r0=1; 1:r2=0;  *"
# under a model without the fences' constraints it is sound
printf '"anything goes"\n' >"$tmp/none.cat"
expect 0 "$scopecat" compare -tests "$herd" -model "$tmp/none.cat" "$tmp/mp.txt"
# an incomplete comparison exits 1, even when it found something UNSOUND
expect 1 "$scopecat" compare -tests "$herd" "$tmp/mp.txt" "$srcdir/tests/data/malformed/logs/bad-count.txt"
has "$tmp/out" "UNSOUND MP+membar.gls"

# ---- malformed logs: file:line messages, the others still compared ----------------
expect 1 "$scopecat" compare -tests "$herd" "$srcdir/tests/data/malformed/logs" \
  "$titan/RWC_uniproc__RWC_uniproc.txt"
has "$tmp/err" "truncated-histogram.txt:5:1: expected 4 states after line 2, found 2 before 'Ok' (the histogram is truncated)"
has "$tmp/err" "end-of-file.txt:5:1: expected 4 states after line 2, found 2 before the end of file"
has "$tmp/err" "bad-count.txt:4:1: expected a count (a number) before ':>', found '12x4'"
has "$tmp/err" "unknown-line.txt:4:1: expected a state 'COUNT :>VARIABLE=VALUE; ...', found 'kernel launch failed"
has "$tmp/err" "missing-test-line.txt:1:1: expected a Test line before the states, found 'Histogram (2 states)'"
has "$tmp/err" "bad-witnesses.txt:10:1: expected Positive + Negative to equal the histogram's 10000 instances, found 5 + 9000"
has "$tmp/out" "CoRR     100000        15          0       8  sound"
# a herd7 log given as a hardware log
"$scopecat" sim -nohash "$herd/sb.litmus" >"$tmp/sb-herd.log"
expect 1 "$scopecat" compare -tests "$herd" "$tmp/sb-herd.log"
has "$tmp/err" "sb-herd.log:1:1: expected a histogram, found herd7's States (give a model's log with -verdicts)"
expect 1 "$scopecat" compare "$tmp/missing.txt"
has "$tmp/err" "missing.txt: no such file or directory"

# ---- several logs of one test merge, a column per source (folder) ------------------
mkdir "$tmp/rerun"
cp "$titan/RWC_uniproc__RWC_uniproc.txt" "$tmp/rerun/"
expect 0 "$scopecat" compare -tests "$tests" "$titan" "$tmp/rerun"
has "$tmp/out" "instances      titan      rerun  outcomes"
has "$tmp/out" "CoRR [RWC_uniproc__RWC_uniproc.txt]           200000     100000     100000        15          0       8  sound"
has "$tmp/out" "total: 6 tests:"

# ---- -verdicts: a herd7 log of the model instead of running it -------------------
"$scopecat" sim -model sc.cat "$herd" "$titan/tests" >"$tmp/sc.log"
expect 0 "$scopecat" compare -tests "$tests" -verdicts "$tmp/sc.log" "$titan"
has "$tmp/out" "sc.log (a herd7 log)"
sed -n 's/^[^ ]* \[\([^]]*\)\] *[0-9]* *\([0-9]*\) *\([0-9]*\) *\([0-9]*\) *\([a-zA-Z]*\)$/sc.cat	\1	\5	\2	\3	\4/p' \
  "$tmp/out" | sort >"$tmp/got"
grep '^sc\.cat	' "$titan/expected-compare.txt" | sort >"$tmp/want"
if cmp -s "$tmp/got" "$tmp/want"; then ok; else fail "-verdicts differs from running sc.cat"; diff "$tmp/want" "$tmp/got"; fi
# the names repeat, so without the tests (and their Hash=) there is no verdict
expect 1 "$scopecat" compare -verdicts "$tmp/sc.log" "$titan"
has "$tmp/out" "no verdict for CoRR [RWC_uniproc__RWC_uniproc.txt]: several tests are named CoRR"
# a name that is unique needs no test file
"$scopecat" sim -model sc.cat "$herd/mp+membar.gls.litmus" >"$tmp/mp-sc.log"
expect 3 "$scopecat" compare -verdicts "$tmp/mp-sc.log" "$tmp/mp.txt"
has "$tmp/out" "UNSOUND MP+membar.gls"

# ---- readers that refuse what they cannot read --------------------------------
# An empty file or a text with no Test block compares nothing: an error, not
# a silent "0 tests" and exit 0.
: >"$tmp/empty.txt"
expect 1 "$scopecat" compare -tests "$herd" "$tmp/empty.txt"
has "$tmp/err" "empty.txt:1:1: expected a log with a 'Test NAME' block, found none"
printf 'kernel launch failed\nno histogram here\n' >"$tmp/notalog.txt"
expect 1 "$scopecat" compare -tests "$herd" "$tmp/notalog.txt"
has "$tmp/err" "notalog.txt:1:1: expected a log with a 'Test NAME' block, found none"
# a folder's files without a block are passed over (notes beside the logs,
# as titan's expected-compare.txt), but a folder of no log at all is an error
mkdir "$tmp/nolog"
cp "$tmp/notalog.txt" "$tmp/nolog/"
expect 1 "$scopecat" compare -tests "$herd" "$tmp/nolog"
has "$tmp/err" "expected a log with a 'Test NAME' block in $tmp/nolog, found none"
cp "$tmp/mp.txt" "$tmp/nolog/"
expect 3 "$scopecat" compare -tests "$herd" "$tmp/nolog"
lacks "$tmp/err" "notalog"
# damaged trailers were skipped, and Positive + Negative went unchecked
sed 's/^Positive: 3, Negative: 97$/Positive: 10002432, Negative:/' "$tmp/mp.txt" >"$tmp/mp-cut.txt"
expect 1 "$scopecat" compare -tests "$herd" "$tmp/mp-cut.txt"
has "$tmp/err" "mp-cut.txt:10:1: expected 'Positive: N, Negative: N' (counts that fit a long), found 'Positive: 10002432, Negative:'"
sed 's/^Positive: 3, Negative: 97$/Posktive: 3, Negative: 1/' "$tmp/mp.txt" >"$tmp/mp-typo.txt"
expect 1 "$scopecat" compare -tests "$herd" "$tmp/mp-typo.txt"
has "$tmp/err" "mp-typo.txt:10:1: expected 'Positive: N, Negative: N'"
# a Hangs line about no test of the log, or past a long
{ cat "$tmp/mp.txt"; echo 'Hangs MP+membar.gl 1 100 3'; } >"$tmp/mp-hang.txt"
expect 1 "$scopecat" compare -tests "$herd" "$tmp/mp-hang.txt"
has "$tmp/err" "mp-hang.txt:13:1: expected the name of a test of this log before it, found 'MP+membar.gl'"
{ cat "$tmp/mp.txt"; echo 'Hangs MP+membar.gls 1 99999999999999999999 3'; } >"$tmp/mp-hang.txt"
expect 1 "$scopecat" compare -tests "$herd" "$tmp/mp-hang.txt"
has "$tmp/err" "mp-hang.txt:13:1: expected Hangs counts that fit a long"
# values that are neither an integer that fits nor a name matched no state
# and passed for forbidden (exit 3): now the log's line and the value's column
for v in +0 1e0 '"0"' 12345678901234567890; do
  sed "s/^20    :>1:r0=0; 1:r2=1;\$/20    :>1:r0=0; 1:r2=$v;/" "$tmp/mp.txt" >"$tmp/mp-value.txt"
  expect 1 "$scopecat" compare -tests "$herd" "$tmp/mp-value.txt"
  has "$tmp/err" "mp-value.txt:4:22: expected an integer that fits 64 bits or a location name as the value of 1:r2, found '$v'"
done
# an outcome naming a register or location the test does not have agreed
# with every allowed state: a typo hid the forbidden outcome (exit 0)
sed 's/^3     \*>1:r0=1; 1:r2=0;$/3     *>1:r0=1; 1:r5=0;/' "$tmp/mp.txt" >"$tmp/mp-typo.txt"
expect 1 "$scopecat" compare -tests "$herd" "$tmp/mp-typo.txt"
has "$tmp/err" "mp-typo.txt:5:17: expected a register or location of test MP+membar.gls, found '1:r5'"
sed 's/^3     \*>1:r0=1; 1:r2=0;$/3     *>1:r0=1; 1:r2=0; z=1;/' "$tmp/mp.txt" >"$tmp/mp-typo.txt"
expect 1 "$scopecat" compare -tests "$herd" "$tmp/mp-typo.txt"
has "$tmp/err" "mp-typo.txt:5:25: expected a register or location of test MP+membar.gls, found 'z'"
# a value that is a name must be a location of the test: 1:r2=zero matched
# no state, so the outcome passed for forbidden (exit 3)
sed 's/^20    :>1:r0=0; 1:r2=1;$/20    :>1:r0=0; 1:r2=zero;/' "$tmp/mp.txt" >"$tmp/mp-value.txt"
expect 1 "$scopecat" compare -tests "$herd" "$tmp/mp-value.txt"
has "$tmp/err" "mp-value.txt:4:22: expected an integer or a location of test MP+membar.gls, found 'zero'"
# counts summed over logs past a long: refused, naming the log and line
mkdir "$tmp/huge"
sed -e 's/^50    :>/9223372036854775000 :>/' -e 's/^Positive: 3, Negative: 97$/Positive: 3, Negative: 9223372036854775047/' \
  "$tmp/mp.txt" >"$tmp/huge/a.txt"
cp "$tmp/huge/a.txt" "$tmp/huge/b.txt"
expect 1 "$scopecat" compare -tests "$herd" "$tmp/huge"
has "$tmp/err" "b.txt:1:1: expected counts that add up, over the logs compared, to a number that fits a long; test MP+membar.gls takes them past it"
lacks "$tmp/out" " -"
# herd7 logs (-verdicts, merge): an empty one, a damaged trailer
expect 1 "$scopecat" compare -verdicts "$tmp/empty.txt" "$tmp/mp.txt"
has "$tmp/err" "empty.txt:1:1: expected herd7 blocks ('Test NAME' and its States), found none"
lacks "$tmp/err" "runtime error"
sed 's/^Positive: \(.*\) Negative: \(.*\)$/Positive: \1 Negtive: \2/' "$tmp/mp-sc.log" >"$tmp/mp-sc-bad.log"
expect 1 "$scopecat" compare -verdicts "$tmp/mp-sc-bad.log" "$tmp/mp.txt"
has "$tmp/err" "mp-sc-bad.log:"
has "$tmp/err" "expected 'Positive: N, Negative: N'"
expect 1 "$scopecat" merge "$tmp/mp-sc-bad.log"
has "$tmp/err" "expected 'Positive: N, Negative: N'"

# ---- honest labels and defaults ------------------------------------------------
# Without -model each test runs under its own default, and the table names
# the model that judged it.  A PTX-dialect test runs under ptx-v6.0.cat,
# which forbids MP's 1:r0=1, 1:r1=0 with a release and an acquire; the
# table said "ptx-rmo.cat (the default)", and ptx-rmo.cat, which ignores
# .release/.acquire, calls the same log sound.
cat >"$tmp/mprel.txt" <<'LOG'
Test MP+rel.gpu+acq.gpu Allowed
Histogram (4 states)
50    :>1:r0=0; 1:r1=0;
20    :>1:r0=0; 1:r1=42;
3     *>1:r0=1; 1:r1=0;
27    :>1:r0=1; 1:r1=42;
Ok

Witnesses
Positive: 3, Negative: 97
LOG
expect 3 "$scopecat" compare -tests "$srcdir/ptx/modern" "$tmp/mprel.txt"
has "$tmp/out" "Model ptx-v6.0.cat: PTX (the default)"
lacks "$tmp/out" "ptx-rmo.cat"
has "$tmp/out" "MP+rel.gpu+acq.gpu        100         4          1       0  UNSOUND"
expect 0 "$scopecat" compare -model ptx-rmo.cat -tests "$srcdir/ptx/modern" "$tmp/mprel.txt"
has "$tmp/out" "Model ptx-rmo.cat: PTX RMO per scope (ASPLOS'15 Figs. 15-16)"
# A GPU_PTX test that uses fence.sc, .acquire/.release or .relaxed.SCOPE
# runs under ptx-v7.5.cat: ptx-rmo.cat knows only membar and ignored
# them, so SB with fence.sc.gpu across CTAs showing 0:r0=0, 1:r0=0 was
# sound (exit 0); ptx-v7.5.cat forbids it (sim: Never).
shapes="$srcdir/ptx/gpu-shapes"
cat >"$tmp/sb-sc.txt" <<'LOG'
Test SB+fence.sc.gpu-inter Allowed
Histogram (4 states)
7     *>0:r0=0; 1:r0=0;
40    :>0:r0=0; 1:r0=1;
40    :>0:r0=1; 1:r0=0;
13    :>0:r0=1; 1:r0=1;
Ok

Witnesses
Positive: 7, Negative: 93
LOG
expect 3 "$scopecat" compare -tests "$shapes" "$tmp/sb-sc.txt"
has "$tmp/out" "Model ptx-v7.5.cat: PTX (the default of these tests: -v says why)"
has "$tmp/out" "SB+fence.sc.gpu-inter        100         4          1       0  UNSOUND"
expect 3 "$scopecat" compare -v -tests "$shapes" "$tmp/sb-sc.txt"
has "$tmp/out" "SB+fence.sc.gpu-inter: ptx-v7.5.cat (it uses st.relaxed.gpu.s32, which ptx-rmo.cat ignores)"
expect 0 "$scopecat" compare -model ptx-rmo.cat -tests "$shapes" "$tmp/sb-sc.txt"
expect 0 "$scopecat" sim "$shapes/SB+fence.sc.gpu-inter.litmus"
has "$tmp/out" "Observation SB+fence.sc.gpu-inter Never 0 4"
# tests of several defaults: the label names each model and its tests
expect 3 "$scopecat" compare -v -tests "$shapes" -tests "$herd" "$tmp/sb-sc.txt" "$tmp/mp.txt"
has "$tmp/out" "Model the default of each test (-v says which and why): ptx-v7.5.cat: PTX for 1 test; ptx-rmo.cat: PTX RMO per scope (ASPLOS'15 Figs. 15-16) for 1 test"
has "$tmp/out" "MP+membar.gls: ptx-rmo.cat (the default for GPU_PTX tests)"
# the bundled H100 logs, fence.sc ones included, compare under the defaults
expect 0 "$scopecat" compare -timeout 300 -tests "$srcdir/ptx" "$srcdir/ptx/results/H100"
has "$tmp/out" "ptx-v7.5.cat: PTX for 76 tests; ptx-rmo.cat: PTX RMO per scope (ASPLOS'15 Figs. 15-16) for 35 tests"
has "$tmp/out" "total: 111 tests: 111 sound, 0 UNSOUND, 0 without a verdict"

# ---- -tests DIR: only PTX and GPU_PTX litmus files are candidates ----------------
# A LISA test beside the PTX ones was reported as a parse error (exit 1)
# when a folder walk found it; named itself it still is one.
mkdir "$tmp/mixed"
cp "$herd/mp+membar.gls.litmus" "$tmp/mixed/"
cat >"$tmp/mixed/MP.litmus" <<'LISA'
LISA MP
{
x=0; y=0;
}
 P0          | P1          ;
 w[] x 1     | r[] r0 y    ;
 w[] y 1     | r[] r1 x    ;
exists (1:r0=1 /\ 1:r1=0)
LISA
expect 3 "$scopecat" compare -tests "$tmp/mixed" "$tmp/mp.txt"
lacks "$tmp/err" "MP.litmus"
expect 1 "$scopecat" compare -tests "$tmp/mixed" -tests "$tmp/mixed/MP.litmus" "$tmp/mp.txt"
has "$tmp/err" "MP.litmus:1:1:"
# a PTX file that does not parse is still reported when a walk finds it
printf 'GPU_PTX broken\n{\n' >"$tmp/mixed/broken.litmus"
expect 1 "$scopecat" compare -tests "$tmp/mixed" "$tmp/mp.txt"
has "$tmp/err" "broken.litmus:"

# ---- -html: one self-contained page ------------------------------------------------
expect 3 "$scopecat" compare -tests "$tests" -html "$tmp/r.html" "$titan" "$tmp/mp.txt"
has "$tmp/r.html" "<!DOCTYPE html>"
has "$tmp/r.html" "<svg width="
has "$tmp/r.html" '<input type="checkbox" value="UNSOUND" checked> UNSOUND (1)'
has "$tmp/r.html" '<input type="checkbox" value="sound" checked> sound (6)'
has "$tmp/r.html" '<div class="test" data-verdict="UNSOUND">'
has "$tmp/r.html" "function scFilter()"
has "$tmp/r.html" 'fill="#e53935"'
has "$tmp/r.html" "&#9733; 1:r0=1; 1:r2=0;"
has "$tmp/r.html" "CoRR [IRIW_uniproc__IRIW_uniproc.txt]"
n=$(grep -c '<svg' "$tmp/r.html")
if [ "$n" -eq 7 ]; then ok; else fail "$n bar charts, expected 7"; fi
lacks "$tmp/r.html" "http"
lacks "$tmp/r.html" "src="
lacks "$tmp/r.html" "<link"
expect 1 "$scopecat" compare -tests "$tests" -html "$tmp/no/such/dir/r.html" "$titan"
has "$tmp/err" "cannot write"

finish
