#!/bin/sh
# kernels.sh: every verdict of ptx/kernels/expected.csv (argued by hand in
# ptx/kernels/VERDICTS.md) against what `scopecat kernel` says of the
# corpus: for each row, the kernel's committed .ptx under the row's model
# and -unroll must print `Property PROPERTY VERDICT`.  The assertion rows
# run with -norace and the liveness rows with -norace -liveness: the model
# alone keeps the simulator's cut of repeated spin iterations, which the
# race flags of the data-race rows' runs narrow to the twin cut (it keeps
# one failing turn per wait: their PASS rows need -unroll 3; VERDICTS.md,
# "How scopecat unrolls").  A table of the verdicts and each run's time comes
# out.  With nvcc (SC_NVCC, or nvcc on PATH) the .cu
# files are checked the same way, compiled by scopecat with the case's -D
# flags and launch (from the .ptx's header, which make-ptx.sh wrote);
# without nvcc that part is skipped with a message.
# Then -engine enum and -engine smt must agree on each small case (states
# and verdicts), skipped without Z3.
# KERNELS_TIMEOUT (seconds, default 600: a hang guard, since the suite also
# runs under ASan and without Z3) bounds each run: a run past it fails.
# KERNELS_ONLY=REGEX checks only the cases whose .ptx matches.
# KERNELS_MAX_THREADS (default 2): the cases of larger grids run with
# -speedcheck fast (each under 10 s with Z3: doc/performance.md), or, without
# Z3, are skipped with a message: their whole runs take minutes (VERDICTS.md,
# "Time"); 9 runs them all whole.  The rows of $quick run whole under 10 s
# and are so checked whatever it says; so are those of $fast, run with
# -speedcheck fast (their FAIL comes early) even without Z3.
# KERNELS_FAST_REST=no skips the larger grids of neither list, as without
# Z3 (.ci/run's sanitizer stage, where runs take three times as long).
# KERNELS_CU=all checks every row of the .cu files (default: the assertion
# rows under ptx-v7.5, one nvcc run per case: the rest only repeats the
# .ptx's runs on the same PTX).
# The rows of $known are known to differ from the argued verdict because of
# a defect of the simulator that VERDICTS.md names: they are reported XFAIL,
# and a row of it that matches (XPASS) fails the test, so that the list
# shrinks when the defect is fixed.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

dir="$srcdir/ptx/kernels"
csv="$dir/expected.csv"
limit=${KERNELS_TIMEOUT:-600}
only=${KERNELS_ONLY:-.}
max_threads=${KERNELS_MAX_THREADS:-2}
cu_rows=${KERNELS_CU:-assertion}

# CASE PROPERTY (both models): rows the tool is known to get wrong, each
# with its reason; a row here that matches fails the test (take it off).
# None today: the last ones (a flag raised with no witness pair kept, and
# barriers passed twice) were fixed.
known="
"

