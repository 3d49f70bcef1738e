/*
** expr.h — symbolic expressions of pamc's algebra: hash-consed immutable nodes owned by a
** context, built through simplifying constructors, closed forms of sums/maxima over an index,
** tree-walk interval evaluation, substitution and printers.
**
** API stable: from here on this header is only added to.
**
** Model.
** - One AlgCtx owns every node, symbol and string; alg_ctx_free releases them all (GMP values
**   included). Nodes are immutable and hash-consed: two structurally equal expressions built in
**   the same context are the same pointer. alg_id gives each node a dense id (0 .. count-1) for
**   memo tables (alg_ctx_node_count bounds them; ids only grow as nodes are added).
** - Every constructor returns the canonical, simplified form. Simplification never changes the
**   value of an expression for admissible values of its symbols (their assumptions), except
**   that x * x^-1 = 1 and x^0 = 1 are used as usual.
** - Canonical shapes the tape compiler must handle (other shapes never appear):
**     a - b   is ADD(a, MUL(-1, b));     a / b  is MUL(a, POW(b, -1));
**     a > b   is LT(b, a), a >= b is LE(b, a);
**     ADD/MUL/MIN/MAX/AND/OR are n-ary (>= 2 kids) and flattened; a numeric kid (NUM or IVAL:
**     the constant of a sum, the coefficient of a product) comes first;
**     booleans are the numbers 0 and 1 (comparisons, and/or/not and conditions use them);
**     undefined numbers (1/0, 0^-k) are the one node POW(0, -1).
** - Big operators (SUM, PROD, MAXOVER, MINOVER) have 4 kids: kid 0 the SYM node of the bound
**   index, kid 1 the lower end, kid 2 the upper end (inclusive), kid 3 the body. The range is
**   empty when upper < lower: SUM gives 0, PROD 1, MAXOVER and MINOVER 0. They only remain
**   when no closed form was found; alg_close replaces them by safe approximations.
** - LOWER/UPPER are markers with one kid: an approximation that cannot exceed (LOWER) or cannot
**   fall below (UPPER) the exact value it replaces. They evaluate as their kid.
*/
#ifndef PAMC_EXPR_H
#define PAMC_EXPR_H

#include <stddef.h>
#include <stdio.h>
#include <gmp.h>

#include "interval.h"

typedef struct AlgCtx AlgCtx;         /* owns nodes, symbols, strings */
typedef struct AlgExpr AlgExpr;       /* one immutable hash-consed node */
typedef struct AlgSymbol AlgSymbol;   /* a named symbol with its assumptions */

typedef enum AlgKind {
  /* leaves */
  ALG_NUM,       /* exact rational (alg_num_value) */
  ALG_IVAL,      /* interval constant [lo, hi] of doubles, lo < hi (alg_ival_value) */
  ALG_SYM,       /* a symbol (alg_symbol_of) */
  /* arithmetic */
  ALG_ADD,       /* n-ary sum */
  ALG_MUL,       /* n-ary product */
  ALG_POW,       /* kid0 ^ kid1 */
  ALG_MOD,       /* kid0 % kid1 = kid0 - kid1 * floor(kid0 / kid1) */
  ALG_MIN,       /* n-ary minimum */
  ALG_MAX,       /* n-ary maximum */
  /* functions of one argument */
  ALG_CEIL, ALG_FLOOR, ALG_ABS, ALG_LOG, ALG_LOG2, ALG_EXP, ALG_SQRT,
  /* comparisons (0 or 1) */
  ALG_EQ, ALG_NE, ALG_LT, ALG_LE,
  /* logic on 0/1 values; COND is kid0 ? kid1 : kid2 (kid0 nonzero picks kid1) */
  ALG_AND, ALG_OR, ALG_NOT, ALG_COND,
  /* big operators over an index: kids = index SYM, lower, upper, body */
  ALG_SUM, ALG_PROD, ALG_MAXOVER, ALG_MINOVER,
  /* safe-approximation markers, one kid */
  ALG_LOWER, ALG_UPPER,
  ALG_KIND_COUNT
} AlgKind;

/* Comparison operators; the numbering is ival_cmp's. */
typedef enum AlgCmp { ALG_CMP_EQ, ALG_CMP_NE, ALG_CMP_LT, ALG_CMP_LE, ALG_CMP_GT, ALG_CMP_GE } AlgCmp;

/* Which side an approximation must be safe on. */
typedef enum AlgDir {
  ALG_DIR_LOWER,   /* result <= exact value (for lower bounds) */
  ALG_DIR_UPPER    /* result >= exact value (for upper bounds) */
} AlgDir;

