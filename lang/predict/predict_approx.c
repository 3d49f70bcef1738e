/*
** predict_approx.c — what `pamc predict` says when a bound it prints rests on an approximation
** (ReduceApprox, issue 15): a note per place (the term and its source line) and the text of the
** csv/json `approx` column.
*/
#include <stdio.h>
#include <string.h>

#include "predict.h"

/* "ap.pam:6" for a note's place ("" when it has none). */
static void place_text(const ReduceApprox *a, char *buf, size_t size) {
  if (!a->loc.file) { buf[0] = 0; return; }
  snprintf(buf, size, " (%s:%d)", a->loc.file, a->loc.line);
}

/* The approx column: "" when both bounds are exact closed forms (or no note holds), else
** "lo: WHAT (FILE:LINE); hi: ..." (truncated to size). */
void predict_approx_column(const ReduceResult *r, const unsigned char *on, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = 0;
  for (int i = 0; i < r->approx_count && used + 1 < size; i++) {
    const ReduceApprox *a = &r->approx[i];
    if (on && !on[i]) continue;
    char place[256];
    place_text(a, place, sizeof place);
    int n = snprintf(buf + used, size - used, "%s%s: %s%s%s", used ? "; " : "", a->bound ? "hi" : "lo",
                     a->what, a->zero ? " taken as 0" : "", place);
    if (n < 0) break;
    used += (size_t)n < size - used ? (size_t)n : size - used - 1;
  }
}

/* One note per place where a bound rests on an approximation (that holds), at that place. */
void predict_approx_notes(const ReduceResult *r, const unsigned char *on, DiagList *diags) {
  for (int i = 0; i < r->approx_count; i++) {
    const ReduceApprox *a = &r->approx[i];
    if (on && !on[i]) continue;
    const char *bound = a->bound ? "T_hi" : "T_lo";
    if (!strncmp(a->what, "family ", 7))
      diag_report(diags, DIAG_NOTE, a->loc, "%s rests on an approximation: %s (the members its uses "
                  "name are not known one by one)", bound, a->what);
    else if (a->zero)
      diag_report(diags, DIAG_NOTE, a->loc, "%s rests on an approximation: %s has no closed form and "
                  "counts as 0 where its range is above the loop limit (--loop-limit): %s may be far "
                  "below the time", bound, a->what, bound);
    else
      diag_report(diags, DIAG_NOTE, a->loc, "%s rests on an approximation: %s has no closed form; "
                  "where its range is above the loop limit (--loop-limit) a safe value %s it is used",
                  bound, a->what, a->bound ? "above" : "below");
  }
}
