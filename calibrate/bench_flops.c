/*
** bench_flops.c — time per floating-point operation of vectorised double-precision code: a dense
** kernel as a compiler makes it (t_flop_vec), and as a packaged BLAS does it (t_flop_blas).
**
** t_flop_vec   C += A B for n x n doubles (n = CAL_FLOPS_N, 3 matrices in L2), blocked by
**              CAL_FLOPS_BLOCK in k and j, the inner loop over j unit-stride; this file alone is
**              compiled with -O3 -march=native -ffp-contract=fast (calibrate/module.mk), as a
**              program built for speed on this machine would be: vector instructions, FMA where
**              the CPU has it. Time per flop = seconds / (2 n^3).
** t_flop_blas  the same product by dgemm_ of the BLAS the system's libblas.so.3 links to (Debian's
**              alternatives: the reference BLAS, OpenBLAS, BLIS, MKL; the comment names the file),
**              loaded with dlopen so that pamc needs no BLAS to build; absent when there is none.
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

#define CAL_FLOPS_N 128           /* 3 x 128 KiB: in L2 on current cores, 4 Mflop per product */
#define CAL_FLOPS_BLOCK 32        /* a 32 x 32 block of B (8 KiB) stays in L1 */
#define CAL_BLAS_LIB "libblas.so.3"

typedef void (*Dgemm)(const char *ta, const char *tb, const int *m, const int *n, const int *k,
                      const double *alpha, const double *a, const int *lda, const double *b,
                      const int *ldb, const double *beta, double *c, const int *ldc, size_t,
                      size_t);

/* C += A B, row-major n x n, blocked in k and j (the loop bounds computed once, so that the
** compiler vectorises the inner loop). */
static void matmul_blocked(int n, const double *restrict a, const double *restrict b,
                           double *restrict c) {
  for (int kk = 0; kk < n; kk += CAL_FLOPS_BLOCK) {
    int kend = kk + CAL_FLOPS_BLOCK < n ? kk + CAL_FLOPS_BLOCK : n;
    for (int jj = 0; jj < n; jj += CAL_FLOPS_BLOCK) {
      int jend = jj + CAL_FLOPS_BLOCK < n ? jj + CAL_FLOPS_BLOCK : n;
      for (int i = 0; i < n; i++) {
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

int cal_bench_flops_count(const CalOptions *opt) {
  (void)opt;
  void *handle;
  char path[PATH_MAX];
  int have = open_blas(&handle, path, sizeof path) != NULL;
  if (handle) dlclose(handle);
  return 1 + have;
}

typedef struct Product {
  int n;                          /* matrix order */
  double *a, *b, *c;              /* the operands, n x n each */
  Dgemm dgemm;                    /* NULL: the compiled kernel */
} Product;

static void product_once(const Product *p) {
  if (!p->dgemm) {
    matmul_blocked(p->n, p->a, p->b, p->c);
    return;
  }
  const double one = 1.0;
  p->dgemm("N", "N", &p->n, &p->n, &p->n, &one, p->b, &p->n, p->a, &p->n, &one, p->c, &p->n, 1, 1);
}

static int measure_product(CalRun *run, const char *name, const char *bench, Product *p,
                           CalError *err) {
  CalSeries *series = cal_run_add_series(run, name, bench, CAL_KIND_TIME, 0, err);
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

int cal_bench_flops(CalRun *run, CalError *err) {
  Product p = {CAL_FLOPS_N, NULL, NULL, NULL, NULL};
  size_t nn = (size_t)p.n * (size_t)p.n;
  p.a = malloc(nn * sizeof *p.a);
  p.b = malloc(nn * sizeof *p.b);
  p.c = calloc(nn, sizeof *p.c);
  int status = (p.a && p.b && p.c) ? 0 : cal_fail(err, "out of memory for the flop benchmark");
  for (size_t i = 0; status == 0 && i < nn; i++) {
    p.a[i] = 1.0 + (double)(i % 7) * 0x1p-4;    /* exact in binary; sums stay far from overflow */
    p.b[i] = 1.0 - (double)(i % 5) * 0x1p-5;
  }
  char bench[CAL_BENCH_MAX], path[PATH_MAX] = "";
  snprintf(bench, sizeof bench, "double matrix product %d^3, blocked, -O3 -march=native; per flop", p.n);
  if (status == 0) status = measure_product(run, "t_flop_vec", bench, &p, err);
  void *handle = NULL;
  p.dgemm = status == 0 ? open_blas(&handle, path, sizeof path) : NULL;
  if (p.dgemm) {
    snprintf(bench, sizeof bench, "dgemm %d^3 of %s; per flop", p.n, path);
    status = measure_product(run, "t_flop_blas", bench, &p, err);
  }
  if (handle) dlclose(handle);
  free(p.a);
  free(p.b);
  free(p.c);
  return status;
}
