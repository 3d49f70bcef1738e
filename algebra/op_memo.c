/*
** op_memo.c — the results of the algebra's costly constructors by their arguments (sums,
** products, extrema, big operators): nodes are interned, so the operation and the arguments'
** addresses name a call, and a repeated call (the reduction asks for the same sum of the same
** body for phi, L, U and each demand) is a lookup instead of a new simplification.
*/
#include "expr_impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Buckets the table starts with (a power of two; it doubles past one entry per bucket). */
#define OP_MEMO_FIRST_BUCKETS 1024

struct AlgOpEntry {
  unsigned long hash;        /* of the operation and the arguments */
  unsigned op;               /* what was asked (an AlgKind, or a code of the caller's) */
  size_t n;                  /* arguments */
  AlgExpr **args;            /* the arguments (pool copy) */
  AlgExpr *result;           /* what the constructor returned */
  struct AlgOpEntry *next;   /* next entry in its bucket */
};

static unsigned long op_hash(unsigned op, size_t n, AlgExpr *const *args) {
  uint64_t h = ((uint64_t)op + 1) * 0x9e3779b97f4a7c15u ^ (uint64_t)n;
  for (size_t i = 0; i < n; i++) h = (h ^ (uint64_t)(uintptr_t)args[i]) * 0xff51afd7ed558ccdu;
  return (unsigned long)(h ^ (h >> 29));
}

AlgExpr *alg_op_memo_find(AlgCtx *ctx, unsigned op, size_t n, AlgExpr *const *args) {
  if (!ctx->op_buckets) return NULL;
  unsigned long h = op_hash(op, n, args);
  for (AlgOpEntry *e = ctx->op_buckets[h & (ctx->op_nbuckets - 1)]; e; e = e->next) {
    if (e->hash != h || e->op != op || e->n != n) continue;
    size_t i = 0;
    while (i < n && e->args[i] == args[i]) i++;
    if (i == n) return e->result;
  }
  return NULL;
}

/* Rehashes into twice the buckets (keeps the old table when memory runs out: only slower). */
static void op_memo_grow(AlgCtx *ctx) {
  size_t cap = ctx->op_nbuckets ? 2 * ctx->op_nbuckets : OP_MEMO_FIRST_BUCKETS;
  AlgOpEntry **buckets = calloc(cap, sizeof *buckets);
  if (!buckets) return;
  for (size_t b = 0; b < ctx->op_nbuckets; b++)
    for (AlgOpEntry *e = ctx->op_buckets[b], *next; e; e = next) {
      next = e->next;
      e->next = buckets[e->hash & (cap - 1)];
      buckets[e->hash & (cap - 1)] = e;
    }
  free(ctx->op_buckets);
  ctx->op_buckets = buckets;
  ctx->op_nbuckets = cap;
}

AlgExpr *alg_op_memo_put(AlgCtx *ctx, unsigned op, size_t n, AlgExpr *const *args, AlgExpr *result) {
  if (ctx->op_count >= ctx->op_nbuckets) op_memo_grow(ctx);
  if (!ctx->op_buckets) return result;
  AlgOpEntry *e = alg_pool_alloc(&ctx->pool, sizeof *e);
  e->hash = op_hash(op, n, args);
  e->op = op;
  e->n = n;
  e->args = alg_pool_alloc(&ctx->pool, (n ? n : 1) * sizeof *e->args);
  memcpy(e->args, args, n * sizeof *e->args);
  e->result = result;
  e->next = ctx->op_buckets[e->hash & (ctx->op_nbuckets - 1)];
  ctx->op_buckets[e->hash & (ctx->op_nbuckets - 1)] = e;
  ctx->op_count++;
  return result;
}
