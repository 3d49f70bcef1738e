/*
** predict.c — the evaluation plan of `pamc predict` (predict.h): free symbols wired to sweep axes
** or fixed values, T_lo / T_hi / bottleneck terms compiled to tapes once, batches evaluated with
** the point loop innermost.
*/
#include "predict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The declaration a symbol of r stands for, NULL when it is not one of r's. */
static const Decl *decl_of(const ReduceResult *r, const AlgSymbol *symbol) {
  for (int i = 0; i < r->symbol_count; i++)
    if (r->symbols[i] == symbol) return r->symbol_decls[i];
  return NULL;
}

static int axis_of(const Sweep *sweep, const char *name) {
  for (int a = 0; sweep && a < sweep->axis_count; a++)
    if (!strcmp(sweep->axes[a].name, name)) return a;
  return -1;
}

static double *batch_array(Arena *arena) {
  return arena_alloc(arena, PREDICT_BATCH * sizeof(double));
}

/* The value of a const for est (LANGUAGE.md §8): its definition at the typical values of its
** interval literals when one of them has one (`[a, b] typ m`; the midpoint for those without),
** else the midpoint of its range, as before typical values existed (old models: byte for byte). */
static AlgInterval est_value(const Decl *decl, AlgInterval box) {
  EvalEnv env;
  eval_env_init(&env);
  int typ_picked = 0;
  env.pick = EVAL_PICK_TYP;
  env.typ_picked = &typ_picked;
  AlgInterval typ;
  EvalError err;
  if (eval_decl_value(&env, decl, &typ, &err) == EVAL_OK && typ_picked > 0 && isfinite(typ.lo) &&
      isfinite(typ.hi))
    return typ;
  return ival_point(ival_mid(box));
}

int predict_value_in_force(const Decl *decl, AlgInterval *box, AlgInterval *mid, DiagList *diags) {
  EvalEnv env;
  eval_env_init(&env);
  EvalError err;
  EvalStatus status = eval_decl_value(&env, decl, box, &err);
  if (status != EVAL_OK) {
    const char *kind = decl->kind == DECL_PARAM ? "param" : "const";
    char message[EVAL_MESSAGE_SIZE];
    if (status == EVAL_UNKNOWN)
      diag_report(diags, DIAG_ERROR, decl->name.loc, "%s", eval_no_value_message(decl, message, sizeof message));
    else
      diag_report(diags, DIAG_ERROR, err.loc, "%s (value of %s '%s')", err.message, kind, decl->name.name);
    return 1;
  }
  *mid = *box;
  if (decl->kind == DECL_CONST && isfinite(box->lo) && isfinite(box->hi))
    *mid = est_value(decl, *box);
  return 0;
}

/* Adds (once) the input of symbol: its axis, or its value in force. 0, or 1 with an error. */
static int add_input(PredictPlan *plan, AlgSymbol *symbol, DiagList *diags) {
  for (int i = 0; i < plan->input_count; i++)
    if (plan->inputs[i].symbol == symbol) return 0;
  const Decl *decl = decl_of(plan->reduced, symbol);
  if (!decl) {
    diag_report(diags, DIAG_ERROR, (SrcLoc){0}, "predict: the reduced formulas use '%s', which is "
                "not a param or const of the model", alg_symbol_name(symbol));
    return 1;
  }
  PredictInput *in = &plan->inputs[plan->input_count++];
  in->symbol = symbol;
  in->decl = decl;
  in->axis = axis_of(plan->sweep, decl->name.name);
  in->box_lo = batch_array(&plan->arena);
  in->box_hi = batch_array(&plan->arena);
  in->mid_lo = batch_array(&plan->arena);
  in->mid_hi = batch_array(&plan->arena);
  if (in->axis >= 0) return 0;
  if (predict_value_in_force(decl, &in->box, &in->mid, diags) != 0) return 1;
  for (int k = 0; k < PREDICT_BATCH; k++) {
    in->box_lo[k] = in->box.lo;
    in->box_hi[k] = in->box.hi;
    in->mid_lo[k] = in->mid.lo;
    in->mid_hi[k] = in->mid.hi;
  }
  return 0;
}

/* Compiles e and wires its inputs. 0, or 1 with an error in diags. */
static int compile(PredictPlan *plan, const AlgExpr *e, PredictTape *out, DiagList *diags) {
  char message[256];
  if (alg_tape_compile(plan->reduced->alg, e, &out->tape, message, sizeof message) != 0) {
    out->tape = NULL;
    diag_report(diags, DIAG_ERROR, (SrcLoc){0}, "predict: cannot compile a reduced formula: %s", message);
    return 1;
  }
  size_t n = alg_tape_ninputs(out->tape);
  size_t bytes = (n ? n : 1) * sizeof(double *);
  out->box_lo = arena_alloc(&plan->arena, bytes);
  out->box_hi = arena_alloc(&plan->arena, bytes);
  out->mid_lo = arena_alloc(&plan->arena, bytes);
  out->mid_hi = arena_alloc(&plan->arena, bytes);
  for (size_t i = 0; i < n; i++) {
    AlgSymbol *symbol = alg_tape_input(out->tape, i);
    if (add_input(plan, symbol, diags) != 0) return 1;
    for (int k = 0; k < plan->input_count; k++) {
      PredictInput *in = &plan->inputs[k];
      if (in->symbol != symbol) continue;
      out->box_lo[i] = in->box_lo;
      out->box_hi[i] = in->box_hi;
      out->mid_lo[i] = in->mid_lo;
      out->mid_hi[i] = in->mid_hi;
    }
  }
  return 0;
}

