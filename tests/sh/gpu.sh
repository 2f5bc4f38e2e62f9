#!/bin/sh
# gpu.sh: `scopecat gpu` without a GPU (issue 5).  The generator writes a
# CUDA program for every test of ptx/gpu-shapes, ptx/seeds and the herd
# corpus (or says why it cannot: SKIP with the reason); each program's
# optcheck specification names one asm statement per test thread with the
# test's accesses and fences; with the CUDA toolkit (configure found nvcc),
# a few programs are compiled for sm_90, ptxas included, and, where
# nvdisasm is installed, optcheck runs on their SASS.  `gpu run` without a
# GPU exits 77 (SKIP).  The committed H100 logs read back with `compare`
# and the classic shapes agree with the model.
set -u
srcdir=${SC_SRCDIR:-.}
scopecat=${SC_SCOPECAT:-./tools/scopecat}
nvcc=${SC_NVCC:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 skipped=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

tests="$srcdir/ptx/gpu-shapes $srcdir/ptx/seeds $srcdir/ptx/herd-gpu-ptx"

# generation: every test but one (x shared across CTAs) gets a program
"$scopecat" gpu gen -o "$tmp/gen" $tests >"$tmp/gen.out" 2>"$tmp/gen.err"
n=$(wc -l <"$tmp/gen.out")
want=$(ls $srcdir/ptx/gpu-shapes/*.litmus $srcdir/ptx/seeds/*.litmus \
  $srcdir/ptx/herd-gpu-ptx/*.litmus | wc -l)
if [ "$n" -eq $((want - 1)) ] && grep -q 'MP.litmus: SKIP: shared location x' "$tmp/gen.err"; then
  ok
else
  fail "gpu gen: $n programs of $want tests"; cat "$tmp/gen.err"
fi

# structure: each spec line points at an asm statement holding the thread's
# accesses in order
for spec in "$tmp"/gen/*.spec; do
  cu=${spec%.spec}.cu
  bad=$(awk -v cu="$cu" '
    { line = $4; cls = $5
      cmd = "sed -n " line "p \"" cu "\""; cmd | getline text; close(cmd)
      if (text !~ /asm volatile\(/) { print "line " line " is no asm"; next }
      n = split(text, ins, /\\n\\t/); got = ""
      for (i = 1; i <= n; i++) {
        s = ins[i]; sub(/^@!?tr_[A-Za-z0-9_]+ /, "", s)
        if (s ~ /^ld[.]/) got = got "L"; else if (s ~ /^st[.]/) got = got "S"
        else if (s ~ /^(atom|red)[.]/) got = got "A"
        else if (s ~ /^(membar|fence)[.]/ && s !~ /^fence[.]proxy/) got = got "F"
      }
      if (got == "") got = "-"
      if (got != cls) print "thread " $2 ": spec " cls ", asm " got
    }' "$spec")
  if [ -z "$bad" ]; then ok; else fail "$spec: $bad"; fi
done

# MP across CTAs: the asm is the test's PTX, renamed
if grep -q 'ld.relaxed.gpu.s32 tr_r0, \[tr_ay\]' "$tmp/gen/MP-inter.cu" &&
   grep -q '^#define NC 2$' "$tmp/gen/MP-inter.cu" &&
   grep -q '^#define NC 1$' "$tmp/gen/MP-intra.cu" &&
   grep -q '^#define NWMAX 2$' "$tmp/gen/MP-intra.cu"; then ok
else fail "MP-inter/MP-intra: unexpected program"; fi

# barriers (issue 16): every barrier test of the Dat3M corpus gets a
# program but the two whose barrier operand is loaded during the run; the
# program puts each instance in CTAs of its own (BARRIERS, BAR_WARPS) and
# each barrier is PTX's barrier with Dat3M's group as a hardware barrier
# and its quorum or group size in whole warps (worked by hand below)
bars=$(grep -lE '(bar|barrier)[.](cta[.])?(sync|arrive)' -r "$srcdir/ptx/dat3m" --include='*.litmus' | sort)
"$scopecat" gpu gen -o "$tmp/bar" $bars >"$tmp/bar.out" 2>"$tmp/bar.err"
nb=$(echo "$bars" | wc -l)
if [ "$nb" -eq 39 ] && [ "$(wc -l <"$tmp/bar.out")" -eq 37 ] &&
   [ "$(grep -c 'barrier operand 2 is computed during the run' "$tmp/bar.err")" -eq 2 ] &&
   grep -q 'SB+named-bar-dyn-reg-const.litmus:13:2: barrier operand 2' "$tmp/bar.err"; then ok
else fail "gpu gen barriers: $(wc -l <"$tmp/bar.out") programs of $nb"; cat "$tmp/bar.err"; fi
# bar.cta.sync 1, 1, 4 in three threads of one CTA: hardware barrier 0,
# 4 warps (128 threads), CTAs of 4 warps (the quorum, above the 3 threads)
q=$tmp/bar/test1-hang.cu
if grep -q '^#define BARRIERS 1$' "$q" && grep -q '^#define BAR_WARPS 4$' "$q" &&
   [ "$(grep -o 'barrier[.]cta[.]sync 0, 128;' "$q" | wc -l)" -eq 3 ]; then ok
else fail "quorum1-hang: unexpected program"; fi
# bar.cta.sync 1 (P0, P1) and 2 (P2, P3): their own ids, 2 warps each
q=$tmp/bar/barrier-instance-id-exists.cu
if [ "$(grep -o 'barrier[.]cta[.]sync 1, 64;' "$q" | wc -l)" -eq 2 ] &&
   [ "$(grep -o 'barrier[.]cta[.]sync 2, 64;' "$q" | wc -l)" -eq 2 ] &&
   grep -q '^#define BAR_WARPS 4$' "$q"; then ok
else fail "barrier-instance-id-exists: unexpected program"; fi
# Dat3M's bar.cta.sync 1, 1 and 1, 2 are two groups: barriers 0 and 1
q=$tmp/bar/barrier-logical-id-exists.cu
if [ "$(grep -o 'barrier[.]cta[.]sync 0, 64;' "$q" | wc -l)" -eq 2 ] &&
   [ "$(grep -o 'barrier[.]cta[.]sync 1, 64;' "$q" | wc -l)" -eq 2 ]; then ok
else fail "barrier-logical-id-exists: unexpected program"; fi
# arrive takes the group's count too; a test without barriers keeps the
# packed layout
q=$tmp/bar/PC-bar-sync-arrive.cu
if [ "$(grep -o 'barrier[.]cta[.]arrive 1, 64;' "$q" | wc -l)" -eq 2 ] &&
   [ "$(grep -o 'barrier[.]cta[.]sync 0, 64;' "$q" | wc -l)" -eq 2 ] &&
   grep -q '^#define BARRIERS 0$' "$tmp/gen/MP-inter.cu"; then ok
else fail "PC-bar-sync-arrive: unexpected program"; fi

# proxies and aliases: a test runs when its threads use generic aliases
# alone (7 of the 129) or no alias at all (3); the others are refused at a
# use of a surface, texture or constant proxy, which is named
prox="$srcdir/ptx/dat3m/Nvidia/proxy $srcdir/ptx/dat3m/Manual/proxy"
"$scopecat" gpu gen -o "$tmp/prox" $prox >"$tmp/prox.out" 2>"$tmp/prox.err"
if [ "$(wc -l <"$tmp/prox.out")" -eq 10 ] &&
   [ "$(grep -c 'not supported on the GPU' "$tmp/prox.err")" -eq 119 ] &&
   grep -q 'Proxy-SingleThread-rf-surW-surR.litmus:11:2: sust of s, x through the surface proxy' "$tmp/prox.err" &&
   grep -q 'Proxy-Const-ConstFence.litmus:11:2: cold of rd2, rd1 through the constant proxy' "$tmp/prox.err" &&
   grep -q 'Proxy-MP-cta-synonym14.litmus:14:2: sust of s1, x through the surface proxy' "$tmp/prox.err" &&
   grep -q 'Proxy-MP-sur-tex-surfaceFence.litmus:16:36: tld of t, x through the texture proxy' "$tmp/prox.err"; then ok
else fail "gpu gen proxies: $(wc -l <"$tmp/prox.out") programs"; cat "$tmp/prox.err"; fi
# y @ generic aliases x (locations x, y, s1, s2, t, flag): y's slot is x's
# in the second mapping, with x's initial value; fence.proxy.alias as written
q=$tmp/prox/Proxy-MP-cta-synonym1.cu
if grep -q '^#define NALIAS 1$' "$q" &&
   grep -q 'h_LOC_ALIAS\[6\] = {-1, 0, -1, -1, -1, -1};' "$q" &&
   grep -q '^#define NALIAS 0$' "$tmp/gen/MP-inter.cu" &&
   grep -q 'fence[.]proxy[.]alias;' "$tmp/prox/Proxy-Alias-with-AliasFence.cu"; then ok
else fail "generic alias: unexpected program"; fi
# fence.proxy.texture is Dat3M's, not PTX (ptxas: unknown modifier)
printf 'PTX fp\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n fence.proxy.texture ;\n ld.weak r0, x ;\nexists (P0:r0 == 1)\n' >"$tmp/fp.litmus"
"$scopecat" gpu gen -o "$tmp/fp" "$tmp/fp.litmus" >"$tmp/fp.out" 2>"$tmp/fp.err"
if [ ! -s "$tmp/fp.out" ] &&
   grep -q 'fp.litmus: SKIP: .*fp.litmus:7:2: fence.proxy.texture is not PTX' "$tmp/fp.err"; then ok
else fail "fence.proxy.texture: $(cat "$tmp/fp.out" "$tmp/fp.err")"; fi

# the names a program defines for the templates are harness/gpu_program.h's
# list, which checks each (#error, static_assert): the macros the generator
# writes are exactly those it checks, and a host C++ compiler finds every
# name in a sample of programs (shared memory, barriers, aliases), and
# names the one a program lacks
h="$srcdir/harness/gpu_program.h"
checked=$(sed -n 's/^#ifndef \([A-Z_]*\)$/\1/p' "$h" | grep -v '^SC_' | sort)
written=$(cat "$tmp"/gen/*.cu "$tmp"/bar/*.cu "$tmp"/prox/*.cu |
  sed -n 's/^#define \([A-Z_]*\) .*/\1/p' | sort -u)
if [ "$(echo "$checked" | wc -l)" -eq 25 ] && [ "$checked" = "$written" ]; then ok
else fail "gpu_program.h checks: $(echo $checked) / the generator writes: $(echo $written)"; fi
cxx=$(command -v g++ || command -v c++ || true)
as_host() { # as_host PROGRAM: the program as host C++, gpu_program.h for the templates
  printf '#define __constant__\n#define __device__\n#define __forceinline__ inline\n'
  sed -e '/#include "gpu_prelude.cuh"/d' -e 's|#include "gpu_main.cuh"|#include "gpu_program.h"|' "$1"
}
if [ -n "$cxx" ]; then
  for q in "$tmp/gen/MP-inter.cu" "$tmp/gen/sb.cu" "$tmp/bar/test1-hang.cu" \
           "$tmp/prox/Proxy-MP-cta-synonym1.cu"; do
    as_host "$q" >"$tmp/host.cc"
    if "$cxx" -std=c++17 -fsyntax-only -I "$srcdir/harness" "$tmp/host.cc" 2>"$tmp/cxx.err"; then ok
    else fail "$q against gpu_program.h"; cat "$tmp/cxx.err"; fi
  done
  as_host "$tmp/gen/MP-inter.cu" | sed '/^#define NOBS /d' >"$tmp/host.cc"
  if "$cxx" -std=c++17 -fsyntax-only -I "$srcdir/harness" "$tmp/host.cc" 2>"$tmp/cxx.err"; then
    fail "a program without NOBS passed gpu_program.h"
  elif grep -q 'error: #error "scopecat gpu program: NOBS is not defined"' "$tmp/cxx.err"; then ok
  else fail "no NOBS: $(cat "$tmp/cxx.err")"; fi
  as_host "$tmp/gen/MP-inter.cu" | sed 's/run_thread(int t/run_test_thread(int t/' >"$tmp/host.cc"
  if "$cxx" -std=c++17 -fsyntax-only -I "$srcdir/harness" "$tmp/host.cc" 2>"$tmp/cxx.err"; then
    fail "a program without run_thread passed gpu_program.h"
  elif grep -q "gpu_program.h:.*run_thread" "$tmp/cxx.err"; then ok
  else fail "no run_thread: $(cat "$tmp/cxx.err")"; fi
else
  echo "SKIP: no C++ compiler: gpu_program.h not checked"; skipped=$((skipped + 1))
fi

# compile a few for sm_90 (nvcc runs ptxas on the test's PTX)
if [ -n "$nvcc" ] && [ -x "$nvcc" ]; then
  all=
  for t in gpu-shapes/MP-inter gpu-shapes/SB-intra gpu-shapes/IRIW+fence.sc.gpu-inter \
           seeds/cas-sl seeds/dlb-mp+membar.gls dat3m/Barrier/quorum1-hang \
           dat3m/Manual/PC-bar-sync-arrive dat3m/Manual/barrier-logical-id-exists \
           dat3m/Manual/proxy/Proxy-Alias-AliasFence; do
    if "$scopecat" gpu build -nvcc "$nvcc" -gpudir "$srcdir/harness" \
         -keep "$tmp/build" "$srcdir/ptx/$t.litmus" >"$tmp/b.out" 2>"$tmp/b.err" &&
       ! grep -q 'optcheck: FAILED' "$tmp/b.err"; then ok
    else fail "gpu build $t"; cat "$tmp/b.err"; fi
    all="$all $srcdir/ptx/$t.litmus"
  done
  # a batch of them (each built above as an object): one executable with
  # each test's entry in its own namespace; -batch 1 builds a program
  if "$scopecat" gpu build -nvcc "$nvcc" -gpudir "$srcdir/harness" \
       -keep "$tmp/build" $all >"$tmp/b.out" 2>"$tmp/b.err" &&
     exe=$(sed -n 's/^batch of 9: //p' "$tmp/b.out") && [ -x "$exe" ] &&
     [ "$(nm -C "$exe" | grep -o 'sc_[0-9a-f]*::sc_batch_test_main' | sort -u | wc -l)" -eq 9 ] &&
     { "$exe" -tests sc_0 2>&1; [ $? -eq 127 ]; } | grep -q 'no test sc_0 in this batch' &&
     "$scopecat" gpu build -batch 1 -nvcc "$nvcc" -gpudir "$srcdir/harness" \
       -keep "$tmp/build" "$srcdir/ptx/gpu-shapes/MP-inter.litmus" 2>/dev/null |
       grep -q '/MP-inter/prog$'; then ok
  else fail "gpu build a batch"; cat "$tmp/b.out" "$tmp/b.err"; fi
else
  echo "SKIP: no nvcc: kernels not compiled"; skipped=$((skipped + 1))
fi

# gpu run without a GPU: SKIP (77); with one, it must report a histogram
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  if "$scopecat" gpu run -nvcc "$nvcc" -gpudir "$srcdir/harness" -n 100000 \
       "$srcdir/ptx/gpu-shapes/MP-inter.litmus" | grep -q '^Histogram'; then ok
  else fail "gpu run on the GPU"; fi
else
  "$scopecat" gpu run "$srcdir/ptx/gpu-shapes/MP-inter.litmus" >/dev/null 2>"$tmp/run.err"
  rc=$?
  if [ $rc -eq 77 ] && grep -q SKIP "$tmp/run.err"; then
    echo "SKIP: no GPU: gpu run not run"; skipped=$((skipped + 1))
  else fail "gpu run without a GPU: exit $rc"; fi
fi

# the watchdog, hangs, resume, batches, without a GPU: a stand-in nvcc
# whose programs print what the real ones do.  The spinning test's
# program records a hung launch (a Hangs line, exit 4) as the real one
# does after -launch-timeout, or with -launch-timeout 0 never ends; every
# run of a test is counted in $tmp/ran.  In a batch (-batch N > 1, the
# default) a test's object is its program, marked with its namespace (the
# wrapper's), and the link makes a stand-in of gpu_batch_main.cu: it runs
# the tests named by -tests in order, each one's output in -logdir's K.out,
# "done K STATUS" after each, and ends the process as the real one when a
# test hangs (no "done" line, exit 4); every process is counted in
# $tmp/procs.  With $FAKE_LOGS set (the -o folder), it first waits for
# the log of the test before (logs are written as each test ends) and
# notes "late" in $tmp/late when it does not come.
cat >"$tmp/fake-driver" <<'EOF_DRIVER'
#!/bin/sh
objs=$1
shift
echo proc >>"$FAKE_TMP/procs"
logdir= tests= prev=
for a; do
  case $prev in -logdir) logdir=$a ;; -tests) tests=$a ;; esac
  prev=$a
