/*
** reduce_lock.h — what the rules for threads meeting at a lock share (docs/reduction.md,
** "Threads meeting at a lock"): the flattened first iteration of a par's body (reduce_lock.c)
** and the reading of a lock kept busy over rounds, used by its lower bound (reduce_lock.c) and
** its upper bound (reduce_lock_busy.c).
*/
#ifndef PAMC_REDUCE_LOCK_H
#define PAMC_REDUCE_LOCK_H

#include "reduce_internal.h"

/* Steps of one iteration the rules read (beyond: the rest is not read, its time counts 0). */
#define LOCK_MAX_STEPS 32
/* Nested blocks and calls the flattening follows (beyond: the step is opaque). */
#define LOCK_MAX_DEPTH 16

/* What a step of the flattened iteration is. */
typedef enum { LOCK_DELAY, LOCK_USE, LOCK_HOLD, LOCK_OPAQUE } LockKind;

/* One step of the iteration, in order. */
typedef struct LockStep {
  LockKind kind;        /* what it is */
  const Decl *res;      /* LOCK_USE, LOCK_HOLD: its resource */
  AlgExpr *index;       /* its member index (NULL for a plain resource) */
  AlgExpr *t;           /* delay, use: its duration (exact); hold: a lower bound on its body's
                           time; opaque: 0 */
  int same;             /* 1: t and index are free of the branch index */
  int exact;            /* 1: a hold whose body is delays only (its time is t exactly) */
  const Decl *inner;    /* LOCK_HOLD: the resource of the first use in its body (NULL: none) */
  AlgExpr *inner_index; /* LOCK_HOLD: that use's member index (NULL for a plain resource) */
  AlgExpr *inner_rest;  /* LOCK_HOLD: a lower bound on the body's time from that use's start */
  AlgExpr *inner_t;     /* LOCK_HOLD: that use's duration */
  AlgExpr *most;        /* LOCK_HOLD: the most its body takes in the par alone (NULL: not known;
                           lock_body_most) */
  AlgExpr *most_cond;   /* LOCK_HOLD: where most holds (a condition over the params) */
  AlgExpr *group_full;  /* LOCK_HOLD of an fcfs(m) lock: its body's time run by m holders in lock
                           step (NULL: not known; lock_body_group) */
  AlgExpr *group_last;  /* ... by the last group of the n branches, n - (ceil(n / m) - 1) m */
  AlgExpr *group_cond;  /* where both hold (a condition over the params) */
  const Stmt *body;     /* LOCK_HOLD: its body (NULL for other steps) */
  int forked;           /* LOCK_HOLD: 1 when its body has a `||` (more than one request at a time) */
} LockStep;

/* The flattened first iteration of a par's body. */
typedef struct LockWalk {
  RCtx *c;              /* the reduction */
  AlgSymbol *k;         /* the par's index */
  AlgExpr *n;           /* the par's number of branches */
  const Stmt *iteration; /* the statement the iteration is (the par's body, or its repeat's) */
  LockStep steps[LOCK_MAX_STEPS]; /* the iteration's steps */
  int nsteps;           /* length of steps */
  int cut;              /* 1: the iteration has more than LOCK_MAX_STEPS steps */
  int vary;             /* 1: some step's time depends on the branch index (the rules give up) */
} LockWalk;

/* A lock kept busy over rounds, as read (lock_rounds_read). */
typedef struct LockRounds {
  int s2;               /* the step of the lock's one request */
  AlgExpr *steady;      /* where no step around s2 waits (n <= m for its fcfs uses) */
  AlgExpr *cond;        /* where, besides, the lock is handed on at every release but the last
                           (over the params; K >= 1 not included) */
  AlgExpr *d0;          /* the time to the lock in the first iteration (every branch's) */
  AlgExpr *R;           /* the least time after s2 in an iteration */
  AlgExpr *R_most;      /* the most time after s2 in an iteration */
  AlgExpr *h2;          /* the lock's hand-off (0 without) */
} LockRounds;

/* Statements of s that request res (use or hold), following calls, not those inside skip. */
int lock_requests_besides(const Stmt *s, const Decl *res, const Stmt *skip, int depth);
/* 1 when res is fcfs. */
int lock_is_fcfs(const Decl *res);
/* Reads w as a lock kept busy over rounds (docs/reduction.md); 0 when it is none. */
int lock_rounds_read(const LockWalk *w, const Stmt *iteration, LockRounds *out);
/* The most the body s of a hold of lock takes in the par alone (NULL: not known); *cond where it
** holds. */
AlgExpr *lock_body_most(LockWalk *w, REnv *env, const Decl *lock, const Stmt *s, int depth, AlgExpr **cond);
/* Records in st the time of the body s of a hold of lock run in lock step by groups of holders
** (st->group_full, group_last, group_cond; left NULL where it is not known). */
void lock_body_group(LockWalk *w, REnv *env, const Decl *lock, const Stmt *s, int depth, LockStep *st);
/* Upper bound of a lock kept busy over K rounds, where *where holds (NULL: the rule does not
** apply). */
AlgExpr *lock_rounds_hi(const LockWalk *w, const Stmt *iteration, AlgExpr *K, AlgExpr **where);

/* Upper bound of a par whose branches reach a lock spaced apart, where *where holds (NULL: the
** rule does not apply). */
AlgExpr *lock_spaced_hi(const LockWalk *w, const RPiece *p, AlgExpr **where);

#endif
