#!/bin/bash
# tools/crosscheck.sh: the two engines against each other on everything
# (`make crosscheck`; never part of `make check`, whose tests/sh/engines.sh
# runs a sample).  Every bundled test (ptx/**, all dialects) under its
# default model, ptx/dat3m under both Dat3M models, and generated families
# (`scopecat gen`: asplos15.edges, gpu-ptx.edges, and modern.edges in
# Dat3M's PTX dialect), each run with `sim -engine enum` and with
# `sim -engine smt`.  Per test the two must print the same verdict: the
# Test line's kind, the States (values; the counts differ by design, see
# README "Engines"), Ok/No, the flags, the Condition and the Observation
# word.  A test one engine did not finish (-timeout, a model construct the
# symbolic engine cannot encode, another error) is counted apart, with the
# first line of its message.
#
# Usage: tools/crosscheck.sh [-j N] [-timeout S] [-size N] [-out DIR]
#   -j N        tests at once per engine (default: the number of cores)
#   -timeout S  per-test limit, seconds (default 10)
#   -size N     the generated families' longest cycle (default 4: 3215 tests)
#   -out DIR    keep the logs there (default: a temporary folder, removed)
# Environment: SC_SCOPECAT (default ./tools/scopecat), SC_SRCDIR (default .).
# Prints one line per group and a total: tests, agreed, disagreed, and
# those only enum, only smt or neither finished (with the commonest
# reasons); then each disagreement (the file, each engine's verdict).
# Exit status: 0 when no test disagrees, 1 when one does, 2 on bad usage.
set -u
srcdir=${SC_SRCDIR:-.}
scopecat=${SC_SCOPECAT:-./tools/scopecat}
jobs=$(nproc 2>/dev/null || echo 2)
timeout=10
size=4
out=
usage() {
  echo "usage: tools/crosscheck.sh [-j N] [-timeout S] [-size N] [-out DIR]" >&2
  exit 2
}
while (($#)); do
  (($# >= 2)) || usage
  case $1 in
    -j) jobs=$2 ;;
    -timeout) timeout=$2 ;;
    -size) size=$2 ;;
    -out) out=$2 ;;
    *) usage ;;
  esac
  shift 2
done
[[ $jobs =~ ^[1-9][0-9]*$ && $size =~ ^[2-9]$ && $timeout =~ ^[0-9.]+$ ]] || usage
[[ -x $scopecat ]] || { echo "crosscheck: no $scopecat (run make first)" >&2; exit 2; }
if ! "$scopecat" -engine smt "$srcdir/ptx/seeds/coRR.litmus" >/dev/null 2>&1; then
  echo "crosscheck: this scopecat has no symbolic engine (configure found no Z3)" >&2
  exit 2
fi
if [[ -n $out ]]; then
  mkdir -p "$out" || exit 2
  work=$out
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
progress() { [[ -t 2 ]] && printf '%s\n' "$*" >&2; return 0; }

# The verdict of each test in a -json log, one line each, keyed by its file
# (a litmus file holds one test): what both engines must print alike
# (counts and timings removed).
verdicts() {
  sed -E 's/,"count":[0-9]+//g; s/,"positive":[0-9]+,"negative":[0-9]+//;
          s/,"candidates":.*$/}/' "$1" |
    awk '{ f = $0; sub(/.*"file":"/, "", f); sub(/".*/, "", f); print f "\t" $0 }' |
    LC_ALL=C sort
}

# The tests an engine did not finish, from its stderr ("FILE: [test NAME: ]
# why" or "FILE:LINE:COL: why"), keyed as verdicts() keys them, with the
# first reason given.
unfinished() {
  awk '/^scopecat: / { next }
       { f = $0
         if (match(f, /:[0-9]+:[0-9]+: /)) { w = substr(f, RSTART + RLENGTH); f = substr(f, 1, RSTART - 1) }
         else { i = index(f, ": "); if (!i) next; w = substr(f, i + 2); f = substr(f, 1, i - 1) }
         sub(/^test [^:]*: /, "", w)
         if (index(w, f ": ") == 1) w = substr(w, length(f) + 3)
         if (!(f in seen)) { seen[f] = 1; print f "\t" w } }' "$1" | LC_ALL=C sort
}

total_tests=0 total_agreed=0 total_disagreed=0 total_enum=0 total_smt=0 total_neither=0
printf '%-16s %7s %7s %9s %9s %9s %8s %8s\n' group tests agreed disagreed \
  enum-only smt-only neither seconds

