# setup.sh: what the GPU scripts of examples/apps/ share, sourced once
# they have set NVCC and OUT: the programs and the interposer find
# libcudart.so where nvcc's is; BIN is a temporary folder, removed at
# exit; OUT is made, and OUT/machine.txt says which GPU, driver and nvcc
# made its logs (MACHINE=0: not written).
export LD_LIBRARY_PATH=$(dirname "$NVCC")/../lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
BIN=$(mktemp -d)
trap 'rm -rf "$BIN"' EXIT
mkdir -p "$OUT"
[ "${MACHINE:-1}" = 0 ] ||
  { nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    "$NVCC" --version | tail -2; } >"$OUT/machine.txt" 2>&1
