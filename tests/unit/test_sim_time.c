/*
** test_sim_time.c — the simulator's clock (lang/sim/sim_internal.h, SimTime): times equal in exact
** arithmetic tie whatever their binary rounding (issue 14 item 7), zero-length activities and
** ties, and sums of durations exact to the last digit (issue 14 item 8). Each expectation is
** derived by hand in the comment above it.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "sim_case.h"

/* Both branches reach r at 7 us (5 + 2 and 3 + 4; in binary the two sums differ in the last
** bit): program order puts branch 0 first: r 7..8, delay to 13; branch 1: r 8..10. 13 us. The
** other order (what rounding decided before) gives r 7..9 for branch 1, 9..10 and 15 us. */
static void test_tie_exact_decimal(void **state) {
  (void)state;
  simtest_assert_close(simtest_time(
      "resource r;\nprocess main {\n"
      "  { delay(5us); delay(2us); use(r, 1us); delay(5us) } || { delay(3us); delay(4us); use(r, 2us) }\n}\n"),
      13e-6);
  simtest_assert_close(simtest_time(
      "resource r;\nprocess main {\n"
      "  { delay(7us); use(r, 1us); delay(5us) } || { delay(7us); use(r, 2us) }\n}\n"),
      13e-6);
  /* 0.1 + 0.2 against 0.3 (0.30000000000000004 against 0.29999999999999999 in binary): a tie at
  ** 0.3 s, branch 0 first: r 0.3..1.3 then delay to 11.3; branch 1: 1.3..6.3. 11.3 s (16.3 s the
  ** other way). */
  simtest_assert_close(simtest_time(
      "resource r;\nprocess main {\n"
      "  { delay(0.1); delay(0.2); use(r, 1); delay(10) } || { delay(0.3); use(r, 5) }\n}\n"),
      11.3);
  /* and the tie does not swallow a real difference: 0.3 s + 1 ps comes after 0.3 s: branch 1
  ** first, r 0.3..5.3, branch 0 5.3..6.3 then 10: 16.3 s */
  simtest_assert_close(simtest_time(
      "resource r;\nprocess main {\n"
      "  { delay(0.3); delay(1e-12); use(r, 1); delay(10) } || { delay(0.3); use(r, 5) }\n}\n"),
      16.3 + 1e-12);
}

/* A zero-length activity takes no time and does not send its thread behind later ones: after
** delay(0), branch 0 still asks for r first: r 0..1, delay to 11; branch 1 r 1..6. 11 s. */
static void test_zero_length_delay(void **state) {
  (void)state;
  simtest_assert_close(simtest_time(
      "resource r;\nprocess main { { delay(0); use(r, 1); delay(10) } || use(r, 5) }\n"), 11);
}

/* A zero-length use is still a request: it waits for a free server like any other (use(r, t) is
** hold (r) delay(t), and a lock taken for no time is still taken after its holder lets go).
** par (i = 0, 3) { use(r, 0); use(s, i); use(r, 1) }, by hand:
**   t=0: i=0 passes r and s (free, zero length), takes r 0..1; i=1, 2, 3 queue at r.
**   t=1: r passes to i=1 (zero length, at 1), then i=2, then i=3, one after the other at t=1;
**        i=1 takes s 1..2; i=2 and i=3 queue at s.
**   t=2: i=1 takes r 2..3; s passes to i=2 (2..4).  t=4: i=2 takes r 4..5; s to i=3 (4..7).
**   t=7: i=3 takes r 7..8.  Makespan 8 s (7 s if zero-length requests skipped the queue). */
static void test_zero_length_use_queues(void **state) {
  (void)state;
  simtest_assert_close(simtest_time(
      "resource r;\nresource s;\nprocess main { par (i = 0, 3) { use(r, 0); use(s, i); use(r, 1) } }\n"), 8);
}

/* 64 x 3 us is 192 us exactly: the printed time is the double nearest 0.000192, the bounds' value
** (plain double sums gave 0.0001919999999999999). Ten 0.1 s delays are 1 s exactly (not
** 0.9999999999999999), and a long chain of 1 ns steps keeps every digit. Compared bit for bit. */
static void test_exact_sums(void **state) {
  (void)state;
  double t = simtest_time("process main = repeat (64) delay(3us);\n");
  if (t != 0.000192) fail_msg("64 x 3us gave %.17g", t);
  t = simtest_time("process main = seq (i = 1, 10) delay(0.1);\n");
  if (t != 1.0) fail_msg("10 x 0.1 gave %.17g", t);
  t = simtest_time("process main = repeat (1000000) delay(1ns);\n");
  if (t != 1e-3) fail_msg("10^6 x 1ns gave %.17g", t);
  /* across threads too: the second branch waits for the first's 0.1 + 0.2 */
  t = simtest_time("resource r;\nprocess main { { delay(0.1); delay(0.2); use(r, 0.7) } || { delay(0.5); use(r, 0.1) } }\n");
  if (t != 1.1) fail_msg("0.1 + 0.2 + 0.7 + 0.1 gave %.17g", t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_tie_exact_decimal),
    cmocka_unit_test(test_zero_length_delay),
    cmocka_unit_test(test_zero_length_use_queues),
    cmocka_unit_test(test_exact_sums),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
