// expect: pragma.c:4:3: error: #pragma pamc loop_count(n +) at line 3: column 4: expected an expression
int f(int n) {
#pragma pamc loop_count(n +)
  while (n > 0) n--;
  return n;
}
