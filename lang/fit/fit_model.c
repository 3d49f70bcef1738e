/*
** fit_model.c — est at the runs' configurations as a function of the fitted consts (fit_model.h).
*/
#include "fit_model.h"

#include <stdlib.h>
#include <string.h>

#include "predict.h"

static const Decl *decl_of(const ReduceResult *r, const AlgSymbol *symbol) {
  for (int i = 0; i < r->symbol_count; i++)
    if (r->symbols[i] == symbol) return r->symbol_decls[i];
  return NULL;
}

/* Wires tape input i. 0, or 1 with an error. */
static int wire(FitModel *m, int i, DiagList *diags) {
  int n = m->runs->config_count;
  AlgSymbol *symbol = alg_tape_input(m->tape, (size_t)i);
  const Decl *decl = decl_of(m->reduced, symbol);
  if (!decl) {
    diag_report(diags, DIAG_ERROR, (SrcLoc){0}, "fit: the reduced formula uses '%s', which is not a "
                "param or const of the model", alg_symbol_name(symbol));
    return 1;
  }
  for (int j = 0; j < m->const_count; j++)
    if (m->consts[j] == decl) {
      m->kinds[i] = FIT_INPUT_CONST;
      m->index[i] = j;
      m->present[j] = 1;
      return 0;
    }
  int column = decl->kind == DECL_PARAM ? runs_column(m->runs, decl->name.name) : -1;
  if (column >= 0 && m->runs->used[column]) {
    m->kinds[i] = FIT_INPUT_COLUMN;
    m->index[i] = column;
    for (int k = 0; k < n; k++) m->in_lo[i][k] = m->in_hi[i][k] = m->runs->configs[k].values[column];
    return 0;
  }
  AlgInterval box, mid;
  if (predict_value_in_force(decl, &box, &mid, diags) != 0) return 1;
  m->kinds[i] = FIT_INPUT_FIXED;
  for (int k = 0; k < n; k++) {
    m->in_lo[i][k] = mid.lo;
    m->in_hi[i][k] = mid.hi;
  }
  return 0;
}

int fit_model_init(FitModel *m, const ReduceResult *r, const Runs *runs, const Decl *const *consts,
                   int const_count, DiagList *diags) {
  memset(m, 0, sizeof *m);
  m->reduced = r;
  m->runs = runs;
  m->const_count = const_count;
  for (int j = 0; j < const_count; j++) m->consts[j] = consts[j];
  char message[256];
  if (alg_tape_compile(r->alg, r->t_lo, &m->tape, message, sizeof message) != 0) {
    m->tape = NULL;
    diag_report(diags, DIAG_ERROR, (SrcLoc){0}, "fit: cannot compile the reduced formula: %s", message);
    return 1;
  }
  int inputs = (int)alg_tape_ninputs(m->tape);
  size_t n = (size_t)runs->config_count + 1;
  m->input_count = inputs;
  m->in_lo = calloc((size_t)inputs + 1, sizeof *m->in_lo);
  m->in_hi = calloc((size_t)inputs + 1, sizeof *m->in_hi);
  m->kinds = calloc((size_t)inputs + 1, sizeof *m->kinds);
  m->index = calloc((size_t)inputs + 1, sizeof *m->index);
  m->out_lo = malloc(n * sizeof *m->out_lo);
  m->out_hi = malloc(n * sizeof *m->out_hi);
  int failed = !m->in_lo || !m->in_hi || !m->kinds || !m->index || !m->out_lo || !m->out_hi;
  for (int i = 0; i < inputs && !failed; i++) {
    m->in_lo[i] = malloc(n * sizeof(double));
    m->in_hi[i] = malloc(n * sizeof(double));
    failed = !m->in_lo[i] || !m->in_hi[i];
  }
  if (failed) {
    diag_report(diags, DIAG_ERROR, (SrcLoc){0}, "fit: out of memory");
    return 1;
  }
  for (int i = 0; i < inputs; i++)
    if (wire(m, i, diags) != 0) return 1;
  return 0;
}

void fit_model_free(FitModel *m) {
  for (int i = 0; m->in_lo && i < m->input_count; i++) free(m->in_lo[i]);
  for (int i = 0; m->in_hi && i < m->input_count; i++) free(m->in_hi[i]);
  free(m->in_lo);
  free(m->in_hi);
  free(m->kinds);
  free(m->index);
  free(m->out_lo);
  free(m->out_hi);
  if (m->tape) alg_tape_free(m->tape);
  memset(m, 0, sizeof *m);
}

int fit_model_eval(FitModel *m, const double *theta, double *est) {
  int n = m->runs->config_count;
  for (int i = 0; i < m->input_count; i++) {
    if (m->kinds[i] != FIT_INPUT_CONST) continue;
    double v = theta[m->index[i]];
    for (int k = 0; k < n; k++) m->in_lo[i][k] = m->in_hi[i][k] = v;
  }
  if (alg_tape_eval(m->tape, (size_t)n, (const double *const *)m->in_lo, (const double *const *)m->in_hi,
                    m->out_lo, m->out_hi) != 0)
    return -1;
  for (int k = 0; k < n; k++) est[k] = predict_middle(m->out_lo[k], m->out_hi[k]);
  return 0;
}
