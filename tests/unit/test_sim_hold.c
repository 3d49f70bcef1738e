/*
** test_sim_hold.c — `hold (r) S` in the simulator (LANGUAGE.md §8): FCFS like use, held while S
** runs (S uses, holds, forks), released when S ends; deadlocks found and reported with the
** statements that wait. Schedules computed by hand in each test's comment.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "sim_case.h"

/* A lock around work on shared cores: the lock serialises the three holders, each computing 1 s
** alone on ps(2) cores: 3 s. Without the lock they would share the cores: 3 x 1 on ps(2), 1.5 s. */
static void test_hold_serialises(void **state) {
  (void)state;
  simtest_assert_close(simtest_time("resource lock;\nresource cores = ps(2);\n"
                                    "process main { par (i = 0, 2) hold (lock) use(cores, 1) }\n"), 3);
  simtest_assert_close(simtest_time("resource cores = ps(2);\nprocess main { par (i = 0, 2) use(cores, 1) }\n"), 1.5);
}

/* The body forks: A holds the lock while two requests of 1 share ps(1) (both end at 2); B asks at
** 0.5 and gets the lock when A's body ends at 2: 2..3. Makespan 3. */
static void test_hold_body_forks(void **state) {
  (void)state;
  simtest_assert_close(simtest_time("resource lock;\nresource cores = ps(1);\n"
                                    "process main { hold (lock) { use(cores, 1) || use(cores, 1) } || "
                                    "{ delay(0.5); hold (lock) delay(1) } }\n"), 3);
}

/* Nested holds: A holds a from 0, delays to 1, asks for b; B holds b 0.5..2.5 (its body is a
** 2 s delay); A gets b at 2.5, holds both until 3.5. Makespan 3.5. And a third thread asking
** for a at 0.1 waits for A's release at 3.5: 3.5..4.5. */
static void test_hold_nested(void **state) {
  (void)state;
  simtest_assert_close(simtest_time("resource a;\nresource b;\nprocess main { hold (a) { delay(1); hold (b) delay(1) } || "
                                    "{ delay(0.5); hold (b) delay(2) } }\n"), 3.5);
  simtest_assert_close(simtest_time("resource a;\nresource b;\nprocess main { hold (a) { delay(1); hold (b) delay(1) } || "
                                    "{ delay(0.5); hold (b) delay(2) } || { delay(0.1); use(a, 1) } }\n"), 4.5);
}

/* use(r, t) is hold (r) delay(t), ties included: the program-order case of test_sim.c written
** with holds gives the same 18 us; a use waiting behind a hold: hold 0..2, use 2..3. */
static void test_hold_is_use(void **state) {
  (void)state;
  simtest_assert_close(simtest_time("resource r;\nprocess main {\n"
                                    "  { delay(1us); delay(1us); hold (r) delay(5us) } || { delay(2us); hold (r) delay(1us); delay(10us) }\n}\n"),
                       18e-6);
  simtest_assert_close(simtest_time("resource r;\nprocess main { hold (r) delay(2) || { delay(1); use(r, 1) } }\n"), 3);
}

/* Family members are locks of their own: 4 holders of 1 s on row[i % 2]: two per member, 2 s. */
static void test_hold_family(void **state) {
  (void)state;
  simtest_assert_close(simtest_time("resource row[2];\nprocess main { par (i = 0, 3) hold (row[i % 2]) delay(1) }\n"), 2);
}

/* Busy time of a hold is the time held: lock held 0..1 and 1..2 of a 2 s run: 100%, B waited 1 s. */
static void test_hold_report(void **state) {
  (void)state;
  SimCase c;
  simtest_run(&c, "resource lock;\nprocess main { hold (lock) delay(1) || hold (lock) delay(1) }\n", SIM_SCENARIO_MID, 1, 1);
  assert_int_equal(c.status, 0);
  simtest_assert_close(simtest_resource(&c, "lock")->utilisation, 1);
  simtest_assert_close(simtest_resource(&c, "lock")->waiting, 1);
  simtest_assert_close(simtest_resource(&c, "lock")->requests, 2);
  simtest_done(&c);
}

