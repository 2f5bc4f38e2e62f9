#!/bin/bash
# ptx-rebuild.sh: rebuild a CUDA program from an edited PTX file, the
# -build command of `scopecat gpu app -fences` (doc/apps.md) for programs
# whose kernels are launched with <<<>>> and so are compiled into the
# program.  nvcc compiles a .cu in steps (cudafe++ and cicc make the PTX,
# ptxas the cubin, fatbinary the embedded image, the host compiler and the
# linker the program); `prepare` builds the program once keeping every
# intermediate file (-keep) and records the steps (-dryrun), `build`
# puts the given PTX where cicc wrote its own and replays the steps after
# cicc, in the directory prepare ran in (the steps name files relative to
# it).
#   ptx-rebuild.sh prepare DIR NVCC NVCC-ARGS...  (writes DIR/original.ptx)
#   ptx-rebuild.sh build DIR PTX
# For example, with a program made by `nvcc -O3 -arch=sm_90 -cudart shared
# -o app app.cu`:
#   ptx-rebuild.sh prepare k /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 \
#     -cudart shared -o app app.cu
#   scopecat gpu app -fences -ptx k/original.ptx \
#     -build 'ptx-rebuild.sh build k {ptx}' -- ./app
# One .cu file and one GPU architecture (one cicc step).  nvcc up to 12
# lists cicc as `cicc ...`, nvcc 13 as `"$CICC_PATH/cicc" ...`: both are
# read.
set -eu -o pipefail

usage() {
  echo "usage: ptx-rebuild.sh prepare DIR NVCC NVCC-ARGS... | build DIR PTX" >&2
  exit 2
}

# a step that runs cicc: its command word ends in cicc, quoted or not
cicc_step='^"?([^" ]*/)?cicc"? '

[ $# -ge 3 ] || usage
mode=$1 dir=$2
shift 2
case $mode in
prepare)
  nvcc=$(command -v "$1") || { echo "ptx-rebuild.sh: $1: no such nvcc" >&2; exit 1; }
  shift
  mkdir -p "$dir"
  "$nvcc" -keep -keep-dir "$dir" "$@"
  # the steps as nvcc lists them ("#$ CMD"), without its variable settings
  "$nvcc" -keep -keep-dir "$dir" -dryrun "$@" 2>&1 |
    sed -n 's/^#\$ //p' | grep -Ev '^[A-Za-z_][A-Za-z0-9_]*=' >"$dir/steps"
  # cicc's output: the PTX the later steps read
  ptx=$(grep -E "$cicc_step" "$dir/steps" | sed -n 's/.* -o "\{0,1\}\([^" ]*\.ptx\)"\{0,1\}.*/\1/p')
  if [ -z "$ptx" ] || [ "$(grep -cE "$cicc_step" "$dir/steps")" -ne 1 ]; then
    echo "ptx-rebuild.sh: expected one cicc step writing a .ptx in $dir/steps" >&2
    exit 1
  fi
  printf '%s\n' "$ptx" >"$dir/ptx-path"
  printf '%s\n' "$(dirname "$nvcc")" >"$dir/nvcc-dir"
  pwd >"$dir/cwd"
  cp "$ptx" "$dir/original.ptx"
  ;;
build)
  [ -f "$dir/steps" ] || { echo "ptx-rebuild.sh: $dir: run prepare first" >&2; exit 1; }
  dir=$(cd "$dir" && pwd)
  ptx=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  cd "$(cat "$dir/cwd")"
  cp "$ptx" "$(cat "$dir/ptx-path")"
  # ptxas, fatbinary and nvlink are found where nvcc is, as nvcc finds them
  PATH=$(cat "$dir/nvcc-dir"):$PATH
  at=$(grep -nE "$cicc_step" "$dir/steps" | cut -d: -f1)
  tail -n +$((at + 1)) "$dir/steps" >"$dir/replay"
  sh -e "$dir/replay"
  ;;
*)
  usage
  ;;
esac