done
logs() { ls "$FAKE_LOGS" 2>/dev/null | grep -c '[.]txt$'; }
[ -n "${FAKE_LOGS:-}" ] && base=$(logs)
k=0
for id in $(echo "$tests" | tr , ' '); do
  if [ -n "${FAKE_LOGS:-}" ] && [ $k -gt 0 ]; then
    w=0
    while [ "$(logs)" -lt $((base + k)) ] && [ $w -lt 100 ]; do sleep 0.1; w=$((w + 1)); done
    [ "$(logs)" -lt $((base + k)) ] && echo late >>"$FAKE_TMP/late"
  fi
  obj=
  for o in $objs; do grep -q "^# id $id\$" "$o" && obj=$o; done
  sh "$obj" "$@" >"$logdir/$k.out" 2>&1
  rc=$?
  [ $rc -eq 4 ] && exit 4
  echo "done $k $rc"
  k=$((k + 1))
done
EOF_DRIVER
chmod +x "$tmp/fake-driver"
export FAKE_TMP="$tmp"
cat >"$tmp/fake-nvcc" <<EOF_NVCC
#!/bin/sh
objs= c= id=
while [ \$# -gt 0 ]; do
  case \$1 in -o) exe=\$2; shift ;; -c) c=1 ;; *.o) objs="\$objs \$1" ;; *.cu) cu=\$1 ;; esac
  shift
