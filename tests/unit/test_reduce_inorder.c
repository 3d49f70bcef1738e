/*
** test_reduce_inorder.c — a stage the items reach in the order of their index, and a use whose
** duration differs for a class of items (lang/reduce/order/reduce_inorder.c, merge_durations in
** reduce_order.c, the slow items of reduce_skip.c; docs/reduction.md "A stage served in index
** order", "Sides that differ only in a duration"): small pipelines whose schedule is worked out by
** hand in the comments (the simulated time) and whose bounds are derived by hand from the rules.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* Packets through parse (1 us), classify (6 us for every 4th, else 2 us), crypt (4 us, even ones)
** and send (1.5 us). M = 3: parse ends 0, 1, 2 at 1, 2, 3; classify 0 [1, 7], 1 [7, 9], 2 [9, 11];
** crypt 0 [7, 11], 2 [11, 15]; send 1 [9, 10.5], 0 [11, 12.5], 2 [15, 16.5]: 16.5 us simulated.
** lo: the classify is served in index order from packet 0's arrival at 1 us; packet 2 leaves it at
** 1 + 10 and runs its tail 4 + 1.5: 16.5 (before: 12.5, one packet's path: the classify was two
** uses of one resource). hi: D = 1 + 6 + 4 + 1.5 = 12.5; theta = 2 us (the short classify):
** 2 (M - 1) = 4, the classify's excess 0 (one slow packet: the slow part never repeats), crypt
** (2 - 1) (4 - 2) = 2: 18.5 (before: 25.5, every request summed). M = 8: packet 6 leaves the
** classify at 1 + (6 + 2 + 2 + 2 + 6 + 2 + 2) = 23 and ends at 28.5, the simulated time; hi:
** 12.5 + 2 * 7 + max(2 * 7 + 4 * 1 - 2 * 7, 2 * 1 + 4 * 1 - 2 * 1) + (4 - 1) 2 = 36.5 (before:
** lo 24, hi 60). */
static void test_slow_packets(void **state) {
  (void)state;
  const char *text = "param M = 8;\nresource parser;\nresource classifier;\nresource crypt;\nresource nic;\n"
                     "process main = par (i = 0, M - 1) { use(parser, 1us);\n"
                     "  if (i % 4 == 0) use(classifier, 6us) else use(classifier, 2us);\n"
                     "  if (i % 2 == 0) use(crypt, 4us);\n  use(nic, 1.5us) };\n";
  const char *names[] = {"M"};
  double m3 = 3, m8 = 8, m1 = 1;
  redtest_expect(text, 1, names, &m3, 16.5e-6, 16.5e-6, 18.5e-6);
  redtest_expect(text, 1, names, &m8, 28.5e-6, 28.5e-6, 36.5e-6);
  redtest_expect(text, 1, names, &m1, 12.5e-6, 12.5e-6, 12.5e-6);
}

/* A first stage whose time differs by item (3 us even, 1 us odd), then a shared 2 us stage, then
** 5 us for the even items. M = 4: a ends 0, 1, 2, 3 at 3, 4, 7, 8; b serves them in that order:
** 3 .. 5, 5 .. 7, 7 .. 9, 9 .. 11; item 2 then waits 5: 14 us simulated. lo: item 0 reaches b at
** 3; item 2 leaves it no earlier than 3 + 3 * 2 and runs 5: 14 (before: 12). M = 5: 3 + 5 * 2 + 5 = 18, the simulated time. */
static void test_uneven_first_stage(void **state) {
  (void)state;
  const char *text = "param M = 4;\nresource a;\nresource b;\n"
                     "process main = par (i = 0, M - 1) { use(a, i % 2 == 0 ? 3us : 1us); use(b, 2us);"
                     " if (i % 2 == 0) delay(5us) };\n";
  redtest_expect_lo1(text, "M", 4, 14e-6, 14e-6);
  redtest_expect_lo1(text, "M", 5, 18e-6, 18e-6);
}

/* Items that skip a stage before the shared one overtake: the rule must not read the order.
** M = 2: item 0 a [0, 5], b [5, 6]; item 1 b [0, 1], then 3 us: 6 us simulated. Read in index
** order it would claim 5 + 2 + 3 = 10. */
static void test_skip_before_breaks_order(void **state) {
  (void)state;
  const char *text = "param M = 2;\nresource a;\nresource b;\n"
                     "process main = par (i = 0, M - 1) { if (i % 2 == 0) use(a, 5us); use(b, 1us);"
                     " if (i % 2 == 1) delay(3us) };\n";
  redtest_expect_lo1(text, "M", 2, -1, 6e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_slow_packets),
    cmocka_unit_test(test_uneven_first_stage),
    cmocka_unit_test(test_skip_before_breaks_order),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
