/*
** tight_bench.c — the bounds against the simulator on the example models of models/ (with
** models/machine.mach), measured in one run, per model and size P = 10^2 .. 10^5:
**   - tightness: sim_lo / T_lo and T_hi / sim_hi, where T_lo = inf T_lo over the constants' box
**     (what `pamc predict` prints as lo), sim_lo the makespan simulated with every interval at
**     its low end, T_hi = sup T_hi (predict's hi) and sim_hi simulated at the high ends. Both
**     ratios are >= 1 when the bounds are sound (the row says UNSOUND otherwise) and 1 when tight.
**   - speed: the wall time of one simulation (mid scenario) over the time pamc takes for the same
**     answer from the model (reduce with P free, then evaluate the formulas at P): the advantage
**     of the closed form.
** A size outside the range a model declares for its param is not run; a simulation that would
** last longer than BENCH_SIM_SECONDS is stopped and its row says so (the closed form answers it
** in the same microseconds).
** Then the idioms of bench/tight (issue 15: how parallel programs divide work and talk), at
** sizes 1 .. 10^4: sim/lo, hi/sim and |est - sim| / sim per model and size.
** Usage: tight_bench [max_size]   (sizes up to max_size only, e.g. 1000 for a quick look)
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "predict.h"
#include "sim.h"

#define BENCH_SIM_SECONDS 20.0   /* one simulation longer than this is stopped */
#define BENCH_MACHINE "models/machine.mach"
#define BENCH_REL_TOL 1e-9       /* the simulator's double sums round (as tests/prop allow) */

typedef struct BenchModel {
  const char *file;              /* under models/ */
  const char *param;             /* the size param swept */
  const char *values[4];         /* its values for P = 10^2, 10^3, 10^4, 10^5 */
  const char *note;              /* how P relates to the param */
} BenchModel;

static const BenchModel models[] = {
  {"halo.pam", "P", {"100", "1000", "10000", "100000"}, ""},
  {"master_worker.pam", "P", {"100", "1000", "10000", "100000"}, ""},
  {"stencil2d.pam", "px", {"10", "32", "100", "316"}, "P = px^2"},
  {"matmul.pam", "P", {"100", "1000", "10000", "100000"}, ""},
  {"lu.pam", "P", {"100", "1000", "10000", "100000"}, ""},
  {"tree_reduce.pam", "P", {"100", "1000", "10000", "100000"}, ""},
  {"pipeline.pam", "items", {"100", "1000", "10000", "100000"}, "items in flight"},
  {"fft_transpose.pam", "P", {"100", "1000", "10000", "100000"}, ""},
};

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Loads and checks path with the machine file (with_machine) and the define (name=value, may be
** NULL).
** Returns 0, or -1 with the diagnostics kept in diags (the caller prints them). */
static int load(Program *prog, DiagList *diags, const char *path, const ProgramDefine *define,
                int with_machine) {
  static const char *const machines[] = {BENCH_MACHINE};
  ProgramOptions opts = {machines, with_machine ? 1 : 0, define, define ? 1 : 0, NULL};
  if (program_load(prog, diags, path, &opts) != PROGRAM_OK) return -1;
  return check_program(prog) > 0 ? -1 : 0;
}

/* pamc's answer at param = value: reduce with the param free, evaluate at the point. Fills lo
** (inf T_lo over the box) and hi (sup T_hi) and the seconds it took; 0 or -1. */
static int closed_form(const char *path, int with_machine, const char *param, const char *value,
                       double *lo, double *est, double *hi, double *seconds) {
  DiagList diags;
  diag_init(&diags);
  Program prog;
  ReduceResult reduced;
  memset(&reduced, 0, sizeof reduced);
  PredictPlan plan;
  memset(&plan, 0, sizeof plan);
  Sweep sweep;
  sweep_init(&sweep);
  char message[SWEEP_MESSAGE_SIZE];
  static PredictBatch batch;
  double point[SWEEP_MAX_AXES], axis[1];
  const double *axes[1] = {axis};
  double start = now();
  ReduceOptions ropts = {0, 0};
  int ok = load(&prog, &diags, path, NULL, with_machine) == 0 &&
           reduce_program(&prog, &ropts, &reduced, &diags) == 0 &&
           sweep_add(&sweep, param, value, value, message, sizeof message) == 0 &&
           predict_plan_init(&plan, &reduced, &sweep, &diags) == 0 && sweep_next(&sweep, point);
  if (ok) {
    axis[0] = point[0];
    ok = predict_eval(&plan, 1, axes, &batch) == 0;
  }
  *seconds = now() - start;
  if (ok) {
    *lo = batch.lo[0];
    *est = batch.est[0];
    *hi = batch.hi[0];
  } else {
    diag_print(&diags, stderr);
  }
  predict_plan_free(&plan);
  sweep_free(&sweep);
  reduce_result_free(&reduced);
  program_free(&prog);
  diag_free(&diags);
  return ok ? 0 : -1;
}

