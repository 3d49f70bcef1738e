/*
** test_calibrate.c — calibrate/: statistics and the outlier rule, the least-squares fit, the
** machine file's number format (outward rounding), the history (FIFO, cap, locking) and the
** atomic writer (no temp file on failure, never a partial file when killed).
** Expected values are derived by hand in the comments, not taken from the code under test.
*/
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "atomic_file.h"
#include "cal.h"
#include "cal_fit.h"
#include "cal_stats.h"
#include "history.h"
#include "machine_file.h"

#define TEST_TOL 1e-9

/* ---- helpers ---- */

static void make_temp_dir(char *dir, size_t size) {
  snprintf(dir, size, "/tmp/test_calibrate.XXXXXX");
  assert_non_null(mkdtemp(dir));
}

static void remove_tree(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  char path[CAL_PATH_MAX];
  while ((e = readdir(d)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    unlink(path);
  }
  closedir(d);
  rmdir(dir);
}

/* Names in dir other than . and .., joined by spaces (sorted is not needed: we count). */
static int count_entries(const char *dir, const char *containing) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    if (!containing || strstr(e->d_name, containing)) n++;
  }
  closedir(d);
  return n;
}

static char *read_whole(const char *path, size_t *length) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  assert_non_null(buf);
  size_t got = fread(buf, 1, (size_t)n, f);
  fclose(f);
  buf[got] = 0;
  *length = got;
  return buf;
}

/* ---- statistics ---- */

/* {1,2,3,4,100}: h = f (n-1) = 4f; Q1 = x[1] = 2, Q3 = x[3] = 4, IQR 2, fences [-1, 7]:
** 100 is dropped; median 3; kept 1..4, kept median 2.5. */
static void test_stats_high_outlier(void **state) {
  (void)state;
  double samples[] = {100, 3, 1, 4, 2}, scratch[5];
  CalSummary s;
  assert_int_equal(cal_stats_summarize(samples, 5, scratch, &s), 0);
  assert_true(fabs(s.median - 3) < TEST_TOL);
  assert_true(fabs(s.q1 - 2) < TEST_TOL);
  assert_true(fabs(s.q3 - 4) < TEST_TOL);
  assert_true(fabs(s.fence_lo - (-1)) < TEST_TOL);
  assert_true(fabs(s.fence_hi - 7) < TEST_TOL);
  assert_int_equal(s.total, 5);
  assert_int_equal(s.kept, 4);
  assert_true(s.lo == 1 && s.hi == 4);
  assert_true(fabs(s.kept_median - 2.5) < TEST_TOL);
  assert_true(samples[0] == 100);     /* the input is left alone */
}

/* {10,12,11,13}: sorted 10 11 12 13, h = 3f: Q1 at h = 0.75 -> 10.75, Q3 at h = 2.25 -> 12.25,
** IQR 1.5, fences [8.5, 14.5]; median 11.5; nothing dropped. */
static void test_stats_interpolated_quartiles(void **state) {
  (void)state;
  double samples[] = {10, 12, 11, 13}, scratch[4];
  CalSummary s;
  assert_int_equal(cal_stats_summarize(samples, 4, scratch, &s), 0);
  assert_true(fabs(s.median - 11.5) < TEST_TOL);
  assert_true(fabs(s.q1 - 10.75) < TEST_TOL);
  assert_true(fabs(s.q3 - 12.25) < TEST_TOL);
  assert_true(fabs(s.fence_lo - 8.5) < TEST_TOL);
  assert_true(fabs(s.fence_hi - 14.5) < TEST_TOL);
  assert_int_equal(s.kept, 4);
  assert_true(s.lo == 10 && s.hi == 13);
}

/* {-50,5,5,6,6,7}: h = 5f: Q1 at 1.25 -> 5, Q3 at 3.75 -> 6, IQR 1, fences [3.5, 7.5]: -50 goes,
** 7 stays; median (5+6)/2 = 5.5; kept {5,5,6,6,7}, kept median 6. */
static void test_stats_low_outlier_and_edge(void **state) {
  (void)state;
  double samples[] = {6, 5, 7, -50, 6, 5}, scratch[6];
  CalSummary s;
  assert_int_equal(cal_stats_summarize(samples, 6, scratch, &s), 0);
  assert_true(fabs(s.median - 5.5) < TEST_TOL);
  assert_true(fabs(s.fence_lo - 3.5) < TEST_TOL);
  assert_true(fabs(s.fence_hi - 7.5) < TEST_TOL);
  assert_int_equal(s.kept, 5);
  assert_true(s.lo == 5 && s.hi == 7);
  assert_true(fabs(s.kept_median - 6) < TEST_TOL);
}

