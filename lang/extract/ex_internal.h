/*
** ex_internal.h — what the files of lang/extract/ share: the extraction context (libclang
** translation units, the functions found, the symbolic environment), the cost vectors counted
** from C code, and the tree of model statements (items) that ex_print.c writes as a model.
*/
#ifndef PAMC_EX_INTERNAL_H
#define PAMC_EX_INTERNAL_H

#include <clang-c/Index.h>
#include <stdio.h>

#include "arena.h"
#include "expr.h"
#include "extract.h"

/* Deepest nesting of C statements and expressions walked (each level is a C stack frame of the
** walker): deeper input is a located error, not a stack overflow. Real code nests a few tens. */
#define EX_MAX_DEPTH 256
/* Default value of a param that stands for something the source does not say (a count, a size):
** every such param is listed in the model's NOTE lines; set it with -D. */
#define EX_DEFAULT_COUNT 100
/* Default probability of a data-dependent branch without `#pragma pamc probability(E)`. */
#define EX_DEFAULT_PROBABILITY "0.5"

/* ---- costs ----------------------------------------------------------------------------------- */

/* One term of a cost: count times a machine constant (`t_add_double`), or count times the cost of
** a call (`cost_f(n - 1)`). */
typedef struct ExTerm {
  const char *name;       /* machine constant, or the callee's cost fn (cost_NAME) */
  AlgExpr **args;         /* call terms: the integer arguments; NULL for constants */
  int nargs;              /* length of args */
  AlgExpr *count;         /* how many times (an expression of params and indices) */
} ExTerm;

/* A sum of terms: what a piece of straight-line C code costs. */
typedef struct ExCost {
  ExTerm *terms;          /* malloc'd; one term per distinct name and arguments */
  int count, cap;
} ExCost;

/* ---- the model being built ------------------------------------------------------------------- */

typedef struct ExItem ExItem;
typedef struct ExPragma ExPragma;

/* A sequence of model statements. */
typedef struct ExBlock {
  ExItem *items;          /* malloc'd */
  int count, cap;
} ExBlock;

typedef enum ExItemKind {
  EX_COST,                /* delay(cost) */
  EX_USE,                 /* use(resource, cost) */
  EX_HOLD,                /* hold/use of a lock around body (a critical section) */
  EX_CALL,                /* NAME(args): a process call */
  EX_SEQ,                 /* seq (index = lo, hi) body */
  EX_PAR,                 /* par (index = lo, hi) body */
  EX_IF,                  /* if (cond) body else other */
  EX_CHOOSE,              /* choose (cond) body else other */
  EX_TEXT,                /* a statement written as text (collectives, messages) */
  EX_SPAWN                /* a thread of pthread_create: the loop around it becomes a par */
} ExItemKind;

struct ExItem {
  ExItemKind kind;
  const char *where;      /* "file.c:12" of the C statement, for the comment */
  const char *source;     /* the C statement's first line, trimmed, for the comment */
  const char *note;       /* more comment: trip count, chain or overlap, NULL */
  ExCost cost;            /* EX_COST, EX_USE */
  const char *name;       /* EX_CALL callee, EX_USE/EX_HOLD resource, EX_TEXT statement */
  AlgExpr **args;         /* EX_CALL arguments */
  int nargs;              /* length of args */
  AlgSymbol *index;       /* EX_SEQ, EX_PAR */
  AlgExpr *lo, *hi;       /* EX_SEQ, EX_PAR range (inclusive) */
  AlgExpr *cond;          /* EX_IF condition, EX_CHOOSE probability */
  const char *cond_text;  /* EX_CHOOSE: the probability as written (a param name, a pragma) */
  ExBlock body;           /* EX_SEQ, EX_PAR, EX_IF, EX_CHOOSE, EX_HOLD */
  ExBlock other;          /* EX_IF, EX_CHOOSE else branch */
};

/* A C function and its process. */
typedef struct ExFunc {
  CXCursor decl;          /* the definition (with a body) */
  const char *name;       /* C name */
  const char *model_name; /* process name in the model (main for C's main) */
  const char **params;    /* model names of its integer parameters */
  CXCursor *param_decls;  /* their declarations, for the environment */
  int nparams;            /* integer parameters */
  int wanted;             /* 1: to be written (asked for, or called by one that is) */
  int called;             /* 1: another extracted function calls it (not a default entry) */
  int state;              /* 0 not walked, 1 being walked (recursion), 2 done */
  int recursion_depth;    /* 1: `#pragma pamc recursion_depth(E)` given */
  ExPragma *recursion_pragma; /* its pragma */
  ExBlock body;           /* the process body */
  int pure;               /* 1: body is one cost (then fn cost_NAME is written) */
  ExCost total;           /* pure: the whole cost */
  const char *where;      /* "file.c:3" of the definition */
  const char *source;     /* the signature line */
} ExFunc;

