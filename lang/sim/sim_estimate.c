/*
** sim_estimate.c — how many events a simulation will handle, estimated before it runs (sim.h):
** every delay and use is one event; loops multiply their body's count (the mean of its counts at
** the first and last index), calls count the process at their arguments, branches the larger.
** So that `pamc simulate` refuses a model of 10^60 events instead of running silently forever.
*/
#include <math.h>
#include <string.h>

#include "eval.h"
#include "sim.h"

/* Statements and calls nested deeper than this, or more visits than SIM_ESTIMATE_VISITS, and the
** estimate gives up (unknown) rather than recurse further: it is an estimate, not a check. */
#define SIM_ESTIMATE_DEPTH 200
#define SIM_ESTIMATE_VISITS 200000

typedef struct Estimator {
  long visits;              /* statements visited so far */
  int depth;                /* nesting of statements and calls */
} Estimator;

/* The value of e in env, its upper end (NAN when it cannot be told). */
static double value_of(EvalEnv *env, const Expr *e) {
  AlgInterval v;
  if (eval_expr(env, e, &v, NULL) != EVAL_OK || !isfinite(v.hi)) return NAN;
  return v.hi;
}

static double count(Estimator *est, EvalEnv *env, const Stmt *s);

/* seq/par (i = a, b) body: (b - a + 1) times the mean of the body's counts at a and b. */
static double count_loop(Estimator *est, EvalEnv *env, const Stmt *s) {
  double a = value_of(env, s->u.loop.lo), b = value_of(env, s->u.loop.hi);
  if (isnan(a) || isnan(b) || env->depth >= EVAL_MAX_INDICES) return NAN;
  if (b < a) return 0;
  double total = 0;
  double ends[2] = {a, b};
  for (int k = 0; k < (a == b ? 1 : 2); k++) {
    env->indices[env->depth++] = ival_point(ends[k]);
    total += count(est, env, s->u.loop.body);
    env->depth--;
  }
  return (floor(b) - ceil(a) + 1) * (a == b ? total : total / 2);
}

/* NAME(args): the process body with the arguments' values. */
static double count_call(Estimator *est, EvalEnv *env, const Stmt *s) {
  const Decl *process = s->u.call.decl;
  if (!process || process->kind != DECL_PROCESS) return NAN;
  int n = s->u.call.args.count;
  AlgInterval args[EVAL_MAX_ARGS];
  if (n > EVAL_MAX_ARGS) return NAN;
  for (int i = 0; i < n; i++)
    if (eval_expr(env, s->u.call.args.items[i], &args[i], NULL) != EVAL_OK) args[i] = ival_entire();
  EvalEnv inner;
  eval_env_init(&inner);
  inner.bindings = env->bindings;
  inner.binding_count = env->binding_count;
  inner.args = args;
  inner.arg_count = n;
  return count(est, &inner, process->u.process.body);
}

static double count(Estimator *est, EvalEnv *env, const Stmt *s) {
  if (!s) return 0;
  if (++est->visits > SIM_ESTIMATE_VISITS || est->depth >= SIM_ESTIMATE_DEPTH) return NAN;
  est->depth++;
  double n = 0;
  switch (s->kind) {
  case ST_SKIP: n = 0; break;
  case ST_DELAY: case ST_USE: n = 1; break;
  case ST_HOLD: n = 1 + count(est, env, s->u.use.body); break;
  case ST_CALL: n = count_call(est, env, s); break;
  case ST_BLOCK: case ST_PARALLEL:
    for (int i = 0; i < s->u.block.count && !isnan(n); i++) n += count(est, env, s->u.block.items[i]);
    break;
  case ST_SEQ: case ST_PAR: n = count_loop(est, env, s); break;
  case ST_REPEAT: {
    double times = value_of(env, s->u.repeat.count);
    n = isnan(times) ? NAN : times <= 0 ? 0 : floor(times) * count(est, env, s->u.repeat.body);
    break;
  }
  case ST_IF: case ST_CHOOSE: {
    double a = count(est, env, s->u.branch.then), b = count(est, env, s->u.branch.otherwise);
    n = isnan(a) || isnan(b) ? NAN : a > b ? a : b;
    break;
  }
  }
  est->depth--;
  return n;
}

double sim_estimate_events(const Decl *entry) {
  if (!entry || entry->kind != DECL_PROCESS) return -1;
  Estimator est = {0, 0};
  EvalEnv env;
  eval_env_init(&env);
  double n = count(&est, &env, entry->u.process.body);
  return isnan(n) || n < 0 ? -1 : n;
}
