/*
** ex_stmt.c — C statements as model statements: straight-line code as one delay of its counted
** operations; loops with counts derived from the source (closed sums where the algebra finds
** them, `seq` loops otherwise) or from `#pragma pamc loop_count(E)` or a named param; branches on
** parameters and indices as `if`, data-dependent ones as `choose` (expected cost inside loops);
** calls to functions with source as process calls.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ex_internal.h"

ExItem *ex_block_push(ExCtx *x, ExBlock *b, ExItemKind kind, CXCursor at) {
  b->items = ex_grow(b->items, &b->cap, b->count, sizeof *b->items);
  ExItem *it = &b->items[b->count++];
  memset(it, 0, sizeof *it);
  it->kind = kind;
  it->where = ex_where(x, at);
  it->source = ex_source_line(x, at);
  return it;
}

void ex_block_free(ExBlock *b) {
  for (int i = 0; i < b->count; i++) {
    ex_cost_free(&b->items[i].cost);
    ex_block_free(&b->items[i].body);
    ex_block_free(&b->items[i].other);
  }
  free(b->items);
  b->items = NULL;
  b->count = b->cap = 0;
}

int ex_block_pure(const ExBlock *b) {
  for (int i = 0; i < b->count; i++) {
    const ExItem *it = &b->items[i];
    if (it->kind == EX_COST) continue;
    if ((it->kind == EX_IF || it->kind == EX_CHOOSE) && ex_block_pure(&it->body) && ex_block_pure(&it->other))
      continue;
    return 0;
  }
  return 1;
}

/* The cost of a pure block: an `if` as its condition times each branch, a `choose` as the
** expected cost p * then + (1 - p) * else. */
void ex_block_cost(ExCtx *x, const ExBlock *b, ExCost *out) {
  for (int i = 0; i < b->count; i++) {
    const ExItem *it = &b->items[i];
    if (it->kind == EX_COST) {
      ex_cost_add(x, out, &it->cost, NULL);
      continue;
    }
    ExCost yes = {NULL, 0, 0}, no = {NULL, 0, 0};
    ex_block_cost(x, &it->body, &yes);
    ex_block_cost(x, &it->other, &no);
    AlgExpr *p = it->kind == EX_IF ? alg_cond(x->alg, it->cond, alg_num_int(x->alg, 1), alg_num_int(x->alg, 0))
                                   : it->cond;
    ex_cost_add(x, out, &yes, p);
    ex_cost_add(x, out, &no, alg_sub(x->alg, alg_num_int(x->alg, 1), p));
    ex_cost_free(&yes);
    ex_cost_free(&no);
  }
}

/* Appends cost as a delay item (nothing when it is empty). */
static ExItem *push_cost(ExCtx *x, ExBlock *out, CXCursor at, ExCost *cost) {
  if (ex_cost_empty(cost)) {
    ex_cost_free(cost);
    return NULL;
  }
  ExItem *it = ex_block_push(x, out, EX_COST, at);
  it->cost = *cost;
  *cost = (ExCost){NULL, 0, 0};
  return it;
}

/* The process call of f at call (its integer arguments). */
static void push_call(ExCtx *x, ExBlock *out, CXCursor call, ExFunc *f) {
  int n = 0;
  CXCursor *kids = ex_children(call, &n);
  ExItem *it = ex_block_push(x, out, EX_CALL, call);
  it->name = f->model_name;
  it->args = arena_alloc(&x->arena, (size_t)(n + 1) * sizeof *it->args);
  for (int i = 1; i < n; i++) {
    if (!ex_is_integer_type(clang_getCursorType(kids[i]))) continue;
    AlgExpr *v = ex_value(x, kids[i]);
    if (!v) v = ex_unknown_param(x, kids[i], "arg", "100", "an argument not known from the source");
    it->args[it->nargs++] = v;
  }
  free(kids);
}

/* An expression statement: its operations, then the calls that are statements of their own. */
static int walk_expr(ExCtx *x, CXCursor e, ExBlock *out) {
  ExCost cost = {NULL, 0, 0};
  int first_pending = x->npending;
  int status = ex_count_expr(x, e, &cost);
  if (status) {
    ex_cost_free(&cost);
    return status;
  }
  push_cost(x, out, e, &cost);
  for (int i = first_pending; i < x->npending && !status; i++) {
    CXCursor call = x->pending[i];
    CXString s = clang_getCursorSpelling(call);
    ExFunc *f = ex_func_find(x, clang_getCString(s));
    clang_disposeString(s);
    if (f) push_call(x, out, call, f);
    else if (ex_par_call(x, call, out) < 0) status = -1;
  }
  x->npending = first_pending;
  return status;
}

/* ---- loops ---- */

typedef struct Loop {
  CXCursor init, cond, inc, body;   /* null cursors where absent */
  CXCursor var;                     /* the index variable's declaration, or null */
  AlgExpr *lo;                      /* its first value */
  AlgExpr *bound;                   /* the other side of the condition */
  char cmp[4];                      /* the condition's operator, index on the left */
  long step;                        /* +1, -1, +s */
} Loop;