# CASE PROPERTY: rows of grids past KERNELS_MAX_THREADS whose runs take
# under 10 s each (measured: 2 to 3 s; the xf-barrier-2.1.2 rows, four
# threads each, since combinations of one layout share their preparation,
# its data-race row since its flag spins are race-free (repeat_gate.c);
# caslock-dv2wg-2.2.1's data-race row 0.3 s, ticketlock-dv2wg-2.2.1's
# assertion row 4 s, since a layout's solver scope serves its combinations;
# xf-barrier-fail2's liveness rows 7 to 8 s, with or without Z3, since
# deadlocked barrier combinations are skipped: PASS, no longer UNKNOWN;
# caslock-dv2wg-2.2.1's liveness rows 0.2 s, 10 s under ptx-v6.0 before
# liveness runs took the repeated-state cut: sem.c's loops_unnested;
# xf-barrier-3.1.3's liveness rows 5 to 8 s, with or without Z3, since the
# cut takes simple loops that write too and the liveness search collapses
# the values that decide nothing, sim/data_only.c: PASS, no longer
# UNKNOWN), checked whatever the guard says;
# their cases' other rows run past 30 s and stay behind it
quick="
caslock-dv2wg-2.2.1 assertion
caslock-dv2wg-2.2.1 data-race
caslock-dv2wg-2.2.1 liveness
ticketlock-dv2wg-2.2.1 assertion
cbe-dot assertion
cbe-dot data-race
gridbar-2.1.2 assertion
gridbar-2.1.2 data-race
xf-barrier-2.1.2 assertion
xf-barrier-2.1.2 data-race
xf-barrier-fail4 data-race
xf-barrier-fail2 liveness
xf-barrier-3.1.3 liveness
"
# CASE PROPERTY: rows of 8-thread grids that fail, run with -speedcheck
# fast: the search stops at the first allowed execution that violates the
# condition (and, for the data-race rows, raises the flag), 1 to 3 s each
# where the whole search takes minutes (doc/performance.md); and
# ticketlock-dv2wg-2.2.1's data-race row, PASS (the search whole), about
# 5 s there since the race flags' model takes a layout's solver scope
# under -speedcheck fast (engine_smt.c), 26 s or more without; and
# ttaslock-dv2wg-2.2.2's liveness rows, FAIL in 3 to 4 s, and
# xf-barrier-3.1.3's data-race rows, UNKNOWN (no race up to the bound) in
# 2 to 3 s, and their assertion rows, PASS in 1 to 2 s, where the states
# search stops at -max-executions (a second search collapses the values
# that decide nothing, computing them after each execution where the
# condition reads them: sim/data_only.c; past 60 s each without Z3); and
# ticketlock-dv2wg-2.2.2's rows, FAIL in 1.5 to 4 s, since the solver
# chooses each thread's trace where the combinations are too many to
# walk (simulate.c's layout search, with the collapsed values as tables:
# data_only.c) and answers the value fixpoint's rounds (traces.c), where
# the walk met -max-executions
fast="
ticketlock-dv2wg-2.2.2 assertion
ticketlock-dv2wg-2.2.2 data-race
ticketlock-dv2wg-2.2.2 liveness
xf-barrier-3.1.3 assertion
caslock-dv2wg-2.2.2 assertion
caslock-dv2wg-2.2.2 data-race
ttaslock-dv2wg-2.2.2 assertion
ttaslock-dv2wg-2.2.2 data-race
ttaslock-dv2wg-2.2.2 liveness
xf-barrier-3.1.3 data-race
ticketlock-dv2wg-2.2.1 data-race
"
# caslock-dv2wg-2.2.1's and ticketlock-dv2wg-2.2.1's seconds, and those of
# $fast, are -engine auto's symbolic road: without Z3 enumeration alone
# takes minutes there (or meets -max-executions: caslock-dv2wg-2.2.1's
# data-race row, and at 2.2.2 before a violation), so those rows wait for
# the guard
z3=yes
if "$scopecat" -engine smt "$srcdir/ptx/seeds/coRR.litmus" 2>&1 | grep -q 'built without Z3'; then
  quick=$(printf '%s\n' "$quick" | grep -v '^caslock-dv2wg-2.2.1 \|^ticketlock-dv2wg-2.2.1 ')
  fast=
  z3=no
fi

# in_list LIST PTX PROPERTY: the row is in LIST (a list as $known)
in_list() {
  printf '%s\n' "$1" | grep -qx "${2%.ptx} $3"
}

# is_known PTX PROPERTY: the row is in $known
is_known() {
  in_list "$known" "$1" "$2"
}

# threads CONFIG: the grid's threads of a CSV config X;Y;Z
threads() {
  echo "$1" | awk -F';' '{ print $1 * $2 * $3 }'
}

# run_kernel OUT FILE MODEL UNROLL FLAGS [OPTION...]: scopecat kernel on
# FILE into OUT (stdout and stderr), its wall time in OUT.time; 0 when the
# tool ran and printed Property lines
run_kernel() {
  out=$1 file=$2 model=$3 unroll=$4 live=$5
  shift 5
  start=$(date +%s.%N)
  # shellcheck disable=SC2086  # $live: the property's flags, several words
  timeout "$limit" "$scopecat" kernel -model "$srcdir/cat/$model.cat" -unroll "$unroll" \
    $live "$@" "$file" </dev/null >"$out" 2>&1
  status=$?
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f\n", e - s }' >"$out.time"
  if [ "$status" -ne 0 ]; then
    if [ "$status" -eq 124 ]; then
      echo "timed out after ${limit}s" >>"$out"
    fi
    return 1
  fi
  grep -q '^Property ' "$out"
}

