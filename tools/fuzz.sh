#!/bin/bash
# tools/fuzz.sh: build and run the libFuzzer harnesses of tests/fuzz/ (issue 9).
#
#   tools/fuzz.sh build                  build fuzz-build/fuzz_{gpu_ptx,ptx,cat,hist,
#                                        verdicts,run,drf}
#   tools/fuzz.sh run NAME SECONDS [ARG]  fuzz one harness for SECONDS; extra
#                                        arguments go to libFuzzer
#   tools/fuzz.sh replay [NAME...]       run each harness once over its
#                                        regression inputs (tests/fuzz/regress/NAME)
#   tools/fuzz.sh minimize NAME CRASH    minimise a crash input into
#                                        tests/fuzz/regress/NAME/
#
# The library is compiled from lib/*/*.c with clang (-fsanitize=fuzzer-no-link,
# address,undefined) into fuzz-build/, apart from the autotools build, so that
# fuzzing needs no reconfiguration.  CC picks the compiler (default: clang-14,
# or clang).  The run keeps the inputs it finds in fuzz-build/corpus-NAME,
# reads the seeds from the source tree, and writes crashes to
# fuzz-build/artifacts-NAME/.  Run it niced on a shared machine:
#   nice -n 19 tools/fuzz.sh run cat 1800 > /tmp/fuzz-cat.log 2>&1
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${SC_FUZZ_BUILD:-$top/fuzz-build}
names=(gpu_ptx ptx cat hist verdicts run drf)

die() { printf 'fuzz: error: %s\n' "$*" >&2; exit 1; }

pick_cc() {
    local c
    for c in "${CC:-}" clang-14 /usr/lib/llvm-14/bin/clang clang; do
        [[ -n $c ]] && command -v "$c" >/dev/null 2>&1 && { echo "$c"; return; }
    done
    die "no clang found (libFuzzer needs clang; Debian: apt-get install clang)"
}

# Seed folders of each harness, relative to the source tree.
seeds() {
    case $1 in
    gpu_ptx) echo ptx/herd-gpu-ptx ptx/seeds ptx/gpu-shapes ptx/results/titan/tests \
                  tests/data/malformed ;;
    ptx)     echo ptx/dat3m ptx/modern ;;
    cat)     echo cat tests/data ;;
    hist)    echo ptx/results tests/data/malformed/logs ;;
    verdicts) echo tests/fuzz/seeds/verdicts ;;
    run)     echo ptx/seeds tests/data/limits ptx/dat3m/Nvidia ;;
    drf)     echo tests/data/drf ;;
    *)       die "no harness '$1' (one of: ${names[*]})" ;;
    esac
}

# The CLI files a harness of CLI code compiles in beside the library.
cli_sources() {
    case $1 in
    drf) echo "$top/tools/gpu/drf_trace.c $top/tools/gpu/drf_params.c $top/tools/cli.c" ;;
    esac
}

build() {
    local cc flags f o objs=() need
    cc=$(pick_cc)
    mkdir -p "$out/obj"
    # no Graphviz in fuzz builds (report/render.c reports it); Z3 where
    # there is one (the engine's stand-in without it does not link); the
    # file is rewritten only when it changes, so objects stay fresh
    local config="" libs=()
    if pkg-config --exists z3 2>/dev/null; then
        config="#define HAVE_Z3 1"
        read -ra libs <<<"$(pkg-config --libs z3)"
    fi
    [[ -f $out/config.h && $(cat "$out/config.h") == "$config" ]] ||
        printf '%s\n' "$config" >"$out/config.h"
    flags=(-std=c11 -g -O1 -fno-omit-frame-pointer -Wall -Wextra
           -fsanitize=address,undefined -fno-sanitize-recover=all
           -I"$top/include" -I"$top/lib" -I"$top/harness" -I"$top/tools"
           -I"$top/tools/gpu" -I"$out")
    for f in "$top"/lib/*/*.c; do
        # lib/LAYER/NAME.c: two layers may have a file of one name (lex.c)
        o=$out/obj/$(basename "$(dirname "$f")")_$(basename "${f%.c}").o
        objs+=("$o")
        [[ $o -nt $f && $o -nt $top/include/scopecat.h && $o -nt $out/config.h ]] &&
            continue
        need=1
        "$cc" "${flags[@]}" -fsanitize=fuzzer-no-link -c "$f" -o "$o" &
        # two compilers at a time: the machine is shared
        (($(jobs -r | wc -l) < 2)) || wait -n
    done
    wait
    for f in "${names[@]}"; do
        echo "fuzz: $out/fuzz_$f"
        "$cc" "${flags[@]}" -fsanitize=fuzzer \
            -DSC_FUZZ_SRCDIR="\"$top\"" -DSC_FUZZ_CATDIR="\"$top/cat\"" \
            "$top/tests/fuzz/fuzz_$f.c" $(cli_sources "$f") "${objs[@]}" \
            $(pkg-config --libs bdw-gc libpcre2-8) "${libs[@]}" -lm -o "$out/fuzz_$f"
    done
    : "${need:=0}"
}

# libFuzzer options every run shares: an input that takes 10 s is a hang.
common=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1)

run() {
    local name=$1 secs=$2; shift 2
    local s dirs=()
    [[ -x $out/fuzz_$name ]] || die "build first: tools/fuzz.sh build"
    for s in $(seeds "$name"); do dirs+=("$top/$s"); done
    [[ -d $top/tests/fuzz/regress/$name ]] && dirs+=("$top/tests/fuzz/regress/$name")
    mkdir -p "$out/corpus-$name" "$out/artifacts-$name"
    cd "$out"
    exec "./fuzz_$name" "${common[@]}" -max_total_time="$secs" -max_len=65536 \
        -dict="$top/tests/fuzz/$name.dict" -artifact_prefix="$out/artifacts-$name/" \
        "$@" "corpus-$name" "${dirs[@]}"
}

replay() {
    local name dir
    (($#)) || set -- "${names[@]}"
    for name in "$@"; do
        dir=$top/tests/fuzz/regress/$name
        [[ -d $dir ]] || continue
        "$out/fuzz_$name" "${common[@]}" "$dir"/*
    done
}

minimize() {
    local name=$1 crash=$2
    mkdir -p "$top/tests/fuzz/regress/$name"
    "$out/fuzz_$name" "${common[@]}" -minimize_crash=1 -runs=20000 \
        -exact_artifact_path="$top/tests/fuzz/regress/$name/$(basename "$crash")" "$crash"
}

cmd=${1:-}
shift || true
case $cmd in
build)    build ;;
run)      (($# >= 2)) || die "usage: tools/fuzz.sh run NAME SECONDS [libFuzzer args]"; run "$@" ;;
replay)   replay "$@" ;;
minimize) (($# == 2)) || die "usage: tools/fuzz.sh minimize NAME CRASH"; minimize "$@" ;;
*)        die "usage: tools/fuzz.sh build|run|replay|minimize (see the header)" ;;
esac
