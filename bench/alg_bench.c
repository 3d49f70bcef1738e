/*
** alg_bench.c — `make bench` for the algebra's numeric side: tape evaluations per second on
** formulas of about 10, 100 and 1000 nodes against the same formulas printed as C (print_c.h),
** compiled with `cc -O2` into a shared object and loaded in this process, measured in one run
** on the same points; and the time of a batch of 10^6 points of a 50-node formula.
*/
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "expr.h"
#include "print_c.h"
#include "tape.h"

#define BENCH_BATCH 4096        /* points per timed call */
#define BENCH_MIN_SECONDS 0.3   /* each rate is measured over at least this long */
#define BENCH_BIG_BATCH 1000000 /* points of the one-batch timing */
#define BENCH_MAX_INPUTS 4      /* P, N, t, u */

typedef void (*BatchFn)(size_t, const double *const *, const double *const *, double *, double *);

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static unsigned long long rng_state = 0x853c49e6748fea9bULL;
static unsigned long long rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* Distinct nodes reachable from e. */
static size_t count_nodes(AlgCtx *ctx, const AlgExpr *e, unsigned char *seen) {
  if (seen[alg_id(e)]) return 0;
  seen[alg_id(e)] = 1;
  size_t n = 1;
  for (size_t i = 0; i < alg_nkids(e); i++) n += count_nodes(ctx, alg_kid(e, i), seen);
  return n;
}
static size_t node_count(AlgCtx *ctx, const AlgExpr *e) {
  unsigned char *seen = calloc(alg_ctx_node_count(ctx), 1);
  size_t n = count_nodes(ctx, e, seen);
  free(seen);
  return n;
}

/* A performance-model-like formula of about target nodes: sums, products, quotients and maxima
   of the symbols and constants, grown until it is large enough. */
static AlgExpr *make_formula(AlgCtx *ctx, AlgExpr **syms, size_t target, size_t *nodes) {
  AlgExpr *pool[4096];
  size_t npool = 0;
  for (int i = 0; i < BENCH_MAX_INPUTS; i++) pool[npool++] = syms[i];
  AlgExpr *e = syms[0];
  for (;;) {
    AlgExpr *a = pool[rng() % npool], *b = pool[rng() % npool];
    AlgExpr *k = alg_num_frac(ctx, (long)(rng() % 97) + 1, (long)(rng() % 13) + 1);
    AlgExpr *n;
    switch (rng() % 7) {
    case 0: n = alg_add(ctx, e, alg_mul(ctx, k, a)); break;
    case 1: n = alg_mul(ctx, e, alg_add(ctx, a, k)); break;
    case 2: n = alg_div(ctx, e, alg_add(ctx, b, k)); break;
    case 3: n = alg_max(ctx, e, alg_mul(ctx, a, b)); break;
    case 4: n = alg_add(ctx, e, alg_func(ctx, ALG_SQRT, alg_add(ctx, a, k))); break;
    case 5: n = alg_add(ctx, alg_mul(ctx, e, a), b); break;
    default: n = alg_min(ctx, alg_add(ctx, e, k), alg_mul(ctx, b, a)); break;   /* e used once: the
      simplifier's bounds walk trees, so sharing e would make building exponential */
    }
    size_t c = node_count(ctx, n);
    if (c > target + target / 10 + 3) continue;   /* overshoot: try another step */
    e = n;
    if (npool < 4096) pool[npool++] = n;
    if (c >= target) {
      *nodes = c;
      return e;
    }
  }
}

/* Prints e as C into dir, compiles a shared object, loads NAME_batch. */
static BatchFn compile_c(AlgCtx *ctx, AlgExpr *e, const char *dir, const char *name, void **handle) {
  char src[256], so[256], cmd[700], err[200];
  snprintf(src, sizeof src, "%s/%s.c", dir, name);
  snprintf(so, sizeof so, "%s/%s.so", dir, name);
  FILE *f = fopen(src, "w");
  if (!f) return NULL;
  int status = alg_print_c(f, ctx, e, name, err, sizeof err);
  fclose(f);
  if (status != 0) {
    fprintf(stderr, "alg_bench: %s\n", err);
    return NULL;
  }
  snprintf(cmd, sizeof cmd, "cc -std=c11 -O2 -shared -fPIC -o %s %s -lm", so, src);
  if (system(cmd) != 0) return NULL;
  *handle = dlopen(so, RTLD_NOW);
  if (!*handle) return NULL;
  char sym[128];
  snprintf(sym, sizeof sym, "%s_batch", name);
  BatchFn fn;
  void *p = dlsym(*handle, sym);
  memcpy(&fn, &p, sizeof fn);
  remove(src);
  remove(so);
  return fn;
}

