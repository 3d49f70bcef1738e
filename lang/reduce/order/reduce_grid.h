/*
** reduce_grid.h — what the two files of the grid rules share (docs/reduction.md, "A member of a
** grid counted"): a group of sites of one family of a par over pairs (x, y), each site's member
** read coordinate by coordinate (reduce_grid.c), the requests one member gets, and the heads
** raised by the requests known to be ahead (reduce_grid_ahead.c).
*/
#ifndef PAMC_REDUCE_GRID_H
#define PAMC_REDUCE_GRID_H

#include "reduce_order.h"

/* Sites of one group at most (beyond: the group is not bounded). */
#define GRID_MAX_SITES 8

/* One coordinate of a member index: (v + a) % K (K set) or v + a (K NULL), v an index. */
typedef struct GCoord {
  AlgExpr *a;           /* the shift, an integer free of the branch */
  AlgExpr *K;           /* the modulus, or NULL */
} GCoord;

/* A site's member index read as G * f(major) + h(minor) + rest. */
typedef struct GSite {
  int stage;            /* its stage in the walk */
  int major;            /* 0: the par's index k is the major coordinate, 1: k2 is */
  AlgExpr *G;           /* the factor of the major coordinate */
  AlgExpr *rest;        /* the part free of both indices */
  GCoord c[2];          /* c[0]: the major coordinate f, c[1]: the minor h */
} GSite;

/* The sites of one family that the rules count at a member, and the par's indices. */
typedef struct GGroup {
  OWalk *w;             /* the walk of the par's body */
  GSite sites[GRID_MAX_SITES]; /* the group's sites, the leading one first */
  int s;                /* length of sites */
  AlgSymbol *idx[2];    /* the major index, then the minor */
  AlgExpr *lo[2], *hi[2]; /* their ranges */
  AlgExpr *m;           /* the family's servers per member */
  AlgExpr *total;       /* the body's contention-free time for branch (k, k2) */
} GGroup;

/* The request one site makes at one member: by which branch, where it runs, when and how long. */
typedef struct GReq {
  AlgExpr *x[2];        /* the branch's coordinates (major, minor) */
  AlgExpr *run;         /* 1 where that branch is in the par's range and makes the request */
  AlgExpr *head;        /* its contention-free head, duration and tail at that branch */
  AlgExpr *t;
  AlgExpr *tail;
} GReq;

/* reduce_grid.c */
AlgExpr *grid_at_branch(const GGroup *gr, AlgExpr *e, AlgExpr *const x[2]);
void grid_requests_at(const GGroup *gr, AlgExpr *const at[2], GReq *out);

/* reduce_grid_ahead.c: the heads of the requests req (at one member) raised by the requests
** known to be ahead at the member of an earlier use of their branch; 0 when the rule does not
** apply (heads left as they are). */
int grid_ahead_heads(const GGroup *gr, const GReq *req, AlgExpr **heads);

#endif
