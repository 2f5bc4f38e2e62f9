#!/bin/bash
# gpu_app.sh: `scopecat gpu app` without a GPU: stand-in programs (shell
# scripts that fail at known runs, hang, crash, print what the
# post-condition reads) give error counts known by construction, whose 95%
# Wilson intervals are worked out by hand below; -check, -apps and its
# table (seed 000's Tab. 5), the options' errors; exit 77 without a GPU;
# with a stand-in GPU (nvidia-smi) and nvcc (which builds a stand-in
# interposer that leaves a ledger line): the environment's variables reach
# the program, not the -check command, the ledgers are summed, and a
# program linked statically against the CUDA runtime is refused.
. "$(dirname "$0")/lib.sh"

cd "$tmp" || exit 1

# fails in the runs whose seed is a multiple of 4 (the seed of run k is
# -seed + k - 1): 5 of runs 1..20 with -seed 1 (seeds 4 8 12 16 20)
cat >fail4 <<'EOF'
#!/bin/sh
s=$SCOPECAT_APP_SEED
echo "value $s"
[ $((s % 4)) -ne 0 ]
EOF
# seed 2 hangs, seed 3 crashes (SIGSEGV), the rest pass
cat >badrun <<'EOF'
#!/bin/sh
case $SCOPECAT_APP_SEED in
  2) sleep 30 ;;
  3) kill -SEGV $$ ;;
esac
exit 0
EOF
chmod +x fail4 badrun

# Wilson's interval for 5 errors in 20 runs, by hand: p = .25, z = 1.96,
# z^2 = 3.8415; centre (p + z^2/40) / (1 + z^2/20) = .34604 / 1.19207 =
# .29029; half 1.96 / 1.19207 * sqrt(.25 * .75 / 20 + z^2 / 1600) =
# 1.64419 * .10852 = .17842: [11.19%, 46.87%], 25% > 5%: effective.
expect 1 "$scopecat" gpu app -env none -runs 20 -- ./fail4
has "$tmp/out" "Program ./fail4"
has "$tmp/out" "none              20       5      5      0      0      0   25.00%  [ 11.19%,  46.87%]  yes"
has "$tmp/out" "none: first error in run 4 (exit)"

# 0 errors in 3 runs (seeds 29, 30, 31): Wilson's upper end is z^2 / (n +
# z^2) = 3.8415 / 6.8415 = 56.15%, the lower 0; not effective.
expect 0 "$scopecat" gpu app -env none -runs 3 -seed 29 -- ./fail4
has "$tmp/out" "none               3       0      0      0      0      0    0.00%  [  0.00%,  56.15%]  no"

# the check fails on "value 7" alone: 1 error in seeds 1..20, 5.00%, not
# "more than 5%" (seed 000's mark); Wilson: p = .05, centre (.05 + .09604)
# / 1.19207 = .12251, half 1.64419 * sqrt(.002375 + .0024009) = 1.64419 *
# .069109 = .11363: [0.89%, 23.61%].
cat >not7 <<'EOF'
#!/bin/sh
! grep -q '^value 7$'
EOF
chmod +x not7
cat >pass <<'EOF'
#!/bin/sh
echo "value $SCOPECAT_APP_SEED"
EOF
chmod +x pass
expect 1 "$scopecat" gpu app -env none -runs 20 -check ./not7 -- ./pass
has "$tmp/out" "none              20       1      0      1      0      0    5.00%  [  0.89%,  23.61%]  no"
has "$tmp/out" "none: first error in run 7 (check)"

# -check sees the output: with fail4 the exit status still counts (5 exit
# errors), and the check (value 7) adds one
expect 1 "$scopecat" gpu app -env none -runs 20 -check ./not7 -- ./fail4
has "$tmp/out" "none              20       6      5      1      0      0   30.00%"

# a hang past -run-timeout and a crash are errors of their own
start=$(date +%s)
expect 1 "$scopecat" gpu app -env none -runs 4 -run-timeout 1 -- ./badrun
has "$tmp/out" "none               4       2      0      0      1      1   50.00%"
has "$tmp/out" "none: first error in run 2 (hang)"
[ $(($(date +%s) - start)) -lt 20 ] && ok || fail "the hung run was not killed at -run-timeout"

# -seconds: runs until the time is spent, at least one run (a run of 1 s
# against 0.5 s: exactly one); -runs caps it (2 runs long before 60 s)
printf '#!/bin/sh\nsleep 1\n' >slow
chmod +x slow
expect 0 "$scopecat" gpu app -env none -seconds 0.5 -- ./slow
has "$tmp/out" "none               1       0"
expect 0 "$scopecat" gpu app -env none -seconds 60 -runs 2 -- ./pass -x
has "$tmp/out" "Program ./pass -x"
has "$tmp/out" "none               2       0"

# -apps: several programs and the table of 000's Tab. 5: errors/runs, *
# when effective, and a/b (effective for a, errors seen in b)
cat >apps.txt <<'EOF'
# two programs and a check of its own
fail4 -- ./fail4
pass ./not7 -- ./pass
EOF
expect 1 "$scopecat" gpu app -env none -runs 20 -apps apps.txt
has "$tmp/out" "Program fail4"
has "$tmp/out" "Program pass"
has "$tmp/out" "fail4            5/20*"
has "$tmp/out" "pass              1/20"
has "$tmp/out" "a/b                1/2"
printf 'good -- ./pass\nbroken ./pass\n' >bad-apps.txt
expect 2 "$scopecat" gpu app -env none -apps bad-apps.txt
has "$tmp/err" "bad-apps.txt:2:14: expected NAME [CHECK] -- COMMAND"

# options
expect 2 "$scopecat" gpu app -env none,nope -- ./pass
has "$tmp/err" "-env: expected none, stress, random or cache, each maybe with +rand, not 'nope'"
expect 2 "$scopecat" gpu app -env none,none -- ./pass
has "$tmp/err" "-env: 'none' given twice"
expect 2 "$scopecat" gpu app -env none
has "$tmp/err" "expected -- PROGRAM ARGS... or -apps FILE"
expect 2 "$scopecat" gpu app -runs 0 -- ./pass
has "$tmp/err" "-runs: expected a positive number, not '0'"
expect 0 "$scopecat" gpu app -help
has "$tmp/out" "usage: scopecat gpu app"

# no GPU: every environment but none needs one (nvidia-smi lists none)
mkdir -p nogpu gpu
printf '#!/bin/sh\nexit 0\n' >nogpu/nvidia-smi
printf '#!/bin/sh\necho "GPU 0: Stand-in (UUID: GPU-0)"\n' >gpu/nvidia-smi
chmod +x nogpu/nvidia-smi gpu/nvidia-smi
PATH="$tmp/nogpu:$PATH" expect 77 "$scopecat" gpu app -env none,stress -- ./pass
has "$tmp/err" "no GPU"
PATH="$tmp/nogpu:$PATH" expect 77 "$scopecat" gpu app -env none+rand -- ./pass

