/*
** reduce.c — REDUCTION.md: per-statement summaries (phi, D_r, L, U, chain) of the entry process,
** combined bottom-up in time independent of param values, closed into T_lo / T_hi.
*/
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "reduce.h"

/* Process arguments a call passes at most (matches the evaluator's limit on fn arguments). */
#define REDUCE_MAX_ARGS EVAL_MAX_ARGS

/* Demand on one resource or one family member. */
typedef struct RTerm {
  const Decl *res;        /* the resource declaration */
  AlgExpr *index;         /* member index, NULL for a plain resource */
  AlgExpr *d_lo, *d_hi;   /* demand for lower-bound / upper-bound uses */
} RTerm;

/* What is known of a family beyond its member terms. */
typedef struct RFam {
  const Decl *res;        /* the family declaration */
  AlgExpr *spread_lo;     /* lower bound on the most loaded member from closed terms, or NULL */
  AlgExpr *total_hi;      /* total demand on the family (upper-bound use) */
} RFam;

typedef struct Summary {
  AlgExpr *phi_lo, *phi_hi; /* contention-free time (lower / upper uses) */
  AlgExpr *L, *U;           /* lower and upper bounds of the statement run alone */
  int chain;                /* 1: no || or par inside */
  RTerm *terms;             /* demand per resource / member */
  int nterms;               /* length of terms */
  RFam *fams;               /* per family */
  int nfams;                /* length of fams */
} Summary;

/* A memoised process call. */
typedef struct RMemo {
  const Decl *proc;                 /* the callee */
  AlgExpr *args[REDUCE_MAX_ARGS];   /* argument expressions */
  int argc;                         /* number of arguments */
  Summary sum;                      /* its summary */
  struct RMemo *next;               /* next memo */
} RMemo;

typedef struct RCtx {
  Program *prog;          /* the program */
  AlgCtx *alg;            /* expressions */
  Arena arena;            /* summaries */
  DiagList *diags;        /* errors */
  int failed;             /* 1 after an error */
  ReduceResult *out;      /* symbols of params and consts */
  RMemo *memo;            /* memoised calls */
} RCtx;

/* Names in scope: arguments and loop indices of the current process or fn. */
typedef struct REnv {
  AlgExpr **args;                     /* argument values by slot */
  int argc;                           /* length of args */
  AlgExpr *idx[EVAL_MAX_INDICES];     /* loop index symbols by slot */
  int depth;                          /* indices in force */
} REnv;

static AlgExpr *tr(RCtx *c, REnv *env, const Expr *e);

static void fail(RCtx *c, SrcLoc loc, const char *msg) {
  if (!c->failed) diag_report(c->diags, DIAG_ERROR, loc, "%s", msg);
  c->failed = 1;
}

static AlgSymbol *symbol_of_decl(RCtx *c, const Decl *d) {
  for (int i = 0; i < c->out->symbol_count; i++)
    if (c->out->symbol_decls[i] == d) return c->out->symbols[i];
  return NULL;
}

static int is_define(RCtx *c, const Decl *d) {
  for (int i = 0; i < c->prog->define_count; i++)
    if (c->prog->define_decls && c->prog->define_decls[i] == d) return 1;
  return 0;
}

static AlgExpr *tr_num(RCtx *c, const Expr *e) {
  AlgExpr *v;
  if (!e->u.num.text || alg_num_decimal(c->alg, e->u.num.text, &v) != 0)
    return alg_num_double(c->alg, e->u.num.value);
  return alg_mul(c->alg, v, alg_num_frac(c->alg, (long)e->u.num.unit_num, (long)e->u.num.unit_den));
}

static AlgExpr *tr_name(RCtx *c, REnv *env, const Expr *e) {
  switch (e->u.name.kind) {
  case NAME_INDEX:
    if (e->u.name.slot < env->depth && env->idx[e->u.name.slot]) return env->idx[e->u.name.slot];
    break;
  case NAME_ARG:
    if (e->u.name.slot < env->argc) return env->args[e->u.name.slot];
    break;
  case NAME_PARAM: case NAME_CONST: {
    AlgSymbol *s = symbol_of_decl(c, e->u.name.decl);
    if (s) return alg_sym(c->alg, s);
    const Expr *v = e->u.name.kind == NAME_PARAM ? e->u.name.decl->u.param.value
                                                  : e->u.name.decl->u.constant.value;
    if (v) { REnv fresh; memset(&fresh, 0, sizeof fresh); return tr(c, &fresh, v); }
    break;
  }
  default: break;
  }
  fail(c, e->loc, "reduce: name without a value");
  return alg_num_int(c->alg, 0);
}

