/*
** check_suggest.c — "did you mean ...?": edit distance and the closest known name (check.h).
*/
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Names longer than this are compared on their first CHECK_NAME_MAX bytes (a typo suggestion
** does not need more). */
#define CHECK_NAME_MAX 64

int check_distance(const char *a, const char *b) {
  size_t n = strlen(a), m = strlen(b);
  if (n > CHECK_NAME_MAX) n = CHECK_NAME_MAX;
  if (m > CHECK_NAME_MAX) m = CHECK_NAME_MAX;
  int row[CHECK_NAME_MAX + 1];
  for (size_t j = 0; j <= m; j++) row[j] = (int)j;
  for (size_t i = 1; i <= n; i++) {
    int diagonal = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= m; j++) {
      int above = row[j];
      int best = diagonal + (a[i - 1] != b[j - 1]);
      if (above + 1 < best) best = above + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diagonal = above;
    }
  }
  return row[m];
}

const char *check_closest(const char *name, const char *const *candidates, int count) {
  const char *best = NULL;
  int best_distance = 0;
  int length = (int)strlen(name);
  for (int i = 0; i < count; i++) {
    if (!candidates[i] || !strcmp(candidates[i], name)) continue;
    int d = strcasecmp(candidates[i], name) == 0 ? 0 : check_distance(name, candidates[i]);
    /* close enough: about one edit in three characters, and not a rewrite of the whole name */
    if (d > 0 && (d * 3 > length + 2 || d >= length)) continue;
    if (!best || d < best_distance) {
      best = candidates[i];
      best_distance = d;
    }
  }
  return best;
}
