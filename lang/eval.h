/*
** eval.h — interval evaluation of model expressions (ast.h) over an environment of values: params
** and consts (through their resolved declarations), process/fn arguments and loop indices. Used
** by the checker (values at hand) and the simulator (durations of one scenario).
**
** Expressions must have been resolved by check_program (check.h): EX_NAME nodes carry their kind,
** decl and slot, EX_CALL nodes their builtin id or fn decl.
*/
#ifndef PAMC_EVAL_H
#define PAMC_EVAL_H

#include "ast.h"
#include "interval.h"

/* Loop indices nest at most this deep in one process or fn (a model is written by hand or by
** `pamc gen`; 64 nested loops is far beyond either). The checker reports deeper nesting. */
#define EVAL_MAX_INDICES 64
/* fn calls and const/param definitions nest at most this deep (recursion is rejected by the
** checker; this also stops a cycle the checker did not see). */
#define EVAL_MAX_CALL_DEPTH 64
/* One eval_expr call iterates at most this many binder terms (sum/prod/min/max, nested ones
** included); beyond, a binder is enclosed (count x hull of its body, one evaluation) instead of
** iterated, so sum(i = 1, 10^9, ...) or three nested sums of 1000 terms stay fast. The enclosure
** is exact for bodies that do not depend on the index and an interval otherwise. */
#define EVAL_MAX_TERMS 1000000
/* Arguments of one fn call (the parser puts no limit; a fn with more is reported by eval). */
#define EVAL_MAX_ARGS 32

/* Built-in functions: the value of Expr.u.call.builtin (-1 for a user fn). Binder forms
** (EX_BIND) use EVAL_B_SUM, EVAL_B_PROD, EVAL_B_MIN, EVAL_B_MAX through their name. */
typedef enum EvalBuiltin {
  EVAL_B_MIN, EVAL_B_MAX,                       /* 1 or more arguments */
  EVAL_B_CEIL, EVAL_B_FLOOR, EVAL_B_ABS, EVAL_B_SQRT, EVAL_B_LOG, EVAL_B_LOG2, EVAL_B_EXP,
  EVAL_B_LO, EVAL_B_HI, EVAL_B_MID, EVAL_B_WIDTH, /* exactly 1 argument */
  EVAL_B_SUM, EVAL_B_PROD,                      /* binder form only: sum(i = a, b, e) */
  EVAL_B_COUNT
} EvalBuiltin;

/* Id of a built-in name, -1 when name is not one. */
int eval_builtin_lookup(const char *name);
const char *eval_builtin_name(int builtin);

typedef enum EvalStatus {
  EVAL_OK = 0,      /* *out holds an enclosure of the value */
  EVAL_UNKNOWN,     /* a value is missing (const without value, param without default, arg not
                       given) or not decidable (bounds of sum not known): err says which */
  EVAL_ERROR        /* the expression is wrong for these values (division by zero, log of a
                       non-positive, non-integer bound, ...): err says what and where */
} EvalStatus;

/* Longest message an EvalError holds (names are short; values printed with %g). */
#define EVAL_MESSAGE_SIZE 256

typedef struct EvalError {
  SrcLoc loc;                        /* the offending sub-expression */
  char message[EVAL_MESSAGE_SIZE];   /* e.g. "division by zero" */
} EvalError;

/* How interval literals `[a, b]` are turned into values (the simulator's scenarios, LANGUAGE.md
** §6). Consts take their value from their definition, so a const `[0.9ns, 1.1ns]` follows the
** pick of its literal. EVAL_PICK_INTERVAL keeps the interval (checker, bounds). */
typedef enum EvalPick {
  EVAL_PICK_INTERVAL = 0, /* [a, b] stays [a, b] */
  EVAL_PICK_LO,           /* a */
  EVAL_PICK_MID,          /* (a + b) / 2 */
  EVAL_PICK_HI,           /* b */
  EVAL_PICK_TYP,          /* its typical value (`[a, b] typ m`, LANGUAGE.md §8), else the middle */
  EVAL_PICK_CALLBACK      /* pick_fn(pick_ctx, literal, [a, b]) chooses (random scenarios: the
                             caller memoizes per literal when one value per run is wanted) */
} EvalPick;

