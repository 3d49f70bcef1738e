/*
** genmodel.c — the random model generator of the property tests (genmodel.h): a seeded tree of
** seq/par/||/blocks/repeat/if over delays and uses of up to 5 resources, and its model text.
** Language version 2 (LANGUAGE.md §8) in functions of its own (gen_v2_*): ps(c) resources,
** handoff(h), typical values, and holds nested in one global order (no deadlock).
*/
#include "genmodel.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Generator state: the random stream and the loop indices in scope. */
typedef struct GenState {
  uint64_t rng;                     /* splitmix64 state */
  GenModel *m;                      /* model being built */
  int scope_hi[GEN_MAX_DEPTH + 1];  /* for each index depth in scope: its largest value */
  int nvars;                        /* indices in scope */
  int held_max;                     /* largest resource id held by enclosing holds, -1: none */
} GenState;

static int gen_v2_resource_for(GenState *g, int hold);
static int gen_v2_hold(GenState *g, int depth);
static void gen_v2_decls(GenState *g);

static uint64_t gen_next(GenState *g) {
  uint64_t z = (g->rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Uniform in 0 .. n-1 (n >= 1). */
static int gen_below(GenState *g, int n) { return (int)(gen_next(g) % (uint64_t)n); }

static int gen_new_node(GenState *g, GenKind kind) {
  GenModel *m = g->m;
  int id = m->node_count++;
  GenNode *n = &m->nodes[id];
  memset(n, 0, sizeof *n);
  n->kind = kind;
  for (int k = 0; k < GEN_MAX_KIDS; k++) n->kids[k] = -1;
  n->dur.c = n->dur.ci = n->dur.var = -1;
  n->callee = -1;
  return id;
}

static GenDur gen_dur(GenState *g) {
  GenDur d = {.c = -1, .coef_c = 1, .var = -1, .ci = -1, .lit_us = 0, .mod = 0};
  int parts = 0;
  if (g->m->const_count > 0 && gen_below(g, 4) != 0) {
    d.c = gen_below(g, g->m->const_count);
    d.coef_c = 1 + gen_below(g, 3);
    parts++;
  }
  if (g->nvars > 0 && gen_below(g, 3) == 0) {
    d.var = gen_below(g, g->nvars);
    d.ci = g->m->const_count > 0 && gen_below(g, 2) ? gen_below(g, g->m->const_count) : -1;
    parts++;
  }
  if (parts == 0 || gen_below(g, 4) == 0) d.lit_us = gen_below(g, 4);
  return d;
}

/* A delay of a random duration. */
static int gen_delay(GenState *g) {
  int id = gen_new_node(g, GEN_DELAY);
  g->m->nodes[id].dur = gen_dur(g);
  return id;
}

/* d made to arrive in classes of the branch (docs/reduction.md, "Requests that reach a member
** late"): its index part (i % K) (K = 2 or 3) of the par's index at depth par_var. */
static void gen_stagger(GenState *g, GenDur *d, int par_var) {
  d->var = par_var;
  d->mod = 2 + gen_below(g, 2);
  if (d->ci < 0 && g->m->const_count > 0 && gen_below(g, 2)) d->ci = gen_below(g, g->m->const_count);
}

/* A use of a random resource that no enclosing hold keeps (member and duration left to the
** caller), or -1 when every resource is held around here. */
static int gen_use(GenState *g) {
  int res = gen_v2_resource_for(g, 0);
  if (res < 0) return -1;
  int id = gen_new_node(g, GEN_USE);
  g->m->nodes[id].res = res;
  return id;
}
static void gen_member(GenState *g, GenNode *n);

static int gen_leaf(GenState *g) {
  GenModel *m = g->m;
  int r = gen_below(g, 10);
  if (r == 0) return gen_new_node(g, GEN_SKIP);
  if (r <= 3 || m->res_count == 0) {
    int id = gen_new_node(g, GEN_DELAY);
    m->nodes[id].dur = gen_dur(g);
    return id;
  }
  int res = gen_v2_resource_for(g, 0);
  if (res < 0) {   /* every resource is held around here: a delay */
    int id = gen_new_node(g, GEN_DELAY);
    m->nodes[id].dur = gen_dur(g);
    return id;
  }
  int id = gen_new_node(g, GEN_USE);
  GenNode *n = &m->nodes[id];
  n->res = res;
  gen_member(g, n);
  n->dur = gen_dur(g);
  return id;
}

/* How a use or hold of n->res picks its member when n->res is a family. */
static void gen_member(GenState *g, GenNode *n) {
  if (g->m->res[n->res].family) {
    int how = g->nvars > 0 ? gen_below(g, 4) : GEN_MEMBER_CONST;
    n->member = (GenMember)how;
    if (how == GEN_MEMBER_CONST) n->member_val = gen_below(g, GEN_FAMILY_SIZE);
    else {
      n->member_var = gen_below(g, g->nvars);
      if (how == GEN_MEMBER_MOD || how == GEN_MEMBER_BLOCK) n->member_val = 2 + gen_below(g, 2);
      if (how == GEN_MEMBER_MOD && gen_below(g, 2)) n->member_off = 1 + gen_below(g, 2);
    }
  }
}

/* ------------------------------------------------------------------ idioms (issue 15) */

/* Nodes an idiom takes at most: repeat, par, seq, block and GEN_MAX_KIDS steps, each a `||` of
** GEN_MAX_KIDS leaves at most (gen_idiom_fork). */
#define GEN_IDIOM_NODES (4 + GEN_MAX_KIDS * (1 + GEN_MAX_KIDS))

/* A step of a chain inside an idiom's par (index depth par_var; inner loop index depth
** step_var, or -1): a delay, a use of a plain resource, or a use of a family member named the
** ways parallel programs name them (own member, ring neighbours, round j of an all-to-all, the
** stage j of a pipeline, one fixed member). */
static int gen_idiom_step(GenState *g, int par_var, int step_var) {
  GenModel *m = g->m;
  if (m->res_count == 0 || gen_below(g, 4) == 0) return gen_delay(g);
  int id = gen_use(g);
  if (id < 0) return gen_delay(g);
  GenNode *n = &m->nodes[id];
  n->member_var = par_var;
  if (m->res[n->res].family) {
    switch (gen_below(g, 8)) {
    case 7:   /* dealt in blocks: floor(i / B), floor((i + 1) / B), floor(i * 2 / 3), floor(i / ceil(P / 2)),
              ** and rings over the blocks (the ranks of a node send to the next node's nic) */
      n->member = GEN_MEMBER_BLOCK; n->member_off = gen_below(g, 8);
      n->member_val = (n->member_off == 1 ? 2 : 1) + gen_below(g, 3 - (n->member_off == 1));   /* in range */
      break;
    case 6: n->member = GEN_MEMBER_PIECES; n->member_val = gen_below(g, 21); break;
    case 0: n->member = GEN_MEMBER_VAR; break;
    case 1:
      n->member = gen_below(g, 3) ? GEN_MEMBER_RING : GEN_MEMBER_AFFINE; n->member_off = gen_below(g, 3);
      n->member_val = 2 + gen_below(g, 2);   /* the affine map's slope */
      break;
    case 2: n->member = GEN_MEMBER_RING_BACK; break;
    case 3:
      if (step_var >= 0 && gen_below(g, 3) == 0) { n->member = GEN_MEMBER_AFFINE; n->member_val = 0; n->member_off = step_var; }
      else if (step_var >= 0 && gen_below(g, 2) == 0) {   /* the pairwise (xor) order, by a fn */
        int form = gen_below(g, 8);   /* 0, 1: bor (not one-to-one); 2: xr, 3: xb with j % 2, no % P */
        n->member = GEN_MEMBER_XORFN; n->member_val = form < 2 ? 1 : form < 4 ? form : 0; n->member_off = step_var;
      }
      else if (step_var >= 0) { n->member = GEN_MEMBER_SHIFT; n->member_off = step_var; }
      else n->member = GEN_MEMBER_RING, n->member_off = 1;
      break;
    case 4:
      if (step_var >= 0) { n->member = GEN_MEMBER_VAR; n->member_var = step_var; }   /* stage j */
      else { n->member = GEN_MEMBER_CONST; n->member_val = gen_below(g, GEN_FAMILY_SIZE); }
      break;
    default: n->member = GEN_MEMBER_CONST; n->member_val = gen_below(g, GEN_FAMILY_SIZE); break;
    }
  }
  n->dur = gen_dur(g);   /* may depend on the indices: branches of unequal length */
  if (step_var >= 0 && gen_below(g, 6) == 0) {   /* a ring allgather: step j passes rank (i - j)'s block */
    n->dur.share = 5; n->dur.share_var = par_var; n->dur.share_step = step_var;
    n->dur.share_n = gen_below(g, 3 * GEN_MAX_BOUND);
  }
  return id;
}

/* A block of 1 .. GEN_MAX_KIDS chain steps (or one step alone). */
static int gen_idiom_chain(GenState *g, int par_var, int step_var) {
  int count = 1 + gen_below(g, GEN_MAX_KIDS);
  if (count == 1) return gen_idiom_step(g, par_var, step_var);
  int id = gen_new_node(g, GEN_BLOCK);
  for (int k = 0; k < count; k++) {
    int kid = gen_idiom_step(g, par_var, step_var);
    g->m->nodes[id].kids[k] = kid;
    g->m->nodes[id].nkids = k + 1;
  }
  return id;
}

/* A halo exchange on a 3 x 2 grid of workers: par (i = 0, 2) par (j = 0, 1) over a chain of
** uses of a family at i * 2 + j, a neighbour in i or in j (one-to-one in the pair) or i + j (not),
** its last two steps sometimes at once (`||`: two sends). */
static int gen_idiom_grid(GenState *g) {
  GenModel *m = g->m;
  int outer = gen_new_node(g, GEN_PAR), inner = gen_new_node(g, GEN_PAR);
  m->nodes[outer].var = g->nvars; m->nodes[outer].lo = 0; m->nodes[outer].hi = 2;
  g->scope_hi[g->nvars++] = 2;
  m->nodes[inner].var = g->nvars; m->nodes[inner].lo = 0; m->nodes[inner].hi = 1;
  g->scope_hi[g->nvars++] = 1;
  /* one time in 3 a W x H grid, H = 1 .. 3 a const and W = 6 / H derived from P (its loop bound
  ** W - 1 the only sign that W is an integer: docs/reduction.md, "Loop ends are integers") */
  int rect = gen_below(g, 3) == 0;
  if (rect) {
    if (!m->rect_h) m->rect_h = 1 + gen_below(g, 3);
    m->nodes[outer].hi_param = 4; m->nodes[outer].hi = 6 / m->rect_h - 1;
    m->nodes[inner].hi_param = 5; m->nodes[inner].hi = m->rect_h - 1;
    g->scope_hi[m->nodes[outer].var] = m->nodes[outer].hi;
    g->scope_hi[m->nodes[inner].var] = m->nodes[inner].hi;
  }
  int count = 1 + gen_below(g, GEN_MAX_KIDS);
  int body = gen_new_node(g, GEN_BLOCK);
  for (int k = 0; k < count; k++) {
    int step = gen_idiom_step(g, m->nodes[outer].var, -1);
    GenNode *n = &m->nodes[step];
    if (n->kind == GEN_USE && m->res[n->res].family) {
      n->member = rect ? GEN_MEMBER_RECT : GEN_MEMBER_GRID;
      n->member_var = m->nodes[outer].var;
      n->member_off = m->nodes[inner].var;
      n->member_val = gen_below(g, rect ? 4 : 7);   /* 4: the ring over the grid read row by row; 5: a
                                                       wrap too short; 6: the column shift as a conditional */
    }
    m->nodes[body].kids[k] = step;
    m->nodes[body].nkids = k + 1;
  }
  if (count >= 2 && gen_below(g, 2)) {   /* the last two steps at once: sends to two neighbours */
    int fork = gen_new_node(g, GEN_PARALLEL);
    m->nodes[fork].kids[0] = m->nodes[body].kids[count - 2];
    m->nodes[fork].kids[1] = m->nodes[body].kids[count - 1];
    m->nodes[fork].nkids = 2;
    m->nodes[body].kids[count - 2] = fork;
    m->nodes[body].kids[count - 1] = -1;
    m->nodes[body].nkids = count - 1;
  }
  g->nvars -= 2;
  m->nodes[inner].kids[0] = body;
  m->nodes[outer].kids[0] = inner;
  return outer;
}

/* A halo exchange on a 3-D box of workers (docs/reduction.md, "Nested pars read as the digits of
** one index"): par (i = 0, A - 1) par (j = 0, B - 1) par (k = 0, C - 1), (A, B, C) an order of
** (3, 2, 1), over a chain of uses of a family at (i * B + j) * C + k, a neighbour in i, j or k
** (one-to-one in the triple) or a map that is not, its last two steps sometimes at once. */
static int gen_idiom_cube(GenState *g) {
  GenModel *m = g->m;
  static const int sizes[6][3] = {{3, 2, 1}, {3, 1, 2}, {2, 3, 1}, {2, 1, 3}, {1, 3, 2}, {1, 2, 3}};
  const int *abc = sizes[gen_below(g, 6)];
  int pars[3];
  for (int l = 0; l < 3; l++) {
    pars[l] = gen_new_node(g, GEN_PAR);
    m->nodes[pars[l]].var = g->nvars; m->nodes[pars[l]].lo = 0; m->nodes[pars[l]].hi = abc[l] - 1;
    g->scope_hi[g->nvars++] = abc[l] - 1;
  }
  int outer = m->nodes[pars[0]].var;
  int count = 1 + gen_below(g, GEN_MAX_KIDS);
  int body = gen_new_node(g, GEN_BLOCK);
  for (int k = 0; k < count; k++) {
    int step = gen_idiom_step(g, outer, -1);
    GenNode *n = &m->nodes[step];
    if (n->kind == GEN_USE && m->res[n->res].family) {
      n->member = GEN_MEMBER_CUBE;
      n->member_var = outer;
      n->pipe_r = abc[1]; n->pipe_k = abc[2];
      n->member_val = gen_below(g, 10);
    }
    m->nodes[body].kids[k] = step;
    m->nodes[body].nkids = k + 1;
  }
  if (count >= 2 && gen_below(g, 2)) {   /* the last two steps at once: sends to two neighbours */
    int fork = gen_new_node(g, GEN_PARALLEL);
    m->nodes[fork].kids[0] = m->nodes[body].kids[count - 2];
    m->nodes[fork].kids[1] = m->nodes[body].kids[count - 1];
    m->nodes[fork].nkids = 2;
    m->nodes[body].kids[count - 2] = fork;
    m->nodes[body].kids[count - 1] = -1;
    m->nodes[body].nkids = count - 1;
  }
  g->nvars -= 3;
  m->nodes[pars[2]].kids[0] = body;
  m->nodes[pars[1]].kids[0] = pars[2];
  m->nodes[pars[0]].kids[0] = pars[1];
  return pars[0];
}

/* The colour of the cell (i<outer>, i<outer + 1>) as the index part of d: ((i + j) % 2), or on a
** grid numbered row by row (flat: the cell i<outer>), ((floor(i / 2) + i % 2) % 2). */
static void gen_colour(GenDur *d, int outer, int flat) {
  d->var = outer; d->var2 = flat ? -1 : outer + 2; d->mod = 2;
}

/* A grid use of family res at member form (GEN_MEMBER_GRID, or GEN_MEMBER_FLAT when flat) by
** the cells (i<outer>, i<outer + 1>) (flat: i<outer>), its duration sometimes by the cell's
** colour. */
static int gen_checker_use(GenState *g, int res, int outer, int form, int flat) {
  GenModel *m = g->m;
  int id = gen_new_node(g, GEN_USE);
  GenNode *n = &m->nodes[id];
  n->res = res;
  n->member = flat ? GEN_MEMBER_FLAT : GEN_MEMBER_GRID;
  n->member_var = outer; n->member_off = outer + 1; n->member_val = form;
  n->dur = gen_dur(g);
  if (gen_below(g, 3) == 0) gen_colour(&n->dur, outer, flat);
  return id;
}

/* A red/black sweep on a 3 x 2 (or 2 x 2) grid: par (i = 0, 2) par (j = 0, 1) { delay by the
** cell's colour (i + j) % 2; a use of the cell's own member; sends to the member below and to
** the right at once } over one FCFS family (or a 2 x 2 grid numbered row by row, par (i = 0, 3)), the own use sometimes after the sends or left out,
** the sends sometimes one after the other; the par sometimes repeated, or beside another use of
** the family (docs/reduction.md, "A member of a grid counted", requests known ahead). Returns -1
** when the model has no FCFS family. */
static int gen_idiom_checker(GenState *g) {
  GenModel *m = g->m;
  int res = -1;
  for (int k = 0; k < m->res_count && res < 0; k++)
    if (m->res[k].family && !m->res[k].ps_tenths && k > g->held_max) res = k;   /* not held around */
  if (res < 0 || g->nvars + 2 > GEN_MAX_DEPTH) return -1;
  /* few servers, most often no hand-off: the nics of the idiom, where requests queue */
  if (m->res[res].servers > 2) m->res[res].servers = 1 + gen_below(g, 2);
  if (gen_below(g, 4)) m->res[res].handoff_ns = 0;
  int flat = gen_below(g, 3) == 0;   /* a 2 x 2 grid numbered row by row: par (i = 0, 3) */
  int outer = gen_new_node(g, GEN_PAR), inner = flat ? outer : gen_new_node(g, GEN_PAR);
  int ov = g->nvars;
  m->nodes[outer].var = ov; m->nodes[outer].lo = 0; m->nodes[outer].hi = flat ? 3 : 1 + gen_below(g, 2);
  g->scope_hi[g->nvars++] = m->nodes[outer].hi;
  if (!flat) {
    m->nodes[inner].var = ov + 1; m->nodes[inner].lo = 0; m->nodes[inner].hi = 1;
    g->scope_hi[g->nvars++] = 1;
  }
  int colour = gen_new_node(g, GEN_DELAY);
  m->nodes[colour].dur = gen_dur(g);
  gen_colour(&m->nodes[colour].dur, ov, flat);
  if (m->const_count > 0 && gen_below(g, 2)) m->nodes[colour].dur.ci = gen_below(g, m->const_count);
  int sends = gen_new_node(g, gen_below(g, 4) ? GEN_PARALLEL : GEN_BLOCK);
  m->nodes[sends].kids[0] = gen_checker_use(g, res, ov, 1, flat);
  m->nodes[sends].kids[1] = gen_checker_use(g, res, ov, 2, flat);
  m->nodes[sends].nkids = 2;
  int body = gen_new_node(g, GEN_BLOCK), own = gen_below(g, 5);
  m->nodes[body].kids[0] = colour;
  m->nodes[body].nkids = 1;
  if (own != 0) {   /* the cell's own use: before the sends (most often) or after */
    int use = gen_checker_use(g, res, ov, 0, flat);
    m->nodes[body].kids[m->nodes[body].nkids++] = own == 1 ? sends : use;
    m->nodes[body].kids[m->nodes[body].nkids++] = own == 1 ? use : sends;
  } else {
    m->nodes[body].kids[m->nodes[body].nkids++] = sends;
  }
  g->nvars -= flat ? 1 : 2;
  m->nodes[inner].kids[0] = body;
  if (!flat) m->nodes[outer].kids[0] = inner;
  int how = gen_below(g, 6);
  if (how == 0) {   /* repeated: the par runs once at a time */
    int rep = gen_new_node(g, GEN_REPEAT);
    m->nodes[rep].hi = 2;
    m->nodes[rep].kids[0] = outer;
    return rep;
  }
  if (how == 1) {   /* beside another use of the family: the rule must not apply */
    int other = gen_new_node(g, GEN_USE);
    m->nodes[other].res = res;
    m->nodes[other].member = GEN_MEMBER_CONST; m->nodes[other].member_val = gen_below(g, 4);
    m->nodes[other].dur = gen_dur(g);
    int fork = gen_new_node(g, GEN_PARALLEL);
    m->nodes[fork].kids[0] = other; m->nodes[fork].kids[1] = outer; m->nodes[fork].nkids = 2;
    return fork;
  }
  return outer;
}

/* A step of gen_idiom_fork: an idiom step whose member stays in the family for an index up to
** GEN_FAMILY_SIZE - 1 (the piecewise forms p + 1 and 3 - p leave it there), on the full ring
** `(i + c) % GEN_FAMILY_SIZE` when ring is set, else one time in 4 a row shift of a grid read with
** one index (gen_put_member's rows and conds). */
static int gen_fork_send(GenState *g, int par_var, int ring) {
  GenModel *m = g->m;
  int id = gen_idiom_step(g, par_var, -1);
  GenNode *n = &m->nodes[id];
  if (n->kind != GEN_USE || !m->res[n->res].family) return id;
  if (ring || (n->member == GEN_MEMBER_PIECES && (n->member_val == 0 || n->member_val == 5))) {
    n->member = GEN_MEMBER_RING_FULL;
    n->member_off = gen_below(g, GEN_FAMILY_SIZE);
  } else if (gen_below(g, 4) == 0 && gen_below(g, 3) == 0) {   /* the row shift by digits of a const H */
    if (!m->rect_h) m->rect_h = 1 + gen_below(g, 3);
    n->member = GEN_MEMBER_RECT;
    n->member_var = par_var;
    n->member_off = -1;
  } else if (gen_below(g, 4) == 0) {   /* a row shift of a grid read with one index (some not one-to-one) */
    n->member = GEN_MEMBER_PIECES;
    n->member_val = 8 + gen_below(g, 7);
  }
  return id;
}

/* par (i<depth> = 0, hi) (`P - 1` when hi_param, hi then P's default - 1) with its index in
** scope (the caller takes it out: g->nvars--). */
static int gen_par_open(GenState *g, int hi_param, int hi) {
  int par = gen_new_node(g, GEN_PAR);
  GenNode *p = &g->m->nodes[par];
  p->var = g->nvars; p->lo = 0; p->hi_param = hi_param; p->hi = hi;
  g->scope_hi[g->nvars++] = hi_param ? GEN_MAX_BOUND : hi;
  return par;
}

static int gen_maybe_repeat(GenState *g, int body, int one_in);

/* A neighbour exchange with the sends at once: `par (i = 0, 5)` over the six members of the
** families (or `par (i = 0, P - 1)`), its body sometimes `repeat`ed inside the par (workers that
** drift apart), a block of steps of which some are a `||` of 2 .. GEN_MAX_KIDS sends (or a
** `par (d = 0, 1)` over one send) to
** `(i + c) % 6` (one-to-one onto the family when the par covers it) or to the other members of
** the idioms (docs/reduction.md, "Pars whose branches send at once"). */
static int gen_idiom_fork(GenState *g) {
  GenModel *m = g->m;
  int over_param = gen_below(g, 3) == 0;
  int par = gen_par_open(g, over_param, over_param ? m->param_default - 1 : GEN_FAMILY_SIZE - 1);
  int par_var = g->nvars - 1;
  int repeat = gen_below(g, 3) == 0 ? gen_new_node(g, GEN_REPEAT) : -1;
  if (repeat >= 0) m->nodes[repeat].hi = 1 + gen_below(g, 2);
  int count = 1 + gen_below(g, GEN_MAX_KIDS);
  int body = gen_new_node(g, GEN_BLOCK);
  for (int k = 0; k < count; k++) {
    int step;
    int how = gen_below(g, 6);
    if (how == 0) {   /* a send, or the own member's uses one after another (a reduction after the halo) */
      step = gen_fork_send(g, par_var, 0);
      GenNode *n = &m->nodes[step];
      if (n->kind == GEN_USE && m->res[n->res].family && gen_below(g, 2)) n->member = GEN_MEMBER_VAR;
      step = gen_maybe_repeat(g, step, 2);
    }
    else if (how == 1 && g->nvars < GEN_MAX_DEPTH) {   /* par (d = 0, 1) over two directions */
      step = gen_new_node(g, GEN_PAR);
      m->nodes[step].var = g->nvars; m->nodes[step].lo = 0; m->nodes[step].hi = 1;
      g->scope_hi[g->nvars++] = 1;
      m->nodes[step].kids[0] = gen_fork_send(g, par_var, gen_below(g, 2));
      g->nvars--;
    } else {
      step = gen_new_node(g, GEN_PARALLEL);
      int sends = 2 + gen_below(g, GEN_MAX_KIDS - 1);
      for (int j = 0; j < sends; j++) {
        int send = gen_fork_send(g, par_var, gen_below(g, 4));
        m->nodes[step].kids[j] = send;
        m->nodes[step].nkids = j + 1;
      }
    }
    m->nodes[body].kids[k] = step;
    m->nodes[body].nkids = k + 1;
  }
  g->nvars--;
  if (repeat >= 0) { m->nodes[repeat].kids[0] = body; body = repeat; }
  m->nodes[par].kids[0] = body;
  return par;
}

/* use(res[member], d) with the member at member_off of index depth par_var, d often a literal
** (equal branches). */
static int gen_send(GenState *g, int res, GenMember member, int par_var, int member_off) {
  int id = gen_new_node(g, GEN_USE);
  GenNode *n = &g->m->nodes[id];
  n->res = res; n->member = member; n->member_var = par_var; n->member_off = member_off;
  if (gen_below(g, 3)) { GenDur d = {.c = -1, .coef_c = 1, .var = -1, .ci = -1, .lit_us = 1 + gen_below(g, 3), .mod = 0}; n->dur = d; }
  else n->dur = gen_dur(g);
  return id;
}

/* The first FCFS family that no enclosing hold keeps, or -1. */
static int gen_fcfs_family(GenState *g) {
  for (int k = g->held_max + 1; k < g->m->res_count; k++)
    if (g->m->res[k].family && g->m->res[k].ps_tenths == 0) return k;
  return -1;
}

/* A send of gen_idiom_drift: use(r[(i + c) % GEN_FAMILY_SIZE], d), sometimes with a delay after
** it or before it in its branch of the `||` (a block), d often a literal (equal branches). */
static int gen_drift_send(GenState *g, int res, int par_var) {
  GenModel *m = g->m;
  int id = gen_send(g, res, GEN_MEMBER_RING_FULL, par_var, gen_below(g, GEN_FAMILY_SIZE));
  if (gen_below(g, 4)) return id;
  int block = gen_new_node(g, GEN_BLOCK), other = gen_delay(g), first = gen_below(g, 2);
  m->nodes[block].kids[0] = first ? other : id;
  m->nodes[block].kids[1] = first ? id : other;
  m->nodes[block].nkids = 2;
  return block;
}

/* Workers that run their own steps and exchange on a ring (docs/reduction.md, "Branches that run
** their own steps"): par (i = 0, GEN_FAMILY_SIZE - 1) repeat (1 .. 4) { a step of compute on the
** own member or a delay (sometimes (i % K) t0: late by class); a `||` of 2 .. GEN_MAX_KIDS sends to (i + c) % GEN_FAMILY_SIZE of one
** family }; -1 when the model has no FCFS family that no enclosing hold keeps. */
static int gen_idiom_drift(GenState *g) {
  GenModel *m = g->m;
  int res = gen_fcfs_family(g);
  if (res < 0) return -1;
  int par = gen_par_open(g, 0, GEN_FAMILY_SIZE - 1), par_var = g->nvars - 1;
  int repeat = gen_new_node(g, GEN_REPEAT);
  m->nodes[repeat].hi = 1 + gen_below(g, 4);
  int body = gen_new_node(g, GEN_BLOCK);
  int work = gen_delay(g);
  if (gen_below(g, 3) == 0) gen_stagger(g, &m->nodes[work].dur, par_var);   /* late sends by class */
  int own = gen_below(g, 2) ? gen_use(g) : -1;
  if (own >= 0) {   /* compute on the worker's own member of another family, or the same */
    if (m->res[m->nodes[own].res].family) { m->nodes[own].member = GEN_MEMBER_VAR; m->nodes[own].member_var = par_var; }
    m->nodes[own].dur = m->nodes[work].dur;
    work = own;
  }
  int fork = gen_new_node(g, GEN_PARALLEL);
  int sends = 2 + gen_below(g, GEN_MAX_KIDS - 1);
  for (int j = 0; j < sends; j++) {
    int send = gen_drift_send(g, res, par_var);
    m->nodes[fork].kids[j] = send;
    m->nodes[fork].nkids = j + 1;
  }
  m->nodes[body].kids[0] = work; m->nodes[body].kids[1] = fork; m->nodes[body].nkids = 2;
  g->nvars--;
  m->nodes[repeat].kids[0] = body;
  m->nodes[par].kids[0] = repeat;
  return par;
}

/* body, or one time in `one_in` `repeat (1 .. 3) body`. */
static int gen_maybe_repeat(GenState *g, int body, int one_in) {
  if (gen_below(g, one_in) != 0) return body;
  int repeat = gen_new_node(g, GEN_REPEAT);
  g->m->nodes[repeat].hi = 1 + gen_below(g, 3);
  g->m->nodes[repeat].kids[0] = body;
  return repeat;
}

/* An idiom's par, one time in one_in repeated outside (`repeat (1 .. reps)`: supersteps with a
** barrier), then one time in one_in beside another request on its resource res (what breaks the
** symmetry of its branches). */
static int gen_par_outside(GenState *g, int par, int res, int one_in, int reps) {
  GenModel *m = g->m;
  int top = par;
  if (gen_below(g, one_in) == 0) {
    top = gen_new_node(g, GEN_REPEAT);
    m->nodes[top].hi = 1 + gen_below(g, reps);
    m->nodes[top].kids[0] = par;
  }
  if (gen_below(g, one_in) == 0) {
    int fork = gen_new_node(g, GEN_PARALLEL), other = gen_new_node(g, GEN_USE);
    m->nodes[other].res = res;
    gen_member(g, &m->nodes[other]);
    m->nodes[other].dur = gen_dur(g);
    int first = gen_below(g, 2);
    m->nodes[fork].kids[first] = top; m->nodes[fork].kids[1 - first] = other; m->nodes[fork].nkids = 2;
    top = fork;
  }
  return top;
}

/* Nested pars over one family (docs/reduction.md, "Members dealt to the pairs of nested pars"):
** par (i = 0, hi) par (j = 0, hi') over a chain of steps, one of the two over 0 .. P - 1 (index
** a), the other over 0 .. 0-3 (b); the family's members named by a shift of a, or of a + b (every
** member of 0 .. P - 1 gets one request per value of b), or by maps that are not one-to-one in a
** (GEN_MEMBER_NEST); the whole sometimes repeated, or beside a use of the family (gen_par_outside). */
static int gen_idiom_nested(GenState *g) {
  GenModel *m = g->m;
  if (g->nvars + 2 > GEN_MAX_DEPTH) return -1;
  int inner_p = gen_below(g, 2);   /* 1: the inner par runs over P */
  int outer = gen_par_open(g, !inner_p, inner_p ? gen_below(g, GEN_MAX_BOUND + 1) : m->param_default - 1);
  int inner = gen_par_open(g, inner_p, inner_p ? m->param_default - 1 : gen_below(g, GEN_MAX_BOUND + 1));
  int a = m->nodes[inner_p ? inner : outer].var, b = m->nodes[inner_p ? outer : inner].var;
  int count = 1 + gen_below(g, GEN_MAX_KIDS), body = gen_new_node(g, GEN_BLOCK), fam = -1;
  for (int k = 0; k < count; k++) {
    int step = gen_idiom_step(g, a, -1);
    GenNode *n = &m->nodes[step];
    if (n->kind == GEN_USE && m->res[n->res].family) {
      n->member = GEN_MEMBER_NEST; n->member_var = a; n->member_off = b;
      n->member_val = gen_below(g, 3) ? gen_below(g, 4) : 4 + gen_below(g, 3);
      fam = n->res;
    }
    m->nodes[body].kids[k] = step;
    m->nodes[body].nkids = k + 1;
  }
  g->nvars -= 2;
  m->nodes[inner].kids[0] = body;
  m->nodes[outer].kids[0] = inner;
  return fam >= 0 ? gen_par_outside(g, outer, fam, 3, 2) : outer;
}

/* The first ps resource (a use may name it anywhere, even inside holds), or -1. */
static int gen_ps_resource(GenState *g) {
  for (int k = 0; k < g->m->res_count; k++)
    if (g->m->res[k].ps_tenths) return k;
  return -1;
}

/* A request on ps resource res for gen_idiom_ps: on a family, the member of the branch, a ring
** neighbour (i + c) % GEN_FAMILY_SIZE or one fixed member; the duration a literal (equal
** branches), a duration of the generator, or one that follows i % K (uneven branches: i % K, or
** i % K == r ? 2 : 1). */
static int gen_ps_request(GenState *g, int res, int par_var) {
  int id = gen_new_node(g, GEN_USE);
  GenNode *n = &g->m->nodes[id];
  n->res = res;
  n->member_var = par_var;
  if (g->m->res[res].family) {
    int how = gen_below(g, 3);
    n->member = how == 0 ? GEN_MEMBER_VAR : how == 1 ? GEN_MEMBER_RING_FULL : GEN_MEMBER_CONST;
    n->member_off = how == 1 ? gen_below(g, GEN_FAMILY_SIZE) : 0;
    n->member_val = how == 2 ? gen_below(g, GEN_FAMILY_SIZE) : 0;
  }
  int how = gen_below(g, 5);
  if (how <= 2) { GenDur d = {.c = -1, .coef_c = 1, .var = -1, .ci = -1, .lit_us = 1 + gen_below(g, 3), .mod = 0}; n->dur = d; }
  else if (how == 3) n->dur = gen_dur(g);
  else {   /* (i % K) * t + c: uneven work that repeats every K branches */
    GenDur d = {.c = -1, .coef_c = 1, .var = par_var, .ci = g->m->const_count > 0 && gen_below(g, 2) ? gen_below(g, g->m->const_count) : -1, .lit_us = gen_below(g, 3), .mod = 2 + gen_below(g, 2)};
    if (gen_below(g, 2)) d.pick = 1 + gen_below(g, d.mod);   /* or two sizes by a residue */
    n->dur = d;
  }
  return id;
}

/* Branches sharing a ps resource (docs/reduction.md, "Processor sharing in a par"): par (i = 0,
** P - 1 or 5), sometimes repeated inside or outside, over one of: a chain of requests on it and
** delays (lock step on ps), a delay then requests at once to ring neighbours of a ps family, or
** `if (i == c)` / `if (i % K == c)` picking a heavy or a light request (a batch drained by ps);
** sometimes beside another request on the same resource (what breaks the symmetry). -1 when the
** model has no ps resource. */
static int gen_idiom_ps(GenState *g) {
  GenModel *m = g->m;
  int res = gen_ps_resource(g);
  if (res < 0) return -1;
  int hi_param = gen_below(g, 2);
  int par = gen_par_open(g, hi_param, hi_param ? m->param_default - 1 : GEN_FAMILY_SIZE - 1), par_var = g->nvars - 1;
  int how = gen_below(g, 4), body;
  if (how == 3) {   /* threads looping on ps: a delay, then repeat (K) one request, K by the branch
                       sometimes (docs/reduction.md, "Processor sharing in a par") */
    int loop = gen_new_node(g, GEN_REPEAT);
    m->nodes[loop].hi = 1 + gen_below(g, 3);
    if (gen_below(g, 2)) { m->nodes[loop].count_form = 2; m->nodes[loop].count_var = par_var; }
    m->nodes[loop].kids[0] = gen_ps_request(g, res, par_var);
    body = gen_new_node(g, GEN_BLOCK);
    m->nodes[body].kids[0] = gen_delay(g); m->nodes[body].kids[1] = loop; m->nodes[body].nkids = 2;
  } else if (how == 0) {   /* a chain: requests and delays */
    body = gen_new_node(g, GEN_BLOCK);
    int count = 1 + gen_below(g, GEN_MAX_KIDS);
    for (int k = 0; k < count; k++) {
      int step = gen_below(g, 3) == 0 ? gen_delay(g) : gen_ps_request(g, res, par_var);
      m->nodes[body].kids[k] = step;
      m->nodes[body].nkids = k + 1;
    }
  } else if (how == 1) {   /* a delay, then requests at once */
    body = gen_new_node(g, GEN_BLOCK);
    int fork = gen_new_node(g, GEN_PARALLEL), sends = 2 + gen_below(g, GEN_MAX_KIDS - 1);
    for (int j = 0; j < sends; j++) {
      m->nodes[fork].kids[j] = gen_ps_request(g, res, par_var);
      m->nodes[fork].nkids = j + 1;
    }
    m->nodes[body].kids[0] = gen_delay(g); m->nodes[body].kids[1] = fork; m->nodes[body].nkids = 2;
  } else {   /* a heavy or a light request */
    int heavy = gen_ps_request(g, res, par_var), light = gen_ps_request(g, res, par_var);
    body = gen_new_node(g, GEN_IF);
    GenNode *n = &m->nodes[body];
    n->cond_var = par_var;
    if (gen_below(g, 2)) { n->cond = GEN_COND_EQ; n->cond_val = gen_below(g, 3); }
    else { n->cond = GEN_COND_MOD; n->cond_mod = 2 + gen_below(g, 2); n->cond_val = gen_below(g, n->cond_mod); }
    n->kids[0] = heavy; n->kids[1] = light;
  }
  g->nvars--;
  m->nodes[par].kids[0] = gen_maybe_repeat(g, body, 3);   /* the branches run their own steps */
  return gen_par_outside(g, par, res, 3, 3);
}

/* An `if` of gen_idiom_line around kid: no else when otherwise is -1. */
static int gen_line_if(GenState *g, GenCond cond, int var, int val, int kid, int otherwise) {
  int id = gen_new_node(g, GEN_IF);
  GenNode *n = &g->m->nodes[id];
  n->cond = cond; n->cond_var = var; n->cond_val = val;
  n->kids[0] = kid; n->kids[1] = otherwise;
  return id;
}

/* A halo of gen_idiom_open_grid: the send of cell (i<outer>, i<outer + 1>) of a 3 x 2 grid (flat:
** cell i<outer> of a 2 x 2 grid numbered row by row) to its neighbour dir (0 right, 1 left, 2
** down, 3 up) under the `if` that keeps it on the grid. */
static int gen_open_halo(GenState *g, int res, int outer, int dir, int flat) {
  GenModel *m = g->m;
  int id = gen_new_node(g, GEN_USE);
  GenNode *n = &m->nodes[id];
  n->res = res;
  n->dur = gen_dur(g);
  if (flat) {   /* p + 1 under p % 2 == 0, p - 1 under p % 2 == 1, p + 2 under p < 2, p - 2 from 2 */
    static const int off[4] = {1, -1, 2, -2};
    n->member = GEN_MEMBER_LINE; n->member_var = outer; n->member_off = off[dir];
    if (dir < 2) {
      int guard = gen_line_if(g, GEN_COND_MOD, outer, dir, id, -1);
      m->nodes[guard].cond_mod = 2;
      return guard;
    }
    return gen_line_if(g, dir == 2 ? GEN_COND_LT : GEN_COND_FROM, outer, 2, id, -1);
  }
  n->member = GEN_MEMBER_GRID; n->member_var = outer; n->member_off = outer + 1; n->member_val = 7 + dir;
  static const int lt[4] = {1, 0, 1, 0};   /* right: j < 1, left: j >= 1, down: i < 2, up: i >= 1 */
  int var = dir < 2 ? outer + 1 : outer, val = dir == 2 ? 2 : 1;
  return gen_line_if(g, lt[dir] ? GEN_COND_LT : GEN_COND_FROM, var, val, id, -1);
}

/* A halo exchange on a grid without wrap, the halos sent one after the other (docs/reduction.md,
** "Requests known ahead", requests of one instant in program order): par (i = 0, 2) par (j = 0,
** 1) (or par (i = 0, 3) over a 2 x 2 grid numbered row by row) { compute, by the cell's colour
** sometimes, sometimes on the cell's own member of another family; 2 .. 4 of the sends right, left, down and up in a random order, each under its edge
** test } over one FCFS family, the par sometimes repeated. -1 without an FCFS family. */
static int gen_idiom_open_grid(GenState *g) {
  GenModel *m = g->m;
  int res = gen_fcfs_family(g);
  if (res < 0 || g->nvars + 2 > GEN_MAX_DEPTH) return -1;
  int flat = gen_below(g, 3) == 0;
  int outer = gen_new_node(g, GEN_PAR), inner = flat ? outer : gen_new_node(g, GEN_PAR), ov = g->nvars;
  m->nodes[outer].var = ov; m->nodes[outer].lo = 0; m->nodes[outer].hi = flat ? 3 : 2;
  g->scope_hi[g->nvars++] = m->nodes[outer].hi;
  if (!flat) {
    m->nodes[inner].var = ov + 1; m->nodes[inner].lo = 0; m->nodes[inner].hi = 1;
    g->scope_hi[g->nvars++] = 1;
  }
  int work = gen_delay(g), cpu = -1;
  if (gen_below(g, 3) == 0) gen_colour(&m->nodes[work].dur, ov, flat);
  for (int k = g->held_max + 1; k < m->res_count && cpu < 0; k++)   /* the cell's own cpu, sometimes */
    if (k != res && m->res[k].family && gen_below(g, 2)) cpu = k;
  if (cpu >= 0) {
    int use = gen_new_node(g, GEN_USE);
    GenNode *n = &m->nodes[use];
    n->res = cpu; n->dur = m->nodes[work].dur; n->member_var = ov;
    if (flat) n->member = GEN_MEMBER_VAR;
    else { n->member = GEN_MEMBER_GRID; n->member_off = ov + 1; n->member_val = 0; }
    work = use;
  }
  int dirs[4] = {0, 1, 2, 3}, count = 2 + gen_below(g, 3);
  for (int k = 3; k > 0; k--) { int r = gen_below(g, k + 1), t = dirs[k]; dirs[k] = dirs[r]; dirs[r] = t; }
  int first = gen_new_node(g, GEN_BLOCK), second = gen_new_node(g, GEN_BLOCK);
  for (int k = 0; k < count; k++) {
    int block = k < 2 ? first : second, halo = gen_open_halo(g, res, ov, dirs[k], flat);
    m->nodes[block].kids[m->nodes[block].nkids++] = halo;
  }
  int body = gen_new_node(g, GEN_BLOCK);
  m->nodes[body].kids[0] = work; m->nodes[body].kids[1] = first; m->nodes[body].nkids = 2;
  if (m->nodes[second].nkids) m->nodes[body].kids[m->nodes[body].nkids++] = second;
  g->nvars -= flat ? 1 : 2;
  m->nodes[inner].kids[0] = body;
  if (!flat) m->nodes[outer].kids[0] = inner;
  if (gen_below(g, 3) == 0) {   /* repeated: the par runs once at a time */
    int rep = gen_new_node(g, GEN_REPEAT);
    m->nodes[rep].hi = 2;
    m->nodes[rep].kids[0] = outer;
    return rep;
  }
  return outer;
}

/* A send of gen_idiom_line: use(r[i + c], d) with c in -2 .. 2, under `if (i >= -c)` or
** `if (i < P - c)` (members stay in 0 .. P - 1 <= GEN_FAMILY_SIZE - 1). */
static int gen_line_send(GenState *g, int res, int par_var, int column) {
  if (column) {   /* use(r[2 * i + c], d), c in 0 .. 2, under `if (i < k)` keeping 2 i + c <= 5 */
    int off = gen_below(g, 3);
    int id = gen_send(g, res, GEN_MEMBER_LINE, par_var, off);
    g->m->nodes[id].member_val = 2;
    return gen_line_if(g, GEN_COND_LT, par_var, (GEN_FAMILY_SIZE - 1 - off) / 2 + 1, id, -1);
  }
  int off = gen_below(g, 5) - 2;
  int id = gen_send(g, res, GEN_MEMBER_LINE, par_var, off);
  if (off < 0) return gen_line_if(g, GEN_COND_FROM, par_var, -off, id, -1);
  /* i + c <= GEN_MAX_BOUND + 2 < GEN_FAMILY_SIZE: in the family without a guard (the interior
  ** of a line, par (p = 1, P - 2) { ...; use(nic[p + 1]) || use(nic[p - 1]) } shifted) */
  if (gen_below(g, 3) == 0) return id;
  return gen_line_if(g, GEN_COND_BELOW, par_var, off, id, -1);
}

/* Neighbour exchange on a line (or a root that works more): par (i = 0, P - 1), sometimes
** repeated inside, over compute (a delay, (i % K) t0 sometimes, or the own member) and then sends
** to i + c guarded by `if`s without else that keep the member in range (or unguarded where it is), at once in a `||` or one after another; or
** `if (i == 0) S1 else S2` with sides of different steps (docs/reduction.md, "Sides walked
** apart"). -1 when the model has no FCFS family that no enclosing hold keeps. */
static int gen_idiom_line(GenState *g) {
  GenModel *m = g->m;
  int res = gen_fcfs_family(g);
  if (res < 0) return -1;
  int par = gen_par_open(g, 1, m->param_default - 1), par_var = m->nodes[par].var;
  int body = gen_new_node(g, GEN_BLOCK);
  int work = gen_delay(g);
  if (gen_below(g, 3) == 0) gen_stagger(g, &m->nodes[work].dur, par_var);   /* late sends by class */
  int own = gen_below(g, 2) ? gen_use(g) : -1;
  if (own >= 0) {
    if (m->res[m->nodes[own].res].family) { m->nodes[own].member = GEN_MEMBER_VAR; m->nodes[own].member_var = par_var; }
    work = own;
  }
  int how = gen_below(g, 3), step;
  if (how == 0) {   /* a root that works more: different steps on the two sides */
    int root = gen_idiom_chain(g, par_var, -1), rest = gen_idiom_chain(g, par_var, -1);
    step = gen_line_if(g, GEN_COND_EQ, par_var, 0, root, rest);
  } else {
    step = gen_new_node(g, how == 1 ? GEN_PARALLEL : GEN_BLOCK);
    int sends = 1 + gen_below(g, GEN_MAX_KIDS), column = gen_below(g, 4) == 0;   /* a wavefront's diagonal */
    for (int j = 0; j < sends; j++) {
      int send = gen_line_send(g, res, par_var, column);
      m->nodes[step].kids[j] = send;
      m->nodes[step].nkids = j + 1;
    }
  }
  m->nodes[body].kids[0] = work; m->nodes[body].kids[1] = step; m->nodes[body].nkids = 2;
  g->nvars--;
  m->nodes[par].kids[0] = gen_maybe_repeat(g, body, 3);
  return par;
}

/* An `if` of gen_idiom_butterfly on the branch i<var> at step i<step> (cond_mod). */
static int gen_partner_if(GenState *g, GenCond cond, int var, int step, int val, int kid, int otherwise) {
  int id = gen_line_if(g, cond, var, val, kid, otherwise);
  g->m->nodes[id].cond_mod = step;
  return id;
}

/* A butterfly (docs/reduction.md, "Powers read apart"): seq (j = 0, J) par (i = 0, P - 1) (or the
** par around the seq: branches that run their own steps) over an optional idiom step and the
** send to the partner i xor 2^j, written as `if (i % 2^(j + 1) < 2^j) { if (i + 2^j < P)
** use(r[i + 2^j]) } else use(r[i - 2^j])` or as one use on the `?:` under `if (partner < P)`;
** one time in 4 with <= for < (still one-to-one), one in 4 with i - 2^j + 1 for i - 2^j (which
** names a member twice), one in 3 with the test on the bit, floor(i / 2^j) % 2 == 0; one in 2
** in the halving order, distance 2^(J - j) written so or as 2^(J + 1) / 2^(j + 1); one in 3
** inside a helper process that takes the indices as its arguments. The guards keep the members below P <= GEN_FAMILY_SIZE (the lower side
** is at least 2^j, or 2^j + 1 under <=, so its member is >= 0). -1 when the model has no FCFS
** family that no enclosing hold keeps. */
static int gen_idiom_butterfly(GenState *g) {
  GenModel *m = g->m;
  int res = gen_fcfs_family(g);
  if (res < 0) return -1;
  int outside = gen_below(g, 3) != 0;   /* seq (j) par (i), else par (i) seq (j) */
  int seq = gen_new_node(g, GEN_SEQ), par = -1;
  if (!outside) par = gen_par_open(g, 1, m->param_default - 1);
  m->nodes[seq].var = g->nvars; m->nodes[seq].lo = 0; m->nodes[seq].hi = gen_below(g, 3);   /* 2^j <= 4 */
  g->scope_hi[g->nvars++] = m->nodes[seq].hi;
  int step = m->nodes[seq].var;
  if (outside) par = gen_par_open(g, 1, m->param_default - 1);
  int i = m->nodes[par].var, le = gen_below(g, 4) == 0, twice = gen_below(g, 4) == 0, send;
  int bit = gen_below(g, 3) == 0;   /* the test written on the bit: floor(i / 2^j) % 2 == 0 */
  int dist = gen_below(g, 2) ? 0 : 1 + gen_below(g, 2), first = m->node_count;
  if (gen_below(g, 2)) {
    int up = gen_send(g, res, GEN_MEMBER_XOR, i, step), down = gen_send(g, res, GEN_MEMBER_XOR, i, step);
    m->nodes[down].member_val = twice ? 5 : 1;
    if (gen_below(g, 2)) m->nodes[down].dur = m->nodes[up].dur;   /* equal halves */
    send = gen_partner_if(g, GEN_COND_HALF, i, step, bit ? 2 : le, gen_partner_if(g, GEN_COND_UP, i, step, 0, up, -1), down);
  } else {
    int use = gen_send(g, res, GEN_MEMBER_XOR, i, step);
    m->nodes[use].member_val = twice ? 4 : bit ? 6 : 2 + le;
    send = gen_partner_if(g, GEN_COND_PARTNER, i, step, m->nodes[use].member_val, use, -1);
  }
  for (int id = first; id < m->node_count; id++) {   /* the halving order: H = 2^(T - j) */
    m->nodes[id].dist = dist;
    m->nodes[id].dist_top = m->nodes[seq].hi;
  }
  int body = send;
  if (gen_below(g, 2)) {
    body = gen_new_node(g, GEN_BLOCK);
    m->nodes[body].kids[0] = gen_idiom_step(g, i, outside ? -1 : step);
    m->nodes[body].kids[1] = send;
    m->nodes[body].nkids = 2;
  }
  if (gen_below(g, 3) == 0 && m->node_count + 1 < GEN_MAX_NODES) {   /* a helper process on the rank and the step: p(i0, .., i<n - 1>) */
    int call = gen_new_node(g, GEN_CALL);
    m->nodes[call].kids[0] = body;
    m->nodes[call].call_vars = g->nvars;
    body = call;
  }
  g->nvars -= 2;
  if (outside) { m->nodes[par].kids[0] = body; m->nodes[seq].kids[0] = par; return seq; }
  m->nodes[seq].kids[0] = body; m->nodes[par].kids[0] = seq;
  return par;
}

static int gen_any_family(GenState *g);

/* Ranks on a ring of nodes (docs/reduction.md, "a ring over the blocks"): par (i = 0, P - 1) {
** use(r[floor(i / B)], d); use(r'[ring over the blocks], d') }, B = 1 .. 3, the second a shift or
** a reflection of the blocks modulo ceil(P / B) (one-to-one) or modulo 2 (too short a ring
** beyond 2 blocks), the blocks in reverse order, or the shift back written with a test at the
** first block (one-to-one, or with the first block sent to block 1: two blocks there); r' a second family when there is one; sometimes repeated. -1 when the model
** has no family that no enclosing hold keeps. */
static int gen_idiom_nodes(GenState *g) {
  GenModel *m = g->m;
  int node = gen_any_family(g);
  if (node < 0) return -1;
  int nic = node;
  for (int k = node + 1; k < m->res_count && nic == node; k++)
    if (m->res[k].family) nic = k;
  int par = gen_par_open(g, 1, m->param_default - 1), i = m->nodes[par].var, B = 1 + gen_below(g, 3);
  int body = gen_new_node(g, GEN_BLOCK);
  int work = gen_send(g, node, GEN_MEMBER_BLOCK, i, 0), send = gen_send(g, nic, GEN_MEMBER_BLOCK, i, 4 + gen_below(g, 7));
  m->nodes[work].member_val = m->nodes[send].member_val = B;
  m->nodes[body].kids[0] = work; m->nodes[body].kids[1] = send; m->nodes[body].nkids = 2;
  g->nvars--;
  m->nodes[par].kids[0] = body;
  return gen_maybe_repeat(g, par, 3);
}

/* A step of gen_idiom_lock outside or inside the hold: a delay, or a use of a resource no
** enclosing hold keeps (a family's own member i or a fixed one), or -1 for none (outside only);
** outside, its time is sometimes a dealt share or staggered by i % K (arrivals at few instants). */
static int gen_lock_step(GenState *g, int par_var, int inside) {
  GenModel *m = g->m;
  int how = gen_below(g, inside ? 3 : 4);
  if (how == 3) return -1;
  int id = how == 0 ? -1 : gen_use(g);
  if (id < 0) {
    id = gen_delay(g);
    if (!inside && par_var >= 0 && gen_below(g, 3) == 0) gen_stagger(g, &m->nodes[id].dur, par_var);
    return id;
  }
  GenNode *n = &m->nodes[id];
  if (m->res[n->res].family) {
    n->member = gen_below(g, 2) ? GEN_MEMBER_CONST : GEN_MEMBER_VAR;
    n->member_val = gen_below(g, GEN_FAMILY_SIZE); n->member_var = par_var;
  }
  n->dur = gen_dur(g);
  int how2 = inside ? 0 : 1 + gen_below(g, 4);
  if (how2 == 1) {   /* a dealt share (arrivals spread at the lock) */
    n->dur.share = 1 + gen_below(g, 2); n->dur.share_var = par_var; n->dur.share_n = gen_below(g, 3 * GEN_MAX_BOUND);
  } else if (how2 == 2 && par_var >= 0) {   /* arrivals in classes i % K: few instants at the lock */
    gen_stagger(g, &n->dur, par_var);
  }
  return id;
}

/* The body of a hold of gen_idiom_lock made of two steps: { a step; hold (lock2) delay } (two
** locks nested, the cores asked for first), or { a use of a resource no hold keeps; a use of the
** cores `work` names } (a semaphore around a serial device and the cores), or two steps of
** gen_lock_step; a third of the time the two side by side, `a || b` (a disk and a network
** written at once under the lock). */
static int gen_lock_pair(GenState *g, int par_var, int work) {
  GenModel *m = g->m;
  int cores = work >= 0 && m->nodes[work].kind == GEN_USE &&
              (m->res[m->nodes[work].res].ps_tenths || m->nodes[work].res > g->held_max);
  int first;
  if (cores && gen_below(g, 2)) {
    first = gen_new_node(g, GEN_USE);
    m->nodes[first] = m->nodes[work];
    m->nodes[first].dur = gen_dur(g);
  } else {
    first = gen_lock_step(g, par_var, 1);
  }
  int second, lock2 = gen_below(g, 3) ? gen_v2_resource_for(g, 1) : -1;
  if (lock2 >= 0) {
    second = gen_new_node(g, GEN_HOLD);
    m->nodes[second].res = lock2;
    if (m->res[lock2].family) {
      m->nodes[second].member = GEN_MEMBER_CONST;
      m->nodes[second].member_val = gen_below(g, GEN_FAMILY_SIZE);
    }
    int inner = gen_new_node(g, GEN_DELAY);
    m->nodes[inner].dur.lit_us = gen_below(g, 2);
    m->nodes[inner].dur.c = g->m->const_count > 0 && gen_below(g, 2) ? gen_below(g, g->m->const_count) : -1;
    if (m->nodes[inner].dur.c < 0 && m->nodes[inner].dur.lit_us == 0) m->nodes[inner].dur.lit_us = 1;
    m->nodes[second].kids[0] = inner;
  } else if (cores) {
    second = gen_new_node(g, GEN_USE);
    m->nodes[second] = m->nodes[work];
    m->nodes[second].dur = gen_dur(g);
  } else {
    second = gen_lock_step(g, par_var, 1);
  }
  int block = gen_new_node(g, gen_below(g, 3) ? GEN_BLOCK : GEN_PARALLEL);   /* or side by side */
  m->nodes[block].kids[0] = first; m->nodes[block].kids[1] = second; m->nodes[block].nkids = 2;
  return block;
}

/* The hold of gen_idiom_lock: hold (lock) { a step }, the step sometimes a use of the resource
** `work` names (the cores; -1: none) when the lock order allows it there (a ps resource, or an fcfs
** one of larger id than the lock), else a random step; -1 when no resource can be held here. */
static int gen_lock_hold(GenState *g, int par_var, int work) {
  GenModel *m = g->m;
  int lock = gen_v2_resource_for(g, 1);
  for (int tries = 0; tries < 3 && lock >= 0 && work >= 0 && m->nodes[work].kind == GEN_USE &&
                      lock == m->nodes[work].res; tries++)
    lock = gen_v2_resource_for(g, 1);   /* a lock other than the cores, most often */
  if (lock < 0) return -1;
  int hold = gen_new_node(g, GEN_HOLD);
  m->nodes[hold].res = lock;
  if (m->res[lock].family) {
    m->nodes[hold].member = GEN_MEMBER_CONST;
    m->nodes[hold].member_val = gen_below(g, GEN_FAMILY_SIZE);
    int own = par_var >= 0 ? gen_below(g, 3) : 0;   /* a lock of the thread's own or its neighbour's */
    if (own) { m->nodes[hold].member = own == 1 ? GEN_MEMBER_VAR : GEN_MEMBER_RING; m->nodes[hold].member_var = par_var; }
    if (own == 2) m->nodes[hold].member_off = 1;
  }
  int saved = g->held_max;
  g->held_max = lock;
  int inner = gen_below(g, 3) == 0 ? gen_lock_pair(g, par_var, work) : -1;
  if (inner >= 0) {
    /* two steps in the hold */
  } else if (work >= 0 && m->nodes[work].kind == GEN_USE && (m->res[m->nodes[work].res].ps_tenths || m->nodes[work].res > lock) &&
      gen_below(g, 2)) {
    inner = gen_new_node(g, GEN_USE);
    m->nodes[inner] = m->nodes[work];
    m->nodes[inner].dur = gen_dur(g);
  } else if (work >= 0 && m->nodes[work].kind == GEN_USE && gen_below(g, 2)) {   /* a short update */
    inner = gen_new_node(g, GEN_DELAY);
    m->nodes[inner].dur.lit_us = 1 + gen_below(g, 2);
  } else {
    inner = gen_lock_step(g, par_var, 1);
  }
  g->held_max = saved;
  m->nodes[hold].kids[0] = inner;
  return hold;
}

/* Threads that take a lock (docs/reduction.md, "Threads meeting at a lock"): par (i = 0, P - 1)
** [repeat (1 .. 3)] { work (a delay or a use of shared cores); hold (lock) { a delay or a use,
** often of the cores }; [hold (lock2) { ... }]; more work }, the locks fcfs resources (a hand-off
** on some, a fixed member of a family), the cores fcfs or ps; -1 when no resource can be held
** here. */
static int gen_idiom_lock(GenState *g) {
  GenModel *m = g->m;
  if (gen_v2_resource_for(g, 1) < 0) return -1;
  int par = gen_new_node(g, GEN_PAR);
  GenNode *p = &m->nodes[par];
  p->var = g->nvars; p->lo = 0;
  if (gen_below(g, 3)) { p->hi_param = 1; p->hi = m->param_default - 1; }
  else p->hi = gen_below(g, GEN_MAX_BOUND + 1);
  int par_var = g->nvars;
  g->scope_hi[g->nvars++] = p->hi_param ? GEN_MAX_BOUND : p->hi;
  int body = gen_new_node(g, GEN_BLOCK);
  int before = -1;
  if (gen_below(g, 2)) {   /* work on plain fcfs cores, the same for every thread (rounds at a lock) */
    for (int k = g->held_max + 1; k < m->res_count && before < 0; k++)
      if (!m->res[k].family && m->res[k].ps_tenths == 0) {
        before = gen_new_node(g, GEN_USE);
        m->nodes[before].res = k;
        m->nodes[before].dur.lit_us = 1 + gen_below(g, 3);
      }
  }
  if (before < 0) before = gen_lock_step(g, par_var, 0);
  int hold = gen_lock_hold(g, par_var, before);
  int second = gen_below(g, 2) ? gen_lock_hold(g, par_var, before) : -1;   /* two locks in a row */
  int after = gen_lock_step(g, par_var, 0);
  if (second >= 0 && after >= 0) {   /* a block has GEN_MAX_KIDS = 3 kids: { second; after } */
    int rest = gen_new_node(g, GEN_BLOCK);
    m->nodes[rest].kids[0] = second; m->nodes[rest].kids[1] = after; m->nodes[rest].nkids = 2;
    after = rest; second = -1;
  }
  int kids[3] = {before, hold, second >= 0 ? second : after};
  for (int k = 0; k < 3; k++)
    if (kids[k] >= 0) m->nodes[body].kids[m->nodes[body].nkids++] = kids[k];
  g->nvars--;
  m->nodes[par].kids[0] = gen_maybe_repeat(g, body, 2);
  return par;
}

/* par (i = 0, P - 1) (or a literal range) over a block of an optional step, a `repeat` around a
** chain of idiom steps, and an optional step after: the repeat's count depends on i when counted
** (gen_idiom_dealt), else it is 1 .. 4 (gen_idiom_rounds). Counted, a third of the time the
** repeat's body is a thread's round on shared cores instead: one use of a plain FCFS resource and
** a delay (docs/reduction.md, "the second round of a counted stage"). */
static int gen_par_repeat(GenState *g, int counted) {
  GenModel *m = g->m;
  int over_param = gen_below(g, 3) != 0;
  int par = gen_par_open(g, over_param, over_param ? m->param_default - 1 : gen_below(g, GEN_MAX_BOUND + 1));
  int par_var = g->nvars - 1;
  int repeat = gen_new_node(g, GEN_REPEAT);
  if (counted) {
    m->nodes[repeat].count_form = 1 + gen_below(g, 6);
    m->nodes[repeat].count_var = par_var;
    m->nodes[repeat].hi = m->nodes[repeat].count_form == 6 ? gen_below(g, 25) : gen_below(g, 6);
  } else {
    m->nodes[repeat].hi = 1 + gen_below(g, 4);
  }
  int res = -1;   /* threads on cores: one use of a plain FCFS resource and a delay per round */
  for (int k = g->held_max + 1; counted && k < m->res_count && res < 0; k++)
    if (!m->res[k].family && m->res[k].ps_tenths == 0 && !m->res[k].handoff_ns) res = k;
  if (res >= 0 && gen_below(g, 3) == 0) {
    int use = gen_new_node(g, GEN_USE), round = gen_new_node(g, GEN_BLOCK);
    m->nodes[use].res = res;
    m->nodes[use].dur = gen_dur(g);
    if (m->nodes[use].dur.var == par_var && gen_below(g, 2)) m->nodes[use].dur.var = -1;
    m->nodes[round].kids[0] = use; m->nodes[round].kids[1] = gen_delay(g); m->nodes[round].nkids = 2;
    m->nodes[repeat].kids[0] = round;
  } else {
    m->nodes[repeat].kids[0] = gen_idiom_chain(g, par_var, -1);
  }
  int body = gen_new_node(g, GEN_BLOCK), count = 0;
  if (gen_below(g, 2)) m->nodes[body].kids[count++] = gen_idiom_step(g, par_var, -1);
  m->nodes[body].kids[count++] = repeat;
  if (gen_below(g, 2)) {
    int step = gen_idiom_step(g, par_var, -1);
    if (m->nodes[repeat].count_form == 6 && gen_below(g, 2)) {   /* ranks with items send */
      int guard = gen_new_node(g, GEN_IF);
      GenNode *n = &m->nodes[guard];
      n->cond = GEN_COND_BLOCK;
      n->cond_var = par_var;
      n->cond_val = gen_below(g, 2) - 1;
      n->cond_val2 = m->nodes[repeat].hi;
      n->kids[0] = step;
      step = guard;
    }
    m->nodes[body].kids[count++] = step;
  }
  m->nodes[body].nkids = count;
  g->nvars--;
  m->nodes[par].kids[0] = body;
  return par;
}

/* Work dealt with remainders (docs/reduction.md, "a stage in a loop whose count depends on the
** branch"): par (i = 0, P - 1) (or a literal range) over a block of an optional step, a `repeat`
** whose count depends on i (count_form: N / P tasks and one more for the first N % P, and other
** counts by the branch) around a chain of idiom steps (a master, own cpus, fixed members), and an
** optional step after. */
static int gen_idiom_dealt(GenState *g) { return gen_par_repeat(g, 1); }

/* Master/worker in rounds (docs/reduction.md, "Rounds through single-server stages"):
** par (i = 0, P - 1) (or a literal range) over a block of an optional step, `repeat (1 .. 4)`
** around a chain of idiom steps (plain resources met every round, own members, delays, some of
** 0 s), and an optional step after; the workers come back to the stages staggered. */
static int gen_idiom_rounds(GenState *g) { return gen_par_repeat(g, 0); }

/* A duration free of the branch indices (a const and a literal). */
static GenDur gen_dur_same(GenState *g) {
  GenDur d = gen_dur(g);
  d.var = -1; d.ci = -1;
  if (d.c < 0 && d.lit_us == 0 && gen_below(g, 2)) d.lit_us = 1 + gen_below(g, 3);
  return d;
}

/* Threads that take one of m slots in every round (docs/reduction.md, "slots kept busy over
** rounds"): par (i = 0, P - 1) repeat (1 .. 4) { delay; use(slots, t) or hold (slots) delay(t);
** delay or a use of another fcfs resource }, the slots a plain fcfs resource (1 .. 4 servers, a
** hand-off on some), every duration free of i; -1 when the model has no such resource free of the
** holds. */
static int gen_idiom_slots(GenState *g) {
  GenModel *m = g->m;
  int res = -1, other = -1;
  for (int k = g->held_max + 1; k < m->res_count; k++)
    if (!m->res[k].family && m->res[k].ps_tenths == 0) {
      if (res < 0 || gen_below(g, 2)) { if (res >= 0) other = res; res = k; }
      else other = k;
    }
  if (res < 0) return -1;
  int over_param = gen_below(g, 3) != 0;
  /* a literal range up to 9 threads: more than two per slot, and counts m does not divide */
  int par = gen_par_open(g, over_param, over_param ? m->param_default - 1 : gen_below(g, 9));
  int repeat = gen_new_node(g, GEN_REPEAT);
  m->nodes[repeat].hi = 1 + gen_below(g, 4);
  int before = gen_new_node(g, GEN_DELAY);
  m->nodes[before].dur = gen_dur_same(g);
  int s2;
  if (gen_below(g, 3) == 0) {
    s2 = gen_new_node(g, GEN_HOLD);
    m->nodes[s2].res = res;
    int inner = gen_new_node(g, GEN_DELAY);
    m->nodes[inner].dur = gen_dur_same(g);
    m->nodes[s2].kids[0] = inner;
  } else {
    s2 = gen_new_node(g, GEN_USE);
    m->nodes[s2].res = res;
    m->nodes[s2].dur = gen_dur_same(g);
  }
  int after;
  if (other >= 0 && gen_below(g, 3) == 0) {
    after = gen_new_node(g, GEN_USE);
    m->nodes[after].res = other;
  } else {
    after = gen_new_node(g, GEN_DELAY);
  }
  m->nodes[after].dur = gen_dur_same(g);
  int round = gen_new_node(g, GEN_BLOCK);
  m->nodes[round].kids[0] = before; m->nodes[round].kids[1] = s2; m->nodes[round].kids[2] = after;
  m->nodes[round].nkids = 3;
  m->nodes[repeat].kids[0] = round;
  g->nvars--;
  m->nodes[par].kids[0] = repeat;
  return par;
}

/* A delay of a duration free of the branch indices. */
static int gen_delay_same(GenState *g) {
  int id = gen_new_node(g, GEN_DELAY);
  g->m->nodes[id].dur = gen_dur_same(g);
  return id;
}

/* Threads over fewer cores (docs/reduction.md, "Threads looping on an FCFS pool"): par (i = 0,
** T - 1) { a delay sometimes; repeat (1 .. 8) or seq (j = 0, P - 1) { a delay sometimes; use(cores,
** t); a delay sometimes }; a delay sometimes }, cores a plain fcfs resource free of the holds (1 ..
** 4 servers, a hand-off on some: the rule must not read those), T a literal in C .. 3 C + 1 (or P),
** every duration free of i; sometimes beside one more use of cores (the rule must not read it then);
** -1 when the model has no such resource. */
static int gen_idiom_tloop(GenState *g) {
  GenModel *m = g->m;
  int res = -1;
  for (int k = g->held_max + 1; k < m->res_count && res < 0; k++)
    if (!m->res[k].family && m->res[k].ps_tenths == 0) res = k;
  if (res < 0 || m->node_count + 12 >= GEN_MAX_NODES) return -1;
  int C = m->res[res].servers, over_param = gen_below(g, 5) == 0;
  int hi = C - 1 + gen_below(g, 2 * C + 2);
  if (C >= 2 && gen_below(g, 2)) hi = C + gen_below(g, C / 2);   /* C < T <= 1.5 C: the closed form */
  if (over_param) hi = m->param_default - 1;
  int par = gen_par_open(g, over_param, hi), loop, lvar = -1;
  if (gen_below(g, 3) == 0) {   /* K = P: the closed form left symbolic in the sweep */
    loop = gen_new_node(g, GEN_SEQ);
    GenNode *q = &m->nodes[loop];
    q->var = lvar = g->nvars; q->lo = 0; q->hi_param = 1; q->hi = m->param_default - 1;
    g->scope_hi[g->nvars++] = GEN_MAX_BOUND;
  } else {
    loop = gen_new_node(g, GEN_REPEAT);
    m->nodes[loop].hi = 1 + gen_below(g, 8);
  }
  int round = gen_new_node(g, GEN_BLOCK), n = 0, no_gaps = gen_below(g, 2);
  if (!no_gaps && gen_below(g, 2)) m->nodes[round].kids[n++] = gen_delay_same(g);
  int use = gen_new_node(g, GEN_USE);
  m->nodes[use].res = res;
  m->nodes[use].dur = gen_dur_same(g);
  m->nodes[round].kids[n++] = use;
  if (!no_gaps && gen_below(g, 2)) m->nodes[round].kids[n++] = gen_delay_same(g);
  m->nodes[round].nkids = n;
  m->nodes[loop].kids[0] = round;
  if (lvar >= 0) g->nvars--;
  int body = gen_new_node(g, GEN_BLOCK);
  n = 0;
  if (gen_below(g, 3) == 0) m->nodes[body].kids[n++] = gen_delay_same(g);
  m->nodes[body].kids[n++] = loop;
  if (gen_below(g, 3) == 0) m->nodes[body].kids[n++] = gen_delay_same(g);
  m->nodes[body].nkids = n;
  g->nvars--;
  m->nodes[par].kids[0] = body;
  if (gen_below(g, 6) != 0) return par;
  int other = gen_new_node(g, GEN_USE), fork = gen_new_node(g, GEN_PARALLEL), side = gen_below(g, 2);
  m->nodes[other].res = res;
  m->nodes[other].dur = gen_dur_same(g);
  m->nodes[fork].kids[side] = par; m->nodes[fork].kids[1 - side] = other; m->nodes[fork].nkids = 2;
  return fork;
}

/* A bounded buffer in a line (docs/reduction.md, "A bounded buffer in a line"; half the time with
** a pipeline inside: `seq (j) use(r[j], d)` on a family, "a pipeline inside the slots"): par (i = 0, P - 1)
** { a delay sometimes; hold (slots) { use(a, d); use(b, d') sometimes }; use(c, d'') or a delay },
** slots, a, b, c plain FCFS resources free of the holds (1 .. 4 servers, a hand-off on some), a,
** b and c drawn among those after slots (c sometimes one of a, b: the rule must not read it),
** every duration free of i; -1 when the model has fewer than two such resources. */
static int gen_idiom_buffer(GenState *g) {
  GenModel *m = g->m;
  int free_res[GEN_MAX_RES], count = 0;
  for (int k = g->held_max + 1; k < m->res_count; k++)
    if (!m->res[k].family && m->res[k].ps_tenths == 0) free_res[count++] = k;
  if (count < 2 || m->node_count + 10 >= GEN_MAX_NODES) return -1;
  /* the resources used inside come after slots (holds and uses in one global order: no deadlock) */
  int slots = free_res[gen_below(g, count - 1)], other[GEN_MAX_RES], others = 0;
  for (int k = 0; k < count; k++)
    if (free_res[k] > slots) other[others++] = free_res[k];
  int over_param = gen_below(g, 3) != 0;
  int par = gen_par_open(g, over_param, over_param ? m->param_default - 1 : gen_below(g, 9));
  int hold = gen_new_node(g, GEN_HOLD);
  m->nodes[hold].res = slots;
  int inner = gen_new_node(g, GEN_BLOCK), uses = 1 + gen_below(g, 2);
  for (int k = 0; k < uses; k++) {
    int use = gen_new_node(g, GEN_USE);
    m->nodes[use].res = other[gen_below(g, others)];
    m->nodes[use].dur = gen_dur_same(g);
    m->nodes[inner].kids[k] = use;
  }
  m->nodes[inner].nkids = uses;
  int fam = -1;   /* a pipeline inside the slots: seq (j) use(r[member of j], d) on a family after slots */
  for (int k = slots + 1; k < m->res_count && fam < 0; k++)
    if (m->res[k].family && m->res[k].ps_tenths == 0) fam = k;
  if (fam >= 0 && gen_below(g, 3)) {
    int seq = gen_new_node(g, GEN_SEQ);
    m->nodes[seq].var = g->nvars; m->nodes[seq].lo = 0; m->nodes[seq].hi = gen_below(g, GEN_MAX_BOUND + 1);
    g->scope_hi[g->nvars++] = m->nodes[seq].hi;
    int use = gen_new_node(g, GEN_USE);
    GenNode *u = &m->nodes[use];
    u->res = fam; u->member_var = m->nodes[seq].var;
    int form = gen_below(g, 4);   /* r[j], r[(j + c) % 6], or one member for all j (no line) */
    u->member = form == 3 ? GEN_MEMBER_CONST : form == 0 ? GEN_MEMBER_VAR : GEN_MEMBER_MOD;
    u->member_off = form == 3 ? 0 : form; u->member_val = form == 3 ? gen_below(g, GEN_FAMILY_SIZE) : GEN_FAMILY_SIZE;
    u->dur = gen_dur_same(g);
    if (gen_below(g, 3) == 0) u->dur.var = m->nodes[seq].var;   /* longer stage by stage (0 at j = 0) */
    g->nvars--;
    m->nodes[seq].kids[0] = use;
    m->nodes[inner].kids[0] = gen_below(g, 3) ? seq : m->nodes[inner].kids[0];
    if (m->nodes[inner].kids[0] != seq) {   /* after a use or a delay in the hold */
      m->nodes[inner].kids[1] = seq; m->nodes[inner].nkids = 2;
    }
  }
  m->nodes[hold].kids[0] = inner;
  int after;
  if (gen_below(g, 4) != 0) {
    after = gen_new_node(g, GEN_USE);
    m->nodes[after].res = other[gen_below(g, others)];
  } else {
    after = gen_new_node(g, GEN_DELAY);
  }
  m->nodes[after].dur = gen_dur_same(g);
  int body = gen_new_node(g, GEN_BLOCK), n = 0;
  if (gen_below(g, 3) == 0) {
    int before = gen_new_node(g, GEN_DELAY);
    m->nodes[before].dur = gen_dur_same(g);
    m->nodes[body].kids[n++] = before;
  }
  m->nodes[body].kids[n++] = hold;
  m->nodes[body].kids[n++] = after;
  m->nodes[body].nkids = n;
  g->nvars--;
  m->nodes[par].kids[0] = body;
  return par;
}

/* The job of gen_idiom_pool written with a hold: each use(pool, d) of job (a use, or an `if` of
** two) becomes a delay(d), and the whole is held: `hold (pool) if (..) delay(d1) else delay(d2)`
** (LANGUAGE.md §8: the same as the uses). */
static int gen_pool_hold(GenState *g, int res, int job) {
  GenModel *m = g->m;
  int hold = gen_new_node(g, GEN_HOLD);
  m->nodes[hold].res = res;
  int uses[2] = {job, -1};
  if (m->nodes[job].kind == GEN_IF) { uses[0] = m->nodes[job].kids[0]; uses[1] = m->nodes[job].kids[1]; }
  for (int u = 0; u < 2; u++)
    if (uses[u] >= 0) m->nodes[uses[u]].kind = GEN_DELAY;
  m->nodes[hold].kids[0] = job;
  return hold;
}

/* Jobs of growing size submitted at once to a pool (docs/reduction.md, "requests in FCFS order",
** "sizes in two runs" and "the wait behind the requests ahead"): par (i = 0, P - 1) { a delay
** sometimes; use(pool, d(i)); a step or a delay by class sometimes } on a plain FCFS resource, d
** often growing with i or periodic in it (i % K), or a share of S tasks dealt with
** remainders (the first S % P one more, or the last ones) or in blocks with a short last one,
** or `if (i < c) use(pool, d1) else use(pool, d2)` (two runs of sizes, in either order);
** sometimes beside another use of the pool (`||`: the rules must not read it) or after one. -1
** when the model has no plain FCFS resource free of the holds. */
static int gen_idiom_pool(GenState *g) {
  GenModel *m = g->m;
  int res = -1;
  for (int k = g->held_max + 1; k < m->res_count && res < 0; k++)
    if (!m->res[k].family && m->res[k].ps_tenths == 0) res = k;
  if (res < 0) return -1;
  int par = gen_par_open(g, 1, m->param_default - 1), par_var = m->nodes[par].var;
  int use = gen_new_node(g, GEN_USE);
  m->nodes[use].res = res;
  m->nodes[use].dur = gen_dur(g);
  int shape = gen_below(g, 7);   /* 0, 1: growing; 2, 3: a share of S tasks; 4: if; 5: as drawn;
                                    6: periodic in i (tasks of mixed sizes, i % K) */
  if (shape < 2) { m->nodes[use].dur.var = par_var; m->nodes[use].dur.ci = -1; }
  if (shape == 6) {
    GenDur *d = &m->nodes[use].dur;
    d->var = par_var; d->mod = 2 + gen_below(g, 2);
    if (gen_below(g, 2)) d->pick = 1 + gen_below(g, d->mod);
  }
  if (shape == 2 || shape == 3) {
    GenDur *d = &m->nodes[use].dur;
    d->share = 1 + gen_below(g, 4); d->share_var = par_var; d->share_n = gen_below(g, 3 * GEN_MAX_BOUND);
  }
  int job = use;
  if (shape == 4) {   /* two runs of sizes: i < c one size, the others another; or by i % K */
    job = gen_new_node(g, GEN_IF);
    GenNode *n = &m->nodes[job];
    n->cond = GEN_COND_LT; n->cond_var = par_var; n->cond_val = gen_below(g, m->param_default + 1);
    if (gen_below(g, 2)) { n->cond = GEN_COND_MOD; n->cond_mod = 2 + gen_below(g, 2); n->cond_val = gen_below(g, n->cond_mod); }
    else if (gen_below(g, 2)) n->cond_val2 = 1;   /* written c - 2 i > -c */
    int other = gen_new_node(g, GEN_USE);
    m->nodes[other].res = res;
    m->nodes[other].dur = gen_dur(g);
    m->nodes[job].kids[0] = use; m->nodes[job].kids[1] = other;
  }
  if (gen_below(g, 4) == 0 && m->node_count + 2 < GEN_MAX_NODES) job = gen_pool_hold(g, res, job);   /* a hold */
  int body = gen_new_node(g, GEN_BLOCK), count = 0;
  if (gen_below(g, 2)) {
    int delay = gen_delay(g);   /* sometimes the jobs arrive in classes: a gather in waves */
    if (gen_below(g, 2)) gen_stagger(g, &m->nodes[delay].dur, par_var);
    else if (gen_below(g, 2)) {   /* a block of rows first, the last blocks short or empty */
      GenDur *d = &m->nodes[delay].dur;
      d->share = 3 + gen_below(g, 2); d->share_var = par_var; d->share_n = gen_below(g, 3 * GEN_MAX_BOUND);
    }
    m->nodes[body].kids[count++] = delay;
  }
  if (gen_below(g, 4) == 0 && m->node_count + 2 < GEN_MAX_NODES) {   /* a helper process on the job: worker(i0, ..) */
    int call = gen_new_node(g, GEN_CALL);
    m->nodes[call].kids[0] = job;
    m->nodes[call].call_vars = g->nvars;
    job = call;
  }
  m->nodes[body].kids[count++] = job;
  if (gen_below(g, 2)) m->nodes[body].kids[count++] = gen_idiom_step(g, par_var, -1);
  else if (gen_below(g, 3) == 0) {   /* the branches of one class run longer after the pool */
    int after = gen_delay(g);
    gen_stagger(g, &m->nodes[after].dur, par_var);
    m->nodes[body].kids[count++] = after;
  }
  m->nodes[body].nkids = count;
  g->nvars--;
  m->nodes[par].kids[0] = body;
  int how = gen_below(g, 3);
  if (how == 0) return par;
  int other = gen_new_node(g, GEN_USE);   /* another use of the pool, beside or before */
  m->nodes[other].res = res;
  m->nodes[other].dur = gen_dur(g);
  int outer = gen_new_node(g, how == 1 ? GEN_PARALLEL : GEN_BLOCK);
  m->nodes[outer].kids[0] = other; m->nodes[outer].kids[1] = par; m->nodes[outer].nkids = 2;
  return outer;
}

/* Tasks whose requests of one plain FCFS resource all last the same (docs/reduction.md, "Requests
** counted on m servers"): par (i = 0, P - 1) (or a literal range up to 9) over a block of two or
** three steps, each a delay or a use of the resource with one duration free of i, the use
** sometimes only where `i % K == c` or `i < c` (else a delay or nothing); the block sometimes
** repeated; the par sometimes beside another use of the resource (of the same duration or not) or
** after one. -1 when the model has no plain FCFS resource free of the holds. */
static int gen_idiom_count(GenState *g) {
  GenModel *m = g->m;
  int res = -1;
  for (int k = g->held_max + 1; k < m->res_count; k++)
    if (!m->res[k].family && m->res[k].ps_tenths == 0 && (res < 0 || gen_below(g, 2))) res = k;
  if (res < 0) return -1;
  int over_param = gen_below(g, 3) != 0;
  int par = gen_par_open(g, over_param, over_param ? m->param_default - 1 : gen_below(g, 9));
  int par_var = g->nvars - 1;
  GenDur d = gen_dur_same(g);
  int body = gen_new_node(g, GEN_BLOCK), count = 2 + gen_below(g, 2);
  for (int k = 0; k < count; k++) {
    int step;
    if (gen_below(g, 4) == 0) {
      step = gen_delay(g);
    } else {
      step = gen_new_node(g, GEN_USE);
      m->nodes[step].res = res;
      m->nodes[step].dur = d;
      if (gen_below(g, 3)) {   /* some branches only */
        int guard = gen_new_node(g, GEN_IF);
        GenNode *n = &m->nodes[guard];
        n->cond_var = par_var;
        if (gen_below(g, 2)) {
          n->cond = GEN_COND_MOD; n->cond_mod = 2 + gen_below(g, 2); n->cond_val = gen_below(g, n->cond_mod);
        } else {
          n->cond = GEN_COND_LT; n->cond_val = gen_below(g, 5);
        }
        n->kids[0] = step;
        n->kids[1] = gen_below(g, 2) ? gen_delay(g) : gen_new_node(g, GEN_SKIP);
        step = guard;
      }
    }
    m->nodes[body].kids[k] = step;
  }
  m->nodes[body].nkids = count;
  g->nvars--;
  m->nodes[par].kids[0] = gen_maybe_repeat(g, body, 3);
  int how = gen_below(g, 3);
  if (how == 0) return par;
  int other = gen_new_node(g, GEN_USE);   /* another use of the resource, beside or before */
  m->nodes[other].res = res;
  m->nodes[other].dur = gen_below(g, 2) ? d : gen_dur(g);
  int outer = gen_new_node(g, how == 1 ? GEN_PARALLEL : GEN_BLOCK);
  m->nodes[outer].kids[0] = other; m->nodes[outer].kids[1] = par; m->nodes[outer].nkids = 2;
  return outer;
}

/* The first family (FCFS or ps) that no enclosing hold keeps, one without hand-off first, or -1. */
static int gen_any_family(GenState *g) {
  int any = -1;
  for (int k = g->held_max + 1; k < g->m->res_count; k++) {
    if (!g->m->res[k].family) continue;
    if (!g->m->res[k].handoff_ns) return k;
    if (any < 0) any = k;
  }
  return any;
}

/* All-to-all in rounds (docs/reduction.md, "All-to-all in rounds", "Shifted rounds that start
** apart"): par (i = 0, P - 1) { sometimes a delay first, `if (i == c)` or by i; seq (j = 0 or 1,
** P - 1, or 2 P - 1) (one time in 4 seq (j = 1, 1 + i % 3), rounds by the rank) a send to
** r[(i + j) % P] or r[(i + 2 P - j) % P] (one-to-one in i at each round; one time in 6
** (i * j) % P, one in 6 xr(i, j) % P or bor(i, j) % P, GEN_MEMBER_XORFN), alone, after a delay by i
** (`(i % 2) * 1us`: branches of unequal speed), beside work the same on every branch (a delay or
** a use of the branch's own member, before or after it), or in a `||` beside a delay or a use of
** the branch's own member; sometimes a delay after the rounds };
** on a FCFS or a ps family, sometimes repeated outside or beside another request on the family
** (what breaks the lock step). -1 when the model has no family that no enclosing hold keeps. */
static int gen_idiom_a2a(GenState *g) {
  GenModel *m = g->m;
  int res = gen_any_family(g);
  if (res < 0) return -1;
  int par = gen_par_open(g, 1, m->param_default - 1), par_var = g->nvars - 1;
  int seq = gen_new_node(g, GEN_SEQ);
  m->nodes[seq].var = g->nvars; m->nodes[seq].lo = gen_below(g, 2);
  m->nodes[seq].hi_param = 1; m->nodes[seq].hi = m->param_default - 1;
  g->scope_hi[g->nvars++] = GEN_MAX_BOUND;
  int back = gen_below(g, 4) == 0;   /* the rounds the other way round, sometimes twice round */
  if (back && gen_below(g, 2)) m->nodes[seq].hi_param = 3;
  int send = gen_send(g, res, back ? GEN_MEMBER_SHIFT_BACK : GEN_MEMBER_SHIFT, par_var, m->nodes[seq].var), step = send;
  if (!back && gen_below(g, 4) == 0) {   /* 1 + i % 3 rounds, by the rank (the member follows j and i) */
    m->nodes[seq].hi_param = 2; m->nodes[seq].count_var = par_var; m->nodes[seq].lo = 1;
  }
  int order = back ? 0 : gen_below(g, 6);   /* 4: the multiplicative order (i * j) % P; 5: the xor order */
  if (order == 4) { m->nodes[send].member = GEN_MEMBER_AFFINE; m->nodes[send].member_val = 0; }
  if (order == 5) { m->nodes[send].member = GEN_MEMBER_XORFN; m->nodes[send].member_val = gen_below(g, 4) == 0; }
  int how = gen_below(g, 5);
  if (how == 1 || how == 2) {   /* the send beside local work */
    int other = how == 1 ? gen_delay(g) : gen_use(g);
    if (other < 0) other = gen_delay(g);
    GenNode *o = &m->nodes[other];
    if (o->kind == GEN_USE) {
      if (m->res[o->res].family) { o->member = GEN_MEMBER_VAR; o->member_var = par_var; }
      o->dur = gen_dur(g);
    }
    step = gen_new_node(g, GEN_PARALLEL);
    int first = gen_below(g, 2);
    m->nodes[step].kids[first] = send; m->nodes[step].kids[1 - first] = other; m->nodes[step].nkids = 2;
  } else if (how == 3) {   /* a delay by the branch first: (i % 2) * 1us or i * t */
    int wait = gen_new_node(g, GEN_DELAY);
    GenDur d = {.c = -1, .coef_c = 1, .var = par_var, .ci = -1, .lit_us = 0, .mod = gen_below(g, 2) ? 2 : 0};
    if (m->const_count > 0 && gen_below(g, 2)) d.ci = gen_below(g, m->const_count);
    m->nodes[wait].dur = d;
    step = gen_new_node(g, GEN_BLOCK);
    m->nodes[step].kids[0] = wait; m->nodes[step].kids[1] = send; m->nodes[step].nkids = 2;
  } else if (how == 4) {   /* work the same on every branch before or after the send (a delay
                              free of the branch, or a use of the branch's own member) */
    int work = gen_below(g, 2) ? gen_use(g) : -1;
    if (work >= 0 && m->res[m->nodes[work].res].family) {
      m->nodes[work].member = GEN_MEMBER_VAR; m->nodes[work].member_var = par_var;
    } else work = -1;
    if (work < 0) work = gen_new_node(g, GEN_DELAY);
    GenDur d = {.c = -1, .coef_c = 1, .var = -1, .ci = -1, .lit_us = 1 + gen_below(g, 3), .mod = 0};
    if (m->const_count > 0 && gen_below(g, 2)) { d.c = gen_below(g, m->const_count); d.lit_us = 0; }
    m->nodes[work].dur = d;
    step = gen_new_node(g, GEN_BLOCK);
    int first = gen_below(g, 2);
    m->nodes[step].kids[first] = work; m->nodes[step].kids[1 - first] = send; m->nodes[step].nkids = 2;
  }
  g->nvars--;
  m->nodes[seq].kids[0] = step;
  int body = seq, pre = gen_below(g, 3);
  if (pre) {   /* one branch starts late (`if (i == c)`), or each by its index */
    int late = gen_new_node(g, GEN_DELAY);
    if (pre == 1) {
      m->nodes[late].dur = gen_dur(g);
      int cond = gen_new_node(g, GEN_IF);
      GenNode *n = &m->nodes[cond];
      n->cond = GEN_COND_EQ; n->cond_var = par_var; n->cond_val = gen_below(g, m->param_default);
      n->kids[0] = late;
      late = cond;
    } else {
      GenDur d = {.c = -1, .coef_c = 1, .var = par_var, .ci = -1, .lit_us = 0, .mod = 0};
      m->nodes[late].dur = d;
    }
    body = gen_new_node(g, GEN_BLOCK);
    m->nodes[body].kids[0] = late; m->nodes[body].kids[1] = seq; m->nodes[body].nkids = 2;
  }
  if (gen_below(g, 3) == 0) {   /* work after the rounds, by the branch or not */
    int after = gen_delay(g), block = gen_new_node(g, GEN_BLOCK);
    m->nodes[block].kids[0] = body; m->nodes[block].kids[1] = after; m->nodes[block].nkids = 2;
    body = block;
  }
  g->nvars--;
  m->nodes[par].kids[0] = body;
  return gen_par_outside(g, par, res, 4, 2);
}

/* An item of a proportionate line (docs/reduction.md, reduce_line.c): the loop's body is one use
** of stage j of a family, `use(r[j], d)`, with d the same at every stage but depending on the
** item: (i % K) or (i % K == c ? 2 : 1) times 1us plus a literal (a header record, uneven items). */
static int gen_line_item(GenState *g, int par_var, int step_var) {
  int id = gen_use(g);
  if (id < 0 || !g->m->res[g->m->nodes[id].res].family) return id < 0 ? gen_idiom_step(g, par_var, step_var) : id;
  GenNode *n = &g->m->nodes[id];
  n->member = GEN_MEMBER_VAR;
  n->member_var = step_var;
  GenDur d = {.c = -1, .coef_c = 1, .var = par_var, .ci = -1, .lit_us = gen_below(g, 3), .mod = 2 + gen_below(g, 2)};
  if (gen_below(g, 2)) d.pick = 1 + gen_below(g, d.mod);
  n->dur = d;
  return id;
}

/* Sometimes the last stage of a pipeline written after the loop over the others: `{ seq (j = 0, h)
** { ... use(r[j], t) ... }; use(r[h + 1], t2) }` with r a family the chain uses at stage j (members
** apart from the loop's: docs/reduction.md, "Tandem line"). Returns the statement that replaces
** seq (the block, or seq itself). */
static int gen_last_stage(GenState *g, int seq, int chain) {
  GenModel *m = g->m;
  if (gen_below(g, 3) != 0 || m->node_count + 2 >= GEN_MAX_NODES) return seq;
  int stage = -1;
  int ids[GEN_MAX_KIDS + 1], count = 0;
  if (m->nodes[chain].kind == GEN_BLOCK)
    for (int k = 0; k < m->nodes[chain].nkids; k++) ids[count++] = m->nodes[chain].kids[k];
  else ids[count++] = chain;
  for (int k = 0; k < count && stage < 0; k++) {
    const GenNode *n = &m->nodes[ids[k]];
    if (n->kind == GEN_USE && m->res[n->res].family && n->member == GEN_MEMBER_VAR &&
        n->member_var == m->nodes[seq].var)
      stage = ids[k];
  }
  if (stage < 0) return seq;
  int last = gen_new_node(g, GEN_USE), block = gen_new_node(g, GEN_BLOCK);
  GenNode *n = &m->nodes[last];
  n->res = m->nodes[stage].res;
  n->member = GEN_MEMBER_CONST;
  n->member_val = (m->nodes[seq].hi_param ? GEN_MAX_BOUND : m->nodes[seq].hi) + 1;
  n->dur = gen_dur(g);
  m->nodes[block].kids[0] = seq; m->nodes[block].kids[1] = last; m->nodes[block].nkids = 2;
  return block;
}

/* A step of gen_idiom_skip: a chain step (gen_idiom_step) under `if (i % K == c)` or, in a
** loop over stages j, `if (not (j == c and i % K == c2))` (the items of a class skip stage c);
** or a `||` of two chain steps (a stage forked onto two units, a log write beside a compute); or
** a use whose duration differs for a class of items (`if (i % K == c) use(r, d') else use(r, d)`). */
static int gen_skip_step(GenState *g, int par_var, int step_var) {
  GenModel *m = g->m;
  int how = gen_below(g, 4);
  if (how == 0) return gen_idiom_step(g, par_var, step_var);
  if (how == 3) {   /* a slow path: `if (i % K == c) use(r, d) else use(r, d')` (merge_durations) */
    int kid = gen_idiom_step(g, par_var, step_var);
    if (m->nodes[kid].kind != GEN_USE || m->node_count + 2 >= GEN_MAX_NODES) return kid;
    int slow = gen_new_node(g, GEN_USE);
    m->nodes[slow] = m->nodes[kid];
    m->nodes[slow].dur = gen_dur(g);
    int K = 2 + gen_below(g, 3);
    int id = gen_line_if(g, GEN_COND_MOD, par_var, gen_below(g, K), slow, kid);
    m->nodes[id].cond_mod = K;
    return id;
  }
  if (how == 1) {
    int fork = gen_new_node(g, GEN_PARALLEL);
    for (int k = 0; k < 2; k++) m->nodes[fork].kids[k] = gen_idiom_step(g, par_var, step_var);
    m->nodes[fork].nkids = 2;
    return fork;
  }
  int kid = gen_idiom_step(g, par_var, step_var), K = 2 + gen_below(g, 2);
  int id = gen_line_if(g, GEN_COND_MOD, par_var, gen_below(g, K), kid, -1);
  GenNode *n = &m->nodes[id];
  n->cond_mod = K;
  if (step_var >= 0 && gen_below(g, 2)) {
    n->cond = GEN_COND_SKIP; n->cond_var2 = step_var;
    n->cond_val = gen_below(g, GEN_MAX_BOUND + 1); n->cond_val2 = gen_below(g, K);
  }
  return id;
}

/* Items through a line of stages that some skip or that fork (docs/reduction.md, "Tandem line",
** reduce_skip.c): par (i = 0, P - 1) over a block of 1 .. GEN_MAX_KIDS steps of gen_skip_step,
** sometimes inside `seq (j = 0, ...)` over the stages. */
static int gen_idiom_skip(GenState *g) {
  GenModel *m = g->m;
  int par = gen_par_open(g, 1, m->param_default - 1), par_var = m->nodes[par].var;
  int seq = -1, step_var = -1;
  if (gen_below(g, 2)) {
    seq = gen_new_node(g, GEN_SEQ);
    GenNode *q = &m->nodes[seq];
    q->var = g->nvars; q->lo = 0; q->hi = 1 + gen_below(g, GEN_MAX_BOUND);
    g->scope_hi[g->nvars++] = q->hi;
    step_var = q->var;
  }
  int count = 1 + gen_below(g, GEN_MAX_KIDS), body = gen_new_node(g, GEN_BLOCK);
  for (int k = 0; k < count; k++) m->nodes[body].kids[k] = gen_skip_step(g, par_var, step_var);
  m->nodes[body].nkids = count;
  if (seq >= 0) { g->nvars--; m->nodes[seq].kids[0] = body; body = seq; }
  g->nvars--;
  m->nodes[par].kids[0] = body;
  return par;
}

/* How parallel programs divide work and talk: `par (i = 0, P - 1)` (or a literal range) over a
** chain of steps, the chain sometimes inside `seq (j = 0, ...)` (rounds, pipeline stages), the
** whole sometimes repeated (iterations of a bulk-synchronous program). */
/* top, or sometimes `top || { use(f[c], d); [use(f[c'], d')] }` (either order): a monitor thread
** or a root's own I/O on one or two fixed members of a family f beside the par (docs/reduction.md,
** "Demand per member of a family"); f a family no enclosing hold keeps. */
static int gen_beside(GenState *g, int top) {
  GenModel *m = g->m;
  if (gen_below(g, 4) != 0 || m->node_count + 4 >= GEN_MAX_NODES) return top;
  int res = -1;
  for (int k = 0; k < m->res_count && res < 0; k++)
    if (m->res[k].family && (m->res[k].ps_tenths || k > g->held_max)) res = k;
  if (res < 0) return top;
  int uses = 1 + gen_below(g, 2), other = uses == 1 ? -1 : gen_new_node(g, GEN_BLOCK), first = -1;
  for (int k = 0; k < uses; k++) {
    int use = gen_new_node(g, GEN_USE);
    GenNode *n = &m->nodes[use];
    n->res = res; n->member = GEN_MEMBER_CONST; n->member_val = gen_below(g, 3);
    n->dur = gen_dur(g);
    if (other < 0) first = use;
    else { m->nodes[other].kids[k] = use; m->nodes[other].nkids = k + 1; }
  }
  if (other < 0) other = first;
  int fork = gen_new_node(g, GEN_PARALLEL), side = gen_below(g, 2);
  m->nodes[fork].kids[side] = top; m->nodes[fork].kids[1 - side] = other; m->nodes[fork].nkids = 2;
  return fork;
}

/* use(res[pipe form], d) for gen_idiom_pipe: rank i at depth par_var, stage j at depth step_var. */
static int gen_pipe_use(GenState *g, int res, int form, int par_var, int step_var, int R, int K) {
  int id = gen_new_node(g, GEN_USE);
  GenNode *n = &g->m->nodes[id];
  n->res = res; n->member = GEN_MEMBER_PIPE; n->member_val = form;
  n->member_var = par_var; n->member_off = step_var; n->pipe_r = R; n->pipe_k = K;
  if (gen_below(g, 3)) {   /* equal stages, often: the pipeline's own bound is exact */
    GenDur d = {.c = -1, .coef_c = 1, .var = -1, .ci = -1, .lit_us = 1 + gen_below(g, 3), .mod = 0};
    n->dur = d;
  } else n->dur = gen_dur(g);
  return id;
}

/* Ranks that each run their own pipeline over one flat family (docs/reduction.md, "Branches on
** members of their own"): par (i = 0, R - 1) { par (c = 0, M - 1) seq (j = 0, K - 1)
** use(f[form(i, j)], d); tail } with R K <= GEN_FAMILY_SIZE, the form one-to-one in (i, j) (i K +
** j, j R + i, wrapped by % 6) or not (i + j, i (K - 1) + j: ranks share stages); the par over the
** items sometimes left out (one item); the tail (after the pipeline, or before it) nothing, a
** delay, a ring send on a member of the rank's own ((i + 1) % R, of the same family or another)
** or a use of any resource (a shared plain one: a send to a root);
** sometimes the next rank's first stage used beside the pipeline (two sites on the family); the
** rank's body sometimes in a helper process on i. -1 when the model has no FCFS family that no
** enclosing hold keeps. */
static int gen_idiom_pipe(GenState *g) {
  static const int shapes[][2] = {{2, 3}, {3, 2}, {2, 2}, {1, 3}, {3, 1}, {2, 1}};
  GenModel *m = g->m;
  int res = gen_fcfs_family(g);
  if (res < 0) return -1;
  int shape = gen_below(g, 6), R = shapes[shape][0], K = shapes[shape][1];
  int par = gen_par_open(g, 0, R - 1), par_var = m->nodes[par].var;
  int items = gen_below(g, 4) ? gen_par_open(g, 0, gen_below(g, GEN_MAX_BOUND)) : -1;
  int seq = gen_new_node(g, GEN_SEQ);
  m->nodes[seq].var = g->nvars; m->nodes[seq].lo = 0; m->nodes[seq].hi = K - 1;
  g->scope_hi[g->nvars++] = K - 1;
  int form = gen_below(g, 4) ? gen_below(g, 3) : 3 + gen_below(g, 2);
  m->nodes[seq].kids[0] = gen_pipe_use(g, res, form, par_var, m->nodes[seq].var, R, K);
  g->nvars--;
  int pipe = seq;
  if (items >= 0) { g->nvars--; m->nodes[items].kids[0] = seq; pipe = items; }
  if (gen_below(g, 5) == 0) {   /* the next rank's first stage beside the pipeline */
    int fork = gen_new_node(g, GEN_PARALLEL);
    m->nodes[fork].kids[0] = gen_pipe_use(g, res, 5, par_var, -1, R, K);
    m->nodes[fork].kids[1] = pipe; m->nodes[fork].nkids = 2;
    pipe = fork;
  }
  int body = pipe, how = gen_below(g, 4);
  if (how > 0) {
    int tail = -1;
    if (how == 1) tail = gen_delay(g);
    else if (how == 2) {   /* a ring send: the first FCFS family after res, else res itself */
      int ring = res;
      for (int k = res + 1; k < m->res_count && ring == res; k++)
        if (m->res[k].family && m->res[k].ps_tenths == 0 && gen_below(g, 2)) ring = k;
      tail = gen_pipe_use(g, ring, 6 + gen_below(g, 2), par_var, -1, R, K);
    } else {
      tail = gen_use(g);
      if (tail >= 0) {
        m->nodes[tail].dur = gen_dur(g);
        gen_member(g, &m->nodes[tail]);
      } else tail = gen_delay(g);
    }
    int first = gen_below(g, 3) == 0;   /* the tail before the pipeline, sometimes */
    body = gen_new_node(g, GEN_BLOCK);
    m->nodes[body].kids[first] = pipe; m->nodes[body].kids[1 - first] = tail; m->nodes[body].nkids = 2;
  }
  if (gen_below(g, 3) == 0 && m->node_count + 1 < GEN_MAX_NODES) {   /* a helper process on the rank */
    int call = gen_new_node(g, GEN_CALL);
    m->nodes[call].kids[0] = body;
    m->nodes[call].call_vars = g->nvars;
    body = call;
  }
  g->nvars--;
  m->nodes[par].kids[0] = body;
  return par;
}

/* An FCFS resource that no enclosing hold keeps other than not (not itself when there is no
** other), chosen at random, or -1. */
static int gen_fcfs_other(GenState *g, int not) {
  int pick[GEN_MAX_RES], n = 0;
  for (int k = g->held_max + 1; k < g->m->res_count; k++)
    if (g->m->res[k].ps_tenths == 0 && k != not) pick[n++] = k;
  return n ? pick[gen_below(g, n)] : not;
}

/* Threads on fewer cores, then what follows them (docs/reduction.md, "Pars nested in a chain"):
** par (i = 0, P - 1 or 5) { [delay;] par (t = 0, hi) use(cores, d(t)); tail }, cores any FCFS
** resource (its servers often fewer than the threads: a multi-server plain one or the rank's own
** member cores[i]), the tail on another resource: the ring sends (i + 1) and (i - 1) as a `||`
** or one after another, a send to one member for all (a root), or any use; the rank's body
** sometimes repeated. -1 when the model has no FCFS family. */
static int gen_idiom_threads(GenState *g) {
  GenModel *m = g->m;
  if (g->nvars + 2 > GEN_MAX_DEPTH || m->node_count + 12 >= GEN_MAX_NODES) return -1;
  int fam = gen_fcfs_family(g), cores = gen_fcfs_other(g, fam);
  if (fam < 0 || cores < 0) return -1;
  int over_param = gen_below(g, 3) == 0;
  int par = gen_par_open(g, over_param, over_param ? m->param_default - 1 : GEN_FAMILY_SIZE - 1);
  int par_var = m->nodes[par].var;
  int threads = gen_par_open(g, gen_below(g, 4) == 0, 1 + gen_below(g, GEN_MAX_BOUND));
  if (m->nodes[threads].hi_param) m->nodes[threads].hi = m->param_default - 1;
  int work = gen_send(g, cores, GEN_MEMBER_VAR, par_var, 0);
  if (gen_below(g, 2)) {   /* unequal threads: the duration by the thread's index */
    m->nodes[work].dur.var = m->nodes[threads].var;
    if (gen_below(g, 2)) m->nodes[work].dur.mod = 2;
  }
  if (!m->res[cores].family) m->nodes[work].member = GEN_MEMBER_CONST;
  g->nvars--;
  m->nodes[threads].kids[0] = work;
  int ring = over_param ? GEN_MEMBER_RING : GEN_MEMBER_RING_FULL, how = gen_below(g, 4), tail;
  if (how <= 1) {   /* the two ring sends: at once, or one after another */
    tail = gen_new_node(g, how == 0 ? GEN_PARALLEL : GEN_BLOCK);
    m->nodes[tail].kids[0] = gen_send(g, fam, (GenMember)ring, par_var, 1);
    if (over_param) m->nodes[tail].kids[1] = gen_send(g, fam, GEN_MEMBER_RING_BACK, par_var, 0);
    else m->nodes[tail].kids[1] = gen_send(g, fam, GEN_MEMBER_RING_FULL, par_var, GEN_FAMILY_SIZE - 1);
    m->nodes[tail].nkids = 2;
  } else if (how == 2) {   /* a root */
    tail = gen_send(g, fam, GEN_MEMBER_CONST, par_var, 0);
    m->nodes[tail].member_val = gen_below(g, 2);
  } else {
    tail = gen_use(g);
    if (tail >= 0) {
      m->nodes[tail].dur = gen_dur(g);
      gen_member(g, &m->nodes[tail]);
    } else tail = gen_delay(g);
  }
  int body = gen_new_node(g, GEN_BLOCK), at = 0;
  if (gen_below(g, 4) == 0) m->nodes[body].kids[at++] = gen_delay(g);
  m->nodes[body].kids[at++] = threads;
  m->nodes[body].kids[at++] = tail;
  m->nodes[body].nkids = at;
  g->nvars--;
  m->nodes[par].kids[0] = gen_maybe_repeat(g, body, 3);
  return par;
}

/* Workers fed by a master (docs/reduction.md, "Requests spaced by a single server"): par (i = 0,
** P - 1 or 5) [repeat or seq (j = 0, 1 + i % 2)] { use(A, a); [use(f[i], c) or delay(c);] use(r, t) }
** with A a plain FCFS resource of one server, r another plain FCFS one of m servers, t near
** m a (m a, m a + 1 or a: the spacing proves no wait, or just not), the time between sometimes by
** the worker, sometimes another use of r or of A beside; -1 without such resources. */
static int gen_idiom_master(GenState *g) {
  GenModel *m = g->m;
  if (g->nvars + 2 > GEN_MAX_DEPTH || m->node_count + 12 >= GEN_MAX_NODES) return -1;
  int a = -1, r = -1, own = gen_fcfs_family(g);
  for (int k = g->held_max + 1; k < m->res_count; k++) {
    const GenResource *x = &m->res[k];
    if (x->family || x->ps_tenths) continue;
    if (a < 0 && x->servers == 1 && !x->handoff_ns) a = k;
    else if (r < 0) r = k;
  }
  if (a < 0 || r < 0) return -1;
  int over_param = gen_below(g, 2) == 0;
  int par = gen_par_open(g, over_param, over_param ? m->param_default - 1 : GEN_FAMILY_SIZE - 1);
  int par_var = m->nodes[par].var, lit = 1 + gen_below(g, 3), servers = m->res[r].servers;
  int body = gen_new_node(g, GEN_BLOCK), at = 0;
  m->nodes[body].kids[at++] = gen_send(g, a, GEN_MEMBER_CONST, par_var, 0);
  m->nodes[m->nodes[body].kids[0]].dur.lit_us = lit;
  if (gen_below(g, 3)) {   /* the worker's own compute, or a delay */
    int mid = own >= 0 && gen_below(g, 2) ? gen_send(g, own, GEN_MEMBER_VAR, par_var, 0) : gen_delay(g);
    if (gen_below(g, 4) == 0) m->nodes[mid].dur.var = par_var;   /* by the worker: no spacing */
    m->nodes[body].kids[at++] = mid;
  }
  int write = gen_send(g, r, GEN_MEMBER_CONST, par_var, 0), pick = gen_below(g, 3);
  GenDur t = {.c = -1, .coef_c = 1, .var = -1, .ci = -1, .mod = 0,
              .lit_us = pick == 0 ? servers * lit : pick == 1 ? servers * lit + 1 : lit};
  m->nodes[write].dur = t;
  m->nodes[body].kids[at++] = write;
  m->nodes[body].nkids = at;
  int top = body;
  if (gen_below(g, 2)) top = gen_maybe_repeat(g, body, 1);
  else if (g->nvars < GEN_MAX_DEPTH) {   /* tasks dealt: 1 + i % 2 of them */
    top = gen_new_node(g, GEN_SEQ);
    m->nodes[top].var = g->nvars; m->nodes[top].lo = 1; m->nodes[top].hi = 1;
    m->nodes[top].hi_param = 2; m->nodes[top].count_var = par_var;
    m->nodes[top].kids[0] = body;
  }
  g->nvars--;
  if (gen_below(g, 5) == 0) {   /* another use of r or A beside the worker's tasks */
    int fork = gen_new_node(g, GEN_PARALLEL);
    m->nodes[fork].kids[0] = top;
    m->nodes[fork].kids[1] = gen_send(g, gen_below(g, 2) ? r : a, GEN_MEMBER_CONST, par_var, 0);
    m->nodes[fork].nkids = 2;
    top = fork;
  }
  m->nodes[par].kids[0] = top;
  return par;
}

/* A token beside background jobs (docs/reduction.md, "A branch's first request behind an earlier
** branch's"): par (i = 0, 0 .. 3) use(r[i + c], d) with c 0 or 1 (the jobs) and seq (j = 0 or 1,
** .. 3) { use(r[j], d'); a delay or a use } (the token, sometimes repeated) side by side in a
** `||`, the jobs first (the token's first request queued behind a job) or the token first;
** -1 when the model has no FCFS family that no enclosing hold keeps. */
static int gen_idiom_token(GenState *g) {
  GenModel *m = g->m;
  int res = gen_fcfs_family(g);
  if (res < 0 || g->nvars + 1 > GEN_MAX_DEPTH || m->node_count + 8 > GEN_MAX_NODES) return -1;
  int c = gen_below(g, 2);
  int par = gen_par_open(g, 0, gen_below(g, GEN_MAX_BOUND + 1)), par_var = g->nvars - 1;
  int job = gen_send(g, res, c ? GEN_MEMBER_LINE : GEN_MEMBER_VAR, par_var, c);
  m->nodes[job].dur = gen_dur(g);
  g->nvars--;
  m->nodes[par].kids[0] = job;
  int seq = gen_new_node(g, GEN_SEQ);
  GenNode *q = &m->nodes[seq];
  q->var = g->nvars; q->lo = gen_below(g, 2); q->hi = q->lo + gen_below(g, GEN_MAX_BOUND + 1 - q->lo);
  g->scope_hi[g->nvars++] = q->hi;
  int body = gen_new_node(g, GEN_BLOCK), tok = gen_send(g, res, GEN_MEMBER_VAR, m->nodes[seq].var, 0);
  m->nodes[tok].dur = gen_dur(g);
  int next = gen_below(g, 2) ? gen_use(g) : -1;
  if (next >= 0) {
    m->nodes[next].dur = gen_dur(g);
    gen_member(g, &m->nodes[next]);
  } else next = gen_delay(g);
  g->nvars--;
  m->nodes[body].kids[0] = tok; m->nodes[body].kids[1] = next; m->nodes[body].nkids = 2;
  m->nodes[seq].kids[0] = body;
  int token = gen_maybe_repeat(g, seq, 4), fork = gen_new_node(g, GEN_PARALLEL), first = gen_below(g, 4) == 0;
  m->nodes[fork].kids[first] = par; m->nodes[fork].kids[1 - first] = token; m->nodes[fork].nkids = 2;
  return fork;
}

/* Locks per bucket (docs/reduction.md, "Plain holds in lock step"): par (i = 0, P - 1 or a
** literal) seq (j = 0, 0 .. 3) (one time in 3 the rounds outside, seq (j) par (i): the hold then
** first in each round's chain, "The chain's first request") { a delay (1 .. 2 us, by i, of 0, or
** none) or a use of plain fcfs cores; hold (r[(i + j) % K]) a delay or two, or a use of the cores
** (one time in 4 a use of r[(i + j) % K] instead; one in 4 under `if (i % 2 == c)`, the other
** side the same on r[(i + j) % K2]) }, r an FCFS family (one with a hand-off when
** there is one), K = 1 .. GEN_FAMILY_SIZE: one-to-one at each round while the branches are at
** most K (times the servers), several a bucket beyond. -1 when the model has no FCFS family that
** no enclosing hold keeps. */
static int gen_idiom_buckets(GenState *g) {
  GenModel *m = g->m;
  int res = -1;
  for (int k = g->held_max + 1; k < m->res_count; k++) {
    if (!m->res[k].family || m->res[k].ps_tenths) continue;
    if (res < 0 || (m->res[k].handoff_ns && !m->res[res].handoff_ns)) res = k;
  }
  if (res < 0) return -1;
  int over_param = gen_below(g, 2), rounds_out = gen_below(g, 3) == 0, seq = -1;
  if (rounds_out) {   /* seq (j) par (i): each round a par, the hold first in its chain */
    seq = gen_new_node(g, GEN_SEQ);
    m->nodes[seq].var = g->nvars; m->nodes[seq].lo = 0; m->nodes[seq].hi = gen_below(g, GEN_MAX_BOUND + 1);
    g->scope_hi[g->nvars++] = m->nodes[seq].hi;
  }
  int par = gen_par_open(g, over_param, over_param ? m->param_default - 1 : gen_below(g, GEN_MAX_BOUND + 1));
  int par_var = g->nvars - 1;
  if (!rounds_out) {
    seq = gen_new_node(g, GEN_SEQ);
    m->nodes[seq].var = g->nvars; m->nodes[seq].lo = 0; m->nodes[seq].hi = gen_below(g, GEN_MAX_BOUND + 1);
    g->scope_hi[g->nvars++] = m->nodes[seq].hi;
  }
  int lock = gen_new_node(g, gen_below(g, 4) ? GEN_HOLD : GEN_USE);
  GenNode *l = &m->nodes[lock];
  l->res = res; l->member = GEN_MEMBER_BUCKET; l->member_var = par_var; l->member_off = m->nodes[seq].var;
  l->member_val = 1 + gen_below(g, GEN_FAMILY_SIZE);
  int cores = -1;   /* a plain fcfs resource after r: work on shared cores inside the hold */
  for (int k = res + 1; k < m->res_count && cores < 0; k++)
    if (!m->res[k].family && m->res[k].ps_tenths == 0) cores = k;
  if (l->kind == GEN_USE) {
    l->dur.lit_us = 1 + gen_below(g, 3);
  } else if (cores >= 0 && gen_below(g, 3) == 0) {
    int inner = gen_new_node(g, GEN_USE);
    m->nodes[inner].res = cores; m->nodes[inner].dur.lit_us = 1 + gen_below(g, 2);
    m->nodes[lock].kids[0] = inner;
  } else {
    int inner = gen_new_node(g, GEN_DELAY);
    m->nodes[inner].dur.lit_us = 1 + gen_below(g, 3);
    if (gen_below(g, 3) == 0) {   /* a body of two delays */
      int two = gen_new_node(g, GEN_DELAY), block = gen_new_node(g, GEN_BLOCK);
      m->nodes[two].dur.lit_us = gen_below(g, 2);
      m->nodes[block].kids[0] = inner; m->nodes[block].kids[1] = two; m->nodes[block].nkids = 2;
      inner = block;
    }
    m->nodes[lock].kids[0] = inner;
  }
  if (gen_below(g, 4) == 0) {   /* `if (i % 2 == c) hold (r[(i + j) % K]) S else hold (r[(i + j) % K2])
                                   S2`: one request either way (reduce_lower.c merge_hold) */
    int other = gen_new_node(g, GEN_DELAY);
    m->nodes[other] = m->nodes[lock];
    if (m->nodes[other].kind == GEN_HOLD) {
      int inner = gen_new_node(g, GEN_DELAY);
      m->nodes[inner].dur.lit_us = 1 + gen_below(g, 3);
      m->nodes[other].kids[0] = inner;
    }
    m->nodes[other].member_val = 1 + gen_below(g, GEN_FAMILY_SIZE);
    lock = gen_line_if(g, GEN_COND_MOD, par_var, gen_below(g, 2), lock, other);
    m->nodes[lock].cond_mod = 2;
  }
  int how = gen_below(g, 6), before = -1;   /* 0: no delay before (a release may meet a request) */
  if (how == 5 && cores >= 0) {   /* a use of the cores before the lock */
    before = gen_new_node(g, GEN_USE);
    m->nodes[before].res = cores; m->nodes[before].dur.lit_us = gen_below(g, 2);
  } else if (how > 0) {
    before = gen_new_node(g, GEN_DELAY);
    GenDur *d = &m->nodes[before].dur;
    if (how == 1) { d->var = par_var; d->coef_c = 1; d->mod = gen_below(g, 2) ? 2 : 0; }   /* by the branch */
    else d->lit_us = how == 2 ? 0 : 1 + gen_below(g, 2);
  }
  int body = lock;
  if (before >= 0) {
    body = gen_new_node(g, GEN_BLOCK);
    m->nodes[body].kids[0] = before; m->nodes[body].kids[1] = lock; m->nodes[body].nkids = 2;
  }
  g->nvars -= 2;
  if (rounds_out) {
    m->nodes[par].kids[0] = body;
    m->nodes[seq].kids[0] = par;
    return seq;
  }
  m->nodes[seq].kids[0] = body;
  m->nodes[par].kids[0] = seq;
  return par;
}

/* A use of res for gen_idiom_twice: one member for all branches (a fixed member of a family), its
** duration mostly a literal (equal items), else random (it may depend on the branch). */
static int gen_twice_use(GenState *g, int res) {
  int id = gen_new_node(g, GEN_USE);
  GenNode *n = &g->m->nodes[id];
  n->res = res;
  if (g->m->res[res].family) { n->member = GEN_MEMBER_CONST; n->member_val = gen_below(g, 3); }
  if (gen_below(g, 3)) {
    GenDur d = {.c = -1, .coef_c = 1, .var = -1, .ci = -1, .lit_us = gen_below(g, 4), .mod = 0};
    n->dur = d;
  } else n->dur = gen_dur(g);
  return id;
}

/* Two pipeline stages placed on one rank (docs/reduction.md, "A stage used again by every branch
** at once"): par (i = 0, P - 1) { [step;] use(a, d) 2 or 3 times; [delay;] use(b, d') 1 .. 3
** times; [delay] } with a and b FCFS resources (either may be the other, a family's fixed member,
** several servers), the step before sometimes a chain step (own members, or a stage: the rule
** must then keep out). -1 when the model has no FCFS resource that no enclosing hold keeps. */
static int gen_idiom_twice(GenState *g) {
  GenModel *m = g->m;
  int a = gen_fcfs_other(g, -1);
  if (a < 0 || m->node_count + 20 >= GEN_MAX_NODES) return -1;
  int b = gen_below(g, 5) ? gen_fcfs_other(g, a) : a;
  int par = gen_par_open(g, gen_below(g, 3) != 0, 1 + gen_below(g, 5)), par_var = m->nodes[par].var;
  int body = gen_new_node(g, GEN_BLOCK), count = 0;
  int ids[12], nid = 0;
  if (gen_below(g, 3) == 0) ids[nid++] = gen_below(g, 2) ? gen_delay(g) : gen_idiom_step(g, par_var, -1);
  int ca = 2 + gen_below(g, 2), cb = 1 + gen_below(g, 3);
  for (int k = 0; k < ca; k++) ids[nid++] = gen_twice_use(g, a);
  if (gen_below(g, 3) == 0) ids[nid++] = gen_delay(g);
  for (int k = 0; k < cb; k++) ids[nid++] = gen_twice_use(g, b);
  if (gen_below(g, 3) == 0) ids[nid++] = gen_delay(g);
  /* a block holds at most GEN_MAX_KIDS: nest the rest */
  int cur = body;
  for (int k = 0; k < nid; k++) {
    if (count == GEN_MAX_KIDS - 1 && k < nid - 1) {
      int more = gen_new_node(g, GEN_BLOCK);
      m->nodes[cur].kids[count++] = more; m->nodes[cur].nkids = count;
      cur = more; count = 0;
    }
    m->nodes[cur].kids[count++] = ids[k]; m->nodes[cur].nkids = count;
  }
  g->nvars--;
  m->nodes[par].kids[0] = body;
  return par;
}

static int gen_idiom(GenState *g) {
  GenModel *m = g->m;
  if (gen_below(g, 6) == 0) {   /* locks per bucket, a member map one-to-one at each round */
    int buckets = gen_idiom_buckets(g);
    if (buckets >= 0) return buckets;
  }
  if (gen_below(g, 8) == 0) {   /* workers fed by a master, then a shared disk */
    int master = gen_idiom_master(g);
    if (master >= 0) return master;
  }
  if (gen_below(g, 8) == 0) {   /* threads on fewer cores, then an exchange */
    int threads = gen_idiom_threads(g);
    if (threads >= 0) return threads;
  }
  if (gen_below(g, 9) == 0) {   /* a token beside background jobs on one family */
    int token = gen_idiom_token(g);
    if (token >= 0) return token;
  }
  if (gen_below(g, 9) == 0) {   /* two pipeline stages on one rank: a stage used twice in a row */
    int twice = gen_idiom_twice(g);
    if (twice >= 0) return twice;
  }
  if (gen_below(g, 7) == 0) {   /* a rank's own pipeline over a flat family */
    int pipe = gen_idiom_pipe(g);
    if (pipe >= 0) return pipe;
  }
  if (gen_below(g, 6) == 0) {   /* threads at locks, first: the rules for them read many shapes */
    int lock = gen_idiom_lock(g);
    if (lock >= 0) return lock;
  }
  if (gen_below(g, 8) == 0) {
    int slots = gen_idiom_slots(g);
    if (slots >= 0) return slots;
  }
  if (gen_below(g, 8) == 0) {
    int tloop = gen_idiom_tloop(g);
    if (tloop >= 0) return tloop;
  }
  if (gen_below(g, 8) == 0) {
    int buffer = gen_idiom_buffer(g);
    if (buffer >= 0) return buffer;
  }
  if (gen_below(g, 4) == 0) {
    int ps = gen_idiom_ps(g);
    if (ps >= 0) return ps;
  }
  if (gen_below(g, 5) == 0) {
    int a2a = gen_idiom_a2a(g);
    if (a2a >= 0) return a2a;
  }
  if (gen_below(g, 4) == 0) return gen_idiom_grid(g);
  if (gen_below(g, 6) == 0) return gen_idiom_cube(g);
  if (gen_below(g, 8) == 0) {
    int nested = gen_idiom_nested(g);
    if (nested >= 0) return nested;
  }
  if (gen_below(g, 6) == 0) {
    int butterfly = gen_idiom_butterfly(g);
    if (butterfly >= 0) return butterfly;
  }
  if (gen_below(g, 8) == 0) {
    int nodes = gen_idiom_nodes(g);
    if (nodes >= 0) return nodes;
  }
  if (gen_below(g, 4) == 0) {
    int checker = gen_idiom_checker(g);
    if (checker >= 0) return checker;
  }
  if (gen_below(g, 3) == 0) {
    int open = gen_idiom_open_grid(g);
    if (open >= 0) return open;
  }
  if (gen_below(g, 7) == 0) return gen_idiom_skip(g);
  if (gen_below(g, 6) == 0) return gen_idiom_dealt(g);
  if (gen_below(g, 6) == 0) return gen_idiom_rounds(g);
  if (gen_below(g, 6) == 0) {
    int pool = gen_idiom_pool(g);
    if (pool >= 0) return pool;
  }
  if (gen_below(g, 6) == 0) {
    int count = gen_idiom_count(g);
    if (count >= 0) return count;
  }
  if (gen_below(g, 3) == 0) return gen_idiom_fork(g);
  if (gen_below(g, 5) == 0) {
    int drift = gen_idiom_drift(g);
    if (drift >= 0) return drift;
  }
  if (gen_below(g, 4) == 0) {
    int line = gen_idiom_line(g);
    if (line >= 0) return line;
  }
  if (gen_below(g, 3) == 0) {
    int lock = gen_idiom_lock(g);
    if (lock >= 0) return lock;
  }
  int repeat = gen_below(g, 3) == 0 ? gen_new_node(g, GEN_REPEAT) : -1;
  if (repeat >= 0) m->nodes[repeat].hi = 1 + gen_below(g, 2);
  int over_param = gen_below(g, 3) != 0;
  int par = gen_par_open(g, over_param, over_param ? m->param_default - 1 : gen_below(g, GEN_MAX_BOUND + 1));
  int par_var = g->nvars - 1;
  int body;
  if (gen_below(g, 2)) {
    body = gen_new_node(g, GEN_SEQ);
    GenNode *q = &m->nodes[body];
    q->var = g->nvars;
    q->lo = 0;
    if (gen_below(g, 2)) { q->hi_param = 1; q->hi = m->param_default - 1; }
    else q->hi = gen_below(g, GEN_MAX_BOUND + 1);
    g->scope_hi[g->nvars++] = q->hi_param ? GEN_MAX_BOUND : q->hi;
    int kid = gen_below(g, 4) == 0 ? gen_line_item(g, par_var, q->var) : gen_idiom_chain(g, par_var, q->var);
    g->nvars--;
    m->nodes[body].kids[0] = kid;
    body = gen_last_stage(g, body, kid);
  } else {
    body = gen_idiom_chain(g, par_var, -1);
  }
  g->nvars--;
  m->nodes[par].kids[0] = body;
  if (repeat < 0) return gen_beside(g, par);
  m->nodes[repeat].kids[0] = par;
  return gen_beside(g, repeat);
}

static int gen_stmt(GenState *g, int depth);

/* A statement in a process of its own, p<id>() (its body sees no loop index of the caller):
** sometimes called again beside a leaf, `{ p(); { p() || leaf } }` (a memoised summary must
** not serve a call beside others with what holds only alone). */
static int gen_call(GenState *g, int depth) {
  GenModel *m = g->m;
  int call = gen_new_node(g, GEN_CALL), saved = g->nvars;
  g->nvars = 0;
  int body = gen_stmt(g, depth + 1);
  g->nvars = saved;
  m->nodes[call].kids[0] = body;
  if (gen_below(g, 2) || m->node_count + 4 >= GEN_MAX_NODES) return call;
  int again = gen_new_node(g, GEN_CALL), fork = gen_new_node(g, GEN_PARALLEL), block = gen_new_node(g, GEN_BLOCK);
  m->nodes[again].callee = call;
  int leaf = gen_leaf(g);
  m->nodes[fork].kids[0] = again; m->nodes[fork].kids[1] = leaf; m->nodes[fork].nkids = 2;
  m->nodes[block].kids[0] = call; m->nodes[block].kids[1] = fork; m->nodes[block].nkids = 2;
  return block;
}

static int gen_stmt(GenState *g, int depth) {
  GenModel *m = g->m;
  if (depth + 2 <= GEN_MAX_DEPTH && m->node_count + 8 + 4 * (GEN_MAX_DEPTH - depth + 1) < GEN_MAX_NODES &&
      gen_below(g, 10) == 0)
    return gen_call(g, depth);
  if (depth + 2 <= GEN_MAX_DEPTH && g->nvars + 2 <= GEN_MAX_DEPTH &&
      m->node_count + GEN_IDIOM_NODES + 4 * (GEN_MAX_DEPTH - depth + 1) < GEN_MAX_NODES &&
      gen_below(g, 5) == 0)
    return gen_idiom(g);
  /* room for the largest compound (a node and GEN_MAX_KIDS leaves) at every level below */
  if (depth >= GEN_MAX_DEPTH || m->node_count + 4 * (GEN_MAX_DEPTH - depth + 1) >= GEN_MAX_NODES ||
      (depth > 0 && gen_below(g, 10) < 2 + depth))
    return gen_leaf(g);
  if (gen_below(g, 8) == 0) {
    int id = gen_v2_hold(g, depth);
    if (id >= 0) return id;
  }
  int r = gen_below(g, 6);
  if (r == 0 || r == 1) {
    int id = gen_new_node(g, r == 0 ? GEN_BLOCK : GEN_PARALLEL);
    int count = 2 + gen_below(g, GEN_MAX_KIDS - 1);
    for (int k = 0; k < count; k++) {
      int kid = gen_stmt(g, depth + 1);
      m->nodes[id].kids[k] = kid;
      m->nodes[id].nkids = k + 1;
    }
    return id;
  }
  if (r == 2 || r == 3 || r == 4) {
    GenKind kind = r == 2 ? GEN_SEQ : r == 3 ? GEN_PAR : GEN_REPEAT;
    int id = gen_new_node(g, kind);
    GenNode *n = &m->nodes[id];
    if (kind == GEN_REPEAT) {
      n->hi = gen_below(g, GEN_MAX_BOUND + 1);
      int kid = gen_stmt(g, depth + 1);
      m->nodes[id].kids[0] = kid;
      return id;
    }
    n->var = g->nvars;
    if (gen_below(g, 4) == 0) {
      n->lo = 0;
      n->hi_param = 1;
      n->hi = m->param_default - 1;
    } else {
      n->lo = gen_below(g, 2);
      n->hi = n->lo - 1 + gen_below(g, GEN_MAX_BOUND + 1 - n->lo + 1); /* may be empty */
    }
    g->scope_hi[g->nvars++] = n->hi_param ? GEN_MAX_BOUND : (n->hi < 0 ? 0 : n->hi);
    int kid = gen_stmt(g, depth + 1);
    g->nvars--;
    m->nodes[id].kids[0] = kid;
    return id;
  }
  if (g->nvars == 0) return gen_leaf(g);
  int id = gen_new_node(g, GEN_IF);
  GenNode *n = &m->nodes[id];
  n->cond_var = gen_below(g, g->nvars);
  n->cond = (GenCond)gen_below(g, GEN_COND_COUNT);
  int top = g->scope_hi[n->cond_var];
  if (n->cond == GEN_COND_EQ) n->cond_val = gen_below(g, top + 1);
  else if (n->cond == GEN_COND_LT) n->cond_val = gen_below(g, top + 2);
  else if (n->cond == GEN_COND_RANGE) {
    n->cond_val = gen_below(g, top + 1);
    n->cond_val2 = gen_below(g, top + 2);
  } else if (n->cond == GEN_COND_MOD || n->cond == GEN_COND_OR) {
    n->cond_mod = 2 + gen_below(g, 2);
    n->cond_val = n->cond == GEN_COND_OR ? gen_below(g, top + 2) : gen_below(g, n->cond_mod);
    n->cond_val2 = gen_below(g, n->cond_mod);
  }
  int then_kid = gen_stmt(g, depth + 1);
  int else_kid = gen_below(g, 3) ? gen_stmt(g, depth + 1) : gen_new_node(g, GEN_SKIP);
  m->nodes[id].kids[0] = then_kid;
  m->nodes[id].kids[1] = else_kid;
  return id;
}

void gen_model(GenModel *m, uint64_t seed) {
  memset(m, 0, sizeof *m);
  GenState g = {seed * 0x2545F4914F6CDD1Dull + 1, m, {0}, 0, -1};
  m->res_count = gen_below(&g, GEN_MAX_RES + 1);
  for (int k = 0; k < m->res_count; k++) {
    m->res[k].family = gen_below(&g, 3) == 0;
    m->res[k].servers = 1 + (gen_below(&g, 2) ? 0 : gen_below(&g, 4));
  }
  m->const_count = 1 + gen_below(&g, GEN_MAX_CONSTS);
  for (int k = 0; k < m->const_count; k++) {
    m->consts[k].lo_ns = 1 + gen_below(&g, 5) * 250;
    m->consts[k].hi_ns = m->consts[k].lo_ns + (gen_below(&g, 3) ? gen_below(&g, 4) * 500 : 0);
  }
  m->param_default = 1 + gen_below(&g, GEN_MAX_BOUND + 1);
  gen_v2_decls(&g);
  m->root = gen_stmt(&g, 0);
}

/* ------------------------------------------------------------------ text */

typedef struct GenBuf {
  char *text;   /* malloc'd, NUL-terminated */
  size_t len;   /* characters written */
  size_t cap;   /* allocated */
} GenBuf;

static void gen_put(GenBuf *b, const char *format, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, format);
    int need = vsnprintf(b->text + b->len, b->cap - b->len, format, ap);
    va_end(ap);
    if (need >= 0 && (size_t)need < b->cap - b->len) {
      b->len += (size_t)need;
      return;
    }
    b->cap = 2 * b->cap + (size_t)need + 64;
    char *grown = realloc(b->text, b->cap);
    if (!grown) abort();
    b->text = grown;
  }
}

