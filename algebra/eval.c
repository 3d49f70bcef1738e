/*
** eval.c — evaluation of expressions over intervals (the reference the tape is checked against)
** and bounds of expressions over the symbols' admissible values. Expressions are DAGs (a max or
** an if shared by many parents): each evaluation remembers its results by node (EvalMemo), so a
** shared node is evaluated once per value of the indices it depends on, not once per path.
*/
#include "expr_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Nesting of big operators whose indices are told apart for the memo (deeper: no memo). */
#define EVAL_MASKED 16

/* Results of one evaluation by node id (open addressing; the evaluation owns it and frees it).
** An entry carries the stamp it was made under: 0 when the node depends on no index rebound by a
** walk in progress (valid to the end of the evaluation), else the walk stamp, which changes
** whenever a walk rebinds an index (or alg_bounds' scale changes): valid only until then. */
typedef struct EvalMemo {
  size_t *keys;             /* id + 1 per slot, 0 when empty (calloc) */
  AlgInterval *values;      /* the result for keys[k] */
  unsigned long *stamps;    /* the stamp it was made under */
  size_t cap, count;        /* slots (a power of two, or 0), slots used */
} EvalMemo;

typedef struct EvalState {
  AlgCtx *ctx;            /* for the loop limit and the bounds memo */
  AlgInterval *values;    /* symbol values by id (a private copy: indices get bound) */
  int memo;               /* nonzero for alg_bounds: values are the admissible ones */
  int rebound;            /* big operators in progress (their indices are not admissible) */
  const AlgSymbol *bound[EVAL_MASKED]; /* the indices of the first EVAL_MASKED of them */
  unsigned long long rebound_mask;   /* symbols_mask bits of those indices (all bits beyond) */
  double scale;           /* alg_bounds: indices walked at once by the walks in progress (their
                             counts multiplied, 1 outside them) */
  EvalMemo nodes;         /* this evaluation's results (alg_bounds: of nodes in walks only) */
  unsigned long stamp;    /* the walk stamp (EvalMemo), 1 outside walks */
  unsigned long work;     /* nodes evaluated so far (alg_bounds: walk_over_budget) */
} EvalState;

static size_t memo_slot(const EvalMemo *m, size_t id) {
  return (size_t)(((unsigned long long)id * 0x9e3779b97f4a7c15ull) >> 20) & (m->cap - 1);
}

/* The slot of id, or of the empty slot where it would go (cap > 0). */
static size_t memo_find(const EvalMemo *m, size_t id) {
  size_t k = memo_slot(m, id);
  while (m->keys[k] && m->keys[k] != id + 1) k = (k + 1) & (m->cap - 1);
  return k;
}

/* 1 with *v set when the memo holds id made under stamp 0 or the current stamp. */
static int memo_get(const EvalState *st, size_t id, AlgInterval *v) {
  const EvalMemo *m = &st->nodes;
  if (!m->cap) return 0;
  size_t k = memo_find(m, id);
  if (!m->keys[k] || (m->stamps[k] && m->stamps[k] != st->stamp)) return 0;
  *v = m->values[k];
  return 1;
}

/* Records v for id under stamp (out of memory: forgets, the evaluation only gets slower). */
static void memo_put(EvalMemo *m, size_t id, AlgInterval v, unsigned long stamp) {
  if (2 * (m->count + 1) > m->cap) {
    EvalMemo grown = {NULL, NULL, NULL, m->cap ? 2 * m->cap : 64, 0};
    grown.keys = calloc(grown.cap, sizeof *grown.keys);
    grown.values = malloc(grown.cap * sizeof *grown.values);
    grown.stamps = malloc(grown.cap * sizeof *grown.stamps);
    if (!grown.keys || !grown.values || !grown.stamps) {
      free(grown.keys); free(grown.values); free(grown.stamps);
      return;
    }
    for (size_t k = 0; k < m->cap; k++) {
      if (!m->keys[k]) continue;
      size_t j = memo_find(&grown, m->keys[k] - 1);
      grown.keys[j] = m->keys[k]; grown.values[j] = m->values[k]; grown.stamps[j] = m->stamps[k];
      grown.count++;
    }
    free(m->keys); free(m->values); free(m->stamps);
    *m = grown;
  }
  size_t k = memo_find(m, id);
  if (!m->keys[k]) m->count++;
  m->keys[k] = id + 1;
  m->values[k] = v;
  m->stamps[k] = stamp;
}

static void memo_free(EvalMemo *m) {
  free(m->keys); free(m->values); free(m->stamps);
  memset(m, 0, sizeof *m);
}