typedef enum AlgSymKind {
  ALG_SYM_PARAM,   /* a param of the model: default assumption >= 1 */
  ALG_SYM_CONST,   /* a constant (a duration, a machine parameter): default assumption >= 0 */
  ALG_SYM_INDEX    /* a loop index: integer, between its range's ends */
} AlgSymKind;

/* What simplification may assume about a symbol: lo <= value <= hi, integer when asked. */
typedef struct AlgAssume {
  double lo;       /* lower bound, may be -INFINITY */
  double hi;       /* upper bound, may be INFINITY */
  int integer;     /* nonzero: the value is an integer */
} AlgAssume;

typedef enum AlgFormat {
  ALG_FMT_TEXT,    /* readable, minimal parentheses, read back by alg_parse_text */
  ALG_FMT_LATEX,   /* LaTeX math mode */
  ALG_FMT_JSON,    /* a tree: {"op": ..., "args": [...]}, {"num": "p/q"}, {"sym": name}, ... */
  ALG_FMT_DECIMAL  /* as TEXT for people: a coefficient whose numerator or denominator has more
                      than ALG_DECIMAL_EXACT_DIGITS digits reads as a decimal of
                      ALG_DECIMAL_DIGITS significant digits (0.00048768, not 71968865198933395/
                      147573952589676412928), interval ends rounded outward to as many */
} AlgFormat;

/* ALG_FMT_DECIMAL: significant digits of a decimal coefficient or interval end. */
#define ALG_DECIMAL_DIGITS 6
/* ALG_FMT_DECIMAL: numerators and denominators of up to this many digits stay exact (N/8, 1000). */
#define ALG_DECIMAL_EXACT_DIGITS 6

/* ---- context ---------------------------------------------------------------------------- */

AlgCtx *alg_ctx_new(void);
void alg_ctx_free(AlgCtx *ctx);
size_t alg_ctx_node_count(const AlgCtx *ctx);     /* every alg_id is below this */
/* Largest index range that evaluation walks point by point (REDUCTION.md: user-settable);
   larger ranges are enclosed by interval extension. */
void alg_ctx_set_loop_limit(AlgCtx *ctx, unsigned long limit);
unsigned long alg_ctx_loop_limit(const AlgCtx *ctx);

/* ---- symbols ----------------------------------------------------------------------------- */

AlgAssume alg_assume_default(AlgSymKind kind);
/* A new symbol (names may repeat; alg_symbol_find returns the newest of a name). Assumptions are
   fixed at creation: create symbols before building expressions over them. */
AlgSymbol *alg_symbol_new(AlgCtx *ctx, const char *name, AlgSymKind kind, AlgAssume assume);
/* A loop index for the range lower..upper: integer, bounded by the bounds of its ends. */
AlgSymbol *alg_index_new(AlgCtx *ctx, const char *name, AlgExpr *lower, AlgExpr *upper);
AlgSymbol *alg_symbol_find(const AlgCtx *ctx, const char *name);
size_t alg_symbol_count(const AlgCtx *ctx);       /* symbol ids are 0 .. count-1 */
AlgSymbol *alg_symbol_at(const AlgCtx *ctx, size_t id);
const char *alg_symbol_name(const AlgSymbol *sym);
size_t alg_symbol_id(const AlgSymbol *sym);
AlgSymKind alg_symbol_kind(const AlgSymbol *sym);
AlgAssume alg_symbol_assume(const AlgSymbol *sym);

/* ---- reading nodes ----------------------------------------------------------------------- */

AlgKind alg_kind(const AlgExpr *e);
size_t alg_id(const AlgExpr *e);
size_t alg_nkids(const AlgExpr *e);
AlgExpr *alg_kid(const AlgExpr *e, size_t i);
mpq_srcptr alg_num_value(const AlgExpr *e);       /* ALG_NUM only */
AlgInterval alg_num_enclosure(const AlgExpr *e);  /* NUM: outward-rounded doubles; IVAL: its value */
AlgInterval alg_ival_value(const AlgExpr *e);     /* ALG_IVAL only */
AlgSymbol *alg_symbol_of(const AlgExpr *e);       /* ALG_SYM: its symbol; big operator: its index */
const char *alg_kind_name(AlgKind kind);          /* "add", "max", "sum", ... (JSON op names) */
int alg_is_num(const AlgExpr *e, long value);     /* NUM equal to value */
/* A NUM that is an integer fitting a long: its value; else 0 with *ok cleared (*ok kept
** otherwise, so one flag can collect several reads). */
long alg_num_long(const AlgExpr *e, int *ok);
/* The greatest common divisor of a and b (integers >= 0; gcd(a, 0) = a). */
long alg_gcd_long(long a, long b);
int alg_is_approx(const AlgExpr *e);              /* contains a LOWER/UPPER marker */
int alg_has_bigop(const AlgExpr *e);              /* contains a sum, product, max or min over an index */
int alg_contains(const AlgExpr *e, const AlgSymbol *sym);  /* sym occurs free in e */
/* Free symbols of e in id order; writes at most cap, returns how many there are. */
size_t alg_free_symbols(AlgCtx *ctx, const AlgExpr *e, AlgSymbol **out, size_t cap);

