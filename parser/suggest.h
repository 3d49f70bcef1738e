/*
** suggest.h — "did you mean ...?": the edit distance between two names and the closest of a list
** of candidates, for misspelt keywords, units, built-ins and names.
*/
#ifndef PAMC_SUGGEST_H
#define PAMC_SUGGEST_H

/* Edit distance between a and b (insertions, deletions, substitutions: 1 each). */
int suggest_distance(const char *a, const char *b);
/* The candidate closest to name when close enough to be a likely typo, else NULL. */
const char *suggest_closest(const char *name, const char *const *candidates, int count);

#endif