/* Finds which children of a for statement are its init, cond, inc and body (absent parts have no
** cursor): by where they start against the header's semicolons. */
static void for_parts(CXCursor s, Loop *l) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(s);
  CXToken *tokens = NULL;
  unsigned nt = 0;
  clang_tokenize(tu, ex_range(s), &tokens, &nt);
  unsigned semi[2] = {0, 0}, close = 0;
  int depth = 0, semis = 0;
  for (unsigned i = 0; i < nt && !close; i++) {
    CXString sp = clang_getTokenSpelling(tu, tokens[i]);
    const char *t = clang_getCString(sp);
    unsigned off = 0;
    clang_getExpansionLocation(clang_getTokenLocation(tu, tokens[i]), NULL, NULL, NULL, &off);
    if (!strcmp(t, "(")) depth++;
    else if (!strcmp(t, ")") && --depth == 0) close = off;
    else if (!strcmp(t, ";") && depth == 1 && semis < 2) semi[semis++] = off;
    clang_disposeString(sp);
  }
  clang_disposeTokens(tu, tokens, nt);
  int n = 0;
  CXCursor *kids = ex_children(s, &n);
  for (int i = 0; i < n; i++) {
    unsigned off = ex_offset_start(kids[i]);
    if (off < semi[0]) l->init = kids[i];
    else if (off < semi[1]) l->cond = kids[i];
    else if (off < close) l->inc = kids[i];
    else l->body = kids[i];
  }
  free(kids);
}

/* `return`, `goto` anywhere, or `break` of this loop in body: the count is not the header's. */
static enum CXChildVisitResult find_return(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt) {
    *(int *)data = 1;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Recurse;
}

static enum CXChildVisitResult find_exit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt || k == CXCursor_BreakStmt) {
    *(int *)data = 1;
    return CXChildVisit_Break;
  }
  /* a break inside an inner loop or switch is its own; only return and goto leave this loop */
  if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt || k == CXCursor_SwitchStmt) {
    clang_visitChildren(c, find_return, data);
    return *(int *)data ? CXChildVisit_Break : CXChildVisit_Continue;
  }
  return CXChildVisit_Recurse;
}

typedef struct Writes { CXCursor var; int found; } Writes;
static enum CXChildVisitResult find_write(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  Writes *w = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator || k == CXCursor_UnaryOperator) {
    char op[8];
    ex_operator(c, op, sizeof op, NULL);
    if (k == CXCursor_CompoundAssignOperator || !strcmp(op, "=") || !strcmp(op, "++") ||
        !strcmp(op, "--") || !strcmp(op, "&")) {
      int n = 0;
      CXCursor *kids = ex_children(c, &n);
      if (n >= 1 && clang_equalCursors(ex_referenced_var(kids[0]), w->var)) w->found = 1;
      free(kids);
    }
  }
  return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int has_exit(CXCursor body) {
  int found = 0;
  if (!clang_Cursor_isNull(body)) clang_visitChildren(body, find_exit, &found);
  return found;
}

/* A local named in a loop bound whose value the source does not give becomes a param named
** after it (one per variable). */
static enum CXChildVisitResult name_unknowns(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  ExCtx *x = data;
  if (clang_getCursorKind(c) != CXCursor_DeclRefExpr) return CXChildVisit_Recurse;
  CXCursor d = clang_getCursorReferenced(c);
  if (clang_getCursorKind(d) != CXCursor_VarDecl || !ex_is_integer_type(clang_getCursorType(d)))
    return CXChildVisit_Continue;
  ExVar *var = ex_var_find(x, d);
  if (!var || var->modified || var->index || var->value) return CXChildVisit_Continue;
  CXString s = clang_getCursorSpelling(d);
  AlgExpr *p = ex_unknown_param(x, d, clang_getCString(s), "100", "a loop bound whose value the source does not give");
  clang_disposeString(s);
  ex_var_find(x, d)->value = p;
  return CXChildVisit_Continue;
}

static AlgExpr *bound_value(ExCtx *x, CXCursor e) {
  AlgExpr *v = ex_value(x, e);
  if (v) return v;
  if (clang_getCursorKind(ex_strip(e)) == CXCursor_DeclRefExpr) name_unknowns(ex_strip(e), e, x);
  else clang_visitChildren(e, name_unknowns, x);
  return ex_value(x, e);
}

