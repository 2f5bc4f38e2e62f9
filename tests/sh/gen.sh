#!/bin/sh
# gen.sh: `scopecat gen`: tests from cycles of edges (diy).  Known shapes
# get diy's names and the conditions worked out by hand; the family of a
# size round-trips through the parser, every test simulates, and (with
# CUDA) a sample assembles for sm_90 with ptxas.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

edges="$srcdir/ptx/families/gpu-ptx.edges"

# usage
expect 2 "$scopecat" gen
expect 2 "$scopecat" gen -size 4 PodWW
expect 2 "$scopecat" gen -frob PodWW
has "$tmp/err" "unknown option '-frob'"

# mp: the condition says the cycle (r1 reads the flag, r3 misses the data)
expect 0 "$scopecat" gen PodWW Rfe PodRR Fre
has "$tmp/out" "GPU_PTX mp"
has "$tmp/out" '"cycle: PodWW Rfe PodRR Fre"'
has "$tmp/out" "(device (kernel (cta (warp P0)) (cta (warp P1))))"
has "$tmp/out" "x: global, y: global"
has "$tmp/out" "exists (1:r1=1 /\\ 1:r3=0)"
# a rotation of the cycle is the same test (up to the threads' order)
expect 0 "$scopecat" gen PodRR Fre PodWW Rfe
has "$tmp/out" "GPU_PTX mp"
has "$tmp/out" "exists (0:r1=1 /\\ 0:r3=0)"

# names and verdicts of shapes under ptx-rmo.cat, worked out by hand
# (Observation: Sometimes = allowed, Never = forbidden)
model=
verdict() { # verdict EXPECTED NAME EDGE... (under $model, default ptx-rmo)
  want=$1 name=$2; shift 2
  "$scopecat" gen "$@" >"$tmp/t.litmus" 2>"$tmp/err"
  if ! grep -qF "GPU_PTX $name" "$tmp/t.litmus"; then
    fail "gen $*: not named $name"; head -1 "$tmp/t.litmus"; cat "$tmp/err"; return
  fi
  if "$scopecat" -nohash ${model:+-model "$model"} "$tmp/t.litmus" | grep -q "^Observation $name $want "; then ok
  else fail "$name: expected $want"; fi
}
verdict Sometimes mp PodWW Rfe PodRR Fre
verdict Never mp+membar.gls FenceGldWW Rfe FenceGldRR Fre
verdict Sometimes mp+membar.ctas FenceCtadWW Rfe FenceCtadRR Fre
verdict Never mp+membar.ctas-cc FenceCtadWW Rfe.cta FenceCtadRR Fre.cta
verdict Never mp+membar.gl+addr FenceGldWW Rfe DpAddrdR Fre
verdict Sometimes mp+po+addr PodWW Rfe DpAddrdR Fre
verdict Never mp+membar.gl+ctrl FenceGldWW Rfe DpCtrldR Fre
verdict Sometimes sb+membar.ctas FenceCtadWR Fre FenceCtadWR Fre
verdict Never sb+membar.syss FenceSysdWR Fre FenceSysdWR Fre
verdict Never lb+datas DpDatadW Rfe DpDatadW Rfe
verdict Never lb+ctrls DpCtrldW Rfe DpCtrldW Rfe
verdict Sometimes lb+membar.ctas FenceCtadRW Rfe FenceCtadRW Rfe
verdict Never 2+2w+membar.gls FenceGldWW Coe FenceGldWW Coe
verdict Never iriw+membar.gls Rfe FenceGldRR Fre Rfe FenceGldRR Fre
verdict Never wrc+membar.gls Rfe FenceGldRW Rfe FenceGldRR Fre
verdict Sometimes coRR.fr_W.rf+pos Rfe PosRR Fre