static AlgInterval eval(EvalState *st, const AlgExpr *e);

static AlgInterval truth_of(AlgInterval c) {   /* [0,0] false, [1,1] true, [0,1] undecided */
  if (c.lo == 0 && c.hi == 0) return ival_point(0);
  if (!ival_contains_zero(c)) return ival_point(1);
  return ival_make(0, 1);
}

static AlgInterval fold(EvalState *st, const AlgExpr *e,
                        AlgInterval (*op)(AlgInterval, AlgInterval)) {
  AlgInterval acc = eval(st, e->kids[0]);
  for (size_t i = 1; i < e->nkids; i++) acc = op(acc, eval(st, e->kids[i]));
  return acc;
}

/* Rule (a walk's budget in alg_bounds): a walk of a big operator for bounds over the admissible
** values stops once it has evaluated more nodes than the loop limit since it started (start: the
** count then), and the interval extension of the body over the hull of the range encloses it
** instead (as above the loop limit): as sound, and the time of one sign question stays bounded.
** Before, a sign question of reduce walked every point of a large body: the open grid's four
** guarded corner sends (audit 6, open_corners_time) walked 14 bodies of ~10^3 nodes at each of
** Px points, predict 20 s at Px = 10^4 (Py free; 0.61 s with the walks' node memo, EvalMemo);
** now 0.14 s. */
static int walk_over_budget(const EvalState *st, unsigned long start) {
  return st->memo && st->work - start > st->ctx->loop_limit;
}

/* Enclosure of a big operator: exact walk of the integer points up to the loop limit, else the
   interval extension of the body over the hull of the range. */
static AlgInterval eval_bigop(EvalState *st, const AlgExpr *e) {
  size_t index = e->kids[0]->u.sym->id;
  AlgInterval lower = ival_ceil(eval(st, e->kids[1]));
  AlgInterval upper = ival_floor(eval(st, e->kids[2]));
  AlgInterval saved = st->values[index];
  AlgInterval neutral = ival_point(e->kind == ALG_PROD ? 1 : 0);
  AlgInterval result;
  int points = ival_is_point(lower) && ival_is_point(upper) && isfinite(lower.lo) && isfinite(upper.lo);
  if (points && upper.lo < lower.lo) return neutral;
  unsigned long long saved_mask = st->rebound_mask;
  if (st->rebound < EVAL_MASKED) {
    st->bound[st->rebound] = e->kids[0]->u.sym;
    st->rebound_mask |= e->kids[0]->symbols_mask;
  } else {
    st->rebound_mask = ~0ULL;
  }
  st->rebound++;
  st->stamp++;
  double count_walked = points ? upper.lo - lower.lo + 1 : 0, saved_scale = st->scale;
  int walked = 0;
  /* alg_bounds: a walk inside walks within the loop limit in all (a sign question about a sum
     over k of a max over p at P = 10^4 walked 10^8 points) */
  if (points && upper.lo - lower.lo < (double)st->ctx->loop_limit &&
      (!st->memo || count_walked * st->scale <= (double)st->ctx->loop_limit)) {
    int first = 1;
    st->scale *= count_walked;
    result = neutral;
    unsigned long start = st->work;
    double i = lower.lo;
    for (; i <= upper.lo && !walk_over_budget(st, start); i++) {
      st->values[index] = ival_point(i);
      st->stamp++;
      AlgInterval v = eval(st, e->kids[3]);
      switch (e->kind) {
      case ALG_SUM: result = ival_add(result, v); break;
      case ALG_PROD: result = ival_mul(result, v); break;
      case ALG_MAXOVER: result = first ? v : ival_max(result, v); break;
      default: result = first ? v : ival_min(result, v); break;
      }
      first = 0;
    }
    walked = i > upper.lo;   /* every point, within the budget */
    st->scale = saved_scale;
  }
  if (!walked) {
    st->stamp++;   /* the index over the hull now (a stopped walk's points are no longer bound) */
    AlgInterval count = ival_add(ival_sub(upper, lower), ival_point(1));
    count = ival_max(count, ival_point(0));
    int maybe_empty = count.lo < 1;
    st->values[index] = ival_make(lower.lo, upper.hi < lower.lo ? lower.lo : upper.hi);
    AlgInterval v = eval(st, e->kids[3]);
    switch (e->kind) {
    case ALG_SUM: result = ival_mul(count, v); break;
    case ALG_PROD:
      result = ival_subset(v, ival_make(0, INFINITY)) ? ival_pow(v, count) : ival_entire();
      break;
    default: result = v; break;
    }
    if (maybe_empty) result = ival_hull(result, neutral);
  }
  st->values[index] = saved;
  st->rebound--;
  st->rebound_mask = saved_mask;
  st->scale = saved_scale;
  st->stamp++;
  return result;
}

