/*
** machine_file.c — outward-rounded number formatting and the machine file's text.
*/
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "atomic_file.h"
#include "machine_file.h"

/* Significant digits of %.*e that make it exact: a double has at most 767 of them. */
#define EXACT_DIGITS 800
/* Beyond this many zeros a number is written with an exponent instead (1.2345e-40). */
#define EXPONENT_BEYOND 24

void cal_format_scaled(double v, int unit_exp, int round_up, char *buf, size_t size) {
  if (v == 0 || !isfinite(v)) {
    snprintf(buf, size, "%s", v == 0 ? "0" : "nan");
    return;
  }
  int negative = v < 0;
  if (negative) round_up = !round_up;   /* floor(-a) = -ceil(a) */
  static const int S = CAL_SIG_DIGITS;
  char exact[EXACT_DIGITS + 32];
  snprintf(exact, sizeof exact, "%.*e", EXACT_DIGITS, fabs(v));   /* d.ddd...e+XX, exact */
  char *e = strchr(exact, 'e');
  int exp10 = atoi(e + 1) + unit_exp;   /* value in the unit = d.ddd x 10^exp10 */
  char digits[CAL_SIG_DIGITS + 1];
  digits[0] = exact[0];
  for (int i = 1; i < S; i++) digits[i] = exact[1 + i];
  digits[S] = 0;
  int rest_nonzero = 0;
  for (const char *p = exact + 1 + S; p < e; p++) rest_nonzero |= *p != '0';
  if (round_up && rest_nonzero) {
    int i = S - 1;
    while (i >= 0 && digits[i] == '9') digits[i--] = '0';
    if (i >= 0) digits[i]++;
    else {                      /* 99999 -> 100000: one more digit, keep S of them */
      digits[0] = '1';
      exp10++;
    }
  }
  /* value = digits (an S-digit integer) x 10^point */
  int point = exp10 - (S - 1);
  if (point > EXPONENT_BEYOND || point < -EXPONENT_BEYOND) {   /* d.dddde-40: exact, shorter */
    snprintf(buf, size, "%s%c.%se%d", negative ? "-" : "", digits[0], digits + 1, exp10);
    return;
  }
  char text[CAL_NUMBER_MAX * 8];
  size_t n = 0;
  if (negative) text[n++] = '-';
  if (point >= 0) {
    memcpy(text + n, digits, (size_t)S);
    n += (size_t)S;
    for (int i = 0; i < point; i++) text[n++] = '0';
  } else {
    int int_digits = S + point;         /* digits before the decimal point */
    if (int_digits <= 0) {
      text[n++] = '0';
      text[n++] = '.';
      for (int i = 0; i < -int_digits; i++) text[n++] = '0';
      memcpy(text + n, digits, (size_t)S);
      n += (size_t)S;
    } else {
      memcpy(text + n, digits, (size_t)int_digits);
      n += (size_t)int_digits;
      text[n++] = '.';
      memcpy(text + n, digits + int_digits, (size_t)(S - int_digits));
      n += (size_t)(S - int_digits);
    }
    while (text[n - 1] == '0') n--;     /* trailing zeros of the fraction */
    if (text[n - 1] == '.') n--;
  }
  text[n] = 0;
  snprintf(buf, size, "%s", text);
}

int cal_unit_for(double lo, double hi, int per_byte, const char **unit) {
  double m = fmax(fabs(lo), fabs(hi));
  if (per_byte || m < 1e-6) { *unit = "ns"; return 9; }
  if (m < 1e-3) { *unit = "us"; return 6; }
  if (m < 1) { *unit = "ms"; return 3; }
  *unit = "s";
  return 0;
}

void cal_format_interval(double lo, double hi, int per_byte, char *buf, size_t size) {
  cal_format_typed(lo, hi, NAN, per_byte, 0, buf, size);
}

