#!/bin/bash
# tools/golden.sh: the CLI's output on the bundled corpora, one file per run,
# for a golden comparison before and after a change that must not change
# output bytes (a refactoring):
#   tools/golden.sh OUTDIR            # with tools/scopecat of this tree
#   diff -r BEFORE AFTER
# Timings, which vary from run to run, are masked (Time lines, JSON "time");
# the hash stays: it is part of the output.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$(mkdir -p "${1:?usage: tools/golden.sh OUTDIR}" && cd "$1" && pwd)
sc=${SCOPECAT:-$top/tools/scopecat}
mkdir -p "$out"
cd "$top"
run() { # NAME ARGS...: stdout, stderr and exit status of one run
    local name=$1; shift
    "$sc" "$@" 2>"$out/$name.err" |
        sed -E -e 's/^(Time [^ ]+) [0-9.]+$/\1 T/' \
               -e 's/"time":[0-9.]+/"time":T/g' >"$out/$name.out"
    echo "exit ${PIPESTATUS[0]}" >>"$out/$name.err"
}
bundled=(ptx/seeds ptx/herd-gpu-ptx ptx/modern ptx/families ptx/gpu-shapes)
run sim-default        -j 2 -timeout 20 "${bundled[@]}"
run sim-enum           -j 2 -timeout 20 -engine enum ptx/seeds ptx/herd-gpu-ptx
run sim-smt            -j 2 -timeout 20 -engine smt ptx/seeds ptx/herd-gpu-ptx
run sim-json           -j 2 -timeout 20 -json ptx/seeds
run sim-v            -j 2 -timeout 20 -v ptx/seeds ptx/herd-gpu-ptx
run sim-sc             -j 2 -timeout 20 -model cat/sc.cat ptx/seeds ptx/dat3m/Manual
run sim-v60            -j 2 -timeout 20 -model cat/ptx-v6.0.cat ptx/dat3m
run sim-v75            -j 2 -timeout 20 -model cat/ptx-v7.5.cat ptx/dat3m
run live-v75           -j 2 -timeout 20 -liveness -model cat/ptx-v7.5.cat ptx/dat3m
run live-v60-smt       -j 2 -timeout 20 -liveness -engine smt -model cat/ptx-v6.0.cat ptx/dat3m/CADP
run parse              parse ptx
run parse-summary      parse -summary ptx
for d in ptx/results/*/; do
    n=$(basename "$d")
    run "compare-$n" compare -timeout 20 "$d"
done
rm -rf "$out/show"; mkdir -p "$out/show"
run sim-show           -show all -o "$out/show" ptx/seeds
run gen-family         gen -help
run fences-sb          fences ptx/seeds/sb.litmus
# gpu gen writes NAME.cu and NAME.spec in the current folder: keep them too
mkdir -p "$out/gpu"
for t in ptx/seeds/*.litmus; do
    (cd "$out/gpu" && run "gpu-gen-$(basename "$t" .litmus)" gpu gen "$top/$t")
done
