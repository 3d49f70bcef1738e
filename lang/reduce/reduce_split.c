/*
** reduce_split.c — an `if` on the index of its enclosing seq/par splits the index range
** (REDUCTION.md): `par (p = 0, P-1) if (p == 0) A else B` is `A || par (p = 1, P-1) B`.
**
** The condition is a Boolean combination (and, or, not) of comparisons of the index with
** expressions free of it (== != < <= > >=) and of residue tests `i % K == c` / `!=`. Every
** comparison becomes a test `i < cut`; when the cuts can be put in order (their differences are
** numbers), the range a..b falls into consecutive pieces [max(a, u_k), min(b, u_k+1 - 1)] on which
** every test is constant, and residue tests split each piece into classes i = L*j + r (L the lcm
** of the moduli). Pieces are disjoint and cover a..b whatever the values, so empty ones cost
** nothing and no index is counted twice. Anything else is left to the piecewise formula.
*/
#include <string.h>

#include "reduce_internal.h"


typedef struct SplitCtx {
  RCtx *c;                         /* the reduction */
  REnv *env;                       /* scope with the loop index bound at slot */
  int slot;                        /* the loop index's slot */
  AlgSymbol *index;                /* the loop index symbol over a..b */
  AlgExpr *cuts[SPLIT_MAX_CUTS];   /* distinct cuts, in increasing order once sorted */
  int ncuts;                       /* length of cuts */
  long classes;                    /* lcm of the moduli (1: no residue test) */
  int linear;                      /* 1: a par's index, tests linear in it are split too */
  int ok;                          /* 0 once the condition is out of reach */
} SplitCtx;

static int is_loop_index(const SplitCtx *sp, const Expr *e) {
  return e->kind == EX_NAME && e->u.name.kind == NAME_INDEX && e->u.name.slot == sp->slot;
}

/* An expression of the condition free of the loop index, translated; NULL when it uses it. */
static AlgExpr *free_side(SplitCtx *sp, const Expr *e) {
  AlgExpr *v = reduce_expr(sp->c, sp->env, e);
  return alg_contains(v, sp->index) ? NULL : v;
}

/* An integer number of 0 .. SPLIT_MAX_CLASSES, else -1. */
static long small_integer(AlgExpr *e) {
  int ok = 1;
  long v = alg_num_long(e, &ok);
  return ok && v >= 0 && v <= SPLIT_MAX_CLASSES ? v : -1;
}

/* -1, 0, 1 when x < y, x == y, x > y is known for all values; 2 when not decided. */
static int order(RCtx *c, AlgExpr *x, AlgExpr *y) {
  AlgExpr *d = alg_sub(c->alg, x, y);
  if (alg_kind(d) != ALG_NUM) return 2;
  return mpq_sgn(alg_num_value(d));
}

/* Registers cut u (the test `i < u`); 0 when it cannot be ordered against the others. */
static int add_cut(SplitCtx *sp, AlgExpr *u) {
  int at = 0;
  for (; at < sp->ncuts; at++) {
    int o = order(sp->c, u, sp->cuts[at]);
    if (o == 2) return 0;
    if (o == 0) return 1;
    if (o < 0) break;
  }
  if (sp->ncuts == SPLIT_MAX_CUTS) return 0;
  for (int k = sp->ncuts; k > at; k--) sp->cuts[k] = sp->cuts[k - 1];
  sp->cuts[at] = u;
  sp->ncuts++;
  return 1;
}

static long gcd(long x, long y) { while (y) { long t = x % y; x = y; y = t; } return x; }

/* The comparison op with the loop index moved to the left. */
static Op flip(Op op) {
  switch (op) {
  case OP_LT: return OP_GT;
  case OP_LE: return OP_GE;
  case OP_GT: return OP_LT;
  case OP_GE: return OP_LE;
  default: return op;
  }
}

static int is_comparison(Op op) {
  return op == OP_EQ || op == OP_NE || op == OP_LT || op == OP_LE || op == OP_GT || op == OP_GE;
}

