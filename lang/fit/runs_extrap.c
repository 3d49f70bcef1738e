/*
** runs_extrap.c — measured runs in Extra-P's text input format (runs.h):
**   PARAMETER name...            (one or more lines: the params, in coordinate order)
**   POINTS (c1 c2 ...) ...       (one or more lines; with one param the parentheses are optional)
**   REGION callpath / METRIC m   (either order; each starts a new block of DATA lines)
**   DATA v1 v2 ...               (one line per point, in POINTS order: its repetitions)
** `#` starts a comment line. Values are taken as seconds. A file holding several regions or
** metrics is read for the one RunsSelect names; without a choice, one series must be alone.
*/
#include "runs.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Regions x metrics of one file at most. */
#define EXTRAP_MAX_SERIES 256
/* Points of one file at most. */
#define EXTRAP_MAX_POINTS 100000
/* Longest region or metric name kept. */
#define EXTRAP_NAME_MAX 256

/* A (region, metric) pair of the file. */
typedef struct ExtrapSeries {
  char region[EXTRAP_NAME_MAX];    /* REGION text ("" before any) */
  char metric[EXTRAP_NAME_MAX];    /* METRIC text ("" when none) */
} ExtrapSeries;

/* What the reader holds while it walks the file. */
typedef struct ExtrapReader {
  Runs *runs;                      /* the runs being read */
  DiagList *diags;                 /* errors */
  const RunsSelect *select;        /* which series to keep */
  double *points;                  /* coordinates, column_count per point (malloc'd) */
  int point_count;                 /* points read */
  ExtrapSeries *series;            /* every series seen (malloc'd) */
  int series_count;                /* length of series */
  char region[EXTRAP_NAME_MAX];    /* the current REGION */
  char metric[EXTRAP_NAME_MAX];    /* the current METRIC */
  int block_line;                  /* line of the REGION/METRIC starting the block */
  int data_count;                  /* DATA lines in the current block */
  int kept;                        /* the current block belongs to the selected series */
  int line;                        /* current line */
} ExtrapReader;

static int fail(ExtrapReader *r, int col, const char *message, const char *what) {
  diag_report(r->diags, DIAG_ERROR, (SrcLoc){r->runs->path, r->line, col, r->line, col}, "%s%s",
              message, what ? what : "");
  return 1;
}

static const char *skip_space(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
  return p;
}

/* A number at *p (Extra-P: [-+] digits [. digits], exponents accepted too). 1 on success. */
static int number_at(const char **p, const char *end, double *out) {
  char buf[64];
  size_t n = 0;
  const char *q = *p;
  while (q < end && n + 1 < sizeof buf && (isdigit((unsigned char)*q) || strchr("+-.eE", *q))) buf[n++] = *q++;
  buf[n] = 0;
  char *stop;
  double v = strtod(buf, &stop);
  if (!n || *stop || !isfinite(v)) return 0;
  *out = v;
  *p = q;
  return 1;
}

/* PARAMETER name... */
static int read_parameters(ExtrapReader *r, const char *p, const char *end, const char *line) {
  if (r->point_count > 0) return fail(r, 1, "PARAMETER after POINTS", NULL);
  if (!r->runs->header_line) r->runs->header_line = r->line;
  for (p = skip_space(p, end); p < end; p = skip_space(p, end)) {
    char name[EXTRAP_NAME_MAX];
    size_t n = 0;
    int col = (int)(p - line) + 1;
    while (p < end && !isspace((unsigned char)*p) && n + 1 < sizeof name) name[n++] = *p++;
    name[n] = 0;
    if (runs_column(r->runs, name) >= 0) return fail(r, col, "parameter named twice: ", name);
    if (runs_add_column(r->runs, name) != 0) return fail(r, col, "too many parameters", NULL);
  }
  if (r->runs->column_count == 0) return fail(r, 1, "PARAMETER names no parameter", NULL);
  return 0;
}

