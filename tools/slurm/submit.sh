#!/bin/sh
# submit.sh: a scopecat campaign on a Slurm cluster: the job array (one
# task per shard) and the merge step after it (a job that waits for every
# task); prints the two job ids.
#
#   tools/slurm/submit.sh [-cpus C] [-wait] sim N RUN DIR [SIM OPTIONS...]
#   tools/slurm/submit.sh [-cpus C] [-wait] family N RUN 'GEN OPTIONS' [SIM OPTIONS...]
#   tools/slurm/submit.sh [-wait] gpu N RUN DIR [GPU RUN OPTIONS...]
#
# N shards; RUN the folder of the results (on a file system every node
# sees): RUN/herd/ and RUN/herd.log (simulation), RUN/gpu/,
# RUN/compare.txt and .html (GPU), RUN/slurm/ (each job's output).  Each
# task runs array.sh: with -cpus C CPUs (sim's -j) for a simulation, one
# GPU for a GPU campaign; then merge.sh.  -wait: wait for the merge step
# and exit with its status.  sbatch's own variables choose the rest
# (SBATCH_PARTITION, SBATCH_ACCOUNT, SBATCH_TIMELIMIT, ...); SCOPECAT names
# the program for the jobs (default: scopecat on their PATH).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
usage() {
  sed -n '6,8s/^#   /usage: /p' "$0" >&2
  exit 2
}
cpus=1 wait=
while [ $# -gt 0 ]; do
  case $1 in
  -cpus)
    case ${2:-} in '' | *[!0-9]*) usage ;; esac
    cpus=$2
    shift 2 ;;
  -wait) wait=--wait; shift ;;
  *) break ;;
  esac
done
[ $# -ge 4 ] || usage
kind=$1 shards=$2 run=$3 what=$4
shift 4
case $shards in
'' | *[!0-9]* | 0*)
  echo "submit.sh: N must be a number of shards, not '$shards'" >&2
  exit 2 ;;
esac
case $kind in
sim | family) resources="--cpus-per-task=$cpus" ;;
gpu) resources=--gpus=1 ;;
*)
  echo "submit.sh: expected sim, family or gpu, found '$kind'" >&2
  exit 2 ;;
esac
mkdir -p "$run/slurm"
array=$(sbatch --parsable --array="1-$shards" "$resources" \
  --job-name="scopecat-$kind" --output="$run/slurm/%x-%A_%a.out" \
  "$here/array.sh" "$kind" "$run" "$what" "$@")
# the merge step compares a GPU campaign's logs with its tests
if [ "$kind" = gpu ]; then set -- "$what"; else set --; fi
array=${array%%;*} # "ID;CLUSTER" on federated clusters
echo "array $array: $shards shards of $kind" >&2
echo "$array"
status=0
merge=$(sbatch --parsable $wait --dependency="afterany:$array" \
  --output="$run/slurm/%x-%j.out" "$here/merge.sh" "$run" "$@") ||
  status=$?
echo "merge step ${merge%%;*} after array $array" >&2
echo "${merge%%;*}"
exit "$status"
