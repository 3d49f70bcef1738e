/*
** bench_threads.c — what threads cost: a mutex lock and unlock without contention (t_lock), the
** hand-off of a mutex to a blocked waiter (t_handoff), a thread create and join (t_thread), and a
** barrier of all the CPUs' threads (t_barrier).
**
** t_lock     pthread_mutex_lock + pthread_mutex_unlock of a mutex no one else wants, CAL_UNROLL
**            pairs per loop iteration, the empty loop subtracted (cal_measure_kernel).
** t_handoff  two threads and one mutex: the holder waits until the other thread has called
**            pthread_mutex_lock and spins CAL_HANDOFF_SETTLE more (the waiter is asleep in the
**            kernel by then), reads the clock and unlocks; the waiter reads the clock as soon as
**            it owns the mutex. Time from the unlock to the waiter running: the `handoff` of a
**            resource `fcfs(1) handoff(h)` (language version 2). Threads are not pinned: the
**            waiter wakes where the scheduler puts it, as in a program (same CPU: a context
**            switch; another: a wake-up across CPUs), so the spread is real. Per sample, the mean
**            over the hand-offs that fit in it.
** t_thread   pthread_create of a thread that returns at once, then pthread_join.
** t_barrier_T  T threads each call pthread_barrier_wait in a loop, T = 1 .. N (N = the CPUs
**            online, at least 2); time per barrier, timed on one of them over the rounds of a
**            sample. calibrate.c writes t_barrier (the N-thread one, the name models know) and
**            fn t_barrier_of(threads) choosing among them.
*/
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include "bench_kernel.h"

#define CAL_HANDOFF_SETTLE 20e-6  /* seconds the holder waits after the waiter asked: it sleeps */
#define CAL_BARRIER_MIN_ROUNDS 16 /* barriers per sample at least */
#define CAL_BARRIER_MAX_THREADS 64 /* barrier sizes measured at most (one series each) */

/* ---- t_lock: kernels of the shared timing loop ---- */

static double kernel_lock(long iters, const CalSeed *seed) {
  (void)seed;
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  double t0 = cal_now();
  for (long i = 0; i < iters; i++) {
    REP16(pthread_mutex_lock(&m); pthread_mutex_unlock(&m); __asm__ volatile("" ::: "memory");)
  }
  double t1 = cal_now();
  pthread_mutex_destroy(&m);
  return t1 - t0;
}

static double kernel_lock_empty(long iters, const CalSeed *seed) {
  (void)seed;
  double t0 = cal_now();
  for (long i = 0; i < iters; i++) { REP16(__asm__ volatile("" ::: "memory");) }
  return cal_now() - t0;
}

/* ---- t_handoff ---- */

typedef struct Handoff {
  pthread_mutex_t mutex;          /* the mutex handed over */
  atomic_int round;               /* round the waiter is to play; -1: stop */
  atomic_int asked;               /* last round in which the waiter called lock */
  atomic_int done;                /* last round the waiter finished */
  double got;                     /* when the waiter owned the mutex (written before done) */
} Handoff;

static void *handoff_waiter(void *arg) {
  Handoff *h = arg;
  for (int played = 0;;) {
    int r;
    while ((r = atomic_load(&h->round)) == played) sched_yield();
    if (r < 0) return NULL;
    atomic_store(&h->asked, r);
    pthread_mutex_lock(&h->mutex);
    h->got = cal_now();
    pthread_mutex_unlock(&h->mutex);
    atomic_store(&h->done, r);
    played = r;
  }
}

/* Mean hand-off time over the rounds of ~seconds; rounds counted from *round. */
static double handoff_sample(Handoff *h, int *round, double seconds) {
  double total = 0, until = cal_now() + seconds;
  int n = 0;
  do {
    int r = ++*round;
    pthread_mutex_lock(&h->mutex);
    atomic_store(&h->round, r);
    while (atomic_load(&h->asked) != r) sched_yield();
    double settle = cal_now() + CAL_HANDOFF_SETTLE;
    while (cal_now() < settle) {}
    double released = cal_now();
    pthread_mutex_unlock(&h->mutex);
    while (atomic_load(&h->done) != r) sched_yield();
    total += h->got - released;
    n++;
  } while (cal_now() < until);
  return total / n;
}

static int bench_handoff(CalRun *run, CalError *err) {
  CalSeries *s = cal_run_add_series(run, "t_handoff", "mutex hand-off to a blocked waiter, unlock to "
                                    "the waiter running", CAL_KIND_TIME, 0, err);
  if (!s) return -1;
  Handoff *h = calloc(1, sizeof *h);
  if (!h) return cal_fail(err, "out of memory");
  pthread_mutex_init(&h->mutex, NULL);
  pthread_t waiter;
  if (pthread_create(&waiter, NULL, handoff_waiter, h)) {
    free(h);
    return cal_fail(err, "cannot start a thread for the hand-off benchmark");
  }
  int round = 0;
  handoff_sample(h, &round, run->opt.sample_seconds / 4);     /* warm-up */
  for (int rep = 0; rep < run->round_reps; rep++)
    cal_series_push(s, handoff_sample(h, &round, run->opt.sample_seconds));
  atomic_store(&h->round, -1);
  pthread_join(waiter, NULL);
  pthread_mutex_destroy(&h->mutex);
  free(h);
  cal_run_finished(run, s);
  return 0;
}

