#!/bin/sh
# array.sh: one task of a Slurm job array: shard I of N (I from
# SLURM_ARRAY_TASK_ID, N from SLURM_ARRAY_TASK_COUNT) of a simulation, of a
# family generated on the node, or of a GPU campaign.  submit.sh submits it
# with its merge step; by hand:
#
#   sbatch --array=1-N --cpus-per-task=C array.sh sim RUN DIR [SIM OPTIONS...]
#   sbatch --array=1-N --cpus-per-task=C array.sh family RUN 'GEN OPTIONS' [SIM OPTIONS...]
#   sbatch --array=1-N --gpus=1 array.sh gpu RUN DIR [GPU RUN OPTIONS...]
#
# sim: `scopecat sim -shard I/N -j C DIR` (C from SLURM_CPUS_PER_TASK) into
# RUN/herd/shard-I.log.  family: `scopecat gen GEN OPTIONS -shard I/N` into
# a folder under TMPDIR (no shared folder of tests; the task builds the
# whole family in memory to pick its shard), then sim -j C on it, the same
# way.  gpu: `scopecat gpu run -shard I/N -o RUN/gpu DIR` on the GPUs Slurm
# gives (it sets CUDA_VISIBLE_DEVICES, which gpu run honours): one log per
# test, in the one folder compare reads as one run.  SCOPECAT names the
# program (default: scopecat on PATH).  The task exits with its status.
#SBATCH --job-name=scopecat
set -eu
if [ $# -lt 3 ]; then
  sed -n '7,9s/^#   /usage: /p' "$0" >&2
  exit 2
fi
kind=$1 run=$2 what=$3
shift 3
: "${SLURM_ARRAY_TASK_ID:?not a task of a job array (sbatch --array=1-N)}"
shard=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-1} + 1))/${SLURM_ARRAY_TASK_COUNT:?}
index=${shard%/*}
jobs=${SLURM_CPUS_PER_TASK:-1}
scopecat=${SCOPECAT:-scopecat}
status=0
case $kind in
sim)
  mkdir -p "$run/herd"
  echo "$scopecat sim -shard $shard -j $jobs $* $what" >&2
  "$scopecat" sim -shard "$shard" -j "$jobs" "$@" "$what" \
    >"$run/herd/shard-$index.log" || status=$? ;;
family)
  tests=$(mktemp -d "${TMPDIR:-/tmp}/scopecat-family.XXXXXX")
  trap 'rm -rf "$tests"' EXIT
  mkdir -p "$run/herd"
  # $what holds gen's options: split into words on purpose
  # shellcheck disable=SC2086
  "$scopecat" gen $what -shard "$shard" -o "$tests/family" || status=$?
  echo "$scopecat sim -j $jobs $* (shard $shard of gen $what)" >&2
  if [ "$status" -eq 0 ]; then
    "$scopecat" sim -j "$jobs" "$@" "$tests/family" \
      >"$run/herd/shard-$index.log" || status=$?
  fi ;;
gpu)
  mkdir -p "$run/gpu"
  echo "$scopecat gpu run -shard $shard -o $run/gpu $* $what" \
    "(CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-unset})" >&2
  # each log is written to RUN/gpu; the same text on stdout is not kept
  "$scopecat" gpu run -shard "$shard" -o "$run/gpu" "$@" "$what" >/dev/null ||
    status=$? ;;
*)
  echo "array.sh: expected sim, family or gpu, found '$kind'" >&2
  exit 2 ;;
esac
exit "$status"
