#!/bin/sh
# kernels.sh: every verdict of ptx/kernels/expected.csv (argued by hand in
# ptx/kernels/VERDICTS.md) against what `scopecat kernel` says of the
# corpus: for each row, the kernel's committed .ptx under the row's model
# and -unroll must print `Property PROPERTY VERDICT`.  The assertion rows
# run with -norace and the liveness rows with -norace -liveness: the model
# alone keeps the simulator's cut of repeated spin iterations, which the
# race flags of the data-race rows' runs turn off (VERDICTS.md, "How
# scopecat unrolls").  A table of the verdicts and each run's time comes
# out.  With nvcc (SC_NVCC, or nvcc on PATH) the .cu
# files are checked the same way, compiled by scopecat with the case's -D
# flags and launch (from the .ptx's header, which make-ptx.sh wrote);
# without nvcc that part is skipped with a message.
# KERNELS_TIMEOUT (seconds, default 120) bounds each run: a run past it
# fails.  KERNELS_ONLY=REGEX checks only the cases whose .ptx matches.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

dir="$srcdir/ptx/kernels"
csv="$dir/expected.csv"
limit=${KERNELS_TIMEOUT:-120}
only=${KERNELS_ONLY:-.}

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
    while IFS=, read -r cu ptx _config model property want unroll; do
      # the condition and liveness with the model alone (its repeat cut on),
      # the data race with ptx-race.cat's flags (the default)
      case $property in
        assertion) live=-norace ;;
        liveness) live="-norace -liveness" ;;
        *) live= ;;
      esac
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
      [ -f "$out.error" ] && got=ERROR
      printf '%-28s %-9s %-10s %-8s %-8s %7s\n' "${ptx%.ptx}" "$model" "$property" "$want" \
        "${got:-none}" "$(cat "$out.time")"
      if [ "$got" = "$want" ]; then
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
      FAIL:*) fail "${line#FAIL: }" ;;
      *) echo "$line" ;;
    esac
  done <"$tmp/results"
  : >"$tmp/results"
}

: >"$tmp/results"
check_rows ptx
tally

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