/* ---- building (all results canonical) ------------------------------------------------------ */

AlgExpr *alg_num_int(AlgCtx *ctx, long value);
AlgExpr *alg_num_frac(AlgCtx *ctx, long num, long den);   /* den != 0 */
AlgExpr *alg_num_q(AlgCtx *ctx, mpq_srcptr value);
AlgExpr *alg_num_double(AlgCtx *ctx, double value);       /* exact binary value; finite */
/* Exact value of a decimal literal ("2.5", "1e-6", "1_000"); 0 on success, -1 if malformed. */
int alg_num_decimal(AlgCtx *ctx, const char *text, AlgExpr **out);
AlgExpr *alg_ival(AlgCtx *ctx, double lo, double hi);     /* lo <= hi; a point is a NUM */
AlgExpr *alg_sym(AlgCtx *ctx, AlgSymbol *sym);

AlgExpr *alg_add(AlgCtx *ctx, AlgExpr *a, AlgExpr *b);
AlgExpr *alg_sub(AlgCtx *ctx, AlgExpr *a, AlgExpr *b);
AlgExpr *alg_mul(AlgCtx *ctx, AlgExpr *a, AlgExpr *b);
AlgExpr *alg_div(AlgCtx *ctx, AlgExpr *a, AlgExpr *b);
AlgExpr *alg_neg(AlgCtx *ctx, AlgExpr *a);
AlgExpr *alg_pow(AlgCtx *ctx, AlgExpr *base, AlgExpr *exponent);
AlgExpr *alg_mod(AlgCtx *ctx, AlgExpr *a, AlgExpr *b);
AlgExpr *alg_add_n(AlgCtx *ctx, size_t n, AlgExpr *const *args);   /* n = 0 gives 0 */
AlgExpr *alg_mul_n(AlgCtx *ctx, size_t n, AlgExpr *const *args);   /* n = 0 gives 1 */
AlgExpr *alg_max(AlgCtx *ctx, AlgExpr *a, AlgExpr *b);
AlgExpr *alg_min(AlgCtx *ctx, AlgExpr *a, AlgExpr *b);
AlgExpr *alg_max_n(AlgCtx *ctx, size_t n, AlgExpr *const *args);   /* n >= 1 */
AlgExpr *alg_min_n(AlgCtx *ctx, size_t n, AlgExpr *const *args);   /* n >= 1 */
/* kind: ALG_CEIL, ALG_FLOOR, ALG_ABS, ALG_LOG, ALG_LOG2, ALG_EXP or ALG_SQRT. */
AlgExpr *alg_func(AlgCtx *ctx, AlgKind kind, AlgExpr *arg);
AlgExpr *alg_cmp(AlgCtx *ctx, AlgCmp op, AlgExpr *a, AlgExpr *b);
AlgExpr *alg_and(AlgCtx *ctx, AlgExpr *a, AlgExpr *b);
AlgExpr *alg_or(AlgCtx *ctx, AlgExpr *a, AlgExpr *b);
AlgExpr *alg_not(AlgCtx *ctx, AlgExpr *a);
AlgExpr *alg_cond(AlgCtx *ctx, AlgExpr *cond, AlgExpr *then_value, AlgExpr *else_value);

/* Big operators over index = lower..upper: the closed form when one is found (guarded for
   empty ranges where the assumptions do not rule them out), else the big-operator node.
   kind: ALG_SUM, ALG_PROD, ALG_MAXOVER or ALG_MINOVER. Make the index with alg_index_new for
   the same range and build the body after it: its range is what lets signs, monotonicity and
   empty inner ranges be decided inside the body. */
AlgExpr *alg_bigop(AlgCtx *ctx, AlgKind kind, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper,
                   AlgExpr *body);
AlgExpr *alg_sum(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper, AlgExpr *body);
AlgExpr *alg_max_over(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper,
                      AlgExpr *body);
AlgExpr *alg_min_over(AlgCtx *ctx, AlgSymbol *index, AlgExpr *lower, AlgExpr *upper,
                      AlgExpr *body);
