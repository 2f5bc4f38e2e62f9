#!/bin/sh
# shard.sh: -shard I/N on every batch command (the N shards split the
# batch, a test's shard hangs on its own key alone, bad values are usage
# errors), scopecat merge (the shards' herd7 logs make one run's), and
# compare reading a folder of per-shard logs as one run.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

family="$srcdir/ptx/families/h100" # 305 tests in one folder
seeds="$srcdir/ptx/seeds"
gpu_logs="$srcdir/ptx/results/H100"

# names FILE: the sorted "Test NAME" lines of herd7 blocks or summaries
names() { grep -o '^Test [^ ]*' "$1" | LC_ALL=C sort; }
# by_name LOG: herd7 blocks sorted by test name (stable, bytewise) without
# their Time lines, as merge prints them, made with awk and sort
by_name() {
  awk '/^Test /{name=$2} !/^Time /{printf "%s\t%08d\t%s\n", name, NR, $0}' "$1" |
    LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n | cut -f3-
}
# same A B WHAT: the files are equal
same() {
  if cmp -s "$1" "$2"; then ok; else fail "$3"; diff "$1" "$2" | head -6; fi
}

# ---- bad values: usage errors (2) on every batch command --------------------
for v in 0/3 4/3 a/b 3 /3 3/ 1/0 -1/3 2/3x 1/1000001; do
  expect 2 "$scopecat" sim -shard "$v" "$seeds"
  has "$tmp/err" "-shard expects I/N"
  expect 2 "$scopecat" parse -shard "$v" "$seeds"
  expect 2 "$scopecat" compare -shard "$v" "$gpu_logs"
  expect 2 "$scopecat" fences -shard "$v" "$seeds/sb.litmus"
  expect 2 "$scopecat" gen -size 3 -shard "$v"
  expect 2 "$scopecat" gpu run -shard "$v" "$seeds"
  expect 2 "$scopecat" gpu build -keep "$tmp/keep" -shard "$v" "$seeds"
done
has "$tmp/err" "found '1/1000001'"
expect 2 "$scopecat" sim "$seeds" -shard
has "$tmp/err" "-shard needs an argument"
# a family, not one cycle; tune scores one setting over all its tests
expect 2 "$scopecat" gen -shard 1/2 PodWW Rfe PodRR Fre
has "$tmp/err" "goes with -size"
expect 2 "$scopecat" gpu tune -o "$tmp/tuned" -shard 1/2 "$seeds/sb.litmus"
has "$tmp/err" "tune scores one setting"
# the edges of the range are shards
expect 0 "$scopecat" parse -summary -shard 1/1 "$seeds"
expect 0 "$scopecat" parse -summary -shard 1000000/1000000 "$seeds"

# ---- the shards split the batch: union is the whole, no overlap -------------
"$scopecat" parse -summary "$family" | LC_ALL=C sort >"$tmp/all"
total=$(wc -l <"$tmp/all")
[ "$total" -eq 305 ] && ok || fail "the family has $total tests, not 305"
for n in 1 2 3 4 7 16; do
  : >"$tmp/union"
  smallest=$total largest=0
  for i in $(seq "$n"); do
    "$scopecat" parse -summary -shard "$i/$n" "$family" >"$tmp/part"
    k=$(wc -l <"$tmp/part")
    [ "$k" -lt "$smallest" ] && smallest=$k
    [ "$k" -gt "$largest" ] && largest=$k
    cat "$tmp/part" >>"$tmp/union"
  done
  # every test once: sorted with repeats kept, the union is the whole
  LC_ALL=C sort "$tmp/union" >"$tmp/union.sorted"
  same "$tmp/union.sorted" "$tmp/all" "the $n shards do not split the family"
  # the hash spreads: no shard under half or over twice its share
  if [ "$((smallest * 2 * n))" -ge "$total" ] && [ "$((largest * n))" -le "$((total * 2))" ]; then
    ok
  else
    fail "$n shards: from $smallest to $largest tests of $total"
  fi
done
# shard i of N is shards 2i-1 and 2i of 2N
for i in 1 2 3; do
  "$scopecat" parse -summary -shard "$i/3" "$family" | LC_ALL=C sort >"$tmp/a"
  { "$scopecat" parse -summary -shard "$((2 * i - 1))/6" "$family"
    "$scopecat" parse -summary -shard "$((2 * i))/6" "$family"; } |
    LC_ALL=C sort >"$tmp/b"
  same "$tmp/a" "$tmp/b" "shard $i/3 is not shards $((2 * i - 1)) and $((2 * i)) of 6"
