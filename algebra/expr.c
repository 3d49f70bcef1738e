/*
** expr.c — the algebra context: node interning (hash-consing), symbols, reading nodes, free
** symbols, the canonical order of nodes and the value classes (integer, boolean) of nodes.
*/
#include "expr_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ALG_FIRST_BUCKETS 1024   /* intern table starts here, doubles when full */

static void *xrealloc(void *memory, size_t size) {
  void *grown = realloc(memory, size);
  if (!grown) {
    fputs("pamc: out of memory\n", stderr);
    abort();
  }
  return grown;
}

/* ---- context ---- */

AlgCtx *alg_ctx_new(void) {
  AlgCtx *ctx = xrealloc(NULL, sizeof *ctx);
  memset(ctx, 0, sizeof *ctx);
  alg_pool_init(&ctx->pool);
  ctx->nbuckets = ALG_FIRST_BUCKETS;
  ctx->buckets = xrealloc(NULL, ctx->nbuckets * sizeof *ctx->buckets);
  memset(ctx->buckets, 0, ctx->nbuckets * sizeof *ctx->buckets);
  ctx->loop_limit = ALG_DEFAULT_LOOP_LIMIT;
  return ctx;
}

void alg_ctx_free(AlgCtx *ctx) {
  if (!ctx) return;
  for (size_t i = 0; i < ctx->nnodes; i++)
    if (ctx->nodes[i]->kind == ALG_NUM) mpq_clear(ctx->nodes[i]->u.num);
  free(ctx->nodes);
  free(ctx->symbols);
  free(ctx->sign_memo);
  free(ctx->admissible);
  free(ctx->bounds_memo);
  free(ctx->bounds_known);
  free(ctx->visit_stamp);
  free(ctx->buckets);
  free(ctx->op_buckets);
  alg_pool_free(&ctx->pool);
  free(ctx);
}

size_t alg_ctx_node_count(const AlgCtx *ctx) { return ctx->nnodes; }
void alg_ctx_set_loop_limit(AlgCtx *ctx, unsigned long limit) { ctx->loop_limit = limit; }
unsigned long alg_ctx_loop_limit(const AlgCtx *ctx) { return ctx->loop_limit; }

void *alg_temp_bytes(size_t size) { return xrealloc(NULL, size ? size : 1); }
AlgExpr **alg_temp(size_t count) { return alg_temp_bytes(count * sizeof(AlgExpr *)); }

AlgExpr **alg_scratch(AlgCtx *ctx, size_t count) {
  return alg_pool_alloc(&ctx->pool, (count ? count : 1) * sizeof(AlgExpr *));
}

/* ---- interning ---- */

static unsigned long mix(unsigned long h, unsigned long v) {
  h ^= v + 0x9e3779b97f4a7c15UL + (h << 6) + (h >> 2);
  return h;
}

unsigned long alg_hash_q(mpq_srcptr q) {
  unsigned long h = mix(0x51, mpz_get_ui(mpq_numref(q)));
  h = mix(h, (unsigned long)mpz_sgn(mpq_numref(q)) + 7);
  h = mix(h, mpz_size(mpq_numref(q)));
  return mix(h, mpz_get_ui(mpq_denref(q)));
}

static unsigned long hash_double(double x) {
  unsigned long bits = 0;
  memcpy(&bits, &x, sizeof x < sizeof bits ? sizeof x : sizeof bits);
  return bits;
}

static void grow_table(AlgCtx *ctx) {
  size_t count = ctx->nbuckets * 2;
  AlgExpr **buckets = xrealloc(NULL, count * sizeof *buckets);
  memset(buckets, 0, count * sizeof *buckets);
  for (size_t i = 0; i < ctx->nnodes; i++) {
    AlgExpr *node = ctx->nodes[i];
    size_t slot = node->hash & (count - 1);
    node->chain = buckets[slot];
    buckets[slot] = node;
  }
  free(ctx->buckets);
  ctx->buckets = buckets;
  ctx->nbuckets = count;
}

static unsigned node_traits(const AlgExpr *e);