# a stand-in GPU and nvcc: the stand-in "interposer" writes one ledger line
# per process that loads it (at its start: sh may leave by _exit), as the
# real one does at exit
cat >ledger.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* -fences -cost: the fences in the PTX last built (FAKE_BUILT), 1 ms of
 * kernel time each */
static int fences_built(void) {
  const char *p = getenv("FAKE_BUILT");
  FILE *f = p ? fopen(p, "r") : NULL;
  char line[4096];
  int n = 0;
  while (f && fgets(line, sizeof line, f))
    n += strstr(line, "scopecat fence") != NULL;
  if (f)
    fclose(f);
  return n;
}
__attribute__((constructor)) static void ledger(void) {
  if (getenv("FAKE_NO_LEDGER")) /* as a run killed before its exit */
    return;
  const char *p = getenv("SCOPECAT_APP_LOG");
  FILE *f = p ? fopen(p, "a") : NULL;
  const char *seed = getenv("SCOPECAT_APP_SEED"), *cost = getenv("SCOPECAT_APP_COST");
  if (f) {
    fputs("scopecat-app launches 3 stressed 2 ctas 10 stopped 2", f);
    /* -cost: 100 us of kernels and 2 J per unit of the seed */
    if (cost && *cost == '1' && seed && getenv("FAKE_NO_ENERGY"))
      fprintf(f, " kernel-us %d energy-mj -", atoi(seed) * 100);
    else if (cost && *cost == '1' && seed)
      fprintf(f, " kernel-us %d energy-mj %d", atoi(seed) * 100 + 1000 * fences_built(),
              atoi(seed) * 2000);
    fputs("\n", f);
    fclose(f);
  }
}
EOF
cc=${SC_CC:-cc}
cat >fake-nvcc <<EOF
#!/bin/sh
# the stand-in nvcc: builds ledger.c where -o says
while [ \$# -gt 0 ]; do
  case \$1 in -o) out=\$2; shift ;; esac
  shift
done
exec $cc -shared -fPIC -o "\$out" "$tmp/ledger.c"
EOF
chmod +x fake-nvcc
cat >envs <<'EOF'
#!/bin/sh
echo "stress=$SCOPECAT_APP_STRESS rand=$SCOPECAT_APP_RANDOMISE seq=$SCOPECAT_APP_STRESS_SEQ spread=$SCOPECAT_APP_STRESS_SPREAD" >>"$ENVS_SEEN"
case $LD_PRELOAD in *libscopecat_app.so) ;; *) exit 1 ;; esac
EOF
chmod +x envs
# the check runs without the interposer (its ledger line would count)
cat >noprel <<'EOF'
#!/bin/sh
[ -z "$LD_PRELOAD" ] && [ -z "$SCOPECAT_APP_LOG" ]
EOF
chmod +x noprel
printf 'stress-seq ld,st,st\nstress-spread 3\n' >tuned.cfg
ENVS_SEEN=$tmp/seen PATH="$tmp/gpu:$PATH" expect 0 "$scopecat" gpu app \
  -nvcc ./fake-nvcc -keep "$tmp/keep" -config tuned.cfg -check ./noprel \
  -env stress,cache+rand -runs 2 -- ./envs
has "$tmp/seen" "stress=stress rand=0 seq=ld,st,st spread=3"
has "$tmp/seen" "stress=cache rand=1 seq=ld,st,st spread=3"
[ "$(wc -l <"$tmp/seen")" -eq 4 ] && ok || fail "4 runs expected: $(cat "$tmp/seen")"
# 2 runs, a line each: 6 launches, 4 stressed by 20 CTAs, 4 stopped
has "$tmp/out" "stress: 6 kernel launches seen, 4 stressed by 20 CTAs, 4 stress grids stopped"
has "$tmp/out" "cache+rand: 6 kernel launches seen"
[ -f "$tmp/keep/libscopecat_app.so" ] && ok || fail "-keep holds no interposer"
# no ledger from runs that ended on their own: the interposer saw no launch
# (a statically linked runtime, say so); no ledger from runs that all hung:
# they were killed before it could be written, which says nothing of how
# the program was linked (the H100's hanging kernels were told to rebuild)
printf '#!/bin/sh\nexec sleep 30\n' >sleeper
printf '#!/bin/sh\nexit 0\n' >ends
chmod +x sleeper ends
FAKE_NO_LEDGER=1 PATH="$tmp/gpu:$PATH" expect 0 "$scopecat" gpu app \
  -nvcc ./fake-nvcc -keep "$tmp/keep" -env stress -runs 1 -- ./ends
has "$tmp/err" "in stress, the interposer saw no kernel launch (a program linked statically"
FAKE_NO_LEDGER=1 PATH="$tmp/gpu:$PATH" expect 1 "$scopecat" gpu app \
  -nvcc ./fake-nvcc -keep "$tmp/keep" -env stress -runs 1 -run-timeout 1 -- ./sleeper
has "$tmp/out" "stress: first error in run 1 (hang)"
lacks "$tmp/err" "interposer saw no kernel launch"
# -cost: every environment interposed, none too; per run 0.1 ms of kernel
# time and 2 J per unit of the seed: seeds 1..20 give 0.1..2.0 ms, median
# (1.0 + 1.1) / 2 = 1.050; the interval's ranks j = floor(10 - 1.96
# sqrt(20) / 2) = floor(5.617) = 5, k = ceil(1 + 10 + 4.383) = 16: [0.500,
# 1.600] ms; energy 2..40 J: median 21.000 [10.000, 32.000]
PATH="$tmp/gpu:$PATH" expect 0 "$scopecat" gpu app -nvcc ./fake-nvcc -keep "$tmp/keep" \
  -env none -cost -runs 20 -- ./pass
has "$tmp/out" "none: cost over 20 runs: kernel time median 1.050 ms [0.500, 1.600], energy median 21.000 J [10.000, 32.000]"
has "$tmp/out" "none: 60 kernel launches seen"
FAKE_NO_ENERGY=1 PATH="$tmp/gpu:$PATH" expect 0 "$scopecat" gpu app -nvcc ./fake-nvcc \
  -keep "$tmp/keep" -env none -cost -runs 3 -- ./pass
has "$tmp/out" "none: cost over 3 runs: kernel time median 0.200 ms [0.100, 0.300], energy not reported by the GPU"
PATH="$tmp/nogpu:$PATH" expect 77 "$scopecat" gpu app -env none -cost -- ./pass
# a bad tuned value is said once, before any run
printf 'stress-spread 40\n' >bad.cfg
PATH="$tmp/gpu:$PATH" expect 2 "$scopecat" gpu app -nvcc ./fake-nvcc -config bad.cfg -env stress -- ./envs
has "$tmp/err" "bad.cfg:1:15: stress-spread: expected a number from 1 to 32, not '40'"
# spread 40 in a 32-patch scratchpad: the interposer's own check, said once
printf 'stress-regions 2\nstress-spread 3\n' >over.cfg
PATH="$tmp/gpu:$PATH" expect 2 "$scopecat" gpu app -nvcc ./fake-nvcc -config over.cfg -env stress -- ./envs
has "$tmp/err" "SCOPECAT_APP_STRESS_SPREAD='3': expected no more patches than the scratchpad has"