typedef enum SimOutcome { SIM_DONE, SIM_STOPPED, SIM_FAILED } SimOutcome;

/* One simulation of prog's entry under scenario: the makespan and the wall time. */
static SimOutcome simulate(Program *prog, SimScenario scenario, double *makespan, double *wall,
                           char *why, size_t why_size) {
  SimOptions opts = {scenario, 1, 1, NULL, NULL, BENCH_SIM_SECONDS, 0};
  SimReport report;
  SimError err;
  double start = now();
  int status = sim_simulate(program_entry(prog), &opts, &report, &err);
  *wall = now() - start;
  if (status != 0) {
    snprintf(why, why_size, "%s", err.message);
    return strstr(err.message, "wall-clock") ? SIM_STOPPED : SIM_FAILED;
  }
  *makespan = report.time_mean;
  sim_report_free(&report);
  return SIM_DONE;
}

/* One row: returns 1 when the bounds are unsound there, -1 on a failure, 0 otherwise. */
static int bench_row(const BenchModel *model, int size_index) {
  char path[256], raw[64];
  snprintf(path, sizeof path, "models/%s", model->file);
  const char *value = model->values[size_index];
  snprintf(raw, sizeof raw, "%s=%s", model->param, value);
  ProgramDefine define = {model->param, value, raw};
  DiagList diags;
  diag_init(&diags);
  Program prog;
  int result = 0;
  char label[64];
  snprintf(label, sizeof label, "%s=%s", model->param, value);
  if (load(&prog, &diags, path, &define, 1) != 0) {
    /* outside the declared range, most likely: say what the checker said, briefly */
    printf("  %-20s %-12s not run: %s\n", model->file, label,
           diags.count ? diags.items[0].message : "does not load");
    program_free(&prog);
    diag_free(&diags);
    return 0;
  }
  double t_lo, t_est, t_hi, pamc_seconds;
  if (closed_form(path, 1, model->param, value, &t_lo, &t_est, &t_hi, &pamc_seconds)) {
    program_free(&prog);
    diag_free(&diags);
    return -1;
  }
  double sim_lo = 0, sim_hi = 0, sim_mid = 0, wall_lo, wall_hi, wall_mid;
  char why[SIM_MESSAGE_SIZE] = "";
  SimOutcome mid = simulate(&prog, SIM_SCENARIO_MID, &sim_mid, &wall_mid, why, sizeof why);
  if (mid == SIM_DONE) {
    SimOutcome low = simulate(&prog, SIM_SCENARIO_LO, &sim_lo, &wall_lo, why, sizeof why);
    SimOutcome high = low == SIM_DONE ? simulate(&prog, SIM_SCENARIO_HI, &sim_hi, &wall_hi, why, sizeof why) : low;
    mid = high;
  }
  if (mid == SIM_DONE) {
    int unsound = sim_lo < t_lo - BENCH_REL_TOL * t_lo || sim_hi > t_hi + BENCH_REL_TOL * t_hi;
    if (unsound) fprintf(stderr, "tight_bench: %s at %s: sim_lo %.17g T_lo %.17g sim_hi %.17g T_hi %.17g\n",
                         model->file, label, sim_lo, t_lo, sim_hi, t_hi);
    printf("  %-20s %-12s %10.4f %10.4f %12.3g %12.3g %12.0f%s\n", model->file, label, sim_lo / t_lo,
           t_hi / sim_hi, wall_mid, pamc_seconds, wall_mid / pamc_seconds, unsound ? "  UNSOUND" : "");
    result = unsound;
  } else if (mid == SIM_STOPPED) {
    printf("  %-20s %-12s %10s %10s %12s %12.3g %12s  (simulation stopped after %.0f s)\n", model->file,
           label, "-", "-", "> limit", pamc_seconds, "-", BENCH_SIM_SECONDS);
  } else {
    fprintf(stderr, "tight_bench: %s at %s: simulation failed: %s\n", model->file, label, why);
    result = -1;
  }
  program_free(&prog);
  diag_free(&diags);
  return result;
}

