/*
** test_reduce_release.c — release dates at one member (lang/reduce/order/reduce_release.c,
** docs/reduction.md "Requests that reach a member late"): small models whose schedule is worked
** out by hand in the comments (the simulated time) and whose lower bound is derived by hand from
** the rule. Each case checks lo against its derivation and lo <= the simulated time.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* Two waves at one root: even ranks send at 0, odd ranks at 10 us, 1 us each. P = 16: the even
** wave ends at 8, the odd one starts at 10 and ends at 18 (sim 18); threshold 10: 8 requests,
** 10 + 8 = 18 (the least head alone: 0 + 16 = 16). P = 8: 10 + 4 = 14. P = 3: evens 0 .. 2,
** rank 1 at 10 .. 11: 10 + 1 = 11. P = 1: one request at 0: 1 (the odd class is empty). P = 1000:
** the even wave lasts until 500, the odd one queues behind it: 0 + 1000 = 1000. */
static void test_two_waves(void **state) {
  (void)state;
  const char *text = "param P = 16;\nresource root;\n"
                     "process main { par (p = 0, P - 1) { delay((p % 2) * 10us); use(root, 1us) } }\n";
  redtest_expect_lo1(text, "P", 16, 18e-6, 18e-6);
  redtest_expect_lo1(text, "P", 8, 14e-6, 14e-6);
  redtest_expect_lo1(text, "P", 3, 11e-6, 11e-6);
  redtest_expect_lo1(text, "P", 1, 1e-6, 1e-6);
  redtest_expect_lo1(text, "P", 1000, 1000e-6, 1000e-6);   /* the waves overlap: 0 + 1000 */
}

/* Four waves (10 (1 + p % 4) us) on a root of 2 servers, 1 us each: each wave of P / 4 is served
** two at a time before the next arrives while P / 4 <= 20: the last ends at 40 + P / 8 us.
** P = 16: 42 (threshold 40: 4 requests on 2 servers). P = 6: classes of 2, 2, 1, 1: the last
** (rank 3) at 40 .. 41: 41. P = 400: the waves of 100 overlap: 10 + 400 / 2 = 210 (threshold 10)
** against 40 + 50 = 90 (threshold 40): the simulator serves 2 per us from 10 on without a gap: 210. */
static void test_four_waves_two_servers(void **state) {
  (void)state;
  const char *text = "param P = 16;\nresource root = fcfs(2);\n"
                     "process main { par (p = 0, P - 1) { delay(10us * (1 + p % 4)); use(root, 1us) } }\n";
  redtest_expect_lo1(text, "P", 16, 42e-6, 42e-6);
  redtest_expect_lo1(text, "P", 6, 41e-6, 41e-6);
  redtest_expect_lo1(text, "P", 400, 210e-6, 210e-6);
}

/* What the branch runs after its request: even ranks send at 0 and stop, odd ranks send at 10
** and then compute 3 us. P = 4: evens 0 .. 2, odds 10 .. 12, the last ends its compute at 15:
** threshold 10: 10 + 2 + 3 = 15. Durations with a period of their own (7, not dividing 2) are
** taken at their least over the classes: t = 1 + (p % 7) / 10 us at P = 4 (1, 1.1, 1.2, 1.3):
** odds (1.1 and 1.3) at 10 .. 11.1 .. 12.4, tail 3: 15.4 simulated; the bound takes 2 * 1 us:
** 15. */
static void test_tail_and_durations(void **state) {
  (void)state;
  const char *text = "param P = 4;\nresource root;\n"
                     "process main { par (p = 0, P - 1) { delay((p % 2) * 10us); use(root, 1us);"
                     " delay((p % 2) * 3us) } }\n";
  redtest_expect_lo1(text, "P", 4, 15e-6, 15e-6);
  const char *unequal = "param P = 4;\nresource root;\n"
                        "process main { par (p = 0, P - 1) { delay((p % 2) * 10us);"
                        " use(root, 1us + (p % 7) * 100ns); delay((p % 2) * 3us) } }\n";
  redtest_expect_lo1(unequal, "P", 4, 15e-6, 15.4e-6);
}

/* The interior of a line: par (p = 1, P - 2), each rank computes 10 us and then sends 1 us to both
** neighbours at once. Member q (2 <= q <= P - 3) gets both sends at 10: 10 + 2 = 12 (sim 12 for
** P >= 5). P = 4: ranks 1 and 2, every member gets one send: 11. */
static void test_line_interior(void **state) {
  (void)state;
  const char *text = "param P = 8;\nresource nic[P];\n"
                     "process main { par (p = 1, P - 2) { delay(10us); use(nic[p + 1], 1us) || use(nic[p - 1], 1us) } }\n";
  redtest_expect_lo1(text, "P", 8, 12e-6, 12e-6);
  redtest_expect_lo1(text, "P", 5, 12e-6, 12e-6);
  redtest_expect_lo1(text, "P", 4, 11e-6, 11e-6);
  redtest_expect_lo1(text, "P", 1000, 12e-6, 12e-6);
}