/* What a variable of the function being walked stands for. */
typedef struct ExVar {
  CXCursor decl;          /* its declaration */
  AlgExpr *value;         /* known value (an expression of params and indices), or NULL */
  int modified;           /* assigned after its declaration, or its address taken */
  int index;              /* 1: an index of an enclosing loop (value is the index symbol) */
  unsigned decl_offset;   /* file offset of the declaration (outside or inside a loop body) */
} ExVar;

/* A `#pragma pamc KIND(EXPR)` of the source. */
struct ExPragma {
  const char *file;       /* path of the file */
  unsigned line, col;     /* where `#pragma` is */
  const char *kind;       /* loop_count, probability, recursion_depth */
  const char *text;       /* EXPR as written (tokens joined by spaces) */
  int used;               /* taken by a statement */
};

/* An object-like macro of the source (#define NAME BODY), for the pragmas' expressions. */
typedef struct ExMacro {
  const char *name;       /* NAME */
  const char *body;       /* BODY's tokens joined by spaces, integer suffixes dropped */
} ExMacro;

/* A param of the model that the extractor introduced. */
typedef struct ExParam {
  const char *name;       /* model name */
  const char *value;      /* default, as written */
  const char *note;       /* why it exists (NULL: a parameter of the entry function) */
} ExParam;

/* An OpenMP work-sharing loop (`parallel for`, or `for` inside a `parallel` region). */
typedef struct ExOmp {
  int parallel;           /* 1: `parallel for`, a par of its own; 0: `for` in the current region */
  int schedule;           /* 0 static (even blocks), 1 static with chunk, 2 dynamic or guided */
  AlgExpr *chunk;         /* schedule(static, chunk) */
  AlgExpr *threads;       /* how many threads share the iterations */
  const char *reduction;  /* the reduction clause's "op : vars", or NULL */
} ExOmp;

/* A loop around the statement being counted (ex_walk_for): what the data footprint needs. */
typedef struct ExLoopLevel {
  AlgSymbol *index;       /* the model index (NULL: a loop of unknown count, no index) */
  AlgExpr *trip;          /* how many iterations (outer indices replaced by their last value) */
  AlgExpr *last;          /* the index's last value (NULL without an index) */
} ExLoopLevel;

/* An array (or pointer) that the loop nest being walked reads or writes: its footprint. */
typedef struct ExBase {
  CXCursor decl;          /* the array's or pointer's declaration */
  long bytes;             /* size of one element */
  AlgExpr *distinct;      /* elements touched in one pass: the largest over its accesses */
  AlgExpr *read;          /* elements read from beyond the cache at most (distinct x repeats), or NULL */
  AlgExpr *write;         /* elements written likewise, or NULL */
} ExBase;

/* Shared state of one extraction. */
typedef struct ExCtx {
  const ExOptions *opts;  /* the command line */
  Arena arena;            /* every string and array that lives as long as the run */
  AlgCtx *alg;            /* counts and values are expressions of pamc's algebra */
  FILE *err;              /* diagnostics */
  int errors;             /* errors reported */
  CXIndex index;          /* libclang */
  CXTranslationUnit *tus; /* one per file */
  int ntus;
  ExFunc *funcs;          /* every function defined in the files (malloc'd) */
  int nfuncs, funcs_cap;
  ExFunc *func;           /* the function being walked */
  ExVar *vars;            /* variables of the function being walked (malloc'd) */
  int nvars, vars_cap;
  ExMacro *macros;        /* object-like macros of the files (malloc'd) */
  int nmacros, macros_cap;
  ExPragma *pragmas;      /* malloc'd */
  int npragmas, pragmas_cap;
  ExParam *params;        /* model params (malloc'd) */
  int nparams, params_cap;
  const char **consts;    /* machine constants used, in first-use order (malloc'd) */
  int nconsts, consts_cap;
  const char **ignored;   /* calls without source that cost nothing in the model */
  int nignored, ignored_cap;
  int depth;              /* current walk depth (EX_MAX_DEPTH) */
  unsigned loop_start;    /* file offsets of the innermost loop body: a variable declared */
  unsigned loop_end;      /*   outside it and updated in it carries a chain; 0,0: no loop */
  int in_loop;            /* inside a loop body: operations may overlap (throughput) */
  int in_critical;        /* under omp critical or atomic: the updates are a chain (latency) */
  int in_address;         /* counting an array index or a dereferenced pointer: its integer
                             arithmetic is address arithmetic, not counted */
  int threads_used;       /* OpenMP or pthreads: param threads and resource cores */
  int mpi_used;           /* MPI: param P, the rank process */
  int locks_used;         /* critical sections: resource ex_lock */
  int mpi_rank_bound;     /* the walked function has MPI_Comm_rank */
  ExFunc *entry;          /* the function `main` runs (C's main, or the first asked for) */
  const char **entry_args; /* the params main passes to it */
  AlgSymbol *thread;      /* inside an OpenMP parallel region: this thread's number, else NULL */
  AlgExpr *nthreads;      /*   and the region's thread count */
  AlgExpr *threads_param; /* the model param `threads` (OMP_NUM_THREADS), made on first use */
  AlgExpr *rank;          /* MPI: the rank (a process parameter) once MPI_Comm_rank is seen */
  AlgExpr *nranks;        /* MPI: the param P */
  int mpi_libs;           /* collectives used: bit i for ex_mpi_collectives[i] */
  const char **locks;     /* lock resources the model declares (critical, atomic) */
  int nlocks, locks_cap;
  ExLoopLevel loops[EX_MAX_DEPTH]; /* the loops around the statement being counted */
  int nloops;             /* how many */
  ExBase *bases;          /* arrays the outermost loop nest being walked touches (malloc'd) */
  int nbases, bases_cap;
  CXCursor chain;         /* the binary operator of `s = s OP e` being counted: a chain */
  CXCursor *pending;      /* calls met inside expressions that are statements of their own */
  int npending, pending_cap; /*   (process calls, MPI, pthreads): the statement walker's job */
} ExCtx;

