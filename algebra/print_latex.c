/*
** print_latex.c — expressions in LaTeX math mode (\frac, \max, \sum_{i=a}^{b}, cases, ...).
*/
#include "expr_impl.h"

#include <stdlib.h>

typedef struct LatexPrinter {
  AlgCtx *ctx;    /* for fractions */
  AlgBuf *buf;    /* output */
} LatexPrinter;

/* Binding strength, weakest first. */
enum { LP_COND = 1, LP_LOGIC, LP_CMP, LP_ADD, LP_MUL, LP_POW, LP_ATOM };

static void latex(LatexPrinter *p, const AlgExpr *e, int prec);

static void open_paren(LatexPrinter *p, int own, int prec) {
  if (own < prec) alg_buf_puts(p->buf, "\\left(");
}

static void close_paren(LatexPrinter *p, int own, int prec) {
  if (own < prec) alg_buf_puts(p->buf, "\\right)");
}

static void latex_factors(LatexPrinter *p, mpz_srcptr coef, const AlgExpr *ival, const AlgExpr **bases,
                          AlgExpr **exponents, size_t n) {
  int first = 1;
  if (mpz_cmp_ui(coef, 1) != 0 || (n == 0 && !ival)) {
    char *digits = mpz_get_str(NULL, 10, coef);
    alg_buf_puts(p->buf, digits);
    free(digits);
    first = 0;
  }
  if (ival) {
    latex(p, ival, LP_ATOM);
    first = 0;
  }
  for (size_t i = 0; i < n; i++) {
    if (!first) alg_buf_puts(p->buf, " \\cdot ");
    first = 0;
    if (exponents && !alg_is_num(exponents[i], 1)) {
      latex(p, bases[i], LP_ATOM);
      alg_buf_puts(p->buf, "^{");
      latex(p, exponents[i], LP_COND);
      alg_buf_puts(p->buf, "}");
    } else latex(p, bases[i], LP_MUL + 1);
  }
}

static void latex_product(LatexPrinter *p, const AlgExpr *e, int prec) {
  AlgFraction f;
  alg_fraction(p->ctx, e, &f);
  int has_den = mpz_cmp_ui(mpq_denref(f.coef), 1) != 0 || f.nden > 0;
  int own = f.negative ? LP_ADD : LP_MUL;
  open_paren(p, own, prec);
  if (f.negative) alg_buf_puts(p->buf, "-");
  if (has_den) alg_buf_puts(p->buf, "\\frac{");
  latex_factors(p, mpq_numref(f.coef), f.ival, f.num, NULL, f.nnum);
  if (has_den) {
    alg_buf_puts(p->buf, "}{");
    latex_factors(p, mpq_denref(f.coef), NULL, f.den, f.den_exp, f.nden);
    alg_buf_puts(p->buf, "}");
  }
  close_paren(p, own, prec);
  alg_fraction_clear(&f);
}

static void latex_list(LatexPrinter *p, const AlgExpr *e, const char *name) {
  alg_buf_puts(p->buf, name);
  alg_buf_puts(p->buf, "\\left(");
  for (size_t i = 0; i < e->nkids; i++) {
    if (i) alg_buf_puts(p->buf, ", ");
    latex(p, e->kids[i], LP_COND);
  }
  alg_buf_puts(p->buf, "\\right)");
}

static void latex_wrap(LatexPrinter *p, const AlgExpr *e, const char *left, const char *right) {
  alg_buf_puts(p->buf, left);
  latex(p, e, LP_COND);
  alg_buf_puts(p->buf, right);
}

static void latex_binary(LatexPrinter *p, const AlgExpr *e, int own, int prec, const char *op) {
  open_paren(p, own, prec);
  for (size_t i = 0; i < e->nkids; i++) {
    if (i) alg_buf_puts(p->buf, op);
    latex(p, e->kids[i], own + 1);
  }
  close_paren(p, own, prec);
}

static const char *bigop_name(AlgKind kind) {
  switch (kind) {
  case ALG_SUM: return "\\sum";
  case ALG_PROD: return "\\prod";
  case ALG_MAXOVER: return "\\max";
  default: return "\\min";
  }
}

