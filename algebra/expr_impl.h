/*
** expr_impl.h — the layout of nodes, symbols and the context, and the helpers the algebra's
** own files share (interning, ordering, numbers). Not for users of expr.h.
*/
#ifndef PAMC_EXPR_IMPL_H
#define PAMC_EXPR_IMPL_H

#include "expr.h"
#include "alg_pool.h"

/* Exact rationals larger than this many bits fall back to interval constants (keeps folding of
   powers like 10^100000 from exhausting memory). */
#define ALG_MAX_EXACT_BITS 4096
/* max/min with more arguments than this skip the pairwise dominance test (quadratic). */
#define ALG_DOMINANCE_MAX_ARGS 64
/* Highest degree of a summand that Faulhaber's formulas are used for. */
#define ALG_POLY_MAX_DEGREE 24
/* Default loop limit of evaluation (REDUCTION.md: exact looping only below a size limit). */
#define ALG_DEFAULT_LOOP_LIMIT 100000UL

struct AlgSymbol {
  const char *name;     /* as given (pool copy) */
  AlgSymKind kind;      /* param, const or index */
  AlgAssume assume;     /* what simplification may assume */
  size_t id;            /* dense, position in AlgCtx.symbols */
  AlgExpr *node;        /* the SYM node of this symbol */
  AlgExpr *range_lower; /* loop index: first value of its range (NULL for other symbols) */
  AlgExpr *range_upper; /* loop index: last value of its range */
};

struct AlgExpr {
  AlgKind kind;         /* what the node is */
  size_t id;            /* dense, position in AlgCtx.nodes */
  unsigned long hash;   /* structural hash, for interning */
  size_t nkids;         /* number of kids */
  AlgExpr **kids;       /* kids (pool), NULL for leaves */
  union {
    mpq_t num;          /* ALG_NUM: canonical rational, cleared at alg_ctx_free */
    AlgInterval ival;   /* ALG_IVAL */
    AlgSymbol *sym;     /* ALG_SYM */
  } u;
  AlgExpr *chain;       /* next node of the same hash bucket */
  unsigned long long symbols_mask;   /* bit (id % 64) of every symbol below, free or bound: a
                                        quick filter for alg_contains */
  unsigned traits;      /* ALG_TRAIT_* bits, computed from the kids' when the node is made */
};

/* Integers kept at hand, so that alg_num_int of them is a load (no mpq arithmetic, no hash). */
#define ALG_SMALL_INT_MIN (-16)
#define ALG_SMALL_INTS 272

struct AlgCtx {
  AlgPool pool;               /* nodes, kid arrays, symbols, strings */
  AlgExpr **buckets;          /* intern table (malloc), nbuckets a power of two */
  size_t nbuckets;            /* size of buckets */
  AlgExpr **nodes;            /* all nodes by id (malloc) */
  size_t nnodes;              /* nodes made */
  size_t cap_nodes;           /* room in nodes */
  AlgSymbol **symbols;        /* all symbols by id (malloc) */
  size_t nsymbols;            /* symbols made */
  size_t cap_symbols;         /* room in symbols */
  unsigned long loop_limit;   /* largest range evaluation walks point by point */
  int sign_depth;             /* nesting of sign questions in progress (sign.c) */
  int minmax_depth;           /* nesting of common-part pulls in progress (minmax.c) */
  unsigned char *sign_memo;   /* decided signs by node id (malloc, sign.c) */
  size_t sign_memo_size;      /* entries in sign_memo */
  AlgInterval *admissible;    /* admissible interval of each symbol by id (malloc, eval.c) */
  size_t admissible_size;     /* symbols covered by admissible */
  AlgInterval *bounds_memo;   /* alg_bounds of nodes by id (malloc, eval.c) */
  unsigned char *bounds_known;/* nonzero where bounds_memo holds a value */
  size_t bounds_size;         /* entries in both */
  unsigned *visit_stamp;      /* per node id: the walk that last visited it (expr.c) */
  size_t visit_size;          /* entries in visit_stamp */
  unsigned visit_walk;        /* number of the current walk */
  AlgExpr *small_ints[ALG_SMALL_INTS]; /* the integers ALG_SMALL_INT_MIN .. as made (number.c):
                                 0, 1, -1 and small counts are made millions of times */
  struct AlgOpEntry **op_buckets; /* results of costly constructors by arguments (malloc,
                                 op_memo.c), op_nbuckets a power of two */
  size_t op_nbuckets;         /* size of op_buckets (0 before the first entry) */
  size_t op_count;            /* entries in op_buckets */
};

