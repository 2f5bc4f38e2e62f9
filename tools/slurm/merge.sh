#!/bin/sh
# merge.sh: the step after a job array (a dependent job): the shards' herd7
# logs made one (RUN/herd.log, scopecat merge: mcompare7 reads it), and the
# GPU logs of every shard compared as one run (RUN/compare.txt and
# RUN/compare.html, scopecat compare: against RUN/herd.log when the run
# simulated too, else against the models of COMPARE OPTIONS).
#
#   sbatch --dependency=afterany:JOB tools/slurm/merge.sh RUN [TESTS [COMPARE OPTIONS...]]
#
# TESTS: the folder of the litmus tests (compare's -tests).  The exit
# status is merge's, then compare's (3: some test UNSOUND).
#SBATCH --job-name=scopecat-merge
set -eu
if [ $# -lt 1 ]; then
  echo "usage: sbatch --dependency=afterany:JOB $0 RUN [TESTS [COMPARE OPTIONS...]]" >&2
  exit 2
fi
run=$1
shift
scopecat=${SCOPECAT:-scopecat}
status=0
if [ -d "$run/herd" ]; then
  "$scopecat" merge "$run/herd" >"$run/herd.log" || status=$?
  echo "merge: $(grep -c '^Test ' "$run/herd.log") tests in $run/herd.log" \
    "(exit $status)" >&2
fi
if [ -d "$run/gpu" ] && [ "$status" -eq 0 ]; then
  tests=${1:-}
  [ $# -gt 0 ] && shift
  [ -s "$run/herd.log" ] && set -- -verdicts "$run/herd.log" "$@"
  [ -n "$tests" ] && set -- -tests "$tests" "$@"
  "$scopecat" compare "$@" -html "$run/compare.html" "$run/gpu" \
    >"$run/compare.txt" || status=$?
  echo "compare: $run/compare.txt (exit $status)" >&2
fi
exit "$status"
