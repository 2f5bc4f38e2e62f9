#!/bin/sh
# drf.sh: `scopecat gpu drf` without a GPU: the checker on traces recorded
# on an H100 (tests/data/drf/), a stale value planted in one, malformed
# traces, the options, the generated program (compiled with nvcc where
# configure found it), and exit 77 without a GPU.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"
d="$srcdir/tests/data/drf"

# a clean trace (gpu drf -trace, H100, seed 3): every load checked, none wrong
expect 0 "$scopecat" gpu drf -check "$d/clean.trace"
has "$tmp/out" "Checked loads: $(grep -c '^load ' "$d/clean.trace") "
has "$tmp/out" "Mismatches: 0"
has "$tmp/out" "Verdict: PASS"
has "$tmp/out" "seed 3; inject none"

# a trace recorded with swarm testing (H100, seed 3, -episodes 4 -locks 2
# -cta-locks 1 given, the other knobs drawn): the checker draws the setting
# again from the swarm line and the seed, and it is the params line
sw="$d/swarm.trace"
expect 0 "$scopecat" gpu drf -check "$sw"
has "$tmp/out" "Checked loads: $(grep -c '^load ' "$sw") "
has "$tmp/out" "Swarm: on (fixed: episodes,locks,cta-locks; episodes at most 4): the params line is the draw of seed 3"
has "$tmp/out" "Verdict: PASS"
# the same draw without a GPU (-plan), in the log's words
expect 0 "$scopecat" gpu drf -plan 1 -seed 3 -ctas 2 -tpb 8 -episodes 4 -locks 2 -cta-locks 1
set -- $(sed -n 's/^params .* actions \([0-9]*\) vars \([0-9]*\) .* loads \([0-9]*\) spacing \([0-9]*\) .*/\1 \2 \3 \4/p' "$sw")
has "$tmp/out" "round 0 seed 3 wide: episodes 4, actions $1, vars $2, locks 2, cta-locks 1, loads $3%, spacing $4"
# malformed or wrong setting lines: file:line:col
swbad() { # swbad SED-SCRIPT MESSAGE
  sed "$1" "$sw" >"$tmp/sw.trace"
  expect 1 "$scopecat" gpu drf -check "$tmp/sw.trace"
  has "$tmp/err" "$tmp/sw.trace:$2"
}
swbad 's/^params \(.*\) vars [0-9]* /params \1 vars 3 /' "3:1: the params line is not the setting seed 3 draws: vars 3, the draw gives $2"
swbad 's/^swarm .*/swarm on episodes-max 8 fixed episodes,locks,cta-locks/' "3:1: the params line is not the setting seed 3 draws: episodes 4, the draw gives 8"
swbad 's/^swarm .*/swarm on episodes-max 4 fixed none/' "3:1: the params line is not the setting seed 3 draws: locks 2, the draw gives"
swbad 's/^swarm .*/swarm on episodes-max 4 fixed locks,colour/' "3:37: unknown knob 'colour'"
swbad 's/^swarm .*/swarm maybe/' "3:7: expected on or off after swarm"
swbad 's/^swarm .*/swarm on fixed none/' "3:10: expected episodes-max"
swbad 's/^swarm .*/swarm on episodes-max 4 fixed/' "3:30: expected none or knob names after fixed"
swbad 's/^swarm off.*/&/; 3a\
swarm off' "4:1: a second swarm line"
swbad 's/^swarm .*/swarm off now/' "3:11: unexpected 'now'"
# swarm off: the params line is taken as it is
sed 's/^swarm .*/swarm off/' "$sw" >"$tmp/sw.trace"
expect 0 "$scopecat" gpu drf -check "$tmp/sw.trace"
has "$tmp/out" "Swarm: off (the trace's setting is its params line)"

