/* recurse.c — a directly recursive function with its activations given by a pragma: sum of
** 1 .. n by recursion, n + 1 activations, each one compare and (but the last) one add. */
#pragma pamc recursion_depth(n + 1)
long sum_to(int n) {
  if (n == 0)
    return 0;
  return n + sum_to(n - 1);
}
