/*
** ex_value.c — what an integer C expression is worth as an expression of the model: literals,
** macros and constant expressions (clang evaluates them), the function's integer parameters,
** loop indices, locals assigned once; anything else the source does not determine becomes a
** named model param with a NOTE (never a silent guess).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ex_internal.h"

/* Words of the model language and its built-in functions: a C name equal to one is renamed. */
static const char *const reserved[] = {
  "import", "param", "const", "fn", "resource", "process", "in", "fcfs", "ps", "hold", "handoff",
  "typ", "delay", "use", "seq", "par", "repeat", "if", "else", "choose", "skip", "and", "or",
  "not", "min", "max", "ceil", "floor", "abs", "sqrt", "log", "log2", "exp", "sum", "prod", "lo",
  "hi", "mid", "width", "main", "P", "threads", "rank", "cores", NULL};

const char *ex_model_name(ExCtx *x, const char *c_name) {
  for (int i = 0; reserved[i]; i++)
    if (!strcmp(reserved[i], c_name)) {
      char buf[256];
      snprintf(buf, sizeof buf, "c_%s", c_name);
      return arena_strdup(&x->arena, buf);
    }
  return arena_strdup(&x->arena, c_name);
}

int ex_is_integer_type(CXType t) {
  const char *name = ex_type_name(t);
  CXType c = clang_getCanonicalType(t);
  return name && c.kind != CXType_Pointer && (!strcmp(name, "int") || !strcmp(name, "long") ||
                                              !strcmp(name, "char"));
}

CXCursor ex_strip(CXCursor e) {
  for (;;) {
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr && k != CXCursor_CStyleCastExpr)
      return e;
    int n = 0;
    CXCursor *kids = ex_children(e, &n);
    CXCursor next = n >= 1 ? kids[n - 1] : e;
    free(kids);
    if (n < 1 || (k == CXCursor_UnexposedExpr && n != 1)) return e;
    e = next;
  }
}

CXCursor ex_referenced_var(CXCursor e) {
  e = ex_strip(e);
  if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return clang_getNullCursor();
  CXCursor d = clang_getCursorReferenced(e);
  enum CXCursorKind k = clang_getCursorKind(d);
  if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl) return clang_getNullCursor();
  return d;
}

ExVar *ex_var_find(ExCtx *x, CXCursor decl) {
  for (int i = x->nvars - 1; i >= 0; i--)
    if (clang_equalCursors(x->vars[i].decl, decl)) return &x->vars[i];
  return NULL;
}

ExVar *ex_var_add(ExCtx *x, CXCursor decl) {
  ExVar *v = ex_var_find(x, decl);
  if (v) return v;
  x->vars = ex_grow(x->vars, &x->vars_cap, x->nvars, sizeof *x->vars);
  v = &x->vars[x->nvars++];
  *v = (ExVar){decl, NULL, 0, 0, ex_offset_start(decl)};
  return v;
}

AlgExpr *ex_unknown_param(ExCtx *x, CXCursor at, const char *base, const char *value, const char *why) {
  char name[256];
  snprintf(name, sizeof name, "%s", ex_model_name(x, base));
  for (int serial = 2;; serial++) {
    int taken = 0;
    for (int i = 0; i < x->nparams && !taken; i++) taken = !strcmp(x->params[i].name, name);
    for (int i = 0; i < x->nfuncs && !taken; i++) taken = !strcmp(x->funcs[i].model_name, name);
    if (!taken) break;
    snprintf(name, sizeof name, "%s_%d", ex_model_name(x, base), serial);
  }
  char note[1024];
  snprintf(note, sizeof note, "%s: %s (`%s`): set it with -D %s=...", ex_where(x, at), why,
           ex_source_line(x, at), name);
  x->params = ex_grow(x->params, &x->params_cap, x->nparams, sizeof *x->params);
  x->params[x->nparams++] = (ExParam){arena_strdup(&x->arena, name), value, arena_strdup(&x->arena, note)};
  AlgAssume a = {0, strchr(value, '.') ? 1 : INFINITY, strchr(value, '.') == NULL};   /* a count, or a probability */
  return alg_sym(x->alg, alg_symbol_new(x->alg, x->params[x->nparams - 1].name, ALG_SYM_PARAM, a));
}

/* clang's value of a constant integer expression (or a const variable's initialiser), or NULL. */
static AlgExpr *evaluate(ExCtx *x, CXCursor c) {
  CXEvalResult r = clang_Cursor_Evaluate(c);
  AlgExpr *value = NULL;
  if (r && clang_EvalResult_getKind(r) == CXEval_Int)
    value = alg_num_int(x->alg, (long)clang_EvalResult_getAsLongLong(r));
  if (r) clang_EvalResult_dispose(r);
  return value;
}

/* The value of a variable: an index, a parameter, a local assigned once; a global constant. */
static AlgExpr *var_value(ExCtx *x, CXCursor decl) {
  ExVar *v = ex_var_find(x, decl);
  if (v && v->index) return v->value;
  if (v && !v->modified && v->value) return v->value;
  if (!v && clang_getCursorKind(decl) == CXCursor_VarDecl &&
      clang_getCursorKind(clang_getCursorSemanticParent(decl)) == CXCursor_TranslationUnit &&
      clang_isConstQualifiedType(clang_getCursorType(decl)))
    return evaluate(x, decl);
  return NULL;
}