static AlgExpr *tr_binary(RCtx *c, Op op, AlgExpr *a, AlgExpr *b) {
  AlgCtx *g = c->alg;
  switch (op) {
  case OP_ADD: return alg_add(g, a, b);
  case OP_SUB: return alg_sub(g, a, b);
  case OP_MUL: return alg_mul(g, a, b);
  case OP_DIV: return alg_div(g, a, b);
  case OP_MOD: return alg_mod(g, a, b);
  case OP_POW: return alg_pow(g, a, b);
  case OP_EQ: return alg_cmp(g, ALG_CMP_EQ, a, b);
  case OP_NE: return alg_cmp(g, ALG_CMP_NE, a, b);
  case OP_LT: return alg_cmp(g, ALG_CMP_LT, a, b);
  case OP_LE: return alg_cmp(g, ALG_CMP_LE, a, b);
  case OP_GT: return alg_cmp(g, ALG_CMP_GT, a, b);
  case OP_GE: return alg_cmp(g, ALG_CMP_GE, a, b);
  case OP_AND: return alg_and(g, a, b);
  case OP_OR: return alg_or(g, a, b);
  default: return a;
  }
}

static AlgExpr *tr_call(RCtx *c, REnv *env, const Expr *e) {
  AlgCtx *g = c->alg;
  int n = e->u.call.args.count;
  if (n > REDUCE_MAX_ARGS || n < 1) {
    if (e->u.call.builtin < 0 && n == 0) goto user;
    fail(c, e->loc, "reduce: too many arguments");
    return alg_num_int(g, 0);
  }
  user:;
  AlgExpr *a[REDUCE_MAX_ARGS];
  for (int i = 0; i < n; i++) a[i] = tr(c, env, e->u.call.args.items[i]);
  if (e->u.call.builtin < 0) {
    const Decl *fn = e->u.call.decl;
    REnv inner; memset(&inner, 0, sizeof inner);
    inner.args = a; inner.argc = n;
    return tr(c, &inner, fn->u.fn.body);
  }
  switch (e->u.call.builtin) {
  case EVAL_B_MIN: return alg_min_n(g, (size_t)n, a);
  case EVAL_B_MAX: return alg_max_n(g, (size_t)n, a);
  case EVAL_B_CEIL: return alg_func(g, ALG_CEIL, a[0]);
  case EVAL_B_FLOOR: return alg_func(g, ALG_FLOOR, a[0]);
  case EVAL_B_ABS: return alg_func(g, ALG_ABS, a[0]);
  case EVAL_B_SQRT: return alg_func(g, ALG_SQRT, a[0]);
  case EVAL_B_LOG: return alg_func(g, ALG_LOG, a[0]);
  case EVAL_B_LOG2: return alg_func(g, ALG_LOG2, a[0]);
  case EVAL_B_EXP: return alg_func(g, ALG_EXP, a[0]);
  default: break;
  }
  if (alg_kind(a[0]) == ALG_NUM || alg_kind(a[0]) == ALG_IVAL) {
    AlgInterval v = alg_num_enclosure(a[0]);
    switch (e->u.call.builtin) {
    case EVAL_B_LO: return alg_num_double(g, v.lo);
    case EVAL_B_HI: return alg_num_double(g, v.hi);
    case EVAL_B_MID: return alg_ival(g, v.lo + (v.hi - v.lo) / 2, v.lo + (v.hi - v.lo) / 2);
    case EVAL_B_WIDTH: return alg_num_double(g, v.hi - v.lo);
    default: break;
    }
  }
  fail(c, e->loc, "reduce: lo/hi/mid/width of a symbolic value cannot be reduced");
  return alg_num_int(g, 0);
}

static AlgExpr *tr_bind(RCtx *c, REnv *env, const Expr *e) {
  AlgExpr *lo = tr(c, env, e->u.bind.lo), *hi = tr(c, env, e->u.bind.hi);
  if (env->depth >= EVAL_MAX_INDICES) { fail(c, e->loc, "reduce: loops nest too deep"); return lo; }
  AlgSymbol *i = alg_index_new(c->alg, e->u.bind.var.name, lo, hi);
  env->idx[env->depth++] = alg_sym(c->alg, i);
  AlgExpr *body = tr(c, env, e->u.bind.body);
  env->depth--;
  const char *f = e->u.bind.fn.name;
  AlgKind k = !strcmp(f, "sum") ? ALG_SUM : !strcmp(f, "prod") ? ALG_PROD
            : !strcmp(f, "min") ? ALG_MINOVER : ALG_MAXOVER;
  return alg_bigop(c->alg, k, i, lo, hi, body);
}

