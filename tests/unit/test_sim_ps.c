/*
** test_sim_ps.c — processor sharing (`ps(c)`, LANGUAGE.md §8) and hand-offs (`handoff(h)`) in the
** simulator, against schedules computed by hand in each test's comment: with n requests present
** at ps(c) each progresses at rate min(1, c/n), and the rates change at every arrival and
** departure; a released fcfs server passes to a waiting request h seconds later.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "sim_case.h"

#define CPU2 "resource cpu = ps(2);\n"
#define CPU1 "resource cpu = ps(1);\n"

/* 3 requests of 1 on ps(2) arriving at 0, 0.5, 1: at most two present (A leaves at 1, the
** instant C arrives), each at rate 1: A 0..1, B 0.5..1.5, C 1..2. Makespan 2. */
static void test_ps_staggered_unit(void **state) {
  (void)state;
  simtest_assert_close(simtest_time(CPU2 "process main { use(cpu, 1) || { delay(0.5); use(cpu, 1) } || "
                                    "{ delay(1); use(cpu, 1) } }\n"), 2);
}

/* 3 requests of 2 on ps(2) arriving at 0, 0.5, 1:
**   0..0.5  A alone, rate 1: A has 1.5 left.   0.5..1  A, B at rate 1: A 1, B 1.5 left.
**   1..2.5  A, B, C at rate 2/3: A's 1 takes 1.5: A ends at 2.5; B has 0.5, C 1 left.
**   2.5..3  B, C at rate 1: B ends at 3; C has 0.5 left.  3..3.5  C alone: ends at 3.5.
** A ends 2.5, B 3, C 3.5 (read with a 10 s delay after each in turn). */
static void test_ps_staggered_three(void **state) {
  (void)state;
  simtest_assert_close(simtest_time(CPU2 "process main { use(cpu, 2) || { delay(0.5); use(cpu, 2) } || "
                                    "{ delay(1); use(cpu, 2) } }\n"), 3.5);
  simtest_assert_close(simtest_time(CPU2 "process main { { use(cpu, 2); delay(10) } || { delay(0.5); use(cpu, 2) } || "
                                    "{ delay(1); use(cpu, 2) } }\n"), 12.5);
  simtest_assert_close(simtest_time(CPU2 "process main { use(cpu, 2) || { delay(0.5); use(cpu, 2); delay(10) } || "
                                    "{ delay(1); use(cpu, 2) } }\n"), 13);
}

/* Two requests of 1 on ps(1) share it at rate 1/2 and both end at 2, the same instant: program
** order then queues branch 0 first at the fcfs r: r 2..3, delay to 13; branch 1 r 3..8. 13 s
** (the other order: 2..7, 7..8, 18 s). */
static void test_ps_equal_ends_tie(void **state) {
  (void)state;
  simtest_assert_close(simtest_time(CPU1 "resource r;\nprocess main { { use(cpu, 1); use(r, 1); delay(10) } || "
                                    "{ use(cpu, 1); use(r, 5) } }\n"), 13);
}

/* Any positive capacity: 3 requests of 1 on ps(1.6) run at 1.6/3 each and end together at
** 1 / (1.6/3) = 1.875; 2 requests of 1 at 0.8 each end at 1.25; 1 request runs at 1 (never faster
** than alone), 1 s. */
static void test_ps_fractional_capacity(void **state) {
  (void)state;
  simtest_assert_close(simtest_time("resource cpu = ps(1.6);\nprocess main { par (i = 0, 2) use(cpu, 1) }\n"), 1.875);
  simtest_assert_close(simtest_time("resource cpu = ps(1.6);\nprocess main { par (i = 0, 1) use(cpu, 1) }\n"), 1.25);
  simtest_assert_close(simtest_time("resource cpu = ps(1.6);\nprocess main { use(cpu, 1) }\n"), 1);
}