done

# ---- a test's shard hangs on its key alone -----------------------------------
# known answers, from an implementation of the documented hash written
# apart from scopecat's (FNV-1a 64 of the key without its extension,
# SplitMix64's finaliser, floor(top32 * N / 2^32) + 1): pinned so that
# shards never move between versions
mkdir -p "$tmp/keys/sub"
for k in mp sb lb 2+2w; do cp "$seeds/sb.litmus" "$tmp/keys/$k.litmus"; done
cp "$seeds/sb.litmus" "$tmp/keys/sub/iriw.litmus"
shard_of() { # shard_of N PATH [DIR]: the shards of N that take PATH
  for i in $(seq "$1"); do
    "$scopecat" parse -summary -shard "$i/$1" "$2" | grep -q . && printf '%s ' "$i"
  done
  echo
}
check_shard() { # check_shard N PATH WANT
  got=$(shard_of "$1" "$2")
  [ "$got" = "$3 " ] && ok || fail "$2: shard '$got' of $1, expected $3"
}
check_shard 4 "$tmp/keys/mp.litmus" 1
check_shard 7 "$tmp/keys/mp.litmus" 2
check_shard 4 "$tmp/keys/sb.litmus" 4
check_shard 7 "$tmp/keys/sb.litmus" 6
check_shard 7 "$tmp/keys/2+2w.litmus" 1
expect 0 "$scopecat" parse -summary -shard 234/1000 "$tmp/keys/mp.litmus"
has "$tmp/out" "sb"
expect 0 "$scopecat" parse -summary -shard 761/1000 "$tmp/keys/sb.litmus"
has "$tmp/out" "sb"
# in a folder the key is the path relative to it: sub/iriw, shard 4 of 4
# (with sb and lb); named itself, the file's key is its name, iriw
expect 0 "$scopecat" parse -summary -shard 4/4 "$tmp/keys"
[ "$(wc -l <"$tmp/out")" -eq 3 ] && ok || fail "shard 4/4 of the keys: $(wc -l <"$tmp/out") tests, expected 3"
check_shard 4 "$tmp/keys/sub/iriw.litmus" 2
# the same folder elsewhere (another parent, a trailing slash): the same shards
mkdir -p "$tmp/elsewhere/deeper"
cp -R "$tmp/keys" "$tmp/elsewhere/deeper/k"
for i in 1 2 3 4; do
  "$scopecat" parse -summary -shard "$i/4" "$tmp/keys" >"$tmp/a"
  "$scopecat" parse -summary -shard "$i/4" "$tmp/elsewhere/deeper/k/" >"$tmp/b"
  same "$tmp/a" "$tmp/b" "shard $i/4 moved with the folder"
