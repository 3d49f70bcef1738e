/*
** sweep.c — parsing of predict's sweep values and the odometer that walks their cartesian
** product (sweep.h).
*/
#include "sweep.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest number text accepted (with unit and separators). */
#define SWEEP_NUMBER_SIZE 64

int sweep_is_sweep(const char *value) {
  if (strstr(value, "..")) return 1;
  int depth = 0;
  for (const char *p = value; *p; p++) {
    if (*p == '[' || *p == '(') depth++;
    else if (*p == ']' || *p == ')') depth--;
    else if (*p == ',' && depth == 0) return 1;
  }
  return 0;
}

int sweep_parse_number(const char *text, double *out) {
  static const struct { const char *unit; double scale; } units[] = {
    {"", 1}, {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}};
  char buf[SWEEP_NUMBER_SIZE];
  int n = 0;
  while (*text == ' ') text++;
  for (const char *p = text; *p; p++) {
    if (*p == '_') continue;
    if (n + 1 >= SWEEP_NUMBER_SIZE) return 0;
    buf[n++] = *p;
  }
  while (n > 0 && buf[n - 1] == ' ') n--;
  buf[n] = 0;
  if (!n || buf[0] == '+') return 0;
  char *end;
  errno = 0;
  double v = strtod(buf, &end);
  if (end == buf || errno || !isfinite(v)) return 0;
  if (v >= 9007199254740992.0 && !strpbrk(buf, ".eE")) {   /* a whole number a double rounds */
    char exact[400];
    snprintf(exact, sizeof exact, "%.0f", v);
    const char *written = buf;
    while (written[0] == '0' && written[1] >= '0' && written[1] <= '9') written++;
    if (strncmp(exact, written, (size_t)(end - written)) != 0 || exact[end - written]) return 0;
  }
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
    if (!strcmp(end, units[i].unit)) {
      *out = v * units[i].scale;
      return 1;
    }
  return 0;
}

void sweep_init(Sweep *sweep) {
  memset(sweep, 0, sizeof *sweep);
}

void sweep_free(Sweep *sweep) {
  for (int a = 0; a < sweep->axis_count; a++) free(sweep->axes[a].values);
  sweep_init(sweep);
}

static int bad(char *message, int size, const char *raw, const char *why) {
  snprintf(message, (size_t)size, "-D %s: %s", raw, why);
  return -1;
}

/* list := number (',' number)* */
static int parse_list(SweepAxis *axis, const char *value, char *message, int size) {
  long count = 1;
  for (const char *p = value; *p; p++) count += *p == ',';
  axis->values = malloc((size_t)count * sizeof *axis->values);
  if (!axis->values) return bad(message, size, axis->raw, "out of memory");
  const char *p = value;
  for (long i = 0; i < count; i++) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    char buf[SWEEP_NUMBER_SIZE];
    if (len >= sizeof buf || !len) return bad(message, size, axis->raw, "empty or too long value in the list");
    memcpy(buf, p, len);
    buf[len] = 0;
    if (!sweep_parse_number(buf, &axis->values[i]))
      return bad(message, size, axis->raw, "a list value is not a number (A,B,C)");
    p = comma ? comma + 1 : p + len;
  }
  axis->kind = SWEEP_LIST;
  axis->count = count;
  axis->start = axis->values[0];
  axis->stop = axis->values[count - 1];
  axis->by = 1;
  return 0;
}

