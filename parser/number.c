/*
** number.c — number literals as both scanners read them (lexer.l for models, spec_lexer.l for
** specifications): the numeric part and the unit split apart (units.h), the value rounded once
** from the decimal digits and the unit's exact scale, errors for unknown units and overflow.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast_build.h"
#include "parse_internal.h"
#include "units.h"

/* Exponents beyond this make any double overflow or underflow; clamping keeps the sum exact. */
#define NUMBER_EXPONENT_CLAMP 100000

/* The value of the literal digits (no '_') scaled by 10^exp10, rounded once. */
static double decimal_value(Arena *arena, const char *digits, int exp10) {
  const char *e = strpbrk(digits, "eE");
  size_t mantissa = e ? (size_t)(e - digits) : strlen(digits);
  long exponent = 0;
  if (e) {
    exponent = strtol(e + 1, NULL, 10);    /* saturates on overflow */
    if (exponent > NUMBER_EXPONENT_CLAMP) exponent = NUMBER_EXPONENT_CLAMP;
    if (exponent < -NUMBER_EXPONENT_CLAMP) exponent = -NUMBER_EXPONENT_CLAMP;
  }
  char *scaled = arena_alloc(arena, mantissa + 32);
  snprintf(scaled, mantissa + 32, "%.*se%ld", (int)mantissa, digits, exponent + exp10);
  return strtod(scaled, NULL);
}

Expr *parse_number(ParseCtx *ctx, const SrcLoc *loc, const char *text, size_t length, int list_units) {
  size_t numeric = unit_numeric_length(text, length);
  char *digits = arena_alloc(ctx->arena, numeric + 1);
  size_t kept = 0;
  for (size_t i = 0; i < numeric; i++)
    if (text[i] != '_') digits[kept++] = text[i];
  digits[kept] = '\0';

  const Unit *unit = unit_none();
  if (numeric < length) {
    unit = unit_find(text + numeric, length - numeric);
    if (!unit) {
      SrcLoc at = *loc;   /* at the unit */
      at.col += (int)numeric;
      const char *near = unit_suggest(text + numeric, length - numeric);
      char hint[64] = "";
      if (near) snprintf(hint, sizeof hint, "; did you mean '%s'?", near);
      parse_error(ctx, at, "unknown unit '%.*s'%s%s", (int)(length - numeric), text + numeric, hint,
                  list_units ? " (units: " UNIT_NAMES ")" : "");
      unit = unit_none();
    }
  }
  double number = decimal_value(ctx->arena, digits, unit->exp2 ? 0 : unit->exp10);
  if (unit->exp2) number = ldexp(number, unit->exp2);
  if (isinf(number)) parse_error(ctx, *loc, "number '%s' is too large", ctx->token_text);
  else if (unit == unit_none() && !strpbrk(digits, ".eE") && number >= 9007199254740992.0) {
    /* a whole number beyond 2^53 that a double does not hold: it would be rounded silently */
    char exact[400];
    snprintf(exact, sizeof exact, "%.0f", number);
    const char *written = digits;
    while (written[0] == '0' && written[1]) written++;
    if (strcmp(exact, written) != 0)
      parse_error(ctx, *loc, "whole number '%s' is not exact as a double (the nearest is %s; whole "
                  "numbers are exact up to 2^53 = 9007199254740992)", digits, exact);
  }
  return ast_number(ctx->arena, *loc, number, digits, unit->num, unit->den);
}
