/*
** test_gen.c — `pamc gen` below the command line: the specification front end (parser/spec_*)
** builds the tree GEN.md describes, recovers from syntax errors, and the division of a batch
** that the generator writes as closed expressions (lang/gen/gen.c) equals largest-remainder rounding
** computed here independently, worker by worker, for groups of several speeds.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "check.h"
#include "eval.h"
#include "gen.h"
#include "program.h"
#include "spec_ast.h"

static Spec *parse_spec(Arena *arena, DiagList *diags, const char *text) {
  return spec_parse_string(arena, diags, "s.spec", text, strlen(text));
}

static void test_spec_tree(void **state) {
  (void)state;
  Arena arena;
  arena_init(&arena);
  DiagList diags;
  diag_init(&diags);
  Spec *spec = parse_spec(&arena, &diags,
      "path = apps/primes-2;  // a comment\n"
      "T1 = DivideData;\nT2 = ProcessData;\n"
      "size T1 = 8 * N;\nsize data.dat = 2KiB;\n"
      "workers fast(P - 4) factor 1;\nworkers slow(4) factor 2.5;\n"
      "T1 = L1(1) << data.dat;\n"
      "T2 = L12(N / 10) << T1, in/x.dat >> out.dat << T1;\n");
  assert_non_null(spec);
  assert_int_equal(diags.errors, 0);
  assert_string_equal(spec->app_path, "apps/primes-2");
  assert_int_equal(spec->task_count, 2);
  assert_string_equal(spec->tasks[1].process.name, "ProcessData");
  assert_int_equal(spec->size_count, 2);
  assert_int_equal(spec->sizes[1].is_file, 1);
  assert_true(spec->sizes[1].bytes->u.num.value == 2048.0);
  assert_int_equal(spec->worker_count, 2);
  assert_string_equal(spec->workers[1].factor->u.num.text, "2.5");
  assert_int_equal(spec->link_count, 2);
  const SpecLink *link = &spec->links[1];
  assert_int_equal(link->level_number, 12);
  assert_int_equal(link->input_count, 3);
  assert_string_equal(link->inputs[1].name.name, "in/x.dat");
  assert_int_equal(link->inputs[1].is_file, 1);
  assert_int_equal(link->inputs[2].is_file, 0);
  assert_int_equal(link->output_count, 1);
  assert_string_equal(link->outputs[0].name.name, "out.dat");
  assert_int_equal(link->count->kind, EX_BINARY);
  assert_int_equal(link->loc.line, 9);
  assert_int_equal(link->inputs[1].name.loc.col, 25);
  diag_free(&diags);
  arena_free(&arena);
}

/* Two syntax errors in one file: both reported, each at its token. */
static void test_spec_recovery(void **state) {
  (void)state;
  Arena arena;
  arena_init(&arena);
  DiagList diags;
  diag_init(&diags);
  Spec *spec = parse_spec(&arena, &diags, "T1 = A B;\nT2 = B;\nsize T2 = (1 + ;\nT2 = L1(1);\n");
  assert_non_null(spec);
  assert_int_equal(diags.errors, 2);
  char line[300];
  diag_format(&diags.items[0], line, sizeof line);
  assert_string_equal(line, "s.spec:1:8: error: expected ';' before 'B'");
  diag_format(&diags.items[1], line, sizeof line);
  assert_string_equal(line, "s.spec:3:16: error: expected expression before ';'");
  assert_int_equal(spec->task_count, 1);   /* T2 = B survives */
  assert_int_equal(spec->link_count, 1);
  diag_free(&diags);
  arena_free(&arena);
}

/* ---------------------------------------------------------------- division among groups */

#define MAX_WORKERS 64

