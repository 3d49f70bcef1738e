/*
** cal_error.c — filling a CalError.
*/
#include <stdarg.h>
#include <stdio.h>
#include "cal.h"

int cal_fail(CalError *err, const char *format, ...) {
  if (err) {
    va_list args;
    va_start(args, format);
    vsnprintf(err->message, sizeof err->message, format, args);
    va_end(args);
  }
  return -1;
}
