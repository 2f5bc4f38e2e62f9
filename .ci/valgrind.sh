#!/bin/bash
# .ci/valgrind.sh BUILDDIR: a dozen scopecat runs under valgrind's memcheck
# (parse, sim under each bundled model family, limits hit, malformed inputs,
# compare, gen, fences), each required to exit with its usual status and
# no memcheck error (--error-exitcode).  The Boehm collector's conservative
# scans are suppressed (.ci/valgrind.supp); scopecat's code is not.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-$top}" && pwd)
cd "$top"
vg=(valgrind -q --error-exitcode=99 --suppressions="$top/.ci/valgrind.supp"
    --track-origins=no)
run_vg() {  # STATUS ARGS...: scopecat ARGS under memcheck exits STATUS
    local want=$1 got
    shift
    "$build/libtool" --mode=execute "${vg[@]}" "$build/tools/scopecat" "$@" \
        >/dev/null 2>"$tmp/err"
    got=$?
    if [[ $got -eq $want ]]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "valgrind: FAIL (exit $got, expected $want): scopecat $*"
        tail -n 30 "$tmp/err"
    fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
sb=ptx/seeds/sb.litmus
run_vg 0 parse -summary ptx/seeds
run_vg 1 parse tests/data/malformed
run_vg 0 sim "$sb" ptx/herd-gpu-ptx/mp.litmus
run_vg 0 sim ptx/modern/MP+rel.gpu+acq.gpu.litmus
run_vg 0 sim -json -show cond "$sb"
run_vg 0 sim -liveness -json -show all ptx/dat3m/Manual/XF-Barrier-weak.litmus \
    ptx/dat3m/Barrier/quorum1-hang.litmus
run_vg 0 sim -liveness -engine enum ptx/dat3m/Manual/XF-Barrier-weak.litmus
# loops that write (a recurrence) under both engines, and progress models
# that halt threads (anywhere, before starting, per level)
run_vg 0 sim -liveness ptx/dat3m/CADP/2_threads_3_instructions/96_simple.litmus
run_vg 0 sim -liveness -engine enum -show all ptx/dat3m/CADP/2_threads_3_instructions/96_simple.litmus
run_vg 0 sim -liveness -progress hsa -json tests/data/progress/halt-midway.litmus
run_vg 0 sim -liveness -progress cta=fair,gpu=obe -engine enum tests/data/progress/spin-higher.litmus
# a kernel whose states search stops at a limit: the second search and
# the liveness search collapse the values that decide nothing, the second
# computing them after each execution (data_only.c, sem.c's replay)
run_vg 0 kernel -max-executions 1000 -liveness tests/data/kernel-cli/tally.ptx
run_vg 1 sim -max-events 5 "$sb"
run_vg 1 sim -max-depth 200 -model tests/data/limits/deep.cat "$sb"
run_vg 1 sim -model tests/data/limits/grow.cat "$sb"
run_vg 1 sim -model tests/data/cycle-a.cat "$sb"
run_vg 0 sim -variant cos-opt -model tests/data/herd/uniproc.cat ptx/seeds/cas-sl.litmus
run_vg 0 sim -speedcheck fast ptx/seeds/coRR.litmus ptx/dat3m/Nvidia/SB-cta.litmus
run_vg 0 compare -tests ptx/results/titan/tests ptx/results/titan/IRIW_gl_cta__IRIW_gl_cta.txt
run_vg 1 compare -tests ptx/herd-gpu-ptx tests/data/malformed/logs
run_vg 0 gen Rfe PodRR Fre PodWW
run_vg 0 fences "$sb"
echo "valgrind: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
