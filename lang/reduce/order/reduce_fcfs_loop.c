/*
** reduce_fcfs_loop.c — a par that runs alone whose branches are threads that each loop over
** [delays; one use of one plain FCFS pool; delays] (T threads on C < T cores): requests made at one
** instant queue in program order, so the low-index threads keep being served first and the
** schedule is longer than the load. Back-to-back uses by C < T <= 1.5 C threads end in closed form;
** any such par whose numbers are points is evaluated request by request (docs/reduction.md,
** "Threads looping on an FCFS pool").
*/
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "eval.h"
#include "reduce_order.h"

/* Requests one par may make for its schedule to be evaluated (beyond: the rule gives up). */
#define LOOP_BUDGET (1L << 20)
/* Largest common denominator of the durations in units of the use (5us beside 10us: 2; 7ns beside
** 10us: 10^4). */
#define LOOP_MAX_DENOM (1L << 20)
/* Largest event time, in those units: distinct times stay apart in the simulator's tie window. */
#define LOOP_MAX_TIME ((int64_t)1 << 40)
/* A duration is read as n / D units when it is within this fraction of it (see the rule). */
#define LOOP_SNAP 0x1p-49
/* Nesting of blocks and calls in a branch the rule reads (beyond: it gives up). */
#define LOOP_MAX_DEPTH 32

/* What one branch does: delays, one loop of count iterations of [delays; one use; delays], delays. */
typedef struct TLoop {
  AlgExpr *head;    /* the delays before the loop */
  AlgExpr *count;   /* the loop's iterations (>= 0; may name the par's index) */
  BShape body;      /* the loop's body: delays a (body.head), use(r, t), delays b (body.tail) */
  AlgExpr *tail;    /* the delays after the loop */
  int loops;        /* loops met */
  int ok;           /* 0 once the branch is not of this shape */
} TLoop;

/* The body of `seq (k = lo, hi) S` or `repeat (n) S` into sh (a seq's index bound to a new
** symbol, of which the body must be free: every iteration the same). */
static void read_loop(RCtx *c, REnv *env, const Stmt *s, TLoop *sh) {
  AlgCtx *g = c->alg;
  AlgExpr *zero = alg_num_int(g, 0), *one = alg_num_int(g, 1);
  if (sh->loops++ || env->depth >= EVAL_MAX_INDICES) { sh->ok = 0; return; }
  if (s->kind == ST_REPEAT) {
    sh->count = alg_max(g, zero, reduce_expr(c, env, s->u.repeat.count));
    reduce_batch_read(c, env, s->u.repeat.body, DISC_FCFS, &sh->body);
  } else {
    AlgExpr *a = reduce_expr(c, env, s->u.loop.lo), *b = reduce_expr(c, env, s->u.loop.hi);
    AlgSymbol *k = reduce_index_new(c, "seq", s->loc, s->u.loop.var.name, a, b);
    sh->count = alg_max(g, zero, alg_add(g, alg_sub(g, b, a), one));
    env->idx[env->depth++] = alg_sym(g, k);
    reduce_batch_read(c, env, s->u.loop.body, DISC_FCFS, &sh->body);
    env->depth--;
    if (sh->body.ok && sh->body.res &&
        (alg_contains(sh->body.head, k) || alg_contains(sh->body.t, k) || alg_contains(sh->body.tail, k)))
      sh->ok = 0;
  }
  if (!sh->body.ok || !sh->body.res) sh->ok = 0;
}

