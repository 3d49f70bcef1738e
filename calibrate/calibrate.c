/*
** calibrate.c — the calibration run: benchmark families in order, the history merge, the
** statistics of each series, and the machine file (the message constants: messages.c).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "atomic_file.h"
#include "bench.h"
#include "cal_fit.h"
#include "cal_stats.h"
#include "calibrate.h"
#include "flops_fns.h"
#include "generic.h"
#include "history.h"
#include "machine_file.h"
#include "memory_fns.h"
#include "thread_fns.h"
#include "messages.h"

void cal_options_default(CalOptions *opt, int quick) {
  memset(opt, 0, sizeof *opt);
  opt->quick = quick;
  opt->reps = quick ? CAL_REPS_QUICK : CAL_REPS_DEFAULT;
  opt->sample_seconds = quick ? CAL_SAMPLE_SECONDS_QUICK : CAL_SAMPLE_SECONDS;
  opt->history_keep = CAL_HISTORY_KEEP_DEFAULT;
  opt->command_line = "pamc calibrate";
  opt->mpirun = "mpirun";
}

/* The series named `name` measured in an earlier round, or NULL. */
static CalSeries *earlier_series(CalRun *run, const char *name) {
  for (int i = 0; i < run->count; i++)
    if (!strcmp(run->series[i].name, name)) return &run->series[i];
  return NULL;
}

CalSeries *cal_run_add_series(CalRun *run, const char *name, const char *bench, CalKind kind,
                              double x, CalError *err) {
  CalSeries *s = run->round > 0 ? earlier_series(run, name) : NULL;
  if (s) {
    s->rounds++;
    return s;
  }
  if (run->count == CAL_MAX_SERIES) {
    cal_fail(err, "more than %d benchmarks", CAL_MAX_SERIES);
    return NULL;
  }
  s = &run->series[run->count++];
  memset(s, 0, sizeof *s);
  snprintf(s->name, sizeof s->name, "%s", name);
  snprintf(s->bench, sizeof s->bench, "%s", bench);
  s->kind = kind;
  s->x = x;
  s->rounds = 1;
  return s;
}

void cal_series_push(CalSeries *series, double sample) {
  if (series->count < CAL_MAX_REPS) {
    double now = cal_now();
    if (series->count == 0) series->first = now;
    series->last = now;
    series->run[series->count] = 0;
    series->samples[series->count++] = sample;
    series->fresh = series->count;
  }
}

void cal_run_finished(CalRun *run, const CalSeries *series) {
  /* Series i of round r is the (r * per_round + i + 1)th measured; the MPI family's series come
  ** after the last round's, numbered on from there. */
  int round = run->round < run->rounds ? run->round : run->rounds - 1;
  if (round < 0) round = 0;
  int index = round * run->per_round + (int)(series - run->series) + 1;
  if (run->progress) run->progress(run->progress_user, index, run->planned, series);
}

static void describe_kept(const CalSeries *s, const CalSummary *sum, const char *date, char *buf,
                          size_t size) {
  char spread[64] = "";
  if (s->rounds > 1)
    snprintf(spread, sizeof spread, " (%d rounds over %.0f s)", s->rounds, s->last - s->first);
  if (s->fresh < s->count)
    snprintf(buf, size, "%s; %zu of %zu samples kept%s, %zu from earlier runs; %s", s->bench,
             sum->kept, sum->total, spread, s->count - s->fresh, date);
  else
    snprintf(buf, size, "%s; %zu of %zu samples kept%s; %s", s->bench, sum->kept, sum->total,
             spread, date);
}

/* The constants of the time and per-byte series of one group, clamped at 0 below. */
static int add_series_consts(CalRun *run, CalGroup group, CalMachine *m, const char *date,
                             double *scratch, CalError *err) {
  for (int i = 0; i < run->count; i++) {
    const CalSeries *s = &run->series[i];
    if (s->kind == CAL_KIND_FIT_POINT || s->group != group) continue;
    CalSummary sum;
    if (cal_stats_summarize(s->samples, s->count, scratch, &sum))
      return cal_fail(err, "benchmark %s has no samples", s->name);
    char comment[CAL_LINE_MAX];
    describe_kept(s, &sum, date, comment, sizeof comment);
    double lo = fmax(sum.lo, 0), hi = fmax(sum.hi, 0), typ = fmax(sum.kept_median, 0);
    int status = s->kind == CAL_KIND_RATIO
                     ? cal_machine_ratio(m, s->name, lo, hi, typ, comment, err)
                     : cal_machine_const_typ(m, s->name, lo, hi, typ, s->kind == CAL_KIND_PER_BYTE,
                                             comment, err);
    if (status) return -1;
  }
  return 0;
}

