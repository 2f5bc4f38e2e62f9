#!/bin/bash
# campaign.sh: an H100 campaign of `scopecat gpu app` (doc/apps.md): build
# the case studies of examples/apps/ with -cudart shared, check that the
# interposer's ids are a warp-preserving permutation under +rand and the
# identity without, then run each case study's fenced and fence-free
# variants in all eight environments, and measure what their fences cost
# (-cost, natively).  Run from the source tree's root:
#   SC=path/to/scopecat OUT=logs bash examples/apps/campaign.sh
# Variables: SC, OUT, NVCC, APPS (default the six case studies), VARIANTS
# (both, nf: the fence-free ones alone, or fenced), ENVS (gpu app's -env,
# default all), SECONDS_PER_ENV (default 4), RUNS (at most, an environment:
# default 20), CONFIG (a `gpu tune -o` file
# for the stress environment's parameters), IDS (0: skip the ids checks),
# COST (0: skip the cost runs).
set -u
SC=${SC:-tools/scopecat}
OUT=${OUT:-ptx/results/H100-apps}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
. examples/apps/setup.sh
KEEP=$BIN/keep
apps=${APPS:-cbe-dot sdk-red cbe-ht lookback-scan work-queue grid-barrier}
variants=${VARIANTS:-both}
config=()
[ -n "${CONFIG:-}" ] && config=(-config "$CONFIG")
# the builds in parallel (nvcc takes seconds each)
for app in ids $apps; do
  "$NVCC" -O3 -arch=sm_90 -cudart shared -I include -o "$BIN/$app" \
    "examples/apps/$app.cu" &
done
wait
for app in ids $apps; do
  [ -x "$BIN/$app" ] || { echo "campaign.sh: $app: build failed" >&2; exit 1; }
done
common=(-nvcc "$NVCC" -gpudir harness -keep "$KEEP" -run-timeout 30 "${config[@]}")
# the ids: the identity without randomisation, moved with it
[ "${IDS:-1}" = 0 ] || {
"$SC" gpu app "${common[@]}" -env none,stress -runs 3 \
  -check "grep -q '^moved 0 0 '" -- "$BIN/ids" >"$OUT/ids-identity.txt" 2>&1
"$SC" gpu app "${common[@]}" -env none+rand,stress+rand -runs 3 \
  -check "grep -q '^moved [1-9][0-9]* [1-9]'" -- "$BIN/ids" >"$OUT/ids-rand.txt" 2>&1
}
for app in $apps; do
  [ "$variants" = fenced ] || echo "$app-nf -- $BIN/$app nofence 200"
  [ "$variants" = nf ] || echo "$app -- $BIN/$app fenced 200"
done >"$BIN/apps.txt"
cp "$BIN/apps.txt" "$OUT/apps-file.txt"
"$SC" gpu app "${common[@]}" -env "${ENVS:-all}" -seconds ${SECONDS_PER_ENV:-4} -runs ${RUNS:-20} \
  -apps "$BIN/apps.txt" >"$OUT/apps.txt" 2>&1
echo "exit $?" >>"$OUT/apps.txt"
# what the fences cost: kernel time and energy, natively
[ "${COST:-1}" = 0 ] ||
"$SC" gpu app "${common[@]}" -env none -cost -runs 20 \
  -apps "$BIN/apps.txt" >"$OUT/cost.txt" 2>&1
