/*
** ex_par.c — parallel C as the model's parallel constructs. OpenMP (read from the directive's
** tokens): `parallel for` as a par over the threads, each running its static block of the
** iterations on the machine's cores; `parallel` regions as a par whose `for` loops divide their
** iterations; `critical` and `atomic` as uses of a lock resource. pthreads: pthread_create in a
** loop as a par of the thread function. MPI: the rank as a process parameter, messages as the
** calibrated mpi_send_measured, collectives as processes of models/lib/mpi.pam.
*/
#include <stdlib.h>
#include <string.h>

#include "ex_internal.h"

/* ---- threads ---- */

AlgExpr *ex_threads(ExCtx *x) {
  if (x->threads_param) return x->threads_param;
  x->params = ex_grow(x->params, &x->params_cap, x->nparams, sizeof *x->params);
  x->params[x->nparams++] = (ExParam){"threads", "4",
    "the number of threads (OpenMP: OMP_NUM_THREADS, default the CPUs; pthreads: the create "
    "loop's count); the threads' work runs on the machine file's `resource cores`: set it with -D threads=..."};
  AlgAssume a = {1, 1e9, 1};
  x->threads_param = alg_sym(x->alg, alg_symbol_new(x->alg, "threads", ALG_SYM_PARAM, a));
  x->threads_used = 1;
  return x->threads_param;
}

AlgExpr *ex_par_value(ExCtx *x, const char *call) {
  if (!strcmp(call, "omp_get_thread_num")) return x->thread ? alg_sym(x->alg, x->thread) : alg_num_int(x->alg, 0);
  if (!strcmp(call, "omp_get_num_threads")) return x->nthreads ? x->nthreads : alg_num_int(x->alg, 1);
  if (!strcmp(call, "omp_get_max_threads")) return ex_threads(x);
  return NULL;
}

static const char *lock_name(ExCtx *x, const char *name) {
  for (int i = 0; i < x->nlocks; i++)
    if (!strcmp(x->locks[i], name)) return x->locks[i];
  x->locks = ex_grow(x->locks, &x->locks_cap, x->nlocks, sizeof *x->locks);
  x->locks[x->nlocks++] = arena_strdup(&x->arena, name);
  return x->locks[x->nlocks - 1];
}

void ex_on_cores(ExCtx *x, ExBlock *b) {
  for (int i = 0; i < b->count; i++) {
    ExItem *it = &b->items[i];
    if (it->kind == EX_COST) {
      it->kind = EX_USE;
      it->name = "cores";
      x->threads_used = 1;
    } else if (it->kind == EX_CALL || it->kind == EX_SPAWN) {
      ExFunc *f = NULL;
      for (int k = 0; k < x->nfuncs && !f; k++)
        if (!strcmp(x->funcs[k].model_name, it->name)) f = &x->funcs[k];
      if (f && f->pure) {
        char fn[300];
        snprintf(fn, sizeof fn, "cost_%s", f->model_name);
        ex_cost_add_term(x, &it->cost, arena_strdup(&x->arena, fn), it->args, it->nargs, alg_num_int(x->alg, 1));
        it->kind = EX_USE;
        it->name = "cores";
        x->threads_used = 1;
      }
    }
    if (it->kind != EX_PAR) {
      ex_on_cores(x, &it->body);
      ex_on_cores(x, &it->other);
    }
  }
}

/* ---- OpenMP ---- */

/* The text inside `name ( ... )` of the directive's clauses, or NULL. */
static const char *clause(ExCtx *x, const char *text, const char *name) {
  size_t n = strlen(name);
  for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
    if ((p != text && p[-1] != ' ') || strncmp(p + n, " (", 2)) continue;
    const char *b = p + n + 2;
    int depth = 1;
    const char *e = b;
    for (; *e && depth; e++) depth += *e == '(' ? 1 : *e == ')' ? -1 : 0;
    size_t len = (size_t)(e - b);
    if (len > 0) len--;   /* the closing parenthesis */
    while (len && b[len - 1] == ' ') len--;
    while (*b == ' ' && len) b++, len--;
    return arena_strndup(&x->arena, b, len);
  }
  return NULL;
}

static int starts(const char *text, const char *word) {
  size_t n = strlen(word);
  return !strncmp(text, word, n) && (text[n] == '\0' || text[n] == ' ');
}

