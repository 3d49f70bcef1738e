/*
** units.c — the table of units (units.h): one place for the scanners and the printers.
*/
#include "units.h"

#include <ctype.h>
#include <string.h>

#include "suggest.h"

static const Unit units[] = {
  {"s", 1, 1, 0, 0},
  {"ms", 1, 1000, -3, 0},
  {"us", 1, 1000000, -6, 0},
  {"ns", 1, 1000000000, -9, 0},
  {"\xc2\xb5s", 1, 1000000, -6, 0},   /* µs (micro sign), printed back as us */
  {"\xce\xbcs", 1, 1000000, -6, 0},   /* μs (Greek mu) */
  {"B", 1, 1, 0, 0},
  {"KB", 1000, 1, 3, 0},
  {"MB", 1000000, 1, 6, 0},
  {"GB", 1000000000, 1, 9, 0},
  {"KiB", 1024, 1, 0, 10},
  {"MiB", 1048576, 1, 0, 20},
  {"GiB", 1073741824, 1, 0, 30},
};

#define UNIT_COUNT (sizeof units / sizeof units[0])

const Unit *unit_find(const char *name, size_t length) {
  for (size_t i = 0; i < UNIT_COUNT; i++)
    if (strlen(units[i].name) == length && memcmp(units[i].name, name, length) == 0) return &units[i];
  return NULL;
}

/* Spellings of other tools and languages, and what they are here. */
static const char *const aliases[][2] = {
  {"sec", "s"}, {"secs", "s"}, {"second", "s"}, {"seconds", "s"}, {"msec", "ms"}, {"usec", "us"},
  {"nsec", "ns"}, {"kB", "KB"}, {"kb", "KB"}, {"kiB", "KiB"}, {"b", "B"}, {"bytes", "B"},
};

const char *unit_suggest(const char *name, size_t length) {
  char text[32];
  if (length >= sizeof text) return NULL;
  memcpy(text, name, length);
  text[length] = 0;
  for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
    if (!strcmp(aliases[i][0], text)) return aliases[i][1];
  const char *names[UNIT_COUNT];
  for (size_t i = 0; i < UNIT_COUNT; i++) names[i] = units[i].name;
  const char *near = suggest_closest(text, names, (int)UNIT_COUNT);
  int d = near ? suggest_distance(text, near) : 0, ties = 0;
  for (size_t i = 0; near && i < UNIT_COUNT; i++) ties += suggest_distance(text, names[i]) == d;
  return ties == 1 ? near : NULL;   /* "xs": s, ms, us or ns? no guess */
}

const Unit *unit_none(void) { return &units[0]; }

const char *unit_name(int64_t num, int64_t den) {
  if (num == 1 && den == 1) return "";
  for (size_t i = 0; i < UNIT_COUNT; i++)
    if (units[i].num == num && units[i].den == den) return units[i].name;
  return "";
}

size_t unit_numeric_length(const char *text, size_t length) {
  size_t i = 0;
  while (i < length && (isdigit((unsigned char)text[i]) || text[i] == '_')) i++;
  if (i + 1 < length && text[i] == '.' && isdigit((unsigned char)text[i + 1])) {
    i++;
    while (i < length && (isdigit((unsigned char)text[i]) || text[i] == '_')) i++;
  }
  if (i < length && (text[i] == 'e' || text[i] == 'E')) {
    size_t j = i + 1;
    if (j < length && (text[j] == '+' || text[j] == '-')) j++;
    if (j < length && isdigit((unsigned char)text[j])) {
      while (j < length && isdigit((unsigned char)text[j])) j++;
      i = j;
    }
  }
  return i;
}
