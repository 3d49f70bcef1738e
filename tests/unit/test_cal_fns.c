/*
** test_cal_fns.c — the machine file's functions of the thread count, from runs made of named
** series (no benchmark runs): fn t_OP_shared(ws_bytes, threads) chooses t_OP for one thread and
** t_OP_parT for T threads measured at once, the last beyond; const t_barrier and fn
** t_barrier_of(threads) (t_omp_for likewise) from t_barrier_1 .. t_barrier_N; the flop rate by
** order and threads (fn t_flop_vec_of(n), t_flop_vec_shared(n, threads), the _plain twins) and
** fn t_load_lat(ws_bytes). Expected texts are written by hand.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "flops_fns.h"
#include "memory_fns.h"
#include "thread_fns.h"

static void add(CalRun *run, const char *name, CalKind kind, double x) {
  CalError err = {""};
  CalSeries *s = cal_run_add_series(run, name, "test", kind, x, &err);
  assert_non_null(s);
  cal_series_push(s, 1e-9);
}

/* The declaration whose text starts with `start`, or NULL. */
static const char *decl_starting(const CalMachine *m, const char *start) {
  for (int i = 0; i < m->decl_count; i++)
    if (!strncmp(m->decls[i].text, start, strlen(start))) return m->decls[i].text;
  return NULL;
}

/* Sweeps at 4 KiB and 64 KiB alone, with 2 and with 3 threads: three choices per function. */
static void test_shared_measured(void **state) {
  (void)state;
  CalRun *run = calloc(1, sizeof *run);
  CalMachine *m = calloc(1, sizeof *m);
  assert_non_null(run);
  assert_non_null(m);
  const char *ops[] = {"read", "write", "copy"};
  char name[CAL_NAME_MAX];
  for (int op = 0; op < 3; op++)
    for (int t = 1; t <= 3; t++)
      for (double x = 4096; x <= 65536; x *= 16) {
        if (t == 1) snprintf(name, sizeof name, "t_%s_%.0f", ops[op], x);
        else snprintf(name, sizeof name, "t_%s_par%d_%.0f", ops[op], t, x);
        add(run, name, CAL_KIND_PER_BYTE, x);
      }
  CalError err = {""};
  assert_int_equal(cal_memory_fns(run, m, &err), 0);
  const char *text = decl_starting(m, "fn t_read_shared(");
  assert_non_null(text);
  assert_string_equal(text, "fn t_read_shared(ws_bytes, threads) = threads <= 1 ? t_read(ws_bytes) : "
                            "threads <= 2 ? t_read_par2(ws_bytes) : t_read_par3(ws_bytes);");
  assert_string_equal(decl_starting(m, "fn t_copy_shared("),
                      "fn t_copy_shared(ws_bytes, threads) = threads <= 1 ? t_copy(ws_bytes) : "
                      "threads <= 2 ? t_copy_par2(ws_bytes) : t_copy_par3(ws_bytes);");
  /* The 3-thread function interpolates its own two sets. */
  assert_non_null(decl_starting(m, "fn t_write_par3(ws_bytes) ="));
  assert_non_null(decl_starting(m, "  ws_bytes <= 4096 ? t_write_par3_4096 :"));
  assert_non_null(decl_starting(m, "  t_write_par3_65536;"));
  free(run);
  free(m);
}

/* One CPU: no series under threads, each thread alone. */
static void test_shared_one_cpu(void **state) {
  (void)state;
  CalRun *run = calloc(1, sizeof *run);
  CalMachine *m = calloc(1, sizeof *m);
  assert_non_null(run);
  assert_non_null(m);
  add(run, "t_read_4096", CAL_KIND_PER_BYTE, 4096);
  add(run, "t_write_4096", CAL_KIND_PER_BYTE, 4096);
  add(run, "t_copy_4096", CAL_KIND_PER_BYTE, 4096);
  CalError err = {""};
  assert_int_equal(cal_memory_fns(run, m, &err), 0);
  assert_string_equal(decl_starting(m, "fn t_read_shared("),
                      "fn t_read_shared(ws_bytes, threads) = t_read(ws_bytes);");
  free(run);
  free(m);
}