/* Reads s into sh (depth: nesting of blocks and calls): delays, one seq or repeat loop whose body
** is delays, one use of a plain FCFS resource without hand-off and delays (reduce_batch_read),
** delays; a process call is read as its body, an `if` decided as its side. */
static void loop_shape(RCtx *c, REnv *env, const Stmt *s, TLoop *sh, int depth) {
  AlgCtx *g = c->alg;
  if (!sh->ok) return;
  if (depth >= LOOP_MAX_DEPTH) { sh->ok = 0; return; }
  switch (s->kind) {
  case ST_SKIP: return;
  case ST_DELAY: {
    AlgExpr *d = reduce_expr(c, env, s->u.delay.duration);
    if (sh->loops) sh->tail = alg_add(g, sh->tail, d);
    else sh->head = alg_add(g, sh->head, d);
    return;
  }
  case ST_BLOCK:
    for (int i = 0; i < s->u.block.count && sh->ok; i++)
      loop_shape(c, env, s->u.block.items[i], sh, depth + 1);
    return;
  case ST_CALL: {   /* `thread(t)`: the process's body with its arguments bound */
    const Decl *proc = s->u.call.decl;
    AlgExpr *args[REDUCE_MAX_ARGS];
    REnv inner;
    if (!proc || !reduce_env_call(c, env, s, args, &inner)) { sh->ok = 0; return; }
    loop_shape(c, &inner, proc->u.process.body, sh, depth + 1);
    return;
  }
  case ST_IF: {
    AlgExpr *cond = reduce_expr(c, env, s->u.branch.cond);
    if (alg_kind(cond) != ALG_NUM) { sh->ok = 0; return; }
    const Stmt *side = alg_is_num(cond, 0) ? s->u.branch.otherwise : s->u.branch.then;
    if (side) loop_shape(c, env, side, sh, depth + 1);
    return;
  }
  case ST_SEQ: case ST_REPEAT: read_loop(c, env, s, sh); return;
  default: sh->ok = 0; return;
  }
}

/* Rule (back-to-back uses, C < T <= 1.5 C; L and U): the par's T branches each run delays h,
** K iterations of use(r, t), delays e (h, K, t, e free of the index; r a plain FCFS pool of C
** servers without hand-off), the par alone (RCtx.concurrent == 0):
**   T_par = h + (K + ceil(K / 2)) t + e      where C < T <= 1.5 C (K >= 0)
** Argument (G = T - C, F = C - G = 2C - T >= G): every use takes one slot t, so every request is
** made at h + s t for an integer s, and requests made at one instant queue in index order
** (LANGUAGE.md §6) behind those already waiting. Slot 0: threads 0 .. C - 1 start, the G threads
** C .. T - 1 (group B) wait. At its end the C threads ask again; the G waiting ones go first, then
** the first F new ones, 0 .. F - 1, and the G threads F .. C - 1 (group A) wait. At the end of
** slot 1 the waiting A go first, then, in index order, 0 .. F - 1 (F = C - G of them: the pool is
** full) and B waits: slot 2 is slot 0 again. So while threads 0 .. F - 1 run (each slot: slots
** 0 .. K - 1) A is served in the even slots and B in the odd ones. At slot K threads 0 .. F - 1 are
** done; A has had ceil(K / 2) uses and B floor(K / 2), and the 2G <= C threads of A and B (here
** T <= 1.5 C) all run in every later slot: B, with ceil(K / 2) left, ends last, at slot
** K + ceil(K / 2) (K = 0: no use). Every branch runs e after its last use. T = 5, C = 4, K = 4:
** threads 0 1 2 3 | 4 0 1 2 | 3 0 1 2 | 4 0 1 2 | 3 4 | 3 4: 6 slots, where the load says 5. */
static void back_to_back(RCtx *c, const RPiece *p, const TLoop *sh, Summary *out) {
  AlgCtx *g = c->alg;
  AlgSymbol *k = p->index;
  if (!alg_is_num(sh->body.head, 0) || !alg_is_num(sh->body.tail, 0) || alg_contains(sh->count, k) ||
      alg_contains(sh->body.t, k))
    return;
  AlgExpr *zero = alg_num_int(g, 0), *one = alg_num_int(g, 1), *two = alg_num_int(g, 2);
  AlgExpr *T = alg_add(g, alg_sub(g, p->hi, p->lo), one), *C = reduce_mult(c, sh->body.res);
  AlgExpr *holds = alg_and(g, alg_cmp(g, ALG_CMP_LT, C, T),
                           alg_cmp(g, ALG_CMP_LE, alg_mul(g, two, T), alg_mul(g, alg_num_int(g, 3), C)));
  if (!alg_is_nonneg(g, sh->body.t)) holds = alg_and(g, holds, alg_cmp(g, ALG_CMP_GE, sh->body.t, zero));
  AlgExpr *K = sh->count;
  AlgExpr *slots = alg_add(g, K, alg_func(g, ALG_CEIL, alg_div(g, K, two)));
  AlgExpr *end = alg_add_n(g, 3, (AlgExpr *[]){sh->head, alg_mul(g, slots, sh->body.t), sh->tail});
  out->L = alg_max(g, out->L, alg_cond(g, holds, end, zero));
  out->U = alg_cond(g, holds, alg_min(g, out->U, end), out->U);
}

