/*
** diag.c — collecting and printing diagnostics (diag.h).
*/
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void diag_init(DiagList *list) {
  memset(list, 0, sizeof *list);
}

void diag_free(DiagList *list) {
  for (int i = 0; i < list->count; i++) free(list->items[i].message);
  free(list->items);
  diag_init(list);
}

int diag_full(const DiagList *list) {
  return list->errors >= DIAG_MAX_ERRORS;
}

void diag_report(DiagList *list, DiagLevel level, SrcLoc loc, const char *format, ...) {
  if (level == DIAG_ERROR) list->errors++;
  if (list->errors > DIAG_MAX_ERRORS) {
    list->dropped++;
    return;
  }
  if (list->count == list->capacity) {
    int capacity = list->capacity ? 2 * list->capacity : 8;
    Diag *items = realloc(list->items, (size_t)capacity * sizeof *items);
    if (!items) abort();
    list->items = items;
    list->capacity = capacity;
  }
  va_list args;
  va_start(args, format);
  va_list again;
  va_copy(again, args);
  int length = vsnprintf(NULL, 0, format, args);
  va_end(args);
  char *message = malloc((size_t)length + 1);
  if (!message) abort();
  vsnprintf(message, (size_t)length + 1, format, again);
  va_end(again);
  list->items[list->count++] = (Diag){level, loc, message};
}

static const char *level_name(DiagLevel level) {
  switch (level) {
    case DIAG_ERROR: return "error";
    case DIAG_WARNING: return "warning";
    case DIAG_NOTE: return "note";
  }
  return "error";
}

void diag_format(const Diag *diag, char *buf, size_t size) {
  if (diag->loc.file)
    snprintf(buf, size, "%s:%d:%d: %s: %s", diag->loc.file, diag->loc.line, diag->loc.col,
             level_name(diag->level), diag->message);
  else
    snprintf(buf, size, "pamc: %s: %s", level_name(diag->level), diag->message);
}

void diag_print(const DiagList *list, FILE *out) {
  char line[2048];
  for (int i = 0; i < list->count; i++) {
    diag_format(&list->items[i], line, sizeof line);
    fprintf(out, "%s\n", line);
  }
  if (list->dropped > 0)
    fprintf(out, "pamc: %d more error%s not shown\n", list->dropped, list->dropped == 1 ? "" : "s");
}
