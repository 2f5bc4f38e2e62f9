#!/bin/bash
# slurm.sh: tools/slurm/ on a real Slurm: munged, slurmctld and slurmd
# started on this machine with their own key, ports and folders, the
# simulation array run over a bundled folder in 4 shards, the merged log
# checked against one unsharded run; every daemon stopped on exit.
# Skips (77) where the packages (slurm-wlm, munge) or root are missing or
# the daemons do not start.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"
export SCOPECAT="$scopecat"
tests_dir="$srcdir/ptx/families/h100" # 305 tests
shards=4

skip() {
  echo "SKIP: $*"
  exit 77
}
for prog in munged mungekey slurmctld slurmd sbatch squeue scancel sinfo; do
  command -v "$prog" >/dev/null 2>&1 ||
    skip "$prog not found (apt-get install slurm-wlm munge)"
done
[ "$(id -u)" -eq 0 ] || skip "slurmd needs root to start jobs"

# ---- the daemons, stopped on exit whatever happens --------------------------
pids=""
stop_daemons() {
  # jobs first (slurmd would leave their steps behind), then slurmd,
  # slurmctld, munged: each waited for
  if [ -n "$pids" ] && [ -n "${SLURM_CONF:-}" ]; then
    scancel --quiet --full --user=root 2>/dev/null || true
  fi
  for pid in $pids; do
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  pids=""
}
trap 'stop_daemons; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

# munged checks that every folder above its socket lets others through
chmod 711 "$tmp"
slurm=$tmp/slurm
mkdir -m 711 "$slurm"
mkdir -m 755 "$slurm/munge"
mkdir "$slurm/ctld" "$slurm/d"

started() { # started NAME PID LOG: still running two seconds later
  for _ in $(seq 20); do
    kill -0 "$2" 2>/dev/null || {
      tail -5 "$3"
      skip "$1 did not start (its log above)"
    }
    sleep 0.1
  done
}

mungekey --create --keyfile="$slurm/munge.key" >/dev/null 2>&1 ||
  skip "mungekey could not make a key"
munged --foreground --key-file="$slurm/munge.key" \
  --socket="$slurm/munge/munge.sock" --pid-file="$slurm/munged.pid" \
  --log-file="$slurm/munged.log" --seed-file="$slurm/munged.seed" \
  >"$slurm/munged.out" 2>&1 &
pids="$! $pids"
started munged "$!" "$slurm/munged.out"

# two free ports, away from Slurm's 6817/6818
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
base=$((20000 + $$ % 20000))
while ! port_free "$base" || ! port_free $((base + 1)); do
  base=$((base + 2))
