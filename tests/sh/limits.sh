#!/bin/sh
# limits.sh: every limit of `scopecat sim` (issue 9) is hit by an input
# made for it, and stops that test with exit status 1 and a message naming
# the limit; a value just above what the input needs lets it through, so
# each check can fail both ways.  Also: a let rec that never converges and a
# cycle of includes are errors, not hangs; a bad limit value is a usage error.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

sb="$srcdir/ptx/seeds/sb.litmus"      # 2 threads, 6 events, 4 candidates
lim="$srcdir/tests/data/limits"

# elapsed S CMD...: like expect 1, and CMD must finish within S seconds
elapsed() {
  most=$1; shift
  start=$(date +%s)
  expect 1 "$@"
  took=$(($(date +%s) - start))
  if [ "$took" -le "$most" ]; then ok; else fail "took ${took}s, more than ${most}s: $*"; fi
}

# threads: -max-threads, and the default (256)
expect 1 "$scopecat" sim -max-threads 1 "$sb"
has "$tmp/err" "sb.litmus:14:22: expected at most 1 threads (the thread limit)"
expect 0 "$scopecat" sim -max-threads 2 "$sb"
awk 'BEGIN { printf "GPU_PTX many\n{}\n"; s = " P0"; c = " membar.gl";
             for (i = 1; i < 257; i++) { s = s " | P" i; c = c " | membar.gl" }
             print s " ;"; print c " ;"; print "exists (x=0)" }' >"$tmp/many.litmus"
expect 1 "$scopecat" sim "$tmp/many.litmus"
has "$tmp/err" "expected at most 256 threads (the thread limit)"

# events of an execution: 2 initial writes + 2 x 2 accesses in sb
expect 1 "$scopecat" sim -max-events 5 "$sb"
has "$tmp/err" "expected executions of at most 5 events (the -max-events limit), found one of 6"
expect 0 "$scopecat" sim -max-events 6 "$sb"

# candidate executions
expect 1 "$scopecat" sim -max-executions 3 "$sb"
has "$tmp/err" "expected at most 3 candidate executions (the -max-executions limit)"
expect 0 "$scopecat" sim -max-executions 4 "$sb"

# events of one run of a thread: three stores pass -max-run-events 3 and
# stop at 2, at the store that would be the third; the default and most is
# 64 (a run's dependencies are 64-bit masks): 65 stores stop there, and a
# higher value is a usage error that says why
printf 'GPU_PTX three\n{}\n P0 ;\n st.cg.s32 [x], 1 ;\n st.cg.s32 [x], 2 ;\n st.cg.s32 [x], 3 ;\nexists (x=3)\n' >"$tmp/three.litmus"
expect 0 "$scopecat" sim -max-run-events 3 "$tmp/three.litmus"
expect 1 "$scopecat" sim -max-run-events 2 "$tmp/three.litmus"
has "$tmp/err" "three.litmus:6:2: expected at most 2 events in a thread's run (the -max-run-events limit)"
awk 'BEGIN { print "GPU_PTX long"; print "{}"; print " P0 ;"
             for (i = 1; i <= 65; i++) print " st.cg.s32 [x], " i " ;"
             print "exists (x=65)" }' >"$tmp/long.litmus"
expect 1 "$scopecat" sim "$tmp/long.litmus"
has "$tmp/err" "long.litmus:68:2: expected at most 64 events in a thread's run (the -max-run-events limit)"
expect 2 "$scopecat" sim -max-run-events 65 "$tmp/long.litmus"
has "$tmp/err" "-max-run-events expects a number from 1 to 64 (a run's dependencies are 64-bit masks), found '65'"

# file size (sb.litmus is over 600 bytes)
expect 1 "$scopecat" sim -max-file-size 100 "$sb"
has "$tmp/err" "sb.litmus: expected at most 100 bytes (the file-size limit)"
expect 0 "$scopecat" sim -max-file-size 100000 "$sb"

