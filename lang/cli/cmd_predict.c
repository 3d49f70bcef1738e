/*
** cmd_predict.c — `pamc predict FILE [-m M] [-D ...] [--format table|csv|json] [--plot OUT]`:
** reduces the entry process once, then evaluates lo, est, hi and the bottleneck at every point of
** the sweep given with -D (predict.h), streaming the rows batch by batch; inexact points are
** reduced again at their own values (predict_refine.h).
*/
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "commands.h"
#include "predict.h"
#include "predict_measured.h"
#include "predict_plot.h"
#include "predict_pace.h"
#include "predict_refine.h"
#include "sim.h"

static const char usage[] =
  "usage: pamc predict FILE [-m MACHINE]... [-D NAME=VALUE]... [-e NAME]\n"
  "                    [--format table|csv|json] [-o OUT] [--speedup] [--loop-limit N] [--refine N]\n"
  "                    [--plot OUT.svg|OUT.png [--logx] [--logy] [--linear] [--plot-data DIR]]\n"
  "                    [--measured RUNS [--region R] [--metric M]]\n"
  "\n"
  "Evaluates the reduced bounds of the entry process at every point of a sweep: for each point,\n"
  "lo = inf T_lo and hi = sup T_hi over the constants' intervals, est = T_lo at their typical\n"
  "values (`[a, b] typ m`; the midpoint where none is given), and the bottleneck (critical path,\n"
  "or the resource whose demand per server is largest).\n"
  "\n"
  "options:\n"
  "  -m FILE          machine file (repeatable; later files override earlier ones)\n"
  "  -D NAME=VALUE    set a param or const: a value (2us), an interval ([1, 2]), or a sweep:\n"
  "                   A..B (every integer), A..B:*K (geometric), A..B:+K (step K), A,B,C (list);\n"
  "                   several swept names give their cartesian product (first outermost)\n"
  "  -e NAME          entry process (default main)\n"
  "  --format F       table (default; times with units), csv or json (seconds)\n"
  "  -o OUT           write the rows to OUT (whole or not at all) instead of stdout\n"
  "  --speedup        add speedup (est of the first point / est) and efficiency (speedup x\n"
  "                   first value / value of the first swept param) after hi\n"
  "  --plot OUT       also draw lo .. hi and est against the first swept param with gnuplot\n"
  "                   (OUT.svg or OUT.png): one curve per value of the other swept params,\n"
  "                   the changes of bottleneck marked, log axes when the values are geometric\n"
  "  --logx, --logy   with --plot: a logarithmic x or y axis whatever the values\n"
  "  --linear         with --plot: linear axes (but for --logx or --logy)\n"
  "  --plot-data DIR  with --plot: keep the gnuplot script and data in DIR (plot.gp, plot.dat;\n"
  "                   `gnuplot plot.gp` in DIR redraws the plot)\n"
  "  --refine N       reduce again at its own values each point of a sweep whose bounds are\n"
  "                   not exact, for the first N such points (default 100; 0: none): what only\n"
  "                   a number decides (a member map proved one-to-one point by point, a floor\n"
  "                   on an integer) can tighten them; each row keeps the tighter of both\n"
  "  --loop-limit N   a sum with no closed form is walked index by index when its range has\n"
  "                   at most N indices (default 100000); beyond, its closed bound is used.\n"
  "                   A walk inside another walks at most 10^6 indices at once (counts\n"
  "                   multiplied); beyond, its body is enclosed over its range\n"
  "  --measured RUNS  measured runs (as for pamc fit: CSV with params and `time`, or Extra-P\n"
  "                   text): each row whose params match a configuration of RUNS also shows\n"
  "                   its measured median, min, max and (est - median) / median; a summary\n"
  "                   line follows (on stderr for csv and json)\n"
  "  --region R, --metric M  the series of an Extra-P file holding several\n"
  "  --color WHEN     colour messages: auto (a terminal, unless NO_COLOR), always, never\n"
  "  -q, --quiet      no notes (default machine file; a machine file overriding the model)\n"
  "  --help           this text\n"
  "\n"
  "Columns: each name set with -D or swept, then lo, est, hi, bottleneck (and with --measured:\n"
  "measured, measured_min, measured_max, error), and in csv and json approx: where a bound rests\n"
  "on an approximation (a sum with no closed form, a family taken as one resource), also said in\n"
  "a note on stderr with its source line.\n"
  "\n"
  "Exit status: 0 ok, 1 model error (also at evaluation: negative duration, index out of range,\n"
  "...; the message names the place and the values), 2 usage error, 3 unreadable file or\n"
  "unwritable plot.\n";

typedef enum Format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON } Format;

/* Width of a time column of the table ("1.234 ms" and room). */
#define TABLE_TIME_WIDTH 11
/* Values of a swept column measured for its width (beyond, the last is measured too). */
#define TABLE_WIDTH_SAMPLES 1000
/* Width of the speedup and efficiency columns of the table. */
#define TABLE_RATIO_WIDTH 10
/* Width of a column whose value follows the swept names (-D 'N=1000*P'). */
#define TABLE_DERIVED_WIDTH 12
/* Width of the bottleneck column when measured columns follow it. */
#define TABLE_BOTTLENECK_WIDTH 14
/* Width of the measured [min, max] column. */
#define TABLE_RANGE_WIDTH 22
/* Least width of a param column of the table. */
#define TABLE_PARAM_WIDTH 8