/* The cuts of `i op e`: i < ceil(e) for <, >=; i < floor(e) + 1 for <=, >; both for ==, !=. */
/* The comparison `left op right` (not a residue test) as `i op' bound`, bound free of the index
** i: i on one side (`w <= N - r W`), or, for a par's index, both sides linear in i with a number
** slope a != 0 (`(r - 1) * W + w <= N`: a w + rest op 0 is w op -rest / a, the order flipped for
** a < 0). A seq's is not split so: a sum over the `if` as written keeps what the rules of the
** enclosing par read in it (rounds dealt `w + k * W < N`, W set to a number, lost 1% of lo and
** gained 7% of hi when its seq over k was split). NULL where it is not so. */
static AlgExpr *index_bound(SplitCtx *sp, const Expr *left, const Expr *right, Op *op) {
  if (is_loop_index(sp, left)) return free_side(sp, right);
  if (is_loop_index(sp, right)) { *op = flip(*op); return free_side(sp, left); }
  if (!sp->linear) return NULL;
  AlgCtx *g = sp->c->alg;
  AlgExpr *d = alg_expand(g, alg_sub(g, reduce_expr(sp->c, sp->env, left),
                                      reduce_expr(sp->c, sp->env, right)));
  AlgExpr *a = alg_diff(g, d, sp->index);
  if (!a || alg_kind(a) != ALG_NUM || mpq_sgn(alg_num_value(a)) == 0) return NULL;
  AlgExpr *rest = alg_expand(g, alg_sub(g, d, alg_mul(g, a, alg_sym(g, sp->index))));
  if (alg_contains(rest, sp->index)) return NULL;
  if (mpq_sgn(alg_num_value(a)) < 0) *op = flip(*op);
  return alg_div(g, alg_neg(g, rest), a);
}

static AlgExpr *cut_ceil(SplitCtx *sp, AlgExpr *e) { return alg_func(sp->c->alg, ALG_CEIL, e); }
static AlgExpr *cut_floor1(SplitCtx *sp, AlgExpr *e) {
  return alg_add(sp->c->alg, alg_func(sp->c->alg, ALG_FLOOR, e), alg_num_int(sp->c->alg, 1));
}

/* First pass: collects cuts and moduli; sp->ok = 0 when a part is out of reach. */
static void collect(SplitCtx *sp, const Expr *e) {
  if (!sp->ok) return;
  if (e->kind == EX_UNARY && e->u.unary.op == OP_NOT) { collect(sp, e->u.unary.a); return; }
  if (e->kind != EX_BINARY) { sp->ok = 0; return; }
  Op op = e->u.binary.op;
  if (op == OP_AND || op == OP_OR) { collect(sp, e->u.binary.a); collect(sp, e->u.binary.b); return; }
  if (!is_comparison(op)) { sp->ok = 0; return; }
  const Expr *left = e->u.binary.a, *right = e->u.binary.b;
  if (is_loop_index(sp, right)) { const Expr *t = left; left = right; right = t; op = flip(op); }
  if (left->kind == EX_BINARY && left->u.binary.op == OP_MOD && is_loop_index(sp, left->u.binary.a) &&
      (op == OP_EQ || op == OP_NE)) {
    AlgExpr *modulus = free_side(sp, left->u.binary.b), *residue = free_side(sp, right);
    long k = modulus ? small_integer(modulus) : -1;
    if (k < 1 || !residue || alg_kind(residue) != ALG_NUM) { sp->ok = 0; return; }
    long lcm = sp->classes / gcd(sp->classes, k) * k;
    if (lcm > SPLIT_MAX_CLASSES) { sp->ok = 0; return; }
    sp->classes = lcm;
    return;
  }
  AlgExpr *bound = index_bound(sp, left, right, &op);
  if (!bound) { sp->ok = 0; return; }
  if (op != OP_LE && op != OP_GT && !add_cut(sp, cut_ceil(sp, bound))) sp->ok = 0;
  if (op != OP_LT && op != OP_GE && !add_cut(sp, cut_floor1(sp, bound))) sp->ok = 0;
}

/* Position of cut u among the sorted cuts (its rank, 1-based). */
static int rank_of(SplitCtx *sp, AlgExpr *u) {
  for (int k = 0; k < sp->ncuts; k++) if (order(sp->c, u, sp->cuts[k]) == 0) return k + 1;
  return -1;
}