static AlgInterval eval_node(EvalState *st, const AlgExpr *e);

/* 1 when e may depend on an index rebound by a walk in progress (alg_may_depend; beyond
   EVAL_MASKED walks, on any symbol). */
static int may_depend(const EvalState *st, const AlgExpr *e) {
  if (!(e->symbols_mask & st->rebound_mask)) return 0;
  return st->rebound > EVAL_MASKED || alg_may_depend(e, st->bound, st->rebound);
}

/* Bounds over the admissible values are a fixed property of a node: remembered by id in the
   context for a node that does not depend on the indices rebound (a walk binds its index to each
   point), so shared subexpressions are evaluated once, and a part of a body free of the index
   once for the whole walk (the sum over w inside the max over w of T_hi was walked again at every
   w: P^2 walks of the body at a numeric P). Every other node with kids is remembered in the
   evaluation's own memo (EvalMemo), under the walk stamp when it depends on a rebound index. */
static AlgInterval eval(EvalState *st, const AlgExpr *e) {
  AlgCtx *ctx = st->ctx;
  if (e->nkids == 0) return eval_node(st, e);
  int walked = st->rebound && may_depend(st, e);
  if (!st->memo || walked) {
    AlgInterval v;
    if (memo_get(st, e->id, &v)) return v;
    v = eval_node(st, e);
    memo_put(&st->nodes, e->id, v, walked ? st->stamp : 0);
    return v;
  }
  if (e->id < ctx->bounds_size && ctx->bounds_known[e->id]) return ctx->bounds_memo[e->id];
  double saved_scale = st->scale;   /* free of the walks: as outside them */
  st->scale = 1;
  st->stamp++;
  AlgInterval v = eval_node(st, e);
  st->scale = saved_scale;
  st->stamp++;
  if (e->id >= ctx->bounds_size) {
    size_t size = ctx->nnodes + ctx->nnodes / 2 + 64;
    AlgInterval *memo = realloc(ctx->bounds_memo, size * sizeof *memo);
    if (memo) ctx->bounds_memo = memo;
    unsigned char *known = realloc(ctx->bounds_known, size);
    if (known) ctx->bounds_known = known;
    if (!memo || !known) return v;
    memset(known + ctx->bounds_size, 0, size - ctx->bounds_size);
    ctx->bounds_size = size;
  }
  ctx->bounds_memo[e->id] = v;
  ctx->bounds_known[e->id] = 1;
  return v;
}

