/*
** reduce_count.c — the lower bound of a par from the number of its requests of an FCFS resource
** (docs/reduction.md, "Requests counted on m servers"): where every request of a plain fcfs(m)
** resource in the par is a use of one and the same duration t, the par's demand on it is N t
** for N requests, and the busiest server serves ceil(N / m) of them one after another.
*/
#include <string.h>

#include "reduce_internal.h"

/* Nested statements and calls the scan follows, and statements it visits in all (a process called
** from many places is walked at each: beyond either, it gives up). */
#define COUNT_MAX_DEPTH 64
#define COUNT_MAX_VISITS 20000

/* What the scan of a par found about one resource. */
typedef struct CountScan {
  RCtx *c;            /* the reduction */
  const Decl *res;    /* the resource counted */
  AlgExpr *t;         /* the duration of every use of res seen so far (NULL: none yet) */
  int visits;         /* statements visited so far */
  int failed;         /* 1: a hold of res, a use whose duration is not closed or differs, or
                         something the scan does not follow */
} CountScan;

/* 1 when e names only numbers, params and consts (its value is the same wherever it appears). */
static int closed_expr(const Expr *e, int depth) {
  if (!e) return 1;
  if (depth >= COUNT_MAX_DEPTH) return 0;
  switch (e->kind) {
  case EX_NUM: return 1;
  case EX_INTERVAL:
    return closed_expr(e->u.interval.lo, depth + 1) && closed_expr(e->u.interval.hi, depth + 1) &&
           closed_expr(e->u.interval.typ, depth + 1);
  case EX_NAME: return e->u.name.kind == NAME_PARAM || e->u.name.kind == NAME_CONST;
  case EX_UNARY: return closed_expr(e->u.unary.a, depth + 1);
  case EX_BINARY: return closed_expr(e->u.binary.a, depth + 1) && closed_expr(e->u.binary.b, depth + 1);
  case EX_COND:
    return closed_expr(e->u.cond.cond, depth + 1) && closed_expr(e->u.cond.then, depth + 1) &&
           closed_expr(e->u.cond.otherwise, depth + 1);
  default: return 0;
  }
}

/* Walks s for the requests of sc->res (following calls): each must be a use of one closed
** duration, the same for all. */
static void count_scan(CountScan *sc, const Stmt *s, int depth) {
  if (!s || sc->failed) return;
  if (depth >= COUNT_MAX_DEPTH || ++sc->visits > COUNT_MAX_VISITS) { sc->failed = 1; return; }
  switch (s->kind) {
  case ST_SKIP: case ST_DELAY: return;
  case ST_USE: {
    if (s->u.use.decl != sc->res) return;
    if (!closed_expr(s->u.use.duration, 0)) { sc->failed = 1; return; }
    REnv env; memset(&env, 0, sizeof env);
    AlgExpr *t = reduce_expr(sc->c, &env, s->u.use.duration);
    if (sc->t && sc->t != t) sc->failed = 1;
    sc->t = t;
    return;
  }
  case ST_HOLD:
    if (s->u.use.decl == sc->res) { sc->failed = 1; return; }
    count_scan(sc, s->u.use.body, depth + 1);
    return;
  case ST_CALL:
    if (!s->u.call.decl) { sc->failed = 1; return; }
    count_scan(sc, s->u.call.decl->u.process.body, depth + 1);
    return;
  case ST_BLOCK: case ST_PARALLEL:
    for (int i = 0; i < s->u.block.count; i++) count_scan(sc, s->u.block.items[i], depth + 1);
    return;
  case ST_SEQ: case ST_PAR: count_scan(sc, s->u.loop.body, depth + 1); return;
  case ST_REPEAT: count_scan(sc, s->u.repeat.body, depth + 1); return;
  case ST_IF:
    count_scan(sc, s->u.branch.then, depth + 1);
    count_scan(sc, s->u.branch.otherwise, depth + 1);
    return;
  case ST_CHOOSE: break;   /* with mixing, its demand is the mix of its sides' */
  }
  sc->failed = 1;
}

/* Rule (requests counted on m servers; in any context): every request of a plain fcfs(m)
** resource r in the par s (through its ifs, loops, blocks, `||`, inner pars and the processes it
** calls; no `choose`, no hold of r) is a use lasting t, one closed expression (numbers, params,
** consts) for all, t > 0. The par's lower-bound demand on r, D (out's term), is at most N t for the
** N requests it makes in a run (a use adds its time; an `if` the smaller side's). Each request
** keeps one server of r for t at least (a hand-off only adds), inside the par's time whenever it
** is made, and a server serves one request at a time: the busiest of the m servers serves
** ceil(N / m) of them one after another. Requests from beside the par only add to them:
**   L(par) >= ceil(D / (m t)) t
** M tasks, every third of which uses a 2-slot device for 10us (`if (i % 3 == 0)`): D = ceil(M / 3)
** 10us, at M = 7 three requests, 20us (the load, 15us). */
void reduce_count_par(RCtx *c, const Stmt *s, Summary *out) {
  AlgCtx *g = c->alg;
  for (int i = 0; i < out->nterms; i++) {
    const RTerm *term = &out->terms[i];
    const Decl *res = term->res;
    if (term->index || res->u.resource.count || res->u.resource.discipline == DISC_PS) continue;
    CountScan sc = {c, res, NULL, 0, 0};
    count_scan(&sc, s, 0);
    if (sc.failed || !sc.t) continue;
    AlgExpr *zero = alg_num_int(g, 0);
    AlgExpr *rounds = alg_func(g, ALG_CEIL, alg_div(g, term->d_lo, alg_mul(g, reduce_mult(c, res), sc.t)));
    AlgExpr *lo = alg_cond(g, alg_cmp(g, ALG_CMP_GT, sc.t, zero), alg_mul(g, rounds, sc.t), zero);
    out->L = alg_max(g, out->L, lo);
  }
}
