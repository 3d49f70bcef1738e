/*
** sim_internal.h — what the parts of the simulator share: the compiled form of one run's program
** (processes, statements and point-valued expressions with every param and const folded to its
** value in the run's scenario), the random generator, and the entry points of sim_compile.c,
** sim_eval.c and sim_engine.c.
*/
#ifndef PAMC_SIM_INTERNAL_H
#define PAMC_SIM_INTERNAL_H

#include <math.h>
#include <stdint.h>

#include "arena.h"
#include "ast.h"
#include "sim.h"

/* ------------------------------------------------------------------ random numbers */

/* xoshiro256** seeded through splitmix64: small, fast, good enough for draws of a simulation. */
typedef struct SimRng {
  uint64_t s[4];            /* generator state, never all zero */
} SimRng;

void sim_rng_seed(SimRng *rng, uint64_t seed);
uint64_t sim_rng_next(SimRng *rng);
/* Uniform in [0, 1) with 53 random bits. */
double sim_rng_unit(SimRng *rng);

/* ------------------------------------------------------------------ simulated time */

/* Simulated time is a double-double: the exact value is hi + lo, with hi the double nearest to it.
** Adding a duration is exact (a two-sum), so a chain of activities ends at the exact sum of their
** durations, and the time printed is that sum rounded once (64 x 3us gives 0.000192, the bounds'
** value, not 0.0001919999999999999). */
typedef struct SimTime {
  double hi;                /* the time rounded to a double */
  double lo;                /* what rounding left out: hi + lo is the exact sum */
} SimTime;

/* Two times are the same instant when they differ by at most this fraction of the larger: durations
** that are equal in exact decimal arithmetic (5us + 2us and 3us + 4us) differ after conversion to
** binary by a few units in the 53rd bit, far below this window (2^-46, about 1.4e-14), and a model
** whose times differ by less than it would be resolving femtoseconds in seconds. Events of one
** instant are handled in program order (LANGUAGE.md §6, docs/language.md: ties). */
#define SIM_TIE_REL 0x1p-46

/* t + d exactly (as long as the exponents are within 106 bits of each other). */
static inline SimTime sim_time_add(SimTime t, double d) {
  double s = t.hi + d;
  double v = s - t.hi;
  double err = (t.hi - (s - v)) + (d - v) + t.lo;
  SimTime out;
  out.hi = s + err;
  out.lo = err - (out.hi - s);
  if (out.lo != out.lo) out.lo = 0;   /* an infinite time keeps hi = inf */
  return out;
}

/* a - b rounded to a double. */
static inline double sim_time_diff(SimTime a, SimTime b) {
  return (a.hi - b.hi) + (a.lo - b.lo);
}

/* -1 when a is before b, 1 when after, 0 when they are the same instant (see SIM_TIE_REL). Times
** are >= 0, so the larger is the later one, and lo (below 2^-53 of hi) is far inside the window:
** the event heap's comparison costs one subtraction, one multiplication and two tests. */
static inline int sim_time_order(SimTime a, SimTime b) {
  double d = a.hi - b.hi;
  if (d < 0) return -d > SIM_TIE_REL * b.hi || b.hi == INFINITY ? -1 : 0;
  if (d > 0) return d > SIM_TIE_REL * a.hi || a.hi == INFINITY ? 1 : 0;
  return 0;
}

/* ------------------------------------------------------------------ compiled expressions */

/* A function call nests at most this many values (arguments + binder indices) on the C stack:
** eval.h's limits on arguments and index nesting. */
#define SIM_MAX_FN_VALUES 96
/* fn calls nest at most this deep at evaluation (recursion is rejected by the checker). */
#define SIM_MAX_CALL_DEPTH 64

typedef enum SimExprKind {
  SX_NUM,       /* value */
  SX_VAR,       /* vals[slot]: an argument or a loop index of the frame */
  SX_NEG,       /* -a */
  SX_NOT,       /* not a */
  SX_BINARY,    /* a op b (arithmetic and comparisons) */
  SX_AND,       /* a and b, short-circuit */
  SX_OR,        /* a or b, short-circuit */
  SX_COND,      /* a ? b : c */
  SX_MINMAX,    /* min/max of kids (op: 0 min, 1 max) */
  SX_MATH,      /* builtin(a): ceil floor abs sqrt log log2 exp */
  SX_CALL,      /* fn(kids) */
  SX_BIND,      /* sum/prod/min/max (i = a, b, c), index in vals[slot] */
  SX_LITERAL,   /* interval literal [a, b] whose ends are not known at compile time: lo + u (hi - lo) */
  SX_TAKEAPART, /* lo/hi/mid/width of an argument that depends on indices: interval evaluation */
  SX_FAIL       /* evaluating this is an error (a const with no value, ...): message */
} SimExprKind;

struct SimFn;

typedef struct SimExpr {
  SimExprKind kind;         /* what the node computes */
  int op;                   /* SX_BINARY: Op; SX_MINMAX: 0/1; SX_MATH, SX_TAKEAPART: EvalBuiltin;
                               SX_BIND: EvalBuiltin of sum/prod/min/max */
  int slot;                 /* SX_VAR, SX_BIND: index into the frame's values;
                               SX_TAKEAPART: number of arguments of the frame */
  int count;                /* SX_MINMAX, SX_CALL: length of kids; SX_TAKEAPART: index depth */
  double value;             /* SX_NUM: the value; SX_LITERAL: the fraction u */
  struct SimExpr *a, *b, *c;/* operands */
  struct SimExpr **kids;    /* SX_MINMAX, SX_CALL arguments */
  const struct SimFn *fn;   /* SX_CALL */
  const char *message;      /* SX_FAIL: what is wrong */
  SrcLoc loc;               /* SX_FAIL: where it is wrong */
  const Expr *src;          /* the source expression (locations, SX_TAKEAPART's argument) */
} SimExpr;