static AlgInterval eval_node(EvalState *st, const AlgExpr *e) {
  st->work++;
  switch (e->kind) {
  case ALG_NUM: case ALG_IVAL: return alg_num_enclosure(e);
  case ALG_SYM: return st->values[e->u.sym->id];
  case ALG_ADD: return fold(st, e, ival_add);
  case ALG_MUL: {   /* a quotient divides once, as the tape does */
    AlgExpr *num, *den;
    if (st->memo) return fold(st, e, ival_mul);   /* alg_bounds runs while nodes are made */
    alg_split_quotient(st->ctx, (AlgExpr *)e, &num, &den);
    if (!den) return fold(st, e, ival_mul);
    return ival_div(eval(st, num), eval(st, den));
  }
  case ALG_MIN: return fold(st, e, ival_min);
  case ALG_MAX: return fold(st, e, ival_max);
  case ALG_POW:
    if (alg_is_num(e->kids[1], -1)) return ival_div(ival_point(1), eval(st, e->kids[0]));
    return ival_pow(eval(st, e->kids[0]), eval(st, e->kids[1]));
  case ALG_MOD: return ival_mod(eval(st, e->kids[0]), eval(st, e->kids[1]));
  case ALG_CEIL: return ival_ceil(eval(st, e->kids[0]));
  case ALG_FLOOR: return ival_floor(eval(st, e->kids[0]));
  case ALG_ABS: return ival_abs(eval(st, e->kids[0]));
  case ALG_LOG: return ival_log(eval(st, e->kids[0]));
  case ALG_LOG2: return ival_log2(eval(st, e->kids[0]));
  case ALG_EXP: return ival_exp(eval(st, e->kids[0]));
  case ALG_SQRT: return ival_sqrt(eval(st, e->kids[0]));
  case ALG_EQ: return ival_cmp(ALG_CMP_EQ, eval(st, e->kids[0]), eval(st, e->kids[1]));
  case ALG_NE: return ival_cmp(ALG_CMP_NE, eval(st, e->kids[0]), eval(st, e->kids[1]));
  case ALG_LT: return ival_cmp(ALG_CMP_LT, eval(st, e->kids[0]), eval(st, e->kids[1]));
  case ALG_LE: return ival_cmp(ALG_CMP_LE, eval(st, e->kids[0]), eval(st, e->kids[1]));
  case ALG_AND: case ALG_OR: {   /* n-ary: the deciding value anywhere decides */
    double decides = e->kind == ALG_OR ? 1 : 0;
    int undecided = 0;
    for (size_t i = 0; i < e->nkids; i++) {
      AlgInterval a = truth_of(eval(st, e->kids[i]));
      if (a.lo == decides && a.hi == decides) return ival_point(decides);
      if (a.lo != a.hi) undecided = 1;
    }
    return undecided ? ival_make(0, 1) : ival_point(1 - decides);
  }
  case ALG_NOT: {
    AlgInterval a = truth_of(eval(st, e->kids[0]));
    return ival_make(1 - a.hi, 1 - a.lo);
  }
  case ALG_COND: {
    AlgInterval c = truth_of(eval(st, e->kids[0]));
    if (c.lo == 1) return eval(st, e->kids[1]);
    if (c.hi == 0) return eval(st, e->kids[2]);
    return ival_hull(eval(st, e->kids[1]), eval(st, e->kids[2]));
  }
  case ALG_SUM: case ALG_PROD: case ALG_MAXOVER: case ALG_MINOVER: return eval_bigop(st, e);
  case ALG_LOWER: return e->nkids > 1 ? fold(st, e, ival_max) : eval(st, e->kids[0]);
  case ALG_UPPER: return e->nkids > 1 ? fold(st, e, ival_min) : eval(st, e->kids[0]);
  default: return ival_entire();
  }
}

/* One more than the largest id of a symbol free in e (0 when none): env must cover these. */
static size_t free_id_end(AlgCtx *ctx, const AlgExpr *e) {
  size_t count = alg_collect_free(ctx, e, NULL, 0), end = 0;
  AlgSymbol **free_syms = malloc((count ? count : 1) * sizeof *free_syms);
  if (!free_syms) return ctx->nsymbols;
  alg_collect_free(ctx, e, free_syms, count);
  for (size_t i = 0; i < count; i++)
    if (free_syms[i]->id + 1 > end) end = free_syms[i]->id + 1;
  free(free_syms);
  return end;
}

AlgInterval alg_eval_tree(AlgCtx *ctx, const AlgExpr *e, const AlgInterval *env) {
  size_t count = ctx->nsymbols;
  EvalState st = {ctx, malloc((count ? count : 1) * sizeof(AlgInterval)), 0, 0, {0}, 0, 1, {0}, 1, 0};
  if (!st.values) return ival_entire();
  size_t needed = free_id_end(ctx, e);   /* env only has to cover the free symbols */
  for (size_t i = 0; i < count; i++) st.values[i] = i < needed ? env[i] : ival_entire();
  AlgInterval v = eval(&st, e);
  memo_free(&st.nodes);
  free(st.values);
  return v;
}

/* The interval a symbol may take: its assumption, narrowed to integers when it is one. */
static AlgInterval admissible(const AlgSymbol *sym) {
  double lo = sym->assume.lo, hi = sym->assume.hi;
  if (sym->assume.integer) {
    lo = ceil(lo);
    hi = floor(hi);
    if (hi < lo) hi = lo;
  }
  return ival_make(lo, hi);
}

AlgInterval alg_bounds(AlgCtx *ctx, const AlgExpr *e) {
  if (e->kind == ALG_NUM || e->kind == ALG_IVAL) return alg_num_enclosure(e);
  if (ctx->admissible_size < ctx->nsymbols) {   /* symbols were added: extend the table */
    AlgInterval *grown = realloc(ctx->admissible, ctx->nsymbols * sizeof *grown);
    if (!grown) return ival_entire();
    for (size_t i = ctx->admissible_size; i < ctx->nsymbols; i++) grown[i] = admissible(ctx->symbols[i]);
    ctx->admissible = grown;
    ctx->admissible_size = ctx->nsymbols;
  }
  /* evaluation rebinds index entries and restores them: the table is left as it was */
  EvalState st = {ctx, ctx->admissible, 1, 0, {0}, 0, 1, {0}, 1, 0};
  AlgInterval v = eval(&st, e);
  memo_free(&st.nodes);
  return v;
}
