#!/bin/bash
# tools/herd7-build.sh: build herd7 from herdtools7's sources with Debian's
# OCaml, for the side-by-side benchmark (tools/bench.sh, uni-herd7 family).
#   tools/herd7-build.sh SRC PREFIX [BINDIR]
# SRC: a herdtools7 git repository (a clone, or a bare one) or an unpacked
# source tree; the tag built is HERD7_TAG (default 7.57: the newest whose
# build needs no more than Debian bookworm's OCaml 4.13 and dune 2.9; 7.58
# and later ask for dune 3).  PREFIX: where the tree is unpacked and built
# (outside the project's checkout); the binary is copied to BINDIR/herd7
# (default PREFIX/bin).  Needs: apt-get install ocaml ocaml-dune menhir
# libmenhir-ocaml-dev libzarith-ocaml-dev
set -euo pipefail
src=${1:?usage: tools/herd7-build.sh SRC PREFIX [BINDIR]}
prefix=${2:?usage: tools/herd7-build.sh SRC PREFIX [BINDIR]}
bindir=${3:-$prefix/bin}
tag=${HERD7_TAG:-7.57}
for tool in ocamlfind dune menhir; do
  command -v "$tool" >/dev/null || [[ $tool = ocamlfind ]] ||
    { echo "herd7-build: no $tool (apt-get install ocaml ocaml-dune menhir libmenhir-ocaml-dev libzarith-ocaml-dev)" >&2; exit 2; }
done
mkdir -p "$prefix" "$bindir"
tree=$prefix/herdtools7-$tag
if [[ ! -d $tree ]]; then
  if git --git-dir="$src" rev-parse --verify -q "$tag^{commit}" >/dev/null 2>&1; then
    mkdir -p "$tree.tmp"
    git --git-dir="$src" archive --format=tar "$tag" | tar -x -C "$tree.tmp"
  elif git -C "$src" rev-parse --verify -q "$tag^{commit}" >/dev/null 2>&1; then
    mkdir -p "$tree.tmp"
    git -C "$src" archive --format=tar "$tag" | tar -x -C "$tree.tmp"
  elif [[ -f $src/herd/herd.ml ]]; then
    cp -a "$src" "$tree.tmp"
  else
    echo "herd7-build: $src: neither a herdtools7 repository with tag $tag nor a source tree" >&2
    exit 2
  fi
  mv "$tree.tmp" "$tree"
fi
cd "$tree"
# herd7 alone (not the whole of herdtools7); Version.ml names the library
# directory herd7 loads its default models from: PREFIX/share/herdtools7/herd
sh ./version-gen.sh "$prefix"
dune build --profile release -j "${JOBS:-2}" herd/herd.exe
mkdir -p "$prefix/share/herdtools7"
rm -rf "$prefix/share/herdtools7/herd"
cp -r herd/libdir "$prefix/share/herdtools7/herd"
install -m 755 _build/default/herd/herd.exe "$bindir/herd7"
echo "herd7-build: $bindir/herd7 ($("$bindir/herd7" -version)), models in $prefix/share/herdtools7/herd"
