// expect: recursion.c:4:10: error: recursion: fib calls fib, which is being extracted (a cycle); a model cannot recurse: give the number of activations of a directly recursive function with `#pragma pamc recursion_depth(E)` on the line before it
int fib(int n) {
  if (n < 2) return n;
  return fib(n - 1) + fib(n - 2);
}
