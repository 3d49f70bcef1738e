/*
** compress.c — validation program: a block-parallel compressor-like kernel (as pigz or zstd -T
** split their input): S bytes of generated text are cut into blocks of K bytes, and T threads
** compress blocks t, t + T, t + 2T, ... each on its own with a greedy LZ77 match finder (a hash
** of the next 4 bytes into a table of 4096 positions, reset per block; a match when the
** candidate's 4 bytes agree, extended byte by byte up to 255; literals copied). Usage:
** compress T S K. Prints the wall time of the parallel part in seconds.
** `compress --count S K` prints instead the operation counts of the whole input, counted (not
** timed), for the model's params: positions hashed, literals, matches, and bytes compared while
** extending matches. Modelled by models/validate_compress.pam.
*/
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include "vclock.h"

#define COMPRESS_MAX_THREADS 256  /* more threads than any configuration of the driver */
#define COMPRESS_HASH_BITS 12     /* 4096 table entries (16 KiB: in L1) */
#define COMPRESS_MAX_MATCH 255    /* longest match */
#define COMPRESS_WORDS 64         /* vocabulary of the generated text */

typedef struct CompressCounts {
  uint64_t hashed;                /* positions hashed (one table lookup each) */
  uint64_t literals;              /* bytes emitted as literals */
  uint64_t matches;               /* matches emitted */
  uint64_t extended;              /* byte compares while extending matches */
} CompressCounts;

typedef struct CompressJob {
  const unsigned char *in;        /* the whole input */
  size_t size, block;             /* S and K */
  long first, stride;             /* this thread's blocks: first, first + stride, ... */
  unsigned char *out;             /* this thread's output buffer (one block's worth at most) */
  uint64_t produced;              /* output bytes, summed over its blocks (sunk) */
  CompressCounts counts;          /* only for --count */
} CompressJob;

static uint32_t load32(const unsigned char *p) {
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

/* Compresses in[0 .. n) into out; returns the output size. Counts into *c when c is not NULL. */
static size_t compress_block(const unsigned char *in, size_t n, unsigned char *out,
                             CompressCounts *c) {
  uint32_t table[1u << COMPRESS_HASH_BITS];
  memset(table, 0, sizeof table);
  size_t p = 0, o = 0;
  while (p + 8 <= n) {
    uint32_t v = load32(in + p);
    uint32_t h = (v * 2654435761u) >> (32 - COMPRESS_HASH_BITS);
    uint32_t cand = table[h];
    table[h] = (uint32_t)p;
    if (c) c->hashed++;
    if (cand < p && load32(in + cand) == v) {
      size_t len = 4;
      while (p + len < n && len < COMPRESS_MAX_MATCH && in[cand + len] == in[p + len]) len++;
      if (c) { c->matches++; c->extended += len - 4 + (p + len < n && len < COMPRESS_MAX_MATCH); }
      out[o++] = 0xff;                            /* a match: marker, distance, length */
      out[o++] = (unsigned char)((p - cand) & 0xff);
      out[o++] = (unsigned char)len;
      p += len;
    } else {
      if (c) c->literals++;
      out[o++] = in[p++];
    }
  }
  while (p < n) out[o++] = in[p++];               /* the tail, copied */
  return o;
}

static void *compress_worker(void *arg) {
  CompressJob *job = arg;
  long blocks = (long)(job->size / job->block);
  for (long b = job->first; b < blocks; b += job->stride)
    job->produced += compress_block(job->in + (size_t)b * job->block, job->block, job->out, NULL);
  return NULL;
}

/* Text of words from a small vocabulary (a linear congruential generator picks them), the
   same for every run: compressible about 2.5x, with matches every few words. */
static void compress_fill(unsigned char *buf, size_t size) {
  static const char *words[COMPRESS_WORDS] = {
    "the", "of", "and", "to", "in", "is", "that", "for", "it", "as", "was", "with", "be", "by",
    "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have", "an",
    "had", "they", "you", "were", "their", "one", "all", "we", "can", "her", "has", "there",
    "been", "if", "more", "when", "will", "would", "who", "so", "no", "model", "bound", "time",
    "thread", "lock", "cache", "memory", "block", "server", "queue", "process", "program",
    "machine", "value", "interval", "measure"};
  uint64_t x = 12345;
  size_t i = 0;
  while (i < size) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const char *w = words[(x >> 33) % COMPRESS_WORDS];
    for (size_t k = 0; w[k] && i < size; k++) buf[i++] = (unsigned char)w[k];
    if (i < size) buf[i++] = (x >> 60) ? ' ' : '\n';
  }
}

int main(int argc, char **argv) {
  const char *usage = "T S K  (threads, input bytes, block bytes: S a multiple of K)";
  int counting = argc > 1 && strcmp(argv[1], "--count") == 0;
  long threads = counting ? 1 : v_arg(argc, argv, 1, usage);
  long size = v_arg(argc, argv, 2, usage), block = v_arg(argc, argv, 3, usage);
  if (threads > COMPRESS_MAX_THREADS || size % block || block < 8) {
    fprintf(stderr, "usage: %s %s\n", argv[0], usage);
    return 2;
  }
  unsigned char *in = malloc((size_t)size);
  unsigned char *out = malloc((size_t)threads * ((size_t)block + 8));
  if (!in || !out) { perror("malloc"); return 3; }
  compress_fill(in, (size_t)size);
  if (counting) {
    CompressCounts c = {0, 0, 0, 0};
    for (long b = 0; b < size / block; b++)
      compress_block(in + (size_t)b * (size_t)block, (size_t)block, out, &c);
    printf("hashed %llu literals %llu matches %llu extended %llu\n", (unsigned long long)c.hashed,
           (unsigned long long)c.literals, (unsigned long long)c.matches,
           (unsigned long long)c.extended);
    free(in);
    free(out);
    return 0;
  }
  pthread_t tid[COMPRESS_MAX_THREADS];
  CompressJob jobs[COMPRESS_MAX_THREADS];
  double t0 = v_now();
  for (long t = 0; t < threads; t++) {
    jobs[t] = (CompressJob){in, (size_t)size, (size_t)block, t, threads,
                            out + (size_t)t * ((size_t)block + 8), 0, {0, 0, 0, 0}};
    if (pthread_create(&tid[t], NULL, compress_worker, &jobs[t]) != 0) { perror("pthread_create"); return 3; }
  }
  for (long t = 0; t < threads; t++) pthread_join(tid[t], NULL);
  double t1 = v_now();
  volatile uint64_t sink = 0;
  for (long t = 0; t < threads; t++) sink += jobs[t].produced;
  (void)sink;
  free(in);
  free(out);
  printf("%.9g\n", t1 - t0);
  return 0;
}