AlgExpr *alg_add_node(AlgCtx *ctx, AlgExpr *node) {
  node->traits = node_traits(node);
  if (ctx->nnodes == ctx->cap_nodes) {
    ctx->cap_nodes = ctx->cap_nodes ? 2 * ctx->cap_nodes : 1024;
    ctx->nodes = xrealloc(ctx->nodes, ctx->cap_nodes * sizeof *ctx->nodes);
  }
  node->id = ctx->nnodes;
  ctx->nodes[ctx->nnodes++] = node;
  if (ctx->nnodes > ctx->nbuckets) grow_table(ctx);
  else {
    size_t slot = node->hash & (ctx->nbuckets - 1);
    node->chain = ctx->buckets[slot];
    ctx->buckets[slot] = node;
  }
  return node;
}

AlgExpr *alg_intern(AlgCtx *ctx, AlgKind kind, size_t nkids, AlgExpr *const *kids) {
  unsigned long h = mix(0x1234, (unsigned long)kind);
  for (size_t i = 0; i < nkids; i++) h = mix(h, kids[i]->id);
  for (AlgExpr *node = ctx->buckets[h & (ctx->nbuckets - 1)]; node; node = node->chain) {
    if (node->hash != h || node->kind != kind || node->nkids != nkids) continue;
    size_t i = 0;
    while (i < nkids && node->kids[i] == kids[i]) i++;
    if (i == nkids) return node;
  }
  AlgExpr *node = alg_pool_alloc(&ctx->pool, sizeof *node);
  node->kind = kind;
  node->hash = h;
  node->nkids = nkids;
  node->kids = alg_pool_alloc(&ctx->pool, nkids * sizeof(AlgExpr *));
  memcpy(node->kids, kids, nkids * sizeof(AlgExpr *));
  for (size_t i = 0; i < nkids; i++) node->symbols_mask |= kids[i]->symbols_mask;
  return alg_add_node(ctx, node);
}

AlgExpr *alg_ival(AlgCtx *ctx, double lo, double hi) {
  if (lo == hi && isfinite(lo)) return alg_num_double(ctx, lo);
  unsigned long h = mix(mix(0x77, hash_double(lo)), hash_double(hi));
  for (AlgExpr *node = ctx->buckets[h & (ctx->nbuckets - 1)]; node; node = node->chain)
    if (node->hash == h && node->kind == ALG_IVAL && node->u.ival.lo == lo && node->u.ival.hi == hi)
      return node;
  AlgExpr *node = alg_pool_alloc(&ctx->pool, sizeof *node);
  node->kind = ALG_IVAL;
  node->hash = h;
  node->u.ival.lo = lo;
  node->u.ival.hi = hi;
  return alg_add_node(ctx, node);
}

/* ---- symbols ---- */

AlgAssume alg_assume_default(AlgSymKind kind) {
  AlgAssume assume = {-INFINITY, INFINITY, 0};
  if (kind == ALG_SYM_PARAM) assume.lo = 1;
  if (kind == ALG_SYM_CONST) assume.lo = 0;
  if (kind == ALG_SYM_INDEX) assume.integer = 1;
  return assume;
}

AlgSymbol *alg_symbol_new(AlgCtx *ctx, const char *name, AlgSymKind kind, AlgAssume assume) {
  if (ctx->nsymbols == ctx->cap_symbols) {
    ctx->cap_symbols = ctx->cap_symbols ? 2 * ctx->cap_symbols : 64;
    ctx->symbols = xrealloc(ctx->symbols, ctx->cap_symbols * sizeof *ctx->symbols);
  }
  AlgSymbol *sym = alg_pool_alloc(&ctx->pool, sizeof *sym);
  sym->name = alg_pool_strdup(&ctx->pool, name);
  sym->kind = kind;
  sym->assume = assume;
  sym->id = ctx->nsymbols;
  ctx->symbols[ctx->nsymbols++] = sym;
  AlgExpr *node = alg_pool_alloc(&ctx->pool, sizeof *node);
  node->kind = ALG_SYM;
  node->hash = mix(0x5e, sym->id);
  node->u.sym = sym;
  node->symbols_mask = 1ULL << (sym->id % 64);
  sym->node = alg_add_node(ctx, node);
  return sym;
}