/* One output column before lo: a name set with -D, swept (axis >= 0) or fixed. */
typedef struct Column {
  const char *name;         /* NAME of -D */
  int axis;                 /* sweep axis, -1 for a fixed value */
  AlgInterval value;        /* fixed: its value */
  int width;                /* table: width of its values and name */
  int interval;             /* fixed to an interval: csv gives it two columns, NAME_lo,NAME_hi */
  int time;                 /* a const given with a time unit: the table shows it with a unit */
  const Decl *derived;      /* fixed to an expression of swept names (-D 'Q=sqrt(P)'): the
                               declaration in force, evaluated at each point; NULL otherwise */
} Column;

/* What the rows are printed with. */
typedef struct Output {
  Format format;            /* table, csv or json */
  Column *columns;          /* -D names in order */
  int column_count;         /* length of columns */
  const ReduceResult *reduced; /* names of the bottleneck terms */
  const char *approx;       /* csv/json: what the bounds rest on that is approximate ("" none) */
  long rows;                /* rows printed so far */
  PredictPlot *plot;        /* --plot, or NULL */
  PredictMeasured *measured; /* --measured, or NULL */
  int speedup;              /* --speedup: speedup and efficiency columns after hi */
  double base_est, base_x;  /* --speedup: est and first swept value of the first row */
  const Decl *const *axis_decls; /* the swept names' declarations (derived columns) */
  int axis_count;           /* length of axis_decls */
} Output;

static int usage_error(const char *message, const char *what) {
  fprintf(stderr, "pamc predict: %s %s (see pamc predict --help)\n", message, what);
  return EXIT_USAGE;
}

/* ------------------------------------------------------------------ printing */



static void csv_string(FILE *out, const char *text) {
  if (!strpbrk(text, ",\"\n")) {
    fputs(text, out);
    return;
  }
  fputc('"', out);
  for (const char *p = text; *p; p++) {
    if (*p == '"') fputc('"', out);
    fputc(*p, out);
  }
  fputc('"', out);
}

/* A json number (json has no inf or nan: null). */
static void json_number(FILE *out, const char *text, double v) {
  fputs(isfinite(v) ? text : "null", out);
}

static int column_width(const Column *c) {
  return c->width;
}

static void print_header(FILE *out, const Output *o) {
  if (o->format == FORMAT_JSON) {
    fputs("[", out);
    return;
  }
  for (int i = 0; i < o->column_count; i++) {
    if (o->format == FORMAT_CSV && o->columns[i].interval) {   /* an interval: two columns */
      char name[256];
      snprintf(name, sizeof name, "%s_lo", o->columns[i].name);
      csv_string(out, name);
      fputc(',', out);
      snprintf(name, sizeof name, "%s_hi", o->columns[i].name);
      csv_string(out, name);
      fputc(',', out);
    } else if (o->format == FORMAT_CSV) {
      csv_string(out, o->columns[i].name);
      fputc(',', out);
    } else {
      fprintf(out, "%*s  ", column_width(&o->columns[i]), o->columns[i].name);
    }
  }
  if (o->format == FORMAT_CSV) {
    fputs(o->speedup ? "lo,est,hi,speedup,efficiency,bottleneck" : "lo,est,hi,bottleneck", out);
    fputs(o->measured ? ",measured,measured_min,measured_max,error,approx\n" : ",approx\n", out);
  } else {
    fprintf(out, "%*s  %*s  %*s  ", TABLE_TIME_WIDTH, "lo", TABLE_TIME_WIDTH, "est", TABLE_TIME_WIDTH, "hi");
    if (o->speedup) fprintf(out, "%*s  %*s  ", TABLE_RATIO_WIDTH, "speedup", TABLE_RATIO_WIDTH, "efficiency");
    fprintf(out, "%-*s", o->measured ? TABLE_BOTTLENECK_WIDTH : 0, "bottleneck");
    if (o->measured)
      fprintf(out, "  %*s  %-*s  %7s", TABLE_TIME_WIDTH, "measured", TABLE_RANGE_WIDTH, "[min, max]", "error");
    fputc('\n', out);
  }
}

/* The value of a column at a point, as text for the format. */
static void column_text(const Output *o, const Column *c, const double *point, char *buf, size_t size) {
  AlgInterval v = c->axis >= 0 ? ival_point(point[c->axis]) : c->value;
  if (c->derived && o->axis_count > 0) {   /* -D 'N=1000*P': its value at this point */
    EvalBinding bindings[SWEEP_MAX_AXES];
    for (int a = 0; a < o->axis_count; a++) bindings[a] = (EvalBinding){o->axis_decls[a], ival_point(point[a])};
    EvalEnv env;
    eval_env_init(&env);
    env.bindings = bindings;
    env.binding_count = o->axis_count;
    if (eval_decl_value(&env, c->derived, &v, NULL) != EVAL_OK) v = c->value;
  }
  char a[CLI_NUMBER_SIZE], b[CLI_NUMBER_SIZE], ta[64], tb[64];
  if (o->format == FORMAT_TABLE && c->time) {   /* a const given in seconds: with its unit */
    if (v.lo == v.hi) sim_format_time(v.lo, buf, (int)size);
    else snprintf(buf, size, "[%s, %s]", sim_format_time(v.lo, ta, sizeof ta),
                  sim_format_time(v.hi, tb, sizeof tb));
    return;
  }
  if (o->format == FORMAT_CSV && c->interval)
    snprintf(buf, size, "%s,%s", cli_number(v.lo, a), cli_number(v.hi, b));
  else if (v.lo == v.hi) snprintf(buf, size, "%s", cli_number(v.lo, a));
  else if (o->format == FORMAT_JSON) snprintf(buf, size, "[%s, %s]", cli_number(v.lo, a), cli_number(v.hi, b));
  else eval_format(v, buf, (int)size);
}

