// expect: goto.c:5:21: error: goto is not supported by pamc extract (its counts cannot be derived)
int f(int n) {
  int i = 0;
again:
  if (i < n) { i++; goto again; }
  return i;
}
