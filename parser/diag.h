/*
** diag.h — diagnostics: the one place that formats `file:line:col: error: message`. Errors are
** collected in a DiagList by whoever finds them and printed by the command line, never deep inside.
*/
#ifndef PAMC_DIAG_H
#define PAMC_DIAG_H

#include <stdio.h>
#include "ast.h"

/* More errors than this in one run are not worth reading; the rest are counted, not kept. */
#define DIAG_MAX_ERRORS 20

typedef enum DiagLevel { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagLevel;

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
} DiagList;

void diag_init(DiagList *list);
void diag_free(DiagList *list);
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
void diag_report(DiagList *list, DiagLevel level, SrcLoc loc, const char *format, ...);
/* True once the cap is reached: callers may stop looking for more. */
int diag_full(const DiagList *list);
/* Prints every kept message, one a line, then "N more errors" when some were dropped. */
void diag_print(const DiagList *list, FILE *out);
/* "file:line:col: level: message" into buf (for tests). */
void diag_format(const Diag *diag, char *buf, size_t size);

#endif
