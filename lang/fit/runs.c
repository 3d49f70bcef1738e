/*
** runs.c — the measured runs (runs.h): columns and rows, reading a file in either format, and the
** grouping of rows into configurations with their statistics.
*/
#include "runs.h"

#include "parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void runs_init(Runs *runs, const char *path) {
  memset(runs, 0, sizeof *runs);
  runs->path = path;
}

static void free_configs(Runs *runs) {
  for (int i = 0; i < runs->config_count; i++) free(runs->configs[i].times);
  free(runs->configs);
  runs->configs = NULL;
  runs->config_count = 0;
}

void runs_free(Runs *runs) {
  for (int i = 0; i < runs->column_count; i++) free(runs->names[i]);
  free(runs->rows);
  free_configs(runs);
  memset(runs, 0, sizeof *runs);
}

int runs_add_column(Runs *runs, const char *name) {
  if (runs->column_count >= RUNS_MAX_COLUMNS) return -1;
  char *copy = malloc(strlen(name) + 1);
  if (!copy) return -1;
  strcpy(copy, name);
  runs->used[runs->column_count] = 1;
  runs->names[runs->column_count++] = copy;
  return 0;
}

int runs_add_row(Runs *runs, const double *values, double time, int line) {
  /* capacity doubles at powers of two */
  long n = runs->row_count;
  if (n == 0 || (n & (n - 1)) == 0) {
    RunsRow *bigger = realloc(runs->rows, (size_t)(n ? 2 * n : 1) * sizeof *bigger);
    if (!bigger) return -1;
    runs->rows = bigger;
  }
  RunsRow *row = &runs->rows[runs->row_count++];
  memset(row, 0, sizeof *row);
  memcpy(row->values, values, (size_t)runs->column_count * sizeof *values);
  row->time = time;
  row->line = line;
  return 0;
}

int runs_column(const Runs *runs, const char *name) {
  for (int i = 0; i < runs->column_count; i++)
    if (!strcmp(runs->names[i], name)) return i;
  return -1;
}

double runs_median(const double *sorted, int n) {
  if (n <= 0) return NAN;
  return n % 2 ? sorted[n / 2] : sorted[n / 2 - 1] + (sorted[n / 2] - sorted[n / 2 - 1]) / 2;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int same_config(const Runs *runs, const double *a, const double *b) {
  for (int c = 0; c < runs->column_count; c++)
    if (runs->used[c] && a[c] != b[c]) return 0;
  return 1;
}

/* Median, min, max, mean and sample standard deviation of a configuration's sorted times. */
static void config_stats(RunsConfig *c) {
  qsort(c->times, (size_t)c->count, sizeof *c->times, compare_doubles);
  c->min = c->times[0];
  c->max = c->times[c->count - 1];
  c->median = runs_median(c->times, c->count);
  double sum = 0, squares = 0;
  for (int i = 0; i < c->count; i++) sum += c->times[i];
  c->mean = sum / c->count;
  for (int i = 0; i < c->count; i++) squares += (c->times[i] - c->mean) * (c->times[i] - c->mean);
  c->sd = c->count > 1 ? sqrt(squares / (c->count - 1)) : 0;
}

int runs_group(Runs *runs) {
  free_configs(runs);
  int *of_row = malloc((size_t)(runs->row_count + 1) * sizeof *of_row);
  runs->configs = calloc((size_t)runs->row_count + 1, sizeof *runs->configs);
  if (!of_row || !runs->configs) {
    free(of_row);
    return -1;
  }
  /* quadratic in the configurations: measured sets hold tens to hundreds of them */
  for (long r = 0; r < runs->row_count; r++) {
    int k = 0;
    while (k < runs->config_count && !same_config(runs, runs->configs[k].values, runs->rows[r].values)) k++;
    if (k == runs->config_count) {
      RunsConfig *c = &runs->configs[runs->config_count++];
      memcpy(c->values, runs->rows[r].values, sizeof c->values);
      c->line = runs->rows[r].line;
    }
    runs->configs[k].count++;
    of_row[r] = k;
  }
  int failed = 0;
  for (int k = 0; k < runs->config_count; k++) {
    runs->configs[k].times = malloc((size_t)runs->configs[k].count * sizeof(double));
    failed |= !runs->configs[k].times;
    runs->configs[k].count = 0;
  }
  for (long r = 0; r < runs->row_count && !failed; r++) {
    RunsConfig *c = &runs->configs[of_row[r]];
    c->times[c->count++] = runs->rows[r].time;
  }
  for (int k = 0; k < runs->config_count && !failed; k++) config_stats(&runs->configs[k]);
  free(of_row);
  return failed ? -1 : 0;
}

int runs_match_program(Runs *runs, const Program *prog, DiagList *diags) {
  int used = 0;
  char names[512] = "";
  SrcLoc header = {runs->path, runs->header_line, 1, runs->header_line, 1};
  for (int i = 0; i < runs->column_count; i++) {
    const Decl *d = program_lookup(prog, runs->names[i]);
    runs->used[i] = d && d->kind == DECL_PARAM;
    used += runs->used[i];
    size_t n = strlen(names);
    snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "", runs->names[i]);
    if (!runs->used[i])
      diag_report(diags, DIAG_WARNING, header, "column '%s' is not a param of the model%s: ignored "
                  "(its runs count as repetitions of the others)", runs->names[i],
                  d && d->kind == DECL_CONST ? " (a const; runs set params)" : "");
  }
  if (!used) {
    diag_report(diags, DIAG_ERROR, header, "the runs name no param of the model (columns: %s%s"
                "time): name the params the runs were made with", names, names[0] ? ", " : "");
    return 1;
  }
  if (runs_group(runs) != 0) {
    diag_report(diags, DIAG_ERROR, header, "out of memory");
    return 1;
  }
  return 0;
}