/* Neighbours reached late by class on a line: rank p computes (p % 2) * 10 us, then sends 1 us to
** p + 1 and p + 2. Member q gets the sends of q - 1 and q - 2, one of them odd: it arrives at 10,
** the even one at 0. P = 8: threshold 10 has 1 request: 11; the even one alone ends at 1.
** Simulated: 11 (rank 7's sends go to members 8 and 9 of nic[P + 2]). */
static void test_line_classes(void **state) {
  (void)state;
  const char *text = "param P = 8;\nresource nic[P + 2];\n"
                     "process main { par (p = 0, P - 1) { delay((p % 2) * 10us); use(nic[p + 1], 1us) || use(nic[p + 2], 1us) } }\n";
  redtest_expect_lo1(text, "P", 8, 11e-6, 11e-6);
}

/* A grid without wrap, the north and south sends at once, each under its edge test: an interior
** nic (Q >= 3) gets both after the 10 us compute: 10 + 2 = 12 (sim 12); Q = 2: one each, 11. The
** member index (i + 1) * Q + j and (i - 1) * Q + j are read over one rest (i + 1, i - 1, j). */
static void test_grid_open(void **state) {
  (void)state;
  const char *text =
    "param Q = 4;\nresource nic[Q * Q];\n"
    "process main { par (i = 0, Q - 1) par (j = 0, Q - 1) { delay(10us);\n"
    "  { if (i < Q - 1) use(nic[(i + 1) * Q + j], 1us) } || { if (i > 0) use(nic[(i - 1) * Q + j], 1us) } } }\n";
  redtest_expect_lo1(text, "Q", 4, 12e-6, 12e-6);
  redtest_expect_lo1(text, "Q", 3, 12e-6, 12e-6);
  redtest_expect_lo1(text, "Q", 2, 11e-6, 11e-6);
  const char *four =
    "param Q = 4;\nresource nic[Q * Q];\n"
    "process main { par (i = 0, Q - 1) par (j = 0, Q - 1) { delay(15us);\n"
    "  { if (j < Q - 1) use(nic[i * Q + j + 1], 2us) } || { if (j > 0) use(nic[i * Q + j - 1], 2us) }\n"
    "  || { if (i < Q - 1) use(nic[(i + 1) * Q + j], 2us) } || { if (i > 0) use(nic[(i - 1) * Q + j], 2us) } } }\n";
  redtest_expect_lo1(four, "Q", 3, 23e-6, 23e-6);   /* the centre nic: 15 + 4 * 2 */
  redtest_expect_lo1(four, "Q", 8, 23e-6, 23e-6);
}

/* A grid without wrap, the four halos sent one after the other (right, left, down, up), each
** under its edge test, 20 us of compute and 3 us a halo. The cells of the first column send left
** nothing: their first send is down, at 23 us. At Q = 3: cell (1, 1) sends right at 20 (served at
** once: (1, 2)'s other requests come at 23 and later), then left to (1, 0) at 23, where (0, 0)'s
** down send arrives at 23 too ((0, 0)'s right send at 20 was served at once: at (0, 1) it ties
** with (0, 2)'s left send, and (0, 0) comes first in program order), and (0, 0) comes first:
** (1, 1) waits until 26, its down send runs 29 .. 32 at (2, 1) and its up send ends at 35, the
** simulated time. The same at every Q >= 3 for the cells (r, 1), r >= 1 (the member (r + 1, 1)
** counted: the middle row, one column in from the edge). Q = 2: every cell sends twice, 26.
** Before: 32, the sends of one member from the least head (the heads alone, without the order
** of the requests of one instant). */
static void test_grid_open_chain(void **state) {
  (void)state;
  const char *text =
    "param Q = 4;\nresource nic[Q * Q];\n"
    "process main { par (i = 0, Q - 1) par (j = 0, Q - 1) { delay(20us);\n"
    "  if (j + 1 < Q) use(nic[i * Q + j + 1], 3us); if (j > 0) use(nic[i * Q + j - 1], 3us);\n"
    "  if (i + 1 < Q) use(nic[(i + 1) * Q + j], 3us); if (i > 0) use(nic[(i - 1) * Q + j], 3us) } }\n";
  redtest_expect_lo1(text, "Q", 3, 35e-6, 35e-6);
  redtest_expect_lo1(text, "Q", 5, 35e-6, 35e-6);
  redtest_expect_lo1(text, "Q", 8, 35e-6, 35e-6);
  redtest_expect_lo1(text, "Q", 2, 26e-6, 26e-6);
  /* the same grid numbered row by row (audit 4's 08_grid_open_flat, Q found in the `if`s),
  ** 30 us of compute and 4 us a halo: 30 + 5 * 4 = 50 at Q = 3 and 6 (before: 46) */
  const char *flat =
    "param Q = 4;\nresource nic[Q * Q];\n"
    "process main { par (p = 0, Q * Q - 1) { delay(30us);\n"
    "  if (p % Q < Q - 1) use(nic[p + 1], 4us); if (p % Q > 0) use(nic[p - 1], 4us);\n"
    "  if (p + Q < Q * Q) use(nic[p + Q], 4us); if (p >= Q) use(nic[p - Q], 4us) } }\n";
  redtest_expect_lo1(flat, "Q", 3, 50e-6, 50e-6);
  redtest_expect_lo1(flat, "Q", 6, 50e-6, 50e-6);
  /* the compute on the cell's own cpu (a member no other branch names, used once): a use that
  ** never waits, read as a delay: 35 again (before: 32, no arrival known after a use) */
  const char *cpu =
    "param Q = 4;\nresource nic[Q * Q];\nresource cpu[Q * Q];\n"
    "process main { par (i = 0, Q - 1) par (j = 0, Q - 1) { use(cpu[i * Q + j], 20us);\n"
    "  if (j + 1 < Q) use(nic[i * Q + j + 1], 3us); if (j > 0) use(nic[i * Q + j - 1], 3us);\n"
    "  if (i + 1 < Q) use(nic[(i + 1) * Q + j], 3us); if (i > 0) use(nic[(i - 1) * Q + j], 3us) } }\n";
  redtest_expect_lo1(cpu, "Q", 3, 35e-6, 35e-6);
  redtest_expect_lo1(cpu, "Q", 7, 35e-6, 35e-6);
}