/* coordinate := ['('] number [')'] */
static int read_coordinate(ExtrapReader *r, const char **p, const char *end, const char *line, double *out) {
  const char *q = skip_space(*p, end);
  int paren = q < end && *q == '(';
  if (paren) q = skip_space(q + 1, end);
  if (!number_at(&q, end, out)) return fail(r, (int)(q - line) + 1, "expected a coordinate", NULL);
  q = skip_space(q, end);
  if (paren) {
    if (q >= end || *q != ')') return fail(r, (int)(q - line) + 1, "expected ')'", NULL);
    q++;
  }
  *p = q;
  return 0;
}

/* POINTS point...; point := '(' coordinate+ ')' | number (one parameter) */
static int read_points(ExtrapReader *r, const char *p, const char *end, const char *line) {
  int dims = r->runs->column_count;
  if (dims == 0) return fail(r, 1, "POINTS before PARAMETER", NULL);
  for (p = skip_space(p, end); p < end; p = skip_space(p, end)) {
    if (r->point_count >= EXTRAP_MAX_POINTS) return fail(r, 1, "too many points", NULL);
    double *coords = realloc(r->points, (size_t)(r->point_count + 1) * (size_t)dims * sizeof *coords);
    if (!coords) return fail(r, 1, "out of memory", NULL);
    r->points = coords;
    coords += (size_t)r->point_count * (size_t)dims;
    int col = (int)(p - line) + 1;
    if (*p != '(') {
      if (dims != 1) return fail(r, col, "a point of several parameters is written (c1 c2 ...)", NULL);
      if (read_coordinate(r, &p, end, line, coords)) return 1;
    } else {
      const char *q = skip_space(p + 1, end);
      int n = 0;
      /* a one-parameter point written "(4)" is a coordinate in parentheses */
      while (q < end && *q != ')') {
        if (n == dims) return fail(r, col, "a point with more coordinates than parameters", NULL);
        if (read_coordinate(r, &q, end, line, &coords[n++])) return 1;
        q = skip_space(q, end);
      }
      if (q >= end) return fail(r, (int)(q - line) + 1, "expected ')' closing the point", NULL);
      if (n != dims) return fail(r, col, "a point with fewer coordinates than parameters", NULL);
      p = q + 1;
    }
    r->point_count++;
  }
  return 0;
}

/* The rest of the line after a keyword, trimmed, into out. */
static void rest_of_line(const char *p, const char *end, char *out) {
  p = skip_space(p, end);
  while (end > p && isspace((unsigned char)end[-1])) end--;
  size_t n = (size_t)(end - p) < EXTRAP_NAME_MAX - 1 ? (size_t)(end - p) : EXTRAP_NAME_MAX - 1;
  memcpy(out, p, n);
  out[n] = 0;
}

/* Closes the current block: it must have one DATA line per point. */
static int end_block(ExtrapReader *r) {
  if (r->data_count == 0 || r->data_count == r->point_count) return 0;
  int line = r->line;
  r->line = r->block_line;
  fail(r, 1, "the number of DATA lines of this block differs from the number of POINTS", NULL);
  r->line = line;
  return 1;
}

/* A REGION or METRIC line starts a block: the DATA lines that follow (none when the other
** keyword follows at once) belong to the current region and metric. */
static void start_block(ExtrapReader *r) {
  r->block_line = r->line;
  r->data_count = 0;
  r->kept = (!r->select || !r->select->region || !strcmp(r->select->region, r->region)) &&
            (!r->select || !r->select->metric || !strcmp(r->select->metric, r->metric));
}

/* Registers the series of the current block (at its first DATA line). */
static int add_series(ExtrapReader *r) {
  for (int i = 0; i < r->series_count; i++)
    if (!strcmp(r->series[i].region, r->region) && !strcmp(r->series[i].metric, r->metric))
      return fail(r, 1, "a second block of the same REGION and METRIC", NULL);
  if (r->series_count >= EXTRAP_MAX_SERIES) return fail(r, 1, "too many regions and metrics", NULL);
  ExtrapSeries *s = &r->series[r->series_count++];
  strcpy(s->region, r->region);
  strcpy(s->metric, r->metric);
  return 0;
}