static AlgExpr *clause_value(ExCtx *x, CXCursor at, ExPragma *p, const char *text) {
  ExPragma tmp = *p;
  tmp.text = text;
  tmp.kind = "omp";
  return ex_pragma_expr(x, at, &tmp);
}

/* Reads `schedule(...)`, `num_threads(...)`, `reduction(...)`. */
static int read_clauses(ExCtx *x, CXCursor s, ExPragma *p, const char *directive, ExOmp *omp) {
  const char *text = p->text;
  const char *sched = clause(x, text, "schedule");
  omp->schedule = 0;
  if (sched) {
    if (starts(sched, "static")) {
      const char *comma = strchr(sched, ',');
      if (comma) {
        omp->schedule = 1;
        omp->chunk = clause_value(x, s, p, comma + 1);
        if (!omp->chunk) return -1;
      }
    } else {
      omp->schedule = 2;
    }
  }
  const char *nt = clause(x, text, "num_threads");
  if (nt) {
    omp->threads = clause_value(x, s, p, nt);
    if (!omp->threads) return -1;
  } else {
    omp->threads = starts(directive, "parallel") || !x->nthreads ? ex_threads(x) : x->nthreads;
  }
  omp->reduction = clause(x, text, "reduction");
  return 0;
}

/* The combine of a reduction: one operation per variable, under the lock of the region. */
static void reduction_item(ExCtx *x, CXCursor s, const char *red, ExBlock *out) {
  const char *colon = strchr(red, ':');
  if (!colon) return;
  char op[8];
  snprintf(op, sizeof op, "%.*s", (int)(colon - red), red);
  char *sp = strchr(op, ' ');
  if (sp) *sp = '\0';
  const char *kind = !strcmp(op, "*") ? "mul" : !strcmp(op, "-") ? "sub" : "add";
  ExItem *it = ex_block_push(x, out, EX_USE, s);
  it->name = lock_name(x, "ex_lock");
  it->note = "reduction: each thread combines its partial result under the lock";
  for (const char *v = colon + 1; *v;) {
    while (*v == ' ' || *v == ',') v++;
    const char *b = v;
    while (*v && *v != ' ' && *v != ',') v++;
    if (v == b) break;
    /* the variable's type: the latest declaration of that name */
    const char *type_const = NULL;
    for (int i = x->nvars - 1; i >= 0 && !type_const; i--) {
      CXString n = clang_getCursorSpelling(x->vars[i].decl);
      if (strlen(clang_getCString(n)) == (size_t)(v - b) && !strncmp(clang_getCString(n), b, (size_t)(v - b)))
        type_const = ex_op_const(x, kind, clang_getCursorType(x->vars[i].decl), 0);
      clang_disposeString(n);
    }
    if (!type_const) type_const = ex_use_const(x, "t_add_double");
    ex_cost_add_term(x, &it->cost, type_const, NULL, 0, alg_num_int(x->alg, 1));
  }
}

