/*
** reduce_approx.c — where the bounds rest on an approximation (issue 15, item 2): the loop each
** index symbol comes from, the families whose waits were taken as one resource's, and, after the
** bounds are closed, the list of ReduceApprox notes that `pamc predict` prints (a marked closed
** form: REDUCTION.md, "Closed forms"; a family treated as one resource: "Resource families").
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce_internal.h"

/* Nodes of a bound walked looking for approximation markers: beyond, the rest is not examined
** (the notes are then incomplete, never wrong). */
#define APPROX_MAX_VISITS 200000
/* Notes kept per bound. */
#define APPROX_MAX_NOTES 32

/* A loop index of the model and the loop it belongs to. */
typedef struct RIndexLoc {
  AlgSymbol *index;       /* the index symbol (or a piece's own index) */
  const char *name;       /* the loop variable's name ("_" for repeat) */
  const char *kind;       /* "seq", "par", "repeat", or the expression's "sum", "max", ... */
  SrcLoc loc;             /* the loop statement */
} RIndexLoc;

/* A family whose waits were taken as the whole family's (an upper-bound approximation), or whose
** members a par's rule counted as requested by every branch of the par (counted). */
typedef struct RFamLoc {
  const Decl *family;     /* the family declaration */
  int counted;            /* 0: taken as one resource; 1: one member counted for all branches of
                             a par (reduce_note_counted) */
  AlgExpr *unless;        /* NULL: the note holds everywhere; else it does not hold where this
                             condition over the params and consts is true (a par proved free of
                             waits there: reduce_note_families_unless) */
} RFamLoc;

/* Grows an arena array of count items of size to hold one more (doubling). */
static void *grow(RCtx *c, void *items, int count, int *cap, size_t size) {
  if (count < *cap) return items;
  int more = *cap ? 2 * *cap : 16;
  void *bigger = arena_alloc(&c->arena, (size_t)more * size);
  if (count) memcpy(bigger, items, (size_t)count * size);
  *cap = more;
  return bigger;
}

/* A new index symbol named name over a..b for what (the "seq" or "par" loop, "repeat", or an
** expression's "sum", "max", ...) at loc, remembered so that an approximation of a sum or max
** over it can name the place. */
AlgSymbol *reduce_index_new(RCtx *c, const char *what, SrcLoc loc, const char *name, AlgExpr *a,
                            AlgExpr *b) {
  AlgSymbol *index = alg_index_new(c->alg, name, a, b);
  c->index_locs = grow(c, c->index_locs, c->nindex_locs, &c->index_locs_cap, sizeof *c->index_locs);
  RIndexLoc *at = &c->index_locs[c->nindex_locs++];
  at->index = index;
  at->name = name;
  at->kind = what;
  at->loc = loc;
  return index;
}

/* "seq", "par" or "repeat" for a loop statement. */
const char *reduce_loop_kind(const Stmt *s) {
  return s->kind == ST_PAR ? "par" : s->kind == ST_REPEAT ? "repeat" : "seq";
}

/* Records that the upper bound took family's waits as one resource's, wherever it is used: a
** family noted again loses the condition an earlier par gave its note. */
void reduce_note_family(RCtx *c, const Decl *family) {
  for (int i = 0; i < c->nfam_locs; i++)
    if (c->fam_locs[i].family == family && !c->fam_locs[i].counted) { c->fam_locs[i].unless = NULL; return; }
  c->fam_locs = grow(c, c->fam_locs, c->nfam_locs, &c->fam_locs_cap, sizeof *c->fam_locs);
  c->fam_locs[c->nfam_locs++] = (RFamLoc){family, 0, NULL};
}