/* Reads `i = lo` / `int i = lo`, `i < b` (and <=, >, >=, !=, or reversed) and `i++`, `i += s`. */
static int analyse_for(ExCtx *x, Loop *l) {
  if (clang_Cursor_isNull(l->init) || clang_Cursor_isNull(l->cond) || clang_Cursor_isNull(l->inc)) return 0;
  int n = 0;
  CXCursor *kids = ex_children(l->init, &n);
  CXCursor init_value = clang_getNullCursor();
  if (clang_getCursorKind(l->init) == CXCursor_DeclStmt && n == 1) {
    l->var = kids[0];
    int m = 0;
    CXCursor *vk = ex_children(kids[0], &m);
    if (m >= 1) init_value = vk[m - 1];
    free(vk);
  } else if (clang_getCursorKind(l->init) == CXCursor_BinaryOperator && n == 2) {
    char op[8];
    ex_operator(l->init, op, sizeof op, NULL);
    if (!strcmp(op, "=")) {
      l->var = ex_referenced_var(kids[0]);
      init_value = kids[1];
    }
  }
  free(kids);
  if (clang_Cursor_isNull(l->var) || clang_Cursor_isNull(init_value)) return 0;
  if (!ex_is_integer_type(clang_getCursorType(l->var))) return 0;
  l->lo = bound_value(x, init_value);
  if (!l->lo) return 0;
  /* condition */
  CXCursor cond = ex_strip(l->cond);
  if (clang_getCursorKind(cond) != CXCursor_BinaryOperator) return 0;
  kids = ex_children(cond, &n);
  char op[8];
  ex_operator(cond, op, sizeof op, NULL);
  int left = n == 2 && clang_equalCursors(ex_referenced_var(kids[0]), l->var);
  int right = n == 2 && clang_equalCursors(ex_referenced_var(kids[1]), l->var);
  CXCursor other = left ? kids[1] : kids[0];
  free(kids);
  if (left == right) return 0;
  static const char *const flips[][2] = {{"<", ">"}, {"<=", ">="}, {">", "<"}, {">=", "<="}, {"!=", "!="}};
  int known = 0;
  for (int i = 0; i < 5; i++)
    if (!strcmp(op, flips[i][0])) {
      snprintf(l->cmp, sizeof l->cmp, "%s", left ? flips[i][0] : flips[i][1]);
      known = 1;
    }
  if (!known) return 0;
  /* the bound must not change in the body: a variable bound must be unmodified */
  l->bound = bound_value(x, other);
  if (!l->bound) return 0;
  /* step */
  CXCursor inc = ex_strip(l->inc);
  kids = ex_children(inc, &n);
  ex_operator(inc, op, sizeof op, NULL);
  int on_var = n >= 1 && clang_equalCursors(ex_referenced_var(kids[0]), l->var);
  l->step = 0;
  if (on_var && clang_getCursorKind(inc) == CXCursor_UnaryOperator)
    l->step = !strcmp(op, "++") ? 1 : !strcmp(op, "--") ? -1 : 0;
  else if (on_var && n == 2 && clang_getCursorKind(inc) == CXCursor_CompoundAssignOperator) {
    AlgExpr *s = ex_value(x, kids[1]);
    int ok = s != NULL;
    long v = s ? alg_num_long(s, &ok) : 0;
    if (ok) {
      l->step = !strcmp(op, "+=") ? v : !strcmp(op, "-=") ? -v : 0;
    }
  }
  free(kids);
  if (l->step == 0) return 0;
  if (l->step > 0 && l->cmp[0] == '>') return 0;
  if (l->step < 0 && (l->cmp[0] == '<' || !strcmp(l->cmp, "!="))) return 0;
  if (!strcmp(l->cmp, "!=") && l->step != 1) return 0;
  Writes w = {l->var, 0};
  clang_visitChildren(l->body, find_write, &w);
  return !w.found;
}

/* The trip count and the last value of the index of an analysed loop. */
static AlgExpr *trip_count(ExCtx *x, const Loop *l) {
  AlgCtx *g = x->alg;
  long s = labs(l->step);
  AlgExpr *span = l->step > 0 ? alg_sub(g, l->bound, l->lo) : alg_sub(g, l->lo, l->bound);
  AlgExpr *trip;
  int inclusive = !strcmp(l->cmp, "<=") || !strcmp(l->cmp, ">=");
  if (inclusive) trip = alg_add(g, alg_func(g, ALG_FLOOR, alg_div(g, span, alg_num_int(g, s))), alg_num_int(g, 1));
  else trip = alg_func(g, ALG_CEIL, alg_div(g, span, alg_num_int(g, s)));
  return alg_max(g, alg_num_int(g, 0), trip);
}

typedef struct LoopShape {
  AlgExpr *trip;          /* iterations */
  AlgSymbol *index;       /* symbol the body's costs may use, NULL: none */
  AlgExpr *first, *last;  /* its range */
  const char *how;        /* how the count was found, for the comment */
} LoopShape;

/* Binds the index of an analysed loop: for a unit step the C index itself ranges lo..last; for
** another step a counter k = 0 .. trip - 1 and the C index is lo + step * k. */
static void bind_index(ExCtx *x, const Loop *l, LoopShape *shape) {
  AlgCtx *g = x->alg;
  CXString s = clang_getCursorSpelling(l->var);
  const char *cname = ex_model_name(x, clang_getCString(s));
  clang_disposeString(s);
  ExVar *v = ex_var_add(x, l->var);
  if (l->step == 1) {
    int inclusive = !strcmp(l->cmp, "<=");
    shape->first = l->lo;
    shape->last = inclusive ? l->bound : alg_sub(g, l->bound, alg_num_int(g, 1));
    shape->index = alg_index_new(g, cname, shape->first, shape->last);
    v->value = alg_sym(g, shape->index);
  } else {
    char name[256];
    snprintf(name, sizeof name, "%s_k", cname);
    shape->first = alg_num_int(g, 0);
    shape->last = alg_sub(g, shape->trip, alg_num_int(g, 1));
    shape->index = alg_index_new(g, arena_strdup(&x->arena, name), shape->first, shape->last);
    v->value = alg_add(g, l->lo, alg_mul(g, alg_num_int(g, l->step), alg_sym(g, shape->index)));
  }
  v->index = 1;
}