int ex_omp_share(ExCtx *x, CXCursor s, const ExOmp *omp, AlgSymbol *index, AlgExpr *first,
                 AlgExpr *trip, ExCost *once, ExCost *per_iter, ExBlock *body, ExBlock *out) {
  AlgCtx *g = x->alg;
  AlgExpr *T = omp->threads, *zero = alg_num_int(g, 0), *one = alg_num_int(g, 1);
  AlgSymbol *t = omp->parallel || !x->thread ? alg_index_new(g, "thread", zero, alg_sub(g, T, one)) : x->thread;
  AlgExpr *ts = alg_sym(g, t);
  /* static blocks: q = floor(trip / T) each, the first r = trip - T q threads one more */
  AlgExpr *q = alg_func(g, ALG_FLOOR, alg_div(g, trip, T));
  AlgExpr *r = alg_sub(g, trip, alg_mul(g, T, q));
  AlgExpr *mine = alg_add(g, q, alg_cond(g, alg_cmp(g, ALG_CMP_LT, ts, r), one, zero));
  AlgExpr *kfirst = first ? alg_add(g, first, alg_add(g, alg_mul(g, ts, q), alg_min(g, ts, r))) : NULL;
  const char *how = "OpenMP static schedule: thread t runs floor(n/T) iterations, the first n mod T threads one more";
  if (omp->schedule == 1) {
    /* chunks of c dealt round-robin: full rounds of c T, then what is left in order */
    AlgExpr *c = omp->chunk, *ct = alg_mul(g, omp->chunk, T);
    AlgExpr *rounds = alg_func(g, ALG_FLOOR, alg_div(g, trip, ct));
    AlgExpr *left = alg_sub(g, alg_sub(g, trip, alg_mul(g, ct, rounds)), alg_mul(g, c, ts));
    mine = alg_add(g, alg_mul(g, c, rounds), alg_min(g, c, alg_max(g, zero, left)));
    how = "OpenMP schedule(static, c): chunks of c iterations dealt to the threads in turn";
  } else if (omp->schedule == 2) {
    how = "OpenMP dynamic or guided schedule, modelled as the static even split";
  }
  ExBlock tb = {NULL, 0, 0};
  if (ex_block_pure(body)) {
    ExCost iter = {NULL, 0, 0}, thr = {NULL, 0, 0};
    ex_cost_add(x, &iter, per_iter, NULL);
    ex_block_cost(x, body, &iter);
    int closed = 1;
    if (index && ex_cost_depends(&iter, index)) {
      closed = omp->schedule != 1 &&
               ex_cost_sum(x, &thr, &iter, index, kfirst, alg_sub(g, alg_add(g, kfirst, mine), one));
      if (!closed) {
        /* the thread's share of the whole sum */
        ExCost all = {NULL, 0, 0};
        closed = ex_cost_sum(x, &all, &iter, index, first, alg_sub(g, alg_add(g, first, trip), one));
        if (closed) ex_cost_add(x, &thr, &all, alg_div(g, mine, trip));
        ex_cost_free(&all);
        how = "OpenMP chunked schedule: each thread's share of the whole (iteration costs differ)";
      }
    } else {
      ex_cost_add(x, &thr, &iter, mine);
    }
    ex_cost_free(&iter);
    if (closed) {
      ex_cost_add(x, &thr, once, NULL);
      ExItem *it = ex_block_push(x, &tb, EX_COST, s);
      it->cost = thr;
      it->note = how;
      ex_block_free(body);
    } else {
      ex_cost_free(&thr);
    }
  }
  if (tb.count == 0) {
    /* a seq loop over the thread's block, its body kept */
    ExItem *it = ex_block_push(x, &tb, EX_COST, s);
    ex_cost_add(x, &it->cost, once, NULL);
    it = ex_block_push(x, &tb, EX_SEQ, s);
    it->note = how;
    if (index && kfirst) {
      it->index = index;
      it->lo = kfirst;
      it->hi = alg_sub(g, alg_add(g, kfirst, mine), one);
    } else {
      it->index = alg_index_new(g, "iter", one, mine);
      it->lo = one;
      it->hi = mine;
    }
    ExItem *cost = ex_block_push(x, &it->body, EX_COST, s);
    ex_cost_add(x, &cost->cost, per_iter, NULL);
    for (int i = 0; i < body->count; i++) {
      it->body.items = ex_grow(it->body.items, &it->body.cap, it->body.count, sizeof *it->body.items);
      it->body.items[it->body.count++] = body->items[i];
    }
    free(body->items);
    *body = (ExBlock){NULL, 0, 0};
  }
  if (omp->reduction) reduction_item(x, s, omp->reduction, &tb);
  ex_on_cores(x, &tb);
  if (omp->parallel || !x->thread) {
    ExItem *it = ex_block_push(x, out, EX_PAR, s);
    it->index = t;
    it->lo = zero;
    it->hi = alg_sub(g, T, one);
    it->body = tb;
    it->note = "OpenMP parallel for: the threads share the iterations";
  } else {
    for (int i = 0; i < tb.count; i++) {
      out->items = ex_grow(out->items, &out->cap, out->count, sizeof *out->items);
      out->items[out->count++] = tb.items[i];
    }
    free(tb.items);
  }
  return 0;
}