static int add_header(CalRun *run, CalMachine *m, CalError *err) {
  char line[CAL_LINE_MAX], l1[32], l2[32], llc[32];
  snprintf(line, sizeof line,
           "statistics: each benchmark takes %d samples (one lasts ~%.1f ms) in %d interleaved rounds: "
           "every benchmark", run->opt.reps, run->opt.sample_seconds * 1e3, run->rounds);
  if (cal_machine_note(m, line, err)) return -1;
  if (cal_machine_note(m, "  takes its share in each round, so that its samples spread over the "
                          "whole run and see the machine drift between minutes;", err) ||
      cal_machine_note(m, "  merged with the samples of earlier runs under --history (which see it "
                          "drift between runs); samples outside", err) ||
      cal_machine_note(m, "  [Q1 - 1.5 IQR, Q3 + 1.5 IQR] (quartiles by linear interpolation) are "
                          "dropped; each const is [min, max] of the samples kept,", err) ||
      cal_machine_note(m, "  rounded outward, typ their median. Each comment says over how many "
                          "rounds and seconds its samples were taken.", err))
    return -1;
  if (cal_machine_note(m, "arithmetic: time per operation, the loop overhead (an empty loop of "
                          "the same shape) subtracted; add, sub, mul,", err) ||
      cal_machine_note(m, "  div, cmp: dependent chains (latency-bound); assign: independent "
                          "stores (throughput-bound); negative ends clamped at 0.", err) ||
      cal_machine_note(m, "  t_OP_TYPE_tp: the reciprocal throughput, the same operation on 8 "
                          "independent chains; t_sqrt, t_exp, t_log (libm), t_cvt likewise.", err) ||
      cal_machine_note(m, "flops: t_flop_vec, time per flop of a blocked double matrix product "
                          "compiled -O3 -march=native (n = 128; t_flop_vec_N at n = N,", err) ||
      cal_machine_note(m, "  t_flop_vec_parT_N per flop of each of T threads splitting its rows; fn "
                          "t_flop_vec_of(n), t_flop_vec_shared(n, threads)); t_flop_vec_plain*:", err) ||
      cal_machine_note(m, "  the same loop over plain pointers (no restrict parameters: C's block is "
                          "loaded and stored at every k); t_flop_blas, the BLAS's dgemm.", err) ||
      cal_machine_note(m, "latency: t_load_lat_SIZE, a load whose address the previous load gave "
                          "(pointer chase over SIZE bytes; fn t_load_lat(ws_bytes));", err) ||
      cal_machine_note(m, "  t_branch_miss, a mispredicted branch (random branch against its "
                          "always-predicted twin).", err) ||
      cal_machine_note(m, "threads: t_lock, mutex lock + unlock uncontended; t_handoff, unlock to a "
                          "blocked waiter running; t_thread, create + join;", err) ||
      cal_machine_note(m, "  t_barrier_T, t_omp_for_T: a barrier, an OpenMP parallel for of T = 1 .. "
                          "N threads (fn t_barrier_of(threads), t_omp_for_of);", err) ||
      cal_machine_note(m, "  t_page_fault, t_page_fault_parT: the first write to a fresh page, alone "
                          "and T threads at once (fn t_page_fault_shared(threads));", err) ||
      cal_machine_note(m, "  t_page_fault_rw*: a read then a write (zero page, then copy on write: "
                          "its TLB flush reaches the process's other CPUs).", err) ||
      cal_machine_note(m, "parallelism: cores_eff, membw_eff = N t1 / tN, one thread's time t1 "
                          "against N threads' tN doing as much each at once", err) ||
      cal_machine_note(m, "  (a double add chain; a read of a private buffer), N = the CPUs online, "
                          "t1 and tN back to back in each sample.", err))
    return -1;
  cal_format_bytes(run->caches.l1, l1, sizeof l1);
  cal_format_bytes(run->caches.l2, l2, sizeof l2);
  cal_format_bytes(run->caches.llc, llc, sizeof llc);
  snprintf(line, sizeof line, "memory: time per byte read, written, copied; caches (%s): L1d %s, "
           "L2 %s, LLC %s; working sets: half of each, mem: beyond the LLC.", run->caches.source, l1, l2, llc);
  if (cal_machine_note(m, line, err)) return -1;
  if (cal_machine_note(m, "memory sweep: t_OP_SIZE, working sets 4 KiB x 4^k up to 4 x LLC (at most "
                          "512 MiB, 64 MiB with --quick), scalar 8-byte", err) ||
      cal_machine_note(m, "  accesses (read, write, copy) and vector code (read_vec: vectorised "
                          "sum, write_vec: memset, copy_vec: memcpy); fn t_OP(ws_bytes) interpolates;", err) ||
      cal_machine_note(m, "  t_OP_parT_SIZE: the same scalar kernels, per thread with T = 2 .. N "
                          "threads at once (fn t_OP_shared(ws_bytes, threads)).", err))
    return -1;
  char pinned[64] = "";
  if (run->message_cpus[0] >= 0)
    snprintf(pinned, sizeof pinned, ", pinned to CPUs %d and %d", run->message_cpus[0], run->message_cpus[1]);
  snprintf(line, sizeof line, "messages: one-way time between two processes (socketpair ping-pong%s); "
           "latency and byte_time are the 95%% confidence", pinned);
  if (cal_machine_note(m, line, err) ||
      cal_machine_note(m, "  intervals of a least-squares line over all kept samples, weighted by "
                          "1/median(size)^2 (spread proportional to time),", err) ||
      cal_machine_note(m, "  covariance scaled by the residuals; a negative lower end is clamped "
                          "at 0.", err))
    return -1;
  if (run->mpi_ranks) {
    snprintf(line, sizeof line, "mpi: one-way time between MPI ranks (%s -np %d, rank 0 ping-pong "
             "with each other rank in turn), mpi_latency", run->opt.mpirun ? run->opt.mpirun : "mpirun", run->mpi_ranks);
    if (cal_machine_note(m, line, err) ||
        cal_machine_note(m, "  and mpi_byte_time fitted as above over the samples of every pair; "
                            "mpi_barrier, mpi_allreduce (one double, sum):", err) ||
        cal_machine_note(m, "  time per call over all ranks, timed on rank 0.", err))
      return -1;
  }
  if (run->opt.history_dir) {
    snprintf(line, sizeof line, "history: %s (last %d samples per benchmark, merged with this run); "
             "fitted intervals are the", run->opt.history_dir, run->opt.history_keep);
    if (cal_machine_note(m, line, err) ||
        cal_machine_note(m, "  hull of the fit over all kept samples and of each run's own fit, so "
                            "that they follow the machine over time.", err))
      return -1;
  }
  return 0;
}