typedef struct Inputs {
  double *lo[BENCH_MAX_INPUTS];   /* per input, per point */
  double *hi[BENCH_MAX_INPUTS];
  size_t n;                       /* points */
} Inputs;

static void make_inputs(Inputs *in, size_t n) {
  in->n = n;
  for (int i = 0; i < BENCH_MAX_INPUTS; i++) {
    in->lo[i] = malloc(n * sizeof(double));
    in->hi[i] = malloc(n * sizeof(double));
    for (size_t k = 0; k < n; k++) {
      double v = i == 0 ? (double)(rng() % 64 + 1) : i == 1 ? (double)(rng() % 1000000 + 1)
                                                            : 1e-6 * (double)(rng() % 1000 + 1);
      in->lo[i][k] = v;
      in->hi[i][k] = i >= 2 ? v * 1.001 : v;   /* constants carry a measured range */
    }
  }
}
static void free_inputs(Inputs *in) {
  for (int i = 0; i < BENCH_MAX_INPUTS; i++) {
    free(in->lo[i]);
    free(in->hi[i]);
  }
}

/* The tape's inputs are the formula's free symbols; map them to our input arrays by name. */
static void tape_inputs(const AlgTape *t, const Inputs *in, const double **lo, const double **hi) {
  static const char *names[BENCH_MAX_INPUTS] = {"P", "N", "t", "u"};
  for (size_t i = 0; i < alg_tape_ninputs(t); i++)
    for (int j = 0; j < BENCH_MAX_INPUTS; j++)
      if (strcmp(alg_symbol_name(alg_tape_input(t, i)), names[j]) == 0) {
        lo[i] = in->lo[j];
        hi[i] = in->hi[j];
      }
}

/* Points per second of fn (tape when t != NULL), repeated over the batch for a while. */
static double rate(const AlgTape *t, BatchFn fn, const double **lo, const double **hi, size_t n,
                   double *olo, double *ohi) {
  size_t done = 0;
  double start = now(), elapsed;
  do {
    if (t) alg_tape_eval(t, n, lo, hi, olo, ohi);
    else fn(n, lo, hi, olo, ohi);
    done += n;
    elapsed = now() - start;
  } while (elapsed < BENCH_MIN_SECONDS);
  return (double)done / elapsed;
}

