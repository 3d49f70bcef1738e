// expect: mutual.c:7:23: error: recursion: odd calls even, which is being extracted (a cycle); a model cannot recurse: give the number of activations of a directly recursive function with `#pragma pamc recursion_depth(E)` on the line before it
int odd(int n);
int even(int n) {
  return n == 0 ? 1 : odd(n - 1);
}
int odd(int n) {
  return n == 0 ? 0 : even(n - 1);
}
