#!/bin/sh
# fences.sh: `scopecat fences` against answers worked out by hand under
# ptx-rmo.cat (tests/data/fences.md gives the reasoning): the paper's four
# applications (Figs. 7-11) and small shapes from `scopecat gen`.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

seeds="$srcdir/ptx/seeds"

# usage
expect 2 "$scopecat" fences
expect 2 "$scopecat" fences -frob "$seeds/sb.litmus"
has "$tmp/err" "unknown option '-frob'"
expect 2 "$scopecat" fences -oracle "$scopecat" "$seeds/sb.litmus"
has "$tmp/err" "-oracle and -gpu-options go with -gpu"
expect 2 "$scopecat" fences -gpu -reduce "$seeds/sb.litmus"
expect 2 "$scopecat" fences -gpu -n 0 "$seeds/sb.litmus"
expect 1 "$scopecat" fences "$tmp/missing.litmus"

# dlb-mp (Fig. 7): one membar.gl in P0 suffices, at either position
# before the tail's store; P1's load is already ordered by its ctrl
# dependency (rmo has dp), so the paper's second fence is not needed
expect 0 "$scopecat" fences "$seeds/dlb-mp.litmus"
has "$tmp/out" "Test dlb-mp: allowed; 2 minimal fixes (3 positions"
has "$tmp/out" "  1. membar.gl in P0 between st.cg.s32 [r8], r3 and ld.volatile.s32 r2, [r9]"
has "$tmp/out" "  2. membar.gl in P0 between ld.volatile.s32 r2, [r9] and st.volatile.s32 [r9], r2"
lacks "$tmp/out" "in P1"

# dlb-lb (Fig. 8): exactly the paper's two (+) fences
expect 0 "$scopecat" fences "$seeds/dlb-lb.litmus"
has "$tmp/out" "Test dlb-lb: allowed; 1 minimal fix (2 positions"
has "$tmp/out" "membar.gl in P0 between atom.cas.b32 r0, [r9], 0, 1 and st.cg.s32 [r8], r2; membar.gl in P1 between ld.cg.s32 r1, [r8] and atom.cas.b32 r3, [r9], 0, 1"

# cas-sl (Fig. 9): P0's fence before the unlock; P1's guarded load is
# ordered after the CAS by ctrl
expect 0 "$scopecat" fences "$seeds/cas-sl.litmus"
has "$tmp/out" "Test cas-sl: allowed; 1 minimal fix (2 positions"
has "$tmp/out" "  1. membar.gl in P0 between st.cg.s32 [r8], r1 and atom.exch.b32 r0, [r9], 0"

# sl-future (Fig. 11): a fence before the unlock store; the model needs
# neither the atom.exch unlock nor P1's fence (ctrl orders P1)
expect 0 "$scopecat" fences "$seeds/sl-future.litmus"
has "$tmp/out" "Test sl-future: allowed; 1 minimal fix (2 positions"
has "$tmp/out" "  1. membar.gl in P0 between ld.cg.s32 r0, [r8] and st.cg.s32 [r9], r1"

# the fixed versions of the paper need nothing more
for t in dlb-mp dlb-lb cas-sl sl-future; do
  expect 0 "$scopecat" fences "$seeds/$t+membar.gls.litmus"
  has "$tmp/out" "already forbidden, no fence needed"
done

# sb within one CTA: membar.cta on both threads is the cheapest
expect 0 "$scopecat" fences "$seeds/sb.litmus"
has "$tmp/out" "membar.cta in P0 between st.cg.s32 [r1], r0 and ld.cg.s32 r2, [r3]; membar.cta in P1"