/* Translates a resolved model expression into the algebra. */
static AlgExpr *tr(RCtx *c, REnv *env, const Expr *e) {
  AlgCtx *g = c->alg;
  switch (e->kind) {
  case EX_NUM: return tr_num(c, e);
  case EX_INTERVAL: {
    AlgExpr *lo = tr(c, env, e->u.interval.lo), *hi = tr(c, env, e->u.interval.hi);
    AlgInterval a = alg_num_enclosure(lo), b = alg_num_enclosure(hi);
    if (alg_kind(lo) == ALG_NUM && lo == hi) return lo;
    return alg_ival(g, a.lo, b.hi);
  }
  case EX_NAME: return tr_name(c, env, e);
  case EX_UNARY: {
    AlgExpr *a = tr(c, env, e->u.unary.a);
    return e->u.unary.op == OP_NEG ? alg_neg(g, a) : alg_not(g, a);
  }
  case EX_BINARY:
    return tr_binary(c, e->u.binary.op, tr(c, env, e->u.binary.a), tr(c, env, e->u.binary.b));
  case EX_COND:
    return alg_cond(g, tr(c, env, e->u.cond.cond), tr(c, env, e->u.cond.then),
                    tr(c, env, e->u.cond.otherwise));
  case EX_CALL: return tr_call(c, env, e);
  case EX_BIND: return tr_bind(c, env, e);
  }
  return alg_num_int(g, 0);
}

/* ------------------------------------------------------------------ summaries */

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

static void sum_init(RCtx *c, Summary *s) {
  memset(s, 0, sizeof *s);
  s->phi_lo = s->phi_hi = s->L = s->U = zero(c);
  s->chain = 1;
}

static AlgExpr *mult(RCtx *c, const Decl *res) {
  if (!res->u.resource.servers) return alg_num_int(c->alg, 1);
  REnv env; memset(&env, 0, sizeof env);
  return tr(c, &env, res->u.resource.servers);
}

static RFam *fam_get(RCtx *c, Summary *s, const Decl *res) {
  for (int i = 0; i < s->nfams; i++) if (s->fams[i].res == res) return &s->fams[i];
  RFam *n = arena_alloc(&c->arena, (size_t)(s->nfams + 1) * sizeof *n);
  if (s->nfams) memcpy(n, s->fams, (size_t)s->nfams * sizeof *n);
  s->fams = n;
  RFam *f = &s->fams[s->nfams++];
  f->res = res; f->spread_lo = NULL; f->total_hi = zero(c);
  return f;
}

static RTerm *term_find(Summary *s, const Decl *res, AlgExpr *index) {
  for (int i = 0; i < s->nterms; i++)
    if (s->terms[i].res == res && s->terms[i].index == index) return &s->terms[i];
  return NULL;
}

static RTerm *term_new(RCtx *c, Summary *s, const Decl *res, AlgExpr *index) {
  RTerm *n = arena_alloc(&c->arena, (size_t)(s->nterms + 1) * sizeof *n);
  if (s->nterms) memcpy(n, s->terms, (size_t)s->nterms * sizeof *n);
  s->terms = n;
  RTerm *t = &s->terms[s->nterms++];
  t->res = res; t->index = index; t->d_lo = t->d_hi = zero(c);
  return t;
}

/* Adds demand (lo, hi) on res[index] to s (the family total follows). */
static void add_demand(RCtx *c, Summary *s, const Decl *res, AlgExpr *index, AlgExpr *lo,
                       AlgExpr *hi) {
  RTerm *t = term_find(s, res, index);
  if (!t) t = term_new(c, s, res, index);
  t->d_lo = alg_add(c->alg, t->d_lo, lo);
  t->d_hi = alg_add(c->alg, t->d_hi, hi);
  if (res->u.resource.count) {
    RFam *f = fam_get(c, s, res);
    f->total_hi = alg_add(c->alg, f->total_hi, hi);
  }
}

/* Merges the demands of b into a (sums; spreads: max). */
static void merge_demands(RCtx *c, Summary *a, const Summary *b) {
  for (int i = 0; i < b->nterms; i++)
    add_demand(c, a, b->terms[i].res, b->terms[i].index, b->terms[i].d_lo, b->terms[i].d_hi);
  for (int i = 0; i < b->nfams; i++) {
    RFam *f = fam_get(c, a, b->fams[i].res);
    if (b->fams[i].spread_lo)
      f->spread_lo = f->spread_lo ? alg_max(c->alg, f->spread_lo, b->fams[i].spread_lo)
                                  : b->fams[i].spread_lo;
  }
}

/* Demand of the family total on res in s (0 when absent). */
static AlgExpr *fam_total(RCtx *c, const Summary *s, const Decl *res) {
  for (int i = 0; i < s->nfams; i++) if (s->fams[i].res == res) return s->fams[i].total_hi;
  return zero(c);
}

