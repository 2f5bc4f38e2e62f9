#!/bin/bash
# tools/random-tests.sh: random four-thread scoped GPU_PTX tests, the shape
# of issue 29 (where -engine auto lost to enumeration), written into a
# folder for the benchmark (tools/bench.sh, family random) or by hand.
# Each test: four threads, each of one to three accesses, ld.cg
# or st.cg on two locations x and y, membar.cta/gl/sys between some, an
# address, data or control dependency from a load to a later access of
# the same thread, at most seven writes in all (distinct values 1..7), the
# threads spread over CTAs and warps of one kernel at random, and a
# `locations [...]` clause naming every register and both locations (every
# final state is observed: many of them).  Seeded and deterministic: the
# same seed writes the same text (awk's srand/rand, no clock).
#
# Usage: tools/random-tests.sh DIR [COUNT [FIRST_SEED]]
#   writes DIR/random-SEED.litmus for SEED = FIRST_SEED .. FIRST_SEED+COUNT-1
#   (defaults: 400 tests from seed 1)
set -eu
dir=${1:?usage: tools/random-tests.sh DIR [COUNT [FIRST_SEED]]}
count=${2:-400}
first=${3:-1}
mkdir -p "$dir"

one_test() {
  awk -v seed="$1" '
    function pick(n) { return int(rand() * n) }
    # one access of thread t: a load (register r<k>) or a store of the
    # next value, to x or y; a dependency on an earlier load of t now and
    # then (address: the loaded value, masked to 0, added to the address;
    # data: the stored value is the loaded one masked to 0, plus the
    # value; control: a branch on the loaded value that goes nowhere)
    function access(t, a,   loc, base, dep, r, v) {
      loc = pick(2) ? "x" : "y"
      base = "r" loc
      dep = (nloads[t] > 0 && pick(3) == 0) ? 1 + pick(3) : 0
      r = "r" (nloads[t] > 0 ? pick(nloads[t]) : 0)
      if (dep == 1) {            # address
        emit(t, "and.b32 m" a "," r ",0x80000000")
        emit(t, "cvt.u64.u32 a" a ",m" a)
        emit(t, "add.u64 a" a ",a" a "," base)
        base = "a" a
        wide[t, "a" a] = 1; narrow[t, "m" a] = 1
      } else if (dep == 3) {     # control
        emit(t, "setp.eq.s32 p" a "," r ",-1")
        emit(t, "@p" a " bra L" t "_" a)
        emit(t, "L" t "_" a ":")
        pred[t, "p" a] = 1
      }
      if (writes < 7 && pick(2)) {
        v = ++writes
        if (dep == 2) {          # data
          emit(t, "and.b32 m" a "," r ",0x80000000")
          emit(t, "add.s32 d" a ",m" a "," v)
          narrow[t, "m" a] = 1; narrow[t, "d" a] = 1
          emit(t, "st.cg.s32 [" base "],d" a)
        } else {
          emit(t, "st.cg.s32 [" base "]," v)
        }
      } else {
        r = "r" nloads[t]++
        narrow[t, r] = 1; observed[t, r] = 1
        emit(t, "ld.cg.s32 " r ",[" base "]")
      }
    }
    function emit(t, text) { code[t, len[t]++] = text }
    BEGIN {
      srand(seed)
      T = 4
      writes = 0
      for (t = 0; t < T; t++) {
        n = 1 + pick(3)
        for (a = 0; a < n; a++) {
          access(t, a)
          if (a < n - 1 && pick(3) == 0) {
            f = pick(3)
            emit(t, f == 0 ? "membar.cta" : f == 1 ? "membar.gl" : "membar.sys")
          }
        }
      }
      print "GPU_PTX random-" seed
      print "\"random scoped test (tools/random-tests.sh, seed " seed "): four threads, ld/st.cg on x and y, membar, dependencies, every register and location observed\""
      print "{"
      print "x=0;"; print "y=0;"
      for (t = 0; t < T; t++) {
        print t ":.reg .b64 rx = x;"
        print t ":.reg .b64 ry = y;"
        for (k in narrow) { split(k, s, SUBSEP); if (s[1] == t) print t ":.reg .s32 " s[2] ";" }
        for (k in wide) { split(k, s, SUBSEP); if (s[1] == t) print t ":.reg .u64 " s[2] ";" }
        for (k in pred) { split(k, s, SUBSEP); if (s[1] == t) print t ":.reg .pred " s[2] ";" }
      }
      print "}"
      rows = 0
      for (t = 0; t < T; t++) if (len[t] > rows) rows = len[t]
      line = ""
      for (t = 0; t < T; t++) line = line (t ? " | " : " ") "P" t
      print line " ;"
      for (k = 0; k < rows; k++) {
        line = ""
        for (t = 0; t < T; t++) line = line (t ? " | " : " ") (k < len[t] ? code[t, k] : "")
        print line " ;"
      }
      print ""
      # scoped placement: each thread in one of two CTAs, and in one of
      # two warps of it
      for (t = 0; t < T; t++) { cta[t] = pick(2); warp[t] = pick(2) }
      tree = "(device (kernel"
      for (c = 0; c < 2; c++) {
        inner = ""
        for (w = 0; w < 2; w++) {
          ws = ""
          for (t = 0; t < T; t++) if (cta[t] == c && warp[t] == w) ws = ws " P" t
          if (ws != "") inner = inner " (warp" ws ")"
        }
        if (inner != "") tree = tree " (cta" inner ")"
      }
      print "scopeTree"
      print tree "))"
      print "x: global, y: global"
      print ""
      locs = "x; y"
      for (t = 0; t < T; t++)
        for (r = 0; r < nloads[t]; r++) locs = locs "; " t ":r" r
      print "locations [" locs ";]"
      cond = ""
      for (t = 0; t < T && cond == ""; t++)
        if (nloads[t]) cond = t ":r0=0"
      if (cond == "") cond = "x=0"
      print "exists (" cond ")"
    }'
}

for ((seed = first; seed < first + count; seed++)); do
  one_test "$seed" >"$dir/random-$seed.litmus"
done