static void test_stats_degenerate(void **state) {
  (void)state;
  double one[] = {3}, same[] = {2, 2, 2}, scratch[3];
  CalSummary s;
  assert_int_equal(cal_stats_summarize(one, 1, scratch, &s), 0);
  assert_int_equal(s.kept, 1);
  assert_true(s.lo == 3 && s.hi == 3 && s.median == 3);
  assert_int_equal(cal_stats_summarize(same, 3, scratch, &s), 0);
  assert_int_equal(s.kept, 3);                  /* IQR 0: equal values are inside the fences */
  assert_int_equal(cal_stats_summarize(one, 0, scratch, &s), -1);
}

/* ---- least squares ---- */

/* Points exactly on y = 2 + 3x: the fit is exact, the intervals have zero width. */
static void test_fit_exact_line(void **state) {
  (void)state;
  double x[] = {1, 2, 4, 8, 16}, y[5];
  for (int i = 0; i < 5; i++) y[i] = 2 + 3 * x[i];
  CalFit f;
  assert_int_equal(cal_fit_line(x, y, 5, &f), 0);
  assert_true(fabs(f.c0 - 2) < 1e-9 && fabs(f.c1 - 3) < 1e-9);
  assert_true(f.c0_hi - f.c0_lo < 1e-6 && f.c1_hi - f.c1_lo < 1e-6);
}

/* x = 0..4, y = 1 3 2 5 4. By hand: mean x 2, mean y 3, Sxx 10, Sxy 8: slope 0.8, intercept 1.4;
** residuals -0.4 0.8 -1 1.2 -0.6, SS 3.6, s^2 = 3.6/3 = 1.2; se(slope) = sqrt(1.2/10) = 0.346410;
** se(intercept) = sqrt(1.2 (1/5 + 4/10)) = sqrt(0.72) = 0.848528; t(0.975, 3) = 3.182446 (tables):
** slope 0.8 +- 1.102431, intercept 1.4 +- 2.700400. */
static void test_fit_confidence_interval(void **state) {
  (void)state;
  double x[] = {0, 1, 2, 3, 4}, y[] = {1, 3, 2, 5, 4};
  CalFit f;
  assert_int_equal(cal_fit_line(x, y, 5, &f), 0);
  assert_true(fabs(f.c1 - 0.8) < 1e-12);
  assert_true(fabs(f.c0 - 1.4) < 1e-12);
  assert_true(fabs(f.sumsq - 3.6) < 1e-12);
  assert_true(fabs(f.t_quantile - 3.182446305) < 1e-6);
  assert_true(fabs(f.c1_lo - (0.8 - 1.102431)) < 1e-5);
  assert_true(fabs(f.c1_hi - (0.8 + 1.102431)) < 1e-5);
  assert_true(fabs(f.c0_lo - (1.4 - 2.700400)) < 1e-5);
  assert_true(fabs(f.c0_hi - (1.4 + 2.700400)) < 1e-5);
}

/* Equal weights give the unweighted fit; a weight of (almost) 0 removes a point: the remaining
** points are the case above, so the coefficients are 1.4 and 0.8 again. */
static void test_fit_weighted(void **state) {
  (void)state;
  double x[] = {0, 1, 2, 3, 4, 5}, y[] = {1, 3, 2, 5, 4, 1000}, w[] = {7, 7, 7, 7, 7, 7};
  CalFit plain, weighted;
  assert_int_equal(cal_fit_line(x, y, 5, &plain), 0);
  assert_int_equal(cal_fit_line_weighted(x, y, w, 5, &weighted), 0);
  assert_true(fabs(plain.c0_lo - weighted.c0_lo) < 1e-9 && fabs(plain.c1_hi - weighted.c1_hi) < 1e-9);
  w[5] = 1e-30;
  assert_int_equal(cal_fit_line_weighted(x, y, w, 6, &weighted), 0);
  assert_true(fabs(weighted.c0 - 1.4) < 1e-6 && fabs(weighted.c1 - 0.8) < 1e-6);
  assert_int_equal(cal_fit_line(x, y, 2, &plain), -1);   /* two points: no interval */
}