/* Records, as pending, that a par's rule counted every branch of the par at one member of family
** (the bounded clients where the dealt counts do not hold: reduce_fork.c, member_branches),
** except where unless (params and consts only, else NULL: everywhere) is true. The par decides
** whether its bound used that count (reduce_note_pending_keep) before the note joins the others
** (reduce_note_pending_flush): a note made in the walk of a rule that then gives up would say
** that a bound rests on what it does not use. */
void reduce_note_counted(RCtx *c, const Decl *family, AlgExpr *unless) {
  if (unless && alg_is_num(unless, 1)) return;   /* the counts hold everywhere: no note */
  if (unless && (alg_is_num(unless, 0) || !reduce_only_params(c, unless))) unless = NULL;
  for (int i = 0; i < c->npending; i++)
    if (c->pending[i].family == family) {
      AlgExpr *before = c->pending[i].unless;
      c->pending[i].unless = before && unless ? alg_and(c->alg, before, unless) : NULL;
      return;
    }
  c->pending = grow(c, c->pending, c->npending, &c->pending_cap, sizeof *c->pending);
  c->pending[c->npending++] = (RFamLoc){family, 1, unless};
}

/* The pending notes from index from on: dropped unless keep; kept, they do not hold where exact
** is true (the par's bound is then its contention-free time: NULL, never). */
void reduce_note_pending_keep(RCtx *c, int from, int keep, AlgExpr *exact) {
  if (!keep) { if (c->npending > from) c->npending = from; return; }
  if (!exact || !reduce_only_params(c, exact)) return;
  for (int i = from; i < c->npending; i++)
    c->pending[i].unless = c->pending[i].unless ? alg_or(c->alg, c->pending[i].unless, exact) : exact;
}

/* Moves the pending notes to the families noted, once the par that made them has settled its own
** notes (reduce.c, reduce_par): a par around it may still drop them with its own. */
void reduce_note_pending_flush(RCtx *c) {
  for (int i = 0; i < c->npending; i++) {
    c->fam_locs = grow(c, c->fam_locs, c->nfam_locs, &c->fam_locs_cap, sizeof *c->fam_locs);
    c->fam_locs[c->nfam_locs++] = c->pending[i];
  }
  c->npending = 0;
}

/* The notes of families first noted at index from on (by one par) do not hold where exact is
** true: there the par's upper bound is its contention-free time, no family's waits in it. A
** condition that names a loop index cannot be evaluated by predict: the notes stay as they are. */
void reduce_note_families_unless(RCtx *c, int from, AlgExpr *exact) {
  if (!exact || !reduce_only_params(c, exact)) return;
  for (int i = from; i < c->nfam_locs; i++)
    c->fam_locs[i].unless = c->fam_locs[i].unless ? alg_or(c->alg, c->fam_locs[i].unless, exact) : exact;
}

static const RIndexLoc *index_loc(const RCtx *c, const AlgSymbol *index) {
  for (int i = 0; i < c->nindex_locs; i++) if (c->index_locs[i].index == index) return &c->index_locs[i];
  return NULL;
}

/* The notes being gathered for one result. */
typedef struct Notes {
  RCtx *c;                /* the reduction */
  ReduceApprox *items;    /* notes (malloc) */
  int count, cap;         /* used / allocated */
  unsigned char *seen;    /* per node id: visited (malloc) */
  size_t nseen;           /* length of seen */
  long visits;            /* nodes walked */
} Notes;

/* Adds a note (once per bound, text and place; a repeated note holds where either does: its
** conditions `unless` are joined with `and`, NULL meaning "holds everywhere"). */
static void note_add(Notes *n, int bound, const char *what, SrcLoc loc, int zero, AlgExpr *unless) {
  for (int i = 0; i < n->count; i++)
    if (n->items[i].bound == bound && n->items[i].loc.line == loc.line && n->items[i].loc.col == loc.col &&
        n->items[i].loc.file == loc.file && !strcmp(n->items[i].what, what)) {
      n->items[i].zero = n->items[i].zero || zero;
      AlgExpr *before = n->items[i].unless;
      n->items[i].unless = before && unless ? alg_and(n->c->alg, before, unless) : NULL;
      return;
    }
  if (n->count >= 2 * APPROX_MAX_NOTES) return;
  if (n->count == n->cap) {
    int cap = n->cap ? 2 * n->cap : 8;
    ReduceApprox *grown = realloc(n->items, (size_t)cap * sizeof *grown);
    if (!grown) return;
    n->items = grown;
    n->cap = cap;
  }
  ReduceApprox *a = &n->items[n->count++];
  a->bound = bound;
  a->what = what;
  a->loc = loc;
  a->zero = zero;
  a->unless = unless;
  a->walkable = 0;
}