# group NAME ARGS... FILES: both engines over the files, then the tally
group() {
  local name=$1 t0 t1 e
  shift
  if [[ ${*: -1} != *.litmus ]]; then # no test: nothing to run
    printf '%-16s %7d %7d %9d %9d %9d %8d %8.1f\n' "$name" 0 0 0 0 0 0 0
    return
  fi
  t0=$(date +%s.%N)
  for e in enum smt; do
    progress "crosscheck: $name: -engine $e"
    "$scopecat" sim -json -nohash -j "$jobs" -timeout "$timeout" -engine "$e" "$@" \
      >"$work/$name.$e.json" 2>"$work/$name.$e.err"
    verdicts "$work/$name.$e.json" >"$work/$name.$e.v"
    unfinished "$work/$name.$e.err" >"$work/$name.$e.u"
  done
  t1=$(date +%s.%N)
  # join on file and test: both finished (agree or not), or one, or neither
  awk -F'\t' -v name="$name" -v dis="$work/$name.disagreed" '
    FILENAME ~ /enum\.v$/ { ev[$1] = $2; keys[$1] = 1; next }
    FILENAME ~ /smt\.v$/ { sv[$1] = $2; keys[$1] = 1; next }
    FILENAME ~ /enum\.u$/ { eu[$1] = $2; keys[$1] = 1; next }
    FILENAME ~ /smt\.u$/ { su[$1] = $2; keys[$1] = 1; next }
    END {
      for (k in keys) {
        n++
        if ((k in ev) && (k in sv)) {
          if (ev[k] == sv[k]) agreed++
          else { disagreed++; print k "\n  enum: " ev[k] "\n  smt:  " sv[k] > dis }
        } else if (k in ev) { enum_only++; why[su[k] == "" ? "smt: no verdict" : "smt: " su[k]]++ }
        else if (k in sv) { smt_only++; why[eu[k] == "" ? "enum: no verdict" : "enum: " eu[k]]++ }
        else { neither++; why["enum: " eu[k] "; smt: " su[k]]++ }
      }
      printf "%d %d %d %d %d %d\n", n, agreed, disagreed, enum_only, smt_only, neither
      for (w in why) printf "  %6d  %s\n", why[w], w > "/dev/stderr"
    }' "$work/$name.enum.v" "$work/$name.smt.v" "$work/$name.enum.u" "$work/$name.smt.u" \
    >"$work/$name.tally" 2>"$work/$name.reasons"
  read -r n a d eo so ne <"$work/$name.tally"
  printf '%-16s %7d %7d %9d %9d %9d %8d %8.1f\n' "$name" "$n" "$a" "$d" "$eo" "$so" "$ne" \
    "$(echo "$t1 - $t0" | bc)"
  [[ -s $work/$name.reasons ]] && LC_ALL=C sort -rn "$work/$name.reasons" | head -5
  total_tests=$((total_tests + n)) total_agreed=$((total_agreed + a))
  total_disagreed=$((total_disagreed + d)) total_enum=$((total_enum + eo))
  total_smt=$((total_smt + so)) total_neither=$((total_neither + ne))
}

start=$(date +%s.%N)
mapfile -t bundled < <(find "$srcdir/ptx" -name '*.litmus' | LC_ALL=C sort)
mapfile -t dat3m < <(find "$srcdir/ptx/dat3m" -name '*.litmus' | LC_ALL=C sort)
group bundled "${bundled[@]}"
group dat3m-v6.0 -model "$srcdir/cat/ptx-v6.0.cat" "${dat3m[@]}"
group dat3m-v7.5 -model "$srcdir/cat/ptx-v7.5.cat" "${dat3m[@]}"
for fam in "asplos15 gpu_ptx" "gpu-ptx gpu_ptx" "modern ptx"; do
  set -- $fam
  mkdir -p "$work/gen-$1"
  if ! "$scopecat" gen -size "$size" -dialect "$2" -edges "$srcdir/ptx/families/$1.edges" \
       -o "$work/gen-$1" >/dev/null 2>"$work/gen-$1.err"; then
    echo "crosscheck: scopecat gen $1: $(head -1 "$work/gen-$1.err")" >&2
    exit 2
  fi
  mapfile -t gen < <(find "$work/gen-$1" -name '*.litmus' | LC_ALL=C sort)
  group "gen-$1" "${gen[@]}"
done
printf '%-16s %7d %7d %9d %9d %9d %8d %8.1f\n' total "$total_tests" "$total_agreed" \
  "$total_disagreed" "$total_enum" "$total_smt" "$total_neither" \
  "$(echo "$(date +%s.%N) - $start" | bc)"
if ((total_disagreed > 0)); then
  echo
  echo "disagreements (the file, each engine's verdict):"
  cat "$work"/*.disagreed
  exit 1
fi
exit 0
