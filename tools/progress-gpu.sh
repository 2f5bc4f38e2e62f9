#!/bin/sh
# progress-gpu.sh: Dat3M's CADP tests (ptx/dat3m/CADP) on the GPU under the
# placements the progress models tell apart, beside what each model
# predicts (issue 27).  For each placement every test is rewritten with its
# threads in a scope tree (tools/place-test.sh), run with `scopecat gpu run`
# (a hang is a launch that did not end within -launch-timeout: the log's
# Hangs line), and set beside `scopecat -liveness -progress M` of the same
# rewritten test for the six models (Fail: some execution the model allows
# leaves a thread stuck; Pass: every one ends).
#
# Placements (the threads of a test, P0 < P1 < P2):
#   warp     all in one warp, one lane each
#   cta      one warp each, in one CTA
#   ctas     one CTA each, all resident at once (the default -blocks)
#   oversub  one CTA each, more CTAs than the GPU holds at once
#            (gpu run -oversubscribe 1: P0's CTAs fill the GPU, P1's start
#            only as P0's end, and so on); the model's tree is ctas'
#
# Usage: tools/progress-gpu.sh [-o DIR] [-list FILE] [-discriminating]
#          [-per-class K] [-predictions FILE] [-predict-only]
#          [-placements "warp cta ..."]
#          [-n N] [-launch-timeout S] [-timeout S] [-j N] [-keep DIR]
#          [-- GPU-RUN-OPTIONS]
#   -o DIR           everything goes here (default progress-gpu.out):
#                    tests/PLACEMENT/ the rewritten tests, logs/PLACEMENT/
#                    the gpu run logs and campaign.out, predictions.tsv,
#                    PLACEMENT.tsv (per test: GPU result, each model's
#                    verdict), table.md (the tables), times.txt
#   -list FILE       only the tests FILE names (CADP/... paths, one a line)
#   -predictions F   the models' verdicts, as predictions.tsv is written
#                    (reused instead of running sim; default: computed)
#   -discriminating  only the tests whose verdict differs between two
#                    models in some placement (the others cannot tell the
#                    models apart)
#   -per-class K     with -discriminating, at most K tests of each class
#                    (the tests whose verdicts are the same under every
#                    model and placement), spread evenly over the class in
#                    placement.tsv's order: every way the models split is
#                    run, in fewer tests
#   -predict-only    stop after predictions.tsv (no GPU needed)
#   -n N             instances per test (default 1000000: 15 launches of a
#                    two-thread test; a hang is seen at the first launch)
#   -launch-timeout S  a launch not done after S s is a hang (default 0.5)
#   -timeout S       gpu run's watchdog (default 30)
#   -j N             sim's and nvcc's jobs (default: processors online)
#   -keep DIR        the built programs go to DIR/TREE/ (default: keep/
#                    under -o; elsewhere keeps -o small)
#   after --          more options for every gpu run (-resume, -config...)
# SC_SCOPECAT names the scopecat to run (default ./tools/scopecat), SC_SRCDIR
# the source tree (its harness/ is gpu run's, unless SCOPECAT_GPU_DIR says).
# A verdict sim could not give (an error) is ? in predictions.tsv, said on
# stderr; the campaign goes on (the tables count only P and F).
# Exit status: 0, 77 when gpu run found no GPU, 1 when a step failed, 2 for
# bad usage.
set -u
srcdir=${SC_SRCDIR:-.}
scopecat=${SC_SCOPECAT:-./tools/scopecat}
place="$srcdir/ptx/dat3m-placement"
models="fair hsa obe hsa_obe lobe unfair"
out=progress-gpu.out keep="" list="" per_class=0 predictions="" discriminating=0 predict_only=0
placements="warp cta ctas oversub"
n=1000000 launch_timeout=0.5 timeout=30
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
usage() { sed -n '/^# Usage:/,/^# SC_SCOPECAT/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
  -o | -list | -predictions | -placements | -n | -launch-timeout | -timeout | -j | -keep | \
  -per-class)
    [ $# -ge 2 ] || { echo "progress-gpu.sh: $1 needs a value" >&2; usage; } ;;
  esac
  case $1 in
  -o) out=$2; shift ;;
  -list) list=$2; shift ;;
  -predictions) predictions=$2; shift ;;
  -discriminating) discriminating=1 ;;
  -per-class) per_class=$2; shift ;;
  -predict-only) predict_only=1 ;;
  -placements) placements=$2; shift ;;
  -n) n=$2; shift ;;
  -launch-timeout) launch_timeout=$2; shift ;;
  -timeout) timeout=$2; shift ;;
  -j) jobs=$2; shift ;;
  -keep) keep=$2; shift ;;
  --) shift; break ;;
  *) echo "progress-gpu.sh: unknown option $1" >&2; usage ;;
  esac
  shift