/* "the sum over i" for a big operator over a loop index of the model. */
static const char *bigop_text(Notes *n, const AlgExpr *e, const RIndexLoc *at) {
  const char *op = alg_kind(e) == ALG_SUM ? "sum" : alg_kind(e) == ALG_PROD ? "product"
                 : alg_kind(e) == ALG_MAXOVER ? "max" : "min";
  char text[160];
  if (!strcmp(at->kind, "seq") || !strcmp(at->kind, "par") || !strcmp(at->kind, "repeat"))
    snprintf(text, sizeof text, "the %s over %s of the %s loop", op, at->name, at->kind);
  else
    snprintf(text, sizeof text, "the %s over %s of %s(...)", op, at->name, at->kind);
  char *copy = arena_alloc(&n->c->arena, strlen(text) + 1);
  strcpy(copy, text);
  return copy;
}

/* 1 when some approximation marker in closed (each node once) stands for the value 0. */
static int marks_zero(Notes *n, AlgExpr *closed) {
  AlgExpr *stack[1024];
  int top = 0;
  stack[top++] = closed;
  while (top > 0 && n->visits < APPROX_MAX_VISITS) {
    AlgExpr *e = stack[--top];
    n->visits++;
    if (!alg_is_approx(e)) continue;   /* no marker below */
    if ((alg_kind(e) == ALG_LOWER || alg_kind(e) == ALG_UPPER) && alg_is_num(alg_kid(e, 0), 0)) return 1;
    for (size_t i = 0; i < alg_nkids(e) && top < (int)(sizeof stack / sizeof stack[0]); i++)
      stack[top++] = alg_kid(e, i);
  }
  return 0;
}

/* 1 when needle is a node of hay (or the walk runs over its budget: the cautious answer). */
static int holds_node(AlgExpr *hay, const AlgExpr *needle) {
  AlgExpr *stack[1024];
  int top = 0;
  long visits = 0;
  stack[top++] = hay;
  while (top > 0) {
    AlgExpr *e = stack[--top];
    if (e == needle || visits++ >= APPROX_MAX_VISITS) return 1;
    if (top + (int)alg_nkids(e) > (int)(sizeof stack / sizeof stack[0])) return 1;
    for (size_t i = 0; i < alg_nkids(e); i++) stack[top++] = alg_kid(e, i);
  }
  return 0;
}

/* 1 when at a point where evaluation walks every sum (alg_tape_eval_enclosed), no marker of
** closed stands for an approximation. A marker is lower/upper(f, exact) with exact =
** cond(range under the loop limit, the sum, f) (alg_close): where the range is above the limit the
** sum is enclosed, not walked, so the point is seen; a marker whose exact form no longer holds a
** sum (closed since, by a param's value) is exact where it does not fall back to f; a marker of
** the sum alone (no safe form found) is the sum, walked or enclosed. A marker of f alone, or one
** whose exact form falls back to f with no sum left, is not walkable. */
static int markers_walkable(AlgExpr *closed) {
  AlgExpr *stack[1024];
  int top = 0;
  long visits = 0;   /* its own budget: the notes' walk keeps n's */
  stack[top++] = closed;
  while (top > 0) {
    if (visits++ >= APPROX_MAX_VISITS) return 0;
    AlgExpr *e = stack[--top];
    if (!alg_is_approx(e)) continue;   /* no marker below */
    if (alg_kind(e) == ALG_LOWER || alg_kind(e) == ALG_UPPER) {
      if (alg_nkids(e) < 2) {   /* the sum itself (no safe form found): walked or enclosed */
        if (!alg_has_bigop(e) || alg_is_approx(alg_kid(e, 0))) return 0;
        continue;
      }
      AlgExpr *approx = alg_kid(e, 0), *exact = alg_kid(e, 1);
      if (!alg_has_bigop(exact) && holds_node(exact, approx)) return 0;
      if (alg_is_approx(approx) || alg_is_approx(exact)) return 0;   /* markers inside: not read */
      continue;
    }
    if (top + (int)alg_nkids(e) > (int)(sizeof stack / sizeof stack[0])) return 0;
    for (size_t i = 0; i < alg_nkids(e); i++) stack[top++] = alg_kid(e, i);
  }
  return 1;
}