static void gen_put_dur(GenBuf *b, const GenDur *d) {
  int parts = 0;
  if (d->share) gen_put(b, "(");
  if (d->c >= 0) {
    if (d->coef_c == 1) gen_put(b, "t%d", d->c);
    else gen_put(b, "%d * t%d", d->coef_c, d->c);
    parts++;
  }
  if (d->var >= 0) {
    if (parts++) gen_put(b, " + ");
    if (d->mod > 0 && d->var2 > 0) gen_put(b, "((i%d + i%d) %% %d)", d->var, d->var2 - 1, d->mod);
    else if (d->mod > 0 && d->var2 < 0) gen_put(b, "((floor(i%d / 2) + i%d %% 2) %% %d)", d->var, d->var, d->mod);
    else if (d->mod > 0 && d->pick > 0) gen_put(b, "(i%d %% %d == %d ? 2 : 1)", d->var, d->mod, d->pick - 1);
    else if (d->mod > 0) gen_put(b, "(i%d %% %d)", d->var, d->mod);
    else gen_put(b, "i%d", d->var);
    if (d->ci >= 0) gen_put(b, " * t%d", d->ci);
    else gen_put(b, " * 1us");
  }
  if (d->lit_us > 0 || parts == 0) {
    if (parts++) gen_put(b, " + ");
    gen_put(b, "%dus", d->lit_us);
  }
  if (d->share == 1)
    gen_put(b, ") * (floor(%d / P) + (i%d < %d %% P ? 1 : 0))", d->share_n, d->share_var, d->share_n);
  else if (d->share == 2)
    gen_put(b, ") * (floor(%d / P) + (i%d >= P - %d %% P ? 1 : 0))", d->share_n, d->share_var, d->share_n);
  else if (d->share == 3)
    gen_put(b, ") * max(0, min(2, %d - 2 * i%d))", d->share_n, d->share_var);
  else if (d->share == 4)
    gen_put(b, ") * max(0, min(ceil(%d / P), %d - i%d * ceil(%d / P)))", d->share_n, d->share_n, d->share_var, d->share_n);
  else if (d->share == 5)
    gen_put(b, ") * (floor(%d / P) + ((i%d + P - i%d) %% P < %d %% P ? 1 : 0))", d->share_n, d->share_var,
            d->share_step, d->share_n);
}

