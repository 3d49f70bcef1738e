/*
** print_json.c — expressions as JSON trees: {"num": "p/q"}, {"ival": [lo, hi]}, {"sym": name},
** {"op": kind, "args": [...]}, big operators {"op": "sum", "index": name, "args": [lo, hi, body]}.
*/
#include "expr_impl.h"

#include <math.h>
#include <stdlib.h>

static void json_string(AlgBuf *buf, const char *text) {
  alg_buf_puts(buf, "\"");
  for (const char *c = text; *c; c++) {
    if (*c == '"' || *c == '\\') alg_buf_printf(buf, "\\%c", *c);
    else if ((unsigned char)*c < 0x20) alg_buf_printf(buf, "\\u%04x", (unsigned)*c);
    else alg_buf_printf(buf, "%c", *c);
  }
  alg_buf_puts(buf, "\"");
}

static void json_double(AlgBuf *buf, double x) {
  if (isinf(x)) json_string(buf, x < 0 ? "-inf" : "inf");   /* JSON has no infinities */
  else alg_buf_double(buf, x);
}

void alg_print_json(AlgBuf *buf, const AlgExpr *e) {
  switch (e->kind) {
  case ALG_NUM: {
    char *digits = mpq_get_str(NULL, 10, e->u.num);
    alg_buf_puts(buf, "{\"num\": ");
    json_string(buf, digits);
    alg_buf_puts(buf, "}");
    free(digits);
    return;
  }
  case ALG_IVAL:
    alg_buf_puts(buf, "{\"ival\": [");
    json_double(buf, e->u.ival.lo);
    alg_buf_puts(buf, ", ");
    json_double(buf, e->u.ival.hi);
    alg_buf_puts(buf, "]}");
    return;
  case ALG_SYM:
    alg_buf_puts(buf, "{\"sym\": ");
    json_string(buf, e->u.sym->name);
    alg_buf_puts(buf, "}");
    return;
  default: break;
  }
  int bigop = e->kind >= ALG_SUM && e->kind <= ALG_MINOVER;
  alg_buf_puts(buf, "{\"op\": ");
  json_string(buf, alg_kind_name(e->kind));
  if (bigop) {
    alg_buf_puts(buf, ", \"index\": ");
    json_string(buf, e->kids[0]->u.sym->name);
  }
  alg_buf_puts(buf, ", \"args\": [");
  size_t shown = (e->kind == ALG_LOWER || e->kind == ALG_UPPER) ? 1 : e->nkids;   /* not the exact form */
  for (size_t i = bigop ? 1 : 0; i < shown; i++) {
    if (i > (bigop ? 1u : 0u)) alg_buf_puts(buf, ", ");
    alg_print_json(buf, e->kids[i]);
  }
  alg_buf_puts(buf, "]}");
}
