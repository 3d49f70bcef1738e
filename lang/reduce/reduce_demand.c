/*
** reduce_demand.c — service demand in the summaries of the reduction (REDUCTION.md): D_r per
** resource and per family member, how it adds up over sequences, branches and loops, the lower
** bound from the most loaded resource, and W_ir, the demand that can make a branch wait.
**
** A family member is named by its index expression while that expression is open; closing a
** loop over an index the member depends on turns the demand into `extra_hi` (an upper bound on
** the family's unnamed demand) and `spread_lo` (a lower bound on its most loaded member).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce_internal.h"
#include "reduce_order.h"

static AlgExpr *zero(RCtx *c) { return alg_num_int(c->alg, 0); }

void reduce_sum_init(RCtx *c, Summary *s) {
  memset(s, 0, sizeof *s);
  s->phi_lo = s->phi_hi = s->L = s->U = zero(c);
  s->chain = 1;
}

/* m_r: the multiplicity of res (1 when the declaration gives none). */
AlgExpr *reduce_mult(RCtx *c, const Decl *res) {
  if (!res->u.resource.servers) return alg_num_int(c->alg, 1);
  REnv env; memset(&env, 0, sizeof env);
  return reduce_expr(c, &env, res->u.resource.servers);
}

/* The number of members of family res as an exact positive integer, or NULL. */
static AlgExpr *family_size(RCtx *c, const Decl *res) {
  if (!res->u.resource.count) return NULL;
  REnv env; memset(&env, 0, sizeof env);
  AlgExpr *size = reduce_expr(c, &env, res->u.resource.count);
  if (alg_kind(size) != ALG_NUM || mpz_cmp_ui(mpq_denref(alg_num_value(size)), 1) != 0 ||
      mpq_sgn(alg_num_value(size)) <= 0) return NULL;
  return size;
}

/* The size of family res where it is an expression of params, integer-valued and >= 1 for every
** admissible value (`resource cpu[P]`), else NULL: a pigeonhole over its members needs only that
** there are that many (fullest_lo: n branches on at most P members, ceil(n / P) on the fullest). */
static AlgExpr *family_size_symbolic(RCtx *c, const Decl *res) {
  if (!res->u.resource.count) return NULL;
  REnv env; memset(&env, 0, sizeof env);
  AlgExpr *size = reduce_expr(c, &env, res->u.resource.count);
  return order_integer_valued(c, size) && alg_bounds(c->alg, size).lo >= 1 ? size : NULL;
}

static RFam *fam_find(const Summary *s, const Decl *res) {
  for (int i = 0; i < s->nfams; i++) if (s->fams[i].res == res) return &s->fams[i];
  return NULL;
}

static RFam *fam_get(RCtx *c, Summary *s, const Decl *res) {
  RFam *found = fam_find(s, res);
  if (found) return found;
  RFam *grown = arena_alloc(&c->arena, (size_t)(s->nfams + 1) * sizeof *grown);
  if (s->nfams) memcpy(grown, s->fams, (size_t)s->nfams * sizeof *grown);
  s->fams = grown;
  RFam *fam = &s->fams[s->nfams++];
  fam->res = res; fam->spread_lo = NULL; fam->extra_lo = fam->extra_hi = zero(c);
  fam->each_lo = fam->each_hi = zero(c);
  fam->visits = fam->own_hi = NULL;
  fam->sites = NULL; fam->nsites = 0;
  return fam;
}

const RFam *reduce_family_of(const Summary *s, const Decl *res) { return fam_find(s, res); }

/* x + y where NULL stands for an unknown bound (the sum is then unknown too). */
static AlgExpr *add_known(RCtx *c, AlgExpr *x, AlgExpr *y) { return x && y ? alg_add(c->alg, x, y) : NULL; }

static RTerm *term_find(const Summary *s, const Decl *res, AlgExpr *index) {
  for (int i = 0; i < s->nterms; i++)
    if (s->terms[i].res == res && s->terms[i].index == index) return &s->terms[i];
  return NULL;
}

static RTerm *term_new(RCtx *c, Summary *s, const Decl *res, AlgExpr *index) {
  RTerm *grown = arena_alloc(&c->arena, (size_t)(s->nterms + 1) * sizeof *grown);
  if (s->nterms) memcpy(grown, s->terms, (size_t)s->nterms * sizeof *grown);
  s->terms = grown;
  RTerm *term = &s->terms[s->nterms++];
  term->res = res; term->index = index; term->d_lo = term->d_hi = zero(c);
  return term;
}

static AlgExpr *term_hi(RCtx *c, const Summary *s, const Decl *res, AlgExpr *index) {
  const RTerm *term = term_find(s, res, index);
  return term ? term->d_hi : zero(c);
}

static void spread_into(RCtx *c, RFam *fam, AlgExpr *spread) {
  fam->spread_lo = fam->spread_lo ? alg_max(c->alg, fam->spread_lo, spread) : spread;
}