/* The distance H of a butterfly's step i<j> as node n writes it (n->dist), and its block 2 H
** (block). */
static void gen_put_dist(GenBuf *b, const GenNode *n, int j, int block) {
  if (n->dist == 0) gen_put(b, block ? "2 ^ (i%d + 1)" : "2 ^ i%d", j);
  else if (n->dist == 1) gen_put(b, block ? "2 * 2 ^ (%d - i%d)" : "2 ^ (%d - i%d)", n->dist_top, j);
  else gen_put(b, block ? "2 * (2 ^ %d / 2 ^ (i%d + 1))" : "(2 ^ %d / 2 ^ (i%d + 1))", n->dist_top + 1, j);
}

/* The butterfly's partner of i<i> at step i<j> (GEN_MEMBER_XOR's forms), distances as n writes
** them. */
static void gen_put_partner(GenBuf *b, const GenNode *n, int i, int j, int form) {
  if (form == 0 || form == 1 || form == 5) {
    gen_put(b, "i%d %c ", i, form == 0 ? '+' : '-');
    gen_put_dist(b, n, j, 0);
    gen_put(b, "%s", form == 5 ? " + 1" : "");
    return;
  }
  if (form == 6) {
    gen_put(b, "(floor(i%d / ", i); gen_put_dist(b, n, j, 0); gen_put(b, ") %% 2 == 0 ? ");
  } else {
    gen_put(b, "(i%d %% (", i); gen_put_dist(b, n, j, 1); gen_put(b, ") %s ", form == 3 ? "<=" : "<");
    gen_put_dist(b, n, j, 0); gen_put(b, " ? ");
  }
  gen_put(b, "i%d + ", i); gen_put_dist(b, n, j, 0);
  gen_put(b, " : i%d - ", i); gen_put_dist(b, n, j, 0);
  gen_put(b, "%s)", form == 4 ? " + 1" : "");
}

