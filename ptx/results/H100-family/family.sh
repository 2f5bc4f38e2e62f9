#!/bin/sh
# family.sh: the H100 run of a generated family (issue 8).
#
#   ptx/results/H100-family/family.sh select DIR   regenerate the selection into DIR
#                                    (what ptx/families/h100/ holds)
#   ptx/results/H100-family/family.sh [run]        compile ptx/families/h100/ (JOBS nvcc in
#                                    parallel), run it on the GPU, write one
#                                    log per test to OUT, then compare them
#                                    with ptx-rmo.cat (OUT/compare.out); what
#                                    it prints is also OUT/family.out
#
# Run from the top of the tree, after `make`.  Environment (defaults):
#   SCOPECAT=./tools/scopecat  N=10000000 (instances per test)
#   CONFIG=ptx/tuned/H100.conf JOBS=16 (parallel nvcc)
#   KEEP=${TMPDIR:-/tmp}/scopecat-h100-family (the compiled programs)
#   OUT=ptx/results/H100-family  FAMILY=ptx/families/h100
set -eu
SCOPECAT=${SCOPECAT:-./tools/scopecat}
N=${N:-10000000}
CONFIG=${CONFIG:-ptx/tuned/H100.conf}
JOBS=${JOBS:-16}
KEEP=${KEEP:-${TMPDIR:-/tmp}/scopecat-h100-family}
OUT=${OUT:-ptx/results/H100-family}
FAMILY=${FAMILY:-ptx/families/h100}

# The cycle of a generated test, from its doc line.
cycle() { sed -n 's/^"cycle: \(.*\)"$/\1/p' "$1"; }

# Every cycle of at most 4 edges of ptx/families/asplos15.edges (the size-4
# part of the 14671-test family, 756 tests) that either
#  - places all its threads in different CTAs (no .cta/.warp edge) and has
#    no membar.sys (on one GPU it is membar.gl plus a system scope that no
#    test here can observe): 244, or
#  - places them all in one CTA (every Rfe/Fre/Coe is .cta) and orders
#    them by po or membar.cta only (no dependency, no membar.gl/.sys): 61.
# No location is shared memory (asplos15.edges has no [shared]).
select_family() {
  dir=$1
  all=$(mktemp -d)
  "$SCOPECAT" gen -size 4 -edges ptx/families/asplos15.edges -o "$all"
  mkdir -p "$dir"
  for f in "$all"/*.litmus; do
    c=$(cycle "$f")
    ext=$(printf '%s\n' $c | grep -c '^\(Rfe\|Fre\|Coe\)' || true)
    cta=$(printf '%s\n' $c | grep -c '^\(Rfe\|Fre\|Coe\)\.cta$' || true)
    if ! printf '%s\n' $c | grep -q '\.\(cta\|warp\)$\|^FenceSys'; then
      cp "$f" "$dir/"
    elif [ "$ext" -eq "$cta" ] &&
         ! printf '%s\n' $c | grep -q '^\(Dp\|FenceGl\|FenceSys\)'; then
      cp "$f" "$dir/"
    fi
  done
  rm -rf "$all"
  # every test must be placeable by the harness
  gen=$(mktemp -d)
  "$SCOPECAT" gpu gen -o "$gen" "$dir" >/dev/null
  rm -rf "$gen"
  echo "family.sh: $(ls "$dir" | grep -c '\.litmus$') tests in $dir"
}

run_family() {
  mkdir -p "$OUT" "$KEEP"
  t0=$(date +%s)
  # compile ahead, in parallel (a kept program built from the same source
  # is reused by `gpu run -keep`)
  ls "$FAMILY"/*.litmus |
    xargs -P "$JOBS" -n 4 "$SCOPECAT" gpu build -gpudir harness -keep "$KEEP" \
      >"$KEEP/build.out" 2>&1 ||
    echo "family.sh: some builds failed (see $KEEP/build.out)"
  t1=$(date +%s)
  n=$(ls "$FAMILY"/*.litmus | wc -l)
  echo "family.sh: built $n tests in $((t1 - t0)) s ($JOBS nvcc at a time)"
  "$SCOPECAT" gpu run -gpudir harness -keep "$KEEP" -config "$CONFIG" \
    -n "$N" -o "$OUT" "$FAMILY"/*.litmus >"$KEEP/run.out" 2>&1 ||
    echo "family.sh: gpu run exit status $? (see $KEEP/run.out)"
  t2=$(date +%s)
  echo "family.sh: ran them in $((t2 - t1)) s, -n $N -config $CONFIG"
  echo "family.sh: $(ls "$OUT"/*.txt | wc -l) logs in $OUT; observations:"
  grep -h '^Observation' "$OUT"/*.txt | awk '{print $3}' | sort | uniq -c
  echo "family.sh: optcheck refused $(grep -l 'no histogram reported' "$OUT"/*.txt | wc -l)"
  # the logs against the model (compare.out is not read as a log)
  status=0
  "$SCOPECAT" compare -tests "$FAMILY" "$OUT" >"$OUT/compare.out" 2>&1 ||
    status=$?
  echo "family.sh: scopecat compare -tests $FAMILY $OUT: exit $status" \
       "(0 all sound, 3 some UNSOUND), in $OUT/compare.out"
}

case ${1:-run} in
select) select_family "${2:?usage: family.sh select DIR}" ;;
run) mkdir -p "$OUT"; run_family 2>&1 | tee "$OUT/family.out" ;;
*) echo "usage: ptx/results/H100-family/family.sh [run | select DIR]" >&2; exit 2 ;;
esac