/* Adds demand (lo, hi) on res[index] (index NULL for a plain resource) to s. */
void reduce_add_demand(RCtx *c, Summary *s, const Decl *res, AlgExpr *index, AlgExpr *lo,
                       AlgExpr *hi) {
  RTerm *term = term_find(s, res, index);
  if (!term) term = term_new(c, s, res, index);
  term->d_lo = alg_add(c->alg, term->d_lo, lo);
  term->d_hi = alg_add(c->alg, term->d_hi, hi);
  if (res->u.resource.count) fam_get(c, s, res)->visits = NULL;   /* no longer the par's alone */
}

/* Adds the demands of from to into (terms and unnamed demand add; spreads take the max). */
void reduce_merge_demands(RCtx *c, Summary *into, const Summary *from) {
  for (int i = 0; i < from->nterms; i++) {
    const RTerm *term = &from->terms[i];
    reduce_add_demand(c, into, term->res, term->index, term->d_lo, term->d_hi);
  }
  for (int i = 0; i < from->nfams; i++) {
    RFam *fam = fam_get(c, into, from->fams[i].res);
    if (from->fams[i].spread_lo) spread_into(c, fam, from->fams[i].spread_lo);
    fam->extra_lo = alg_add(c->alg, fam->extra_lo, from->fams[i].extra_lo);
    fam->extra_hi = alg_add(c->alg, fam->extra_hi, from->fams[i].extra_hi);
    fam->each_lo = alg_add(c->alg, fam->each_lo, from->fams[i].each_lo);
    fam->each_hi = add_known(c, fam->each_hi, from->fams[i].each_hi);
    reduce_sites_join(c, fam, &from->fams[i]);   /* reduce_own.c */
    fam->visits = NULL;   /* the sum is no longer the par's alone */
  }
  into->parts = NULL; into->nparts = 0;   /* no longer a block's sum */
}

/* A demand key of reduce_merge_all and where its addends go. */
typedef struct MergeSlot {
  const Decl *res;        /* the resource (or family, for a family slot); NULL: empty slot */
  AlgExpr *index;         /* member index, NULL for a plain resource or a family slot */
  int family;             /* 1: a family slot (extra_lo / extra_hi / spread_lo) */
  int order;              /* position of first appearance */
  int nlo, nspread;       /* addends and spreads gathered (pass 0: counted) */
  size_t first_lo;        /* its addends' first position in the lo / hi arrays */
  size_t first_spread;    /* its spreads' first position in the spread array */
} MergeSlot;

/* The keys met by reduce_merge_all: an open-addressing table grown by doubling (sized by the
** distinct keys, not by the addends: a table of every addend, 64 MB for the block of 10^5 calls
** in a model of 10^5 definitions, was zeroed and kept to the end of the reduction). */
typedef struct MergeTable {
  MergeSlot *slots;       /* cap slots (malloc) */
  size_t cap;             /* a power of two */
  int count;              /* keys in the table */
} MergeTable;

static void *merge_alloc(size_t count, size_t size) {
  void *memory = calloc(count ? count : 1, size);
  if (!memory) {   /* as the arena does: the reduction cannot go on without room */
    fputs("pamc: out of memory\n", stderr);
    abort();
  }
  return memory;
}

static size_t merge_hash(const Decl *res, const AlgExpr *index, int family, size_t mask) {
  uint64_t h = ((uint64_t)(uintptr_t)res * 0x9e3779b97f4a7c15u) ^ (uint64_t)(uintptr_t)index;
  h = (h ^ (uint64_t)family) * 0xff51afd7ed558ccdu;
  return (size_t)(h ^ (h >> 31)) & mask;
}

static MergeSlot *merge_probe(MergeSlot *slots, size_t mask, const Decl *res, AlgExpr *index, int family) {
  size_t k = merge_hash(res, index, family, mask);
  while (slots[k].res && !(slots[k].res == res && slots[k].index == index && slots[k].family == family))
    k = (k + 1) & mask;
  return &slots[k];
}

/* The slot of (res, index, family), made when new (pass 0 only: pass 1 meets the same keys). */
static MergeSlot *merge_slot(MergeTable *t, const Decl *res, AlgExpr *index, int family) {
  if (2 * ((size_t)t->count + 1) > t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 16;
    MergeSlot *slots = merge_alloc(cap, sizeof *slots);
    for (size_t k = 0; k < t->cap; k++)
      if (t->slots[k].res)
        *merge_probe(slots, cap - 1, t->slots[k].res, t->slots[k].index, t->slots[k].family) = t->slots[k];
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
  }
  MergeSlot *slot = merge_probe(t->slots, t->cap - 1, res, index, family);
  if (!slot->res) {
    slot->res = res; slot->index = index; slot->family = family;
    slot->order = t->count++;
  }
  return slot;
}

/* Where reduce_merge_all gathers the addends of every slot (malloc). */
typedef struct MergeAddends {
  AlgExpr **lo, **hi;     /* d_lo / d_hi or extra_lo / extra_hi, by slot */
  AlgExpr **each_lo, **each_hi; /* family slots: each_lo / each_hi, beside extra_lo / extra_hi */
  AlgExpr **spread;       /* family slots: spreads to take the max of */
  const RFam **from;      /* family slots: the RFams added (for their sites) */
} MergeAddends;

