/*
** test_reduce_holdline.c — a bounded buffer in a line (lang/reduce/order/reduce_holdline.c;
** docs/reduction.md "A bounded buffer in a line"): items that hold one of m_h slots through a few
** stages, their upper bound derived by hand from the rule, the simulated time worked out by hand
** in the comments.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* A 2-slot buffer held through s1 (3 us) and s2 (4 us), then a sink (1 us) (audit 4's x30). M = 4:
** items 0, 1 take the slots at 0; s1 0 .. 3, 3 .. 6; s2 3 .. 7, 7 .. 11; item 0 frees its slot at
** 7 and item 2 passes s1 7 .. 10 and s2 11 .. 15; item 3 takes item 1's slot at 11: s1 11 .. 14,
** s2 15 .. 19, sink 19 .. 20: 20 us simulated, lo 20. hi: at most 2 items hold a slot, so each
** request inside waits at most one other: B = 3 + 3 + 4 + 4 = 14; D = 8 + 14 - 7 = 15 and
** U = 15 + 3 max(14 / 2, 1) = 36 (before: 42.5). M = 1: 8, exact. */
static void test_bounded_buffer(void **state) {
  (void)state;
  const char *text = "param M = 4;\nresource slots = fcfs(2);\nresource s1;\nresource s2;\nresource sink;\n"
                     "process main = par (i = 0, M - 1) { hold (slots) { use(s1, 3us); use(s2, 4us) }; use(sink, 1us) };\n";
  const char *names[] = {"M"};
  double m4 = 4, m1 = 1;
  redtest_expect(text, 1, names, &m4, 20e-6, 20e-6, 36e-6);
  redtest_expect(text, 1, names, &m1, 8e-6, 8e-6, 8e-6);
}

/* 3 slots, inside a stage of 2 servers (5 us) and 1 us of work, after 1 us, then a sink (2 us).
** M = 4: items 0 .. 2 take slots at 1; a serves 0, 1 from 1 to 6 and 2 from 6 to 11; items 0, 1
** free their slots at 7, item 3 takes one and a serves it 7 .. 12; the sink serves 0 7 .. 9, 1
** 9 .. 11, 2 12 .. 14, 3 14 .. 16: 16 us simulated. hi: p = min(4, 3) = 3 requests at a
** at most, a wait of ceil((3 - 2) / 2) 5 = 5 us: B = 6 + 5 = 11, D = 9 + 11 - 6 = 14, U = 14 + 3
** max(11 / 3, 2) = 25 (before: 28.5). M = 6: 14 + 5 (11 / 3) = 32.33 (sim 21; before 41.5). */
static void test_wide_buffer(void **state) {
  (void)state;
  const char *text = "param M = 4;\nresource slots = fcfs(3);\nresource a = fcfs(2);\nresource sink;\n"
                     "process main = par (i = 0, M - 1) { delay(1us); hold (slots) { use(a, 5us); delay(1us) }; use(sink, 2us) };\n";
  const char *names[] = {"M"};
  double m4 = 4, m6 = 6;
  double lo, hi;
  redtest_eval(text, 1, names, &m4, &lo, &hi);
  redtest_near(hi, 25e-6);
  redtest_eval(text, 1, names, &m6, &lo, &hi);
  redtest_near(hi, 14e-6 + 5 * 11e-6 / 3);
  assert_true(hi >= 21e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_bounded_buffer),
    cmocka_unit_test(test_wide_buffer),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
