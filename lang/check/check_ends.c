/*
** check_ends.c — lo(x), hi(x), mid(x) and width(x) take an expression of numbers and consts: its
** interval is fixed, the same in every command and every scenario. With a param, a loop index or
** an argument inside, reduce and predict refused it and simulate took one run's value; now every
** command refuses it at the call.
*/
#include "check_internal.h"

/* 1 when e uses a loop index or an argument (of a process or fn). */
static int uses_local(const Expr *e) {
  if (!e) return 0;
  switch (e->kind) {
  case EX_NUM: return 0;
  case EX_NAME: return e->u.name.kind == NAME_INDEX || e->u.name.kind == NAME_ARG;
  case EX_INTERVAL: return uses_local(e->u.interval.lo) || uses_local(e->u.interval.hi) || uses_local(e->u.interval.typ);
  case EX_UNARY: return uses_local(e->u.unary.a);
  case EX_BINARY: return uses_local(e->u.binary.a) || uses_local(e->u.binary.b);
  case EX_COND: return uses_local(e->u.cond.cond) || uses_local(e->u.cond.then) || uses_local(e->u.cond.otherwise);
  case EX_CALL:
    for (int i = 0; i < e->u.call.args.count; i++)
      if (uses_local(e->u.call.args.items[i])) return 1;
    return 0;
  case EX_BIND: return 1;   /* its index */
  }
  return 0;
}

static void expr(Checker *ck, const Expr *e) {
  if (!e) return;
  switch (e->kind) {
  case EX_INTERVAL: expr(ck, e->u.interval.lo); expr(ck, e->u.interval.hi); expr(ck, e->u.interval.typ); return;
  case EX_UNARY: expr(ck, e->u.unary.a); return;
  case EX_BINARY: expr(ck, e->u.binary.a); expr(ck, e->u.binary.b); return;
  case EX_COND: expr(ck, e->u.cond.cond); expr(ck, e->u.cond.then); expr(ck, e->u.cond.otherwise); return;
  case EX_BIND: expr(ck, e->u.bind.lo); expr(ck, e->u.bind.hi); expr(ck, e->u.bind.body); return;
  case EX_CALL: {
    for (int i = 0; i < e->u.call.args.count; i++) expr(ck, e->u.call.args.items[i]);
    int b = e->u.call.builtin;
    if ((b != EVAL_B_LO && b != EVAL_B_HI && b != EVAL_B_MID && b != EVAL_B_WIDTH) || e->u.call.args.count != 1) return;
    const Expr *arg = e->u.call.args.items[0];
    if (eval_uses(arg, NULL) || uses_local(arg))
      check_error_once(ck, arg->loc, "%s() takes an expression of numbers and consts (its interval is then "
                       "the same in every run); a param, loop index or argument has one value at a time",
                       e->u.call.fn.name);
    return;
  }
  default: return;
  }
}

static void stmt(Checker *ck, const Stmt *s) {
  if (!s) return;
  switch (s->kind) {
  case ST_DELAY: expr(ck, s->u.delay.duration); return;
  case ST_USE: case ST_HOLD:
    expr(ck, s->u.use.index); expr(ck, s->u.use.duration); stmt(ck, s->u.use.body); return;
  case ST_CALL:
    for (int i = 0; i < s->u.call.args.count; i++) expr(ck, s->u.call.args.items[i]);
    return;
  case ST_BLOCK: case ST_PARALLEL:
    for (int i = 0; i < s->u.block.count; i++) stmt(ck, s->u.block.items[i]);
    return;
  case ST_SEQ: case ST_PAR: expr(ck, s->u.loop.lo); expr(ck, s->u.loop.hi); stmt(ck, s->u.loop.body); return;
  case ST_REPEAT: expr(ck, s->u.repeat.count); stmt(ck, s->u.repeat.body); return;
  case ST_IF: case ST_CHOOSE:
    expr(ck, s->u.branch.cond); stmt(ck, s->u.branch.then); stmt(ck, s->u.branch.otherwise); return;
  default: return;
  }
}

void check_ends(Checker *ck) {
  Program *prog = ck->prog;
  for (int i = 0; i < prog->decl_count; i++) {
    const Decl *d = prog->decls[i];
    if (!check_in_force(ck, d)) continue;
    switch (d->kind) {
    case DECL_PARAM: expr(ck, d->u.param.value); expr(ck, d->u.param.min); expr(ck, d->u.param.max); break;
    case DECL_CONST: expr(ck, d->u.constant.value); break;
    case DECL_FN: expr(ck, d->u.fn.body); break;
    case DECL_RESOURCE: expr(ck, d->u.resource.count); expr(ck, d->u.resource.servers); expr(ck, d->u.resource.handoff); break;
    case DECL_PROCESS: stmt(ck, d->u.process.body); break;
    default: break;
    }
  }
}