# mp across CTAs: membar.gl on each thread; within a CTA: membar.cta
"$scopecat" gen PodWW Rfe PodRR Fre >"$tmp/mp.litmus"
"$scopecat" gen PodWW Rfe.cta PodRR Fre.cta >"$tmp/mp-cc.litmus"
"$scopecat" gen PodWW Rfe DpAddrdR Fre >"$tmp/mp-addr.litmus"
expect 0 "$scopecat" fences -o "$tmp/fixed" "$tmp/mp.litmus" "$tmp/mp-cc.litmus" "$tmp/mp-addr.litmus"
has "$tmp/out" "Test mp: allowed; 1 minimal fix"
has "$tmp/out" "membar.gl in P0 between st.cg.s32 [r0], r1 and st.cg.s32 [r2], r3; membar.gl in P1 between ld.cg.s32 r1, [r0] and ld.cg.s32 r3, [r2]"
has "$tmp/out" "-> mp+membar.gl@0.4+membar.gl@1.2"
has "$tmp/out" "Test mp-cc: allowed; 1 minimal fix"
has "$tmp/out" "membar.cta in P0 between st.cg.s32 [r0], r1 and st.cg.s32 [r2], r3; membar.cta in P1"
# with an address dependency on the reader, the writer's fence suffices
has "$tmp/out" "Test mp+po+addr: allowed; 1 minimal fix"
has "$tmp/out" "  1. membar.gl in P0 between st.cg.s32 [r0], r1 and st.cg.s32 [r2], r3"
# the patched tests parse and are forbidden
expect 0 "$scopecat" sim -nohash "$tmp/fixed"
has "$tmp/out" "Observation mp+membar.gl@0.4+membar.gl@1.2 Never"
has "$tmp/out" "Observation mp-cc+membar.cta@0.4+membar.cta@1.2 Never"
has "$tmp/out" "Observation mp+po+addr+membar.gl@0.4 Never"
if [ "$(ls "$tmp/fixed" | wc -l)" -eq 3 ]; then ok; else fail "-o wrote $(ls "$tmp/fixed")"; fi

# no fence helps a thread with a single access: the answer says so
cat >"$tmp/one.litmus" <<'T'
GPU_PTX one
{
x=0;
0:.reg .s32 r0;
0:.reg .b64 r1 = x;
1:.reg .s32 r0;
1:.reg .b64 r1 = x;
}
 P0                 | P1                 ;
 mov.s32 r0, 1      | ld.cg.s32 r0, [r1] ;
 st.cg.s32 [r1], r0 |                    ;

exists (1:r0=1)
T
expect 0 "$scopecat" fences "$tmp/one.litmus"
has "$tmp/out" "Test one: allowed, and no set of fences forbids it (0 positions"
# lb with data dependencies is forbidden already (no-thin-air)
"$scopecat" gen DpDatadW Rfe DpDatadW Rfe >"$tmp/lb.litmus"
expect 0 "$scopecat" fences "$tmp/lb.litmus"
has "$tmp/out" "Test lb+datas: already forbidden"

# the modern model: fence.acq_rel.gpu on both threads of a relaxed mp
"$scopecat" gen [relaxed.gpu] PodWW [relaxed.gpu] Rfe [relaxed.gpu] PodRR [relaxed.gpu] Fre >"$tmp/mpr.litmus"
expect 0 "$scopecat" fences -ptx -model ptx-v6.0.cat "$tmp/mpr.litmus"
has "$tmp/out" "fence.acq_rel.gpu in P0 between st.relaxed.gpu.s32 [r0], r1 and st.relaxed.gpu.s32 [r2], r3; fence.acq_rel.gpu in P1"
# ... and fence.acq_rel.cta within one CTA
"$scopecat" gen [relaxed.gpu] PodWW [relaxed.gpu] Rfe.cta [relaxed.gpu] PodRR [relaxed.gpu] Fre.cta >"$tmp/mprc.litmus"
expect 0 "$scopecat" fences -ptx -model ptx-v6.0.cat "$tmp/mprc.litmus"
has "$tmp/out" "fence.acq_rel.cta in P0"

