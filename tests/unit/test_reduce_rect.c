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

/* 4 x 4 branches, branch (r, c) computes 30us and sends 3us to nic[r + c] of a family of P >= 7:
** one to one in c for each r, but no rule counts the pairs at a member (member r + c has up to 4
** clients), and the 4 values of c do not fill the family of P > 4 members, so the bounded clients
** count every one of the 16 branches at a member: hi = 30 + 3 + 15 x 3 = 78us, lo = 33us (the
** path), simulated 30 + 4 x 3 = 42us (member 3 gets the requests of (0, 3), (1, 2), (2, 1) and
** (3, 0) at 30us). That bound rests on the family's members taken as one for the par's 16
** branches: T_hi has a note saying so, whose condition (the counts hold where 4 - P >= 0) is
** false at P = 8 and 64 (before: no note, as in audit 5's rect_south, where the family as one
** resource was noted and the note dropped because the bounded clients' bound was the smaller).
** tests/e2e/predict.sh checks a point where the condition holds (`(r + c) % P` at P = 4). */
static void test_counted_note(void **state) {
  (void)state;
  const char *text =
    "param P = 64 in 1 .. 100000;\nresource nic[P];\n"
    "process main = par (r = 0, 3) par (c = 0, 3) { delay(30us); use(nic[r + c], 3us) };\n";
  const char *names[] = {"P"};
  static const double ps[] = {8, 64};
  for (int k = 0; k < 2; k++) {
    double P = ps[k];
    redtest_expect(text, 1, names, &P, 33e-6, 42e-6, 78e-6);
    RedtestRun run;
    redtest_open(&run, text, 1, names, &P);
    const ReduceApprox *a = hi_note(&run, "family nic taken as one member by the branches of a par");
    assert_non_null(a);
    assert_int_equal(a->loc.line, 2);
    assert_true(note_holds(&run, a));
    redtest_close(&run);
  }
}

/* A Px x Py periodic grid, Px = 4 a const and Py = P / Px derived from the param (substituted:
** the loop is r = 0 .. P / Px - 1 and the south neighbour `((r + 1) % (P / Px)) * Px + c`). Each of
** 3 steps: every rank computes 30us, then sends 3us south (rect_south) or east and south
** (rect_grid): (r, c) -> ((r + 1) % Py, c) and (r, c) -> (r, (c + 1) % Px) are bijections of the
** grid, so in each send all requests name distinct members at the same instant and none waits:
** 3 (30 + 3) = 99us and 3 (30 + 3 + 3) = 108us at every P divisible by 4, lo = hi = the simulated
** time. The modulus P / Px is read as an integer because it is the end of r's loop plus 1
** (reduce_ends.c: a loop bound is a checked integer). Before: hi = 3 (33 + (P - 1) 3) us for the
** south send (the bounded clients counting all P ranks at a member: 666us at P = 64) and the
** family taken as one resource for both (hi/sim 1668 at P = 10^4). */
static void test_rect_south(void **state) {
  (void)state;
  static const char *const sends[] = {
    "use(nic[((r + 1) % Py) * Px + c], t_m)",
    "use(nic[r * Px + (c + 1) % Px], t_m); use(nic[((r + 1) % Py) * Px + c], t_m)",
    "use(nic[((r + Py - 1) % Py) * Px + c], t_m)",
  };
  static const double step[] = {33e-6, 36e-6, 33e-6};
  static const int ps[] = {4, 8, 64, 1000, 10000};
  const char *names[] = {"P"};
  char text[1024];
  for (size_t f = 0; f < sizeof sends / sizeof sends[0]; f++)
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
      snprintf(text, sizeof text,
               "param P = 16 in 1 .. 100000;\nconst Px = 4;\nconst Py = P / Px;\nconst t_c = 30us;\n"
               "const t_m = 3us;\nresource nic[P];\n"
               "process main = repeat (3) par (r = 0, Py - 1) par (c = 0, Px - 1) { delay(t_c); %s };\n",
               sends[f]);
      double P = ps[k], T = 3 * step[f];
      redtest_expect(text, 1, names, &P, T, T, T);
    }
}

