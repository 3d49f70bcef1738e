/*
** check_values.c — the checks decided by the values at hand (param defaults, const values, -D
** values): negative durations, family indices out of range, non-integer bounds and counts,
** probabilities outside [0, 1], sizes and multiplicities, -D values outside a param's range,
** interval literals with lo > hi, and evaluation errors (division by zero, ...).
**
** Unknown values (consts without a value, process arguments not known) evaluate to [-inf, inf],
** and only what holds for every value of the intervals is reported: a check never reports an
** error a run could not meet. Statements are checked only where they certainly run (a loop that
** is certainly not empty, an `if` whose condition is decided, a `choose` branch of positive
** probability). A loop body is checked over the whole range of its index, then, when the bounds
** are known integers, at the first and at the last value of the index (which certainly run).
** Process calls are followed from the entry process with the argument values of the call.
*/
#include "check_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The checker's environment: missing values are [-inf, inf]. */
static void checker_env(EvalEnv *env) {
  eval_env_init(env);
  env->missing_as_entire = 1;
}

/* Evaluates e; an evaluation error is reported (once). Returns 1 with *out set when evaluated. */
static int value_of(Checker *ck, EvalEnv *env, const Expr *e, AlgInterval *out) {
  EvalError err;
  EvalStatus status = eval_expr(env, e, out, &err);
  if (status == EVAL_ERROR) check_error_once(ck, err.loc, "%s", err.message);
  if (status != EVAL_OK) *out = ival_entire();
  return status == EVAL_OK;
}

static int known_finite(AlgInterval v) {
  return isfinite(v.lo) && isfinite(v.hi);
}

/* A value written with ceil/floor at the top is integral by construction (LANGUAGE.md §4). */
static int written_integral(const Expr *e) {
  return e->kind == EX_CALL && e->u.call.decl == NULL &&
         (e->u.call.builtin == EVAL_B_CEIL || e->u.call.builtin == EVAL_B_FLOOR);
}

/* Reports a bound or count that certainly holds no integer. */
static void want_integer(Checker *ck, const Expr *e, AlgInterval v, const char *what) {
  if (written_integral(e) || !known_finite(v)) return;
  if (ceil(v.lo) > v.hi) {
    char text[80];
    check_error_once(ck, e->loc, "%s is not an integer (%s)", what, eval_format(v, text, sizeof text));
  }
}

/* ------------------------------------------------------------------ statements */

static void check_stmt(Checker *ck, EvalEnv *env, const Stmt *s, int follow_calls);

static void check_duration(Checker *ck, EvalEnv *env, const Expr *e) {
  AlgInterval v;
  if (!e) return;   /* a hold has a body, not a duration */
  if (!value_of(ck, env, e, &v)) return;
  if (v.hi < 0) {
    char text[80];
    check_error_once(ck, e->loc, "duration is negative (%s s) for the values at hand",
                     eval_format(v, text, sizeof text));
  }
}

static void check_use(Checker *ck, EvalEnv *env, const Stmt *s) {
  const Decl *resource = s->u.use.decl;
  if (s->u.use.index && resource && resource->u.resource.count) {
    AlgInterval index, size;
    char text[80];
    if (value_of(ck, env, s->u.use.index, &index)) {
      EvalEnv global;
      checker_env(&global);
      if (eval_is_integer(index) || !known_finite(index) || ceil(index.lo) <= index.hi) {
        if (eval_expr(&global, resource->u.resource.count, &size, NULL) == EVAL_OK &&
            (index.hi < 0 || index.lo > size.hi - 1)) {
          char range[80];
          check_error_once(ck, s->u.use.index->loc, "index %s of '%s' is out of range 0 .. %s",
                           eval_format(index, text, sizeof text), resource->name.name,
                           eval_format(ival_sub(size, ival_point(1)), range, sizeof range));
        }
      } else {
        check_error_once(ck, s->u.use.index->loc, "index of '%s' is not an integer (%s)",
                         resource->name.name, eval_format(index, text, sizeof text));
      }
    }
  }
  check_duration(ck, env, s->u.use.duration);
}