/* Truth of condition e on piece `piece` (0 .. ncuts) and residue class `residue`. */
static int truth(SplitCtx *sp, const Expr *e, int piece, long residue) {
  if (e->kind == EX_UNARY) return !truth(sp, e->u.unary.a, piece, residue);
  Op op = e->u.binary.op;
  if (op == OP_AND) return truth(sp, e->u.binary.a, piece, residue) && truth(sp, e->u.binary.b, piece, residue);
  if (op == OP_OR) return truth(sp, e->u.binary.a, piece, residue) || truth(sp, e->u.binary.b, piece, residue);
  const Expr *left = e->u.binary.a, *right = e->u.binary.b;
  if (is_loop_index(sp, right)) { const Expr *t = left; left = right; right = t; op = flip(op); }
  if (left->kind == EX_BINARY && left->u.binary.op == OP_MOD) {
    long k = small_integer(free_side(sp, left->u.binary.b));
    AlgExpr *want = free_side(sp, right);
    mpq_t r; mpq_init(r);
    mpq_set_si(r, residue % k, 1);
    int equal = mpq_equal(r, alg_num_value(want));
    mpq_clear(r);
    return op == OP_EQ ? equal : !equal;
  }
  AlgExpr *bound = index_bound(sp, left, right, &op);
  int below_ceil = piece < rank_of(sp, cut_ceil(sp, bound));      /* i < ceil(e) */
  int below_floor1 = piece < rank_of(sp, cut_floor1(sp, bound));  /* i <= floor(e) */
  switch (op) {
  case OP_LT: return below_ceil;
  case OP_GE: return !below_ceil;
  case OP_LE: return below_floor1;
  case OP_GT: return !below_floor1;
  case OP_EQ: return !below_ceil && below_floor1;
  default: return !(!below_ceil && below_floor1);
  }
}

/* 1 when hi < lo for every value (the piece is empty). */
static int surely_empty(RCtx *c, AlgExpr *lo, AlgExpr *hi) { return order(c, hi, lo) == -1; }

/* Splits loop (over a..b) by the `if` that is its body; fills pieces (at most REDUCE_MAX_PIECES)
** and returns how many, -1 when no piece runs anything, 0 when the body is not such an `if`. */
int reduce_split_loop(RCtx *c, REnv *env, const Stmt *loop, AlgExpr *a, AlgExpr *b,
                      RPiece *pieces) {
  AlgCtx *g = c->alg;
  const Stmt *body = reduce_unblocked(loop->u.loop.body);
  if (body->kind != ST_IF || env->depth >= EVAL_MAX_INDICES) return 0;
  SplitCtx sp; memset(&sp, 0, sizeof sp);
  sp.c = c; sp.env = env; sp.slot = env->depth; sp.classes = 1; sp.ok = 1;
  sp.linear = loop->kind == ST_PAR;
  sp.index = reduce_index_new(c, reduce_loop_kind(loop), loop->loc, loop->u.loop.var.name, a, b);
  env->idx[env->depth++] = alg_sym(g, sp.index);
  int failed_before = c->failed;
  collect(&sp, body->u.branch.cond);
  int count = 0;
  int applies = sp.ok && c->failed == failed_before && (sp.ncuts > 0 || sp.classes > 1);
  if (applies) {
    for (int k = 0; k <= sp.ncuts; k++) {
      AlgExpr *lo = k == 0 ? a : alg_max(g, a, sp.cuts[k - 1]);
      int last = k;   /* merge following pieces that take the same branch (no residue tests) */
      if (sp.classes == 1)
        while (last < sp.ncuts && truth(&sp, body->u.branch.cond, last + 1, 0) ==
                                  truth(&sp, body->u.branch.cond, k, 0)) last++;
      AlgExpr *hi = last == sp.ncuts ? b : alg_min(g, b, alg_sub(g, sp.cuts[last], alg_num_int(g, 1)));
      for (long r = 0; r < sp.classes; r++) {
        const Stmt *pick = truth(&sp, body->u.branch.cond, k, r) ? body->u.branch.then
                                                                 : body->u.branch.otherwise;
        AlgExpr *step = alg_num_int(g, sp.classes), *rest = alg_num_int(g, r);
        AlgExpr *jlo = sp.classes == 1 ? lo
                     : alg_func(g, ALG_CEIL, alg_div(g, alg_sub(g, lo, rest), step));
        AlgExpr *jhi = sp.classes == 1 ? hi
                     : alg_func(g, ALG_FLOOR, alg_div(g, alg_sub(g, hi, rest), step));
        if (!pick || surely_empty(c, jlo, jhi)) continue;
        RPiece *piece = &pieces[count++];
        piece->index = reduce_index_new(c, reduce_loop_kind(loop), loop->loc, loop->u.loop.var.name, jlo, jhi);
        piece->lo = jlo; piece->hi = jhi; piece->stmt = pick;
        piece->value = sp.classes == 1 ? alg_sym(g, piece->index)
                     : alg_add(g, alg_mul(g, step, alg_sym(g, piece->index)), rest);
      }
      k = last;
    }
  }
  env->depth--;
  if (!applies) { c->failed = failed_before; return 0; }
  return count ? count : -1;
}
