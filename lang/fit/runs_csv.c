/*
** runs_csv.c — measured runs as CSV (runs.h): a header naming the params and `time`, then one row
** per run; values are numbers, times may carry a unit (2.5ms); `#` starts a comment line. A
** missing time (an empty field, nan, NA) skips its row with a warning; a time that is negative or
** zero, or a param value that is missing, is an error at its line and column.
*/
#include "runs.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sweep.h"

/* Fields of one CSV line at most (the params and the time). */
#define RUNS_CSV_FIELDS (RUNS_MAX_COLUMNS + 1)
/* Longest field. */
#define RUNS_FIELD_MAX 256

/* One field of a line: its text (unquoted, trimmed) and its column. */
typedef struct CsvField {
  char text[RUNS_FIELD_MAX];       /* the field's text */
  int col;                         /* 1-based column of its first character */
} CsvField;

/* Splits line (length n) at commas outside double quotes. Returns the number of fields, or -1
** when there are too many or one is too long. */
static int split_fields(const char *line, size_t n, CsvField *fields) {
  int count = 0;
  size_t i = 0;
  for (;;) {
    if (count == RUNS_CSV_FIELDS) return -1;
    CsvField *f = &fields[count++];
    while (i < n && (line[i] == ' ' || line[i] == '\t')) i++;
    f->col = (int)i + 1;
    size_t used = 0;
    int quoted = i < n && line[i] == '"';
    if (quoted) i++;
    for (; i < n; i++) {
      if (quoted && line[i] == '"') {
        if (i + 1 < n && line[i + 1] == '"') i++;
        else { quoted = 0; continue; }
      } else if (!quoted && line[i] == ',') {
        break;
      }
      if (used + 1 >= RUNS_FIELD_MAX) return -1;
      f->text[used++] = line[i];
    }
    while (used > 0 && (f->text[used - 1] == ' ' || f->text[used - 1] == '\t' || f->text[used - 1] == '\r')) used--;
    f->text[used] = 0;
    if (i >= n) return count;
    i++;   /* the comma */
  }
}

static int is_name(const char *s) {
  if (!isalpha((unsigned char)s[0]) && s[0] != '_') return 0;
  for (const char *p = s; *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '_') return 0;
  return 1;
}

static int is_missing(const char *s) {
  return !s[0] || !strcmp(s, "nan") || !strcmp(s, "NaN") || !strcmp(s, "NA") || !strcmp(s, "-");
}

static SrcLoc at(const Runs *runs, int line, int col) {
  return (SrcLoc){runs->path, line, col, line, col};
}

/* header := name (',' name)*, exactly one of them `time`. Returns the time's field index, or -1
** with an error. */
static int read_header(Runs *runs, const CsvField *fields, int count, int line, DiagList *diags) {
  int time = -1;
  for (int i = 0; i < count; i++) {
    const char *name = fields[i].text;
    if (!is_name(name)) {
      diag_report(diags, DIAG_ERROR, at(runs, line, fields[i].col), "the header names the params "
                  "of the runs and `time`; '%s' is not a name", name);
      return -1;
    }
    if (!strcmp(name, "time")) {
      if (time >= 0) {
        diag_report(diags, DIAG_ERROR, at(runs, line, fields[i].col), "two `time` columns");
        return -1;
      }
      time = i;
      continue;
    }
    if (runs_column(runs, name) >= 0) {
      diag_report(diags, DIAG_ERROR, at(runs, line, fields[i].col), "column '%s' named twice", name);
      return -1;
    }
    if (runs_add_column(runs, name) != 0) {
      diag_report(diags, DIAG_ERROR, at(runs, line, fields[i].col), "more than %d params", RUNS_MAX_COLUMNS);
      return -1;
    }
  }
  if (time < 0)
    diag_report(diags, DIAG_ERROR, at(runs, line, 1), "the header has no `time` column (the "
                "measured time of each run, in seconds or with a unit)");
  return time;
}

/* One run. 0, or 1 with an error; a missing time is a warning and no row. */
static int read_row(Runs *runs, const CsvField *fields, int count, int time, int line, DiagList *diags) {
  if (count != runs->column_count + 1) {
    diag_report(diags, DIAG_ERROR, at(runs, line, 1), "%d fields, the header names %d", count,
                runs->column_count + 1);
    return 1;
  }
  double values[RUNS_MAX_COLUMNS];
  double t = NAN;
  for (int i = 0, c = 0; i < count; i++) {
    const CsvField *f = &fields[i];
    double v;
    if (i == time) {
      if (is_missing(f->text)) {
        diag_report(diags, DIAG_WARNING, at(runs, line, f->col), "missing time: the run is left out");
        return 0;
      }
      if (!sweep_parse_number(f->text, &v)) {
        diag_report(diags, DIAG_ERROR, at(runs, line, f->col), "time '%s' is not a number", f->text);
        return 1;
      }
      if (!(v > 0)) {
        diag_report(diags, DIAG_ERROR, at(runs, line, f->col), "time %s is %s: a measured time is "
                    "positive", f->text, v < 0 ? "negative" : "zero");
        return 1;
      }
      t = v;
      continue;
    }
    if (is_missing(f->text)) {
      diag_report(diags, DIAG_ERROR, at(runs, line, f->col), "missing value of '%s'", runs->names[c]);
      return 1;
    }
    if (!sweep_parse_number(f->text, &v)) {
      diag_report(diags, DIAG_ERROR, at(runs, line, f->col), "value '%s' of '%s' is not a number",
                  f->text, runs->names[c]);
      return 1;
    }
    values[c++] = v;
  }
  if (runs_add_row(runs, values, t, line) != 0) {
    diag_report(diags, DIAG_ERROR, at(runs, line, 1), "out of memory");
    return 1;
  }
  return 0;
}

int runs_read_csv(Runs *runs, const char *text, DiagList *diags) {
  CsvField local[RUNS_CSV_FIELDS];
  int line = 0, time = -1, errors = 0;
  for (const char *p = text; *p;) {
    const char *end = strchr(p, '\n');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    line++;
    const char *q = p;
    while (q < p + n && (*q == ' ' || *q == '\t' || *q == '\r')) q++;
    if (q < p + n && *q != '#') {
      int count = split_fields(p, n, local);
      if (count < 0) {
        diag_report(diags, DIAG_ERROR, at(runs, line, 1), "more than %d fields, or a field longer "
                    "than %d characters", RUNS_CSV_FIELDS, RUNS_FIELD_MAX - 1);
        return 1;
      }
      if (time < 0) {
        runs->header_line = line;
        time = read_header(runs, local, count, line, diags);
        if (time < 0) return 1;
      } else {
        errors += read_row(runs, local, count, time, line, diags);
        if (errors >= DIAG_MAX_ERRORS) return 1;
      }
    }
    if (!end) break;
    p = end + 1;
  }
  if (time < 0) {
    diag_report(diags, DIAG_ERROR, at(runs, line ? line : 1, 1), "no header line (params and `time`)");
    return 1;
  }
  return errors ? 1 : 0;
}