# the modern dialect under Dat3M's ptx-v6.0.cat: release/acquire at .gpu
# forbid mp across CTAs, at .cta they do not; fence.sc forbids sb,
# fence.acq_rel does not
model=ptx-v6.0.cat
verdict Never mp-0relaxed.gpu-1release.gpu-2acquire.gpu-3relaxed.gpu \
  [relaxed.gpu] PodWW [release.gpu] Rfe [acquire.gpu] PodRR [relaxed.gpu] Fre
verdict Sometimes mp-0relaxed.gpu-1release.cta-2acquire.cta-3relaxed.gpu \
  [relaxed.gpu] PodWW [release.cta] Rfe [acquire.cta] PodRR [relaxed.gpu] Fre
verdict Never sb+fence.sc.gpus-relaxed.gpu \
  [relaxed.gpu] FenceScGpudWR [relaxed.gpu] Fre [relaxed.gpu] FenceScGpudWR [relaxed.gpu] Fre
verdict Sometimes sb+fence.acq_rel.gpus-relaxed.gpu \
  [relaxed.gpu] FenceAcqRelGpudWR [relaxed.gpu] Fre [relaxed.gpu] FenceAcqRelGpudWR [relaxed.gpu] Fre
model=

# 2+2w: the final values say which writes are coherence-last
expect 0 "$scopecat" gen PodWW Coe PodWW Coe
has "$tmp/out" "exists (x=2 /\\ y=2)"

# coherence cycles: writes are numbered along the cycle's co, not its po:
# coRR across three threads (r1 sees the co-last write, r3 the initial
# value), and coRW2 (the read sees the write its thread's store is put
# before)
expect 0 "$scopecat" gen Rfe PosRR Fre Coe.warp
has "$tmp/out" "exists (1:r1=2 /\\ 1:r3=0 /\\ x=2)"
expect 0 "$scopecat" gen Rfe PosRW Coe
has "$tmp/out" "exists (1:r1=2 /\\ x=2)"

# the paper's dependencies: and with 0x80000000 (printed in decimal), cvt, add
expect 0 "$scopecat" gen PodWW Rfe DpAddrdR Fre
has "$tmp/out" "and.b32 r3, r1, 2147483648"
has "$tmp/out" "cvt.u64.u32 r4, r3"
has "$tmp/out" "add.u64 r2, r2, r4"
expect 0 "$scopecat" gen PodWW Rfe DpCtrldR Fre
has "$tmp/out" "setp.eq.s32 p0, r3, 0"
has "$tmp/out" "@p0 ld.cg.s32"

# placement: .cta (one CTA, two warps), .warp (one warp)
expect 0 "$scopecat" gen PodWW Rfe.cta PodRR Fre.cta
has "$tmp/out" "(device (kernel (cta (warp P0) (warp P1))))"
expect 0 "$scopecat" gen PodWR Fre.warp PodWR Fre.warp
has "$tmp/out" "(device (kernel (cta (warp P0 P1))))"
expect 1 "$scopecat" gen PodWW Rfe.cta PodRR Fre.warp PodWR Fre
has "$tmp/err" "placements of the external edges contradict"

# annotations: cache operators, modern semantics and scopes, regions
expect 0 "$scopecat" gen PodWW Rfe [ca] PodRR [ca] Fre
has "$tmp/out" "GPU_PTX mp-2ca-3ca"
has "$tmp/out" "ld.ca.s32 r1, [r0]"
expect 0 "$scopecat" gen [release.gpu] PodWW [release.gpu] Rfe [acquire.gpu] PodRR [acquire.gpu] Fre
has "$tmp/out" "st.release.gpu.s32"
has "$tmp/out" "ld.acquire.gpu.s32"
expect 0 "$scopecat" gen [shared] PodWR Fre.cta [shared] PodWR Fre.cta
has "$tmp/out" "x: shared, y: shared"
expect 1 "$scopecat" gen [shared] PodWR Fre PodWR Fre
has "$tmp/err" "is shared but threads of different CTAs access it"
expect 0 "$scopecat" gen FenceScGpudWW Rfe FenceAcqRelCtadRR Fre
has "$tmp/out" "fence.sc.gpu"
has "$tmp/out" "fence.acq_rel.cta"