/* Departures speed the others up. Works 1, 2, 3 at 0 on ps(1): rate 1/3 until the first has its 1
** (t = 3); then two at 1/2: the second's last 1 takes 2 (t = 5); the third's last 1 alone (t = 6).
** Ends 3, 5, 6; with delays 10, 5, 0 after them: max(13, 10, 6) = 13. */
static void test_ps_departures(void **state) {
  (void)state;
  simtest_assert_close(simtest_time(CPU1 "process main { { use(cpu, 1); delay(10) } || { use(cpu, 2); delay(5) } || "
                                    "use(cpu, 3) }\n"), 13);
  simtest_assert_close(simtest_time(CPU1 "process main { use(cpu, 1) || use(cpu, 2) || use(cpu, 3) }\n"), 6);
}

/* An arrival mid-way: A (2) at 0 alone until 1 (1 left); B (1) arrives at 1; both at 1/2: both end
** at 3, the same instant; then r in program order: A's branch r 3..4, delay to 14; B r 4..9. 14 s. */
static void test_ps_arrival_midway(void **state) {
  (void)state;
  simtest_assert_close(simtest_time(CPU1 "resource r;\nprocess main { { use(cpu, 2); use(r, 1); delay(10) } || "
                                    "{ delay(1); use(cpu, 1); use(r, 5) } }\n"), 14);
}

/* Three staggered arrivals on ps(1): A, B, C of 1 at 0, 0.25, 0.5.
**   0..0.25 A alone: 0.75 left.  0.25..0.5 A, B at 1/2: A 0.625, B 0.875 left.
**   0.5.. A, B, C at 1/3: A's 0.625 takes 1.875: A ends at 2.375; B 0.25, C 0.375 left.
**   2.375.. B, C at 1/2: B ends at 2.875; C 0.125 left, alone: ends at 3.
** With 10 s after A: 12.375; makespan 3 (always busy, total work 3). */
static void test_ps_three_staggered_ps1(void **state) {
  (void)state;
  simtest_assert_close(simtest_time(CPU1 "process main { { use(cpu, 1); delay(10) } || { delay(0.25); use(cpu, 1) } || "
                                    "{ delay(0.5); use(cpu, 1) } }\n"), 12.375);
  simtest_assert_close(simtest_time(CPU1 "process main { use(cpu, 1) || { delay(0.25); use(cpu, 1); delay(10) } || "
                                    "{ delay(0.5); use(cpu, 1) } }\n"), 12.875);
  simtest_assert_close(simtest_time(CPU1 "process main { use(cpu, 1) || { delay(0.25); use(cpu, 1) } || "
                                    "{ delay(0.5); use(cpu, 1) } }\n"), 3);
}

/* A ps(2) with A, B of 3 at 0 and C of 1 at 1: 0..1 two at rate 1 (2 left each); from 1 three at
** 2/3: C's 1 takes 1.5, C ends at 2.5; A and B got 1 (1 left each), then at rate 1: end at 3.5. */
static void test_ps_short_request_passes(void **state) {
  (void)state;
  simtest_assert_close(simtest_time(CPU2 "process main { use(cpu, 3) || use(cpu, 3) || { delay(1); use(cpu, 1); delay(10) } }\n"),
                       12.5);
  simtest_assert_close(simtest_time(CPU2 "process main { use(cpu, 3) || use(cpu, 3) || { delay(1); use(cpu, 1) } }\n"), 3.5);
}

/* A par of T equal requests on ps(C) takes max(1, T / C) times one request: 5 on ps(2): 2.5; 1 on
** ps(2): 1; a family's members are processors of their own: 4 requests on link[2] = ps(1), two per
** member: 2. */
static void test_ps_par_and_family(void **state) {
  (void)state;
  simtest_assert_close(simtest_time(CPU2 "process main { par (i = 0, 4) use(cpu, 1) }\n"), 2.5);
  simtest_assert_close(simtest_time(CPU2 "process main { par (i = 0, 0) use(cpu, 1) }\n"), 1);
  simtest_assert_close(simtest_time("resource link[2] = ps(1);\nprocess main { par (i = 0, 3) use(link[i % 2], 1) }\n"), 2);
}

