/*
** units.h — the units a number literal may carry (LANGUAGE.md §2), shared by the model and the
** specification scanners and by the printers that write a literal back as it was written.
*/
#ifndef PAMC_UNITS_H
#define PAMC_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* A unit: an exact scale num/den, and how to apply it to a decimal literal without double
** rounding: a power of ten added to its exponent, or a power of two. */
typedef struct Unit {
  const char *name;     /* as written after the digits */
  int64_t num, den;     /* scale num/den */
  int exp10;            /* scale is 10^exp10 (when exp2 == 0) */
  int exp2;             /* scale is 2^exp2 (binary sizes), 0 otherwise */
} Unit;

#define UNIT_NAMES "s ms us ns B KB MB GB KiB MiB GiB"   /* for messages */

/* The unit of that name (not NUL-terminated: length bytes), or NULL. */
const Unit *unit_find(const char *name, size_t length);
/* The unit a misspelt unit name most likely meant ("us" for "usec", "s" for "sec"), or NULL. */
const char *unit_suggest(const char *name, size_t length);
/* The unit of a bare number (scale 1/1). */
const Unit *unit_none(void);
/* Length of the numeric part of a number token as written (digits and '_', an optional fraction,
** an optional exponent e[+-]digits): what follows is its unit. */
size_t unit_numeric_length(const char *text, size_t length);
/* The name to print after a literal of scale num/den: "" for 1/1 (s and B) and unknown scales. */
const char *unit_name(int64_t num, int64_t den);

#endif