done
# what follows --, for every gpu run (options without blanks)
gpu_opts="$*"
# the harness of this tree, unless the caller names one
SCOPECAT_GPU_DIR=${SCOPECAT_GPU_DIR:-$(cd "$srcdir" && pwd)/harness}
export SCOPECAT_GPU_DIR
export LC_ALL=C  # sort and join agree on the order
case $per_class in
'' | *[!0-9]*) echo "progress-gpu.sh: -per-class: expected a number, not '$per_class'" >&2; exit 2 ;;
esac
for p in $placements; do
  case $p in warp | cta | ctas | oversub) ;;
  *) echo "progress-gpu.sh: -placements: expected warp, cta, ctas or oversub, not '$p'" >&2; exit 2 ;;
  esac
done
mkdir -p "$out" || exit 1
[ -n "$keep" ] || keep="$out/keep"
: >"$out/times.txt"
now() { date +%s; }
took() { echo "$1 $(($(now) - $2)) s" | tee -a "$out/times.txt"; }

# The tests, with their threads (from placement.tsv: "P0=... P1=...").
awk -F'\t' '!/^#/ { print $1 "\t" $2 }' "$place/placement.tsv" >"$out/all.tsv"
if [ -n "$list" ]; then
  grep -v '^#' "$list" | grep . | awk -F'\t' 'NR == FNR { want[$1] = 1; next } $1 in want' \
    - "$out/all.tsv" >"$out/tests.tsv"
  if [ "$(wc -l <"$out/tests.tsv")" -ne "$(grep -v '^#' "$list" | grep -c .)" ]; then
    echo "progress-gpu.sh: $list names tests that placement.tsv does not have" >&2
    exit 2
  fi
else
  cp "$out/all.tsv" "$out/tests.tsv"
fi

# The placement of each thread, in place-test.sh's WARP,CTA,KERNEL form.
placement_of() {  # PLACEMENT "P0=... P1=..." -> "P0=w,c,k ..."
  echo "$2" | tr ' ' '\n' | awk -F= -v p="$1" '
    { i = NR - 1
      w = (p == "cta") ? i : 0; c = (p == "ctas" || p == "oversub") ? i : 0
      printf "%s%s=%d,%d,0", (NR > 1 ? " " : ""), $1, w, c }
    END { print "" }'
}
tree_of() { [ "$1" = oversub ] && echo ctas || echo "$1"; }

write_tests() {  # PLACEMENT TSV: the rewritten tests under $out/tests/
  while IFS='	' read -r path threads; do
    dst="$out/tests/$1/$path"
    mkdir -p "$(dirname "$dst")"
    "$srcdir/tools/place-test.sh" "$(placement_of "$1" "$threads")" \
      "$srcdir/ptx/dat3m/$path" "$dst" || return 1
  done <"$2"
}

# ---- the models' verdicts ------------------------------------------------
trees=$(for p in $placements; do tree_of "$p"; done | awk '!seen[$0]++' | tr "\n" " ")
if [ -n "$predictions" ]; then
  [ -r "$predictions" ] || { echo "progress-gpu.sh: $predictions: cannot read" >&2; exit 2; }
  [ "$predictions" -ef "$out/predictions.tsv" ] || cp "$predictions" "$out/predictions.tsv"
