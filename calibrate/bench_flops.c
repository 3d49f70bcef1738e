/*
** bench_flops.c — time per floating-point operation of vectorised double-precision code: a dense
** kernel as a compiler makes it (t_flop_vec), and as a packaged BLAS does it (t_flop_blas).
**
** t_flop_vec   C += A B for n x n doubles (n = CAL_FLOPS_N, 3 matrices in L2), blocked by
**              CAL_FLOPS_BLOCK in k and j, the inner loop over j unit-stride; this file alone is
**              compiled with -O3 -march=native -ffp-contract=fast (calibrate/module.mk), as a
**              program built for speed on this machine would be: vector instructions, FMA where
**              the CPU has it. Time per flop = seconds / (2 n^3).
** t_flop_vec_N the same at n = 256 and 512 (t_flop_vec is n = 128): the rate falls with the
**              order as the operands leave the caches (at 512 the rows are 4 KiB apart and the
**              strips of C and A conflict in L1 and L2: the product runs ~2x slower per flop).
** t_flop_vec_plain, t_flop_vec_plain_N (and _parT_N)  the same loop nest written with plain
**              pointers read from a struct (no restrict-qualified parameters; GCC does not act on
**              `restrict` of block-scope pointers either): the compiler must assume that C's row may
**              alias A and B, so it loads and stores C's 32-double block at every k instead of
**              keeping it in registers: 1.5-1.6x slower per flop on this machine at n = 512. Most
**              code is written this way; a model chooses by the source's parameters.
** t_flop_vec_parT_N  the product at n = 128, 256, 512 with its rows of C split over T = 2 .. N
**              threads at once (CPUs online, at most CAL_FLOPS_MAX_THREADS), B shared, released
**              together (par_run.c); per flop of one thread (the slowest's time over its 2 n^3 / T
**              flops): what each thread of a parallel product sees of the shared caches and
**              memory. flops_fns.c writes fn t_flop_vec_of(n) and t_flop_vec_shared(n, threads).
** t_flop_blas  the same product by dgemm_ of the BLAS the system's libblas.so.3 links to (Debian's
**              alternatives: the reference BLAS, OpenBLAS, BLIS, MKL; the comment names the file),
**              loaded with dlopen so that pamc needs no BLAS to build; absent when there is none.
**              t_flop_blas_512 the same at n = 512 (a large dgemm, as HPL's updates are); flops_fns.c
**              writes fn t_flop_blas_of(n).
** Each sample repeats the product until it lasts ~sample_seconds; C is reset between samples so
** the values stay finite.
*/
#define _GNU_SOURCE 1  /* dladdr: the file the BLAS was loaded from */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "par_run.h"

#define CAL_FLOPS_N 128           /* 3 x 128 KiB: in L2 on current cores, 4 Mflop per product */
#define CAL_FLOPS_N_MAX 512       /* the largest order: 3 x 2 MiB, 268 Mflop (~30 ms) */
#define CAL_FLOPS_MAX_THREADS 8   /* thread counts measured at most */
#define CAL_FLOPS_PAGE 4096       /* operands start CAL_FLOPS_OFFSET past a page (cal_bench_flops) */
#define CAL_FLOPS_OFFSET 16       /* bytes: where glibc's malloc puts a large array */
#define CAL_FLOPS_BLOCK 32        /* a 32 x 32 block of B (8 KiB) stays in L1 */
#define CAL_BLAS_LIB "libblas.so.3"

typedef void (*Dgemm)(const char *ta, const char *tb, const int *m, const int *n, const int *k,
                      const double *alpha, const double *a, const int *lda, const double *b,
                      const int *ldb, const double *beta, double *c, const int *ldc, size_t,
                      size_t);