done
echo "\$exe" >>"$tmp/nvcc-calls"
if [ -z "\$c" ] && [ -n "\$objs" ]; then
  printf '#!/bin/sh\nexec "%s/fake-driver" "%s" "\$@"\n' "$tmp" "\$objs" >"\$exe"
  chmod +x "\$exe"
  exit 0
fi
case \$cu in
  *gpu_batch_main.cu) : >"\$exe" || exit 1; exit 0 ;;
  */batch.cu) id=\$(sed -n 's/^namespace \(.*\) {\$/\1/p' "\$cu")
    cu=\$(dirname "\$cu")/\$(sed -n 's/^#include "\(.*[.]cu\)"\$/\1/p' "\$cu") ;;
esac
if grep -q 'tr_v, 7;' "\$cu" 2>/dev/null; then
  echo "\$cu(3): error: the stand-in nvcc rejects this program"; exit 2
fi
case \$cu in
  *slow-nvcc*) echo \$\$ >"$tmp/nvcc.pid"; echo "\$exe" >"$tmp/nvcc.out"; exec sleep 600 ;;
  *cudaerr*) printf '#!/bin/sh\necho "CUDA error out of memory at gpu_main.cuh:1"\nexit 3\n' >"\$exe" ;;
  *spin*) cat >"\$exe" <<'EOF_PROG'