static AlgExpr *binary_value(ExCtx *x, CXCursor e) {
  int n = 0;
  CXCursor *kids = ex_children(e, &n);
  AlgExpr *a = n == 2 ? ex_value(x, kids[0]) : NULL;
  AlgExpr *b = n == 2 && a ? ex_value(x, kids[1]) : NULL;
  free(kids);
  if (!a || !b) return NULL;
  char op[8];
  ex_operator(e, op, sizeof op, NULL);
  AlgCtx *g = x->alg;
  if (!strcmp(op, "+")) return alg_add(g, a, b);
  if (!strcmp(op, "-")) return alg_sub(g, a, b);
  if (!strcmp(op, "*")) return alg_mul(g, a, b);
  if (!strcmp(op, "/")) return alg_func(g, ALG_FLOOR, alg_div(g, a, b));   /* C: toward zero */
  if (!strcmp(op, "%")) return alg_mod(g, a, b);
  if (!strcmp(op, "<<")) return alg_mul(g, a, alg_pow(g, alg_num_int(g, 2), b));
  if (!strcmp(op, ">>")) return alg_func(g, ALG_FLOOR, alg_div(g, a, alg_pow(g, alg_num_int(g, 2), b)));
  if (!strcmp(op, "<")) return alg_cmp(g, ALG_CMP_LT, a, b);
  if (!strcmp(op, "<=")) return alg_cmp(g, ALG_CMP_LE, a, b);
  if (!strcmp(op, ">")) return alg_cmp(g, ALG_CMP_GT, a, b);
  if (!strcmp(op, ">=")) return alg_cmp(g, ALG_CMP_GE, a, b);
  if (!strcmp(op, "==")) return alg_cmp(g, ALG_CMP_EQ, a, b);
  if (!strcmp(op, "!=")) return alg_cmp(g, ALG_CMP_NE, a, b);
  if (!strcmp(op, "&&")) return alg_and(g, a, b);
  if (!strcmp(op, "||")) return alg_or(g, a, b);
  return NULL;
}

AlgExpr *ex_value(ExCtx *x, CXCursor e) {
  e = ex_strip(e);
  enum CXCursorKind k = clang_getCursorKind(e);
  switch (k) {
  case CXCursor_IntegerLiteral: case CXCursor_CharacterLiteral: case CXCursor_UnaryExpr:
    return evaluate(x, e);
  case CXCursor_DeclRefExpr: {
    CXCursor d = clang_getCursorReferenced(e);
    if (clang_getCursorKind(d) == CXCursor_EnumConstantDecl)
      return alg_num_int(x->alg, (long)clang_getEnumConstantDeclValue(d));
    return var_value(x, d);
  }
  case CXCursor_BinaryOperator: return binary_value(x, e);
  case CXCursor_CallExpr: {
    CXString s = clang_getCursorSpelling(e);
    AlgExpr *v = ex_par_value(x, clang_getCString(s));
    clang_disposeString(s);
    return v;
  }
  case CXCursor_UnaryOperator: {
    char op[8];
    ex_operator(e, op, sizeof op, NULL);
    int n = 0;
    CXCursor *kids = ex_children(e, &n);
    AlgExpr *a = n == 1 ? ex_value(x, kids[0]) : NULL;
    free(kids);
    if (!a) return NULL;
    if (!strcmp(op, "-")) return alg_neg(x->alg, a);
    if (!strcmp(op, "+")) return a;
    if (!strcmp(op, "!")) return alg_not(x->alg, a);
    return NULL;
  }
  default: return NULL;
  }
}

/* ---- which variables change after their declaration ---- */

static void mark_target(ExCtx *x, CXCursor target) {
  CXCursor d = ex_referenced_var(target);
  if (!clang_Cursor_isNull(d)) ex_var_add(x, d)->modified = 1;
}

static enum CXChildVisitResult scan(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  ExCtx *x = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_CallExpr) {
    CXString s = clang_getCursorSpelling(c);
    int bind = !strcmp(clang_getCString(s), "MPI_Comm_rank") || !strcmp(clang_getCString(s), "MPI_Comm_size");
    clang_disposeString(s);
    if (bind) ex_mpi_bind(x, c);
    if (bind) return CXChildVisit_Continue;
  }
  if (k != CXCursor_BinaryOperator && k != CXCursor_CompoundAssignOperator && k != CXCursor_UnaryOperator)
    return CXChildVisit_Recurse;
  char op[8];
  ex_operator(c, op, sizeof op, NULL);
  int assigns = k == CXCursor_CompoundAssignOperator || !strcmp(op, "=") || !strcmp(op, "++") ||
                !strcmp(op, "--") || !strcmp(op, "&");
  if (assigns) {
    int n = 0;
    CXCursor *kids = ex_children(c, &n);
    if (n >= 1) mark_target(x, kids[0]);
    free(kids);
  }
  return CXChildVisit_Recurse;
}

void ex_scan_modified(ExCtx *x, CXCursor body) {
  clang_visitChildren(body, scan, x);
}