/* The product at 128 (t_flop_vec), 256, 512, alone and on 2 threads, in both shapes. */
static void test_flops_fns(void **state) {
  (void)state;
  CalRun *run = calloc(1, sizeof *run);
  CalMachine *m = calloc(1, sizeof *m);
  assert_non_null(run);
  assert_non_null(m);
  const char *shapes[] = {"t_flop_vec", "t_flop_vec_plain"};
  char name[CAL_NAME_MAX];
  for (int k = 0; k < 2; k++)
    for (int n = 128; n <= 512; n *= 2) {
      if (n == 128) snprintf(name, sizeof name, "%s", shapes[k]);
      else snprintf(name, sizeof name, "%s_%d", shapes[k], n);
      add(run, name, CAL_KIND_TIME, n);
      snprintf(name, sizeof name, "%s_par2_%d", shapes[k], n);
      add(run, name, CAL_KIND_TIME, n);
    }
  add(run, "t_flop_blas", CAL_KIND_TIME, 128);
  add(run, "t_flop_blas_512", CAL_KIND_TIME, 512);
  CalError err = {""};
  assert_int_equal(cal_flops_fns(run, m, &err), 0);
  assert_non_null(decl_starting(m, "fn t_flop_blas_of(n) ="));
  assert_non_null(decl_starting(m, "  n <= 512 ? (t_flop_blas * (512 - n) + t_flop_blas_512 * (n - 128)) / 384 :"));
  assert_non_null(decl_starting(m, "fn t_flop_vec_of(n) ="));
  assert_non_null(decl_starting(m, "  n <= 128 ? t_flop_vec :"));
  assert_non_null(decl_starting(m, "  n <= 256 ? (t_flop_vec * (256 - n) + t_flop_vec_256 * (n - 128)) / 128 :"));
  assert_non_null(decl_starting(m, "  n <= 512 ? (t_flop_vec_plain_par2_256 * (512 - n) + "
                                   "t_flop_vec_plain_par2_512 * (n - 256)) / 256 :"));
  assert_non_null(decl_starting(m, "  t_flop_vec_plain_512;"));
  assert_string_equal(decl_starting(m, "fn t_flop_vec_shared("),
                      "fn t_flop_vec_shared(n, threads) = threads <= 1 ? t_flop_vec_of(n) : "
                      "t_flop_vec_par2_of(n);");
  assert_string_equal(decl_starting(m, "fn t_flop_vec_plain_shared("),
                      "fn t_flop_vec_plain_shared(n, threads) = threads <= 1 ? "
                      "t_flop_vec_plain_of(n) : t_flop_vec_plain_par2_of(n);");
  /* The plain shape's 2-thread function does not take the restrict shape's series. */
  assert_null(decl_starting(m, "  n <= 128 ? t_flop_vec_par2_128 : t_flop_vec_plain"));
  free(run);
  free(m);
}

/* fn t_load_lat(ws_bytes) from the chased sets; none without them. */
static void test_load_lat_fn(void **state) {
  (void)state;
  CalRun *run = calloc(1, sizeof *run);
  CalMachine *m = calloc(1, sizeof *m);
  assert_non_null(run);
  assert_non_null(m);
  CalError err = {""};
  assert_int_equal(cal_memory_fns(run, m, &err), 0);
  assert_null(decl_starting(m, "fn t_load_lat("));
  add(run, "t_load_lat_4096", CAL_KIND_TIME, 4096);
  add(run, "t_load_lat_65536", CAL_KIND_TIME, 65536);
  add(run, "t_read_4096", CAL_KIND_PER_BYTE, 4096);
  assert_int_equal(cal_memory_fns(run, m, &err), 0);
  assert_non_null(decl_starting(m, "fn t_load_lat(ws_bytes) ="));
  assert_non_null(decl_starting(m, "  ws_bytes <= 65536 ? (t_load_lat_4096 * (65536 - ws_bytes) + "
                                   "t_load_lat_65536 * (ws_bytes - 4096)) / 61440 :"));
  free(run);
  free(m);
}

/* fn t_page_fault_shared(threads) over constants (no argument). */
static void test_page_fault_fns(void **state) {
  (void)state;
  CalRun *run = calloc(1, sizeof *run);
  CalMachine *m = calloc(1, sizeof *m);
  assert_non_null(run);
  assert_non_null(m);
  add(run, "t_page_fault", CAL_KIND_TIME, 0);
  add(run, "t_page_fault_par2", CAL_KIND_TIME, 0);
  add(run, "t_page_fault_par3", CAL_KIND_TIME, 0);
  add(run, "t_page_fault_rw", CAL_KIND_TIME, 0);
  CalError err = {""};
  assert_int_equal(cal_thread_fns(run, m, &err), 0);
  assert_string_equal(decl_starting(m, "fn t_page_fault_shared("),
                      "fn t_page_fault_shared(threads) = threads <= 1 ? t_page_fault : "
                      "threads <= 2 ? t_page_fault_par2 : t_page_fault_par3;");
  assert_string_equal(decl_starting(m, "fn t_page_fault_rw_shared("),
                      "fn t_page_fault_rw_shared(threads) = t_page_fault_rw;");
  free(run);
  free(m);
}

static void test_barrier_of(void **state) {
  (void)state;
  CalRun *run = calloc(1, sizeof *run);
  CalMachine *m = calloc(1, sizeof *m);
  assert_non_null(run);
  assert_non_null(m);
  add(run, "t_barrier_1", CAL_KIND_TIME, 0);
  add(run, "t_barrier_2", CAL_KIND_TIME, 0);
  add(run, "t_barrier_3", CAL_KIND_TIME, 0);
  add(run, "t_omp_for_1", CAL_KIND_TIME, 0);
  CalError err = {""};
  assert_int_equal(cal_thread_fns(run, m, &err), 0);
  assert_int_equal(m->decl_count, 4);
  assert_string_equal(m->decls[0].text, "const t_barrier = t_barrier_3;               # 3 threads, as many as CPUs");
  assert_string_equal(m->decls[1].text, "fn t_barrier_of(threads) = threads <= 1 ? t_barrier_1 : "
                                        "threads <= 2 ? t_barrier_2 : t_barrier_3;");
  assert_string_equal(m->decls[2].text, "const t_omp_for = t_omp_for_1;               # 1 thread, as many as CPUs");
  assert_string_equal(m->decls[3].text, "fn t_omp_for_of(threads) = t_omp_for_1;");
  free(run);
  free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_shared_measured),
    cmocka_unit_test(test_shared_one_cpu),
    cmocka_unit_test(test_barrier_of),
    cmocka_unit_test(test_flops_fns),
    cmocka_unit_test(test_load_lat_fn),
    cmocka_unit_test(test_page_fault_fns),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
