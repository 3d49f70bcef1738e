/*
** tape.c — compilation of expressions to instruction tapes (one instruction per distinct node,
** registers reused after their last reader) and their batch evaluation over intervals.
*/
#include "tape.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr_impl.h"
#include "ival_kernel.h"

typedef enum TapeOp {
  OP_CONST, OP_INPUT, OP_ADD, OP_MUL, OP_DIV, OP_MIN, OP_MAX, OP_POWI, OP_POW, OP_MOD, OP_CEIL, OP_FLOOR,
  OP_ABS, OP_LOG, OP_LOG2, OP_EXP, OP_SQRT, OP_CMP, OP_AND, OP_OR, OP_NOT, OP_COND, OP_BIGOP
} TapeOp;

typedef struct TapeInsn {
  TapeOp op;            /* what to compute */
  int dst;              /* register written (a value number until registers are allocated) */
  int a, b, c;          /* registers read (-1 when unused) */
  long long n;          /* POWI: exponent; CMP: operator; INPUT: input index; BIGOP: AlgKind */
  double klo, khi;      /* CONST: the value */
  AlgTape *body;        /* BIGOP: tape of the body */
  int *body_inputs;     /* BIGOP: per body input, the outer input it copies, -1 for the index */
  int *hoisted;         /* BIGOP: registers of the body's parts free of the index (body->nhoisted) */
} TapeInsn;

struct AlgTape {
  TapeInsn *insns;          /* the program (malloc) */
  size_t ninsns;            /* instructions used */
  size_t cap;               /* room in insns */
  size_t nregs;             /* registers after allocation */
  int result;               /* register of the result */
  AlgSymbol **inputs;       /* free symbols in id order (malloc) */
  size_t ninputs;           /* how many */
  size_t nhoisted;          /* a body: inputs after those, the values of its parts free of the
                               index, computed once per point of the outer tape */
  unsigned long loop_limit; /* ranges below this many indices are walked point by point */
};

typedef struct TapeBuild {
  AlgCtx *ctx;              /* owner of the nodes */
  AlgTape *tape;            /* being built */
  int *memo;                /* node id -> value number + 1, 0 when not compiled yet */
  size_t memo_size;         /* entries in memo */
  char *err;                /* message buffer */
  size_t err_size;          /* its size */
  int failed;               /* an error was reported */
} TapeBuild;

static int fail(TapeBuild *b, const char *message) {
  if (!b->failed && b->err_size) snprintf(b->err, b->err_size, "%s", message);
  b->failed = 1;
  return -1;
}

static int push(TapeBuild *b, TapeOp op, int x, int y, int z) {
  AlgTape *t = b->tape;
  if (t->ninsns == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 16;
    TapeInsn *grown = realloc(t->insns, cap * sizeof *grown);
    if (!grown) return fail(b, "tape: out of memory");
    t->insns = grown;
    t->cap = cap;
  }
  TapeInsn *in = &t->insns[t->ninsns];
  memset(in, 0, sizeof *in);
  in->op = op;
  in->dst = (int)t->ninsns;
  in->a = x;
  in->b = y;
  in->c = z;
  return (int)t->ninsns++;
}

static int push_const(TapeBuild *b, AlgInterval v) {
  int id = push(b, OP_CONST, -1, -1, -1);
  if (id >= 0) {
    b->tape->insns[id].klo = v.lo;
    b->tape->insns[id].khi = v.hi;
  }
  return id;
}

static int input_index(const AlgTape *t, const AlgSymbol *sym) {
  for (size_t i = 0; i < t->ninputs; i++)
    if (t->inputs[i] == sym) return (int)i;
  return -1;
}

static int emit(TapeBuild *b, const AlgExpr *e);

/* n-ary operators fold left to right, as alg_eval_tree does. */
static int emit_fold(TapeBuild *b, const AlgExpr *e, TapeOp op) {
  int acc = emit(b, alg_kid(e, 0));
  for (size_t i = 1; i < alg_nkids(e) && acc >= 0; i++) {
    int kid = emit(b, alg_kid(e, i));
    if (kid < 0) return -1;
    acc = push(b, op, acc, kid, -1);
  }
  return acc;
}

static int compile_into(AlgCtx *ctx, const AlgExpr *e, AlgTape *t, AlgExpr *const *hoisted,
                        size_t nhoisted, char *err, size_t err_size);

/* The parts of a body that a walk would compute again at every index: maximal subexpressions
   (not leaves) free of the indices bound between the body's root and them. */