void cal_format_typed(double lo, double hi, double typ, int per_byte, int unitless, char *buf,
                      size_t size) {
  const char *unit = "";
  int unit_exp = unitless ? 0 : cal_unit_for(lo, hi, per_byte, &unit);
  char lo_text[CAL_NUMBER_MAX * 8], hi_text[CAL_NUMBER_MAX * 8], typ_text[CAL_NUMBER_MAX * 8];
  cal_format_scaled(lo, unit_exp, 0, lo_text, sizeof lo_text);
  cal_format_scaled(hi, unit_exp, 1, hi_text, sizeof hi_text);
  if (isnan(typ)) {
    snprintf(buf, size, "[%s%s, %s%s]", lo_text, unit, hi_text, unit);
    return;
  }
  cal_format_scaled(fmin(fmax(typ, lo), hi), unit_exp, 0, typ_text, sizeof typ_text);
  snprintf(buf, size, "[%s%s, %s%s] typ %s%s", lo_text, unit, hi_text, unit, typ_text, unit);
}

static int add_const(CalMachine *m, const char *name, double lo, double hi, double typ,
                     int per_byte, int unitless, const char *comment, CalError *err) {
  if (m->decl_count == CAL_MAX_DECLS) return cal_fail(err, "more than %d declarations", CAL_MAX_DECLS);
  CalDecl *d = &m->decls[m->decl_count++];
  memset(d, 0, sizeof *d);
  d->kind = CAL_DECL_CONST;
  snprintf(d->name, sizeof d->name, "%s", name);
  d->lo = lo;
  d->hi = hi;
  d->typ = typ;
  d->per_byte = per_byte;
  d->unitless = unitless;
  snprintf(d->text, sizeof d->text, "%s", comment ? comment : "");
  return 0;
}

int cal_machine_const(CalMachine *m, const char *name, double lo, double hi, int per_byte,
                      const char *comment, CalError *err) {
  return add_const(m, name, lo, hi, NAN, per_byte, 0, comment, err);
}

int cal_machine_const_typ(CalMachine *m, const char *name, double lo, double hi, double typ,
                          int per_byte, const char *comment, CalError *err) {
  return add_const(m, name, lo, hi, typ, per_byte, 0, comment, err);
}

int cal_machine_ratio(CalMachine *m, const char *name, double lo, double hi, double typ,
                      const char *comment, CalError *err) {
  return add_const(m, name, lo, hi, typ, 0, 1, comment, err);
}

int cal_machine_text(CalMachine *m, const char *text, CalError *err) {
  if (m->decl_count == CAL_MAX_DECLS) return cal_fail(err, "more than %d declarations", CAL_MAX_DECLS);
  CalDecl *d = &m->decls[m->decl_count++];
  memset(d, 0, sizeof *d);
  d->kind = CAL_DECL_TEXT;
  snprintf(d->text, sizeof d->text, "%s", text);
  return 0;
}

int cal_machine_interp_names(CalMachine *m, const char *head, const char *arg,
                             const char *const *names, const double *xs, int n, const char *tail,
                             CalError *err) {
  char line[CAL_LINE_MAX];
  if (cal_machine_text(m, head, err)) return -1;
  snprintf(line, sizeof line, "  %s <= %.0f ? %s :", arg, xs[0], names[0]);
  if (cal_machine_text(m, line, err)) return -1;
  for (int k = 1; k < n; k++) {
    snprintf(line, sizeof line, "  %s <= %.0f ? (%s * (%.0f - %s) + %s * (%s - %.0f)) / %.0f :",
             arg, xs[k], names[k - 1], xs[k], arg, names[k], arg, xs[k - 1], xs[k] - xs[k - 1]);
    if (cal_machine_text(m, line, err)) return -1;
  }
  snprintf(line, sizeof line, "  %s;", tail);
  return cal_machine_text(m, line, err);
}

int cal_machine_interp(CalMachine *m, const char *head, const char *arg, const char *prefix,
                       const double *xs, int n, const char *tail, CalError *err) {
  char (*names)[CAL_NAME_MAX] = n > 0 ? malloc((size_t)n * sizeof *names) : NULL;
  const char **ptrs = n > 0 ? malloc((size_t)n * sizeof *ptrs) : NULL;
  int status = (n > 0 && names && ptrs) ? 0 : cal_fail(err, "out of memory");
  for (int k = 0; status == 0 && k < n; k++) {
    snprintf(names[k], CAL_NAME_MAX, "%s%.0f", prefix, xs[k]);
    ptrs[k] = names[k];
  }
  if (status == 0) status = cal_machine_interp_names(m, head, arg, ptrs, xs, n, tail, err);
  free(names);
  free(ptrs);
  return status;
}

