/*
** print.c — the readable text form of expressions (minimal parentheses; read back by
** parse_text.c), the text buffer the printers share, and the entry points alg_print/alg_fprint.
** An expression whose tree is larger than ALG_PRINT_MAX_TREE (a DAG of shared maxima and ifs,
** 2^depth as a tree) is printed with its shared parts named once: "e where s1 = .., s2 = ..".
*/
#include "expr_impl.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- buffer ---- */

static void buf_reserve(AlgBuf *buf, size_t more) {
  if (buf->length + more + 1 <= buf->cap) return;
  size_t cap = buf->cap ? buf->cap : 256;
  while (cap < buf->length + more + 1) cap *= 2;
  char *data = realloc(buf->data, cap);
  if (!data) {
    fputs("pamc: out of memory\n", stderr);
    abort();
  }
  buf->data = data;
  buf->cap = cap;
}

void alg_buf_puts(AlgBuf *buf, const char *text) {
  size_t n = strlen(text);
  buf_reserve(buf, n);
  memcpy(buf->data + buf->length, text, n + 1);
  buf->length += n;
}

void alg_buf_printf(AlgBuf *buf, const char *format, ...) {
  va_list args;
  va_start(args, format);
  int n = vsnprintf(NULL, 0, format, args);
  va_end(args);
  if (n < 0) return;
  buf_reserve(buf, (size_t)n);
  va_start(args, format);
  vsnprintf(buf->data + buf->length, (size_t)n + 1, format, args);
  va_end(args);
  buf->length += (size_t)n;
}

void alg_buf_double(AlgBuf *buf, double x) {
  if (isinf(x)) {
    alg_buf_puts(buf, x < 0 ? "-inf" : "inf");
    return;
  }
  char text[64];
  for (int digits = 1; digits <= 17; digits++) {   /* shortest round-tripping form */
    snprintf(text, sizeof text, "%.*g", digits, x);
    if (strtod(text, NULL) == x) break;
  }
  alg_buf_puts(buf, text);
}

/* ---- fractions ---- */

int alg_fraction(AlgCtx *ctx, const AlgExpr *e, AlgFraction *f) {
  size_t n = e->kind == ALG_MUL ? e->nkids : 1;
  if (e->kind != ALG_MUL && e->kind != ALG_NUM &&
      !(e->kind == ALG_POW && e->kids[1]->kind == ALG_NUM && mpq_sgn(e->kids[1]->u.num) < 0))
    return 0;
  memset(f, 0, sizeof *f);
  mpq_init(f->coef);
  mpq_set_ui(f->coef, 1, 1);
  f->num = malloc(n * sizeof *f->num);
  f->den = malloc(n * sizeof *f->den);
  f->den_exp = malloc(n * sizeof *f->den_exp);
  if (!f->num || !f->den || !f->den_exp) abort();
  for (size_t i = 0; i < n; i++) {
    const AlgExpr *k = e->kind == ALG_MUL ? e->kids[i] : e;
    if (k->kind == ALG_NUM) mpq_set(f->coef, k->u.num);
    else if (k->kind == ALG_IVAL) f->ival = (AlgExpr *)k;
    else if (k->kind == ALG_POW && k->kids[1]->kind == ALG_NUM && mpq_sgn(k->kids[1]->u.num) < 0) {
      mpq_t positive;
      mpq_init(positive);
      mpq_neg(positive, k->kids[1]->u.num);
      f->den[f->nden] = k->kids[0];
      f->den_exp[f->nden++] = alg_num_q(ctx, positive);
      mpq_clear(positive);
    } else f->num[f->nnum++] = k;
  }
  if (mpq_sgn(f->coef) < 0) {
    f->negative = 1;
    mpq_neg(f->coef, f->coef);
  }
  return 1;
}

void alg_fraction_clear(AlgFraction *f) {
  mpq_clear(f->coef);
  free(f->num);
  free(f->den);
  free(f->den_exp);
}

/* ---- text ---- */

/* Binding strength, weakest first. */
enum {
  PREC_COND = 1, PREC_OR, PREC_AND, PREC_NOT, PREC_CMP, PREC_ADD, PREC_MUL, PREC_NEG, PREC_POW,
  PREC_ATOM
};

