#!/bin/sh
# cli.sh: end-to-end checks of the scopecat command line: exit statuses
# (0 all ran, 1 some failed, 2 bad usage), error positions on stderr, a
# malformed file in a batch not stopping the others, -select, -check.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

mp="$srcdir/ptx/herd-gpu-ptx/mp.litmus"
sb="$srcdir/ptx/herd-gpu-ptx/sb.litmus"
bad="$srcdir/tests/data/malformed"

# version and usage
expect 0 "$scopecat" -version
has "$tmp/out" "scopecat 0.1.0"
expect 2 "$scopecat"
expect 2 "$scopecat" frobnicate
has "$tmp/err" "unknown command 'frobnicate'"
expect 2 "$scopecat" parse
expect 2 "$scopecat" parse -nosuchoption "$mp"
has "$tmp/err" "unknown option '-nosuchoption'"
expect 2 "$scopecat" parse -select 'mp(' "$mp"
has "$tmp/err" "-select:1:4: expected a PCRE2 pattern"

# a good test: summary and canonical form
expect 0 "$scopecat" parse -summary "$mp"
has "$tmp/out" "MP: GPU_PTX, 2 threads, 6 instructions, 2 locations, exists, cta [P0] [P1]"
expect 0 "$scopecat" parse "$sb"
has "$tmp/out" "GPU_PTX SB"
has "$tmp/out" " st.cg.s32 [r1], r0 "
has "$tmp/out" "exists (0:r2=0 /\\ 1:r2=0)"
# the canonical form is a fixpoint of parse-and-print
cp "$tmp/out" "$tmp/sb1.litmus"
expect 0 "$scopecat" parse "$tmp/sb1.litmus"
if cmp -s "$tmp/out" "$tmp/sb1.litmus"; then ok; else fail "canonical form of sb is not a fixpoint"; fi

# a batch with malformed files: the good ones still print, errors carry
# file:line:col, the exit status is 1
expect 1 "$scopecat" parse -summary "$mp" "$bad" "$sb" "$tmp/missing.litmus"
has "$tmp/out" "MP: GPU_PTX"
has "$tmp/out" "SB: GPU_PTX"
has "$tmp/err" "unknown-instruction.litmus:7:2: expected an instruction"
has "$tmp/err" "found unknown instruction 'frob'"
has "$tmp/err" "truncated.litmus:8:1: expected an instruction, found end of file"
has "$tmp/err" "bad-scope.litmus:6:13: unknown qualifier '.gl' for st"
has "$tmp/err" "missing.litmus: no such file or directory"
has "$tmp/err" "4 of 6 files failed"

# -select keeps tests by name (PCRE2)
expect 0 "$scopecat" parse -summary -select '^(MP|SB)$' "$srcdir/ptx/herd-gpu-ptx"
n=$(wc -l <"$tmp/out")
# MP.litmus and mp.litmus are both named MP; sb.litmus is SB
if [ "$n" -eq 3 ]; then ok; else fail "-select kept $n tests, expected 3"; cat "$tmp/out"; fi

# a PTX-dialect test prints in its own dialect: read as GPU_PTX it would
# mean something else (another default model), so parse keeps "PTX",
# -check sees the dialect, and the hash tells them apart
cotot="$srcdir/ptx/dat3m/Manual/Co-Total-4-threads.litmus"
expect 0 "$scopecat" parse "$cotot"
has "$tmp/out" "PTX Co-Total-4-threads"
has "$tmp/out" " P0@cta 0,gpu 0 "
cp "$tmp/out" "$tmp/cotot.litmus"
expect 0 "$scopecat" sim -model ptx-v6.0.cat "$cotot" "$tmp/cotot.litmus"
n=$(grep -c "^Observation Co-Total-4-threads Sometimes 1 178$" "$tmp/out")
if [ "$n" -eq 2 ]; then ok; else fail "the printed Co-Total-4-threads means something else"; cat "$tmp/out"; fi
n=$(grep "^Hash=" "$tmp/out" | sort -u | wc -l)
if [ "$n" -eq 1 ]; then ok; else fail "the printed Co-Total-4-threads has another hash"; fi
sed 's/^PTX /GPU_PTX /; s/@cta [0-9]*,gpu [0-9]* / /g' "$cotot" >"$tmp/cotot-gpu.litmus"
expect 0 "$scopecat" sim -model ptx-v6.0.cat "$cotot" "$tmp/cotot-gpu.litmus"
n=$(grep "^Hash=" "$tmp/out" | sort -u | wc -l)
if [ "$n" -eq 2 ]; then ok; else fail "the GPU_PTX reading of a PTX test has the same hash"; fi
# under one model both readings get the co that model expects (ptx-v6.0's
# `let co = co+`: partial), whatever the dialect: the same verdict
n=$(grep -c "^Observation Co-Total-4-threads Sometimes 1 178$" "$tmp/out")
if [ "$n" -eq 2 ]; then ok; else fail "the GPU_PTX reading of Co-Total-4-threads got another co"; cat "$tmp/out"; fi

# round trip over every bundled test
expect 0 "$scopecat" parse -check "$srcdir/ptx"
has "$tmp/out" ", 0 failed"

# the example program, built against the public header only
expect 1 "$builddir/examples/summary" "$sb" "$bad/truncated.litmus"
has "$tmp/out" "SB: GPU_PTX, 2 threads, 6 instructions, 2 locations, exists, cta [P0] [P1]"
has "$tmp/err" "truncated.litmus:8:1: expected an instruction"