# cycles that make no test
expect 1 "$scopecat" gen PodWW Rfe
has "$tmp/err" "Rfe ends on a read but PodWW starts from a write"
expect 1 "$scopecat" gen PodWR PodRW
has "$tmp/err" "at least two external edges"
expect 1 "$scopecat" gen PodWW Coe PosWW Coe
has "$tmp/err" "one edge leaves a location and none comes back"
expect 1 "$scopecat" gen PodWW Frob
has "$tmp/err" "expected an edge such as Rfe"

# a family: every cycle up to 4 edges, once up to rotation
expect 0 "$scopecat" gen -size 4 -edges "$edges" -o "$tmp/fam"
has "$tmp/err" "1365 tests from 37 edges, cycles up to 4"
n=$(ls "$tmp/fam" | grep -c '\.litmus$')
if [ "$n" -eq 1365 ]; then ok; else fail "family has $n files, not 1365"; fi
if [ "$(wc -l <"$tmp/fam/@all")" -eq 1365 ]; then ok; else fail "@all"; fi
for t in mp mp+membar.gls sb lb+addrs 2+2w+membar.syss-cc; do
  if [ -f "$tmp/fam/$t.litmus" ]; then ok; else fail "family lacks $t"; fi
done
# ... which round-trips through the parser, and simulates
expect 0 "$scopecat" parse -check "$tmp/fam"
has "$tmp/out" "round trip: 1365 tests, 0 failed"
expect 0 "$scopecat" sim -nohash -j 2 "$tmp/fam"
n=$(grep -c '^Observation ' "$tmp/out")
if [ "$n" -eq 1365 ]; then ok; else fail "simulated $n of 1365 tests"; fi
# ... and every test the model allows has a fence fix (a regression
# count: 219 allowed, 1146 forbidden already)
expect 0 "$scopecat" fences "$tmp/fam"
lacks "$tmp/out" "no set of fences"
n=$(grep -c 'minimal fix' "$tmp/out")
if [ "$n" -eq 219 ]; then ok; else fail "$n tests with fixes, not 219"; fi