/* ------------------------------------------------------------------ idioms (issue 15) */

#define IDIOM_SIM_SECONDS 10.0   /* one idiom simulation longer than this is stopped */

/* A model of bench/tight: how parallel programs divide work and talk, written as users write
** them, with point constants (one simulation is the exact time) and no machine file. */
typedef struct IdiomModel {
  const char *file;              /* under bench/tight/ */
  const char *param;             /* the size param swept */
  const char *what;              /* the idiom */
} IdiomModel;

static const IdiomModel idioms[] = {
  {"ring_exchange.pam", "P", "ring neighbour exchange, (p + 1) % P and (p + P - 1) % P"},
  {"grid_exchange.pam", "Q", "Q x Q torus halo exchange, (p + Q) % (Q * Q) ..."},
  {"grid2d_exchange.pam", "Q", "the same with par (x) par (y), ((x + 1) % Q) * Q + y ..."},
  {"alltoall.pam", "P", "all-to-all in rounds, port[(p + k) % P]"},
  {"ring_allreduce.pam", "P", "ring allreduce, 2 (P - 1) steps to (p + 1) % P"},
  {"tree_bcast.pam", "P", "binomial tree broadcast and reduce"},
  {"tree_reduce.pam", "P", "tree reduction, nic[k * 2^(l+1)] where a partner exists"},
  {"pipeline_stages.pam", "S", "M = 100 items through S single-server stages"},
  {"pipeline_wide.pam", "M", "M items through 1 us, 4 servers of 4 us, 1 us"},
  {"pipeline_last.pam", "S", "the same with the last (slower) stage written after the loop"},
  {"pipeline_header.pam", "S", "M = 20 records through S stages, the first 5x at each"},
  {"line_replicated.pam", "S", "M = 40 records (every fourth 3x) through S stages of fcfs(2)"},
  {"pipeline_skip.pam", "M", "M records through 5 stages, every third skipping the slow one"},
  {"pipeline_fork.pam", "M", "M items, the middle stage forked onto a gpu and a dsp"},
  {"pipeline_tail_fork.pam", "M", "M requests, a lookup 3 in 4 make, then a reply beside a log write"},
  {"threads_fcfs.pam", "T", "T threads on fcfs(4) cores"},
  {"threads_rounds.pam", "T", "T threads of 1 + t % 3 rounds (4 us work, 3 us sleep) on fcfs(2)"},
  {"threads_loop.pam", "T", "T threads of M = 40 slices back to back on fcfs(4)"},
  {"threads_ps.pam", "T", "T threads on ps(4) cores"},
  {"threads_ps_loop.pam", "T", "T threads in rounds on ps(4) cores: compute, then own I/O"},
  {"threads_ps_proc.pam", "T", "the same as a pool in a process, called twice"},
  {"uneven_ps.pam", "T", "T tasks of 1 .. 4 units (t % 4) on ps(2) cores"},
  {"threads_ps_two.pam", "T", "T threads of 1 or 2 units (t % 2 == 0 ? 1 : 2) on ps(4) cores"},
  {"remainder_ps.pam", "T", "N tasks dealt floor(N / T) + (t < N % T ? 1 : 0) on ps(4) cores"},
  {"bsp_ps_heavy.pam", "P", "supersteps: compute, then a ps(3) bus, rank 0 three times the traffic"},
  {"ring_ps.pam", "P", "ring exchange on ps(1) links, both flows of a link at once"},
  {"ring_ps_drift.pam", "P", "the same without a barrier, par (r) repeat (steps)"},
  {"remainder.pam", "P", "N tasks dealt floor(N / P) + (w < N % P ? 1 : 0), then a gather"},
  {"block_dist.pam", "P", "blocks of ceil(N / P) rows, short or empty last blocks"},
  {"bsp.pam", "P", "bulk-synchronous iterations, imbalance, a gather as barrier"},
  {"wavefront.pam", "n", "wavefront, par over max(0, d - n + 1) .. min(d, n - 1)"},
  {"derived_consts.pam", "P", "consts derived from params"},
  {"ring_if.pam", "P", "ring written with if (p < P - 1) nic[p + 1] else nic[0]"},
  {"ring_cond.pam", "P", "ring written with nic[p == P - 1 ? 0 : p + 1]"},
  {"ring_proc.pam", "P", "ring through process calls send((p + 1) % P)"},
  {"grid_flat.pam", "Q", "Q x Q halo with one index, floor(p / Q) * Q + (p % Q + 1) % Q"},
  {"block_loop.pam", "P", "seq over a block's rows to min(N, (w + 1) * B) - 1, then a bus"},
  {"block_gather.pam", "P", "blocks of ceil(N / P) rows, then ranks w > 0 with rows send to one link"},
  {"remainder_gather.pam", "P", "floor(N / P) + (w < N % P ? 1 : 0) tasks, then a root"},
  {"tree_mod.pam", "P", "binomial tree over all workers, p % 2^(k+1) == 0"},
  {"threads_dealt.pam", "T", "T threads dealt over 4 cores, core[t % C]"},
  {"alltoall_if.pam", "P", "all-to-all rounds, if (p + k < P) port[p + k] else port[p + k - P]"},
  {"alltoall_overlap.pam", "P", "all-to-all rounds, cpu[p] pack || port[(p + P - k) % P] send"},
  {"alltoall_ps.pam", "P", "all-to-all rounds on ps(1) links, link[(p + k) % P]"},
  {"alltoall_ps_pack.pam", "P", "the same, cpu[p] pack || link[(p + k) % P] send"},
  {"ring_par.pam", "P", "ring exchange, the two sends at once: nic[(p + 1) % P] || nic[(p + P - 1) % P]"},
  {"ring_par_drift.pam", "P", "the same without a barrier, par (p) repeat (steps)"},
  {"ring_if_drift.pam", "P", "the same written with if (p == P - 1) ... else ..., par (p) seq (s)"},
  {"ring_par_unequal.pam", "P", "the same with 8 KiB to the right || 64 B to the left"},
  {"ring_par_dirs.pam", "P", "the same with par (d = 0, 1) over the directions"},
  {"ring_overlap.pam", "P", "the same overlapped with the interior update, cpu[p] again after"},
  {"grid_par.pam", "Q", "Q x Q torus halo, four sends at once"},
  {"grid_par_drift.pam", "Q", "the same without a barrier, par (p) repeat (steps)"},
  {"bus_par.pam", "P", "two messages at once on one shared bus"},
  {"block_tasks.pam", "P", "N tasks dealt in blocks, cpu[floor(i / ceil(N / P))]"},
  {"block_nodes.pam", "P", "ranks on nodes of 4, node[floor(p / 4)] = fcfs(4), then its nic"},
  {"block_nodes_par.pam", "P", "the same, nic || disk of the node, then an ack on the nic"},
  {"block_nodes_shared.pam", "P", "4 ranks to a node of 2 cores (fcfs(2)), then its nic"},
  {"line_par.pam", "P", "line without wrap, if (p > 0) nic[p - 1] || if (p < P - 1) nic[p + 1]"},
  {"line_chain.pam", "P", "the same one message after the other, unequal work (p % 2)"},
  {"line_guarded.pam", "P", "the same, sends first, equal work: rank 0's and rank 2's first sends meet"},
  {"pool_hold_classes.pam", "Q", "queries held on a pool of 4, hold (pool) if (q % 3 == 0) heavy else light"},
  {"threads_ps_worker.pam", "T", "T threads of (1 + t % 4) units on ps(2) through a worker(t) process"},
  {"master_guard.pam", "P", "master rounds of P - 1 workers, if ((r - 1) * W + w <= N)"},
  {"hold_ring.pam", "P", "ring: hold (rlock[(p + 1) % P]) use(cpu[p], t) after own compute"},
  {"grid_edge.pam", "Q", "Q x Q grid without wrap, four guarded sends at once"},
  {"root_work.pam", "P", "if (p == 0) root's work else work and a report to the root"},
  {"remainder_cores.pam", "N", "N tasks over 8 workers, if (w < N % P) one more, on fcfs(4) cores"},
  {"master_rounds.pam", "P", "master/worker in rounds: master, then own cpu, repeat (rounds)"},
  {"scatter_halo.pam", "P", "scatter through the root's nic, compute, ring halo, gather to it"},
  {"master_queue.pam", "P", "master/worker in ceil(N / P) rounds: task queue, own cpu, collector"},
  {"master_remainder.pam", "P", "master/worker, repeat (floor(N / (P - 1)) + (w <= N % (P - 1) ? 1 : 0))"},
  {"checker_grid.pam", "Q", "red/black torus, compute (1 + (i + j) % 2) t, pack, two halos at once"},
  {"checker_late.pam", "Q", "the same, red halos reach black nics before their packs (FCFS order)"},
  {"checker_flat.pam", "Q", "the same numbered row by row, par (p = 0, Q * Q - 1), nic[(p + Q) % (Q * Q)]"},
  {"pool_unequal.pam", "P", "P jobs of (p + 1) units at once on fcfs(4), in index order"},
  {"remainder_expr.pam", "P", "N = 30 tasks dealt floor(N / P) + (w < N % P ? 1 : 0) on fcfs(4) cores"},
  {"block_pool.pam", "P", "N = 30 tasks in blocks of ceil(N / P) on fcfs(4) cores, the last short"},
  {"threads_lock.pam", "T", "T threads on fcfs(2) cores, K rounds of work then hold (mutex)"},
  {"lock_handoff.pam", "T", "T threads on 8 cores, a lock with handoff(1us), work after it"},
  {"lock_ps.pam", "T", "T threads on ps(4) cores, then hold (log_lock) use(cores, t)"},
  {"lock_log.pam", "T", "T threads on 4 cores, a log record written to a disk under its lock"},
  {"gather_waves.pam", "P", "compute t (1 + p % 4), then a gather at one root nic, in waves"},
  {"line_interior.pam", "P", "par (p = 1, P - 2): nic[p + 1] || nic[p - 1] after the compute"},
  {"grid_open_par.pam", "Q", "Q x Q grid without wrap, two indices, four guarded sends at once"},
  {"grid_flat_rowstart.pam", "Q", "Q x Q torus with one index, rows at p - p % Q, (p % Q + 1) % Q"},
  {"grid_flat_floor.pam", "Q", "the same, Q * floor(p / Q) + (p + 1) % Q, sends at once"},
  {"grid_rect_flat.pam", "C", "3 x C torus with one index, (p - p % C) + (p % C + 1) % C"},
  {"grid_ring2d.pam", "Q", "ring over a Q x Q grid, par (i) par (j), (i*Q + j + 1) % (Q*Q)"},
  {"grid_flat_cond.pam", "Q", "Q x Q torus with one index, the row wrap as a test on p % Q"},
  {"stencil_allreduce.pam", "P", "ring halo at once, then 2 ceil(log2 P) uses of the own nic"},
  {"lock_rounds.pam", "T", "T threads on fcfs(16) cores, K rounds of work then a mutex with handoff"},
  {"lock_pair.pam", "T", "T threads on 4 cores, hold (a) then hold (b), both computing on the cores"},
  {"lock_pair_work.pam", "T", "T threads on 8 cores, lock a, more work, lock b, work"},
  {"lock_ps_rounds.pam", "T", "T threads on ps(2) cores, K rounds of work then hold (mutex)"},
  {"lock_two.pam", "T", "T threads on 4 cores, then hold (a), then hold (b)"},
  {"lock_counter.pam", "T", "T threads, K rounds of local work then a counter under a mutex, wake-up 1.5us"},
  {"lock_reduce.pam", "T", "dealt share on cpu[w], then a critical section with a wake-up cost"},
  {"lock_nested.pam", "T", "T threads on 4 cores, hold (a) { cores; hold (b) }, b with a wake-up cost"},
  {"lock_sem.pam", "T", "a semaphore of 4 around a link and ps(8) cores"},
  {"lock_ps_counter.pam", "T", "T threads on ps(4) cores, K rounds of work then a mutex with a wake-up cost"},
  {"lock_spaced.pam", "T", "T requests every 4 us, each a mutex (wake-up 3 us) then a reply: never contended"},
  {"lock_pool.pam", "T", "T requests on a pool of 4 connections, a query on a ps(2) db then a wait"},
  {"lock_fork.pam", "T", "T threads on ps(2) cores, 3 rounds of work then a commit to disk || net under a mutex"},
  {"lock_ps_crit.pam", "T", "T threads on ps(4) cores, 4 rounds of work then an update on the cores under a mutex"},
  {"slots_rounds.pam", "T", "T threads, K rounds of work then a query on a pool of 2 connections, wake-up 200ns"},
  {"nested_shift.pam", "Q", "par (g) par (r) over Q x Q ranks, a send to port[(g + r + 1) % Q]"},
  {"alltoall_late.pam", "P", "all-to-all rounds after rank 0 reads 4 us: cpu[p] pack, port[(p + k) % P] send"},
  {"ring_monitor.pam", "P", "ring exchange beside a monitor thread's log on nic[0]"},
  {"shift_exception.pam", "P", "shift to (p + 1) % P, rank 0 to rank 2 instead"},
  {"block_gather_all.pam", "P", "blocks of ceil(N / P) rows, the last ones empty, all ranks gather"},
  {"ring_allgather_rows.pam", "P", "ring allgather of rows dealt with remainders, a barrier per step"},
  {"grid_open_chain.pam", "Q", "open grid, halos right, left, down, up one after the other under edge tests"},
  {"pipeline_root.pam", "P", "a pipeline of S = 8 stages per rank (M = 32 chunks), then a send to one root"},
  {"threads_cores_ring.pam", "T", "T threads on 4 fcfs cores per rank, then both ring sends at once"},
  {"master_disk.pam", "P", "master NIC, own cpu, then a write to fcfs(4) disks (the NIC spaces them)"},
  {"threads_ps_repeat.pam", "T", "T threads of 10 rounds (1 + t % 2) w on ps(4) cores"},
};