# swarm testing: each round draws its setting from its seed (-plan prints
# the settings without a GPU); a knob given fixes it in every round
expect 0 "$scopecat" gpu drf -plan 64
cp "$tmp/out" "$tmp/plan1"
has "$tmp/plan1" " wide: "
has "$tmp/plan1" " contended: "
if [ "$(sed 's/.*locks \([0-9]*\),.*/\1/' "$tmp/plan1" | sort -u | wc -l)" -ge 4 ]; then ok
else fail "64 rounds drew fewer than 4 lock counts"; cat "$tmp/plan1"; fi
# the same seed draws the same setting, whatever round it is
expect 0 "$scopecat" gpu drf -plan 64
if cmp -s "$tmp/plan1" "$tmp/out"; then ok; else fail "two plans of seed 1 differ"; fi
expect 0 "$scopecat" gpu drf -plan 4 -seed 9
a=$(sed -n 's/^round 8 seed 9 //p' "$tmp/plan1") b=$(sed -n 's/^round 0 seed 9 //p' "$tmp/out")
if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else fail "seed 9 drew '$a' and '$b'"; fi
# explicit knobs are fixed in every round, the others still drawn
expect 0 "$scopecat" gpu drf -plan 64 -locks 1024 -actions 32
if [ "$(grep -c 'actions 32, .* locks 1024,' "$tmp/out")" -eq 64 ]; then ok
else fail "-locks 1024 -actions 32 not in every round"; cat "$tmp/out"; fi
if [ "$(sed 's/.*vars \([0-9]*\),.*/\1/' "$tmp/out" | sort -u | wc -l)" -ge 3 ]; then ok
else fail "vars not drawn with -locks given"; fi
# a contended round: few shared locks, no CTA locks, short queues
grep ' contended: ' "$tmp/plan1" | tr -d ',' | awk '{ for (i = 5; i < NF; i += 2) v[$i] = $(i + 1) }
  v["locks"] > 256 || v["cta-locks"] != 0 || v["actions"] > 8 ||
  (v["episodes"] > 1 && 264 * 256 * v["episodes"] / v["locks"] > 2048) { print; bad = 1 }
  END { exit bad }' >"$tmp/bad-contended" && ok || { fail "a contended round out of its ranges"; cat "$tmp/bad-contended"; }
# -swarm 0: the defaults in every round
expect 0 "$scopecat" gpu drf -plan 3 -swarm 0
if [ "$(grep -c 'fixed: episodes 16, actions 32, vars 8, locks 1024, cta-locks 8, loads 50%, spacing 1$' "$tmp/out")" -eq 3 ]; then ok
else fail "-swarm 0 drew"; cat "$tmp/out"; fi
expect 2 "$scopecat" gpu drf -swarm 2
has "$tmp/err" "-swarm: expected a number from 0 to 1, not '2'"
# the largest setting a round may draw must make a program too
expect 2 "$scopecat" gpu drf -ctas 1048576 -tpb 1 -episodes 1
has "$tmp/err" "-spacing: the slots need more than 10^10 words (in a round that draws the largest setting"
expect 0 "$scopecat" gpu drf -ctas 1048576 -tpb 1 -episodes 1 -swarm 0 -plan 1

# plant a stale value: the first load that read another episode's store
# reads the initial value instead; its writer is named by the value itself
# (episode (v-1)/8, action (v-1)%8: 8 actions per episode)
set -- $(awk '$1 == "load" && $4 != 0 && int(($4 - 1) / 8) != $2 { print $2, $3, $4; exit }' "$d/clean.trace")
e=$1 a=$2 v=$3 we=$(( ($3 - 1) / 8 )) wa=$(( ($3 - 1) % 8 ))
sed "s/^load $e $a $v\$/load $e $a 0/" "$d/clean.trace" >"$tmp/stale.trace"
mkdir "$tmp/rep"
expect 1 "$scopecat" gpu drf -check "$tmp/stale.trace" -o "$tmp/rep"
has "$tmp/out" "Mismatches: 1"
has "$tmp/out" "episode $((e % 4)) of thread $((e / 4)) (CTA $((e / 32)), thread $((e / 4 % 8)) of it; global episode $e), action $a:"
has "$tmp/out" "seen     0: the initial value"
has "$tmp/out" "expected $v: stored by action $wa of episode $((we % 4)) of thread $((we / 4)) (CTA $((we / 32)), thread $((we / 4 % 8)) of it; global episode $we)"
has "$tmp/out" "Verdict: FAIL"
# the two episodes as a litmus test, which the model forbids
lit="$tmp/rep/drf-s3-e$e-a$a.litmus"
if [ -f "$lit" ]; then ok; else fail "no litmus test $lit"; ls "$tmp/rep"; fi
has "$tmp/out" "litmus: $lit: ptx-v6.0.cat forbids it"
has "$tmp/rep/drf.txt" "Mismatches: 1"
expect 0 "$scopecat" sim "$lit"
has "$tmp/out" "Observation drf-s3-e$e-a$a Never"

