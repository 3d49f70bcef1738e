/*
** eval.c — interval evaluation of resolved expressions (eval.h).
*/
#include "eval.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const builtin_names[EVAL_B_COUNT] = {
  "min", "max", "ceil", "floor", "abs", "sqrt", "log", "log2", "exp",
  "lo", "hi", "mid", "width", "sum", "prod"
};

int eval_builtin_lookup(const char *name) {
  for (int i = 0; i < EVAL_B_COUNT; i++)
    if (!strcmp(builtin_names[i], name)) return i;
  return -1;
}

const char *eval_builtin_name(int builtin) {
  return builtin >= 0 && builtin < EVAL_B_COUNT ? builtin_names[builtin] : "?";
}

void eval_env_init(EvalEnv *env) {
  memset(env, 0, sizeof *env);
  env->pick = EVAL_PICK_INTERVAL;
}

int eval_truth(AlgInterval v) {
  if (v.lo == 0 && v.hi == 0) return 0;
  if (!ival_contains_zero(v)) return 1;
  return -1;
}

int eval_is_integer(AlgInterval v) {
  return v.lo == v.hi && isfinite(v.lo) && floor(v.lo) == v.lo;
}

char *eval_format(AlgInterval v, char *buf, int size) {
  char lo[40], hi[40];
  snprintf(lo, sizeof lo, "%g", v.lo);
  snprintf(hi, sizeof hi, "%g", v.hi);
  /* an outward-rounded point, [x - ulp, x], reads as x */
  if (!strcmp(lo, hi)) snprintf(buf, (size_t)size, "%s", lo);
  else snprintf(buf, (size_t)size, "[%s, %s]", lo, hi);
  return buf;
}

/* ------------------------------------------------------------------ helpers */

