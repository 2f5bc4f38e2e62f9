#!/bin/bash
# tools/bench.sh: the performance benchmark (`make bench`; never part of
# `make check`).  Runs fixed families of tests through `scopecat sim -json`,
# each under enumeration (-engine enum) and under the CLI's default (-engine
# auto: the symbolic engine where enumeration's estimate is large), side by
# side in one run, and prints per family and engine: tests, wall time, CPU
# time (user + system, all workers: steadier than wall time on a shared
# machine), the slowest test, candidates (under smt: combinations of traces
# given to the solver or enumerated), allowed executions (Positive +
# Negative, what herd7 counts; states under smt), peak memory (the largest
# process: with -j, the largest worker), tests that failed (error or
# -timeout), tests the symbolic engine ran, the ratio of enumeration's wall
# time to this engine's, and the ratios (baseline / now) of wall time and
# CPU time against a baseline file.
#
# Families (generated ones are written afresh to a temporary folder, the
# same text every run):
#   nwriters-N   N = 4..10: threads P0..P(N-1), Pi does st.cg x,(i+1); the
#                condition is `exists (x=1)`.  GPU_PTX: co is total, so
#                there are N! candidates, all allowed by ptx-rmo.cat.
#                From N = 7 also under -engine smt.
#   coRR2-N      N = 4..10: the same writers plus a thread PN reading x
#                twice (ld.cg r0,x; ld.cg r1,x), herd7's shape in issue 7
#                (322,560 candidates at N = 7): N! (N+1)^2 candidates,
#                all allowed (ptx-rmo.cat lets a load pass a load).  From
#                N = 7 also under -engine smt; N = 9, 10 not enumerated
#                (minutes).
#   seeds        ptx/seeds, the default model
#   herd-gpu-ptx ptx/herd-gpu-ptx, the default model
#   dat3m-v6.0   every test of ptx/dat3m under cat/ptx-v6.0.cat, -j 2
#   dat3m-v7.5   every test of ptx/dat3m under cat/ptx-v7.5.cat, -j 2
#   live-v6.0, live-v7.5 (and -smt)   sim -liveness on the 91 tests of
#                Dat3M's PTXv6_0/PTXv7_5-Liveness-expected.csv under that
#                model, -j 2, enumeration (and -engine smt)
#   scoped-TxA   random GPU_PTX tests (fixed seed): T threads of A accesses
#                (ld/st.cg on x and y, membar.cta/gl/sys between some),
#                threads spread over two CTAs of one kernel; 6 tests per
#                shape, shapes 2x4 2x6 2x8 3x4 3x5 4x3 4x4 (up to 16 accesses)
#
# Usage: tools/bench.sh [-save] [-only REGEX] [-timeout S]
#   -save        write this run's figures as the new baseline
#   -only REGEX  run only the families whose name matches (grep -E)
#   -timeout S   per-test limit (default 10 s, as the baseline); a test past it
#                counts as failed
# Environment: SC_SCOPECAT (default ./tools/scopecat), SC_SRCDIR (default .),
# BENCH_BASELINE (default $SC_SRCDIR/tools/bench.baseline), BENCH_OUT (the
# figures of this run, default ./bench.out; rows keyed NAME for enumeration,
# NAME/ENGINE for the others).  Without a baseline file the run's figures
# become it.
set -u
srcdir=${SC_SRCDIR:-.}
scopecat=${SC_SCOPECAT:-./tools/scopecat}
baseline=${BENCH_BASELINE:-$srcdir/tools/bench.baseline}
outfile=${BENCH_OUT:-./bench.out}
only=.
timeout=10
save=no
while (($#)); do
  case $1 in
    -save) save=yes ;;
    -only) only=$2; shift ;;
    -timeout) timeout=$2; shift ;;
    *) echo "usage: tools/bench.sh [-save] [-only REGEX] [-timeout S]" >&2; exit 2 ;;
  esac
  shift
