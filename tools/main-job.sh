#!/bin/bash
# tools/main-job.sh: the project's main job on the bundled default.
#  1. every litmus test under ptx/ parses and its canonical form round-trips;
#  2. the verdict table of the paper's tests (ptx/seeds/) under the default
#     model (cat/ptx-rmo.cat), beside the verdicts worked out by hand
#     (ptx/seeds/expected.txt; reasoning in expected-reasoning.md);
#  3. the hardware logs against the default model (scopecat compare): the
#     GTX Titan logs (ptx/results/titan), then the H100 logs when
#     ptx/results/H100 exists, then the summary line of the generated
#     family's H100 logs (ptx/results/H100-family).
# Exits non-zero when a test does not parse, a verdict disagrees or a log
# cannot be compared; an UNSOUND test is a finding, shown in its table.
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

# compare exits 3 when every log was compared and a test is UNSOUND: a
# finding about the model, which the table shows; 1 and 2 (a log, test or
# model that cannot be read) fail the job.
compare_logs() {
    "$scopecat" compare -tests "$top/ptx" "$@" || [[ $? -eq 3 ]]
}
echo
echo "The GTX Titan logs (ptx/results/titan) against cat/ptx-rmo.cat:"
compare_logs "$top/ptx/results/titan"
echo
if [[ -d $top/ptx/results/H100 ]]; then
    echo "The H100 logs (ptx/results/H100) against cat/ptx-rmo.cat:"
    compare_logs "$top/ptx/results/H100"
else
    echo "No H100 logs are bundled yet (ptx/results/H100 does not exist): nothing to compare."
fi
if [[ -d $top/ptx/results/H100-family ]]; then
    echo
    echo "The generated family on the H100 (ptx/results/H100-family) against cat/ptx-rmo.cat:"
    rc=0
    out=$("$scopecat" compare -tests "$top/ptx/families/h100" \
          "$top/ptx/results/H100-family") || rc=$?
    [[ $rc -eq 0 || $rc -eq 3 ]] || { printf '%s\n' "$out"; exit 1; }
    printf '%s\n' "$out" | grep -E '^(total|UNSOUND)'
fi