#!/bin/sh
echo run >>"$tmp/ran"
case " \$* " in *" -launch-timeout 0 "*) echo \$\$ >>"$tmp/spin.pid"; exec sleep 600 ;; esac
printf 'Test spin-forever Allowed\nHistogram (0 states)\nNo\n\nWitnesses\n'
printf 'Positive: 0, Negative: 0\nCondition exists (0:r0=1) is NOT validated\n'
printf 'Observation spin-forever Never 0 0\nTime spin-forever 3.00\n'
printf 'Hangs spin-forever 1 33792 3\n'
exit 4
EOF_PROG
  ;;
  *) cat >"\$exe" <<'EOF_PROG'
#!/bin/sh
echo run >>"$tmp/ran"
[ -n "\${FAKE_SLEEP:-}" ] && sleep "\$FAKE_SLEEP"
printf 'Test MP-inter Allowed\nHistogram (2 states)\n'
printf '600       :>1:r0=0; 1:r1=0;\n400       :>1:r0=1; 1:r1=1;\nNo\n\n'
printf 'Witnesses\nPositive: 0, Negative: 1000\n'
printf 'Condition exists (1:r0=1 /\\\\ 1:r1=0) is NOT validated\n'
printf 'Observation MP-inter Never 0 1000\nTime MP-inter 0.01\n'
printf '\nParameters: instances 1000 in 1 launches of 1000\n'
EOF_PROG
  ;;
esac
[ -n "\$id" ] && echo "# id \$id" >>"\$exe"
chmod +x "\$exe"
EOF_NVCC
chmod +x "$tmp/fake-nvcc"
start=$(date +%s)
"$scopecat" gpu run -gpus 1 -nvcc "$tmp/fake-nvcc" -gpudir "$srcdir/harness" \
  -timeout 2 -launch-timeout 0 "$srcdir/tests/data/gpu/spin-forever.litmus" \
  "$srcdir/ptx/gpu-shapes/MP-inter.litmus" >"$tmp/wd.out" 2>&1
rc=$?
took=$(( $(date +%s) - start ))
if [ $rc -eq 1 ] && [ $took -lt 60 ] &&
   grep -q '^Watchdog: spin-forever killed after 2 s' "$tmp/wd.out" &&
   grep -q '^Test MP-inter Allowed' "$tmp/wd.out" &&
   grep -q '^Command: scopecat gpu run -gpus 1 .* -timeout 2 .*/MP-inter.litmus$' "$tmp/wd.out"; then ok
else fail "watchdog: exit $rc after $took s"; cat "$tmp/wd.out"; fi

# a hang is a result: the log has its histogram and a Hangs line, the
# batch succeeds, campaign.out counts it; compare shows it as an
# observation, or beside the model's liveness verdict (a Liveness line in
# a verdict log).  In a batch (the default) the hang, mid-batch, ends the
# process and the next test runs in a new one: a/MP and a/spin in the
# first, b/MP in the second; each log is in place before the next test
# starts.
rm -f "$tmp/ran" "$tmp/procs" "$tmp/late"
mkdir -p "$tmp/corpus/a" "$tmp/corpus/b"
cp "$srcdir/tests/data/gpu/spin-forever.litmus" "$tmp/corpus/a/spin.litmus"
cp "$srcdir/ptx/gpu-shapes/MP-inter.litmus" "$tmp/corpus/a/MP.litmus"
cp "$srcdir/ptx/gpu-shapes/MP-inter.litmus" "$tmp/corpus/b/MP.litmus"
run_corpus() {
  FAKE_LOGS="$tmp/logs" "$scopecat" gpu run -gpus 1 -jobs 2 -nvcc "$tmp/fake-nvcc" \
    -gpudir "$srcdir/harness" -keep "$tmp/keep" -o "$tmp/logs" "$@" \
    "$tmp/corpus" >"$tmp/camp.out" 2>"$tmp/camp.err"
}
run_corpus
rc=$?
if [ $rc -eq 0 ] && grep -q '^Hangs spin-forever 1 33792 3$' "$tmp/logs/a__spin.txt" &&
   grep -q '^Histogram (0 states)$' "$tmp/logs/a__spin.txt" &&
   [ -f "$tmp/logs/a__MP.txt" ] && [ -f "$tmp/logs/b__MP.txt" ] &&
   [ -d "$tmp/keep/a__MP" ] && [ -d "$tmp/keep/b__MP" ] &&
   [ "$(wc -l <"$tmp/ran")" -eq 3 ] &&
   grep -q '^tests 3: 3 run (0 failed, 1 with a hung launch), 0 refused (not built, or optcheck), 0 resumed' "$tmp/logs/campaign.out" &&
   grep -q '^instances 2000$' "$tmp/logs/campaign.out"; then ok
else fail "campaign with a hang: exit $rc"; cat "$tmp/camp.err" "$tmp/logs/campaign.out"; fi
if [ "$(wc -l <"$tmp/procs")" -eq 2 ] && [ ! -f "$tmp/late" ] &&
   grep -q "^Program: '$tmp/keep/batch-[0-9a-f]*/prog' -tests sc_[0-9a-f]* -device 0 2>&1$" "$tmp/logs/b__MP.txt" &&
   grep -q '^Test MP-inter Allowed$' "$tmp/logs/b__MP.txt" &&
   grep -q '^Generated assembler$' "$tmp/logs/a__spin.txt"; then ok
