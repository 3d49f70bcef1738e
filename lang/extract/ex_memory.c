/*
** ex_memory.c — the working set and the data traffic of a loop nest (--memory-level auto, the
** default): which arrays an outermost loop nest touches, how many distinct bytes of each (its
** footprint, the working set), and how many bytes must come from beyond the L1 cache.
**
** Every access is charged at the L1 rate (t_read_l1, t_write_l1: the core's load and store
** ports, which overlap with computing). The data itself comes from where the working set lives:
** per outermost nest, the bytes of each array that cannot be reused from the cache are charged
** the difference between the rate at the nest's working set and the L1 rate
** (ex_stall_read(ws) = max(0, t_read_vec(ws) - t_read_l1), from the machine file's memory
** sweep). An access a[E] inside loops L1..Ld touches distinct elements = the product of the trip
** counts of the loops whose index appears in E (each index moves to a new element), and repeats
** them the product of the trips of the other loops (no reuse assumed across them: right when the
** array does not fit in the cache, and then nearly free when it does, since the stall rate at a
** small working set is about 0). An array's footprint is its largest access's (the accesses
** a[i-1], a[i], a[i+1] share one footprint); an access whose index the source does not determine
** touches a new element each time.
*/
#include <stdlib.h>
#include <string.h>

#include "ex_internal.h"

int ex_auto_memory(const ExCtx *x) { return !strcmp(x->opts->memory_level, "auto"); }

static ExBase *base_for(ExCtx *x, CXCursor decl, long bytes) {
  for (int i = 0; i < x->nbases; i++)
    if (clang_equalCursors(x->bases[i].decl, decl)) return &x->bases[i];
  x->bases = ex_grow(x->bases, &x->bases_cap, x->nbases, sizeof *x->bases);
  ExBase *b = &x->bases[x->nbases++];
  *b = (ExBase){decl, bytes, NULL, NULL, NULL};
  return b;
}

static AlgExpr *larger(ExCtx *x, AlgExpr *old, AlgExpr *e) { return old ? alg_max(x->alg, old, e) : e; }

void ex_footprint_note(ExCtx *x, CXCursor base, CXCursor index, long bytes, int read, int write) {
  if (!ex_auto_memory(x) || x->nloops == 0 || bytes <= 0) return;
  CXCursor decl = ex_referenced_var(base);
  if (clang_Cursor_isNull(decl)) return;   /* a computed base (p->v[i]): charged at the L1 rate */
  AlgExpr *idx = clang_Cursor_isNull(index) ? NULL : ex_value(x, index);
  AlgCtx *g = x->alg;
  AlgExpr *distinct = alg_num_int(g, 1), *repeats = alg_num_int(g, 1);
  for (int l = 0; l < x->nloops; l++) {
    const ExLoopLevel *lv = &x->loops[l];
    if (!idx || (lv->index && alg_contains(idx, lv->index))) distinct = alg_mul(g, distinct, lv->trip);
    else repeats = alg_mul(g, repeats, lv->trip);
  }
  ExBase *b = base_for(x, decl, bytes);
  b->distinct = larger(x, b->distinct, distinct);
  AlgExpr *traffic = alg_mul(g, distinct, repeats);
  if (read) b->read = larger(x, b->read, traffic);
  if (write) b->write = larger(x, b->write, traffic);
}

void ex_footprint_charge(ExCtx *x, ExCost *per_iter, AlgExpr *trip) {
  if (!ex_auto_memory(x) || x->nbases == 0) return;
  AlgCtx *g = x->alg;
  AlgExpr *ws = alg_num_int(g, 0), *rd = alg_num_int(g, 0), *wr = alg_num_int(g, 0);
  for (int i = 0; i < x->nbases; i++) {
    const ExBase *b = &x->bases[i];
    AlgExpr *size = alg_num_int(g, b->bytes);
    ws = alg_add(g, ws, alg_mul(g, size, b->distinct));
    if (b->read) rd = alg_add(g, rd, alg_mul(g, size, b->read));
    if (b->write) wr = alg_add(g, wr, alg_mul(g, size, b->write));
  }
  x->nbases = 0;
  ex_use_const(x, "t_read_l1");   /* the stall fns name them */
  ex_use_const(x, "t_write_l1");
  AlgExpr *args[1] = {ws};
  /* per iteration of the outermost loop: an OpenMP loop shares it among the threads */
  if (!alg_is_num(rd, 0))
    ex_cost_add_term(x, per_iter, ex_use_const(x, "ex_stall_read"), args, 1, alg_div(g, rd, trip));
  if (!alg_is_num(wr, 0))
    ex_cost_add_term(x, per_iter, ex_use_const(x, "ex_stall_write"), args, 1, alg_div(g, wr, trip));
}