/* Visits every demand of s in the order reduce_merge_demands adds them: pass 0 counts addends per
** slot, pass 1 stores them in add. */
static void merge_visit(MergeTable *t, const Summary *s, int pass, MergeAddends *add) {
  for (int i = 0; i < s->nterms; i++) {
    const RTerm *term = &s->terms[i];
    MergeSlot *slot = merge_slot(t, term->res, term->index, 0);
    if (pass) {
      add->lo[slot->first_lo + (size_t)slot->nlo] = term->d_lo;
      add->hi[slot->first_lo + (size_t)slot->nlo] = term->d_hi;
    }
    slot->nlo++;
    if (term->res->u.resource.count) merge_slot(t, term->res, NULL, 1);
  }
  for (int i = 0; i < s->nfams; i++) {
    const RFam *f = &s->fams[i];
    MergeSlot *slot = merge_slot(t, f->res, NULL, 1);
    if (pass) {
      add->lo[slot->first_lo + (size_t)slot->nlo] = f->extra_lo;
      add->hi[slot->first_lo + (size_t)slot->nlo] = f->extra_hi;
      add->each_lo[slot->first_lo + (size_t)slot->nlo] = f->each_lo;
      add->each_hi[slot->first_lo + (size_t)slot->nlo] = f->each_hi;
      add->from[slot->first_lo + (size_t)slot->nlo] = f;
      if (f->spread_lo) add->spread[slot->first_spread + (size_t)slot->nspread] = f->spread_lo;
    }
    slot->nlo++;
    if (f->spread_lo) slot->nspread++;
  }
}

static int slot_order(const void *a, const void *b) {
  const MergeSlot *x = *(const MergeSlot *const *)a, *y = *(const MergeSlot *const *)b;
  return (x->order > y->order) - (x->order < y->order);
}

/* into = into + parts[0] + ... + parts[n-1] (as reduce_merge_demands one part after another),
** each sum built once over all the parts: adding one part at a time re-sorts a growing sum, which
** made a block of 10^5 statements quadratic. Only the merged terms stay in the arena. */
void reduce_merge_all(RCtx *c, Summary *into, const Summary *parts, int n) {
  AlgCtx *g = c->alg;
  size_t total = (size_t)into->nterms + (size_t)into->nfams;
  for (int k = 0; k < n; k++) total += (size_t)parts[k].nterms + (size_t)parts[k].nfams;
  into->parts = NULL; into->nparts = 0;   /* reduce_block sets its own after */
  if (total == 0) return;
  MergeTable t = {NULL, 0, 0};
  MergeAddends add = {NULL, NULL, NULL, NULL, NULL, NULL};
  merge_visit(&t, into, 0, &add);
  for (int k = 0; k < n; k++) merge_visit(&t, &parts[k], 0, &add);
  size_t nlo = 0, nspread = 0;   /* room for the addends counted in pass 0 */
  for (size_t k = 0; k < t.cap; k++) {
    MergeSlot *slot = &t.slots[k];
    if (!slot->res) continue;
    slot->first_lo = nlo; slot->first_spread = nspread;
    nlo += (size_t)slot->nlo; nspread += (size_t)slot->nspread;
    slot->nlo = slot->nspread = 0;
  }
  add.lo = merge_alloc(nlo, sizeof *add.lo);
  add.hi = merge_alloc(nlo, sizeof *add.hi);
  add.each_lo = merge_alloc(nlo, sizeof *add.each_lo);
  add.each_hi = merge_alloc(nlo, sizeof *add.each_hi);
  add.spread = merge_alloc(nspread, sizeof *add.spread);
  add.from = merge_alloc(nlo, sizeof *add.from);
  merge_visit(&t, into, 1, &add);
  for (int k = 0; k < n; k++) merge_visit(&t, &parts[k], 1, &add);
  MergeSlot **sorted = merge_alloc((size_t)t.count, sizeof *sorted);
  int m = 0;
  for (size_t k = 0; k < t.cap; k++) if (t.slots[k].res) sorted[m++] = &t.slots[k];
  qsort(sorted, (size_t)m, sizeof *sorted, slot_order);
  int nterms = 0, nfams = 0;
  for (int k = 0; k < m; k++) nterms += !sorted[k]->family, nfams += sorted[k]->family;
  RTerm *terms = arena_alloc(&c->arena, (size_t)(nterms ? nterms : 1) * sizeof *terms);
  RFam *fams = arena_alloc(&c->arena, (size_t)(nfams ? nfams : 1) * sizeof *fams);
  into->nterms = into->nfams = 0;
  for (int k = 0; k < m; k++) {
    const MergeSlot *slot = sorted[k];
    AlgExpr *lo = slot->nlo ? alg_add_n(g, (size_t)slot->nlo, add.lo + slot->first_lo) : zero(c);
    AlgExpr *hi = slot->nlo ? alg_add_n(g, (size_t)slot->nlo, add.hi + slot->first_lo) : zero(c);
    if (!slot->family) {
      RTerm *term = &terms[into->nterms++];
      term->res = slot->res; term->index = slot->index; term->d_lo = lo; term->d_hi = hi;
      continue;
    }
    RFam *f = &fams[into->nfams++];
    f->res = slot->res; f->extra_lo = lo; f->extra_hi = hi;
    f->visits = f->own_hi = NULL;
    f->sites = NULL; f->nsites = 0;
    f->each_lo = f->each_hi = zero(c);
    for (int j = 0; j < slot->nlo; j++) {   /* the family's RFams: each_lo and each_hi add */
      AlgExpr *elo = add.each_lo[slot->first_lo + (size_t)j], *ehi = add.each_hi[slot->first_lo + (size_t)j];
      if (elo && !alg_is_num(elo, 0)) f->each_lo = alg_add(g, f->each_lo, elo);
      f->each_hi = ehi && f->each_hi ? (alg_is_num(ehi, 0) ? f->each_hi : alg_add(g, f->each_hi, ehi)) : NULL;
      const RFam *from = add.from[slot->first_lo + (size_t)j];
      if (from) reduce_sites_join(c, f, from);   /* reduce_own.c */
    }
    f->spread_lo = slot->nspread ? alg_max_n(g, (size_t)slot->nspread, add.spread + slot->first_spread) : NULL;
  }
  into->terms = terms;
  into->fams = fams;
  free(sorted);
  free(add.lo);
  free(add.hi);
  free(add.each_lo);
  free(add.each_hi);
  free(add.spread);
  free(add.from);
  free(t.slots);
}