/* A statement under `critical` or `atomic`: its cost as a use of lock. */
static int locked(ExCtx *x, CXCursor s, const char *lock, const char *what, ExBlock *out) {
  ExBlock b = {NULL, 0, 0};
  int saved = x->in_critical;
  x->in_critical = 1;
  int status = ex_walk_stmt(x, s, &b);
  x->in_critical = saved;
  if (!status && !ex_block_pure(&b)) {
    ex_error(x, s, "%s: only straight-line code and loops with derived counts are supported under it", what);
    status = -1;
  }
  if (!status) {
    ExItem *it = ex_block_push(x, out, EX_USE, s);
    it->name = lock_name(x, lock);
    it->note = !strcmp(what, "#pragma omp atomic")
                 ? "atomic: one update at a time (the cache line moves between cores)"
                 : "critical section: one thread at a time";
    ex_block_cost(x, &b, &it->cost);
  }
  ex_block_free(&b);
  return status;
}

int ex_walk_omp(ExCtx *x, CXCursor s, ExPragma *p, ExBlock *out) {
  const char *d = p->text;
  enum CXCursorKind k = clang_getCursorKind(s);
  if (starts(d, "parallel for") || starts(d, "for") || starts(d, "parallel for simd") || starts(d, "for simd")) {
    if (k != CXCursor_ForStmt) {
      ex_error(x, s, "#pragma omp %s: expected a for loop after it", d);
      return -1;
    }
    ExOmp omp;
    memset(&omp, 0, sizeof omp);
    omp.parallel = starts(d, "parallel");
    if (!omp.parallel && !x->thread) return ex_walk_for(x, s, out, NULL);   /* orphaned: one thread */
    if (read_clauses(x, s, p, d, &omp)) return -1;
    return ex_walk_for(x, s, out, &omp);
  }
  if (starts(d, "simd")) return ex_walk_stmt(x, s, out);
  if (starts(d, "parallel")) {
    ExOmp omp;
    memset(&omp, 0, sizeof omp);
    if (read_clauses(x, s, p, d, &omp)) return -1;
    AlgCtx *g = x->alg;
    AlgSymbol *saved = x->thread;
    AlgExpr *saved_n = x->nthreads;
    x->thread = alg_index_new(g, "thread", alg_num_int(g, 0), alg_sub(g, omp.threads, alg_num_int(g, 1)));
    x->nthreads = omp.threads;
    ExBlock b = {NULL, 0, 0};
    int status = ex_walk_stmt(x, s, &b);
    if (!status && omp.reduction) reduction_item(x, s, omp.reduction, &b);
    ex_on_cores(x, &b);
    ExItem *it = ex_block_push(x, out, EX_PAR, s);
    it->index = x->thread;
    it->lo = alg_num_int(g, 0);
    it->hi = alg_sub(g, omp.threads, alg_num_int(g, 1));
    it->body = b;
    it->note = "OpenMP parallel region: every thread runs the block; its for loops divide their iterations";
    x->thread = saved;
    x->nthreads = saved_n;
    return status;
  }
  if (starts(d, "critical")) {
    const char *name = clause(x, d, "critical");
    char lock[256];
    snprintf(lock, sizeof lock, "ex_lock%s%s", name ? "_" : "", name ? name : "");
    return locked(x, s, lock, "#pragma omp critical", out);
  }
  if (starts(d, "atomic")) return locked(x, s, "ex_atomic", "#pragma omp atomic", out);
  if (starts(d, "single") || starts(d, "master")) {
    if (!x->thread) return ex_walk_stmt(x, s, out);
    ExItem *it = ex_block_push(x, out, EX_IF, s);
    it->cond = alg_cmp(x->alg, ALG_CMP_EQ, alg_sym(x->alg, x->thread), alg_num_int(x->alg, 0));
    it->note = "OpenMP single/master: thread 0";
    int at = out->count - 1;
    ExBlock b = {NULL, 0, 0};
    int status = ex_walk_stmt(x, s, &b);
    out->items[at].body = b;
    return status;
  }
  if (starts(d, "barrier") || starts(d, "taskwait") || starts(d, "flush")) {
    /* a stand-alone directive: the statement after it is an ordinary one. Threads of a region
    ** that do equal work meet at a barrier at about the same time: it is not modelled. */
    return ex_walk_stmt(x, s, out);
  }
  ex_error(x, s, "#pragma omp %s is not supported by pamc extract (parallel, for, parallel for, "
           "critical, atomic, single, master, barrier are)", d);
  return -1;
}

/* ---- pthreads and MPI ---- */

