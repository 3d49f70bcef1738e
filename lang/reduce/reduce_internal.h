/*
** reduce_internal.h — what the files of the reduction share: the context of one reduction, the
** scope of names, and the per-statement summary (REDUCTION.md: phi, D_r, L, U) with its demands.
** reduce_expr.c translates model expressions, reduce_demand.c owns demands and waits,
** reduce.c walks the statements, reduce_hold.c holds and hand-offs, reduce_ps.c and reduce_ps_batch.c processor sharing.
*/
#ifndef PAMC_REDUCE_INTERNAL_H
#define PAMC_REDUCE_INTERNAL_H

#include "arena.h"
#include "eval.h"
#include "reduce.h"

/* Process arguments a call passes at most (matches the evaluator's limit on fn arguments). */
#define REDUCE_MAX_ARGS EVAL_MAX_ARGS

/* Demand on one resource or on one family member named by an index expression. */
typedef struct RTerm {
  const Decl *res;        /* the resource declaration */
  AlgExpr *index;         /* member index, NULL for a plain resource */
  AlgExpr *d_lo, *d_hi;   /* demand for lower-bound / upper-bound uses */
} RTerm;

/* Closed loops an RSite records (beyond: the family's sites are no longer known). */
#define RSITE_MAX_CLOSED 4
/* Sites a family's RFam records (beyond: no longer known). */
#define RFAM_MAX_SITES 8

/* Where unnamed demand on a family lies (reduce_own.c): the members index takes as the closed loop
** indices it names run over their ranges. */
typedef struct RSite {
  AlgExpr *index;         /* the member index of the use, as written (naming the closed indices) */
  AlgSymbol *closed[RSITE_MAX_CLOSED]; /* the closed loop indices index names, innermost first */
  AlgExpr *lo[RSITE_MAX_CLOSED], *hi[RSITE_MAX_CLOSED]; /* their ranges */
  int nclosed;            /* length of closed */
} RSite;

/* What is known of a family beyond its member terms: demand whose member is no longer named
** (its index was a loop index that has been closed over). */
typedef struct RFam {
  const Decl *res;        /* the family declaration */
  AlgExpr *spread_lo;     /* lower bound on the most loaded member from unnamed demand, or NULL */
  AlgExpr *extra_lo;      /* family demand not held in member terms (lower-bound use) */
  AlgExpr *extra_hi;      /* family demand not held in member terms (upper-bound use) */
  AlgExpr *each_lo;       /* every member of the family gets at least this much of the unnamed
                             demand (lower-bound use; 0 when nothing is known) */
  AlgExpr *each_hi;       /* no member gets more than this much of the unnamed demand
                             (upper-bound use), or NULL: not known (reduce_member.c) */
  AlgExpr *visits;        /* the summary is a par's whose branches are chains: the most members
                             one branch names in the family, or NULL (reduce_member.c) */
  AlgExpr *own_hi;        /* with visits: the least over the branches of one branch's demand on
                             the family (upper-bound use values) */
  const RSite *sites;     /* the unnamed demand lies at the members these sites name (arena, never
                             changed in place: a new array replaces it) */
  int nsites;             /* length of sites; -1: not known (too many sites or closed loops) */
} RFam;

typedef struct Summary {
  AlgExpr *phi_lo, *phi_hi; /* contention-free time (lower / upper uses) */
  AlgExpr *L, *U;           /* lower and upper bounds of the statement run alone */
  int chain;                /* 1: no || or par inside */
  RTerm *terms;             /* demand per resource / member */
  int nterms;               /* length of terms */
  RFam *fams;               /* per family used */
  int nfams;                /* length of fams */
  const struct Summary *parts; /* a block's: its statements' summaries, in order (arena), else NULL */
  int nparts;               /* length of parts */
} Summary;

/* A memoised process call. */
typedef struct RMemo {
  const Decl *proc;                 /* the callee */
  AlgExpr **args;                   /* argument expressions (arena, argc of them) */
  int argc;                         /* number of arguments */
  int alone;                        /* 1: reduced for calls that nothing runs beside
                                       (RCtx.concurrent == 0 at the call) */
  Summary sum;                      /* its summary */
  struct RMemo *next;               /* next memo in its bucket */
} RMemo;

