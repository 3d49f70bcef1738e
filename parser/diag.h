/*
** diag.h — diagnostics: the one place that formats `file:line:col: error: message`, the source
** line and a caret under the place (colour on a terminal), as GCC and Clang do. Errors are
** collected in a DiagList by whoever finds them and printed by the command line, never deep inside.
*/
#ifndef PAMC_DIAG_H
#define PAMC_DIAG_H

#include <stdio.h>
#include "ast.h"

/* More errors than this in one run are not worth reading; the rest are counted, not kept. */
#define DIAG_MAX_ERRORS 20

typedef enum DiagLevel { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagLevel;

/* --color=auto|always|never: auto colours a terminal (not TERM=dumb) unless NO_COLOR is set. */
typedef enum DiagColor { DIAG_COLOR_AUTO, DIAG_COLOR_ALWAYS, DIAG_COLOR_NEVER } DiagColor;

/* The text of a source read, kept so that a message can show its line. */
typedef struct DiagSource {
  char *name;           /* as in SrcLoc.file (malloc'd copy) */
  char *text;           /* the whole text (malloc'd copy, NUL-terminated) */
  size_t length;        /* bytes of text */
} DiagSource;

typedef struct Diag {
  DiagLevel level;
  SrcLoc loc;           /* loc.file NULL: a message without a place */
  char *message;        /* malloc'd, owned by the list */
} Diag;

typedef struct DiagList {
  Diag *items;          /* kept messages in the order found */
  int count, capacity;
  int errors;           /* errors reported, including those beyond the cap */
  int dropped;          /* messages not kept because of DIAG_MAX_ERRORS */
  DiagSource *sources;  /* texts of the sources read, for the source lines */
  int source_count;     /* length of sources */
  DiagColor color;      /* how diag_print colours (DIAG_COLOR_AUTO after diag_init) */
} DiagList;

void diag_init(DiagList *list);
void diag_free(DiagList *list);
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
void diag_report(DiagList *list, DiagLevel level, SrcLoc loc, const char *format, ...);
/* True once the cap is reached: callers may stop looking for more. */
int diag_full(const DiagList *list);
/* Keeps a copy of a source's text (parse_string does it) so that messages at it show their line. */
void diag_add_source(DiagList *list, const char *name, const char *text, size_t length);
/* Prints every kept message: "file:line:col: error: message", then, when the source is known,
** the line and a caret under the column (~ under the rest of a one-line span), in colour when
** list->color says so for out; then "N more errors" when some were dropped. */
void diag_print(const DiagList *list, FILE *out);
/* DIAG_COLOR_ALWAYS/_NEVER from "always", "never", "auto" (-1 for anything else). */
int diag_color_parse(const char *text);
/* 1 when messages to out are coloured under color (auto: a terminal, TERM not dumb, no NO_COLOR). */
int diag_use_color(DiagColor color, FILE *out);
/* "file:line:col: level: message" into buf (for tests). */
void diag_format(const Diag *diag, char *buf, size_t size);

#endif
