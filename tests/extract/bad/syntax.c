// expect: syntax.c:4:12: error: expected ';' after expression
int f(int n) {
  int s = 0;
  s = s + n
  return s;
}