/* One pair of the hold relation: some `hold (outer)` reduced so far has a body that requests
** inner (a family stands for all its members). */
typedef struct RNest {
  const Decl *outer;      /* the held resource or family */
  const Decl *inner;      /* a resource or family requested inside the hold's body */
} RNest;

/* Checks collected during the reduction (copied into the result at the end). */
typedef struct RChecks {
  ReduceCheck *items;     /* growable array (malloc) */
  int count, cap;         /* used / allocated */
} RChecks;

typedef struct RCtx {
  Program *prog;          /* the program */
  AlgCtx *alg;            /* expressions */
  Arena arena;            /* summaries */
  DiagList *diags;        /* errors */
  int failed;             /* 1 after an error */
  ReduceResult *out;      /* symbols of params and consts */
  RMemo **memo_buckets;   /* memoised calls: hash buckets (malloc), reduce_memo.c */
  size_t memo_cap;        /* buckets (a power of two, 0 before the first call) */
  size_t memo_count;      /* calls memoised */
  RChecks checks;         /* evaluation checks */
  int mixing;             /* 1 in the pass that mixes the branches of choose (expected value) */
  int concurrent;         /* > 0 while reducing what may run beside other statements or beside
                             itself: a branch of || or par, and what it calls (a call made
                             where concurrent == 0 runs alone: its memo is kept apart); also
                             the body of a hold, which runs with a server taken */
  struct RIndexLoc *index_locs; /* every loop index made, with its loop (reduce_approx.c) */
  int nindex_locs, index_locs_cap; /* used / allocated */
  struct RFamLoc *fam_locs; /* families whose waits were taken as one resource's */
  int nfam_locs, fam_locs_cap; /* used / allocated */
  struct RFamLoc *pending; /* notes of the par being reduced, not yet settled (reduce_approx.c,
                             reduce_note_counted) */
  int npending, pending_cap; /* used / allocated */
  RNest *nests;           /* the hold relation of every hold reduced so far (arena, no repeats) */
  int nnests, nests_cap;  /* used / allocated */
  struct RPiece *split_scratch; /* REDUCE_MAX_PIECES pieces a split writes before they are copied
                             into the arena, as many as it made (malloc, made on first use) */
  const Decl **guarded;   /* plain resources only ever requested under one lock: never queue
                             (reduce_lock_guards; arena) */
  int nguarded;           /* length of guarded */
  struct RLoopEnds *loop_ends; /* per symbol id: the ends of the model loop an index runs, checked
                             integers (reduce_ends.c; arena, grown on demand) */
  size_t loop_ends_cap;   /* length of loop_ends */
  AlgExpr **order_assume; /* while a par's order-aware rules run (reduce_order.c): where they may
                             record what their bounds assume of the params and consts (the
                             condition ANDed in), else NULL */
  struct RPointsMemo *points_memo; /* member maps decided by evaluation (reduce_points.c; arena,
                             made on first use) */
  int npoints_memo;       /* answers recorded so far (the memo keeps the last ones) */
  int nested_heads;       /* > 0 while a par nested in a branch is reduced for the least time it
                             takes (reduce_order.c walk_nested): none inside it is, so each par
                             is reduced at most twice (the cost stays linear in the model) */
} RCtx;

/* What the wait of one branch of a par needs beyond the demands: the resources its waits can
** reach through holders (reduce_hold.c) and the ps resources with a bound on the requests
** present at once (reduce_ps.c). */
typedef struct RReach {
  const Decl **through;   /* resources requested inside holds of resources the branch can wait
                             for (transitively): each counts the whole demand on it */
  int nthrough;           /* length of through */
  const Decl **ps;        /* plain ps resources used only by chain branches of the par */
  AlgExpr **present;      /* present[k]: an upper bound on the requests present at once at ps[k] */
  int nps;                /* length of ps and present */
} RReach;

/* An enclosing loop range, for taking checks over it. */
typedef struct RBinder {
  AlgSymbol *index;       /* the index symbol (a piece's own index when the range is split) */
  AlgExpr *lo, *hi;       /* its range */
} RBinder;

/* Names in scope: arguments and loop indices of the current process or fn, and what encloses the
** statement (loop ranges across calls, the condition of enclosing `if`s on params). */
typedef struct REnv {
  AlgExpr **args;                     /* argument values by slot */
  int argc;                           /* length of args */
  AlgExpr *idx[EVAL_MAX_INDICES];     /* loop index symbols by slot */
  int depth;                          /* indices in force */
  RBinder binders[EVAL_MAX_INDICES];  /* enclosing loop ranges, outermost first */
  int nbinders;                       /* length of binders */
  AlgExpr *guard;                     /* 1 where the statement runs (NULL: always) */
} REnv;

