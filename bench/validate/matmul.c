/*
** matmul.c — validation program: a blocked dense matrix multiply C += A B of n x n doubles,
** compiled -O3 -march=native -ffp-contract=fast (bench/validate/module.mk), the rows of C split
** evenly over T threads; the loop nest is calibrate's t_flop_vec kernel (blocked by 32 in k and j,
** the inner loop over j unit-stride and vectorised). Usage: matmul T n (n a multiple of 32 and of
** T). Prints the wall time of the parallel part in seconds. Modelled by models/validate_matmul.pam.
*/
#include <pthread.h>
#include "vclock.h"

#define MATMUL_MAX_THREADS 256    /* more threads than any configuration of the driver */
#define MATMUL_BLOCK 32           /* as calibrate's CAL_FLOPS_BLOCK */

typedef struct MatmulJob {
  int n;                          /* matrix order */
  int row0, rows;                 /* this thread's rows of C */
  const double *a, *b;            /* operands */
  double *c;                      /* the product, accumulated */
} MatmulJob;

static void *matmul_worker(void *arg) {
  const MatmulJob *job = arg;
  int n = job->n;
  for (int kk = 0; kk < n; kk += MATMUL_BLOCK)
    for (int jj = 0; jj < n; jj += MATMUL_BLOCK)
      for (int i = job->row0; i < job->row0 + job->rows; i++) {
        double *restrict ci = job->c + (size_t)i * (size_t)n;
        for (int k = kk; k < kk + MATMUL_BLOCK; k++) {
          double aik = job->a[(size_t)i * (size_t)n + (size_t)k];
          const double *restrict bk = job->b + (size_t)k * (size_t)n;
          for (int j = jj; j < jj + MATMUL_BLOCK; j++) ci[j] += aik * bk[j];
        }
      }
  return NULL;
}

int main(int argc, char **argv) {
  const char *usage = "T n  (threads, matrix order: a multiple of 32 and of T)";
  long threads = v_arg(argc, argv, 1, usage);
  long n = v_arg(argc, argv, 2, usage);
  if (threads > MATMUL_MAX_THREADS || n % MATMUL_BLOCK || n % threads) {
    fprintf(stderr, "usage: %s %s\n", argv[0], usage);
    return 2;
  }
  size_t nn = (size_t)n * (size_t)n;
  double *a = malloc(nn * sizeof *a), *b = malloc(nn * sizeof *b), *c = calloc(nn, sizeof *c);
  if (!a || !b || !c) { perror("malloc"); return 3; }
  for (size_t i = 0; i < nn; i++) {
    a[i] = 1.0 + (double)(i % 7) * 0x1p-4;
    b[i] = 1.0 - (double)(i % 5) * 0x1p-5;
  }
  pthread_t tid[MATMUL_MAX_THREADS];
  MatmulJob jobs[MATMUL_MAX_THREADS];
  double t0 = v_now();
  for (long t = 0; t < threads; t++) {
    jobs[t] = (MatmulJob){(int)n, (int)(t * (n / threads)), (int)(n / threads), a, b, c};
    if (pthread_create(&tid[t], NULL, matmul_worker, &jobs[t]) != 0) { perror("pthread_create"); return 3; }
  }
  for (long t = 0; t < threads; t++) pthread_join(tid[t], NULL);
  double t1 = v_now();
  volatile double sink = c[nn - 1];
  (void)sink;
  free(a);
  free(b);
  free(c);
  printf("%.9g\n", t1 - t0);
  return 0;
}
