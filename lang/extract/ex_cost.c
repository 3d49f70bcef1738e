/*
** ex_cost.c — cost vectors: how many times each machine constant (or each call's cost) is paid
** by a piece of C code, as expressions of the function's parameters and loop indices; their
** sums over loops (closed forms from pamc's algebra), and the names of the machine constants.
*/
#include <stdlib.h>
#include <string.h>

#include "ex_internal.h"

void ex_cost_free(ExCost *c) {
  free(c->terms);
  c->terms = NULL;
  c->count = c->cap = 0;
}

static int same_args(const ExTerm *t, AlgExpr **args, int nargs) {
  if (t->nargs != nargs) return 0;
  for (int i = 0; i < nargs; i++)
    if (t->args[i] != args[i]) return 0;   /* hash-consed: equal expressions are one pointer */
  return 1;
}

void ex_cost_add_term(ExCtx *x, ExCost *c, const char *name, AlgExpr **args, int nargs, AlgExpr *count) {
  for (int i = 0; i < c->count; i++) {
    ExTerm *t = &c->terms[i];
    if (!strcmp(t->name, name) && same_args(t, args, nargs)) {
      t->count = alg_add(x->alg, t->count, count);
      return;
    }
  }
  c->terms = ex_grow(c->terms, &c->cap, c->count, sizeof *c->terms);
  AlgExpr **copy = NULL;
  if (nargs) copy = arena_memdup(&x->arena, args, (size_t)nargs * sizeof *args);
  c->terms[c->count++] = (ExTerm){name, copy, nargs, count};
}

void ex_cost_add(ExCtx *x, ExCost *to, const ExCost *from, AlgExpr *factor) {
  for (int i = 0; i < from->count; i++) {
    const ExTerm *t = &from->terms[i];
    AlgExpr *count = factor ? alg_mul(x->alg, factor, t->count) : t->count;
    ex_cost_add_term(x, to, t->name, t->args, t->nargs, count);
  }
}

int ex_cost_empty(const ExCost *c) {
  for (int i = 0; i < c->count; i++)
    if (!alg_is_num(c->terms[i].count, 0)) return 0;
  return 1;
}

int ex_cost_depends(const ExCost *c, AlgSymbol *index) {
  for (int i = 0; i < c->count; i++) {
    if (alg_contains(c->terms[i].count, index)) return 1;
    for (int k = 0; k < c->terms[i].nargs; k++)
      if (alg_contains(c->terms[i].args[k], index)) return 1;
  }
  return 0;
}

int ex_contains_bigop(const AlgExpr *e) {
  AlgKind k = alg_kind(e);
  if (k == ALG_SUM || k == ALG_PROD || k == ALG_MAXOVER || k == ALG_MINOVER || k == ALG_LOWER ||
      k == ALG_UPPER)
    return 1;
  for (size_t i = 0; i < alg_nkids(e); i++)
    if (ex_contains_bigop(alg_kid(e, i))) return 1;
  return 0;
}

int ex_cost_sum(ExCtx *x, ExCost *out, const ExCost *c, AlgSymbol *index, AlgExpr *lo, AlgExpr *hi) {
  for (int i = 0; i < c->count; i++)
    for (int k = 0; k < c->terms[i].nargs; k++)
      if (alg_contains(c->terms[i].args[k], index)) return 0;
  ExCost sum = {NULL, 0, 0};
  for (int i = 0; i < c->count; i++) {
    const ExTerm *t = &c->terms[i];
    AlgExpr *total;
    if (alg_contains(t->count, index)) {
      total = alg_sum(x->alg, index, lo, hi, t->count);
      if (ex_contains_bigop(total)) {
        ex_cost_free(&sum);
        return 0;
      }
    } else {
      AlgExpr *trip = alg_max(x->alg, alg_num_int(x->alg, 0),
                              alg_add(x->alg, alg_sub(x->alg, hi, lo), alg_num_int(x->alg, 1)));
      total = alg_mul(x->alg, trip, t->count);
    }
    ex_cost_add_term(x, &sum, t->name, t->args, t->nargs, total);
  }
  ex_cost_add(x, out, &sum, NULL);
  ex_cost_free(&sum);
  return 1;
}

const char *ex_use_const(ExCtx *x, const char *name) {
  for (int i = 0; i < x->nconsts; i++)
    if (!strcmp(x->consts[i], name)) return x->consts[i];
  x->consts = ex_grow(x->consts, &x->consts_cap, x->nconsts, sizeof *x->consts);
  const char *kept = x->consts[x->nconsts++] = arena_strdup(&x->arena, name);
  size_t n = strlen(name);
  int op = !strncmp(name, "t_", 2) && strncmp(name, "t_read", 6) && strncmp(name, "t_write", 7) &&
           strncmp(name, "t_copy", 6);
  if (op && (n < 3 || strcmp(name + n - 3, "_tp"))) {   /* the ranged charge names its throughput */
    char tp[160];
    snprintf(tp, sizeof tp, "%s_tp", name);
    ex_use_const(x, tp);
  }
  return kept;
}

const char *ex_type_name(CXType t) {
  CXType c = clang_getCanonicalType(t);
  switch (c.kind) {
  case CXType_Bool: case CXType_Char_U: case CXType_UChar: case CXType_Char_S: case CXType_SChar:
    return "char";
  case CXType_Short: case CXType_UShort: case CXType_Int: case CXType_UInt: case CXType_Enum:
    return "int";
  case CXType_Long: case CXType_ULong: case CXType_LongLong: case CXType_ULongLong:
  case CXType_Pointer: case CXType_Int128: case CXType_UInt128:
    return "long";
  case CXType_Float: return "float";
  case CXType_Double: case CXType_LongDouble: return "double";
  default: return NULL;
  }
}

const char *ex_op_const(ExCtx *x, const char *op, CXType t, int throughput) {
  const char *type = ex_type_name(t);
  if (!type) return NULL;
  char name[64];
  snprintf(name, sizeof name, "t_%s_%s%s", op, type, throughput ? "_tp" : "");
  return ex_use_const(x, name);
}
