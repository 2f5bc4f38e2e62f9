#!/bin/sh
# place-test.sh: a litmus test of Dat3M's PTX dialect rewritten with its
# threads placed in a scope tree.  The dialect places a thread only in a
# CTA ("P0@cta 0,gpu 0"); the placement given here puts each thread in a
# warp, a CTA and a kernel of one device, as a GPU_PTX scopeTree line
# before the condition.  The code is left as it is.  Used by
# progress-vulkan.sh (Dat3M's Vulkan placements) and progress-gpu.sh (the
# placements the progress models distinguish on the GPU).
#
# Usage: tools/place-test.sh PLACEMENT IN OUT
#   PLACEMENT  "P0=W,C,K P1=W,C,K ..." (one word a thread, as in
#              ptx/dat3m-placement/placement.tsv): thread P0 in warp W of
#              CTA C of kernel K; ids are labels, equal ids share a group
#              (Vulkan: subgroup, workgroup, queue family)
#   IN, OUT    the test and the file to write (OUT may be -: stdout)
# "P0=0,0,0 P1=0,0,0" -> scopeTree (device (kernel (cta (warp P0 P1))))
# "P0=0,0,0 P1=1,0,0" -> scopeTree (device (kernel (cta (warp P0) (warp P1))))
# "P0=0,0,0 P1=0,1,0" -> scopeTree (device (kernel (cta (warp P0)) (cta (warp P1))))
set -u
if [ $# -ne 3 ]; then
  echo "usage: place-test.sh PLACEMENT IN OUT" >&2
  exit 2
fi
placement=$1 in=$2 out=$3
[ "$out" = - ] && out=/dev/stdout

# The scope tree: kernels, CTAs, warps in order of first appearance.
tree=$(echo "$placement" | tr ' ' '\n' | awk -F'[=,]' '
  NF != 4 || $1 !~ /^P[0-9]+$/ {
    printf "place-test.sh: expected THREAD=WARP,CTA,KERNEL, not \"%s\"\n", $0 > "/dev/stderr"
    bad = 1; exit 2 }
  { sg[$1] = $2; wg[$1] = $3; qf[$1] = $4; order[++n] = $1 }
  END {
    if (bad) exit 2
    out = "scopeTree (device"
    for (i = 1; i <= n; i++) { t = order[i]; if (seenq[qf[t]]++) continue
      out = out " (kernel"
      for (j = 1; j <= n; j++) { u = order[j]; if (qf[u] != qf[t] || seenw[wg[u]]++) continue
        out = out " (cta"
        for (k = 1; k <= n; k++) { v = order[k]; if (wg[v] != wg[u] || qf[v] != qf[t] || seens[sg[v]]++) continue
          out = out " (warp"
          for (l = 1; l <= n; l++) { x = order[l]
            if (sg[x] == sg[v] && wg[x] == wg[u] && qf[x] == qf[t]) out = out " " x }
          out = out ")" }
        delete seens
        out = out ")" }
      delete seenw
      out = out ")" }
    print out ")" }') || exit 2

# The CTA annotations go, the tree comes before the condition.
awk -v tree="$tree" '
  /@cta [0-9]+,gpu [0-9]+/ { gsub(/@cta [0-9]+,gpu [0-9]+/, "") }
  /^(exists|forall|~exists|~ *exists|locations|filter)/ && !done { print tree; done = 1 }
  { print }' "$in" >"$out"