typedef struct SimFn {
  const Decl *decl;         /* the fn */
  SimExpr *body;            /* compiled body; values [args..., binder indices...] */
  int value_count;          /* arguments + deepest binder nesting */
} SimFn;

/* Evaluation state: errors and the run's fractions for SX_LITERAL. */
typedef struct SimEval {
  int call_depth;           /* fn nesting */
  SimError *err;            /* filled on failure */
} SimEval;

/* Evaluates x with the frame values vals. 0 ok (*out set), -1 error (ev->err filled). */
int sim_eval(SimEval *ev, const SimExpr *x, double *vals, double *out);

/* ------------------------------------------------------------------ compiled statements */

typedef enum SimStmtKind {
  SS_SKIP, SS_DELAY, SS_USE, SS_CALL, SS_BLOCK, SS_PARALLEL, SS_SEQ, SS_PAR, SS_REPEAT, SS_IF,
  SS_CHOOSE, SS_HOLD
} SimStmtKind;

struct SimProc;
struct SimRes;

typedef struct SimStmt {
  SimStmtKind kind;         /* as StmtKind */
  int count;                /* SS_BLOCK, SS_PARALLEL: items; SS_CALL: args */
  int slot;                 /* SS_SEQ, SS_PAR: frame value of the loop index */
  SimExpr *a;               /* duration (delay, use), lo (seq, par), count (repeat), condition or
                               probability (if, choose) */
  SimExpr *b;               /* hi (seq, par) */
  SimExpr *index;           /* SS_USE, SS_HOLD on a family member: the index */
  struct SimStmt **items;   /* SS_BLOCK, SS_PARALLEL */
  struct SimStmt *body;     /* loops, SS_HOLD; SS_IF/SS_CHOOSE: then */
  struct SimStmt *otherwise;/* SS_IF/SS_CHOOSE else, may be NULL */
  SimExpr **args;           /* SS_CALL */
  struct SimProc *proc;     /* SS_CALL */
  struct SimRes *res;       /* SS_USE, SS_HOLD */
  const Stmt *src;          /* source statement (locations) */
} SimStmt;

typedef struct SimProc {
  const Decl *decl;         /* the process */
  SimStmt *body;            /* compiled body */
  int arg_count;            /* parameters */
  int value_count;          /* parameters + deepest index nesting (loops and binders) */
} SimProc;

/* One member of a resource: a server group with its FCFS queue, or a ps(c) processor shared by
** the requests present (sim_ps.c). */
struct SimThread;
typedef struct SimMember {
  int64_t index;            /* member index (key of the family's table); -1: empty slot */
  int64_t busy;             /* servers in use */
  struct SimThread *head;   /* first waiting request */
  struct SimThread *tail;   /* last waiting request */
  double busy_time;         /* server-seconds served */
  struct SimPs *ps;         /* ps: the shared processor (sim_ps.c), made at its first request */
} SimMember;

typedef struct SimRes {
  const Decl *decl;         /* the resource declaration */
  int family;               /* 1: r[n] */
  int64_t size;             /* members (1 for a plain resource) */
  int64_t servers;          /* multiplicity of each member (fcfs) */
  int ps;                   /* 1: ps(c), processor sharing (LANGUAGE.md §8) */
  double capacity;          /* ps: c; fcfs: servers (utilisation's denominator) */
  double handoff;           /* fcfs: seconds before a waiting request starts on a released server */
  int order;                /* position in the run's resource list */
  /* run state (sim_engine.c) */
  SimMember single;         /* the member of a plain resource */
  SimMember *table;         /* family members, open addressing by index (allocated lazily) */
  int64_t table_size;       /* slots of table (power of two) */
  int64_t table_used;       /* members in table */
  double waiting;           /* total queueing time */
  double busy_time;         /* server-seconds over all members */
  double requests;          /* requests served */
  double busiest;           /* after the run: busy_time of the busiest member */
  int64_t members_used;     /* after the run: members that served a request */
} SimRes;

/* One run's compiled program. */
typedef struct SimProgram {
  Arena arena;              /* everything below */
  SimProc *entry;           /* the entry process */
  SimRes **resources;       /* resources reached, in order of compilation */
  int resource_count;       /* length of resources */
  int resource_cap;         /* capacity of resources */
} SimProgram;

/* Compiles entry for one run: fractions of interval literals from scenario (rng for random).
** 0 ok, -1 with err filled. Free with sim_program_free in either case. */
int sim_compile(SimProgram *program, const Decl *entry, SimScenario scenario, SimRng *rng,
                SimError *err);
void sim_program_free(SimProgram *program);

/* ------------------------------------------------------------------ the engine */

typedef struct SimRunResult {
  double makespan;          /* end of the entry process */
  uint64_t events;          /* events handled */
} SimRunResult;

/* Runs program once (resource statistics left in program->resources). 0 ok, -1 with err. */
int sim_engine_run(SimProgram *program, SimRng *rng, const SimOptions *opts, int run_index,
                   SimRunResult *result, SimError *err);

/* Fills err: location and printf-style message. Returns -1. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
int sim_fail(SimError *err, SrcLoc loc, const char *format, ...);

#endif