int ex_is_mpi_name(const char *name) { return !strncmp(name, "MPI_", 4); }

/* The collectives of models/lib/mpi.pam, in the order of the bits of x->mpi_libs. */
const char *const ex_mpi_collectives[] = {"bcast_tree", "reduce_tree", "allreduce_doubling_ring",
                                          "barrier_dissemination", NULL};

static AlgExpr *ranks(ExCtx *x) {
  if (x->nranks) return x->nranks;
  x->params = ex_grow(x->params, &x->params_cap, x->nparams, sizeof *x->params);
  x->params[x->nparams++] = (ExParam){"P", "2", "the number of MPI ranks (mpirun -np P): set it with -D P=..."};
  AlgAssume a = {1, 1e9, 1};
  x->nranks = alg_sym(x->alg, alg_symbol_new(x->alg, "P", ALG_SYM_PARAM, a));
  x->mpi_used = 1;
  return x->nranks;
}

void ex_mpi_bind(ExCtx *x, CXCursor call) {
  CXString s = clang_getCursorSpelling(call);
  int rank = !strcmp(clang_getCString(s), "MPI_Comm_rank");
  clang_disposeString(s);
  int n = 0;
  CXCursor *kids = ex_children(call, &n);
  if (n == 3) {
    CXCursor target = ex_strip(kids[2]);
    int m = 0;
    CXCursor *tk = ex_children(target, &m);
    CXCursor d = m == 1 ? ex_referenced_var(tk[0]) : clang_getNullCursor();
    free(tk);
    if (!clang_Cursor_isNull(d)) {
      ExVar *v = ex_var_add(x, d);
      if (rank) {
        if (!x->rank) {
          AlgAssume a = {0, 1e9, 1};
          x->rank = alg_sym(x->alg, alg_symbol_new(x->alg, "rank", ALG_SYM_PARAM, a));
        }
        v->value = x->rank;
        x->mpi_used = 1;
      } else {
        v->value = ranks(x);
      }
      v->index = 1;   /* fixed for the whole run: its value holds everywhere */
    }
  }
  free(kids);
}

/* Bytes of count elements of an MPI datatype (MPI_DOUBLE, ...): its spelling. */
static AlgExpr *mpi_bytes(ExCtx *x, CXCursor call, CXCursor count, CXCursor type) {
  AlgExpr *n = ex_value(x, count);
  if (!n) n = ex_unknown_param(x, call, "count", "100", "an MPI message's element count not known from the source");
  const char *t = ex_spelled_name(x, type);
  static const struct { const char *name; long size; } sizes[] = {
    {"MPI_CHAR", 1}, {"MPI_BYTE", 1}, {"MPI_SIGNED_CHAR", 1}, {"MPI_UNSIGNED_CHAR", 1},
    {"MPI_SHORT", 2}, {"MPI_INT", 4}, {"MPI_UNSIGNED", 4}, {"MPI_FLOAT", 4}, {"MPI_LONG", 8},
    {"MPI_UNSIGNED_LONG", 8}, {"MPI_LONG_LONG", 8}, {"MPI_DOUBLE", 8}, {"MPI_LONG_DOUBLE", 16},
    {NULL, 0}};
  for (int i = 0; sizes[i].name; i++)
    if (!strcmp(t, sizes[i].name)) return alg_mul(x->alg, n, alg_num_int(x->alg, sizes[i].size));
  ex_error(x, type, "MPI datatype '%s': pamc extract knows the sizes of the predefined scalar types only", t);
  return NULL;
}

static void text_item(ExCtx *x, CXCursor call, ExBlock *out, const char *format, const char *a, AlgExpr *bytes,
                      const char *note) {
  char buf[1024];
  snprintf(buf, sizeof buf, format, a, alg_print(x->alg, bytes, ALG_FMT_TEXT));
  ExItem *it = ex_block_push(x, out, EX_TEXT, call);
  it->name = arena_strdup(&x->arena, buf);
  it->note = note;
}