static void latex(LatexPrinter *p, const AlgExpr *e, int prec) {
  AlgBuf *b = p->buf;
  switch (e->kind) {
  case ALG_NUM: case ALG_MUL: latex_product(p, e, prec); return;
  case ALG_IVAL:
    alg_buf_puts(b, "\\left[");
    alg_buf_double(b, e->u.ival.lo);
    alg_buf_puts(b, ", ");
    alg_buf_double(b, e->u.ival.hi);
    alg_buf_puts(b, "\\right]");
    return;
  case ALG_SYM: alg_buf_printf(b, "\\mathit{%s}", e->u.sym->name); return;
  case ALG_ADD:
    open_paren(p, LP_ADD, prec);
    for (size_t i = 0; i < e->nkids; i++) {
      if (i) alg_buf_puts(b, " + ");
      latex(p, e->kids[i], LP_ADD);
    }
    close_paren(p, LP_ADD, prec);
    return;
  case ALG_POW:
    if (e->kids[1]->kind == ALG_NUM && mpq_sgn(e->kids[1]->u.num) < 0) {
      latex_product(p, e, prec);
      return;
    }
    open_paren(p, LP_POW, prec);
    latex(p, e->kids[0], LP_ATOM);
    latex_wrap(p, e->kids[1], "^{", "}");
    close_paren(p, LP_POW, prec);
    return;
  case ALG_MOD: latex_binary(p, e, LP_MUL, prec, " \\bmod "); return;
  case ALG_MIN: latex_list(p, e, "\\min"); return;
  case ALG_MAX: latex_list(p, e, "\\max"); return;
  case ALG_CEIL: latex_wrap(p, e->kids[0], "\\left\\lceil ", "\\right\\rceil"); return;
  case ALG_FLOOR: latex_wrap(p, e->kids[0], "\\left\\lfloor ", "\\right\\rfloor"); return;
  case ALG_ABS: latex_wrap(p, e->kids[0], "\\left|", "\\right|"); return;
  case ALG_LOG: latex_list(p, e, "\\ln"); return;
  case ALG_LOG2: latex_list(p, e, "\\log_2"); return;
  case ALG_EXP: latex_wrap(p, e->kids[0], "e^{", "}"); return;
  case ALG_SQRT: latex_wrap(p, e->kids[0], "\\sqrt{", "}"); return;
  case ALG_EQ: latex_binary(p, e, LP_CMP, prec, " = "); return;
  case ALG_NE: latex_binary(p, e, LP_CMP, prec, " \\neq "); return;
  case ALG_LT: latex_binary(p, e, LP_CMP, prec, " < "); return;
  case ALG_LE: latex_binary(p, e, LP_CMP, prec, " \\leq "); return;
  case ALG_AND: latex_binary(p, e, LP_LOGIC, prec, " \\land "); return;
  case ALG_OR: latex_binary(p, e, LP_LOGIC, prec, " \\lor "); return;
  case ALG_NOT:
    alg_buf_puts(b, "\\lnot ");
    latex(p, e->kids[0], LP_ATOM);
    return;
  case ALG_COND:
    alg_buf_puts(b, "\\begin{cases}");
    latex(p, e->kids[1], LP_COND);
    alg_buf_puts(b, " & \\text{if } ");
    latex(p, e->kids[0], LP_COND);
    alg_buf_puts(b, " \\\\ ");
    latex(p, e->kids[2], LP_COND);
    alg_buf_puts(b, " & \\text{otherwise}\\end{cases}");
    return;
  case ALG_SUM: case ALG_PROD: case ALG_MAXOVER: case ALG_MINOVER:
    open_paren(p, LP_ADD, prec);
    alg_buf_printf(b, "%s_{", bigop_name(e->kind));
    latex(p, e->kids[0], LP_COND);
    alg_buf_puts(b, " = ");
    latex(p, e->kids[1], LP_COND);
    alg_buf_puts(b, "}^{");
    latex(p, e->kids[2], LP_COND);
    alg_buf_puts(b, "} ");
    latex(p, e->kids[3], LP_MUL);
    close_paren(p, LP_ADD, prec);
    return;
  case ALG_LOWER: latex_wrap(p, e->kids[0], "\\underline{", "}"); return;
  case ALG_UPPER: latex_wrap(p, e->kids[0], "\\overline{", "}"); return;
  default: return;
  }
}

void alg_print_latex(AlgCtx *ctx, AlgBuf *buf, const AlgExpr *e) {
  LatexPrinter p = {ctx, buf};
  latex(&p, e, LP_COND);
}