done
[[ -x $scopecat ]] || { echo "bench: no $scopecat (run make first)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- Generated families ----------------------------------------------------

# nwriters N READS: N writer threads, and a reader thread when READS is 2.
nwriters() {
  local n=$1 reads=$2 i
  if ((reads)); then echo "GPU_PTX coRR2-$n"; else echo "GPU_PTX nwriters-$n"; fi
  echo "\"$n threads each store a distinct value to x$( ((reads)) && echo '; one more reads x twice')\""
  echo "{"
  echo "x=0;"
  for ((i = 0; i < n; i++)); do
    echo "$i:.reg .s32 r0 = $((i + 1));"
    echo "$i:.reg .b64 r8 = x;"
  done
  if ((reads)); then
    echo "$n:.reg .s32 r0;"; echo "$n:.reg .s32 r1;"; echo "$n:.reg .b64 r8 = x;"
  fi
  echo "}"
  local head="" row1="" row2=""
  for ((i = 0; i < n; i++)); do
    head+=" P$i |"; row1+=" st.cg.s32 [r8],r0 |"; row2+=" |"
  done
  if ((reads)); then
    echo "${head} P$n ;"
    echo "${row1} ld.cg.s32 r0,[r8] ;"
    echo "${row2} ld.cg.s32 r1,[r8] ;"
    echo
    echo "exists ($n:r0=1 /\\ $n:r1=1)"
  else
    echo "${head%|};"
    echo "${row1%|};"
    echo
    echo "exists (x=1)"
  fi
}

# scoped T A SEED: a random test of T threads with A accesses each.
scoped() {
  awk -v T="$1" -v A="$2" -v seed="$3" '
    function pick(n) { return int(rand() * n) }
    BEGIN {
      srand(seed)
      name = "scoped-" T "x" A "-" seed
      print "GPU_PTX " name
      print "\"random scoped test: " T " threads, " A " accesses each\""
      print "{"
      print "x=0;"; print "y=0;"
      val = 0
      for (t = 0; t < T; t++) {
        print t ":.reg .b64 rx = x;"
        print t ":.reg .b64 ry = y;"
        nl = 0
        for (a = 0; a < A; a++) {
          loc = pick(2) ? "rx" : "ry"
          if (pick(2)) {
            cell[t, a] = "ld.cg.s32 r" nl ",[" loc "]"
            regs[t, nl++] = 1
          } else {
            val++
            cell[t, a] = "st.cg.s32 [" loc "]," val
          }
          if (a < A - 1 && pick(3) == 0) {
            f = pick(3)
            fence[t, a] = f == 0 ? "membar.cta" : f == 1 ? "membar.gl" : "membar.sys"
          }
        }
        nregs[t] = nl
        for (r = 0; r < nl; r++) print t ":.reg .s32 r" r ";"
      }
      print "}"
      # rows: accesses with the fences between them
      for (t = 0; t < T; t++) {
        k = 0
        for (a = 0; a < A; a++) {
          col[t, k++] = cell[t, a]
          if ((t, a) in fence) col[t, k++] = fence[t, a]
        }
        len[t] = k
        if (k > rows) rows = k
      }
      line = ""
      for (t = 0; t < T; t++) line = line (t ? " | " : " ") "P" t
      print line " ;"
      for (k = 0; k < rows; k++) {
        line = ""
        for (t = 0; t < T; t++) line = line (t ? " | " : " ") (k < len[t] ? col[t, k] : "")
        print line " ;"
      }
      print ""
      # threads over two CTAs, each in its own warp
      tree = "(device (kernel"
      for (c = 0; c < 2; c++) {
        inner = ""
        for (t = 0; t < T; t++) if (t % 2 == c) inner = inner " (warp P" t ")"
        if (inner != "") tree = tree " (cta" inner ")"
      }
      print "scopeTree"
      print tree "))"
      print "x: global, y: global"
      print ""
      cond = ""
      for (t = 0; t < T; t++)
        if (nregs[t]) cond = cond (cond == "" ? "" : " /\\ ") t ":r0=0"
      if (cond == "") cond = "x=0"
      print "exists (" cond ")"
    }'
}

# ---- Running a family --------------------------------------------------------

printf '%-14s %-5s %5s %9s %8s %9s %11s %9s %8s %4s %4s | %7s | %7s %7s\n' family engine \
  tests wall_s cpu_s slowest_s candidates allowed peak_MB fail smt 'x enum' 'x wall' 'x cpu'
: >"$outfile"

# run ENGINE JOBS ARGS... -- FILES...: one run; sets the figures below.
run() {
  local engine=$1 jobs=$2
  shift 2
  local args=()
  while [[ $1 != -- ]]; do args+=("$1"); shift; done
  shift
  nfiles=$#
  /usr/bin/time -f '%e %M %U %S' -o "$tmp/time" "$scopecat" -json -nohash -j "$jobs" \
    -timeout "$timeout" -engine "$engine" "${args[@]}" "$@" >"$tmp/json" 2>"$tmp/err"
  local user sys
  read -r wall peak user sys < <(tail -n 1 "$tmp/time") 2>/dev/null || { wall=0; peak=0; }
  cpu=$(awk -v u="${user:-0}" -v s="${sys:-0}" 'BEGIN { printf "%.2f", u + s }')
  # with -j, /usr/bin/time sees the largest of the workers (each ran some
  # of the tests): an upper bound of any one test's peak
  read -r slow cand allowed fails nsmt < <(awk -v n="$#" '
    { c = $0; sub(/.*"candidates":/, "", c); c += 0
      p = $0; sub(/.*"positive":/, "", p); p += 0
      q = $0; sub(/.*"negative":/, "", q); q += 0
      t = $0; sub(/.*"time":/, "", t); t += 0
      if ($0 ~ /"engine":"smt"/) smt++
      cand += c; allowed += p + q; if (t > slow) slow = t; ok++ }
    END { printf "%.3f %d %d %d %d", slow, cand, allowed, n - ok, smt }' "$tmp/json")
}

# family NAME JOBS ENGINES ARGS... -- FILES...: the files under each engine
# of ENGINES (a list, e.g. "enum auto"), one line each, side by side: an
# engine after enum gets the ratio of enum's wall time to its own ('>'
# when enum left tests past the -timeout: a lower bound), every line the
# ratios against the baseline's row (the key: NAME for enum, NAME/ENGINE
# otherwise).
family() {
  local name=$1 jobs=$2 engines=$3
  shift 3
  [[ $name =~ $only ]] || return 0
  local engine enum_wall="" enum_fails=0
  for engine in $engines; do
    run "$engine" "$jobs" "$@"
    local key=$name
    [[ $engine == enum ]] || key=$name/$engine
    local line
    line=$(printf '%-14s %-5s %5d %9.2f %8.2f %9.3f %11d %9d %8.1f %4d %4d' "$name" \
      "$engine" "$nfiles" "$wall" "$cpu" "$slow" "$cand" "$allowed" \
      "$(awk -v k="$peak" 'BEGIN { print k / 1024 }')" "$fails" "$nsmt")
    echo "$key $nfiles $wall $slow $cand $allowed $peak $fails $cpu" >>"$outfile"
    local vs_enum="" ratio="" base
    if [[ $engine == enum ]]; then
      enum_wall=$wall enum_fails=$fails
    elif [[ -n $enum_wall ]]; then
      vs_enum=$(awk -v e="$enum_wall" -v w="$wall" -v f="$enum_fails" 'BEGIN {
        printf "%s", (w > 0 ? (f > 0 ? ">" : "") sprintf("%.1f", e / w) : "-") }')
    fi
    base=$(awk -v f="$key" '$1 == f' "$baseline" 2>/dev/null)
    if [[ -n $base ]]; then
      # a ratio against a baseline row with failures is a lower bound: '>'
      ratio=$(awk -v b="$base" -v w="$wall" -v u="$cpu" 'BEGIN {
        split(b, x, " ")
        lb = x[8] > 0 ? ">" : ""
        printf "%7s %7s", (w > 0 ? lb sprintf("%.1f", x[3] / w) : "-"),
          (u > 0 && x[9] != "" ? lb sprintf("%.1f", x[9] / u) : "-") }')
    fi
    printf '%s | %7s | %s\n' "$line" "$vs_enum" "$ratio"
  done
}

# Every family under enumeration and under auto (the CLI's default: the
# symbolic engine where enumeration's estimate is large); the writers also
# under -engine smt, and the largest only under the engines that finish.
for n in 4 5 6 7 8 9 10; do
  nwriters "$n" 0 >"$tmp/nwriters-$n.litmus"
  engines="enum auto"
  ((n >= 7)) && engines="enum auto smt"
  family "nwriters-$n" 1 "$engines" -- "$tmp/nwriters-$n.litmus"
done
for n in 4 5 6 7 8 9 10; do
  nwriters "$n" 2 >"$tmp/coRR2-$n.litmus"
  engines="enum auto"
  ((n >= 7)) && engines="enum auto smt"
  ((n >= 9)) && engines="auto smt" # enumeration: minutes
  family "coRR2-$n" 1 "$engines" -- "$tmp/coRR2-$n.litmus"
done
family seeds 1 "enum auto" -- "$srcdir"/ptx/seeds/*.litmus
family herd-gpu-ptx 1 "enum auto" -- "$srcdir"/ptx/herd-gpu-ptx/*.litmus
mapfile -t dat3m < <(find "$srcdir/ptx/dat3m" -name '*.litmus' | LC_ALL=C sort)
family dat3m-v6.0 2 "enum auto" -model "$srcdir/cat/ptx-v6.0.cat" -- "${dat3m[@]}"
family dat3m-v7.5 2 "enum auto" -model "$srcdir/cat/ptx-v7.5.cat" -- "${dat3m[@]}"
# -liveness on the tests of Dat3M's liveness CSVs, the engines side by side
# ("allowed" is 0 there: a liveness result has no states)
mapfile -t live < <(grep -v '^$' "$srcdir/ptx/dat3m/expected/PTXv6_0-Liveness-expected.csv" |
  sed "s|^litmus/PTX/|$srcdir/ptx/dat3m/|; s|,.*||")
for v in v6.0 v7.5; do
  family "live-$v" 2 "enum smt auto" -liveness -model "$srcdir/cat/ptx-$v.cat" -- "${live[@]}"
done
for shape in 2x4 2x6 2x8 3x4 3x5 4x3 4x4; do
  files=()
  for seed in 1 2 3 4 5 6; do
    f="$tmp/scoped-$shape-$seed.litmus"
    scoped "${shape%x*}" "${shape#*x}" "$seed" >"$f"
    files+=("$f")
  done
  family "scoped-$shape" 1 "enum auto" -- "${files[@]}"
done

if [[ $save == yes || ! -s $baseline ]]; then
  {
    echo "# tools/bench.sh figures: family tests wall_s slowest_s candidates allowed peak_KB failed cpu_s"
    echo "# $(date -u +%Y-%m-%d) $(uname -m), $(nproc) cores; $($scopecat -version 2>/dev/null | head -1)"
    cat "$outfile"
  } >"$baseline.new" && mv "$baseline.new" "$baseline"
  echo "bench: saved the baseline in $baseline"
fi