static void fill_identity(CalMachine *m, const CalOptions *opt, char *date, size_t date_size) {
  struct utsname u;
  if (uname(&u) == 0)
    snprintf(m->machine, sizeof m->machine, "%s %s %s %s", u.sysname, u.nodename, u.release, u.machine);
  else
    snprintf(m->machine, sizeof m->machine, "unknown");
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(m->date, sizeof m->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  strftime(date, date_size, "%Y-%m-%d", &tm);
  snprintf(m->command, sizeof m->command, "%s", opt->command_line ? opt->command_line : "pamc calibrate");
}

static int build_machine(CalRun *run, CalMachine *m, CalError *err) {
  char date[32], line[CAL_LINE_MAX];
  fill_identity(m, &run->opt, date, sizeof date);
  double *scratch = malloc(CAL_MAX_SAMPLES * sizeof *scratch);
  if (!scratch) return cal_fail(err, "out of memory");
  int status = add_header(run, m, err);
  if (status == 0) status = add_series_consts(run, CAL_GROUP_LOCAL, m, date, scratch, err);
  if (status == 0) status = cal_memory_fns(run, m, err);
  if (status == 0) status = cal_thread_fns(run, m, err);
  if (status == 0) status = cal_flops_fns(run, m, err);
  if (status == 0) status = cal_generic_consts(run, m, date, scratch, err);
  if (status == 0) status = cal_machine_text(m, "", err);
  if (status == 0) status = cal_machine_text(m, "# messages between two processes of this machine:", err);
  if (status == 0) status = cal_messages_local(run, m, date, scratch, err);
  if (status == 0 && run->mpi_ranks) {
    snprintf(line, sizeof line, run->mpi_ranks > 2 ? "# messages between MPI ranks (%d ranks), per pair and size:"
                                     : "# messages between MPI ranks (%d ranks):", run->mpi_ranks);
    status = cal_machine_text(m, "", err);
    if (status == 0) status = cal_machine_text(m, line, err);
    if (status == 0) status = cal_messages_mpi(run, m, date, scratch, err);
    if (status == 0) status = add_series_consts(run, CAL_GROUP_MPI, m, date, scratch, err);
  }
  if (status == 0) status = cal_machine_text(m, "", err);
  char decl[64];
  snprintf(decl, sizeof decl, "const n_cpus = %ld;", run->cores);
  snprintf(line, sizeof line, "%-44s # processors online, %s", decl, date);
  if (status == 0) status = cal_machine_text(m, line, err);
  long page = sysconf(_SC_PAGESIZE);
  snprintf(decl, sizeof decl, "const page_bytes = %ld;", page > 0 ? page : 4096);
  snprintf(line, sizeof line, "%-44s # bytes per page (what t_page_fault is per)", decl);
  if (status == 0) status = cal_machine_text(m, line, err);
  snprintf(line, sizeof line, "%-44s # the CPUs, shared by the threads present: cores_eff of them "
           "at once", "resource cores = ps(cores_eff);");
  if (status == 0) status = cal_machine_text(m, line, err);
  free(scratch);
  return status;
}

/* The local families once: one round. The parallelism benchmark (cores_eff, membw_eff) runs before
** the OpenMP one, not right after it: after its timed regions libgomp's idle team stayed busy long
** enough that cores_eff, two threads' add chains, measured 1.0 (15 of 15 samples, three full runs
** on the idle 2-CPU VM) against 1.99 when run first, with --quick, or with OMP_WAIT_POLICY=passive
** (which is no cure: it makes t_omp_for_2 67 us instead of 0.8 us). */
static int measure_round(CalRun *run, CalError *err) {
  if (cal_bench_arith(run, err)) return -1;
  if (cal_bench_math(run, err)) return -1;
  if (cal_bench_flops(run, err)) return -1;
  if (cal_bench_memory(run, err)) return -1;
  if (cal_bench_memsweep(run, err)) return -1;
  if (cal_bench_latency(run, err)) return -1;
  if (cal_bench_mempar(run, err)) return -1;
  if (cal_bench_threads(run, err)) return -1;
  if (cal_bench_pagefault(run, err)) return -1;
  if (cal_bench_parallel(run, err)) return -1;
  if (cal_bench_omp(run, err)) return -1;
  if (cal_bench_message(run, err)) return -1;
  return 0;
}

/* Interleaved rounds: every local benchmark takes reps / rounds of its samples in each round (the
** first rounds one more when they do not divide), so that its samples spread over the whole run
** instead of one moment of it; then the MPI family once (starting mpirun costs seconds). */
static int measure(CalRun *run, CalError *err) {
  for (run->round = 0; run->round < run->rounds; run->round++) {
    run->round_reps = run->opt.reps / run->rounds + (run->round < run->opt.reps % run->rounds);
    if (measure_round(run, err)) return -1;
  }
  run->round_reps = run->opt.reps;
  if (run->opt.mpi_ranks >= 2 && cal_bench_mpi(run, err)) return -1;
  return 0;
}

int cal_calibrate(const CalOptions *opt, const char *out_path, CalProgress progress, void *user,
                  CalError *err) {
  CalRun *run = calloc(1, sizeof *run);
  CalMachine *m = calloc(1, sizeof *m);
  int status = (run && m) ? 0 : cal_fail(err, "out of memory");
  if (status == 0) {
    run->opt = *opt;
    if (run->opt.reps < 1) run->opt.reps = 1;
    if (run->opt.reps > CAL_MAX_REPS) run->opt.reps = CAL_MAX_REPS;
    if (run->opt.history_keep < 1) run->opt.history_keep = CAL_HISTORY_KEEP_DEFAULT;
    if (run->opt.history_keep > CAL_HISTORY_KEEP_MAX) run->opt.history_keep = CAL_HISTORY_KEEP_MAX;
    run->progress = progress;
    run->progress_user = user;
    run->rounds = run->opt.reps < CAL_ROUNDS ? run->opt.reps : CAL_ROUNDS;
    run->per_round = cal_bench_arith_count(opt) + cal_bench_math_count(opt) +
                     cal_bench_flops_count(opt) + cal_bench_threads_count(opt) +
                     cal_bench_omp_count(opt) + cal_bench_parallel_count(opt) +
                     cal_bench_memory_count(opt) + cal_bench_memsweep_count(opt) +
                     cal_bench_latency_count(opt) + cal_bench_pagefault_count(opt) +
                     cal_bench_mempar_count(opt) +
                     cal_bench_message_count(opt);
    run->planned = run->rounds * run->per_round + cal_bench_mpi_count(opt);
    cal_read_caches(&run->caches);
    run->cores = cal_bench_cores();
    status = cal_atomic_probe(out_path, err);   /* before measuring: minutes are not wasted */
    if (status == 0 && run->opt.history_dir) status = cal_history_check(run->opt.history_dir, err);
    if (status == 0 && opt->mpi_ranks >= 2) status = cal_bench_mpi_ready(opt, err);
    if (status == 0) status = measure(run, err);
  }
  if (status == 0 && run->opt.history_dir)
    status = cal_history_update(run->opt.history_dir, run->series, run->count,
                                (size_t)run->opt.history_keep, err);
  if (status == 0) status = build_machine(run, m, err);
  if (status == 0) status = cal_machine_write(out_path, m, err);
  free(run);
  free(m);
  return status;
}
