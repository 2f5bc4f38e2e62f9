#!/bin/sh
# co.sh: the coherence order (co) a model sees follows the model, not the
# test's dialect: herd's total co unless the model rebinds co from the one
# it is given (Dat3M's PTX models: `let co = co+`), or -co says otherwise.
#   - a model written in herd's style (sc.cat, rmo.cat, ptx-rmo.cat and a
#     user's SC-per-CTA model, tests/data/co/sc-per-cta.cat) gives every
#     PTX-dialect test of ptx/dat3m the same block as its GPU_PTX text
#     (`parse -dialect gpu_ptx`), Hash aside (the dialect is part of it);
#   - tests worked out by hand: CoWW_ (one thread writes x=1 then x=2:
#     sequential consistency forbids x=1 finally) and two CAS 0->1 on one
#     lock (atomicity lets one succeed), under both engines;
#   - -v and -json say which co and why; -co total|partial overrides.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

data="$srcdir/tests/data/co"
coww="$srcdir/ptx/dat3m/Manual/CoWW_.litmus"

# ---- every PTX-dialect test of ptx/dat3m and its GPU_PTX text ----------
find "$srcdir/ptx/dat3m" -name '*.litmus' | LC_ALL=C sort >"$tmp/ptx.list"
mkdir "$tmp/gpu"
n=0 unsaid=0
: >"$tmp/gpu.list"
while read -r f; do
  n=$((n + 1))
  g="$tmp/gpu/$n.litmus"
  if "$scopecat" parse -dialect gpu_ptx "$f" >"$g" 2>"$tmp/parse.err"; then
    head -n 1 "$g" | grep -q '^GPU_PTX ' && ok || fail "$f: not printed as GPU_PTX"
    echo "$f" >>"$tmp/said.list"
    echo "$g" >>"$tmp/gpu.list"
  else
    unsaid=$((unsaid + 1))
    echo "not expressible in GPU_PTX: $f: $(cat "$tmp/parse.err")"
  fi
done <"$tmp/ptx.list"
echo "$n PTX-dialect tests, $unsaid not expressible in GPU_PTX"
[ "$n" -gt 700 ] && ok || fail "expected the whole ptx/dat3m corpus, found $n tests"

# the blocks without Hash and Time lines
blocks() { grep -v -e '^Hash=' -e '^Time '; }
for model in "$srcdir/cat/sc.cat" "$srcdir/cat/rmo.cat" "$srcdir/cat/ptx-rmo.cat" \
             "$data/sc-per-cta.cat"; do
  name=$(basename "$model")
  # shellcheck disable=SC2046 # one argument per file, no spaces in them
  "$scopecat" -nohash -timeout 60 -model "$model" $(cat "$tmp/said.list") \
    2>"$tmp/ptx.err" | blocks >"$tmp/ptx.out"
  # shellcheck disable=SC2046
  "$scopecat" -nohash -timeout 60 -model "$model" $(cat "$tmp/gpu.list") \
    2>"$tmp/gpu.err" | blocks >"$tmp/gpu.out"
  if cmp -s "$tmp/ptx.out" "$tmp/gpu.out" && [ -s "$tmp/ptx.out" ] &&
     [ ! -s "$tmp/ptx.err" ] && [ ! -s "$tmp/gpu.err" ]; then
    ok
  else
    fail "$name: the PTX-dialect tests and their GPU_PTX texts differ:"
    diff "$tmp/ptx.out" "$tmp/gpu.out" | head -20
    cat "$tmp/ptx.err" "$tmp/gpu.err" | head -5
  fi
  blocks=$(grep -c '^Observation ' "$tmp/ptx.out")
  [ "$blocks" -eq "$(wc -l <"$tmp/said.list")" ] && ok ||
    fail "$name: expected a block per test, found $blocks"
done

