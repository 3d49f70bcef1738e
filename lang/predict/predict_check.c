/*
** predict_check.c — the check of one point of a sweep (or of a batch's hull) against the model's
** statements (predict.h): what the reduced formulas cannot say, with a source location —
** negative durations, family indices out of range, non-integer bounds, evaluation errors.
**
** POINT mode reports what is certainly an error, as the checker does for the values at hand
** (check_values.c): a loop body is checked over the whole index range, then at the first and the
** last index; an `if` is followed where its condition is decided. HULL mode is the fast path for
** a batch: it reports anything that is not certainly fine, and the caller then checks the batch
** point by point.
*/
#include "predict.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct Walk {
  PredictCheckMode mode;        /* POINT or HULL */
  const EvalBinding *bindings;  /* values of the swept params and consts */
  int binding_count;            /* length of bindings */
  const Decl *const *integral;  /* params known to be integers */
  int integral_count;           /* length of integral */
  long visits;                  /* statements visited so far (PREDICT_CHECK_VISITS at most) */
  int found;                    /* 1 once issue is filled: the walk stops */
  PredictIssue *issue;          /* where the finding goes */
} Walk;

/* A process body's frame: its arguments' values and whether each is an integer. */
typedef struct Frame {
  EvalEnv env;                  /* args, loop indices, bindings */
  const int *arg_integral;      /* per argument: 1 when certainly an integer */
} Frame;

static void report(Walk *w, SrcLoc loc, const char *format, ...) {
  if (w->found) return;
  w->found = 1;
  w->issue->loc = loc;
  va_list ap;
  va_start(ap, format);
  vsnprintf(w->issue->message, sizeof w->issue->message, format, ap);
  va_end(ap);
}

static int hull_mode(const Walk *w) {
  return w->mode == PREDICT_CHECK_HULL;
}

static void fresh_env(const Walk *w, EvalEnv *env) {
  eval_env_init(env);
  env->bindings = w->bindings;
  env->binding_count = w->binding_count;
  env->missing_as_entire = 1;
}

/* Evaluates e: 1 with *out set, 0 after reporting an evaluation error (or, in HULL mode, any
** failure to evaluate). */
static int value_of(Walk *w, Frame *f, const Expr *e, AlgInterval *out) {
  EvalError err;
  EvalStatus status = eval_expr(&f->env, e, out, &err);
  if (status == EVAL_ERROR || (status != EVAL_OK && hull_mode(w))) {
    report(w, status == EVAL_ERROR ? err.loc : e->loc, "%s", err.message);
    return 0;
  }
  if (status != EVAL_OK) *out = ival_entire();
  if (hull_mode(w) && !(isfinite(out->lo) && isfinite(out->hi))) {
    report(w, e->loc, "value may be undefined (division by a range holding 0, ...)");
    return 0;
  }
  return 1;
}

static int is_integral_param(const Walk *w, const Decl *d) {
  for (int i = 0; i < w->integral_count; i++)
    if (w->integral[i] == d) return 1;
  return 0;
}

static int point_integer(AlgInterval v) {
  return eval_is_integer(v);
}

/* e is an integer for every value of the hull: by its form (ceil, floor, integer literals,
** loop indices, integral params and arguments, + - * % min max abs of such), or by its value. */
static int integral(const Walk *w, Frame *f, const Expr *e) {
  switch (e->kind) {
  case EX_NUM: return floor(e->u.num.value) == e->u.num.value;
  case EX_NAME:
    if (e->u.name.kind == NAME_INDEX) return 1;
    if (e->u.name.kind == NAME_ARG && f->arg_integral && e->u.name.slot < f->env.arg_count)
      return f->arg_integral[e->u.name.slot];
    if (e->u.name.kind == NAME_PARAM && is_integral_param(w, e->u.name.decl)) return 1;
    break;
  case EX_UNARY: if (e->u.unary.op == OP_NEG) return integral(w, f, e->u.unary.a); break;
  case EX_BINARY:
    if (e->u.binary.op == OP_ADD || e->u.binary.op == OP_SUB || e->u.binary.op == OP_MUL ||
        e->u.binary.op == OP_MOD)
      if (integral(w, f, e->u.binary.a) && integral(w, f, e->u.binary.b)) return 1;
    break;
  case EX_COND: if (integral(w, f, e->u.cond.then) && integral(w, f, e->u.cond.otherwise)) return 1; break;
  case EX_CALL:
    if (e->u.call.decl) break;
    if (e->u.call.builtin == EVAL_B_CEIL || e->u.call.builtin == EVAL_B_FLOOR) return 1;
    if (e->u.call.builtin == EVAL_B_MIN || e->u.call.builtin == EVAL_B_MAX ||
        e->u.call.builtin == EVAL_B_ABS) {
      for (int i = 0; i < e->u.call.args.count; i++)
        if (!integral(w, f, e->u.call.args.items[i])) return 0;
      return 1;
    }
    break;
  default: break;
  }
  EvalError err;
  AlgInterval v;
  return eval_expr(&f->env, e, &v, &err) == EVAL_OK && point_integer(v);
}