done
# the corpus grows by other files: no test of the 305 moves
mkdir "$tmp/grown"
cp "$family"/*.litmus "$tmp/grown/"
for i in 1 2 3 4 5; do
  "$scopecat" parse -summary -shard "$i/5" "$tmp/grown" >"$tmp/before.$i"
done
for f in "$seeds"/*.litmus "$srcdir"/ptx/herd-gpu-ptx/*.litmus; do
  cp "$f" "$tmp/grown/added-$(basename "$f")"
done
for i in 1 2 3 4 5; do
  # what the shard held it holds still (the new tests may join it)
  "$scopecat" parse -summary -shard "$i/5" "$tmp/grown" | LC_ALL=C sort -u >"$tmp/after"
  LC_ALL=C sort -u "$tmp/before.$i" >"$tmp/before"
  LC_ALL=C comm -23 "$tmp/before" "$tmp/after" >"$tmp/lost"
  [ -s "$tmp/before" ] && [ ! -s "$tmp/lost" ] && ok ||
    fail "shard $i/5 lost tests when others were added: $(cat "$tmp/lost")"
done
# a test and its log share a key: MP-inter.litmus and MP-inter.txt fall
# in one shard
mkdir "$tmp/logkey"
cp "$gpu_logs/MP-inter.txt" "$tmp/logkey/MP-inter.txt"
cp "$seeds/sb.litmus" "$tmp/logkey/MP-inter.litmus"
for i in 1 2 3; do
  t=$("$scopecat" parse -summary -shard "$i/3" "$tmp/logkey/MP-inter.litmus" | wc -l)
  l=$("$scopecat" compare -tests "$srcdir/ptx" -shard "$i/3" "$tmp/logkey/MP-inter.txt" 2>&1 |
    grep -c '^MP-inter ')
  [ "$t" -eq "$l" ] && ok || fail "shard $i/3: the test's key and its log's differ"
done

# ---- sim: the shards' logs merge into the unsharded run ----------------------
"$scopecat" sim -j 2 "$family" >"$tmp/whole.log"
by_name "$tmp/whole.log" >"$tmp/whole.sorted"
mkdir "$tmp/herd"
for i in 1 2 3 4; do
  expect 0 "$scopecat" sim -shard "$i/4" -j 2 "$family"
  cp "$tmp/out" "$tmp/herd/shard-$i.log"
done
expect 0 "$scopecat" merge "$tmp/herd/shard-1.log" "$tmp/herd/shard-2.log" \
  "$tmp/herd/shard-3.log" "$tmp/herd/shard-4.log"
sed '/^Time /d' "$tmp/out" >"$tmp/merged"
same "$tmp/merged" "$tmp/whole.sorted" "the merged shards differ from the unsharded run"
[ "$(grep -c '^Test ' "$tmp/merged")" -eq 305 ] && ok || fail "the merged log has not 305 blocks"
# a folder of them is the same; so is the merge in any order of the logs
expect 0 "$scopecat" merge "$tmp/herd"
sed '/^Time /d' "$tmp/out" >"$tmp/merged.dir"
same "$tmp/merged.dir" "$tmp/merged" "merge of the folder differs from merge of its logs"
expect 0 "$scopecat" merge "$tmp/herd/shard-3.log" "$tmp/herd/shard-1.log" \
  "$tmp/herd/shard-4.log" "$tmp/herd/shard-2.log"
sed '/^Time /d' "$tmp/out" >"$tmp/merged.any"
same "$tmp/merged.any" "$tmp/merged" "merge depends on the order of the logs"
# an empty shard is an empty log, and merges
: >"$tmp/herd/shard-5.log"
expect 0 "$scopecat" merge "$tmp/herd"
expect 0 "$scopecat" sim -shard 1000000/1000000 "$seeds/sb.litmus"
[ -s "$tmp/out" ] && fail "an empty shard printed something" || ok

# merge: a test found twice is kept once (Time aside), and said
"$scopecat" sim "$seeds" >"$tmp/seeds.log"
"$scopecat" sim "$seeds" >"$tmp/seeds-again.log"
expect 0 "$scopecat" merge "$tmp/seeds.log" "$tmp/seeds-again.log"
by_name "$tmp/seeds.log" >"$tmp/seeds.sorted"
sed '/^Time /d' "$tmp/out" >"$tmp/merged"
same "$tmp/merged" "$tmp/seeds.sorted" "a log merged with itself is not itself"
has "$tmp/err" "22 blocks of a test found before, kept once"
# ... unless the blocks disagree: another model's verdicts
"$scopecat" sim -model sc.cat "$seeds/sb.litmus" >"$tmp/sb-sc.log"
expect 1 "$scopecat" merge "$tmp/seeds.log" "$tmp/sb-sc.log"
has "$tmp/err" "sb-sc.log:1:1: test sb differs from its block at $tmp/seeds.log:"
# different tests of one name (different hashes) are all kept
sed 's/^Hash=.*/Hash=0123456789abcdef0123456789abcdef/' "$tmp/sb-sc.log" >"$tmp/sb-other.log"
expect 0 "$scopecat" merge "$tmp/seeds.log" "$tmp/sb-other.log"
[ "$(grep -c '^Test sb ' "$tmp/out")" -eq 2 ] && ok || fail "two tests named sb did not both stay"
# bad input: positions, non-zero exits, never a crash
printf 'Test sb Allowed\nStates 4\n0:r2=0; 1:r2=0;\n' >"$tmp/truncated.log"
expect 1 "$scopecat" merge "$tmp/truncated.log"
has "$tmp/err" "truncated.log:"
has "$tmp/err" "truncated"
{ echo "not a log"; cat "$tmp/seeds.log"; } >"$tmp/junk.log"
expect 1 "$scopecat" merge "$tmp/junk.log"
has "$tmp/err" "junk.log:1:1: expected a herd7 block ('Test NAME ...'), found 'not a log'"
expect 1 "$scopecat" merge "$gpu_logs/MP-inter.txt"
has "$tmp/err" "MP-inter.txt:"
has "$tmp/err" "expected herd7's States, found a histogram"
expect 1 "$scopecat" merge "$tmp/no-such.log"
has "$tmp/err" "no such file"
expect 2 "$scopecat" merge
expect 2 "$scopecat" merge -frob "$tmp/seeds.log"
expect 0 "$scopecat" merge -help
has "$tmp/out" "usage: scopecat merge"

