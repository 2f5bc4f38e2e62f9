#!/bin/sh
# compiled.sh: the enumerator's compiled evaluator (lib/cat/exec.c: the
# model's lowered graph over bit matrices) answers as the interpreter
# (lib/cat/run.c) does.  Every model of cat/, cat/corpus and tests/data/herd
# runs over the seed tests by enumeration twice, compiled (the default)
# and interpreted (-interpret): the blocks (Time lines aside) and the
# messages must be the same, and so must the JSON, candidates included
# (the cuts ask the same model the same questions).  Models that the graph
# does not hold (herd's uni.cat: `with co from`) take the interpreter both
# times, and still must agree; so must a model that stops on an error
# (corpus/stdlib.cat, a library of definitions, names what it lacks).
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

# same NAME ARGS...: the output of scopecat ARGS compiled and interpreted
same() {
  name=$1
  shift
  "$scopecat" -engine enum "$@" >"$tmp/c" 2>"$tmp/c.err"
  "$scopecat" -engine enum -interpret "$@" >"$tmp/i" 2>"$tmp/i.err"
  sed -e '/^Time /d' -e 's/"time":[0-9.]*//' "$tmp/c" >"$tmp/c.s"
  sed -e '/^Time /d' -e 's/"time":[0-9.]*//' "$tmp/i" >"$tmp/i.s"
  if { [ -s "$tmp/c.s" ] || [ -s "$tmp/c.err" ]; } && cmp -s "$tmp/c.s" "$tmp/i.s" && cmp -s "$tmp/c.err" "$tmp/i.err"; then
    ok
  else
    fail "$name: compiled and interpreted runs differ"
    diff "$tmp/c.s" "$tmp/i.s" | head -10
    diff "$tmp/c.err" "$tmp/i.err" | head -10
  fi
}

seeds="$srcdir/ptx/seeds"
for m in "$srcdir"/cat/*.cat "$srcdir"/cat/corpus/*.cat "$srcdir"/tests/data/herd/*.cat; do
  same "$(basename "$m") over the seeds" -nohash -timeout 60 -model "$m" "$seeds"
  same "$(basename "$m") over the seeds, json" -json -timeout 60 -model "$m" "$seeds"
done
# the default model over the bundled herd tests, flags (a data race), a
# bell file's scopes, and a `let rec` past its -max-iterations limit: the
# compiled form declines and the interpreter words the error
same "herd-gpu-ptx" -nohash -j 2 "$srcdir/ptx/herd-gpu-ptx"
same "seeds with a bell file" -nohash -bell "$srcdir/tests/data/scopes.bell" "$seeds"
same "seeds, -max-iterations 1" -nohash -max-iterations 1 -model "$srcdir/cat/ptx-v6.0.cat" "$seeds"
same "seeds, -noprune" -json -noprune -model "$srcdir/cat/ptx-v7.5.cat" "$seeds"
finish