else
  t0=$(now)
  {
    echo "# placement	test	$(echo $models | tr ' ' '\t')	(P: -liveness Pass, F: Fail, ?: no verdict)"
    for p in $trees; do
      rm -rf "$out/tests/$p"
      write_tests "$p" "$out/tests.tsv" || exit 1
      for m in $models; do
        files=$(cut -f1 "$out/tests.tsv" | sed "s|^|$out/tests/$p/|")
        # shellcheck disable=SC2086 # one word per file
        "$scopecat" -nohash -j "$jobs" -liveness -progress "$m" -json $files \
          >"$out/sim-$p-$m.json" 2>"$out/sim-$p-$m.err"
        # each test's verdict, P or F; a test sim could not judge is ? (and
        # said: the campaign goes on without it)
        sed -n 's|.*"file":"'"$out/tests/$p/"'\([^"]*\)","liveness":"\([PF]\).*|\1\t\2|p' \
          "$out/sim-$p-$m.json" >"$out/sim-$p-$m.tsv"
        if [ -s "$out/sim-$p-$m.err" ] ||
           [ "$(wc -l <"$out/sim-$p-$m.tsv")" -ne "$(wc -l <"$out/tests.tsv")" ]; then
          echo "progress-gpu.sh: sim -liveness -progress $m, $p placement: a verdict is missing (?):" >&2
          cat "$out/sim-$p-$m.err" >&2
        fi
      done
      # one row per test, in tests.tsv's order: the verdicts of each model
      awk -F'\t' -v p="$p" -v models="$models" -v dir="$out" '
        BEGIN { nm = split(models, m, " ")
          for (i = 1; i <= nm; i++) {
            f = dir "/sim-" p "-" m[i] ".tsv"
            while ((getline line < f) > 0) { split(line, kv, "\t"); v[i, kv[1]] = kv[2] }
            close(f) } }
        { row = p "\t" $1
          for (i = 1; i <= nm; i++) row = row "\t" (((i, $1) in v) ? v[i, $1] : "?")
          print row }' "$out/tests.tsv"
    done
  } >"$out/predictions.tsv" || exit 1
  took "predictions (sim -liveness, $(echo $models | wc -w) models, placements: $(echo $trees)):" "$t0"
fi
for p in $trees; do
  got=$(awk -F'\t' -v p="$p" '$1 == p' "$out/predictions.tsv" | cut -f2 | sort -u |
        comm -13 - "$(cut -f1 "$out/tests.tsv" | sort >"$out/want"; echo "$out/want")" | head -3)
  if [ -n "$got" ]; then
    echo "progress-gpu.sh: predictions.tsv has no $p verdicts for $got ..." >&2
    exit 1
  fi
done
[ "$predict_only" = 1 ] && exit 0

# ---- the tests to run -------------------------------------------------------
if [ "$discriminating" = 1 ]; then
  # each test's class: its verdicts under every model and tree; the
  # classes where some two verdicts of one tree differ
  awk -F'\t' -v trees=" $trees " '
    !/^#/ && index(trees, " " $1 " ") {
      v = ""; for (i = 3; i <= NF; i++) { v = v $i; if ($i != $3) split_[$2] = 1 }
      class[$2] = class[$2] $1 ":" v " " }
    END { for (t in split_) print t "\t" class[t] }' "$out/predictions.tsv" |
    sort >"$out/split"
  # in placement.tsv order; at most K of each class, evenly spread
  awk -F'\t' -v k="$per_class" '
    NR == FNR { c[$1] = $2; next }
    $1 in c { n[c[$1]]++; line[c[$1], n[c[$1]]] = $0; order[++m] = $1 }
    END {
      for (i = 1; i <= m; i++) { cl = c[order[i]]; seen[cl]++
        total = n[cl]
        if (k == 0 || total <= k) { print line[cl, seen[cl]]; continue }
        # the j-th pick (j = 0..k-1) is member floor(j * total / k) + 1
        for (j = 0; j < k; j++)
          if (int(j * total / k) + 1 == seen[cl]) { print line[cl, seen[cl]]; break } } }' \
    "$out/split" "$out/tests.tsv" >"$out/run.tsv"
  echo "progress-gpu.sh: $(cut -f2 "$out/split" | sort -u | wc -l) classes of the" \
    "$(wc -l <"$out/split") tests whose verdicts differ between models"
else
  cp "$out/tests.tsv" "$out/run.tsv"
fi
if [ ! -s "$out/run.tsv" ]; then
  echo "progress-gpu.sh: no test to run" >&2
  exit 1
fi
echo "progress-gpu.sh: $(wc -l <"$out/run.tsv") tests in each of: $placements"