/* Sites onto every member with different heads: each rank uses its own nic 1 us, computes 10 us,
** then sends 1 us to both ring neighbours at once. Every nic gets its own use at 0 and the two sends
** at 11: 11 + 2 = 13 (sim 13 at every P >= 1: at P = 1 and 2 both sends reach the same other nic). */
static void test_ring_sites(void **state) {
  (void)state;
  const char *text = "param P = 8;\nresource nic[P];\n"
                     "process main { par (p = 0, P - 1) { use(nic[p], 1us); delay(10us);"
                     " use(nic[(p + 1) % P], 1us) || use(nic[(p + P - 1) % P], 1us) } }\n";
  redtest_expect_lo1(text, "P", 8, 13e-6, 13e-6);
  redtest_expect_lo1(text, "P", 2, 13e-6, 13e-6);
  redtest_expect_lo1(text, "P", 1, 13e-6, 13e-6);
}

/* Blocks of B = ceil(100 / P) items of 1 us, the last one short or empty, then a 2 us send to one
** link by every rank w > 0 that has items (`w * B < N`: the run 1 .. ceil(N / B) - 1). The run in
** three groups (its first rank, those between, its last) and the release-date bound over every set
** of them. P = 8: B = 13, ranks 1 .. 6 full (13 us), rank 7 short (9 items): rank 7's send at
** 9 .. 11, the six others from 13 on: 13 + 6 * 2 = 25 (the least head alone: 9 + 7 * 2 = 23).
** P = 12: B = 9, ranks 1 .. 10 full, rank 11 has 1 item: 9 + 10 * 2 = 29. P = 16: B = 7, ranks
** 1 .. 13 full, rank 14 has 2 items, rank 15 none (no send): 7 + 13 * 2 = 33. P = 3: B = 34, rank
** 2 short (32 items) sends at 32 .. 34, rank 1 at 34 .. 36: 36 (its group alone). P = 1: no send,
** 100 (rank 0's items). */
static void test_block_short_gather(void **state) {
  (void)state;
  const char *text = "param P = 8;\nconst N = 100;\nconst B = ceil(N / P);\nresource cpu[P];\nresource link;\n"
                     "process main { par (w = 0, P - 1) {\n"
                     "  seq (i = w * B, min(N, (w + 1) * B) - 1) use(cpu[w], 1us);\n"
                     "  if (w > 0 and w * B < N) use(link, 2us) } }\n";
  redtest_expect_lo1(text, "P", 8, 25e-6, 25e-6);
  redtest_expect_lo1(text, "P", 12, 29e-6, 29e-6);
  redtest_expect_lo1(text, "P", 16, 33e-6, 33e-6);
  redtest_expect_lo1(text, "P", 3, 36e-6, 36e-6);
  redtest_expect_lo1(text, "P", 1, 100e-6, 100e-6);
  /* every rank sends, rank 0 too, the empty blocks sending at 0 (no `if`): P = 16, ranks 0 .. 13
  ** full at 7 us, rank 14 at 2, rank 15 at 0: 15's send 0 .. 2, 14's 2 .. 4, the 14 full from 7:
  ** 7 + 14 * 2 = 35. The head max(0, min(B, N - w B)) bends at w = (N - B) / B = 13.3: the
  ** groups {0}, 1 .. 13, 14 .. 14, {15}, and the first two from 7 give 7 + 14 * 2 = 35 (before,
  ** without the cut, 1 .. 14 was one group of least head 2: 2 + 15 * 2 = 32). P = 64 with
  ** N = 1000 (B = 16): ranks 0 .. 61 full, 62 has 8 items, 63 none: 16 + 62 * 2 = 140 (before:
  ** the groups {0}, 1 .. 62 from 8: 8 + 63 * 2 = 134). */
  const char *all = "param P = 16;\nconst N = 100;\nconst B = ceil(N / P);\nresource cpu[P];\nresource link;\n"
                    "process main { par (w = 0, P - 1) {\n"
                    "  seq (i = w * B, min(N, (w + 1) * B) - 1) use(cpu[w], 1us);\n"
                    "  use(link, 2us) } }\n";
  redtest_expect_lo1(all, "P", 16, 35e-6, 35e-6);
  const char *big = "param P = 64;\nconst N = 1000;\nconst B = ceil(N / P);\nresource cpu[P];\nresource link;\n"
                    "process main { par (w = 0, P - 1) {\n"
                    "  use(cpu[w], max(0, min(B, N - w * B)) * 1us);\n"
                    "  use(link, 2us) } }\n";
  redtest_expect_lo1(big, "P", 64, 140e-6, 140e-6);
}

