/*
** parse_text.c — reads the text form that print.c writes back into expressions (for round-trip
** tests and for tools that store formulas as text). One function per grammar rule.
*/
#include "expr_impl.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ALG_PARSE_MAX_NAME 128    /* longest symbol or function name */
#define ALG_PARSE_MAX_ARGS 256    /* most arguments of one call (max/min) */
#define ALG_PARSE_MAX_DEPTH 500   /* nesting, keeps the recursion bounded */

typedef struct Reader {
  AlgCtx *ctx;          /* where the nodes go */
  const char *text;     /* whole input */
  const char *at;       /* next character */
  char *err;            /* message buffer */
  size_t err_size;      /* its size */
  int failed;           /* an error was reported (the first one is kept) */
  int depth;            /* current nesting */
} Reader;

static AlgExpr *expr(Reader *r);

static AlgExpr *fail(Reader *r, const char *message) {
  if (!r->failed && r->err && r->err_size)
    snprintf(r->err, r->err_size, "column %ld: %s", (long)(r->at - r->text) + 1, message);
  r->failed = 1;
  return NULL;
}

static void skip_space(Reader *r) {
  while (isspace((unsigned char)*r->at)) r->at++;
}

/* Consumes token if it is next (whole word for keywords). */
static int accept(Reader *r, const char *token) {
  skip_space(r);
  size_t n = strlen(token);
  if (strncmp(r->at, token, n) != 0) return 0;
  if (isalpha((unsigned char)token[0]) && (isalnum((unsigned char)r->at[n]) || r->at[n] == '_')) return 0;
  r->at += n;
  return 1;
}

static int expect(Reader *r, const char *token) {
  if (accept(r, token)) return 1;
  char message[64];
  snprintf(message, sizeof message, "expected '%s'", token);
  fail(r, message);
  return 0;
}

static int read_name(Reader *r, char *name) {
  skip_space(r);
  size_t n = 0;
  if (!isalpha((unsigned char)*r->at) && *r->at != '_') return 0;
  while ((isalnum((unsigned char)*r->at) || *r->at == '_') && n + 1 < ALG_PARSE_MAX_NAME)
    name[n++] = *r->at++;
  name[n] = '\0';
  return 1;
}

/* number := digits ['.' digits] [exponent] */
static AlgExpr *number(Reader *r) {
  const char *start = r->at;
  while (isdigit((unsigned char)*r->at) || *r->at == '.' || *r->at == '_') r->at++;
  if ((*r->at == 'e' || *r->at == 'E') &&
      (isdigit((unsigned char)r->at[1]) || ((r->at[1] == '-' || r->at[1] == '+') && isdigit((unsigned char)r->at[2])))) {
    r->at += 2;
    while (isdigit((unsigned char)*r->at)) r->at++;
  }
  char literal[128];
  size_t n = (size_t)(r->at - start);
  if (n >= sizeof literal) return fail(r, "number too long");
  memcpy(literal, start, n);
  literal[n] = '\0';
  AlgExpr *value;
  if (alg_num_decimal(r->ctx, literal, &value)) return fail(r, "malformed number");
  return value;
}

/* bound := ['-'] (number | 'inf') — an end of an interval constant */
static int bound(Reader *r, double *out) {
  int negative = accept(r, "-");
  if (accept(r, "inf")) *out = INFINITY;
  else {
    skip_space(r);
    char *end;
    *out = strtod(r->at, &end);
    if (end == r->at) {
      fail(r, "expected a number");
      return 0;
    }
    r->at = end;
  }
  if (negative) *out = -*out;
  return 1;
}

static AlgKind call_kind(const char *name) {
  for (int k = ALG_MIN; k < ALG_KIND_COUNT; k++) {
    if (k >= ALG_EQ && k <= ALG_COND) continue;
    if (strcmp(name, alg_kind_name((AlgKind)k)) == 0) return (AlgKind)k;
  }
  return ALG_KIND_COUNT;
}