done
host=$(hostname -s)
cat >"$slurm/slurm.conf" <<EOF
ClusterName=scopecat-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$base
SlurmdPort=$((base + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$slurm/munge/munge.sock
StateSaveLocation=$slurm/ctld
SlurmdSpoolDir=$slurm/d
SlurmctldPidFile=$slurm/slurmctld.pid
SlurmdPidFile=$slurm/slurmd.pid
SlurmctldLogFile=$slurm/slurmctld.log
SlurmdLogFile=$slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
NodeName=scopecat-node NodeHostname=$(hostname) NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=scopecat Nodes=scopecat-node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$slurm/slurm.conf
slurmctld -D -f "$SLURM_CONF" >"$slurm/slurmctld.out" 2>&1 &
pids="$! $pids"
started slurmctld "$!" "$slurm/slurmctld.log"
slurmd -D -N scopecat-node -f "$SLURM_CONF" >"$slurm/slurmd.out" 2>&1 &
pids="$! $pids"
started slurmd "$!" "$slurm/slurmd.log"
for _ in $(seq 100); do
  state=$(sinfo -h -n scopecat-node -o %t 2>/dev/null) || true
  [ "$state" = idle ] && break
  sleep 0.2
done
[ "$state" = idle ] || {
  tail -5 "$slurm/slurmctld.log" "$slurm/slurmd.log"
  skip "the node is '$state', not idle, after 20 s"
}

# ---- the campaign: 4 shards, 2 CPUs a task, then the merge step -------------
cpus=$(nproc)
[ "$cpus" -gt 2 ] && cpus=2
run=$tmp/run
start=$(date +%s)
timeout 600 sh "$srcdir/tools/slurm/submit.sh" -cpus "$cpus" -wait \
  sim "$shards" "$run" "$tests_dir" >"$tmp/ids" 2>"$tmp/submit.err"
status=$?
if [ "$status" -eq 0 ]; then ok; else
  fail "submit.sh -wait exited $status"
  cat "$tmp/submit.err" "$run"/slurm/*.out 2>/dev/null | tail -20
fi
echo "the array and its merge step: $(($(date +%s) - start)) s"
if [ "$(wc -l <"$tmp/ids")" -eq 2 ]; then ok; else fail "submit.sh printed no two job ids"; cat "$tmp/ids"; fi

# each task ran its own shard, with -j from SLURM_CPUS_PER_TASK
total=0
for i in $(seq "$shards"); do
  out=$(ls "$run"/slurm/scopecat-sim-*_"$i".out 2>/dev/null | head -1)
  if [ -n "$out" ] && grep -q -- "sim -shard $i/$shards -j $cpus " "$out"; then ok; else
    fail "task $i did not run shard $i/$shards with -j $cpus"
    [ -n "$out" ] && cat "$out"
  fi
  n=$(grep -c '^Test ' "$run/herd/shard-$i.log" 2>/dev/null) || n=0
  want=$("$scopecat" parse -summary -shard "$i/$shards" "$tests_dir" | wc -l)
  if [ "$n" -eq "$want" ] && [ "$n" -gt 0 ]; then ok; else
    fail "shard $i: $n blocks, expected $want (and some)"
  fi
  total=$((total + n))
done
all=$(ls "$tests_dir"/*.litmus | wc -l)
if [ "$total" -eq "$all" ]; then ok; else fail "the shards hold $total tests, the folder $all"; fi

# the merged log is one unsharded run's, blocks by name, Time aside
"$scopecat" sim "$tests_dir" >"$tmp/whole.log"
by_name() { # herd7 blocks sorted by test name (stable, bytewise), Time dropped
  awk '/^Test /{name=$2} !/^Time /{printf "%s\t%08d\t%s\n", name, NR, $0}' "$1" |
    LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n | cut -f3-
}
by_name "$tmp/whole.log" >"$tmp/whole.sorted"
sed '/^Time /d' "$run/herd.log" >"$tmp/merged" 2>/dev/null
if [ -s "$tmp/merged" ] && cmp -s "$tmp/merged" "$tmp/whole.sorted"; then ok; else
  fail "the merged log differs from one unsharded run"
  diff "$tmp/merged" "$tmp/whole.sorted" | head -10
fi
grep -c '^Test ' "$tmp/whole.log" >"$tmp/count"
has "$tmp/count" "$all"

# ---- a family generated shard by shard on the nodes: 3 tasks of 1 CPU -------
edges="$srcdir/ptx/families/asplos15.edges"
timeout 600 sh "$srcdir/tools/slurm/submit.sh" -wait family 3 "$tmp/run2" \
  "-size 4 -edges $edges" >"$tmp/ids" 2>"$tmp/submit.err"
status=$?
if [ "$status" -eq 0 ]; then ok; else
  fail "submit.sh -wait family exited $status"
  cat "$tmp/submit.err" "$tmp/run2"/slurm/*.out 2>/dev/null | tail -20
fi
"$scopecat" gen -size 4 -edges "$edges" -o "$tmp/family" 2>/dev/null
"$scopecat" sim "$tmp/family" >"$tmp/family.log"
by_name "$tmp/family.log" >"$tmp/family.sorted"
sed '/^Time /d' "$tmp/run2/herd.log" >"$tmp/merged" 2>/dev/null
if [ -s "$tmp/merged" ] && cmp -s "$tmp/merged" "$tmp/family.sorted"; then ok; else
  fail "the family's merged shards differ from the family run whole"
  diff "$tmp/merged" "$tmp/family.sorted" | head -10
fi
[ "$(grep -c '^Test ' "$tmp/merged")" -eq 756 ] && ok || fail "the family's merged log has not 756 tests"
for i in 1 2 3; do
  n=$(grep -c '^Test ' "$tmp/run2/herd/shard-$i.log" 2>/dev/null) || n=0
  want=$("$scopecat" parse -summary -shard "$i/3" "$tmp/family" | wc -l)
  [ "$n" -eq "$want" ] && ok || fail "family shard $i: $n blocks, expected $want"
done

finish
