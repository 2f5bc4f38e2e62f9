#!/bin/sh
# layers.sh: the house order of lib/ and tools/, read off the built objects
# (nm: which file defines and which calls each function).  In lib/, a file
# calls only files of its own layer or of a layer below it, in the order
#   util < rel < litmus < cat < kernel < sim < gpu < report < gen
# and no two files call each other in a circle, directly or through others;
# in tools/ too.  The check itself is checked: it must find the circle and
# the upward call of a made-up pair of objects.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

layers="util rel litmus cat kernel sim gpu report gen"

# objects DIR PREFIX: the objects libtool or make built under DIR for the
# target whose object names start with PREFIX, one per source (the PIC copy
# when there is one), printed as "SOURCE-NAME OBJECT"
objects() {
  find "$1" -name "$2*.o" | while read -r o; do
    d=$(dirname "$o"); d=${d%/.libs}
    b=$(basename "$o" .o); b=${b#"$2"}
    echo "${d#"$builddir"/}/$b $o"
  done | LC_ALL=C sort -u -k1,1
}

# edges LIST: "CALLER CALLEE" for every function one file calls in another
edges() {
  while read -r name o; do
    nm "$o" | awk -v f="$name" '$1 == "U" { print "U", f, $2 } NF == 3 && $2 ~ /^[TDBRC]$/ { print "D", f, $3 }'
  done <"$1" | awk '$1 == "D" { def[$3] = $2 } $1 == "U" { use[n++] = $2 " " $3 }
    END { for (i = 0; i < n; i++) { split(use[i], u, " "); if ((u[2] in def) && def[u[2]] != u[1]) print u[1], def[u[2]] } }' |
    LC_ALL=C sort -u
}

# circles EDGES: tsort's report of a loop, empty when there is none
circles() {
  awk '{ print $1, $2 }' "$1" | tsort 2>&1 >/dev/null
}

# upward EDGES: calls from a layer to a layer above it
upward() {
  awk -v order="$layers" 'BEGIN { n = split(order, l, " "); for (i = 1; i <= n; i++) rank[l[i]] = i }
    { split($1, a, "/"); split($2, b, "/");
      if (!(a[2] in rank)) print "unknown layer: " $1
      else if (!(b[2] in rank)) print "unknown layer: " $2
      else if (rank[a[2]] < rank[b[2]]) print $1 " (" a[2] ") calls " $2 " (" b[2] ")" }' "$1" |
    LC_ALL=C sort -u
}

check_tree() {  # check_tree WHAT LIST EDGES [layers]
  n=$(wc -l <"$2")
  if [ "$n" -ge 2 ]; then ok; else fail "$1: only $n objects found under $builddir"; return; fi
  edges "$2" >"$3"
  loop=$(circles "$3")
  if [ -z "$loop" ]; then ok; else fail "$1: files call each other in a circle:"; echo "$loop"; fi
  if [ "${4:-}" = layers ]; then
    up=$(upward "$3")
    if [ -z "$up" ]; then ok; else fail "$1: calls up the layers:"; echo "$up"; fi
  fi
}

objects "$builddir/lib" libscopecat_la- >"$tmp/lib.list"
check_tree lib/ "$tmp/lib.list" "$tmp/lib.edges" layers
# every layer of the order has files, and every file is in a layer
for l in $layers; do
  if grep -q "^lib/$l/" "$tmp/lib.list"; then ok; else fail "lib/$l/ has no objects"; fi
done
stray=$(awk '{ split($1, a, "/"); if (a[3] == "") print $1 }' "$tmp/lib.list")
if [ -z "$stray" ]; then ok; else fail "files of lib/ outside the layers: $stray"; fi
objects "$builddir/tools" scopecat- >"$tmp/tools.list"
check_tree tools/ "$tmp/tools.list" "$tmp/tools.edges"

# The checks can fail: a made-up pair of objects with a circle, and a call
# from util up to cat.
mkdir -p "$tmp/fake/lib/util" "$tmp/fake/lib/cat"
printf 'void b(void);\nvoid a(void) { b(); }\n' >"$tmp/a.c"
printf 'void a(void);\nvoid b(void) { a(); }\n' >"$tmp/b.c"
if ${SC_CC:-cc} -c "$tmp/a.c" -o "$tmp/fake/lib/util/libscopecat_la-a.o" &&
   ${SC_CC:-cc} -c "$tmp/b.c" -o "$tmp/fake/lib/cat/libscopecat_la-b.o"; then
  builddir_saved=$builddir; builddir=$tmp/fake
  objects "$tmp/fake/lib" libscopecat_la- >"$tmp/fake.list"
  builddir=$builddir_saved
  edges "$tmp/fake.list" >"$tmp/fake.edges"
  if [ -n "$(circles "$tmp/fake.edges")" ]; then ok; else fail "no circle found in a made-up circle"; fi
  if upward "$tmp/fake.edges" | grep -q 'lib/util/a (util) calls lib/cat/b (cat)'; then ok
  else fail "no upward call found in a made-up one"; upward "$tmp/fake.edges"; fi
else
  fail "cannot compile the made-up objects"
fi
finish
