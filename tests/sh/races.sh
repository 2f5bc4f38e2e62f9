#!/bin/sh
# races.sh: `sim -races` (the model followed by cat/ptx-race.cat) over the
# litmus tests of tests/data/races, against their hand-worked verdicts
# (tests/data/races/expected.txt, argued in doc/races.md): under
# ptx-v7.5.cat and ptx-v6.0.cat and both engines, data-race and
# shared-race are raised exactly where a racing pair is listed, the
# witness's pair is one of those listed, the engines raise the same flags;
# Dat3M's ttaslock variants (dat3m.txt) race where Dat3M says they do; the
# story's text, the witness drawn with -show, and bad combinations.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

data="$srcdir/tests/data/races"
engines=enum
if "$scopecat" -engine smt "$srcdir/ptx/seeds/coRR.litmus" >"$tmp/probe" 2>&1; then
  engines="enum smt"
elif ! grep -q 'built without Z3' "$tmp/probe"; then
  fail "-engine smt on coRR: $(cat "$tmp/probe")"
fi

# The pair of a story's first line, "FLAG: P0 FILE:LINE st x=42 / P1 ...",
# as expected.txt writes pairs: "P0 st x / P1 ld x".
pair_of() {
  sed -n "s/^$1: //p" "$2" | sed 's/ [^ ]*:[0-9][0-9]* / /g; s/=[^ ]*//g'
}

# check_flag FLAG EXPECTED OUTPUT WHAT: raised exactly when EXPECTED is
# not "-", its witness pair one of EXPECTED's alternatives.
check_flag() {
  if [ "$2" = "-" ]; then
    lacks "$3" "Flag $1"
    lacks "$3" "$1: "
    return
  fi
  has "$3" "Flag $1"
  got=$(pair_of "$1" "$3")
  if printf '%s\n' "$2" | tr '|' '\n' | grep -qxF -- "$got"; then ok; else
    fail "$4: $1 pair '$got', expected one of '$2'"
  fi
}

strip() { sed 's/^ *//; s/ *$//'; }

grep -v '^#' "$data/expected.txt" | while IFS='|' read -r name rest; do
  printf '%s\n' "$name|$rest"
done >"$tmp/rows"
while IFS= read -r row; do
  name=$(printf '%s' "$row" | cut -d'|' -f1 | strip)
  # the data-race column may hold alternatives: fields 2.. up to the last
  fields=$(printf '%s' "$row" | awk -F'|' '{ print NF }')
  shared=$(printf '%s' "$row" | cut -d'|' -f"$fields" | strip)
  drace=$(printf '%s' "$row" | cut -d'|' -f2-"$((fields - 1))" |
    tr '|' '\n' | strip | paste -sd'|' -)
  for model in ptx-v7.5 ptx-v6.0; do
    for engine in $engines; do
      what="$name under $model, -engine $engine"
      expect 0 "$scopecat" sim -races -nohash -model "$srcdir/cat/$model.cat" \
        -engine "$engine" "$data/$name.litmus"
      cp "$tmp/out" "$tmp/$name-$model-$engine"
      check_flag data-race "$drace" "$tmp/out" "$what"
      check_flag shared-race "$shared" "$tmp/out" "$what"
    done
    if [ "$engines" = "enum smt" ]; then
      grep '^Flag ' "$tmp/$name-$model-enum" >"$tmp/flags-enum"
      grep '^Flag ' "$tmp/$name-$model-smt" >"$tmp/flags-smt"
      if cmp -s "$tmp/flags-enum" "$tmp/flags-smt"; then ok; else
        fail "$name under $model: the engines raise different flags"
      fi
    fi
  done
done <"$tmp/rows"
[ -s "$tmp/rows" ] && [ "$(wc -l <"$tmp/rows")" -eq 13 ] && ok ||
  fail "expected.txt: expected 13 tests, found $(wc -l <"$tmp/rows")"

