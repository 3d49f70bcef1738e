/*
** test_reduce_member.c — demand per member of a family (lang/reduce/reduce_member.c,
** docs/reduction.md "Demand per member of a family"): a ring shift beside a thread that uses fixed
** members, on small models whose schedule is worked out by hand in the comments.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reduce_case.h"

/* A monitor thread uses nic[0] for 7us beside a ring whose ranks send 5us to (p + 1) % P, then
** 5us to (p + 2) % P. Every nic gets one request of each step: nic[0] 7 + 5 + 5 = 17us of work,
** so lo = 17us (before: 10 + 7 / P us, the family's total spread evenly). The simulated time is
** 17us: rank P - 1's first request waits 7us behind the monitor, rank P - 2's second then waits
** behind it. hi: a ring rank names 2 members, each with at most 10us of the ring's demand, and
** the monitor's 7us are counted once: 2 x 10 + 7 - 10 (its own) = 17us of waits, 10 + 17 = 27us;
** the monitor 7 + (10 + 7 - 7) = 17us (before: 10 P + 17 us, the family as one resource). */
static void test_ring_beside_monitor(void **state) {
  (void)state;
  const char *text =
    "param P = 8 in 1 .. 100000;\nresource nic[P];\n"
    "process main { use(nic[0], 7us) || par (p = 0, P - 1) { use(nic[(p + 1) % P], 5us); use(nic[(p + 2) % P], 5us) } }\n";
  const char *names[] = {"P"};
  static const int ps[] = {2, 3, 8, 100, 10000};
  for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
    double P = ps[k];
    redtest_expect(text, 1, names, &P, 17e-6, 17e-6, 27e-6);
  }
}

/* A root that writes 50us through its own nic[0] beside the ring's 5us sends to (p + 1) % P:
** rank P - 1's send waits for the root, 55us in all, and nic[0] holds 50 + 5 us: lo = 55us. The
** ring's rank names one member, 5us of the ring's there at most, plus the root's 50us: 5 + 50 - 5
** = 50us of wait, 55us; the root 50 + (5 + 50 - 50) = 55us: hi = 55us, the simulated time. */
static void test_root_io(void **state) {
  (void)state;
  const char *text =
    "param P = 8 in 1 .. 100000;\nresource nic[P];\n"
    "process main { use(nic[0], 50us) || par (p = 0, P - 1) use(nic[(p + 1) % P], 5us) }\n";
  const char *names[] = {"P"};
  for (int p = 1; p <= 10000; p *= 10) {
    double P = p;
    redtest_expect(text, 1, names, &P, 55e-6, 55e-6, 55e-6);
  }
}

/* The monitor uses nic[0] then nic[1] for 4us each; the ring sends 5us to (p + 1) % P. At 0 the
** monitor takes nic[0] (it is written first) and rank P - 1 waits until 4us, ends at 9us; rank 0
** holds nic[1] until 5us, so the monitor's second request runs 5 .. 9us: sim = 9us; lo: nic[0]
** (and nic[1]) hold 4 + 5 us, 9us. hi: the monitor names 2 members with at most 5us of the ring's
** each, and the named 8us: 2 x 5 + 8 - 8 = 10us of waits, 8 + 10 = 18us; a ring rank 5 + (5 + 8 -
** 5) = 13us: hi = 18us. */
static void test_monitor_two_members(void **state) {
  (void)state;
  const char *text =
    "param P = 8 in 2 .. 100000;\nresource nic[P];\n"
    "process main { { use(nic[0], 4us); use(nic[1], 4us) } || par (p = 0, P - 1) use(nic[(p + 1) % P], 5us) }\n";
  const char *names[] = {"P"};
  for (int p = 2; p <= 2000; p *= 10) {
    double P = p;
    redtest_expect(text, 1, names, &P, 9e-6, 9e-6, 18e-6);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_ring_beside_monitor),
    cmocka_unit_test(test_root_io),
    cmocka_unit_test(test_monitor_two_members),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