/* x read as n / D: *n where |x D - n| <= LOOP_SNAP n (n >= 1) or x is exactly 0; 0 otherwise. */
static int snap(AlgInterval x, long D, int64_t *n) {
  if (x.lo == 0 && x.hi == 0) { *n = 0; return 1; }
  double v = (x.lo + x.hi) / 2 * (double)D, r = nearbyint(v);
  if (!(r >= 1) || r > (double)LOOP_MAX_TIME || x.hi - x.lo > LOOP_SNAP * fabs(v) / (double)D) return 0;
  *n = (int64_t)r;
  return fabs(v - r) <= LOOP_SNAP * r;
}

/* The least q <= LOOP_MAX_DENOM for which x q is an integer within LOOP_SNAP of it (x >= 0; a
** convergent of x's continued fraction: a fraction p / q that x is read as is one of them), or 0. */
static long denominator_of(double x) {
  long q0 = 1, q1 = 0;   /* the denominators of the last two convergents */
  double r = x;
  for (int i = 0; i < 64; i++) {
    double a = floor(r);
    if (a > (double)LOOP_MAX_DENOM) return 0;
    long q = (long)a * q1 + q0;
    if (q > LOOP_MAX_DENOM) return 0;
    double v = x * (double)q, n = nearbyint(v);
    if (q >= 1 && fabs(v - n) <= LOOP_SNAP * (n > 1 ? n : 1)) return q;
    if (r - a == 0) return 0;
    r = 1 / (r - a);
    q0 = q1; q1 = q;
  }
  return 0;
}

/* The durations x[0 .. n - 1] (in units of the use) as integers in units of 1 / D, D the least
** common denominator of theirs (denominator_of; at most LOOP_MAX_DENOM) that reads them all
** (snap); *exact 1 where every x is n / D exactly. Returns D, 0 when there is none. */
static long common_denominator(const AlgInterval *x, int n, int64_t *units, int *exact) {
  long D = 1;
  for (int i = 0; i < n; i++) {
    long q = x[i].lo == 0 && x[i].hi == 0 ? 1 : denominator_of((x[i].lo + x[i].hi) / 2);
    if (q < 1 || D / alg_gcd_long(D, q) > LOOP_MAX_DENOM / q) return 0;
    D = D / alg_gcd_long(D, q) * q;
  }
  *exact = 1;
  for (int i = 0; i < n; i++) {
    if (!snap(x[i], D, &units[i])) return 0;
    *exact &= x[i].lo == x[i].hi && x[i].lo * (double)D == (double)units[i];
  }
  return D;
}

/* A request: the time it is made and its thread (the par's index, less its first). */
typedef struct LReq {
  int64_t time;
  long thread;
} LReq;

static int req_before(LReq a, LReq b) { return a.time < b.time || (a.time == b.time && a.thread < b.thread); }

/* Pops the first request of the min-heap h[0 .. *n - 1] (ordered by req_before). */
static LReq req_pop(LReq *h, long *n) {
  LReq top = h[0], last = h[--*n];
  long i = 0;
  for (;;) {
    long l = 2 * i + 1, s = l;
    if (l >= *n) break;
    if (l + 1 < *n && req_before(h[l + 1], h[l])) s = l + 1;
    if (!req_before(h[s], last)) break;
    h[i] = h[s];
    i = s;
  }
  if (*n > 0) h[i] = last;
  return top;
}

static void req_push(LReq *h, long *n, LReq r) {
  long i = (*n)++;
  while (i > 0 && req_before(r, h[(i - 1) / 2])) { h[i] = h[(i - 1) / 2]; i = (i - 1) / 2; }
  h[i] = r;
}

