#!/bin/sh
# progress-vulkan.sh: scopecat's liveness verdicts under each progress
# model (sim -liveness -progress M) on the PTX versions of Dat3M's CADP
# tests (ptx/dat3m/CADP), beside Dat3M's verdicts for their Vulkan versions
# (ptx/dat3m-placement/expected/VULKAN-Liveness-{Fair,HSA,OBE,HSA_OBE,LOBE}-
# expected.csv: 1 = no fair non-terminating execution, scopecat's Pass).
#
# The Vulkan versions place threads in subgroups, workgroups and queue
# families; the PTX versions only say "P0@cta 0,gpu 0".  The placement
# table (ptx/dat3m-placement/placement.tsv, read off the Vulkan files) is
# carried over: each PTX test is rewritten, in a scratch folder, with its
# threads in a scope tree, subgroup -> warp, workgroup -> CTA, queue family
# -> kernel, on one device (tools/place-test.sh); its code is left as it is.
#
# Usage: tools/progress-vulkan.sh [-v] [-check] [-models "Fair OBE ..."]
#                                 [-list FILE] [-j N] [-unroll N]
#   -v       list each disagreement: model, test, CSV verdict, scopecat's
#   -check   exit 1 unless every disagreement is one DIFFERENCES.md lists
#            ("| Model | CADP/path |" rows) and every listed one of the
#            tests run still disagrees (make check, on a subset)
#   -list F  only the tests F names (CADP/... paths, one a line)
#   -unroll N  scopecat's loop bound (default: sim's, 2)
# Lines the CSVs comment out ("; litmus/...": loops that write, which Dat3M
# cannot check) are compared apart ("commented").
set -u
srcdir=${SC_SRCDIR:-.}
scopecat=${SC_SCOPECAT:-./tools/scopecat}
place="$srcdir/ptx/dat3m-placement"
models="Fair HSA OBE HSA_OBE LOBE"
verbose=0 check=0 list="" jobs=2 unroll=
while [ $# -gt 0 ]; do
  case $1 in
  -v) verbose=1 ;;
  -check) check=1 ;;
  -models) models=$2; shift ;;
  -list) list=$2; shift ;;
  -j) jobs=$2; shift ;;
  -unroll) unroll="-unroll $2"; shift ;;
  *) echo "progress-vulkan.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The tests, in the placement table's order (or -list's).
awk -F'\t' '!/^#/ { print $1 }' "$place/placement.tsv" >"$tmp/all"
if [ -n "$list" ]; then
  grep -v '^#' "$list" | grep . >"$tmp/tests"
else
  cp "$tmp/all" "$tmp/tests"
fi

# Rewrite each test with its Vulkan placement.
while read -r path; do
  pl=$(awk -F'\t' -v p="$path" '$1 == p { print $2 }' "$place/placement.tsv")
  if [ -z "$pl" ]; then
    echo "progress-vulkan.sh: $path: not in placement.tsv" >&2
    exit 2
  fi
  mkdir -p "$tmp/t/$(dirname "$path")"
  "$srcdir/tools/place-test.sh" "$pl" "$srcdir/ptx/dat3m/$path" "$tmp/t/$path" || exit 2
done <"$tmp/tests"

# The DIFFERENCES.md rows: "| Model | CADP/path | ..." -> "Model,CADP/path"
grep '^| *[A-Z_a-z]* *| *`*CADP/' "$place/DIFFERENCES.md" 2>/dev/null |
  awk -F'|' '{ gsub(/[ `]/, "", $2); gsub(/[ `]/, "", $3); print $2 "," $3 }' \
    >"$tmp/listed"

status=0
for model in $models; do
  csv="$place/expected/VULKAN-Liveness-$model-expected.csv"
  word=$(echo "$model" | tr 'A-Z' 'a-z')
  [ "$word" = fair ] && word=fair
  files=$(sed "s|^|$tmp/t/|" "$tmp/tests")
  # shellcheck disable=SC2086 # one word per file
  "$scopecat" -nohash -j "$jobs" $unroll -liveness -progress "$word" $files \
    >"$tmp/$model.log" 2>"$tmp/$model.err"
  if [ -s "$tmp/$model.err" ]; then
    echo "$model: scopecat reported errors:"
    cat "$tmp/$model.err"
    status=1
  fi
  awk '/^Liveness / { print ($3 == "Pass" ? 1 : 0) }' "$tmp/$model.log" >"$tmp/$model.got"
  paste -d' ' "$tmp/tests" "$tmp/$model.got" >"$tmp/$model.pairs"
  agree=0 n=0 cagree=0 cn=0
  while read -r path got; do
    line=$(grep -F "litmus/VULKAN/$path," "$csv" | head -1)
    [ -n "$line" ] || continue
    want=${line##*,}
    case $line in
    ";"*)
      cn=$((cn + 1))
      [ "$got" = "$want" ] && cagree=$((cagree + 1))
      continue ;;
    esac
    n=$((n + 1))
    listed=0
    grep -qx "$model,$path" "$tmp/listed" && listed=1
    if [ "$got" = "$want" ]; then
      agree=$((agree + 1))
      if [ "$check" = 1 ] && [ "$listed" = 1 ]; then
        echo "FAIL: $model $path: DIFFERENCES.md lists it, but it now agrees ($got)"
        status=1
      fi
    else
      [ "$verbose" = 1 ] && echo "differs: $model $path: Dat3M $want, scopecat $got"
      if [ "$check" = 1 ] && [ "$listed" = 0 ]; then
        echo "FAIL: $model $path: Dat3M says $want, scopecat $got (not in DIFFERENCES.md)"
        status=1
      fi
    fi
  done <"$tmp/$model.pairs"
  pct=$(awk -v a="$agree" -v n="$n" 'BEGIN { printf "%.1f", n ? 100 * a / n : 100 }')
  echo "$model: $agree of $n agree ($pct%); commented-out lines: $cagree of $cn agree"
done
exit $status