/* The loop-end reading needs the modulus to be the loop's end plus an integer: the same south
** send with the rows written `par (r = 0, floor(P / Px) - 1)` leaves P / Px - floor(P / Px) + 1,
** no integer expression, and the rule claims nothing (the bounds stay sound: at P = 64 lo = 99us,
** the simulated time, and hi is the bounded clients' 3 (33 + 63 x 3) = 666us). */
static void test_rect_not_end(void **state) {
  (void)state;
  const char *text =
    "param P = 16 in 1 .. 100000;\nconst Px = 4;\nconst t_m = 3us;\nresource nic[P];\n"
    "process main = repeat (3) par (r = 0, floor(P / Px) - 1) par (c = 0, Px - 1) "
    "{ delay(30us); use(nic[((r + 1) % (P / Px)) * Px + c], t_m) };\n";
  const char *names[] = {"P"};
  double P = 64;
  redtest_expect(text, 1, names, &P, 99e-6, 99e-6, 666e-6);
}

/* The same grid with one rank index p = 0 .. P - 1 and Px = 4 a const (audit 5's rect_linear):
** east `floor(p / Px) * Px + (p % Px + 1) % Px`, south `(p + Px) % P`. p is Px o + n with
** o = floor(p / Px), n = p % Px, and east is Px o + (n + 1) % Px, one-to-one on the pairs, when
** Px is a positive integer: a const kept as a symbol is not proved one (-D may set it apart), so
** the par's rules take it under the condition Px >= 1 and floor(Px) == Px, which the bounds carry.
** At Px = 4 every send names distinct members at once: 3 (30 + 3 + 3) = 108us, lo = hi = the
** simulated time at P = 4 .. 10^4 (before: the family as one resource, hi = 3 (36 + (2 P - 2) 3)
** us, 1242us at P = 64). */
static void test_rect_linear(void **state) {
  (void)state;
  const char *text =
    "param P = 16 in 1 .. 100000;\nconst Px = 4;\nconst t_m = 3us;\nresource nic[P];\n"
    "process main = repeat (3) par (p = 0, P - 1) { delay(30us); "
    "use(nic[floor(p / Px) * Px + (p % Px + 1) % Px], t_m); use(nic[(p + Px) % P], t_m) };\n";
  const char *names[] = {"P"};
  static const int ps[] = {4, 8, 64, 1000, 10000};
  for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
    double P = ps[k];
    redtest_expect(text, 1, names, &P, 108e-6, 108e-6, 108e-6);
  }
}

/* Where the condition fails the bounds are those without the par's rules: at Q = 1/2 (set at
** evaluation, as a sweep over the const does) `floor(p / Q) * Q + (p % Q + 1) % Q` is p itself
** (p % 1/2 = 0 and 1 % 1/2 = 0), each step 30 + 3 + 1us with no wait (102us, the simulated
** time), but the reading as digits does not hold: hi is the family as one resource's,
** 3 (34 + (8 x 4 - 4)) = 186us at P = 8; at Q = 2 the digits hold and hi = lo = 102us. */
static void test_rect_base_assumed(void **state) {
  (void)state;
  const char *text =
    "param P = 8 in 1 .. 100000;\nconst Q = 4;\nresource nic[P];\n"
    "process main = repeat (3) par (p = 0, P - 1) { delay(30us); "
    "use(nic[floor(p / Q) * Q + (p % Q + 1) % Q], 3us); use(nic[p], 1us) };\n";
  const char *names[] = {"P", "Q"};
  double half[] = {8, 0.5}, two[] = {8, 2};
  redtest_expect(text, 2, names, half, 102e-6, 102e-6, 186e-6);
  redtest_expect(text, 2, names, two, 102e-6, 102e-6, 102e-6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_counted_note),
    cmocka_unit_test(test_rect_south),
    cmocka_unit_test(test_rect_not_end),
    cmocka_unit_test(test_rect_linear),
    cmocka_unit_test(test_rect_base_assumed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