# cat recursion depth: a function calling itself for ever, stopped at the
# default depth, at a given one, and at the largest one allowed (no stack
# overflow, sanitizers included)
expect 1 "$scopecat" sim -model "$lim/deep.cat" "$sb"
has "$tmp/err" "deep.cat:2:15: expected function calls nested at most 1000 deep, found deeper (the -max-depth limit"
expect 1 "$scopecat" sim -max-depth 50 -model "$lim/deep.cat" "$sb"
has "$tmp/err" "nested at most 50 deep"
expect 1 "$scopecat" sim -max-depth 10000 -model "$lim/deep.cat" "$sb"
has "$tmp/err" "nested at most 10000 deep"
expect 2 "$scopecat" sim -max-depth 10001 -model "$lim/deep.cat" "$sb"
has "$tmp/err" "-max-depth expects a number from 1 to 10000, found '10001'"
# a call in tail position is a loop, not a nesting: a recursion over the
# events, deeper than -max-depth 2, runs (herd's cross.cat walks every order
# of the writes so: 5040 steps at 8 writers)
expect 0 "$scopecat" sim -max-depth 2 -model "$lim/tail.cat" "$sb"

# nested forks (30 in forks.cat)
expect 1 "$scopecat" sim -max-forks 20 -model "$lim/forks.cat" "$sb"
has "$tmp/err" "expected 'with ... from' forks nested at most 20 deep, found deeper (the -max-forks limit)"
expect 0 "$scopecat" sim -max-forks 40 -model "$lim/forks.cat" "$sb"

# let rec: one that never converges is an error naming the binding, by
# default after events^2 + 2 rounds (here 100, the least); one that
# converges in a few rounds is stopped only by a lower limit
elapsed 20 "$scopecat" sim -model "$lim/grow.cat" "$sb"
has "$tmp/err" "grow.cat:2:1: expected 'let rec s' to reach its fixpoint within 100 iterations (the -max-iterations limit), found it still changing"
expect 1 "$scopecat" sim -max-iterations 1 -model "$lim/closure.cat" "$sb"
has "$tmp/err" "closure.cat:2:1: expected 'let rec r' to reach its fixpoint within 1 iterations"
expect 0 "$scopecat" sim -model "$lim/closure.cat" "$sb"

# time per test: the same let rec allowed a billion rounds is stopped by
# -timeout inside the model's evaluation, well before the harness's patience
elapsed 20 "$scopecat" sim -timeout 1 -max-iterations 1000000000 -model "$lim/grow.cat" "$sb"
has "$tmp/err" "expected the model to finish an execution within 1 s (the -timeout limit)"
expect 2 "$scopecat" sim -timeout -1 "$sb"

# every loop of the simulator looks at the one deadline (issue 24), under
# each engine: values10 (11^10 combinations of traces in the value
# fixpoint, once a hang), fences8 (431723379 orders of eight fence.sc; with
# seven, once all listed first: 0.5 GB, so -max-heap 64M said out of memory;
# -max-executions is raised past them so only the deadline can stop it) and
# threads64 each end with the -timeout error, well within 5 times it;
# bars8 (eight threads of one CTA meeting at bar.sync 0 four times: 32!/4!^8
# orders of arrival, under ptx-v6.0.cat, which names syncbar; once 12 s
# under -timeout 1) too
engines="enum auto"
"$scopecat" sim -engine smt "$sb" >/dev/null 2>&1 && engines="$engines smt"
for t in values10 fences8 threads64 bars8; do
  for e in $engines; do
    elapsed 5 "$scopecat" sim -engine "$e" -timeout 1 -max-heap 64M \
      -max-executions 4000000000 -model ptx-v6.0.cat \
      "$lim/$t.litmus"
    has "$tmp/err" "$t.litmus: expected to finish within 1 s (the -timeout limit)"
  done
done
# the same hang under -max-executions: each combination of traces the
# value fixpoint finds whose reads can all be fed makes a candidate
elapsed 5 "$scopecat" sim -max-executions 1000 "$lim/values10.litmus"
has "$tmp/err" "values10.litmus: expected at most 1000 candidate executions (the -max-executions limit)"
# a run that ends past its deadline is a timeout, not a result: sb's four
# candidates take longer than a microsecond
expect 1 "$scopecat" sim -timeout 0.000001 "$sb"
has "$tmp/err" "sb.litmus: expected to finish within 1e-06 s (the -timeout limit)"
lacks "$tmp/out" "Test sb"

