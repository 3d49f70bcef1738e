// expect: undeclared.c:3:10: error: use of undeclared identifier 'm'
int f(int n) {
  return m * n;
}
