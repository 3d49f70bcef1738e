/*
** diag.c — collecting and printing diagnostics (diag.h): the message, the source line, a caret.
*/
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Colours of a terminal (SGR), as GCC uses them. */
#define DIAG_BOLD "\033[1m"
#define DIAG_RED "\033[1;31m"
#define DIAG_MAGENTA "\033[1;35m"
#define DIAG_CYAN "\033[1;36m"
#define DIAG_GREEN "\033[1;32m"
#define DIAG_RESET "\033[0m"
/* Longest source line shown (longer lines are cut: a message is not a dump). */
#define DIAG_LINE_MAX 400

void diag_init(DiagList *list) {
  memset(list, 0, sizeof *list);
}

void diag_free(DiagList *list) {
  for (int i = 0; i < list->count; i++) free(list->items[i].message);
  free(list->items);
  for (int i = 0; i < list->source_count; i++) {
    free(list->sources[i].name);
    free(list->sources[i].text);
  }
  free(list->sources);
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

void diag_add_source(DiagList *list, const char *name, const char *text, size_t length) {
  DiagSource *more = realloc(list->sources, (size_t)(list->source_count + 1) * sizeof *more);
  if (!more) abort();
  list->sources = more;
  DiagSource *src = &more[list->source_count++];
  src->name = strdup(name);
  src->text = malloc(length + 1);
  if (!src->name || !src->text) abort();
  memcpy(src->text, text, length);
  src->text[length] = 0;
  src->length = length;
}

int diag_color_parse(const char *text) {
  if (!strcmp(text, "auto")) return DIAG_COLOR_AUTO;
  if (!strcmp(text, "always")) return DIAG_COLOR_ALWAYS;
  if (!strcmp(text, "never")) return DIAG_COLOR_NEVER;
  return -1;
}

int diag_use_color(DiagColor color, FILE *out) {
  if (color != DIAG_COLOR_AUTO) return color == DIAG_COLOR_ALWAYS;
  const char *no = getenv("NO_COLOR"), *term = getenv("TERM");
  if (no && *no) return 0;
  if (term && !strcmp(term, "dumb")) return 0;
  return isatty(fileno(out));
}

/* The text of line (1-based) of the source named file: *length bytes, or NULL. Sources read
** later win (a file read twice shows its last text). */
static const char *source_line(const DiagList *list, const char *file, int line, size_t *length) {
  for (int i = list->source_count - 1; i >= 0; i--) {
    const DiagSource *src = &list->sources[i];
    if (strcmp(src->name, file)) continue;
    const char *p = src->text, *end = src->text + src->length;
    for (int l = 1; l < line && p < end; l++) {
      const char *nl = memchr(p, '\n', (size_t)(end - p));
      if (!nl) return NULL;
      p = nl + 1;
    }
    if (p > end) return NULL;
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    *length = (size_t)((nl ? nl : end) - p);
    if (*length > 0 && p[*length - 1] == '\r') (*length)--;
    return p;
  }
  return NULL;
}

/* Writes the source line and the caret line under it ("    3 |   dealy(2us)" then
** "      |   ^~~~~"). Columns count bytes; the caret line counts characters (UTF-8) and keeps tabs. */
static void print_source(const DiagList *list, const Diag *d, FILE *out, int color) {
  size_t length;
  const char *text = source_line(list, d->loc.file, d->loc.line, &length);
  if (!text || d->loc.col < 1) return;
  if (length > DIAG_LINE_MAX) length = DIAG_LINE_MAX;
  size_t col = (size_t)d->loc.col - 1;
  if (col > length) col = length;
  size_t last = col;   /* the ~ run: to the end of a span on the same line */
  if (d->loc.end_line == d->loc.line && d->loc.end_col > d->loc.col) last = (size_t)d->loc.end_col - 1;
  if (last >= length) last = length ? length - 1 : 0;
  if (last < col) last = col;
  fprintf(out, "%5d | %.*s\n      | ", d->loc.line, (int)length, text);
  for (size_t i = 0; i < col; i++)
    if (((unsigned char)text[i] & 0xc0) != 0x80) fputc(text[i] == '\t' ? '\t' : ' ', out);
  fputs(color ? DIAG_GREEN "^" : "^", out);
  for (size_t i = col + 1; i <= last && i < length; i++)
    if (((unsigned char)text[i] & 0xc0) != 0x80) fputc('~', out);
  fputs(color ? DIAG_RESET "\n" : "\n", out);
}

static const char *level_color(DiagLevel level) {
  return level == DIAG_ERROR ? DIAG_RED : level == DIAG_WARNING ? DIAG_MAGENTA : DIAG_CYAN;
}

void diag_print(const DiagList *list, FILE *out) {
  int color = diag_use_color(list->color, out);
  for (int i = 0; i < list->count; i++) {
    const Diag *d = &list->items[i];
    if (!color) {
      char line[2048];
      diag_format(d, line, sizeof line);
      fprintf(out, "%s\n", line);
    } else if (d->loc.file) {
      fprintf(out, DIAG_BOLD "%s:%d:%d: %s%s:" DIAG_RESET DIAG_BOLD " %s" DIAG_RESET "\n",
              d->loc.file, d->loc.line, d->loc.col, level_color(d->level), level_name(d->level),
              d->message);
    } else {
      fprintf(out, DIAG_BOLD "pamc: %s%s:" DIAG_RESET DIAG_BOLD " %s" DIAG_RESET "\n",
              level_color(d->level), level_name(d->level), d->message);
    }
    if (d->loc.file) print_source(list, d, out, color);
  }
  if (list->dropped > 0)
    fprintf(out, "pamc: %d more error%s not shown\n", list->dropped, list->dropped == 1 ? "" : "s");
}
