/*
** test_reduce_rect.c — Px x Py process grids whose sizes are consts derived from a param
** (docs/reduction.md, "Consts derived from params" and "Loop ends are integers"), and the note
** a bound gets where a par's rule counts every branch at one member (reduce_approx.c,
** reduce_note_counted), on small models whose schedule is worked out by hand in the comments.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "reduce_case.h"

/* The note of T_hi whose text holds what, or NULL. */
static const ReduceApprox *hi_note(const RedtestRun *run, const char *what) {
  for (int i = 0; i < run->r.approx_count; i++)
    if (run->r.approx[i].bound == 1 && strstr(run->r.approx[i].what, what)) return &run->r.approx[i];
  return NULL;
}

/* 1 when note a holds at the values of run (no condition, or its condition false there). */
static int note_holds(const RedtestRun *run, const ReduceApprox *a) {
  if (!a->unless) return 1;
  AlgInterval v = alg_eval_tree(run->r.alg, a->unless, run->env);
  assert_true(v.lo == v.hi);
  return v.lo == 0;
}

/* 4 x 4 branches, branch (r, c) computes 30us and sends 3us to nic[r + c] of a family of P: one
** to one in c for each r, but no rule counts the pairs at a member (member r + c has up to 4
** clients), and the family of P > 4 members is not filled by the 4 values of c, so the bounded
** clients count every one of the 16 branches at a member: hi = 30 + 3 + 15 x 3 = 78us, lo = 33us
** (the path), simulated 30 + 4 x 3 = 42us (member 3 gets the requests of (0, 3), (1, 2), (2, 1)
** and (3, 0) at 30us). That bound rests on the family's members taken as one for the par's 16
** branches: T_hi has a note saying so (before: none, as in audit 5's rect_south, where the family
** as one resource was noted and the note dropped because the bounded clients' bound was the
** smaller). At P = 4 the 4 values of c fill the family, the counts hold (4 a member), and the
** note does not hold there. */
static void test_counted_note(void **state) {
  (void)state;
  const char *text =
    "param P = 64 in 1 .. 100000;\nresource nic[P];\n"
    "process main = par (r = 0, 3) par (c = 0, 3) { delay(30us); use(nic[r + c], 3us) };\n";
  const char *names[] = {"P"};
  double P = 64;
  redtest_expect(text, 1, names, &P, 33e-6, 42e-6, 78e-6);
  RedtestRun run;
  redtest_open(&run, text, 1, names, &P);
  const ReduceApprox *a = hi_note(&run, "family nic taken as one member by the branches of a par");
  assert_non_null(a);
  assert_int_equal(a->loc.line, 2);
  assert_true(note_holds(&run, a));
  redtest_close(&run);
  P = 4;
  redtest_open(&run, text, 1, names, &P);
  a = hi_note(&run, "taken as one member");
  assert_true(!a || !note_holds(&run, a));
  redtest_close(&run);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_counted_note),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