/* The member of a use or hold of a family: [i0], [2], [(i1 + 1) % 3], ... */
static void gen_put_member(GenBuf *b, const GenModel *m, const GenNode *n) {
  if (!m->res[n->res].family) return;
  if (n->member == GEN_MEMBER_CONST) gen_put(b, "[%d]", n->member_val);
  else if (n->member == GEN_MEMBER_VAR) gen_put(b, "[i%d]", n->member_var);
  else if (n->member == GEN_MEMBER_BLOCK && n->member_off == 1)
    gen_put(b, "[floor((i%d + 1) / %d)]", n->member_var, n->member_val);
  else if (n->member == GEN_MEMBER_BLOCK && n->member_off == 2) gen_put(b, "[floor(i%d * 2 / 3)]", n->member_var);
  else if (n->member == GEN_MEMBER_BLOCK && n->member_off == 3) gen_put(b, "[floor(i%d / ceil(P / 2))]", n->member_var);
  else if (n->member == GEN_MEMBER_BLOCK && n->member_off == 4)
    gen_put(b, "[(floor(i%d / %d) + 1) %% ceil(P / %d)]", n->member_var, n->member_val, n->member_val);
  else if (n->member == GEN_MEMBER_BLOCK && n->member_off == 5)
    gen_put(b, "[(floor(i%d / %d) + ceil(P / %d) - 1) %% ceil(P / %d)]", n->member_var, n->member_val,
            n->member_val, n->member_val);
  else if (n->member == GEN_MEMBER_BLOCK && n->member_off == 6)
    gen_put(b, "[(ceil(P / %d) - 1 - floor(i%d / %d)) %% ceil(P / %d)]", n->member_val, n->member_var,
            n->member_val, n->member_val);
  else if (n->member == GEN_MEMBER_BLOCK && n->member_off == 7)
    gen_put(b, "[(floor(i%d / %d) + 1) %% 2]", n->member_var, n->member_val);
  else if (n->member == GEN_MEMBER_BLOCK && n->member_off == 8)
    gen_put(b, "[ceil(P / %d) - 1 - floor(i%d / %d)]", n->member_val, n->member_var, n->member_val);
  else if (n->member == GEN_MEMBER_BLOCK && n->member_off >= 9) {
    int v = n->member_var, B = n->member_val;
    gen_put(b, "[floor(i%d / %d) > 0 ? floor(i%d / %d) - 1 : ", v, B, v, B);
    if (n->member_off == 9) gen_put(b, "ceil(P / %d) - 1]", B);
    else gen_put(b, "1 %% ceil(P / %d)]", B);
  }
  else if (n->member == GEN_MEMBER_XOR) {
    gen_put(b, "[");
    gen_put_partner(b, n, n->member_var, n->member_off, n->member_val);
    gen_put(b, "]");
  }
  else if (n->member == GEN_MEMBER_RING) gen_put(b, "[(i%d + %d) %% P]", n->member_var, n->member_off);
  else if (n->member == GEN_MEMBER_RING_BACK) gen_put(b, "[(i%d + P - 1) %% P]", n->member_var);
  else if (n->member == GEN_MEMBER_RING_FULL)
    gen_put(b, "[(i%d + %d) %% %d]", n->member_var, n->member_off, GEN_FAMILY_SIZE);
  else if (n->member == GEN_MEMBER_PIECES) {
    static const char *const forms[6] = {"[i%d == P - 1 ? 0 : i%d + 1]", "[i%d > 0 ? i%d - 1 : P - 1]",
                                         "[i%d == 0 ? 1 : i%d]", "[floor(i%d / 2) * 2 + (i%d %% 2 + 1) %% 2]",
                                         "[floor(i%d / 2) + i%d %% 2]", "[i%d < 2 ? i%d + 2 : 3 - i%d]"};
    /* rows of 2 or 3 read with one index, the row start as i - i % Q or Q * floor(i / Q): a
    ** shift within the row (one-to-one), or a shift by another modulus (not) */
    static const char *const rows[4] = {"[(i%d - i%d %% 2) + (i%d %% 2 + 1) %% 2]", "[2 * floor(i%d / 2) + (i%d + 1) %% 2]",
                                        "[(i%d - i%d %% 3) + (i%d + 2) %% 3]", "[(i%d - i%d %% 3) + (i%d + 1) %% 2]"};
    /* the row shift as a conditional on i % Q (one-to-one: rows of 3, pairs swapped), or one that
    ** names a member twice (i % 3 == 0 ? i + 1 : i - 1) */
    static const char *const conds[3] = {"[i%d %% 3 == 2 ? i%d - 2 : i%d + 1]", "[i%d + 1 - (i%d %% 2 == 1 ? 2 : 0)]",
                                         "[i%d %% 3 == 0 ? i%d + 1 : i%d - 1]"};
    /* a ring shift with one exception (docs/reduction.md, "A map one-to-one but for an
    ** exception"): rank 0 sends to 2 % P (member 2 named twice), rank 2 to 0 (0 twice where
    ** P >= 4), rank 0 to 1 on the ring backwards ((P - i) % P: 1 twice) */
    static const char *const excepts[3] = {"[i%d == 0 ? 2 %% P : (i%d + 1) %% P]", "[i%d == 2 ? 0 : (i%d + 1) %% P]",
                                           "[i%d == 0 ? 1 %% P : (P - i%d) %% P]"};
    /* maps that name a member from several branches, read only by evaluation at -D (docs/
    ** reduction.md, "Maps evaluated at every point"): two ranks per nic sending to the next rank,
    ** the perfect shuffle (two to one at odd P), blocks of 2 dealt round robin over 2 */
    static const char *const dealt[3] = {"[floor(((i%d + 1) %% P) / 2)]", "[(2 * i%d + floor(2 * i%d / P)) %% P]",
                                         "[floor(i%d / 2) %% 2]"};
    if (n->member_val >= 18) gen_put(b, dealt[n->member_val - 18], n->member_var, n->member_var);
    else if (n->member_val >= 15) gen_put(b, excepts[n->member_val - 15], n->member_var, n->member_var);
    else if (n->member_val >= 12) gen_put(b, conds[n->member_val - 12], n->member_var, n->member_var, n->member_var);
    else if (n->member_val >= 8) gen_put(b, rows[n->member_val - 8], n->member_var, n->member_var, n->member_var);
    else if (n->member_val == 6) gen_put(b, "[i%d %% 2]", n->member_var);   /* dealt round robin */
    else if (n->member_val == 7) gen_put(b, "[(i%d + 1) %% 3]", n->member_var);
    else if (n->member_val == 5) gen_put(b, forms[5], n->member_var, n->member_var, n->member_var);
    else gen_put(b, forms[n->member_val], n->member_var, n->member_var);
  } else if (n->member == GEN_MEMBER_RECT) {
    static const char *const forms[4] = {"[((i%d + 1) %% W) * H + i%d]", "[i%d * H + (i%d + 1) %% H]",
                                         "[((i%d + W - 1) %% W) * H + i%d]", "[i%d + i%d]"};
    if (n->member_off < 0) gen_put(b, "[floor(i%d / H) * H + (i%d %% H + 1) %% H]", n->member_var, n->member_var);
    else if (n->member_val % 4 == 1) gen_put(b, forms[1], n->member_var, n->member_off);
    else gen_put(b, forms[n->member_val % 4], n->member_var, n->member_off);
  } else if (n->member == GEN_MEMBER_FLAT) {
    static const char *const forms[3] = {"[i%d]", "[(i%d + 2) %% 4]", "[floor(i%d / 2) * 2 + (i%d %% 2 + 1) %% 2]"};
    gen_put(b, forms[n->member_val % 3], n->member_var, n->member_var);
  } else if (n->member == GEN_MEMBER_CUBE) {
    int i = n->member_var, j = i + 1, k = i + 2, B = n->pipe_r, C = n->pipe_k, A = 6 / (B * C);
    switch (n->member_val % 10) {
    case 0: gen_put(b, "[(i%d * %d + i%d) * %d + i%d]", i, B, j, C, k); break;
    case 1: gen_put(b, "[((i%d + 1) %% %d * %d + i%d) * %d + i%d]", i, A, B, j, C, k); break;
    case 2: gen_put(b, "[(i%d * %d + (i%d + 1) %% %d) * %d + i%d]", i, B, j, B, C, k); break;
    case 3: gen_put(b, "[(i%d * %d + i%d) * %d + (i%d + 1) %% %d]", i, B, j, C, k, C); break;
    case 4: gen_put(b, "[((i%d + %d) %% %d * %d + i%d) * %d + i%d]", i, A - 1, A, B, j, C, k); break;
    case 5: gen_put(b, "[(i%d * %d + (i%d + %d) %% %d) * %d + i%d]", i, B, j, B - 1, B, C, k); break;
    case 6: gen_put(b, "[i%d + i%d + i%d]", i, j, k); break;
    case 7: gen_put(b, "[((i%d * %d + i%d) * %d + i%d + 1) %% 6]", i, B, j, C, k); break;
    case 8: gen_put(b, "[(i%d * %d + i%d) * %d]", i, B, j, C); break;
    default: gen_put(b, "[((i%d * %d + i%d) * %d + i%d + 1) %% 5]", i, B, j, C, k); break;
    }
  } else if (n->member == GEN_MEMBER_GRID) {
    static const char *const forms[11] = {"[i%d * 2 + i%d]", "[((i%d + 1) %% 3) * 2 + i%d]",
                                         "[i%d * 2 + (i%d + 1) %% 2]", "[i%d + i%d]",
                                         "[(i%d * 2 + i%d + 3) %% 6]", "[(i%d * 2 + i%d + 1) %% 5]",
                                         "[i%d * 2 + (i%d == 1 ? 0 : 1)]",
                                         "[i%d * 2 + i%d + 1]", "[i%d * 2 + i%d - 1]",
                                         "[(i%d + 1) * 2 + i%d]", "[(i%d - 1) * 2 + i%d]"};
    gen_put(b, forms[n->member_val % 11], n->member_var, n->member_off);
  } else if (n->member == GEN_MEMBER_NEST) {
    static const char *const forms[7] = {"[(i%d + 1) %% P]", "[(i%d + i%d) %% P]", "[(i%d + i%d + 1) %% P]",
                                         "[(i%d + P - 1) %% P]", "[(i%d + 1) %% 2]", "[i%d %% P]",
                                         "[i%d == 0 ? 1 %% P : (i%d + 1) %% P]"};
    int v = n->member_val % 7, x = n->member_var, y = n->member_off;
    if (v == 1 || v == 2) gen_put(b, forms[v], x, y);
    else if (v == 5) gen_put(b, forms[v], y);
    else gen_put(b, forms[v], x, x);
  } else if (n->member == GEN_MEMBER_SHIFT) gen_put(b, "[(i%d + i%d) %% P]", n->member_var, n->member_off);
  else if (n->member == GEN_MEMBER_BUCKET)
    gen_put(b, "[(i%d + i%d) %% %d]", n->member_var, n->member_off, n->member_val);
  else if (n->member == GEN_MEMBER_SHIFT_BACK) gen_put(b, "[(i%d + 2 * P - i%d) %% P]", n->member_var, n->member_off);
  else if (n->member == GEN_MEMBER_AFFINE && n->member_val == 0) gen_put(b, "[(i%d * i%d) %% P]", n->member_var, n->member_off);
  else if (n->member == GEN_MEMBER_AFFINE) gen_put(b, "[(%d * i%d + %d) %% P]", n->member_val, n->member_var, n->member_off);
  else if (n->member == GEN_MEMBER_XORFN && n->member_val >= 2)   /* i xor (j % 2) <= 3: read by its bits */
    gen_put(b, "[%s(i%d, i%d %% 2)]", n->member_val == 2 ? "xr" : "xb", n->member_var, n->member_off);
  else if (n->member == GEN_MEMBER_XORFN)
    gen_put(b, "[%s(i%d, i%d) %% P]", n->member_val ? "bor" : "xr", n->member_var, n->member_off);
  else if (n->member == GEN_MEMBER_LINE && n->member_val == 2) gen_put(b, "[2 * i%d + %d]", n->member_var, n->member_off);
  else if (n->member == GEN_MEMBER_PIPE) {
    int i = n->member_var, j = n->member_off, R = n->pipe_r, K = n->pipe_k;
    switch (n->member_val) {
    case 0: gen_put(b, "[i%d * %d + i%d]", i, K, j); break;
    case 1: gen_put(b, "[i%d * %d + i%d]", j, R, i); break;
    case 2: gen_put(b, "[(i%d * %d + i%d + 1) %% %d]", i, K, j, GEN_FAMILY_SIZE); break;
    case 3: gen_put(b, "[i%d + i%d]", i, j); break;
    case 4: gen_put(b, "[i%d * %d + i%d]", i, K - 1, j); break;
    case 5: gen_put(b, "[((i%d + 1) %% %d) * %d]", i, R, K); break;
    case 6: gen_put(b, "[(i%d + 1) %% %d]", i, R); break;
    default: gen_put(b, "[i%d]", i); break;
    }
  }
  else if (n->member == GEN_MEMBER_LINE) gen_put(b, "[i%d %c %d]", n->member_var, n->member_off < 0 ? '-' : '+',
                                                  n->member_off < 0 ? -n->member_off : n->member_off);
  else if (n->member_off) gen_put(b, "[(i%d + %d) %% %d]", n->member_var, n->member_off, n->member_val);
  else gen_put(b, "[i%d %% %d]", n->member_var, n->member_val);
}

