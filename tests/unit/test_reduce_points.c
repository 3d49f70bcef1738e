/*
** test_reduce_points.c — member maps counted by evaluation (lang/reduce/reduce_points.c,
** docs/reduction.md "Maps evaluated at every point"): maps that name a member from several
** branches, which no symbolic rule reads, on small models written with numbers (as `pamc predict
** -D P=8` sees them) whose schedule is worked out by hand in the comments.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* Two ranks per nic, each sending to the next rank: 8 ranks, nic[floor(((p + 1) % 8) / 2)], 4
** rounds of c = 5us then m = 2us. Ranks 7 and 0 name nic[0], 1 and 2 nic[1], 3 and 4 nic[2], 5
** and 6 nic[3]: two a member. At most 2 clients a member, so a request waits for one other at
** most: hi = 4 (c + 2 m) = 36us (before: 84us, the family as one resource). Schedule: in round 1
** both ranks of a pair arrive at 5us, one ends at 7, the other at 9; from then on the two are 2us
** apart and never meet again: sim = 28 + 2 = 30us. lo: in round 1 the two requests at a nic
** arrive at c at the earliest and end one after the other, and the later one's rank still has 3
** rounds to run: c + 2 m + 3 (c + m) = 30us (before: 4 (c + m) = 28us). */
static void test_two_ranks_per_nic(void **state) {
  (void)state;
  const char *text =
    "const c = 5us; const m = 2us;\nresource nic[4];\n"
    "process main = par (p = 0, 7) repeat (4) { delay(c); use(nic[floor(((p + 1) % 8) / 2)], m) };\n";
  redtest_expect(text, 0, NULL, NULL, 30e-6, 30e-6, 36e-6);
}

/* The perfect shuffle (2p + floor(2p / 7)) % 7 over 7 ranks: 0, 2, 4, 6, 2, 4, 6 (not a
** bijection for odd P): at most 2 ranks a member, 3 rounds of 2us then 3us: hi = 3 (2 + 2 x 3) =
** 24us (before: 69us). Schedule: round 1 at 2us, the pairs at 2, 4, 6 end at 5 and 8; the
** winners' next request at 7, the losers' at 10, apart from then on: sim = 15 + 5 = 20us. lo:
** 2 + 2 x 3 + 2 (2 + 3) = 18us (the pair of round 1, then two rounds; before: 15us). */
static void test_shuffle_odd(void **state) {
  (void)state;
  const char *text =
    "resource nic[7];\n"
    "process main = par (p = 0, 6) repeat (3) { delay(2us); use(nic[(2 * p + floor(2 * p / 7)) % 7], 3us) };\n";
  redtest_expect(text, 0, NULL, NULL, 18e-6, 20e-6, 24e-6);
}

/* The map follows a loop of the body: step k = 1, 2 sends to nic[floor(((p + k) % 8) / k)], one
** rank a member at k = 1, two at k = 2: the count must be the largest over every value of k, 2,
** and a member has at most 2 x 2 clients over the run (the two steps), so a request waits for 3
** others at most: hi = 2 (5 + 2 + 3 x 2) = 26us. Schedule: step 1 at 5us to distinct nics, ends
** at 7; step 2 at 12, pairs: 14 and 16: sim = 16us = ... lo = 2 (5 + 2) = 14us. */
static void test_count_over_rows(void **state) {
  (void)state;
  const char *text =
    "resource nic[8];\n"
    "process main = par (p = 0, 7) seq (k = 1, 2) { delay(5us); use(nic[floor(((p + k) % 8) / k)], 2us) };\n";
  redtest_expect(text, 0, NULL, NULL, 14e-6, 16e-6, 26e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_two_ranks_per_nic),
    cmocka_unit_test(test_shuffle_odd),
    cmocka_unit_test(test_count_over_rows),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