int main(void) {
  AlgCtx *ctx = alg_ctx_new();
  AlgAssume time_like = alg_assume_default(ALG_SYM_CONST);
  AlgSymbol *s[BENCH_MAX_INPUTS] = {
    alg_symbol_new(ctx, "P", ALG_SYM_PARAM, (AlgAssume){1, 4096, 1}),
    alg_symbol_new(ctx, "N", ALG_SYM_PARAM, (AlgAssume){1, INFINITY, 1}),
    alg_symbol_new(ctx, "t", ALG_SYM_CONST, time_like),
    alg_symbol_new(ctx, "u", ALG_SYM_CONST, time_like)};
  AlgExpr *syms[BENCH_MAX_INPUTS];
  for (int i = 0; i < BENCH_MAX_INPUTS; i++) syms[i] = alg_sym(ctx, s[i]);
  char dir[] = "/tmp/pamc_alg_bench.XXXXXX";
  if (!mkdtemp(dir)) return 1;
  int have_cc = system("cc --version > /dev/null 2>&1") == 0;
  Inputs in;
  make_inputs(&in, BENCH_BIG_BATCH);
  double *olo = malloc(BENCH_BIG_BATCH * sizeof(double)), *ohi = malloc(BENCH_BIG_BATCH * sizeof(double));
  double *clo = malloc(BENCH_BIG_BATCH * sizeof(double)), *chi = malloc(BENCH_BIG_BATCH * sizeof(double));
  const double *lo[BENCH_MAX_INPUTS], *hi[BENCH_MAX_INPUTS];
  const double *cl[BENCH_MAX_INPUTS], *ch[BENCH_MAX_INPUTS];
  printf("alg_bench: interval evaluation, batches of %d points, one core\n", BENCH_BATCH);
  printf("%8s %8s %18s %18s %12s %10s\n", "nodes", "insns", "tape (points/s)", "cc -O2 (points/s)",
         "C/tape", "agree");
  size_t sizes[] = {10, 100, 1000, 50};
  int status = 0;
  for (int si = 0; si < 4; si++) {
    size_t nodes = 0;
    AlgExpr *e = make_formula(ctx, syms, sizes[si], &nodes);
    AlgTape *t = NULL;
    char err[200];
    if (alg_tape_compile(ctx, e, &t, err, sizeof err) != 0) {
      fprintf(stderr, "alg_bench: %s\n", err);
      return 1;
    }
    tape_inputs(t, &in, lo, hi);
    /* the C function takes the same inputs in the same order (free symbols by id) */
    for (size_t i = 0; i < alg_tape_ninputs(t); i++) {
      cl[i] = lo[i];
      ch[i] = hi[i];
    }
    void *handle = NULL;
    char name[32];
    snprintf(name, sizeof name, "f%zu", nodes);
    BatchFn fn = have_cc ? compile_c(ctx, e, dir, name, &handle) : NULL;
    if (si < 3) {
      double tr = rate(t, NULL, lo, hi, BENCH_BATCH, olo, ohi);
      double cr = fn ? rate(NULL, fn, cl, ch, BENCH_BATCH, clo, chi) : 0;
      int agree = fn ? memcmp(olo, clo, BENCH_BATCH * sizeof *olo) == 0 &&
                       memcmp(ohi, chi, BENCH_BATCH * sizeof *ohi) == 0 : 0;
      printf("%8zu %8zu %18.3e %18.3e %11.2fx %10s\n", nodes, alg_tape_length(t), tr, cr,
             fn ? cr / tr : 0.0, fn ? (agree ? "bitwise" : "NO") : "no cc");
      if (fn && !agree) status = 1;
    } else {
      double t0 = now();
      alg_tape_eval(t, BENCH_BIG_BATCH, lo, hi, olo, ohi);
      double tape_s = now() - t0;
      double c_s = 0;
      if (fn) {
        t0 = now();
        fn(BENCH_BIG_BATCH, cl, ch, clo, chi);
        c_s = now() - t0;
      }
      int agree = fn && memcmp(olo, clo, BENCH_BIG_BATCH * sizeof *olo) == 0 &&
                  memcmp(ohi, chi, BENCH_BIG_BATCH * sizeof *ohi) == 0;
      size_t tiny = 0, huge = 0;
      for (size_t k = 0; k < BENCH_BIG_BATCH; k++) {
        tiny += fabs(olo[k]) < 1e-300 && olo[k] != 0;
        huge += !isfinite(ohi[k]) || fabs(ohi[k]) > 1e300;
      }
      printf("\n(results: %zu subnormal-range, %zu beyond 1e300 of 10^6; e.g. [%g, %g])", tiny, huge, olo[0], ohi[0]);
      printf("\n10^6 points of a %zu-node formula (%zu instructions): tape %.3f s (target < 0.2 s)", nodes,
             alg_tape_length(t), tape_s);
      if (fn) printf(", cc -O2 %.3f s; tape/C time ratio %.2fx (target <= 3x), results %s\n", c_s,
                     tape_s / c_s, agree ? "bitwise equal" : "DIFFER");
      else printf(", no cc: compiled C not measured\n");
      if (fn && !agree) status = 1;
    }
    if (handle) dlclose(handle);
    alg_tape_free(t);
  }
  printf("(C/tape > 1 means the compiled C is faster; both use the same rounding kernel)\n");
  rmdir(dir);
  free(olo); free(ohi); free(clo); free(chi);
  free_inputs(&in);
  alg_ctx_free(ctx);
  return status;
}
