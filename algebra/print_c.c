/*
** print_c.c — the C printer (print_c.h): one C function per expression and per big-operator
** body, each node computed once into a local, the kernel of ival_kernel.h pasted in front.
*/
#include "print_c.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ival_kernel.h as text: ALG_KERNEL turns its code into a string instead of code. */
#define ALG_KERNEL(...) static const char kernel_text[] = #__VA_ARGS__;
#include "ival_kernel.h"
#undef ALG_KERNEL

typedef struct CPrinter {
  AlgCtx *ctx;            /* owner of the nodes */
  FILE *out;              /* the translation unit */
  const char *name;       /* prefix of every emitted name */
  int nfuncs;             /* helper functions emitted so far */
  int failed;             /* a write or an allocation failed */
} CPrinter;

typedef struct CFunc {
  CPrinter *p;            /* the printer */
  FILE *body;             /* this function's text (memstream) */
  int *memo;              /* node id -> local number + 1 */
  size_t memo_size;       /* entries in memo */
  int nlocals;            /* locals so far */
} CFunc;

static int emit_function(CPrinter *p, const AlgExpr *e);

static void put_double(FILE *f, double x) {
  if (x == INFINITY) fputs("INFINITY", f);
  else if (x == -INFINITY) fputs("(-INFINITY)", f);
  else fprintf(f, "%a", x);
}

static int emit(CFunc *f, const AlgExpr *e);

/* v = op(kids...) folded left to right. */
static int emit_fold(CFunc *f, const AlgExpr *e, const char *op) {
  int acc = emit(f, alg_kid(e, 0));
  for (size_t i = 1; i < alg_nkids(e); i++) {
    int kid = emit(f, alg_kid(e, i));
    int v = f->nlocals++;
    fprintf(f->body, "  ik_ival v%d = %s(v%d, v%d);\n", v, op, acc, kid);
    acc = v;
  }
  return acc;
}

static int emit_bigop(CFunc *f, const AlgExpr *e) {
  int lower = emit(f, alg_kid(e, 1)), upper = emit(f, alg_kid(e, 2));
  int body = emit_function(f->p, alg_kid(e, 3));
  if (body < 0) return -1;
  AlgKind kind = alg_kind(e);
  size_t index = alg_symbol_id(alg_symbol_of(e));
  const char *neutral = kind == ALG_PROD ? "ik_make(1.0, 1.0)" : "ik_make(0.0, 0.0)";
  const char *step = kind == ALG_SUM ? "ik_add(r, w)" : kind == ALG_PROD ? "ik_mul(r, w)"
                     : kind == ALG_MAXOVER ? "(first ? w : ik_max(r, w))" : "(first ? w : ik_min(r, w))";
  const char *ext = kind == ALG_SUM ? "ik_mul(count, w)"
                    : kind == ALG_PROD ? "(w.lo >= 0 ? ik_pow(w, count) : ik_entire())" : "w";
  int v = f->nlocals++;
  FILE *b = f->body;
  fprintf(b, "  ik_ival v%d;\n  {\n", v);
  fprintf(b, "    ik_ival lower = ik_ceil(v%d), upper = ik_floor(v%d), saved = s[%zu], r = %s;\n",
          lower, upper, index, neutral);
  fprintf(b, "    int points = lower.lo == lower.hi && upper.lo == upper.hi && isfinite(lower.lo) && isfinite(upper.lo);\n");
  fprintf(b, "    if (points && upper.lo < lower.lo) {\n    } else if (points && upper.lo - lower.lo < %lu.0) {\n",
          alg_ctx_loop_limit(f->p->ctx));
  fprintf(b, "      int first = 1;\n      (void)first;\n      for (double i = lower.lo; i <= upper.lo; i++, first = 0) {\n");
  fprintf(b, "        s[%zu] = ik_make(i, i);\n        ik_ival w = %s_f%d(s);\n        r = %s;\n      }\n",
          index, f->p->name, body, step);
  fprintf(b, "    } else {\n      ik_ival count = ik_max(ik_add(ik_sub(upper, lower), ik_make(1.0, 1.0)), ik_make(0.0, 0.0));\n");
  fprintf(b, "      s[%zu] = ik_make(lower.lo, upper.hi < lower.lo ? lower.lo : upper.hi);\n", index);
  fprintf(b, "      ik_ival w = %s_f%d(s);\n      r = %s;\n", f->p->name, body, ext);
  fprintf(b, "      if (count.lo < 1) r = ik_hull(r, %s);\n    }\n", neutral);
  fprintf(b, "    s[%zu] = saved;\n    v%d = r;\n  }\n", index, v);
  return v;
}

