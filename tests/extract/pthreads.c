/* pthreads.c — T threads (pthread_create in a loop, then pthread_join), each summing its block
** of W / T elements: a par of T workers on the cores. The block size comes from the argument
** struct, which the source does not give statically: the pragma says it. */
#include <pthread.h>
#include <stdlib.h>
#define T 4
#define W 4000
typedef struct { const double *v; long lo, hi; double sum; } Part;
static void *worker(void *arg) {
  Part *p = arg;
  double s = 0;
#pragma pamc loop_count(W / T)
  for (long i = p->lo; i < p->hi; i++)
    s += p->v[i];
  p->sum = s;
  return NULL;
}
int main(void) {
  double *v = calloc(W, sizeof *v);
  pthread_t th[T];
  Part parts[T];
  for (int t = 0; t < T; t++) {
    parts[t].v = v;
    parts[t].lo = (long)t * W / T;
    parts[t].hi = (long)(t + 1) * W / T;
    pthread_create(&th[t], NULL, worker, &parts[t]);
  }
  double total = 0;
  for (int t = 0; t < T; t++) {
    pthread_join(th[t], NULL);
    total += parts[t].sum;
  }
  free(v);
  return total > 0;
}