/* An interval capacity takes the scenario's value: ps([1, 2]) with 2 requests of 1: lo c = 1, both
** at 1/2: 2; hi c = 2: 1; mid c = 1.5, rate 0.75: 4/3; typ 1.2 (typical value): rate 0.6: 5/3. */
static void test_ps_interval_capacity(void **state) {
  (void)state;
  const char *model = "resource cpu = ps([1, 2] typ 1.2);\nprocess main { par (i = 0, 1) use(cpu, 1) }\n";
  const SimScenario scenarios[] = {SIM_SCENARIO_LO, SIM_SCENARIO_HI, SIM_SCENARIO_MID, SIM_SCENARIO_TYP};
  const double want[] = {2, 1, 4.0 / 3, 5.0 / 3};
  for (int i = 0; i < 4; i++) {
    SimCase c;
    simtest_run(&c, model, scenarios[i], 1, 1);
    assert_int_equal(c.status, 0);
    simtest_assert_close(c.report.time_max, want[i]);
    simtest_done(&c);
  }
}

/* Utilisation and time lost to sharing: 2 requests of 1 on ps(1) end at 2: busy 2 of 1 x 2 s
** (100%); each was present 2 s for 1 s of work: 2 s lost in all. */
static void test_ps_report(void **state) {
  (void)state;
  SimCase c;
  simtest_run(&c, CPU1 "process main { use(cpu, 1) || use(cpu, 1) }\n", SIM_SCENARIO_MID, 1, 1);
  assert_int_equal(c.status, 0);
  const SimResourceReport *r = simtest_resource(&c, "cpu");
  assert_int_equal(r->ps, 1);
  simtest_assert_close(r->capacity, 1);
  simtest_assert_close(r->utilisation, 1);
  simtest_assert_close(r->waiting, 2);
  simtest_assert_close(r->requests, 2);
  simtest_done(&c);
}

/* ------------------------------------------------------------------ hand-offs */

/* fcfs(1) handoff(2), two uses of 1 at 0: A 0..1; B waits, gets the server at 1 and starts at 3,
** ends 4. Waiting: B from 0 to 3. Uncontended acquisitions pay nothing: two uses in sequence, 2. */
static void test_handoff_use(void **state) {
  (void)state;
  SimCase c;
  simtest_run(&c, "resource m = fcfs(1) handoff(2);\nprocess main { use(m, 1) || use(m, 1) }\n", SIM_SCENARIO_MID, 1, 1);
  assert_int_equal(c.status, 0);
  simtest_assert_close(c.report.time_max, 4);
  simtest_assert_close(simtest_resource(&c, "m")->waiting, 3);
  simtest_assert_close(simtest_resource(&c, "m")->utilisation, 1);   /* busy 0..4, hand-off included */
  simtest_done(&c);
  simtest_assert_close(simtest_time("resource m = fcfs(1) handoff(2);\nprocess main { use(m, 1); use(m, 1) }\n"), 2);
}

/* Holds and hand-offs, staggered: A holds 0..1; B asks at 0.5, the server passes at 1, B starts at
** 3, releases at 4; C asks at 3.5 (B holds): passes at 4, starts 6, ends 7. With C at 4.5 instead
** (after B let go at 4): uncontended, 4.5..5.5. */
static void test_handoff_hold_staggered(void **state) {
  (void)state;
  simtest_assert_close(simtest_time("resource m = fcfs(1) handoff(2);\nprocess main { hold (m) delay(1) || "
                                    "{ delay(0.5); hold (m) delay(1) } || { delay(3.5); hold (m) delay(1) } }\n"), 7);
  simtest_assert_close(simtest_time("resource m = fcfs(1) handoff(2);\nprocess main { hold (m) delay(1) || "
                                    "{ delay(0.5); hold (m) delay(1) } || { delay(4.5); hold (m) delay(1) } }\n"), 5.5);
}

/* fcfs(2) handoff(1), three uses of 2 at 0: A, B 0..2; C waits; at 2 A's server passes to C, which
** starts at 3 and ends at 5. */
static void test_handoff_multiplicity(void **state) {
  (void)state;
  simtest_assert_close(simtest_time("resource m = fcfs(2) handoff(1);\nprocess main { par (i = 0, 2) use(m, 2) }\n"), 5);
}

