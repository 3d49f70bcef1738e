/*
** test_reduce_tloop.c — threads that each loop over one use of one FCFS pool
** (lang/reduce/order/reduce_fcfs_loop.c, docs/reduction.md "Threads looping on an FCFS pool"), on
** small models whose schedules are worked out by hand in the comments.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* T = 5 threads, M = 4 back-to-back uses of 1us each on fcfs(4), at the defaults (evaluated):
** slot 0 runs threads 0 1 2 3 (4 waits); at 1 the waiting 4 goes first, then 0 1 2 (3 waits); at 2
** 3 0 1 2 (4 waits); at 3 4 0 1 2. Threads 0 1 2 are done at 4; 3 and 4 have had 2 uses each and
** run together in slots 4 and 5: 6us (before: lo 5us, the load; hi 8us). */
static void test_five_threads_four_cores(void **state) {
  (void)state;
  const char *text =
      "param M = 4 in 0 .. 1000000;\nparam T = 5 in 1 .. 100000;\nconst t = 1us;\n"
      "resource cores = fcfs(4);\n"
      "process main { par (th = 0, T - 1) seq (k = 1, M) use(cores, t) }\n";
  redtest_expect(text, 0, NULL, NULL, 6e-6, 6e-6, 6e-6);
  /* away from the defaults only the closed form holds: M = 5 ends at 5 + ceil(5 / 2) = 8 slots
  ** (A = thread 3 in even slots, B = thread 4 in odd ones: at 5 thread 3 has had 3, thread 4 2,
  ** and both run every slot after: 4 ends at 8); T = 6 (= 1.5 C), M = 7: 7 + 4 = 11 slots
  ** (before: lo 42 / 4 = 10.5us) */
  const char *names[] = {"M", "T"};
  double m5[] = {5, 5}, t6[] = {7, 6};
  redtest_expect(text, 2, names, m5, 8e-6, 8e-6, 8e-6);
  redtest_expect(text, 2, names, t6, 11e-6, 11e-6, 11e-6);
  /* T = 7 > 1.5 C: the closed form does not hold (4 threads alternate in 3 slots: 7 M / 4 is the
  ** load); lo stays at most the simulated 7us (M = 4) */
  double t7[] = {4, 7};
  redtest_expect_lo(text, 2, names, t7, -1, 7e-6);
}

/* The use's time an interval (no point: the list is not evaluated), T = 5 on fcfs(4), M = 4: the
** closed form reads 6 t: lo 6us, hi 12us; the middle scenario (1.5us) simulates 9us (before: lo
** 5us, hi 16us). */
static void test_closed_form_interval(void **state) {
  (void)state;
  const char *text =
      "param M = 4 in 0 .. 1000000;\nconst t = [1us, 2us];\nresource cores = fcfs(4);\n"
      "process main { delay(1us); par (th = 0, 4) seq (k = 1, M) use(cores, t); delay(2us) }\n";
  redtest_expect(text, 0, NULL, NULL, 9e-6, 12e-6, 15e-6);
}

/* A delay between uses: T = 3 threads, 2 x [use 2us; delay 1us] on fcfs(2). 0 and 1 start at 0
** (end 2), 2 waits and starts at 2 (ends 4); 0 and 1 ask again at 3: 0 takes the free server
** (ends 5), 1 waits for 2's at 4 (ends 6); 2 asks at 5, when 0 frees one: it ends at 7 and its
** delay at 8: 8us (before: hi 10us). */
static void test_delay_between_uses(void **state) {
  (void)state;
  const char *text =
      "param T = 3 in 1 .. 1000;\nresource cores = fcfs(2);\n"
      "process main { par (th = 0, T - 1) repeat (2) { use(cores, 2us); delay(1us) } }\n";
  redtest_expect(text, 0, NULL, NULL, 8e-6, 8e-6, 8e-6);
}

/* A short delay beside a long use (7ns after each 10us: D = 10^4 units of 1ns), T = 3 threads of 2
** rounds on fcfs(2): 0 and 1 start at 0 (end 10), 2 starts at 10 (ends 20); 0 and 1 ask again at
** 10.007: 0 takes the free server (ends 20.007), 1 waits for 2's, at 20 (ends 30). At 20.007 thread
** 0 frees its server and thread 2 (20 + 0.007) asks: one instant (10 + 10 + 0.007 and 10 + 0.007 +
** 10 are one sum), 0 first in program order, so 2 starts at once and ends at 30.007: 30.014us, the
** simulated time (before: hi 40.014us). */
static void test_short_delay(void **state) {
  (void)state;
  const char *text =
      "param T = 3 in 1 .. 100;\nconst t = 10us;\nresource cores = fcfs(2);\n"
      "process main { par (th = 0, T - 1) repeat (2) { use(cores, t); delay(7ns) } }\n";
  redtest_expect(text, 0, NULL, NULL, 30.014e-6, 30.014e-6, 30.014e-6);
}

/* Work dealt with a remainder, N = 13 tasks over T = 5 workers (3, 3, 3, 2, 2 tasks of 1us) on
** fcfs(4), after 2us and before 1us: slots from 2us run 0 1 2 3 | 4 0 1 2 | 3 0 1 2 | 4: the
** last ends at 6, then 1us: 7us (before: hi 8.5us). */
static void test_dealt_counts(void **state) {
  (void)state;
  const char *text =
      "param N = 13 in 0 .. 1000;\nparam T = 5 in 1 .. 1000;\nconst t = 1us;\n"
      "resource cores = fcfs(4);\n"
      "process worker(w) { seq (k = 1, floor(N / T) + (w < N % T ? 1 : 0)) use(cores, t) }\n"
      "process main { delay(2us); par (w = 0, T - 1) worker(w); delay(1us) }\n";
  redtest_expect(text, 0, NULL, NULL, 7e-6, 7e-6, 7e-6);
}

/* Beside another use of the pool the rule does not apply (a request from outside changes the
** order): T = 5 threads of 2 uses on fcfs(4) beside one 3us request made at 0 after them: slot 0
** runs 0 1 2 3, then 4 0 1 2 and the 3us at 1 (ends 4), 2, 3 and 4 at 2 (end 3); the 3us ends
** last, at 4us: lo at most it. */
static void test_beside_not_read(void **state) {
  (void)state;
  const char *text =
      "param T = 5 in 1 .. 1000;\nresource cores = fcfs(4);\n"
      "process main { par (th = 0, T - 1) repeat (2) use(cores, 1us) || use(cores, 3us) }\n";
  redtest_expect_lo1(text, "T", 5, -1, 4e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_five_threads_four_cores),
      cmocka_unit_test(test_closed_form_interval),
      cmocka_unit_test(test_delay_between_uses),
      cmocka_unit_test(test_short_delay),
      cmocka_unit_test(test_dealt_counts),
      cmocka_unit_test(test_beside_not_read),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