/* Interval results with a NaN end (inf * 0 in some operation) enclose nothing useful: widen. */
static AlgInterval tidy(AlgInterval v) {
  if (isnan(v.lo) || isnan(v.hi) || v.lo > v.hi) return ival_entire();
  return v;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static EvalStatus fail(EvalError *err, EvalStatus status, SrcLoc loc, const char *format, ...) {
  if (err) {
    err->loc = loc;
    va_list args;
    va_start(args, format);
    vsnprintf(err->message, sizeof err->message, format, args);
    va_end(args);
  }
  return status;
}

static EvalStatus eval(EvalEnv *env, const Expr *e, AlgInterval *out, EvalError *err);

/* A missing value: [-inf, inf] for the checker, else EVAL_UNKNOWN with the reason. */
static EvalStatus missing(EvalEnv *env, AlgInterval *out, EvalError *err, SrcLoc loc,
                          const char *what, const char *name) {
  if (env->missing_as_entire) {
    *out = ival_entire();
    return EVAL_OK;
  }
  return fail(err, EVAL_UNKNOWN, loc, "%s '%s' has no value", what, name);
}

static AlgInterval pick_value(EvalEnv *env, const Expr *literal, AlgInterval range, AlgInterval typ) {
  switch (env->pick) {
    case EVAL_PICK_INTERVAL: return range;
    case EVAL_PICK_LO: return ival_point(range.lo);
    case EVAL_PICK_HI: return ival_point(range.hi);
    case EVAL_PICK_MID: return ival_point(ival_mid(range));
    case EVAL_PICK_TYP:
      if (!literal->u.interval.typ) return ival_point(ival_mid(range));
      if (env->typ_picked) (*env->typ_picked)++;
      return typ;
    case EVAL_PICK_CALLBACK:
      if (env->pick_fn) {
        double x = env->pick_fn(env->pick_ctx, literal, range);
        if (x < range.lo) x = range.lo;
        if (x > range.hi) x = range.hi;
        return ival_point(x);
      }
      return range;
  }
  return range;
}

/* ------------------------------------------------------------------ names and definitions */

EvalStatus eval_decl_value(EvalEnv *env, const Decl *decl, AlgInterval *out, EvalError *err) {
  *out = ival_entire();
  for (int i = 0; i < env->binding_count; i++)
    if (env->bindings[i].decl == decl) {
      *out = env->bindings[i].value;
      return EVAL_OK;
    }
  const Expr *value = NULL;
  const char *what = "const";
  if (decl->kind == DECL_PARAM) {
    value = decl->u.param.value;
    what = "param";
  } else if (decl->kind == DECL_CONST) {
    value = decl->u.constant.value;
  } else {
    return fail(err, EVAL_ERROR, decl->name.loc, "'%s' is not a value", decl->name.name);
  }
  if (!value) return missing(env, out, err, decl->name.loc, what, decl->name.name);
  if (env->call_depth >= EVAL_MAX_CALL_DEPTH)
    return fail(err, EVAL_ERROR, decl->name.loc, "definition of '%s' nests too deeply",
                decl->name.name);
  EvalEnv frame = *env;
  frame.args = NULL;
  frame.arg_count = 0;
  frame.depth = 0;
  frame.call_depth = env->call_depth + 1;
  return eval(&frame, value, out, err);
}

static EvalStatus eval_name(EvalEnv *env, const Expr *e, AlgInterval *out, EvalError *err) {
  const char *name = e->u.name.id.name;
  switch (e->u.name.kind) {
    case NAME_INDEX:
      if (e->u.name.slot < 0 || e->u.name.slot >= env->depth)
        return missing(env, out, err, e->loc, "loop index", name);
      *out = env->indices[e->u.name.slot];
      return EVAL_OK;
    case NAME_ARG:
      if (!env->args || e->u.name.slot < 0 || e->u.name.slot >= env->arg_count)
        return missing(env, out, err, e->loc, "argument", name);
      *out = env->args[e->u.name.slot];
      return EVAL_OK;
    case NAME_PARAM:
    case NAME_CONST: {
      if (!e->u.name.decl) return missing(env, out, err, e->loc, "name", name);
      EvalStatus status = eval_decl_value(env, e->u.name.decl, out, err);
      if (status == EVAL_UNKNOWN && err) err->loc = e->loc; /* say where it is used */
      return status;
    }
    case NAME_UNRESOLVED:
      break;
  }
  return fail(err, EVAL_ERROR, e->loc, "unresolved name '%s'", name);
}

/* ------------------------------------------------------------------ operators */

static EvalStatus eval_binary(EvalEnv *env, const Expr *e, AlgInterval *out, EvalError *err) {
  Op op = e->u.binary.op;
  AlgInterval a, b;
  EvalStatus status = eval(env, e->u.binary.a, &a, err);
  if (status != EVAL_OK) return status;
  if (op == OP_AND || op == OP_OR) {   /* short-circuit: `x != 0 and 1/x > 2` is safe */
    int left = eval_truth(a);
    if (op == OP_AND && left == 0) { *out = ival_point(0); return EVAL_OK; }
    if (op == OP_OR && left == 1) { *out = ival_point(1); return EVAL_OK; }
    status = eval(env, e->u.binary.b, &b, err);
    if (status != EVAL_OK) return status;
    int right = eval_truth(b);
    if (op == OP_AND) {
      if (right == 0) *out = ival_point(0);
      else if (left == 1 && right == 1) *out = ival_point(1);
      else *out = ival_make(0, 1);
    } else {
      if (right == 1) *out = ival_point(1);
      else if (left == 0 && right == 0) *out = ival_point(0);
      else *out = ival_make(0, 1);
    }
    return EVAL_OK;
  }
  status = eval(env, e->u.binary.b, &b, err);
  if (status != EVAL_OK) return status;
  switch (op) {
    case OP_ADD: *out = ival_add(a, b); break;
    case OP_SUB: *out = ival_sub(a, b); break;
    case OP_MUL: *out = ival_mul(a, b); break;
    case OP_DIV:
    case OP_MOD:
      if (b.lo == 0 && b.hi == 0)
        return fail(err, EVAL_ERROR, e->u.binary.b->loc, "%s by zero",
                    op == OP_DIV ? "division" : "remainder");
      *out = op == OP_DIV ? ival_div(a, b) : ival_mod(a, b);
      break;
    case OP_POW:
      if (b.hi < 0 && a.lo == 0 && a.hi == 0)
        return fail(err, EVAL_ERROR, e->loc, "zero raised to a negative power");
      *out = ival_pow(a, b);
      break;
    case OP_EQ: *out = ival_cmp(0, a, b); break;
    case OP_NE: *out = ival_cmp(1, a, b); break;
    case OP_LT: *out = ival_cmp(2, a, b); break;
    case OP_LE: *out = ival_cmp(3, a, b); break;
    case OP_GT: *out = ival_cmp(4, a, b); break;
    case OP_GE: *out = ival_cmp(5, a, b); break;
    default:
      return fail(err, EVAL_ERROR, e->loc, "bad binary operator");
  }
  *out = tidy(*out);
  return EVAL_OK;
}

static EvalStatus eval_cond(EvalEnv *env, const Expr *e, AlgInterval *out, EvalError *err) {
  AlgInterval c;
  EvalStatus status = eval(env, e->u.cond.cond, &c, err);
  if (status != EVAL_OK) return status;
  int truth = eval_truth(c);
  if (truth == 1) return eval(env, e->u.cond.then, out, err);
  if (truth == 0) return eval(env, e->u.cond.otherwise, out, err);
  /* undecided: either branch may be taken; an error in one is not certain */
  AlgInterval a, b;
  EvalStatus sa = eval(env, e->u.cond.then, &a, err);
  if (sa == EVAL_UNKNOWN) return sa;
  EvalStatus sb = eval(env, e->u.cond.otherwise, &b, err);
  if (sb == EVAL_UNKNOWN) return sb;
  if (sa != EVAL_OK || sb != EVAL_OK)
    return fail(err, EVAL_UNKNOWN, e->loc, "condition undecided and one branch fails");
  *out = ival_hull(a, b);
  return EVAL_OK;
}

/* ------------------------------------------------------------------ calls and binders */

static EvalStatus eval_builtin(EvalEnv *env, const Expr *e, AlgInterval *out, EvalError *err) {
  int builtin = e->u.call.builtin;
  const ExprList *args = &e->u.call.args;
  if (builtin == EVAL_B_MIN || builtin == EVAL_B_MAX) {
    if (args->count < 1)
      return fail(err, EVAL_ERROR, e->loc, "%s needs at least one argument", eval_builtin_name(builtin));
    for (int i = 0; i < args->count; i++) {
      AlgInterval v;
      EvalStatus status = eval(env, args->items[i], &v, err);
      if (status != EVAL_OK) return status;
      *out = i == 0 ? v : builtin == EVAL_B_MIN ? ival_min(*out, v) : ival_max(*out, v);
    }
    return EVAL_OK;
  }
  if (builtin == EVAL_B_SUM || builtin == EVAL_B_PROD || builtin < 0 || builtin >= EVAL_B_COUNT)
    return fail(err, EVAL_ERROR, e->loc, "'%s' is not a function of values", e->u.call.fn.name);
  if (args->count != 1)
    return fail(err, EVAL_ERROR, e->loc, "%s takes one argument", eval_builtin_name(builtin));
  AlgInterval x;
  const Expr *arg = args->items[0];
  EvalStatus status = eval(env, arg, &x, err);
  if (status != EVAL_OK) return status;
  char text[64];
  switch (builtin) {
    case EVAL_B_CEIL: *out = ival_ceil(x); break;
    case EVAL_B_FLOOR: *out = ival_floor(x); break;
    case EVAL_B_ABS: *out = ival_abs(x); break;
    case EVAL_B_SQRT:
      if (x.hi < 0)
        return fail(err, EVAL_ERROR, arg->loc, "sqrt of a negative value (%s)", eval_format(x, text, sizeof text));
      *out = ival_sqrt(x);
      break;
    case EVAL_B_LOG:
    case EVAL_B_LOG2:
      if (x.hi <= 0)
        return fail(err, EVAL_ERROR, arg->loc, "%s of a non-positive value (%s)",
                    eval_builtin_name(builtin), eval_format(x, text, sizeof text));
      *out = builtin == EVAL_B_LOG ? ival_log(x) : ival_log2(x);
      break;
    case EVAL_B_EXP: *out = ival_exp(x); break;
    case EVAL_B_LO: *out = ival_point(x.lo); break;
    case EVAL_B_HI: *out = ival_point(x.hi); break;
    case EVAL_B_MID: *out = ival_point(ival_mid(x)); break;
    case EVAL_B_WIDTH: *out = ival_point(ival_width(x)); break;
    default: return fail(err, EVAL_ERROR, e->loc, "bad built-in");
  }
  *out = tidy(*out);
  return EVAL_OK;
}

static EvalStatus eval_fn_call(EvalEnv *env, const Expr *e, AlgInterval *out, EvalError *err) {
  const Decl *fn = e->u.call.decl;
  if (!fn || fn->kind != DECL_FN)
    return fail(err, EVAL_ERROR, e->loc, "'%s' is not a function", e->u.call.fn.name);
  int count = e->u.call.args.count;
  if (count != fn->u.fn.params.count)
    return fail(err, EVAL_ERROR, e->loc, "%s takes %d argument%s, not %d", fn->name.name,
                fn->u.fn.params.count, fn->u.fn.params.count == 1 ? "" : "s", count);
  if (count > EVAL_MAX_ARGS)
    return fail(err, EVAL_ERROR, e->loc, "too many arguments (at most %d)", EVAL_MAX_ARGS);
  if (env->call_depth >= EVAL_MAX_CALL_DEPTH)
    return fail(err, EVAL_ERROR, e->loc, "calls of '%s' nest too deeply", fn->name.name);
  AlgInterval values[EVAL_MAX_ARGS];
  for (int i = 0; i < count; i++) {
    EvalStatus status = eval(env, e->u.call.args.items[i], &values[i], err);
    if (status != EVAL_OK) return status;
  }
  EvalEnv frame = *env;
  frame.args = values;
  frame.arg_count = count;
  frame.depth = 0;
  frame.call_depth = env->call_depth + 1;
  return eval(&frame, fn->u.fn.body, out, err);
}

/* Bounds of a binder: integers, or intervals when not known exactly (is_exact 0). */
static EvalStatus binder_bound(EvalEnv *env, const Expr *bound, const char *what, AlgInterval *out,
                               EvalError *err) {
  EvalStatus status = eval(env, bound, out, err);
  if (status != EVAL_OK) return status;
  char text[64];
  if (out->lo == out->hi && isfinite(out->lo) && floor(out->lo) != out->lo)
    return fail(err, EVAL_ERROR, bound->loc, "bound of %s is not an integer (%s)", what,
                eval_format(*out, text, sizeof text));
  return EVAL_OK;
}

static EvalStatus eval_bind(EvalEnv *env, const Expr *e, AlgInterval *out, EvalError *err) {
  const char *name = e->u.bind.fn.name;
  int kind = eval_builtin_lookup(name);
  if (kind != EVAL_B_SUM && kind != EVAL_B_PROD && kind != EVAL_B_MIN && kind != EVAL_B_MAX)
    return fail(err, EVAL_ERROR, e->loc, "'%s' has no binder form", name);
  if (env->depth >= EVAL_MAX_INDICES)
    return fail(err, EVAL_ERROR, e->loc, "indices nest too deeply (at most %d)", EVAL_MAX_INDICES);
  AlgInterval a, b;
  EvalStatus status = binder_bound(env, e->u.bind.lo, name, &a, err);
  if (status != EVAL_OK) return status;
  status = binder_bound(env, e->u.bind.hi, name, &b, err);
  if (status != EVAL_OK) return status;
  int slot = env->depth;
  AlgInterval saved = env->indices[slot];
  int exact = a.lo == a.hi && b.lo == b.hi && isfinite(a.lo) && isfinite(b.lo);
  double terms = exact ? b.lo - a.lo + 1 : 0;
  int empty = exact ? terms <= 0 : b.hi < a.lo;
  if (empty) {
    if (kind == EVAL_B_SUM) { *out = ival_point(0); return EVAL_OK; }
    if (kind == EVAL_B_PROD) { *out = ival_point(1); return EVAL_OK; }
    return fail(err, EVAL_ERROR, e->loc, "%s over an empty range", name);
  }
  env->depth = slot + 1;
  long budget_here = EVAL_MAX_TERMS;
  long *budget = env->term_budget ? env->term_budget : &budget_here;
  if (exact && terms <= (double)*budget) {
    *budget -= (long)terms;
    for (double i = a.lo; i <= b.lo; i++) {
      AlgInterval v;
      env->indices[slot] = ival_point(i);
      status = eval(env, e->u.bind.body, &v, err);
      if (status != EVAL_OK) break;
      if (i == a.lo) *out = v;
      else if (kind == EVAL_B_SUM) *out = ival_add(*out, v);
      else if (kind == EVAL_B_PROD) *out = ival_mul(*out, v);
      else if (kind == EVAL_B_MIN) *out = ival_min(*out, v);
      else *out = ival_max(*out, v);
      *out = tidy(*out);
    }
  } else {
    /* enclose: every term lies in the body's hull over the index range */
    int surely_nonempty = a.hi <= b.lo;
    AlgInterval v;
    env->indices[slot] = ival_make(a.lo, b.hi);
    status = eval(env, e->u.bind.body, &v, err);
    if (status == EVAL_OK) {
      if (kind == EVAL_B_SUM) {
        double most = b.hi - a.lo + 1, least = b.lo - a.hi + 1;
        if (!(least >= 0)) least = 0;      /* also NaN from infinite bounds */
        if (!(most >= least)) most = INFINITY;
        *out = tidy(ival_mul(ival_make(least, most), v));
      } else if (kind == EVAL_B_PROD) {
        status = fail(err, EVAL_UNKNOWN, e->loc, "prod over %s terms is not evaluated",
                      exact ? "too many" : "an unknown number of");
      } else if (surely_nonempty) {
        *out = v;
      } else {
        status = fail(err, EVAL_UNKNOWN, e->loc, "%s over a range that may be empty", name);
      }
    }
  }
  env->depth = slot;
  env->indices[slot] = saved;
  if (status != EVAL_OK) *out = ival_entire();
  return status;
}

/* ------------------------------------------------------------------ the dispatcher */

static EvalStatus eval(EvalEnv *env, const Expr *e, AlgInterval *out, EvalError *err) {
  *out = ival_entire();
  if (!e) return fail(err, EVAL_ERROR, (SrcLoc){0}, "missing expression");
  EvalStatus status = EVAL_OK;
  switch (e->kind) {
    case EX_NUM:
      *out = ival_point(e->u.num.value);
      return EVAL_OK;
    case EX_INTERVAL: {
      AlgInterval a, b;
      status = eval(env, e->u.interval.lo, &a, err);
      if (status != EVAL_OK) return status;
      status = eval(env, e->u.interval.hi, &b, err);
      if (status != EVAL_OK) return status;
      if (a.lo > b.hi) {
        char ta[64], tb[64];
        return fail(err, EVAL_ERROR, e->loc, "interval [%s, %s] has its low end above its high end",
                    eval_format(a, ta, sizeof ta), eval_format(b, tb, sizeof tb));
      }
      AlgInterval range = ival_make(a.lo, b.hi < a.lo ? a.lo : b.hi), typ = range;
      if (e->u.interval.typ) {   /* the typical value must lie inside (LANGUAGE.md §8) */
        status = eval(env, e->u.interval.typ, &typ, err);
        if (status != EVAL_OK) return status;
        if (typ.hi < range.lo || typ.lo > range.hi) {
          char tt[64], ta[64], tb[64];
          return fail(err, EVAL_ERROR, e->u.interval.typ->loc,
                      "typical value %s is outside its interval [%s, %s]", eval_format(typ, tt, sizeof tt),
                      eval_format(ival_point(range.lo), ta, sizeof ta),
                      eval_format(ival_point(range.hi), tb, sizeof tb));
        }
      }
      *out = pick_value(env, e, range, typ);
      return EVAL_OK;
    }
    case EX_NAME:
      status = eval_name(env, e, out, err);
      break;
    case EX_UNARY: {
      AlgInterval a;
      status = eval(env, e->u.unary.a, &a, err);
      if (status != EVAL_OK) break;
      if (e->u.unary.op == OP_NEG) {
        *out = ival_neg(a);
      } else {
        int truth = eval_truth(a);
        *out = truth == 1 ? ival_point(0) : truth == 0 ? ival_point(1) : ival_make(0, 1);
      }
      break;
    }
    case EX_BINARY:
      status = eval_binary(env, e, out, err);
      break;
    case EX_COND:
      status = eval_cond(env, e, out, err);
      break;
    case EX_CALL:
      status = e->u.call.builtin >= 0 && !e->u.call.decl ? eval_builtin(env, e, out, err)
                                                         : eval_fn_call(env, e, out, err);
      break;
    case EX_BIND:
      status = eval_bind(env, e, out, err);
      break;
  }
  if (status != EVAL_OK) *out = ival_entire();
  return status;
}

EvalStatus eval_expr(EvalEnv *env, const Expr *e, AlgInterval *out, EvalError *err) {
  int depth = env->depth;
  long budget = EVAL_MAX_TERMS;
  long *saved = env->term_budget;
  if (!saved) env->term_budget = &budget;
  EvalStatus status = eval(env, e, out, err);
  env->term_budget = saved;
  env->depth = depth;
  return status;
}

/* ------------------------------------------------------------------ dependencies */

static int uses(const Expr *e, const Decl *target, int depth) {
  if (!e || depth > EVAL_MAX_CALL_DEPTH) return 0;
  switch (e->kind) {
  case EX_NUM: return 0;
  case EX_INTERVAL:
    return uses(e->u.interval.lo, target, depth) || uses(e->u.interval.hi, target, depth) ||
           uses(e->u.interval.typ, target, depth);
  case EX_NAME: {
    const Decl *d = e->u.name.decl;
    if (e->u.name.kind != NAME_PARAM && e->u.name.kind != NAME_CONST) return 0;
    if (!d) return 0;
    if (target ? d == target : e->u.name.kind == NAME_PARAM) return 1;
    return e->u.name.kind == NAME_CONST && uses(d->u.constant.value, target, depth + 1);
  }
  case EX_UNARY: return uses(e->u.unary.a, target, depth);
  case EX_BINARY: return uses(e->u.binary.a, target, depth) || uses(e->u.binary.b, target, depth);
  case EX_COND:
    return uses(e->u.cond.cond, target, depth) || uses(e->u.cond.then, target, depth) ||
           uses(e->u.cond.otherwise, target, depth);
  case EX_CALL:
    for (int i = 0; i < e->u.call.args.count; i++)
      if (uses(e->u.call.args.items[i], target, depth)) return 1;
    return e->u.call.decl && e->u.call.decl->kind == DECL_FN && uses(e->u.call.decl->u.fn.body, target, depth + 1);
  case EX_BIND:
    return uses(e->u.bind.lo, target, depth) || uses(e->u.bind.hi, target, depth) ||
           uses(e->u.bind.body, target, depth);
  }
  return 0;
}

int eval_uses(const Expr *e, const Decl *target) { return uses(e, target, 0); }

char *eval_no_value_message(const Decl *decl, char *buf, int size) {
  int is_const = decl->kind == DECL_CONST;
  snprintf(buf, (size_t)size, "%s '%s' has no value: give it %s-D %s=VALUE", is_const ? "const" : "param",
           decl->name.name, is_const ? "in a machine file (-m) or with " : "with ", decl->name.name);
  return buf;
}
