/* branches.c — a branch on a parameter (if), a data-dependent branch with a pragma
** (choose 0.25, expected cost inside the loop), one without (a param, NOTE), a switch on a
** parameter. */
int branches(int n, int mode, const int *v) {
  int hits = 0;
  if (n > 10)
    hits = hits + 1;
  for (int i = 0; i < n; i++) {
#pragma pamc probability(0.25)
    if (v[i] > 0)
      hits += v[i] * 3;
  }
  for (int i = 0; i < n; i++)
    if (v[i] < 0)
      hits -= 1;
  switch (mode) {
  case 1: hits = hits * 2; break;
  case 2: hits = hits / 2; break;
  default: break;
  }
  return hits;
}
