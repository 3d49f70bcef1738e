/* calls.c — calls: a function with source whose cost is a closed form (charged inside the loop
** as n times its cost), one with a data-dependent loop (a process call in a seq loop), libm
** (sqrt, exp), memcpy of n doubles, conversions, a struct through a pointer. */
#include <math.h>
#include <string.h>
typedef struct { double x, y; } Point;
static double norm(const Point *p) {
  return sqrt(p->x * p->x + p->y * p->y);
}
static int scan(const int *v, int m) {
  int k = 0;
  while (k < m && v[k] >= 0)
    k++;
  return k;
}
double calls(int n, const Point *pts, double *dst, const double *src, const int *v) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += norm(&pts[i]) + exp((double)i);
  memcpy(dst, src, sizeof(double) * n);
  for (int i = 0; i < n; i++)
    s += scan(v, i);
  return s;
}
