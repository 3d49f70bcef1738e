/*
** reduce_order.h — what the order-aware rules share (docs/reduction.md, "Pars whose branches are
** the same chain" and "Pars whose branches send at once"): the walk of a par's body with the
** par's index symbolic (reduce_order.c), the uses it records, and the rules for bodies with `||`
** inside (reduce_fork.c, reduce_drift.c).
*/
#ifndef PAMC_REDUCE_ORDER_H
#define PAMC_REDUCE_ORDER_H

#include "reduce_internal.h"

/* Stage records a chain may hold (beyond: the walk gives up, the usual bounds stand). */
#define ORDER_MAX_STAGES 32
/* Use sites a body may hold for the bounded-clients rule (beyond: the walk gives up). */
#define ORDER_MAX_SITES 64
/* Branches of one `||` the walk follows (beyond: it gives up). */
#define ORDER_MAX_FORK 32
/* Forks (`||` or par) around a site that its path records (beyond: the site counts as parallel
** to every other). */
#define ORDER_MAX_PATH 8
/* Inner pars read as the digits of one index (walk_body): beyond, the rest is walked as a par
** inside the body (the injectivity check tries every order of the digits: 5! at most). */
#define ORDER_MAX_FOLD 4

/* Where a site sits among the forks of the body: the forks around it, outermost first. */
typedef struct OPath {
  int fork[ORDER_MAX_PATH];     /* the fork's number in the walk */
  int arm[ORDER_MAX_PATH];      /* the branch of the `||` it is in (0 in a par) */
  AlgExpr *copies[ORDER_MAX_PATH]; /* a par's number of copies, or NULL for a `||` */
  int depth;                    /* forks recorded */
  int deep;                     /* 1: more forks than ORDER_MAX_PATH around it */
} OPath;

/* How a use's member depends on the branch index k. */
typedef enum {
  USE_FREE,       /* at most m_r requests can be present at once: never queues */
  USE_OWN,        /* family member injective in k: no two branches share it at one step */
  USE_STAGE,      /* the same member for every branch: the branches queue there */
  USE_SHARD,      /* members dealt: (+-k + c) % K (each member serves the branches of one residue
                     class) or floor(k / B + c) (each a block of consecutive branches) */
  USE_PS,         /* a ps resource: requests share its capacity (reduce_ps_order.c); no other
                     rule reads its stages */
  USE_OTHER       /* anything else */
} UseClass;

/* How many branches name one member of a family dealt to them (round robin or in blocks). */
typedef struct ODealt {
  AlgExpr *most;        /* no member is named by more branches than this */
  AlgExpr *fullest;     /* some member is named by at least this many (when the par runs) */
  AlgExpr *first;       /* the member branch a names is named by exactly this many (NULL: not
                           known) */
  AlgExpr *holds;       /* 1, or the condition on the params under which the counts hold */
} ODealt;

