#!/bin/bash
# tools/main-job.sh: the project's main job on the bundled default.
#  1. every litmus test under ptx/ parses and its canonical form round-trips;
#  2. the verdict table of the paper's tests (ptx/seeds/) under the default
#     model (cat/ptx-rmo.cat), beside the verdicts worked out by hand
#     (ptx/seeds/expected.txt; reasoning in expected-reasoning.md).
# Exits non-zero when a test does not parse or a verdict disagrees.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
scopecat="$top/tools/scopecat"
if [[ ! -x $scopecat ]]; then
    echo "main-job: $scopecat is not built; run ./tools/setup.sh first" >&2
    exit 1
fi

"$scopecat" parse -check "$top/ptx"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$scopecat" -nohash "$top/ptx/seeds" >"$log"
echo
echo "The paper's tests (ptx/seeds) under cat/ptx-rmo.cat:"
awk -F'\t' 'FNR == NR { want[$1] = $2; next }
  /^Test /        { name = $2 }
  /^States /      { states = $2 }
  /^Observation / { pos = $(NF - 1); neg = $NF
                    got = pos > 0 ? "Allowed" : "Forbidden"
                    ok = got == want[name] ? "" : "   <- disagrees"
                    agree += got == want[name]; n++
                    printf "%-28s %-10s %-10s %7d %7d%s\n", name, got, want[name],
                           states, pos + neg, ok }
  BEGIN { printf "%-28s %-10s %-10s %7s %7s\n", "test", "scopecat", "by hand",
                 "states", "allowed" }
  END   { printf "%d of %d verdicts agree with the ones worked out by hand\n", agree, n
          exit agree == n ? 0 : 1 }' "$top/ptx/seeds/expected.txt" FS=' ' "$log"