typedef struct Hoist {
  const AlgSymbol *bound[64]; /* the body's index, then those of the big operators inside */
  int nbound;                 /* length of bound */
  unsigned char *seen;        /* per node id: visited (calloc) */
  size_t seen_size;           /* entries in seen */
  AlgExpr **items;            /* the parts found (malloc, grown by doubling) */
  size_t count, cap;          /* parts found, room */
  int failed;                 /* out of memory, or nested too deep: hoist nothing */
} Hoist;

static void hoist_scan(Hoist *h, AlgExpr *e) {
  if (h->failed || e->nkids == 0) return;
  if (e->id < h->seen_size) {
    if (h->seen[e->id]) return;
    h->seen[e->id] = 1;
  }
  if (!alg_may_depend(e, h->bound, h->nbound)) {
    if (h->count == h->cap) {
      size_t cap = h->cap ? 2 * h->cap : 8;
      AlgExpr **grown = realloc(h->items, cap * sizeof *grown);
      if (!grown) { h->failed = 1; return; }
      h->items = grown;
      h->cap = cap;
    }
    h->items[h->count++] = e;
    return;
  }
  if (e->kind >= ALG_SUM && e->kind <= ALG_MINOVER) {
    hoist_scan(h, e->kids[1]);
    hoist_scan(h, e->kids[2]);
    if (h->nbound == 64) { h->failed = 1; return; }
    h->bound[h->nbound++] = e->kids[0]->u.sym;
    hoist_scan(h, e->kids[3]);
    h->nbound--;
    return;
  }
  for (size_t i = 0; i < e->nkids; i++) hoist_scan(h, e->kids[i]);
}

/* Big operator: the ends here, the body as a tape of its own whose inputs map to ours; the parts
   of the body free of its index are computed here, once per point, and are inputs of the body
   (a sum over w inside the body of a max over w was walked at every w: P^2 at P = 10^4). */
static int emit_bigop(TapeBuild *b, const AlgExpr *e) {
  int lower = emit(b, alg_kid(e, 1));
  int upper = lower >= 0 ? emit(b, alg_kid(e, 2)) : -1;
  if (upper < 0) return -1;
  Hoist h;
  memset(&h, 0, sizeof h);
  h.bound[h.nbound++] = alg_symbol_of(e);
  h.seen_size = alg_ctx_node_count(b->ctx);
  h.seen = calloc(h.seen_size ? h.seen_size : 1, 1);
  if (!h.seen) h.failed = 1;
  hoist_scan(&h, alg_kid(e, 3));
  free(h.seen);
  if (h.failed) h.count = 0;
  int *regs = malloc((h.count ? h.count : 1) * sizeof *regs);
  if (!regs) {
    free(h.items);
    return fail(b, "tape: out of memory");
  }
  for (size_t j = 0; j < h.count; j++)
    if ((regs[j] = emit(b, h.items[j])) < 0) {
      free(h.items);
      free(regs);
      return -1;
    }
  AlgTape *body = calloc(1, sizeof *body);
  if (!body) {
    free(h.items);
    free(regs);
    return fail(b, "tape: out of memory");
  }
  int status = compile_into(b->ctx, alg_kid(e, 3), body, h.items, h.count, b->err, b->err_size);
  free(h.items);
  if (status != 0) {
    alg_tape_free(body);
    free(regs);
    b->failed = 1;
    return -1;
  }
  int *map = malloc((body->ninputs ? body->ninputs : 1) * sizeof *map);
  if (!map) {
    alg_tape_free(body);
    free(regs);
    return fail(b, "tape: out of memory");
  }
  AlgSymbol *index = alg_symbol_of(e);
  for (size_t i = 0; i < body->ninputs; i++) {
    map[i] = body->inputs[i] == index ? -1 : input_index(b->tape, body->inputs[i]);
    if (map[i] < 0 && body->inputs[i] != index) {
      free(map);
      free(regs);
      alg_tape_free(body);
      return fail(b, "tape: a symbol of a body is not an input of its formula");
    }
  }
  int id = push(b, OP_BIGOP, lower, upper, -1);
  if (id < 0) {
    free(map);
    free(regs);
    alg_tape_free(body);
    return -1;
  }
  b->tape->insns[id].n = alg_kind(e);
  b->tape->insns[id].body = body;
  b->tape->insns[id].body_inputs = map;
  b->tape->insns[id].hoisted = regs;
  return id;
}

/* An integer exponent that powi takes: a NUM with denominator 1 and |n| < 2^62. */
static int integer_exponent(const AlgExpr *e, long long *n) {
  if (alg_kind(e) != ALG_NUM) return 0;
  mpq_srcptr q = alg_num_value(e);
  if (mpz_cmp_ui(mpq_denref(q), 1) != 0 || mpz_sizeinbase(mpq_numref(q), 2) > 61) return 0;
  *n = (long long)mpz_get_si(mpq_numref(q));
  return 1;
}

