#!/bin/bash
# fences.sh: empirical fences (`scopecat gpu app -fences -cost`, seed
# 000's Alg. 1 at the PTX level, doc/apps.md) on the fence-free variants
# of the case studies of examples/apps/: each is built once keeping
# nvcc's steps (ptx-rebuild.sh prepare), then rebuilt from each fence
# set's PTX (ptx-rebuild.sh build), checked by RUNS runs in ENV, and the
# sets' costs measured natively.  Run from the source tree's root:
#   SC=.devbuild/scopecat OUT=ptx/results/H100-apps/fences \
#     bash examples/apps/fences.sh
# Variables: SC, OUT, NVCC, APPS (default the six case studies), ENV
# (default stress+rand), RUNS (runs a check, default 10), LAUNCHES (a
# run's launches, default 200), CONFIG (a `gpu tune -o` file, optional).
# A program that shows no error without fences needs one check (a build
# and RUNS runs), then the cost runs; one that does takes a few dozen.
set -u
SC=$(realpath "${SC:-tools/scopecat}")
OUT=${OUT:-ptx/results/H100-apps/fences}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
APPS=${APPS:-cbe-dot sdk-red cbe-ht lookback-scan work-queue grid-barrier}
ENV=${ENV:-stress+rand}
RUNS=${RUNS:-10}
LAUNCHES=${LAUNCHES:-200}
MACHINE=0 . examples/apps/setup.sh
config=()
[ -n "${CONFIG:-}" ] && config=(-config "$CONFIG")
for app in $APPS; do
  k=$BIN/$app.steps
  bash examples/apps/ptx-rebuild.sh prepare "$k" "$NVCC" -O3 -arch=sm_90 -cudart shared \
    -lineinfo -I include -o "$BIN/$app" "examples/apps/$app.cu" >"$OUT/$app.txt" 2>&1 || {
    echo "fences.sh: $app: prepare failed" >>"$OUT/$app.txt"; continue; }
  "$SC" gpu app -nvcc "$NVCC" -gpudir harness -keep "$BIN/keep" "${config[@]}" \
    -v -fences -cost -ptx "$k/original.ptx" \
    -build "bash examples/apps/ptx-rebuild.sh build '$k' {ptx}" \
    -env "$ENV" -runs "$RUNS" -- "$BIN/$app" nofence "$LAUNCHES" >>"$OUT/$app.txt" 2>&1
  echo "exit $?" >>"$OUT/$app.txt"
done