/* One use statement of class OWN or STAGE met in the chain. */
typedef struct OStage {
  const Decl *res;      /* its resource */
  AlgExpr *index;       /* its member index (NULL for a plain resource) */
  UseClass cls;         /* USE_OWN or USE_STAGE */
  AlgExpr *t;           /* its duration (may contain k and the loop indices) */
  AlgExpr *head;        /* contention-free time of the chain before it, from the current part */
  AlgExpr *lohead;      /* a lower bound on the time the chain takes before it, pars nested in the
                           chain before it counted with their contention (walk_nested), >= head;
                           NULL: head. Read only as a release date (order_lohead) */
  AlgExpr *gap;         /* what the `||`s around it wait for beyond its own branch of each:
                           sum of (the fork's time - its branch's time); NULL for 0 */
  AlgExpr *guard;       /* 1 where it runs (conditions free of k), or NULL */
  AlgExpr *kguard;      /* the branches that run it: the conditions on k of the `if`s around it
                           whose sides were walked apart (walk_if_branch), or NULL (all) */
  AlgSymbol *loop;      /* the one chain loop around it, or NULL */
  AlgExpr *loop_lo, *loop_hi; /* its range */
  int loops;            /* chain loops around it (> 1: not a stage of a tandem line) */
  int bad;              /* 1: the same member is met again by the same branch (a loop around it
                           that does not change it) */
  int loop_free;        /* 1: its index names no loop index of the chain */
  AlgExpr *least;       /* its duration's least value over the chain's loops around it */
  int reps;             /* pars inside the body around it (copies of it run at once) */
  AlgSymbol *rep;       /* the innermost of them: its index, or NULL */
  AlgExpr *rep_lo, *rep_hi; /* its range */
  int site;             /* its record among the walk's sites, -1 when the sites were too many */
  int held_end;         /* a `hold`: 1 + the last stage recorded inside its body (the stages
                           after it up to there run while it is held); 0 for a use */
  AlgSymbol *kloop;     /* a stage directly in a loop whose range depends on k (reduce_stage.c):
                           that loop's index, or NULL */
  AlgExpr *kloop_lo, *kloop_hi; /* its range (depends on k) */
  AlgExpr *kloop_time;  /* the loop's contention-free time for branch k (sum of its iterations) */
  AlgExpr *kloop_iter;  /* the loop body's contention-free time at iteration j (may name kloop) */
  AlgExpr *kloop_head;  /* the request's head within iteration j (may name kloop) */
  AlgExpr *kloop_t;     /* its duration at iteration j (may name kloop) */
  int skew;             /* 1: in a `||` branch that may pass its arrivals on in another order
                           (another stage in that branch, a time before it in the branch that
                           depends on k, a loop inside the branch, or several servers and a
                           duration that depends on k): no line through the fork (reduce_skip.c) */
} OStage;

/* One use statement met by the walk, whatever its class (the bounded-clients rule). Pass 1
** records them in walk order; pass 2 walks again and lengthens each use by its site's wait. */
typedef struct OSite {
  const Decl *res;      /* its resource */
  AlgExpr *index;       /* its member index (NULL for a plain resource); for the two sides of
                           an `if` on k paired use by use, `cond ? x : y` */
  AlgExpr *tmax;        /* its duration's largest value over the branches and the body's loops */
  AlgExpr *copies;      /* copies run at once by one branch: the sizes of the pars inside the
                           body around it, multiplied (1 when none) */
  int loop_free;        /* 1: its index names no loop index of the body */
  AlgExpr *values;      /* when it names some (loop_free 0): how many values those indices take
                           over all branches at most, the product over them of (largest end -
                           least end + 1) of their ranges; NULL when unknown */
  int twin;             /* 1: the else side of a pair, counted with its then side */
  int looped;           /* 1: inside a loop of the body (its requests come again) */
  AlgExpr *wait;        /* pass 2: an upper bound on the wait of one of its requests */
  AlgExpr *runs;        /* times one branch makes it at most: the sizes of the loops of the body
                           around it, multiplied (largest over the branches and outer loops) */
  OPath path;           /* the forks around it */
} OSite;