/* ---- number format ---- */

static void check_scaled(double v, int unit_exp, const char *floor_text, const char *ceil_text) {
  char buf[128];
  cal_format_scaled(v, unit_exp, 0, buf, sizeof buf);
  assert_string_equal(buf, floor_text);
  cal_format_scaled(v, unit_exp, 1, buf, sizeof buf);
  assert_string_equal(buf, ceil_text);
}

static void test_format_known(void **state) {
  (void)state;
  check_scaled(3.14159265358979e-10, 9, "0.31415", "0.31416");     /* 0.314159... ns */
  check_scaled(-3.14159265358979e-10, 9, "-0.31416", "-0.31415");
  check_scaled(0.25, 0, "0.25", "0.25");                           /* exact: no widening */
  check_scaled(1.0, 3, "1000", "1000");
  check_scaled(0, 9, "0", "0");
  check_scaled(9.999995e-9, 9, "9.9999", "10");                    /* carry into a new digit */
  check_scaled(1.2345678e-5, 6, "12.345", "12.346");               /* us */
  check_scaled(1.234567e-20, 9, "0.000000000012345", "0.000000000012346");
  check_scaled(123456789.0, 0, "123450000", "123460000");
  char buf[64];
  cal_format_interval(3.14159e-10, 3.5e-10, 0, buf, sizeof buf);
  assert_string_equal(buf, "[0.31415ns, 0.35ns]");
  /* The doubles nearest these decimals are (exact expansions, by Python's Decimal):
  **   2.5e-6  = 2.50000000000000020e-6    1.25e-5 = 1.25000000000000006e-5
  **   0.001   = 1.00000000000000002e-3    0.002   = 2.00000000000000004e-3
  **   2e-12   = 1.99999999999999996e-12   1e-11   = 9.99999999999999939e-12
  ** so an upper end just above a round decimal goes up by one in the last digit. */
  cal_format_interval(2.5e-6, 1.25e-5, 0, buf, sizeof buf);        /* unit of the larger end */
  assert_string_equal(buf, "[2.5us, 12.501us]");
  cal_format_interval(0.001, 0.002, 0, buf, sizeof buf);
  assert_string_equal(buf, "[1ms, 2.0001ms]");
  cal_format_interval(2e-12, 1e-11, 1, buf, sizeof buf);           /* per byte: always ns */
  assert_string_equal(buf, "[0.0019999ns, 0.01ns]");
  cal_format_interval(0.5, 0.75, 0, buf, sizeof buf);              /* exact doubles: as they are */
  assert_string_equal(buf, "[500ms, 750ms]");
}

/* Random values over many magnitudes: printed lo <= true lo, printed hi >= true hi (parsed back
** with strtod), and the widening is below 1e-4 relative (5 significant digits). */
static void test_format_outward_random(void **state) {
  (void)state;
  uint64_t rng = 88172645463325252u;
  for (int i = 0; i < 20000; i++) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    double mantissa = 1 + (double)(rng >> 11) / 9007199254740992.0;   /* [1, 2) */
    int exp2 = (int)(rng % 60) - 50;                                 /* 1e-15 .. 1e3 */
    double v = ldexp(mantissa, exp2);
    if (rng & (1u << 9)) v = -v;
    char lo_text[128], hi_text[128];
    double lo_v = v, hi_v = v;
    const char *unit;
    int unit_exp = cal_unit_for(lo_v, hi_v, 0, &unit);
    cal_format_scaled(lo_v, unit_exp, 0, lo_text, sizeof lo_text);
    cal_format_scaled(hi_v, unit_exp, 1, hi_text, sizeof hi_text);
    char *end;
    long double lo = strtold(lo_text, &end);
    assert_true(*end == 0);
    long double hi = strtold(hi_text, &end);
    assert_true(*end == 0);
    long double scaled = (long double)v * powl(10.0L, unit_exp);
    assert_true(lo <= scaled);
    assert_true(hi >= scaled);
    assert_true(fabsl(scaled - lo) <= 1e-4L * fabsl(scaled));
    assert_true(fabsl(hi - scaled) <= 1e-4L * fabsl(scaled));
  }
}