/* Comparisons of the loop index an `if` splitting its loop may hold (one or two cuts each). */
#define SPLIT_MAX_TESTS 8
/* Cuts of the index range: pieces are at most SPLIT_MAX_CUTS + 1. */
#define SPLIT_MAX_CUTS (2 * SPLIT_MAX_TESTS)
/* Largest lcm of the moduli of residue tests `i % K == c`: classes per piece. */
#define SPLIT_MAX_CLASSES 12
#define REDUCE_MAX_PIECES ((SPLIT_MAX_CUTS + 1) * SPLIT_MAX_CLASSES)

/* One piece of a loop's index range on which an `if` on the index is decided. */
typedef struct RPiece {
  AlgSymbol *index;   /* the piece's own index over lo..hi */
  AlgExpr *lo, *hi;   /* its range */
  const Stmt *stmt;   /* the branch that runs there */
  AlgExpr *value;     /* the loop index in terms of index: index itself, or L*index + r */
} RPiece;

/* reduce.c */
void reduce_stmt(RCtx *c, REnv *env, const Stmt *s, Summary *out);
/* s without the blocks of one statement around it: `{ { S } }` is S (the same runs). */
const Stmt *reduce_unblocked(const Stmt *s);
AlgExpr *reduce_member(RCtx *c, REnv *env, const Stmt *s);

/* reduce_first.c: the lower bound of S1 || ... || Sk (s, its branches' summaries br) from a
** branch's first request queued behind an earlier branch's at one FCFS server; 0 when none. */
AlgExpr *reduce_first_behind(RCtx *c, REnv *env, const Stmt *s, const Summary *br);

/* reduce_approx.c */
AlgSymbol *reduce_index_new(RCtx *c, const char *what, SrcLoc loc, const char *name, AlgExpr *a,
                            AlgExpr *b);
const char *reduce_loop_kind(const Stmt *s);
void reduce_note_family(RCtx *c, const Decl *family);
void reduce_note_families_unless(RCtx *c, int from, AlgExpr *exact);
void reduce_note_counted(RCtx *c, const Decl *family, AlgExpr *unless);
void reduce_note_pending_keep(RCtx *c, int from, int keep, AlgExpr *exact);
void reduce_note_pending_flush(RCtx *c);
/* reduce_check.c: 1 when every free symbol of value is a param or const (no loop index). */
int reduce_only_params(RCtx *c, const AlgExpr *value);
void reduce_approx_finish(RCtx *c, ReduceResult *out, AlgExpr *L, AlgExpr *U);

/* reduce_ends.c */
void reduce_loop_ends(RCtx *c, AlgSymbol *index, AlgExpr *lo, AlgExpr *hi);
int reduce_integer_by_ends(RCtx *c, AlgExpr *x, AlgExpr *scope);

/* reduce_memo.c */
const Summary *reduce_memo_find(RCtx *c, const Decl *proc, AlgExpr *const *args, int argc, int alone);
void reduce_memo_add(RCtx *c, const Decl *proc, AlgExpr *const *args, int argc, int alone,
                     const Summary *sum);
void reduce_memo_clear(RCtx *c);

/* reduce_hold.c */
void reduce_hold(RCtx *c, REnv *env, const Stmt *s, Summary *out);
AlgExpr *reduce_handoff(RCtx *c, const Decl *res);
/* piece (NULL for a || branch or a par split in several): the branch of a par over piece's range;
** a family it names one member of, no other branch's, leads to no holder (reduce_family_alone). */
void reduce_reach_init(RCtx *c, const Summary *branch, RReach *reach, const RPiece *piece);
int reduce_reach_through(const RReach *reach, const Decl *res);

/* reduce_ps.c */
AlgExpr *reduce_alone(RCtx *c, const Decl *res, AlgExpr *t);
void reduce_ps_present(RCtx *c, const Summary *whole, const Summary *branches, int count,
                       AlgExpr *const *sizes, RReach *reach);
AlgExpr *reduce_ps_wait(RCtx *c, const RReach *reach, const Decl *res, AlgExpr *wait,
                        AlgExpr *own);