# a load moved after its release (-inject load-outside, H100): the GPU's own
# check found 417 wrong loads in this round; the host finds the same ones
expect 1 "$scopecat" gpu drf -check "$d/load-outside.trace" -o "$tmp/rep"
has "$tmp/out" "Mismatches: 417"
has "$tmp/out" "inject load-outside"
if grep '^Mismatch ' "$tmp/out" | grep -qv 'moved after the release'; then
  fail "a mismatch at a load that was not moved"; else ok; fi

# an episode that never acquired its lock (place -1): a forward-progress
# failure, named
grep -v '^load 5 ' "$d/clean.trace" | sed 's/^ticket 5 .*/ticket 5 -1/' >"$tmp/stuck.trace"
expect 1 "$scopecat" gpu drf -check "$tmp/stuck.trace" -o "$tmp/rep"
has "$tmp/out" "Forward progress (seed 3): episode 1 of thread 1 (CTA 0, thread 1 of it; global episode 5) did not acquire lock"
has "$tmp/out" "1 did not acquire in time"

# malformed traces: file:line:col
bad() { # bad LINE-TO-REPLACE-LINE-2 MESSAGE
  { sed -n 1,2p "$d/clean.trace"; printf '%s\n' "$1"; } >"$tmp/bad.trace"
  expect 1 "$scopecat" gpu drf -check "$tmp/bad.trace"
  has "$tmp/err" "$tmp/bad.trace:$2"
}
bad "ticket 64 0" "3:8: an episode number out of range"
bad "load 0 x 5" "3:8: expected an action number"
bad "lode 0 1 5" "3:1: expected params, swarm, ticket or load, not 'lode'"
bad "ticket 0 0 7" "3:12: unexpected '7'"
st=$(awk '$1 == "load" { l[$2 " " $3] = 1 } END { for (a = 0; a < 8; a++) if (!((0 " " a) in l)) { print a; exit } }' "$d/clean.trace")
bad "load 0 $st 1" "3:8: action $st of episode 0 is a store, not a load"
bad "params ctas 1" "3:1: a second params line"
printf 'params ctas 0 tpb 8\n' >"$tmp/bad.trace"
expect 1 "$scopecat" gpu drf -check "$tmp/bad.trace"
has "$tmp/err" "$tmp/bad.trace:1:13: a value of ctas out of range"
printf 'ticket 0 0\n' >"$tmp/bad.trace"
expect 1 "$scopecat" gpu drf -check "$tmp/bad.trace"
has "$tmp/err" "$tmp/bad.trace:1:7: ticket before the params line"
# an acquired episode whose loads are missing
grep -v '^load 0 ' "$d/clean.trace" >"$tmp/bad.trace"
expect 1 "$scopecat" gpu drf -check "$tmp/bad.trace"
has "$tmp/err" "$tmp/bad.trace:3:1: episode 0 acquired its lock but its load"
expect 1 "$scopecat" gpu drf -check "$tmp/no-such.trace"
has "$tmp/err" "no-such.trace: cannot read"

# one record per load (issue 24 item 6): a second record of a load is
# refused at its position, whatever its value and order (the later one
# used to replace the earlier, so the verdict depended on the order)
set -- $(awk '$1 == "load" { print $2, $3, $4; exit }' "$d/clean.trace")
n=$(grep -n "^load $1 $2 $3\$" "$d/clean.trace" | cut -d: -f1)
sed "${n}i\\
load $1 $2 0" "$d/clean.trace" >"$tmp/dup.trace"
expect 1 "$scopecat" gpu drf -check "$tmp/dup.trace"
has "$tmp/err" "$tmp/dup.trace:$((n + 1)):1: a second load record for action $2 of episode $1 (the first is on line $n)"
lacks "$tmp/out" "Verdict: PASS"
sed "${n}a\\
load $1 $2 $3" "$d/clean.trace" >"$tmp/dup.trace"
expect 1 "$scopecat" gpu drf -check "$tmp/dup.trace"
has "$tmp/err" "$tmp/dup.trace:$((n + 1)):1: a second load record for action $2 of episode $1 (the first is on line $n)"