/* A loop's count from a pragma, else a param that says so. */
static void unknown_trip(ExCtx *x, CXCursor s, LoopShape *shape, const char *why) {
  ExPragma *p = ex_pragma_for(x, s, "loop_count");
  if (p) {
    AlgExpr *e = ex_pragma_expr(x, s, p);
    shape->trip = e ? e : alg_num_int(x->alg, 0);
    shape->how = arena_strdup(&x->arena, "count from #pragma pamc loop_count");
    return;
  }
  char base[256];
  snprintf(base, sizeof base, "%s_loop%u", x->func->model_name, ex_line(s));
  shape->trip = ex_unknown_param(x, s, base, "100", why);
  shape->how = "count not derivable: a param (NOTE above)";
}

/* Emits a loop: init once, then trip times (cond + inc + body), then the last cond test. */
static int emit_loop(ExCtx *x, CXCursor s, ExBlock *out, ExCost *once, ExCost *per_iter, ExBlock *body,
                     LoopShape *shape, const ExOmp *omp) {
  AlgCtx *g = x->alg;
  if (omp) return ex_omp_share(x, s, omp, shape->index, shape->first, shape->trip, once, per_iter, body, out);
  if (ex_block_pure(body)) {
    ExCost iter = {NULL, 0, 0}, total = {NULL, 0, 0};
    ex_cost_add(x, &iter, per_iter, NULL);
    ex_block_cost(x, body, &iter);
    int closed = 1;
    if (shape->index && ex_cost_depends(&iter, shape->index))
      closed = ex_cost_sum(x, &total, &iter, shape->index, shape->first, shape->last);
    else
      ex_cost_add(x, &total, &iter, shape->trip);
    if (closed) {
      ex_cost_add(x, &total, once, NULL);
      ExItem *it = push_cost(x, out, s, &total);
      if (it) it->note = arena_strdup(&x->arena, shape->how);
      if (it && shape->trip) {
        char note[512];
        snprintf(note, sizeof note, "%s iterations; %s", alg_print(g, shape->trip, ALG_FMT_TEXT), shape->how);
        it->note = arena_strdup(&x->arena, note);
      }
      ex_cost_free(&iter);
      ex_cost_free(once);
      ex_cost_free(per_iter);
      ex_block_free(body);
      return 0;
    }
    ex_cost_free(&iter);
    ex_cost_free(&total);
  }
  /* a seq loop: the body keeps its structure; a par when it creates threads */
  int spawns = 0;
  for (int i = 0; i < body->count; i++) spawns |= body->items[i].kind == EX_SPAWN;
  push_cost(x, out, s, once);
  ExItem *it = ex_block_push(x, out, spawns ? EX_PAR : EX_SEQ, s);
  it->note = spawns ? "threads created in a loop (pthread_create): they run at once on the cores" : shape->how;
  if (shape->index) {
    it->index = shape->index;
    it->lo = shape->first;
    it->hi = shape->last;
  } else {
    AlgExpr *one = alg_num_int(g, 1);
    it->index = alg_index_new(g, "iter", one, shape->trip);
    it->lo = one;
    it->hi = shape->trip;
  }
  ExBlock inner = {NULL, 0, 0};
  push_cost(x, &inner, s, per_iter);
  for (int i = 0; i < body->count; i++) {
    inner.items = ex_grow(inner.items, &inner.cap, inner.count, sizeof *inner.items);
    inner.items[inner.count++] = body->items[i];
  }
  free(body->items);
  *body = (ExBlock){NULL, 0, 0};
  if (spawns) ex_on_cores(x, &inner);
  out->items[out->count - 1].body = inner;
  return 0;
}

