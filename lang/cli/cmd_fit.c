/*
** cmd_fit.c — `pamc fit MODEL RUNS [-m M] [-D ...] [--fit NAME...] [--holdout K] [-o OUT.mach]`:
** fits the model's unknown consts to measured runs (fit/fit.h) and prints the fit, its quality
** and, with --holdout, how well it predicts the largest configurations it was not fitted on.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"
#include "commands.h"
#include "eval.h"
#include "fit/fit.h"
#include "fit/fit_report.h"
#include "fit_format.h"
#include "fit/runs.h"
#include "sweep.h"

static const char usage[] =
  "usage: pamc fit MODEL RUNS [-m MACHINE]... [-D NAME=VALUE]... [-e NAME]\n"
  "                [--fit NAME[,NAME...]]... [--holdout K] [--level L] [-o FITTED.mach]\n"
  "                [--region R] [--metric M] [--format table|csv|json] [--loop-limit N]\n"
  "\n"
  "Fits consts of MODEL to measured run times: weighted nonlinear least squares of est (T_lo\n"
  "with the consts as points) against the runs, each const >= 0, and prints each const with its\n"
  "confidence interval, one row per configuration (measured median and [min, max], est, relative\n"
  "error) and the fit's quality (R^2, relative residuals, condition number).\n"
  "\n"
  "RUNS is CSV, a header naming params of MODEL and `time` (seconds, or with a unit: 2.5ms), one\n"
  "row per run; rows with the same params are repetitions (their spread weighs the fit). Or\n"
  "Extra-P's text format (PARAMETER, POINTS, REGION, METRIC, DATA lines; values in seconds).\n"
  "Params not in RUNS take their value in force (default, -D).\n"
  "\n"
  "options:\n"
  "  -m FILE          machine file (repeatable): values of the consts not fitted\n"
  "  -D NAME=VALUE    set a param or const (no sweeps)\n"
  "  -e NAME          entry process (default main)\n"
  "  --fit NAMES      the consts to fit (comma-separated, repeatable); default: the consts of\n"
  "                   est that have no value\n"
  "  --holdout K      fit on all but the K largest configurations (largest product of their\n"
  "                   params) and report the error on those\n"
  "  --level L        confidence level of the intervals (default 0.95)\n"
  "  -o FILE          write the fitted consts as a machine file: each const its interval\n"
  "  --region R, --metric M  the series of an Extra-P file holding several\n"
  "  --format F       table (default; times with units), csv (one row per configuration:\n"
  "                   params, runs, runs_fitted, measured, measured_min, measured_max, est,\n"
  "                   error, held_out; the consts and the quality on stderr) or json (the\n"
  "                   consts, the configurations and the quality); seconds, errors as fractions\n"
  "  --loop-limit N   as for predict\n"
  "  --color WHEN     colour messages: auto (a terminal, unless NO_COLOR), always, never\n"
  "  -q, --quiet      no notes (default machine file; a machine file overriding the model)\n"
  "  --help           this text\n"
  "\n"
  "A const the runs cannot determine (no effect on est, or a combination of consts the runs\n"
  "cannot separate) is an error naming the consts; nothing is written. A const the runs hardly\n"
  "determine (its interval wider than twice its value) is flagged as poorly determined.\n"
  "A run more than 4 robust spreads (median absolute deviations, scaled) from the median of its\n"
  "configuration is an outlier and left out of the fit; the header line counts them.\n"
  "\n"
  "Exit status: 0 ok, 1 model or runs error (or the runs cannot determine the consts), 2 usage\n"
  "error, 3 unreadable or unwritable file.\n";

/* Default confidence level of the intervals. */
#define FIT_DEFAULT_LEVEL 0.95
/* Longest command line kept in the machine file's header. */
#define FIT_COMMAND_MAX 1024

static int usage_error(const char *message, const char *what) {
  fprintf(stderr, "pamc fit: %s %s (see pamc fit --help)\n", message, what);
  return EXIT_USAGE;
}