/* The measured columns of a row (m NULL: the row has no runs). */
static void print_measured(FILE *out, const Output *o, const RunsConfig *m, double est) {
  char a[64], b[64], c[64], range[160];
  double error = m ? (est - m->median) / m->median : NAN;
  if (o->format == FORMAT_JSON) {
    if (!m) {
      fputs(", \"measured\": null, \"measured_min\": null, \"measured_max\": null, \"error\": null", out);
      return;
    }
    fprintf(out, ", \"measured\": %s, \"measured_min\": %s, \"measured_max\": %s, \"error\": ",
            cli_number(m->median, a), cli_number(m->min, b), cli_number(m->max, c));
    snprintf(a, sizeof a, "%.6g", error);
    json_number(out, a, error);
  } else if (o->format == FORMAT_CSV) {
    if (m) fprintf(out, ",%s,%s,%s,%.6g", cli_number(m->median, a), cli_number(m->min, b),
                   cli_number(m->max, c), error);
    else fputs(",,,,", out);
  } else if (m) {
    snprintf(range, sizeof range, "[%s, %s]", sim_format_time(m->min, b, sizeof b), sim_format_time(m->max, c, sizeof c));
    fprintf(out, "  %*s  %-*s  %+6.1f%%", TABLE_TIME_WIDTH, sim_format_time(m->median, a, sizeof a),
            TABLE_RANGE_WIDTH, range, 100 * error);
  } else {
    fprintf(out, "  %*s  %-*s  %7s", TABLE_TIME_WIDTH, "-", TABLE_RANGE_WIDTH, "", "");
  }
}

static void print_row(FILE *out, Output *o, const double *point, double lo, double est, double hi,
                      const char *bottleneck, const RunsConfig *m) {
  char text[128], a[64], b[64], c[64], s[CLI_NUMBER_SIZE], e[CLI_NUMBER_SIZE];
  /* --speedup: est of the first row over est here; efficiency per unit of the first swept value */
  if (o->rows == 0) {
    o->base_est = est;
    o->base_x = point[0];
  }
  double speedup = o->base_est / est, efficiency = speedup * o->base_x / point[0];
  if (o->format == FORMAT_JSON) {
    fputs(o->rows ? ",\n {" : "\n {", out);
    for (int i = 0; i < o->column_count; i++) {
      cli_json_string(out, o->columns[i].name);
      column_text(o, &o->columns[i], point, text, sizeof text);
      fprintf(out, ": %s, ", text);
    }
    fputs("\"lo\": ", out);
    json_number(out, cli_number(lo, a), lo);
    fputs(", \"est\": ", out);
    json_number(out, cli_number(est, b), est);
    fputs(", \"hi\": ", out);
    json_number(out, cli_number(hi, c), hi);
    if (o->speedup) {
      fputs(", \"speedup\": ", out);
      json_number(out, cli_number(speedup, s), speedup);
      fputs(", \"efficiency\": ", out);
      json_number(out, cli_number(efficiency, e), efficiency);
    }
    fputs(", \"bottleneck\": ", out);
    cli_json_string(out, bottleneck);
    if (o->measured) print_measured(out, o, m, est);
    fputs(", \"approx\": ", out);
    cli_json_string(out, o->approx);
    fputc('}', out);
  } else if (o->format == FORMAT_CSV) {
    for (int i = 0; i < o->column_count; i++) {
      column_text(o, &o->columns[i], point, text, sizeof text);
      fprintf(out, "%s,", text);
    }
    fprintf(out, "%s,%s,%s,", cli_number(lo, a), cli_number(est, b), cli_number(hi, c));
    if (o->speedup) fprintf(out, "%s,%s,", cli_number(speedup, s), cli_number(efficiency, e));
    csv_string(out, bottleneck);
    if (o->measured) print_measured(out, o, m, est);
    fputc(',', out);
    csv_string(out, o->approx);
    fputc('\n', out);
  } else {
    for (int i = 0; i < o->column_count; i++) {
      column_text(o, &o->columns[i], point, text, sizeof text);
      fprintf(out, "%*s  ", column_width(&o->columns[i]), text);
    }
    fprintf(out, "%*s  %*s  %*s  ", TABLE_TIME_WIDTH, sim_format_time(lo, a, sizeof a),
            TABLE_TIME_WIDTH, sim_format_time(est, b, sizeof b), TABLE_TIME_WIDTH,
            sim_format_time(hi, c, sizeof c));
    if (o->speedup) fprintf(out, "%*.4g  %*.4g  ", TABLE_RATIO_WIDTH, speedup, TABLE_RATIO_WIDTH, efficiency);
    fprintf(out, "%-*s", o->measured ? TABLE_BOTTLENECK_WIDTH : 0, bottleneck);
    if (o->measured) print_measured(out, o, m, est);
    fputc('\n', out);
  }
  o->rows++;
}