/* The walk of one chain. */
typedef struct OWalk {
  RCtx *c;              /* the reduction */
  AlgSymbol *k;         /* the par's index */
  AlgExpr *ka, *kb;     /* its range */
  AlgSymbol *k2;        /* par (k) par (k2) S: the inner par's index (branches are pairs), or NULL */
  AlgExpr *k2a, *k2b;   /* its range (free of k) */
  int nfold;            /* par (k) par (x2) .. par (xd) S, d >= 3: the inner pars read as one par
                           over k2 = 0 .. N2 * .. * Nd - 1, its digits x2 .. xd (nfold = d - 1,
                           walk_body); 0 otherwise */
  AlgExpr *fold_n[ORDER_MAX_FOLD]; /* the digits' counts N2 .. Nd (N3 .. Nd proved integers >= 1) */
  AlgExpr *n;           /* number of branches, kb - ka + 1 */
  int ok;               /* 0 once the chain has a shape the rules do not cover */
  int vary;             /* 1 when a duration depends on k */
  int subset;           /* 1 when only the branches where an `if` on k holds run the chain:
                           n is then an upper bound on their number (no lower bounds) */
  int other;            /* 1 when some use is USE_OTHER or on a ps resource */
  int forks;            /* 1 when a `||` or a par was met: the body is no chain (lockstep and
                           the tandem line do not apply) */
  int calls;            /* process calls being walked */
  int call_forks;       /* 1 when a `||` was met inside a called process */
  int kif;              /* `if`s on the branch index being walked (walk_if_branch): every use is
                           recorded, whatever its class, to be paired with the other side's */
  AlgExpr *kguard;      /* conditions on k of the `if`s around the statement, or NULL */
  int guarded;          /* 1 when the sides of an `if` on k were walked apart (some branches skip
                           uses others make: no lockstep, tandem line or drift rule) */
  OStage stages[ORDER_MAX_STAGES]; /* OWN and STAGE uses in order */
  int nstages;          /* length of stages */
  OSite *sites;         /* every use in walk order (ORDER_MAX_SITES, arena) */
  int nsites;           /* pass 1: length of sites */
  int too_many;         /* 1: more than ORDER_MAX_SITES uses (no bounded-clients rule) */
  int dealt;            /* 1: some site's clients were counted from members dealt round robin or
                           in blocks (reduce_fork.c) */
  int lengthen;         /* 1 in pass 2: each use takes its duration plus its site's wait */
  int stretch;          /* 1 in the ps lockstep's walk: each use on ps takes its time with the
                           requests present in lock step (reduce_ps_order.c) */
  int site_at;          /* pass 2: the next site */
  OPath path;           /* the forks around the statement being walked */
  int nforks;           /* forks met so far (their numbers) */
  AlgSymbol *loops[EVAL_MAX_INDICES]; /* chain loops around the statement, outermost first */
  AlgExpr *loop_lo[EVAL_MAX_INDICES], *loop_hi[EVAL_MAX_INDICES]; /* their ranges */
  int nloops;           /* length of loops */
  AlgSymbol *all[EVAL_MAX_INDICES]; /* every loop of the body around the statement (also those
                                       whose range depends on k), outermost first */
  AlgExpr *all_lo[EVAL_MAX_INDICES], *all_hi[EVAL_MAX_INDICES]; /* their ranges */
  int all_par[EVAL_MAX_INDICES]; /* 1: all[i] is the index of a par inside the body */
  int nall;             /* length of all */
  AlgExpr *guard;       /* conditions of the enclosing `if`s of the chain, or NULL */
  int depth;            /* statements and calls being walked */
  int outer_loops;      /* loops of the body met outside any loop of the body */
  AlgSymbol *outer;     /* the last of them: its index (a fresh one for repeat) and range */
  AlgExpr *outer_lo, *outer_hi;
  AlgExpr *outer_iter;  /* its body's contention-free time at iteration `outer` (pass 2: with
                           each use lengthened by its wait) */
  int outer_fixed;      /* 1: its iterations run the same steps for the same times (its body's
                           time and the durations and heads within the iteration of its stages
                           do not name its index) */
  AlgExpr *total;       /* pass 2: the body's time for branch k with every use lengthened */
  int holds;            /* 1 when a `hold` was met: only the lower-bound rules apply, and the
                           lockstep when every hold is plain (rich_holds 0) */
  int rich_holds;       /* 1 when a hold met is not plain: its body is not delays alone, or no
                           delay free of k comes just before it (walk_hold) */
  AlgExpr *gap_before;  /* while the statement walked next follows, in its block, a delay: the
                           condition that its least value is > 0 (walk_block; walk reads and
                           clears it), else NULL */
  AlgExpr *apart;       /* the gaps before the plain holds met, and-ed (NULL: none met) */
} OWalk;

/* Splits a term A(o) into G * f(o), f the one factor that contains o: 1, or 0 (reduce_order.c). */
int order_split_factor(AlgCtx *g, AlgExpr *a, AlgSymbol *o, AlgExpr **f, AlgExpr **G);