static int emit_node(CFunc *f, const AlgExpr *e) {
  AlgKind kind = alg_kind(e);
  FILE *b = f->body;
  int x, y, z, v;
  switch (kind) {
  case ALG_NUM: case ALG_IVAL: {
    AlgInterval c = alg_num_enclosure(e);
    v = f->nlocals++;
    fprintf(b, "  ik_ival v%d = ik_make(", v);
    put_double(b, c.lo);
    fputs(", ", b);
    put_double(b, c.hi);
    fputs(");\n", b);
    return v;
  }
  case ALG_SYM:
    v = f->nlocals++;
    fprintf(b, "  ik_ival v%d = s[%zu];\n", v, alg_symbol_id(alg_symbol_of(e)));
    return v;
  case ALG_ADD: return emit_fold(f, e, "ik_add");
  case ALG_MUL: {   /* a quotient divides once, as the tape does */
    AlgExpr *num, *den;
    alg_split_quotient(f->p->ctx, (AlgExpr *)e, &num, &den);
    if (!den) return emit_fold(f, e, "ik_mul");
    x = emit(f, num);
    y = emit(f, den);
    v = f->nlocals++;
    fprintf(b, "  ik_ival v%d = ik_div(v%d, v%d);\n", v, x, y);
    return v;
  }
  case ALG_MIN: return emit_fold(f, e, "ik_min");
  case ALG_MAX: return emit_fold(f, e, "ik_max");
  case ALG_AND: return emit_fold(f, e, "ik_and");
  case ALG_OR: return emit_fold(f, e, "ik_or");
  case ALG_LOWER: return alg_nkids(e) > 1 ? emit_fold(f, e, "ik_max") : emit(f, alg_kid(e, 0));
  case ALG_UPPER: return alg_nkids(e) > 1 ? emit_fold(f, e, "ik_min") : emit(f, alg_kid(e, 0));
  case ALG_SUM: case ALG_PROD: case ALG_MAXOVER: case ALG_MINOVER: return emit_bigop(f, e);
  case ALG_POW: {
    const AlgExpr *k = alg_kid(e, 1);
    x = emit(f, alg_kid(e, 0));
    if (alg_kind(k) == ALG_NUM && mpz_cmp_ui(mpq_denref(alg_num_value(k)), 1) == 0 &&
        mpz_sizeinbase(mpq_numref(alg_num_value(k)), 2) <= 61) {
      v = f->nlocals++;
      fprintf(b, "  ik_ival v%d = ik_powi(v%d, %ldLL);\n", v, x, mpz_get_si(mpq_numref(alg_num_value(k))));
      return v;
    }
    y = emit(f, k);
    v = f->nlocals++;
    fprintf(b, "  ik_ival v%d = ik_pow(v%d, v%d);\n", v, x, y);
    return v;
  }
  case ALG_MOD:
    x = emit(f, alg_kid(e, 0));
    y = emit(f, alg_kid(e, 1));
    v = f->nlocals++;
    fprintf(b, "  ik_ival v%d = ik_mod(v%d, v%d);\n", v, x, y);
    return v;
  case ALG_EQ: case ALG_NE: case ALG_LT: case ALG_LE:
    x = emit(f, alg_kid(e, 0));
    y = emit(f, alg_kid(e, 1));
    v = f->nlocals++;
    fprintf(b, "  ik_ival v%d = ik_cmp(%d, v%d, v%d);\n", v,
            kind == ALG_EQ ? 0 : kind == ALG_NE ? 1 : kind == ALG_LT ? 2 : 3, x, y);
    return v;
  case ALG_COND:
    x = emit(f, alg_kid(e, 0));
    y = emit(f, alg_kid(e, 1));
    z = emit(f, alg_kid(e, 2));
    v = f->nlocals++;
    fprintf(b, "  ik_ival v%d = ik_cond(v%d, v%d, v%d);\n", v, x, y, z);
    return v;
  default: break;
  }
  const char *fn;
  switch (kind) {
  case ALG_CEIL: fn = "ik_ceil"; break;
  case ALG_FLOOR: fn = "ik_floor"; break;
  case ALG_ABS: fn = "ik_abs"; break;
  case ALG_LOG: fn = "ik_log"; break;
  case ALG_LOG2: fn = "ik_log2"; break;
  case ALG_EXP: fn = "ik_exp"; break;
  case ALG_SQRT: fn = "ik_sqrt"; break;
  case ALG_NOT: fn = "ik_not"; break;
  default: return -1;
  }
  x = emit(f, alg_kid(e, 0));
  v = f->nlocals++;
  fprintf(b, "  ik_ival v%d = %s(v%d);\n", v, fn, x);
  return v;
}

static int emit(CFunc *f, const AlgExpr *e) {
  if (f->p->failed) return -1;
  size_t id = alg_id(e);
  if (id < f->memo_size && f->memo[id]) return f->memo[id] - 1;
  int v = emit_node(f, e);
  if (v < 0) {
    f->p->failed = 1;
    return -1;
  }
  if (id < f->memo_size) f->memo[id] = v + 1;
  return v;
}

/* static ik_ival NAME_fK(ik_ival *s): e over the symbol values s (by id). Helpers it needs are
   written before it. Returns K, or -1. */