/* Largest remainder, worker by worker: worker i of weight w[i] has the share c * w[i] / W;
** floors first, then one more task to each of the c - sum(floors) workers with the largest
** remainders, ties to the lower worker (groups are numbered in order). tasks[i] receives it. */
static void reference_division(int c, const int64_t *weight, int workers, int *tasks) {
  int64_t total = 0;
  for (int i = 0; i < workers; i++) total += weight[i];
  int64_t rem[MAX_WORKERS];
  int given = 0;
  for (int i = 0; i < workers; i++) {
    tasks[i] = (int)(c * weight[i] / total);
    rem[i] = c * weight[i] - total * tasks[i];
    given += tasks[i];
  }
  for (int left = c - given; left > 0; left--) {
    int best = -1;
    for (int i = 0; i < workers; i++)
      if (rem[i] >= 0 && (best < 0 || rem[i] > rem[best])) best = i;
    tasks[best]++;
    rem[best] = -1;   /* one extra each at most */
  }
}

static const char *library_text =
  "param N = 100;\n"
  "fn send(bytes) = 1us + bytes * 1ns;\n"
  "process Work(count, task) = delay(1us);\n";

/* Value of expression text in the generated model with P = p (appended as a param's default). */
static int64_t value_in_model(const char *model, int p, const char *text) {
  size_t size = strlen(model) + strlen(text) + 64;
  char *full = malloc(size);
  snprintf(full, size, "%s\nparam gen_probe = %s;\n", model, text);
  char pvalue[32];
  snprintf(pvalue, sizeof pvalue, "%d", p);
  ProgramDefine define = {"P", pvalue, "P=..."};
  ProgramOptions opts = {0};
  opts.defines = &define;
  opts.define_count = 1;
  DiagList diags;
  diag_init(&diags);
  Program prog;
  assert_int_equal(program_load_string(&prog, &diags, "g.pam", full, &opts), PROGRAM_OK);
  check_program(&prog);
  if (diags.errors) diag_print(&diags, stderr);
  assert_int_equal(diags.errors, 0);
  EvalEnv env;
  eval_env_init(&env);
  AlgInterval v;
  assert_int_equal(eval_decl_value(&env, program_lookup(&prog, "gen_probe"), &v, NULL), EVAL_OK);
  assert_true(eval_is_integer(v));
  char buf[64];
  int64_t result = (int64_t)strtod(eval_format(v, buf, sizeof buf), NULL);
  program_free(&prog);
  diag_free(&diags);
  free(full);
  return result;
}

/* Generates the model of a spec with the given worker lines over the test library. */
static char *generate(const char *workers_lines, const char *library_path) {
  char spec_text[1024];
  snprintf(spec_text, sizeof spec_text, "T1 = Work;\n%sT1 = L1(N);\n", workers_lines);
  Arena arena;
  arena_init(&arena);
  DiagList diags;
  diag_init(&diags);
  Program lib;
  assert_int_equal(program_load(&lib, &diags, library_path, NULL), PROGRAM_OK);
  Spec *spec = parse_spec(&arena, &diags, spec_text);
  assert_int_equal(gen_check(spec, &lib, &diags), 0);
  char *text = NULL;
  size_t length = 0;
  FILE *out = open_memstream(&text, &length);
  GenOptions opts = {"s.spec", library_path, library_path};
  assert_int_equal(gen_write(spec, &lib, &opts, out, &diags), 0);
  fclose(out);
  program_free(&lib);
  diag_free(&diags);
  arena_free(&arena);
  return text;
}

typedef struct Group {
  const char *name;     /* as in the spec */
  int count_offset;     /* workers: P + count_offset */
  int64_t weight;       /* K / factor */
} Group;