static AlgExpr *term_hi(RCtx *c, const Summary *s, const Decl *res, AlgExpr *index) {
  for (int i = 0; i < s->nterms; i++)
    if (s->terms[i].res == res && s->terms[i].index == index) return s->terms[i].d_hi;
  return zero(c);
}

/* Lower bound from the loads: max over resources (and members) of D_r / m_r. */
static AlgExpr *load_lo(RCtx *c, const Summary *s) {
  AlgExpr *v = zero(c);
  for (int i = 0; i < s->nterms; i++)
    v = alg_max(c->alg, v, alg_div(c->alg, s->terms[i].d_lo, mult(c, s->terms[i].res)));
  for (int i = 0; i < s->nfams; i++)
    if (s->fams[i].spread_lo)
      v = alg_max(c->alg, v, alg_div(c->alg, s->fams[i].spread_lo, mult(c, s->fams[i].res)));
  return v;
}

/* 1 when every member term of family res in s has a numeric index and nothing was spread. */
static int fam_exact(const Summary *s, const Decl *res) {
  for (int i = 0; i < s->nfams; i++) if (s->fams[i].res == res && s->fams[i].spread_lo) return 0;
  for (int i = 0; i < s->nterms; i++)
    if (s->terms[i].res == res && alg_kind(s->terms[i].index) != ALG_NUM) return 0;
  return 1;
}

/* 1 when index is a*i + c with a a nonzero integer. */
static int injective(RCtx *c, AlgExpr *index, AlgSymbol *i) {
  if (!i || !alg_contains(index, i)) return 0;
  AlgExpr *d = alg_diff(c->alg, index, i);
  if (!d || alg_kind(d) != ALG_NUM || alg_is_num(d, 0)) return 0;
  AlgExpr *rest = alg_sub(c->alg, index, alg_mul(c->alg, d, alg_sym(c->alg, i)));
  return !alg_contains(rest, i) && mpz_cmp_ui(mpq_denref(alg_num_value(d)), 1) == 0;
}

/* sum over r in res(branch) of W_r / m_r, W_r = D_r(whole) - D_r(branch) for a chain branch,
** D_r(whole) otherwise; a family whose branch terms all use one index injective in i (the par
** index; NULL for ||) is waited on only by the branch itself. */
static AlgExpr *wait_sum(RCtx *c, const Summary *whole, const Summary *br, AlgSymbol *i) {
  AlgCtx *g = c->alg;
  AlgExpr *w = zero(c);
  for (int k = 0; k < br->nterms; k++) {
    const RTerm *t = &br->terms[k];
    if (t->index) continue;
    AlgExpr *W = term_hi(c, whole, t->res, NULL);
    if (br->chain) W = alg_sub(g, W, t->d_hi);
    w = alg_add(g, w, alg_div(g, W, mult(c, t->res)));
  }
  for (int k = 0; k < br->nfams; k++) {
    const Decl *res = br->fams[k].res;
    AlgExpr *m = mult(c, res);
    AlgExpr *one = NULL;
    int same = br->fams[k].spread_lo == NULL;
    for (int j = 0; j < br->nterms && same; j++)
      if (br->terms[j].res == res) {
        if (!one) one = br->terms[j].index;
        else if (one != br->terms[j].index) same = 0;
      }
    if (same && one && injective(c, one, i)) {
      if (!br->chain) w = alg_add(g, w, alg_div(g, br->fams[k].total_hi, m));
      continue;
    }
    if (!i && fam_exact(whole, res)) {   /* || with constant members: each member on its own */
      for (int j = 0; j < br->nterms; j++) {
        const RTerm *t = &br->terms[j];
        if (t->res != res) continue;
        AlgExpr *W = term_hi(c, whole, res, t->index);
        if (br->chain) W = alg_sub(g, W, t->d_hi);
        w = alg_add(g, w, alg_div(g, W, m));
      }
      continue;
    }
    AlgExpr *W = fam_total(c, whole, res);
    if (br->chain) W = alg_sub(g, W, br->fams[k].total_hi);
    w = alg_add(g, w, alg_div(g, W, m));
  }
  return w;
}