else fail "batch: $(cat "$tmp/procs" "$tmp/late" 2>&1)"; cat "$tmp/logs/b__MP.txt"; fi
# compare running the model asks for its liveness where a launch hung (P0
# spins on x=0, which nothing overwrites: Fail); from a verdict log
# without a Liveness line, the hang stays an observation
"$scopecat" compare -tests "$tmp/corpus" -html "$tmp/hang.html" "$tmp/logs" >"$tmp/hang.cmp" 2>&1
if grep -q '^hangs spin-forever: 1 launch (33792 instances) did not finish within 3 s; the model.s liveness: Fail (a thread may spin for ever): agrees$' "$tmp/hang.cmp" &&
   grep -q '<p class="hang">Hung: 1 launch (33792 instances) did not finish within 3 s; the model.s liveness: Fail' "$tmp/hang.html"; then ok
else fail "compare: hang beside the model's own liveness"; cat "$tmp/hang.cmp"; grep -i hung "$tmp/hang.html"; fi
printf 'Test spin-forever Allowed\nStates 1\n0:r0=0;\nNo\nWitnesses\nPositive: 0 Negative: 1\nCondition exists (0:r0=1)\nObservation spin-forever Never 0 1\n' >"$tmp/verdicts.log"
"$scopecat" compare -tests "$tmp/corpus" -verdicts "$tmp/verdicts.log" "$tmp/logs/a__spin.txt" >"$tmp/hang.cmp" 2>&1
if grep -q '^hangs spin-forever: 1 launch (33792 instances) did not finish within 3 s; no liveness verdict of the model: an observation$' "$tmp/hang.cmp"; then ok
else fail "compare: hang as an observation"; cat "$tmp/hang.cmp"; fi
for verdict in Fail Pass; do
  printf 'Test spin-forever Allowed\nStates 1\n0:r0=0;\nNo\nWitnesses\nPositive: 0 Negative: 1\nCondition exists (0:r0=1)\nObservation spin-forever Never 0 1\nLiveness spin-forever %s\n' \
    "$verdict" >"$tmp/verdicts.log"
  "$scopecat" compare -tests "$tmp/corpus" -verdicts "$tmp/verdicts.log" "$tmp/logs/a__spin.txt" >"$tmp/live.cmp" 2>&1
  case $verdict in
    Fail) want='the model.s liveness: Fail (a thread may spin for ever): agrees$' ;;
    Pass) want='the model.s liveness: Pass (every thread ends): DISAGREES$' ;;
  esac
  if grep -q "^hangs spin-forever: 1 launch .*; $want" "$tmp/live.cmp"; then ok
  else fail "compare: hang beside Liveness $verdict"; cat "$tmp/live.cmp"; fi
done

# -resume: the tests whose log is there do not run again; a missing log's
# test does
run_corpus -resume
if [ $? -eq 0 ] && [ "$(wc -l <"$tmp/ran")" -eq 3 ] &&
   grep -q ', 3 resumed from earlier logs (0 of them failed)$' "$tmp/logs/campaign.out"; then ok
else fail "resume ran tests again"; cat "$tmp/camp.err"; fi
rm "$tmp/logs/b__MP.txt"
run_corpus -resume
if [ $? -eq 0 ] && [ "$(wc -l <"$tmp/ran")" -eq 4 ] && [ -f "$tmp/logs/b__MP.txt" ] &&
   grep -q '^Test MP-inter' "$tmp/camp.out"; then ok
else fail "resume after a lost log"; cat "$tmp/camp.err"; fi
# -resume in the middle of a batch: the hung test alone (one process), then
# the two around it (one process: the resumed test between them is left
# out of the batch)
rm "$tmp/logs/a__spin.txt"
run_corpus -resume
if [ $? -eq 0 ] && [ "$(wc -l <"$tmp/ran")" -eq 5 ] && [ "$(wc -l <"$tmp/procs")" -eq 4 ] &&
   grep -q '^Hangs spin-forever 1 33792 3$' "$tmp/logs/a__spin.txt"; then ok
else fail "resume the middle of a batch: $(wc -l <"$tmp/ran") runs"; cat "$tmp/camp.err"; fi
rm "$tmp/logs/a__MP.txt" "$tmp/logs/b__MP.txt"
run_corpus -resume
if [ $? -eq 0 ] && [ "$(wc -l <"$tmp/ran")" -eq 7 ] && [ "$(wc -l <"$tmp/procs")" -eq 5 ] &&
   [ -f "$tmp/logs/a__MP.txt" ] && [ -f "$tmp/logs/b__MP.txt" ] && [ ! -f "$tmp/late" ] &&
   grep -q ', 1 resumed from earlier logs (0 of them failed)$' "$tmp/logs/campaign.out"; then ok
else fail "resume around a batch's middle: $(wc -l <"$tmp/ran") runs"; cat "$tmp/camp.err"; fi
# -batch 1: a program per test, no batch process; the same logs
rm -rf "$tmp/logs"
run_corpus -batch 1
if [ $? -eq 0 ] && [ "$(wc -l <"$tmp/ran")" -eq 10 ] && [ "$(wc -l <"$tmp/procs")" -eq 5 ] &&
   grep -q '^Hangs spin-forever 1 33792 3$' "$tmp/logs/a__spin.txt" &&
   grep -q "^Program: '$tmp/keep/b__MP/prog' " "$tmp/logs/b__MP.txt" &&
   grep -q '^tests 3: 3 run (0 failed, 1 with a hung launch), 0 refused (not built, or optcheck), 0 resumed' "$tmp/logs/campaign.out"; then ok
else fail "-batch 1: $(wc -l <"$tmp/ran") runs"; cat "$tmp/camp.err"; fi
if "$scopecat" gpu run -gpus 1 -resume "$tmp/corpus" >/dev/null 2>"$tmp/res.err"; then
  fail "-resume without -o accepted"
elif grep -q 'resume needs -o DIR' "$tmp/res.err"; then ok
else fail "-resume without -o: $(cat "$tmp/res.err")"; fi

