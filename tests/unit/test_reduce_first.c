/*
** test_reduce_first.c — a branch's first request behind an earlier branch's (lang/reduce/
** reduce_first.c, docs/reduction.md): in S1 || S2 run alone, S2's first request made at the
** start at a member that S1 (or a branch of S1's par) requests at that instant on one FCFS server
** is queued behind it (program order), so lo >= t_1 + phi_lo(S2). The schedules are worked out by
** hand in the comments (the simulated time); each case checks lo and lo <= simulated <= hi.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* Audit 5's token ring with its numbers (C = 3). At 0 every rank's background job and the
** token's first request reach core[0]; rank 0's job is first in program order (the par is the
** first branch), so it holds core[0] 0 .. 50 and the token's request runs 50 .. 52, its hop
** 52 .. 53; core[1]'s job ended at 50, so the token never waits again: 3 P hops of 3 us, the end
** at 50 + 9 P us (122 at P = 8, 590 at 180). lo = 50 + 9 P (before: max(50, 9 P) = 72 at P = 8,
** est 41% low). P = 1: 50 + 9 = 59. */
static const char *token =
  "param P = 8;\nresource core[P];\nresource nic[P];\n"
  "process main {\n"
  "  par (p = 0, P - 1) use(core[p], 50us)\n"
  "  || seq (c = 1, 3) seq (s = 0, P - 1) {\n"
  "       use(core[s], 2us);\n"
  "       use(nic[(s + 1) % P], 1us)\n"
  "     }\n"
  "}\n";

static void test_token_behind_background(void **state) {
  (void)state;
  redtest_expect_lo1(token, "P", 8, 122e-6, 122e-6);
  redtest_expect_lo1(token, "P", 1, 59e-6, 59e-6);
  redtest_expect_lo1(token, "P", 180, 1670e-6, 1670e-6);
}

/* One resource, the earlier branch a plain use: r serves use(r, 5us) 0 .. 5 (first in program
** order), then the second branch's 2 us 5 .. 7 and its delay to 17. lo = 5 + (2 + 10) = 17
** (before: max(5, 12, demand 7) = 12). */
static void test_plain_use_ahead(void **state) {
  (void)state;
  redtest_expect_lo1("param N = 1;\nresource r;\nprocess main {\n"
                     "  use(r, 5us) || { use(r, 2us); delay(10us) }\n}\n", "N", 1, 17e-6, 17e-6);
}

/* The other way round the second branch's request is the one behind: { use(r, 2us); delay(10us) }
** runs 0 .. 2 .. 12, use(r, 5us) 2 .. 7. The rule gives 2 + 5 = 7 (nothing new): lo = 12. */
static void test_later_branch_behind(void **state) {
  (void)state;
  redtest_expect_lo1("param N = 1;\nresource r;\nprocess main {\n"
                     "  { use(r, 2us); delay(10us) } || use(r, 5us)\n}\n", "N", 1, 12e-6, 12e-6);
}

/* A par whose member is p + 1: branch p* = 0 requests core[1] at 0 for 4 us, ahead of the chain's
** first request (core[1], s = 1); the chain runs 4 .. 5 at core[1] and 5 .. 6 at core[2] (p = 1's
** job ended at 4). lo = 4 + 2 = 6 (before: 4). With the par over p = 2, 3 no branch names core[1]
** (p* = 0 is out of the range): the chain runs 0 .. 2 and lo = 4, the jobs. */
static void test_par_member_shifted(void **state) {
  (void)state;
  redtest_expect_lo1("param N = 1;\nresource core[5];\nprocess main {\n"
                     "  par (p = 0, 3) use(core[p + 1], 4us) || seq (s = 1, 2) use(core[s], 1us)\n}\n",
                     "N", 1, 6e-6, 6e-6);
  redtest_expect_lo1("param N = 1;\nresource core[5];\nprocess main {\n"
                     "  par (p = 2, 3) use(core[p + 1], 4us) || seq (s = 1, 2) use(core[s], 1us)\n}\n",
                     "N", 1, 4e-6, 4e-6);
}

/* Two servers: the chain's first request finds a free server at 0 (the job takes the other), so
** no wait: fcfs(2) is not read. lo = max(4, 2) = 4, the simulated time. */
static void test_two_servers_no_wait(void **state) {
  (void)state;
  redtest_expect_lo1("param N = 1;\nresource core[5] = fcfs(2);\nprocess main {\n"
                     "  par (p = 0, 3) use(core[p + 1], 4us) || seq (s = 1, 2) use(core[s], 1us)\n}\n",
                     "N", 1, 4e-6, 4e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_token_behind_background),
    cmocka_unit_test(test_plain_use_ahead),
    cmocka_unit_test(test_later_branch_behind),
    cmocka_unit_test(test_par_member_shifted),
    cmocka_unit_test(test_two_servers_no_wait),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