int predict_plan_init(PredictPlan *plan, const ReduceResult *r, const Sweep *sweep, DiagList *diags) {
  memset(plan, 0, sizeof *plan);
  arena_init(&plan->arena);
  plan->reduced = r;
  plan->sweep = sweep;
  plan->inputs = arena_alloc(&plan->arena, (size_t)(r->symbol_count + 1) * sizeof *plan->inputs);
  plan->term_count = r->term_count;
  plan->terms = arena_alloc(&plan->arena, (size_t)(r->term_count + 1) * sizeof *plan->terms);
  plan->scratch_lo = batch_array(&plan->arena);
  plan->scratch_hi = batch_array(&plan->arena);
  plan->term_best = batch_array(&plan->arena);
  if (compile(plan, r->t_lo, &plan->t_lo, diags) || compile(plan, r->t_hi, &plan->t_hi, diags))
    return 1;
  for (int t = 0; t < r->term_count; t++)
    if (compile(plan, r->terms[t].value, &plan->terms[t], diags)) return 1;
  plan->checks = arena_alloc(&plan->arena, (size_t)(3 * r->check_count + 1) * sizeof *plan->checks);
  memset(plan->checks, 0, (size_t)(3 * r->check_count + 1) * sizeof *plan->checks);
  plan->value_lo = batch_array(&plan->arena);
  plan->value_hi = batch_array(&plan->arena);
  plan->limit_lo = batch_array(&plan->arena);
  plan->limit_hi = batch_array(&plan->arena);
  for (int k = 0; k < r->check_count; k++) {
    const ReduceCheck *check = &r->checks[k];
    const AlgExpr *parts[3] = {check->value, check->value_hi, check->limit};
    for (int j = 0; j < 3; j++)
      if (parts[j] && compile(plan, parts[j], &plan->checks[3 * k + j], diags)) return 1;
  }
  plan->approx = arena_alloc(&plan->arena, (size_t)(r->approx_count + 1) * sizeof *plan->approx);
  memset(plan->approx, 0, (size_t)(r->approx_count + 1) * sizeof *plan->approx);
  plan->approx_on = arena_alloc(&plan->arena, (size_t)PREDICT_BATCH * (size_t)(r->approx_count + 1));
  for (int i = 0; i < r->approx_count; i++)
    if (r->approx[i].unless && compile(plan, r->approx[i].unless, &plan->approx[i], diags)) return 1;
  return 0;
}

void predict_plan_free(PredictPlan *plan) {
  if (plan->t_lo.tape) alg_tape_free(plan->t_lo.tape);
  if (plan->t_hi.tape) alg_tape_free(plan->t_hi.tape);
  for (int t = 0; plan->terms && t < plan->term_count; t++)
    if (plan->terms[t].tape) alg_tape_free(plan->terms[t].tape);
  for (int t = 0; plan->checks && plan->reduced && t < 3 * plan->reduced->check_count; t++)
    if (plan->checks[t].tape) alg_tape_free(plan->checks[t].tape);
  for (int t = 0; plan->approx && plan->reduced && t < plan->reduced->approx_count; t++)
    if (plan->approx[t].tape) alg_tape_free(plan->approx[t].tape);
  arena_free(&plan->arena);
  memset(plan, 0, sizeof *plan);
}

static int run(const PredictPlan *plan, const PredictTape *t, int npoints, int at_mid) {
  return alg_tape_eval(t->tape, (size_t)npoints,
                       at_mid ? (const double *const *)t->mid_lo : (const double *const *)t->box_lo,
                       at_mid ? (const double *const *)t->mid_hi : (const double *const *)t->box_hi,
                       plan->scratch_lo, plan->scratch_hi);
}

double predict_middle(double lo, double hi) {
  if (isfinite(lo) && isfinite(hi)) return lo + (hi - lo) / 2;
  if (lo == hi) return lo;
  return isfinite(lo) ? lo : isfinite(hi) ? hi : NAN;
}