# Z3's memory is under -max-heap too (Z3's own limit set from the cap,
# every term it makes checked): CADP's 153_simple under -liveness takes
# about 90 MB of the symbolic engine; capped, it fails as the collector's
# cap does, and the batch goes on.  Under an address-space limit Z3 cannot
# even make its context: an error, not a crash (it was signal 11), where
# enumeration answers under the same limit (not under a sanitizer, which
# reserves more address space than that: then skipped)
if [ "${engines#*smt}" != "$engines" ]; then
  cadp="$srcdir/ptx/dat3m/CADP/2_threads_4_instructions/153_simple.litmus"
  expect 1 "$scopecat" sim -engine smt -liveness -max-heap 16M "$cadp" "$sb"
  has "$tmp/err" "153_simple.litmus: out of memory: the solver (Z3) would pass the heap limit of 16777216 bytes (-max-heap)"
  has "$tmp/out" "Liveness sb Pass"
  as=$((45 * 1024 * 1024))
  if command -v prlimit >/dev/null &&
     prlimit --as=$as "$scopecat" sim -engine enum "$sb" >/dev/null 2>&1; then
    expect 1 prlimit --as=$as "$scopecat" sim -engine smt "$sb"
    has "$tmp/err" "sb.litmus: out of memory: the solver (Z3) could not allocate"
  fi
fi

# a cycle of includes
expect 1 "$scopecat" sim -model "$srcdir/tests/data/cycle-a.cat" "$sb"
has "$tmp/err" "cycle-b.cat:2:1: include cycle: "

# -max-heap: a test whose model needs more memory than the cap fails with
# a message naming memory and the option; the tests after it still run,
# in one process and with -j.  wide.litmus: 60 threads of 30 stores to
# locations of their own, 3600 events: each relation is 1.6 MB, the model
# holds tens of them (about 130 MB without a cap).
awk 'BEGIN {
  T = 60; K = 30
  print "GPU_PTX wide"; print "{"
  for (t = 0; t < T; t++) for (k = 0; k < K; k++) printf "x%d_%d=0;\n", t, k
  print "}"
  for (t = 0; t < T; t++) printf "%s P%d", (t ? " |" : ""), t
  print " ;"
  for (k = 0; k < K; k++) {
    for (t = 0; t < T; t++) printf "%s st.cg.s32 [x%d_%d], 1", (t ? " |" : ""), t, k
    print " ;"
  }
  print "exists (x0_0=1)"
}' >"$tmp/wide.litmus"
# Under each engine: the symbolic one left its Z3 context open when the
# jump out of memory passed its close, and Z3's memory counted against the
# cap then refused sb's solver.  Under ASan, -engine auto still keeps the
# failed test's memory (not found yet: the ChangeLog says so), so there the
# default road is left out.
heap_engines="enum auto"
if "$scopecat" -engine smt "$sb" >/dev/null 2>&1; then heap_engines="$heap_engines smt"; fi
case ${SC_CFLAGS:-} in
*-fsanitize=address*) heap_engines=$(echo "$heap_engines" | sed 's/ auto//')
  echo "ASan build: -max-heap's batch under -engine auto left out" ;;
esac
for e in $heap_engines; do
  expect 1 "$scopecat" sim -engine "$e" -nohash -max-heap 24M "$tmp/wide.litmus" "$sb"
  has "$tmp/err" "wide.litmus: out of memory: "
  has "$tmp/err" "would pass the heap limit of 25165824 bytes (-max-heap)"
  has "$tmp/out" "Observation sb Sometimes"
  lacks "$tmp/out" "Test wide"
done
expect 1 "$scopecat" sim -nohash -j 2 -max-heap 24M "$tmp/wide.litmus" "$sb"
has "$tmp/err" "(-max-heap)"
has "$tmp/out" "Observation sb Sometimes"
# without the cap the same test runs (the failure was the cap's)
expect 0 "$scopecat" sim -nohash "$tmp/wide.litmus"
has "$tmp/out" "Observation wide Always 1 0"
# a cap too small to work in is a usage error
expect 2 "$scopecat" sim -max-heap 1 "$sb"
has "$tmp/err" "scopecat sim: -max-heap: expected a heap limit of 0 (none) or at least 8388608 bytes, found 1"

# bad values
expect 2 "$scopecat" sim -max-events 0 "$sb"
has "$tmp/err" "-max-events expects a number from 1 to"
expect 2 "$scopecat" sim -max-threads x "$sb"
has "$tmp/err" "-max-threads expects a non-negative integer, found 'x'"

finish