/* Total demand on family res in s (upper-bound use): named members plus unnamed demand. */
AlgExpr *reduce_family_total(RCtx *c, const Summary *s, const Decl *res) {
  const RFam *fam = fam_find(s, res);
  AlgExpr *total = fam ? fam->extra_hi : zero(c);
  for (int i = 0; i < s->nterms; i++)
    if (s->terms[i].res == res) total = alg_add(c->alg, total, s->terms[i].d_hi);
  return total;
}

/* A lower bound on the demand of the most loaded member of fam from its unnamed demand: the
** spread, and the family's whole demand shared evenly among its members (pigeonhole). NULL when
** nothing is unnamed. */
AlgExpr *reduce_family_load_lo(RCtx *c, const Summary *s, const RFam *fam) {
  AlgCtx *g = c->alg;
  if (!fam->spread_lo && alg_is_num(fam->extra_lo, 0)) return NULL;
  AlgExpr *load = fam->spread_lo ? fam->spread_lo : zero(c);
  AlgExpr *total = fam->extra_lo;
  for (int i = 0; i < s->nterms; i++)
    if (s->terms[i].res == fam->res) total = alg_add(g, total, s->terms[i].d_lo);
  REnv none; memset(&none, 0, sizeof none);
  AlgExpr *members = reduce_expr(c, &none, fam->res->u.resource.count);
  return alg_max(g, load, alg_div(g, total, members));
}

/* Lower bound from the loads: max over resources (and members) of D_r / m_r. */
AlgExpr *reduce_load_lo(RCtx *c, const Summary *s) {
  AlgExpr *load = zero(c);
  for (int i = 0; i < s->nterms; i++) {   /* a named member also gets what every member gets */
    const RFam *fam = s->terms[i].index ? fam_find(s, s->terms[i].res) : NULL;
    AlgExpr *d = fam && !alg_is_num(fam->each_lo, 0) ? alg_add(c->alg, s->terms[i].d_lo, fam->each_lo) : s->terms[i].d_lo;
    load = alg_max(c->alg, load, alg_div(c->alg, d, reduce_mult(c, s->terms[i].res)));
  }
  for (int i = 0; i < s->nfams; i++) {
    AlgExpr *member = reduce_family_load_lo(c, s, &s->fams[i]);
    if (member) load = alg_max(c->alg, load, alg_div(c->alg, member, reduce_mult(c, s->fams[i].res)));
  }
  return load;
}

/* ------------------------------------------------------------------ index shapes */

/* How a member index depends on a loop index i (REDUCTION.md, resource families). */
typedef enum {
  SHAPE_OTHER,       /* anything else */
  SHAPE_INJECTIVE,   /* a*i + c, a a nonzero integer: one member per branch */
  SHAPE_MODULO,      /* (i + c) % K or (-i + c) % K, K a positive integer: round robin */
  SHAPE_BLOCK        /* floor(d*i + c), d a nonzero number: blocks of about 1/|d| indices */
} IndexShape;

typedef struct Shape {
  IndexShape kind;   /* the shape */
  AlgExpr *inner;    /* SHAPE_BLOCK: the argument of floor */
  AlgExpr *modulus;  /* SHAPE_MODULO: K */
  AlgExpr *slope;    /* SHAPE_BLOCK: |d| */
} Shape;

static int is_integer_num(AlgExpr *e) {
  return alg_kind(e) == ALG_NUM && mpz_cmp_ui(mpq_denref(alg_num_value(e)), 1) == 0;
}

