/*
** test_sim.c — the reference simulator (lang/sim/sim.h) on small models whose makespans are derived
** by hand in the comments: the worked examples of EXAMPLES.md, FCFS order at equal times,
** multiplicity, fork/join, families, choose, if on an index, repeat, scenarios, run-time errors,
** and a seq of 10^7 steps in bounded memory.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "sim_case.h"

#define assert_close simtest_assert_close

/* ------------------------------------------------------------------ EXAMPLES.md */

static const char example1[] =
  "param N = 1_000_000;\nparam P = 8;\nparam iters = 10;\n"
  "const t_point = 1ns;\nconst latency = 2us;\nconst byte_time = 0.5ns;\n"
  "resource cpu[P];\nresource bus;\n"
  "fn msg(bytes) = latency + bytes * byte_time;\n"
  "process step(p) {\n  use(cpu[p], ceil(N / P) * t_point);\n  use(bus, msg(8 * 1024))\n}\n"
  "process main {\n  repeat (iters) par (p = 0, P - 1) step(p)\n}\n";

/* EXAMPLES.md §1: per iteration all 8 workers compute c = 125 us on their own cpu member, reach
** the bus together at 125 us and queue: the last leaves at 125 + 8 m, m = 2 + 8192 * 0.0005 =
** 6.096 us, so 173.768 us; 10 iterations: 1737.68 us. The bus serves 80 messages (487.68 us busy)
** and the k-th of each iteration waits (k-1) m: 28 m per iteration, 280 m = 1706.88 us in all. */
static void test_example1(void **state) {
  (void)state;
  SimCase c;
  simtest_run(&c, example1, SIM_SCENARIO_MID, 1, 1);
  assert_int_equal(c.status, 0);
  assert_close(c.report.time_mean, 1737.68e-6);
  const SimResourceReport *bus = simtest_resource(&c, "bus");
  assert_close(bus->waiting, 280 * 6.096e-6);
  assert_close(bus->utilisation, 80 * 6.096e-6 / 1737.68e-6);
  assert_close(bus->requests, 80);
  const SimResourceReport *cpu = simtest_resource(&c, "cpu");
  assert_int_equal(cpu->family, 1);
  assert_int_equal(cpu->members, 8);
  assert_int_equal(cpu->members_used, 8);
  assert_close(cpu->waiting, 0);
  /* each member: 10 x 125 us busy over 1737.68 us */
  assert_close(cpu->utilisation, 1250e-6 / 1737.68e-6);
  assert_close(cpu->max_member_utilisation, 1250e-6 / 1737.68e-6);
  simtest_done(&c);
}

/* EXAMPLES.md §2: four requests of 1 us on one server at time 0: 4 us. */
static void test_example2(void **state) {
  (void)state;
  assert_close(simtest_time("resource r;\nprocess main { par (p = 0, 1) par (q = 0, 1) use(r, 1us) }\n"),
               4e-6);
}

/* EXAMPLES.md §3 at N = 10: seq of i us, i = 1..10: 55 us; then par of use(mem, i us) on 4
** servers, all at once in index order: servers take 1,2,3,4 at 0; free at 1 -> 5 (ends 6), at 2 ->
** 6 (ends 8), at 3 -> 7 (ends 10), at 4 -> 8 (ends 12), at 6 -> 9 (ends 15), at 8 -> 10 (ends 18);
** last end 18 us: 55 + 18 = 73 us (between the bounds 68.75 and 76.25). */
static void test_example3(void **state) {
  (void)state;
  assert_close(simtest_time("param N = 10;\nconst t = 1us;\nresource mem = fcfs(4);\n"
                            "process main { seq (i = 1, N) delay(i * t); par (i = 1, N) use(mem, i * t) }\n"),
               73e-6);
}

/* ------------------------------------------------------------------ queueing order */

/* Branch 0 asks first (program order): it holds r 0..1 then delays to 11; branch 1 waits, holds
** 1..6. Makespan 11 us. The other order would give 5 + 1 + 10 = 16 us. */
static void test_fcfs_program_order(void **state) {
  (void)state;
  assert_close(simtest_time("resource r;\nprocess main { { use(r, 1us); delay(10us) } || use(r, 5us) }\n"),
               11e-6);
  assert_close(simtest_time("resource r;\nprocess main { use(r, 5us) || { use(r, 1us); delay(10us) } }\n"),
               16e-6);
}