static void gen_v2_put_const(GenBuf *b, const GenConst *c, int k);
static void gen_v2_put_resource(GenBuf *b, const GenResource *r, int k);

/* The arguments (or parameters) i0, .., i<n - 1> of a helper process. */
static void gen_put_call_vars(GenBuf *b, int n) {
  for (int k = 0; k < n; k++) gen_put(b, "%si%d", k ? ", " : "", k);
}

/* The node whose process a GEN_CALL node calls, or -1 when it names no process (a shrunk one). */
static int gen_callee(const GenModel *m, const GenNode *n) {
  int target = n->callee < 0 ? (int)(n - m->nodes) : n->callee;
  if (target < 0 || target >= m->node_count) return -1;
  const GenNode *t = &m->nodes[target];
  return t->kind == GEN_CALL && t->callee < 0 && t->kids[0] >= 0 ? target : -1;
}

static void gen_put_stmt(GenBuf *b, const GenModel *m, int id, int indent) {
  const GenNode *n = &m->nodes[id];
  switch (n->kind) {
  case GEN_CALL:
    if (gen_callee(m, n) < 0) gen_put(b, "skip");
    else {
      gen_put(b, "p%d(", gen_callee(m, n));
      gen_put_call_vars(b, m->nodes[gen_callee(m, n)].call_vars);
      gen_put(b, ")");
    }
    break;
  case GEN_HOLD:
    gen_put(b, "hold (r%d", n->res);
    gen_put_member(b, m, n);
    gen_put(b, ") { ");
    gen_put_stmt(b, m, n->kids[0], indent + 1);
    gen_put(b, " }");
    break;
  case GEN_SKIP: gen_put(b, "skip"); break;
  case GEN_DELAY:
    gen_put(b, "delay(");
    gen_put_dur(b, &n->dur);
    gen_put(b, ")");
    break;
  case GEN_USE:
    gen_put(b, "use(r%d", n->res);
    gen_put_member(b, m, n);
    gen_put(b, ", ");
    gen_put_dur(b, &n->dur);
    gen_put(b, ")");
    break;
  case GEN_BLOCK:
  case GEN_PARALLEL:
    gen_put(b, "{\n");
    for (int k = 0; k < n->nkids; k++) {
      gen_put(b, "%*s", 2 * (indent + 1), "");
      gen_put_stmt(b, m, n->kids[k], indent + 1);
      if (k + 1 < n->nkids) gen_put(b, n->kind == GEN_BLOCK ? ";\n" : " ||\n");
    }
    gen_put(b, "\n%*s}", 2 * indent, "");
    break;
  case GEN_SEQ:
  case GEN_PAR:
    gen_put(b, "%s (i%d = %d, ", n->kind == GEN_SEQ ? "seq" : "par", n->var, n->lo);
    if (n->hi_param == 5) gen_put(b, "H - 1) ");
    else if (n->hi_param == 4) gen_put(b, "W - 1) ");
    else if (n->hi_param == 3) gen_put(b, "2 * P - 1) ");
    else if (n->hi_param == 2) gen_put(b, "1 + i%d %% 3) ", n->count_var);
    else if (n->hi_param) gen_put(b, "P - 1) ");
    else gen_put(b, "%d) ", n->hi);
    gen_put_stmt(b, m, n->kids[0], indent);
    break;
  case GEN_REPEAT:
    switch (n->count_form) {
    case 1: gen_put(b, "repeat (floor(%d / P) + (i%d < %d %% P ? 1 : 0)) ", n->hi, n->count_var, n->hi); break;
    case 2: gen_put(b, "repeat (i%d %% 2 + %d) ", n->count_var, n->hi); break;
    case 3: gen_put(b, "repeat (min(i%d, %d)) ", n->count_var, n->hi); break;
    case 4: gen_put(b, "repeat (%d <= i%d ? 2 : 0) ", n->hi, n->count_var); break;
    case 5: gen_put(b, "repeat ((i%d - 1 < %d ? 1 : 0) + floor(%d / 2)) ", n->count_var, n->hi, n->hi); break;
    case 6:
      gen_put(b, "repeat (max(0, min(%d, (i%d + 1) * ceil(%d / P)) - i%d * ceil(%d / P))) ", n->hi, n->count_var,
              n->hi, n->count_var, n->hi);
      break;
    default: gen_put(b, "repeat (%d) ", n->hi); break;
    }
    gen_put_stmt(b, m, n->kids[0], indent);
    break;
  case GEN_IF:
    if (n->cond == GEN_COND_EQ) gen_put(b, "if (i%d == %d) ", n->cond_var, n->cond_val);
    else if (n->cond == GEN_COND_LT && n->cond_val2 == 1)   /* the same test, linear in the index */
      gen_put(b, "if (%d - 2 * i%d > -%d) ", n->cond_val, n->cond_var, n->cond_val);
    else if (n->cond == GEN_COND_LT) gen_put(b, "if (i%d < %d) ", n->cond_var, n->cond_val);
    else if (n->cond == GEN_COND_MOD) gen_put(b, "if (i%d %% %d == %d) ", n->cond_var, n->cond_mod, n->cond_val);
    else if (n->cond == GEN_COND_RANGE)
      gen_put(b, "if (i%d >= %d and i%d <= %d) ", n->cond_var, n->cond_val, n->cond_var, n->cond_val2);
    else if (n->cond == GEN_COND_LAST) gen_put(b, "if (i%d == P - 1) ", n->cond_var);
    else if (n->cond == GEN_COND_FROM) gen_put(b, "if (i%d >= %d) ", n->cond_var, n->cond_val);
    else if (n->cond == GEN_COND_BELOW) gen_put(b, "if (i%d < P - %d) ", n->cond_var, n->cond_val);
    else if (n->cond == GEN_COND_BLOCK)
      gen_put(b, "if (i%d > %d and i%d * ceil(%d / P) < %d) ", n->cond_var, n->cond_val, n->cond_var, n->cond_val2,
              n->cond_val2);
    else if (n->cond == GEN_COND_HALF && n->cond_val == 2) {
      gen_put(b, "if (floor(i%d / ", n->cond_var); gen_put_dist(b, n, n->cond_mod, 0); gen_put(b, ") %% 2 == 0) ");
    } else if (n->cond == GEN_COND_HALF) {
      gen_put(b, "if (i%d %% (", n->cond_var); gen_put_dist(b, n, n->cond_mod, 1);
      gen_put(b, ") %s ", n->cond_val ? "<=" : "<"); gen_put_dist(b, n, n->cond_mod, 0); gen_put(b, ") ");
    } else if (n->cond == GEN_COND_UP) {
      gen_put(b, "if (i%d + ", n->cond_var); gen_put_dist(b, n, n->cond_mod, 0); gen_put(b, " < P) ");
    } else if (n->cond == GEN_COND_SKIP) {
      gen_put(b, "if (not (i%d == %d and i%d %% %d == %d)) ", n->cond_var2, n->cond_val, n->cond_var, n->cond_mod,
              n->cond_val2);
    } else if (n->cond == GEN_COND_PARTNER) {
      gen_put(b, "if (");
      gen_put_partner(b, n, n->cond_var, n->cond_mod, n->cond_val);
      gen_put(b, " < P) ");
    }
    else gen_put(b, "if (not (i%d < %d) or i%d %% %d == %d) ", n->cond_var, n->cond_val, n->cond_var,
                 n->cond_mod, n->cond_val2);
    /* braces keep an inner if from taking this if's else */
    gen_put(b, "{ ");
    gen_put_stmt(b, m, n->kids[0], indent + 1);
    if (n->kids[1] < 0) { gen_put(b, " }"); break; }   /* no else */
    gen_put(b, " } else ");
    gen_put_stmt(b, m, n->kids[1], indent);
    break;
  }
}