/* Follows a process call with the argument values of this place. */
static void check_call(Checker *ck, EvalEnv *env, const Stmt *s, int follow_calls) {
  AlgInterval values[EVAL_MAX_ARGS];
  int count = s->u.call.args.count;
  for (int i = 0; i < count; i++) {
    AlgInterval v;
    value_of(ck, env, s->u.call.args.items[i], &v);
    if (i < EVAL_MAX_ARGS) values[i] = v;
  }
  const Decl *callee = s->u.call.decl;
  if (!follow_calls || !callee || count > EVAL_MAX_ARGS || ck->call_visits >= CHECK_MAX_CALL_VISITS)
    return;
  ck->call_visits++;
  EvalEnv frame;
  checker_env(&frame);
  frame.args = values;
  frame.arg_count = count;
  check_stmt(ck, &frame, callee->u.process.body, follow_calls);
}

static void check_loop(Checker *ck, EvalEnv *env, const Stmt *s, int follow_calls) {
  const char *what = s->kind == ST_SEQ ? "bound of seq" : "bound of par";
  AlgInterval a, b;
  int known_a = value_of(ck, env, s->u.loop.lo, &a);
  int known_b = value_of(ck, env, s->u.loop.hi, &b);
  if (known_a) want_integer(ck, s->u.loop.lo, a, what);
  if (known_b) want_integer(ck, s->u.loop.hi, b, what);
  if (!known_a || !known_b || !(a.hi <= b.lo)) return;   /* may be empty: body may not run */
  if (env->depth >= EVAL_MAX_INDICES) return;
  int slot = env->depth;
  env->indices[slot] = ival_make(a.lo, b.hi);
  env->depth = slot + 1;
  /* the whole range at once: what is wrong for every value of the index */
  check_stmt(ck, env, s->u.loop.body, follow_calls);
  /* bounds known exactly: the first and last iterations certainly run; what is wrong for them
  ** alone (par (p = 0, P) use(cpu[p], ...)) is an error too */
  if (eval_is_integer(a) && eval_is_integer(b) && a.lo < b.lo && ck->split_depth < CHECK_MAX_SPLIT) {
    for (int end = 0; end < 2; end++) {
      double value = end == 0 ? a.lo : b.lo;
      env->indices[slot] = ival_point(value);
      ck->when_names[ck->split_depth] = s->u.loop.var.name;
      ck->when_values[ck->split_depth] = value;
      ck->split_depth++;
      check_stmt(ck, env, s->u.loop.body, follow_calls);
      ck->split_depth--;
    }
  }
  env->depth = slot;
}

static void check_stmt(Checker *ck, EvalEnv *env, const Stmt *s, int follow_calls) {
  if (!s || diag_full(ck->diags)) return;
  AlgInterval v;
  char text[80];
  switch (s->kind) {
    case ST_SKIP:
      return;
    case ST_DELAY:
      check_duration(ck, env, s->u.delay.duration);
      return;
    case ST_USE:
      check_use(ck, env, s);
      return;
    case ST_HOLD:
      check_use(ck, env, s);
      check_stmt(ck, env, s->u.use.body, follow_calls);
      return;
    case ST_CALL:
      check_call(ck, env, s, follow_calls);
      return;
    case ST_BLOCK:
    case ST_PARALLEL:
      for (int i = 0; i < s->u.block.count; i++) check_stmt(ck, env, s->u.block.items[i], follow_calls);
      return;
    case ST_SEQ:
    case ST_PAR:
      check_loop(ck, env, s, follow_calls);
      return;
    case ST_REPEAT:
      if (!value_of(ck, env, s->u.repeat.count, &v)) return;
      want_integer(ck, s->u.repeat.count, v, "count of repeat");
      if (v.lo >= 1) check_stmt(ck, env, s->u.repeat.body, follow_calls);
      return;
    case ST_IF: {
      if (!value_of(ck, env, s->u.branch.cond, &v)) return;
      int truth = eval_truth(v);
      if (truth == 1) check_stmt(ck, env, s->u.branch.then, follow_calls);
      if (truth == 0) check_stmt(ck, env, s->u.branch.otherwise, follow_calls);
      return;
    }
    case ST_CHOOSE:
      if (!value_of(ck, env, s->u.branch.cond, &v)) return;
      if (v.hi < 0 || v.lo > 1) {
        check_error_once(ck, s->u.branch.cond->loc, "probability of choose is outside [0, 1] (%s)",
                         eval_format(v, text, sizeof text));
        return;
      }
      if (v.lo > 0) check_stmt(ck, env, s->u.branch.then, follow_calls);
      if (v.hi < 1) check_stmt(ck, env, s->u.branch.otherwise, follow_calls);
      return;
  }
}