# Alg. 1 (binary then linear reduction), the model standing in for the
# GPU: it ends on one of the minimal fixes above
expect 0 "$scopecat" fences -reduce "$seeds/dlb-mp.litmus" "$seeds/dlb-lb.litmus" "$tmp/mp-cc.litmus"
has "$tmp/out" "Test dlb-mp: allowed; 1 reduced fix (3 positions"
has "$tmp/out" "  1. membar.gl in P0 between ld.volatile.s32 r2, [r9] and st.volatile.s32 [r9], r2"
has "$tmp/out" "Test dlb-lb: allowed; 1 reduced fix (2 positions"
has "$tmp/out" "membar.gl in P0 between atom.cas.b32 r0, [r9], 0, 1 and st.cg.s32 [r8], r2; membar.gl in P1"
# (reduction keeps the kind it starts with: __threadfence, membar.gl)
has "$tmp/out" "Test mp-cc: allowed; 1 reduced fix (2 positions"
expect 0 "$scopecat" fences -reduce "$tmp/one.litmus" "$tmp/lb.litmus"
has "$tmp/out" "Test one: allowed, and no set of fences forbids it"
has "$tmp/out" "Test lb+datas: already forbidden"

# -gpu: Alg. 1 with an oracle printing logs (here models standing in for
# the hardware; tests/data/fences.md works the answers out).  SC hardware
# never shows mp's outcome: no fence; hardware that is ptx-rmo needs the
# model's two membar.gl
expect 0 "$scopecat" fences -gpu -oracle "$scopecat -model sc.cat" "$tmp/mp.litmus"
has "$tmp/out" "Test mp: allowed; 1 minimal fix"
has "$tmp/out" "empirical (oracle '$scopecat -model sc.cat', 1 runs): the condition was never seen, no fence needed"
has "$tmp/out" "hardware needed fewer fences than the model: 0 instead of 2"
expect 0 "$scopecat" fences -gpu -oracle "$scopecat -model ptx-rmo.cat" "$tmp/mp.litmus" "$seeds/dlb-lb.litmus"
has "$tmp/out" "7 runs): 2 fences: membar.gl in P0 between st.cg.s32 [r0], r1 and st.cg.s32 [r2], r3; membar.gl in P1 between ld.cg.s32 r1, [r0] and ld.cg.s32 r3, [r2]"
has "$tmp/out" "     -> mp+membar.gl@0.4+membar.gl@1.2"
has "$tmp/out" "hardware needed as many fences as the model: 2"
has "$tmp/out" "2 fences: membar.gl in P0 between atom.cas.b32 r0, [r9], 0, 1 and st.cg.s32 [r8], r2; membar.gl in P1 between ld.cg.s32 r1, [r8] and atom.cas.b32 r3, [r9], 0, 1"
# hardware that keeps loads in order: only the writer's fence, which the
# model does not find enough
cat >"$tmp/ldord.cat" <<'CAT'
"loads kept in order (a stand-in for hardware)"
let fence = po; [F]; po
acyclic (po & (R * R)) | fence | addr | data | ctrl | rfe | co | fr as order
CAT
expect 0 "$scopecat" fences -gpu -oracle "$scopecat -model $tmp/ldord.cat" -o "$tmp/emp" "$tmp/mp.litmus"
has "$tmp/out" "6 runs): 1 fence: membar.gl in P0 between st.cg.s32 [r0], r1 and st.cg.s32 [r2], r3"
has "$tmp/out" "hardware needed fewer fences than the model: 1 instead of 2"
has "$tmp/out" "the model still allows mp+membar.gl@0.4: what forbids it on hardware is stronger than the model"
if [ -f "$tmp/emp/mp+membar.gl@0.4.litmus" ]; then ok; else fail "-o lacks the reduced test"; fi
# the oracle is run with SCOPECAT_N set (instances: -n, 16 times for the
# final check); a command that prints no log fails the test
expect 0 "$scopecat" fences -gpu -n 5 -oracle "echo \$SCOPECAT_N >>$tmp/n.txt; $scopecat -model sc.cat" "$tmp/mp.litmus"
if [ "$(sort -u "$tmp/n.txt" | tr '\n' ' ')" = "5 " ]; then ok; else fail "SCOPECAT_N: $(cat "$tmp/n.txt")"; fi
expect 1 "$scopecat" fences -gpu -oracle true "$tmp/mp.litmus"
has "$tmp/err" "printed no log (exit status 0)"