static const char *const idiom_sizes[] = {"1", "2", "3", "10", "100", "1000", "10000"};

/* Worst figures over the idiom rows. */
typedef struct IdiomTally {
  double worst_hi;               /* largest hi / sim */
  double worst_err;              /* largest |est - sim| / sim */
  int unsound;                   /* rows with sim outside [lo, hi] */
  int stopped;                   /* rows whose simulation was stopped or not possible */
} IdiomTally;

/* One idiom at param = value: reduce with the param free, evaluate at the point; simulate with
** the define. Returns -1 on a failure, else 0 (the tally holds the figures). */
static int idiom_row(const IdiomModel *model, const char *value, IdiomTally *tally) {
  char path[256], raw[64], label[64];
  snprintf(path, sizeof path, "bench/tight/%s", model->file);
  snprintf(raw, sizeof raw, "%s=%s", model->param, value);
  snprintf(label, sizeof label, "%s=%s", model->param, value);
  ProgramDefine define = {model->param, value, raw};
  DiagList diags;
  diag_init(&diags);
  Program prog;
  if (load(&prog, &diags, path, &define, 0) != 0) {   /* outside the declared range, most likely */
    printf("  %-20s %-8s not run: %s\n", model->file, label, diags.count ? diags.items[0].message : "does not load");
    program_free(&prog);
    diag_free(&diags);
    return 0;
  }
  double lo, est, hi, pamc_seconds;
  if (closed_form(path, 0, model->param, value, &lo, &est, &hi, &pamc_seconds)) {
    program_free(&prog);
    diag_free(&diags);
    return -1;
  }
  SimOptions opts = {SIM_SCENARIO_MID, 1, 1, NULL, NULL, IDIOM_SIM_SECONDS, 0};
  SimReport report;
  SimError err;
  int status = sim_simulate(program_entry(&prog), &opts, &report, &err);
  if (status != 0) {
    const char *why = strstr(err.message, "wall-clock") ? "simulation stopped" : err.message;
    printf("  %-20s %-8s %12.4g %12.4g %12s %12.4g %10s %10s %10s  (%s)\n", model->file, label, lo, est, "-",
           hi, "-", "-", "-", why);
    tally->stopped++;
  } else {
    double sim = report.time_mean;
    sim_report_free(&report);
    int unsound = sim < lo - BENCH_REL_TOL * lo || sim > hi + BENCH_REL_TOL * hi;
    double sim_lo = sim > 0 ? sim / lo : 1, hi_sim = sim > 0 ? hi / sim : 1;
    double error = sim > 0 ? (est > sim ? est - sim : sim - est) / sim : 0;
    if (hi_sim > tally->worst_hi) tally->worst_hi = hi_sim;
    if (error > tally->worst_err) tally->worst_err = error;
    tally->unsound += unsound;
    printf("  %-20s %-8s %12.4g %12.4g %12.4g %12.4g %10.4f %10.4f %10.4f%s%s%s\n", model->file, label, lo,
           est, sim, hi, sim_lo, hi_sim, error, unsound ? "  UNSOUND" : "", hi_sim > 2 ? "  hi/sim > 2" : "",
           error > 0.05 ? "  est off > 5%" : "");
  }
  program_free(&prog);
  diag_free(&diags);
  return 0;
}

