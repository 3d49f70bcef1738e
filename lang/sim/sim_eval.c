/*
** sim_eval.c — point evaluation of the simulator's compiled expressions (sim_internal.h), the
** random generator, and the error helper of the simulator.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "eval.h"
#include "sim_internal.h"

/* ------------------------------------------------------------------ errors */

int sim_fail(SimError *err, SrcLoc loc, const char *format, ...) {
  if (err) {
    err->loc = loc;
    err->note_count = 0;
    va_list args;
    va_start(args, format);
    vsnprintf(err->message, sizeof err->message, format, args);
    va_end(args);
  }
  return -1;
}

/* ------------------------------------------------------------------ random numbers */

static uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void sim_rng_seed(SimRng *rng, uint64_t seed) {
  uint64_t state = seed;
  for (int i = 0; i < 4; i++) rng->s[i] = splitmix64(&state);
  if (!(rng->s[0] | rng->s[1] | rng->s[2] | rng->s[3])) rng->s[0] = 1;
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t sim_rng_next(SimRng *rng) {
  uint64_t *s = rng->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

double sim_rng_unit(SimRng *rng) {
  return (double)(sim_rng_next(rng) >> 11) * 0x1.0p-53;
}

/* ------------------------------------------------------------------ evaluation */

static int eval(SimEval *ev, const SimExpr *x, double *vals, double *out);

static int math_error(SimEval *ev, const SimExpr *x, const char *what, double v) {
  return sim_fail(ev->err, x->src ? x->src->loc : (SrcLoc){0}, "%s (%g)", what, v);
}

static int eval_binary(SimEval *ev, const SimExpr *x, double *vals, double *out) {
  double a, b;
  if (eval(ev, x->a, vals, &a) || eval(ev, x->b, vals, &b)) return -1;
  switch ((Op)x->op) {
    case OP_ADD: *out = a + b; return 0;
    case OP_SUB: *out = a - b; return 0;
    case OP_MUL: *out = a * b; return 0;
    case OP_DIV:
      if (b == 0) return sim_fail(ev->err, x->b->src ? x->b->src->loc : x->src->loc, "division by zero");
      *out = a / b;
      return 0;
    case OP_MOD:
      if (b == 0) return sim_fail(ev->err, x->b->src ? x->b->src->loc : x->src->loc, "remainder by zero");
      *out = a - b * floor(a / b);
      return 0;
    case OP_POW:
      if (a == 0 && b < 0) return sim_fail(ev->err, x->src->loc, "zero raised to a negative power");
      *out = pow(a, b);
      return 0;
    case OP_EQ: *out = a == b; return 0;
    case OP_NE: *out = a != b; return 0;
    case OP_LT: *out = a < b; return 0;
    case OP_LE: *out = a <= b; return 0;
    case OP_GT: *out = a > b; return 0;
    case OP_GE: *out = a >= b; return 0;
    default: break;
  }
  return sim_fail(ev->err, x->src->loc, "bad operator");
}

static int eval_math(SimEval *ev, const SimExpr *x, double *vals, double *out) {
  double a;
  if (eval(ev, x->a, vals, &a)) return -1;
  switch (x->op) {
    case EVAL_B_CEIL: *out = ceil(a); return 0;
    case EVAL_B_FLOOR: *out = floor(a); return 0;
    case EVAL_B_ABS: *out = fabs(a); return 0;
    case EVAL_B_SQRT:
      if (a < 0) return math_error(ev, x, "sqrt of a negative value", a);
      *out = sqrt(a);
      return 0;
    case EVAL_B_LOG:
    case EVAL_B_LOG2:
      if (a <= 0) return math_error(ev, x, "log of a non-positive value", a);
      *out = x->op == EVAL_B_LOG ? log(a) : log2(a);
      return 0;
    case EVAL_B_EXP: *out = exp(a); return 0;
    case EVAL_B_LO: case EVAL_B_HI: case EVAL_B_MID: *out = a; return 0;  /* of a point */
    case EVAL_B_WIDTH: *out = 0; return 0;
    default: break;
  }
  return sim_fail(ev->err, x->src->loc, "bad built-in");
}

static int eval_call(SimEval *ev, const SimExpr *x, double *vals, double *out) {
  const SimFn *fn = x->fn;
  double frame[SIM_MAX_FN_VALUES];
  if (ev->call_depth >= SIM_MAX_CALL_DEPTH)
    return sim_fail(ev->err, x->src->loc, "calls nest too deeply");
  for (int i = 0; i < x->count; i++)
    if (eval(ev, x->kids[i], vals, &frame[i])) return -1;
  ev->call_depth++;
  int status = eval(ev, fn->body, frame, out);
  ev->call_depth--;
  return status;
}

static int integer_bound(SimEval *ev, const SimExpr *bound, double *vals, double *out) {
  if (eval(ev, bound, vals, out)) return -1;
  if (!isfinite(*out) || floor(*out) != *out)
    return sim_fail(ev->err, bound->src->loc, "bound is not an integer (%g)", *out);
  return 0;
}

/* sum/prod/min/max (i = a, b, body): iterated term by term (the simulator needs the value). */
static int eval_bind(SimEval *ev, const SimExpr *x, double *vals, double *out) {
  double lo, hi;
  if (integer_bound(ev, x->a, vals, &lo) || integer_bound(ev, x->b, vals, &hi)) return -1;
  if (hi < lo) {
    if (x->op == EVAL_B_SUM) { *out = 0; return 0; }
    if (x->op == EVAL_B_PROD) { *out = 1; return 0; }
    return sim_fail(ev->err, x->src->loc, "%s over an empty range", eval_builtin_name(x->op));
  }
  double acc = 0;
  for (double i = lo; i <= hi; i++) {
    double v;
    vals[x->slot] = i;
    if (eval(ev, x->c, vals, &v)) return -1;
    if (i == lo) acc = v;
    else if (x->op == EVAL_B_SUM) acc += v;
    else if (x->op == EVAL_B_PROD) acc *= v;
    else if (x->op == EVAL_B_MIN) acc = v < acc ? v : acc;
    else acc = v > acc ? v : acc;
  }
  *out = acc;
  return 0;
}

/* lo/hi/mid/width of an argument that depends on the frame: interval evaluation of the source
** argument with the frame's values as points. */
static int eval_takeapart(SimEval *ev, const SimExpr *x, double *vals, double *out) {
  EvalEnv env;
  eval_env_init(&env);
  AlgInterval args[SIM_MAX_FN_VALUES];
  int arg_count = x->slot, depth = x->count;
  for (int i = 0; i < arg_count; i++) args[i] = ival_point(vals[i]);
  for (int i = 0; i < depth && i < EVAL_MAX_INDICES; i++) env.indices[i] = ival_point(vals[arg_count + i]);
  env.args = args;
  env.arg_count = arg_count;
  env.depth = depth;
  AlgInterval v;
  EvalError error;
  if (eval_expr(&env, x->src->u.call.args.items[0], &v, &error) != EVAL_OK)
    return sim_fail(ev->err, error.loc, "%s", error.message);
  switch (x->op) {
    case EVAL_B_LO: *out = v.lo; break;
    case EVAL_B_HI: *out = v.hi; break;
    case EVAL_B_MID: *out = ival_mid(v); break;
    default: *out = ival_width(v); break;
  }
  return 0;
}

static int eval(SimEval *ev, const SimExpr *x, double *vals, double *out) {
  switch (x->kind) {
    case SX_NUM: *out = x->value; return 0;
    case SX_VAR: *out = vals[x->slot]; return 0;
    case SX_NEG:
      if (eval(ev, x->a, vals, out)) return -1;
      *out = -*out;
      return 0;
    case SX_NOT:
      if (eval(ev, x->a, vals, out)) return -1;
      *out = *out == 0;
      return 0;
    case SX_BINARY: return eval_binary(ev, x, vals, out);
    case SX_AND:
    case SX_OR: {
      double a;
      if (eval(ev, x->a, vals, &a)) return -1;
      if (x->kind == SX_AND ? a == 0 : a != 0) { *out = x->kind == SX_OR; return 0; }
      if (eval(ev, x->b, vals, &a)) return -1;
      *out = a != 0;
      return 0;
    }
    case SX_COND: {
      double c;
      if (eval(ev, x->a, vals, &c)) return -1;
      return eval(ev, c != 0 ? x->b : x->c, vals, out);
    }
    case SX_MINMAX:
      for (int i = 0; i < x->count; i++) {
        double v;
        if (eval(ev, x->kids[i], vals, &v)) return -1;
        if (i == 0 || (x->op ? v > *out : v < *out)) *out = v;
      }
      return 0;
    case SX_MATH: return eval_math(ev, x, vals, out);
    case SX_CALL: return eval_call(ev, x, vals, out);
    case SX_BIND: return eval_bind(ev, x, vals, out);
    case SX_LITERAL: {
      double lo, hi;
      if (eval(ev, x->a, vals, &lo) || eval(ev, x->b, vals, &hi)) return -1;
      if (lo > hi)
        return sim_fail(ev->err, x->src->loc, "interval [%g, %g] has its low end above its high end", lo, hi);
      *out = x->value <= 0 ? lo : x->value >= 1 ? hi : x->value == 0.5 ? 0.5 * lo + 0.5 * hi
                                                     : lo + x->value * (hi - lo);
      return 0;
    }
    case SX_TAKEAPART: return eval_takeapart(ev, x, vals, out);
    case SX_FAIL: return sim_fail(ev->err, x->loc, "%s", x->message);
  }
  return sim_fail(ev->err, x->src->loc, "bad expression");
}

int sim_eval(SimEval *ev, const SimExpr *x, double *vals, double *out) {
  return eval(ev, x, vals, out);
}