# the PTX dialect: fence.sc/fence.acq_rel by default, patched tests stay
# PTX (tests/data/fences.md works the answers out under ptx-v6.0.cat)
"$scopecat" gen -dialect ptx [relaxed.gpu]PodWW [relaxed.gpu]Rfe [relaxed.gpu]PodRR [relaxed.gpu]Fre >"$tmp/pmp.litmus"
"$scopecat" gen -dialect ptx [relaxed.gpu]PodWW [release.gpu]Rfe [relaxed.gpu]PodRR [relaxed.gpu]Fre >"$tmp/pmprel.litmus"
"$scopecat" gen -dialect ptx [relaxed.gpu]PodWR [relaxed.gpu]Fre [relaxed.gpu]PodWR [relaxed.gpu]Fre >"$tmp/psb.litmus"
expect 0 "$scopecat" fences -o "$tmp/pfixed" "$tmp/pmp.litmus" "$tmp/pmprel.litmus" "$tmp/psb.litmus"
has "$tmp/out" "Test mp-relaxed.gpu: allowed; 1 minimal fix (2 positions"
has "$tmp/out" "  1. fence.acq_rel.gpu in P0 between st.relaxed.gpu.s32 [r0], r1 and st.relaxed.gpu.s32 [r2], r3; fence.acq_rel.gpu in P1 between ld.relaxed.gpu.s32 r1, [r0] and ld.relaxed.gpu.s32 r3, [r2]"
has "$tmp/out" "Test mp-0relaxed.gpu-1release.gpu-2relaxed.gpu-3relaxed.gpu: allowed; 1 minimal fix (2 positions"
has "$tmp/out" "  1. fence.acq_rel.gpu in P1 between ld.relaxed.gpu.s32 r1, [r0] and ld.relaxed.gpu.s32 r3, [r2]"
has "$tmp/out" "Test sb-relaxed.gpu: allowed; 1 minimal fix (2 positions"
has "$tmp/out" "  1. fence.sc.gpu in P0 between st.relaxed.gpu.s32 [r0], r1 and ld.relaxed.gpu.s32 r3, [r2]; fence.sc.gpu in P1"
lacks "$tmp/out" "membar"
expect 0 "$scopecat" parse -summary "$tmp/pfixed"
has "$tmp/out" "mp-relaxed.gpu+fence.acq_rel.gpu@0.4+fence.acq_rel.gpu@1.2: PTX"
expect 0 "$scopecat" sim -nohash "$tmp/pfixed"
if [ "$(grep -c ' Never ' "$tmp/out")" -eq 3 ]; then ok; else fail "PTX fixes not all forbidden"; fi
# one fence is not enough for mp (fence.sc.gpu: sb needs both threads),
# but fences everywhere are: no fix within -max 1, and no claim that an
# RMW or a dependency is needed
expect 0 "$scopecat" fences -max 1 "$tmp/pmp.litmus"
has "$tmp/out" "Test mp-relaxed.gpu: allowed; no fix within -max 1 fences (2 positions"
lacks "$tmp/out" "no set of fences forbids it"
lacks "$tmp/out" "RMW"

