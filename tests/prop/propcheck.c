/*
** propcheck.c — one property check (propcheck.h): loader, checker, reduction and simulator on
** one model text. Built without PROP_HAVE_REDUCE (before the reduction is in the build) it checks
** only that the model loads, checks and simulates.
*/
#include "propcheck.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "eval.h"
#include "program.h"
#include "sim.h"

/* tests/prop/module.mk defines PROP_HAVE_REDUCE once lang/module.mk builds the reduction. */
#ifdef PROP_HAVE_REDUCE
#include "expr.h"
#include "reduce.h"
#endif

const char *prop_status_name(PropStatus status) {
  switch (status) {
  case PROP_OK: return "ok";
  case PROP_INVALID: return "invalid model";
  case PROP_SIM_ERROR: return "simulator error";
  case PROP_REDUCE_ERROR: return "reduce error";
  case PROP_VIOLATION: return "bound violated";
  case PROP_NO_REDUCE: return "no reduce";
  }
  return "?";
}

/* First message of diags as text. */
static void prop_first_diag(const DiagList *diags, char *buf, size_t size) {
  buf[0] = 0;
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  if (!mem) return;
  diag_print(diags, mem);
  fclose(mem);
  snprintf(buf, size, "%s", text ? text : "");
  char *nl = strchr(buf, '\n');
  if (nl) *nl = 0;
  free(text);
}

static const SimScenario prop_scenarios[5] = {SIM_SCENARIO_LO, SIM_SCENARIO_MID, SIM_SCENARIO_HI,
                                              SIM_SCENARIO_RANDOM, SIM_SCENARIO_TYP};
static const char *const prop_scenario_names[5] = {"lo", "mid", "hi", "random", "typ"};

/* a <= b up to rounding. */
static int prop_le(double a, double b) {
  double scale = fmax(fabs(a), fabs(b));
  return a <= b + PROP_REL_TOL * scale;
}

