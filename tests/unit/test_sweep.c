/*
** test_sweep.c — predict's sweep values (sweep.h): every form, the cartesian order, bad forms,
** and a 10^6-point sweep streamed without growing memory.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sweep.h"

static void check_values(const char *value, const double *want, long count) {
  Sweep s;
  sweep_init(&s);
  char msg[SWEEP_MESSAGE_SIZE];
  assert_int_equal(sweep_add(&s, "X", value, value, msg, sizeof msg), 0);
  assert_int_equal(sweep_points(&s), count);
  double v;
  for (long i = 0; i < count; i++) {
    assert_int_equal(sweep_next(&s, &v), 1);
    assert_true(v == want[i]);
  }
  assert_int_equal(sweep_next(&s, &v), 0);
  sweep_free(&s);
}

static void test_forms(void **state) {
  (void)state;
  const double range[] = {3, 4, 5, 6};
  check_values("3..6", range, 4);
  const double geo[] = {1, 2, 4, 8, 16};
  check_values("1..16:*2", geo, 5);
  check_values("1..20:*2", geo, 5);
  const double step[] = {10, 35, 60, 85};
  check_values("10..100:+25", step, 4);
  const double list[] = {7, 2e-6, 1e6};
  check_values("7,2us,1_000_000", list, 3);
  assert_true(sweep_is_sweep("1..4"));
  assert_true(sweep_is_sweep("1,2"));
  assert_false(sweep_is_sweep("[1,2]"));
  assert_false(sweep_is_sweep("2us"));
}

static void test_cartesian(void **state) {
  (void)state;
  Sweep s;
  sweep_init(&s);
  char msg[SWEEP_MESSAGE_SIZE];
  assert_int_equal(sweep_add(&s, "A", "1..2", "A=1..2", msg, sizeof msg), 0);
  assert_int_equal(sweep_add(&s, "B", "10,20,30", "B=10,20,30", msg, sizeof msg), 0);
  const double want[6][2] = {{1, 10}, {1, 20}, {1, 30}, {2, 10}, {2, 20}, {2, 30}};
  double v[2];
  for (int i = 0; i < 6; i++) {
    assert_int_equal(sweep_next(&s, v), 1);
    assert_true(v[0] == want[i][0] && v[1] == want[i][1]);
  }
  assert_int_equal(sweep_next(&s, v), 0);
  sweep_free(&s);
}

static void test_bad(void **state) {
  (void)state;
  const char *bad[] = {"1..", "..4", "5..1", "1..8:*1", "0..8:*2", "1..8:+0", "1..8:-1",
                       "1..8:*", "a..b", "1,,2", "1,x", "1..8:+2x"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    Sweep s;
    sweep_init(&s);
    char msg[SWEEP_MESSAGE_SIZE] = "";
    assert_int_equal(sweep_add(&s, "P", bad[i], "P=bad", msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "-D P=bad"));
    sweep_free(&s);
  }
}

static void test_million(void **state) {
  (void)state;
  Sweep s;
  sweep_init(&s);
  char msg[SWEEP_MESSAGE_SIZE];
  assert_int_equal(sweep_add(&s, "A", "1..1000", "A", msg, sizeof msg), 0);
  assert_int_equal(sweep_add(&s, "B", "0..999", "B", msg, sizeof msg), 0);
  assert_int_equal(sweep_points(&s), 1000000);
  double v[2], sum = 0;
  long n = 0;
  while (sweep_next(&s, v)) { sum += v[0] + v[1]; n++; }
  assert_int_equal(n, 1000000);
  /* sum of A over the points: 1000 * (1000*1001/2); of B: 1000 * (999*1000/2) */
  assert_true(sum == 1000.0 * 500500 + 1000.0 * 499500);
  sweep_free(&s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_forms),
    cmocka_unit_test(test_cartesian),
    cmocka_unit_test(test_bad),
    cmocka_unit_test(test_million),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