# ---- the GPU ------------------------------------------------------------------
status=0 written=" "
for p in $placements; do
  tree=$(tree_of "$p")
  if [ "${written#* $tree }" = "$written" ]; then
    written="$written$tree "
    write_tests "$tree" "$out/run.tsv" || exit 1
    rm -rf "$out/run/$tree"
    # only the tests to run, in a folder of their own (logs are named
    # after the path under it); oversub runs ctas' programs
    while IFS='	' read -r path _; do
      mkdir -p "$out/run/$tree/$(dirname "$path")"
      cp "$out/tests/$tree/$path" "$out/run/$tree/$path"
    done <"$out/run.tsv"
  fi
  over=""
  [ "$p" = oversub ] && over="-oversubscribe 1"
  mkdir -p "$out/logs/$p" "$keep"
  t0=$(now)
  # shellcheck disable=SC2086 # $over, $gpu_opts: options and their values
  "$scopecat" gpu run -keep "$keep/$tree" -o "$out/logs/$p" -jobs "$jobs" \
    -n "$n" -launch-timeout "$launch_timeout" -timeout "$timeout" $over $gpu_opts \
    "$out/run/$tree" >"$out/logs/$p.out" 2>"$out/logs/$p.err"
  rc=$?
  took "gpu run, $p:" "$t0"
  if [ $rc -eq 77 ]; then
    echo "progress-gpu.sh: no GPU (gpu run exit 77); predictions.tsv is written"
    exit 77
  fi
  [ $rc -ne 0 ] && { echo "progress-gpu.sh: gpu run, $p: exit $rc (see $out/logs/$p.err)"; status=1; }
done

# ---- the tables ---------------------------------------------------------------
# A test's GPU result: hung (a Hangs line), ended (an Observation line and
# no Hangs), failed (no log, a refusal, the watchdog).
for p in $placements; do
  tree=$(tree_of "$p")
  while IFS='	' read -r path _; do
    log="$out/logs/$p/$(echo "${path%.litmus}" | sed 's|/|__|g').txt"
    if [ ! -f "$log" ]; then r=failed
    elif grep -q '^Hangs ' "$log"; then r=hung
    elif grep -q '^Watchdog: \|^Run failed' "$log"; then r=failed
    elif grep -q '^Observation ' "$log"; then r=ended
    else r=failed; fi
    v=$(awk -F'\t' -v p="$tree" -v t="$path" '$1 == p && $2 == t { $1 = $2 = ""; print }' \
          "$out/predictions.tsv" | tr -s ' ' | sed 's/^ //' | tr ' ' '\t')
    printf '%s\t%s\t%s\n' "$path" "$r" "$v"
  done <"$out/run.tsv" >"$out/$p.tsv"
done

{
  echo "# The progress models against the GPU"
  echo
  echo "Per placement: the tests that hung and that ended, and for each model"
  echo "how its liveness verdict (sim -liveness -progress M of the same placed"
  echo "test) stands beside them.  A model is contradicted by a test that hung"
  echo "where it says every execution ends (Pass); a model's Fail on a test that"
  echo "ended is a hang it allows that the GPU did not show.  Consistent: no"
  echo "contradiction; closest: of those, the fewest hangs allowed but not seen."
  for p in $placements; do
    echo
    case $p in
    warp) echo "## warp: all threads in one warp" ;;
    cta) echo "## cta: one warp each, in one CTA" ;;
    ctas) echo "## ctas: one CTA each, all resident" ;;
    oversub) echo "## oversub: one CTA each, more CTAs than the GPU holds (-oversubscribe 1)" ;;
    esac
    echo
    awk -F'\t' -v models="$models" '
      BEGIN { nm = split(models, m, " ") }
      { r[$2]++
        if ($2 == "failed") next
        for (i = 1; i <= nm; i++) {
          v = $(2 + i); k = m[i] SUBSEP $2 SUBSEP v; c[k]++
          if ($2 == "hung" && v == "P") bad[m[i]] = bad[m[i]] " " $1 } }
      END {
        printf "%d tests: %d hung, %d ended, %d failed (not run, refused or killed)\n\n",
          NR, r["hung"], r["ended"], r["failed"]
        print "| model | hung, Fail | hung, Pass (contradicts) | ended, Pass | ended, Fail (not seen) |"
        print "|---|---|---|---|---|"
        best = ""; bestn = -1; cons = ""
        for (i = 1; i <= nm; i++) {
          mm = m[i]; hp = c[mm, "hung", "P"] + 0; ef = c[mm, "ended", "F"] + 0
          printf "| %s | %d | %d | %d | %d |\n", mm, c[mm, "hung", "F"] + 0, hp,
            c[mm, "ended", "P"] + 0, ef
          if (hp == 0) { cons = cons " " mm; if (bestn < 0 || ef < bestn) { best = mm; bestn = ef } }
        }
        print ""
        if (cons == "") print "Consistent with: no model."
        else printf "Consistent with:%s; closest: %s (%d hangs allowed, not seen).\n", cons, best, bestn
        for (i = 1; i <= nm; i++)
          if (bad[m[i]] != "") printf "\nHung where %s says Pass:%s\n", m[i], bad[m[i]]
      }' "$out/$p.tsv"
  done
} >"$out/table.md"
cat "$out/table.md"
exit $status