typedef struct TextPrinter {
  AlgCtx *ctx;    /* for fractions */
  AlgBuf *buf;    /* output */
  int decimal;    /* ALG_FMT_DECIMAL: long coefficients and interval ends as short decimals */
  size_t *name;   /* shared parts: by node id, the name's number + 1 (0: printed in place);
                     NULL when printed as a tree */
  size_t nname;   /* entries in name (nodes made before printing) */
  const AlgExpr **named; /* the named nodes in order of their numbers (count: nnamed) */
  size_t nnamed;
  const AlgExpr *defining; /* the node whose definition is being printed (not its name) */
} TextPrinter;

/* Tree sizes beyond which the shared parts are named. */
#define ALG_PRINT_MAX_TREE 100000
/* Smallest tree size of a part worth a name. */
#define ALG_PRINT_MIN_NAMED 8

/* Relative distance below which a decimal on the wrong side of an interval end is taken as the
** end's rounding noise (a few units in the last place of a double). */
#define ALG_DECIMAL_NOISE 1e-15

/* x to ALG_DECIMAL_DIGITS significant digits, rounded down (dir < 0) or up (dir > 0) so that the
** text read back stays on that side of x; the shortest exact form when that fails. */
static void decimal_double(AlgBuf *buf, double x, int dir) {
  char text[64];
  snprintf(text, sizeof text, "%.*e", ALG_DECIMAL_DIGITS - 1, x);
  double back = strtod(text, NULL);
  /* within ALG_DECIMAL_NOISE of x, the wrong side is rounding noise of the interval arithmetic
  ** (5.999999999999999e-10 reads 6e-10); --exact prints every bit */
  int noise = fabs(back - x) <= ALG_DECIMAL_NOISE * fabs(x);
  if (isfinite(x) && !noise && (dir < 0 ? back > x : dir > 0 ? back < x : 0)) {
    /* one unit of the last digit toward dir: the mantissa's digits as an integer */
    char *e = strchr(text, 'e');
    long long mantissa = 0;
    for (char *c = text; c < e; c++)
      if (*c >= '0' && *c <= '9') mantissa = mantissa * 10 + (*c - '0');
    if (x < 0) mantissa = -mantissa;
    mantissa += dir;
    snprintf(text, sizeof text, "%llde%ld", mantissa, strtol(e + 1, NULL, 10) - (ALG_DECIMAL_DIGITS - 1));
    back = strtod(text, NULL);
  }
  if (isfinite(x) && !noise && (dir < 0 ? back > x : dir > 0 ? back < x : 0)) {
    alg_buf_double(buf, x);
    return;
  }
  snprintf(text, sizeof text, "%.*g", ALG_DECIMAL_DIGITS, back);   /* tidy: 5.4e-06, 1000 */
  alg_buf_puts(buf, isfinite(x) ? text : x < 0 ? "-inf" : "inf");
}

/* More than ALG_DECIMAL_EXACT_DIGITS digits in the numerator or denominator of q. */
static int long_rational(mpq_srcptr q) {
  return mpz_sizeinbase(mpq_numref(q), 10) > ALG_DECIMAL_EXACT_DIGITS ||
         mpz_sizeinbase(mpq_denref(q), 10) > ALG_DECIMAL_EXACT_DIGITS;
}

static void text(TextPrinter *p, const AlgExpr *e, int prec);

static int is_negative_term(AlgCtx *ctx, const AlgExpr *e) {
  if (e->kind == ALG_NUM) return mpq_sgn(e->u.num) < 0;
  AlgFraction f;
  if (!alg_fraction(ctx, e, &f)) return 0;
  int negative = f.negative;
  alg_fraction_clear(&f);
  return negative;
}

/* The factors of a fraction's numerator or denominator joined by '*'. */
static void text_factors(TextPrinter *p, mpz_srcptr coef, const AlgExpr *ival, const AlgExpr **bases,
                         AlgExpr **exponents, size_t n, int need_atom) {
  size_t items = (mpz_cmp_ui(coef, 1) != 0) + (ival != NULL) + n;
  int parens = need_atom && items > 1;
  if (parens) alg_buf_puts(p->buf, "(");
  int first = 1;
  if (mpz_cmp_ui(coef, 1) != 0 || items == 0) {
    char *digits = mpz_get_str(NULL, 10, coef);
    alg_buf_puts(p->buf, digits);
    free(digits);
    first = 0;
  }
  if (ival) {
    if (!first) alg_buf_puts(p->buf, "*");
    text(p, ival, PREC_ATOM);
    first = 0;
  }
  for (size_t i = 0; i < n; i++) {
    if (!first) alg_buf_puts(p->buf, "*");
    first = 0;
    if (exponents && !alg_is_num(exponents[i], 1)) {
      text(p, bases[i], PREC_ATOM);
      alg_buf_puts(p->buf, "^");
      text(p, exponents[i], PREC_POW);
    } else text(p, bases[i], need_atom && items == 1 ? PREC_NEG + 1 : PREC_MUL + 1);
  }
  if (parens) alg_buf_puts(p->buf, ")");
}