# -fences -cost: the reduction of the -fences test above, then the three
# sets, 3 runs each (seeds 1..3): kernel time 0.1 ms a seed unit plus the
# stand-in's 1 ms per fence built, energy 2 J a seed unit; medians of 3
# with the order-statistics interval of n = 3 (ranks clamped to 1 and 3):
# none 0.200 [0.100, 0.300] and all 3 runs err; conservative (6 fences)
# 6.200 [6.100, 6.300]; empirical (2) 2.200 [2.100, 2.300]; energy 4.000
# [2.000, 6.000] throughout.  The program reads built.ptx with shell
# builtins only, so that each run is one process, one ledger line.
cp "$srcdir/tests/data/kernel/mp.ptx" mp.ptx
cat >needs14b <<'EOF'
#!/bin/sh
t=$(printf '\t') found=0
while IFS= read -r l; do
  case $l in
    *"ld.global.u32 ${t}%r6, [%rd1]; fence.sc.gpu;"*) found=$((found + 1)) ;;
    *"st.global.u32 ${t}[%rd1], %r12; fence.sc.gpu;"*) found=$((found + 1)) ;;
  esac
done <built.ptx
[ $found -eq 2 ]
EOF
chmod +x needs14b
FAKE_BUILT=$tmp/built.ptx PATH="$tmp/gpu:$PATH" expect 0 "$scopecat" gpu app -nvcc ./fake-nvcc \
  -keep "$tmp/keep" -env none -runs 3 -fences -cost -ptx mp.ptx -build 'cp {ptx} built.ptx' -- ./needs14b
has "$tmp/out" "  2 of 6 fences survive (11 checks):"
has "$tmp/out" "Cost of the fences, natively (none), 3 runs each:"
has "$tmp/out" "  none               0       3/3      0.200 [0.100, 0.300]         4.000 [2.000, 6.000]"
has "$tmp/out" "  conservative       6       0/3      6.200 [6.100, 6.300]         4.000 [2.000, 6.000]"
has "$tmp/out" "  empirical          2       0/3      2.200 [2.100, 2.300]         4.000 [2.000, 6.000]"
# the search in stress, the cost natively: the last 3 x 3 runs unstressed
cat >stresslog <<'EOF'
#!/bin/sh
echo "$SCOPECAT_APP_STRESS" >>stress.log
EOF
chmod +x stresslog
rm -f stress.log
PATH="$tmp/gpu:$PATH" expect 0 "$scopecat" gpu app -nvcc ./fake-nvcc -keep "$tmp/keep" \
  -env stress -runs 3 -fences -cost -ptx mp.ptx -build 'cp {ptx} built.ptx' -- ./stresslog
[ "$(head -n 3 stress.log | sort -u)" = stress ] && [ "$(tail -n 6 stress.log | sort -u)" = none ] &&
  [ "$(wc -l <stress.log)" -eq 9 ] && ok || fail "-fences -cost: search in stress, cost in none: $(cat stress.log)"
# no empirical row when no fence is needed; none and conservative stay
FAKE_BUILT=$tmp/built.ptx PATH="$tmp/gpu:$PATH" expect 0 "$scopecat" gpu app -nvcc ./fake-nvcc \
  -keep "$tmp/keep" -env none -runs 1 -fences -cost -ptx mp.ptx -build 'cp {ptx} built.ptx' -- ./pass
has "$tmp/out" "  conservative       6       0/1      6.100 [6.100, 6.100]"
lacks "$tmp/out" "empirical"
PATH="$tmp/nogpu:$PATH" expect 77 "$scopecat" gpu app -env none -runs 1 -fences -cost -ptx mp.ptx \
  -build 'cp {ptx} built.ptx' -- ./pass

# an ELF program without libcudart.so (statically linked runtime) is
# refused; one that needs it (a stand-in libcudart.so.13) is run
printf 'int main(void) { return 0; }\n' >main.c
printf 'int cudaStandIn(void) { return 0; }\n' >rt.c
printf 'int cudaStandIn(void);\nint main(void) { return cudaStandIn(); }\n' >rtmain.c
if $cc -o static-rt main.c && $cc -shared -fPIC -Wl,-soname,libcudart.so.13 -o libcudart.so.13 rt.c &&
   $cc -o shared-rt rtmain.c ./libcudart.so.13; then
  PATH="$tmp/gpu:$PATH" expect 1 "$scopecat" gpu app -nvcc ./fake-nvcc -env stress -runs 1 -- ./static-rt
  has "$tmp/err" "scopecat gpu app: ./static-rt needs neither libcudart.so nor libcuda.so, so it is linked statically against the CUDA runtime"
  has "$tmp/err" "nvcc -cudart shared"
  lacks "$tmp/out" "Program"
  LD_LIBRARY_PATH=$tmp PATH="$tmp/gpu:$PATH" expect 0 "$scopecat" gpu app -nvcc ./fake-nvcc -env stress -runs 1 -- ./shared-rt
  has "$tmp/out" "stress             1       0"
  # without stress nothing is interposed: the static program runs
  expect 0 "$scopecat" gpu app -env none -runs 1 -- ./static-rt
else
  fail "the C compiler $cc built no test programs"
fi

# -fences: Alg. 1 over the global accesses of mp.cu's PTX (6 of them, in
# order: ld.acquire 12, ld.global 13, st.global 13, atom.cas 14, st.global
# 7, st.release 9; see check_ptx_write.c).  The stand-in build copies the
# fenced PTX to built.ptx; the stand-in program fails exactly when the
# fence after site 1 (ld.global.u32 %r6, mp.cu:13) or after site 4
# (st.global.u32 [%rd1], %r12, mp.cu:7) is missing from it.  By hand: no
# fence fails, all pass; binary: {3,4,5} and {0,1,2} fail; linear: drop 0
# passes, 1 fails, 2 passes, 3 passes, 4 fails, 5 passes: {1,4}, confirmed
# by 16 x 2 runs: 11 checks, 12 builds with the last (the answer's).
cp "$srcdir/tests/data/kernel/mp.ptx" mp.ptx
cat >needs14 <<'EOF'
#!/bin/sh
echo run >>runs.log
t=$(printf '\t')
grep -qF "ld.global.u32 ${t}%r6, [%rd1]; fence.sc.gpu;" built.ptx &&
grep -qF "st.global.u32 ${t}[%rd1], %r12; fence.sc.gpu;" built.ptx
EOF
chmod +x needs14
rm -f runs.log builds.log
expect 0 "$scopecat" gpu app -env none -runs 2 -fences -ptx mp.ptx \
  -build 'echo build >>builds.log; cp {ptx} built.ptx' -- ./needs14
