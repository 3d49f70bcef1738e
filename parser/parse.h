/*
** parse.h — the front end's entry points: source text in, Module (ast.h) out, syntax errors into
** a DiagList. Reentrant: no state outside the arguments.
*/
#ifndef PAMC_PARSE_H
#define PAMC_PARSE_H

#include <stddef.h>
#include "arena.h"
#include "ast.h"
#include "diag.h"

/* Reads and parses a file. Returns NULL when the file cannot be read (an error is reported with
** the path and the system's reason); otherwise a Module, possibly partial when syntax errors were
** reported (check diags->errors). */
/* The keywords of the language, as spelled ("delay", "par", ...): up to max into out; the count.
** For suggestions ("unknown process 'dealy'; did you mean 'delay'?"). */
int parse_keywords(const char **out, int max);
Module *parse_file(Arena *arena, DiagList *diags, const char *path);
/* The whole of the file at path, malloc'd (not NUL-terminated), for the scanners of parse.c and
** spec_parse.c and the runs of `pamc fit`; NULL with an error "cannot read 'PATH': REASON" in
** diags. */
char *parse_read_file(DiagList *diags, const char *path, size_t *length);

/* Parses text of the given length; name is used in locations. */
Module *parse_string(Arena *arena, DiagList *diags, const char *name, const char *text, size_t length);

/* One token of the scanner, as parse_tokenize returns it (for tests and tools). */
typedef struct ParseToken {
  const char *spelling; /* token kind: "process", ";", "name", "number", "string", "end of input" */
  const char *text;     /* the source text of the token (cut after 40 characters), "" at the end */
  SrcLoc loc;           /* where it is written */
  const Expr *number;   /* "number": the EX_NUM with value, digits and unit; NULL otherwise */
  const char *value;    /* "name": the name; "string": the text between the quotes; else NULL */
} ParseToken;

/* Scans text into *tokens (arena array), the last one "end of input"; lexical errors go to
** diags. Returns the number of tokens, -1 when the scanner cannot start. */
int parse_tokenize(Arena *arena, DiagList *diags, const char *name, const char *text,
                   size_t length, ParseToken **tokens);

#endif