AlgSymbol *alg_index_new(AlgCtx *ctx, const char *name, AlgExpr *lower, AlgExpr *upper) {
  AlgAssume assume = alg_assume_default(ALG_SYM_INDEX);
  assume.lo = ceil(alg_bounds(ctx, lower).lo);
  assume.hi = floor(alg_bounds(ctx, upper).hi);
  if (assume.hi < assume.lo) assume.hi = assume.lo;   /* empty for all values: never bound */
  AlgSymbol *sym = alg_symbol_new(ctx, name, ALG_SYM_INDEX, assume);
  sym->range_lower = lower;
  sym->range_upper = upper;
  return sym;
}

AlgSymbol *alg_symbol_find(const AlgCtx *ctx, const char *name) {
  for (size_t i = ctx->nsymbols; i-- > 0;)
    if (strcmp(ctx->symbols[i]->name, name) == 0) return ctx->symbols[i];
  return NULL;
}

size_t alg_symbol_count(const AlgCtx *ctx) { return ctx->nsymbols; }
AlgSymbol *alg_symbol_at(const AlgCtx *ctx, size_t id) { return ctx->symbols[id]; }
const char *alg_symbol_name(const AlgSymbol *sym) { return sym->name; }
size_t alg_symbol_id(const AlgSymbol *sym) { return sym->id; }
AlgSymKind alg_symbol_kind(const AlgSymbol *sym) { return sym->kind; }
AlgAssume alg_symbol_assume(const AlgSymbol *sym) { return sym->assume; }
AlgExpr *alg_sym(AlgCtx *ctx, AlgSymbol *sym) { (void)ctx; return sym->node; }

/* ---- reading nodes ---- */

AlgKind alg_kind(const AlgExpr *e) { return e->kind; }
size_t alg_id(const AlgExpr *e) { return e->id; }
size_t alg_nkids(const AlgExpr *e) { return e->nkids; }
AlgExpr *alg_kid(const AlgExpr *e, size_t i) { return e->kids[i]; }
mpq_srcptr alg_num_value(const AlgExpr *e) { return e->u.num; }
AlgInterval alg_ival_value(const AlgExpr *e) { return e->u.ival; }

long alg_gcd_long(long a, long b) {
  while (b) { long r = a % b; a = b; b = r; }
  return a;
}

long alg_num_long(const AlgExpr *e, int *ok) {
  if (e->kind != ALG_NUM || mpz_cmp_ui(mpq_denref(e->u.num), 1) != 0 ||
      !mpz_fits_slong_p(mpq_numref(e->u.num))) {
    *ok = 0;
    return 0;
  }
  return mpz_get_si(mpq_numref(e->u.num));
}

AlgInterval alg_num_enclosure(const AlgExpr *e) {
  return e->kind == ALG_NUM ? alg_q_enclosure(e->u.num) : e->u.ival;
}

AlgSymbol *alg_symbol_of(const AlgExpr *e) {
  return e->kind == ALG_SYM ? e->u.sym : e->kids[0]->u.sym;
}

static const char *const kind_names[ALG_KIND_COUNT] = {
  "num", "ival", "sym", "add", "mul", "pow", "mod", "min", "max",
  "ceil", "floor", "abs", "log", "log2", "exp", "sqrt",
  "eq", "ne", "lt", "le", "and", "or", "not", "cond",
  "sum", "prod", "maxover", "minover", "lower", "upper",
};

const char *alg_kind_name(AlgKind kind) {
  return kind < ALG_KIND_COUNT ? kind_names[kind] : "?";
}

int alg_is_approx(const AlgExpr *e) { return (e->traits & ALG_TRAIT_APPROX) != 0; }
int alg_has_bigop(const AlgExpr *e) { return (e->traits & ALG_TRAIT_BIGOP) != 0; }

int alg_contains(const AlgExpr *e, const AlgSymbol *sym) {
  if (!(e->symbols_mask & (1ULL << (sym->id % 64)))) return 0;
  if (e->kind == ALG_SYM) return e->u.sym == sym;
  if (e->kind >= ALG_SUM && e->kind <= ALG_MINOVER && e->kids[0]->u.sym == sym)
    return alg_contains(e->kids[1], sym) || alg_contains(e->kids[2], sym);
  for (size_t i = 0; i < e->nkids; i++)
    if (alg_contains(e->kids[i], sym)) return 1;
  return 0;
}