has "$tmp/out" "Fences in mp.ptx: 6 global accesses, fence.sc.gpu after each, checked by 2 runs in none"
has "$tmp/out" "  2 of 6 fences survive (11 checks):"
has "$tmp/out" "  mp.cu:13  after ld.global.u32 in _Z2mpPiS_S_ (mp.ptx:66:2, offset "
has "$tmp/out" "  mp.cu:7  after st.global.u32 in _Z2mpPiS_S_ (mp.ptx:81:2, offset "
[ "$(grep -c '^  mp.cu' "$tmp/out")" -eq 2 ] && ok || fail "-fences: two fences expected"
[ "$(wc -l <builds.log)" -eq 12 ] && ok || fail "-fences: 12 builds expected, not $(wc -l <builds.log)"
# runs: 10 checks of 2, the confirmation of 32
[ "$(wc -l <runs.log)" -eq 52 ] && ok || fail "-fences: 52 runs expected, not $(wc -l <runs.log)"
# -v: the same search, each check told on stderr as it ends (11 lines):
# no fence (both runs err), every fence, ..., the confirmation of 32 runs
rm -f runs.log builds.log
expect 0 "$scopecat" gpu app -v -env none -runs 2 -fences -ptx mp.ptx \
  -build 'echo build >>builds.log; cp {ptx} built.ptx' -- ./needs14
has "$tmp/err" "check 1: 0 of 6 fences, 2 runs: 2 erred (build "
has "$tmp/err" "check 2: 6 of 6 fences, 2 runs: no error (build "
has "$tmp/err" "check 11: 2 of 6 fences, 32 runs: no error (build "
[ "$(grep -c '^check ' "$tmp/err")" -eq 11 ] && ok || fail "-fences -v: 11 checks expected on stderr"
has "$tmp/out" "  2 of 6 fences survive (11 checks):"
# the program is left built with those two fences and no other
[ "$(grep -c 'scopecat fence' built.ptx)" -eq 2 ] && ok || fail "-fences: built.ptx not left with two fences"
# the offset the report gives is where the fence went: just past the ';'
off=$(sed -n 's/.*mp.cu:7 .*offset \([0-9]*\)).*/\1/p' "$tmp/out")
[ "$(head -c "$off" mp.ptx | tail -c 13)" = "[%rd1], %r12;" ] && ok || fail "-fences: offset $off is not past mp.cu:7's store"
# another fence kind; a program needing none; one no fence fixes
sed 's/fence\.sc\.gpu/membar.gl/g' needs14 >needs14m && chmod +x needs14m
expect 0 "$scopecat" gpu app -env none -runs 1 -fences -fence-kind membar.gl -ptx mp.ptx \
  -build 'cp {ptx} built.ptx' -- ./needs14m
has "$tmp/out" "  2 of 6 fences survive"
expect 0 "$scopecat" gpu app -env none -runs 1 -fences -ptx mp.ptx -build 'cp {ptx} built.ptx' -- ./pass
has "$tmp/out" "  no fence needed: no error without fences (1 checks)"
expect 1 "$scopecat" gpu app -env none -runs 1 -fences -ptx mp.ptx -build 'cp {ptx} built.ptx' -- false
has "$tmp/out" "  errors even with a fence after every access (2 checks): fences do not fix it"
# a failing build stops the reduction
expect 1 "$scopecat" gpu app -env none -runs 1 -fences -ptx mp.ptx -build 'exit 3; {ptx}' -- ./pass
has "$tmp/err" "scopecat gpu app: -build failed (exit status 3): exit 3; "
has "$tmp/out" "  the check failed after 1 checks: no answer"
# the options' errors
expect 2 "$scopecat" gpu app -env none -ptx mp.ptx -- ./pass
has "$tmp/err" "scopecat gpu app: -ptx goes with -fences"
expect 2 "$scopecat" gpu app -env none -fences -build 'cp {ptx} x' -- ./pass
has "$tmp/err" "-fences: expected -ptx FILE, the program's PTX"
expect 2 "$scopecat" gpu app -env none -fences -ptx mp.ptx -build 'make' -- ./pass
has "$tmp/err" "-build: expected {ptx} in the command"
expect 2 "$scopecat" gpu app -env none,stress -fences -ptx mp.ptx -build 'cp {ptx} x' -- ./pass
has "$tmp/err" "-fences: expected one environment"
printf '.entry k()\n{\n ld.global.u32 %%r1, [%%rd1]\n' >bad.ptx
expect 2 "$scopecat" gpu app -env none -fences -ptx bad.ptx -build 'cp {ptx} x' -- ./pass
has "$tmp/err" "bad.ptx:4:1: expected '}' closing the body of k, found the end of the file"
expect 2 "$scopecat" gpu app -env none -fences -ptx missing.ptx -build 'cp {ptx} x' -- ./pass
has "$tmp/err" "-ptx missing.ptx: cannot read"

# -model-fences: the model's set for the -ptx file's launch and @Output
# (kernel-cli/mp.ptx, message passing across two CTAs, its 5 accesses:
# `scopecat kernel -fences` finds the same two, kernel_cli.sh argues them)
# beside the empirical search, and costed: the stand-in's 1 ms per fence
# built plus 0.1 ms a seed unit, one run (seed 1): none 0.100,
# conservative (5) 5.100, model (2) 2.100; ./pass needs no fence, so no
# empirical row.
cp "$srcdir/tests/data/kernel-cli/mp.ptx" kmp.ptx
FAKE_BUILT=$tmp/built.ptx PATH="$tmp/gpu:$PATH" expect 0 "$scopecat" gpu app -nvcc ./fake-nvcc \
  -keep "$tmp/keep" -env none -runs 1 -v -fences -model-fences -cost -ptx kmp.ptx \
  -build 'cp {ptx} built.ptx' -- ./pass
has "$tmp/err" "model check 1: 0 of 5 fences: the condition fails ("
has "$tmp/err" "check 1: 0 of 5 fences, 1 runs: no error (build "
has "$tmp/out" "The model's fences (ptx-v7.5.cat, for the launch and @Output of kmp.ptx):"
has "$tmp/out" "  2 of 5 fences needed (10 checks, 9 simulated):"
has "$tmp/out" "  mp.cu:19  after ld.relaxed.gpu.b32 in _Z2mpPiS_S_ (kmp.ptx:50:2, offset 1431)"
has "$tmp/out" "  mp.cu:13  after st.global.u32 in _Z2mpPiS_S_ (kmp.ptx:68:2, offset 1803)"
has "$tmp/out" "The empirical fences (1 runs a check in none):"
has "$tmp/out" "  conservative       5       0/1      5.100 [5.100, 5.100]"
has "$tmp/out" "  model              2       0/1      2.100 [2.100, 2.100]"
lacks "$tmp/out" "empirical    "
# the model's set is found before any run: a file without a launch header,
# an unknown model, and the options that go with it
expect 1 "$scopecat" gpu app -env none -runs 1 -fences -model-fences -ptx mp.ptx \
  -build 'echo build >>nohdr.log; cp {ptx} built.ptx' -- ./pass
has "$tmp/err" "mp.ptx:1:1: -model-fences: expected a launch header, '// @Config: X, Y, Z' and '// @Output: ...' (as scopecat kernel reads it), found no @Config"
[ ! -e nohdr.log ] && ok || fail "-model-fences: a build ran before the header was refused"
expect 1 "$scopecat" gpu app -env none -runs 1 -fences -model-fences -model nosuch.cat -ptx kmp.ptx \
  -build 'cp {ptx} built.ptx' -- ./pass