static int emit_node(TapeBuild *b, const AlgExpr *e) {
  AlgKind kind = alg_kind(e);
  int x, y, z;
  long long n;
  switch (kind) {
  case ALG_NUM: case ALG_IVAL: return push_const(b, alg_num_enclosure(e));
  case ALG_SYM: {
    int i = input_index(b->tape, alg_symbol_of(e));
    if (i < 0) return fail(b, "tape: symbol is not an input");
    x = push(b, OP_INPUT, -1, -1, -1);
    if (x >= 0) b->tape->insns[x].n = i;
    return x;
  }
  case ALG_ADD: return emit_fold(b, e, OP_ADD);
  case ALG_MUL: {   /* a quotient divides once: C / 10 at C = 10 is exactly 1 */
    AlgExpr *num, *den;
    alg_split_quotient(b->ctx, (AlgExpr *)e, &num, &den);
    if (!den) return emit_fold(b, e, OP_MUL);
    x = emit(b, num);
    y = x >= 0 ? emit(b, den) : -1;
    return y >= 0 ? push(b, OP_DIV, x, y, -1) : -1;
  }
  case ALG_MIN: return emit_fold(b, e, OP_MIN);
  case ALG_MAX: return emit_fold(b, e, OP_MAX);
  case ALG_AND: return emit_fold(b, e, OP_AND);
  case ALG_OR: return emit_fold(b, e, OP_OR);
  case ALG_LOWER: return alg_nkids(e) > 1 ? emit_fold(b, e, OP_MAX) : emit(b, alg_kid(e, 0));
  case ALG_UPPER: return alg_nkids(e) > 1 ? emit_fold(b, e, OP_MIN) : emit(b, alg_kid(e, 0));
  case ALG_SUM: case ALG_PROD: case ALG_MAXOVER: case ALG_MINOVER: return emit_bigop(b, e);
  case ALG_POW:
    if (integer_exponent(alg_kid(e, 1), &n)) {
      x = emit(b, alg_kid(e, 0));
      if (x < 0) return -1;
      y = push(b, OP_POWI, x, -1, -1);
      if (y >= 0) b->tape->insns[y].n = n;
      return y;
    }
    x = emit(b, alg_kid(e, 0));
    y = x >= 0 ? emit(b, alg_kid(e, 1)) : -1;
    return y < 0 ? -1 : push(b, OP_POW, x, y, -1);
  case ALG_MOD:
    x = emit(b, alg_kid(e, 0));
    y = x >= 0 ? emit(b, alg_kid(e, 1)) : -1;
    return y < 0 ? -1 : push(b, OP_MOD, x, y, -1);
  case ALG_EQ: case ALG_NE: case ALG_LT: case ALG_LE:
    x = emit(b, alg_kid(e, 0));
    y = x >= 0 ? emit(b, alg_kid(e, 1)) : -1;
    if (y < 0) return -1;
    z = push(b, OP_CMP, x, y, -1);
    if (z >= 0) b->tape->insns[z].n = kind == ALG_EQ ? 0 : kind == ALG_NE ? 1 : kind == ALG_LT ? 2 : 3;
    return z;
  case ALG_COND:
    x = emit(b, alg_kid(e, 0));
    y = x >= 0 ? emit(b, alg_kid(e, 1)) : -1;
    z = y >= 0 ? emit(b, alg_kid(e, 2)) : -1;
    return z < 0 ? -1 : push(b, OP_COND, x, y, z);
  default: break;
  }
  TapeOp op;
  switch (kind) {
  case ALG_CEIL: op = OP_CEIL; break;
  case ALG_FLOOR: op = OP_FLOOR; break;
  case ALG_ABS: op = OP_ABS; break;
  case ALG_LOG: op = OP_LOG; break;
  case ALG_LOG2: op = OP_LOG2; break;
  case ALG_EXP: op = OP_EXP; break;
  case ALG_SQRT: op = OP_SQRT; break;
  case ALG_NOT: op = OP_NOT; break;
  default: return fail(b, "tape: unknown node kind");
  }
  x = emit(b, alg_kid(e, 0));
  return x < 0 ? -1 : push(b, op, x, -1, -1);
}

static int emit(TapeBuild *b, const AlgExpr *e) {
  if (b->failed) return -1;
  size_t id = alg_id(e);
  if (id < b->memo_size && b->memo[id]) return b->memo[id] - 1;
  int v = emit_node(b, e);
  if (v >= 0 && id < b->memo_size) b->memo[id] = v + 1;
  return v;
}

/* Linear scan: a register is freed after the last instruction that reads it. Destinations never
   share a register with their operands (the kernels read and write with restrict pointers). */