/* ------------------------------------------------------------------ declarations */

/* Every interval literal of e, evaluated where its ends are known: lo > hi is an error. Binder
** indices are unknown here ([-inf, inf]); fn arguments too. */
static void check_literals(Checker *ck, EvalEnv *env, const Expr *e) {
  if (!e) return;
  AlgInterval v;
  switch (e->kind) {
    case EX_NUM:
    case EX_NAME:
      return;
    case EX_INTERVAL:
      check_literals(ck, env, e->u.interval.lo);
      check_literals(ck, env, e->u.interval.hi);
      check_literals(ck, env, e->u.interval.typ);
      value_of(ck, env, e, &v);
      return;
    case EX_UNARY:
      check_literals(ck, env, e->u.unary.a);
      return;
    case EX_BINARY:
      check_literals(ck, env, e->u.binary.a);
      check_literals(ck, env, e->u.binary.b);
      return;
    case EX_COND:
      check_literals(ck, env, e->u.cond.cond);
      check_literals(ck, env, e->u.cond.then);
      check_literals(ck, env, e->u.cond.otherwise);
      return;
    case EX_CALL:
      for (int i = 0; i < e->u.call.args.count; i++) check_literals(ck, env, e->u.call.args.items[i]);
      return;
    case EX_BIND:
      check_literals(ck, env, e->u.bind.lo);
      check_literals(ck, env, e->u.bind.hi);
      if (env->depth < EVAL_MAX_INDICES) {
        int slot = env->depth;
        env->indices[slot] = ival_entire();
        env->depth = slot + 1;
        check_literals(ck, env, e->u.bind.body);
        env->depth = slot;
      }
      return;
  }
}

static void literals_stmt(Checker *ck, EvalEnv *env, const Stmt *s) {
  if (!s) return;
  switch (s->kind) {
    case ST_SKIP: return;
    case ST_DELAY: check_literals(ck, env, s->u.delay.duration); return;
    case ST_USE:
      check_literals(ck, env, s->u.use.index);
      check_literals(ck, env, s->u.use.duration);
      return;
    case ST_HOLD:
      check_literals(ck, env, s->u.use.index);
      literals_stmt(ck, env, s->u.use.body);
      return;
    case ST_CALL:
      for (int i = 0; i < s->u.call.args.count; i++) check_literals(ck, env, s->u.call.args.items[i]);
      return;
    case ST_BLOCK:
    case ST_PARALLEL:
      for (int i = 0; i < s->u.block.count; i++) literals_stmt(ck, env, s->u.block.items[i]);
      return;
    case ST_SEQ:
    case ST_PAR:
      check_literals(ck, env, s->u.loop.lo);
      check_literals(ck, env, s->u.loop.hi);
      if (env->depth < EVAL_MAX_INDICES) {
        int slot = env->depth;
        env->indices[slot] = ival_entire();
        env->depth = slot + 1;
        literals_stmt(ck, env, s->u.loop.body);
        env->depth = slot;
      }
      return;
    case ST_REPEAT:
      check_literals(ck, env, s->u.repeat.count);
      literals_stmt(ck, env, s->u.repeat.body);
      return;
    case ST_IF:
    case ST_CHOOSE:
      check_literals(ck, env, s->u.branch.cond);
      literals_stmt(ck, env, s->u.branch.then);
      literals_stmt(ck, env, s->u.branch.otherwise);
      return;
  }
}