/* reduce_order.c */
AlgExpr *order_lohead(const OStage *st);
UseClass order_use_class(OWalk *w, const Decl *res, AlgExpr *index);
int order_own_alone(const OWalk *w, const OStage *st);
AlgExpr *order_walk_time(OWalk *w, REnv *env, const RPiece *p);
OWalk *order_walk_lengthened(OWalk *w, REnv *env, const RPiece *p);
OWalk *order_walk_new(RCtx *c, const RPiece *p);
int order_injective(OWalk *w, AlgExpr *e);
AlgExpr *order_digit_base(RCtx *c, AlgExpr *e, AlgSymbol *i);
AlgExpr *order_split_digits(RCtx *c, AlgExpr *e, AlgSymbol *i, AlgExpr *Q, AlgExpr *o, AlgExpr *n);
AlgExpr *order_term_of(AlgExpr *e, AlgSymbol *i);
int order_dealt(const OWalk *w, const Decl *res, AlgExpr *index, ODealt *d);
int order_by_branch(const OWalk *w, AlgExpr *e);
AlgExpr *order_over_branches(const OWalk *w, AlgKind kind, AlgExpr *e);
AlgExpr *order_over_loop(RCtx *c, const OStage *st, AlgExpr *x);
AlgExpr *order_tail(const OWalk *w, const OStage *st, AlgExpr *total);
int order_integer_valued(RCtx *c, AlgExpr *x);
AlgExpr *order_closed(RCtx *c, AlgExpr *e);
int order_cut_ranges(RCtx *c, AlgExpr *cond, AlgSymbol *i, AlgExpr *lo, AlgExpr *hi, AlgExpr *t_lo[2],
                     AlgExpr *t_hi[2], int *n_true, AlgExpr *f_lo[2], AlgExpr *f_hi[2], int *n_false);

/* reduce_fork.c */
int fork_waits(OWalk *w);
AlgExpr *fork_cap_waits(OWalk *w, const Summary *whole);
AlgExpr *fork_group(OWalk *w, int i, AlgExpr *total);
AlgExpr *fork_lower(OWalk *w, AlgExpr *total);
AlgExpr *fork_site_clients(OWalk *w, const OSite *site);
AlgExpr *fork_width(OWalk *w, const int *set, int n, int level);

/* reduce_spaced.c */
AlgExpr *order_spaced(OWalk *w, const Decl *r);

/* reduce_budget.c */
AlgExpr *budget_upper(OWalk *w, REnv *env, const RPiece *p);

/* reduce_ps_order.c */
AlgExpr *ps_use_time(OWalk *w, const Decl *res, AlgExpr *index, AlgExpr *t);
AlgExpr *ps_site_wait(OWalk *w, const Decl *res, AlgExpr *clients, AlgExpr *tmax);
AlgExpr *ps_group_serve(RCtx *c, const Decl *res, AlgExpr *t_most, AlgExpr *sum);
AlgExpr *ps_fork_time(OWalk *w, REnv *env, const Stmt *s);
AlgExpr *ps_lockstep(OWalk *w, REnv *env, const RPiece *p, AlgExpr **apart);

/* What one piece's branch does (reduce_ps_batch.c): delays, one use of a plain resource (or an
** `if` whose sides are one use of it each: a use of size cond ? x : y), delays. */
typedef struct BShape {
  const Decl *res;        /* the resource (NULL until the use is met) */
  AlgExpr *head;          /* the delays before the use */
  AlgExpr *t;             /* the use's duration */
  AlgExpr *tail;          /* the delays after it */
  int ok;                 /* 0 once the branch is not of this shape */
  Discipline disc;        /* the discipline the use's resource must have (DISC_PS, DISC_FCFS) */
} BShape;

/* reduce_ps_batch.c: the shape of piece p's branch (its index bound); the first node of e that
** names k as `x % K` or `cond ? x : y` (x, y free of k); the indices of [r_lo, r_hi] in [lo, hi] */
void reduce_batch_shape(RCtx *c, REnv *env, const RPiece *p, Discipline disc, BShape *sh);
/* The same shape read from statement s in env (a loop's body, its index bound by the caller). */
void reduce_batch_read(RCtx *c, REnv *env, const Stmt *s, Discipline disc, BShape *sh);
/* reduce_fcfs_list.c: e with every param and const it names read at its value (a point), the
** equalities added to *holds; NULL where a value is no point */
AlgExpr *reduce_at_values(RCtx *c, AlgExpr *e, AlgExpr **holds);
/* reduce_fcfs_list.c: e evaluated at k = a .. a + n - 1 into lo[0 .. n - 1] and hi (the tape; e's only
** symbol may be k): 1, else 0 (another symbol, no tape, out of memory). */
int reduce_eval_range(RCtx *c, AlgExpr *e, AlgSymbol *k, long a, long n, double *lo, double *hi);
AlgExpr *reduce_batch_picker(AlgExpr *e, AlgSymbol *k);
AlgExpr *reduce_batch_in_range(AlgCtx *g, AlgExpr *lo, AlgExpr *hi, AlgExpr *r_lo, AlgExpr *r_hi);

