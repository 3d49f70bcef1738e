/*
** reduce_lower.c — before the rules read a model: `hold (r) S` whose body S is made of delays alone
** is rewritten as `use(r, S's time)`, which LANGUAGE.md §8 says it is ("A `use(r, t)` is the same as
** `hold (r) delay(t)`": one queue, one tie order). Every rule that reads uses (one-to-one member
** maps, FCFS lists, pools on m servers) then reads such holds too (docs/reduction.md, "A hold of
** delays is a use"). A resource with a hand-off keeps its holds: the lock rules read those, and
** the rules of uses give up on a hand-off. And `if (c) hold (r[x]) S1 else hold (r[y]) S2` is
** rewritten as `hold (r[c ? x : y]) if (c) S1 else S2` (merge_hold), the same runs.
*/
#include <stdlib.h>

#include "ast_build.h"
#include "reduce_internal.h"

/* Nesting of blocks and ifs in a hold's body the rewrite follows (deeper: the hold stays). */
#define LOWER_MAX_DEPTH 32

/* The time of s when s is made of delays alone (delay, skip, blocks of them, an `if` of them:
** `cond ? then : otherwise`), else NULL. New nodes go to arena, at s's place. */
static Expr *delays_time(Arena *arena, const Stmt *s, int depth) {
  if (!s || depth > LOWER_MAX_DEPTH) return NULL;
  switch (s->kind) {
  case ST_SKIP: return ast_number(arena, s->loc, 0, "0", 1, 1);
  case ST_DELAY: return s->u.delay.duration;
  case ST_BLOCK: {
    Expr *sum = NULL;
    for (int i = 0; i < s->u.block.count; i++) {
      Expr *t = delays_time(arena, s->u.block.items[i], depth + 1);
      if (!t) return NULL;
      sum = sum ? ast_binary(arena, s->loc, OP_ADD, sum, t) : t;
    }
    return sum ? sum : ast_number(arena, s->loc, 0, "0", 1, 1);
  }
  case ST_IF: {
    Expr *then = delays_time(arena, s->u.branch.then, depth + 1);
    Expr *otherwise = s->u.branch.otherwise ? delays_time(arena, s->u.branch.otherwise, depth + 1)
                                            : ast_number(arena, s->loc, 0, "0", 1, 1);
    return then && otherwise ? ast_cond(arena, s->loc, s->u.branch.cond, then, otherwise) : NULL;
  }
  default: return NULL;
  }
}

/* 1 when s is made of delays alone (delays_time's shapes: delay, skip, blocks and `if`s of them),
** or with uses 1 of delays and uses: a hold of s holds nothing else and makes one request at a
** time inside. */
int reduce_delays_only(const Stmt *s, int uses, int depth) {
  if (!s || depth > LOWER_MAX_DEPTH) return 0;
  switch (s->kind) {
  case ST_SKIP: case ST_DELAY: return 1;
  case ST_USE: return uses;
  case ST_BLOCK:
    for (int i = 0; i < s->u.block.count; i++)
      if (!reduce_delays_only(s->u.block.items[i], uses, depth + 1)) return 0;
    return 1;
  case ST_IF:
    return reduce_delays_only(s->u.branch.then, uses, depth + 1) &&
           (!s->u.branch.otherwise || reduce_delays_only(s->u.branch.otherwise, uses, depth + 1));
  default: return 0;
  }
}

/* The statement stack of the walk (an explicit stack: bodies nest as deep as the source). */
typedef struct LowerStack {
  Stmt **items;
  size_t count, cap;
} LowerStack;

/* Pushes s (when not NULL); 0 out of memory. */
static int push(LowerStack *st, Stmt *s) {
  if (!s) return 1;
  if (st->count == st->cap) {
    size_t grown = st->cap ? st->cap * 2 : 64;
    Stmt **bigger = realloc(st->items, grown * sizeof *bigger);
    if (!bigger) return 0;
    st->items = bigger;
    st->cap = grown;
  }
  st->items[st->count++] = s;
  return 1;
}