/* Closes the demands of body over index i = a..b (sums per member; spreads: max). */
static void close_demands(RCtx *c, Summary *out, const Summary *body, AlgSymbol *i, AlgExpr *a,
                          AlgExpr *b) {
  AlgCtx *g = c->alg;
  for (int k = 0; k < body->nterms; k++) {
    const RTerm *t = &body->terms[k];
    if (t->index && alg_contains(t->index, i)) {
      RFam *f = fam_get(c, out, t->res);
      AlgExpr *mx = alg_max_over(g, i, a, b, t->d_lo);
      f->spread_lo = f->spread_lo ? alg_max(g, f->spread_lo, mx) : mx;
      f->total_hi = alg_add(g, f->total_hi, alg_sum(g, i, a, b, t->d_hi));
      continue;
    }
    add_demand(c, out, t->res, t->index, alg_sum(g, i, a, b, t->d_lo), alg_sum(g, i, a, b, t->d_hi));
  }
  for (int k = 0; k < body->nfams; k++) {
    if (!body->fams[k].spread_lo) continue;
    RFam *f = fam_get(c, out, body->fams[k].res);
    AlgExpr *mx = alg_max_over(g, i, a, b, body->fams[k].spread_lo);
    f->spread_lo = f->spread_lo ? alg_max(g, f->spread_lo, mx) : mx;
  }
  /* family demand not held in terms (spread parts): keep totals exact */
  for (int k = 0; k < body->nfams; k++) {
    const Decl *res = body->fams[k].res;
    AlgExpr *in_terms = zero(c);
    for (int j = 0; j < body->nterms; j++)
      if (body->terms[j].res == res) in_terms = alg_add(g, in_terms, body->terms[j].d_hi);
    AlgExpr *rest = alg_sub(g, body->fams[k].total_hi, in_terms);
    if (!alg_is_num(rest, 0)) {
      RFam *f = fam_get(c, out, res);
      f->total_hi = alg_add(g, f->total_hi, alg_sum(g, i, a, b, rest));
    }
  }
}

static void reduce_stmt(RCtx *c, REnv *env, const Stmt *s, Summary *out);

/* delay(t): phi = L = U = t, no demand. */
static void reduce_delay(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  sum_init(c, out);
  AlgExpr *t = tr(c, env, s->u.delay.duration);
  out->phi_lo = out->phi_hi = out->L = out->U = t;
}

/* use(r, t): phi = L = U = t, D_r = t. */
static void reduce_use(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  sum_init(c, out);
  AlgExpr *t = tr(c, env, s->u.use.duration);
  out->phi_lo = out->phi_hi = out->L = out->U = t;
  AlgExpr *index = s->u.use.index ? tr(c, env, s->u.use.index) : NULL;
  add_demand(c, out, s->u.use.decl, index, t, t);
}

/* S1; S2: phi, D, L, U add. */
static void seq_into(RCtx *c, Summary *a, const Summary *b) {
  AlgCtx *g = c->alg;
  a->phi_lo = alg_add(g, a->phi_lo, b->phi_lo);
  a->phi_hi = alg_add(g, a->phi_hi, b->phi_hi);
  a->L = alg_add(g, a->L, b->L);
  a->U = alg_add(g, a->U, b->U);
  a->chain = a->chain && b->chain;
  merge_demands(c, a, b);
}

static void reduce_block(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  sum_init(c, out);
  for (int i = 0; i < s->u.block.count; i++) {
    Summary part;
    reduce_stmt(c, env, s->u.block.items[i], &part);
    seq_into(c, out, &part);
  }
}

/* S1 || ... || Sk: phi = max phi_i, D = sum D_i, L = max(max L_i, max_r D_r/m_r),
** U = max_i (phi_i + sum_{r in res(S_i)} W_ir/m_r). */
static void reduce_parallel(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  AlgCtx *g = c->alg;
  int n = s->u.block.count;
  Summary *br = arena_alloc(&c->arena, (size_t)(n ? n : 1) * sizeof *br);
  sum_init(c, out);
  for (int i = 0; i < n; i++) {
    reduce_stmt(c, env, s->u.block.items[i], &br[i]);
    out->phi_lo = alg_max(g, out->phi_lo, br[i].phi_lo);
    out->phi_hi = alg_max(g, out->phi_hi, br[i].phi_hi);
    out->L = alg_max(g, out->L, br[i].L);
    merge_demands(c, out, &br[i]);
  }
  out->L = alg_max(g, out->L, load_lo(c, out));
  for (int i = 0; i < n; i++)
    out->U = alg_max(g, out->U, alg_add(g, br[i].phi_hi, wait_sum(c, out, &br[i], NULL)));
  out->chain = n <= 1 ? (n ? br[0].chain : 1) : 0;
}

/* Binds a new loop index for lo..hi in env. */
static AlgSymbol *bind_index(RCtx *c, REnv *env, const Stmt *s, const char *name, AlgExpr *lo,
                             AlgExpr *hi) {
  if (env->depth >= EVAL_MAX_INDICES) { fail(c, s->loc, "reduce: loops nest too deep"); return NULL; }
  AlgSymbol *i = alg_index_new(c->alg, name, lo, hi);
  env->idx[env->depth++] = alg_sym(c->alg, i);
  return i;
}