/* ------------------------------------------------------------------ against a reference */

/* The reference: requests i = 0..n-1 arrive at arrive[i] with work[i] on ps(c); between events
** every request present runs at min(1, c / n); the next event is the next arrival or the first
** end. Fills end[i]. Quadratic and obvious, independent of the engine's virtual time. */
static void ps_reference(int n, const double *arrive, const double *work, double c, double *end) {
  double left[16], now = 0;
  int state[16];   /* 0 not arrived, 1 present, 2 done */
  for (int i = 0; i < n; i++) { left[i] = work[i]; state[i] = 0; }
  for (;;) {
    int present = 0, pending = 0;
    for (int i = 0; i < n; i++) { present += state[i] == 1; pending += state[i] != 2; }
    if (!pending) return;
    double rate = present <= c ? 1 : c / present, next = 1e300;
    for (int i = 0; i < n; i++) {
      if (state[i] == 0 && arrive[i] < next) next = arrive[i];
      if (state[i] == 1 && now + left[i] / rate < next) next = now + left[i] / rate;
    }
    for (int i = 0; i < n; i++)
      if (state[i] == 1) left[i] -= (next - now) * rate;
    now = next;
    for (int i = 0; i < n; i++) {
      if (state[i] == 1 && left[i] <= 1e-12) { state[i] = 2; end[i] = now; }
      if (state[i] == 0 && arrive[i] <= now) state[i] = 1;
    }
  }
}

/* 200 random cases of up to 8 requests on ps(c), c in {0.5, 1, 1.5, 2, 3}, arrivals and works in
** eighths of a second. Each request's end is read in its own run: a delay of 1000 s after request
** j alone makes the makespan end[j] + 1000, which must be the reference's. */
static void test_ps_against_reference(void **state) {
  (void)state;
  static const double capacities[] = {0.5, 1, 1.5, 2, 3};
  unsigned long long x = 0x9e3779b97f4a7c15ULL;
  for (int k = 0; k < 200; k++) {
    double arrive[16], work[16], end[16];
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    int n = 1 + (int)((x >> 33) % 8);
    double c = capacities[(x >> 20) % 5];
    for (int i = 0; i < n; i++) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      arrive[i] = (double)((x >> 33) % 17) / 8;
      work[i] = (double)(1 + (x >> 45) % 16) / 8;
    }
    ps_reference(n, arrive, work, c, end);
    for (int j = 0; j < n; j++) {
      char text[2048];
      int len = snprintf(text, sizeof text, "resource cpu = ps(%g);\nprocess main {\n  skip", c);
      for (int i = 0; i < n; i++)
        len += snprintf(text + len, sizeof text - (size_t)len, "\n  || { delay(%g); use(cpu, %g)%s }",
                        arrive[i], work[i], i == j ? "; delay(1000)" : "");
      snprintf(text + len, sizeof text - (size_t)len, "\n}\n");
      double got = simtest_time(text), want = end[j] + 1000;
      if (fabs(got - want) > 1e-9 * want) fail_msg("case %d, request %d:\n%sgot %.17g, reference %.17g", k, j, text, got, want);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_ps_staggered_unit),
    cmocka_unit_test(test_ps_staggered_three),
    cmocka_unit_test(test_ps_equal_ends_tie),
    cmocka_unit_test(test_ps_fractional_capacity),
    cmocka_unit_test(test_ps_departures),
    cmocka_unit_test(test_ps_arrival_midway),
    cmocka_unit_test(test_ps_three_staggered_ps1),
    cmocka_unit_test(test_ps_short_request_passes),
    cmocka_unit_test(test_ps_par_and_family),
    cmocka_unit_test(test_ps_interval_capacity),
    cmocka_unit_test(test_ps_report),
    cmocka_unit_test(test_handoff_use),
    cmocka_unit_test(test_handoff_hold_staggered),
    cmocka_unit_test(test_handoff_multiplicity),
    cmocka_unit_test(test_ps_against_reference),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
