/* whileloop.c — loops whose count is not in the header: a while with a pragma, a while
** without (a param with a NOTE), a count read at run time (a param named after it). */
#include <stdlib.h>
int collatz(int n) {
  int steps = 0;
#pragma pamc loop_count(3 * n)
  while (n != 1) {
    n = (n % 2) ? 3 * n + 1 : n / 2;
    steps++;
  }
  return steps;
}
int search(const int *v, int key) {
  int i = 0;
  while (v[i] != key)
    i++;
  return i;
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  int *v = malloc(sizeof(int) * n);
  for (int i = 0; i < n; i++)
    v[i] = i;
  int s = collatz(n) + search(v, n / 2);
  free(v);
  return s;
}