/* reduce_ps_batch.c */
void reduce_ps_batch(RCtx *c, REnv *env, const RPiece *pieces, int count, Summary *out);
AlgExpr *reduce_ps_drain(RCtx *c, AlgExpr *cap, AlgExpr **sizes, AlgExpr **counts, int n, AlgExpr **order);
/* reduce_fcfs_batch.c */
void reduce_fcfs_batch(RCtx *c, REnv *env, const RPiece *pieces, int count, Summary *out);
/* reduce_fcfs_list.c: the same par's FCFS list evaluated where its sizes are numbers */
void reduce_fcfs_list(RCtx *c, REnv *env, const RPiece *pieces, int count, Summary *out);
/* reduce_fcfs_loop.c: threads that each loop over one use of one FCFS pool, evaluated at the point
** and, for back-to-back uses by C < T <= 1.5 C threads, in closed form */
void reduce_fcfs_loop(RCtx *c, REnv *env, const RPiece *pieces, int count, Summary *out);

/* reduce_count.c: a par's requests of an fcfs resource counted, ceil(N / m) t (any context). */
void reduce_count_par(RCtx *c, const Stmt *s, Summary *out);

/* reduce_split.c */
int reduce_split_loop(RCtx *c, REnv *env, const Stmt *loop, AlgExpr *a, AlgExpr *b,
                      RPiece *pieces);

/* reduce_lock.c */
void reduce_lock_par(RCtx *c, REnv *env, const RPiece *p, Summary *out);
void reduce_lock_guards(RCtx *c, const Decl *entry);
/* reduce_lower.c: rewrites every `hold (r) S` whose body is delays alone as `use(r, S's time)`. */
void reduce_lower_holds(Program *prog);
/* reduce_lower.c: 1 when s is delays alone (delay, skip, blocks and ifs of them), or with uses 1
** delays and uses; depth from 0. */
int reduce_delays_only(const Stmt *s, int uses, int depth);
int reduce_lock_guarded(const RCtx *c, const Decl *res);

/* reduce_order.c */
int reduce_order_par(RCtx *c, REnv *env, const RPiece *p, Summary *out, AlgExpr **exact);
/* 1 when the member index e names distinct members for distinct i in lo..hi (the rule of
** one-to-one member maps, docs/reduction.md). */
int reduce_order_injective_in(RCtx *c, AlgExpr *e, AlgSymbol *i, AlgExpr *lo, AlgExpr *hi);
/* 1 when e names distinct members for distinct i in lo..hi by any of the one-to-one rules (also
** maps read as digits or bits, or decided by evaluation at every point). */
int reduce_order_injective_one(RCtx *c, AlgExpr *e, AlgSymbol *i, AlgExpr *lo, AlgExpr *hi);
/* 1 when e names distinct members for distinct pairs (n, o) in nlo..nhi x olo..ohi (the rule of
** one-to-one maps of two indices, either order, or wrapped by a remainder). */
int reduce_order_injective_two(RCtx *c, AlgExpr *e, AlgSymbol *n, AlgExpr *nlo, AlgExpr *nhi, AlgSymbol *o,
                               AlgExpr *olo, AlgExpr *ohi);

/* reduce_points.c: 1 when e is one-to-one in i over lo..hi by evaluation at every point (numbers
** for lo and hi, loop indices with number bounds for the other symbols, a bounded count). */
int reduce_points_injective(RCtx *c, AlgExpr *e, AlgSymbol *i, AlgExpr *lo, AlgExpr *hi);
/* reduce_points.c: the branches per member of e over i = lo..hi by evaluation at every point (the
** same conditions): at most *most, some member at least *fullest, the first branch's member
** exactly *first (-1: not known); 1 when decided. */
int reduce_points_dealt(RCtx *c, AlgExpr *e, AlgSymbol *i, AlgExpr *lo, AlgExpr *hi, long *most, long *fullest,
                        long *first);

/* reduce_expr.c */
void reduce_fail(RCtx *c, SrcLoc loc, const char *msg);
AlgExpr *reduce_expr(RCtx *c, REnv *env, const Expr *e);

/* reduce_check.c */
void reduce_check(RCtx *c, const REnv *env, ReduceCheckKind kind, AlgExpr *value,
                  const Decl *family, SrcLoc loc, const char *what);