static int allocate_registers(AlgTape *t, int result) {
  size_t n = t->ninsns;
  int *last = malloc((n ? n : 1) * sizeof *last), *reg = malloc((n ? n : 1) * sizeof *reg);
  int *free_list = malloc((n ? n : 1) * sizeof *free_list);
  if (!last || !reg || !free_list) {
    free(last); free(reg); free(free_list);
    return -1;
  }
  for (size_t i = 0; i < n; i++) last[i] = (int)i;
  for (size_t i = 0; i < n; i++) {
    int ops[3] = {t->insns[i].a, t->insns[i].b, t->insns[i].c};
    for (int k = 0; k < 3; k++)
      if (ops[k] >= 0) last[ops[k]] = (int)i;
    for (size_t j = 0; t->insns[i].body && j < t->insns[i].body->nhoisted; j++)
      last[t->insns[i].hoisted[j]] = (int)i;
  }
  last[result] = INT_MAX;
  size_t nfree = 0, nregs = 0;
  for (size_t i = 0; i < n; i++) {
    TapeInsn *in = &t->insns[i];
    reg[i] = nfree ? free_list[--nfree] : (int)nregs++;
    int ops[3] = {in->a, in->b, in->c};
    for (int k = 0; k < 3; k++) {
      if (ops[k] < 0) continue;
      int dup = 0;
      for (int j = 0; j < k; j++) dup |= ops[j] == ops[k];
      if (!dup && last[ops[k]] == (int)i) free_list[nfree++] = reg[ops[k]];
    }
    size_t nh = in->body ? in->body->nhoisted : 0;   /* a body's hoisted parts, read here too */
    for (size_t j = 0; j < nh; j++) {
      int dup = in->hoisted[j] == in->a || in->hoisted[j] == in->b;
      for (size_t q = 0; q < j; q++) dup |= in->hoisted[q] == in->hoisted[j];
      if (!dup && last[in->hoisted[j]] == (int)i) free_list[nfree++] = reg[in->hoisted[j]];
    }
    for (size_t j = 0; j < nh; j++) in->hoisted[j] = reg[in->hoisted[j]];
    if (last[i] == (int)i) free_list[nfree++] = reg[i];   /* never read: dead at once */
    in->dst = reg[i];
    in->a = in->a >= 0 ? reg[in->a] : -1;
    in->b = in->b >= 0 ? reg[in->b] : -1;
    in->c = in->c >= 0 ? reg[in->c] : -1;
  }
  t->result = reg[result];
  t->nregs = nregs;
  free(last); free(reg); free(free_list);
  return 0;
}

/* Compiles e into t; the nhoisted nodes of hoisted (a body's parts free of its index) are read
   as inputs ninputs .. ninputs + nhoisted - 1. */
static int compile_into(AlgCtx *ctx, const AlgExpr *e, AlgTape *t, AlgExpr *const *hoisted,
                        size_t nhoisted, char *err, size_t err_size) {
  TapeBuild b = {ctx, t, NULL, alg_ctx_node_count(ctx), err, err_size, 0};
  t->loop_limit = alg_ctx_loop_limit(ctx);
  size_t count = alg_free_symbols(ctx, e, NULL, 0);
  t->inputs = malloc((count ? count : 1) * sizeof *t->inputs);
  b.memo = calloc(b.memo_size ? b.memo_size : 1, sizeof *b.memo);
  if (!t->inputs || !b.memo) {
    free(b.memo);
    return fail(&b, "tape: out of memory");
  }
  t->ninputs = alg_free_symbols(ctx, e, t->inputs, count);
  t->nhoisted = nhoisted;
  for (size_t j = 0; j < nhoisted; j++) {
    int x = push(&b, OP_INPUT, -1, -1, -1);
    if (x < 0) {
      free(b.memo);
      return -1;
    }
    t->insns[x].n = (long long)(t->ninputs + j);
    if (alg_id(hoisted[j]) < b.memo_size) b.memo[alg_id(hoisted[j])] = x + 1;
  }
  int result = emit(&b, e);
  free(b.memo);
  if (result < 0) return -1;
  if (allocate_registers(t, result) != 0) return fail(&b, "tape: out of memory");
  return 0;
}

int alg_tape_compile(AlgCtx *ctx, const AlgExpr *e, AlgTape **out, char *err, size_t err_size) {
  *out = NULL;
  AlgTape *t = calloc(1, sizeof *t);
  if (!t) {
    if (err_size) snprintf(err, err_size, "tape: out of memory");
    return -1;
  }
  if (compile_into(ctx, e, t, NULL, 0, err, err_size) != 0) {
    alg_tape_free(t);
    return -1;
  }
  *out = t;
  return 0;
}