/* A bound, count or index must be an integer: POINT reports a value that certainly is not;
** HULL reports one not certainly integral. */
static void want_integer(Walk *w, Frame *f, const Expr *e, AlgInterval v, const char *what) {
  char text[80];
  if (hull_mode(w)) {
    if (!integral(w, f, e)) report(w, e->loc, "%s may not be an integer", what);
    return;
  }
  if (e->kind == EX_CALL && !e->u.call.decl &&
      (e->u.call.builtin == EVAL_B_CEIL || e->u.call.builtin == EVAL_B_FLOOR))
    return;
  if (isfinite(v.lo) && isfinite(v.hi) && ceil(v.lo) > v.hi)
    report(w, e->loc, "%s is not an integer (%s)", what, eval_format(v, text, sizeof text));
}

static void check_stmt(Walk *w, Frame *f, const Stmt *s);

static void check_duration(Walk *w, Frame *f, const Expr *e) {
  AlgInterval v;
  char text[80];
  if (!e) return;   /* a hold has a body, not a duration */
  if (!value_of(w, f, e, &v)) return;
  if (hull_mode(w) ? !(v.lo >= 0) : v.hi < 0)
    report(w, e->loc, "duration is negative (%s s)", eval_format(v, text, sizeof text));
}

static void check_use(Walk *w, Frame *f, const Stmt *s) {
  const Decl *res = s->u.use.decl;
  if (s->u.use.index && res && res->u.resource.count) {
    AlgInterval index, size;
    char a[80], b[80];
    if (!value_of(w, f, s->u.use.index, &index)) return;
    want_integer(w, f, s->u.use.index, index, "family index");
    EvalEnv global;
    fresh_env(w, &global);
    EvalError err;
    if (eval_expr(&global, res->u.resource.count, &size, &err) != EVAL_OK) {
      if (hull_mode(w)) report(w, res->u.resource.count->loc, "size of '%s' unknown", res->name.name);
    } else if (hull_mode(w) ? (!(index.lo >= 0) || !(index.hi <= size.lo - 1))
                            : (index.hi < 0 || index.lo > size.hi - 1)) {
      report(w, s->u.use.index->loc, "index %s of '%s' is outside 0 .. %s - 1",
             eval_format(index, a, sizeof a), res->name.name, eval_format(size, b, sizeof b));
    }
    if (w->found) return;
  }
  check_duration(w, f, s->u.use.duration);
}

static void check_call(Walk *w, Frame *f, const Stmt *s) {
  const Decl *proc = s->u.call.decl;
  if (!proc) return;
  int n = s->u.call.args.count;
  if (n > EVAL_MAX_ARGS) return;
  AlgInterval values[EVAL_MAX_ARGS];
  int integral_args[EVAL_MAX_ARGS];
  for (int i = 0; i < n; i++) {
    if (!value_of(w, f, s->u.call.args.items[i], &values[i])) return;
    integral_args[i] = hull_mode(w) ? integral(w, f, s->u.call.args.items[i]) : point_integer(values[i]);
  }
  Frame inner;
  fresh_env(w, &inner.env);
  inner.env.args = values;
  inner.env.arg_count = n;
  inner.arg_integral = integral_args;
  check_stmt(w, &inner, proc->u.process.body);
}

/* Runs body with the next index bound to v. */
static void check_body_at(Walk *w, Frame *f, const Stmt *body, AlgInterval v, int bind) {
  if (!bind) {
    check_stmt(w, f, body);
    return;
  }
  int slot = f->env.depth;
  if (slot >= EVAL_MAX_INDICES) return;
  f->env.indices[slot] = v;
  f->env.depth = slot + 1;
  check_stmt(w, f, body);
  f->env.depth = slot;
}

/* seq/par (i = a, b) body and repeat (n) body (no index): bounds integers, body over the range
** and, at a point, at its first and last index. */
static void check_loop(Walk *w, Frame *f, const Expr *lo_e, const Expr *hi_e, const Stmt *body,
                       const char *what) {
  AlgInterval a = ival_point(1), b;
  if (lo_e && !value_of(w, f, lo_e, &a)) return;
  if (!value_of(w, f, hi_e, &b)) return;
  if (lo_e) want_integer(w, f, lo_e, a, what);
  if (!w->found) want_integer(w, f, hi_e, b, what);
  if (w->found) return;
  int bind = lo_e != NULL;
  if (hull_mode(w)) {
    if (b.hi < a.lo) return;                      /* certainly empty */
    check_body_at(w, f, body, ival_make(a.lo, b.hi), bind);
    return;
  }
  if (!(b.lo >= a.hi)) return;                    /* not certainly run */
  check_body_at(w, f, body, ival_make(a.lo, b.hi), bind);
  if (bind && point_integer(a) && point_integer(b)) {
    check_body_at(w, f, body, a, 1);
    if (b.lo != a.lo) check_body_at(w, f, body, b, 1);
  }
}