void reduce_env_inherit(REnv *inner, const REnv *outer);
/* The scope of the body of call (an ST_CALL): its arguments reduced in env into args (room for
** REDUCE_MAX_ARGS), env's binders and guard. 0, inner untouched, when it has more arguments. */
int reduce_env_call(RCtx *c, REnv *env, const Stmt *call, AlgExpr **args, REnv *inner);
void reduce_checks_finish(RCtx *c, ReduceResult *out);

/* reduce_member.c */
void reduce_member_close(RCtx *c, RFam *fam, const RTerm *term, AlgSymbol *i, AlgExpr *a, AlgExpr *b);
void reduce_member_visits(RCtx *c, Summary *out, const Summary *body, AlgSymbol *i, AlgExpr *a,
                          AlgExpr *b);
AlgExpr *reduce_member_wait(RCtx *c, const Summary *whole, const Summary *branch, const RFam *fam);

/* reduce_own.c */
void reduce_sites_join(RCtx *c, RFam *into, const RFam *from);
void reduce_sites_term(RCtx *c, RFam *fam, const RTerm *term, AlgSymbol *i, AlgExpr *a, AlgExpr *b);
void reduce_sites_close(RCtx *c, RFam *fam, const RFam *inner, AlgSymbol *i, AlgExpr *a, AlgExpr *b);
AlgExpr *reduce_own_par(RCtx *c, const Summary *body, AlgSymbol *i, AlgExpr *a, AlgExpr *b);
int reduce_own_family(RCtx *c, const Summary *body, const RFam *fam, AlgSymbol *i, AlgExpr *a, AlgExpr *b);
/* reduce_own.c: 1 when every free symbol of e is a param, a const, i or j (NULL: none). */
int reduce_names_only(RCtx *c, AlgExpr *e, AlgSymbol *i, AlgSymbol *j);
int reduce_own_apart(const Summary *branches, int n, int k);
AlgExpr *reduce_own_steps(RCtx *c, const Summary *whole, const Summary *body, AlgSymbol *i, AlgExpr *a, AlgExpr *b);

/* reduce_demand.c */
const RFam *reduce_family_of(const Summary *s, const Decl *res);
AlgExpr *reduce_family_total(RCtx *c, const Summary *s, const Decl *res);
void reduce_sum_init(RCtx *c, Summary *s);
AlgExpr *reduce_mult(RCtx *c, const Decl *res);
void reduce_add_demand(RCtx *c, Summary *s, const Decl *res, AlgExpr *index, AlgExpr *lo,
                       AlgExpr *hi);
void reduce_merge_demands(RCtx *c, Summary *into, const Summary *from);
void reduce_merge_all(RCtx *c, Summary *into, const Summary *parts, int n);
AlgExpr *reduce_load_lo(RCtx *c, const Summary *s);
AlgExpr *reduce_family_load_lo(RCtx *c, const Summary *s, const RFam *fam);
AlgExpr *reduce_wait(RCtx *c, const Summary *whole, const Summary *others, const Summary *branch,
                     AlgSymbol *index, AlgExpr *lower, AlgExpr *upper, const RReach *reach);
int reduce_uses(const Summary *s, const Decl *res);
int reduce_family_alone(RCtx *c, const Summary *branch, const Decl *res, AlgSymbol *i, AlgExpr *a,
                        AlgExpr *b);
AlgExpr *reduce_demand_hi(RCtx *c, const Summary *s, const Decl *res);
void reduce_close_demands(RCtx *c, Summary *out, const Summary *body, AlgSymbol *index,
                          AlgExpr *lower, AlgExpr *upper);
/* How the summaries of two branches combine: piecewise on cond (an `if` on a free param), the
** mix p*x + (1-p)*y (a `choose` when the expected value is asked for), or else the hull: min
** where the value feeds a lower bound, max where it feeds an upper bound. */
typedef struct RPick {
  AlgExpr *cond;          /* the condition of a piecewise combination, or NULL */
  AlgExpr *mix;           /* the probability of the first branch in a mix, or NULL */
} RPick;
AlgExpr *reduce_pick(RCtx *c, const RPick *pick, int upper, AlgExpr *x, AlgExpr *y);
void reduce_combine_demands(RCtx *c, const RPick *pick, const Summary *x, const Summary *y,
                            Summary *out);

#endif