/* coef * num / den, the sign left to the caller. */
static void text_fraction(TextPrinter *p, AlgFraction *f) {
  if (p->decimal && long_rational(f->coef)) {   /* 0.00048768*N/P */
    decimal_double(p->buf, mpq_get_d(f->coef), 0);
    mpz_t one;
    mpz_init_set_ui(one, 1);
    if (f->ival || f->nnum > 0) {
      alg_buf_puts(p->buf, "*");
      text_factors(p, one, f->ival, f->num, NULL, f->nnum, 0);
    }
    if (f->nden > 0) {
      alg_buf_puts(p->buf, "/");
      text_factors(p, one, NULL, f->den, f->den_exp, f->nden, 1);
    }
    mpz_clear(one);
    return;
  }
  text_factors(p, mpq_numref(f->coef), f->ival, f->num, NULL, f->nnum, 0);
  if (mpz_cmp_ui(mpq_denref(f->coef), 1) != 0 || f->nden > 0) {
    alg_buf_puts(p->buf, "/");
    text_factors(p, mpq_denref(f->coef), NULL, f->den, f->den_exp, f->nden, 1);
  }
}

static int fraction_prec(AlgFraction *f) {
  if (f->negative) return PREC_NEG;
  size_t items = (mpz_cmp_ui(mpq_numref(f->coef), 1) != 0) + (f->ival != NULL) + f->nnum;
  if (items > 1 || mpz_cmp_ui(mpq_denref(f->coef), 1) != 0 || f->nden > 0) return PREC_MUL;
  return PREC_ATOM;
}

static void text_product(TextPrinter *p, const AlgExpr *e, int prec, int drop_sign) {
  AlgFraction f;
  alg_fraction(p->ctx, e, &f);
  if (drop_sign) f.negative = 0;
  int own = fraction_prec(&f);
  if (own < prec) alg_buf_puts(p->buf, "(");
  if (f.negative) alg_buf_puts(p->buf, "-");
  text_fraction(p, &f);
  if (own < prec) alg_buf_puts(p->buf, ")");
  alg_fraction_clear(&f);
}

static void text_sum(TextPrinter *p, const AlgExpr *e) {
  int first = 1;
  /* the constant goes last: "N + 1" */
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < e->nkids; i++) {
      const AlgExpr *t = e->kids[i];
      if ((t->kind == ALG_NUM) != (pass == 1)) continue;
      int negative = is_negative_term(p->ctx, t);
      if (!first) alg_buf_puts(p->buf, negative ? " - " : " + ");
      if (negative && !first) text_product(p, t, PREC_ADD + 1, 1);
      else text(p, t, PREC_ADD);
      first = 0;
    }
}

static void text_call(TextPrinter *p, const char *name, const AlgExpr *e, size_t from) {
  alg_buf_puts(p->buf, name);
  alg_buf_puts(p->buf, "(");
  for (size_t i = from; i < e->nkids; i++) {
    if (i > from) alg_buf_puts(p->buf, ", ");
    text(p, e->kids[i], PREC_COND);
  }
  alg_buf_puts(p->buf, ")");
}

static void text_binary(TextPrinter *p, const AlgExpr *e, int own, int prec, const char *op) {
  if (own < prec) alg_buf_puts(p->buf, "(");
  text(p, e->kids[0], own + 1);
  alg_buf_puts(p->buf, op);
  for (size_t i = 1; i < e->nkids; i++) {
    if (i > 1) alg_buf_puts(p->buf, op);
    text(p, e->kids[i], own + 1);
  }
  if (own < prec) alg_buf_puts(p->buf, ")");
}