/* The machine file's text: header lines, one const line per constant parsed back with strtod. */
static void test_machine_print(void **state) {
  (void)state;
  CalMachine *m = calloc(1, sizeof *m);
  assert_non_null(m);
  CalError err = {""};
  snprintf(m->machine, sizeof m->machine, "Linux testhost");
  snprintf(m->date, sizeof m->date, "2026-01-02T03:04:05Z");
  snprintf(m->command, sizeof m->command, "pamc calibrate --quick");
  assert_int_equal(cal_machine_note(m, "rule: Tukey", &err), 0);
  assert_int_equal(cal_machine_const(m, "t_add_int", 3.14159265e-10, 3.4e-10, 0, "int add; 5 of 5", &err), 0);
  assert_int_equal(cal_machine_const(m, "byte_time", 0, 2.5e-10, 1, NULL, &err), 0);
  assert_int_equal(cal_machine_text(m, "fn send(bytes) = latency + bytes * byte_time;", &err), 0);
  char *text = NULL;
  size_t length = 0;
  FILE *out = open_memstream(&text, &length);
  assert_non_null(out);
  assert_int_equal(cal_machine_print(out, m, &err), 0);
  fclose(out);
  assert_non_null(strstr(text, "# machine: Linux testhost\n"));
  assert_non_null(strstr(text, "# date: 2026-01-02T03:04:05Z\n"));
  assert_non_null(strstr(text, "# command: pamc calibrate --quick\n"));
  assert_non_null(strstr(text, "# rule: Tukey\n"));
  assert_non_null(strstr(text, "\nfn send(bytes) = latency + bytes * byte_time;\n"));
  /* 2.5e-10 is 2.50000000000000016e-10 as a double: its upper end prints as 0.25001. */
  assert_non_null(strstr(text, "\nconst byte_time = [0ns, 0.25001ns];\n"));
  const char *line = strstr(text, "\nconst t_add_int = [");
  assert_non_null(line);
  char *end;
  double lo = strtod(line + strlen("\nconst t_add_int = ["), &end);
  assert_true(!strncmp(end, "ns, ", 4));
  double hi = strtod(end + 4, &end);
  assert_true(!strncmp(end, "ns];", 4));
  assert_true(lo <= 0.314159265 && lo > 0.3141);
  assert_true(hi >= 0.34 && hi < 0.3401);
  assert_non_null(strstr(end, "# int add; 5 of 5\n"));
  free(text);
  free(m);
}

/* Typical values: "[lo, hi] typ m", m rounded down in the interval's unit (so never below the
** printed lower end), clamped into the interval, omitted for NAN; ratios without a unit. */
static void test_typed_format(void **state) {
  (void)state;
  char buf[256];
  /* 0.33 ns is 3.3000000000000000e-10 rounded: 0.33ns exactly at 5 digits, down. */
  cal_format_typed(0.31e-9, 0.52e-9, 0.33e-9, 0, 0, buf, sizeof buf);
  assert_string_equal(buf, "[0.31ns, 0.52ns] typ 0.32999ns");
  cal_format_typed(0.31e-9, 0.52e-9, NAN, 0, 0, buf, sizeof buf);
  assert_string_equal(buf, "[0.31ns, 0.52ns]");
  /* outside: clamped to the end (a fit's estimate below its clamped-at-0 interval) */
  cal_format_typed(0, 2e-6, -1e-6, 0, 0, buf, sizeof buf);
  assert_string_equal(buf, "[0us, 2us] typ 0us");
  cal_format_typed(1e-6, 2e-6, 5e-6, 0, 0, buf, sizeof buf);
  assert_string_equal(buf, "[0.99999us, 2us] typ 1.9999us");   /* 1e-6 is 9.99999999999999955e-7 */
  /* ratio: 1.15 .. 1.95 cores, typical 1.8 */
  cal_format_typed(1.15, 1.95, 1.8, 0, 1, buf, sizeof buf);
  assert_string_equal(buf, "[1.1499, 1.95] typ 1.8");
  /* typ equal to lo: printed value equals the printed lower end, never below it */
  for (int i = 1; i < 2000; i++) {
    double lo = 1e-10 * (1 + i * 0.7391), hi = lo * 1.5;
    cal_format_typed(lo, hi, lo, 0, 0, buf, sizeof buf);
    double plo = strtod(buf + 1, NULL);
    const char *t = strstr(buf, "typ ");
    assert_non_null(t);
    double ptyp = strtod(t + 4, NULL);
    assert_true(ptyp >= plo);
    assert_true(ptyp <= lo * 1e9);
  }
}

