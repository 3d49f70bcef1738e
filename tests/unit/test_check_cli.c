/*
** test_check_cli.c — the common options of the subcommands (lang/cli/cli.h): -m, -D, -e, --format,
** -o, extras with and without values, positional files, usage errors, the default machine file.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli.h"
#include "commands.h"

static const char *runs_value;   /* --runs VALUE of the spec below */
static int subst_flag;           /* --subst of the spec below */

static int parse(CliOptions *opts, int model_options, int argc, const char **argv) {
  const CliExtra extras[] = {{"--runs", 1, &runs_value, NULL}, {"--subst", 0, NULL, &subst_flag}};
  const CliSpec spec = {"test", "usage: pamc test\n", extras, 2, model_options, 1, 2};
  runs_value = NULL;
  subst_flag = 0;
  return cli_parse(opts, &spec, argc, (char **)argv);
}

static void test_common_options(void **state) {
  (void)state;
  setenv("XDG_CONFIG_HOME", "/nonexistent/pamc-test", 1);
  const char *argv[] = {"test", "-m", "a.mach", "-mb.mach", "-D", "N=2us", "-DP=[1, 2]", "-e", "run",
                        "--format=json", "-o", "out.txt", "--runs", "5", "--subst", "model.pam"};
  CliOptions opts;
  assert_int_equal(parse(&opts, 1, 16, argv), EXIT_OK);
  assert_int_equal(opts.machine_count, 2);
  assert_string_equal(opts.machine_files[0], "a.mach");
  assert_string_equal(opts.machine_files[1], "b.mach");
  assert_int_equal(opts.default_machine, 0);
  assert_int_equal(opts.define_count, 2);
  assert_string_equal(opts.defines[0].name, "N");
  assert_string_equal(opts.defines[0].value, "2us");
  assert_string_equal(opts.defines[0].raw, "N=2us");
  assert_string_equal(opts.defines[1].name, "P");
  assert_string_equal(opts.defines[1].value, "[1, 2]");
  assert_string_equal(opts.entry, "run");
  assert_string_equal(opts.format, "json");
  assert_string_equal(opts.output, "out.txt");
  assert_string_equal(runs_value, "5");
  assert_int_equal(subst_flag, 1);
  assert_int_equal(opts.file_count, 1);
  assert_string_equal(opts.files[0], "model.pam");
  assert_int_equal(opts.help, 0);
  ProgramOptions p = cli_program_options(&opts);
  assert_int_equal(p.machine_count, 2);
  assert_int_equal(p.define_count, 2);
  assert_string_equal(p.entry, "run");
  cli_free(&opts);
}

static void test_usage_errors(void **state) {
  (void)state;
  setenv("XDG_CONFIG_HOME", "/nonexistent/pamc-test", 1);
  CliOptions opts;
  const char *no_file[] = {"test"};
  assert_int_equal(parse(&opts, 1, 1, no_file), EXIT_USAGE);
  cli_free(&opts);
  const char *too_many[] = {"test", "a", "b", "c"};
  assert_int_equal(parse(&opts, 1, 4, too_many), EXIT_USAGE);
  cli_free(&opts);
  const char *bad_define[] = {"test", "-D", "N", "a.pam"};
  assert_int_equal(parse(&opts, 1, 4, bad_define), EXIT_USAGE);
  cli_free(&opts);
  const char *bad_name[] = {"test", "-D", "2N=3", "a.pam"};
  assert_int_equal(parse(&opts, 1, 4, bad_name), EXIT_USAGE);
  cli_free(&opts);
  const char *missing_value[] = {"test", "a.pam", "--runs"};
  assert_int_equal(parse(&opts, 1, 3, missing_value), EXIT_USAGE);
  cli_free(&opts);
  const char *unknown[] = {"test", "--frobnicate", "a.pam"};
  assert_int_equal(parse(&opts, 1, 3, unknown), EXIT_USAGE);
  cli_free(&opts);
  const char *flag_value[] = {"test", "--subst=1", "a.pam"};
  assert_int_equal(parse(&opts, 1, 3, flag_value), EXIT_USAGE);
  cli_free(&opts);
  /* without model options, -m and -D are not options of the command */
  const char *no_model[] = {"test", "-m", "a.mach", "a.pam"};
  assert_int_equal(parse(&opts, 0, 4, no_model), EXIT_USAGE);
  cli_free(&opts);
  /* --help wins, prints the usage, and the command exits 0 */
  const char *help[] = {"test", "--help"};
  assert_int_equal(parse(&opts, 1, 2, help), EXIT_OK);
  assert_int_equal(opts.help, 1);
  cli_free(&opts);
  /* after --, everything is a file */
  const char *dashes[] = {"test", "--", "-odd.pam"};
  assert_int_equal(parse(&opts, 1, 3, dashes), EXIT_OK);
  assert_string_equal(opts.files[0], "-odd.pam");
  cli_free(&opts);
}

static void test_default_machine(void **state) {
  (void)state;
  char dir[] = "/tmp/pamc_cli_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char sub[256], file[300];
  snprintf(sub, sizeof sub, "%s/pamc", dir);
  snprintf(file, sizeof file, "%s/machine.mach", sub);
  assert_int_equal(mkdir(sub, 0700), 0);
  FILE *f = fopen(file, "w");
  assert_non_null(f);
  fputs("const latency = 1us;\n", f);
  fclose(f);
  setenv("XDG_CONFIG_HOME", dir, 1);
  CliOptions opts;
  const char *plain[] = {"test", "a.pam"};
  assert_int_equal(parse(&opts, 1, 2, plain), EXIT_OK);
  assert_int_equal(opts.machine_count, 1);
  assert_int_equal(opts.default_machine, 1);
  assert_string_equal(opts.machine_files[0], file);
  cli_free(&opts);
  const char *given[] = {"test", "-m", "x.mach", "a.pam"};
  assert_int_equal(parse(&opts, 1, 4, given), EXIT_OK);
  assert_int_equal(opts.machine_count, 1);
  assert_int_equal(opts.default_machine, 0);
  assert_string_equal(opts.machine_files[0], "x.mach");
  cli_free(&opts);
  /* commands without model options (calibrate) do not load it */
  assert_int_equal(parse(&opts, 0, 2, plain), EXIT_OK);
  assert_int_equal(opts.machine_count, 0);
  cli_free(&opts);
  unlink(file);
  rmdir(sub);
  rmdir(dir);
  setenv("XDG_CONFIG_HOME", "/nonexistent/pamc-test", 1);
}

static void test_split_define(void **state) {
  (void)state;
  char *name;
  const char *value;
  assert_true(cli_split_define("t_flop=[0.9ns, 1.1ns]", &name, &value));
  assert_string_equal(name, "t_flop");
  assert_string_equal(value, "[0.9ns, 1.1ns]");
  free(name);
  assert_true(cli_split_define("N=1..100:*2", &name, &value));   /* a sweep is kept as text */
  assert_string_equal(value, "1..100:*2");
  free(name);
  assert_false(cli_split_define("=3", &name, &value));
  assert_false(cli_split_define("N=", &name, &value));
  assert_false(cli_split_define("a-b=3", &name, &value));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_common_options),
    cmocka_unit_test(test_usage_errors),
    cmocka_unit_test(test_default_machine),
    cmocka_unit_test(test_split_define),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