/* The idioms at sizes 1 .. max_size. Returns 1 when a row is unsound or fails. */
static int bench_idioms(double max_size) {
  printf("\nidioms (bench/tight, point constants, no machine file): lo, est, sim, hi (s), sim/lo, hi/sim,\n"
         "|est - sim| / sim; targets: sound, hi/sim <= 2, |est - sim| / sim <= 5%%;\n"
         "pamc: reduce with the size free, evaluated at the point; sim: one simulation, stopped after %.0f s\n",
         IDIOM_SIM_SECONDS);
  printf("  %-20s %-8s %12s %12s %12s %12s %10s %10s %10s\n", "model", "size", "lo", "est", "sim", "hi",
         "sim/lo", "hi/sim", "|est-sim|");
  IdiomTally tally = {1, 0, 0, 0};
  int failed = 0;
  for (size_t m = 0; m < sizeof idioms / sizeof idioms[0]; m++) {
    printf("  %s\n", idioms[m].what);
    for (size_t k = 0; k < sizeof idiom_sizes / sizeof idiom_sizes[0]; k++) {
      if (atof(idiom_sizes[k]) > max_size) break;
      if (idiom_row(&idioms[m], idiom_sizes[k], &tally) < 0) failed++;
      fflush(stdout);
    }
  }
  printf("idioms: worst hi/sim %.4f, worst |est - sim| / sim %.4f, unsound rows %d, rows not simulated %d\n",
         tally.worst_hi, tally.worst_err, tally.unsound, tally.stopped);
  return tally.unsound || failed ? 1 : 0;
}