# ---- worked by hand, under both engines (smt when the build has Z3) -----
engines="enum"
"$scopecat" -engine smt "$coww" >/dev/null 2>&1 && engines="enum smt"
for engine in $engines; do
  # CoWW_: co is total, x=1 then x=2 in po: uniproc (po-loc | com acyclic)
  # keeps the one co where x=2 is last: States 1, x=2; Never.
  for model in "$srcdir/cat/sc.cat" "$srcdir/cat/rmo.cat" "$srcdir/cat/ptx-rmo.cat" \
               "$data/sc-per-cta.cat"; do
    expect 0 "$scopecat" -engine "$engine" -model "$model" "$coww"
    has "$tmp/out" "States 1"
    has "$tmp/out" "x=2;"
    lacks "$tmp/out" "x=1;"
    has "$tmp/out" "Observation CoWW Never 0 1"
  done
  # two CAS 0->1: both read 0 only if each write comes co-after the other's
  # read of the initial value, which (fr & ext);(co & ext) then links: the
  # atomicity axiom forbids it; the two states where one of them wins stay.
  for model in "$srcdir/cat/sc.cat" "$data/sc-per-cta.cat"; do
    expect 0 "$scopecat" -engine "$engine" -model "$model" "$data/two-cas.litmus"
    has "$tmp/out" "States 2"
    lacks "$tmp/out" "0:r0=0; 1:r0=0;"
    has "$tmp/out" "Observation two-cas Never"
  done
  # -co partial gives sc.cat Dat3M's co: the two writes may stay unordered,
  # so each CAS may come last and both may read 0 (what sc.cat said before
  # the co followed the model)
  expect 0 "$scopecat" -engine "$engine" -co partial -model "$data/sc-per-cta.cat" \
    "$data/two-cas.litmus"
  has "$tmp/out" "0:r0=0; 1:r0=0;"
  # -co total gives Dat3M's model herd's co: the same verdict on CoWW_
  expect 0 "$scopecat" -engine "$engine" -co total "$coww"
  has "$tmp/out" "Observation CoWW Never"
done

# ---- which co, and why: -v and -json --------------------------------------
expect 0 "$scopecat" -v -model "$srcdir/cat/sc.cat" "$coww"
has "$tmp/err" "test CoWW: co total (herd's: the model does not rebind co)"
expect 0 "$scopecat" -v -model "$srcdir/cat/ptx-v6.0.cat" "$coww"
has "$tmp/err" "test CoWW: co partial (the model rebinds co at $srcdir/cat/ptx-v6.0.cat:24)"
expect 0 "$scopecat" -v -model "$srcdir/cat/ptx-v7.5.cat" "$coww"
has "$tmp/err" "co partial (the model rebinds co at $srcdir/cat/ptx-v7.5.cat:38)"
# herd's own sc.cat makes its co with `with co from` (cos.cat): total
expect 0 "$scopecat" -v -model "$srcdir/tests/data/herd/sc.cat" "$coww"
has "$tmp/err" "co total (herd's: the model binds its own co at $srcdir/tests/data/herd/cos-no-opt.cat:7)"
expect 0 "$scopecat" -v -variant cos-opt -model "$srcdir/tests/data/herd/sc.cat" "$coww"
has "$tmp/err" "cos-ok-opt.cat:34)"
expect 0 "$scopecat" -v -co partial -model "$srcdir/cat/sc.cat" "$coww"
has "$tmp/err" "co partial (-co partial)"
expect 0 "$scopecat" -json -model "$srcdir/cat/sc.cat" "$coww"
has "$tmp/out" '"co":"total","co_reason":"herd'"'"'s: the model does not rebind co"'
expect 0 "$scopecat" -json -model "$srcdir/cat/ptx-v6.0.cat" "$coww"
has "$tmp/out" '"co":"partial","co_reason":"the model rebinds co at '
expect 2 "$scopecat" -co sometimes "$coww"
has "$tmp/err" "-co expects model, total or partial, found 'sometimes'"
expect 2 "$scopecat" parse -dialect herd "$coww"
has "$tmp/err" "-dialect expects gpu_ptx or ptx, found 'herd'"

finish