# a failed build leaves nothing to reuse: a test built and run in -keep K,
# then its file replaced by one of the same name that nvcc rejects (the
# stand-in rejects a store of 7): the run fails, and so does the next (the old program, with its cached optcheck verdict, used to run
# and print the old test's histogram), in a batch, alone (-batch 1) and in
# gpu build
mkdir -p "$tmp/stale"
for mode in "-batch 32" "-batch 1" build; do
  cp "$srcdir/ptx/gpu-shapes/MP-inter.litmus" "$tmp/stale/t.litmus"
  k="$tmp/stale-keep-$(echo $mode | tr -d ' ')"
  stale_run() {
    case $mode in
      build) "$scopecat" gpu build -nvcc "$tmp/fake-nvcc" -gpudir "$srcdir/harness" \
               -keep "$k" "$tmp/stale/t.litmus" >"$tmp/st.out" 2>&1 ;;
      *) "$scopecat" gpu run -gpus 1 $mode -nvcc "$tmp/fake-nvcc" -gpudir "$srcdir/harness" \
           -keep "$k" "$tmp/stale/t.litmus" >"$tmp/st.out" 2>&1 ;;
    esac
  }
  stale_run; rc1=$?
  sed '0,/mov.s32 v,1 /s//mov.s32 v,7 /' "$srcdir/ptx/gpu-shapes/MP-inter.litmus" >"$tmp/stale/t.litmus"
  stale_run; rc2=$?
  stale_run; rc3=$?
  if [ $rc1 -eq 0 ] && [ $rc2 -eq 1 ] && [ $rc3 -eq 1 ] &&
     grep -q 'MP-inter.cu(3): error: the stand-in nvcc rejects this program' "$tmp/st.out" &&
     ! grep -q '^Histogram' "$tmp/st.out" && ! grep -q '^Program:' "$tmp/st.out" &&
     ! grep -q '^/.*/prog[.o]*$' "$tmp/st.out"; then ok
  else fail "gpu $mode after a failed build: exits $rc1 $rc2 $rc3"; cat "$tmp/st.out"; fi
done
# the key holds the harness: a kept program is built again when a header
# it includes changes (a newer scopecat with an old -keep folder), not
# when nothing changed
cp -r "$srcdir/harness" "$tmp/harness"
cp "$srcdir/ptx/gpu-shapes/MP-inter.litmus" "$tmp/stale/t.litmus"
harness_run() {
  rm -f "$tmp/nvcc-calls"
  "$scopecat" gpu run -gpus 1 -batch 1 -nvcc "$tmp/fake-nvcc" -gpudir "$tmp/harness" \
    -keep "$tmp/hkeep" "$tmp/stale/t.litmus" >"$tmp/h.out" 2>&1 && [ ! -f "$tmp/nvcc-calls" ] || wc -l <"$tmp/nvcc-calls"
}
harness_run >/dev/null
n0=$(harness_run)
echo '// a newer harness' >>"$tmp/harness/gpu_program.h"
n1=$(harness_run)
n2=$(harness_run)
if [ -z "$n0" ] && [ "$n1" = 1 ] && [ -z "$n2" ]; then ok
else fail "a changed harness header: nvcc ran '$n0', '$n1', '$n2' times"; cat "$tmp/h.out"; fi

# a one-test run with a new -keep folder builds the batch driver there
# (it used to fail, print '(null)' and fall back to a process per test)
"$scopecat" gpu run -gpus 1 -nvcc "$tmp/fake-nvcc" -gpudir "$srcdir/harness" \
  -keep "$tmp/new-keep" "$srcdir/ptx/gpu-shapes/MP-inter.litmus" >"$tmp/one.out" 2>"$tmp/one.err"
if [ $? -eq 0 ] && ! grep -q 'null\|no batch driver' "$tmp/one.err" &&
   grep -q "^Program: '$tmp/new-keep/batch-[0-9a-f]*/prog' -tests " "$tmp/one.out"; then ok
else fail "one test, a new -keep folder"; cat "$tmp/one.err"; fi

# a killed run ends its children: nvcc (in a process group of its own,
# which a Ctrl-C or `timeout` does not reach) and a test program that
# spins with -launch-timeout 0; its temporary folder goes too
gone() { # gone PID: no such process, or a zombie
  st=$(ps -o stat= -p "$1" 2>/dev/null)
  [ -z "$st" ] || case $st in Z*) true ;; *) false ;; esac
}
sed 's/^GPU_PTX MP-inter$/GPU_PTX slow-nvcc/' "$srcdir/ptx/gpu-shapes/MP-inter.litmus" >"$tmp/stale/slow.litmus"
for sig in INT TERM; do
  rm -f "$tmp/nvcc.pid" "$tmp/nvcc.out"
  timeout -s $sig 3 "$scopecat" gpu run -gpus 1 -nvcc "$tmp/fake-nvcc" -gpudir "$srcdir/harness" \
    "$tmp/stale/slow.litmus" >/dev/null 2>&1
  sleep 1
  pid=$(cat "$tmp/nvcc.pid" 2>/dev/null) out=$(cat "$tmp/nvcc.out" 2>/dev/null)
  folder=${out%/*/*/*}
  if [ -n "$pid" ] && gone "$pid" && [ -n "$out" ] && [ ! -e "$folder" ]; then ok
  else fail "SIG$sig during a build: nvcc $pid $(gone "$pid" && echo gone || echo running), $folder $( [ -e "$folder" ] && echo left)"
    kill "$pid" 2>/dev/null; fi
done
for batch in 32 1; do
  rm -f "$tmp/spin.pid"
  timeout 4 "$scopecat" gpu run -gpus 1 -batch $batch -timeout 0 -launch-timeout 0 \
    -nvcc "$tmp/fake-nvcc" -gpudir "$srcdir/harness" -keep "$tmp/spin-keep" \
    "$srcdir/tests/data/gpu/spin-forever.litmus" >/dev/null 2>&1
  sleep 1
  pid=$(cat "$tmp/spin.pid" 2>/dev/null)
  if [ -n "$pid" ] && gone "$pid"; then ok
  else fail "-batch $batch: a spinning program outlived the killed run ($pid)"; kill "$pid" 2>/dev/null; fi
done