static int emit_function(CPrinter *p, const AlgExpr *e) {
  char *text = NULL;
  size_t length = 0;
  CFunc f = {p, open_memstream(&text, &length), NULL, alg_ctx_node_count(p->ctx), 0};
  f.memo = calloc(f.memo_size ? f.memo_size : 1, sizeof *f.memo);
  if (!f.body || !f.memo) {
    if (f.body) fclose(f.body);
    free(text);
    free(f.memo);
    p->failed = 1;
    return -1;
  }
  int result = emit(&f, e);
  fclose(f.body);
  free(f.memo);
  if (result < 0) {
    free(text);
    return -1;
  }
  int k = p->nfuncs++;
  fprintf(p->out, "static ik_ival %s_f%d(ik_ival *s) {\n%s  return v%d;\n}\n\n", p->name, k, text, result);
  free(text);
  return k;
}

/* The kernel text is one line; break it before each top-level definition for readers. */
static void put_kernel(FILE *out) {
  for (const char *c = kernel_text; *c; c++) {
    if (strncmp(c, " static inline ", 15) == 0 || strncmp(c, " typedef ", 9) == 0) {
      fputc('\n', out);
      continue;
    }
    fputc(*c, out);
  }
  fputc('\n', out);
}

static int valid_name(const char *name) {
  if (!name || !(isalpha((unsigned char)*name) || *name == '_')) return 0;
  for (const char *c = name; *c; c++)
    if (!(isalnum((unsigned char)*c) || *c == '_')) return 0;
  return strlen(name) < 64;
}

/* One formula's functions NAME, NAME_batch, NAME_ninputs (the kernel already written). */
static int print_entry(FILE *out, AlgCtx *ctx, const AlgExpr *e, const char *name, char *err,
                       size_t err_size) {
  size_t nsym = alg_symbol_count(ctx);
  size_t ninputs = alg_free_symbols(ctx, e, NULL, 0);
  AlgSymbol **inputs = malloc((ninputs ? ninputs : 1) * sizeof *inputs);
  if (!inputs) {
    if (err_size) snprintf(err, err_size, "print_c: out of memory");
    return -1;
  }
  alg_free_symbols(ctx, e, inputs, ninputs);
  CPrinter p = {ctx, out, name, 0, 0};
  int top = emit_function(&p, e);
  if (top >= 0) {
    fprintf(out, "const int %s_ninputs = %zu;\n\n", name, ninputs);
    fprintf(out, "void %s(const double *in_lo, const double *in_hi, double *out_lo, double *out_hi) {\n", name);
    fprintf(out, "  ik_ival s[%zu];\n  for (size_t i = 0; i < %zu; i++) s[i] = ik_make(0.0, 0.0);\n",
            nsym ? nsym : 1, nsym ? nsym : 1);
    for (size_t i = 0; i < ninputs; i++)
      fprintf(out, "  s[%zu] = ik_make(in_lo[%zu], in_hi[%zu]);   /* %s */\n", alg_symbol_id(inputs[i]),
              i, i, alg_symbol_name(inputs[i]));
    fprintf(out, "  ik_ival r = %s_f%d(s);\n  *out_lo = r.lo;\n  *out_hi = r.hi;\n}\n\n", name, top);
    fprintf(out, "void %s_batch(size_t n, const double *const *in_lo, const double *const *in_hi,\n"
                 "    double *out_lo, double *out_hi) {\n", name);
    fprintf(out, "  for (size_t k = 0; k < n; k++) {\n    double lo[%zu], hi[%zu];\n",
            ninputs ? ninputs : 1, ninputs ? ninputs : 1);
    fprintf(out, "    for (size_t i = 0; i < %zu; i++) {\n      lo[i] = in_lo[i][k];\n      hi[i] = in_hi[i][k];\n    }\n",
            ninputs);
    fprintf(out, "    %s(lo, hi, &out_lo[k], &out_hi[k]);\n  }\n}\n\n", name);
  }
  free(inputs);
  if (top < 0 || p.failed || ferror(out)) {
    if (err_size) snprintf(err, err_size, "print_c: %s", top < 0 ? "cannot print the expression" : "write error");
    return -1;
  }
  return 0;
}

int alg_print_c_unit(FILE *out, AlgCtx *ctx, size_t count, const AlgExpr *const *exprs,
                     const char *const *names, char *err, size_t err_size) {
  for (size_t i = 0; i < count; i++)
    if (!valid_name(names[i])) {
      if (err_size) snprintf(err, err_size, "print_c: '%s' is not a C identifier", names[i] ? names[i] : "");
      return -1;
    }
  fprintf(out, "/* %s%s: interval enclosure%s of pamc formulas, generated by pamc's C printer.\n"
               "   Rounding as pamc's interval.c (see algebra/ival_kernel.h). */\n",
          count ? names[0] : "", count > 1 ? ", ..." : "", count > 1 ? "s" : "");
  fputs("#include <float.h>\n#include <math.h>\n#include <stddef.h>\n#include <stdint.h>\n"
        "#include <string.h>\n\n", out);
  put_kernel(out);
  fputc('\n', out);
  for (size_t i = 0; i < count; i++)
    if (print_entry(out, ctx, exprs[i], names[i], err, err_size) != 0) return -1;
  return 0;
}

int alg_print_c(FILE *out, AlgCtx *ctx, const AlgExpr *e, const char *name, char *err,
                size_t err_size) {
  return alg_print_c_unit(out, ctx, 1, &e, &name, err, err_size);
}