/* Rows row0 .. row1 - 1 of C += A B, row-major n x n, blocked in k and j (the loop bounds
** computed once, so that the compiler vectorises the inner loop). */
static void matmul_blocked(int n, int row0, int row1, const double *restrict a,
                           const double *restrict b, double *restrict c) {
  for (int kk = 0; kk < n; kk += CAL_FLOPS_BLOCK) {
    int kend = kk + CAL_FLOPS_BLOCK < n ? kk + CAL_FLOPS_BLOCK : n;
    for (int jj = 0; jj < n; jj += CAL_FLOPS_BLOCK) {
      int jend = jj + CAL_FLOPS_BLOCK < n ? jj + CAL_FLOPS_BLOCK : n;
      for (int i = row0; i < row1; i++) {
        double *restrict ci = c + (size_t)i * (size_t)n;
        for (int k = kk; k < kend; k++) {
          double aik = a[(size_t)i * (size_t)n + (size_t)k];
          const double *restrict bk = b + (size_t)k * (size_t)n;
          for (int j = jj; j < jend; j++) ci[j] += aik * bk[j];
        }
      }
    }
  }
  __asm__ volatile("" : : "r"(c) : "memory");
}

/* One product's operands and rows, as a worker thread of a program gets them. */
typedef struct PlainShape {
  int n, row0, row1;              /* order; rows of C */
  const double *a, *b;            /* operands, plain pointers */
  double *c;                      /* the product */
} PlainShape;

/* matmul_blocked's loop nest over plain pointers (n a multiple of CAL_FLOPS_BLOCK): the compiler
** cannot prove that c does not alias a and b. Not inlined, so that it stays the code a separate
** worker function gets. */
__attribute__((noinline)) static void matmul_plain(const PlainShape *s) {
  int n = s->n;
  for (int kk = 0; kk < n; kk += CAL_FLOPS_BLOCK)
    for (int jj = 0; jj < n; jj += CAL_FLOPS_BLOCK)
      for (int i = s->row0; i < s->row1; i++) {
        double *ci = s->c + (size_t)i * (size_t)n;
        for (int k = kk; k < kk + CAL_FLOPS_BLOCK; k++) {
          double aik = s->a[(size_t)i * (size_t)n + (size_t)k];
          const double *bk = s->b + (size_t)k * (size_t)n;
          for (int j = jj; j < jj + CAL_FLOPS_BLOCK; j++) ci[j] += aik * bk[j];
        }
      }
  __asm__ volatile("" : : "r"(s->c) : "memory");
}

/* The BLAS's dgemm_ (handle kept open in *handle), or NULL; its file into path. */
static Dgemm open_blas(void **handle, char *path, size_t size) {
  *handle = dlopen(CAL_BLAS_LIB, RTLD_NOW | RTLD_LOCAL);
  if (!*handle) return NULL;
  Dgemm f;
  void *sym = dlsym(*handle, "dgemm_");
  memcpy(&f, &sym, sizeof f);         /* object pointer to function pointer, as POSIX allows */
  Dl_info info;
  char real[PATH_MAX];
  if (sym && dladdr(sym, &info) && info.dli_fname)
    snprintf(path, size, "%s", realpath(info.dli_fname, real) ? real : info.dli_fname);
  else
    snprintf(path, size, "%s", CAL_BLAS_LIB);
  if (!sym) {
    dlclose(*handle);
    *handle = NULL;
  }
  return sym ? f : NULL;
}

/* The largest thread count measured: the CPUs online, capped; below 2 nothing is measured. */
static int flops_max_threads(long cores) {
  return cores > CAL_FLOPS_MAX_THREADS ? CAL_FLOPS_MAX_THREADS : (int)cores;
}

/* The orders measured: 128 (t_flop_vec), 256, 512. */
static const int flops_orders[] = {CAL_FLOPS_N, 2 * CAL_FLOPS_N, CAL_FLOPS_N_MAX};
#define N_FLOPS_ORDERS (int)(sizeof flops_orders / sizeof flops_orders[0])

int cal_bench_flops_count(const CalOptions *opt) {
  (void)opt;
  void *handle;
  char path[PATH_MAX];
  int have = open_blas(&handle, path, sizeof path) != NULL;
  if (handle) dlclose(handle);
  int threads = flops_max_threads(cal_bench_cores());
  return 2 * N_FLOPS_ORDERS * (threads < 2 ? 1 : threads) + 2 * have;
}

typedef struct Product {
  int n;                          /* matrix order */
  double *a, *b, *c;              /* the operands, n x n each (room for CAL_FLOPS_N_MAX) */
  Dgemm dgemm;                    /* NULL: the compiled kernel */
  int plain;                      /* the compiled kernel over plain pointers (matmul_plain) */
} Product;

