#!/bin/bash
# kernel-fences.sh: the model's fences beside the empirical ones on cases
# of the kernel corpus (doc/apps.md, `gpu app -fences -model-fences
# -cost`): each case becomes a program (`gpu app -kernel-program`), built
# once keeping nvcc's steps (ptx-rebuild.sh prepare), then rebuilt from the
# case's own PTX with each fence set (the case's .ptx is what nvcc makes of
# the same kernel, and carries the launch header the model's search reads),
# checked by RUNS runs of LAUNCHES launches in ENV, judged by the case's
# @Output (`gpu app -kernel-check`), and the sets' costs measured natively.
# Run from the source tree's root:
#   SC=.devbuild/scopecat OUT=ptx/results/H100-apps/kernel-fences \
#     bash examples/apps/kernel-fences.sh
# Variables: SC, OUT, NVCC, CASES (default the corpus cases that fail
# under ptx-v7.5 and that fences can fix), ENV (default stress+rand), RUNS
# (runs a check, default 5), LAUNCHES (default 1000), FENCE (default
# fence.acq_rel.gpu: in the bundled PTX models fence.sc is not also
# acq_rel, and a fence.sc at every access makes the model's search order
# every pair of them), UNROLL (the model's bound, default 3).
set -u
SC=$(realpath "${SC:-tools/scopecat}")
OUT=${OUT:-ptx/results/H100-apps/kernel-fences}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CASES=${CASES:-caslock-acq2rx caslock-rel2rx caslock-sc-2.1.1 ticketlock-acq2rx
  ticketlock-rel2rx cbe-lock cbe-lock-fence-unlock cbe-dot lastblock-no-fence-before
  lastblock-no-fence-after gridbar-no-fence}
ENV=${ENV:-stress+rand}
RUNS=${RUNS:-5}
LAUNCHES=${LAUNCHES:-1000}
FENCE=${FENCE:-fence.acq_rel.gpu}
UNROLL=${UNROLL:-3}
KDIR=$(realpath ptx/kernels)
. examples/apps/setup.sh
# the programs and their kept steps, in parallel (nvcc takes seconds each)
for c in $CASES; do
  "$SC" gpu app -kernel-program "$KDIR/$c.ptx" >"$BIN/prog-$c.cu" || exit 1
  bash examples/apps/ptx-rebuild.sh prepare "$BIN/$c.steps" "$NVCC" -O3 -arch=sm_90 \
    -cudart shared -lineinfo -I "$KDIR" -I harness -o "$BIN/$c" "$BIN/prog-$c.cu" \
    >"$BIN/$c.prepare" 2>&1 &
done
wait
for c in $CASES; do
  [ -x "$BIN/$c" ] || { echo "kernel-fences.sh: $c: prepare failed" >&2; cat "$BIN/$c.prepare" >&2; exit 1; }
  "$SC" gpu app -nvcc "$NVCC" -gpudir harness -keep "$BIN/keep" -run-timeout 5 -v \
    -fences -model-fences -unroll "$UNROLL" -fence-kind "$FENCE" -cost \
    -ptx "ptx/kernels/$c.ptx" -build "bash examples/apps/ptx-rebuild.sh build '$BIN/$c.steps' {ptx}" \
    -check "'$SC' gpu app -kernel-check '$KDIR/$c.ptx'" \
    -env "$ENV" -runs "$RUNS" -- "$BIN/$c" "$LAUNCHES" >"$OUT/$c.txt" 2>&1
  echo "exit $?" >>"$OUT/$c.txt"
done
