#!/bin/sh
# fuzz.sh: the inputs the fuzzers of tests/fuzz/ found (crashes, hangs,
# slow units; minimised, in tests/fuzz/regress/HARNESS/), replayed through
# the ordinary CLI: each must end in a clean success or a clean error (exit
# 0 or 1, 3 for an UNSOUND comparison; a message on stderr when it fails),
# within the time limit it is given, never with a signal or a sanitizer
# report.  A sanitizer build (./configure --enable-sanitizers) makes this
# the memory-safety check it is meant to be.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

regress="$srcdir/tests/fuzz/regress"
sb="$srcdir/ptx/seeds/sb.litmus"
mp="$srcdir/ptx/modern/MP+rel.gpu+acq.gpu.litmus"
herd="$srcdir/ptx/herd-gpu-ptx"

# clean OK_STATUSES CMD...: CMD exits with one of OK_STATUSES (a list
# like "0 1"), quietly on success, saying why on failure, without a
# sanitizer report, within 60 s (its own -timeout is far lower)
clean() {
  want=$1; shift
  if command -v timeout >/dev/null 2>&1; then
    timeout 60 "$@" >"$tmp/out" 2>"$tmp/err"
  else
    "$@" >"$tmp/out" 2>"$tmp/err"
  fi
  got=$?
  case " $want " in
  *" $got "*) ok ;;
  *) fail "exit $got, expected one of $want: $*"; tail -n 20 "$tmp/err"; return ;;
  esac
  if grep -q -e 'Sanitizer' -e 'runtime error:' "$tmp/err"; then
    fail "sanitizer report: $*"; tail -n 30 "$tmp/err"
  elif [ "$got" -ne 0 ] && [ ! -s "$tmp/err" ]; then
    fail "exit $got without a message: $*"
  else
    ok
  fi
}

n=0
for f in "$regress"/gpu_ptx/* "$regress"/ptx/*; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  clean "0 1" "$scopecat" parse -summary "$f"
  clean "0 1" "$scopecat" sim -timeout 5 -max-executions 100000 "$f"
done
for f in "$regress"/cat/*; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  clean "0 1" "$scopecat" sim -timeout 5 -model "$f" "$sb" "$mp"
done
for f in "$regress"/hist/*; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  clean "0 1 3" "$scopecat" compare -timeout 5 -tests "$herd" "$f"
done
# herd7 logs: as a model's verdicts on a bundled hardware log, and merged
for f in "$regress"/verdicts/*; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  clean "0 1 3" "$scopecat" compare -timeout 5 -tests "$herd" -verdicts "$f" \
    "$srcdir/ptx/results/H100/mp+membar.gls.txt"
  clean "0 1" "$scopecat" merge "$f"
done
# the run stage (fuzz_run): each engine, with and without -liveness, under
# a deadline the run must keep (clean's 60 s is far past it)
engines="enum auto"
"$scopecat" sim -engine smt "$sb" >/dev/null 2>&1 && engines="$engines smt"
for f in "$regress"/run/*; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  for e in $engines; do
    clean "0 1" "$scopecat" sim -engine "$e" -timeout 1 "$f"
    clean "0 1" "$scopecat" sim -engine "$e" -liveness -timeout 1 "$f"
  done
done
# gpu drf -check's traces (fuzz_drf); a report's litmus tests go to a
# scratch folder
mkdir -p "$tmp/drf"
for f in "$regress"/drf/*; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  clean "0 1" "$scopecat" gpu drf -check "$f" -o "$tmp/drf"
done
echo "fuzz.sh: $n regression inputs"
# the folder must not be empty by mistake: the harnesses found these
if [ "$n" -gt 0 ]; then ok; else fail "no regression inputs under $regress"; fi
finish