static void print_footer(FILE *out, const Output *o) {
  if (o->format == FORMAT_JSON) fputs(o->rows ? "\n]\n" : "]\n", out);
}

/* "P=4, N=1000" for messages. */
static void point_text(const Output *o, const double *point, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = 0;
  for (int i = 0; i < o->column_count && used < size; i++) {
    char value[128];
    Output plain = *o;
    plain.format = FORMAT_TABLE;
    column_text(&plain, &o->columns[i], point, value, sizeof value);
    int n = snprintf(buf + used, size - used, "%s%s=%s", i ? ", " : "", o->columns[i].name, value);
    if (n < 0) break;
    used += (size_t)n;
  }
}

/* The message of a failed check of the reduction (reduce.h) with its offending value. */
static void check_issue(const ReduceCheck *check, double value, PredictIssue *issue) {
  issue->loc = check->loc;
  switch (check->kind) {
  case REDUCE_CHECK_NONNEG:
    snprintf(issue->message, sizeof issue->message, "%s is negative (%g s)", check->what, value);
    break;
  case REDUCE_CHECK_NONZERO:
    snprintf(issue->message, sizeof issue->message, "division by zero");
    break;
  case REDUCE_CHECK_INTEGER:
    snprintf(issue->message, sizeof issue->message, "%s is not an integer (%.17g)", check->what, value);
    break;
  case REDUCE_CHECK_INDEX:
    snprintf(issue->message, sizeof issue->message, "index %.17g of '%s' is out of range", value,
             check->name ? check->name : "?");
    break;
  }
}

/* ------------------------------------------------------------------ the sweep */

/* Splits the -D values: sweeps into sweep, the others kept for program_load. Returns EXIT_OK or
** a usage error (printed). */
static int split_defines(const CliOptions *opts, Sweep *sweep, ProgramDefine *plain, int *plain_count) {
  *plain_count = 0;
  for (int i = 0; i < opts->define_count; i++) {
    const ProgramDefine *d = &opts->defines[i];
    for (int j = 0; j < i; j++)
      if (!strcmp(opts->defines[j].name, d->name)) return usage_error("-D sets a name twice:", d->name);
    if (!sweep_is_sweep(d->value)) {
      plain[(*plain_count)++] = *d;
      continue;
    }
    char message[SWEEP_MESSAGE_SIZE];
    if (sweep_add(sweep, d->name, d->value, d->raw, message, sizeof message) != 0) {
      fprintf(stderr, "pamc predict: %s (see pamc predict --help)\n", message);
      return EXIT_USAGE;
    }
  }
  return EXIT_OK;
}

/* Each swept name must be a param or const in force, its values within a param's admissible
** range. Fills decls[a]. 0, or 1 with errors in diags. */
static int resolve_axes(Program *prog, const Sweep *sweep, const Decl **decls, DiagList *diags) {
  for (int a = 0; a < sweep->axis_count; a++) {
    const SweepAxis *axis = &sweep->axes[a];
    const Decl *d = program_lookup(prog, axis->name);
    decls[a] = d;
    if (!d || (d->kind != DECL_PARAM && d->kind != DECL_CONST)) {
      if (!d) program_unknown_define(prog, axis->raw, axis->name);
      else diag_report(diags, DIAG_ERROR, (SrcLoc){0}, "-D %s: no param or const '%s'", axis->raw, axis->name);
      return 1;
    }
    if (d->kind != DECL_PARAM) continue;
    double lo = axis->start, hi = axis->stop;
    for (long k = 0; axis->kind == SWEEP_LIST && k < axis->count; k++) {
      if (axis->values[k] < lo) lo = axis->values[k];
      if (axis->values[k] > hi) hi = axis->values[k];
    }
    if (axis->kind == SWEEP_GEOMETRIC || axis->kind == SWEEP_STEP)
      hi = sweep_axis_value(axis, axis->count - 1);
    EvalEnv env;
    eval_env_init(&env);
    /* LANGUAGE.md §3: without `in`, a param is at least min(1, its default) */
    AlgInterval min = ival_point(1), max = ival_point(INFINITY), def;
    if (d->u.param.min) eval_expr(&env, d->u.param.min, &min, NULL);
    else if (d->u.param.value && eval_expr(&env, d->u.param.value, &def, NULL) == EVAL_OK && def.lo < 1)
      min = ival_point(def.lo);
    if (d->u.param.max) eval_expr(&env, d->u.param.max, &max, NULL);
    if (lo < min.lo || hi > max.hi) {
      diag_report(diags, DIAG_ERROR, d->loc, "-D %s: values %g .. %g are outside the admissible "
                  "values %g .. %g of '%s'", axis->raw, lo, hi, min.lo, max.hi, axis->name);
      return 1;
    }
  }
  return 0;
}