/* Both branches end a 1 us delay at the same instant and then ask for r: the event scheduled
** first (branch 0) asks first: r 1..2, delay to 12; branch 1: 2..7. 12 us (reversed: 17 us). */
static void test_fcfs_equal_times(void **state) {
  (void)state;
  assert_close(simtest_time("resource r;\nprocess main {\n"
                            "  { delay(1us); use(r, 1us); delay(10us) } || { delay(1us); use(r, 5us) }\n}\n"),
               12e-6);
  assert_close(simtest_time("resource r;\nprocess main {\n"
                            "  { delay(1us); use(r, 5us) } || { delay(1us); use(r, 1us); delay(10us) }\n}\n"),
               17e-6);
  /* Program order, not scheduling order: both ask for r at 2 us, branch 1's event was scheduled
  ** first (at 0) but branch 0 comes first in program order: r 2..7 for branch 0, 7..8 for branch
  ** 1, which then delays to 18 us. (Scheduling order would give 2..3, 3..8: 13 us.) */
  assert_close(simtest_time("resource r;\nprocess main {\n"
                            "  { delay(1us); delay(1us); use(r, 5us) } || { delay(2us); use(r, 1us); delay(10us) }\n}\n"),
               18e-6);
  /* the same one fork deeper: the par's branches are ordered inside branch 0 of || */
  assert_close(simtest_time("resource r;\nprocess main {\n"
                            "  par (i = 0, 1) { delay(1us); delay(1us); use(r, 5us) } || { delay(2us); use(r, 1us); delay(10us) }\n}\n"),
               23e-6);
}

/* Depth first: par (i) { use(r, ...) } inside each branch of || queue in branch order, then
** index order. r: branch 0's indices 0,1 (2 us each), then branch 1's (1 us each): the last
** request ends at 2 + 2 + 1 + 1 = 6 us; branch 0 ends at 4 us, then delays 10: 14 us. */
static void test_depth_first(void **state) {
  (void)state;
  assert_close(simtest_time("resource r;\nprocess main {\n"
                            "  { par (i = 0, 1) use(r, 2us); delay(10us) } || par (i = 0, 1) use(r, 1us)\n}\n"),
               14e-6);
}

/* fcfs(2) with three equal requests of t: two served at once, the third waits t: 2t. Busy 3t over
** 2 servers x 2t: 75 %; waiting t. */
static void test_multiplicity(void **state) {
  (void)state;
  SimCase c;
  simtest_run(&c, "resource m = fcfs(2);\nprocess main { par (i = 0, 2) use(m, 3us) }\n",
              SIM_SCENARIO_MID, 1, 1);
  assert_int_equal(c.status, 0);
  assert_close(c.report.time_mean, 6e-6);
  const SimResourceReport *m = simtest_resource(&c, "m");
  assert_int_equal(m->servers, 2);
  assert_close(m->utilisation, 0.75);
  assert_close(m->waiting, 3e-6);
  simtest_done(&c);
}

/* ------------------------------------------------------------------ composition */

/* Join waits for the longest branch (3), then 2 more: 5 us. */
static void test_fork_join(void **state) {
  (void)state;
  assert_close(simtest_time("process main { { delay(1us) || delay(3us) }; delay(2us) }\n"), 5e-6);
  /* an empty par and skip take no time */
  assert_close(simtest_time("process main { par (i = 1, 0) delay(1us); skip; delay(1us) }\n"), 1e-6);
}

/* Each outer branch: 1 us, then an inner par of delays 0, 1, 2 us: 3 us; both branches at once:
** 3 us. Then a process call with an argument: 4 us more. */
static void test_nested_par(void **state) {
  (void)state;
  assert_close(simtest_time("process w(k) = delay(k * 1us);\n"
                            "process main { par (i = 0, 1) { delay(1us); par (j = 0, 2) w(j) }; w(4) }\n"),
               7e-6);
}

