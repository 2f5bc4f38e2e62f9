#!/bin/sh
# Remakes the corpus's .ptx files from its .cu files: one per case of the table below
# (a kernel, its -D variant and its launch), each nvcc's PTX with the case's launch header
# prepended as // comments, so that no test needs nvcc.  Run it after changing a .cu file or
# the table, with CUDA's nvcc on PATH (or NVCC=/path/to/nvcc), and commit the result.
#
# A case's header: the .cu's @Input/@Output lines unless the table gives its own, the
# table's @Config, and @Params naming the kernel's parameters in the .cu's order (nvcc's
# PTX calls them NAME_param_N).  A plain comment line says how the file was made, with the
# defines (tests/sh/kernels.sh reads them to check the .cu files the same way).
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
command -v "$NVCC" >/dev/null 2>&1 || { echo "make-ptx.sh: nvcc not found (set NVCC)" >&2; exit 1; }
NVCC_FLAGS="-ptx -arch=sm_90 -O3 -lineinfo"

A4='A = {-1, -1, -1, -1}'
A8='A = {-1, -1, -1, -1, -1, -1, -1, -1}'
OUT2='forall (out[0] == 2 and out[1] == 2)'
OUT4='forall (out[0] == 4 and out[1] == 4 and out[2] == 4 and out[3] == 4)'
OUT9='forall (out[0] == 9 and out[1] == 9 and out[2] == 9)'

# case | .cu | defines | config | extra @Input (replaces the .cu's for the names it gives) | @Output
cases() {
  cat <<TABLE
caslock-1.1.2|caslock.cu||1, 1, 2||
caslock-2.1.1|caslock.cu||2, 1, 1||
caslock-acq2rx|caslock.cu|-DACQ2RX|2, 1, 1||
caslock-rel2rx|caslock.cu|-DREL2RX|2, 1, 1||
caslock-dv2wg-1.1.2|caslock.cu|-DDV2WG|1, 1, 2||
caslock-dv2wg-2.1.1|caslock.cu|-DDV2WG|2, 1, 1||
caslock-dv2wg-2.2.1|caslock.cu|-DDV2WG|2, 2, 1|$A4|
caslock-dv2wg-2.2.2|caslock.cu|-DDV2WG|2, 2, 2|$A8|
caslock-sc-1.1.2|caslock-sc.cu||1, 1, 2||
caslock-sc-2.1.1|caslock-sc.cu||2, 1, 1||
ticketlock-1.1.2|ticketlock.cu||1, 1, 2||
ticketlock-2.1.1|ticketlock.cu||2, 1, 1||
ticketlock-acq2rx|ticketlock.cu|-DACQ2RX|2, 1, 1||
ticketlock-rel2rx|ticketlock.cu|-DREL2RX|2, 1, 1||
ticketlock-dv2wg-1.1.2|ticketlock.cu|-DDV2WG|1, 1, 2||
ticketlock-dv2wg-2.1.1|ticketlock.cu|-DDV2WG|2, 1, 1||
ticketlock-dv2wg-2.2.1|ticketlock.cu|-DDV2WG|2, 2, 1|$A4|
ticketlock-dv2wg-2.2.2|ticketlock.cu|-DDV2WG|2, 2, 2|$A8|
ttaslock-1.1.2|ttaslock.cu||1, 1, 2||
ttaslock-2.1.1|ttaslock.cu||2, 1, 1||
ttaslock-acq2rx|ttaslock.cu|-DACQ2RX|2, 1, 1||
ttaslock-rel2rx|ttaslock.cu|-DREL2RX|2, 1, 1||
ttaslock-dv2wg-1.1.2|ttaslock.cu|-DDV2WG|1, 1, 2||
ttaslock-dv2wg-2.1.1|ttaslock.cu|-DDV2WG|2, 1, 1||
ttaslock-dv2wg-2.2.1|ttaslock.cu|-DDV2WG|2, 2, 1|$A4|
ttaslock-dv2wg-2.2.2|ttaslock.cu|-DDV2WG|2, 2, 2|$A8|
xf-barrier-1.1.2|xf-barrier.cu||1, 1, 2||$OUT2
xf-barrier-2.1.1|xf-barrier.cu||2, 1, 1||$OUT2
xf-barrier-2.1.2|xf-barrier.cu||2, 1, 2||$OUT4
xf-barrier-3.1.3|xf-barrier.cu||3, 1, 3||$OUT9
xf-barrier-fail1|xf-barrier.cu|-DFAIL1|2, 1, 2||$OUT4
xf-barrier-fail2|xf-barrier.cu|-DFAIL2|2, 1, 2||$OUT4
xf-barrier-fail3|xf-barrier.cu|-DFAIL3|2, 1, 2||$OUT4
xf-barrier-fail4|xf-barrier.cu|-DFAIL4|2, 1, 2||$OUT4
xf-barrier-weakest|xf-barrier.cu|-DFAIL1 -DFAIL2 -DFAIL3 -DFAIL4|2, 1, 2||$OUT4
cbe-lock|cbe-lock.cu||1, 1, 2||
cbe-lock-fence-unlock|cbe-lock.cu|-DFENCE_UNLOCK|1, 1, 2||
cbe-lock-fenced|cbe-lock.cu|-DFENCED|1, 1, 2||
cbe-dot|cbe-dot.cu||2, 1, 2||
cbe-dot-fenced|cbe-dot.cu|-DFENCED|2, 1, 2||
lastblock|lastblock.cu||1, 1, 2||
lastblock-no-fence-before|lastblock.cu|-DNO_FENCE_BEFORE|1, 1, 2||
lastblock-no-fence-after|lastblock.cu|-DNO_FENCE_AFTER|1, 1, 2||
gridbar|gridbar.cu||1, 1, 2||
gridbar-no-fence|gridbar.cu|-DNO_FENCE|1, 1, 2||
gridbar-acqrel|gridbar.cu|-DACQREL|1, 1, 2||
gridbar-2.1.2|gridbar.cu||2, 1, 2|data = {0, 0, 0, 0}, out = {0, 0, 0, 0}|forall (out[0] == 3 and out[1] == 4 and out[2] == 1 and out[3] == 2)
TABLE
}