/* ---- ex_front.c: libclang ------------------------------------------------------------------- */
int ex_front_open(ExCtx *x);                 /* parse every file; 0, 1 (errors) or 3 (I/O) */
void ex_front_close(ExCtx *x);
/* The extent of c as written in the file (macro expansions as their names), for clang_tokenize. */
CXSourceRange ex_range(CXCursor c);
/* Children of c in order into a malloc'd array (*n of them). */
CXCursor *ex_children(CXCursor c, int *n);
/* The spelling of the operator of a binary, compound-assignment or unary operator cursor
** ("+", "+=", "++", ...), into buf; "" when not found. *postfix: 1 for x++ / x--. */
void ex_operator(CXCursor c, char *buf, size_t size, int *postfix);
/* "file.c:12" and the first line of the statement at c, in the arena. */
const char *ex_where(ExCtx *x, CXCursor c);
const char *ex_source_line(ExCtx *x, CXCursor c);
unsigned ex_line(CXCursor c);
unsigned ex_offset_start(CXCursor c);
unsigned ex_offset_end(CXCursor c);
const char *ex_spelled_name(ExCtx *x, CXCursor c);
/* The body of the object-like macro name, or NULL. */
const char *ex_macro(ExCtx *x, const char *name);
/* A located error at c (`file:line:col: error: ...` and the source line). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void ex_error(ExCtx *x, CXCursor c, const char *format, ...);
/* The pragma of kind written on one of the two lines before c, marked used; NULL if none. */
ExPragma *ex_pragma_for(ExCtx *x, CXCursor c, const char *kind);
/* The tokens of c's extent joined by single spaces (the arena), at most limit bytes. */
const char *ex_tokens_text(ExCtx *x, CXCursor c, size_t limit);

/* ---- ex_cost.c: cost vectors ------------------------------------------------------------------ */
void ex_cost_free(ExCost *c);
void ex_cost_add_term(ExCtx *x, ExCost *c, const char *name, AlgExpr **args, int nargs, AlgExpr *count);
void ex_cost_add(ExCtx *x, ExCost *to, const ExCost *from, AlgExpr *factor);
int ex_cost_empty(const ExCost *c);
int ex_cost_depends(const ExCost *c, AlgSymbol *index);
/* sum over index = lo..hi of c; 0 when a count has no closed form (then the caller keeps a
** loop). */
int ex_cost_sum(ExCtx *x, ExCost *out, const ExCost *c, AlgSymbol *index, AlgExpr *lo, AlgExpr *hi);
/* Records that the model uses machine constant name. */
const char *ex_use_const(ExCtx *x, const char *name);
/* Auto working set (--memory-level auto): an access of bytes to the element base[index] (index
** NULL: unknown) inside the loops of x->loops, for the nest's footprint. */
void ex_footprint_note(ExCtx *x, CXCursor base, CXCursor index, long bytes, int read, int write);
/* At the end of an outermost loop nest of trip iterations: the time its data takes to come from
** beyond the L1 cache (ex_stall_read / ex_stall_write of the nest's working set), per iteration,
** added to per_iter; the table is emptied. */
void ex_footprint_charge(ExCtx *x, ExCost *per_iter, AlgExpr *trip);
/* 1 when the memory level is chosen from the working set (--memory-level auto). */
int ex_auto_memory(const ExCtx *x);
/* The name of the constant for operation op ("add", ...) on C type t, latency or throughput. */
const char *ex_op_const(ExCtx *x, const char *op, CXType t, int throughput);
/* "int", "long", "float", "double", "char", or NULL for types with no arithmetic constant. */
const char *ex_type_name(CXType t);
int ex_contains_bigop(const AlgExpr *e);

