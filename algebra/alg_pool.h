/*
** alg_pool.h — bump allocation for one algebra context: nodes, kid arrays and strings live
** until alg_pool_free. (algebra/ depends on nothing of ours outside itself, hence its own pool.)
*/
#ifndef PAMC_ALG_POOL_H
#define PAMC_ALG_POOL_H

#include <stddef.h>

typedef struct AlgPoolBlock AlgPoolBlock;

typedef struct AlgPool {
  AlgPoolBlock *head;   /* newest block; older ones chained behind */
  size_t used;          /* bytes used in head */
} AlgPool;

void alg_pool_init(AlgPool *pool);
void alg_pool_free(AlgPool *pool);
void *alg_pool_alloc(AlgPool *pool, size_t size);   /* zeroed; aborts on out-of-memory */
char *alg_pool_strdup(AlgPool *pool, const char *text);

#endif