static unsigned long long bits_of(const AlgSymbol *const *bound, int n, const AlgSymbol *except) {
  unsigned long long bits = 0;
  for (int k = 0; k < n; k++)
    if (bound[k] != except) bits |= 1ULL << (bound[k]->id % 64);
  return bits;
}

int alg_may_depend(const AlgExpr *e, const AlgSymbol *const *bound, int n) {
  unsigned long long all = bits_of(bound, n, NULL);
  if (!(e->symbols_mask & all)) return 0;
  if (e->kind < ALG_SUM || e->kind > ALG_MINOVER) return 1;
  return ((e->kids[1]->symbols_mask | e->kids[2]->symbols_mask) & all) ||
         (e->kids[3]->symbols_mask & bits_of(bound, n, e->kids[0]->u.sym));
}

/* Starts a walk over the DAG: visited(ctx, node) is true from the second visit on. */
static void walk_begin(AlgCtx *ctx) {
  if (ctx->visit_size < ctx->nnodes) {
    size_t size = ctx->nnodes + ctx->nnodes / 2 + 64;
    unsigned *grown = xrealloc(ctx->visit_stamp, size * sizeof *grown);
    memset(grown + ctx->visit_size, 0, (size - ctx->visit_size) * sizeof *grown);
    ctx->visit_stamp = grown;
    ctx->visit_size = size;
  }
  if (++ctx->visit_walk == 0) {   /* wrapped: forget every stamp */
    memset(ctx->visit_stamp, 0, ctx->visit_size * sizeof *ctx->visit_stamp);
    ctx->visit_walk = 1;
  }
}

static int visited(AlgCtx *ctx, const AlgExpr *e) {
  if (ctx->visit_stamp[e->id] == ctx->visit_walk) return 1;
  ctx->visit_stamp[e->id] = ctx->visit_walk;
  return 0;
}

typedef struct SymbolList {
  AlgSymbol **items;   /* malloc, grown by doubling */
  size_t count;        /* symbols in items */
  size_t cap;          /* room in items */
} SymbolList;

/* Adds every symbol occurring in e (free or bound) to list, once each. */
static void collect_symbols(AlgCtx *ctx, const AlgExpr *e, SymbolList *list) {
  if (!e->symbols_mask || visited(ctx, e)) return;
  if (e->kind == ALG_SYM) {
    if (list->count == list->cap) {
      list->cap = list->cap ? 2 * list->cap : 16;
      list->items = xrealloc(list->items, list->cap * sizeof *list->items);
    }
    list->items[list->count++] = e->u.sym;
    return;
  }
  for (size_t i = 0; i < e->nkids; i++) collect_symbols(ctx, e->kids[i], list);
}

size_t alg_collect_free(AlgCtx *ctx, const AlgExpr *e, AlgSymbol **out, size_t cap) {
  SymbolList list = {NULL, 0, 0};
  size_t kept = 0;
  walk_begin(ctx);
  collect_symbols(ctx, e, &list);
  for (size_t i = 0; i < list.count; i++) {   /* bound indices occur but are not free */
    if (!alg_contains(e, list.items[i])) continue;
    if (kept < cap) out[kept] = list.items[i];
    kept++;
  }
  free(list.items);
  return kept;
}

static int by_id(const void *x, const void *y) {
  size_t a = (*(AlgSymbol *const *)x)->id, b = (*(AlgSymbol *const *)y)->id;
  return a < b ? -1 : a > b;
}

size_t alg_free_symbols(AlgCtx *ctx, const AlgExpr *e, AlgSymbol **out, size_t cap) {
  size_t count = alg_collect_free(ctx, e, NULL, 0);
  AlgSymbol **all = xrealloc(NULL, (count ? count : 1) * sizeof *all);
  alg_collect_free(ctx, e, all, count);
  qsort(all, count, sizeof *all, by_id);
  for (size_t i = 0; i < count && i < cap; i++) out[i] = all[i];
  free(all);
  return count;
}

/* ---- canonical order ---- */

