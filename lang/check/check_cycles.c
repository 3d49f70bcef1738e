/*
** check_cycles.c — recursion among processes, among fns, and circular definitions of params and
** consts (LANGUAGE.md §3): a depth-first search over the declarations in force that reports each
** cycle with its path, "recursive process: main -> a -> main". The same search bounds the
** nesting of a declaration with everything it uses written out (CHECK_MAX_INLINE_DEPTH), which
** the recursive walks of the reduction and the simulator rely on.
*/
#include "check_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { UNSEEN = 0, ON_PATH, DONE };

typedef struct CycleSearch {
  Checker *ck;                /* the checker */
  unsigned char *state;       /* per prog->decls entry: UNSEEN, ON_PATH, DONE */
  int *reach;                 /* per DONE entry: its nesting with what it uses written out */
  int *path;                  /* indices into prog->decls of the current path */
  int path_length;            /* length of path */
  int *slots;                 /* open-addressing table: 1 + index into prog->decls, 0 empty */
  size_t mask;                /* slots - 1 (slots a power of two, at least twice the decls) */
  int too_deep;               /* 1 once the nesting error is reported (once is enough) */
} CycleSearch;

static size_t slot_of(const CycleSearch *cs, const Decl *decl) {
  uint64_t h = (uint64_t)(uintptr_t)decl * 0x9e3779b97f4a7c15u;
  return (size_t)(h >> 17) & cs->mask;
}

/* The index of decl in prog->decls, or -1 (a table: a linear search made the check of 10^5
** declarations quadratic). */
static int index_of(const CycleSearch *cs, const Decl *decl) {
  for (size_t k = slot_of(cs, decl); cs->slots[k]; k = (k + 1) & cs->mask)
    if (cs->ck->prog->decls[cs->slots[k] - 1] == decl) return cs->slots[k] - 1;
  return -1;
}

static void index_build(CycleSearch *cs) {
  int count = cs->ck->prog->decl_count;
  size_t n = 16;
  while (n < 2 * (size_t)count) n *= 2;
  cs->slots = calloc(n, sizeof *cs->slots);
  if (!cs->slots) abort();
  cs->mask = n - 1;
  for (int i = 0; i < count; i++) {
    size_t k = slot_of(cs, cs->ck->prog->decls[i]);
    while (cs->slots[k]) k = (k + 1) & cs->mask;
    cs->slots[k] = i + 1;
  }
}

static int visit(CycleSearch *cs, const Decl *decl, SrcLoc site, int base);

static void report_cycle(CycleSearch *cs, int target, SrcLoc site) {
  Decl **decls = cs->ck->prog->decls;
  int start = 0;
  while (start < cs->path_length && cs->path[start] != target) start++;
  int processes = 1, fns = 1;
  char chain[1024] = "";
  size_t used = 0;
  for (int i = start; i <= cs->path_length; i++) {
    const Decl *d = decls[i < cs->path_length ? cs->path[i] : target];
    if (d->kind != DECL_PROCESS) processes = 0;
    if (d->kind != DECL_FN) fns = 0;
    used += (size_t)snprintf(chain + used, used < sizeof chain ? sizeof chain - used : 0, "%s%s",
                             i > start ? " -> " : "", d->name.name);
  }
  const char *what = processes ? "recursive process" : fns ? "recursive function" : "circular definition";
  check_error_once(cs->ck, site, "%s: %s", what, chain);
}

/* The nesting below e (e at depth base + 1) with the declarations it uses written out. */
static int edges_expr(CycleSearch *cs, const Expr *e, int base) {
  if (!e) return base;
  int d = base + 1, deepest = d;
#define DOWN(x) do { int r_ = (x); if (r_ > deepest) deepest = r_; } while (0)
  switch (e->kind) {
    case EX_NUM:
      break;
    case EX_INTERVAL:
      DOWN(edges_expr(cs, e->u.interval.lo, d));
      DOWN(edges_expr(cs, e->u.interval.hi, d));
      DOWN(edges_expr(cs, e->u.interval.typ, d));
      break;
    case EX_NAME:
      if ((e->u.name.kind == NAME_PARAM || e->u.name.kind == NAME_CONST) && e->u.name.decl)
        DOWN(visit(cs, e->u.name.decl, e->loc, d));
      break;
    case EX_UNARY:
      DOWN(edges_expr(cs, e->u.unary.a, d));
      break;
    case EX_BINARY:
      DOWN(edges_expr(cs, e->u.binary.a, d));
      DOWN(edges_expr(cs, e->u.binary.b, d));
      break;
    case EX_COND:
      DOWN(edges_expr(cs, e->u.cond.cond, d));
      DOWN(edges_expr(cs, e->u.cond.then, d));
      DOWN(edges_expr(cs, e->u.cond.otherwise, d));
      break;
    case EX_CALL:
      for (int i = 0; i < e->u.call.args.count; i++) DOWN(edges_expr(cs, e->u.call.args.items[i], d));
      if (e->u.call.decl) DOWN(visit(cs, e->u.call.decl, e->u.call.fn.loc, d));
      break;
    case EX_BIND:
      DOWN(edges_expr(cs, e->u.bind.lo, d));
      DOWN(edges_expr(cs, e->u.bind.hi, d));
      DOWN(edges_expr(cs, e->u.bind.body, d));
      break;
  }
  return deepest;
}

