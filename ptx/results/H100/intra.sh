#!/bin/sh
# intra.sh: incantations against the shapes within one CTA (MP, SB, LB,
# CoRR -intra): each setting, 10^8 instances, Observation and Rate lines.
#   ptx/results/H100/intra.sh SCOPECAT
SC=$1
K=${TMPDIR:-/tmp}/scopecat-gpu-intra
T="ptx/gpu-shapes/MP-intra.litmus ptx/gpu-shapes/SB-intra.litmus ptx/gpu-shapes/LB-intra.litmus ptx/gpu-shapes/CoRR-intra.litmus ptx/gpu-shapes/MP-inter.litmus"
ls $T | xargs -P 8 -n 1 "$SC" gpu build -gpudir harness -keep "$K" >/dev/null 2>&1
for s in "" "-sync-spin 1024" "-bank-conflicts 1 -tpb 512" \
         "-bank-conflicts 1 -sync-spin 1024 -tpb 512" \
         "-stress-blocks 264 -stress-iters 32 -sync-spin 1024" \
         "-tpb 64 -blocks 2112 -sync-spin 1024" "-shuffle 0"; do
  echo "== $s"
  "$SC" gpu run -gpudir harness -keep "$K" -n 100000000 $s $T |
    grep -E '^(Observation|Rate)' | paste - - | awk '{print $2, $3, $4, $9}'
done