/* Marks e as an approximation safe in direction dir (LOWER / UPPER node). */
AlgExpr *alg_approx(AlgCtx *ctx, AlgDir dir, AlgExpr *e);
/* approx marked as above, carrying also a form exact where it is evaluated (alg_close passes
   `upper - lower < loop limit ? the open sum : approx`, the sum walked index by index there):
   evaluation takes max(approx, exact) for a lower bound and min for an upper one; printers show
   approx only. exact NULL gives alg_approx(dir, approx). */
AlgExpr *alg_approx_exact(AlgCtx *ctx, AlgDir dir, AlgExpr *approx, AlgExpr *exact);
/* Replaces every big operator left in e by a closed approximation safe in direction dir, marked
   with LOWER/UPPER (a marker wraps the node itself when nothing closed applies: evaluation then
   encloses it). Exact parts are kept. The direction follows the context: under a negative factor
   or a reciprocal the inner approximation is taken on the other side; where the sign of the
   context is unknown the big operator is left exact (evaluation encloses it). */
AlgExpr *alg_close(AlgCtx *ctx, AlgExpr *e, AlgDir dir);

/* ---- transformations ------------------------------------------------------------------------ */

/* A node of kind with these kids, built through the simplifying constructor of the kind
   (transform.c); big operators are given as their 4 kids. */
AlgExpr *alg_make(AlgCtx *ctx, AlgKind kind, size_t nkids, AlgExpr *const *kids);
AlgExpr *alg_subst(AlgCtx *ctx, AlgExpr *e, AlgSymbol *sym, AlgExpr *value);
/* e with every occurrence of the node target replaced by value (a comparison by 0 or 1, say),
   rebuilt through the simplifying constructors. */
AlgExpr *alg_replace(AlgCtx *ctx, AlgExpr *e, const AlgExpr *target, AlgExpr *value);
/* The terms of every sum that share one of syms as a factor gathered under it, s*a + s*b + c
   -> s*(a + b) + c (syms in the order given, then the others within each group): interval
   evaluation then meets each such symbol once per group instead of once per term, which keeps
   the intervals of constants from widening against each other (the dependency problem). The
   value is unchanged. */
AlgExpr *alg_collect(AlgCtx *ctx, AlgExpr *e, AlgSymbol *const *syms, size_t nsyms);
/* Products of sums multiplied out and integer powers of sums expanded: polynomials become
   pointer-equal when they are equal. */
AlgExpr *alg_expand(AlgCtx *ctx, AlgExpr *e);
/* A product as a quotient: e = *num / *den, *den collecting the factors x^-k (k a positive
   integer) and the denominators of rational constants, *num the rest; *den is NULL when e is not
   such a product (then *num = e). Evaluators divide once instead of multiplying by reciprocals,
   so that C / 10 at C = 10 is exactly 1. */
void alg_split_quotient(AlgCtx *ctx, AlgExpr *e, AlgExpr **num, AlgExpr **den);
/* d e / d sym; NULL when e has a part that is not differentiable symbolically. */
AlgExpr *alg_diff(AlgCtx *ctx, AlgExpr *e, AlgSymbol *sym);

/* ---- evaluation ------------------------------------------------------------------------------ */

/* Enclosure of e with the symbols in env (indexed by symbol id). env must have an entry for
   every id up to the largest id of a symbol free in e (index symbols bound inside e need none:
   they are rebound by their big operator). Big operators loop up to the loop limit and are
   enclosed by interval extension beyond. */
AlgInterval alg_eval_tree(AlgCtx *ctx, const AlgExpr *e, const AlgInterval *env);
/* Enclosure of e over all admissible values (every symbol within its assumption). */
AlgInterval alg_bounds(AlgCtx *ctx, const AlgExpr *e);
/* e >= 0 (e <= 0) for every admissible value: decided from the structure and the assumptions,
   else by alg_bounds; 0 when undecided. */
int alg_is_nonneg(AlgCtx *ctx, const AlgExpr *e);
int alg_is_nonpos(AlgCtx *ctx, const AlgExpr *e);

/* ---- printing and reading ---------------------------------------------------------------- */

/* The text of e in the given format, allocated in the context (valid until alg_ctx_free). */
const char *alg_print(AlgCtx *ctx, const AlgExpr *e, AlgFormat format);
int alg_fprint(FILE *out, AlgCtx *ctx, const AlgExpr *e, AlgFormat format);
/* Reads the text format back. Names are looked up with alg_symbol_find; the index of
   sum/prod/maxover/minover(i, lo, hi, body) is a new index symbol. 0 on success; -1 with a
   message in err (at most err_size bytes) otherwise. */
int alg_parse_text(AlgCtx *ctx, const char *text, AlgExpr **out, char *err, size_t err_size);

#endif
