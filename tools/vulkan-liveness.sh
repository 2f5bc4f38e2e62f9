#!/bin/sh
# tools/vulkan-liveness.sh: scopecat's -liveness verdicts on ptx/dat3m's
# CADP and Barrier tests against Dat3M's verdicts for their Vulkan versions
# (VULKAN-Liveness-*-expected.csv, from the shared corpora: same folder and
# file names; 1 = every fair execution ends = Pass, 0 = a thread may loop
# for ever = Fail).  The CSV's lines that start with ';' are tests Dat3M
# once could not verify (spin loops that write); their verdicts are
# compared too, and counted apart.  Never part of `make check` (the CSVs
# live outside the project and the run takes minutes).
#
# Usage: tools/vulkan-liveness.sh [-csv FILE] [-j N] [SCOPECAT-OPTION...]
#   -csv FILE  the expected verdicts (default: the Fair one,
#              ../shared/corpora/dat3m-ptx/expected/VULKAN-Liveness-Fair-expected.csv,
#              or ../../shared/... from a worktree)
#   -j N       tests at once (default: the number of cores)
#   the rest goes to `scopecat -liveness` (e.g. -model cat/ptx-v7.5.cat)
# Environment: SC_SCOPECAT (default ./tools/scopecat), SC_SRCDIR (default .).
# Prints the agreement (active lines, ';' lines, all), then each
# difference: the test, Dat3M's verdict, scopecat's.  Exit status 0.
set -u
srcdir=${SC_SRCDIR:-.}
scopecat=${SC_SCOPECAT:-./tools/scopecat}
# the shared corpora lie beside the checkout (or beside its worktrees' folder)
csv=
for shared in "$srcdir/../shared" "$srcdir/../../shared"; do
  f="$shared/corpora/dat3m-ptx/expected/VULKAN-Liveness-Fair-expected.csv"
  [ -z "$csv" ] && [ -r "$f" ] && csv=$f
done
jobs=$(nproc 2>/dev/null || echo 2)
while [ $# -gt 0 ]; do
  case $1 in
  -csv) csv=$2; shift 2 ;;
  -j) jobs=$2; shift 2 ;;
  *) break ;;
  esac
done
[ -n "$csv" ] && [ -r "$csv" ] || { echo "vulkan-liveness.sh: cannot read the CSV ${csv:-(not found: -csv FILE)}" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# path (relative to ptx/dat3m), verdict, and whether the line is a ';' one
sed -n 's|^\(;\)\{0,1\} *litmus/VULKAN/\([^,]*\),\([01]\).*|\2 \3 \1|p' "$csv" >"$tmp/want"
files=$(awk -v d="$srcdir/ptx/dat3m/" '{ print d $1 }' "$tmp/want")
# shellcheck disable=SC2086 # one word per file
"$scopecat" -liveness -json -nohash -j "$jobs" "$@" $files >"$tmp/got" 2>"$tmp/err"
sed 's|.*"file":"[^"]*/ptx/dat3m/\([^"]*\)".*"liveness":"\([A-Za-z]*\)".*|\1 \2|;
     s|^{"test.*"file":"ptx/dat3m/\([^"]*\)".*"liveness":"\([A-Za-z]*\)".*|\1 \2|' "$tmp/got" >"$tmp/verdicts"
awk 'NR == FNR { got[$1] = ($2 == "Pass") ? 1 : ($2 == "Fail" ? 0 : "?"); next }
     { kind = ($3 == ";") ? "commented" : "active"
       n[kind]++
       if (!($1 in got)) { miss[kind]++; diff = diff sprintf("  %s: Dat3M %s, scopecat no verdict\n", $1, $2); next }
       if (got[$1] == $2) agree[kind]++
       else diff = diff sprintf("  %s: Dat3M %s, scopecat %s%s\n", $1, $2, got[$1], kind == "commented" ? " (a ; line)" : "") }
     END {
       for (k in n) { t += n[k]; a += agree[k]
         printf "%s lines: %d of %d agree (%.1f%%)%s\n", k, agree[k], n[k], 100 * agree[k] / n[k],
                miss[k] ? sprintf(", %d without a verdict", miss[k]) : "" }
       printf "all: %d of %d agree (%.1f%%)\n", a, t, 100 * a / t
       if (diff != "") printf "differences (1 = Pass, 0 = Fail):\n%s", diff
     }' "$tmp/verdicts" "$tmp/want"
if [ -s "$tmp/err" ]; then
  echo "scopecat's errors:"
  cat "$tmp/err"
fi