/* ---- ex_value.c: the value of integer C expressions -------------------------------------------- */
ExVar *ex_var_find(ExCtx *x, CXCursor decl);
ExVar *ex_var_add(ExCtx *x, CXCursor decl);
/* The value of an integer expression, or NULL when the source does not determine it. */
AlgExpr *ex_value(ExCtx *x, CXCursor e);
/* The variable declaration an expression names (through parens and casts), or a null cursor. */
CXCursor ex_referenced_var(CXCursor e);
CXCursor ex_strip(CXCursor e);
/* A model param standing for what the source does not say, with its note; its symbol. */
AlgExpr *ex_unknown_param(ExCtx *x, CXCursor at, const char *base, const char *value, const char *why);
/* Marks the variables the function assigns after their declaration (ex_var->modified). */
void ex_scan_modified(ExCtx *x, CXCursor body);
int ex_is_integer_type(CXType t);
const char *ex_model_name(ExCtx *x, const char *c_name);

/* ---- ex_count.c: operations of C expressions --------------------------------------------------- */
/* Adds the operations that evaluating e performs to cost; calls to functions with source are
** added as call terms. Returns 0, or -1 after an error. */
int ex_count_expr(ExCtx *x, CXCursor e, ExCost *cost);
ExFunc *ex_func_find(ExCtx *x, const char *name);

/* ---- ex_stmt.c: statements ----------------------------------------------------------------- */
int ex_walk_function(ExCtx *x, ExFunc *f);
int ex_walk_stmt(ExCtx *x, CXCursor s, ExBlock *out);
int ex_walk_for(ExCtx *x, CXCursor s, ExBlock *out, const ExOmp *omp);
/* The expression of a pragma: names it uses that the model lacks become params (NOTE). */
AlgExpr *ex_pragma_expr(ExCtx *x, CXCursor at, ExPragma *p);
ExItem *ex_block_push(ExCtx *x, ExBlock *b, ExItemKind kind, CXCursor at);
void ex_block_free(ExBlock *b);
int ex_block_pure(const ExBlock *b);
void ex_block_cost(ExCtx *x, const ExBlock *b, ExCost *out);

/* ---- ex_par.c: OpenMP, pthreads, MPI ------------------------------------------------------ */
/* The statement s under `#pragma omp ...` (p). */
int ex_walk_omp(ExCtx *x, CXCursor s, ExPragma *p, ExBlock *out);
/* A work-shared loop: the iterations of shape divided among the threads (static blocks). */
int ex_omp_share(ExCtx *x, CXCursor s, const ExOmp *omp, AlgSymbol *index, AlgExpr *first,
                 AlgExpr *trip, ExCost *once, ExCost *per_iter, ExBlock *body, ExBlock *out);
/* The param `threads`. */
AlgExpr *ex_threads(ExCtx *x);
/* Work of threads on the machine's cores: every delay of b becomes use(cores, ...). */
void ex_on_cores(ExCtx *x, ExBlock *b);
/* The value of omp_get_thread_num() and the like, or NULL. */
AlgExpr *ex_par_value(ExCtx *x, const char *call);
/* Binds MPI_Comm_rank / MPI_Comm_size targets (scan before the walk). */
void ex_mpi_bind(ExCtx *x, CXCursor call);
/* A call that is a parallel construct (MPI_*, pthread_create); 1 handled, 0 not one, -1 error. */
int ex_par_call(ExCtx *x, CXCursor call, ExBlock *out);
int ex_is_mpi_name(const char *name);
extern const char *const ex_mpi_collectives[];

/* ---- ex_print.c: the model text --------------------------------------------------------------- */
int ex_print_model(ExCtx *x, FILE *out);
/* count * name (name NULL: the term's own) with the call's arguments. */
void ex_print_term(ExCtx *x, FILE *out, const ExTerm *t, const char *name);
/* The terms of c joined by + (continuation lines indented to level + 1); "0" when none. */
void ex_print_sum(ExCtx *x, FILE *out, const ExCost *c, int level);

/* ---- ex_range.c: the ranged charge ---------------------------------------------------------- */
/* c as LOW + ex_est_share * (EST - LOW) + ex_hi_share * (HI - EST): est at the likely case,
** [lo, hi] what the compiler and the core may make of the counted operations. */
void ex_print_ranged(ExCtx *x, FILE *out, const ExCost *c, int level);
/* The model's declarations the ranged charge and the stall fns need. */
void ex_print_range_decls(ExCtx *x, FILE *out);

/* ---- small growable-array helper ------------------------------------------------------------- */
void *ex_grow(void *items, int *cap, int count, size_t size);

#endif