void runs_config_text(const Runs *runs, const RunsConfig *c, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = 0;
  for (int i = 0; i < runs->column_count && used < size; i++) {
    if (!runs->used[i]) continue;
    int n = snprintf(buf + used, size - used, "%s%s=%.15g", used ? ", " : "", runs->names[i], c->values[i]);
    if (n < 0) break;
    used += (size_t)n;
  }
}

/* The whole file, NUL-terminated (malloc'd); NULL with an error in diags. */
static char *read_text(const char *path, DiagList *diags) {
  size_t length = 0;
  char *text = parse_read_file(diags, path, &length);
  if (!text) return NULL;
  char *terminated = realloc(text, length + 1);
  if (!terminated) {
    free(text);
    diag_report(diags, DIAG_ERROR, (SrcLoc){0}, "cannot read '%s': out of memory", path);
    return NULL;
  }
  terminated[length] = 0;
  if (memchr(terminated, 0, length)) {
    free(terminated);
    diag_report(diags, DIAG_ERROR, (SrcLoc){path, 1, 1, 1, 1}, "a binary file, not measured runs");
    return NULL;
  }
  return terminated;
}

/* 1 when the first line that is neither blank nor a comment starts with PARAMETER. */
static int is_extrap(const char *text) {
  const char *p = text;
  while (*p) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    if (*p != '#') break;
    while (*p && *p != '\n') p++;
  }
  return !strncmp(p, "PARAMETER", 9) && (p[9] == ' ' || p[9] == '\t');
}

int runs_read(Runs *runs, const RunsSelect *select, DiagList *diags) {
  char *text = read_text(runs->path, diags);
  if (!text) return 3;
  int status = is_extrap(text) ? runs_read_extrap(runs, text, select, diags)
                               : runs_read_csv(runs, text, diags);
  free(text);
  if (status == 0 && runs->row_count == 0) {
    diag_report(diags, DIAG_ERROR, (SrcLoc){runs->path, 1, 1, 1, 1}, "no runs in the file");
    status = 1;
  }
  return status;
}