int predict_eval(PredictPlan *plan, int npoints, const double *const *axis_values,
                 PredictBatch *out) {
  for (int i = 0; i < plan->input_count; i++) {
    PredictInput *in = &plan->inputs[i];
    if (in->axis < 0) continue;
    const double *v = axis_values[in->axis];
    memcpy(in->box_lo, v, (size_t)npoints * sizeof *v);
    memcpy(in->box_hi, v, (size_t)npoints * sizeof *v);
    memcpy(in->mid_lo, v, (size_t)npoints * sizeof *v);
    memcpy(in->mid_hi, v, (size_t)npoints * sizeof *v);
  }
  if (run(plan, &plan->t_lo, npoints, 0)) return -1;
  memcpy(out->lo, plan->scratch_lo, (size_t)npoints * sizeof(double));
  if (run(plan, &plan->t_hi, npoints, 0)) return -1;
  memcpy(out->hi, plan->scratch_hi, (size_t)npoints * sizeof(double));
  if (run(plan, &plan->t_lo, npoints, 1)) return -1;
  /* est is the lower bound at the midpoints: between lo (its least over the box) and hi, but its
  ** own rounding may put it an ulp outside; it is kept inside [lo, hi] */
  for (int k = 0; k < npoints; k++) {
    double est = predict_middle(plan->scratch_lo[k], plan->scratch_hi[k]);
    out->est[k] = est > out->hi[k] ? out->hi[k] : est < out->lo[k] ? out->lo[k] : est;
  }
  /* bottleneck: the first of the largest terms at the midpoints (critical path wins ties) */
  for (int k = 0; k < npoints; k++) {
    out->bottleneck[k] = 0;
    plan->term_best[k] = -INFINITY;
  }
  for (int t = 0; t < plan->term_count; t++) {
    if (run(plan, &plan->terms[t], npoints, 1)) return -1;
    for (int k = 0; k < npoints; k++) {
      double v = predict_middle(plan->scratch_lo[k], plan->scratch_hi[k]);
      if (v > plan->term_best[k]) {
        plan->term_best[k] = v;
        out->bottleneck[k] = t;
      }
    }
  }
  return 0;
}

/* Evaluates tape t over the box into lo/hi. */
static int run_into(const PredictTape *t, int npoints, double *lo, double *hi) {
  return alg_tape_eval(t->tape, (size_t)npoints, (const double *const *)t->box_lo,
                       (const double *const *)t->box_hi, lo, hi);
}

/* 1 when the check certainly fails at point k (values in the plan's check outputs). */
static int check_fails(const PredictPlan *plan, const ReduceCheck *check, int k, double *value) {
  double lo = plan->value_lo[k], hi = plan->value_hi[k];
  *value = hi;
  switch (check->kind) {
  case REDUCE_CHECK_NONNEG: return hi < 0;
  case REDUCE_CHECK_NONZERO: return lo == 0 && hi == 0;
  case REDUCE_CHECK_INTEGER: return lo == hi && isfinite(lo) && lo != floor(lo);
  case REDUCE_CHECK_INDEX: return hi < 0;   /* the smallest index; the largest: the caller */
  }
  return 0;
}

int predict_checks_first_failure(PredictPlan *plan, int npoints, int *failed, double *value) {
  const ReduceResult *r = plan->reduced;
  int first = npoints;
  for (int c = 0; c < r->check_count; c++) {
    const ReduceCheck *check = &r->checks[c];
    const PredictTape *tapes = &plan->checks[3 * c];
    if (!tapes[0].tape || run_into(&tapes[0], first, plan->value_lo, plan->value_hi)) return -1;
    for (int k = 0; k < first; k++) {
      double v;
      if (check_fails(plan, check, k, &v)) { first = k; *failed = c; *value = v; break; }
    }
    if (check->kind != REDUCE_CHECK_INDEX || !tapes[1].tape || !tapes[2].tape) continue;
    /* the largest index against the family size: limit_lo/hi take the largest index, then
    ** scratch the size */
    if (run_into(&tapes[1], first, plan->limit_lo, plan->limit_hi)) return -1;
    if (run_into(&tapes[2], first, plan->scratch_lo, plan->scratch_hi)) return -1;
    for (int k = 0; k < first; k++)
      if (plan->limit_lo[k] > plan->scratch_hi[k] - 1) {
        first = k; *failed = c; *value = plan->limit_lo[k];
        break;
      }
  }
  return first;
}

int predict_approx_eval(PredictPlan *plan, int npoints) {
  int count = plan->reduced->approx_count;
  memset(plan->approx_on, 1, (size_t)npoints * (size_t)count);
  for (int i = 0; i < count; i++) {
    const PredictTape *t = &plan->approx[i];
    if (!t->tape) continue;
    if (run_into(t, npoints, plan->value_lo, plan->value_hi)) return -1;
    for (int k = 0; k < npoints; k++) {   /* surely true: the interval leaves out 0 */
      double lo = plan->value_lo[k], hi = plan->value_hi[k];
      if (lo > 0 || hi < 0) plan->approx_on[(size_t)k * (size_t)count + (size_t)i] = 0;
    }
  }
  return 0;
}
