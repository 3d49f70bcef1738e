/*
** test_reduce_gridopen.c — exact starts on an open grid (lang/reduce/order/reduce_grid_ahead.c,
** docs/reduction.md "A member of a grid counted", exact times on one server): a Q x Q stencil
** without wrap whose cells send north, south, west and east one after the other, each under its
** edge test, so that the border cells' first sends land where the inner cells' do. The schedules
** are worked out by hand in the comments (the simulated time); each case checks lo against its
** derivation and lo <= simulated <= hi.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* The grid at Q = 4 written with its numbers (the exact-start search runs where the grid's size
** is a number: predict substitutes the params it is given), and with Q a param. */
static const char *grid4 =
  "param T = 1;\nresource port[16];\n"
  "process main {\n"
  "  repeat (T) par (i = 0, 3) par (j = 0, 3) {\n"
  "    delay(20us);\n"
  "    if (i > 0) use(port[(i - 1) * 4 + j], 3us);\n"
  "    if (i < 3) use(port[(i + 1) * 4 + j], 3us);\n"
  "    if (j > 0) use(port[i * 4 + j - 1], 3us);\n"
  "    if (j < 3) use(port[i * 4 + j + 1], 3us)\n"
  "  }\n"
  "}\n";

static const char *grid =
  "param Q = 4;\nparam T = 1;\nresource port[Q * Q];\n"
  "process main {\n"
  "  repeat (T) par (i = 0, Q - 1) par (j = 0, Q - 1) {\n"
  "    delay(20us);\n"
  "    if (i > 0) use(port[(i - 1) * Q + j], 3us);\n"
  "    if (i < Q - 1) use(port[(i + 1) * Q + j], 3us);\n"
  "    if (j > 0) use(port[i * Q + j - 1], 3us);\n"
  "    if (j < Q - 1) use(port[i * Q + j + 1], 3us)\n"
  "  }\n"
  "}\n";

/* Q = 4, one step (times in us). At 20 every cell sends its first halo: row 0 has no north and
** sends south to row 1's port, which row 2 hits first too (north); (0, j) comes first in program
** order, so (0, j) holds port (1, j) 20 .. 23 and (2, j) waits until 23 .. 26. Row 3 sends north
** to row 2 at 20, served at once (20 .. 23), and has no south: (3, 0) sends east to (3, 1) and
** (3, 2) west to (3, 1), both arriving exactly at 23. Cell (2, 1) sends south to (3, 1) at 26,
** after those two: 23 .. 26 and 26 .. 29 are theirs, its own runs 29 .. 32; west to (2, 0) at 32
** (free: 32 .. 35), east to (2, 2) 35 .. 38. The simulator gives 38. The rule: (0, 1)'s south
** send and (3, 0)'s and (3, 2)'s first sends arrive at their heads and are served at once, so
** they start exactly at 20; (3, 0)'s east and (3, 2)'s west sends arrive exactly at 23 and are
** queued before (2, 1)'s south send, whose arrival is at least 23 + 3 = 26 (its north send starts
** after (0, 1)'s ends); they start exactly at 23 and 26 (one behind the other), so (2, 1)'s south
** send starts at 29 or later, its west send at 32 and its east send at 35: at member (2, 2) the
** counted request's head is 35, and lo = 35 + 3 = 38 (before: 35, the south send's arrival
** without the two ahead of it). Three steps: 3 x 38 = 114 (each starts with the ports idle). */
static void test_open_grid_q4(void **state) {
  (void)state;
  redtest_expect_lo1(grid4, "T", 1, 38e-6, 38e-6);
  redtest_expect_lo1(grid4, "T", 3, 114e-6, 114e-6);
}

/* Q = 3, one step: (0, j) holds (1, j) 20 .. 23, (2, j) waits there until 26 and (1, j) sends
** north to (0, j) 20 .. 23 and south to (2, j) 23 .. 26. Cell (1, 1) sends west to (1, 0) at 26
** (with (1, 2)'s west send to (1, 1) and (1, 0)'s east send to (1, 1) at 26: (1, 1)'s is alone at
** (1, 0), 26 .. 29), then east to (1, 2) 29 .. 32; (2, 1), after 23 .. 26 at (1, 1), sends west to
** (2, 0) 26 .. 29 and east to (2, 2) 29 .. 32. The simulator gives 32 = 20 + 4 x 3, the critical
** path of an inner cell: lo = 32 (so before too). Q = 1: 20 (no sends). */
static void test_open_grid_small(void **state) {
  (void)state;
  const char *names[2] = {"Q", "T"};
  double q3[2] = {3, 1}, q1[2] = {1, 1};
  redtest_expect_lo(grid, 2, names, q3, 32e-6, 32e-6);
  redtest_expect_lo(grid, 2, names, q1, 20e-6, 20e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_open_grid_q4),
    cmocka_unit_test(test_open_grid_small),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
