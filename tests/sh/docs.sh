#!/bin/sh
# docs.sh: the documentation holds together.  The manual pages document
# every public function (scopecat.3) and every option of the command line
# (scopecat.1); every relative link of the Markdown guides (README.md,
# doc/*.md, tests/README.md, ptx/results/*/*.md) leads to a file that
# exists and, with a #anchor, to a heading of it; the README keeps the two
# commands that CI runs and stays a front door (under 300 lines).
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"
scopecat=${SC_SCOPECAT:-$scopecat}

# ---- the manual pages ---------------------------------------------------------
for fn in $(grep -v '^ *[/*]' "$srcdir/include/scopecat.h" | grep -o '\bsc_[a-z0-9_]*(' | tr -d '(' | sort -u); do
  if grep -q "$fn(" "$srcdir/include/scopecat.3"; then ok; else fail "scopecat.3 does not document $fn"; fi
done
# options as `scopecat sim -help` lists them
for opt in $("$scopecat" sim -help | grep -o '^  -[a-z-]*' | tr -d ' '); do
  man_opt=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
  if grep -q -- "^\.B[I]* $man_opt\b" "$srcdir/tools/scopecat.1"; then ok; else fail "scopecat.1 does not document $opt"; fi
done

# ---- links ----------------------------------------------------------------------
# anchors FILE: the GitHub anchors of FILE's headings, one a line (lower
# case, punctuation but '-' and '_' dropped, spaces as '-'), fenced code
# blocks skipped
anchors() {
  awk '/^```/ { fenced = !fenced; next }
       !fenced && /^#+ / {
         h = $0; sub(/^#+ +/, "", h); h = tolower(h)
         gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h); print h }' "$1"
}

# broken_links FILE...: prints `FILE: broken link TARGET` for each link
# `[text](TARGET)` (images included) whose file does not exist relative to
# FILE, or whose #anchor names no heading of its Markdown file.  Links to
# other sites (a scheme such as https:) are not followed; code spans and
# fenced code blocks are not read.
broken_links() {
  for f in "$@"; do
    dir=$(dirname "$f")
    awk '/^```/ { fenced = !fenced; next }
         !fenced {
           line = $0; gsub(/`[^`]*`/, "", line)
           while (match(line, /\]\([^) ]+\)/)) {
             print substr(line, RSTART + 2, RLENGTH - 3)
             line = substr(line, RSTART + RLENGTH)
           } }' "$f" |
    while IFS= read -r target; do
      case $target in [a-z]*:*) continue ;; esac
      path=${target%%#*}
      anchor=
      case $target in *'#'*) anchor=${target#*#} ;; esac
      if [ -z "$path" ]; then dest=$f; else dest=$dir/$path; fi
      if [ ! -e "$dest" ]; then
        echo "$f: broken link $target (no file $dest)"
      elif [ -n "$anchor" ] && ! anchors "$dest" | grep -qxF -- "$anchor"; then
        echo "$f: broken link $target (no heading #$anchor in $dest)"
      fi
    done
  done
}

# the checker itself: a planted missing file, a planted missing anchor and
# a link in a code span (not a link) against links that resolve
mkdir -p "$tmp/doc"
cat >"$tmp/doc/good.md" <<'EOF'
# A guide

## Reading the `Hash=` line

See [the other guide](other.md), [its part](other.md#part-two), [here](#a-guide),
[this one](#reading-the-hash-line), ![a picture](pic.png) and [a site](https://example.org/x).
Not a link: `[x](nowhere.md)`.
EOF
printf '# Other\n\n## Part two\n' >"$tmp/doc/other.md"
: >"$tmp/doc/pic.png"
printf '# Bad\n\nSee [gone](gone.md) and [no part](other.md#part-three).\n' >"$tmp/doc/bad.md"
broken_links "$tmp/doc/good.md" >"$tmp/good.out"
if [ ! -s "$tmp/good.out" ]; then ok; else fail "links that resolve reported broken:"; cat "$tmp/good.out"; fi
broken_links "$tmp/doc/bad.md" >"$tmp/bad.out"
has "$tmp/bad.out" "broken link gone.md"
has "$tmp/bad.out" "broken link other.md#part-three"

# the project's guides
set -- "$srcdir/README.md" "$srcdir"/doc/*.md "$srcdir/tests/README.md" "$srcdir"/ptx/results/*/*.md
n=0
for f in "$@"; do
  if [ -f "$f" ]; then n=$((n + 1)); else fail "no file $f"; fi
done
if [ "$n" -ge 10 ]; then ok; else fail "only $n Markdown files found under $srcdir"; fi
broken_links "$@" >"$tmp/links.out"
if [ ! -s "$tmp/links.out" ]; then ok; else fail "broken links:"; cat "$tmp/links.out"; fi

# ---- the README -------------------------------------------------------------------
lines=$(wc -l <"$srcdir/README.md")
if [ "$lines" -lt 300 ]; then ok; else fail "README.md has $lines lines (a front door: under 300)"; fi
# the two commands .ci/run and the users run, exactly
has "$srcdir/README.md" '`./tools/setup.sh && ./tools/main-job.sh`'
has "$srcdir/README.md" '`./tools/setup.sh && make check`'
finish