/* The interpolating function's text, written by hand for three sizes. */
static void test_interp_text(void **state) {
  (void)state;
  CalMachine *m = calloc(1, sizeof *m);
  assert_non_null(m);
  CalError err = {""};
  const double xs[3] = {4096, 16384, 65536};
  assert_int_equal(cal_machine_interp(m, "fn t_read(ws_bytes) =", "ws_bytes", "t_read_", xs, 3,
                                      "t_read_65536", &err), 0);
  assert_int_equal(m->decl_count, 5);
  assert_string_equal(m->decls[0].text, "fn t_read(ws_bytes) =");
  assert_string_equal(m->decls[1].text, "  ws_bytes <= 4096 ? t_read_4096 :");
  assert_string_equal(m->decls[2].text, "  ws_bytes <= 16384 ? (t_read_4096 * (16384 - ws_bytes) + "
                                        "t_read_16384 * (ws_bytes - 4096)) / 12288 :");
  assert_string_equal(m->decls[3].text, "  ws_bytes <= 65536 ? (t_read_16384 * (65536 - ws_bytes) + "
                                        "t_read_65536 * (ws_bytes - 16384)) / 49152 :");
  assert_string_equal(m->decls[4].text, "  t_read_65536;");
  free(m);
}

/* ---- atomic writes ---- */

static int write_hello(FILE *out, void *user, CalError *err) {
  (void)err;
  fprintf(out, "%s", (const char *)user);
  return 0;
}

static int write_then_fail(FILE *out, void *user, CalError *err) {
  (void)user;
  for (int i = 0; i < 10000; i++) fprintf(out, "partial line %d\n", i);
  return cal_fail(err, "deliberate failure");
}

static void test_atomic_write_failure_leaves_nothing(void **state) {
  (void)state;
  char dir[64], path[128];
  make_temp_dir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/out.mach", dir);
  CalError err = {""};
  /* No old file: a failed write creates none, and no temp file stays. */
  assert_int_equal(cal_atomic_write(path, write_then_fail, NULL, &err), -1);
  assert_string_equal(err.message, "deliberate failure");
  assert_int_equal(count_entries(dir, NULL), 0);
  /* An old file survives a failed write unchanged. */
  assert_int_equal(cal_atomic_write(path, write_hello, "old\n", &err), 0);
  assert_int_equal(cal_atomic_write(path, write_then_fail, NULL, &err), -1);
  size_t n;
  char *content = read_whole(path, &n);
  assert_string_equal(content, "old\n");
  free(content);
  assert_int_equal(count_entries(dir, NULL), 1);
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0644);
  /* A directory that does not exist: an error, nothing created. */
  char missing[160];
  snprintf(missing, sizeof missing, "%s/no/such/dir/out.mach", dir);
  assert_int_equal(cal_atomic_write(missing, write_hello, "x", &err), -1);
  assert_non_null(strstr(err.message, missing));
  assert_int_equal(count_entries(dir, NULL), 1);
  remove_tree(dir);
}

/* ---- history ---- */

static void set_series(CalSeries *s, const char *name, const double *v, size_t n) {
  memset(s, 0, sizeof *s);
  snprintf(s->name, sizeof s->name, "%s", name);
  for (size_t i = 0; i < n; i++) s->samples[i] = v[i];
  s->count = s->fresh = n;
}

static void add_entry(CalHistory *h, const char *name, const double *v, size_t n) {
  CalHistoryEntry *e = &h->entries[h->count++];
  snprintf(e->name, sizeof e->name, "%s", name);
  e->samples = malloc((n + 1) * sizeof *e->samples);
  e->run = malloc((n + 1) * sizeof *e->run);
  for (size_t i = 0; i < n; i++) {
    e->samples[i] = v[i];
    e->run[i] = 4;              /* an earlier run: the merge numbers the new one 5 */
  }
  e->count = n;
}