int cal_machine_shared_fn(CalMachine *m, const char *base, const char *arg, const char *suffix,
                          int top, CalError *err) {
  char line[CAL_LINE_MAX], call[CAL_NAME_MAX + 8] = "";
  if (arg && *arg) snprintf(call, sizeof call, "(%s)", arg);
  size_t len = (size_t)snprintf(line, sizeof line, "fn %s_shared(%s%sthreads) = ", base,
                                arg && *arg ? arg : "", arg && *arg ? ", " : "");
  for (int t = 1; t < top && len < sizeof line; t++) {
    if (t == 1) len += (size_t)snprintf(line + len, sizeof line - len, "threads <= 1 ? %s%s%s : ",
                                        base, suffix, call);
    else len += (size_t)snprintf(line + len, sizeof line - len, "threads <= %d ? %s_par%d%s%s : ",
                                 t, base, t, suffix, call);
  }
  if (len < sizeof line) {
    if (top > 1) snprintf(line + len, sizeof line - len, "%s_par%d%s%s;", base, top, suffix, call);
    else snprintf(line + len, sizeof line - len, "%s%s%s;", base, suffix, call);
  }
  return cal_machine_text(m, line, err);
}

int cal_name_is_sized(const char *name, const char *prefix) {
  size_t n = strlen(prefix);
  if (strncmp(name, prefix, n) || !name[n]) return 0;
  for (const char *p = name + n; *p; p++)
    if (!isdigit((unsigned char)*p)) return 0;
  return 1;
}

int cal_machine_note(CalMachine *m, const char *text, CalError *err) {
  if (m->note_count == CAL_MAX_NOTES) return cal_fail(err, "more than %d header notes", CAL_MAX_NOTES);
  snprintf(m->notes[m->note_count++], CAL_LINE_MAX, "%s", text);
  return 0;
}

int cal_machine_print(FILE *out, void *machine, CalError *err) {
  (void)err;
  const CalMachine *m = machine;
  fprintf(out, "# Machine file written by `pamc calibrate`: rerun it rather than editing by hand.\n");
  fprintf(out, "# machine: %s\n", m->machine);
  fprintf(out, "# date: %s\n", m->date);
  fprintf(out, "# command: %s\n", m->command);
  for (int i = 0; i < m->note_count; i++) fprintf(out, "# %s\n", m->notes[i]);
  fputc('\n', out);
  for (int i = 0; i < m->decl_count; i++) {
    const CalDecl *d = &m->decls[i];
    if (d->kind == CAL_DECL_TEXT) {
      fprintf(out, "%s\n", d->text);
      continue;
    }
    char interval[CAL_NUMBER_MAX * 30];
    cal_format_typed(d->lo, d->hi, d->typ, d->per_byte, d->unitless, interval, sizeof interval);
    char decl[CAL_LINE_MAX + CAL_NUMBER_MAX * 30];
    snprintf(decl, sizeof decl, "const %s = %s;", d->name, interval);
    if (d->text[0]) fprintf(out, "%-44s # %s\n", decl, d->text);
    else fprintf(out, "%s\n", decl);
  }
  return 0;
}

int cal_machine_write(const char *path, const CalMachine *m, CalError *err) {
  return cal_atomic_write(path, cal_machine_print, (void *)m, err);
}

/* Size in readable binary units ("48 KiB"). */
void cal_format_bytes(size_t bytes, char *buf, size_t size) {
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) snprintf(buf, size, "%zu MiB", bytes >> 20);
  else if (bytes >= 1024 && bytes % 1024 == 0) snprintf(buf, size, "%zu KiB", bytes >> 10);
  else snprintf(buf, size, "%zu B", bytes);
}