/* What is known of a node from its structure and the symbols' assumptions (kept in the node, so
   questions about shared subexpressions cost nothing). */
enum {
  ALG_TRAIT_NONNEG = 1,    /* >= 0 for every admissible value */
  ALG_TRAIT_NONPOS = 2,    /* <= 0 for every admissible value */
  ALG_TRAIT_INTEGER = 4,   /* always an integer */
  ALG_TRAIT_BOOLEAN = 8,   /* always 0 or 1 */
  ALG_TRAIT_BIGOP = 16,    /* contains a big operator */
  ALG_TRAIT_APPROX = 32    /* contains a LOWER/UPPER marker */
};
unsigned alg_sign_traits(const AlgExpr *e);   /* NONNEG/NONPOS bits from the kids' (sign.c) */

/* The memo of constructor results (op_memo.c): the result recorded for operation op (an AlgKind,
   or a code of the caller's) of these arguments, or NULL; and recording one (returns result).
   Only for results that depend on the arguments alone, not on the questions in progress. */
typedef struct AlgOpEntry AlgOpEntry;
AlgExpr *alg_op_memo_find(AlgCtx *ctx, unsigned op, size_t n, AlgExpr *const *args);
AlgExpr *alg_op_memo_put(AlgCtx *ctx, unsigned op, size_t n, AlgExpr *const *args, AlgExpr *result);

/* Results by node of one walk (node_memo.c): keyed by node id (or 2 id + direction), sized by the
   nodes the walk visits. */
typedef struct AlgNodeMemo {
  size_t *keys;      /* key + 1 per slot, 0 when empty (malloc) */
  AlgExpr **done;    /* the result for keys[k] */
  size_t cap;        /* slots (a power of two, or 0) */
  size_t count;      /* slots used */
} AlgNodeMemo;
void alg_node_memo_init(AlgNodeMemo *memo);
AlgExpr *alg_node_memo_get(const AlgNodeMemo *memo, size_t key);   /* NULL when not recorded */
void alg_node_memo_put(AlgNodeMemo *memo, size_t key, AlgExpr *result);   /* out of memory: forgets */
void alg_node_memo_free(AlgNodeMemo *memo);

/* Structural hash of a rational; registers a new leaf node (id, intern table). expr.c */
unsigned long alg_hash_q(mpq_srcptr q);
AlgExpr *alg_add_node(AlgCtx *ctx, AlgExpr *node);
/* The unique node of kind with these kids, made if new; no simplification. */
AlgExpr *alg_intern(AlgCtx *ctx, AlgKind kind, size_t nkids, AlgExpr *const *kids);
/* Total order on canonical nodes (numbers first, then symbols by id, then by kind and kids). */
int alg_order(const AlgExpr *a, const AlgExpr *b);
void alg_sort(AlgExpr **items, size_t count);
/* Symbols free in e, each once; writes at most cap, returns the count. */
size_t alg_collect_free(AlgCtx *ctx, const AlgExpr *e, AlgSymbol **out, size_t cap);
/* 1 when e may depend on one of the n indices bound (by their symbols_mask bits, so never 0 when
   it does): a big operator over one of them binds it anew and depends on it through its ends
   only (the sum over w of a demand inside the body of the max over w of a wait). expr.c */
