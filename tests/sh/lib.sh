# lib.sh: what the shell tests share (sourced, not run): the folders, a
# scratch folder removed on exit, counters and checks, and the closing
# "N passed, N failed" line that the harness and CI read.
set -u
srcdir=${SC_SRCDIR:-.}
builddir=${SC_BUILDDIR:-.}
scopecat="$builddir/tools/scopecat"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# expect STATUS CMD...: run CMD, keep its output in $tmp/out and $tmp/err
expect() {
  want=$1; shift
  "$@" >"$tmp/out" 2>"$tmp/err"
  got=$?
  if [ "$got" -eq "$want" ]; then ok; else fail "exit $got, expected $want: $*"; cat "$tmp/err"; fi
}

# has FILE TEXT / lacks FILE TEXT: FILE contains (or not) the fixed TEXT
has() {
  if grep -qF -- "$2" "$1"; then ok; else fail "$1 lacks: $2"; cat "$1"; fi
}
lacks() {
  if grep -qF -- "$2" "$1"; then fail "$1 has: $2"; else ok; fi
}

# needs_z3: the test is skipped (exit 77) when this build has no symbolic
# engine; a symbolic engine that fails on coRR is a failure
needs_z3() {
  if ! "$scopecat" -engine smt "$srcdir/ptx/seeds/coRR.litmus" >"$tmp/probe" 2>&1; then
    if grep -q 'built without Z3' "$tmp/probe"; then
      echo "no Z3 in this build: skipped"
      exit 77
    fi
    fail "-engine smt on coRR: $(cat "$tmp/probe")"
  fi
}

# finish: the summary line, and the exit status of the test
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