# ---- scopecat sim ----------------------------------------------------------
seeds="$srcdir/ptx/seeds"
gls="$seeds/mp-L1+membar.gls.litmus"
# plain `scopecat FILE` simulates under the default model (ptx-rmo.cat)
expect 0 "$scopecat" "$gls"
has "$tmp/out" "Test mp-L1+membar.gls Allowed"
has "$tmp/out" "Observation mp-L1+membar.gls Never 0 3"
has "$tmp/out" "Hash="
expect 0 "$scopecat" sim -nohash "$gls"
if grep -q "^Hash=" "$tmp/out"; then fail "-nohash printed a hash"; else ok; fi
# the fence is the only obstacle: skipping gl-constraint, or letting invalid
# executions through, makes the weak outcome appear
expect 0 "$scopecat" sim -skipcheck gl-constraint "$gls"
has "$tmp/out" "Observation mp-L1+membar.gls Sometimes 1 3"
expect 0 "$scopecat" sim -skipcheck sys-constraint,cta-constraint "$gls"
has "$tmp/out" "Observation mp-L1+membar.gls Never 0 3"
expect 0 "$scopecat" sim -through invalid "$gls"
has "$tmp/out" "Positive: 1 Negative: 3"
# -select keeps one test of the folder
expect 0 "$scopecat" sim -select '^sb$' "$seeds"
n=$(grep -c '^Test ' "$tmp/out")
if [ "$n" -eq 1 ]; then ok; else fail "-select ran $n tests, expected 1"; fi
# -j keeps the order and the content (up to timings)
"$scopecat" sim -nohash "$seeds" | grep -v '^Time' >"$tmp/j1"
"$scopecat" sim -nohash -j 2 "$seeds" | grep -v '^Time' >"$tmp/j2"
if cmp -s "$tmp/j1" "$tmp/j2"; then ok; else fail "-j 2 output differs from -j 1"; fi
# -j with no test to run (the one named is missing): no worker to start
expect 1 "$scopecat" sim -j 2 "$tmp/no-such.litmus"
has "$tmp/err" "no-such.litmus: no such file or directory"
lacks "$tmp/err" "cannot start a worker"
# The -j pool's workers of background job $1 once it has $2 of them, or
# what it has after 5 s.  $1 may be libtool's wrapper script until it
# execs the program, and the wrapper's own subshells are no workers:
# stopping one hung the batch (or missed the pool) on a loaded machine, so
# children count only once $1 runs no shell (where /proc tells).
pool_workers() {
  found=
  for i in $(seq 50); do
    sleep 0.1
    case $(readlink "/proc/$1/exe" 2>/dev/null) in
      */bash | */sh | */dash) continue ;;
    esac
    found=$(pgrep -P "$1" | tr '\n' ' ')
    [ "$(echo "$found" | wc -w)" -ge "$2" ] && break
  done
  echo "$found"
}
# -j runs a pool: a worker stopped (SIGSTOP) past its test's deadline is
# killed and replaced; its test gets its timeout line, the others their
# blocks, in order.  The batch must outlast the 0.1 s before the worker is
# stopped: 8 copies of these tests took 0.25 s, and 0.04 s once barrier
# synchronisations were kept per layout; 200 copies take about a second.
manual=
for i in $(seq 200); do
  manual="$manual $cotot $(LC_ALL=C ls "$srcdir"/ptx/dat3m/Manual/barrier-*.litmus | tr '\n' ' ')"
