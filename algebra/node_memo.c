/*
** node_memo.c — results by node of one walk over an expression (substitution, collection,
** expansion, closing): an open-addressing table sized by the nodes the walk visits, not by the
** context (a table of every node in the context per walk made reductions of 10^5 statements or
** process definitions quadratic).
*/
#include "expr_impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void alg_node_memo_init(AlgNodeMemo *memo) { memset(memo, 0, sizeof *memo); }

static size_t memo_slot(const AlgNodeMemo *memo, size_t key) {
  return (size_t)(((uint64_t)key * 0x9e3779b97f4a7c15u) >> 20) & (memo->cap - 1);
}

AlgExpr *alg_node_memo_get(const AlgNodeMemo *memo, size_t key) {
  if (!memo->cap) return NULL;
  for (size_t k = memo_slot(memo, key); memo->keys[k]; k = (k + 1) & (memo->cap - 1))
    if (memo->keys[k] == key + 1) return memo->done[k];
  return NULL;
}

void alg_node_memo_put(AlgNodeMemo *memo, size_t key, AlgExpr *result) {
  if (2 * (memo->count + 1) > memo->cap) {
    AlgNodeMemo grown = {NULL, NULL, memo->cap ? 2 * memo->cap : 64, 0};
    grown.keys = calloc(grown.cap, sizeof *grown.keys);
    grown.done = malloc(grown.cap * sizeof *grown.done);
    if (!grown.keys || !grown.done) { free(grown.keys); free(grown.done); return; }
    for (size_t k = 0; k < memo->cap; k++) {
      if (!memo->keys[k]) continue;
      size_t j = memo_slot(&grown, memo->keys[k] - 1);
      while (grown.keys[j]) j = (j + 1) & (grown.cap - 1);
      grown.keys[j] = memo->keys[k];
      grown.done[j] = memo->done[k];
      grown.count++;
    }
    free(memo->keys);
    free(memo->done);
    *memo = grown;
  }
  size_t k = memo_slot(memo, key);
  while (memo->keys[k]) k = (k + 1) & (memo->cap - 1);
  memo->keys[k] = key + 1;
  memo->done[k] = result;
  memo->count++;
}

void alg_node_memo_free(AlgNodeMemo *memo) {
  free(memo->keys);
  free(memo->done);
  memset(memo, 0, sizeof *memo);
}