/* range := number '..' number [':' ('*' | '+') number] */
static int parse_range(SweepAxis *axis, const char *value, char *message, int size) {
  const char *dots = strstr(value, "..");
  char a[SWEEP_NUMBER_SIZE], b[SWEEP_NUMBER_SIZE], k[SWEEP_NUMBER_SIZE];
  size_t alen = (size_t)(dots - value);
  const char *rest = dots + 2;
  const char *colon = strchr(rest, ':');
  size_t blen = colon ? (size_t)(colon - rest) : strlen(rest);
  if (alen >= sizeof a || blen >= sizeof b) return bad(message, size, axis->raw, "value too long");
  memcpy(a, value, alen);
  a[alen] = 0;
  memcpy(b, rest, blen);
  b[blen] = 0;
  if (!sweep_parse_number(a, &axis->start) || !sweep_parse_number(b, &axis->stop))
    return bad(message, size, axis->raw, "a sweep is A..B, A..B:*K or A..B:+K with numbers A, B, K");
  if (axis->stop < axis->start) return bad(message, size, axis->raw, "empty sweep: B < A in A..B");
  axis->kind = SWEEP_RANGE;
  axis->by = 1;
  double count;
  if (colon) {
    char op = colon[1];
    if ((op != '*' && op != '+') || strlen(colon + 2) >= sizeof k)
      return bad(message, size, axis->raw, "after A..B comes :*K (geometric) or :+K (step)");
    strcpy(k, colon + 2);
    if (!sweep_parse_number(k, &axis->by))
      return bad(message, size, axis->raw, "K of A..B:*K or A..B:+K is not a number");
    if (op == '*') {
      if (!(axis->by > 1) || !(axis->start > 0))
        return bad(message, size, axis->raw, "a geometric sweep A..B:*K needs A > 0 and K > 1");
      axis->kind = SWEEP_GEOMETRIC;
      count = 0;
      for (double v = axis->start; v <= axis->stop * (1 + 1e-12) && count <= SWEEP_MAX_VALUES; v *= axis->by)
        count++;
    } else {
      if (!(axis->by > 0)) return bad(message, size, axis->raw, "the step K of A..B:+K must be > 0");
      axis->kind = SWEEP_STEP;
      count = floor((axis->stop - axis->start) / axis->by * (1 + 1e-12)) + 1;
    }
  } else {
    count = floor(axis->stop - axis->start) + 1;
  }
  if (count > SWEEP_MAX_VALUES) return bad(message, size, axis->raw, "more than 10^9 values");
  axis->count = (long)count;
  return 0;
}

int sweep_add(Sweep *sweep, const char *name, const char *value, const char *raw,
              char *message, int message_size) {
  if (sweep->axis_count >= SWEEP_MAX_AXES)
    return bad(message, message_size, raw, "too many swept names (at most 16)");
  SweepAxis *axis = &sweep->axes[sweep->axis_count];
  memset(axis, 0, sizeof *axis);
  axis->name = name;
  axis->raw = raw;
  int status = strstr(value, "..") ? parse_range(axis, value, message, message_size)
                                   : parse_list(axis, value, message, message_size);
  if (status != 0) {
    free(axis->values);
    axis->values = NULL;
    return -1;
  }
  sweep->axis_count++;
  return 0;
}

long sweep_points(const Sweep *sweep) {
  long total = 1;
  for (int a = 0; a < sweep->axis_count; a++) {
    if (total > LONG_MAX / sweep->axes[a].count) return LONG_MAX;
    total *= sweep->axes[a].count;
  }
  return total;
}

double sweep_axis_value(const SweepAxis *axis, long index) {
  switch (axis->kind) {
  case SWEEP_LIST: return axis->values[index];
  case SWEEP_GEOMETRIC: return axis->start * pow(axis->by, (double)index);
  case SWEEP_STEP: return axis->start + (double)index * axis->by;
  default: return axis->start + (double)index;
  }
}

void sweep_rewind(Sweep *sweep) {
  memset(sweep->pos, 0, sizeof sweep->pos);
  sweep->started = 0;
}

int sweep_next(Sweep *sweep, double *values) {
  if (!sweep->started) {
    sweep->started = 1;
    memset(sweep->pos, 0, sizeof sweep->pos);
  } else {
    int a = sweep->axis_count - 1;
    for (; a >= 0; a--) {
      if (++sweep->pos[a] < sweep->axes[a].count) break;
      sweep->pos[a] = 0;
    }
    if (a < 0) return 0;
  }
  for (int a = 0; a < sweep->axis_count; a++)
    values[a] = sweep_axis_value(&sweep->axes[a], sweep->pos[a]);
  return 1;
}