/* d e / d i when e = d*i + rest with d a number and rest free of i, else NULL. */
static AlgExpr *linear_slope(RCtx *c, AlgExpr *e, AlgSymbol *i) {
  AlgExpr *slope = alg_diff(c->alg, e, i);
  if (!slope || alg_kind(slope) != ALG_NUM || alg_is_num(slope, 0)) return NULL;
  AlgExpr *rest = alg_sub(c->alg, e, alg_mul(c->alg, slope, alg_sym(c->alg, i)));
  return alg_contains(rest, i) ? NULL : slope;
}

static Shape index_shape(RCtx *c, AlgExpr *index, AlgSymbol *i) {
  Shape shape = {SHAPE_OTHER, NULL, NULL, NULL};
  if (!i || !index || !alg_contains(index, i)) return shape;
  AlgExpr *slope = linear_slope(c, index, i);
  if (slope && is_integer_num(slope)) { shape.kind = SHAPE_INJECTIVE; return shape; }
  if (alg_kind(index) == ALG_MOD) {
    AlgExpr *modulus = alg_kid(index, 1);
    AlgExpr *inner_slope = linear_slope(c, alg_kid(index, 0), i);
    if (is_integer_num(modulus) && mpq_sgn(alg_num_value(modulus)) > 0 && inner_slope &&
        (alg_is_num(inner_slope, 1) || alg_is_num(inner_slope, -1))) {
      shape.kind = SHAPE_MODULO; shape.modulus = modulus;
    }
    return shape;
  }
  if (alg_kind(index) == ALG_FLOOR) {
    AlgExpr *inner_slope = linear_slope(c, alg_kid(index, 0), i);
    if (inner_slope) {
      shape.kind = SHAPE_BLOCK; shape.inner = alg_kid(index, 0);
      shape.slope = mpq_sgn(alg_num_value(inner_slope)) < 0 ? alg_neg(c->alg, inner_slope) : inner_slope;
    }
  }
  return shape;
}

/* Number of indices in a..b (may be <= 0 for an empty range). */
static AlgExpr *range_count(RCtx *c, AlgExpr *a, AlgExpr *b) {
  return alg_add(c->alg, alg_sub(c->alg, b, a), alg_num_int(c->alg, 1));
}

/* A lower bound on how many indices of a..b the fullest member receives, or NULL. */
static AlgExpr *fullest_lo(RCtx *c, const Decl *res, AlgExpr *index, AlgSymbol *i, AlgExpr *a,
                           AlgExpr *b) {
  AlgCtx *g = c->alg;
  AlgExpr *count = range_count(c, a, b);
  Shape shape = index_shape(c, index, i);
  AlgExpr *members = NULL;      /* members the range can reach at most */
  switch (shape.kind) {
  case SHAPE_INJECTIVE: return NULL;
  case SHAPE_MODULO: members = shape.modulus; break;
  case SHAPE_BLOCK: {
    AlgExpr *at_a = alg_func(g, ALG_FLOOR, alg_subst(g, shape.inner, i, a));
    AlgExpr *at_b = alg_func(g, ALG_FLOOR, alg_subst(g, shape.inner, i, b));
    members = alg_add(g, alg_func(g, ALG_ABS, alg_sub(g, at_b, at_a)), alg_num_int(g, 1));
    break;
  }
  case SHAPE_OTHER: members = family_size(c, res) ? family_size(c, res) : family_size_symbolic(c, res); break;
  }
  if (!members) return NULL;
  AlgExpr *size = family_size(c, res);
  if (size && shape.kind == SHAPE_MODULO) members = alg_min(g, members, size);
  return alg_func(g, ALG_CEIL, alg_div(g, count, members));
}

/* An upper bound on how many indices of a..b share the member of index i, or NULL. */
static AlgExpr *sharing_hi(RCtx *c, const Shape *shape, AlgExpr *a, AlgExpr *b) {
  AlgCtx *g = c->alg;
  switch (shape->kind) {
  case SHAPE_MODULO:
    return alg_max(g, alg_num_int(g, 1), alg_func(g, ALG_CEIL, alg_div(g, range_count(c, a, b),
                                                                        shape->modulus)));
  case SHAPE_BLOCK:
    return alg_max(g, alg_num_int(g, 1), alg_func(g, ALG_CEIL, alg_div(g, alg_num_int(g, 1),
                                                                        shape->slope)));
  default: return NULL;
  }
}

/* Rule (round robin with demands that depend on the index): for a member index (+-i + c) % K,
** the indices i = b, b - K, b - 2K, ... >= a all name one member (the same residue of i), so that
** member receives sum_{j = 0 .. floor((b - a) / K)} d(b - K j); likewise the member of a receives
** sum_j d(a + K j). Either is a lower bound on the fullest member's demand, whatever d's shape
** (the wavefront `use(cpu[i % 8], (i + 1) u)` over a diagonal: the member of the last cell).
** NULL when the index is not round robin. */
static AlgExpr *class_demand_lo(RCtx *c, AlgExpr *index, AlgSymbol *i, AlgExpr *a, AlgExpr *b,
                                AlgExpr *d) {
  AlgCtx *g = c->alg;
  Shape shape = index_shape(c, index, i);
  if (shape.kind != SHAPE_MODULO) return NULL;
  AlgExpr *last = alg_func(g, ALG_FLOOR, alg_div(g, alg_sub(g, b, a), shape.modulus));
  AlgSymbol *j = alg_index_new(g, "_class", alg_num_int(g, 0), last);
  AlgExpr *step = alg_mul(g, shape.modulus, alg_sym(g, j));
  AlgExpr *at_b = alg_sum(g, j, alg_num_int(g, 0), last, alg_subst(g, d, i, alg_sub(g, b, step)));
  AlgExpr *at_a = alg_sum(g, j, alg_num_int(g, 0), last, alg_subst(g, d, i, alg_add(g, a, step)));
  return alg_max(g, at_b, at_a);
}