int main(int argc, char **argv) {
  double max_size = argc > 1 ? atof(argv[1]) : 1e5;
  static const double sizes[4] = {1e2, 1e3, 1e4, 1e5};
  printf("tightness of the bounds against the simulator, and simulate / pamc wall time (%s)\n", BENCH_MACHINE);
  printf("  sim_lo/T_lo and T_hi/sim_hi: >= 1 when sound, 1 when tight; sim: one simulation (mid);\n"
         "  pamc: reduce with the param free + evaluate at the point\n");
  printf("  %-20s %-12s %10s %10s %12s %12s %12s\n", "model", "size", "sim_lo/T_lo", "T_hi/sim_hi",
         "sim (s)", "pamc (s)", "sim/pamc");
  int unsound = 0, failed = 0;
  for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
    for (int k = 0; k < 4 && sizes[k] <= max_size; k++) {
      int row = bench_row(&models[m], k);
      if (row > 0) unsound++;
      if (row < 0) failed++;
      fflush(stdout);
    }
    if (models[m].note[0]) printf("  %-20s (%s)\n", "", models[m].note);
  }
  printf("unsound rows: %d\n", unsound);
  int idioms_bad = bench_idioms(max_size < 1e4 ? max_size : 1e4);
  return unsound || failed || idioms_bad ? 1 : 0;
}