/* Everything `pamc fit` was asked. */
typedef struct FitArgs {
  CliOptions opts;                 /* common options; files[0] the model, files[1] the runs */
  const char *names[FIT_MAX_CONSTS]; /* --fit names (pointers into argv or names_text) */
  int name_count;                  /* length of names */
  char *names_text;                /* the --fit values, copied to split at commas (malloc'd) */
  FitOptions fit;                  /* level and holdout */
  int format;                      /* 0 table, 1 csv, 2 json */
  RunsSelect select;               /* --region, --metric */
  long loop_limit;                 /* --loop-limit */
  char command[FIT_COMMAND_MAX];   /* the command line, for the machine file */
} FitArgs;

/* Collects every --fit value of argv (cli_parse keeps the last only), split at commas. */
static int collect_fit_names(FitArgs *a, int argc, char **argv) {
  size_t total = 1;
  for (int i = 1; i < argc; i++) total += strlen(argv[i]) + 1;
  a->names_text = malloc(total);
  if (!a->names_text) return EXIT_IO;
  char *p = a->names_text;
  for (int i = 1; i < argc; i++) {
    const char *value = NULL;
    if (!strcmp(argv[i], "--")) break;
    if (!strcmp(argv[i], "--fit") && i + 1 < argc) value = argv[++i];
    else if (!strncmp(argv[i], "--fit=", 6)) value = argv[i] + 6;
    else if (!strcmp(argv[i], "-m") || !strcmp(argv[i], "-D") || !strcmp(argv[i], "-e") ||
             !strcmp(argv[i], "-o") || !strcmp(argv[i], "--holdout") || !strcmp(argv[i], "--level") ||
             !strcmp(argv[i], "--region") || !strcmp(argv[i], "--metric") || !strcmp(argv[i], "--format") || !strcmp(argv[i], "--color") ||
             !strcmp(argv[i], "--loop-limit"))
      i++;
    if (!value) continue;
    strcpy(p, value);
    for (char *name = strtok(p, ","); name; name = strtok(NULL, ",")) {
      if (a->name_count == FIT_MAX_CONSTS) return usage_error("--fit: more consts than", "32");
      a->names[a->name_count++] = name;
    }
    p += strlen(value) + 1;
  }
  return EXIT_OK;
}

static int parse_args(FitArgs *a, int argc, char **argv) {
  const char *fit_text = NULL, *holdout = NULL, *level = NULL, *loop_text = NULL;
  const CliExtra extras[] = {{"--fit", 1, &fit_text, NULL}, {"--holdout", 1, &holdout, NULL},
                             {"--level", 1, &level, NULL}, {"--region", 1, &a->select.region, NULL},
                             {"--metric", 1, &a->select.metric, NULL}, {"--loop-limit", 1, &loop_text, NULL}};
  const CliSpec spec = {"fit", usage, extras, 6, 1, 2, 2};
  int status = cli_parse(&a->opts, &spec, argc, argv);
  if (status != EXIT_OK || a->opts.help) return status;
  status = cli_loop_limit("fit", loop_text, &a->loop_limit);
  if (status != EXIT_OK) return status;
  if (a->opts.format) {
    if (!strcmp(a->opts.format, "table")) a->format = 0;
    else if (!strcmp(a->opts.format, "csv")) a->format = 1;
    else if (!strcmp(a->opts.format, "json")) a->format = 2;
    else return usage_error("unknown format (table, csv, json):", a->opts.format);
  }
  a->fit.level = FIT_DEFAULT_LEVEL;
  if (level) {
    char *end;
    a->fit.level = strtod(level, &end);
    if (*end || !(a->fit.level > 0 && a->fit.level < 1))
      return usage_error("--level wants a probability between 0 and 1 (0.95), not", level);
  }
  if (holdout) {
    char *end;
    long k = strtol(holdout, &end, 10);
    if (*end || !holdout[0] || k < 0 || k > 1000000) return usage_error("--holdout wants a number of configurations, not", holdout);
    a->fit.holdout = (int)k;
  }
  for (int i = 0; i < a->opts.define_count; i++)
    if (sweep_is_sweep(a->opts.defines[i].value))
      return usage_error("takes no sweeps (the runs give the configurations):", a->opts.defines[i].raw);
  size_t used = 0;
  for (int i = 0; i < argc && used < sizeof a->command; i++) {
    int n = snprintf(a->command + used, sizeof a->command - used, "%s%s", i ? " " : "pamc ", argv[i]);
    if (n > 0) used += (size_t)n;
  }
  return collect_fit_names(a, argc, argv);
}