static int mpi_call(ExCtx *x, CXCursor call, const char *name, CXCursor *k, int n, ExBlock *out) {
  x->mpi_used = 1;
  const char *P = alg_print(x->alg, ranks(x), ALG_FMT_TEXT);
  static const char *const p2p[] = {"MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv", "MPI_Ssend",
                                    "MPI_Rsend", "MPI_Bsend", NULL};
  for (int i = 0; p2p[i]; i++)
    if (!strcmp(name, p2p[i])) {
      if (n < 3) return 0;
      AlgExpr *b = mpi_bytes(x, call, k[1], k[2]);
      if (!b) return -1;
      text_item(x, call, out, "delay(mpi_send_measured(%s%s))", "", b,
                name[4] == 'I' ? "a message (non-blocking: charged where posted, no overlap)"
                               : "a message: the one-way time, on the sender and on the receiver");
      return 1;
    }
  if (!strcmp(name, "MPI_Sendrecv")) {
    if (n < 8) return 0;
    AlgExpr *sb = mpi_bytes(x, call, k[1], k[2]), *rb = sb ? mpi_bytes(x, call, k[6], k[7]) : NULL;
    if (!rb) return -1;
    text_item(x, call, out, "delay(mpi_send_measured(%s%s))", "", alg_max(x->alg, sb, rb),
              "send and receive at once: the two directions overlap");
    return 1;
  }
  struct { const char *c, *lib; int count, type; } colls[] = {
    {"MPI_Bcast", "bcast_tree", 1, 2}, {"MPI_Reduce", "reduce_tree", 2, 3},
    {"MPI_Allreduce", "allreduce_doubling_ring", 2, 3}, {NULL, NULL, 0, 0}};
  for (int i = 0; colls[i].c; i++)
    if (!strcmp(name, colls[i].c)) {
      if (n <= colls[i].type) return 0;
      AlgExpr *b = mpi_bytes(x, call, k[colls[i].count], k[colls[i].type]);
      if (!b) return -1;
      char format[128];
      snprintf(format, sizeof format, "%s(%%s, %%s)", colls[i].lib);
      text_item(x, call, out, format, P, b, "a collective: models/lib/mpi.pam");
      for (int j = 0; ex_mpi_collectives[j]; j++)
        if (!strcmp(ex_mpi_collectives[j], colls[i].lib)) x->mpi_libs |= 1 << j;
      return 1;
    }
  if (!strcmp(name, "MPI_Barrier")) {
    char buf[128];
    snprintf(buf, sizeof buf, "barrier_dissemination(%s)", P);
    ExItem *it = ex_block_push(x, out, EX_TEXT, call);
    it->name = arena_strdup(&x->arena, buf);
    it->note = "a collective: models/lib/mpi.pam";
    x->mpi_libs |= 1 << 3;
    return 1;
  }
  return 0;   /* Init, Finalize, Comm_rank/size, Wait, Wtime: no time of their own here */
}

int ex_par_call(ExCtx *x, CXCursor call, ExBlock *out) {
  CXString s = clang_getCursorSpelling(call);
  char name[128];
  snprintf(name, sizeof name, "%s", clang_getCString(s));
  clang_disposeString(s);
  int n = 0;
  CXCursor *k = ex_children(call, &n);   /* k[0] the callee */
  int status = 0;
  if (ex_is_mpi_name(name)) {
    status = n > 1 ? mpi_call(x, call, name, k + 1, n - 1, out) : 0;
  } else if (!strcmp(name, "pthread_create") && n == 5) {
    CXCursor fn = ex_strip(k[3]);
    if (clang_getCursorKind(fn) == CXCursor_UnaryOperator) {
      int m = 0;
      CXCursor *fk = ex_children(fn, &m);
      if (m == 1) fn = ex_strip(fk[0]);
      free(fk);
    }
    CXCursor d = clang_getCursorReferenced(fn);
    CXString fs = clang_getCursorSpelling(d);
    ExFunc *f = clang_getCursorKind(d) == CXCursor_FunctionDecl ? ex_func_find(x, clang_getCString(fs)) : NULL;
    clang_disposeString(fs);
    if (!f) {
      ex_error(x, call, "pthread_create: the thread function must be a function defined in the files");
      status = -1;
    } else {
      f->called = 1;
      if (f->state == 0) status = ex_walk_function(x, f);
      if (!status) {
        ExItem *it = ex_block_push(x, out, EX_SPAWN, call);
        it->name = f->model_name;
        it->note = "a thread (pthread_create): runs beside the others, joined before what follows the loop";
        status = 1;
      }
    }
  }
  free(k);
  return status < 0 ? -1 : status;
}