/* Unknown arguments for a process or fn body: [-inf, inf] each. */
static void unknown_args(AlgInterval *values, int count) {
  for (int i = 0; i < count && i < EVAL_MAX_ARGS; i++) values[i] = ival_entire();
}

/* The admissible values of a param: `in a .. b`, else at least min(1, default). */
static int admissible(Checker *ck, const Decl *param, const Decl *model, AlgInterval *range) {
  EvalEnv env;
  checker_env(&env);
  AlgInterval a, b;
  if (param->u.param.min && param->u.param.max) {
    if (!value_of(ck, &env, param->u.param.min, &a) || !value_of(ck, &env, param->u.param.max, &b))
      return 0;
    if (!known_finite(a) || !known_finite(b)) return 0;
    *range = ival_make(a.lo, b.hi < a.lo ? a.lo : b.hi);
    return 1;
  }
  if (!model->u.param.value) return 0;
  if (eval_expr(&env, model->u.param.value, &a, NULL) != EVAL_OK || !known_finite(a)) return 0;
  *range = ival_make(fmin(1, a.lo), INFINITY);
  return 1;
}

static int has_names(const Expr *e) {
  if (!e) return 0;
  switch (e->kind) {
    case EX_NUM: return 0;
    case EX_INTERVAL:
      return has_names(e->u.interval.lo) || has_names(e->u.interval.hi) || has_names(e->u.interval.typ);
    case EX_UNARY: return has_names(e->u.unary.a);
    case EX_BINARY: return has_names(e->u.binary.a) || has_names(e->u.binary.b);
    default: return 1;
  }
}

static void check_range_text(char *buf, size_t size, AlgInterval range) {
  if (isinf(range.hi)) snprintf(buf, size, "at least %g", range.lo);
  else snprintf(buf, size, "%g .. %g", range.lo, range.hi);
}

static void check_param(Checker *ck, const Decl *d) {
  EvalEnv env;
  checker_env(&env);
  AlgInterval a, b, v;
  char text[80], range_text[120];
  if (d->u.param.min && d->u.param.max && value_of(ck, &env, d->u.param.min, &a) &&
      value_of(ck, &env, d->u.param.max, &b) && a.lo > b.hi)
    check_error_once(ck, d->u.param.min->loc, "admissible values of '%s' are empty (%g .. %g)",
                     d->name.name, a.lo, b.hi);
  if (!d->u.param.value) return;
  if (!value_of(ck, &env, d->u.param.value, &v) || !known_finite(v)) return;
  /* a -D value? then its target holds the model's default */
  const Decl *model = d;
  int define = -1;
  for (int i = 0; i < ck->prog->define_count; i++)
    if (ck->prog->define_decls && ck->prog->define_decls[i] == d) {
      define = i;
      model = ck->prog->define_targets[i];
    }
  AlgInterval range;
  if (!admissible(ck, d, model, &range)) return;
  check_range_text(range_text, sizeof range_text, range);
  int outside = v.hi < range.lo || v.lo > range.hi;
  if (!outside && !has_names(d->u.param.value) && !ival_subset(v, range)) outside = 1;
  if (!outside) return;
  if (define >= 0) {
    const ProgramDefine *def = &ck->prog->defines[define];
    check_error_once(ck, (SrcLoc){0}, "-D %s: value %s is outside the admissible values of '%s' (%s)",
                     def->raw ? def->raw : def->name, eval_format(v, text, sizeof text), d->name.name,
                     range_text);
    diag_report(ck->diags, DIAG_NOTE, model->name.loc, "'%s' is declared here", d->name.name);
  } else if (d->u.param.min) {
    check_error_once(ck, d->u.param.value->loc, "default %s of '%s' is outside its admissible values (%s)",
                     eval_format(v, text, sizeof text), d->name.name, range_text);
  }
}