# five threads passing a message along five CTAs (tests/data/fences.md):
# one fence.acq_rel.gpu per thread, five in all; the default -max 4 finds
# no fix, and says so without claiming that an RMW or a dependency is needed
data="$srcdir/tests/data"
expect 0 "$scopecat" fences "$data/fences-mp5.litmus"
has "$tmp/out" "Test fences-mp5: allowed; no fix within -max 4 fences (5 positions"
lacks "$tmp/out" "RMW"
expect 0 "$scopecat" fences -max 5 -o "$tmp/mp5" "$data/fences-mp5.litmus"
has "$tmp/out" "Test fences-mp5: allowed; 1 minimal fix (5 positions"
has "$tmp/out" "  1. fence.acq_rel.gpu in P0 between st.relaxed.gpu [x], 1 and st.relaxed.gpu [y], 1; fence.acq_rel.gpu in P1 between ld.relaxed.gpu r1, [y] and st.relaxed.gpu [z], 1; fence.acq_rel.gpu in P2 between ld.relaxed.gpu r1, [z] and st.relaxed.gpu [w], 1; fence.acq_rel.gpu in P3 between ld.relaxed.gpu r1, [w] and st.relaxed.gpu [a], 1; fence.acq_rel.gpu in P4 between ld.relaxed.gpu r1, [a] and ld.relaxed.gpu r2, [x]"
expect 0 "$scopecat" sim -nohash "$tmp/mp5"
has "$tmp/out" "Observation fences-mp5+fence.acq_rel.gpu@0.2+fence.acq_rel.gpu@1.2+fence.acq_rel.gpu@2.2+fence.acq_rel.gpu@3.2+fence.acq_rel.gpu@4.2 Never"
# a thread with one access and no position: an RMW or a dependency is
# needed, since the test with every position fenced (itself) is allowed
expect 0 "$scopecat" fences "$tmp/one.litmus"
has "$tmp/out" "an RMW or a dependency is needed"

# a two-thread spin lock answers within a minute on the default engine
# (sim answers it in a fraction of a second; the search used to run for
# tens of minutes): a fence.acq_rel.gpu before each unlock
expect 0 "$scopecat" fences -timeout 120 "$data/fences-spinlock.litmus"
has "$tmp/out" "Test fences-spinlock: allowed; 1 minimal fix (6 positions"
has "$tmp/out" "  1. fence.acq_rel.gpu in P0 between st.weak [x], 1 and st.relaxed.gpu [m], 0; fence.acq_rel.gpu in P1 between st.weak [x], 2 and st.relaxed.gpu [m], 0"

# -timeout bounds a test's search: a message naming the limit, no verdict,
# exit status 1, and the next test still runs (the search takes about half
# a second of CPU: ten times the limit; at 0.5 s, faster auto roads made
# it finish in time)
expect 1 "$scopecat" fences -timeout 0.05 "$data/fences-spinlock-relaxed.litmus" "$seeds/sb.litmus"
has "$tmp/err" "expected the fence search of fences-spinlock-relaxed to finish within 0.05 s (the -timeout limit)"
lacks "$tmp/out" "Test fences-spinlock-relaxed"
has "$tmp/out" "Test sb: allowed; 1 minimal fix"
expect 2 "$scopecat" fences -timeout soon "$seeds/sb.litmus"
has "$tmp/err" "-timeout expects seconds, found 'soon'"
expect 2 "$scopecat" fences -engine fast "$seeds/sb.litmus"
has "$tmp/err" "-engine expects enum, smt or auto, found 'fast'"
expect 2 "$scopecat" fences -reduce -timeout 5 "$seeds/sb.litmus"
# no progress line when stderr is no terminal
expect 0 "$scopecat" fences "$seeds/sb.litmus"
lacks "$tmp/err" "simulations"

# -engine enum and -engine smt give the same advice (and the same number
# of simulations) where both finish
if "$scopecat" sim -engine smt "$seeds/sb.litmus" >/dev/null 2>&1; then
  for t in "$data/fences-spinlock.litmus" "$data/fences-mp5.litmus" \
           "$tmp/pmp.litmus" "$tmp/pmprel.litmus" "$tmp/psb.litmus" \
           "$tmp/mp.litmus" "$tmp/mp-cc.litmus" "$seeds/dlb-lb.litmus"; do
    expect 0 "$scopecat" fences -engine enum "$t"
    cp "$tmp/out" "$tmp/enum.out"
    expect 0 "$scopecat" fences -engine smt "$t"
    if cmp -s "$tmp/enum.out" "$tmp/out"; then ok; else
      fail "enum and smt differ on $t: $(diff "$tmp/enum.out" "$tmp/out")"; fi
  done
else
  echo "skipped: -engine smt (built without Z3)"
fi

finish