has "$tmp/err" "scopecat gpu app: -model-fences: nosuch.cat"
# a model search with no answer (fill.ptx's loop is cut at -unroll 2)
cp "$srcdir/tests/data/kernel-cli/fill.ptx" kfill.ptx
expect 1 "$scopecat" gpu app -env none -runs 1 -fences -model-fences -ptx kfill.ptx \
  -build 'echo build >>fill.log; cp {ptx} built.ptx' -- ./pass
has "$tmp/out" "  no answer after 1 check: with 0 of the fences, the condition is UNKNOWN: no complete execution"
[ ! -e fill.log ] && ok || fail "-model-fences: a build ran after the model's search gave no answer"
expect 0 "$scopecat" gpu app -env none -runs 1 -fences -model-fences -unroll 4 -ptx kfill.ptx \
  -build 'cp {ptx} built.ptx' -- ./pass
has "$tmp/out" "  no fence needed: the condition holds without fences (1 check)"
expect 2 "$scopecat" gpu app -env none -runs 1 -fences -model ptx-v6.0.cat -ptx kmp.ptx \
  -build 'cp {ptx} built.ptx' -- ./pass
has "$tmp/err" "scopecat gpu app: -model goes with -model-fences"
expect 2 "$scopecat" gpu app -env none -runs 1 -model-fences -- ./pass
has "$tmp/err" "scopecat gpu app: -model-fences goes with -fences"
expect 2 "$scopecat" gpu app -env none -runs 1 -fences -fence-kind fence.gpu -ptx kmp.ptx \
  -build 'cp {ptx} built.ptx' -- ./pass
has "$tmp/err" "scopecat gpu app: -fence-kind expects membar.cta|gl|sys, fence.sc.SCOPE or fence.acq_rel.SCOPE (SCOPE: cta, cluster, gpu, sys), found 'fence.gpu'"

# The kernel corpus as programs.  -kernel-program writes a host .cu for
# each case of ptx/kernels: the case's .cu with its -D defines, launched
# as its @Config (X threads a warp, Y warps a CTA, Z CTAs: Z CTAs of X*Y
# threads) on its @Input values, parameters in @Params order.
kdir=$srcdir/ptx/kernels
for case_ptx in "$kdir"/*.ptx; do
  "$scopecat" gpu app -kernel-program "$case_ptx" >"$tmp/prog.cu" 2>"$tmp/err" && ok ||
    { fail "-kernel-program $case_ptx"; cat "$tmp/err"; }
done
expect 0 "$scopecat" gpu app -kernel-program "$kdir/caslock-dv2wg-2.2.2.ptx"
has "$tmp/out" '#define DV2WG'
has "$tmp/out" '#include "caslock.cu"'
has "$tmp/out" 'static const long long sc_in_2[] = {-1, -1, -1, -1, -1, -1, -1, -1};'
has "$tmp/out" '{"A", sc_in_2, 8, 1},'
has "$tmp/out" 'sc_kernel_app_main(argc, argv, "caslock-dv2wg-2.2.2", mutex_test, 2, 4, sc_inputs);'
expect 0 "$scopecat" gpu app -kernel-program "$kdir/xf-barrier-weakest.ptx"
has "$tmp/out" '#define FAIL1'
has "$tmp/out" '#define FAIL4'
has "$tmp/out" 'xf_barrier, 2, 2, sc_inputs);'
# cbe-dot's n = 4 is a scalar: its value, not an array
expect 0 "$scopecat" gpu app -kernel-program "$kdir/cbe-dot.ptx"
has "$tmp/out" '{"n", sc_in_4, 1, 0},'
has "$tmp/out" 'static const long long sc_in_1[] = {1, 2, 3, 4};'
lacks "$tmp/out" '#define'
# -kernel-check: a histogram of final states (what the program prints)
# judged by the case's @Output; caslock's mutual exclusion breaks when
# both threads saw the same x (A[0] == A[1])
printf '%s\n' 'Test caslock-acq2rx Required' 'Histogram (2 states)' \
  '600   :>A[0]=0; A[1]=1; l[0]=0; x[0]=2;' '400   :>A[0]=1; A[1]=0; l[0]=0; x[0]=2;' \
  'No' >good.hist
sed 's/^400   :>.*/1     :>A[0]=0; A[1]=0; l[0]=0; x[0]=1;/' good.hist >bad.hist
expect 0 "$scopecat" gpu app -kernel-check "$kdir/caslock-acq2rx.ptx" <good.hist
expect 1 "$scopecat" gpu app -kernel-check "$kdir/caslock-acq2rx.ptx" <bad.hist
has "$tmp/err" "caslock-acq2rx.ptx: a final state breaks @Output forall (A[0] == -1 or A[1] == -1 or A[0] != A[1])"
# a state of count 0 is no launch's: it breaks nothing
sed 's/^1     :>/0     :>/' bad.hist >zero.hist
expect 0 "$scopecat" gpu app -kernel-check "$kdir/caslock-acq2rx.ptx" <zero.hist
# the model's own allowed states (scopecat kernel's States block): the
# check fails exactly where expected.csv's assertion verdict is FAIL
for kcase in caslock-2.1.1:0 caslock-acq2rx:1 lastblock-no-fence-after:1 lastblock:0; do
  "$scopecat" kernel "$kdir/${kcase%:*}.ptx" >model.states 2>/dev/null
  expect "${kcase#*:}" "$scopecat" gpu app -kernel-check "$kdir/${kcase%:*}.ptx" <model.states
done
grep -q '^lastblock.cu,lastblock.ptx,.*,assertion,PASS' "$kdir/expected.csv" &&
  grep -q '^lastblock.cu,lastblock-no-fence-after.ptx,.*,assertion,FAIL' "$kdir/expected.csv" &&
  ok || fail "expected.csv's lastblock verdicts are not the ones this test assumes"
# what it refuses
printf '%s\n' 'Test x Required' 'Histogram (1 states)' '1 :>A[0]=0;' 'No' >partial.hist
expect 1 "$scopecat" gpu app -kernel-check "$kdir/caslock-acq2rx.ptx" <partial.hist
has "$tmp/err" "expected the states of x to show A[1], the condition's variable"
expect 1 "$scopecat" gpu app -kernel-check "$kdir/caslock-acq2rx.ptx" </dev/null
has "$tmp/err" "-kernel-check: expected one histogram on the input, found 0"
grep -v '^// @Params' "$kdir/caslock-acq2rx.ptx" >noparams.ptx
expect 2 "$scopecat" gpu app -kernel-program noparams.ptx
has "$tmp/err" "noparams.ptx:1:1: expected '// @Params: ...'"
sed 's|^// @Output: forall|// @Output: exists|' "$kdir/caslock-acq2rx.ptx" >exists.ptx
expect 2 "$scopecat" gpu app -kernel-check exists.ptx </dev/null
has "$tmp/err" "exists.ptx:1:1: expected the @Output condition to be 'forall (...)'"
grep -v '^// case ' "$kdir/caslock-acq2rx.ptx" >nocase.ptx
expect 2 "$scopecat" gpu app -kernel-program nocase.ptx
has "$tmp/err" "nocase.ptx:1:1: expected '// case NAME: made by make-ptx.sh from FILE.cu'"
expect 2 "$scopecat" gpu app -kernel-program missing.ptx
has "$tmp/err" "missing.ptx: cannot read"
expect 2 "$scopecat" gpu app -kernel-program a.ptx b.ptx
has "$tmp/err" "-kernel-program: expected one CASE.ptx and nothing else"