done
"$scopecat" sim -nohash -model ptx-v6.0.cat $manual 2>/dev/null | grep '^Test ' >"$tmp/order1"
"$scopecat" sim -nohash -j 2 -timeout 1 -model ptx-v6.0.cat $manual >"$tmp/out" 2>"$tmp/err" &
pid=$!
worker=$(pool_workers "$pid" 1 | cut -d" " -f1)
[ -n "$worker" ] && kill -STOP "$worker"
wait "$pid"
rc=$?
if [ "$rc" -eq 1 ]; then ok; else fail "-j 2 with a stuck worker: exit $rc, expected 1"; fi
n=$(grep -c "(the -timeout limit), found it still running: its worker was stopped" "$tmp/err")
if [ "$n" -eq 1 ]; then ok; else fail "$n tests reported a stuck worker, expected 1"; cat "$tmp/err"; fi
grep '^Test ' "$tmp/out" >"$tmp/order2"
stuck=$(sed -n 's/^\(.*\): expected to finish within 1 s.*its worker was stopped$/\1/p' "$tmp/err")
name=$(sed -n 's/^PTX //p' "$stuck" | head -1)
# order2 is order1 less one line, the stuck test's
diff "$tmp/order1" "$tmp/order2" >"$tmp/order.diff"
if [ "$(grep -c '^[<>]' "$tmp/order.diff")" -eq 1 ] && grep -q "^< Test $name " "$tmp/order.diff"; then ok
else fail "-j 2 with a stuck worker lost or reordered tests ($name)"; cat "$tmp/order.diff"; fi
if kill -0 "$worker" 2>/dev/null; then fail "the stuck worker $worker was left"; kill -KILL "$worker"; else ok; fi
# a worker killed (SIGKILL) is replaced: the test it ran, if any, gets a
# line, every other test its block
"$scopecat" sim -nohash -j 2 -model ptx-v6.0.cat $manual >"$tmp/out" 2>"$tmp/err" &
pid=$!
worker=$(pool_workers "$pid" 1 | cut -d" " -f1)
[ -n "$worker" ] && kill -KILL "$worker"
wait "$pid"
blocks=$(grep -c '^Test ' "$tmp/out")
lines=$(grep -c ': its worker ended by signal 9 (Killed)$' "$tmp/err")
if [ $((blocks + lines)) -eq "$(wc -l <"$tmp/order1")" ] && [ "$lines" -le 1 ]; then ok
else fail "-j 2 with a killed worker: $blocks blocks and $lines lines for $(wc -l <"$tmp/order1") tests"; cat "$tmp/err"; fi
# SIGTERM to the -j parent reaches its workers: none is left running (the
# batch above, long enough to be running still: Manual/ alone took 0.5 s,
# then 0.09 s)
"$scopecat" sim -nohash -j 2 -model ptx-v6.0.cat $manual >/dev/null 2>&1 &
pid=$!
workers=$(pool_workers "$pid" 2)
kill -TERM "$pid"
wait "$pid"
rc=$?
if [ "$rc" -eq 143 ]; then ok; else fail "-j 2 after SIGTERM: exit $rc, expected 143"; fi
sleep 0.2
left=
for w in $workers; do kill -0 "$w" 2>/dev/null && left="$left $w"; done
if [ -z "$left" ] && [ -n "$workers" ]; then ok
else fail "workers left running after SIGTERM to -j's parent: '$left' of '$workers'"; for w in $left; do kill -KILL "$w"; done; fi
# limits: a clear message, the batch goes on, exit 1
# (sb has exactly 4 candidates; dlb-lb allows 8 executions, so has more)
expect 1 "$scopecat" sim -max-executions 4 "$seeds/dlb-lb.litmus" "$seeds/sb.litmus"
has "$tmp/err" "expected at most 4 candidate executions (the -max-executions limit)"
has "$tmp/out" "Observation sb Sometimes 1 3"
# (a spin loop: enumeration, pinned, runs long; auto goes symbolic in time)
loop="$srcdir/ptx/dat3m/CADP/2_threads_4_instructions/145_simple.litmus"
expect 1 "$scopecat" sim -engine enum -model "$srcdir/cat/ptx-rmo.cat" -timeout 0.2 "$loop"
has "$tmp/err" "expected to finish within 0.2 s (the -timeout limit)"
# typos pass no more in silence: a name of an unused let bound nowhere,
# -skipcheck and -variant names the model lacks, each said once per model
# (with -j too), on stderr, the run going on
# (a name under try, herd's way of saying it may be missing, is none)
printf '"typo"\nlet com = rf | co | fr\nlet unused = po | rff\nlet opt = try fencerel(MFENCE) with 0\nacyclic po | com as sc\n' >"$tmp/typo.cat"
for j in 1 2; do
  expect 0 "$scopecat" sim -j $j -model "$tmp/typo.cat" -skipcheck nosuchcheck,sc \
    -variant nosuchvariant "$seeds"
  has "$tmp/err" "typo.cat:3:19: warning: 'rff' names nothing"
  has "$tmp/err" "typo.cat: warning: -skipcheck nosuchcheck: the model has no check of that name"
  has "$tmp/err" "typo.cat: warning: -variant nosuchvariant: the model tests no variant of that name"
  lacks "$tmp/err" "-skipcheck sc:"
  n=$(grep -c "warning" "$tmp/err")
  if [ "$n" -eq 3 ]; then ok; else fail "-j $j: $n warnings for one model, expected 3"; cat "$tmp/err"; fi
  has "$tmp/out" "Observation sb Sometimes"
done
# the bundled models name nothing unbound
for m in ptx-rmo.cat ptx-v6.0.cat ptx-v7.5.cat sc.cat rmo.cat; do
  expect 0 "$scopecat" sim -model $m "$seeds/sb.litmus"
  lacks "$tmp/err" "warning"