/* DATA value...: the repetitions of the next point of the block. */
static int read_data(ExtrapReader *r, const char *p, const char *end, const char *line) {
  if (r->block_line == 0) return fail(r, 1, "DATA before REGION", NULL);
  if (r->data_count >= r->point_count) return fail(r, 1, "more DATA lines than POINTS", NULL);
  if (r->data_count == 0 && add_series(r)) return 1;
  const double *coords = r->points + (size_t)r->data_count * (size_t)r->runs->column_count;
  r->data_count++;
  int values = 0;
  for (p = skip_space(p, end); p < end; p = skip_space(p, end)) {
    int col = (int)(p - line) + 1;
    double v;
    if (!number_at(&p, end, &v)) return fail(r, col, "expected a measured value", NULL);
    if (!(v > 0)) return fail(r, col, v < 0 ? "a negative time" : "a time of zero", ": a measured time is positive");
    values++;
    if (r->kept && runs_add_row(r->runs, coords, v, r->line) != 0) return fail(r, col, "out of memory", NULL);
  }
  if (!values) return fail(r, 1, "DATA without values", NULL);
  return 0;
}

/* One line by its keyword. */
static int read_line(ExtrapReader *r, const char *line, const char *end) {
  static const char *const keywords[] = {"PARAMETER", "POINTS", "REGION", "METRIC", "DATA"};
  const char *p = skip_space(line, end);
  if (p == end || *p == '#') return 0;
  for (int k = 0; k < 5; k++) {
    size_t n = strlen(keywords[k]);
    if ((size_t)(end - p) < n || strncmp(p, keywords[k], n) || (p + n < end && !isspace((unsigned char)p[n])))
      continue;
    const char *rest = p + n;
    switch (k) {
    case 0: return read_parameters(r, rest, end, line);
    case 1: return read_points(r, rest, end, line);
    case 2:
    case 3:
      if (r->point_count == 0) return fail(r, 1, keywords[k], " before POINTS");
      if (end_block(r)) return 1;
      rest_of_line(rest, end, k == 2 ? r->region : r->metric);
      start_block(r);
      return 0;
    default: return read_data(r, rest, end, line);
    }
  }
  return fail(r, (int)(p - line) + 1, "expected PARAMETER, POINTS, REGION, METRIC or DATA", NULL);
}

/* The series kept: exactly one must match the selection. */
static int check_selection(ExtrapReader *r) {
  int matching = 0;
  for (int i = 0; i < r->series_count; i++)
    matching += (!r->select || !r->select->region || !strcmp(r->select->region, r->series[i].region)) &&
                (!r->select || !r->select->metric || !strcmp(r->select->metric, r->series[i].metric));
  if (matching == 1) return 0;
  char list[1024];
  size_t used = 0;
  list[0] = 0;
  for (int i = 0; i < r->series_count && used < sizeof list; i++) {
    int n = snprintf(list + used, sizeof list - used, "%sREGION '%s' METRIC '%s'", i ? ", " : "",
                     r->series[i].region, r->series[i].metric);
    if (n > 0) used += (size_t)n;
  }
  diag_report(r->diags, DIAG_ERROR, (SrcLoc){r->runs->path, 1, 1, 1, 1}, "%s: %s (choose with "
              "--region and --metric)", matching ? "several series match" : "no series matches", list);
  return 1;
}

int runs_read_extrap(Runs *runs, const char *text, const RunsSelect *select, DiagList *diags) {
  ExtrapReader r;
  memset(&r, 0, sizeof r);
  r.runs = runs;
  r.diags = diags;
  r.select = select;
  r.series = malloc(EXTRAP_MAX_SERIES * sizeof *r.series);
  int status = r.series ? 0 : fail(&r, 1, "out of memory", NULL);
  for (const char *p = text; *p && !status;) {
    const char *end = strchr(p, '\n');
    if (!end) end = p + strlen(p);
    r.line++;
    status = read_line(&r, p, end);
    p = *end ? end + 1 : end;
  }
  if (!status) status = end_block(&r);
  if (!status && r.series_count == 0) status = fail(&r, 1, "no REGION with DATA", NULL);
  if (!status) status = check_selection(&r);
  free(r.points);
  free(r.series);
  return status;
}