/* bigop := NAME '(' name ',' expr ',' expr ',' expr ')' */
static AlgExpr *bigop(Reader *r, AlgKind kind) {
  char index[ALG_PARSE_MAX_NAME];
  if (!read_name(r, index)) return fail(r, "expected an index name");
  if (!expect(r, ",")) return NULL;
  AlgExpr *lower = expr(r);
  if (!lower || !expect(r, ",")) return NULL;
  AlgExpr *upper = expr(r);
  if (!upper || !expect(r, ",")) return NULL;
  AlgSymbol *sym = alg_index_new(r->ctx, index, lower, upper);
  AlgExpr *body = expr(r);
  if (!body || !expect(r, ")")) return NULL;
  return alg_bigop(r->ctx, kind, sym, lower, upper, body);
}

/* call := NAME '(' expr {',' expr} ')' */
static AlgExpr *call(Reader *r, AlgKind kind) {
  if (kind >= ALG_SUM && kind <= ALG_MINOVER) return bigop(r, kind);
  AlgExpr *args[ALG_PARSE_MAX_ARGS];
  size_t n = 0;
  do {
    if (n == ALG_PARSE_MAX_ARGS) return fail(r, "too many arguments");
    if (!(args[n++] = expr(r))) return NULL;
  } while (accept(r, ","));
  if (!expect(r, ")")) return NULL;
  switch (kind) {
  case ALG_MIN: return alg_min_n(r->ctx, n, args);
  case ALG_MAX: return alg_max_n(r->ctx, n, args);
  case ALG_LOWER: case ALG_UPPER:
    if (n != 1) return fail(r, "a marker takes one argument");
    return alg_approx(r->ctx, kind == ALG_LOWER ? ALG_DIR_LOWER : ALG_DIR_UPPER, args[0]);
  case ALG_CEIL: case ALG_FLOOR: case ALG_ABS: case ALG_LOG: case ALG_LOG2: case ALG_EXP: case ALG_SQRT:
    if (n != 1) return fail(r, "a function of one argument");
    return alg_func(r->ctx, kind, args[0]);
  default:
    return fail(r, "not a function");
  }
}

/* atom := number | NAME | call | '(' expr ')' | '[' bound ',' bound ']' */
static AlgExpr *atom(Reader *r) {
  skip_space(r);
  if (isdigit((unsigned char)*r->at) || *r->at == '.') return number(r);
  if (accept(r, "(")) {
    AlgExpr *inner = expr(r);
    return inner && expect(r, ")") ? inner : NULL;
  }
  if (accept(r, "[")) {
    double lo, hi;
    if (!bound(r, &lo) || !expect(r, ",") || !bound(r, &hi) || !expect(r, "]")) return NULL;
    if (!(lo <= hi)) return fail(r, "interval with lo > hi");
    return alg_ival(r->ctx, lo, hi);
  }
  char name[ALG_PARSE_MAX_NAME];
  if (!read_name(r, name)) return fail(r, "expected an expression");
  if (accept(r, "(")) {
    AlgKind kind = call_kind(name);
    if (kind == ALG_KIND_COUNT) return fail(r, "unknown function");
    return call(r, kind);
  }
  AlgSymbol *sym = alg_symbol_find(r->ctx, name);
  if (!sym) return fail(r, "unknown symbol");
  return alg_sym(r->ctx, sym);
}

static AlgExpr *unary(Reader *r);

/* power := atom ['^' unary] */
static AlgExpr *power(Reader *r) {
  AlgExpr *base = atom(r);
  if (!base || !accept(r, "^")) return base;
  AlgExpr *exponent = unary(r);
  return exponent ? alg_pow(r->ctx, base, exponent) : NULL;
}