/* Pushes the statements directly inside s; 0 out of memory. */
static int push_kids(LowerStack *st, Stmt *s) {
  switch (s->kind) {
  case ST_BLOCK: case ST_PARALLEL:
    for (int i = 0; i < s->u.block.count; i++)
      if (!push(st, s->u.block.items[i])) return 0;
    return 1;
  case ST_SEQ: case ST_PAR: return push(st, s->u.loop.body);
  case ST_REPEAT: return push(st, s->u.repeat.body);
  case ST_IF: case ST_CHOOSE: return push(st, s->u.branch.then) && push(st, s->u.branch.otherwise);
  case ST_HOLD: return push(st, s->u.use.body);
  default: return 1;
  }
}

/* Rewrites s when it is a hold of delays; 1 when it did. */
static int lower_hold(Arena *arena, Stmt *s) {
  if (s->kind != ST_HOLD || !s->u.use.decl || s->u.use.decl->u.resource.handoff) return 0;
  Expr *t = delays_time(arena, s->u.use.body, 0);
  if (!t) return 0;
  s->kind = ST_USE;
  s->u.use.duration = t;
  s->u.use.body = NULL;
  return 1;
}

/* Rewrites `if (c) hold (r[x]) S1 else hold (r[y]) S2`, both sides one hold of one resource r
** (members x and y; none for a plain r), as `hold (r[c ? x : y]) if (c) S1 else S2`; 1 when it
** did. Argument: expressions are pure (c has one value for the branch, before or after the
** request) and an `if` takes no time (the simulator enters its side in the same step), so each
** branch makes the same request at the same instant and place in the tie order, and runs the same
** body on the server it gets: the two programs have the same runs, every bound of one is one of
** the other (docs/reduction.md, "A hold on either side of an `if`"). The partner of recursive
** doubling written with an `if` is then read as the one written with `?:`. */
static int merge_hold(Arena *arena, Stmt *s) {
  if (s->kind != ST_IF || !s->u.branch.otherwise) return 0;
  Stmt *a = (Stmt *)reduce_unblocked(s->u.branch.then);   /* the tree's own statements */
  Stmt *b = (Stmt *)reduce_unblocked(s->u.branch.otherwise);
  if (a->kind != ST_HOLD || b->kind != ST_HOLD || !a->u.use.decl || a->u.use.decl != b->u.use.decl) return 0;
  if (!a->u.use.index != !b->u.use.index) return 0;
  Expr *cond = s->u.branch.cond;
  Expr *index = a->u.use.index ? ast_cond(arena, a->loc, cond, a->u.use.index, b->u.use.index) : NULL;
  Stmt *then = a->u.use.body, *otherwise = b->u.use.body, *side = a;
  side->kind = ST_IF;   /* a becomes the body's `if`; s the hold */
  side->u.branch.cond = cond; side->u.branch.then = then; side->u.branch.otherwise = otherwise;
  s->kind = ST_HOLD;
  s->u.use.resource = b->u.use.resource; s->u.use.decl = b->u.use.decl; s->u.use.index = index;
  s->u.use.duration = NULL; s->u.use.body = side;
  return 1;
}

void reduce_lower_holds(Program *prog) {
  LowerStack st = {NULL, 0, 0};
  int ok = 1;
  for (int m = 0; m < prog->module_count && ok; m++) {
    const Module *mod = prog->modules[m];
    for (int d = 0; d < mod->count && ok; d++) {
      const Decl *decl = mod->decls[d];
      if (decl->kind != DECL_PROCESS) continue;
      ok = push(&st, decl->u.process.body);
      while (ok && st.count > 0) {
        Stmt *s = st.items[--st.count];
        merge_hold(&prog->arena, s);
        if (!lower_hold(&prog->arena, s)) ok = push_kids(&st, s);
      }
    }
  }
  free(st.items);   /* out of memory: the holds left are still holds, which is sound */
}
