/*
** cmd_reduce.c — `pamc reduce FILE`: loads, checks and reduces the entry process; prints the
** closed forms T_lo and T_hi (text, json, latex or a C function).
*/
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cli.h"
#include "commands.h"
#include "eval.h"
#include "print_c.h"
#include "reduce.h"

static const char usage[] =
  "usage: pamc reduce [-m MACHINE]... [-D NAME=VALUE]... [-e NAME] [--format text|json|latex|c]\n"
  "                   [--subst] [--exact] [--verbose] [--expected] [--loop-limit N] [-o OUT] FILE\n"
  "\n"
  "Reduces the entry process to closed-form bounds T_lo <= time <= T_hi over the params left\n"
  "free (params set with -D are substituted).\n"
  "\n"
  "options:\n"
  "  -m FILE         machine file (repeatable)\n"
  "  -D NAME=VALUE   set a param or const (repeatable)\n"
  "  -e NAME         entry process (default main)\n"
  "  --format F      text (default), json, latex or c\n"
  "  -o OUT          write the bounds to OUT (whole or not at all) instead of stdout\n"
  "  --subst         replace the constants by their values\n"
  "  --exact         text: every number exact (rationals such as 333327/1000000000, interval\n"
  "                  ends that read back to the same double); by default a number of more than\n"
  "                  6 digits reads as a decimal of 6 significant digits (interval ends rounded\n"
  "                  outward)\n"
  "  --verbose       also print phi, the demand per resource and the checks left for evaluation\n"
  "  --expected      also print T_exp: T_lo with each choose (p) S1 else S2 counted as\n"
  "                  p*S1 + (1-p)*S2 (an estimate beside the bounds, not a bound)\n"
  "  --loop-limit N  a sum with no closed form is marked lower(...) or upper(...) by the closed\n"
  "                  bound printed; evaluation (--format c, predict) walks it index by index\n"
  "                  instead when its range has at most N indices (default 100000)\n"
  "  --color WHEN    colour messages: auto (a terminal, unless NO_COLOR), always, never\n"
  "  -q, --quiet     no notes (default machine file; a machine file overriding the model)\n"
  "  --help          this text\n"
  "\n"
  "Exit status: 0 ok, 1 model error, 2 usage error, 3 unreadable file.\n";

/* Replaces every const symbol of r by its value (intervals become interval constants). */
static int subst_consts(ReduceResult *r, DiagList *diags) {
  for (int i = 0; i < r->symbol_count; i++) {
    if (r->symbol_decls[i]->kind != DECL_CONST) continue;
    EvalEnv env;
    eval_env_init(&env);
    AlgInterval v;
    EvalError err;
    EvalStatus status = eval_decl_value(&env, r->symbol_decls[i], &v, &err);
    if (status == EVAL_UNKNOWN && !r->symbol_decls[i]->u.constant.value) {
      char message[EVAL_MESSAGE_SIZE];
      diag_report(diags, DIAG_ERROR, r->symbol_decls[i]->name.loc, "%s",
                  eval_no_value_message(r->symbol_decls[i], message, sizeof message));
      return 1;
    }
    if (status != EVAL_OK) {
      diag_report(diags, DIAG_ERROR, err.loc, "%s (value of const '%s')", err.message, r->symbol_decls[i]->name.name);
      return 1;
    }
    AlgExpr *value = v.lo == v.hi ? alg_num_double(r->alg, v.lo) : alg_ival(r->alg, v.lo, v.hi);
    r->t_lo = alg_subst(r->alg, r->t_lo, r->symbols[i], value);
    r->t_hi = alg_subst(r->alg, r->t_hi, r->symbols[i], value);
    r->phi = alg_subst(r->alg, r->phi, r->symbols[i], value);
    if (r->t_expected) r->t_expected = alg_subst(r->alg, r->t_expected, r->symbols[i], value);
    for (int k = 0; k < r->term_count; k++)
      r->terms[k].value = alg_subst(r->alg, r->terms[k].value, r->symbols[i], value);
  }
  return 0;
}

/* One evaluation check, as `check FILE:LINE:COL: WHAT: CONDITION`. */
static void print_check(const ReduceCheck *check, AlgCtx *g, AlgFormat f) {
  printf("check %s:%d:%d: %s", check->loc.file, check->loc.line, check->loc.col, check->what);
  if (check->name) printf(" of '%s'", check->name);
  const char *value = alg_print(g, check->value, f);
  switch (check->kind) {
  case REDUCE_CHECK_NONNEG: printf(": %s >= 0\n", value); break;
  case REDUCE_CHECK_INTEGER: printf(": %s is an integer\n", value); break;
  case REDUCE_CHECK_NONZERO: printf(": %s != 0\n", value); break;
  case REDUCE_CHECK_INDEX:
    printf(": 0 <= %s", value);
    printf(" and %s", alg_print(g, check->value_hi, f));
    printf(" < %s\n", alg_print(g, check->limit, f));
    break;
  }
}