/* Restores the min-heap order of f[0 .. n - 1] below its root. */
static void free_sift(int64_t *f, long n) {
  for (long i = 0;;) {
    long l = 2 * i + 1, r = l + 1, s = i;
    if (l < n && f[l] < f[s]) s = l;
    if (r < n && f[r] < f[s]) s = r;
    if (s == i) return;
    int64_t t = f[i]; f[i] = f[s]; f[s] = t;
    i = s;
  }
}

/* The makespan of T threads, thread j running h, K[j] iterations of [a; use(pool, t); b], e, on a
** pool of m free FCFS servers (durations in integer units, t >= 1): requests are taken in the
** order (time made, thread) and each starts when it is made or when the earliest server frees,
** whichever is later. -1 when out of memory or a time passes LOOP_MAX_TIME. */
static int64_t schedule(const long *K, long T, long m, const int64_t *u) {
  int64_t h = u[0], a = u[1], t = u[2], b = u[3], e = u[4], end = h + e;
  long s = m < T ? m : T, nreq = 0;
  LReq *req = malloc((size_t)(T > 0 ? T : 1) * sizeof *req);
  int64_t *fr = calloc((size_t)(s > 0 ? s : 1), sizeof *fr);
  long *left = malloc((size_t)(T > 0 ? T : 1) * sizeof *left);
  if (!req || !fr || !left) end = -1;
  for (long j = 0; j < T && end >= 0; j++) {
    left[j] = K[j];
    if (K[j] > 0) req_push(req, &nreq, (LReq){h + a, j});
  }
  while (nreq > 0 && end >= 0) {
    LReq r = req_pop(req, &nreq);
    int64_t start = r.time > fr[0] ? r.time : fr[0], done = start + t;
    fr[0] = done;   /* the earliest free server takes the request */
    free_sift(fr, s);
    if (done + b + (a > e ? a : e) > LOOP_MAX_TIME) end = -1;
    else if (--left[r.thread] > 0) req_push(req, &nreq, (LReq){done + b + a, r.thread});
    else if (done + b + e > end) end = done + b + e;
  }
  free(req); free(fr); free(left);
  return end;
}

/* The iterations of each thread, K(k) for k = lo .. lo + T - 1 (count's only symbol k,
** reduce_eval_range): integers >= 0 whose sum is at most LOOP_BUDGET; 0 otherwise. */
static int read_counts(RCtx *c, AlgExpr *count, AlgSymbol *k, long lo, long T, long *K) {
  double *buf = malloc((size_t)T * 2 * sizeof *buf), total = 0;
  int ok = buf && reduce_eval_range(c, count, k, lo, T, buf, buf + T);
  for (long j = 0; j < T && ok; j++) {
    double v = buf[j], w = buf[T + j];
    ok = v == w && floor(v) == v && v >= 0 && (total += v) <= LOOP_BUDGET;
    K[j] = ok ? (long)v : 0;
  }
  free(buf);
  return ok;
}

/* A number's enclosure: e must name no symbol. */
static int point_of(AlgCtx *g, AlgExpr *e, AlgInterval *v) {
  AlgSymbol *syms[1];
  if (!e || alg_free_symbols(g, e, syms, 1) != 0) return 0;
  *v = alg_bounds(g, e);
  return isfinite(v->lo) && isfinite(v->hi) && v->lo >= 0;
}