# verdict OUT PROPERTY: the verdict word of OUT's line `Property PROPERTY V...`
verdict() {
  sed -n "s/^Property $2 \([A-Z]*\).*/\1/p" "$1" | head -n 1
}

# header_value PTX TAG: the .ptx's header value of `// TAG: value` lines,
# several lines joined by ", " (the @Input lines add up)
header_value() {
  sed -n "s|^// $2: *||p" "$1" | paste -sd'\t' - | sed 's/\t/, /g'
}

# cu_options PTX: the options that make the .cu run the case the .ptx is:
# -D flags from its nvcc-flags line, and its launch
cu_options() {
  for flag in $(sed -n 's|^// nvcc-flags: *||p' "$1"); do
    case $flag in -D*) printf '%s\n%s\n' -D "${flag#-D}" ;; esac
  done
  printf '%s\n%s\n' -input "$(header_value "$1" @Input)"
  printf '%s\n%s\n' -output "$(header_value "$1" @Output)"
  printf '%s\n%s\n' -config "$(header_value "$1" @Config | tr -d ' ')"
}

# check_rows KIND: every row of the CSV against runs of the .ptx (KIND ptx)
# or of its .cu (KIND cu); prints the table
check_rows() {
  kind=$1
  printf '%-28s %-9s %-10s %-8s %-8s %7s\n' "case ($kind)" model property expected got seconds
  tail -n +2 "$csv" | grep -E "^[^,]*,[^,]*($only)" |
    while IFS=, read -r cu ptx config model property want unroll; do
      n=$(threads "$config")
      speed=
      in_list "$fast" "$ptx" "$property" && speed="-speedcheck fast"
      # past the guard, with Z3: every row with -speedcheck fast, as
      # tools/bench-kernels.sh -fast runs them (each under 10 s: 96 of 96,
      # doc/performance.md); its answers are the whole search's where
      # nothing comes early, a violation found where one does
      if [ "$n" -gt "$max_threads" ] && ! in_list "$quick" "$ptx" "$property" &&
        [ -z "$speed" ] && [ "$z3" = yes ] && [ "${KERNELS_FAST_REST:-yes}" != no ]; then
        speed="-speedcheck fast"
      fi
      if [ "$n" -gt "$max_threads" ] && ! in_list "$quick" "$ptx" "$property" &&
        [ -z "$speed" ]; then
        printf '%-28s %-9s %-10s %-8s skipped: %d threads > KERNELS_MAX_THREADS\n' \
          "${ptx%.ptx}" "$model" "$property" "$want" "$n"
        continue
      fi
      if [ "$kind" = cu ] && [ "$cu_rows" != all ] &&
        { [ "$property" != assertion ] || [ "$model" != ptx-v7.5 ]; }; then
        continue
      fi
      # the condition and liveness with the model alone (its repeat cut on),
      # the data race with ptx-race.cat's flags (the default)
      case $property in
        assertion) live=-norace ;;
        liveness) live="-norace -liveness" ;;
        *) live= ;;
      esac
      live="$live $speed"
      out="$tmp/$kind-${ptx%.ptx}-$model-$unroll$(echo "$live" | tr -d ' ')"
      if [ ! -f "$out" ]; then
        if [ "$kind" = ptx ]; then
          run_kernel "$out" "$dir/$ptx" "$model" "$unroll" "$live" || echo error >"$out.error"
        else
          # one option a line: the launch's values hold spaces
          opts="$tmp/opts"
          cu_options "$dir/$ptx" >"$opts"
          set --
          while IFS= read -r o; do set -- "$@" "$o"; done <"$opts"
          run_kernel "$out" "$dir/$cu" "$model" "$unroll" "$live" "$@" ||
            echo error >"$out.error"
        fi
      fi
      got=$(verdict "$out" "$property")
      # a verdict over no complete execution says nothing (the tool says
      # UNKNOWN, which no row may match by it): only a FAIL, which shows
      # its execution, stands without one
      if [ "$got" != FAIL ] && grep -qx 'States 0' "$out"; then
        got=VACUOUS
      fi
      [ -f "$out.error" ] && got=ERROR
      printf '%-28s %-9s %-10s %-8s %-8s %7s\n' "${ptx%.ptx}" "$model" "$property" "$want" \
        "${got:-none}" "$(cat "$out.time")"
      if is_known "$ptx" "$property"; then
        if [ "$got" = "$want" ]; then
          echo "FAIL: $kind $ptx $model $property: XPASS: matches now, take it off \$known" \
            >>"$tmp/results"
        else
          echo "XFAIL: $kind $ptx $model $property: expected $want, got ${got:-none} (known)" \
            >>"$tmp/results"
        fi
      elif [ "$got" = "$want" ]; then
        echo ok >>"$tmp/results"
      else
        echo "FAIL: $kind $ptx $model $property: expected $want, got ${got:-no Property line}" \
          >>"$tmp/results"
        sed 's/^/    /' "$out" | tail -n 20 >>"$tmp/results"
      fi
    done
}