typedef double (*EvalPickFn)(void *pick_ctx, const Expr *literal, AlgInterval range);

/* A value forced on a param or const declaration (the one in force, Expr.u.name.decl): sweeps of
** `predict`, scenario values; looked up before the declaration's own value. */
typedef struct EvalBinding {
  const Decl *decl;         /* DECL_PARAM or DECL_CONST */
  AlgInterval value;        /* its value */
} EvalBinding;

typedef struct EvalEnv {
  /* values of names */
  const AlgInterval *args;  /* values of the enclosing process/fn arguments, by slot */
  int arg_count;            /* length of args */
  AlgInterval indices[EVAL_MAX_INDICES]; /* values of enclosing loop indices, by slot (depth) */
  int depth;                /* indices in force: the next binder binds indices[depth] */
  const EvalBinding *bindings; /* forced param/const values, may be NULL */
  int binding_count;        /* length of bindings */
  /* policy */
  EvalPick pick;            /* interval literals: see EvalPick */
  EvalPickFn pick_fn;       /* EVAL_PICK_CALLBACK only */
  void *pick_ctx;           /* passed to pick_fn */
  int *typ_picked;          /* EVAL_PICK_TYP: counts the literals that gave their typical value
                               (shared by the frames of fns and definitions); may be NULL */
  int missing_as_entire;    /* 1: a missing value is [-inf, inf] and evaluation goes on (the
                               checker: only what is certain is reported); 0: EVAL_UNKNOWN */
  int call_depth;           /* fn/definition nesting, internal; start at 0 */
  long *term_budget;        /* internal: binder terms this eval_expr may still iterate (shared
                               by the frames of fn calls); leave NULL */
} EvalEnv;

/* An environment with no args, no indices, no bindings, EVAL_PICK_INTERVAL, strict. */
void eval_env_init(EvalEnv *env);

/* Evaluates e. On EVAL_OK *out encloses the value (for every choice inside the intervals of the
** environment). Otherwise err (may be NULL) is filled and *out is [-inf, inf]. The slots of
** indices bound inside e start at env->depth; env is restored on return.
** Conditions (comparisons, and, or, not, `c ? a : b`, if) are intervals too: [1,1] true,
** [0,0] false, [0,1] undecided; an undecided `c ? a : b` gives the hull of a and b. */
EvalStatus eval_expr(EvalEnv *env, const Expr *e, AlgInterval *out, EvalError *err);

/* The value of a param or const declaration in force, in a fresh frame (no args, no indices)
** that keeps env's bindings and policy: its binding if any, else its default/value. */
EvalStatus eval_decl_value(EvalEnv *env, const Decl *decl, AlgInterval *out, EvalError *err);

/* The one message for a param or const with no value, said at its declaration by every command:
** "const 't' has no value: give it in a machine file (-m) or with -D t=VALUE". Returns buf. */
char *eval_no_value_message(const Decl *decl, char *buf, int size);

/* 1 when e's value depends on target (a param or const declaration in force), or on any param
** when target is NULL: through the consts and fns e uses too (at most EVAL_MAX_CALL_DEPTH
** definitions deep; the parser bounds the nesting of one expression). */
int eval_uses(const Expr *e, const Decl *target);

/* Truth of a condition value: 1 certainly true (0 not in v), 0 certainly false (v == [0,0]),
** -1 undecided. */
int eval_truth(AlgInterval v);

/* 1 when v is a single integer. */
int eval_is_integer(AlgInterval v);

/* Writes v for people with %g: "2.5e-06" when both ends print alike (a point, or a point
** widened by outward rounding), "[1, 2]" otherwise. Returns buf. */
char *eval_format(AlgInterval v, char *buf, int size);

#endif
