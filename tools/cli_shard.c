/* cli_shard.c: -shard I/N, which tests shard I of N takes: a stable hash
 * of each test's key (its path relative to the folder named, extension
 * dropped), cut into N equal ranges; see the README's "Past one machine". */
#include "cli.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

/* A whole decimal number in [1, CLI_SHARD_MOST] from `s` to `end`. */
static bool read_part(const char *s, const char *end, int *out) {
  if (s == end || end - s > 7)
    return false;
  long v = 0;
  for (const char *p = s; p < end; p++) {
    if (!isdigit((unsigned char)*p))
      return false;
    v = v * 10 + (*p - '0');
  }
  if (v < 1 || v > CLI_SHARD_MOST)
    return false;
  *out = (int)v;
  return true;
}

bool cli_shard_read(const char *text, cli_shard *shard) {
  const char *slash = strchr(text, '/');
  cli_shard s;
  if (!slash || !read_part(text, slash, &s.index) ||
      !read_part(slash + 1, slash + strlen(slash), &s.count) ||
      s.index > s.count)
    return false;
  *shard = s;
  return true;
}

/* FNV-1a (64 bits) of the n bytes, then SplitMix64's finaliser, so that
 * every bit of the text reaches the top bits. */
uint64_t cli_hash(const char *text, size_t n) {
  uint64_t h = 14695981039346656037ULL;
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)text[i];
    h *= 1099511628211ULL;
  }
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

/* The hash of the key up to its last extension: its top bits pick the
 * shard. */
static uint64_t key_hash(const char *key) {
  const char *base = strrchr(key, '/');
  const char *dot = strrchr(base ? base + 1 : key, '.');
  size_t n = dot && dot != (base ? base + 1 : key) ? (size_t)(dot - key)
                                                   : strlen(key);
  return cli_hash(key, n);
}

/* Shard k of N holds the hashes whose top 32 bits x have
 * floor(x * N / 2^32) = k - 1: N equal ranges, so the shards of 2N split
 * those of N in two. */
int cli_shard_of(const char *key, int count) {
  uint64_t top = key_hash(key) >> 32;
  return (int)((top * (uint64_t)count) >> 32) + 1;
}

bool cli_shard_takes(cli_shard shard, const char *key) {
  return shard.count == 0 || cli_shard_of(key, shard.count) == shard.index;
}

void cli_shard_files(file_list *files, cli_shard shard) {
  int kept = 0;
  for (int i = 0; i < files->n; i++)
    if (cli_shard_takes(shard, files->keys[i])) {
      files->paths[kept] = files->paths[i];
      files->keys[kept] = files->keys[i];
      kept++;
    }
  files->n = kept;
}