/* A line without wrap, each rank sending left and then right, each under its edge test:
** `if (p > 0) use(nic[p - 1], 1us); if (p < P - 1) use(nic[p + 1], 1us)`. At 0 rank 0's first send
** (right: it has no left) and rank 2's first (left) both reach nic[1], rank 0 first in program
** order: rank 2 waits until 1, ends its left send at 2 and its right send at nic[3] at 3 us, the
** simulated time at every P >= 4 (before: lo 2 us, a third low; the line is read as one row of
** a grid, reduce_grid.c line_as_pairs, and nic[3] is among the members counted). At P = 3 nic[1]
** is rank 2's left end and the line takes 2 us. */
static void test_line_first_sends_meet(void **state) {
  (void)state;
  const char *text = "param P = 16 in 1 .. 100000;\nresource nic[P];\n"
                     "process main {\n  par (p = 0, P - 1) {\n    if (p > 0) use(nic[p - 1], 1us);\n"
                     "    if (p < P - 1) use(nic[p + 1], 1us)\n  }\n}\n";
  const double sizes[] = {4, 9, 16, 1000}, three[] = {3};
  for (int k = 0; k < 4; k++) redtest_expect_lo1(text, "P", sizes[k], 3e-6, 3e-6);
  redtest_expect_lo1(text, "P", three[0], 2e-6, 2e-6);
  redtest_expect_lo(text, 0, NULL, NULL, 3e-6, 3e-6);   /* P symbolic, at its default 16 */
}

/* A column read as a grid of one column: `par (i) { delay(1us); use(nic[2 * i + 2], 1us) ||
** use(nic[2 * i], 1us) }`. Branch i's first send and branch i + 1's second meet at nic[2 i + 2] at
** 1 us, branch i first in program order: branch i + 1 ends at 3 us, the simulated time at every
** P >= 2 (before: lo 2 us, hi 3 us; reduce_grid.c column_as_pairs, G = 2). */
static void test_column_sends_meet(void **state) {
  (void)state;
  const char *text = "param P = 8 in 1 .. 100000;\nresource nic[2 * P + 2];\n"
                     "process main {\n  par (i = 0, P - 1) {\n    delay(1us);\n"
                     "    use(nic[2 * i + 2], 1us) || use(nic[2 * i], 1us)\n  }\n}\n";
  const double sizes[] = {2, 8, 100};
  for (int k = 0; k < 3; k++) redtest_expect_lo1(text, "P", sizes[k], 3e-6, 3e-6);
  redtest_expect_lo1(text, "P", 1, 2e-6, 2e-6);
  redtest_expect_lo(text, 0, NULL, NULL, 3e-6, 3e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_two_waves),
    cmocka_unit_test(test_four_waves_two_servers),
    cmocka_unit_test(test_tail_and_durations),
    cmocka_unit_test(test_line_interior),
    cmocka_unit_test(test_line_classes),
    cmocka_unit_test(test_grid_open),
    cmocka_unit_test(test_grid_open_chain),
    cmocka_unit_test(test_ring_sites),
    cmocka_unit_test(test_block_short_gather),
    cmocka_unit_test(test_line_first_sends_meet),
    cmocka_unit_test(test_column_sends_meet),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