void alg_tape_free(AlgTape *tape) {
  if (!tape) return;
  for (size_t i = 0; i < tape->ninsns; i++) {
    alg_tape_free(tape->insns[i].body);
    free(tape->insns[i].body_inputs);
    free(tape->insns[i].hoisted);
  }
  free(tape->insns);
  free(tape->inputs);
  free(tape);
}

size_t alg_tape_ninputs(const AlgTape *tape) { return tape->ninputs; }
AlgSymbol *alg_tape_input(const AlgTape *tape, size_t i) { return tape->inputs[i]; }
size_t alg_tape_length(const AlgTape *tape) { return tape->ninsns; }
size_t alg_tape_nregs(const AlgTape *tape) { return tape->nregs; }

/* ---- evaluation ------------------------------------------------------------------------------ */

#define UNARY(fn)                                                             \
  for (size_t k = 0; k < n; k++) {                                            \
    ik_ival r_ = fn(ik_make(alo[k], ahi[k]));                                 \
    dlo[k] = r_.lo;                                                           \
    dhi[k] = r_.hi;                                                           \
  }
#define BINARY(fn)                                                            \
  for (size_t k = 0; k < n; k++) {                                            \
    ik_ival r_ = fn(ik_make(alo[k], ahi[k]), ik_make(blo[k], bhi[k]));        \
    dlo[k] = r_.lo;                                                           \
    dhi[k] = r_.hi;                                                           \
  }

/* What a big operator's body reads of the chunk of the outer tape: its inputs (points base ..)
   and its registers (the body's hoisted parts). */
typedef struct Outer {
  const double *const *in_lo, *const *in_hi;  /* the outer tape's inputs */
  size_t base;                                /* the chunk's first point */
  const double *reg_lo, *reg_hi;              /* the outer tape's registers for the chunk */
  double scale;                               /* indices walked by the enclosing walks at once
                                                 (their counts multiplied; 1 at the top) */
  unsigned char *enclosed;                    /* per point of the chunk: set to 1 where a big
                                                 operator was enclosed, not walked (NULL: not
                                                 asked) */
} Outer;

static int tape_eval(const AlgTape *t, size_t npoints, const double *const *in_lo,
                     const double *const *in_hi, double *out_lo, double *out_hi, double scale,
                     unsigned char *enclosed);

static int eval_bigop(const TapeInsn *in, size_t n, const Outer *outer, const double *llo,
                      const double *lhi, const double *ulo, const double *uhi, double *dlo,
                      double *dhi, unsigned long loop_limit);

/* Chunk-wide tests that select the branch-free loops of the common nonnegative case. */
static int all_nonneg(const double *lo, size_t n) {
  int ok = 1;
  for (size_t k = 0; k < n; k++) ok &= lo[k] >= 0;
  return ok;
}
static int all_positive(const double *lo, size_t n) {
  int ok = 1;
  for (size_t k = 0; k < n; k++) ok &= lo[k] > 0;
  return ok;
}