# The parameter names of the .cu's one __global__ function, in order, comma-separated.
param_names() {
  tr '\n' ' ' <"$1" | sed -e 's/.*__global__[^(]*(//' -e 's/).*//' |
    tr ',' '\n' | sed -e 's/[][ *&]*$//' -e 's/.*[ *&]//' | paste -sd, - | sed 's/,/, /g'
}

# The .cu's header lines of one tag (@Input, @Output).
header_lines() {
  sed -n "s|^// $2:|// $2:|p" "$1"
}

# The .cu's @Input lines, less the names the case gives anew, then the case's own.
input_lines() {
  src=$1 extra=$2
  if [ -z "$extra" ]; then
    header_lines "$src" @Input
    return
  fi
  names=$(printf '%s\n' "$extra" | sed 's/ *= *{[^}]*}//g; s/ *= *[^,]*//g; s/ //g' | tr ',' '|')
  header_lines "$src" @Input | sed 's|^// @Input: *||' | sed 's/}, */}\n/g' |
    grep -Ev "^($names) *=" | paste -sd' ' - | sed 's/} /}, /g; s|^|// @Input: |; /^\/\/ @Input: $/d'
  printf '// @Input: %s\n' "$extra"
}

make_case() {
  name=$1 src=$2 defines=$3 config=$4 extra=$5 output=$6
  tmp=$(mktemp)
  # shellcheck disable=SC2086  # the defines are several words
  "$NVCC" $NVCC_FLAGS $defines "$src" -o "$tmp"
  {
    printf '// case %s: made by make-ptx.sh from %s\n' "$name" "$src"
    printf '// nvcc-flags: %s%s\n' "$NVCC_FLAGS" "${defines:+ $defines}"
    input_lines "$src" "$extra"
    if [ -n "$output" ]; then
      printf '// @Output: %s\n' "$output"
    else
      header_lines "$src" @Output
    fi
    printf '// @Config: %s\n' "$config"
    printf '// @Params: %s\n' "$(param_names "$src")"
    # nvcc names the source by its absolute path: keep only the file name, the .ptx lies
    # beside it.
    sed "s|^\(\t\.file\t[0-9]* \"\)[^\"]*/\($src\"\)|\1\2|" "$tmp"
  } >"$name.ptx"
  rm -f "$tmp"
}

cases | while IFS='|' read -r name src defines config extra output; do
  if [ $# -gt 0 ]; then
    case " $* " in *" $name "*) ;; *) continue ;; esac
  fi
  make_case "$name" "$src" "$defines" "$config" "$extra" "$output"
  echo "make-ptx.sh: $name.ptx"
done
