/*
** ast_build.c — node constructors and list vectors (ast_build.h).
*/
#include "ast_build.h"

#include <string.h>

/* First capacity of a vector: most lists (arguments, branches) are short. */
#define VEC_FIRST_CAPACITY 4

void ast_vec_push(Arena *arena, PtrVec *vec, void *item) {
  if (vec->count == vec->capacity) {
    int capacity = vec->capacity ? 2 * vec->capacity : VEC_FIRST_CAPACITY;
    void **items = arena_alloc(arena, (size_t)capacity * sizeof *items);
    if (vec->count) memcpy(items, vec->items, (size_t)vec->count * sizeof *items);
    vec->items = items;
    vec->capacity = capacity;
  }
  vec->items[vec->count++] = item;
}

ExprList ast_expr_list(Arena *arena, const PtrVec *vec) {
  ExprList list = {NULL, vec->count};
  if (vec->count == 0) return list;
  list.items = arena_alloc(arena, (size_t)vec->count * sizeof *list.items);
  for (int i = 0; i < vec->count; i++) list.items[i] = vec->items[i];
  return list;
}

StmtList ast_stmt_list(Arena *arena, const PtrVec *vec) {
  StmtList list = {NULL, vec->count};
  if (vec->count == 0) return list;
  list.items = arena_alloc(arena, (size_t)vec->count * sizeof *list.items);
  for (int i = 0; i < vec->count; i++) list.items[i] = vec->items[i];
  return list;
}

IdentList ast_ident_list(Arena *arena, const PtrVec *vec) {
  IdentList list = {NULL, vec->count};
  if (vec->count == 0) return list;
  list.items = arena_alloc(arena, (size_t)vec->count * sizeof *list.items);
  for (int i = 0; i < vec->count; i++) list.items[i] = *(const Ident *)vec->items[i];
  return list;
}

Ident ast_ident(const char *name, SrcLoc loc) {
  Ident id = {name, loc};
  return id;
}

Ident *ast_ident_new(Arena *arena, const char *name, SrcLoc loc) {
  Ident *id = arena_alloc(arena, sizeof *id);
  *id = ast_ident(name, loc);
  return id;
}

static Expr *new_expr(Arena *arena, ExprKind kind, SrcLoc loc) {
  Expr *e = arena_alloc(arena, sizeof *e);
  e->kind = kind;
  e->loc = loc;
  return e;
}

Expr *ast_number(Arena *arena, SrcLoc loc, double value, const char *text, int64_t unit_num,
                 int64_t unit_den) {
  Expr *e = new_expr(arena, EX_NUM, loc);
  e->u.num.value = value;
  e->u.num.text = text;
  e->u.num.unit_num = unit_num;
  e->u.num.unit_den = unit_den;
  return e;
}

Expr *ast_interval(Arena *arena, SrcLoc loc, Expr *lo, Expr *hi) {
  Expr *e = new_expr(arena, EX_INTERVAL, loc);
  e->u.interval.lo = lo;
  e->u.interval.hi = hi;
  return e;
}

Expr *ast_name(Arena *arena, Ident id) {
  Expr *e = new_expr(arena, EX_NAME, id.loc);
  e->u.name.id = id;
  e->u.name.kind = NAME_UNRESOLVED;
  e->u.name.slot = -1;
  return e;
}

Expr *ast_unary(Arena *arena, SrcLoc loc, Op op, Expr *a) {
  Expr *e = new_expr(arena, EX_UNARY, loc);
  e->u.unary.op = op;
  e->u.unary.a = a;
  return e;
}

Expr *ast_binary(Arena *arena, SrcLoc loc, Op op, Expr *a, Expr *b) {
  Expr *e = new_expr(arena, EX_BINARY, loc);
  e->u.binary.op = op;
  e->u.binary.a = a;
  e->u.binary.b = b;
  return e;
}

Expr *ast_cond(Arena *arena, SrcLoc loc, Expr *cond, Expr *then, Expr *otherwise) {
  Expr *e = new_expr(arena, EX_COND, loc);
  e->u.cond.cond = cond;
  e->u.cond.then = then;
  e->u.cond.otherwise = otherwise;
  return e;
}

Expr *ast_call(Arena *arena, SrcLoc loc, Ident fn, ExprList args) {
  Expr *e = new_expr(arena, EX_CALL, loc);
  e->u.call.fn = fn;
  e->u.call.args = args;
  e->u.call.builtin = -1;
  return e;
}

Expr *ast_bind(Arena *arena, SrcLoc loc, Ident fn, Ident var, Expr *lo, Expr *hi, Expr *body) {
  Expr *e = new_expr(arena, EX_BIND, loc);
  e->u.bind.fn = fn;
  e->u.bind.var = var;
  e->u.bind.lo = lo;
  e->u.bind.hi = hi;
  e->u.bind.body = body;
  return e;
}

Stmt *ast_stmt(Arena *arena, StmtKind kind, SrcLoc loc) {
  Stmt *s = arena_alloc(arena, sizeof *s);
  s->kind = kind;
  s->loc = loc;
  return s;
}

Decl *ast_decl(Arena *arena, DeclKind kind, SrcLoc loc, Ident name) {
  Decl *d = arena_alloc(arena, sizeof *d);
  d->kind = kind;
  d->loc = loc;
  d->name = name;
  return d;
}