/* Members of a family are resources of their own: 4 requests on 4 members take 1 us; on one
** member, 4 us; par over i, j with r[i] (2 members): each member serves 2 requests: 2 us. */
static void test_family_members(void **state) {
  (void)state;
  assert_close(simtest_time("resource cpu[4];\nprocess main { par (i = 0, 3) use(cpu[i], 1us) }\n"), 1e-6);
  assert_close(simtest_time("resource cpu[4];\nprocess main { par (i = 0, 3) use(cpu[2], 1us) }\n"), 4e-6);
  assert_close(simtest_time("resource r[2];\nprocess main { par (i = 0, 1) par (j = 0, 1) use(r[i], 1us) }\n"),
               2e-6);
  /* a large family: only the members used cost memory; 1000 members spread over 10^9 */
  SimCase c;
  simtest_run(&c, "resource big[1000000000];\n"
                  "process main { par (i = 0, 999) use(big[i * 1000000 + 7], 1us) }\n",
              SIM_SCENARIO_MID, 1, 1);
  assert_int_equal(c.status, 0);
  assert_close(c.report.time_mean, 1e-6);
  assert_int_equal(simtest_resource(&c, "big")->members_used, 1000);
  simtest_done(&c);
}

/* ------------------------------------------------------------------ against independent computations */

/* Random models checked against textbook recurrences computed here, not by the simulator. */
static unsigned long long simtest_rng_state = 0x2545f4914f6cdd1dULL;
static int simtest_rand(int lo, int hi) {
  unsigned long long x = simtest_rng_state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  simtest_rng_state = x;
  return lo + (int)(x % (unsigned long long)(hi - lo + 1));
}

/* k requests of d_1..d_k ns at time 0, in branch order, on fcfs(m): list scheduling, each job on
** the server that frees first; the makespan is the last end. */
static void test_random_list_scheduling(void **state) {
  (void)state;
  for (int trial = 0; trial < 40; trial++) {
    int k = simtest_rand(1, 25), m = simtest_rand(1, 4);
    char text[4096];
    int at = snprintf(text, sizeof text, "resource r = fcfs(%d);\nprocess main { ", m);
    double free_at[4] = {0, 0, 0, 0}, last = 0;
    for (int i = 0; i < k; i++) {
      int d = simtest_rand(1, 9);
      at += snprintf(text + at, sizeof text - (size_t)at, "%suse(r, %dns)", i ? " || " : "", d);
      int best = 0;
      for (int s = 1; s < m; s++)
        if (free_at[s] < free_at[best]) best = s;
      free_at[best] += d;
      if (free_at[best] > last) last = free_at[best];
    }
    snprintf(text + at, sizeof text - (size_t)at, " }\n");
    assert_close(simtest_time(text), last * 1e-9);
  }
}

/* A two-machine flow shop: branch i does use(a, x_i); use(b, y_i). Jobs leave a in order at
** A_i = x_1 + ... + x_i (distinct instants), so b serves them in order:
** B_i = max(A_i, B_(i-1)) + y_i; the makespan is B_k. */
static void test_random_flow_shop(void **state) {
  (void)state;
  for (int trial = 0; trial < 40; trial++) {
    int k = simtest_rand(1, 20);
    char text[4096];
    int at = snprintf(text, sizeof text, "resource a;\nresource b;\nprocess main { ");
    double done_a = 0, done_b = 0;
    for (int i = 0; i < k; i++) {
      int x = simtest_rand(1, 9), y = simtest_rand(1, 9);
      at += snprintf(text + at, sizeof text - (size_t)at, "%s{ use(a, %dus); use(b, %dus) }",
                     i ? " || " : "", x, y);
      done_a += x;
      done_b = (done_a > done_b ? done_a : done_b) + y;
    }
    snprintf(text + at, sizeof text - (size_t)at, " }\n");
    assert_close(simtest_time(text), done_b * 1e-6);
  }
}

/* Random statement trees, summarised here while they are written: phi (critical path without
** contention), the total work, and the demand on each resource. With more servers than requests
** the simulated time is phi exactly; with one or two servers it lies between
** max(phi, D_r / m_r) and the total work (some activity is always in progress). */
typedef struct SimtestSummary {
  double phi;               /* contention-free time (ns) */
  double work;              /* sum of all durations (ns) */
  double demand[2];         /* on r0 and r1 (ns) */
} SimtestSummary;