# ---- gen -size: a shard of the family is the shard of its folder ------------
asplos="$srcdir/ptx/families/asplos15.edges"
expect 0 "$scopecat" gen -size 4 -edges "$asplos" -o "$tmp/fam"
for i in 1 2 3; do
  expect 0 "$scopecat" gen -size 4 -edges "$asplos" -shard "$i/3" -o "$tmp/fam$i"
  has "$tmp/err" "756 tests from 27 edges, cycles up to 4; shard $i/3:"
  (cd "$tmp/fam$i" && ls ./*.litmus) | sed 's|^\./||' >"$tmp/written"
  "$scopecat" parse -summary -shard "$i/3" "$tmp/fam" | sed 's/: .*/.litmus/' | LC_ALL=C sort >"$tmp/taken"
  LC_ALL=C sort "$tmp/written" >"$tmp/written.sorted"
  same "$tmp/written.sorted" "$tmp/taken" "gen -shard $i/3 wrote other tests than sim -shard $i/3 takes"
  # @all lists the shard's tests
  LC_ALL=C sort "$tmp/fam$i/@all" >"$tmp/listed"
  same "$tmp/listed" "$tmp/written.sorted" "@all of shard $i/3 is not its tests"
done
n=$(cat "$tmp"/fam[123]/@all | wc -l)
[ "$n" -eq 756 ] && ok || fail "the 3 shards of the family hold $n tests, not 756"
# printed, not written: the same tests
expect 0 "$scopecat" gen -size 4 -edges "$asplos" -shard 2/3
[ "$(grep -c '^GPU_PTX ' "$tmp/out")" -eq "$(wc -l <"$tmp/fam2/@all")" ] && ok ||
  fail "gen -shard 2/3 printed another count than it writes"

# ---- fences and compare: the union of the shards is the whole ---------------
"$scopecat" fences "$seeds" | grep '^Test ' | LC_ALL=C sort >"$tmp/fences.all"
: >"$tmp/fences.union"
for i in 1 2 3; do
  "$scopecat" fences -shard "$i/3" "$seeds" | grep '^Test ' >>"$tmp/fences.union"
done
LC_ALL=C sort "$tmp/fences.union" >"$tmp/fences.sorted"
same "$tmp/fences.sorted" "$tmp/fences.all" "the fences shards do not split the seeds"

# row TABLE: compare's rows (test, instances, outcomes, forbidden, unseen,
# verdict) and its total, blanks squeezed (the column's width follows the
# longest name), without the [log] that tells same-named tests apart (it
# names the file that holds the test), sorted
row() {
  grep -E '^([^ ]+( \[[^]]*\])? +[0-9]+ |total: )' "$1" | grep -v '^note: ' |
    sed 's/ \[[^]]*\]//' | tr -s ' ' | LC_ALL=C sort
}
"$scopecat" compare -tests "$srcdir/ptx" "$gpu_logs" >"$tmp/compare.all" 2>&1
row "$tmp/compare.all" >"$tmp/rows.all"
: >"$tmp/rows.union"
for i in 1 2 3; do
  "$scopecat" compare -tests "$srcdir/ptx" -shard "$i/3" "$gpu_logs" >"$tmp/part" 2>&1
  row "$tmp/part" >>"$tmp/rows.union"
done
grep -v '^total: ' "$tmp/rows.union" | LC_ALL=C sort >"$tmp/rows.sorted"
grep -v '^total: ' "$tmp/rows.all" >"$tmp/rows.tests"
same "$tmp/rows.sorted" "$tmp/rows.tests" "the compare shards do not split the logs"

# a folder of per-shard GPU logs (each shard's logs in one file, the
# folder named as the original) reads as the one run
mkdir -p "$tmp/shards/H100"
i=0
for f in "$gpu_logs"/*.txt; do
  cat "$f" >>"$tmp/shards/H100/shard-$((i % 4 + 1)).log"
  i=$((i + 1))
done
"$scopecat" compare -tests "$srcdir/ptx" "$tmp/shards/H100" >"$tmp/compare.shards" 2>&1
row "$tmp/compare.shards" >"$tmp/rows.shards"
same "$tmp/rows.shards" "$tmp/rows.all" "the per-shard GPU logs do not read as one run"
has "$tmp/rows.shards" "total: 111 tests: 111 sound, 0 UNSOUND, 0 without a verdict; 11202656256 instances"
# two runs of one test in one folder add up
mkdir -p "$tmp/twice/H100"
cp "$gpu_logs/MP-inter.txt" "$tmp/twice/H100/run-1.txt"
cp "$gpu_logs/MP-inter.txt" "$tmp/twice/H100/run-2.txt"
once=$("$scopecat" compare -tests "$srcdir/ptx" "$gpu_logs/MP-inter.txt" | awk '$1 == "MP-inter" {print $2}')
expect 0 "$scopecat" compare -tests "$srcdir/ptx" "$tmp/twice/H100"
twice=$(awk '$1 == "MP-inter" {print $2}' "$tmp/out")
[ -n "$once" ] && [ "$twice" = "$((once * 2))" ] && ok ||
  fail "two logs of MP-inter: $twice instances, expected twice $once"
# -verdicts DIR: the folder of per-shard herd7 logs is one model's verdicts
"$scopecat" sim "$srcdir/ptx/gpu-shapes" >"$tmp/shapes.log" 2>/dev/null
mkdir "$tmp/shapes"
for i in 1 2 3; do
  "$scopecat" sim -shard "$i/3" "$srcdir/ptx/gpu-shapes" >"$tmp/shapes/shard-$i.log" 2>/dev/null
done
"$scopecat" compare -tests "$srcdir/ptx" -verdicts "$tmp/shapes.log" "$gpu_logs" 2>&1 |
  sed "s|$tmp/shapes.log (a herd7 log)|VERDICTS|" >"$tmp/v.whole"
"$scopecat" compare -tests "$srcdir/ptx" -verdicts "$tmp/shapes" "$gpu_logs" 2>&1 |
  sed "s|$tmp/shapes (herd7 logs)|VERDICTS|" >"$tmp/v.shards"
same "$tmp/v.shards" "$tmp/v.whole" "-verdicts DIR differs from the one log"
has "$tmp/v.shards" "sound"

# ---- gpu: gen and build take their shard (no GPU, no CUDA needed) -----------
: >"$tmp/gpu.union"
for i in 1 2; do
  expect 0 "$scopecat" gpu gen -shard "$i/2" -o "$tmp/cu$i" "$srcdir/ptx/gpu-shapes"
  cat "$tmp/out" >>"$tmp/gpu.union"
done
expect 0 "$scopecat" gpu gen -o "$tmp/cu" "$srcdir/ptx/gpu-shapes"
[ "$(wc -l <"$tmp/gpu.union")" -eq "$(wc -l <"$tmp/out")" ] && ok ||
  fail "the gpu gen shards do not split the tests"
# build (nvcc standing in: `true`) keeps a folder per test of its shard, named
# after the test's path in the folder named, less .litmus (beside the
# batch's driver and executable, batch-*)
expect 0 "$scopecat" gpu build -nvcc true -keep "$tmp/kept" -shard 1/3 "$seeds"
built=$(ls "$tmp/kept" | grep -v '^batch-' | LC_ALL=C sort | tr '\n' ' ')
want=$(for f in "$seeds"/*.litmus; do
    "$scopecat" parse -summary -shard 1/3 "$f" | grep -q . && basename "$f" .litmus
  done | LC_ALL=C sort | tr '\n' ' ')
[ "$built" = "$want" ] && ok || fail "gpu build -shard 1/3 built '$built', expected '$want'"
# an empty CUDA_VISIBLE_DEVICES hides every GPU (Slurm's way of giving none)
expect 77 env CUDA_VISIBLE_DEVICES= "$scopecat" gpu run -shard 1/2 "$seeds/sb.litmus"
has "$tmp/err" "no GPU visible"

finish
