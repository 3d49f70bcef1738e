/*
** reduce_memo.c — the memo of process calls (a callee with the same argument expressions has the
** same summary): a hash table on the callee and the argument expressions, which are interned, so
** that their addresses identify them. A call costs O(arguments), not O(calls reduced so far).
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reduce_internal.h"

/* Buckets the table starts with (a power of two; it doubles past one entry per bucket). */
#define MEMO_FIRST_BUCKETS 256

static size_t memo_hash(const Decl *proc, AlgExpr *const *args, int argc, int alone) {
  uint64_t h = ((uint64_t)(uintptr_t)proc + (uint64_t)alone) * 0x9e3779b97f4a7c15u;
  for (int i = 0; i < argc; i++) h = (h ^ (uint64_t)(uintptr_t)args[i]) * 0xff51afd7ed558ccdu;
  return (size_t)(h ^ (h >> 29));
}

static int memo_same(const RMemo *m, const Decl *proc, AlgExpr *const *args, int argc, int alone) {
  if (m->proc != proc || m->argc != argc || m->alone != alone) return 0;
  for (int i = 0; i < argc; i++) if (m->args[i] != args[i]) return 0;
  return 1;
}

/* The memoised summary of proc(args) for calls made alone (alone 1) or not, or NULL. */
const Summary *reduce_memo_find(RCtx *c, const Decl *proc, AlgExpr *const *args, int argc, int alone) {
  if (!c->memo_buckets) return NULL;
  size_t slot = memo_hash(proc, args, argc, alone) & (c->memo_cap - 1);
  for (RMemo *m = c->memo_buckets[slot]; m; m = m->next)
    if (memo_same(m, proc, args, argc, alone)) return &m->sum;
  return NULL;
}

/* Rehashes into twice the buckets (keeps the old table when memory runs out: only slower). */
static void memo_grow(RCtx *c) {
  size_t cap = c->memo_cap ? 2 * c->memo_cap : MEMO_FIRST_BUCKETS;
  RMemo **buckets = calloc(cap, sizeof *buckets);
  if (!buckets) return;
  for (size_t b = 0; b < c->memo_cap; b++)
    for (RMemo *m = c->memo_buckets[b], *next; m; m = next) {
      next = m->next;
      size_t slot = memo_hash(m->proc, m->args, m->argc, m->alone) & (cap - 1);
      m->next = buckets[slot];
      buckets[slot] = m;
    }
  free(c->memo_buckets);
  c->memo_buckets = buckets;
  c->memo_cap = cap;
}

/* Records sum as the summary of proc(args) for calls made alone (alone 1) or not. */
void reduce_memo_add(RCtx *c, const Decl *proc, AlgExpr *const *args, int argc, int alone,
                     const Summary *sum) {
  if (c->memo_count >= c->memo_cap) memo_grow(c);
  if (!c->memo_buckets) return;
  RMemo *m = arena_alloc(&c->arena, sizeof *m);
  m->proc = proc;
  m->argc = argc;
  m->alone = alone;
  m->args = arena_alloc(&c->arena, (size_t)(argc ? argc : 1) * sizeof *m->args);
  for (int i = 0; i < argc; i++) m->args[i] = args[i];
  m->sum = *sum;
  size_t slot = memo_hash(proc, args, argc, alone) & (c->memo_cap - 1);
  m->next = c->memo_buckets[slot];
  c->memo_buckets[slot] = m;
  c->memo_count++;
}

/* Forgets every memoised call (the entries live in the arena; the buckets are freed). */
void reduce_memo_clear(RCtx *c) {
  free(c->memo_buckets);
  c->memo_buckets = NULL;
  c->memo_cap = c->memo_count = 0;
}
