/*
** test_reduce_count.c — requests counted on m servers (lang/reduce/reduce_count.c,
** docs/reduction.md "Requests counted on m servers"), on small models whose schedules are worked
** out by hand in the comments.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* Tasks beside a logger (so nothing that needs the par alone applies): task i uses a 2-slot
** device for 10us when i % 3 == 0, then after 2us again when i is even. M = 5: requests from
** i = 0, 3 and from 0, 2, 4, five of 10us on two servers: ceil(5 / 2) = 3 one after another on
** the busiest, 30us, the simulated time (before: 25us, the load). M = 7: 3 + 4 = 7 requests, 40us
** (before 35us); simulated 40us. */
static void test_guarded_beside(void **state) {
  (void)state;
  const char *text =
      "param M = 8 in 1 .. 100000;\nresource dev = fcfs(2);\nresource log = fcfs(1);\n"
      "process main = { par (i = 0, M - 1) { if (i % 3 == 0) use(dev, 10us) else delay(1us);"
      " delay(2us); if (i % 2 == 0) use(dev, 10us) } } || use(log, 3us);\n";
  redtest_expect_lo1(text, "M", 5, 30e-6, 30e-6);
  redtest_expect_lo1(text, "M", 7, 40e-6, 40e-6);
}

/* Requests through a called process, an `if` on the thread and a repeat, T = 3 threads on 2
** cores, every use 5us: 3 (work) + 2 (work again for t = 0, 2) + 6 (the repeat) = 11 requests,
** ceil(11 / 2) = 6 on the busiest core, 30us; simulated 32us (before: 27.5us). */
static void test_through_calls(void **state) {
  (void)state;
  const char *text =
      "param T = 3 in 1 .. 100000;\nresource cores = fcfs(2);\n"
      "process work = { delay(1us); use(cores, 5us) };\n"
      "process main = par (t = 0, T - 1) { work; if (t % 2 == 0) work else delay(2us);"
      " repeat (2) use(cores, 5us) };\n";
  redtest_expect_lo1(text, "T", 3, 30e-6, 32e-6);
}

/* Sizes that differ: one request of 10us and N - 1 of 1us on 2 servers. With N = 12 one server
** runs the 10us, the other the 1us ones and then shares the last two: 11us simulated. Counting
** every request at 10us would give ceil(21 / 20) 10us = 20us, above it: the rule must not read
** this par (any lo up to 11us is sound). */
static void test_sizes_differ(void **state) {
  (void)state;
  const char *text =
      "param N = 12 in 1 .. 100000;\nresource dev = fcfs(2);\n"
      "process main = par (i = 0, N - 1) if (i == 0) use(dev, 10us) else use(dev, 1us);\n";
  redtest_expect_lo1(text, "N", 12, -1, 11e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_guarded_beside),
    cmocka_unit_test(test_through_calls),
    cmocka_unit_test(test_sizes_differ),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