/* Old a = {1,2,3}, new a = {4,5}, keep 4: {2,3,4,5} (1, the oldest, goes first); b is new: {7};
** c is not in this run: unchanged. */
static void test_history_merge_fifo_and_cap(void **state) {
  (void)state;
  CalHistory *h = calloc(1, sizeof *h);
  CalSeries *s = calloc(2, sizeof *s);
  assert_true(h && s);
  add_entry(h, "a", (double[]){1, 2, 3}, 3);
  add_entry(h, "c", (double[]){9, 8}, 2);
  set_series(&s[0], "a", (double[]){4, 5}, 2);
  set_series(&s[1], "b", (double[]){7}, 1);
  CalError err = {""};
  assert_int_equal(cal_history_merge_into(h, s, 2, 4, &err), 0);
  assert_int_equal(h->count, 3);
  assert_string_equal(h->entries[0].name, "a");
  assert_int_equal(h->entries[0].count, 4);
  double want_a[] = {2, 3, 4, 5};
  unsigned want_run[] = {4, 4, 5, 5};
  for (int i = 0; i < 4; i++) assert_true(h->entries[0].samples[i] == want_a[i]);
  for (int i = 0; i < 4; i++) assert_int_equal(h->entries[0].run[i], want_run[i]);
  assert_int_equal(s[0].count, 4);
  assert_int_equal(s[0].fresh, 2);
  for (int i = 0; i < 4; i++) assert_true(s[0].samples[i] == want_a[i]);
  for (int i = 0; i < 4; i++) assert_int_equal(s[0].run[i], want_run[i]);
  assert_int_equal(h->entries[2].run[0], 5);
  assert_string_equal(h->entries[1].name, "c");
  assert_int_equal(h->entries[1].count, 2);
  assert_string_equal(h->entries[2].name, "b");
  assert_int_equal(h->entries[2].count, 1);
  assert_true(h->entries[2].samples[0] == 7);
  /* keep 1: only the newest sample of all. */
  set_series(&s[0], "a", (double[]){6, 10}, 2);
  assert_int_equal(cal_history_merge_into(h, s, 1, 1, &err), 0);
  assert_int_equal(h->entries[0].count, 1);
  assert_true(h->entries[0].samples[0] == 10);
  assert_int_equal(s[0].fresh, 1);
  cal_history_free(h);
  free(h);
  free(s);
}