/* seq(i=a,b) S(i): phi, D, L, U are sums over i. */
static void seq_loop(RCtx *c, AlgSymbol *i, AlgExpr *a, AlgExpr *b, const Summary *body,
                     Summary *out) {
  AlgCtx *g = c->alg;
  sum_init(c, out);
  out->phi_lo = alg_sum(g, i, a, b, body->phi_lo);
  out->phi_hi = alg_sum(g, i, a, b, body->phi_hi);
  out->L = alg_sum(g, i, a, b, body->L);
  out->U = alg_sum(g, i, a, b, body->U);
  out->chain = body->chain;
  close_demands(c, out, body, i, a, b);
}

static void reduce_seq(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  AlgExpr *a = tr(c, env, s->u.loop.lo), *b = tr(c, env, s->u.loop.hi);
  AlgSymbol *i = bind_index(c, env, s, s->u.loop.var.name, a, b);
  if (!i) { sum_init(c, out); return; }
  Summary body;
  reduce_stmt(c, env, s->u.loop.body, &body);
  env->depth--;
  seq_loop(c, i, a, b, &body, out);
}

/* repeat(n) S: seq(_ = 1, n) S. */
static void reduce_repeat(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  AlgExpr *n = tr(c, env, s->u.repeat.count);
  AlgExpr *one = alg_num_int(c->alg, 1);
  AlgSymbol *i = alg_index_new(c->alg, "_", one, n);
  Summary body;
  reduce_stmt(c, env, s->u.repeat.body, &body);
  seq_loop(c, i, one, n, &body, out);
}

/* par(i=a,b) S(i): phi = max_i phi(i), D = sum_i D(i), L = max(max_i L(i), max_r D_r/m_r),
** U = max_i (phi(i) + sum_r W_r(i)/m_r). */
static void reduce_par(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  AlgCtx *g = c->alg;
  AlgExpr *a = tr(c, env, s->u.loop.lo), *b = tr(c, env, s->u.loop.hi);
  AlgSymbol *i = bind_index(c, env, s, s->u.loop.var.name, a, b);
  sum_init(c, out);
  if (!i) return;
  Summary body;
  reduce_stmt(c, env, s->u.loop.body, &body);
  env->depth--;
  close_demands(c, out, &body, i, a, b);
  out->phi_lo = alg_max_over(g, i, a, b, body.phi_lo);
  out->phi_hi = alg_max_over(g, i, a, b, body.phi_hi);
  out->L = alg_max(g, alg_max_over(g, i, a, b, body.L), load_lo(c, out));
  out->U = alg_max_over(g, i, a, b, alg_add(g, body.phi_hi, wait_sum(c, out, &body, i)));
  out->chain = 0;
}

/* Combines two summaries pointwise: piecewise on cond (cond != NULL) or the hull (cond NULL:
** min for lower-bound parts, max for upper-bound parts). */
static void combine(RCtx *c, AlgExpr *cond, const Summary *x, const Summary *y, Summary *out) {
  AlgCtx *g = c->alg;
#define PICK_LO(p, q) (cond ? alg_cond(g, cond, (p), (q)) : alg_min(g, (p), (q)))
#define PICK_HI(p, q) (cond ? alg_cond(g, cond, (p), (q)) : alg_max(g, (p), (q)))
  sum_init(c, out);
  out->phi_lo = PICK_LO(x->phi_lo, y->phi_lo);
  out->phi_hi = PICK_HI(x->phi_hi, y->phi_hi);
  out->L = PICK_LO(x->L, y->L);
  out->U = PICK_HI(x->U, y->U);
  out->chain = x->chain && y->chain;
  for (int pass = 0; pass < 2; pass++) {
    const Summary *p = pass ? y : x, *q = pass ? x : y;
    for (int k = 0; k < p->nterms; k++) {
      const RTerm *t = &p->terms[k];
      if (term_find(out, t->res, t->index)) continue;
      RTerm *o = term_find((Summary *)q, t->res, t->index);
      AlgExpr *qlo = o ? o->d_lo : zero(c), *qhi = o ? o->d_hi : zero(c);
      RTerm *n = term_new(c, out, t->res, t->index);
      n->d_lo = pass ? PICK_LO(qlo, t->d_lo) : PICK_LO(t->d_lo, qlo);
      n->d_hi = pass ? PICK_HI(qhi, t->d_hi) : PICK_HI(t->d_hi, qhi);
    }
    for (int k = 0; k < p->nfams; k++) {
      const RFam *f = &p->fams[k];
      int seen = 0;
      for (int j = 0; j < out->nfams; j++) if (out->fams[j].res == f->res) seen = 1;
      if (seen) continue;
      const RFam *o = NULL;
      for (int j = 0; j < q->nfams; j++) if (q->fams[j].res == f->res) o = &q->fams[j];
      RFam *n = fam_get(c, out, f->res);
      AlgExpr *ps = f->spread_lo ? f->spread_lo : zero(c);
      AlgExpr *qs = o && o->spread_lo ? o->spread_lo : zero(c);
      AlgExpr *qt = o ? o->total_hi : zero(c);
      n->spread_lo = pass ? PICK_LO(qs, ps) : PICK_LO(ps, qs);
      if (alg_is_num(n->spread_lo, 0)) n->spread_lo = NULL;
      n->total_hi = pass ? PICK_HI(qt, f->total_hi) : PICK_HI(f->total_hi, qt);
    }
  }
#undef PICK_LO
#undef PICK_HI
}