/* Rows row0 .. row1 - 1 of p's product by its compiled kernel. */
static void product_rows(const Product *p, int row0, int row1) {
  if (p->plain) {
    PlainShape shape = {p->n, row0, row1, p->a, p->b, p->c};
    matmul_plain(&shape);
  } else {
    matmul_blocked(p->n, row0, row1, p->a, p->b, p->c);
  }
}

static void product_once(const Product *p) {
  if (!p->dgemm) {
    product_rows(p, 0, p->n);
    return;
  }
  const double one = 1.0;
  p->dgemm("N", "N", &p->n, &p->n, &p->n, &one, p->b, &p->n, p->a, &p->n, &one, p->c, &p->n, 1, 1);
}

static int measure_product(CalRun *run, const char *name, const char *bench, Product *p,
                           CalError *err) {
  CalSeries *series = cal_run_add_series(run, name, bench, CAL_KIND_TIME, (double)p->n, err);
  if (!series) return -1;
  size_t nn = (size_t)p->n * (size_t)p->n;
  double flops = 2.0 * (double)p->n * (double)p->n * (double)p->n;
  double t0 = cal_now();
  product_once(p);                    /* warm-up, also sizes the samples */
  double one = cal_now() - t0;
  long reps = one > 0 ? (long)(run->opt.sample_seconds / one) : 1;
  if (reps < 1) reps = 1;
  for (int rep = 0; rep < run->round_reps; rep++) {
    memset(p->c, 0, nn * sizeof *p->c);
    double start = cal_now();
    for (long r = 0; r < reps; r++) product_once(p);
    cal_series_push(series, (cal_now() - start) / ((double)reps * flops));
  }
  cal_run_finished(run, series);
  return 0;
}

/* One thread's share of a parallel product: its rows, `reps` times. */
typedef struct FlopMember {
  const Product *p;               /* the operands (shared) */
  int row0, row1;                 /* its rows of C */
  long reps;                      /* products' worth of its rows per sample */
} FlopMember;

static void flop_work(void *arg) {
  const FlopMember *fm = arg;
  for (long r = 0; r < fm->reps; r++) product_rows(fm->p, fm->row0, fm->row1);
}

/* Series t_flop_vec_parT_N: the rows of p's product split over t threads at once. */
static int measure_product_par(CalRun *run, Product *p, int t, FlopMember *fm,
                               CalParMember *members, CalError *err) {
  char name[CAL_NAME_MAX], bench[CAL_BENCH_MAX];
  snprintf(name, sizeof name, "t_flop_vec%s_par%d_%d", p->plain ? "_plain" : "", t, p->n);
  snprintf(bench, sizeof bench, "product %d^3 as t_flop_vec%s, rows over %d threads at once; "
           "per flop of one", p->n % 10000, p->plain ? "_plain" : "", t % 100);
  CalSeries *series = cal_run_add_series(run, name, bench, CAL_KIND_TIME, (double)p->n, err);
  if (!series) return -1;
  double flops = 2.0 * (double)p->n * (double)p->n * (double)p->n / t;
  double t0 = cal_now();
  product_once(p);                    /* alone: sizes the samples */
  double one = cal_now() - t0, elapsed;
  long reps = one > 0 ? (long)(run->opt.sample_seconds * t / one) : 1;
  for (int i = 0; i < t; i++) {
    fm[i] = (FlopMember){p, (int)((long)p->n * i / t), (int)((long)p->n * (i + 1) / t),
                         reps < 1 ? 1 : reps};
    members[i].work = flop_work;
    members[i].arg = &fm[i];
  }
  if (cal_par_run(members, t, &elapsed, err)) return -1;     /* untimed */
  for (int rep = 0; rep < run->round_reps; rep++) {
    memset(p->c, 0, (size_t)p->n * (size_t)p->n * sizeof *p->c);
    if (cal_par_run(members, t, &elapsed, err)) return -1;
    cal_series_push(series, elapsed / ((double)fm[0].reps * flops));
  }
  cal_run_finished(run, series);
  return 0;
}