# options: checked before anything runs
expect 2 "$scopecat" gpu drf -vars 65
has "$tmp/err" "-vars: expected a number from 1 to 64, not '65'"
expect 2 "$scopecat" gpu drf -inject sometimes
has "$tmp/err" "-inject: expected none, release-relaxed"
expect 2 "$scopecat" gpu drf -locks 0 -cta-locks 0
has "$tmp/err" "-locks and -cta-locks are both 0"
expect 2 "$scopecat" gpu drf -loads 101
expect 2 "$scopecat" gpu drf some.litmus
has "$tmp/err" "unexpected argument 'some.litmus'"
expect 0 "$scopecat" gpu drf -help
has "$tmp/out" "-inject FAULT"

# the generated program; compiled for sm_90 when nvcc is there
expect 0 "$scopecat" gpu drf -gen "$tmp/gen"
has "$tmp/gen/drf.cu" '#include "drf_main.cuh"'
nvcc=${SC_NVCC:-}
if [ -n "$nvcc" ] && [ -x "$nvcc" ]; then
  if "$nvcc" -O3 -arch=sm_90 -std=c++17 -I "$srcdir/harness" \
       -o "$tmp/gen/drf" "$tmp/gen/drf.cu" >"$tmp/nvcc.out" 2>&1; then ok
  else fail "nvcc on the generated program"; cat "$tmp/nvcc.out"; fi
else
  echo "SKIP: no nvcc: the program is not compiled"
fi

# the run, with a stand-in GPU (nvidia-smi), nvcc and program: the program
# follows drf_main.cuh's rule for stopping (after a round: a finding with
# -stop, -seconds-ms of GPU time, -want loads checked) over the settings
# -plan draws, 12.5 * 10^6 loads and 20 ms a round; with -inject, a
# contended round finds a stale load, as the H100 did
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho "GPU 0: Stand-in GPU (UUID: GPU-0)"\n' >"$tmp/bin/nvidia-smi"
cat >"$tmp/bin/nvcc" <<'EOF_NVCC'
#!/bin/sh
echo "$*" >>"$FAKE_TMP/nvcc-calls"
[ -n "${FAKE_NVCC_FAIL:-}" ] && { echo "drf.cu(1): error: the stand-in nvcc fails"; exit 2; }
while [ $# -gt 0 ]; do case $1 in -o) exe=$2; shift ;; esac; shift; done
cat >"$exe" <<'EOF_PROG'
#!/bin/sh
want=0 ms=0 stop=0 inject=0 seed=1
while [ $# -gt 0 ]; do
  case $1 in -want) want=$2 ;; -seconds-ms) ms=$2 ;; -stop) stop=$2 ;;
    -inject) inject=$2 ;; -seed) seed=$2 ;; esac
  shift
done
echo "device Stand-in GPU 132"
r=0 checked=0 gpu=0
while read prof ep ac va lo cl ld sp; do
  mm=0
  [ "$inject" != 0 ] && [ "$prof" = 1 ] && mm=1
  echo "round $r $((seed + r)) 1000 12500000 12500000 $mm 0 0 0 15 5 set $prof $ep $ac $va $lo $cl $ld $sp"
  [ $mm = 1 ] && echo "mismatch $r $((seed + r)) 0 0 0 1 1 -1"
  checked=$((checked + 12500000)) gpu=$((gpu + 20))
  if { [ "$stop" = 1 ] && [ $mm = 1 ]; } || { [ "$ms" -gt 0 ] && [ $gpu -ge "$ms" ]; } ||
     { [ "$want" -gt 0 ] && [ $checked -ge "$want" ]; } || [ "$want" -le 0 ]; then break; fi
  r=$((r + 1))
