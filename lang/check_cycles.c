/*
** check_cycles.c — recursion among processes, among fns, and circular definitions of params and
** consts (LANGUAGE.md §3): a depth-first search over the declarations in force that reports each
** cycle with its path, "recursive process: main -> a -> main".
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
  int *path;                  /* indices into prog->decls of the current path */
  int path_length;            /* length of path */
  int *slots;                 /* open-addressing table: 1 + index into prog->decls, 0 empty */
  size_t mask;                /* slots - 1 (slots a power of two, at least twice the decls) */
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

static void visit(CycleSearch *cs, const Decl *decl, SrcLoc site);

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

static void edges_expr(CycleSearch *cs, const Expr *e) {
  if (!e) return;
  switch (e->kind) {
    case EX_NUM:
      return;
    case EX_INTERVAL:
      edges_expr(cs, e->u.interval.lo);
      edges_expr(cs, e->u.interval.hi);
      edges_expr(cs, e->u.interval.typ);
      return;
    case EX_NAME:
      if ((e->u.name.kind == NAME_PARAM || e->u.name.kind == NAME_CONST) && e->u.name.decl)
        visit(cs, e->u.name.decl, e->loc);
      return;
    case EX_UNARY:
      edges_expr(cs, e->u.unary.a);
      return;
    case EX_BINARY:
      edges_expr(cs, e->u.binary.a);
      edges_expr(cs, e->u.binary.b);
      return;
    case EX_COND:
      edges_expr(cs, e->u.cond.cond);
      edges_expr(cs, e->u.cond.then);
      edges_expr(cs, e->u.cond.otherwise);
      return;
    case EX_CALL:
      for (int i = 0; i < e->u.call.args.count; i++) edges_expr(cs, e->u.call.args.items[i]);
      if (e->u.call.decl) visit(cs, e->u.call.decl, e->u.call.fn.loc);
      return;
    case EX_BIND:
      edges_expr(cs, e->u.bind.lo);
      edges_expr(cs, e->u.bind.hi);
      edges_expr(cs, e->u.bind.body);
      return;
  }
}

/* Process calls only: values used by a process cannot lead back to it. */
static void edges_stmt(CycleSearch *cs, const Stmt *s) {
  if (!s) return;
  switch (s->kind) {
    case ST_CALL:
      if (s->u.call.decl) visit(cs, s->u.call.decl, s->u.call.process.loc);
      return;
    case ST_BLOCK:
    case ST_PARALLEL:
      for (int i = 0; i < s->u.block.count; i++) edges_stmt(cs, s->u.block.items[i]);
      return;
    case ST_SEQ:
    case ST_PAR:
      edges_stmt(cs, s->u.loop.body);
      return;
    case ST_REPEAT:
      edges_stmt(cs, s->u.repeat.body);
      return;
    case ST_HOLD:
      edges_stmt(cs, s->u.use.body);
      return;
    case ST_IF:
    case ST_CHOOSE:
      edges_stmt(cs, s->u.branch.then);
      edges_stmt(cs, s->u.branch.otherwise);
      return;
    default:
      return;
  }
}

static void visit(CycleSearch *cs, const Decl *decl, SrcLoc site) {
  int at = index_of(cs, decl);
  if (at < 0 || cs->state[at] == DONE) return;
  if (cs->state[at] == ON_PATH) {
    report_cycle(cs, at, site);
    return;
  }
  cs->state[at] = ON_PATH;
  cs->path[cs->path_length++] = at;
  switch (decl->kind) {
    case DECL_PARAM:
      edges_expr(cs, decl->u.param.value);
      edges_expr(cs, decl->u.param.min);
      edges_expr(cs, decl->u.param.max);
      break;
    case DECL_CONST: edges_expr(cs, decl->u.constant.value); break;
    case DECL_FN: edges_expr(cs, decl->u.fn.body); break;
    case DECL_RESOURCE:
      edges_expr(cs, decl->u.resource.count);
      edges_expr(cs, decl->u.resource.servers);
      edges_expr(cs, decl->u.resource.handoff);
      break;
    case DECL_PROCESS: edges_stmt(cs, decl->u.process.body); break;
    case DECL_IMPORT: break;
  }
  cs->path_length--;
  cs->state[at] = DONE;
}

void check_cycles(Checker *ck) {
  int count = ck->prog->decl_count;
  if (count == 0) return;
  CycleSearch cs = {ck, calloc((size_t)count, 1), calloc((size_t)count, sizeof(int)), 0, NULL, 0};
  if (!cs.state || !cs.path) abort();
  index_build(&cs);
  for (int i = 0; i < count; i++)
    if (check_in_force(ck, ck->prog->decls[i])) visit(&cs, ck->prog->decls[i], ck->prog->decls[i]->name.loc);
  free(cs.state);
  free(cs.path);
  free(cs.slots);
}
