/*
** test_cal_mpi.c — the reader of pamc-mpi-bench's output (cal_mpi_parse_line): each line becomes
** the series the machine file is written from, with the samples as printed; malformed output is
** refused with a message rather than half-read.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "bench.h"

static CalRun *new_run(void) {
  CalRun *run = calloc(1, sizeof *run);
  assert_non_null(run);
  run->opt.reps = 3;
  return run;
}

static void test_lines_become_series(void **state) {
  (void)state;
  CalRun *run = new_run();
  CalError err = {""};
  assert_int_equal(cal_mpi_parse_line(run, "pamc-mpi-bench 1 ranks 3\n", &err), 0);
  assert_int_equal(run->mpi_ranks, 3);
  assert_int_equal(run->count, 0);
  assert_int_equal(cal_mpi_parse_line(run, "msg 1024 2 1.5e-06 1.25e-06 2e-06 3e-06 1e-06 4e-06\n", &err), 0);
  assert_int_equal(run->count, 1);
  const CalSeries *msg = &run->series[0];
  assert_string_equal(msg->name, "mpi_r2_msg_1024");
  assert_int_equal(msg->peer, 2);
  assert_int_equal(msg->kind, CAL_KIND_FIT_POINT);
  assert_int_equal(msg->group, CAL_GROUP_MPI);
  assert_true(msg->x == 1024);
  assert_int_equal(msg->count, 6);               /* as many as printed */
  assert_true(msg->samples[0] == 1.5e-06 && msg->samples[5] == 4e-06);
  assert_non_null(strstr(msg->bench, "ranks 0 and 2"));
  assert_int_equal(cal_mpi_parse_line(run, "barrier 2e-06 3e-06 4e-06\n", &err), 0);
  assert_int_equal(cal_mpi_parse_line(run, "allreduce 5e-06 6e-06 7e-06", &err), 0);
  assert_int_equal(run->count, 3);
  assert_string_equal(run->series[1].name, "mpi_barrier");
  assert_int_equal(run->series[1].kind, CAL_KIND_TIME);
  assert_int_equal(run->series[1].group, CAL_GROUP_MPI);
  assert_true(run->series[2].samples[2] == 7e-06);
  assert_non_null(strstr(run->series[2].bench, "over 3 ranks"));
  assert_int_equal(cal_mpi_parse_line(run, "end\n", &err), 1);
  assert_string_equal(err.message, "");
  free(run);
}

/* Each bad line is refused (-1) with a message naming what is wrong. */
static void expect_refused(CalRun *run, const char *line, const char *needle) {
  CalError err = {""};
  assert_int_equal(cal_mpi_parse_line(run, line, &err), -1);
  if (!strstr(err.message, needle)) fail_msg("'%s': message '%s' lacks '%s'", line, err.message, needle);
}

static void test_malformed_output_refused(void **state) {
  (void)state;
  CalRun *run = new_run();
  expect_refused(run, "msg 1 1 1e-06\n", "unexpected first line");
  expect_refused(run, "end\n", "before its header");
  expect_refused(run, "pamc-mpi-bench 1 ranks 1\n", "needs at least 2");
  CalError err = {""};
  assert_int_equal(cal_mpi_parse_line(run, "pamc-mpi-bench 1 ranks 2\n", &err), 0);
  expect_refused(run, "msg 0 1 1e-06\n", "bad message size");
  expect_refused(run, "msg 99999999 1 1e-06\n", "bad message size");
  expect_refused(run, "msg 64\n", "bad message size");
  expect_refused(run, "msg 64 2 1e-06\n", "bad peer rank");   /* 2 ranks: the only peer is 1 */
  expect_refused(run, "msg 64 0 1e-06\n", "bad peer rank");
  expect_refused(run, "msg 64 1\n", "bad samples");
  expect_refused(run, "msg 64 1 1e-06 -2e-06\n", "bad samples");
  expect_refused(run, "msg 64 1 1e-06 x\n", "bad samples");
  expect_refused(run, "barrier nan\n", "bad samples");
  expect_refused(run, "gather 1e-06\n", "unknown line");
  free(run);
}

static void test_count_matches_sizes(void **state) {
  (void)state;
  CalOptions opt = {0};
  assert_int_equal(cal_bench_mpi_count(&opt), 0);   /* no --mpi: nothing planned */
  opt.mpi_ranks = 2;
  assert_int_equal(cal_bench_mpi_count(&opt), 23 + 2); /* 1 B .. 4 MiB by x2, barrier, allreduce */
  opt.quick = 1;
  assert_int_equal(cal_bench_mpi_count(&opt), 12 + 2); /* by x4 */
  opt.mpi_ranks = 4;
  assert_int_equal(cal_bench_mpi_count(&opt), 3 * 12 + 2); /* each of the 3 pairs */
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_lines_become_series),
    cmocka_unit_test(test_malformed_output_refused),
    cmocka_unit_test(test_count_matches_sizes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
