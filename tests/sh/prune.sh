#!/bin/sh
# prune.sh: cutting branches early (lib/sim/engine_enum.c, lib/cat/mono.c) changes
# nothing scopecat reports.  The same tests run with the cuts and without
# (-noprune) must print the same blocks (the Time lines aside),
# the same JSON (the count of candidates and the time aside) and the same
# drawings; and small families whose counts are worked out by hand below
# give those counts.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

# same NAME ARGS...: the output of scopecat ARGS with and without cuts
same() {
  name=$1
  shift
  "$scopecat" "$@" >"$tmp/cut" 2>"$tmp/cut.err"
  "$scopecat" -noprune "$@" >"$tmp/full" 2>"$tmp/full.err"
  sed -e '/^Time /d' -e 's/"candidates":[0-9]*,"time":[0-9.]*//' "$tmp/cut" >"$tmp/cut.s"
  sed -e '/^Time /d' -e 's/"candidates":[0-9]*,"time":[0-9.]*//' "$tmp/full" >"$tmp/full.s"
  if [ -s "$tmp/cut.s" ] && cmp -s "$tmp/cut.s" "$tmp/full.s" &&
     cmp -s "$tmp/cut.err" "$tmp/full.err"; then
    ok
  else
    fail "$name: the outputs with and without cuts differ"
    diff "$tmp/cut.s" "$tmp/full.s" | head -20
  fi
}

seeds="$srcdir/ptx/seeds"
d="$srcdir/ptx/dat3m"
same "seeds" -nohash -j 2 "$seeds"
same "herd-gpu-ptx" -nohash -j 2 "$srcdir/ptx/herd-gpu-ptx"
same "seeds under sc.cat" -nohash -model "$srcdir/cat/sc.cat" "$seeds"
same "seeds, json" -json -nohash "$seeds"
same "seeds with a bell file" -nohash -bell "$srcdir/tests/data/scopes.bell" "$seeds"
# a sample of Dat3M's corpus under both of its models: message passing,
# coherence, fences, barriers, proxies, rmw loops (partial co)
sample="$d/Manual/MICRO24-Fig4b.litmus $d/Manual/MICRO24-Fig4b-correct.litmus
  $d/Manual/CoRR-weak-acquire.litmus $d/Manual/CoWW-RR.litmus
  $d/Manual/Coherence.litmus $d/Manual/LB+RMW-a.litmus
  $d/Nvidia/Atom-SB.litmus $d/Nvidia/Co-Total-3-threads-scope-diff.litmus
  $d/CADP/2_threads_3_instructions/4_simple.litmus
  $(ls "$d"/Barrier/*.litmus | head -4) $(ls "$d"/Memalloy/*.litmus | head -4)"
# shellcheck disable=SC2086 # one word per file
same "dat3m sample, v6.0" -nohash -j 2 -model "$srcdir/cat/ptx-v6.0.cat" $sample
# shellcheck disable=SC2086
same "dat3m sample, v7.5" -nohash -j 2 -model "$srcdir/cat/ptx-v7.5.cat" $sample
# the drawings of every execution kept, in the same order
mkdir "$tmp/a" "$tmp/b"
"$scopecat" -nohash -show all -o "$tmp/a" "$seeds" "$d/Manual/MICRO24-Fig4b.litmus" >/dev/null 2>&1
"$scopecat" -noprune -nohash -show all -o "$tmp/b" "$seeds" \
  "$d/Manual/MICRO24-Fig4b.litmus" >/dev/null 2>&1
if [ -n "$(ls "$tmp/a")" ] && diff -r "$tmp/a" "$tmp/b" >/dev/null; then ok; else
  fail "the drawings with and without cuts differ"; fi

# ---- Counts worked out by hand -------------------------------------------------

# writers N: threads P0..P(N-1), Pi stores i+1 to x; exists (x=1)
writers() {
  n=$1
  {
    echo "GPU_PTX W$n"
    echo "{"
    echo "x=0;"
    i=0
    while [ "$i" -lt "$n" ]; do echo "$i:.reg .b64 r8 = x;"; i=$((i + 1)); done
    echo "}"
    i=0 head="" row=""
    while [ "$i" -lt "$n" ]; do
      head="$head P$i |"; row="$row st.cg.s32 [r8],$((i + 1)) |"; i=$((i + 1))
    done
    echo "${head%|};"
    echo "${row%|};"
    echo "exists (x=1)"
  } >"$tmp/W$n.litmus"
}

# count FILE FIELD [ARGS]: the JSON field of the run with cuts
count() {
  f=$1 field=$2
  shift 2
  "$scopecat" -json "$@" "$f" | sed "s/.*\"$field\":\\([0-9]*\\).*/\\1/"
}

# want WHAT GOT EXPECTED
want() {
  if [ "$2" = "$3" ]; then ok; else fail "$1: $2, expected $3"; fi
}

# Three writers under ptx-rmo.cat: co is total (GPU_PTX), 3! = 6 orders and
# nothing else to choose; with no po and no reads every order is allowed
# and nothing can be cut: 6 candidates, 6 executions, x ends with each
# value in the 2 orders that put its write last.
writers 3
want "W3 candidates" "$(count "$tmp/W3.litmus" candidates)" 6
want "W3 positive" "$(count "$tmp/W3.litmus" positive)" 2
want "W3 negative" "$(count "$tmp/W3.litmus" negative)" 4
"$scopecat" -nohash "$tmp/W3.litmus" >"$tmp/out"
has "$tmp/out" "x=3;"
has "$tmp/out" "Positive: 2 Negative: 4"

# Two stores in one thread and two loads in another, under sc.cat:
#   P0: st x,1 ; st x,2    P1: ld r0,x ; ld r1,x
# Full enumeration: each load reads one of 3 writes (9 rf) times 2 co
# orders = 18 candidates.  SC allows co 1<2 only, and the loads see x
# grow: r0 <= r1 in the order 0 < 1 < 2, 6 executions.
# With cuts: the stores' values are distinct, so each choice of the values
# the loads read (9 combinations of traces) fixes rf, and each combination
# is looked at once before co is chosen, with co known only to start at
# the initial write.  po | rf | co | fr (and po-loc | ...) already has a
# cycle when r1 reads 0 (fr takes r1 to both stores) and r0 reads 1 or 2
# (st -rf-> r0 -po-> r1 -fr-> st): 2 combinations cut, 7 left, each with
# its 2 orders of co: 14 candidates (the order 2<1 fails only on complete
# candidates: a total order of two writes has no partial step).
cat >"$tmp/two.litmus" <<'EOF'
GPU_PTX two-stores-two-loads
{
x=0;
0:.reg .b64 r8 = x;
1:.reg .b64 r8 = x;
1:.reg .s32 r0;
1:.reg .s32 r1;
}
 P0                | P1                ;
 st.cg.s32 [r8],1  | ld.cg.s32 r0,[r8] ;
 st.cg.s32 [r8],2  | ld.cg.s32 r1,[r8] ;
exists (1:r0=2 /\ 1:r1=1)
EOF
sc="$srcdir/cat/sc.cat"
want "two: candidates without cuts" \
  "$("$scopecat" -noprune -json -model "$sc" "$tmp/two.litmus" |
     sed 's/.*"candidates":\([0-9]*\).*/\1/')" 18
want "two: candidates with cuts" "$(count "$tmp/two.litmus" candidates -model "$sc")" 14
want "two: allowed" "$(count "$tmp/two.litmus" negative -model "$sc")" 6
want "two: positive" "$(count "$tmp/two.litmus" positive -model "$sc")" 0

finish