/* Two updates through the file: {1,2} then {3} with keep 2 -> {2,3}; the text round-trips exactly. */
static void test_history_update_roundtrip(void **state) {
  (void)state;
  char dir[64], path[128];
  make_temp_dir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/%s", dir, CAL_HISTORY_FILE);
  CalSeries *s = calloc(1, sizeof *s);
  CalError err = {""};
  double third = 0.1 + 0.2;           /* a value whose 17 digits matter */
  set_series(s, "t_add_int", (double[]){1, 2}, 2);
  assert_int_equal(cal_history_update(dir, s, 1, 2, &err), 0);
  set_series(s, "t_add_int", (double[]){third}, 1);
  assert_int_equal(cal_history_update(dir, s, 1, 2, &err), 0);
  assert_int_equal(s->count, 2);
  CalHistory *h = calloc(1, sizeof *h);
  assert_int_equal(cal_history_read(path, h, &err), 0);
  assert_int_equal(h->count, 1);
  assert_int_equal(h->entries[0].count, 2);
  assert_true(h->entries[0].samples[0] == 2 && h->entries[0].samples[1] == third);
  assert_true(h->entries[0].run[0] == 1 && h->entries[0].run[1] == 2);   /* one serial per update */
  cal_history_free(h);
  /* A version 1 file (no run numbers) reads as run 0; the next update is run 1; `@` mid-line. */
  FILE *old = fopen(path, "w");
  fprintf(old, "# pamc calibrate history, version 1\nt_add_int 3 1 2 3\nx 3 @7 1 @9 2 3\n# end\n");
  fclose(old);
  assert_int_equal(cal_history_read(path, h, &err), 0);
  assert_true(h->entries[0].run[0] == 0 && h->entries[0].run[2] == 0);
  assert_true(h->entries[1].run[0] == 7 && h->entries[1].run[1] == 9 && h->entries[1].run[2] == 9);
  assert_true(h->entries[1].samples[2] == 3);
  cal_history_free(h);
  set_series(s, "t_add_int", (double[]){4}, 1);
  assert_int_equal(cal_history_update(dir, s, 1, 10, &err), 0);
  assert_true(s->count == 4 && s->run[0] == 0 && s->run[3] == 10);
  /* Bad run numbers are refused with the line. */
  old = fopen(path, "w");
  fprintf(old, "# pamc calibrate history, version 2\nx 2 @ 1 2\n# end\n");
  fclose(old);
  assert_int_equal(cal_history_read(path, h, &err), -1);
  assert_non_null(strstr(err.message, ":2: bad run number '@'"));
  /* Not a history (any first line but the header), one from a newer pamc (refused at line 1), or
  ** samples that are not times. */
  const char *bad_headers[][2] = {
    {"pamc-history 2\nx 1 5\n# end\n", ":1: not a pamc calibrate history"},
    {"x 1 5\n# end\n", ":1: not a pamc calibrate history"},
    {"# pamc calibrate history, version 3\nx 1 5\n# end\n", ":1: history version 3 is newer"},
    {"# pamc calibrate history, version two\nx 1 5\n# end\n", ":1: bad history version"},
    {"# pamc calibrate history, version 2\nx 2 @1 1e-6 nan\n# end\n", ":2: bad sample 'nan'"},
    {"# pamc calibrate history, version 2\nx 2 @1 1e-6 inf\n# end\n", ":2: bad sample 'inf'"},
  };
  for (size_t k = 0; k < sizeof bad_headers / sizeof bad_headers[0]; k++) {
    old = fopen(path, "w");
    fputs(bad_headers[k][0], old);
    fclose(old);
    assert_int_equal(cal_history_read(path, h, &err), -1);
    assert_non_null(strstr(err.message, bad_headers[k][1]));
    assert_int_equal(cal_history_check(dir, &err), -1);   /* what calibrate asks before measuring */
  }
  /* A file cut short (no end line) is refused, not half-read. */
  FILE *f = fopen(path, "w");
  fprintf(f, "# pamc calibrate history, version 1\nt_add_int 2 1 2\n");
  fclose(f);
  assert_int_equal(cal_history_read(path, h, &err), -1);
  assert_non_null(strstr(err.message, "incomplete"));
  free(h);
  free(s);
  remove_tree(dir);
}