/* Writes `process p<id> { body }` for every process the statement at id calls (theirs first; each
** once: defined[]). */
static void gen_put_processes(GenBuf *b, const GenModel *m, int id, char *defined) {
  if (id < 0 || id >= m->node_count) return;
  const GenNode *n = &m->nodes[id];
  for (int k = 0; k < GEN_MAX_KIDS; k++)
    if (n->kids[k] >= 0 && !(n->kind == GEN_CALL && n->callee >= 0)) gen_put_processes(b, m, n->kids[k], defined);
  if (n->kind != GEN_CALL) return;
  int target = gen_callee(m, n);
  if (target < 0 || defined[target]) return;
  defined[target] = 1;
  if (target != id) gen_put_processes(b, m, m->nodes[target].kids[0], defined);
  gen_put(b, "process p%d", target);
  if (m->nodes[target].call_vars) {
    gen_put(b, "(");
    gen_put_call_vars(b, m->nodes[target].call_vars);
    gen_put(b, ")");
  }
  gen_put(b, " {\n  ");
  gen_put_stmt(b, m, m->nodes[target].kids[0], 1);
  gen_put(b, "\n}\n");
}

char *gen_model_text(const GenModel *m, const char *header) {
  GenBuf b = {NULL, 0, 0};
  gen_put(&b, "");
  if (header) {
    const char *line = header;
    while (*line) {
      const char *end = strchr(line, '\n');
      int len = end ? (int)(end - line) : (int)strlen(line);
      gen_put(&b, "# %.*s\n", len, line);
      line += len + (end ? 1 : 0);
    }
  }
  gen_put(&b, "param P = %d in 1 .. %d;\n", m->param_default, GEN_MAX_BOUND + 1);
  if (m->rect_h) gen_put(&b, "const H = %d;\nconst W = (P + 6 - P) / H;\n", m->rect_h);
  for (int k = 0; k < m->const_count; k++) {
    if (m->consts[k].dropped) continue;
    gen_v2_put_const(&b, &m->consts[k], k);
  }
  for (int k = 0; k < m->res_count; k++) {
    if (m->res[k].dropped) continue;
    gen_v2_put_resource(&b, &m->res[k], k);
  }
  int bits = 0;   /* the fns of GEN_MEMBER_XORFN, when a use names them */
  for (int k = 0; k < m->node_count; k++) bits |= m->nodes[k].member == GEN_MEMBER_XORFN && m->nodes[k].kind != GEN_SKIP;
  if (bits) {
    gen_put(&b, "fn xr(a, b) = sum(i = 0, 2, 2 ^ i * ((floor(a / 2 ^ i) + floor(b / 2 ^ i)) %% 2));\n");
    gen_put(&b, "fn bor(a, b) = sum(i = 0, 2, 2 ^ i * min(1, floor(a / 2 ^ i) %% 2 + floor(b / 2 ^ i) %% 2));\n");
    gen_put(&b, "fn xb(a, b) = sum(i = 0, 1, 2 ^ i * ((floor(a / 2 ^ i) %% 2 + floor(b / 2 ^ i) %% 2) %% 2));\n");
  }
  char defined[GEN_MAX_NODES] = {0};
  gen_put_processes(&b, m, m->root, defined);
  gen_put(&b, "process main {\n  ");
  gen_put_stmt(&b, m, m->root, 1);
  gen_put(&b, "\n}\n");
  return b.text;
}