/* When closed (the bound after alg_close) carries a marker: a note for each big operator over a
** loop of the model left open in open (the bound before closing: what alg_close approximated),
** or one for a sum the reduction formed when none is (a rule's own index, not a loop of the model). Each node of open is walked once. */
static void walk_bound(Notes *n, AlgExpr *open, AlgExpr *closed, int bound) {
  if (!closed || !alg_is_approx(closed)) return;
  int zero = marks_zero(n, closed), found = 0, first = n->count;
  int walkable = markers_walkable(closed);
  AlgExpr *stack[1024];
  int top = 0;
  stack[top++] = open;
  while (top > 0 && n->visits < APPROX_MAX_VISITS) {
    AlgExpr *e = stack[--top];
    n->visits++;
    size_t id = alg_id(e);
    if (id < n->nseen) {
      if (n->seen[id] & (1u << bound)) continue;
      n->seen[id] |= (unsigned char)(1u << bound);
    }
    AlgKind k = alg_kind(e);
    if (k == ALG_SUM || k == ALG_PROD || k == ALG_MAXOVER || k == ALG_MINOVER) {
      const RIndexLoc *at = index_loc(n->c, alg_symbol_of(e));
      if (at) { note_add(n, bound, bigop_text(n, e, at), at->loc, zero, NULL); found = 1; }
    }
    for (size_t i = 0; i < alg_nkids(e) && top < (int)(sizeof stack / sizeof stack[0]); i++)
      stack[top++] = alg_kid(e, i);
  }
  if (!found) {
    SrcLoc none;
    memset(&none, 0, sizeof none);
    note_add(n, bound, "a sum the reduction formed (over no loop of the model)", none, zero, NULL);
  }
  for (int i = first; i < n->count; i++) n->items[i].walkable = walkable;
}

/* Fills out->approx with the notes of T_lo and T_hi: where the closed bound carries a marker, the
** sums and maxes left open in L and U (the bounds before closing), named by their loops; and every
** family taken as one resource in T_hi. */
void reduce_approx_finish(RCtx *c, ReduceResult *out, AlgExpr *L, AlgExpr *U) {
  Notes n;
  memset(&n, 0, sizeof n);
  n.c = c;
  n.nseen = alg_ctx_node_count(c->alg);
  n.seen = calloc(n.nseen ? n.nseen : 1, 1);
  if (!n.seen) n.nseen = 0;
  walk_bound(&n, L, out->t_lo, 0);
  walk_bound(&n, U, out->t_hi, 1);
  for (int i = 0; i < c->nfam_locs; i++) {
    const Decl *family = c->fam_locs[i].family;
    char text[160];
    if (c->fam_locs[i].counted)
      snprintf(text, sizeof text, "family %s taken as one member by the branches of a par", family->name.name);
    else
      snprintf(text, sizeof text, "family %s taken as one resource", family->name.name);
    char *copy = arena_alloc(&c->arena, strlen(text) + 1);
    strcpy(copy, text);
    note_add(&n, 1, copy, family->loc, 0, c->fam_locs[i].unless);
  }
  free(n.seen);
  /* the texts live in the arena, freed with the reduction: copy them into the result */
  for (int i = 0; i < n.count; i++) {
    char *copy = malloc(strlen(n.items[i].what) + 1);
    if (!copy) { n.count = i; break; }
    strcpy(copy, n.items[i].what);
    n.items[i].what = copy;
  }
  out->approx = n.items;
  out->approx_count = n.count;
}