int alg_may_depend(const AlgExpr *e, const AlgSymbol *const *bound, int n);
/* Free symbols considered by one question about a node (more are ignored, never wrongly used). */
#define ALG_MAX_FREE_CONSIDERED 64
/* Temporary arrays (malloc; the caller frees them; abort on out-of-memory), for the hot paths. */
void *alg_temp_bytes(size_t size);
AlgExpr **alg_temp(size_t count);
/* Scratch arrays in the pool (released with the context). */
AlgExpr **alg_scratch(AlgCtx *ctx, size_t count);

/* Numbers. */
int alg_num_is_integer(const AlgExpr *e);
int alg_num_sign(const AlgExpr *e);
AlgInterval alg_q_enclosure(mpq_srcptr q);
/* Values always integer (integer numbers, integer symbols, sums/products of them, ...). */
int alg_is_integer_valued(const AlgExpr *e);
/* Values always 0 or 1 (comparisons and logic). */
int alg_is_boolean(const AlgExpr *e);
/* Splits a term into its numeric coefficient (a NUM) and the rest (1 when a number). */
AlgExpr *alg_split_coef(AlgCtx *ctx, AlgExpr *term, AlgExpr **rest);

/* Direction in which e moves as index grows over its admissible values (sign.c). */
enum { ALG_MONO_CONST = 0, ALG_MONO_UP = 1, ALG_MONO_DOWN = -1, ALG_MONO_UNKNOWN = 2 };
int alg_monotone(AlgCtx *ctx, AlgExpr *e, AlgSymbol *index);

/* Closed forms (sums.c), called by alg_bigop. NULL when none. */
AlgExpr *alg_closed_form(AlgCtx *ctx, AlgKind kind, AlgSymbol *index, AlgExpr *lower,
                         AlgExpr *upper, AlgExpr *body);
/* Polynomial coefficients of e in sym (poly.c): 0 and fills coef[0..*degree] when e is a
   polynomial of degree <= max_degree in sym, -1 otherwise. */
int alg_poly_coeffs(AlgCtx *ctx, AlgExpr *e, AlgSymbol *sym, size_t max_degree, AlgExpr **coef,
                    size_t *degree);

/* Growable text for the printers (print.c); malloc'd, copied into the pool when done. */
typedef struct AlgBuf {
  char *data;     /* text so far, NUL-terminated */
  size_t length;  /* bytes used */
  size_t cap;     /* bytes allocated */
} AlgBuf;

void alg_buf_puts(AlgBuf *buf, const char *text);
void alg_buf_printf(AlgBuf *buf, const char *format, ...);
void alg_buf_double(AlgBuf *buf, double x);   /* shortest text that reads back as x */
void alg_print_latex(AlgCtx *ctx, AlgBuf *buf, const AlgExpr *e);   /* print_latex.c */
void alg_print_json(AlgBuf *buf, const AlgExpr *e);    /* print_json.c */

/* A product split for printing: sign, numerator and denominator factors (print.c). */
typedef struct AlgFraction {
  int negative;             /* coefficient < 0 */
  mpq_t coef;               /* |coefficient| (caller clears with alg_fraction_clear) */
  AlgExpr *ival;            /* interval coefficient, or NULL */
  const AlgExpr **num;      /* factors with positive exponents (malloc) */
  size_t nnum;              /* how many */
  const AlgExpr **den;      /* bases of factors with negative exponents (malloc) */
  AlgExpr **den_exp;        /* their exponents, negated (kids of the POWs, negated when numeric) */
  size_t nden;              /* how many */
} AlgFraction;

/* Splits a MUL, a POW with negative numeric exponent or a NUM into a fraction; returns 0 and
   leaves f untouched for other nodes. */
int alg_fraction(AlgCtx *ctx, const AlgExpr *e, AlgFraction *f);
void alg_fraction_clear(AlgFraction *f);

#endif