# -compare: gpu app's reports of corpus programs beside expected.csv's
# verdicts.  Stand-ins print what a corpus program prints, a histogram,
# broken (by @Output) in the runs whose seed is a multiple of 4 (5 of
# seeds 1..20, 5 of 21..40), or never, or in seed 7 alone; each run
# judged by -kernel-check.  caslock-acq2rx (FAIL) broken in two slices:
# 10/40; caslock-2.1.1 (PASS) never; lastblock (PASS) in seed 7: flagged;
# lastblock-no-fence-after (FAIL) never: not seen in 20 runs.
hist_prog() { # NAME GOOD-STATE BAD-STATE WHEN: a stand-in corpus program
  printf '#!/bin/sh\nif %s; then s="%s"; else s="%s"; fi\n' "$4" "$3" "$2" >"$1-prog"
  printf 'printf "Test %s Required\\nHistogram (1 states)\\n100   :>%%s\\nNo\\n" "$s"\n' "$1" >>"$1-prog"
  chmod +x "$1-prog"
}
hist_prog caslock-acq2rx 'A[0]=0; A[1]=1;' 'A[0]=0; A[1]=0;' '[ $((SCOPECAT_APP_SEED % 4)) -eq 0 ]'
hist_prog caslock-2.1.1 'A[0]=1; A[1]=0;' '' false
hist_prog lastblock 'result[0]=10;' 'result[0]=3;' '[ "$SCOPECAT_APP_SEED" -eq 7 ]'
hist_prog lastblock-no-fence-after 'result[0]=10;' '' false
for p in caslock-acq2rx caslock-2.1.1 lastblock lastblock-no-fence-after; do
  echo "$p '$scopecat' gpu app -kernel-check '$kdir/$p.ptx' -- ./$p-prog"
done >corpus-apps.txt
expect 1 "$scopecat" gpu app -env none -runs 20 -apps corpus-apps.txt
cp "$tmp/out" slice1.log
has slice1.log "none              20       5      0      5      0      0   25.00%"
grep caslock-acq2rx corpus-apps.txt >acq-apps.txt
expect 1 "$scopecat" gpu app -env none -runs 20 -seed 21 -apps acq-apps.txt
cp "$tmp/out" slice2.log
expect 1 "$scopecat" gpu app -compare slice1.log slice2.log -verdicts "$kdir/expected.csv"
# Wilson for 10 of 40: p = .25, centre (.25 + 3.8415/80) / (1 + 3.8415/40)
# = .29802 / 1.09604 = .27190, half 1.96 / 1.09604 * sqrt(.1875/40 +
# 3.8415/6400) = 1.78826 * .072717 = .13004: [14.19%, 40.19%]; 1 of 20:
# [0.89%, 23.61%] (above)
has "$tmp/out" "Programs beside the model ptx-v7.5 (assertion, $kdir/expected.csv)"
has "$tmp/out" "  caslock-acq2rx           FAIL        40     10      0  none 10/40 [14.19%, 40.19%]          FAIL, seen"
has "$tmp/out" "  caslock-2.1.1            PASS        20      0      0  -                                    PASS, not seen"
has "$tmp/out" "  lastblock                PASS        20      1      0  none 1/20 [0.89%, 23.61%]            PASS, SEEN: a model or compiler problem"
has "$tmp/out" "  lastblock-no-fence-after FAIL        20      0      0  -                                    FAIL, not seen in 20 runs"
has "$tmp/out" "FAIL and seen 1, FAIL and not seen 1, PASS and seen 1, PASS and not seen 1, other 0"
# nothing flagged: exit 0; data-race's UNKNOWN is no class of the four
# (lastblock's data-race verdict is PASS: flagged again)
expect 0 "$scopecat" gpu app -compare slice2.log -verdicts "$kdir/expected.csv"
has "$tmp/out" "FAIL and seen 1, FAIL and not seen 0, PASS and seen 0, PASS and not seen 0, other 0"
# an UNKNOWN verdict (a bound cut the runs) is "other": caslock-2.1.1's
# data-race row, PASS in the corpus at -unroll 3, set UNKNOWN as it was at 1
sed 's/^\(caslock.cu,caslock-2.1.1.ptx,[^,]*,ptx-v7.5,data-race\),PASS,.*/\1,UNKNOWN,1/' \
  "$kdir/expected.csv" >unknown.csv
grep -q '^caslock.cu,caslock-2.1.1.ptx,[^,]*,ptx-v7.5,data-race,UNKNOWN,1$' unknown.csv && ok ||
  fail "unknown.csv: no UNKNOWN row for caslock-2.1.1's data race"
expect 1 "$scopecat" gpu app -compare slice1.log -verdicts unknown.csv -property data-race
has "$tmp/out" "FAIL and seen 1, FAIL and not seen 1, PASS and seen 1, PASS and not seen 0, other 1"
has "$tmp/out" "caslock-2.1.1            UNKNOWN     20      0      0  -                                    UNKNOWN, not seen"
# a run that exits wrong is no broken state, nor a judged run: "other"
printf 'Program caslock-acq2rx\n  none               4       1      1      0      0      0   25.00%%  [  4.56%%,  69.94%%]  yes\n' >exit.log
expect 0 "$scopecat" gpu app -compare exit.log -verdicts "$kdir/expected.csv"
has "$tmp/out" "caslock-acq2rx FAIL         4      0      1  -                                    FAIL, not seen in 3 runs"
printf 'Program caslock-acq2rx\n  none               2       2      1      0      1      0  100.00%%  [ 34.24%%, 100.00%%]  yes\n' >hang.log
expect 0 "$scopecat" gpu app -compare hang.log -verdicts "$kdir/expected.csv"
has "$tmp/out" "caslock-acq2rx FAIL         2      0      2  -                                    no run ended right"
has "$tmp/out" "FAIL and seen 0, FAIL and not seen 0, PASS and seen 0, PASS and not seen 0, other 1"
# what it refuses
printf 'Program x\n  none               4       3      1      0      0      0   75.00%%  [  4.56%%,  69.94%%]  yes\n' >bad.log
expect 2 "$scopecat" gpu app -compare bad.log -verdicts "$kdir/expected.csv"
has "$tmp/err" "bad.log:2:3: expected the errors of none to add up and be at most its runs"
printf 'kernel,ptx,config,model,property,verdict,unroll\nx.cu,x.ptx,1;1;1,ptx-v7.5,assertion,MAYBE,1\n' >bad.csv
expect 2 "$scopecat" gpu app -compare slice1.log -verdicts bad.csv
has "$tmp/err" "bad.csv:2:1: expected kernel,ptx,config,model,property,verdict,... with the verdict PASS, FAIL or UNKNOWN"
expect 2 "$scopecat" gpu app -compare good.hist -verdicts "$kdir/expected.csv"
has "$tmp/err" "no program's report in the logs"
expect 2 "$scopecat" gpu app -compare slice1.log
has "$tmp/err" "usage: scopecat gpu app -compare LOG... -verdicts CSV"