/* Rule (threads looping on an FCFS pool, evaluated at the point; L and U): the par's branches
** k = lo .. lo + T - 1 each run delays h, K(k) iterations of [delays a; use(r, t); delays b],
** delays e (h, a, t, b, e free of k; r a plain FCFS pool of m servers without hand-off), the par
** alone (RCtx.concurrent == 0: r is free when it starts and nothing else asks for it). Where T, m
** and every K(k) are numbers once the params are read at their values (reduce_at_values; at most
** LOOP_BUDGET requests), and h, a, b, e are n / D times t (D <= 2^20, n integers, t > 0
** kept as a symbol): FCFS takes the requests in the order they are made, those of one instant in
** index order (LANGUAGE.md §6: a server freed at an instant goes to the first waiting request,
** which includes the same instant's requests of threads before), each starting when the earliest
** server frees; a thread's next request follows its use's end by b + a. Evaluated in integer
** units of t / D (schedule), the last branch ends at N:
**   T_par = N t / D   (times (1 -+ 2^-45) unless every duration is n t / D exactly)
** The simulator's times are exact sums of the durations, and instants within 2^-46 of each other
** are one: each duration is n t / D within 2^-49 of it, so an event's time is N t / D within
** 2^-48 (a sum of positive terms), equal N are one instant there and distinct N <= 2^40 are not:
** the schedule evaluated here is the simulator's. */
static void at_point(RCtx *c, const RPiece *p, const TLoop *sh, Summary *out) {
  AlgCtx *g = c->alg;
  AlgExpr *holds = alg_num_int(g, 1), *u = sh->body.t;
  AlgExpr *lo_e = reduce_at_values(c, p->lo, &holds), *hi_e = reduce_at_values(c, p->hi, &holds);
  AlgExpr *m_e = reduce_at_values(c, reduce_mult(c, sh->body.res), &holds);
  int ok = lo_e && hi_e && m_e;
  long lo = ok ? alg_num_long(lo_e, &ok) : 0, hi = ok ? alg_num_long(hi_e, &ok) : 0;
  long m = ok ? alg_num_long(m_e, &ok) : 0, T = hi - lo + 1;
  if (!ok || m < 1 || T < 1 || T > LOOP_BUDGET || alg_contains(u, p->index) || alg_is_num(u, 0)) return;
  AlgExpr *d[5] = {sh->head, sh->body.head, u, sh->body.tail, sh->tail};
  AlgInterval x[5];
  for (int i = 0; i < 5 && ok; i++)
    ok = !alg_contains(d[i], p->index) &&
         point_of(g, reduce_at_values(c, alg_div(g, d[i], u), &holds), &x[i]);
  AlgInterval tv;
  ok = ok && point_of(g, reduce_at_values(c, u, &holds), &tv) && tv.lo > 0;   /* t > 0 */
  AlgExpr *count = ok ? reduce_at_values(c, sh->count, &holds) : NULL;
  long *K = count ? malloc((size_t)T * sizeof *K) : NULL;
  int64_t units[5], end = -1;
  int exact = 0;
  long D = K && read_counts(c, count, p->index, lo, T, K) ? common_denominator(x, 5, units, &exact) : 0;
  if (D > 0 && units[2] >= 1) end = schedule(K, T, m, units);
  free(K);
  if (end < 0) return;
  double slack = exact ? 0 : 0x1p-45, N = (double)end / (double)D;
  AlgExpr *lo_b = alg_mul(g, alg_num_double(g, N * (1 - slack)), u);
  AlgExpr *hi_b = alg_mul(g, alg_num_double(g, N * (1 + slack)), u);
  out->L = alg_max(g, out->L, alg_cond(g, holds, lo_b, alg_num_int(g, 0)));
  out->U = alg_cond(g, holds, alg_min(g, out->U, hi_b), out->U);
}

/* Rules (threads looping on an FCFS pool): one piece k = lo .. hi (no residue classes) whose
** branches each run delays h, one loop of [delays a; use(r, t); delays b] and delays e, h, a, t, b
** and e free of k, the par alone: back_to_back (closed form) and at_point (evaluated). */
void reduce_fcfs_loop(RCtx *c, REnv *env, const RPiece *pieces, int count, Summary *out) {
  AlgCtx *g = c->alg;
  const RPiece *p = &pieces[0];
  if (c->concurrent || count != 1 || env->depth >= EVAL_MAX_INDICES || p->value != alg_sym(g, p->index))
    return;
  TLoop sh = {alg_num_int(g, 0), NULL, {NULL, NULL, NULL, NULL, 1, DISC_FCFS}, alg_num_int(g, 0), 0, 1};
  int checks = c->checks.count;   /* the expressions are read again: their checks are made */
  env->idx[env->depth++] = p->value;
  loop_shape(c, env, p->stmt, &sh, 0);
  env->depth--;
  c->checks.count = checks;
  if (!sh.ok || sh.loops != 1 || alg_contains(sh.head, p->index) || alg_contains(sh.tail, p->index) ||
      alg_contains(sh.body.head, p->index) || alg_contains(sh.body.tail, p->index))
    return;
  back_to_back(c, p, &sh, out);
  at_point(c, p, &sh, out);
}