/* ------------------------------------------------------------------ loops */

/* Closes the demands of body over index i = a..b into out: sums per member that stays named;
** members named through i become unnamed demand with its fullest-member lower bound. */
void reduce_close_demands(RCtx *c, Summary *out, const Summary *body, AlgSymbol *i, AlgExpr *a,
                          AlgExpr *b) {
  AlgCtx *g = c->alg;
  for (int k = 0; k < body->nterms; k++) {
    const RTerm *term = &body->terms[k];
    if (!term->index || !alg_contains(term->index, i)) {
      reduce_add_demand(c, out, term->res, term->index, alg_sum(g, i, a, b, term->d_lo),
                        alg_sum(g, i, a, b, term->d_hi));
      continue;
    }
    RFam *fam = fam_get(c, out, term->res);
    AlgExpr *spread = alg_max_over(g, i, a, b, term->d_lo);
    AlgExpr *fullest = alg_contains(term->d_lo, i) ? NULL
                     : fullest_lo(c, term->res, term->index, i, a, b);
    if (fullest) spread = alg_max(g, spread, alg_mul(g, fullest, term->d_lo));
    AlgExpr *cls = alg_contains(term->d_lo, i) ? class_demand_lo(c, term->index, i, a, b, term->d_lo) : NULL;
    if (cls) spread = alg_max(g, spread, cls);
    spread_into(c, fam, spread);
    reduce_member_close(c, fam, term, i, a, b);   /* reduce_member.c: each_lo, each_hi */
    reduce_sites_term(c, fam, term, i, a, b);     /* reduce_own.c: where it lies */
    fam->extra_lo = alg_add(g, fam->extra_lo, alg_sum(g, i, a, b, term->d_lo));
    fam->extra_hi = alg_add(g, fam->extra_hi, alg_sum(g, i, a, b, term->d_hi));
  }
  for (int k = 0; k < body->nfams; k++) {
    const RFam *inner = &body->fams[k];
    RFam *fam = fam_get(c, out, inner->res);
    if (inner->spread_lo) spread_into(c, fam, alg_max_over(g, i, a, b, inner->spread_lo));
    if (!alg_is_num(inner->extra_lo, 0))
      fam->extra_lo = alg_add(g, fam->extra_lo, alg_sum(g, i, a, b, inner->extra_lo));
    if (!alg_is_num(inner->extra_hi, 0))
      fam->extra_hi = alg_add(g, fam->extra_hi, alg_sum(g, i, a, b, inner->extra_hi));
    /* each member gets at least (at most) the inner bound in every iteration */
    if (!alg_is_num(inner->each_lo, 0)) fam->each_lo = alg_add(g, fam->each_lo, alg_sum(g, i, a, b, inner->each_lo));
    fam->each_hi = !inner->each_hi ? NULL : alg_is_num(inner->each_hi, 0) ? fam->each_hi
                 : add_known(c, fam->each_hi, alg_sum(g, i, a, b, inner->each_hi));
    reduce_sites_close(c, fam, inner, i, a, b);   /* reduce_own.c */
    fam->visits = NULL;
  }
}

/* ------------------------------------------------------------------ waits */

/* The one index expression every use of family res in branch names, or NULL (several, or
** unnamed demand). */
static AlgExpr *single_index(const Summary *branch, const RFam *fam) {
  if (fam->spread_lo || !alg_is_num(fam->extra_hi, 0) || !alg_is_num(fam->extra_lo, 0)) return NULL;
  AlgExpr *one = NULL;
  for (int j = 0; j < branch->nterms; j++) {
    if (branch->terms[j].res != fam->res) continue;
    if (one && one != branch->terms[j].index) return NULL;
    one = branch->terms[j].index;
  }
  return one;
}

/* 1 when every use of family res in s names a member by a number (no unnamed demand). */
static int fam_members_known(const Summary *s, const Decl *res) {
  const RFam *fam = fam_find(s, res);
  if (fam && (fam->spread_lo || !alg_is_num(fam->extra_hi, 0))) return 0;
  for (int i = 0; i < s->nterms; i++)
    if (s->terms[i].res == res && alg_kind(s->terms[i].index) != ALG_NUM) return 0;
  return 1;
}

