/*
** parse_internal.h — what the scanner (lexer.l), the grammar (grammar.y) and parse.c share: the
** context of one parse and the growable vectors the grammar builds lists with. Not for use
** outside parser/.
*/
#ifndef PAMC_PARSE_INTERNAL_H
#define PAMC_PARSE_INTERNAL_H

#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "parse.h"

/* Names remembered before a syntax error, to find a misspelt keyword among them. */
#define PARSE_RECENT_NAMES 4

/* Longest token spelling quoted in a message ("before '...'"); longer ones are cut with "...". */
#define PARSE_TOKEN_TEXT_MAX 40

/* A list under construction. The storage is arena memory (so error recovery cannot leak it);
** finished lists are copied into exact-size arrays (ast_build.h). */
typedef struct PtrVec {
  void **items;         /* arena array of capacity slots */
  int count;            /* slots used */
  int capacity;         /* slots allocated */
} PtrVec;

/* The state of one parse: everything the scanner and the parser need, nothing global. */
typedef struct ParseCtx {
  Arena *arena;         /* where the tree and its strings go */
  DiagList *diags;      /* where syntax errors go */
  const char *file;     /* source name for locations (arena copy) */
  void *scanner;        /* the flex scanner (yyscan_t) */
  int line, col;        /* position of the next character the scanner reads, 1-based */
  char token_text[PARSE_TOKEN_TEXT_MAX + 4]; /* spelling of the last token read, for messages */
  PtrVec decls;         /* declarations parsed so far, in order (kept on errors) */
  int stopped;          /* 1 once the error cap is reached: the parser is fed end of input */
  const char *recent_names[PARSE_RECENT_NAMES]; /* the last names scanned (arena), a ring */
  SrcLoc recent_locs[PARSE_RECENT_NAMES];       /* where each is */
  int recent_count;     /* names scanned so far (the ring's slot is recent_count % its size) */
} ParseCtx;

/* Reports an error at loc and stops the parse once DIAG_MAX_ERRORS is reached (nothing more is
** reported after that). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void parse_error(ParseCtx *ctx, SrcLoc loc, const char *format, ...);

/* The spelling a message gives a token kind of grammar.h: "';'", "'process'", "name", "number",
** "end of input". Defined in grammar.y (it owns the token table). */
const char *parse_token_spelling(int token, char *buf, size_t size);

/* A number literal as written (digits and '_', fraction, exponent, unit; number.c): its EX_NUM,
** the value rounded once from the digits and the unit's exact scale. An unknown unit (reported at
** the unit; with list_units the message lists the units) and a number beyond a double are errors. */
Expr *parse_number(ParseCtx *ctx, const SrcLoc *loc, const char *text, size_t length, int list_units);


#endif
