/*
** suggest.c — "did you mean ...?": edit distance and the closest known name (suggest.h), for the
** scanner (units, keywords) and the checks (names) alike.
*/
#include "suggest.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Names longer than this are compared on their first SUGGEST_NAME_MAX bytes (a typo suggestion
** does not need more). */
#define SUGGEST_NAME_MAX 64

int suggest_distance(const char *a, const char *b) {
  /* optimal string alignment: Levenshtein plus the swap of two neighbours (pra -> par) as one */
  size_t n = strlen(a), m = strlen(b);
  if (n > SUGGEST_NAME_MAX) n = SUGGEST_NAME_MAX;
  if (m > SUGGEST_NAME_MAX) m = SUGGEST_NAME_MAX;
  int rows[3][SUGGEST_NAME_MAX + 1];   /* rows i - 2, i - 1, i (by i % 3) */
  for (size_t j = 0; j <= m; j++) rows[0][j] = (int)j;
  for (size_t i = 1; i <= n; i++) {
    int *row = rows[i % 3], *up = rows[(i - 1) % 3], *up2 = rows[(i + 1) % 3];
    row[0] = (int)i;
    for (size_t j = 1; j <= m; j++) {
      int best = up[j - 1] + (a[i - 1] != b[j - 1]);
      if (up[j] + 1 < best) best = up[j] + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && up2[j - 2] + 1 < best)
        best = up2[j - 2] + 1;
      row[j] = best;
    }
  }
  return rows[n % 3][m];
}

const char *suggest_closest(const char *name, const char *const *candidates, int count) {
  const char *best = NULL;
  int best_distance = 0;
  int length = (int)strlen(name);
  for (int i = 0; i < count; i++) {
    if (!candidates[i] || !strcmp(candidates[i], name)) continue;
    int d = strcasecmp(candidates[i], name) == 0 ? 0 : suggest_distance(name, candidates[i]);
    /* close enough: about one edit in three characters, and not a rewrite of the whole name */
    if (d > 0 && (d * 3 > length + 2 || d >= length)) continue;
    if (!best || d < best_distance) {
      best = candidates[i];
      best_distance = d;
    }
  }
  return best;
}