/* ------------------------------------------------------------------ deadlocks */

/* Runs text, which must deadlock; the error is at (line, col) and says "deadlock"; the notes are
** at the lines given (0-terminated), each naming what waits. */
static void expect_deadlock(const char *text, int line, int col, const int *note_lines) {
  SimCase c;
  simtest_run(&c, text, SIM_SCENARIO_MID, 1, 1);
  assert_int_equal(c.status, -1);
  assert_non_null(strstr(c.err.message, "deadlock"));
  assert_int_equal(c.err.loc.line, line);
  assert_int_equal(c.err.loc.col, col);
  int n = 0;
  while (note_lines[n]) n++;
  assert_int_equal(c.err.note_count, n);
  for (int i = 0; i < n; i++) {
    assert_int_equal(c.err.notes[i].loc.line, note_lines[i]);
    assert_non_null(strstr(c.err.notes[i].message, "waits"));
  }
  simtest_done(&c);
}

/* hold (a) hold (b) beside hold (b) hold (a), with delays that make them meet: A holds a at 0, B
** holds b at 0; at 1 each asks for the other's: both wait forever. The notes: b's queue (line 4's
** inner hold, waiting while holding a), listed by resource: a first (B's request, line 5). */
static void test_deadlock_two_locks(void **state) {
  (void)state;
  const int notes[] = {5, 4, 0};
  expect_deadlock("resource a;\nresource b;\nprocess main {\n"
                  "  hold (a) { delay(1); hold (b) delay(1) }\n"
                  "  || hold (b) { delay(1); hold (a) delay(1) }\n}\n", 5, 27, notes);
  SimCase c;
  simtest_run(&c, "resource a;\nresource b;\nprocess main {\n"
              "  hold (a) { delay(1); hold (b) delay(1) }\n"
              "  || hold (b) { delay(1); hold (a) delay(1) }\n}\n", SIM_SCENARIO_MID, 1, 1);
  assert_non_null(strstr(c.err.notes[0].message, "'a' waits while holding 'b'"));
  assert_non_null(strstr(c.err.notes[1].message, "'b' waits while holding 'a'"));
  simtest_done(&c);
}

/* The same locks taken apart in time do not deadlock: A holds a, then b, 0..2; B starts at 5:
** holds b then a 5..7. Makespan 7. */
static void test_no_deadlock_apart(void **state) {
  (void)state;
  simtest_assert_close(simtest_time("resource a;\nresource b;\nprocess main {\n"
                                    "  hold (a) { delay(1); hold (b) delay(1) }\n"
                                    "  || { delay(5); hold (b) { delay(1); hold (a) delay(1) } }\n}\n"), 7);
}

/* A thread that asks for what it holds waits for itself; a three-lock cycle with a bystander that
** runs on to 100 s is found when the bystander has ended. */
static void test_deadlock_self_and_cycle(void **state) {
  (void)state;
  const int self[] = {2, 0};
  expect_deadlock("resource a;\nprocess main = hold (a) use(a, 1);\n", 2, 25, self);
  const int cycle[] = {6, 4, 5, 0};
  expect_deadlock("resource a;\nresource b;\nresource c;\nprocess main { hold (a) { delay(1); use(b, 1) }\n"
                  "  || hold (b) { delay(1); use(c, 1) }\n"
                  "  || hold (c) { delay(1); use(a, 1) } || delay(100) }\n", 6, 27, cycle);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_hold_serialises),
    cmocka_unit_test(test_hold_body_forks),
    cmocka_unit_test(test_hold_nested),
    cmocka_unit_test(test_hold_is_use),
    cmocka_unit_test(test_hold_family),
    cmocka_unit_test(test_hold_report),
    cmocka_unit_test(test_deadlock_two_locks),
    cmocka_unit_test(test_no_deadlock_apart),
    cmocka_unit_test(test_deadlock_self_and_cycle),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
