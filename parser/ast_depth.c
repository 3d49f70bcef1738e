/*
** ast_depth.c — the nesting limit of the syntax tree (ast_depth.h): every declaration's
** statements and expressions are walked with an explicit stack, so that a tree of any depth is
** measured without recursion, and the first node nested deeper than AST_MAX_DEPTH is reported.
** Every recursive walk of lang/ and algebra/ relies on this bound.
*/
#include "ast_depth.h"

#include <stdlib.h>

/* A node waiting on the stack: an expression or a statement, and its depth (the root is 1). */
typedef struct Pending {
  const Expr *expr;       /* the expression, or NULL */
  const Stmt *stmt;       /* the statement, or NULL */
  int depth;              /* nesting of the node */
} Pending;

typedef struct Walk {
  Pending *items;         /* the stack (malloc) */
  int count, cap;         /* used / allocated */
  int failed;             /* 1 when out of memory */
} Walk;

static void push(Walk *w, const Expr *e, const Stmt *s, int depth) {
  if ((!e && !s) || w->failed) return;
  if (w->count == w->cap) {
    int cap = w->cap ? 2 * w->cap : 64;
    Pending *grown = realloc(w->items, (size_t)cap * sizeof *grown);
    if (!grown) { w->failed = 1; return; }
    w->items = grown;
    w->cap = cap;
  }
  w->items[w->count++] = (Pending){e, s, depth};
}

static void push_expr_children(Walk *w, const Expr *e, int d) {
  switch (e->kind) {
  case EX_INTERVAL:
    push(w, e->u.interval.lo, NULL, d); push(w, e->u.interval.hi, NULL, d); push(w, e->u.interval.typ, NULL, d);
    break;
  case EX_UNARY: push(w, e->u.unary.a, NULL, d); break;
  case EX_BINARY: push(w, e->u.binary.a, NULL, d); push(w, e->u.binary.b, NULL, d); break;
  case EX_COND:
    push(w, e->u.cond.cond, NULL, d); push(w, e->u.cond.then, NULL, d); push(w, e->u.cond.otherwise, NULL, d);
    break;
  case EX_CALL:
    for (int i = 0; i < e->u.call.args.count; i++) push(w, e->u.call.args.items[i], NULL, d);
    break;
  case EX_BIND: push(w, e->u.bind.lo, NULL, d); push(w, e->u.bind.hi, NULL, d); push(w, e->u.bind.body, NULL, d); break;
  default: break;
  }
}

static void push_stmt_children(Walk *w, const Stmt *s, int d) {
  switch (s->kind) {
  case ST_DELAY: push(w, s->u.delay.duration, NULL, d); break;
  case ST_USE: case ST_HOLD:
    push(w, s->u.use.index, NULL, d); push(w, s->u.use.duration, NULL, d); push(w, NULL, s->u.use.body, d);
    break;
  case ST_CALL:
    for (int i = 0; i < s->u.call.args.count; i++) push(w, s->u.call.args.items[i], NULL, d);
    break;
  case ST_BLOCK: case ST_PARALLEL:
    for (int i = 0; i < s->u.block.count; i++) push(w, NULL, s->u.block.items[i], d);
    break;
  case ST_SEQ: case ST_PAR:
    push(w, s->u.loop.lo, NULL, d); push(w, s->u.loop.hi, NULL, d); push(w, NULL, s->u.loop.body, d);
    break;
  case ST_REPEAT: push(w, s->u.repeat.count, NULL, d); push(w, NULL, s->u.repeat.body, d); break;
  case ST_IF: case ST_CHOOSE:
    push(w, s->u.branch.cond, NULL, d); push(w, NULL, s->u.branch.then, d); push(w, NULL, s->u.branch.otherwise, d);
    break;
  default: break;
  }
}

static void push_decl(Walk *w, const Decl *decl) {
  switch (decl->kind) {
  case DECL_PARAM:
    push(w, decl->u.param.value, NULL, 1); push(w, decl->u.param.min, NULL, 1); push(w, decl->u.param.max, NULL, 1);
    break;
  case DECL_CONST: push(w, decl->u.constant.value, NULL, 1); break;
  case DECL_FN: push(w, decl->u.fn.body, NULL, 1); break;
  case DECL_RESOURCE:
    push(w, decl->u.resource.count, NULL, 1); push(w, decl->u.resource.servers, NULL, 1);
    push(w, decl->u.resource.handoff, NULL, 1);
    break;
  case DECL_PROCESS: push(w, NULL, decl->u.process.body, 1); break;
  default: break;
  }
}

/* Pops w until empty: 0, 1 with *where at the first node deeper than limit, -1 out of memory. */
static int walk(Walk *w, int limit, SrcLoc *where) {
  int result = 0;
  while (w->count > 0 && !w->failed) {
    Pending p = w->items[--w->count];
    if (p.depth > limit) {
      *where = p.expr ? p.expr->loc : p.stmt->loc;
      result = 1;
      break;
    }
    if (p.expr) push_expr_children(w, p.expr, p.depth + 1);
    else push_stmt_children(w, p.stmt, p.depth + 1);
  }
  if (w->failed && !result) result = -1;
  free(w->items);
  return result;
}

int ast_depth_check(const Decl *decl, SrcLoc *where) {
  Walk w = {0};
  push_decl(&w, decl);
  *where = decl->loc;
  return walk(&w, AST_MAX_DEPTH, where);
}

int ast_depth_check_expr(const Expr *e, int limit, SrcLoc *where) {
  Walk w = {0};
  push(&w, e, NULL, 1);
  if (e) *where = e->loc;
  return walk(&w, limit, where);
}