static SimtestSummary simtest_tree(char *text, size_t size, int *at, int depth) {
  SimtestSummary s = {0, 0, {0, 0}};
  int kind = depth >= 3 ? simtest_rand(0, 1) : simtest_rand(0, 5);
#define EMIT(...) (*at += snprintf(text + *at, size - (size_t)*at, __VA_ARGS__))
  if (kind == 0) {
    int d = simtest_rand(0, 9);
    EMIT("delay(%dns)", d);
    s.phi = s.work = d;
  } else if (kind == 1) {
    int d = simtest_rand(1, 9), r = simtest_rand(0, 1);
    EMIT("use(r%d, %dns)", r, d);
    s.phi = s.work = s.demand[r] = d;
  } else if (kind == 2 || kind == 3) {
    int count = simtest_rand(1, 3);
    EMIT("{ ");
    for (int i = 0; i < count; i++) {
      if (i) EMIT(kind == 2 ? "; " : " || ");
      SimtestSummary k = simtest_tree(text, size, at, depth + 1);
      s.phi = kind == 2 ? s.phi + k.phi : (k.phi > s.phi ? k.phi : s.phi);
      s.work += k.work;
      s.demand[0] += k.demand[0];
      s.demand[1] += k.demand[1];
    }
    EMIT(" }");
  } else {
    int n = simtest_rand(1, 3);
    EMIT(kind == 4 ? "repeat (%d) { " : "par (i = 1, %d) { ", n);
    SimtestSummary k = simtest_tree(text, size, at, depth + 1);
    EMIT(" }");
    s.phi = kind == 4 ? n * k.phi : k.phi;
    s.work = n * k.work;
    s.demand[0] = n * k.demand[0];
    s.demand[1] = n * k.demand[1];
  }
#undef EMIT
  return s;
}

static void test_random_trees(void **state) {
  (void)state;
  for (int trial = 0; trial < 200; trial++) {
    char body[8192];
    int at = 0;
    SimtestSummary s = simtest_tree(body, sizeof body, &at, 0);
    char text[8400];
    /* enough servers for every request at once: no waiting, time = phi */
    snprintf(text, sizeof text, "resource r0 = fcfs(10000);\nresource r1 = fcfs(10000);\n"
             "process main { %s }\n", body);
    assert_close(simtest_time(text), s.phi * 1e-9);
    /* contention */
    snprintf(text, sizeof text, "resource r0;\nresource r1 = fcfs(2);\nprocess main { %s }\n", body);
    double t = simtest_time(text) * 1e9, least = s.phi;
    if (s.demand[0] > least) least = s.demand[0];
    if (s.demand[1] / 2 > least) least = s.demand[1] / 2;
    if (t < least * (1 - 1e-9) || t > s.work * (1 + 1e-9))
      fail_msg("%s\ntime %g ns outside [%g, %g]", text, t, least, s.work);
  }
}

/* ------------------------------------------------------------------ values */

/* Arguments, loop indices and binders in one frame. For i = 1..3 the par over j runs delays of
** (2 * i(i+1)/2 + 5 j) us, the longest at j = 1: i(i+1) + 5; summed: 7 + 11 + 17 = 35 us. Then
** tri(4) = 10 us through a fn with a binder, and hi([1us, 2us] * i) for i = 1, 2 (index-dependent:
** taken apart at run time) = 2 + 4 us under the lo scenario: 35 + 10 + 6 = 51 us. */
static void test_indices_and_args(void **state) {
  (void)state;
  SimCase c;
  simtest_run(&c, "fn tri(n) = sum(k = 1, n, k);\n"
                  "process w(a, b) { seq (i = 1, 3) par (j = 0, 1) delay(sum(k = 1, i, k) * a * 1us + j * b * 1us) }\n"
                  "process main { w(2, 5); delay(tri(4) * 1us); seq (i = 1, 2) delay(hi([1us, 2us] * i)) }\n",
              SIM_SCENARIO_LO, 1, 1);
  assert_int_equal(c.status, 0);
  assert_close(c.report.time_mean, 51e-6);
  simtest_done(&c);
}

/* ------------------------------------------------------------------ branches */