done
# a misspelt location (Dat3M's MP-gpu, yy for y in the release store)
# is a new location at 0: the release no longer orders anything
sed 's/st.release.gpu y, 1/st.release.gpu yy, 1/' "$srcdir/ptx/dat3m/Manual/MP-gpu.litmus" >"$tmp/MP-typo.litmus"
expect 0 "$scopecat" sim "$tmp/MP-typo.litmus"
has "$tmp/err" "MP-typo.litmus:11:17: warning: location 'yy' is named only here"
expect 0 "$scopecat" parse -summary "$tmp/MP-typo.litmus" "$srcdir/ptx/dat3m/Manual/MP-gpu.litmus"
n=$(grep -c "warning" "$tmp/err")
if [ "$n" -eq 1 ]; then ok; else fail "parse: $n warnings, expected 1"; cat "$tmp/err"; fi
# the bundled corpora: no warning
expect 0 "$scopecat" parse -summary "$srcdir/ptx"
lacks "$tmp/err" "warning"
# herd's index files (@FILE: a path a line, relative to its folder, as
# gen's @all) and -names/-excl files (a test name a line)
mkdir "$tmp/idx"
printf '# two seeds\nsb.litmus\n\n  mp-L1+membar.gls.litmus  \n' >"$tmp/idx/@two"
cp "$seeds/sb.litmus" "$seeds/mp-L1+membar.gls.litmus" "$tmp/idx/"
expect 0 "$scopecat" sim -nohash "$tmp/idx/@two"
grep '^Test ' "$tmp/out" >"$tmp/tests"
printf 'Test sb Allowed\nTest mp-L1+membar.gls Allowed\n' | cmp -s - "$tmp/tests" && ok || fail "@two ran: $(cat "$tmp/tests")"
expect 0 "$scopecat" parse -summary "$tmp/idx/@two"
n=$(wc -l <"$tmp/out")
if [ "$n" -eq 2 ]; then ok; else fail "parse @two: $n tests"; fi
printf 'sb.litmus\nnothere.litmus\n' >"$tmp/idx/@bad"
expect 1 "$scopecat" sim "$tmp/idx/@bad"
has "$tmp/err" "idx/nothere.litmus: no such file or directory"
has "$tmp/out" "Test sb Allowed"
printf 'sb\n# a comment\nMP with more words\n' >"$tmp/names"
expect 0 "$scopecat" sim -names "$tmp/names" "$seeds" "$srcdir/ptx/herd-gpu-ptx"
grep '^Test ' "$tmp/out" | sort -u >"$tmp/tests"
printf 'Test MP Allowed\nTest sb Allowed\n' | cmp -s - "$tmp/tests" && ok || fail "-names ran: $(cat "$tmp/tests")"
expect 0 "$scopecat" sim -excl "$tmp/names" "$seeds"
lacks "$tmp/out" "Test sb "
all=$("$scopecat" sim "$seeds" | grep -c '^Test ')
n=$(grep -c '^Test ' "$tmp/out")
if [ "$n" -eq $((all - 1)) ]; then ok; else fail "-excl ran $n of $all tests"; fi
expect 2 "$scopecat" sim -names "$tmp/no-such-names" "$seeds"
has "$tmp/err" "no-such-names: cannot read the file of test names"
# models: by name through -I, errors with their position
mkdir "$tmp/models"
printf '"mine"\nlet com = rf | co | fr\nacyclic po | com as sc\n' >"$tmp/models/mine.cat"
expect 0 "$scopecat" sim -I "$tmp/models" -model mine.cat "$seeds/sb.litmus"
has "$tmp/out" "Observation sb Never 0 3"
printf '"broken"\nacyclic po | nope as x\n' >"$tmp/models/broken.cat"
expect 1 "$scopecat" sim -model "$tmp/models/broken.cat" "$seeds/sb.litmus"
has "$tmp/err" "broken.cat:2:14: unbound name 'nope'"
printf '"bad"\nacyclic po | as x\n' >"$tmp/models/bad.cat"
expect 1 "$scopecat" sim -model "$tmp/models/bad.cat" "$seeds/sb.litmus"
has "$tmp/err" "bad.cat:2:"
# a model that does not load is said once and no test runs (herd7); a
# model's error found running is said in full once, then a line a test
expect 1 "$scopecat" sim -model "$tmp/models/bad.cat" "$seeds"
n=$(grep -c "bad.cat:2:" "$tmp/err")
if [ "$n" -eq 1 ]; then ok; else fail "a model that does not load was said $n times"; fi
has "$tmp/err" "the model did not load: no test run"
lacks "$tmp/out" "Test "
ntests=$(ls "$seeds"/*.litmus | wc -l)
for j in 1 2; do
  expect 1 "$scopecat" sim -j $j -model "$tmp/models/broken.cat" "$seeds"
  n=$(grep -c "^$tmp/models/broken.cat:2:14: unbound name 'nope'" "$tmp/err")
  if [ "$n" -eq 1 ]; then ok; else fail "-j $j: a model's error was said $n times"; fi
  n=$(grep -c "the model's error above (.*broken.cat:2:14)" "$tmp/err")
  if [ "$n" -eq "$ntests" ]; then ok; else fail "-j $j: $n one-line model errors for $ntests tests"; fi
  expect 1 "$scopecat" sim -j $j -bell "$tmp/no-such.bell" "$seeds/sb.litmus" "$gls"
  n=$(grep -c "no-such.bell" "$tmp/err")
  if [ "$n" -eq 1 ]; then ok; else fail "-j $j: a bell that does not load was said $n times"; fi
  has "$tmp/err" "sb.litmus: test sb: not run: the model ptx-rmo.cat did not load (said above)"
  has "$tmp/err" "mp-L1+membar.gls: not run: the model ptx-rmo.cat did not load (said above)"
done
# herd7's -set-libdir (searched before the bundled models) and -conf
# (options a line, "key value" or "key = value", # comments)
mkdir "$tmp/lib"
cp "$tmp/models/mine.cat" "$tmp/lib/ptx-rmo.cat"
expect 0 "$scopecat" sim -set-libdir "$tmp/lib" "$seeds/sb.litmus"
has "$tmp/out" "Observation sb Never 0 3"
printf '# mine\nset-libdir = %s\nnohash true\njson false\n\n  names %s\n' "$tmp/lib" "$tmp/names" >"$tmp/my.cfg"
expect 0 "$scopecat" sim -conf "$tmp/my.cfg" "$seeds"
grep -c '^Test ' "$tmp/out" >"$tmp/n"
has "$tmp/n" "1"
has "$tmp/out" "Observation sb Never 0 3"
lacks "$tmp/out" "Hash="
printf 'nohash true\nsquished true\n' >"$tmp/bad.cfg"
expect 2 "$scopecat" sim -conf "$tmp/bad.cfg" "$seeds/sb.litmus"
has "$tmp/err" "bad.cfg:2:1: expected an option of scopecat sim without its dash and its value, found the key 'squished'"
printf '\n timeout soon\n' >"$tmp/bad.cfg"
expect 2 "$scopecat" sim -conf "$tmp/bad.cfg" "$seeds/sb.litmus"
has "$tmp/err" "-timeout expects seconds, found 'soon'"
has "$tmp/err" "bad.cfg:2:2: (the configuration line above)"
printf 'nohash maybe\n' >"$tmp/bad.cfg"
expect 2 "$scopecat" sim -conf "$tmp/bad.cfg" "$seeds/sb.litmus"
has "$tmp/err" "bad.cfg:1:1: expected true or false after 'nohash', found 'maybe'"
# herd7's -variant and -bell
printf '"v"\nif "strong" then acyclic po | rf | co | fr as sc else let x = po end\n' \
  >"$tmp/models/variant.cat"
expect 0 "$scopecat" sim -model "$tmp/models/variant.cat" "$seeds/sb.litmus"
has "$tmp/out" "Observation sb Sometimes 1 3"
expect 0 "$scopecat" sim -variant other,strong -model "$tmp/models/variant.cat" "$seeds/sb.litmus"
has "$tmp/out" "Observation sb Never 0 3"
printf '"b"\nlet s = tag2scope(narrower(\047gl))\nempty (rf & ext) \\ s as in-cta\n' \
  >"$tmp/models/bell.cat"
expect 1 "$scopecat" sim -model "$tmp/models/bell.cat" "$seeds/sb.litmus"
has "$tmp/err" "unbound name 'narrower'"
expect 0 "$scopecat" sim -bell "$srcdir/tests/data/scopes.bell" -model "$tmp/models/bell.cat" "$seeds/sb.litmus"
has "$tmp/out" "Observation sb Never 0 1"
# the PTX dialect runs under Dat3M's models: ptx-v6.0.cat, and ptx-v7.5.cat
# for tests with proxies (both give SB-cta's verdict of the CSVs)
expect 0 "$scopecat" sim "$srcdir/ptx/dat3m/Nvidia/SB-cta.litmus"
has "$tmp/out" "Observation SB-cta Always 4 0"
expect 0 "$scopecat" sim "$srcdir/ptx/dat3m/Nvidia/proxy/Proxy-MP-gen-sur-no-proxyFence.litmus"
has "$tmp/out" "Observation Proxy-MP-gen-sur-no-proxyFence Sometimes 1 3"
# drawings
expect 0 "$scopecat" sim -show all -o "$tmp" "$seeds/sb.litmus"
# one file per shown execution: sb has 4
n=$(ls "$tmp"/sb-*.dot | wc -l)
if [ "$n" -eq 4 ]; then ok; else fail "-show all wrote $n drawings of sb, expected 4"; fi
has "$tmp/sb-4.dot" 'digraph "sb #4"'
has "$tmp/sb-1.dot" '[label="rf", color=red'
# the paper's Fig. 14: mp+membar.cta+membar.gl in one CTA, forbidden by
# cta-constraint; drawn with -through invalid, the cycle W x -> W y -> R y
# -> R x -> W x (events a, c, d, f; b and e are the fences) is bold
fig14="$seeds/mp+membar.cta+membar.gl.litmus"
mkdir "$tmp/fig14"
expect 0 "$scopecat" sim -through invalid -show prop -o "$tmp/fig14" "$fig14"
dot14="$tmp/fig14/mp+membar.cta+membar.gl-1.dot"
has "$dot14" 'label="mp+membar.cta+membar.gl #1: cycle in cta-constraint"'
has "$dot14" 'e2 [label="a: W[x]=1 cg"]'
has "$dot14" 'e7 [label="f: R[x]=0 cg"]'
has "$dot14" 'e4 -> e5 [label="rf", color=red'
has "$dot14" 'e7 -> e2 [label="fr", color=orange'
has "$dot14" 'e7 -> e2 [label="cta-constraint", color=crimson'
has "$dot14" 'label="cta"; style=dashed;'
if "$scopecat" sim -through invalid -show prop -o "$tmp/fig14" -graph-format svg "$fig14" >/dev/null 2>"$tmp/err"; then
  svg="$tmp/fig14/mp+membar.cta+membar.gl-1.svg"
  has "$svg" "<svg"
  has "$svg" "a: W[x]=1 cg"
  has "$svg" "cta&#45;constraint"
else
  has "$tmp/err" "expected scopecat built with Graphviz"
fi
expect 2 "$scopecat" sim -graph gif -o "$tmp" "$fig14"

# -json: one object per test and line (sb: 4 candidates, 1 weak)
expect 0 "$scopecat" sim -json -nohash "$seeds/sb.litmus" "$gls"
n=$(wc -l <"$tmp/out")
if [ "$n" -eq 2 ]; then ok; else fail "-json printed $n lines for 2 tests"; fi
has "$tmp/out" '{"test":"sb","file":'
has "$tmp/out" '"states":[{"values":{"0:r2":0,"1:r2":0},"count":1,"holds":true},'
has "$tmp/out" '"validated":true,"positive":1,"negative":3,"observation":"Sometimes","flags":[],"candidates":4,'
has "$tmp/out" '"test":"mp-L1+membar.gls"'
# bad usage
expect 2 "$scopecat" sim -j 0 "$gls"
expect 2 "$scopecat" sim -j 100000 "$gls"
has "$tmp/err" "-j expects a number of workers from 1 to 256, found '100000'"
expect 0 "$scopecat" sim -j 256 "$gls"
# herd7's conventions: -show without -o prints DOT on standard output
# after the test's block (in order with -j), -nshow caps the drawings, -o
# creates its folder
expect 0 "$scopecat" sim -show all "$seeds/sb.litmus" "$gls"
n=$(grep -c '^digraph' "$tmp/out")
if [ "$n" -ge 5 ]; then ok; else fail "-show all printed $n drawings, expected sb's 4 and more"; fi
"$scopecat" sim -show all -j 2 "$seeds/sb.litmus" "$gls" | grep -v '^Time' >"$tmp/dot2"
grep -v '^Time' "$tmp/out" | cmp -s - "$tmp/dot2" && ok || fail "-show all -j 2 differs from -j 1"
awk '/^Test /{t=$2} /^digraph/{print t}' "$tmp/out" | sort | uniq -c >"$tmp/per"
has "$tmp/per" "4 sb"
expect 0 "$scopecat" sim -show all -nshow 2 "$seeds/sb.litmus"
n=$(grep -c '^digraph' "$tmp/out")
if [ "$n" -eq 2 ]; then ok; else fail "-nshow 2 printed $n drawings"; fi
expect 0 "$scopecat" sim -show all -o - "$seeds/sb.litmus"
n=$(grep -c '^digraph' "$tmp/out")
if [ "$n" -eq 4 ]; then ok; else fail "-o - printed $n drawings"; fi
expect 1 "$scopecat" sim -show all -o "$tmp/none/here" "$seeds/sb.litmus"
has "$tmp/err" "none/here: cannot create the folder: No such file or directory"
expect 0 "$scopecat" sim -show all -o "$tmp/made" "$seeds/sb.litmus"
n=$(ls "$tmp/made"/sb-*.dot | wc -l)
if [ "$n" -eq 4 ]; then ok; else fail "-o created no folder with sb's 4 drawings ($n)"; fi
lacks "$tmp/out" "digraph"
expect 2 "$scopecat" sim -graph svg "$gls"
has "$tmp/err" "-graph-format needs -o DIR"
expect 2 "$scopecat" sim -graph-format gif -o "$tmp" "$gls"
has "$tmp/err" "-graph-format expects svg or png, found 'gif'"
expect 2 "$scopecat" sim -nshow 0 -show all "$gls"
expect 2 "$scopecat" sim -through sometimes "$gls"
expect 2 "$scopecat" sim -max-executions lots "$gls"

# examples/allowed.c: is this outcome allowed? (exit 0 yes, 1 no, 2 error)
expect 0 "$builddir/examples/allowed" "$seeds/sb.litmus" "$srcdir/cat/ptx-rmo.cat" '0:r2=0 /\ 1:r2=0'
has "$tmp/out" "yes: 0:r2=0 /\ 1:r2=0 is allowed"
expect 1 "$builddir/examples/allowed" "$gls" "$srcdir/cat/ptx-rmo.cat" '1:r1=1 /\ 1:r2=0'
has "$tmp/out" "no: no allowed execution of mp-L1+membar.gls"
expect 2 "$builddir/examples/allowed" "$gls" "$srcdir/cat/ptx-rmo.cat" '1:r7=1'
has "$tmp/err" "expected a register of thread 1, found 'r7'"

# examples/validate.c: a histogram against a model (0 sound, 1 unsound).
# A Titan log: sound.  The Tesla C2075's 187 weak outcomes of
# mp-L1+membar.gls in 100k runs (the paper's table; .ca loads, outside the
# model, Sec. 5.5): ptx-rmo.cat forbids them, so UNSOUND.
titan="$srcdir/ptx/results/titan/RWC_uniproc__RWC_uniproc.txt"
expect 0 "$builddir/examples/validate" "$srcdir/ptx/herd-gpu-ptx/RWC_uniproc__RWC_uniproc.litmus" \
  "$srcdir/cat/ptx-rmo.cat" "$titan"
has "$tmp/out" "CoRR: sound under PTX RMO per scope"
cat >"$tmp/tesc.log" <<'LOG'
Test mp-L1+membar.gls Allowed
Histogram (3 states)
61903 :>1:r1=0; 1:r2=0;
187   *>1:r1=1; 1:r2=0;
37910 :>1:r1=1; 1:r2=1;
Ok
Witnesses
Positive: 187, Negative: 99813
Condition exists (1:r1=1 /\ 1:r2=0) is validated
Observation mp-L1+membar.gls Sometimes 187 99813
LOG
expect 1 "$builddir/examples/validate" "$gls" "$srcdir/cat/ptx-rmo.cat" "$tmp/tesc.log"
has "$tmp/out" "forbidden but observed 187 times: 1:r1=1; 1:r2=0;"
has "$tmp/out" "UNSOUND under PTX RMO per scope"
expect 2 "$builddir/examples/validate" "$gls" "$srcdir/cat/ptx-rmo.cat" "$titan"
has "$tmp/err" "holds no histogram of test mp-L1+membar.gls"

# a bell file's `instructions` declarations are checked against the test:
# scopes.bell lets writes be cg, wt or volatile, and reads cg, ca, volatile
bell="$srcdir/tests/data/scopes.bell"
expect 0 "$scopecat" sim -bell "$bell" "$seeds/sb.litmus"
has "$tmp/out" "Observation sb Sometimes 1 3"
sed 's/st.cg.s32 \[r1\],r0 | st.cg/st.cs.s32 [r1],r0 | st.cg/' "$seeds/sb.litmus" >"$tmp/sb-cs.litmus"
expect 1 "$scopecat" sim -bell "$bell" "$tmp/sb-cs.litmus"
has "$tmp/err" "sb-cs.litmus:"
has "$tmp/err" "expected an annotation the bell file declares for W events ('cg 'wt 'volatile), found 'cs'"
expect 0 "$scopecat" sim "$tmp/sb-cs.litmus"

# examples/explore.c: every allowed execution of sb under ptx-rmo.cat (4),
# with the edges worked out by hand for the first: both read 0, so both
# reads are fr-before the other thread's write
expect 0 "$builddir/examples/explore" "$seeds/sb.litmus" "$srcdir/cat/ptx-rmo.cat"
n=$(grep -c '^execution ' "$tmp/out")
if [ "$n" -eq 4 ]; then ok; else fail "explore printed $n executions, expected 4"; fi
has "$tmp/out" "execution 1 of sb:"
has "$tmp/out" "  fr: b: R[y]=0 cg -> c: W[y]=1 cg; d: R[x]=0 cg -> a: W[x]=1 cg;"
# sim -json -show: the kept executions' rf and co in the JSON
expect 0 "$scopecat" sim -json -nohash -show prop "$seeds/sb.litmus"
has "$tmp/out" '"executions":[{"events":["W[x]=0","W[y]=0","a: W[x]=1 cg",'

# -liveness: one line per test; a test without loops nor barriers passes;
# a malformed test in the batch is reported and the others still run
dat3m="$srcdir/ptx/dat3m"
expect 0 "$scopecat" sim -liveness "$sb" "$dat3m/Barrier/quorum1-hang.litmus"
has "$tmp/out" "Liveness SB Pass"
has "$tmp/out" "Liveness test1-hang Fail"
n=$(wc -l <"$tmp/out")
if [ "$n" -eq 2 ]; then ok; else fail "-liveness printed $n lines for 2 tests"; fi
expect 1 "$scopecat" sim -liveness "$bad/truncated.litmus" "$sb"
has "$tmp/out" "Liveness SB Pass"
has "$tmp/err" "truncated.litmus:"
# -json: the stuck threads; -show with -o: the witness drawn, stuck marked
expect 0 "$scopecat" sim -liveness -json -nohash -show all "$dat3m/Manual/XF-Barrier-weak.litmus"
has "$tmp/out" '"liveness":"Fail","stuck":[{"thread":"P1","how":"spin"},{"thread":"P2","how":"barrier"}]'
has "$tmp/out" '"executions":[{"events":'
mkdir "$tmp/live"
expect 0 "$scopecat" sim -liveness -o "$tmp/live" "$dat3m/Barrier/quorum2-hang.litmus"
has "$tmp/live/test2-hang-1.dot" 'label="P0 (stuck: waits at its barrier for ever)"'
# bad use: with -through, with an argument, a bad engine
expect 2 "$scopecat" sim -liveness -through invalid "$sb"
has "$tmp/err" "scopecat sim: -liveness looks for executions the model allows: no -through with it"
expect 2 "$scopecat" sim -liveness=yes "$sb"
has "$tmp/err" "unknown option '-liveness=yes'"
expect 2 "$scopecat" sim -liveness -engine fast "$sb"
has "$tmp/err" "-engine expects enum, smt or auto, found 'fast'"

# -max-heap SIZE (K, M or G: binary multiples; 0: no cap), the common
# option of every command that loads tests or models; -j's workers inherit it
expect 0 "$scopecat" sim -nohash -max-heap 256M "$sb"
has "$tmp/out" "Observation SB Sometimes"
expect 0 "$scopecat" sim -nohash -j 2 -max-heap 1G "$mp" "$sb"
has "$tmp/out" "Observation SB Sometimes"
expect 0 "$scopecat" parse -max-heap 0 -summary "$mp"
expect 2 "$scopecat" sim -max-heap 12X "$sb"
has "$tmp/err" "scopecat sim: -max-heap expects a size in bytes (K, M or G: binary multiples), found '12X'"
expect 2 "$scopecat" sim --max-heap -1 "$sb"
has "$tmp/err" "scopecat sim: --max-heap expects a size in bytes"
expect 2 "$scopecat" parse "$mp" -max-heap
has "$tmp/err" "scopecat parse: -max-heap needs an argument"
for c in compare gen fences "gpu gen"; do
  expect 2 "$scopecat" $c -max-heap 1T "$mp"
  has "$tmp/err" "scopecat ${c% gen}: -max-heap expects a size in bytes"
done
for c in sim compare gen fences gpu; do
  expect 0 "$scopecat" $c -help
  has "$tmp/out" "  -max-heap SIZE"
done

# herd7's -graph layouts, on Fig. 14's test (a: W x, b: membar.cta, c: W y
# in P0; d: R y, e: membar.gl, f: R x in P1; events e2..e7): cluster, the
# default, boxes each thread in its scopes; free draws no box; columns
# draws no box either but a header per thread, and puts the k-th events
# of the threads on one rank (a and d, then b and e, then c and f)
draw14() { "$scopecat" sim -nohash -through invalid -show prop "$@" "$fig14" |
  sed -n '/^digraph/,$p'; }
draw14 >"$tmp/default.dot"
draw14 -graph cluster >"$tmp/cluster.dot"
cmp -s "$tmp/default.dot" "$tmp/cluster.dot" && ok || fail "-graph cluster differs from the default"
has "$tmp/cluster.dot" 'subgraph cluster_thread0 {'
has "$tmp/cluster.dot" 'label="cta"; style=dashed;'
lacks "$tmp/cluster.dot" 'rank=same'
draw14 -graph free >"$tmp/free.dot"
lacks "$tmp/free.dot" 'subgraph'
lacks "$tmp/free.dot" 'rank=same'
has "$tmp/free.dot" 'e2 [label="a: W[x]=1 cg"];'
has "$tmp/free.dot" 'e7 [label="f: R[x]=0 cg"];'
has "$tmp/free.dot" 'e2 -> e3 [label="po"'
has "$tmp/free.dot" 'e7 -> e2 [label="cta-constraint", color=crimson'
draw14 -graph columns >"$tmp/columns.dot"
lacks "$tmp/columns.dot" 'subgraph'
has "$tmp/columns.dot" 'thread0 [shape=box, label="P0";];'
has "$tmp/columns.dot" '{ rank=same; thread0; thread1; }'
has "$tmp/columns.dot" '{ rank=same; e2; e5; }'
has "$tmp/columns.dot" '{ rank=same; e3; e6; }'
has "$tmp/columns.dot" '{ rank=same; e4; e7; }'
has "$tmp/columns.dot" '{ rank=same; e0; e1; }'
has "$tmp/columns.dot" 'e5 -> e6 [label="po"'
n=$(grep -c '\[label=' "$tmp/columns.dot"); m=$(grep -c '\[label=' "$tmp/cluster.dot")
if [ "$n" -eq "$m" ]; then ok; else fail "columns drew $n labelled nodes and edges, cluster $m"; fi
expect 2 "$scopecat" sim -graph rows "$fig14"
has "$tmp/err" "scopecat sim: -graph expects cluster, free or columns (or a picture format, svg or png, as -graph-format), found 'rows'"
# -graph png keeps its former meaning, the picture format
expect 2 "$scopecat" sim -graph png "$fig14"
has "$tmp/err" "-graph-format needs -o DIR"
# herd7's -showevents: mem leaves the fences out (po then runs from a to
# c across b) and every edge that touches them; memfence and all keep
# them; noregs, the default, is all (no register events here)
draw14 -showevents mem >"$tmp/mem.dot"
lacks "$tmp/mem.dot" 'e3 ['
lacks "$tmp/mem.dot" 'label="b: membar'
lacks "$tmp/mem.dot" 'label="e: membar'
lacks "$tmp/mem.dot" 'e3 ->'
lacks "$tmp/mem.dot" '-> e3 '
has "$tmp/mem.dot" 'e2 -> e4 [label="po"'
has "$tmp/mem.dot" 'e5 -> e7 [label="po"'
has "$tmp/mem.dot" 'e0 [label="W[x]=0"];'
has "$tmp/mem.dot" 'e7 -> e2 [label="cta-constraint"'
draw14 -showevents memory >"$tmp/memory.dot"
cmp -s "$tmp/mem.dot" "$tmp/memory.dot" && ok || fail "-showevents memory differs from mem"
draw14 -showevents memfence >"$tmp/memfence.dot"
has "$tmp/memfence.dot" 'e3 [label="b: membar.cta"];'
has "$tmp/memfence.dot" 'e2 -> e3 [label="po"'
lacks "$tmp/memfence.dot" 'e2 -> e4 [label="po"'
for e in all noregs memf; do
  draw14 -showevents $e >"$tmp/$e.dot"
done
cmp -s "$tmp/default.dot" "$tmp/all.dot" && ok || fail "-showevents all differs from the default"
cmp -s "$tmp/default.dot" "$tmp/noregs.dot" && ok || fail "-showevents noregs differs from the default"
cmp -s "$tmp/memfence.dot" "$tmp/memf.dot" && ok || fail "-showevents memf differs from memfence"
draw14 -graph columns -showevents mem >"$tmp/colmem.dot"
has "$tmp/colmem.dot" '{ rank=same; e2; e5; }'
has "$tmp/colmem.dot" '{ rank=same; e4; e7; }'
lacks "$tmp/colmem.dot" 'e3'
expect 2 "$scopecat" sim -showevents regs "$fig14"
has "$tmp/err" "scopecat sim: -showevents expects noregs, all, mem or memfence, found 'regs'"
# herd7's -macros FILE gives C tests' macros (linux.def): refused for
# PTX and GPU_PTX tests, each test said, never read as though it applied
expect 2 "$scopecat" sim -macros "$tmp/no-such.def" "$fig14"
has "$tmp/err" "scopecat sim: -macros $tmp/no-such.def: cannot read it: No such file or directory"
printf 'smp_mb() { __fence{mb}; }\n' >"$tmp/linux.def"
expect 1 "$scopecat" sim -macros "$tmp/linux.def" "$fig14" "$srcdir/ptx/dat3m/Nvidia/SB-cta.litmus"
has "$tmp/err" "test mp+membar.cta+membar.gl: not run: -macros $tmp/linux.def gives macros of C litmus tests, which herd7 expands in C tests only; this test is GPU_PTX, which has none"
has "$tmp/err" "test SB-cta: not run: -macros $tmp/linux.def gives macros of C litmus tests, which herd7 expands in C tests only; this test is PTX, which has none"
lacks "$tmp/out" "Observation"

# pictures of many drawings in one run, in every layout: Graphviz 2.42
# aborts on some of them (a double free when it frees the layout of
# cas-sl's second and Co-Total-4-threads' first) and took scopecat down
# with it (exit 134, no later picture); each picture is now rendered in a
# process of its own, a crash is an error for that picture, and the run
# goes on to the next test's pictures
for g in cluster free columns; do
  mkdir "$tmp/pics-$g"
  "$scopecat" sim -through invalid -show all -nshow 3 -graph $g -graph-format svg \
      -o "$tmp/pics-$g" "$srcdir/ptx/seeds/cas-sl.litmus" \
      "$srcdir/ptx/dat3m/Manual/Co-Total-4-threads.litmus" "$seeds/sb.litmus" \
      >/dev/null 2>"$tmp/err"
  rc=$?
  if grep -qF "expected scopecat built with Graphviz" "$tmp/err"; then ok; continue; fi
  case $rc in
    0) ok ;;
    1) has "$tmp/err" "expected Graphviz to render the drawing, found it crashed (signal" ;;
    *) fail "-graph $g -graph-format svg: exit $rc" ;;
  esac
  n=$(grep -l '</svg>' "$tmp/pics-$g"/sb-*.svg | wc -l)
  if [ "$n" -eq 3 ]; then ok; else fail "-graph $g: $n whole pictures of sb, expected 3"; fi
done

finish