static const AlgSymbol *symbol_of(const ReduceResult *r, const Decl *decl) {
  for (int i = 0; i < r->symbol_count; i++)
    if (r->symbol_decls[i] == decl) return r->symbols[i];
  return NULL;
}

/* The consts to fit: the --fit names (each a const of est), or every const of est without a
** value (a const without one that est does not use: a warning). 0, or 1 with errors in diags. */
static int choose_consts(const FitArgs *a, Program *prog, const ReduceResult *r, const Decl **consts,
                         int *count, DiagList *diags) {
  *count = 0;
  for (int i = 0; i < a->name_count; i++) {
    const Decl *d = program_lookup(prog, a->names[i]);
    if (!d || d->kind != DECL_CONST) {
      diag_report(diags, DIAG_ERROR, (SrcLoc){0}, "--fit %s: no const '%s' in the model", a->names[i], a->names[i]);
      return 1;
    }
    const AlgSymbol *s = symbol_of(r, d);
    if (!s || !alg_contains(r->t_lo, s)) {
      diag_report(diags, DIAG_ERROR, d->name.loc, "--fit %s: '%s' does not occur in est (T_lo), so "
                  "no measurement can determine it", a->names[i], a->names[i]);
      return 1;
    }
    for (int j = 0; j < *count; j++)
      if (consts[j] == d) {
        diag_report(diags, DIAG_ERROR, (SrcLoc){0}, "--fit names '%s' twice", a->names[i]);
        return 1;
      }
    consts[(*count)++] = d;
  }
  if (a->name_count) return 0;
  for (int i = 0; i < r->symbol_count; i++) {
    const Decl *d = r->symbol_decls[i];
    if (d->kind != DECL_CONST) continue;
    EvalEnv env;
    eval_env_init(&env);
    AlgInterval v;
    if (eval_decl_value(&env, d, &v, NULL) != EVAL_UNKNOWN) continue;
    if (!alg_contains(r->t_lo, r->symbols[i])) {
      diag_report(diags, DIAG_WARNING, d->name.loc, "const '%s' has no value but does not occur in "
                  "est (T_lo): the runs cannot determine it, it is not fitted", d->name.name);
      continue;
    }
    if (*count == FIT_MAX_CONSTS) {
      diag_report(diags, DIAG_ERROR, d->name.loc, "more than %d consts to fit", FIT_MAX_CONSTS);
      return 1;
    }
    consts[(*count)++] = d;
  }
  if (*count == 0) {
    diag_report(diags, DIAG_ERROR, (SrcLoc){0}, "no const to fit: every const of est has a value "
                "(name the ones to fit with --fit NAME)");
    return 1;
  }
  return 0;
}

/* A -D must not set a param the runs give. */
static int check_defines(const FitArgs *a, const Runs *runs) {
  for (int i = 0; i < a->opts.define_count; i++) {
    int c = runs_column(runs, a->opts.defines[i].name);
    if (c >= 0 && runs->used[c])
      return usage_error("-D sets a param the runs give:", a->opts.defines[i].raw);
  }
  return EXIT_OK;
}