static void check_size(Checker *ck, const Expr *e, const char *what, const char *name) {
  if (!e) return;
  EvalEnv env;
  checker_env(&env);
  AlgInterval v;
  char text[80];
  if (!value_of(ck, &env, e, &v)) return;
  if (v.hi <= 0)
    check_error_once(ck, e->loc, "%s of '%s' is not positive (%s)", what, name, eval_format(v, text, sizeof text));
  else if (known_finite(v) && !written_integral(e) && ceil(v.lo) > v.hi)
    check_error_once(ck, e->loc, "%s of '%s' is not an integer (%s)", what, name, eval_format(v, text, sizeof text));
}

/* ps(c): any positive capacity, an interval too (LANGUAGE.md §8). */
static void check_capacity(Checker *ck, const Expr *e, const char *name) {
  if (!e) return;
  EvalEnv env;
  checker_env(&env);
  AlgInterval v;
  char text[80];
  if (value_of(ck, &env, e, &v) && v.lo <= 0)
    check_error_once(ck, e->loc, "capacity of '%s' is not positive (%s)%s", name,
                     eval_format(v, text, sizeof text),
                     v.hi > 0 ? " for every value of its interval" : "");
}

/* handoff(h): h >= 0 seconds. */
static void check_handoff(Checker *ck, const Expr *e, const char *name) {
  if (!e) return;
  EvalEnv env;
  checker_env(&env);
  AlgInterval v;
  char text[80];
  if (value_of(ck, &env, e, &v) && v.lo < 0)
    check_error_once(ck, e->loc, "handoff of '%s' is negative (%s s)", name,
                     eval_format(v, text, sizeof text));
}

static void check_decl(Checker *ck, const Decl *d) {
  EvalEnv env;
  checker_env(&env);
  AlgInterval args[EVAL_MAX_ARGS], v;
  switch (d->kind) {
    case DECL_IMPORT:
      return;
    case DECL_PARAM:
      check_literals(ck, &env, d->u.param.value);
      check_param(ck, d);
      return;
    case DECL_CONST:
      check_literals(ck, &env, d->u.constant.value);
      if (d->u.constant.value) value_of(ck, &env, d->u.constant.value, &v);
      return;
    case DECL_FN:
      unknown_args(args, d->u.fn.params.count);
      env.args = args;
      env.arg_count = d->u.fn.params.count;
      check_literals(ck, &env, d->u.fn.body);
      return;
    case DECL_RESOURCE:
      check_size(ck, d->u.resource.count, "family size", d->name.name);
      if (d->u.resource.discipline == DISC_PS)
        check_capacity(ck, d->u.resource.servers, d->name.name);
      else
        check_size(ck, d->u.resource.servers, "multiplicity", d->name.name);
      check_handoff(ck, d->u.resource.handoff, d->name.name);
      return;
    case DECL_PROCESS:
      unknown_args(args, d->u.process.params.count);
      env.args = args;
      env.arg_count = d->u.process.params.count;
      literals_stmt(ck, &env, d->u.process.body);
      if (d->u.process.params.count <= EVAL_MAX_ARGS) check_stmt(ck, &env, d->u.process.body, 0);
      return;
  }
}

void check_values(Checker *ck) {
  Program *prog = ck->prog;
  /* params first (-D values against their declarations): a value outside its admissible range is
  ** the cause of what the rest would find (a family of size 0), so nothing else is evaluated */
  int before = ck->diags->errors;
  for (int i = 0; i < prog->decl_count && !diag_full(ck->diags); i++)
    if (prog->decls[i]->kind == DECL_PARAM && check_in_force(ck, prog->decls[i])) check_decl(ck, prog->decls[i]);
  if (ck->diags->errors > before) return;
  for (int i = 0; i < prog->decl_count && !diag_full(ck->diags); i++)
    if (prog->decls[i]->kind != DECL_PARAM && check_in_force(ck, prog->decls[i])) check_decl(ck, prog->decls[i]);
  /* from the entry process, with the argument values of each call */
  const Decl *entry = program_entry(prog);
  if (entry && entry->u.process.params.count == 0) {
    EvalEnv env;
    checker_env(&env);
    check_stmt(ck, &env, entry->u.process.body, 1);
  }
}