# tally: the results of check_rows into the counters
tally() {
  if [ ! -s "$tmp/results" ]; then
    fail "no row of $csv was checked"
    return
  fi
  while IFS= read -r line; do
    case $line in
      ok) ok ;;
      XFAIL:*) ok; echo "$line" ;;
      FAIL:*) fail "${line#FAIL: }" ;;
      *) echo "$line" ;;
    esac
  done <"$tmp/results"
  : >"$tmp/results"
}

: >"$tmp/results"
check_rows ptx
tally

# The two engines agree on every case of at most KERNELS_MAX_THREADS
# threads (issue 26: "the engines agree wherever both finish"): the states
# and each property's verdict of -engine enum and -engine smt, under each
# model, the condition alone (-norace) at the case's assertion bound.
engines_agree() {
  if ! "$scopecat" -engine smt "$srcdir/ptx/seeds/coRR.litmus" >"$tmp/probe" 2>&1; then
    grep -q 'built without Z3' "$tmp/probe" && {
      echo "kernels.sh: no Z3 in this build: the engines are not compared"
      return
    }
  fi
  tail -n +2 "$csv" | grep -E "^[^,]*,[^,]*($only)" | grep ',assertion,' |
    while IFS=, read -r cu ptx config model property want unroll; do
      [ "$(threads "$config")" -gt "$max_threads" ] && continue
      for e in enum smt; do
        run_kernel "$tmp/eng-$e" "$dir/$ptx" "$model" "$unroll" -norace -engine "$e" ||
          echo "error" >>"$tmp/eng-$e"
        grep -E '^(States|Property|[^ ]+=)' "$tmp/eng-$e" >"$tmp/eng-$e.v"
      done
      if cmp -s "$tmp/eng-enum.v" "$tmp/eng-smt.v"; then
        echo ok >>"$tmp/results"
      else
        echo "FAIL: engines disagree on $ptx under $model:" >>"$tmp/results"
        diff "$tmp/eng-enum.v" "$tmp/eng-smt.v" | sed 's/^/    /' >>"$tmp/results"
      fi
    done
}
engines_agree
if [ -s "$tmp/results" ]; then tally; else echo "kernels.sh: no case small enough to compare the engines on"; fi

nvcc=${SC_NVCC:-}
[ -z "$nvcc" ] && nvcc=$(command -v nvcc 2>/dev/null || true)
if [ -n "$nvcc" ] && [ -x "$nvcc" ]; then
  PATH=$(dirname "$nvcc"):$PATH
  export PATH
  check_rows cu
  tally
else
  echo "kernels.sh: no nvcc (SC_NVCC unset, none on PATH): the .cu files are not checked"
fi

finish