/* reduce_stage.c */
int order_reused_stage(const OWalk *w, const OStage *st);
int order_counted_stage(OStage *st, AlgSymbol *j, AlgExpr *a, AlgExpr *b, AlgExpr *iter, AlgExpr *time,
                        int outer_loops);
AlgExpr *order_counted_lower(OWalk *w, const OStage *st, AlgExpr *total);
AlgExpr *order_fcfs_lower(OWalk *w, const OStage *st, AlgExpr *total);
AlgExpr *order_second_round_lower(OWalk *w, const OStage *st, AlgExpr *total);

/* reduce_line.c */
AlgExpr *order_line_lower(OWalk *w, const OStage *st, AlgExpr *total);
AlgExpr *order_line_upper(OWalk *w, const OStage *st, AlgExpr *total, AlgExpr **positive);

/* reduce_inorder.c */
AlgExpr *order_inorder_lower(OWalk *w, const OStage *st, AlgExpr *total);
AlgExpr *order_class_inorder_lower(OWalk *w, const OStage *st, AlgExpr *total);

/* reduce_holdline.c */
AlgExpr *order_hold_line_upper(OWalk *w, AlgExpr *total, AlgExpr **holds);

/* reduce_wait.c */
AlgExpr *order_wait_lower(OWalk *w, const OStage *st, AlgExpr *total);

/* reduce_twice.c */
AlgExpr *order_twice_lower(OWalk *w, const OStage *x, AlgExpr *total);

/* reduce_rounds.c */
AlgExpr *order_rounds_upper(OWalk *w, AlgExpr *total, AlgExpr **holds);

/* reduce_grid.c */
AlgExpr *order_grid_lower(OWalk *w, AlgExpr *total);

/* reduce_release.c */
AlgExpr *release_threshold(RCtx *c, AlgExpr *m, int s, AlgExpr **count, AlgExpr **head, AlgExpr **t,
                           AlgExpr **tail);
AlgExpr *release_stage_lower(OWalk *w, const OStage *st, AlgExpr *total);
AlgExpr *release_run_lower(OWalk *w, const OStage *st, AlgExpr *total);
long release_period(RCtx *c, AlgExpr *e, AlgSymbol *k);
AlgExpr *release_class_count(const OWalk *w, long L, long i);

/* reduce_skip.c */
AlgExpr *order_unrolled(RCtx *c, AlgExpr *e);
int skip_forks_keep_order(const OWalk *w);
AlgExpr *skip_tandem_upper(OWalk *w);
AlgExpr *skip_at_iterations(RCtx *c, const OStage *st, AlgExpr *x);
/* reduce_a2a.c */
AlgExpr *a2a_fork_lockstep(OWalk *w);
int a2a_parallel_use(const OWalk *w, int i);
AlgExpr *a2a_ps_steps_apart(const OWalk *w);

/* reduce_except.c */
int order_except_counts(const OWalk *w, AlgExpr *index, ODealt *d);

/* reduce_bits.c */
int reduce_bits_injective(RCtx *c, AlgExpr *e, AlgSymbol *i, AlgExpr *lo, AlgExpr *hi);
/* reduce_order.c: h when x is floor(i / h) % 2 (h integer-valued, >= 1, free of i), else NULL. */
AlgExpr *order_bit_of(RCtx *c, AlgExpr *x, AlgSymbol *i);
/* reduce_order.c: a stage of a tandem line (met once by each branch, its resource's only use). */
int order_single_stage(const OWalk *w, const OStage *st);

/* reduce_drain.c */
AlgExpr *order_drain_upper(OWalk *w, AlgExpr *total);

/* reduce_nest.c */
int order_pair_counts(const OWalk *w, const Decl *res, AlgExpr *index, ODealt *d);

/* reduce_shift.c */
AlgExpr *order_shift_upper(OWalk *w, AlgExpr *total, AlgExpr **holds);

/* reduce_drift.c */
AlgExpr *drift_lower(OWalk *w, const OWalk *again, AlgExpr *total);

#endif
