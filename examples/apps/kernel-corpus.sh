#!/bin/bash
# kernel-corpus.sh: the kernel corpus (ptx/kernels) on the GPU, as
# programs (doc/apps.md): each case becomes a program (`scopecat gpu app
# -kernel-program`: the case's .cu and -D defines, launched as its
# @Config on its @Input values, LAUNCHES times a run), built with nvcc,
# and run by `scopecat gpu app` in every environment, each run judged by
# `gpu app -kernel-check` (the case's @Output over the final states of
# all its launches).  Then `gpu app -compare` puts each program's error
# rates beside the model's verdict (ptx/kernels/expected.csv).  Run from
# the source tree's root:
#   SC=.devbuild/scopecat OUT=ptx/results/H100-apps/kernels \
#     bash examples/apps/kernel-corpus.sh
# Budget: 47 cases x 8 environments x SECONDS_PER_ENV (default 0.4) s of
# runs (a slice ends after the run that passes it: about 5 minutes in
# all), plus the builds (nvcc, in parallel).
# Variables: SC (scopecat), OUT (the logs), NVCC, ENVS (gpu app's -env,
# default all), SECONDS_PER_ENV, LAUNCHES (a run's kernel launches,
# default 1000), CASES (case names, default every .ptx of ptx/kernels),
# JOBS (parallel builds, default the cores).
set -u
SC=$(realpath "${SC:-tools/scopecat}")
OUT=${OUT:-ptx/results/H100-apps/kernels}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ENVS=${ENVS:-all}
SECONDS_PER_ENV=${SECONDS_PER_ENV:-0.4}
LAUNCHES=${LAUNCHES:-1000}
JOBS=${JOBS:-$(nproc)}
KDIR=$(realpath ptx/kernels)
CASES=${CASES:-$(cd "$KDIR" && ls *.ptx | sed 's/\.ptx$//')}
. examples/apps/setup.sh
for c in $CASES; do
  # not $c.cu: cbe-dot's program would include itself, not cbe-dot.cu
  "$SC" gpu app -kernel-program "$KDIR/$c.ptx" >"$BIN/prog-$c.cu" || exit 1
done
# one nvcc a case, JOBS at a time; a failed build stops the campaign
printf '%s\n' $CASES | xargs -P "$JOBS" -I{} "$NVCC" -O3 -arch=sm_90 -cudart shared \
  -I "$KDIR" -I harness -o "$BIN/{}" "$BIN/prog-{}.cu" || exit 1
for c in $CASES; do
  echo "$c '$SC' gpu app -kernel-check '$KDIR/$c.ptx' -- $BIN/$c $LAUNCHES"
done >"$BIN/apps.txt"
sed "s|$BIN|BIN|g; s|$KDIR|ptx/kernels|g; s|'$SC'|scopecat|g" "$BIN/apps.txt" >"$OUT/apps-file.txt"
"$SC" gpu app -nvcc "$NVCC" -gpudir harness -keep "$BIN/keep" -run-timeout 5 \
  -env "$ENVS" -seconds "$SECONDS_PER_ENV" -runs 50 -apps "$BIN/apps.txt" >"$OUT/runs.txt" 2>&1
echo "exit $?" >>"$OUT/runs.txt"
"$SC" gpu app -compare "$OUT/runs.txt" -verdicts "$KDIR/expected.csv" >"$OUT/compare.txt" 2>&1
echo "exit $?" >>"$OUT/compare.txt"