/* Reduces, fits, prints and writes. */
static int fit_reduced(const FitArgs *a, Program *prog, Runs *runs, DiagList *diags) {
  ReduceOptions ropts = {0, a->loop_limit};
  ReduceResult r;
  int result = EXIT_OK;
  if (reduce_program(prog, &ropts, &r, diags) != 0) result = EXIT_MODEL;
  const Decl *consts[FIT_MAX_CONSTS];
  int count = 0;
  if (result == EXIT_OK && choose_consts(a, prog, &r, consts, &count, diags) != 0) result = EXIT_MODEL;
  FitModel model;
  memset(&model, 0, sizeof model);
  if (result == EXIT_OK && fit_model_init(&model, &r, runs, consts, count, diags) != 0) result = EXIT_MODEL;
  if (result == EXIT_OK && runs->config_count == 1)
    diag_report(diags, DIAG_WARNING, (SrcLoc){runs->path, runs->configs[0].line, 1, runs->configs[0].line, 1},
                "the runs hold one configuration: the fit can only scale the model, not test its shape");
  FitResult fit;
  memset(&fit, 0, sizeof fit);
  if (result == EXIT_OK) {
    char message[FIT_MESSAGE_SIZE];
    int status = fit_run(&model, &a->fit, &fit, message, sizeof message);
    if (status < 0) {
      fputs("pamc fit: out of memory\n", stderr);
      result = EXIT_IO;
    } else if (status > 0) {
      diag_report(diags, DIAG_ERROR, (SrcLoc){runs->path, runs->header_line, 1, runs->header_line, 1}, "%s", message);
      result = EXIT_MODEL;
    }
  }
  if (result == EXIT_OK) {
    if (a->format == 1) {
      fit_print_summary(stderr, a->opts.files[0], runs, &fit);
      fit_print_csv(stdout, runs, &fit);
    } else if (a->format == 2) {
      fit_print_json(stdout, a->opts.files[0], runs, &fit);
    } else {
      fit_print(stdout, a->opts.files[0], runs, &fit);
    }
    if (fflush(stdout) != 0) result = EXIT_IO;
  }
  if (result == EXIT_OK && a->opts.output) {
    CalError err = {{0}};
    if (fit_write_machine(a->opts.output, a->opts.files[0], runs, &fit, a->command, &err) != 0) {
      fprintf(stderr, "pamc fit: %s\n", err.message);
      result = EXIT_IO;
    }
  }
  fit_result_free(&fit);
  fit_model_free(&model);
  reduce_result_free(&r);
  return result;
}

int cmd_fit(int argc, char **argv) {
  FitArgs a;
  memset(&a, 0, sizeof a);
  int result = parse_args(&a, argc, argv);
  if (result != EXIT_OK || a.opts.help) {
    cli_free(&a.opts);
    free(a.names_text);
    return result;
  }
  DiagList diags;
  diag_init(&diags);
  cli_diags(&diags, &a.opts);
  Runs runs;
  runs_init(&runs, a.opts.files[1]);
  Program prog;
  ProgramOptions popts = cli_program_options(&a.opts);
  result = cli_load_checked(&prog, &diags, a.opts.files[0], &popts, NULL);
  if (result == EXIT_OK) result = runs_read(&runs, &a.select, &diags);
  if (result == EXIT_OK && runs_match_program(&runs, &prog, &diags) != 0) result = EXIT_MODEL;
  if (result == EXIT_OK) {
    diag_print(&diags, stderr);
    diag_free(&diags);
    diag_init(&diags);
    cli_diags(&diags, &a.opts);
    result = check_defines(&a, &runs);
  }
  if (result == EXIT_OK) result = fit_reduced(&a, &prog, &runs, &diags);
  diag_print(&diags, stderr);
  diag_free(&diags);
  runs_free(&runs);
  program_free(&prog);
  cli_free(&a.opts);
  free(a.names_text);
  return result;
}