/* unary := '-' unary | power */
static AlgExpr *unary(Reader *r) {
  if (++r->depth > ALG_PARSE_MAX_DEPTH) return fail(r, "nested too deeply");
  AlgExpr *result;
  if (accept(r, "-")) {
    result = unary(r);
    if (result) result = alg_neg(r->ctx, result);
  } else result = power(r);
  r->depth--;
  return result;
}

/* product := unary {('*' | '/' | '%') unary} */
static AlgExpr *product(Reader *r) {
  AlgExpr *left = unary(r);
  while (left) {
    int op = accept(r, "*") ? '*' : accept(r, "/") ? '/' : accept(r, "%") ? '%' : 0;
    if (!op) break;
    AlgExpr *right = unary(r);
    if (!right) return NULL;
    left = op == '*' ? alg_mul(r->ctx, left, right) : op == '/' ? alg_div(r->ctx, left, right)
                                                                : alg_mod(r->ctx, left, right);
  }
  return left;
}

/* sum := product {('+' | '-') product} */
static AlgExpr *sum(Reader *r) {
  AlgExpr *left = product(r);
  while (left) {
    int op = accept(r, "+") ? '+' : accept(r, "-") ? '-' : 0;
    if (!op) break;
    AlgExpr *right = product(r);
    if (!right) return NULL;
    left = op == '+' ? alg_add(r->ctx, left, right) : alg_sub(r->ctx, left, right);
  }
  return left;
}

/* comparison := sum [('==' | '!=' | '<=' | '>=' | '<' | '>') sum] */
static AlgExpr *comparison(Reader *r) {
  static const struct { const char *token; AlgCmp op; } ops[] = {
    {"==", ALG_CMP_EQ}, {"!=", ALG_CMP_NE}, {"<=", ALG_CMP_LE}, {">=", ALG_CMP_GE},
    {"<", ALG_CMP_LT}, {">", ALG_CMP_GT},
  };
  AlgExpr *left = sum(r);
  if (!left) return NULL;
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (accept(r, ops[i].token)) {
      AlgExpr *right = sum(r);
      return right ? alg_cmp(r->ctx, ops[i].op, left, right) : NULL;
    }
  return left;
}

/* negation := 'not' negation | comparison */
static AlgExpr *negation(Reader *r) {
  if (!accept(r, "not")) return comparison(r);
  AlgExpr *inner = negation(r);
  return inner ? alg_not(r->ctx, inner) : NULL;
}

/* conjunction := negation {'and' negation} */
static AlgExpr *conjunction(Reader *r) {
  AlgExpr *left = negation(r);
  while (left && accept(r, "and")) {
    AlgExpr *right = negation(r);
    left = right ? alg_and(r->ctx, left, right) : NULL;
  }
  return left;
}

/* disjunction := conjunction {'or' conjunction} */
static AlgExpr *disjunction(Reader *r) {
  AlgExpr *left = conjunction(r);
  while (left && accept(r, "or")) {
    AlgExpr *right = conjunction(r);
    left = right ? alg_or(r->ctx, left, right) : NULL;
  }
  return left;
}

/* expr := disjunction ['?' expr ':' expr] */
static AlgExpr *expr(Reader *r) {
  if (++r->depth > ALG_PARSE_MAX_DEPTH) return fail(r, "nested too deeply");
  AlgExpr *result = disjunction(r);
  if (result && accept(r, "?")) {
    AlgExpr *then_value = expr(r);
    AlgExpr *else_value = then_value && expect(r, ":") ? expr(r) : NULL;
    result = else_value ? alg_cond(r->ctx, result, then_value, else_value) : NULL;
  }
  r->depth--;
  return result;
}

int alg_parse_text(AlgCtx *ctx, const char *text, AlgExpr **out, char *err, size_t err_size) {
  Reader r = {ctx, text, text, err, err_size, 0, 0};
  AlgExpr *result = expr(&r);
  skip_space(&r);
  if (result && *r.at != '\0') result = fail(&r, "unexpected text after the expression");
  if (!result) return -1;
  *out = result;
  return 0;
}