# examples/apps/ptx-rebuild.sh with a stand-in nvcc (its -dryrun lists
# steps as nvcc does, "#$ " lines with variable settings among them) and
# ptxas: prepare keeps cicc's PTX as original.ptx; build puts the given PTX
# in its place and replays the steps after cicc alone (no cicc is there
# to run), so the program is made from the given PTX.
# nvcc 13 lists cicc as "$CICC_PATH/cicc" (FAKE_CICC says which form).
mkdir -p fakecuda
cat >fakecuda/nvcc <<'EOF'
#!/bin/sh
dir=$3
case $4 in
-dryrun)
  echo '#$ _NVVM_BRANCH_=nvvm' >&2
  echo '#$ LIBRARIES=  "-L/nowhere"' >&2
  echo "#\$ ${FAKE_CICC:-cicc} -arch compute_90 \"$dir/app.cpp1.ii\" -o \"$dir/app.ptx\"" >&2
  echo "#\$ ptxas -arch=sm_90 \"$dir/app.ptx\" -o \"$dir/app.cubin\"" >&2
  echo "#\$ cp \"$dir/app.cubin\" app-built" >&2 ;;
*) echo 'original ptx' >"$dir/app.ptx" ;;
esac
EOF
printf '#!/bin/sh\ncp "$2" "$4"\n' >fakecuda/ptxas
chmod +x fakecuda/nvcc fakecuda/ptxas
echo 'fenced ptx' >edited.ptx
expect 0 bash "$srcdir/examples/apps/ptx-rebuild.sh" prepare rb "$tmp/fakecuda/nvcc" -o app app.cu
[ "$(cat rb/original.ptx)" = "original ptx" ] && ok || fail "ptx-rebuild.sh prepare: no original.ptx"
expect 0 bash "$srcdir/examples/apps/ptx-rebuild.sh" build rb edited.ptx
[ "$(cat app-built)" = "fenced ptx" ] && ok || fail "ptx-rebuild.sh build: the program is not made from the given PTX"
expect 1 bash "$srcdir/examples/apps/ptx-rebuild.sh" build nowhere edited.ptx
has "$tmp/err" "nowhere: run prepare first"
# nvcc 13's form, and a build run from elsewhere: the steps' relative
# paths are the prepare directory's
rm -f app-built
FAKE_CICC='"$CICC_PATH/cicc"' expect 0 bash "$srcdir/examples/apps/ptx-rebuild.sh" \
  prepare rb13 "$tmp/fakecuda/nvcc" -o app app.cu
[ "$(cat rb13/original.ptx)" = "original ptx" ] && ok || fail "ptx-rebuild.sh prepare: nvcc 13's cicc step not found"
mkdir -p elsewhere
(cd elsewhere && expect 0 bash "$srcdir/examples/apps/ptx-rebuild.sh" build ../rb13 ../edited.ptx)
[ "$(cat app-built 2>/dev/null)" = "fenced ptx" ] && ok || fail "ptx-rebuild.sh build from elsewhere: the program is not made from the given PTX"

# membars PROGRAM KERNEL: how many MEMBAR instructions KERNEL's SASS has
# in PROGRAM's embedded sm_90 cubin (no cuobjdump needed: the cubin is an
# ELF inside the .nv_fatbin section; each sm_70+ instruction is 16 bytes,
# its opcode the low 12 bits, MEMBAR's 0x992)
membars() {
  objcopy -O binary --only-section=.nv_fatbin "$1" "$tmp/fatbin" || return
  grep -obUaP '\x7fELF' "$tmp/fatbin" | cut -d: -f1 | while read -r at; do
    tail -c +$((at + 1)) "$tmp/fatbin" >"$tmp/cubin"
    readelf -SW "$tmp/cubin" 2>/dev/null | tr -d '[]' |
      awk -v s=".text.$2" '$2 == s { print $5, $6 }' |
      while read -r off size; do
        od -An -v -j $((0x$off)) -N $((0x$size)) -t x8 -w16 "$tmp/cubin" |
          awk 'substr($1, 14, 3) == "992" { n++ } END { print n + 0 }'
      done
  done
}

