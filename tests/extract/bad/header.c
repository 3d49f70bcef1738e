// expect: header.c:2:10: fatal error: 'no_such_header.h' file not found
#include "no_such_header.h"
int f(int n) { return n; }