/* if (c) S1 else S2: decided -> its branch; otherwise piecewise (cond ? S1 : S2), which the
** closed forms over an enclosing index split or enclose. */
static void reduce_if(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  AlgExpr *cond = tr(c, env, s->u.branch.cond);
  Summary x, y;
  if (alg_kind(cond) == ALG_NUM) {
    const Stmt *pick = alg_is_num(cond, 0) ? s->u.branch.otherwise : s->u.branch.then;
    if (pick) reduce_stmt(c, env, pick, out);
    else sum_init(c, out);
    return;
  }
  reduce_stmt(c, env, s->u.branch.then, &x);
  if (s->u.branch.otherwise) reduce_stmt(c, env, s->u.branch.otherwise, &y);
  else sum_init(c, &y);
  combine(c, cond, &x, &y, out);
}

/* choose(p) S1 else S2: the hull, L = min, U = max, phi and D min/max by use. */
static void reduce_choose(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  Summary x, y;
  reduce_stmt(c, env, s->u.branch.then, &x);
  if (s->u.branch.otherwise) reduce_stmt(c, env, s->u.branch.otherwise, &y);
  else sum_init(c, &y);
  combine(c, NULL, &x, &y, out);
}

/* NAME(args): the callee's summary with the arguments substituted (memoised). */
static void reduce_call(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  const Decl *proc = s->u.call.decl;
  int n = s->u.call.args.count;
  if (n > REDUCE_MAX_ARGS) { fail(c, s->loc, "reduce: too many arguments"); sum_init(c, out); return; }
  AlgExpr *args[REDUCE_MAX_ARGS];
  for (int i = 0; i < n; i++) args[i] = tr(c, env, s->u.call.args.items[i]);
  for (RMemo *m = c->memo; m; m = m->next) {
    if (m->proc != proc || m->argc != n) continue;
    int same = 1;
    for (int i = 0; i < n && same; i++) same = m->args[i] == args[i];
    if (same) { *out = m->sum; return; }
  }
  REnv inner; memset(&inner, 0, sizeof inner);
  inner.args = args; inner.argc = n;
  reduce_stmt(c, &inner, proc->u.process.body, out);
  RMemo *m = arena_alloc(&c->arena, sizeof *m);
  m->proc = proc; m->argc = n;
  for (int i = 0; i < n; i++) m->args[i] = args[i];
  m->sum = *out; m->next = c->memo; c->memo = m;
}

static void reduce_stmt(RCtx *c, REnv *env, const Stmt *s, Summary *out) {
  switch (s->kind) {
  case ST_SKIP: sum_init(c, out); return;
  case ST_DELAY: reduce_delay(c, env, s, out); return;
  case ST_USE: reduce_use(c, env, s, out); return;
  case ST_CALL: reduce_call(c, env, s, out); return;
  case ST_BLOCK: reduce_block(c, env, s, out); return;
  case ST_PARALLEL: reduce_parallel(c, env, s, out); return;
  case ST_SEQ: reduce_seq(c, env, s, out); return;
  case ST_PAR: reduce_par(c, env, s, out); return;
  case ST_REPEAT: reduce_repeat(c, env, s, out); return;
  case ST_IF: reduce_if(c, env, s, out); return;
  case ST_CHOOSE: reduce_choose(c, env, s, out); return;
  }
  sum_init(c, out);
}

/* ------------------------------------------------------------------ symbols and entry */

static double eval_or(RCtx *c, const Expr *e, double fallback, int *integral) {
  if (!e) return fallback;
  EvalEnv env; eval_env_init(&env);
  AlgInterval v;
  if (eval_expr(&env, e, &v, NULL) != EVAL_OK) return fallback;
  (void)c;
  if (integral) *integral = eval_is_integer(v);
  return v.lo;
}

