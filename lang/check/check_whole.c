/*
** check_whole.c — places that need one whole number (the size of a resource family, a loop
** bound, a repeat count, a family index) given an interval: by a param set with -D
** (`-D 'P=[1,4]'`), or by an interval literal or const (`repeat([1, 4])`). Every command refuses
** them here, at that place (predict and reduce took the interval and gave est above hi, or 2.5
** repetitions; simulate refused it its own way in some scenarios).
*/
#include "check_internal.h"

#include <math.h>
#include <stdio.h>

/* What is looked for (one -D param whose value is an interval, or any interval), and whether found. */
typedef struct IntervalDefine {
  Checker *ck;              /* the checker */
  const Decl *decl;         /* the declaration -D made; NULL: any interval value */
  const char *raw;          /* "P=[1,4]" as typed */
  AlgInterval value;        /* its value */
  int reported;             /* 1 once reported (the first place is enough) */
} IntervalDefine;

static void need_whole(IntervalDefine *d, const Expr *e, const char *what) {
  if (d->reported || !e) return;
  if (!d->decl) {   /* no -D interval: the value itself, when it needs no loop index or argument */
    EvalEnv env;
    eval_env_init(&env);
    AlgInterval v;
    char text[80];
    if (eval_expr(&env, e, &v, NULL) != EVAL_OK || v.lo == v.hi) return;
    check_error_once(d->ck, e->loc, "%s must be a whole number, and it is an interval (%s)", what,
                     eval_format(v, text, sizeof text));
    return;
  }
  if (!eval_uses(e, d->decl)) return;
  d->reported = 1;
  check_error_once(d->ck, e->loc, "%s must be a whole number, and -D %s makes it an interval: give "
                   "'%s' one value (or sweep it: -D %s=%g..%g)", what, d->raw, d->decl->name.name,
                   d->decl->name.name, ceil(d->value.lo), floor(d->value.hi));
}

static void walk(IntervalDefine *d, const Stmt *s) {
  if (!s || d->reported) return;
  switch (s->kind) {
  case ST_USE: need_whole(d, s->u.use.index, "a family index"); return;
  case ST_HOLD:
    need_whole(d, s->u.use.index, "a family index");
    walk(d, s->u.use.body);
    return;
  case ST_BLOCK: case ST_PARALLEL:
    for (int i = 0; i < s->u.block.count; i++) walk(d, s->u.block.items[i]);
    return;
  case ST_SEQ: case ST_PAR:
    need_whole(d, s->u.loop.lo, "a loop bound");
    need_whole(d, s->u.loop.hi, "a loop bound");
    walk(d, s->u.loop.body);
    return;
  case ST_REPEAT:
    need_whole(d, s->u.repeat.count, "a repeat count");
    walk(d, s->u.repeat.body);
    return;
  case ST_IF: case ST_CHOOSE:
    walk(d, s->u.branch.then);
    walk(d, s->u.branch.otherwise);
    return;
  default: return;
  }
}

/* Every place of the program that needs a whole number, against d. */
static void walk_program(IntervalDefine *d) {
  Program *prog = d->ck->prog;
  for (int k = 0; k < prog->decl_count && !d->reported; k++) {
    const Decl *x = prog->decls[k];
    if (!check_in_force(d->ck, x)) continue;
    if (x->kind == DECL_RESOURCE) need_whole(d, x->u.resource.count, "the size of a resource family");
    else if (x->kind == DECL_PROCESS) walk(d, x->u.process.body);
  }
}

void check_whole(Checker *ck) {
  Program *prog = ck->prog;
  int before = ck->diags->errors;
  for (int i = 0; i < prog->define_count; i++) {
    const Decl *decl = prog->define_decls ? prog->define_decls[i] : NULL;
    if (!decl || decl->kind != DECL_PARAM) continue;
    EvalEnv env;
    eval_env_init(&env);
    AlgInterval v;
    if (eval_decl_value(&env, decl, &v, NULL) != EVAL_OK || v.lo == v.hi) continue;
    IntervalDefine d = {ck, decl, prog->defines[i].raw ? prog->defines[i].raw : prog->defines[i].name, v, 0};
    walk_program(&d);
  }
  if (ck->diags->errors > before) return;   /* the -D is the cause */
  IntervalDefine values = {ck, NULL, NULL, {0, 0}, 0};
  walk_program(&values);
}