static void test_choose(void **state) {
  (void)state;
  assert_close(simtest_time("process main { choose (1) delay(1us) else delay(2us) }\n"), 1e-6);
  assert_close(simtest_time("process main { choose (0) delay(1us) else delay(2us) }\n"), 2e-6);
  assert_close(simtest_time("process main { choose (0) delay(1us) }\n"), 0);
  /* p = 1/2 over 10000 draws: 5000 us expected, sd 50 us; 6 sd either side cannot fail by chance */
  SimCase c;
  simtest_run(&c, "process main { repeat (10000) choose (0.5) delay(1us) else skip }\n",
              SIM_SCENARIO_MID, 1, 42);
  assert_int_equal(c.status, 0);
  assert_true(fabs(c.report.time_mean - 5000e-6) < 300e-6);
  simtest_done(&c);
  /* same seed, same draws; another seed, other draws (equal by chance with tiny probability) */
  SimCase d, e;
  const char *model = "process main { repeat (1000) choose (0.5) delay(1us) else skip }\n";
  simtest_run(&d, model, SIM_SCENARIO_MID, 1, 7);
  simtest_run(&e, model, SIM_SCENARIO_MID, 1, 7);
  assert_close(d.report.time_mean, e.report.time_mean);
  simtest_done(&e);
  simtest_run(&e, model, SIM_SCENARIO_MID, 1, 8);
  assert_true(d.report.time_mean != e.report.time_mean);
  simtest_done(&d);
  simtest_done(&e);
}

/* i = 0..9: even i take 1 us, odd 3 us: 5 + 15 = 20 us. */
static void test_if_on_index(void **state) {
  (void)state;
  assert_close(simtest_time("process main { seq (i = 0, 9) if (i % 2 == 0) delay(1us) else delay(3us) }\n"),
               20e-6);
  /* par with if on the index: branch 0 takes 5 us, the others 1 us: 5 us */
  assert_close(simtest_time("process main { par (p = 0, 7) if (p == 0) delay(5us) else delay(1us) }\n"),
               5e-6);
}

/* repeat(7) of a 2 us use: 14 us; repeat(0): nothing. */
static void test_repeat(void **state) {
  (void)state;
  assert_close(simtest_time("resource r;\nprocess main { repeat (7) use(r, 2us) }\n"), 14e-6);
  assert_close(simtest_time("process main { repeat (0) delay(1us); delay(1ns) }\n"), 1e-9);
}

/* ------------------------------------------------------------------ scenarios */

static void test_scenarios(void **state) {
  (void)state;
  const char *model = "const t = [1us, 3us];\nprocess main { delay(t); delay([2us, 4us]) }\n";
  SimCase c;
  simtest_run(&c, model, SIM_SCENARIO_LO, 1, 1);
  assert_close(c.report.time_mean, 3e-6);
  simtest_done(&c);
  simtest_run(&c, model, SIM_SCENARIO_MID, 1, 1);
  assert_close(c.report.time_mean, 5e-6);
  simtest_done(&c);
  simtest_run(&c, model, SIM_SCENARIO_HI, 1, 1);
  assert_close(c.report.time_mean, 7e-6);
  simtest_done(&c);
  /* random: every run within [3, 7] us, runs differ */
  simtest_run(&c, model, SIM_SCENARIO_RANDOM, 20, 5);
  assert_int_equal(c.status, 0);
  assert_int_equal(c.report.runs, 20);
  assert_true(c.report.time_min >= 3e-6 && c.report.time_max <= 7e-6);
  assert_true(c.report.time_min < c.report.time_max);
  simtest_done(&c);
  /* one value per const per run: t - t is exactly 0 (a value per use would make it nonzero and
  ** sometimes negative: an error) */
  simtest_run(&c, "const t = [1us, 3us];\nprocess main { delay(t - t + 1us) }\n",
              SIM_SCENARIO_RANDOM, 10, 3);
  assert_int_equal(c.status, 0);
  assert_true(c.report.time_min == 1e-6 && c.report.time_max == 1e-6);
  simtest_done(&c);
  /* hi(t) is the interval's end in every scenario */
  simtest_run(&c, "const t = [1us, 3us];\nprocess main { delay(hi(t)) }\n", SIM_SCENARIO_LO, 1, 1);
  assert_close(c.report.time_mean, 3e-6);
  simtest_done(&c);
}

/* ------------------------------------------------------------------ errors */