/* Two processes update the same history 15 times each with one sample: with the lock no update
** is lost (30 samples), and each process's samples appear in its own order. */
static void test_history_concurrent_runs(void **state) {
  (void)state;
  char dir[64], path[128];
  make_temp_dir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/%s", dir, CAL_HISTORY_FILE);
  enum { ROUNDS = 15 };
  pid_t kids[2];
  for (int k = 0; k < 2; k++) {
    kids[k] = fork();
    assert_true(kids[k] >= 0);
    if (kids[k] == 0) {
      CalSeries *s = calloc(1, sizeof *s);
      CalError err = {""};
      int bad = 0;
      for (int i = 0; i < ROUNDS; i++) {
        set_series(s, "x", (double[]){(double)(100 * (k + 1) + i)}, 1);
        bad |= cal_history_update(dir, s, 1, 1000, &err);
      }
      free(s);
      _exit(bad ? 1 : 0);
    }
  }
  for (int k = 0; k < 2; k++) {
    int status;
    assert_int_equal(waitpid(kids[k], &status, 0), kids[k]);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  CalHistory *h = calloc(1, sizeof *h);
  CalError err = {""};
  assert_int_equal(cal_history_read(path, h, &err), 0);
  assert_int_equal(h->count, 1);
  assert_int_equal(h->entries[0].count, 2 * ROUNDS);
  double last[2] = {99, 199};
  for (size_t i = 0; i < h->entries[0].count; i++) {
    double v = h->entries[0].samples[i];
    int k = v >= 200;
    assert_true(v > last[k]);
    last[k] = v;
  }
  cal_history_free(h);
  free(h);
  remove_tree(dir);
}

/* A child rewrites the history in a loop, alternating two contents, and is killed with SIGKILL at
** a random moment, 25 times: the file is always exactly one of the two, never partial; stale temp
** files are then removed by cal_atomic_remove_stale. */
static void test_history_killed_writer(void **state) {
  (void)state;
  char dir[64], path[128], path_a[128], path_b[128];
  make_temp_dir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/%s", dir, CAL_HISTORY_FILE);
  snprintf(path_a, sizeof path_a, "%s/a.txt", dir);
  snprintf(path_b, sizeof path_b, "%s/b.txt", dir);
  CalHistory *ha = calloc(1, sizeof *ha), *hb = calloc(1, sizeof *hb);
  assert_true(ha && hb);
  char name[32];
  double values[200];
  for (int e = 0; e < 40; e++) {                 /* ~150 KB: a write takes a while */
    snprintf(name, sizeof name, "bench_%d", e);
    for (int i = 0; i < 200; i++) values[i] = 1e-9 * (e + i / 7.0);
    add_entry(ha, name, values, 200);
    for (int i = 0; i < 200; i++) values[i] = 2e-9 * (e + i / 3.0);
    add_entry(hb, name, values, 150);
  }
  CalError err = {""};
  assert_int_equal(cal_history_write(path_a, ha, &err), 0);
  assert_int_equal(cal_history_write(path_b, hb, &err), 0);
  assert_int_equal(cal_history_write(path, ha, &err), 0);
  size_t len_a, len_b, len;
  char *text_a = read_whole(path_a, &len_a), *text_b = read_whole(path_b, &len_b);
  assert_true(len_a != len_b);
  srand((unsigned)time(NULL));
  for (int round = 0; round < 25; round++) {
    pid_t kid = fork();
    assert_true(kid >= 0);
    if (kid == 0) {
      for (unsigned i = 0;; i++) cal_history_write(path, (i & 1) ? ha : hb, &err);
    }
    struct timespec pause = {0, (long)(1 + rand() % 8) * 1000000L};
    nanosleep(&pause, NULL);
    kill(kid, SIGKILL);
    int status;
    assert_int_equal(waitpid(kid, &status, 0), kid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    char *text = read_whole(path, &len);
    assert_non_null(text);
    assert_true((len == len_a && !memcmp(text, text_a, len)) ||
                (len == len_b && !memcmp(text, text_b, len)));
    free(text);
    CalHistory *back = calloc(1, sizeof *back);
    assert_int_equal(cal_history_read(path, back, &err), 0);
    assert_int_equal(back->count, 40);
    cal_history_free(back);
    free(back);
  }
  /* The writer spends nearly all its time with a temp file open, so some kills must have landed
  ** mid-write (19 of 25 when this was written): otherwise the test tested nothing. */
  assert_true(count_entries(dir, ".tmp.") >= 1);
  cal_atomic_remove_stale(path);
  assert_int_equal(count_entries(dir, ".tmp."), 0);
  assert_int_equal(count_entries(dir, NULL), 3);
  free(text_a);
  free(text_b);
  cal_history_free(ha);
  cal_history_free(hb);
  free(ha);
  free(hb);
  remove_tree(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_stats_high_outlier),
    cmocka_unit_test(test_stats_interpolated_quartiles),
    cmocka_unit_test(test_stats_low_outlier_and_edge),
    cmocka_unit_test(test_stats_degenerate),
    cmocka_unit_test(test_fit_exact_line),
    cmocka_unit_test(test_fit_confidence_interval),
    cmocka_unit_test(test_fit_weighted),
    cmocka_unit_test(test_format_known),
    cmocka_unit_test(test_format_outward_random),
    cmocka_unit_test(test_machine_print),
    cmocka_unit_test(test_typed_format),
    cmocka_unit_test(test_interp_text),
    cmocka_unit_test(test_atomic_write_failure_leaves_nothing),
    cmocka_unit_test(test_history_merge_fifo_and_cap),
    cmocka_unit_test(test_history_update_roundtrip),
    cmocka_unit_test(test_history_concurrent_runs),
    cmocka_unit_test(test_history_killed_writer),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