# Assemble every STEP-th test of DIR wrapped in a kernel with $ptxas,
# counting the ones it rejects in $bad.
assemble_sample() {
  for f in $(ls "$1"/*.litmus | awk -v step="$2" 'NR % step == 1'); do
    "$scopecat" parse "$f" | awk -f "$srcdir/tests/sh/ptx_kernel.awk" >"$tmp/k.ptx"
    if ! "$ptxas" -arch=sm_90 "$tmp/k.ptx" -o "$tmp/k.cubin" 2>"$tmp/k.err"; then
      bad=$((bad + 1)); echo "ptxas rejects $f:"; head -3 "$tmp/k.err"
    fi
  done
}

# ... and assembles for sm_90 (a sample: ptxas takes ~0.1 s a test)
if grep -q '^#define HAVE_CUDA 1' "$builddir/config.h" 2>/dev/null; then
  ptxas=$(sed -n 's/^#define SC_PTXAS "\(.*\)"$/\1/p' "$builddir/config.h")
  bad=0
  assemble_sample "$tmp/fam" 67
  if [ "$bad" -eq 0 ]; then ok; else fail "ptxas rejected $bad tests"; fi
else
  echo "SKIP: ptxas (built without CUDA)"
fi

# the PTX dialect (Dat3M's headers; ptx-v6.0.cat by default), with the
# annotations glued to the edges: release/acquire at .gpu forbid mp
# across CTAs (hand-worked in tests/data/fences.md)
expect 2 "$scopecat" gen -dialect frob PodWW Rfe PodRR Fre
expect 1 "$scopecat" gen -dialect ptx PodWR Fre.warp PodWR Fre.warp
has "$tmp/err" "the PTX dialect places threads in CTAs, not warps"
expect 0 "$scopecat" gen -dialect ptx [relaxed.gpu]PodWW [release.gpu]Rfe [acquire.gpu]PodRR [relaxed.gpu]Fre
has "$tmp/out" "PTX mp-0relaxed.gpu-1release.gpu-2acquire.gpu-3relaxed.gpu"
has "$tmp/out" " P0@cta 0,gpu 0              | P1@cta 1,gpu 0              ;"
has "$tmp/out" "st.release.gpu.s32 [r2], r3"
has "$tmp/out" "ld.acquire.gpu.s32 r1, [r0]"
lacks "$tmp/out" "scopeTree"
cp "$tmp/out" "$tmp/pmp.litmus"
expect 0 "$scopecat" -nohash "$tmp/pmp.litmus"
has "$tmp/out" "Observation mp-0relaxed.gpu-1release.gpu-2acquire.gpu-3relaxed.gpu Never 0 3"
expect 0 "$scopecat" gen -dialect ptx [relaxed.cta]PodWR [relaxed.cta]Fre.cta [relaxed.cta]PodWR [relaxed.cta]Fre.cta
has "$tmp/out" " P0@cta 0,gpu 0              | P1@cta 0,gpu 0              ;"
expect 1 "$scopecat" gen [acquire.gpu]PodWW Rfe PodRR Fre
has "$tmp/err" "[acquire.gpu] does not fit the write that PodWW starts from"

# atoms (Rmw: the read and the write of one atom.exch; the two halves'
# annotations merge).  mp whose reader is an acquire atom: with a release
# flag write it synchronises (Never), with a relaxed one it does not
expect 0 "$scopecat" gen PodWW Rfe Rmw PodWR Fre
has "$tmp/out" "atom.exch.b32 r1, [r0], 2"
has "$tmp/out" "exists (1:r1=1 /\\ 1:r3=0 /\\ y=2)"
model=ptx-v6.0.cat
verdict Never RWR.fr_WW.rf+po+rmw-po-0relaxed.gpu-1release.gpu-2acquire.gpu-3relaxed.gpu-4relaxed.gpu \
  [relaxed.gpu]PodWW [release.gpu]Rfe [acquire.gpu]Rmw [relaxed.gpu]PodWR [relaxed.gpu]Fre
verdict Sometimes RWR.fr_WW.rf+po+rmw-po-0relaxed.gpu-1relaxed.gpu-2acquire.gpu-3relaxed.gpu-4relaxed.gpu \
  [relaxed.gpu]PodWW [relaxed.gpu]Rfe [acquire.gpu]Rmw [relaxed.gpu]PodWR [relaxed.gpu]Fre
model=
expect 0 "$scopecat" gen [acquire.gpu]Rmw [release.gpu]PodWR Fre PodWW Rfe
has "$tmp/out" "atom.acq_rel.gpu.exch.b32"
expect 1 "$scopecat" gen [ca]Rmw PodWR Fre PodWW Rfe
has "$tmp/err" "[ca] does not fit the atom of Rmw"
expect 1 "$scopecat" gen Rfe Rmw Coe
has "$tmp/err" "orders every write of x after another"

# the modern family: every cycle up to 4 edges of ptx/families/modern.edges
# in the PTX dialect round-trips, simulates under ptx-v6.0.cat, and a
# sample assembles
modern="$srcdir/ptx/families/modern.edges"
expect 0 "$scopecat" gen -dialect ptx -size 4 -edges "$modern" -o "$tmp/mod"
has "$tmp/err" "1094 tests from 27 edges, cycles up to 4"
expect 0 "$scopecat" parse -check "$tmp/mod"
has "$tmp/out" "round trip: 1094 tests, 0 failed"
expect 0 "$scopecat" parse -summary "$tmp/mod"
if [ "$(grep -c ': PTX, ' "$tmp/out")" -eq 1094 ]; then ok; else fail "not all PTX"; fi
# ... each printed again in its dialect is the same text
for f in $(ls "$tmp/mod"/*.litmus | awk 'NR % 50 == 1'); do
  "$scopecat" gen -dialect ptx $(sed -n 's/^"cycle: \(.*\)"$/\1/p' "$f") >"$tmp/again.litmus"
  if cmp -s "$f" "$tmp/again.litmus"; then ok; else fail "$f: not regenerated the same"; fi
done
expect 0 "$scopecat" sim -nohash -j 2 "$tmp/mod"
n=$(grep -c '^Observation ' "$tmp/out")
if [ "$n" -eq 1094 ]; then ok; else fail "simulated $n of 1094 PTX tests"; fi
# (a regression count: 230 allowed under ptx-v6.0.cat)
n=$(grep -c '^Observation .* Sometimes ' "$tmp/out")
if [ "$n" -eq 230 ]; then ok; else fail "$n allowed, not 230"; fi
if grep -q '^#define HAVE_CUDA 1' "$builddir/config.h" 2>/dev/null; then
  bad=0
  assemble_sample "$tmp/mod" 37
  # and atoms with semantics and scope
  "$scopecat" gen -dialect ptx [relaxed.gpu]PodWW [release.gpu]Rfe [acquire.gpu]Rmw [release.gpu]PodWR [relaxed.gpu]Fre >"$tmp/a.litmus"
  "$scopecat" parse "$tmp/a.litmus" | awk -f "$srcdir/tests/sh/ptx_kernel.awk" >"$tmp/k.ptx"
  "$ptxas" -arch=sm_90 "$tmp/k.ptx" -o "$tmp/k.cubin" || bad=$((bad + 1))
  if [ "$bad" -eq 0 ]; then ok; else fail "ptxas rejected $bad PTX tests"; fi
else
  echo "SKIP: ptxas (built without CUDA)"
fi

# the H100 selection (ptx/families/h100/) is what ptx/results/H100-family/family.sh
# selects from the family, file for file
(cd "$srcdir" && SCOPECAT="$scopecat" sh ptx/results/H100-family/family.sh select "$tmp/h100") >"$tmp/out" 2>"$tmp/err"
has "$tmp/out" "family.sh: 305 tests in $tmp/h100"
if diff -r -x README.md "$srcdir/ptx/families/h100" "$tmp/h100" >/dev/null; then ok
else fail "ptx/families/h100 differs from what family.sh selects"; fi

# without -edges, -size takes the dialect's bundled edges, as diy has a
# default set of relaxations: asplos15.edges for GPU_PTX, modern.edges for
# -dialect ptx; gen -help names the folder
families="$srcdir/ptx/families"
expect 0 "$scopecat" gen -size 4 -o "$tmp/default"
has "$tmp/err" "756 tests from 27 edges, cycles up to 4"
expect 0 "$scopecat" gen -size 4 -edges "$families/asplos15.edges" -o "$tmp/asplos15"
if diff -r "$tmp/default" "$tmp/asplos15" >/dev/null; then ok
else fail "gen -size 4 without -edges is not asplos15.edges"; fi
expect 0 "$scopecat" gen -dialect ptx -size 4 -o "$tmp/default-ptx"
expect 0 "$scopecat" gen -dialect ptx -size 4 -edges "$families/modern.edges" -o "$tmp/modern"
if diff -r "$tmp/default-ptx" "$tmp/modern" >/dev/null; then ok
else fail "gen -dialect ptx -size 4 without -edges is not modern.edges"; fi
expect 0 "$scopecat" gen -help
has "$tmp/out" "default: asplos15.edges,"
expect 2 "$scopecat" gen -edges "$families/asplos15.edges"

finish