/* The point loops vectorise 4 or 8 wide where the processor has AVX2 or AVX-512: GCC compiles
   eval_chunk once per target and picks the clone at load time (ifunc). The arithmetic is the
   same in every clone: -std=c11 implies -ffp-contract=off, so no multiply-add is fused and the
   results stay bitwise those of the portable clone. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define TAPE_CLONES __attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")))
#else
#define TAPE_CLONES
#endif

/* One chunk of n <= ALG_TAPE_CHUNK points starting at point base. */
TAPE_CLONES static int eval_chunk(const AlgTape *t, size_t n, size_t base,
                                  const double *const *in_lo, const double *const *in_hi,
                                  double *restrict lo, double *restrict hi, double scale,
                                  unsigned char *enclosed) {
  for (size_t i = 0; i < t->ninsns; i++) {
    const TapeInsn *in = &t->insns[i];
    double *restrict dlo = lo + (size_t)in->dst * ALG_TAPE_CHUNK;
    double *restrict dhi = hi + (size_t)in->dst * ALG_TAPE_CHUNK;
    const double *restrict alo = in->a >= 0 ? lo + (size_t)in->a * ALG_TAPE_CHUNK : NULL;
    const double *restrict ahi = in->a >= 0 ? hi + (size_t)in->a * ALG_TAPE_CHUNK : NULL;
    const double *restrict blo = in->b >= 0 ? lo + (size_t)in->b * ALG_TAPE_CHUNK : NULL;
    const double *restrict bhi = in->b >= 0 ? hi + (size_t)in->b * ALG_TAPE_CHUNK : NULL;
    switch (in->op) {
    case OP_CONST:
      for (size_t k = 0; k < n; k++) {
        dlo[k] = in->klo;
        dhi[k] = in->khi;
      }
      break;
    case OP_INPUT:
      memcpy(dlo, in_lo[in->n] + base, n * sizeof *dlo);
      memcpy(dhi, in_hi[in->n] + base, n * sizeof *dhi);
      break;
    case OP_ADD: BINARY(ik_add); break;
    case OP_MUL:
      if (all_nonneg(alo, n) && all_nonneg(blo, n)) {   /* ik_mul's first case, inlined */
        for (size_t k = 0; k < n; k++) {
          dlo[k] = ik_mul_lo(alo[k], blo[k]);
          dhi[k] = ik_mul_hi(ahi[k], bhi[k]);
        }
      } else {
        BINARY(ik_mul);
      }
      break;
    case OP_DIV:
      if (all_nonneg(alo, n) && all_positive(blo, n)) {   /* ik_div's second case, inlined */
        for (size_t k = 0; k < n; k++) {
          dlo[k] = ik_div_lo(alo[k], bhi[k]);
          dhi[k] = ik_div_hi(ahi[k], blo[k]);
        }
      } else {
        BINARY(ik_div);
      }
      break;
    case OP_MIN: BINARY(ik_min); break;
    case OP_MAX: BINARY(ik_max); break;
    case OP_POW: BINARY(ik_pow); break;
    case OP_MOD: BINARY(ik_mod); break;
    case OP_AND: BINARY(ik_and); break;
    case OP_OR: BINARY(ik_or); break;
    case OP_CEIL: UNARY(ik_ceil); break;
    case OP_FLOOR: UNARY(ik_floor); break;
    case OP_ABS: UNARY(ik_abs); break;
    case OP_LOG: UNARY(ik_log); break;
    case OP_LOG2: UNARY(ik_log2); break;
    case OP_EXP: UNARY(ik_exp); break;
    case OP_SQRT: UNARY(ik_sqrt); break;
    case OP_NOT: UNARY(ik_not); break;
    case OP_POWI: {
      long long e = in->n;
      if (e == -1 && all_positive(alo, n)) {   /* ik_div(1, a)'s second case, inlined */
        for (size_t k = 0; k < n; k++) {
          dlo[k] = ik_div_lo(1.0, ahi[k]);
          dhi[k] = ik_div_hi(1.0, alo[k]);
        }
      } else if (e == -1) {
        for (size_t k = 0; k < n; k++) {
          ik_ival r = ik_div(ik_make(1.0, 1.0), ik_make(alo[k], ahi[k]));
          dlo[k] = r.lo;
          dhi[k] = r.hi;
        }
      } else if (e == 2) {
        for (size_t k = 0; k < n; k++) {
          ik_ival r = ik_powi(ik_make(alo[k], ahi[k]), 2);
          dlo[k] = r.lo;
          dhi[k] = r.hi;
        }
      } else {
        for (size_t k = 0; k < n; k++) {
          ik_ival r = ik_powi(ik_make(alo[k], ahi[k]), e);
          dlo[k] = r.lo;
          dhi[k] = r.hi;
        }
      }
      break;
    }
    case OP_CMP: {
      int op = (int)in->n;
      for (size_t k = 0; k < n; k++) {
        ik_ival r = ik_cmp(op, ik_make(alo[k], ahi[k]), ik_make(blo[k], bhi[k]));
        dlo[k] = r.lo;
        dhi[k] = r.hi;
      }
      break;
    }
    case OP_COND: {
      const double *clo = lo + (size_t)in->c * ALG_TAPE_CHUNK, *chi = hi + (size_t)in->c * ALG_TAPE_CHUNK;
      for (size_t k = 0; k < n; k++) {
        ik_ival r = ik_cond(ik_make(alo[k], ahi[k]), ik_make(blo[k], bhi[k]), ik_make(clo[k], chi[k]));
        dlo[k] = r.lo;
        dhi[k] = r.hi;
      }
      break;
    }
    case OP_BIGOP:
    {
      Outer outer = {in_lo, in_hi, base, lo, hi, scale, enclosed};
      if (eval_bigop(in, n, &outer, alo, ahi, blo, bhi, dlo, dhi, t->loop_limit) != 0) return -1;
      break;
    }
    }
  }
  return 0;
}

int alg_tape_eval(const AlgTape *t, size_t npoints, const double *const *in_lo,
                  const double *const *in_hi, double *out_lo, double *out_hi) {
  return tape_eval(t, npoints, in_lo, in_hi, out_lo, out_hi, 1, NULL);
}

