/*
** alg_pool.c — the bump allocator of alg_pool.h.
*/
#include "alg_pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Blocks of this size; larger requests get a block of their own. */
#define ALG_POOL_BLOCK_SIZE ((size_t)64 * 1024)
#define ALG_POOL_ALIGN ((size_t)16)   /* enough for mpq_t, doubles and pointers */

struct AlgPoolBlock {
  AlgPoolBlock *next;   /* older block */
  size_t size;          /* usable bytes in data */
  _Alignas(16) unsigned char data[];
};

void alg_pool_init(AlgPool *pool) {
  pool->head = NULL;
  pool->used = 0;
}

void alg_pool_free(AlgPool *pool) {
  AlgPoolBlock *block = pool->head;
  while (block) {
    AlgPoolBlock *older = block->next;
    free(block);
    block = older;
  }
  alg_pool_init(pool);
}

static AlgPoolBlock *new_block(size_t size) {
  AlgPoolBlock *block = calloc(1, sizeof(AlgPoolBlock) + size);
  if (!block) {
    fputs("pamc: out of memory\n", stderr);
    abort();
  }
  block->size = size;
  return block;
}

void *alg_pool_alloc(AlgPool *pool, size_t size) {
  size_t rounded = (size + ALG_POOL_ALIGN - 1) & ~(ALG_POOL_ALIGN - 1);
  if (rounded == 0) rounded = ALG_POOL_ALIGN;
  if (rounded > ALG_POOL_BLOCK_SIZE / 4) {   /* big: own block behind the current one */
    AlgPoolBlock *block = new_block(rounded);
    if (pool->head) {
      block->next = pool->head->next;
      pool->head->next = block;
    } else {
      pool->head = block;
      pool->used = rounded;
    }
    return block->data;
  }
  if (!pool->head || pool->used + rounded > pool->head->size) {
    AlgPoolBlock *block = new_block(ALG_POOL_BLOCK_SIZE);
    block->next = pool->head;
    pool->head = block;
    pool->used = 0;
  }
  void *memory = pool->head->data + pool->used;
  pool->used += rounded;
  return memory;
}

char *alg_pool_strdup(AlgPool *pool, const char *text) {
  size_t length = strlen(text);
  char *copy = alg_pool_alloc(pool, length + 1);
  memcpy(copy, text, length);
  return copy;
}