static void check_stmt(Walk *w, Frame *f, const Stmt *s) {
  if (w->found || ++w->visits > PREDICT_CHECK_VISITS) return;
  AlgInterval v;
  switch (s->kind) {
  case ST_SKIP: return;
  case ST_DELAY: check_duration(w, f, s->u.delay.duration); return;
  case ST_USE: check_use(w, f, s); return;
  case ST_HOLD:
    check_use(w, f, s);
    check_stmt(w, f, s->u.use.body);
    return;
  case ST_CALL: check_call(w, f, s); return;
  case ST_BLOCK: case ST_PARALLEL:
    for (int i = 0; i < s->u.block.count; i++) check_stmt(w, f, s->u.block.items[i]);
    return;
  case ST_SEQ: case ST_PAR:
    check_loop(w, f, s->u.loop.lo, s->u.loop.hi, s->u.loop.body,
               s->kind == ST_SEQ ? "bound of seq" : "bound of par");
    return;
  case ST_REPEAT: check_loop(w, f, NULL, s->u.repeat.count, s->u.repeat.body, "count of repeat"); return;
  case ST_IF: {
    if (!value_of(w, f, s->u.branch.cond, &v)) return;
    int truth = eval_truth(v);
    if (truth != 0 && (truth == 1 || hull_mode(w))) check_stmt(w, f, s->u.branch.then);
    if (truth != 1 && (truth == 0 || hull_mode(w)) && s->u.branch.otherwise)
      check_stmt(w, f, s->u.branch.otherwise);
    return;
  }
  case ST_CHOOSE:
    if (!value_of(w, f, s->u.branch.cond, &v)) return;
    if (hull_mode(w) || v.lo > 0) check_stmt(w, f, s->u.branch.then);
    if (s->u.branch.otherwise && (hull_mode(w) || v.hi < 1)) check_stmt(w, f, s->u.branch.otherwise);
    return;
  }
}

int predict_check(const Decl *entry, const EvalBinding *bindings, int binding_count,
                  const Decl *const *integral_params, int integral_count, PredictCheckMode mode,
                  PredictIssue *issue) {
  Walk w;
  memset(&w, 0, sizeof w);
  w.mode = mode;
  w.bindings = bindings;
  w.binding_count = binding_count;
  w.integral = integral_params;
  w.integral_count = integral_count;
  w.issue = issue;
  Frame f;
  fresh_env(&w, &f.env);
  f.arg_integral = NULL;
  if (entry && entry->kind == DECL_PROCESS) check_stmt(&w, &f, entry->u.process.body);
  return w.found;
}

static int all_integers(const double *values, int n) {
  for (int k = 0; k < n; k++)
    if (floor(values[k]) != values[k]) return 0;
  return 1;
}

static int finite_results(const PredictBatch *results, int k) {
  return isfinite(results->lo[k]) && isfinite(results->hi[k]) && isfinite(results->est[k]);
}

int predict_check_batch(const Decl *entry, const Decl *const *axis_decls, int axis_count,
                        int npoints, const double *const *axis_values,
                        const PredictBatch *results, PredictIssue *issue) {
  EvalBinding bindings[SWEEP_MAX_AXES];
  const Decl *integral_params[SWEEP_MAX_AXES];
  int integral_count = 0;
  int suspect = axis_count == 0;
  for (int a = 0; a < axis_count; a++) {
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < npoints; k++) {
      if (axis_values[a][k] < lo) lo = axis_values[a][k];
      if (axis_values[a][k] > hi) hi = axis_values[a][k];
    }
    bindings[a].decl = axis_decls[a];
    bindings[a].value = ival_make(lo, hi);
    if (axis_decls[a]->kind == DECL_PARAM && all_integers(axis_values[a], npoints))
      integral_params[integral_count++] = axis_decls[a];
  }
  for (int k = 0; k < npoints && !suspect; k++) suspect = !finite_results(results, k);
  if (!suspect && !predict_check(entry, bindings, axis_count, integral_params, integral_count,
                                 PREDICT_CHECK_HULL, issue))
    return npoints;
  for (int k = 0; k < npoints; k++) {
    for (int a = 0; a < axis_count; a++) bindings[a].value = ival_point(axis_values[a][k]);
    if (predict_check(entry, bindings, axis_count, NULL, 0, PREDICT_CHECK_POINT, issue)) return k;
    if (!finite_results(results, k)) {
      memset(issue, 0, sizeof *issue);
      snprintf(issue->message, sizeof issue->message, "the bounds are not finite (lo %g, hi %g) and no "
               "statement of the model could be blamed", results->lo[k], results->hi[k]);
      return k;
    }
  }
  return npoints;
}