# a failure stays a failure: after -resume, the exit status remembers a
# test whose program failed; campaign.out counts a test refused (here by
# the generator) apart from the tests run, and divides the per-test
# overhead by the tests run alone
rm -rf "$tmp/c5" && mkdir -p "$tmp/c5/in"
sed 's/^GPU_PTX MP-inter$/GPU_PTX cudaerr/' "$srcdir/ptx/gpu-shapes/MP-inter.litmus" >"$tmp/c5/in/err.litmus"
cp "$srcdir/ptx/gpu-shapes/MP-inter.litmus" "$tmp/c5/in/mp.litmus"
cp "$srcdir/ptx/herd-gpu-ptx/MP.litmus" "$tmp/c5/in/refused.litmus"
c5() { "$scopecat" gpu run -gpus 1 -nvcc "$tmp/fake-nvcc" -gpudir "$srcdir/harness" \
         -keep "$tmp/c5/keep" -o "$tmp/c5/logs" "$@" "$tmp/c5/in" >"$tmp/c5/out" 2>"$tmp/c5/err"; }
FAKE_SLEEP=1 c5; rc1=$?
cp "$tmp/c5/logs/campaign.out" "$tmp/c5/campaign1"
c5 -resume; rc2=$?
if [ $rc1 -eq 1 ] && [ $rc2 -eq 1 ] &&
   grep -q '^tests 3: 2 run (1 failed, 0 with a hung launch), 1 refused (not built, or optcheck), 0 resumed' "$tmp/c5/campaign1" &&
   grep -q '^Run failed: exit status 3$' "$tmp/c5/logs/err.txt" &&
   grep -q '^Run failed: not run (not built)$' "$tmp/c5/logs/refused.txt" &&
   grep -q ', 3 resumed from earlier logs (2 of them failed)$' "$tmp/c5/logs/campaign.out" &&
   grep -q '2 resumed logs record a failure' "$tmp/c5/err"; then ok
else fail "failures across -resume: exits $rc1, $rc2"; cat "$tmp/c5/campaign1" "$tmp/c5/logs/campaign.out" "$tmp/c5/err"; fi
# the rest per test run: (wall - building - kernels) / 2 tests run, not 3
# (wall is printed to a tenth: the one-second sleep may show as 1.0)
if awk '/^wall / { w = $2; b = $6; k = $9; r = $13 }
        END { d = (w - b - k) / 2 - r; exit !(w >= 0.95 && d < 0.15 && d > -0.15) }' "$tmp/c5/campaign1"; then ok
else fail "per-test overhead"; cat "$tmp/c5/campaign1"; fi
# the progress line (on a terminal): the programs built ahead as they are
# built, then the tests run and refused apart
if command -v script >/dev/null 2>&1; then
  rm -rf "$tmp/c5/logs" "$tmp/c5/keep"
  script -qec "'$scopecat' gpu run -gpus 1 -jobs 2 -nvcc '$tmp/fake-nvcc' -gpudir '$srcdir/harness' -keep '$tmp/c5/keep' -o '$tmp/c5/logs' '$tmp/c5/in' >/dev/null" /dev/null >"$tmp/c5/tty" 2>&1
  if grep -q 'gpu run: building: 3 of 3 programs built' "$tmp/c5/tty" &&
     grep -q 'gpu run: 2 run, 1 refused, 0 left' "$tmp/c5/tty"; then ok
  else fail "progress line"; cat -v "$tmp/c5/tty"; fi
else
  echo "SKIP: no script(1): the progress line not checked"; skipped=$((skipped + 1))
fi

# tools/progress-gpu.sh without a GPU (issue 27): a stand-in nvcc whose
# programs say where their test's threads were placed (NC CTAs, NWMAX
# warps, NLMAX lanes: $tmp/place-runs) and hang only when run with
# -oversubscribe 1.  Of two CADP tests, -discriminating keeps the one whose
# verdict differs between models (3_threads_3_instructions/0_simple: fair
# Pass, the others Fail; 2_threads_2_instructions/0_simple is Fail under
# all six); it runs in each placement with the threads in one warp, three
# warps, three CTAs, three oversubscribed CTAs; the table counts its hang
# under oversub against fair (Pass: contradicted) and the rest (Fail).
cat >"$tmp/place-nvcc" <<'EOF_PNVCC'
#!/bin/sh
while [ $# -gt 0 ]; do
  case $1 in -o) exe=$2; shift ;; *.cu) cu=$1 ;; esac
  shift
done
where=$(sed -n 's/^#define \(NC\|NWMAX\|NLMAX\) \([0-9]*\)$/\1=\2/p' "$cu" | tr '\n' ' ')
name=$(sed -n 's/^#define TEST_NAME "\(.*\)"$/\1/p' "$cu")
cat >"$exe" <<EOF_PPROG
#!/bin/sh
echo "$where\$*" >>"\$FAKE_TMP/place-runs"
printf 'Test $name Allowed\nHistogram (1 states)\n1         :>0:r0=0;\nNo\n\nWitnesses\n'
printf 'Positive: 0, Negative: 1\nCondition exists (0:r0=1) is NOT validated\n'
printf 'Observation $name Never 0 1\nTime $name 0.01\n'
case " \$* " in *" -oversubscribe 1 "*) printf 'Hangs $name 1 1 0.5\n'; exit 4 ;; esac
printf '\nParameters: instances 1 in 1 launches of 1\n'
EOF_PPROG
chmod +x "$exe"
EOF_PNVCC
chmod +x "$tmp/place-nvcc"
printf 'CADP/2_threads_2_instructions/0_simple.litmus\nCADP/3_threads_3_instructions/0_simple.litmus\n' \
  >"$tmp/place.list"
rm -f "$tmp/place-runs"
SC_SCOPECAT="$scopecat" SC_SRCDIR="$srcdir" sh "$srcdir/tools/progress-gpu.sh" \
  -o "$tmp/pg" -list "$tmp/place.list" -discriminating -j 2 -- \
  -gpus 1 -batch 1 -nvcc "$tmp/place-nvcc" -gpudir "$srcdir/harness" \
  >"$tmp/pg.out" 2>&1