static int print_result(ReduceResult *r, const char *format, int verbose, int exact) {
  AlgCtx *g = r->alg;
  if (!strcmp(format, "c")) {
    char err[256];
    const AlgExpr *bounds[2] = {r->t_lo, r->t_hi};
    const char *names[2] = {"pamc_t_lo", "pamc_t_hi"};
    if (alg_print_c_unit(stdout, g, 2, bounds, names, err, sizeof err) != 0) {
      fprintf(stderr, "pamc reduce: %s\n", err);
      return EXIT_IO;
    }
    return EXIT_OK;
  }
  if (!strcmp(format, "json")) {
    printf("{\"t_lo\": %s, \"t_hi\": %s", alg_print(g, r->t_lo, ALG_FMT_JSON),
           alg_print(g, r->t_hi, ALG_FMT_JSON));
    if (r->t_expected) printf(", \"t_expected\": %s", alg_print(g, r->t_expected, ALG_FMT_JSON));
    if (verbose) {
      printf(", \"terms\": [");
      for (int k = 0; k < r->term_count; k++)
        printf("%s{\"name\": \"%s\", \"value\": %s}", k ? ", " : "", r->terms[k].name,
               alg_print(g, r->terms[k].value, ALG_FMT_JSON));
      printf("]");
    }
    printf("}\n");
    return EXIT_OK;
  }
  AlgFormat f = !strcmp(format, "latex") ? ALG_FMT_LATEX : exact ? ALG_FMT_TEXT : ALG_FMT_DECIMAL;
  printf("T_lo = %s\n", alg_print(g, r->t_lo, f));
  printf("T_hi = %s\n", alg_print(g, r->t_hi, f));
  if (r->t_expected) printf("T_exp = %s\n", alg_print(g, r->t_expected, f));
  if (verbose) {
    printf("phi = %s\n", alg_print(g, r->phi, f));
    for (int k = 1; k < r->term_count; k++)
      printf("D/m %s = %s\n", r->terms[k].name, alg_print(g, r->terms[k].value, f));
    for (int k = 0; k < r->check_count; k++) print_check(&r->checks[k], g, f);
  }
  return EXIT_OK;
}

int cmd_reduce(int argc, char **argv) {
  int subst = 0, verbose = 0, expected = 0, exact = 0;
  const char *loop_text = NULL;
  long loop_limit = 0;
  const CliExtra extras[] = {{"--subst", 0, NULL, &subst}, {"--verbose", 0, NULL, &verbose},
                             {"--expected", 0, NULL, &expected}, {"--loop-limit", 1, &loop_text, NULL},
                             {"--exact", 0, NULL, &exact}};
  const CliSpec spec = {"reduce", usage, extras, 5, 1, 1, 1};
  CliOptions opts;
  int status = cli_parse(&opts, &spec, argc, argv);
  if (status == EXIT_OK && !opts.help) status = cli_loop_limit("reduce", loop_text, &loop_limit);
  if (status != EXIT_OK || opts.help) {
    cli_free(&opts);
    return status;
  }
  const char *format = opts.format ? opts.format : "text";
  if (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "latex") &&
      strcmp(format, "c")) {
    fprintf(stderr, "pamc reduce: unknown format '%s' (text, json, latex or c)\n", format);
    cli_free(&opts);
    return EXIT_USAGE;
  }
  CliOutput out;
  if (cli_output_begin(&out, "reduce", opts.output) != EXIT_OK) {
    cli_free(&opts);
    return EXIT_IO;
  }
  DiagList diags;
  diag_init(&diags);
  cli_diags(&diags, &opts);
  ProgramOptions popts = cli_program_options(&opts);
  Program prog;
  int result = cli_load_checked(&prog, &diags, opts.files[0], &popts, NULL);
  if (result == EXIT_OK) {
    ReduceOptions ropts = {expected, loop_limit};
    ReduceResult r;
    if (reduce_program(&prog, &ropts, &r, &diags) != 0) result = EXIT_MODEL;
    else if (subst && subst_consts(&r, &diags) != 0) result = EXIT_MODEL;
    else result = print_result(&r, format, verbose, exact);
    reduce_result_free(&r);
  }
  result = cli_output_end(&out, "reduce", result);
  diag_print(&diags, stderr);
  program_free(&prog);
  diag_free(&diags);
  cli_free(&opts);
  return result;
}