# Dat3M's ttaslock variants: the flag raised exactly where Dat3M's OpenCL
# verdict is FAIL, the pair a listed one, under smt and auto alike.
if [ "$engines" = "enum smt" ]; then
  grep -v '^#' "$data/dat3m.txt" >"$tmp/dat3m"
  while IFS= read -r row; do
    name=$(printf '%s' "$row" | cut -d'|' -f1 | strip)
    dat3m=$(printf '%s' "$row" | cut -d'|' -f2 | strip)
    pairs=$(printf '%s' "$row" | cut -d'|' -f3- | tr '|' '\n' | strip | paste -sd'|' -)
    case $dat3m in PASS) [ "$pairs" = "-" ] ;; FAIL) [ "$pairs" != "-" ] ;; *) false ;; esac ||
      fail "dat3m.txt: $name: Dat3M's $dat3m and the pairs '$pairs' disagree"
    for model in ptx-v7.5 ptx-v6.0; do
      for engine in smt auto; do
        expect 0 "$scopecat" sim -races -nohash -model "$srcdir/cat/$model.cat" \
          -engine "$engine" "$data/$name.litmus"
        check_flag data-race "$pairs" "$tmp/out" "$name under $model, -engine $engine"
        lacks "$tmp/out" "Flag shared-race"
      done
    done
  done <"$tmp/dat3m"
  [ "$(wc -l <"$tmp/dat3m")" -eq 5 ] && ok || fail "dat3m.txt: expected 5 tests"
fi

# Without -races the model flags nothing: the include raises the flags.
expect 0 "$scopecat" sim -nohash -model "$srcdir/cat/ptx-v7.5.cat" "$data/mp-weak.litmus"
lacks "$tmp/out" "Flag data-race"

# The story, whole: the pair named, each thread's accesses in program
# order with file:line, instruction and value, the pair marked; a blank
# line ends it.
expect 0 "$scopecat" sim -races -nohash -engine enum -model "$srcdir/cat/ptx-v7.5.cat" \
  "$data/bar-two-ctas.litmus"
sed -n '/^data-race: /,$p' "$tmp/out" | sed "s|$data/||g" >"$tmp/story"
cat >"$tmp/story.want" <<'EOF'
data-race: P0 bar-two-ctas.litmus:8 st x=42 / P1 bar-two-ctas.litmus:9 ld x=0
  P0:
    bar-two-ctas.litmus:8  st.weak [x], 42           writes x=42  <- data-race
    bar-two-ctas.litmus:9  bar.cta.sync 0
  P1:
    bar-two-ctas.litmus:8  bar.cta.sync 0
    bar-two-ctas.litmus:9  ld.weak r1, [x]           reads x=0  <- data-race

EOF
if diff "$tmp/story.want" "$tmp/story" >"$tmp/diff"; then ok; else
  fail "the story of bar-two-ctas:"; cat "$tmp/diff"
fi

# -show draws the witness, the pair bold; none when nothing races.
expect 0 "$scopecat" sim -races -show neg -nohash -engine enum \
  -model "$srcdir/cat/ptx-v7.5.cat" "$data/shared-relaxed.litmus"
has "$tmp/out" 'digraph "shared-relaxed shared-race"'
has "$tmp/out" 'cycle in shared-race'
lacks "$tmp/out" 'digraph "shared-relaxed data-race"'
expect 0 "$scopecat" sim -races -show all -nohash -model "$srcdir/cat/ptx-v7.5.cat" \
  "$data/mp-rel-acq.litmus"
lacks "$tmp/out" 'race"'

# The test's default model (ptx-v6.0.cat for the PTX dialect) and -j
# workers tell the same races as a sequential run under it.
expect 0 "$scopecat" sim -races -nohash "$data/shared-no-bar.litmus" \
  "$data/mp-rel-acq.litmus" "$data/shared-relaxed.litmus"
grep -v '^Time ' "$tmp/out" >"$tmp/sequential"
has "$tmp/sequential" "shared-race: P0 $data/shared-relaxed.litmus:9 st x=42"
expect 0 "$scopecat" sim -races -nohash -j 2 "$data/shared-no-bar.litmus" \
  "$data/mp-rel-acq.litmus" "$data/shared-relaxed.litmus"
grep -v '^Time ' "$tmp/out" >"$tmp/parallel"
if cmp -s "$tmp/sequential" "$tmp/parallel"; then ok; else fail "-races -j 2 differs"; fi

# -json: the flags in the object, no story after it.
expect 0 "$scopecat" sim -races -json -model "$srcdir/cat/ptx-v7.5.cat" "$data/mp-weak.litmus"
has "$tmp/out" '"data-race"'
lacks "$tmp/out" 'data-race: '

# A model without the PTX names: the include's first unbound name, with
# its place; a model path the generated text cannot quote.
expect 1 "$scopecat" sim -races -model "$srcdir/cat/sc.cat" "$data/mp-weak.litmus"
has "$tmp/err" "ptx-race.cat:21:40: unbound name 'morally-strong'"
cp "$srcdir/cat/ptx-v7.5.cat" "$tmp/q\"uote.cat"
expect 1 "$scopecat" sim -races -model "$tmp/q\"uote.cat" "$data/mp-weak.litmus"
has "$tmp/err" "expected a model path without quotes or line breaks"

finish