/* The compiled kernel in both shapes at every order, alone and on 2 .. N threads. */
static int measure_orders(CalRun *run, Product *p, CalError *err) {
  int threads = flops_max_threads(run->cores);
  FlopMember fm[CAL_FLOPS_MAX_THREADS];
  CalParMember members[CAL_FLOPS_MAX_THREADS];
  memset(members, 0, sizeof members);
  for (p->plain = 0; p->plain <= 1; p->plain++)
    for (int k = 0; k < N_FLOPS_ORDERS; k++) {
      char name[CAL_NAME_MAX], bench[CAL_BENCH_MAX];
      const char *shape = p->plain ? "_plain" : "";
      p->n = flops_orders[k];
      if (k == 0) snprintf(name, sizeof name, "t_flop_vec%s", shape);
      else snprintf(name, sizeof name, "t_flop_vec%s_%d", shape, p->n);
      snprintf(bench, sizeof bench, "double matrix product %d^3, blocked, -O3 -march=native%s; "
               "per flop", p->n, p->plain ? ", plain pointers" : "");
      if (measure_product(run, name, bench, p, err)) return -1;
      for (int t = 2; t <= threads; t++)
        if (measure_product_par(run, p, t, fm, members, err)) return -1;
    }
  p->n = CAL_FLOPS_N;
  p->plain = 0;
  return 0;
}

int cal_bench_flops(CalRun *run, CalError *err) {
  Product p = {CAL_FLOPS_N, NULL, NULL, NULL, NULL, 0};
  size_t nn = (size_t)CAL_FLOPS_N_MAX * (size_t)CAL_FLOPS_N_MAX;
  /* Each operand where malloc puts a program's large array: 16 bytes past a page boundary (glibc
  ** maps it with mmap, after a 16-byte chunk header). Vector loads and stores of 32 or 64 bytes
  ** then straddle cache lines: at n = 512 the product runs ~1.5x slower than with 64-byte aligned
  ** operands (measured: 27 ms against 18 ms), and most programs get this alignment. */
  double *base[3] = {aligned_alloc(CAL_FLOPS_PAGE, nn * sizeof(double) + CAL_FLOPS_PAGE),
                     aligned_alloc(CAL_FLOPS_PAGE, nn * sizeof(double) + CAL_FLOPS_PAGE),
                     aligned_alloc(CAL_FLOPS_PAGE, nn * sizeof(double) + CAL_FLOPS_PAGE)};
  p.a = base[0] ? base[0] + CAL_FLOPS_OFFSET / sizeof(double) : NULL;
  p.b = base[1] ? base[1] + CAL_FLOPS_OFFSET / sizeof(double) : NULL;
  p.c = base[2] ? base[2] + CAL_FLOPS_OFFSET / sizeof(double) : NULL;
  if (p.c) memset(p.c, 0, nn * sizeof *p.c);
  int status = (p.a && p.b && p.c) ? 0 : cal_fail(err, "out of memory for the flop benchmark");
  for (size_t i = 0; status == 0 && i < nn; i++) {
    p.a[i] = 1.0 + (double)(i % 7) * 0x1p-4;    /* exact in binary; sums stay far from overflow */
    p.b[i] = 1.0 - (double)(i % 5) * 0x1p-5;
  }
  char bench[CAL_BENCH_MAX], path[PATH_MAX] = "";
  if (status == 0) status = measure_orders(run, &p, err);
  void *handle = NULL;
  p.dgemm = status == 0 ? open_blas(&handle, path, sizeof path) : NULL;
  for (int n = CAL_FLOPS_N; p.dgemm && status == 0 && n <= CAL_FLOPS_N_MAX; n *= 4) {
    char name[CAL_NAME_MAX];
    p.n = n;
    if (n == CAL_FLOPS_N) snprintf(name, sizeof name, "t_flop_blas");
    else snprintf(name, sizeof name, "t_flop_blas_%d", n);
    snprintf(bench, sizeof bench, "dgemm %d^3 of %.60s; per flop", n, path);
    status = measure_product(run, name, bench, &p, err);
  }
  if (handle) dlclose(handle);
  for (int i = 0; i < 3; i++) free(base[i]);
  return status;
}