/* The whole family as one resource: the waits of a chain at distinct members are disjoint in
** time, so together they are at most the others' demand on the family over m. */
static AlgExpr *family_whole_wait(RCtx *c, const Summary *whole, const Summary *branch,
                                  const Decl *res) {
  reduce_note_family(c, res);
  AlgExpr *W = reduce_family_total(c, whole, res);
  if (branch->chain) W = alg_sub(c->alg, W, reduce_family_total(c, branch, res));
  return alg_div(c->alg, W, reduce_mult(c, res));
}

/* 1 when the member index one is an expression of i and of params and consts alone (no other
** index: the same member at every step) that names distinct members for distinct i in a..b (the
** rule of one-to-one member maps): no other branch of the par ever requests that member. */
static int index_alone(RCtx *c, AlgExpr *one, AlgSymbol *i, AlgExpr *a, AlgExpr *b) {
  return one && i && alg_contains(one, i) && reduce_names_only(c, one, i, NULL) &&
         reduce_order_injective_in(c, one, i, a, b);
}

/* W / m for family fam of branch inside whole: a par over i = a..b (i != NULL) or a ||. When the
** par's range is split, whole is all of it and others (else NULL) the pieces other than a..b. */
static AlgExpr *family_wait(RCtx *c, const Summary *whole, const Summary *others,
                            const Summary *branch, const RFam *fam, AlgSymbol *i, AlgExpr *a,
                            AlgExpr *b) {
  AlgCtx *g = c->alg;
  const Decl *res = fam->res;
  AlgExpr *m = reduce_mult(c, res);
  AlgExpr *own = reduce_family_total(c, branch, res);
  AlgExpr *one = single_index(branch, fam);
  AlgExpr *beside = others ? alg_div(g, reduce_family_total(c, others, res), m) : zero(c);
  if (reduce_own_family(c, branch, fam, i, a, b))   /* reduce_own.c: no other branch's members */
    return alg_add(g, beside, branch->chain ? zero(c) : alg_div(g, own, m));
  if (one && i) {
    Shape shape = index_shape(c, one, i);
    if (shape.kind == SHAPE_INJECTIVE || index_alone(c, one, i, a, b))   /* this branch's alone */
      return alg_add(g, beside, branch->chain ? zero(c) : alg_div(g, own, m));
    AlgExpr *sharing = sharing_hi(c, &shape, a, b);
    if (sharing && !alg_contains(own, i)) {     /* its member serves `sharing` equal branches */
      AlgExpr *sharers = branch->chain ? alg_sub(g, sharing, alg_num_int(g, 1)) : sharing;
      return alg_add(g, beside, alg_div(g, alg_mul(g, sharers, own), m));
    }
  }
  AlgExpr *members = i ? NULL : reduce_member_wait(c, whole, branch, fam);   /* reduce_member.c */
  if (members) return members;
  if (!i && fam_members_known(whole, res)) {    /* || over numbered members: each on its own */
    AlgExpr *wait = zero(c);
    for (int j = 0; j < branch->nterms; j++) {
      const RTerm *term = &branch->terms[j];
      if (term->res != res) continue;
      AlgExpr *W = term_hi(c, whole, res, term->index);
      if (branch->chain) W = alg_sub(g, W, term->d_hi);
      wait = alg_add(g, wait, alg_div(g, W, m));
    }
    return wait;
  }
  return family_whole_wait(c, whole, branch, res);
}

/* 1 when every use of family res in branch names one member, an expression of i and of params
** and consts alone (no other index: the same member at every step), distinct for distinct i in
** a..b (the rule of one-to-one member maps): no other branch of the par ever requests it. */
int reduce_family_alone(RCtx *c, const Summary *branch, const Decl *res, AlgSymbol *i, AlgExpr *a,
                        AlgExpr *b) {
  const RFam *fam = fam_find(branch, res);
  return fam && index_alone(c, single_index(branch, fam), i, a, b);
}

/* 1 when s has demand on res (a plain resource, or any member of a family). */
int reduce_uses(const Summary *s, const Decl *res) {
  if (fam_find(s, res)) return 1;
  for (int i = 0; i < s->nterms; i++) if (s->terms[i].res == res) return 1;
  return 0;
}

/* D_r(s) for upper-bound uses of a plain resource res (0 when s does not use it). */
AlgExpr *reduce_demand_hi(RCtx *c, const Summary *s, const Decl *res) { return term_hi(c, s, res, NULL); }