/* The property for one set of -D values (define may be NULL). */
static PropStatus prop_check_one(const char *name, const char *text, uint64_t seed,
                                 const ProgramDefine *define, PropOutcome *out) {
  memset(out, 0, sizeof *out);
  out->scenario = "";
  DiagList diags;
  diag_init(&diags);
  Program prog;
  ProgramOptions popts = {NULL, 0, define, define ? 1 : 0, NULL};
  ProgramStatus status = program_load_string(&prog, &diags, name, text, &popts);
  if (status != PROGRAM_OK || check_program(&prog) != 0 || !program_entry(&prog)) {
    out->status = PROP_INVALID;
    prop_first_diag(&diags, out->message, sizeof out->message);
    program_free(&prog);
    diag_free(&diags);
    return out->status;
  }
  /* The simulator runs a program of its own: the reduction rewrites holds of delays as uses
  ** (reduce_lower.c), and the simulation must still run the holds as written. */
  Program sim_prog;
  DiagList sim_diags;
  diag_init(&sim_diags);
  if (program_load_string(&sim_prog, &sim_diags, name, text, &popts) != PROGRAM_OK || check_program(&sim_prog) != 0)
    abort();   /* the same text loaded and checked just above */
  const Decl *entry = program_entry(&sim_prog);
  out->status = PROP_NO_REDUCE;
#ifdef PROP_HAVE_REDUCE
  ReduceOptions ropts;
  memset(&ropts, 0, sizeof ropts);
  ReduceResult red;
  memset(&red, 0, sizeof red);
  int reduced = reduce_program(&prog, &ropts, &red, &diags) == 0;
  AlgInterval *env_box = NULL, *env_mid = NULL, *env_typ = NULL;
  if (!reduced) {
    out->status = PROP_REDUCE_ERROR;
    prop_first_diag(&diags, out->message, sizeof out->message);
  } else {
    size_t nsym = alg_symbol_count(red.alg);
    env_box = calloc(nsym + 1, sizeof *env_box);
    env_mid = calloc(nsym + 1, sizeof *env_mid);
    env_typ = calloc(nsym + 1, sizeof *env_typ);
    if (!env_box || !env_mid || !env_typ) abort();
    for (size_t k = 0; k < nsym; k++) env_box[k] = env_mid[k] = env_typ[k] = ival_entire();
    for (int k = 0; k < red.symbol_count; k++) {
      const Decl *decl = red.symbol_decls[k];
      if (!decl) continue;
      size_t id = alg_symbol_id(red.symbols[k]);
      EvalEnv env;
      eval_env_init(&env);
      EvalError err;
      AlgInterval value;
      if (eval_decl_value(&env, decl, &value, &err) == EVAL_OK) env_box[id] = value;
      env.pick = EVAL_PICK_MID;
      if (eval_decl_value(&env, decl, &value, &err) == EVAL_OK) env_mid[id] = value;
      env.pick = EVAL_PICK_TYP;
      if (eval_decl_value(&env, decl, &value, &err) == EVAL_OK) env_typ[id] = value;
    }
    out->lo_box = alg_eval_tree(red.alg, red.t_lo, env_box).lo;
    out->hi_box = alg_eval_tree(red.alg, red.t_hi, env_box).hi;
    out->lo_mid = alg_eval_tree(red.alg, red.t_lo, env_mid).lo;
    out->lo_typ = alg_eval_tree(red.alg, red.t_lo, env_typ).lo;
    out->status = PROP_OK;
    if (isnan(out->lo_box) || isnan(out->hi_box) || isnan(out->lo_mid)) {
      out->status = PROP_REDUCE_ERROR;
      snprintf(out->message, sizeof out->message, "bounds evaluate to NaN: [%g, %g] mid %g",
               out->lo_box, out->hi_box, out->lo_mid);
    }
  }
#endif
  for (int s = 0; s < 5 && (out->status == PROP_OK || out->status == PROP_NO_REDUCE); s++) {
    SimOptions opts = {prop_scenarios[s], seed, s == 3 ? PROP_RANDOM_RUNS : 1, NULL, NULL, 0, 0};
    SimReport report;
    SimError err;
    if (sim_simulate(entry, &opts, &report, &err) != 0) {
      out->status = PROP_SIM_ERROR;
      out->scenario = prop_scenario_names[s];
      snprintf(out->message, sizeof out->message, "%s:%d:%d: %s", name, err.loc.line, err.loc.col,
               err.message);
      break;
    }
    double tmin = report.time_min, tmax = report.time_max;
    sim_report_free(&report);
    if (out->status == PROP_NO_REDUCE) continue;
    const char *which = NULL;
    if (!prop_le(out->lo_box, tmin)) { which = "inf T_lo(box) > simulated"; out->simulated = tmin; }
    else if (!prop_le(tmax, out->hi_box)) { which = "simulated > sup T_hi(box)"; out->simulated = tmax; }
    else if (s == 1 && !prop_le(out->lo_mid, tmin)) { which = "T_lo(mid) > simulated(mid)"; out->simulated = tmin; }
    else if (s == 4 && !prop_le(out->lo_typ, tmin)) { which = "T_lo(typ) > simulated(typ)"; out->simulated = tmin; }
    if (which) {
      out->status = PROP_VIOLATION;
      out->scenario = prop_scenario_names[s];
      snprintf(out->message, sizeof out->message,
               "%s: scenario %s, simulated %.17g, T_lo(box) >= %.17g, T_hi(box) <= %.17g, T_lo(mid) >= %.17g",
               which, out->scenario, out->simulated, out->lo_box, out->hi_box, out->lo_mid);
    }
  }
#ifdef PROP_HAVE_REDUCE
  free(env_box);
  free(env_mid);
  free(env_typ);
  reduce_result_free(&red);
#endif
  program_free(&sim_prog);
  diag_free(&sim_diags);
  program_free(&prog);
  diag_free(&diags);
  return out->status;
}

PropStatus prop_check_text(const char *name, const char *text, uint64_t seed, PropOutcome *out) {
  PropStatus status = prop_check_one(name, text, seed, NULL, out);
  /* The reduction is symbolic in the params: hold it also at every admissible value of P. */
  if ((status != PROP_OK && status != PROP_NO_REDUCE) || !strstr(text, "param P = ")) return status;
  for (int value = PROP_P_MIN; value <= PROP_P_MAX; value++) {
    char value_text[16], raw[24];
    snprintf(value_text, sizeof value_text, "%d", value);
    snprintf(raw, sizeof raw, "P=%d", value);
    ProgramDefine define = {"P", value_text, raw};
    status = prop_check_one(name, text, seed, &define, out);
    if (status != PROP_OK && status != PROP_NO_REDUCE) {
      size_t len = strlen(out->message);
      snprintf(out->message + len, sizeof out->message - len, " (with -D P=%d)", value);
      return status;
    }
  }
  return status;
}