static void expect_error(const char *text, int line, const char *words) {
  SimCase c;
  simtest_run(&c, text, SIM_SCENARIO_MID, 1, 1);
  assert_int_equal(c.status, -1);
  if (!strstr(c.err.message, words)) fail_msg("message '%s' lacks '%s'", c.err.message, words);
  assert_int_equal(c.err.loc.line, line);
  assert_non_null(c.err.loc.file);
  simtest_done(&c);
}

static void test_errors(void **state) {
  (void)state;
  expect_error("process main {\n  seq (i = 0, 2)\n    delay((1 - i) * 1us)\n}\n", 3, "negative duration");
  expect_error("resource cpu[4];\nprocess main {\n  par (i = 0, 4) use(cpu[i], 1us)\n}\n", 3, "out of range");
  expect_error("param n = 2.5;\nprocess main {\n  seq (i = 1, n) delay(1us)\n}\n", 3, "not an integer");
  /* at the declaration, in the words of every command (issue 14, item 10) */
  expect_error("const t;\nprocess main {\n  delay(t)\n}\n", 1, "const 't' has no value: give it in a machine file");
  expect_error("process main {\n  choose (1.5) delay(1us)\n}\n", 2, "probability");
}

/* ------------------------------------------------------------------ size */

static long max_rss_kib(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

/* 10^7 steps of 1 ns: 10 ms, with memory that does not grow with the steps (an event list of
** 10^7 entries would take 240 MB; allow 32 MB of growth for everything else). */
static void test_long_seq_bounded_memory(void **state) {
  (void)state;
  long before = max_rss_kib();
  SimCase c;
  simtest_run(&c, "process main { seq (i = 1, 10000000) delay(1ns) }\n", SIM_SCENARIO_MID, 1, 1);
  assert_int_equal(c.status, 0);
  assert_true(fabs(c.report.time_mean - 0.01) < 1e-9);
  assert_true(c.report.events == 10000000);
  simtest_done(&c);
  long grown = max_rss_kib() - before;
  if (grown > 32 * 1024) fail_msg("memory grew by %ld KiB", grown);
}

static void test_format_time(void **state) {
  (void)state;
  char buf[32];
  assert_string_equal(sim_format_time(1737.68e-6, buf, sizeof buf), "1.738 ms");
  assert_string_equal(sim_format_time(4e-6, buf, sizeof buf), "4 us");
  assert_string_equal(sim_format_time(0, buf, sizeof buf), "0 s");
  assert_string_equal(sim_format_time(2.5, buf, sizeof buf), "2.5 s");
  assert_string_equal(sim_format_time(1e-9, buf, sizeof buf), "1 ns");
  /* past 1000 s, minutes; past 6000 s (100 min), hours */
  assert_string_equal(sim_format_time(999, buf, sizeof buf), "999 s");
  assert_string_equal(sim_format_time(1500, buf, sizeof buf), "25 min");
  assert_string_equal(sim_format_time(5400, buf, sizeof buf), "90 min");
  assert_string_equal(sim_format_time(9000, buf, sizeof buf), "2.5 h");
  double scale;
  assert_string_equal(sim_time_unit(0.0123, &scale), "ms");
  assert_true(scale == 1e-3);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_example1),
    cmocka_unit_test(test_example2),
    cmocka_unit_test(test_example3),
    cmocka_unit_test(test_fcfs_program_order),
    cmocka_unit_test(test_fcfs_equal_times),
    cmocka_unit_test(test_depth_first),
    cmocka_unit_test(test_multiplicity),
    cmocka_unit_test(test_random_list_scheduling),
    cmocka_unit_test(test_random_flow_shop),
    cmocka_unit_test(test_random_trees),
    cmocka_unit_test(test_fork_join),
    cmocka_unit_test(test_nested_par),
    cmocka_unit_test(test_family_members),
    cmocka_unit_test(test_choose),
    cmocka_unit_test(test_if_on_index),
    cmocka_unit_test(test_indices_and_args),
    cmocka_unit_test(test_repeat),
    cmocka_unit_test(test_scenarios),
    cmocka_unit_test(test_errors),
    cmocka_unit_test(test_format_time),
    cmocka_unit_test(test_long_seq_bounded_memory),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