static void text(TextPrinter *p, const AlgExpr *e, int prec) {
  if (p->name && e != p->defining && e->id < p->nname && p->name[e->id]) {
    alg_buf_printf(p->buf, "s%zu", p->name[e->id]);
    return;
  }
  switch (e->kind) {
  case ALG_NUM: case ALG_MUL: text_product(p, e, prec, 0); return;
  case ALG_IVAL:
    alg_buf_puts(p->buf, "[");
    if (p->decimal) decimal_double(p->buf, e->u.ival.lo, -1);
    else alg_buf_double(p->buf, e->u.ival.lo);
    alg_buf_puts(p->buf, ", ");
    if (p->decimal) decimal_double(p->buf, e->u.ival.hi, 1);
    else alg_buf_double(p->buf, e->u.ival.hi);
    alg_buf_puts(p->buf, "]");
    return;
  case ALG_SYM: alg_buf_puts(p->buf, e->u.sym->name); return;
  case ALG_ADD:
    if (PREC_ADD < prec) alg_buf_puts(p->buf, "(");
    text_sum(p, e);
    if (PREC_ADD < prec) alg_buf_puts(p->buf, ")");
    return;
  case ALG_POW:
    if (e->kids[1]->kind == ALG_NUM && mpq_sgn(e->kids[1]->u.num) < 0) {
      text_product(p, e, prec, 0);
      return;
    }
    if (PREC_POW < prec) alg_buf_puts(p->buf, "(");
    text(p, e->kids[0], PREC_ATOM);
    alg_buf_puts(p->buf, "^");
    text(p, e->kids[1], PREC_POW);
    if (PREC_POW < prec) alg_buf_puts(p->buf, ")");
    return;
  case ALG_MOD:
    if (PREC_MUL < prec) alg_buf_puts(p->buf, "(");
    text(p, e->kids[0], PREC_MUL);
    alg_buf_puts(p->buf, " % ");
    text(p, e->kids[1], PREC_NEG);
    if (PREC_MUL < prec) alg_buf_puts(p->buf, ")");
    return;
  case ALG_EQ: text_binary(p, e, PREC_CMP, prec, " == "); return;
  case ALG_NE: text_binary(p, e, PREC_CMP, prec, " != "); return;
  case ALG_LT: text_binary(p, e, PREC_CMP, prec, " < "); return;
  case ALG_LE: text_binary(p, e, PREC_CMP, prec, " <= "); return;
  case ALG_AND: text_binary(p, e, PREC_AND, prec, " and "); return;
  case ALG_OR: text_binary(p, e, PREC_OR, prec, " or "); return;
  case ALG_NOT:
    if (PREC_NOT < prec) alg_buf_puts(p->buf, "(");
    alg_buf_puts(p->buf, "not ");
    text(p, e->kids[0], PREC_CMP);
    if (PREC_NOT < prec) alg_buf_puts(p->buf, ")");
    return;
  case ALG_COND:
    if (PREC_COND < prec) alg_buf_puts(p->buf, "(");
    text(p, e->kids[0], PREC_OR);
    alg_buf_puts(p->buf, " ? ");
    text(p, e->kids[1], PREC_COND);
    alg_buf_puts(p->buf, " : ");
    text(p, e->kids[2], PREC_COND);
    if (PREC_COND < prec) alg_buf_puts(p->buf, ")");
    return;
  case ALG_LOWER: case ALG_UPPER:   /* the approximation; its exact form is for evaluation */
    alg_buf_puts(p->buf, alg_kind_name(e->kind));
    alg_buf_puts(p->buf, "(");
    text(p, e->kids[0], PREC_COND);
    alg_buf_puts(p->buf, ")");
    return;
  default:   /* calls: functions, min/max, big operators, markers */
    text_call(p, alg_kind_name(e->kind), e, 0);
    return;
  }
}

/* ---- shared parts ---- */

/* The size of e as a tree (saturated at ALG_PRINT_MAX_TREE + 1), by id in size (0: not yet),
** and the parents of each node in the DAG (by id in parents). Depth: as the expression's. */
static size_t tree_size(const AlgExpr *e, size_t *size, size_t *parents, size_t n) {
  if (e->id >= n) return 1;
  if (size[e->id]) return size[e->id];
  size_t total = 1;
  for (size_t i = 0; i < e->nkids; i++) {
    const AlgExpr *k = e->kids[i];
    if (k->id < n) parents[k->id]++;
    total += tree_size(k, size, parents, n);
    if (total > ALG_PRINT_MAX_TREE) total = ALG_PRINT_MAX_TREE + 1;
  }
  return size[e->id] = total;
}