done <"$FAKE_PLAN"
echo "cover 0 1"
EOF_PROG
chmod +x "$exe"
EOF_NVCC
chmod +x "$tmp/bin/nvcc" "$tmp/bin/nvidia-smi"
plan() { # plan FILE ARGS: the settings of 600 rounds, one line each, as numbers
  "$scopecat" gpu drf -plan 600 "$@" | sed -e 's/^round [0-9]* seed [0-9]* //' \
    -e 's/^wide:/0/' -e 's/^contended:/1/' -e 's/^fixed:/2/' -e 's/[a-z%,-]//g'
}
plan >"$tmp/plan"
plan -swarm 0 >"$tmp/plan0"
first=$(awk '$1 == 1 { print NR - 1; exit }' "$tmp/plan")
drf_run() { # drf_run STATUS PLAN ARGS
  want=$1 pl=$2; shift 2
  env -u CUDA_VISIBLE_DEVICES PATH="$tmp/bin:$PATH" FAKE_TMP="$tmp" FAKE_PLAN="$pl" \
    NVCC="$tmp/bin/nvcc" "$@" >"$tmp/out" 2>"$tmp/err"
  got=$?
  if [ $got -eq "$want" ]; then ok; else fail "exit $got, expected $want: $*"; cat "$tmp/out" "$tmp/err"; fi
}
# -inject runs until the fault is caught, not until the default -n (10^8
# loads: 8 rounds, before the first contended round, round $first)
if [ "$first" -ge 8 ]; then ok; else fail "the first contended round is $first"; fi
drf_run 0 "$tmp/plan" "$scopecat" gpu drf -inject release-relaxed -max-seconds 10 -o "$tmp/inj"
has "$tmp/out" "Rounds: $((first + 1)) "
has "$tmp/out" "Injected fault release-relaxed: caught after "
has "$tmp/out" "(round $first, contended: "
# a fault not caught by -max-seconds fails, and says so
drf_run 1 "$tmp/plan0" "$scopecat" gpu drf -inject release-relaxed -swarm 0 -max-seconds 1 -o "$tmp/inj"
has "$tmp/out" "Injected fault release-relaxed: NOT caught in 50 rounds, 1.000 s of GPU time (-max-seconds 1)"
has "$tmp/out" "Verdict: FAIL (the injected fault was not caught"
lacks "$tmp/out" "Verdict: PASS"
# -n with -inject bounds it too; without -inject the default -n stops it
drf_run 1 "$tmp/plan" "$scopecat" gpu drf -inject release-relaxed -n 25000000 -o "$tmp/inj"
has "$tmp/out" "NOT caught in 2 rounds, 0.040 s of GPU time (-n 25000000 loads checked)"
drf_run 0 "$tmp/plan" "$scopecat" gpu drf -o "$tmp/inj"
has "$tmp/out" "Rounds: 8 "
has "$tmp/out" "Verdict: PASS"
# -keep: a kept program is reused while its source, harness and command
# are the same; a changed harness header builds it again, and a failed
# build leaves nothing to reuse (the old program used to run)
cp -r "$srcdir/harness" "$tmp/harness"
rm -f "$tmp/nvcc-calls"
drf_run 0 "$tmp/plan" "$scopecat" gpu drf -keep "$tmp/dk" -gpudir "$tmp/harness" -n 1
drf_run 0 "$tmp/plan" "$scopecat" gpu drf -keep "$tmp/dk" -gpudir "$tmp/harness" -n 1
if [ "$(wc -l <"$tmp/nvcc-calls")" -eq 1 ]; then ok; else fail "drf -keep built $(wc -l <"$tmp/nvcc-calls") times"; fi
echo '// a newer harness' >>"$tmp/harness/drf_prog.h"
drf_run 1 "$tmp/plan" env FAKE_NVCC_FAIL=1 "$scopecat" gpu drf -keep "$tmp/dk" -gpudir "$tmp/harness" -n 1
has "$tmp/err" "drf.cu(1): error: the stand-in nvcc fails"
drf_run 1 "$tmp/plan" env FAKE_NVCC_FAIL=1 "$scopecat" gpu drf -keep "$tmp/dk" -gpudir "$tmp/harness" -n 1
lacks "$tmp/out" "Verdict"
if [ ! -e "$tmp/dk/drf" ]; then ok; else fail "a failed build left $tmp/dk/drf"; fi

# without a GPU: SKIP (77), as gpu run
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  expect 0 "$scopecat" gpu drf -n 1000000 -ctas 8
  has "$tmp/out" "Verdict: PASS"
else
  expect 77 "$scopecat" gpu drf -n 1000
  has "$tmp/err" "scopecat gpu drf: no GPU visible: SKIP"
fi
finish