/* sum over r in res(branch) of W_r / m_r: W_r = D_r(whole) - D_r(branch) for a chain branch,
** D_r(whole) otherwise; families as family_wait says. i = a..b is the par index (NULL for ||).
** With reach (else NULL): a resource the branch can wait for through holders (reach->through)
** counts its whole demand, also where the branch does not use it (reduce_hold.c), and a ps
** resource takes the smaller of W/c and the bound from the requests present (reduce_ps.c), for
** the branch's own demand, or the whole demand when holders can be slowed there too. */
AlgExpr *reduce_wait(RCtx *c, const Summary *whole, const Summary *others, const Summary *branch,
                     AlgSymbol *i, AlgExpr *a, AlgExpr *b, const RReach *reach) {
  AlgCtx *g = c->alg;
  AlgExpr *wait = zero(c);
  for (int k = 0; k < branch->nterms; k++) {
    const RTerm *term = &branch->terms[k];
    if (term->index || reduce_lock_guarded(c, term->res)) continue;   /* kept by a lock: no queue */
    AlgExpr *W = term_hi(c, whole, term->res, NULL);
    if (branch->chain) W = alg_sub(g, W, term->d_hi);
    AlgExpr *w = alg_div(g, W, reduce_mult(c, term->res));
    int through = reduce_reach_through(reach, term->res);
    w = reduce_ps_wait(c, reach, term->res, w, through ? term_hi(c, whole, term->res, NULL) : term->d_hi);
    wait = alg_add(g, wait, w);
  }
  for (int k = 0; k < branch->nfams; k++)
    wait = alg_add(g, wait, reduce_reach_through(reach, branch->fams[k].res)
                            ? family_whole_wait(c, whole, branch, branch->fams[k].res)
                            : family_wait(c, whole, others, branch, &branch->fams[k], i, a, b));
  for (int k = 0; reach && k < reach->nthrough; k++) {   /* reached only through holders */
    const Decl *res = reach->through[k];
    if (reduce_uses(branch, res) || reduce_lock_guarded(c, res)) continue;
    AlgExpr *W = res->u.resource.count ? reduce_family_total(c, whole, res) : term_hi(c, whole, res, NULL);
    wait = alg_add(g, wait, reduce_ps_wait(c, reach, res, alg_div(g, W, reduce_mult(c, res)), W));
  }
  return wait;
}

/* ------------------------------------------------------------------ if and choose */

AlgExpr *reduce_pick(RCtx *c, const RPick *pick, int upper, AlgExpr *x, AlgExpr *y) {
  AlgCtx *g = c->alg;
  if (pick->cond) return alg_cond(g, pick->cond, x, y);
  if (pick->mix)
    return alg_add(g, alg_mul(g, pick->mix, x), alg_mul(g, alg_sub(g, alg_num_int(g, 1), pick->mix), y));
  return upper ? alg_max(g, x, y) : alg_min(g, x, y);
}

/* Demands of x and y combined as pick says. */
void reduce_combine_demands(RCtx *c, const RPick *pick, const Summary *x, const Summary *y,
                            Summary *out) {
#define PICK_LO(p, q) reduce_pick(c, pick, 0, (p), (q))
#define PICK_HI(p, q) reduce_pick(c, pick, 1, (p), (q))
  for (int pass = 0; pass < 2; pass++) {
    const Summary *p = pass ? y : x, *q = pass ? x : y;   /* p's entries first, x always left */
    for (int k = 0; k < p->nterms; k++) {
      const RTerm *term = &p->terms[k];
      if (term_find(out, term->res, term->index)) continue;
      const RTerm *other = term_find(q, term->res, term->index);
      AlgExpr *q_lo = other ? other->d_lo : zero(c), *q_hi = other ? other->d_hi : zero(c);
      RTerm *both = term_new(c, out, term->res, term->index);
      both->d_lo = pass ? PICK_LO(q_lo, term->d_lo) : PICK_LO(term->d_lo, q_lo);
      both->d_hi = pass ? PICK_HI(q_hi, term->d_hi) : PICK_HI(term->d_hi, q_hi);
    }
    for (int k = 0; k < p->nfams; k++) {
      const RFam *fam = &p->fams[k];
      if (fam_find(out, fam->res)) continue;
      const RFam *other = fam_find(q, fam->res);
      RFam *both = fam_get(c, out, fam->res);
      AlgExpr *p_spread = fam->spread_lo ? fam->spread_lo : zero(c);
      AlgExpr *q_spread = other && other->spread_lo ? other->spread_lo : zero(c);
      AlgExpr *q_extra_lo = other ? other->extra_lo : zero(c);
      AlgExpr *q_extra = other ? other->extra_hi : zero(c);
      both->spread_lo = pass ? PICK_LO(q_spread, p_spread) : PICK_LO(p_spread, q_spread);
      if (alg_is_num(both->spread_lo, 0)) both->spread_lo = NULL;
      both->extra_lo = pass ? PICK_LO(q_extra_lo, fam->extra_lo) : PICK_LO(fam->extra_lo, q_extra_lo);
      both->extra_hi = pass ? PICK_HI(q_extra, fam->extra_hi) : PICK_HI(fam->extra_hi, q_extra);
      AlgExpr *q_each_lo = other ? other->each_lo : zero(c), *q_each_hi = other ? other->each_hi : zero(c);
      both->each_lo = pass ? PICK_LO(q_each_lo, fam->each_lo) : PICK_LO(fam->each_lo, q_each_lo);
      both->each_hi = !fam->each_hi || !q_each_hi ? NULL
                    : pass ? PICK_HI(q_each_hi, fam->each_hi) : PICK_HI(fam->each_hi, q_each_hi);
      reduce_sites_join(c, both, fam);   /* the members of either side (reduce_own.c) */
      if (other) reduce_sites_join(c, both, other);
    }
  }
#undef PICK_LO
#undef PICK_HI
}