int alg_tape_eval_enclosed(const AlgTape *t, size_t npoints, const double *const *in_lo,
                           const double *const *in_hi, double *out_lo, double *out_hi,
                           unsigned char *enclosed) {
  memset(enclosed, 0, npoints);
  return tape_eval(t, npoints, in_lo, in_hi, out_lo, out_hi, 1, enclosed);
}

/* enclosed: NULL, or per point (npoints) set to 1 where a big operator was enclosed. */
static int tape_eval(const AlgTape *t, size_t npoints, const double *const *in_lo,
                     const double *const *in_hi, double *out_lo, double *out_hi, double scale,
                     unsigned char *enclosed) {
  size_t regs = t->nregs ? t->nregs : 1;
  double *lo = malloc(regs * ALG_TAPE_CHUNK * sizeof *lo);
  double *hi = malloc(regs * ALG_TAPE_CHUNK * sizeof *hi);
  int status = lo && hi ? 0 : -1;
  for (size_t base = 0; base < npoints && status == 0; base += ALG_TAPE_CHUNK) {
    size_t n = npoints - base < ALG_TAPE_CHUNK ? npoints - base : ALG_TAPE_CHUNK;
    status = eval_chunk(t, n, base, in_lo, in_hi, lo, hi, scale, enclosed ? enclosed + base : NULL);
    if (status == 0) {
      memcpy(out_lo + base, lo + (size_t)t->result * ALG_TAPE_CHUNK, n * sizeof *lo);
      memcpy(out_hi + base, hi + (size_t)t->result * ALG_TAPE_CHUNK, n * sizeof *hi);
    }
  }
  free(lo);
  free(hi);
  return status;
}

AlgInterval alg_tape_eval_env(const AlgTape *t, const AlgInterval *env) {
  size_t m = t->ninputs ? t->ninputs : 1;
  double *vals = malloc(2 * m * sizeof *vals);
  const double **ptrs = malloc(2 * m * sizeof *ptrs);
  AlgInterval r = ival_entire();
  if (vals && ptrs) {
    for (size_t i = 0; i < t->ninputs; i++) {
      AlgInterval v = env[alg_symbol_id(t->inputs[i])];
      vals[2 * i] = v.lo;
      vals[2 * i + 1] = v.hi;
      ptrs[i] = &vals[2 * i];
      ptrs[m + i] = &vals[2 * i + 1];
    }
    if (alg_tape_eval(t, 1, ptrs, ptrs + m, &r.lo, &r.hi) != 0) r = ival_entire();
  }
  free(vals);
  free(ptrs);
  return r;
}

/* ---- big operators ---------------------------------------------------------------------------- */

static ik_ival combine(AlgKind kind, ik_ival acc, ik_ival v, int first) {
  switch (kind) {
  case ALG_SUM: return ik_add(acc, v);
  case ALG_PROD: return ik_mul(acc, v);
  case ALG_MAXOVER: return first ? v : ik_max(acc, v);
  default: return first ? v : ik_min(acc, v);
  }
}

/* Inputs of the body for m of its points: the index from idx_lo/idx_hi, every other input (a
   symbol, or a hoisted part) the value of outer point p of the chunk (or of outer point pts[j]
   for body point j when pts is given). */
static void body_inputs(const TapeInsn *in, size_t m, const Outer *outer, size_t p,
                        const size_t *pts, const double *idx_lo, const double *idx_hi, double *buf,
                        const double **blo, const double **bhi) {
  const AlgTape *body = in->body;
  for (size_t i = 0; i < body->ninputs + body->nhoisted; i++) {
    const double *src_lo, *src_hi;
    if (i < body->ninputs && in->body_inputs[i] < 0) {
      blo[i] = idx_lo;
      bhi[i] = idx_hi;
      continue;
    }
    if (i < body->ninputs) {
      src_lo = outer->in_lo[in->body_inputs[i]] + outer->base;
      src_hi = outer->in_hi[in->body_inputs[i]] + outer->base;
    } else {
      src_lo = outer->reg_lo + (size_t)in->hoisted[i - body->ninputs] * ALG_TAPE_CHUNK;
      src_hi = outer->reg_hi + (size_t)in->hoisted[i - body->ninputs] * ALG_TAPE_CHUNK;
    }
    double *l = buf + 2 * i * ALG_TAPE_CHUNK, *h = l + ALG_TAPE_CHUNK;
    for (size_t j = 0; j < m; j++) {
      size_t q = pts ? pts[j] : p;
      l[j] = src_lo[q];
      h[j] = src_hi[q];
    }
    blo[i] = l;
    bhi[i] = h;
  }
}

/* As eval_bigop of eval.c: ends rounded inward to integers; empty ranges give the neutral value;
   short ranges are walked (the body as a batch over the indices), others enclosed. */