static void make_symbols(RCtx *c) {
  Program *p = c->prog;
  ReduceResult *r = c->out;
  r->symbols = calloc((size_t)p->decl_count + 1, sizeof *r->symbols);
  r->symbol_decls = calloc((size_t)p->decl_count + 1, sizeof *r->symbol_decls);
  for (int i = 0; i < p->decl_count; i++) {
    const Decl *d = p->decls[i];
    if (d->kind != DECL_PARAM && d->kind != DECL_CONST) continue;
    if (program_lookup(p, d->name.name) != d) continue;
    AlgAssume as;
    if (d->kind == DECL_CONST) as = alg_assume_default(ALG_SYM_CONST);
    else {
      if (is_define(c, d)) continue;    /* set with -D: substituted */
      int integral = 0;
      double def = eval_or(c, d->u.param.value, 1, &integral);
      as = alg_assume_default(ALG_SYM_PARAM);
      as.lo = d->u.param.min ? eval_or(c, d->u.param.min, 1, NULL) : (def < 1 ? def : 1);
      if (d->u.param.max) as.hi = eval_or(c, d->u.param.max, as.hi, NULL);
      as.integer = d->u.param.value ? integral : 0;
    }
    r->symbols[r->symbol_count] = alg_symbol_new(c->alg, d->name.name,
                                                 d->kind == DECL_CONST ? ALG_SYM_CONST : ALG_SYM_PARAM, as);
    r->symbol_decls[r->symbol_count++] = d;
  }
}

static const char *term_name(RCtx *c, const RTerm *t) {
  if (!t->index) return t->res->name.name;
  const char *ix = alg_print(c->alg, t->index, ALG_FMT_TEXT);
  size_t n = strlen(t->res->name.name) + strlen(ix) + 3;
  char *s = arena_alloc(&c->arena, n);
  snprintf(s, n, "%s[%s]", t->res->name.name, ix);
  return s;
}

int reduce_program(Program *prog, const ReduceOptions *opts, ReduceResult *out, DiagList *diags) {
  memset(out, 0, sizeof *out);
  out->alg = alg_ctx_new();
  if (opts && opts->loop_limit > 0) alg_ctx_set_loop_limit(out->alg, (unsigned long)opts->loop_limit);
  RCtx c; memset(&c, 0, sizeof c);
  c.prog = prog; c.alg = out->alg; c.diags = diags; c.out = out;
  arena_init(&c.arena);
  const Decl *entry = program_entry(prog);
  if (!entry) {
    SrcLoc none; memset(&none, 0, sizeof none); none.file = prog->path;
    diag_report(diags, DIAG_ERROR, none, "no entry process '%s'", prog->entry_name);
    arena_free(&c.arena);
    return 1;
  }
  make_symbols(&c);
  Summary s;
  REnv env; memset(&env, 0, sizeof env);
  reduce_stmt(&c, &env, entry->u.process.body, &s);
  AlgCtx *g = c.alg;
  AlgExpr *load = load_lo(&c, &s);
  out->t_lo = alg_close(g, alg_max(g, s.L, load), ALG_DIR_LOWER);
  out->t_hi = alg_close(g, s.U, ALG_DIR_UPPER);
  out->phi = alg_close(g, s.phi_lo, ALG_DIR_LOWER);
  out->terms = calloc((size_t)(s.nterms + s.nfams + 1), sizeof *out->terms);
  out->terms[out->term_count].name = "critical path";
  out->terms[out->term_count++].value = out->phi;
  for (int i = 0; i < s.nterms; i++) {
    out->terms[out->term_count].name = term_name(&c, &s.terms[i]);
    out->terms[out->term_count++].value =
      alg_close(g, alg_div(g, s.terms[i].d_lo, mult(&c, s.terms[i].res)), ALG_DIR_LOWER);
  }
  for (int i = 0; i < s.nfams; i++) {
    if (!s.fams[i].spread_lo) continue;
    out->terms[out->term_count].name = s.fams[i].res->name.name;
    out->terms[out->term_count++].value =
      alg_close(g, alg_div(g, s.fams[i].spread_lo, mult(&c, s.fams[i].res)), ALG_DIR_LOWER);
  }
  /* names of terms live in c.arena: copy them into the result's context */
  for (int i = 1; i < out->term_count; i++) {
    const char *n = out->terms[i].name;
    char *copy = malloc(strlen(n) + 1);
    strcpy(copy, n);
    out->terms[i].name = copy;
  }
  arena_free(&c.arena);
  return c.failed ? 1 : 0;
}

void reduce_result_free(ReduceResult *result) {
  if (!result) return;
  for (int i = 1; i < result->term_count; i++) free((char *)result->terms[i].name);
  free(result->terms);
  free(result->symbols);
  free((void *)result->symbol_decls);
  if (result->alg) alg_ctx_free(result->alg);
  memset(result, 0, sizeof *result);
}