static int kind_rank(AlgKind kind) {
  return kind == ALG_NUM ? 0 : kind == ALG_IVAL ? 1 : kind == ALG_SYM ? 2 : 3 + (int)kind;
}

int alg_order(const AlgExpr *a, const AlgExpr *b) {
  if (a == b) return 0;
  int ra = kind_rank(a->kind), rb = kind_rank(b->kind);
  if (ra != rb) return ra < rb ? -1 : 1;
  switch (a->kind) {
  case ALG_NUM: return mpq_cmp(a->u.num, b->u.num) < 0 ? -1 : 1;
  case ALG_IVAL:
    if (a->u.ival.lo != b->u.ival.lo) return a->u.ival.lo < b->u.ival.lo ? -1 : 1;
    return a->u.ival.hi < b->u.ival.hi ? -1 : 1;
  case ALG_SYM: return a->u.sym->id < b->u.sym->id ? -1 : 1;
  default: break;
  }
  for (size_t i = 0; i < a->nkids && i < b->nkids; i++) {
    int c = alg_order(a->kids[i], b->kids[i]);
    if (c) return c;
  }
  if (a->nkids != b->nkids) return a->nkids < b->nkids ? -1 : 1;
  return a->id < b->id ? -1 : 1;   /* not reached for distinct interned nodes */
}

static int order_cb(const void *x, const void *y) {
  return alg_order(*(AlgExpr *const *)x, *(AlgExpr *const *)y);
}

void alg_sort(AlgExpr **items, size_t count) { qsort(items, count, sizeof *items, order_cb); }

/* ---- value classes ---- */

/* INTEGER and BOOLEAN bits of a node from its kids' traits. */
static unsigned value_traits(const AlgExpr *e) {
  unsigned all = ALG_TRAIT_INTEGER | ALG_TRAIT_BOOLEAN;
  switch (e->kind) {
  case ALG_NUM:
    if (alg_is_num(e, 0) || alg_is_num(e, 1)) return all;
    return alg_num_is_integer(e) ? ALG_TRAIT_INTEGER : 0;
  case ALG_SYM: return e->u.sym->assume.integer ? ALG_TRAIT_INTEGER : 0;
  case ALG_CEIL: case ALG_FLOOR: return ALG_TRAIT_INTEGER;
  case ALG_ADD: case ALG_MUL: case ALG_MIN: case ALG_MAX: case ALG_ABS: case ALG_MOD:
    for (size_t i = 0; i < e->nkids; i++)
      if (!(e->kids[i]->traits & ALG_TRAIT_INTEGER)) return 0;
    return ALG_TRAIT_INTEGER;
  case ALG_POW:
    return (e->kids[0]->traits & ALG_TRAIT_INTEGER) && alg_num_is_integer(e->kids[1]) &&
           alg_num_sign(e->kids[1]) >= 0 ? ALG_TRAIT_INTEGER : 0;
  case ALG_EQ: case ALG_NE: case ALG_LT: case ALG_LE: case ALG_AND: case ALG_OR: case ALG_NOT:
    return all;
  case ALG_COND: return e->kids[1]->traits & e->kids[2]->traits & all;
  default: return 0;
  }
}

/* Every trait of a node, from its own content and its kids' traits. */
static unsigned node_traits(const AlgExpr *e) {
  unsigned traits = alg_sign_traits(e) | value_traits(e);
  if (e->kind >= ALG_SUM && e->kind <= ALG_MINOVER) traits |= ALG_TRAIT_BIGOP;
  if (e->kind == ALG_LOWER || e->kind == ALG_UPPER) traits |= ALG_TRAIT_APPROX;
  /* a marker's exact form (kid 1) is open on purpose: the marker counts as closed */
  size_t kids = (e->kind == ALG_LOWER || e->kind == ALG_UPPER) ? 1 : e->nkids;
  for (size_t i = 0; i < kids; i++) traits |= e->kids[i]->traits & (ALG_TRAIT_BIGOP | ALG_TRAIT_APPROX);
  return traits;
}

int alg_is_integer_valued(const AlgExpr *e) { return (e->traits & ALG_TRAIT_INTEGER) != 0; }
int alg_is_boolean(const AlgExpr *e) { return (e->traits & ALG_TRAIT_BOOLEAN) != 0; }