static int eval_bigop(const TapeInsn *in, size_t n, const Outer *outer, const double *llo,
                      const double *lhi, const double *ulo, const double *uhi, double *dlo,
                      double *dhi, unsigned long loop_limit) {
  AlgKind kind = (AlgKind)in->n;
  const AlgTape *body = in->body;
  size_t m_in = body->ninputs + body->nhoisted ? body->ninputs + body->nhoisted : 1;
  double *buf = malloc((2 * m_in + 6) * ALG_TAPE_CHUNK * sizeof *buf);
  const double **ptrs = malloc(2 * m_in * sizeof *ptrs);
  size_t *ext = malloc(ALG_TAPE_CHUNK * sizeof *ext);
  if (!buf || !ptrs || !ext) {
    free(buf); free(ptrs); free(ext);
    return -1;
  }
  double *idx_lo = buf + 2 * m_in * ALG_TAPE_CHUNK, *idx_hi = idx_lo + ALG_TAPE_CHUNK;
  double *vlo = idx_hi + ALG_TAPE_CHUNK, *vhi = vlo + ALG_TAPE_CHUNK;
  double *ext_lo = vhi + ALG_TAPE_CHUNK, *ext_hi = ext_lo + ALG_TAPE_CHUNK;   /* enclosed points' index */
  unsigned char inner[ALG_TAPE_CHUNK];   /* per index walked: a big operator of the body enclosed */
  ik_ival neutral = kind == ALG_PROD ? ik_make(1.0, 1.0) : ik_make(0.0, 0.0);
  size_t next = 0;
  int status = 0;
  for (size_t k = 0; k < n && status == 0; k++) {
    ik_ival lower = ik_ceil(ik_make(llo[k], lhi[k])), upper = ik_floor(ik_make(ulo[k], uhi[k]));
    int points = lower.lo == lower.hi && upper.lo == upper.hi && isfinite(lower.lo) && isfinite(upper.lo);
    ik_ival acc = neutral;
    if (points && upper.lo < lower.lo) {
      /* empty: neutral */
    } else if (points && upper.lo - lower.lo < (double)loop_limit &&
               (upper.lo - lower.lo + 1) * outer->scale <= ALG_TAPE_WALK_BUDGET) {
      int first = 1;
      for (double i = lower.lo; i <= upper.lo && status == 0;) {
        size_t m = 0;
        for (; m < ALG_TAPE_CHUNK && i <= upper.lo; m++, i++) idx_lo[m] = idx_hi[m] = i;
        body_inputs(in, m, outer, k, NULL, idx_lo, idx_hi, buf, ptrs, ptrs + m_in);
        if (outer->enclosed) memset(inner, 0, m);
        status = tape_eval(body, m, ptrs, ptrs + m_in, vlo, vhi, (upper.lo - lower.lo + 1) * outer->scale,
                           outer->enclosed ? inner : NULL);
        for (size_t j = 0; outer->enclosed && j < m; j++) outer->enclosed[k] |= inner[j];
        for (size_t j = 0; j < m && status == 0; j++, first = 0)
          acc = combine(kind, acc, ik_make(vlo[j], vhi[j]), first);
      }
    } else {
      ext[next] = k;   /* enclosed below, all such points of the chunk in one batch */
      if (outer->enclosed) outer->enclosed[k] = 1;
      ext_lo[next] = lower.lo;
      ext_hi[next] = upper.hi < lower.lo ? lower.lo : upper.hi;
      next++;
      continue;
    }
    dlo[k] = acc.lo;
    dhi[k] = acc.hi;
  }
  if (next && status == 0) {
    body_inputs(in, next, outer, 0, ext, ext_lo, ext_hi, buf, ptrs, ptrs + m_in);
    status = tape_eval(body, next, ptrs, ptrs + m_in, vlo, vhi, outer->scale, NULL);
    for (size_t j = 0; j < next && status == 0; j++) {
      size_t k = ext[j];
      ik_ival lower = ik_ceil(ik_make(llo[k], lhi[k])), upper = ik_floor(ik_make(ulo[k], uhi[k]));
      ik_ival count = ik_max(ik_add(ik_sub(upper, lower), ik_make(1.0, 1.0)), ik_make(0.0, 0.0));
      ik_ival v = ik_make(vlo[j], vhi[j]), r;
      switch (kind) {
      case ALG_SUM: r = ik_mul(count, v); break;
      case ALG_PROD: r = v.lo >= 0 ? ik_pow(v, count) : ik_entire(); break;
      default: r = v; break;
      }
      if (count.lo < 1) r = ik_hull(r, neutral);
      dlo[k] = r.lo;
      dhi[k] = r.hi;
    }
  }
  free(buf); free(ptrs); free(ext);
  return status;
}