/* Statements: process calls lead on; the values a statement uses are walked for their nesting
** only (they cannot lead back to a process). */
static int edges_stmt(CycleSearch *cs, const Stmt *s, int base) {
  if (!s) return base;
  int d = base + 1, deepest = d;
  switch (s->kind) {
    case ST_DELAY:
      DOWN(edges_expr(cs, s->u.delay.duration, d));
      break;
    case ST_USE:
      DOWN(edges_expr(cs, s->u.use.index, d));
      DOWN(edges_expr(cs, s->u.use.duration, d));
      break;
    case ST_CALL:
      for (int i = 0; i < s->u.call.args.count; i++) DOWN(edges_expr(cs, s->u.call.args.items[i], d));
      if (s->u.call.decl) DOWN(visit(cs, s->u.call.decl, s->u.call.process.loc, d));
      break;
    case ST_BLOCK:
    case ST_PARALLEL:
      for (int i = 0; i < s->u.block.count; i++) DOWN(edges_stmt(cs, s->u.block.items[i], d));
      break;
    case ST_SEQ:
    case ST_PAR:
      DOWN(edges_expr(cs, s->u.loop.lo, d));
      DOWN(edges_expr(cs, s->u.loop.hi, d));
      DOWN(edges_stmt(cs, s->u.loop.body, d));
      break;
    case ST_REPEAT:
      DOWN(edges_expr(cs, s->u.repeat.count, d));
      DOWN(edges_stmt(cs, s->u.repeat.body, d));
      break;
    case ST_HOLD:
      DOWN(edges_expr(cs, s->u.use.index, d));
      DOWN(edges_stmt(cs, s->u.use.body, d));
      break;
    case ST_IF:
    case ST_CHOOSE:
      DOWN(edges_expr(cs, s->u.branch.cond, d));
      DOWN(edges_stmt(cs, s->u.branch.then, d));
      DOWN(edges_stmt(cs, s->u.branch.otherwise, d));
      break;
    default:
      break;
  }
  return deepest;
}

/* The error once: where the nesting passes the limit, with the path of declarations to it. */
static void report_too_deep(CycleSearch *cs, const Decl *decl, SrcLoc site) {
  if (cs->too_deep) return;
  cs->too_deep = 1;
  Decl **decls = cs->ck->prog->decls;
  const char *first = cs->path_length > 0 ? decls[cs->path[0]]->name.name : decl->name.name;
  check_error_once(cs->ck, site, "'%s' nests too deeply: more than %d levels of statements and "
                   "expressions with the processes, fns and consts it uses written out (at '%s', "
                   "%d declarations down)", first, CHECK_MAX_INLINE_DEPTH, decl->name.name, cs->path_length);
}

/* The nesting of decl's uses (decl used at depth base) with what they use written out: base plus
** decl's own reach. Stops, with the error, once that passes CHECK_MAX_INLINE_DEPTH, so the search
** itself recurses at most that deep. */
static int visit(CycleSearch *cs, const Decl *decl, SrcLoc site, int base) {
  int at = index_of(cs, decl);
  if (at < 0) return base;
  if (cs->state[at] == DONE) {
    if (base + cs->reach[at] > CHECK_MAX_INLINE_DEPTH) report_too_deep(cs, decl, site);
    return base + cs->reach[at];
  }
  if (cs->state[at] == ON_PATH) {
    report_cycle(cs, at, site);
    return base;
  }
  if (base > CHECK_MAX_INLINE_DEPTH || cs->too_deep) {
    report_too_deep(cs, decl, site);
    return base;
  }
  cs->state[at] = ON_PATH;
  cs->path[cs->path_length++] = at;
  int deepest = base;
  switch (decl->kind) {
    case DECL_PARAM:
      DOWN(edges_expr(cs, decl->u.param.value, base));
      DOWN(edges_expr(cs, decl->u.param.min, base));
      DOWN(edges_expr(cs, decl->u.param.max, base));
      break;
    case DECL_CONST: DOWN(edges_expr(cs, decl->u.constant.value, base)); break;
    case DECL_FN: DOWN(edges_expr(cs, decl->u.fn.body, base)); break;
    case DECL_RESOURCE:
      DOWN(edges_expr(cs, decl->u.resource.count, base));
      DOWN(edges_expr(cs, decl->u.resource.servers, base));
      DOWN(edges_expr(cs, decl->u.resource.handoff, base));
      break;
    case DECL_PROCESS: DOWN(edges_stmt(cs, decl->u.process.body, base)); break;
    case DECL_IMPORT: break;
  }
#undef DOWN
  cs->path_length--;
  cs->state[at] = DONE;
  cs->reach[at] = deepest - base;
  return deepest;
}

void check_cycles(Checker *ck) {
  int count = ck->prog->decl_count;
  if (count == 0) return;
  CycleSearch cs = {ck, calloc((size_t)count, 1), calloc((size_t)count, sizeof(int)),
                    calloc((size_t)count, sizeof(int)), 0, NULL, 0, 0};
  if (!cs.state || !cs.reach || !cs.path) abort();
  index_build(&cs);
  for (int i = 0; i < count; i++)
    if (check_in_force(ck, ck->prog->decls[i])) visit(&cs, ck->prog->decls[i], ck->prog->decls[i]->name.loc, 0);
  free(cs.state);
  free(cs.reach);
  free(cs.path);
  free(cs.slots);
}