# with nvcc: the real interposer builds and exports the launches it wraps;
# a real CUDA program is told apart by how it links the runtime
nvcc=${SC_NVCC:-}
if [ -n "$nvcc" ] && command -v "$nvcc" >/dev/null 2>&1; then
  PATH="$tmp/gpu:$PATH" expect 0 "$scopecat" gpu app -nvcc "$nvcc" -gpudir "$srcdir/harness" \
    -keep "$tmp/real" -env stress -runs 1 -- ./pass
  for sym in cudaLaunchKernel __cudaLaunchKernel cuLaunchKernel __cudaRegisterVar; do
    nm -D --defined-only "$tmp/real/libscopecat_app.so" | grep -q " T $sym\$" && ok ||
      fail "the interposer does not define $sym"
  done
  if "$nvcc" -arch=sm_90 -cudart shared -I "$srcdir/include" -o ids-shared "$srcdir/examples/apps/ids.cu" &&
     "$nvcc" -arch=sm_90 -cudart static -I "$srcdir/include" -o ids-static "$srcdir/examples/apps/ids.cu"; then
    # no GPU here: the shared one runs and fails (exit), but is not refused
    PATH="$tmp/gpu:$PATH" "$scopecat" gpu app -nvcc "$nvcc" -gpudir "$srcdir/harness" \
      -keep "$tmp/real" -env stress -runs 1 -- ./ids-shared >"$tmp/out" 2>"$tmp/err"
    lacks "$tmp/err" "needs neither"
    has "$tmp/out" "stress             1"
    PATH="$tmp/gpu:$PATH" expect 1 "$scopecat" gpu app -nvcc "$nvcc" -gpudir "$srcdir/harness" \
      -keep "$tmp/real" -env stress -runs 1 -- ./ids-static
    has "$tmp/err" "./ids-static needs neither libcudart.so nor libcuda.so"
  else
    fail "nvcc did not build examples/apps/ids.cu"
  fi
  # the real interposer around a stand-in runtime (tests/data/app): a
  # program of three launches of 100 CTAs on stream 0x77; the stand-in
  # logs each launch and seed copy.  Per launch, in order: app.cuh's seed
  # (with +rand) on the program's stream, the stress grid (15..50 CTAs of
  # 256 threads: 000's sizing, far under half of 132 SMs x 8) on the
  # interposer's non-blocking stream with the next generation, the
  # program's kernel, its stop on the program's stream with the same
  # generation
  mkdir -p fakecuda
  printf 'libcudart.so.13 { global: *; };\n' >fakecuda/version
  if $cc -shared -fPIC -Wl,-soname,libcudart.so.13 -Wl,--version-script=fakecuda/version \
       -o fakecuda/libcudart.so.13 "$srcdir/tests/data/app/fake_cudart.c" &&
     $cc -o fake-app "$srcdir/tests/data/app/fake_app.c" fakecuda/libcudart.so.13; then
    fake_run() { # ENV [OPTION]: gpu app on fake-app, the log in $tmp/cuda.log
      rm -f "$tmp/cuda.log"
      FAKE_CUDA_LOG=$tmp/cuda.log LD_LIBRARY_PATH=$tmp/fakecuda PATH="$tmp/gpu:$PATH" \
        expect 0 "$scopecat" gpu app -nvcc "$nvcc" -gpudir "$srcdir/harness" \
        -keep "$tmp/real" -runs 1 -env "$@" -- ./fake-app
    }
    fake_run stress+rand
    has "$tmp/cuda.log" "stream created, flags 1"
    # stressed, every module is loaded when the context starts and the
    # interposer loads its own kernels first: a lazily loaded kernel waits
    # for the device, which the stress grid keeps busy (the H100 hung)
    has "$tmp/cuda.log" "module loading EAGER"
    has "$tmp/cuda.log" "attributes of _Z13sc_app_stress"
    has "$tmp/cuda.log" "attributes of _Z11sc_app_stop"
    awk -v out="$tmp/sum" '
      /^seed _ZL11sc_app_seed nonzero on 0x77$/ { if (state != 0) bad = bad " seed@" NR; state = 1; next }
      /^stress grid / { g = $3; if (state != 1 || $5 != 256 || $7 != "0x5151" || $9 != ++gen || $11 != 1 || g < 15 || g > 50) bad = bad " stress@" NR; sum += g; state = 2; next }
      /^app grid 100 on 0x77$/ { if (state != 2) bad = bad " app@" NR; state = 3; next }
      /^stop grid 1 on 0x77 gen / { if (state != 3 || $7 != gen) bad = bad " stop@" NR; state = 0; stops++; next }
      END { print (bad ? "out of order:" bad : "ok"), stops, sum > out }' "$tmp/cuda.log"
    read -r verdict stops sum <"$tmp/sum"
    [ "$verdict $stops" = "ok 3" ] && ok || { fail "the interposer's launches: $verdict $stops"; cat "$tmp/cuda.log"; }
    has "$tmp/out" "stress+rand: 3 kernel launches seen, 3 stressed by $sum CTAs, 3 stress grids stopped"
    # no randomisation: no seed copied; the cache stress is mode 3
    fake_run cache
    lacks "$tmp/cuda.log" "seed "
    has "$tmp/cuda.log" " mode 3"
    # randomisation alone: seeds, no stress
    fake_run none+rand
    has "$tmp/cuda.log" "module loading unset"
    [ "$(grep -c '^seed _ZL11sc_app_seed nonzero on 0x77$' "$tmp/cuda.log")" -eq 3 ] && ok ||
      fail "none+rand: three seeds expected"
    lacks "$tmp/cuda.log" "stress grid"
    has "$tmp/out" "none+rand: 3 kernel launches seen, 0 stressed by 0 CTAs, 0 stress grids stopped"
    # -cost: an event on the program's stream either side of each kernel,
    # 0.25 ms each (the stand-in's elapsed time): 0.750 ms a run
    fake_run none -cost
    [ "$(grep -c '^event on 0x77$' "$tmp/cuda.log")" -eq 6 ] && ok || fail "-cost: six events expected"
    has "$tmp/out" "none: cost over 1 runs: kernel time median 0.750 ms [0.750, 0.750]"
  else
    fail "the C compiler $cc built no stand-in runtime"
  fi
  # ptx-rebuild.sh with the real nvcc: cbe-dot built by it from its own
  # PTX carries the same code as nvcc's own build, and built from a PTX
  # with one more fence (membar.gl before the fence-free kernel's ret)
  # carries one more MEMBAR in that kernel's SASS, in the program itself
  if "$nvcc" -O3 -arch=sm_90 -cudart shared -I "$srcdir/include" -o dot-nvcc \
       "$srcdir/examples/apps/cbe-dot.cu"; then
    expect 0 bash "$srcdir/examples/apps/ptx-rebuild.sh" prepare dotk "$nvcc" -O3 -arch=sm_90 \
      -cudart shared -I "$srcdir/include" -o dot "$srcdir/examples/apps/cbe-dot.cu"
    fenced=_Z3dotILb1EEvPKiS1_PViPi nofence=_Z3dotILb0EEvPKiS1_PViPi
    [ "$(membars dot-nvcc $fenced) $(membars dot-nvcc $nofence)" = "2 0" ] && ok ||
      fail "cbe-dot by nvcc: MEMBARs (fenced, nofence) $(membars dot-nvcc $fenced) $(membars dot-nvcc $nofence), expected 2 0"
    expect 0 bash "$srcdir/examples/apps/ptx-rebuild.sh" build dotk dotk/original.ptx
    [ "$(membars dot $fenced) $(membars dot $nofence)" = "2 0" ] && ok ||
      fail "cbe-dot rebuilt from its PTX: MEMBARs $(membars dot $fenced) $(membars dot $nofence), expected 2 0"
    awk -v k=$nofence '$0 ~ "entry " k {in_k = 1} in_k && /^\tret;/ {print "\tmembar.gl;"; in_k = 0} {print}' \
      dotk/original.ptx >dot-fenced.ptx
    expect 0 bash "$srcdir/examples/apps/ptx-rebuild.sh" build dotk dot-fenced.ptx
    [ "$(membars dot $fenced) $(membars dot $nofence)" = "2 1" ] && ok ||
      fail "cbe-dot rebuilt with a fence: MEMBARs $(membars dot $fenced) $(membars dot $nofence), expected 2 1"
  else
    fail "nvcc did not build examples/apps/cbe-dot.cu"
  fi
  # two corpus programs build with nvcc (unsigned arrays; a scalar
  # parameter) against harness/app_kernel.cuh
  for kcase in xf-barrier-fail1 cbe-dot; do
    "$scopecat" gpu app -kernel-program "$kdir/$kcase.ptx" >"$kcase-prog.cu" &&
      "$nvcc" -O3 -arch=sm_90 -cudart shared -I "$kdir" -I "$srcdir/harness" \
        -o "$kcase-prog" "$kcase-prog.cu" && ok || fail "nvcc did not build the program of $kcase"
  done
  # every case study compiles against the installed header (PTX only)
  for cu in "$srcdir"/examples/apps/*.cu; do
    "$nvcc" -arch=sm_90 -ptx -I "$srcdir/include" -o case.ptx "$cu" && ok ||
      fail "nvcc did not compile $cu"
  done
else
  echo "gpu_app.sh: no nvcc: the real interposer and CUDA programs not checked"
fi

finish