/* Names the parts of e with more than one parent and a tree of at least ALG_PRINT_MIN_NAMED
** nodes, numbered in the order of a walk from the root (each counted once). */
static void name_parts(TextPrinter *p, const AlgExpr *e, const size_t *size, const size_t *parents,
                       unsigned char *seen) {
  if (e->id >= p->nname || seen[e->id]) return;
  seen[e->id] = 1;
  if (parents[e->id] > 1 && size[e->id] >= ALG_PRINT_MIN_NAMED && e->nkids) {
    p->named[p->nnamed++] = e;
    p->name[e->id] = p->nnamed;
  }
  for (size_t i = 0; i < e->nkids; i++) name_parts(p, e->kids[i], size, parents, seen);
}

/* Nodes on the stack of tree_over: deeper, the tree counts as large (text_shared then decides). */
#define ALG_PRINT_OVER_STACK 256

/* 1 when e as a tree has more than limit nodes, or more than ALG_PRINT_OVER_STACK pending on
** the way (then text_shared's own count decides); 0 when it surely has at most limit. A count
** that stops at limit + 1, with no table by node id: text_shared's tables are as large as the
** context's nodes, and zeroing them for every small expression printed made printing n terms
** (a name per statement: 10^5 uses of a family's members) cost n times the context's size. */
static int tree_over(const AlgExpr *e, size_t limit) {
  const AlgExpr *stack[ALG_PRINT_OVER_STACK];
  size_t top = 0, count = 0;
  stack[top++] = e;
  while (top) {
    const AlgExpr *x = stack[--top];
    if (++count > limit) return 1;
    for (size_t i = 0; i < x->nkids; i++) {
      if (top == ALG_PRINT_OVER_STACK) return 1;
      stack[top++] = x->kids[i];
    }
  }
  return 0;
}

/* The text form with shared parts named (when the tree passes ALG_PRINT_MAX_TREE): 0 when e is
** small enough to print as a tree, or out of memory. */
static int text_shared(TextPrinter *p, const AlgExpr *e) {
  if (!tree_over(e, ALG_PRINT_MAX_TREE)) return 0;   /* small: printed as a tree */
  size_t n = p->ctx->nnodes;
  size_t *size = calloc(n ? n : 1, sizeof *size), *parents = calloc(n ? n : 1, sizeof *parents);
  unsigned char *seen = calloc(n ? n : 1, 1);
  p->name = calloc(n ? n : 1, sizeof *p->name);
  p->named = malloc((n ? n : 1) * sizeof *p->named);
  int shared = size && parents && seen && p->name && p->named &&
               tree_size(e, size, parents, n) > ALG_PRINT_MAX_TREE;
  if (shared) {
    p->nname = n;
    name_parts(p, e, size, parents, seen);
    text(p, e, PREC_COND);
    for (size_t k = 0; k < p->nnamed; k++) {
      alg_buf_printf(p->buf, k ? "\n        s%zu = " : "\n  where s%zu = ", k + 1);
      p->defining = p->named[k];
      text(p, p->named[k], PREC_COND);
    }
  }
  free(size); free(parents); free(seen); free(p->name); free(p->named);
  p->name = NULL;
  return shared;
}

/* ---- entry points ---- */

const char *alg_print(AlgCtx *ctx, const AlgExpr *e, AlgFormat format) {
  AlgBuf buf = {NULL, 0, 0};
  alg_buf_puts(&buf, "");
  if (format == ALG_FMT_TEXT || format == ALG_FMT_DECIMAL) {
    TextPrinter p = {ctx, &buf, format == ALG_FMT_DECIMAL, NULL, 0, NULL, 0, NULL};
    if (!text_shared(&p, e)) text(&p, e, PREC_COND);
  } else if (format == ALG_FMT_LATEX) alg_print_latex(ctx, &buf, e);
  else alg_print_json(&buf, e);
  char *copy = alg_pool_strdup(&ctx->pool, buf.data);
  free(buf.data);
  return copy;
}

int alg_fprint(FILE *out, AlgCtx *ctx, const AlgExpr *e, AlgFormat format) {
  return fputs(alg_print(ctx, e, format), out) < 0 ? -1 : 0;
}