/* ------------------------------------------------------------------ language version 2 (§8) */

/* ps(c) for a quarter of the resources (c in tenths: 0.5 .. 2.5), a hand-off on a third of the
** fcfs ones (250 .. 1000 ns), a typical value inside half of the interval consts. */
static void gen_v2_decls(GenState *g) {
  static const int capacities[] = {5, 10, 15, 20, 25};
  GenModel *m = g->m;
  for (int k = 0; k < m->res_count; k++) {
    if (gen_below(g, 4) == 0) m->res[k].ps_tenths = capacities[gen_below(g, 5)];
    else if (gen_below(g, 3) == 0) m->res[k].handoff_ns = 250 * (1 + gen_below(g, 4));
  }
  for (int k = 0; k < m->const_count; k++) {
    GenConst *c = &m->consts[k];
    c->typ_ns = c->lo_ns < c->hi_ns && gen_below(g, 2) ? c->lo_ns + gen_below(g, c->hi_ns - c->lo_ns + 1) : 0;
  }
}

/* A resource a use (hold 0) or a hold (hold 1) may name here, or -1. Inside holds, only fcfs
** resources of larger id than every resource held (and, for a use, ps resources, which never make
** anyone wait): every thread takes resources in increasing id, so no cycle of waits exists. */
static int gen_v2_resource_for(GenState *g, int hold) {
  int allowed[GEN_MAX_RES], count = 0;
  for (int k = 0; k < g->m->res_count; k++) {
    const GenResource *r = &g->m->res[k];
    if (r->ps_tenths ? !hold : k > g->held_max) allowed[count++] = k;
  }
  return count ? allowed[gen_below(g, count)] : -1;
}