/* 1 when a -D value is a plain number or interval (no name: the same at every point). */
static int is_literal(const char *value) {
  for (const char *p = value; *p; p++)
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_') {
      const char *q = p;   /* a unit or exponent after a digit is no name */
      while (q > value && ((q[-1] >= 'a' && q[-1] <= 'z') || (q[-1] >= 'A' && q[-1] <= 'Z'))) q--;
      if (q == value || !((q[-1] >= '0' && q[-1] <= '9') || q[-1] == '.')) return 0;
    }
  return 1;
}

/* 1 when a -D value is written with a time unit (2us, 1ms..4ms:*2, [1ns, 2ns]). */
static int has_time_unit(const char *value) {
  for (const char *p = value; *p; p++) {
    if (!(p[0] >= '0' && p[0] <= '9')) continue;
    const char *u = p + 1;
    size_t n = strspn(u, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ\xc2\xb5\xce\xbc");
    if ((n == 1 && u[0] == 's') || (n == 2 && u[1] == 's' && strchr("mun", u[0])) ||
        (n == 3 && u[2] == 's' && ((unsigned char)u[0] == 0xc2 || (unsigned char)u[0] == 0xce)))
      return 1;
  }
  return 0;
}

/* The columns: every -D name in order, swept or with its value in force. */
static Column *make_columns(Program *prog, const CliOptions *opts, const Sweep *sweep, int *count) {
  Column *columns = calloc((size_t)opts->define_count + 1, sizeof *columns);
  if (!columns) return NULL;
  for (int i = 0; i < opts->define_count; i++) {
    Column *c = &columns[i];
    c->name = opts->defines[i].name;
    c->axis = -1;
    for (int a = 0; a < sweep->axis_count; a++)
      if (!strcmp(sweep->axes[a].name, c->name)) c->axis = a;
    c->value = ival_entire();
    const Decl *d = program_lookup(prog, c->name);
    EvalEnv env;
    eval_env_init(&env);
    if (c->axis < 0 && d) eval_decl_value(&env, d, &c->value, NULL);
    c->interval = c->axis < 0 && c->value.lo != c->value.hi;
    c->derived = c->axis < 0 && d && sweep->axis_count > 0 && !is_literal(opts->defines[i].value) ? d : NULL;
    c->time = d && d->kind == DECL_CONST && has_time_unit(opts->defines[i].value);
    int width = (int)strlen(c->name);
    char text[128];
    Output table = {FORMAT_TABLE, NULL, 0, NULL, "", 0, NULL, NULL, 0, 0, 0, NULL, 0};
    double point[SWEEP_MAX_AXES] = {0};
    if (c->axis < 0) {
      column_text(&table, c, point, text, sizeof text);
      if ((int)strlen(text) > width) width = (int)strlen(text);
      if (c->derived && width < TABLE_DERIVED_WIDTH) width = TABLE_DERIVED_WIDTH;   /* varies by point */
    } else {
      const SweepAxis *axis = &sweep->axes[c->axis];
      for (long k = 0; k < axis->count && k < TABLE_WIDTH_SAMPLES; k++) {   /* the widest of the first */
        point[c->axis] = sweep_axis_value(axis, k);
        column_text(&table, c, point, text, sizeof text);
        if ((int)strlen(text) > width) width = (int)strlen(text);
      }
      point[c->axis] = sweep_axis_value(axis, axis->count - 1);   /* and the last */
      column_text(&table, c, point, text, sizeof text);
      if ((int)strlen(text) > width) width = (int)strlen(text);
    }
    c->width = width > TABLE_PARAM_WIDTH ? width : TABLE_PARAM_WIDTH;
  }
  *count = opts->define_count;
  return columns;
}

/* Copies the rows held back in held to standard output. 0, or 1 when they could not be written
** to held or read back. */
static int release_rows(FILE *held) {
  char line[4096];   /* through stdout's buffer as the rows were: a write error keeps its errno */
  if (fflush(held) != 0 || ferror(held)) return 1;
  rewind(held);
  while (fgets(line, sizeof line, held)) fputs(line, stdout);
  return ferror(held) != 0;
}

/* Walks the sweep in batches: evaluates, checks, prints. The rows go to a temporary file first
** and to standard output only once every point has passed: a point that fails leaves nothing
** printed (a failure at the last point of a sweep printed the rows before it). Returns an exit
** status. */
/* Bounds that cross (lo > hi): no run of the model ends at the point. 1 with issue filled. */
static int crossed(const Decl *entry, double lo, double hi, PredictIssue *issue) {
  if (!(lo > hi * (1 + 1e-9))) return 0;
  issue->loc = entry->loc;
  snprintf(issue->message, sizeof issue->message,
           "the lower bound (%g s) is above the upper bound (%g s): no run of the model ends "
           "here (a deadlock, such as a hold that waits for a server its own thread holds; "
           "`pamc simulate` reports where)", lo, hi);
  return 1;
}

/* on[i]: the sweep's note i holds at the row (at_point, from predict_approx_eval) and is on a
** bound the row did not take from the point's own reduction. A row whose lo and hi meet has its
** time exactly, whatever the bounds were built from: no note holds there (the point's are
** dropped too). */
static void row_notes(const ReduceResult *r, const unsigned char *at_point, RefineRow *row,
                      unsigned char *on) {
  int exact = predict_refine_exact(row->lo, row->hi);
  for (int i = 0; i < r->approx_count; i++) {
    int taken = r->approx[i].bound ? row->hi_from_point : row->lo_from_point;
    on[i] = at_point[i] && !taken && !exact;
    if (exact) row->point_notes[i] = 0;
  }
  if (exact) row->approx[0] = 0;
}

/* The approx column of a row: the sweep's notes that hold there (on), then the point's own. */
static void row_approx(const ReduceResult *r, const unsigned char *on, const RefineRow *row,
                       char *buf, size_t size) {
  predict_approx_column(r, on, buf, size);
  size_t used = strlen(buf);
  if (!row->approx[0] || used + 3 >= size) return;
  if (used) {
    memcpy(buf + used, "; ", 2);
    used += 2;
  }
  size_t n = strlen(row->approx);
  if (n > size - used - 1) n = size - used - 1;   /* truncated like the column itself */
  memcpy(buf + used, row->approx, n);
  buf[used + n] = 0;
}

static void free_row(RefineRow *row) {
  if (row) free(row->point_notes);
  free(row);
}

/* Evaluates and prints every point of the sweep; refine (NULL: none) reduces inexact points
** again at their own values (predict_refine.h). */
static int run_sweep(Program *prog, const ReduceResult *r, Sweep *sweep, const Decl **axis_decls,
                     Output *o, PredictRefine *refine, DiagList *diags) {
  PredictPlan plan;
  if (predict_plan_init(&plan, r, sweep, diags) != 0) {
    predict_plan_free(&plan);
    return EXIT_MODEL;
  }
  const Decl *entry = program_entry(prog);
  PredictBatch *batch = malloc(sizeof *batch);
  double *values = malloc((size_t)SWEEP_MAX_AXES * PREDICT_BATCH * sizeof *values);
  FILE *held = tmpfile();
  int notes = r->approx_count;
  unsigned char *seen = calloc((size_t)notes + 1, 1);   /* per note: it holds at some point */
  char *approx = malloc(PREDICT_APPROX_SIZE);
  unsigned char *on = calloc((size_t)notes + 1, 1);   /* per note: it holds at the row */
  RefineRow *row = calloc(1, sizeof *row);
  if (row) row->point_notes = calloc((size_t)notes + 1, 1);
  if (!batch || !values || !held || !seen || !approx || !on || !row || !row->point_notes) {
    free_row(row);
    free(on);
    free(seen);
    free(approx);
    free(batch);
    free(values);
    if (held) fclose(held);
    predict_plan_free(&plan);
    fprintf(stderr, "pamc predict: %s\n", held ? "out of memory" : "cannot open a temporary file");
    return EXIT_IO;
  }
  const double *axis_values[SWEEP_MAX_AXES];
  for (int a = 0; a < SWEEP_MAX_AXES; a++) axis_values[a] = values + (size_t)a * PREDICT_BATCH;
  int result = EXIT_OK;
  double point[SWEEP_MAX_AXES];
  sweep_rewind(sweep);
  print_header(held, o);
  PredictPace pace;
  predict_pace_init(&pace, sweep_points(sweep), isatty(fileno(stderr)));
  for (;;) {
    int n = 0, want = pace.batch;
    while (n < want && sweep_next(sweep, point)) {
      for (int a = 0; a < sweep->axis_count; a++) values[(size_t)a * PREDICT_BATCH + n] = point[a];
      n++;
    }
    if (n == 0) break;
    double batch_started = predict_now();
    if (predict_eval(&plan, n, axis_values, batch) != 0) {
      fputs("pamc predict: out of memory\n", stderr);
      result = EXIT_IO;
      break;
    }
    PredictIssue issue;
    int good = predict_check_batch(entry, axis_decls, sweep->axis_count, n, axis_values, batch, &issue);
    int failed;
    double value;
    int bad = predict_checks_first_failure(&plan, good, &failed, &value);
    if (bad < 0) {
      fputs("pamc predict: out of memory\n", stderr);
      result = EXIT_IO;
      break;
    }
    if (bad < good) {   /* what the reduction's checks find between the ends of a loop */
      good = bad;
      check_issue(&r->checks[failed], value, &issue);
    }
    for (int k = 0; k < good; k++)   /* bounds that cross: the model cannot end there */
      if (crossed(entry, batch->lo[k], batch->hi[k], &issue)) {
        good = k;
        break;
      }
    if (predict_approx_eval(&plan, good) != 0) {
      fputs("pamc predict: out of memory\n", stderr);
      result = EXIT_IO;
      break;
    }
    predict_pace_step(&pace, n, predict_now() - batch_started);
    for (int k = 0; k < good && result == EXIT_OK; k++) {
      for (int a = 0; a < sweep->axis_count; a++) point[a] = axis_values[a][k];
      row->lo = batch->lo[k];
      row->est = batch->est[k];
      row->hi = batch->hi[k];
      row->bottleneck = r->terms[batch->bottleneck[k]].name;
      memset(row->point_notes, 0, (size_t)notes + 1);
      if (refine) predict_refine_row(refine, r, point, row);
      if (crossed(entry, row->lo, row->hi, &issue)) {   /* the point's own bounds crossed */
        good = k;
        break;
      }
      const RunsConfig *m = o->measured ? predict_measured_row(o->measured, point, row->lo, row->est,
                                                               row->hi) : NULL;
      row_notes(r, &plan.approx_on[(size_t)k * (size_t)notes], row, on);
      for (int i = 0; i < notes; i++) seen[i] |= on[i] | row->point_notes[i];
      if (o->format != FORMAT_TABLE) {   /* the table has no approx column */
        row_approx(r, on, row, approx, PREDICT_APPROX_SIZE);
        o->approx = approx;
      }
      print_row(held, o, point, row->lo, row->est, row->hi, row->bottleneck, m);
      if (o->plot && sweep->axis_count > 0) {
        char label[PREDICT_PLOT_LABEL_SIZE], err[256];
        predict_plot_curve_label(sweep, point, label, sizeof label);
        if (predict_plot_point(o->plot, label, point[0], row->lo, row->est, row->hi, row->bottleneck,
                               err, sizeof err) != 0) {
          fprintf(stderr, "pamc predict: %s\n", err);
          result = EXIT_IO;
          break;
        }
        if (m) predict_plot_measured(o->plot, m->median, m->min, m->max);
      }
    }
    if (result != EXIT_OK) break;
    if (good < n) {
      char where[512];
      for (int a = 0; a < sweep->axis_count; a++) point[a] = axis_values[a][good];
      point_text(o, point, where, sizeof where);
      SrcLoc loc = issue.loc.file ? issue.loc : entry->loc;  /* no statement blamed: the entry */
      diag_report(diags, DIAG_ERROR, loc, "%s%s%s", issue.message, where[0] ? " at " : "", where);
      result = EXIT_MODEL;
      break;
    }
    if (n < want) break;
  }
  predict_pace_finish(&pace);
  predict_approx_notes(r, seen, diags);   /* the notes that hold at some point of the sweep */
  if (refine) predict_refine_finish(refine, diags);
  if (result == EXIT_OK) print_footer(held, o);
  if (result == EXIT_OK && release_rows(held)) {
    fputs("pamc predict: cannot write or read back the temporary file of the rows\n", stderr);
    result = EXIT_IO;
  }
  fclose(held);
  if (result == EXIT_OK && o->measured)
    predict_measured_summary(o->measured, o->rows, o->format == FORMAT_TABLE ? stdout : stderr);
  free(values);
  free(batch);
  free(seen);
  free(approx);
  free(on);
  free_row(row);
  predict_plan_free(&plan);
  return result;
}

static int predict_file(const CliOptions *opts, Format format, PredictPlotOptions *plot_opts,
                        long loop_limit, long refine_points, int speedup, const char *measured_path,
                        const RunsSelect *select) {
  const char *plot_out = plot_opts->out;
  Sweep sweep;
  sweep_init(&sweep);
  ProgramDefine *plain = calloc((size_t)opts->define_count + 1, sizeof *plain);
  int plain_count = 0;
  if (!plain) return EXIT_IO;
  int result = split_defines(opts, &sweep, plain, &plain_count);
  if (result == EXIT_OK && speedup && sweep.axis_count == 0)
    result = usage_error("--speedup needs a swept param, e.g.", "-D P=1..64:*2");
  if (result == EXIT_OK && plot_out && sweep.axis_count == 0)
    result = usage_error("--plot needs a swept param, e.g.", "-D P=1..64:*2");
  if (result == EXIT_OK && plot_out) {
    char message[256];
    if (predict_plot_fits(&sweep, message, sizeof message) != 0) result = usage_error(message, "");
  }
  if (result != EXIT_OK) {
    sweep_free(&sweep);
    free(plain);
    return result;
  }
  DiagList diags;
  diag_init(&diags);
  cli_diags(&diags, opts);
  ProgramOptions popts = cli_program_options(opts);
  popts.defines = plain;
  popts.define_count = plain_count;
  Program prog;
  const Decl *axis_decls[SWEEP_MAX_AXES];
  result = cli_load_checked(&prog, &diags, opts->files[0], &popts, NULL);
  if (result == EXIT_OK && resolve_axes(&prog, &sweep, axis_decls, &diags) != 0) result = EXIT_MODEL;
  PredictMeasured measured;
  memset(&measured, 0, sizeof measured);
  if (result == EXIT_OK && measured_path)
    result = predict_measured_open(&measured, measured_path, select, &prog, &sweep, &diags);
  if (result == EXIT_OK) {
    ReduceOptions ropts = {0, loop_limit};
    ReduceResult r;
    if (reduce_program(&prog, &ropts, &r, &diags) != 0) {
      result = EXIT_MODEL;
    } else {
      PredictPlot plot;
      char err[512], title[PREDICT_PLOT_LABEL_SIZE * 4];
      Output o = {format, NULL, 0, &r, "", 0, NULL, measured_path ? &measured : NULL, speedup, 0, 0,
                  axis_decls, sweep.axis_count};
      o.columns = make_columns(&prog, opts, &sweep, &o.column_count);
      if (plot_out) {
        predict_plot_title(title, sizeof title, opts->files[0], opts->machine_files, opts->machine_count);
        plot_opts->title = title;
        plot_opts->x_name = sweep.axes[0].name;
      }
      if (!o.columns) result = EXIT_IO;
      else if (plot_out && predict_plot_open(&plot, plot_opts, err, sizeof err) != 0) {
        fprintf(stderr, "pamc predict: %s\n", err);
        result = EXIT_IO;
      } else {
        o.plot = plot_out ? &plot : NULL;
        PredictRefine refine = {.path = opts->files[0], .popts = popts, .sweep_prog = &prog,
                                .sweep = &sweep, .loop_limit = loop_limit, .budget = refine_points};
        refine.progress = isatty(fileno(stderr));
        int refining = sweep.axis_count > 0 && refine_points > 0;
        result = run_sweep(&prog, &r, &sweep, axis_decls, &o, refining ? &refine : NULL, &diags);
        if (o.plot && result != EXIT_OK) predict_plot_abort(o.plot);
        else if (o.plot) {
          if (predict_plot_finish(o.plot, err, sizeof err) != 0) {
            fprintf(stderr, "pamc predict: %s\n", err);
            result = EXIT_IO;
          }
        }
      }
      free(o.columns);
    }
    reduce_result_free(&r);
  }
  diag_print(&diags, stderr);
  predict_measured_free(&measured);
  program_free(&prog);
  diag_free(&diags);
  sweep_free(&sweep);
  free(plain);
  return result;
}

/* The value of --refine N: points of a sweep reduced at their own values, 0 .. 10^9 (text NULL:
** not given, *points unchanged). EXIT_OK, or EXIT_USAGE after saying what is wrong. */
static int refine_count(const char *text, long *points) {
  if (!text) return EXIT_OK;
  char *end;
  errno = 0;
  long value = strtol(text, &end, 10);
  if (!text[0] || *end || errno || value < 0 || value > 1000000000L) {
    fprintf(stderr, "pamc predict: --refine wants a whole number of points in 0 .. 10^9, not '%s'\n", text);
    return EXIT_USAGE;
  }
  *points = value;
  return EXIT_OK;
}

int cmd_predict(int argc, char **argv) {
  const char *plot_out = NULL, *plot_dir = NULL, *loop_text = NULL, *measured_path = NULL;
  const char *refine_text = NULL;
  long refine_points = PREDICT_REFINE_DEFAULT;
  RunsSelect select = {NULL, NULL};
  long loop_limit = 0;
  int logx = 0, logy = 0, linear = 0, speedup = 0;
  const CliExtra extras[] = {{"--plot", 1, &plot_out, NULL}, {"--loop-limit", 1, &loop_text, NULL},
                             {"--plot-data", 1, &plot_dir, NULL}, {"--logx", 0, NULL, &logx},
                             {"--logy", 0, NULL, &logy}, {"--linear", 0, NULL, &linear},
                             {"--measured", 1, &measured_path, NULL}, {"--region", 1, &select.region, NULL},
                             {"--metric", 1, &select.metric, NULL}, {"--speedup", 0, NULL, &speedup},
                             {"--refine", 1, &refine_text, NULL}};
  const CliSpec spec = {"predict", usage, extras, 11, 1, 1, 1};
  CliOptions opts;
  int status = cli_parse(&opts, &spec, argc, argv);
  if (status == EXIT_OK && !opts.help) status = cli_loop_limit("predict", loop_text, &loop_limit);
  if (status == EXIT_OK && !opts.help) status = refine_count(refine_text, &refine_points);
  if (status != EXIT_OK || opts.help) {
    cli_free(&opts);
    return status;
  }
  Format format = FORMAT_TABLE;
  if (opts.format) {
    if (!strcmp(opts.format, "table")) format = FORMAT_TABLE;
    else if (!strcmp(opts.format, "csv")) format = FORMAT_CSV;
    else if (!strcmp(opts.format, "json")) format = FORMAT_JSON;
    else status = usage_error("unknown format (table, csv, json):", opts.format);
  }
  if (status == EXIT_OK && plot_out && predict_plot_kind(plot_out) < 0)
    status = usage_error("--plot wants OUT.svg or OUT.png, not", plot_out);
  if (status == EXIT_OK && (select.region || select.metric) && !measured_path)
    status = usage_error("--region and --metric choose a series of", "--measured RUNS");
  if (status == EXIT_OK && !plot_out && (plot_dir || logx || logy || linear))
    status = usage_error("--plot-data, --logx, --logy and --linear go with", "--plot OUT");
  PredictPlotOptions plot_opts = {plot_out, plot_dir, NULL, NULL, PREDICT_PLOT_AUTO, PREDICT_PLOT_AUTO};
  if (linear) plot_opts.logx = plot_opts.logy = PREDICT_PLOT_LINEAR;
  if (logx) plot_opts.logx = PREDICT_PLOT_LOG;
  if (logy) plot_opts.logy = PREDICT_PLOT_LOG;
  CliOutput out;
  if (status == EXIT_OK) status = cli_output_begin(&out, "predict", opts.output);
  if (status == EXIT_OK)
    status = cli_output_end(&out, "predict", predict_file(&opts, format, &plot_opts, loop_limit, refine_points, speedup,
                                                          measured_path, &select));
  cli_free(&opts);
  return status;
}