/* ---- t_thread ---- */

static void *thread_nothing(void *arg) { return arg; }

static int bench_thread(CalRun *run, CalError *err) {
  CalSeries *s = cal_run_add_series(run, "t_thread", "pthread_create of an empty thread + "
                                    "pthread_join", CAL_KIND_TIME, 0, err);
  if (!s) return -1;
  for (int rep = -1; rep < run->round_reps; rep++) {      /* rep -1: warm-up */
    double t0 = cal_now(), until = t0 + run->opt.sample_seconds;
    long n = 0;
    do {
      pthread_t t;
      if (pthread_create(&t, NULL, thread_nothing, NULL)) return cal_fail(err, "pthread_create failed");
      pthread_join(t, NULL);
      n++;
    } while (cal_now() < until);
    if (rep >= 0) cal_series_push(s, (cal_now() - t0) / (double)n);
  }
  cal_run_finished(run, s);
  return 0;
}

/* ---- t_barrier ---- */

typedef struct Barrier {
  pthread_barrier_t barrier;      /* the barrier timed */
  long rounds;                    /* barriers per sample */
  int samples;                    /* samples to play (the warm-up included) */
  atomic_int go;                  /* 0: wait; 1: play; -1: leave (not all threads started) */
} Barrier;

static void *barrier_member(void *arg) {
  Barrier *b = arg;
  int go;
  while ((go = atomic_load(&b->go)) == 0) sched_yield();
  if (go < 0) return NULL;
  for (int s = 0; s < b->samples; s++)
    for (long r = 0; r < b->rounds; r++) pthread_barrier_wait(&b->barrier);
  return NULL;
}

/* Barriers per sample for one thread alone (no wake-ups: tens of nanoseconds each). */
static long barrier_rounds_alone(double seconds) {
  pthread_barrier_t barrier;
  pthread_barrier_init(&barrier, NULL, 1);
  double t0 = cal_now();
  for (int r = 0; r < 1000; r++) pthread_barrier_wait(&barrier);
  double one = (cal_now() - t0) / 1000;
  pthread_barrier_destroy(&barrier);
  return one > 0 ? (long)(seconds / one) : 1000;
}

static int bench_barrier(CalRun *run, int n, CalError *err) {
  char bench[CAL_BENCH_MAX], name[CAL_NAME_MAX];
  snprintf(bench, sizeof bench, "pthread_barrier_wait of %d thread%s, time per barrier", n, n > 1 ? "s" : "");
  snprintf(name, sizeof name, "t_barrier_%d", n);
  CalSeries *s = cal_run_add_series(run, name, bench, CAL_KIND_TIME, 0, err);
  if (!s) return -1;
  Barrier *b = calloc(1, sizeof *b);
  pthread_t *members = calloc((size_t)n, sizeof *members);
  if (!b || !members) {
    free(b);
    free(members);
    return cal_fail(err, "out of memory");
  }
  /* Rounds per sample from a first guess of 20 us per barrier (a wake-up across CPUs). */
  b->rounds = n == 1 ? barrier_rounds_alone(run->opt.sample_seconds)
                     : (long)(run->opt.sample_seconds / 20e-6);
  if (b->rounds < CAL_BARRIER_MIN_ROUNDS) b->rounds = CAL_BARRIER_MIN_ROUNDS;
  b->samples = run->round_reps + 1;
  pthread_barrier_init(&b->barrier, NULL, (unsigned)n);
  int started = 0, status = 0;
  for (; started < n - 1 && status == 0; started++)
    if (pthread_create(&members[started], NULL, barrier_member, b)) {
      status = cal_fail(err, "cannot start %d threads for the barrier benchmark", n);
      started--;
    }
  atomic_store(&b->go, status == 0 ? 1 : -1);
  for (int rep = -1; status == 0 && rep < run->round_reps; rep++) {
    double t0 = cal_now();
    for (long r = 0; r < b->rounds; r++) pthread_barrier_wait(&b->barrier);
    if (rep >= 0) cal_series_push(s, (cal_now() - t0) / (double)b->rounds);
  }
  for (int i = 0; i < started; i++) pthread_join(members[i], NULL);
  pthread_barrier_destroy(&b->barrier);
  free(b);
  free(members);
  if (status == 0) cal_run_finished(run, s);
  return status;
}

/* Barrier sizes: 1 .. the CPUs online, at least 2. */
static int barrier_max(long cores) {
  return cores >= 2 ? (int)(cores > CAL_BARRIER_MAX_THREADS ? CAL_BARRIER_MAX_THREADS : cores) : 2;
}

int cal_bench_threads_count(const CalOptions *opt) {
  (void)opt;
  return 3 + barrier_max(cal_bench_cores());
}

int cal_bench_threads(CalRun *run, CalError *err) {
  CalSeed seed = {0, 0, 0, 0};
  if (cal_measure_kernel(run, "t_lock", "pthread_mutex_lock + unlock, uncontended, loop overhead "
                         "subtracted", kernel_lock, kernel_lock_empty, &seed, 1, err))
    return -1;
  if (bench_handoff(run, err) || bench_thread(run, err)) return -1;
  for (int n = 1; n <= barrier_max(run->cores); n++)
    if (bench_barrier(run, n, err)) return -1;
  return 0;
}
