#!/bin/bash
# ptx-rebuild.sh: rebuild a CUDA program from an edited PTX file, the
# -build command of `scopecat gpu app -fences` (doc/apps.md) for programs
# whose kernels are launched with <<<>>> and so are compiled into the
# program.  nvcc compiles a .cu in steps (cudafe++ and cicc make the PTX,
# ptxas the cubin, fatbinary the embedded image, the host compiler and the
# linker the program); `prepare` builds the program once keeping every
# intermediate file (-keep) and records the steps (-dryrun), `build`
# puts the given PTX where cicc wrote its own and replays the steps after
# cicc.
#   ptx-rebuild.sh prepare DIR NVCC NVCC-ARGS...  (writes DIR/original.ptx)
#   ptx-rebuild.sh build DIR PTX
# For example, with a program made by `nvcc -O3 -arch=sm_90 -cudart shared
# -o app app.cu`:
#   ptx-rebuild.sh prepare k /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 \
#     -cudart shared -o app app.cu
#   scopecat gpu app -fences -ptx k/original.ptx \
#     -build 'ptx-rebuild.sh build k {ptx}' -- ./app
# One .cu file and one GPU architecture (one cicc step).
set -eu

usage() {
  echo "usage: ptx-rebuild.sh prepare DIR NVCC NVCC-ARGS... | build DIR PTX" >&2
  exit 2
}

[ $# -ge 3 ] || usage
mode=$1 dir=$2
shift 2
case $mode in
prepare)
  nvcc=$1
  shift
  mkdir -p "$dir"
  "$nvcc" -keep -keep-dir "$dir" "$@"
  # the steps as nvcc lists them ("#$ CMD"), without its variable settings
  "$nvcc" -keep -keep-dir "$dir" -dryrun "$@" 2>&1 |
    sed -n 's/^#\$ //p' | grep -Ev '^[A-Za-z_][A-Za-z0-9_]*=' >"$dir/steps"
  # cicc's output: the PTX the later steps read
  ptx=$(grep -E '(^|/)cicc ' "$dir/steps" | sed -n 's/.* -o "\{0,1\}\([^" ]*\.ptx\)"\{0,1\}.*/\1/p')
  if [ -z "$ptx" ] || [ "$(grep -cE '(^|/)cicc ' "$dir/steps")" -ne 1 ]; then
    echo "ptx-rebuild.sh: expected one cicc step writing a .ptx in $dir/steps" >&2
    exit 1
  fi
  printf '%s\n' "$ptx" >"$dir/ptx-path"
  printf '%s\n' "$(dirname "$nvcc")" >"$dir/nvcc-dir"
  cp "$ptx" "$dir/original.ptx"
  ;;
build)
  [ -f "$dir/steps" ] || { echo "ptx-rebuild.sh: $dir: run prepare first" >&2; exit 1; }
  cp "$1" "$(cat "$dir/ptx-path")"
  # ptxas and fatbinary are found where nvcc is, as nvcc finds them
  PATH=$(cat "$dir/nvcc-dir"):$PATH
  sed -n '/\(^\|\/\)cicc /,$p' "$dir/steps" | tail -n +2 >"$dir/replay"
  sh -e "$dir/replay"
  ;;
*)
  usage
  ;;
esac