/* For every P and c: the generated gen_base/gen_extra/gen_first give, worker by worker, the
** division of reference_division. */
static void check_division(const char *workers_lines, const Group *groups, int group_count,
                           int p_min, int p_max) {
  char library_path[] = "/tmp/pamc_test_gen_XXXXXX";
  int fd = mkstemp(library_path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, library_text, strlen(library_text)), (ssize_t)strlen(library_text));
  close(fd);
  char *model = generate(workers_lines, library_path);
  static const int counts[] = {1, 7, 100, 101};
  for (int p = p_min; p <= p_max; p += 3) {
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
      int c = counts[k];
      int64_t weight[MAX_WORKERS];
      int workers = 0;
      for (int g = 0; g < group_count; g++)
        for (int i = 0; i < p + groups[g].count_offset; i++) weight[workers++] = groups[g].weight;
      int tasks[MAX_WORKERS];
      reference_division(c, weight, workers, tasks);
      int first_worker = 0, first_task = 0;
      for (int g = 0; g < group_count; g++) {
        char text[128];
        snprintf(text, sizeof text, "gen_base_%s(%d)", groups[g].name, c);
        int64_t base = value_in_model(model, p, text);
        snprintf(text, sizeof text, "gen_extra_%s(%d)", groups[g].name, c);
        int64_t extra = value_in_model(model, p, text);
        snprintf(text, sizeof text, "gen_first_%s(%d)", groups[g].name, c);
        int64_t first = value_in_model(model, p, text);
        assert_int_equal(first, first_task);
        int n = p + groups[g].count_offset;
        for (int i = 0; i < n; i++) {
          int expected = tasks[first_worker + i];
          int generated = (int)(base + (i < extra ? 1 : 0));
          if (expected != generated)
            fail_msg("P=%d c=%d group %s worker %d: reference %d tasks, generated %d", p, c,
                     groups[g].name, i, expected, generated);
          first_task += expected;
        }
        first_worker += n;
      }
      assert_int_equal(first_task, c);
    }
  }
  free(model);
  unlink(library_path);
}

static void test_division_identical(void **state) {
  (void)state;
  const Group groups[] = {{"worker", 0, 1}};
  check_division("", groups, 1, 1, 40);
}

static void test_division_two_speeds(void **state) {
  (void)state;
  /* factors 1 and 2.5: weights 5 and 2; groups of P - 4 and 4 workers */
  char lines[] = "workers fast(P - 4) factor 1;\nworkers slow(4) factor 2.5;\n";
  char library_path[] = "/tmp/pamc_test_gen_XXXXXX";
  int fd = mkstemp(library_path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, library_text, strlen(library_text)), (ssize_t)strlen(library_text));
  close(fd);
  char *model = generate(lines, library_path);
  for (int p = 5; p <= 30; p += 1) {
    for (int c = 1; c <= 120; c += 17) {
      int64_t weight[MAX_WORKERS];
      int workers = 0;
      for (int i = 0; i < p - 4; i++) weight[workers++] = 5;
      for (int i = 0; i < 4; i++) weight[workers++] = 2;
      int tasks[MAX_WORKERS];
      reference_division(c, weight, workers, tasks);
      char text[128];
      snprintf(text, sizeof text, "gen_base_fast(%d)", c);
      int64_t base_fast = value_in_model(model, p, text);
      snprintf(text, sizeof text, "gen_extra_fast(%d)", c);
      int64_t extra_fast = value_in_model(model, p, text);
      snprintf(text, sizeof text, "gen_base_slow(%d)", c);
      int64_t base_slow = value_in_model(model, p, text);
      snprintf(text, sizeof text, "gen_extra_slow(%d)", c);
      int64_t extra_slow = value_in_model(model, p, text);
      snprintf(text, sizeof text, "gen_first_slow(%d)", c);
      int64_t first_slow = value_in_model(model, p, text);
      int fast_total = 0;
      for (int i = 0; i < p - 4; i++) {
        assert_int_equal(tasks[i], base_fast + (i < extra_fast ? 1 : 0));
        fast_total += tasks[i];
      }
      for (int i = 0; i < 4; i++)
        assert_int_equal(tasks[p - 4 + i], base_slow + (i < extra_slow ? 1 : 0));
      assert_int_equal(first_slow, fast_total);
    }
  }
  free(model);
  unlink(library_path);
}

static void test_division_three_speeds(void **state) {
  (void)state;
  /* factors 1, 1.5 and 3: 1/f = 1, 2/3, 1/3; K = 3: weights 3, 2, 1; every group P workers */
  const Group groups[] = {{"a", 0, 3}, {"b", 0, 2}, {"c", 0, 1}};
  check_division("workers a(P) factor 1;\nworkers b(P) factor 1.5;\nworkers c(P) factor 3;\n",
                 groups, 3, 1, 16);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_spec_tree),
    cmocka_unit_test(test_spec_recovery),
    cmocka_unit_test(test_division_identical),
    cmocka_unit_test(test_division_two_speeds),
    cmocka_unit_test(test_division_three_speeds),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
