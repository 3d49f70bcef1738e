/*
** runs.h — measured runs of a program (`pamc fit RUNS`, `pamc predict --measured RUNS`): one row
** per run, the params of the run and its time, read from CSV (a header naming the params and
** `time`) or from Extra-P's text format (PARAMETER / POINTS / REGION / METRIC / DATA lines);
** rows with the same params are repetitions of one configuration, summarised by their median,
** minimum, maximum and spread.
*/
#ifndef PAMC_RUNS_H
#define PAMC_RUNS_H

#include "diag.h"
#include "program.h"

/* Columns (params) of a runs file at most (as many as predict sweeps at once). */
#define RUNS_MAX_COLUMNS 16
/* Longest line of a runs file (an Extra-P POINTS line lists every point). */
#define RUNS_LINE_MAX 65536

/* One measured run. */
typedef struct RunsRow {
  double values[RUNS_MAX_COLUMNS]; /* the params of the run, by column */
  double time;                     /* seconds */
  int line;                        /* line in the file (for messages) */
} RunsRow;

/* The runs of one configuration (same values in every used column). */
typedef struct RunsConfig {
  double values[RUNS_MAX_COLUMNS]; /* by column (unused columns: the first row's value) */
  double *times;                   /* the runs' times, sorted ascending (malloc'd) */
  int count;                       /* length of times, >= 1 */
  double median, min, max;         /* of times */
  double mean, sd;                 /* of times; sd 0 with one run */
  int line;                        /* line of its first run */
} RunsConfig;

typedef struct Runs {
  const char *path;                /* the file as given (caller's storage) */
  char *names[RUNS_MAX_COLUMNS];   /* column names, the time column excluded (malloc'd) */
  int column_count;                /* length of names */
  int used[RUNS_MAX_COLUMNS];      /* 1: the column is a param of the model (runs_group) */
  RunsRow *rows;                   /* in file order (malloc'd) */
  long row_count;                  /* length of rows */
  RunsConfig *configs;             /* after runs_group: in order of first appearance */
  int config_count;                /* length of configs */
  int header_line;                 /* line naming the columns (CSV header, PARAMETER) */
} Runs;

/* Which series of an Extra-P file to read (NULL: the only one; several: an error names them). */
typedef struct RunsSelect {
  const char *region;              /* REGION name, or NULL */
  const char *metric;              /* METRIC name, or NULL */
} RunsSelect;

void runs_init(Runs *runs, const char *path);
void runs_free(Runs *runs);

/* Reads path (CSV, or Extra-P text when its first line that is not a comment starts with
** PARAMETER). Returns 0, 1 with errors (path:line:col) in diags for a malformed file, 3 when it
** cannot be read. Every column starts used. */
int runs_read(Runs *runs, const RunsSelect *select, DiagList *diags);
/* Readers behind runs_read, on the file's text. */
int runs_read_csv(Runs *runs, const char *text, DiagList *diags);
int runs_read_extrap(Runs *runs, const char *text, const RunsSelect *select, DiagList *diags);

/* Adds a column (a name) or a run (values by column); -1 when full or out of memory. */
int runs_add_column(Runs *runs, const char *name);
int runs_add_row(Runs *runs, const double *values, double time, int line);

/* Groups the rows into configurations by the used columns and computes their statistics.
** Returns 0, or -1 when out of memory. */
int runs_group(Runs *runs);

/* Marks the columns that are params of prog as used (a warning for each other column: ignored),
** then groups. Returns 0, or 1 with an error when no column is a param of prog (or out of memory). */
int runs_match_program(Runs *runs, const Program *prog, DiagList *diags);

/* The column named name, or -1. */
int runs_column(const Runs *runs, const char *name);

/* "P=4, N=1000" (the used columns) for messages and tables. */
void runs_config_text(const Runs *runs, const RunsConfig *c, char *buf, size_t size);

/* Median of n sorted values. */
double runs_median(const double *sorted, int n);

#endif