rc=$?
oversub_row=$(sed -n '/^## oversub/,$p' "$tmp/pg/table.md" | grep '^| fair |')
if [ $rc -eq 0 ] && [ "$(wc -l <"$tmp/place-runs")" -eq 4 ] &&
   grep -q '^NC=1 NWMAX=1 NLMAX=3 .*-launch-timeout 0.5 ' "$tmp/place-runs" &&
   grep -q '^NC=1 NWMAX=3 NLMAX=1 ' "$tmp/place-runs" &&
   [ "$(grep -c '^NC=3 NWMAX=1 NLMAX=1 ' "$tmp/place-runs")" -eq 2 ] &&
   [ "$(grep -c 'oversubscribe' "$tmp/place-runs")" -eq 1 ] &&
   grep -q '^warp	CADP/2_threads_2_instructions/0_simple.litmus	F	F	F	F	F	F$' "$tmp/pg/predictions.tsv" &&
   grep -q '^CADP/3_threads_3_instructions/0_simple.litmus	hung	P	F	F	F	F	F$' "$tmp/pg/oversub.tsv" &&
   grep -q '^CADP/3_threads_3_instructions/0_simple.litmus	ended	P	F' "$tmp/pg/ctas.tsv" &&
   [ "$oversub_row" = "| fair | 0 | 1 | 0 | 0 |" ] &&
   grep -q '^Consistent with: hsa obe hsa_obe lobe unfair; closest: hsa' "$tmp/pg/table.md" &&
   grep -q '^Hung where fair says Pass: CADP/3_threads_3_instructions/0_simple.litmus$' "$tmp/pg/table.md" &&
   [ "$(grep -c '^Consistent with: fair hsa obe hsa_obe lobe unfair; closest: fair (0 ' "$tmp/pg/table.md")" -eq 3 ]; then ok
else
  fail "progress-gpu.sh: exit $rc"; cat "$tmp/pg.out"; cat "$tmp/place-runs"
fi
# the same without a GPU: the models' verdicts are written, then exit 77
if SC_SCOPECAT="$scopecat" SC_SRCDIR="$srcdir" sh "$srcdir/tools/progress-gpu.sh" \
     -o "$tmp/pg77" -list "$tmp/place.list" -predictions "$tmp/pg/predictions.tsv" \
     -placements "ctas oversub" -- -gpus 0 >"$tmp/pg77.out" 2>&1; then
  fail "progress-gpu.sh without a GPU: exit 0"
elif [ $? -eq 77 ] && cmp -s "$tmp/pg/predictions.tsv" "$tmp/pg77/predictions.tsv"; then ok
else fail "progress-gpu.sh without a GPU"; cat "$tmp/pg77.out"; fi
# -per-class K: of a class of five tests, the first and the third (spread
# evenly); a class of one keeps it; a class all models agree on is not run
{
  printf '# placement\ttest\tfair\thsa\tobe\thsa_obe\tlobe\tunfair\n'
  for i in 0 1 2 3 4; do
    printf 'ctas\tCADP/2_threads_2_instructions/%d_simple.litmus\tP\tF\tF\tF\tF\tF\n' $i
  done
  printf 'ctas\tCADP/2_threads_2_instructions/5_simple.litmus\tP\tP\tF\tP\tP\tF\n'
  printf 'ctas\tCADP/2_threads_2_instructions/6_simple.litmus\tF\tF\tF\tF\tF\tF\n'
} >"$tmp/pc.tsv"
grep -o 'CADP/[^	]*' "$tmp/pc.tsv" >"$tmp/pc.list"
SC_SCOPECAT="$scopecat" SC_SRCDIR="$srcdir" sh "$srcdir/tools/progress-gpu.sh" \
  -o "$tmp/pc" -list "$tmp/pc.list" -predictions "$tmp/pc.tsv" -placements ctas \
  -discriminating -per-class 2 -- -gpus 0 >"$tmp/pc.out" 2>&1
rc=$?
if [ $rc -eq 77 ] && [ "$(cut -f1 "$tmp/pc/run.tsv" | sed 's|.*/||' | tr '\n' ' ')" = \
     "0_simple.litmus 2_simple.litmus 5_simple.litmus " ]; then ok
else fail "progress-gpu.sh -per-class 2: exit $rc"; cat "$tmp/pc.out" "$tmp/pc/run.tsv"; fi
# bad placements and lists are refused
if SC_SRCDIR="$srcdir" sh "$srcdir/tools/progress-gpu.sh" -o "$tmp/pgbad" -placements "warp lanes" \
     >/dev/null 2>"$tmp/pgbad.err"; then fail "progress-gpu.sh -placements lanes: accepted"
elif [ $? -eq 2 ] && grep -q "expected warp, cta, ctas or oversub, not 'lanes'" "$tmp/pgbad.err"; then ok
else fail "progress-gpu.sh -placements lanes: $(cat "$tmp/pgbad.err")"; fi

# bad parameters are refused before anything runs, naming what was expected
for bad in "-n 0" "-n 12x" "-stress-seq st,xx" "-stress-blocks 9-3" \
           "-stress-spread 33" "-tpb 100" "-timeout -1" "-gpus many" \
           "-variants 0" "-spacing 0" "-shuffle 2" "-launch-timeout -3" \
           "-jobs 0" "-batch 0" "-oversubscribe 2"; do
  if "$scopecat" gpu run $bad "$srcdir/ptx/gpu-shapes/MP-inter.litmus" \
       >/dev/null 2>"$tmp/bad.err"; then
    fail "gpu run $bad: accepted"
  elif [ $? -eq 2 ] && grep -q 'expected' "$tmp/bad.err"; then ok
  else fail "gpu run $bad: $(cat "$tmp/bad.err")"; fi
done
printf 'stress-seq st\nstress-spread zero\n' >"$tmp/bad.conf"
if "$scopecat" gpu run -config "$tmp/bad.conf" "$srcdir/ptx/gpu-shapes/MP-inter.litmus" \
     >/dev/null 2>"$tmp/conf.err"; then fail "gpu run -config bad.conf: accepted"
elif grep -q "bad.conf:2:15: stress-spread: expected a number from 1 to 32, not 'zero'" "$tmp/conf.err"; then ok
else fail "bad config: $(cat "$tmp/conf.err")"; fi

# the committed H100 logs parse and agree with the default model
"$scopecat" compare -tests "$srcdir/ptx" "$srcdir/ptx/results/H100" >"$tmp/cmp.out" 2>&1
if grep -q ' 0 UNSOUND, 0 without a verdict' "$tmp/cmp.out"; then ok
else fail "compare ptx/results/H100"; tail -5 "$tmp/cmp.out"; fi

echo "$passed passed, $failed failed ($skipped skipped)"
[ "$failed" -eq 0 ]