/* hold (r) S with S a statement one level deeper, in which r and the resources before it are
** taken; -1 when no fcfs resource can be held here. */
static int gen_v2_hold(GenState *g, int depth) {
  int res = gen_v2_resource_for(g, 1);
  if (res < 0) return -1;
  int id = gen_new_node(g, GEN_HOLD);
  GenNode *n = &g->m->nodes[id];
  n->res = res;
  gen_member(g, n);
  int saved = g->held_max;
  g->held_max = res;
  int kid = gen_stmt(g, depth + 1);
  g->held_max = saved;
  g->m->nodes[id].kids[0] = kid;
  return id;
}

static void gen_v2_put_const(GenBuf *b, const GenConst *c, int k) {
  if (c->lo_ns == c->hi_ns) gen_put(b, "const t%d = %dns;\n", k, c->lo_ns);
  else if (c->typ_ns > 0) gen_put(b, "const t%d = [%dns, %dns] typ %dns;\n", k, c->lo_ns, c->hi_ns, c->typ_ns);
  else gen_put(b, "const t%d = [%dns, %dns];\n", k, c->lo_ns, c->hi_ns);
}

static void gen_v2_put_resource(GenBuf *b, const GenResource *r, int k) {
  gen_put(b, "resource r%d", k);
  if (r->family) gen_put(b, "[%d]", GEN_FAMILY_SIZE);
  if (r->ps_tenths) gen_put(b, " = ps(%d.%d)", r->ps_tenths / 10, r->ps_tenths % 10);
  else gen_put(b, " = fcfs(%d)", r->servers);
  if (!r->ps_tenths && r->handoff_ns) gen_put(b, " handoff(%dns)", r->handoff_ns);
  gen_put(b, ";\n");
}