/* text with the object-like macros of the source replaced by their bodies (a few rounds). */
static const char *expand_macros(ExCtx *x, const char *text) {
  for (int round = 0; round < 8; round++) {
    char out[2048];
    size_t used = 0;
    int changed = 0;
    for (const char *t = text; *t && used + 1 < sizeof out;) {
      if ((*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z') || *t == '_') {
        const char *b = t;
        while ((*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z') || (*t >= '0' && *t <= '9') || *t == '_') t++;
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(t - b), b);
        const char *body = ex_macro(x, name);
        int k = body ? snprintf(out + used, sizeof out - used, "(%s)", body)
                     : snprintf(out + used, sizeof out - used, "%s", name);
        if (k > 0 && used + (size_t)k < sizeof out) used += (size_t)k;
        changed |= body != NULL;
      } else {
        out[used++] = *t++;
      }
    }
    out[used] = '\0';
    text = arena_strdup(&x->arena, out);
    if (!changed) break;
  }
  return text;
}

AlgExpr *ex_pragma_expr(ExCtx *x, CXCursor at, ExPragma *p) {
  /* names the model does not know yet become params the user sets */
  const char *text = expand_macros(x, p->text);
  const char *t = text;
  while (*t) {
    if ((*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z') || *t == '_') {
      const char *b = t;
      while ((*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z') || (*t >= '0' && *t <= '9') || *t == '_') t++;
      char name[128];
      snprintf(name, sizeof name, "%.*s", (int)(t - b), b);
      static const char *const funcs[] = {"min", "max", "ceil", "floor", "abs", "sqrt", "log", "log2",
                                          "exp", "and", "or", "not", NULL};
      int known = alg_symbol_find(x->alg, name) != NULL;
      for (int i = 0; funcs[i] && !known; i++) known = !strcmp(funcs[i], name);
      if (!known) {
        char why[256];
        snprintf(why, sizeof why, "a name used in #pragma pamc %s(%s) at line %u", p->kind, p->text, p->line);
        ex_unknown_param(x, at, name, "100", why);
      }
    } else if (*t >= '0' && *t <= '9') {
      while ((*t >= '0' && *t <= '9') || *t == '.' || *t == '_' || (*t >= 'a' && *t <= 'z') ||
             (*t >= 'A' && *t <= 'Z') || ((*t == '-' || *t == '+') && (t[-1] == 'e' || t[-1] == 'E')))
        t++;   /* a number with its exponent and unit */
    } else {
      t++;
    }
  }
  char err[256];
  AlgExpr *e = NULL;
  if (alg_parse_text(x->alg, text, &e, err, sizeof err) != 0) {
    ex_error(x, at, "#pragma pamc %s(%s) at line %u: %s", p->kind, p->text, p->line, err);
    return NULL;
  }
  return e;
}

/* Walks a loop body with the loop state set (chains are variables declared outside it). */
static int walk_body(ExCtx *x, CXCursor body, ExBlock *out) {
  unsigned saved_start = x->loop_start, saved_end = x->loop_end;
  int saved_in = x->in_loop;
  x->loop_start = ex_offset_start(body);
  x->loop_end = ex_offset_end(body);
  x->in_loop = 1;
  int status = clang_Cursor_isNull(body) ? 0 : ex_walk_stmt(x, body, out);
  x->loop_start = saved_start;
  x->loop_end = saved_end;
  x->in_loop = saved_in;
  return status;
}

/* Walks a loop body as one level of the loop nest (ex_memory.c): an outermost loop's nest is
** charged the traffic of its data from beyond the L1 cache, per iteration (in iter). */
static int walk_nest(ExCtx *x, CXCursor body, ExBlock *out, const LoopShape *shape, ExCost *iter) {
  if (x->nloops >= EX_MAX_DEPTH) return walk_body(x, body, out);
  AlgExpr *trip = shape->trip ? shape->trip : alg_num_int(x->alg, 1);
  for (int l = 0; l < x->nloops; l++)   /* a triangular count: at most its outer index's last */
    if (x->loops[l].index && alg_contains(trip, x->loops[l].index))
      trip = alg_subst(x->alg, trip, x->loops[l].index, x->loops[l].last);
  x->loops[x->nloops++] = (ExLoopLevel){shape->index, trip, shape->last};
  int status = walk_body(x, body, out);
  x->nloops--;
  if (!status && x->nloops == 0) ex_footprint_charge(x, iter, trip);
  return status;
}

static int count_in_loop(ExCtx *x, CXCursor e, CXCursor body, ExCost *cost) {
  if (clang_Cursor_isNull(e)) return 0;
  unsigned saved_start = x->loop_start, saved_end = x->loop_end;
  int saved_in = x->in_loop;
  x->loop_start = ex_offset_start(body);
  x->loop_end = ex_offset_end(body);
  x->in_loop = 1;
  int status = ex_count_expr(x, e, cost);
  x->loop_start = saved_start;
  x->loop_end = saved_end;
  x->in_loop = saved_in;
  return status;
}

int ex_walk_for(ExCtx *x, CXCursor s, ExBlock *out, const ExOmp *omp) {
  Loop l;
  memset(&l, 0, sizeof l);
  l.init = l.cond = l.inc = l.body = l.var = clang_getNullCursor();
  for_parts(s, &l);
  LoopShape shape = {NULL, NULL, NULL, NULL, "count from the loop header"};
  ExCost once = {NULL, 0, 0}, iter = {NULL, 0, 0};
  int status = 0;
  if (!clang_Cursor_isNull(l.init)) {
    ExBlock init = {NULL, 0, 0};
    status = ex_walk_stmt(x, l.init, &init);
    ex_block_cost(x, &init, &once);
    ex_block_free(&init);
  }
  ExPragma *p = NULL;
  int derived = !status && analyse_for(x, &l) && !has_exit(l.body);
  if (derived && (p = ex_pragma_for(x, s, "loop_count")) != NULL) derived = 0, p->used = 0;
  if (derived) {
    shape.trip = trip_count(x, &l);
    bind_index(x, &l, &shape);
  } else {
    if (!clang_Cursor_isNull(l.var)) {
      ExVar *v = ex_var_add(x, l.var);   /* still an index (its step overlaps), of no known value */
      v->index = 1;
      v->value = NULL;
    }
    unknown_trip(x, s, &shape, "a for loop whose count the source does not determine (a bound "
                 "computed at run time, a break or return, or an index changed in the body)");
  }
  if (!status) status = count_in_loop(x, l.cond, l.body, &iter);
  if (!status) status = count_in_loop(x, l.inc, l.body, &iter);
  if (!status && !clang_Cursor_isNull(l.cond)) {
    ExCost last = {NULL, 0, 0};
    status = ex_count_expr(x, l.cond, &last);   /* the test that ends the loop */
    if (shape.index && ex_cost_depends(&last, shape.index)) ex_cost_free(&last);
    else ex_cost_add(x, &once, &last, NULL);
    ex_cost_free(&last);
  }
  ExBlock body = {NULL, 0, 0};
  if (!status) status = walk_nest(x, l.body, &body, &shape, &iter);
  if (!status) status = emit_loop(x, s, out, &once, &iter, &body, &shape, omp);
  ex_cost_free(&once);
  ex_cost_free(&iter);
  ex_block_free(&body);
  return status;
}

/* while (c) body: count from a pragma or a param; c is tested trip + 1 times. do: trip times. */
static int walk_while(ExCtx *x, CXCursor s, ExBlock *out, int is_do) {
  int n = 0;
  CXCursor *kids = ex_children(s, &n);
  CXCursor cond = n == 2 ? kids[is_do ? 1 : 0] : clang_getNullCursor();
  CXCursor bodyc = n == 2 ? kids[is_do ? 0 : 1] : clang_getNullCursor();
  free(kids);
  LoopShape shape = {NULL, NULL, NULL, NULL, ""};
  unknown_trip(x, s, &shape, is_do ? "a do-while loop (its count is not in the source)"
                                   : "a while loop (its count is not in the source)");
  ExCost once = {NULL, 0, 0}, iter = {NULL, 0, 0};
  int status = count_in_loop(x, cond, bodyc, &iter);
  if (!status && !is_do && !clang_Cursor_isNull(cond)) status = ex_count_expr(x, cond, &once);
  ExBlock body = {NULL, 0, 0};
  if (!status) status = walk_nest(x, bodyc, &body, &shape, &iter);
  if (!status) status = emit_loop(x, s, out, &once, &iter, &body, &shape, NULL);
  ex_cost_free(&once);
  ex_cost_free(&iter);
  ex_block_free(&body);
  return status;
}

/* ---- branches ---- */

/* The probability of a data-dependent branch: a pragma, else a param (default 0.5, NOTE). */
static AlgExpr *branch_probability(ExCtx *x, CXCursor s, const char **text) {
  ExPragma *p = ex_pragma_for(x, s, "probability");
  if (p) {
    AlgExpr *e = ex_pragma_expr(x, s, p);
    *text = p->text;
    return e ? e : alg_num_frac(x->alg, 1, 2);
  }
  char base[256];
  snprintf(base, sizeof base, "%s_p%u", x->func->model_name, ex_line(s));
  AlgExpr *e = ex_unknown_param(x, s, base, EX_DEFAULT_PROBABILITY,
                                "the probability of a data-dependent branch (default 0.5; "
                                "or #pragma pamc probability(E) before it)");
  *text = alg_print(x->alg, e, ALG_FMT_TEXT);
  return e;
}

static int walk_if(ExCtx *x, CXCursor s, ExBlock *out) {
  int n = 0;
  CXCursor *kids = ex_children(s, &n);
  int status = 0;
  if (n < 2) {
    free(kids);
    return 0;
  }
  ExCost cond_cost = {NULL, 0, 0};
  status = ex_count_expr(x, kids[0], &cond_cost);
  push_cost(x, out, kids[0], &cond_cost);
  AlgExpr *value = status ? NULL : ex_value(x, kids[0]);
  ExItem tmp;
  memset(&tmp, 0, sizeof tmp);
  if (!status) status = ex_walk_stmt(x, kids[1], &tmp.body);
  if (!status && n >= 3) status = ex_walk_stmt(x, kids[2], &tmp.other);
  if (status) {
    ex_block_free(&tmp.body);
    ex_block_free(&tmp.other);
    free(kids);
    return status;
  }
  ExItem *it = ex_block_push(x, out, value ? EX_IF : EX_CHOOSE, s);
  it->body = tmp.body;
  it->other = tmp.other;
  if (value) {
    it->cond = value;
  } else {
    it->cond = branch_probability(x, s, &it->cond_text);
    it->note = "data-dependent branch";
  }
  free(kids);
  return 0;
}

/* switch: each case as an if on the value when it is known, else a choose with probability
** 1 / (number of cases) each (NOTE). Fall-through is not followed (each case up to its break). */
static int walk_switch(ExCtx *x, CXCursor s, ExBlock *out) {
  int n = 0;
  CXCursor *kids = ex_children(s, &n);
  if (n < 2) {
    free(kids);
    return 0;
  }
  ExCost cond_cost = {NULL, 0, 0};
  int status = ex_count_expr(x, kids[0], &cond_cost);
  push_cost(x, out, kids[0], &cond_cost);
  AlgExpr *value = ex_value(x, kids[0]);
  int m = 0;
  CXCursor *body = ex_children(kids[1], &m);
  int ncases = 0;
  for (int i = 0; i < m; i++) {
    enum CXCursorKind k = clang_getCursorKind(body[i]);
    ncases += k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt;
  }
  int current = -1;   /* the item of the case being filled */
  for (int i = 0; i < m && !status; i++) {
    enum CXCursorKind k = clang_getCursorKind(body[i]);
    if (k != CXCursor_CaseStmt && k != CXCursor_DefaultStmt) {
      /* the statements after a label until the next label belong to its case */
      status = ex_walk_stmt(x, body[i], current >= 0 ? &out->items[current].body : out);
      continue;
    }
    int c = 0;
    CXCursor *ck = ex_children(body[i], &c);
    AlgExpr *label = k == CXCursor_CaseStmt && c >= 1 ? ex_value(x, ck[0]) : NULL;
    ExItem *it;
    if (value && label) {
      it = ex_block_push(x, out, EX_IF, body[i]);
      it->cond = alg_cmp(x->alg, ALG_CMP_EQ, value, label);
    } else if (value && k == CXCursor_DefaultStmt) {
      /* default: none of the labels */
      it = ex_block_push(x, out, EX_IF, body[i]);
      it->cond = alg_num_int(x->alg, 1);
      for (int j = 0; j < m; j++) {
        if (clang_getCursorKind(body[j]) != CXCursor_CaseStmt) continue;
        int cj = 0;
        CXCursor *cjk = ex_children(body[j], &cj);
        AlgExpr *lj = cj >= 1 ? ex_value(x, cjk[0]) : NULL;
        free(cjk);
        if (lj) it->cond = alg_and(x->alg, it->cond, alg_cmp(x->alg, ALG_CMP_NE, value, lj));
      }
    } else {
      it = ex_block_push(x, out, EX_CHOOSE, body[i]);
      it->cond = alg_num_frac(x->alg, 1, ncases > 0 ? ncases : 1);
      it->cond_text = alg_print(x->alg, it->cond, ALG_FMT_TEXT);
      it->note = "switch case: probability 1 / number of cases";
    }
    current = out->count - 1;
    if (c >= 1) status = ex_walk_stmt(x, ck[c - 1], &out->items[current].body);
    free(ck);
  }
  free(body);
  free(kids);
  return status;
}

/* ---- statements ---- */

static int walk_decl(ExCtx *x, CXCursor s, ExBlock *out) {
  int n = 0;
  CXCursor *kids = ex_children(s, &n);
  ExCost cost = {NULL, 0, 0};
  int status = 0;
  for (int i = 0; i < n && !status; i++) {
    if (clang_getCursorKind(kids[i]) != CXCursor_VarDecl) continue;
    ExVar *v = ex_var_add(x, kids[i]);
    int m = 0;
    CXCursor *vk = ex_children(kids[i], &m);
    CXCursor init = clang_getNullCursor();
    for (int k = 0; k < m; k++)
      if (clang_isExpression(clang_getCursorKind(vk[k]))) init = vk[k];
    free(vk);
    if (clang_Cursor_isNull(init)) continue;
    status = ex_count_expr(x, init, &cost);
    CXType t = clang_getCursorType(kids[i]);
    const char *assign = ex_op_const(x, "assign", t, x->in_loop);
    if (assign) ex_cost_add_term(x, &cost, assign, NULL, 0, alg_num_int(x->alg, 1));
    v = ex_var_find(x, kids[i]);
    if (!v->modified && !v->index && ex_is_integer_type(t)) v->value = ex_value(x, init);
  }
  free(kids);
  if (status) ex_cost_free(&cost);
  else push_cost(x, out, s, &cost);
  return status;
}

int ex_walk_stmt(ExCtx *x, CXCursor s, ExBlock *out) {
  if (++x->depth > EX_MAX_DEPTH) {
    ex_error(x, s, "statements nested deeper than %d levels", EX_MAX_DEPTH);
    x->depth--;
    return -1;
  }
  int status = 0;
  enum CXCursorKind k = clang_getCursorKind(s);
  ExPragma *omp = x->npragmas ? ex_pragma_for(x, s, "omp") : NULL;
  if (omp) {
    status = ex_walk_omp(x, s, omp, out);
    x->depth--;
    return status;
  }
  switch (k) {
  case CXCursor_CompoundStmt: {
    int n = 0;
    CXCursor *kids = ex_children(s, &n);
    for (int i = 0; i < n && !status; i++) status = ex_walk_stmt(x, kids[i], out);
    free(kids);
    break;
  }
  case CXCursor_DeclStmt: status = walk_decl(x, s, out); break;
  case CXCursor_ForStmt: status = ex_walk_for(x, s, out, NULL); break;
  case CXCursor_WhileStmt: status = walk_while(x, s, out, 0); break;
  case CXCursor_DoStmt: status = walk_while(x, s, out, 1); break;
  case CXCursor_IfStmt: status = walk_if(x, s, out); break;
  case CXCursor_SwitchStmt: status = walk_switch(x, s, out); break;
  case CXCursor_ReturnStmt: {
    int n = 0;
    CXCursor *kids = ex_children(s, &n);
    if (n == 1) status = walk_expr(x, kids[0], out);
    free(kids);
    break;
  }
  case CXCursor_BreakStmt: case CXCursor_ContinueStmt: case CXCursor_NullStmt: break;
  case CXCursor_CaseStmt: case CXCursor_DefaultStmt: case CXCursor_LabelStmt: {
    int n = 0;
    CXCursor *kids = ex_children(s, &n);
    if (n >= 1) status = ex_walk_stmt(x, kids[n - 1], out);
    free(kids);
    break;
  }
  case CXCursor_GotoStmt: case CXCursor_IndirectGotoStmt:
    ex_error(x, s, "goto is not supported by pamc extract (its counts cannot be derived)");
    status = -1;
    break;
  case CXCursor_GCCAsmStmt: case CXCursor_MSAsmStmt:
    ex_error(x, s, "inline assembly is not supported by pamc extract");
    status = -1;
    break;
  default:
    if (k >= CXCursor_FirstExpr && k <= CXCursor_LastExpr) status = walk_expr(x, s, out);
    else if (k == CXCursor_UnexposedStmt) status = 0;   /* nothing pamc counts (an attribute, ...) */
    else {
      CXString ks = clang_getCursorKindSpelling(k);
      ex_error(x, s, "unsupported statement (%s)", clang_getCString(ks));
      clang_disposeString(ks);
      status = -1;
    }
  }
  x->depth--;
  return status;
}

/* ---- functions ---- */

/* `#pragma pamc recursion_depth(E)` before a directly recursive function: E activations, each
** the body with the recursive calls costing nothing: seq (activation = 1, E) body. */
static int wrap_recursion(ExCtx *x, ExFunc *f) {
  AlgExpr *e = ex_pragma_expr(x, f->decl, f->recursion_pragma);
  if (!e) return -1;
  ExBlock body = f->body;
  f->body = (ExBlock){NULL, 0, 0};
  ExItem *it = ex_block_push(x, &f->body, EX_SEQ, f->decl);
  it->note = "recursion: activations from #pragma pamc recursion_depth";
  AlgExpr *one = alg_num_int(x->alg, 1);
  it->index = alg_index_new(x->alg, "activation", one, e);
  it->lo = one;
  it->hi = e;
  it->body = body;
  return 0;
}

int ex_walk_function(ExCtx *x, ExFunc *f) {
  /* a callee is walked in the middle of its caller: save the caller's state */
  ExFunc *saved_func = x->func;
  int saved_nvars = x->nvars, saved_in = x->in_loop, saved_pending = x->npending;
  unsigned saved_start = x->loop_start, saved_end = x->loop_end;
  CXCursor saved_chain = x->chain;
  int saved_nloops = x->nloops, saved_nbases = x->nbases;
  ExBase *saved_bases = x->bases;
  int saved_bases_cap = x->bases_cap;
  x->nloops = 0;   /* the callee's loop nests are its own */
  x->bases = NULL;
  x->nbases = x->bases_cap = 0;
  x->func = f;
  x->in_loop = 0;
  x->loop_start = x->loop_end = 0;
  x->chain = clang_getNullCursor();
  f->state = 1;
  f->wanted = 1;
  AlgAssume a = {0, INFINITY, 1};
  ExPragma *rp = ex_pragma_for(x, f->decl, "recursion_depth");
  if (rp) {
    f->recursion_depth = 1;
    f->recursion_pragma = rp;
  }
  for (int i = 0; i < f->nparams; i++) {
    ExVar *v = ex_var_add(x, f->param_decls[i]);
    v->value = alg_sym(x->alg, alg_symbol_new(x->alg, f->params[i], ALG_SYM_PARAM, a));
  }
  int n = 0;
  CXCursor *kids = ex_children(f->decl, &n);
  int status = 0;
  for (int i = 0; i < n; i++)
    if (clang_getCursorKind(kids[i]) == CXCursor_CompoundStmt) {
      ex_scan_modified(x, kids[i]);
      status = ex_walk_stmt(x, kids[i], &f->body);
    }
  free(kids);
  if (!status && f->recursion_depth) status = wrap_recursion(x, f);
  f->pure = !status && ex_block_pure(&f->body);
  if (f->pure) ex_block_cost(x, &f->body, &f->total);
  f->state = 2;
  x->func = saved_func;
  x->nvars = saved_nvars;
  x->in_loop = saved_in;
  x->npending = saved_pending;
  x->loop_start = saved_start;
  x->loop_end = saved_end;
  x->chain = saved_chain;
  free(x->bases);
  x->bases = saved_bases;
  x->nbases = saved_nbases;
  x->bases_cap = saved_bases_cap;
  x->nloops = saved_nloops;
  return status;
}
