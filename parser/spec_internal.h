/*
** spec_internal.h — what the spec scanner (spec_lexer.l), the spec grammar (spec_grammar.y) and
** spec_parse.c share: the context of one parse of a specification. Not for use outside parser/.
*/
#ifndef PAMC_SPEC_INTERNAL_H
#define PAMC_SPEC_INTERNAL_H

#include "parse_internal.h"
#include "spec_ast.h"

/* The state of one parse of a specification: the model parser's context (arena, diags, position,
** last token, error cap) plus the lists being built. */
typedef struct SpecCtx {
  ParseCtx base;        /* arena, diags, file, position, token text, stopped */
  const char *app_path; /* `path = ...;` value, NULL until seen */
  PtrVec tasks;         /* SpecTask* in order */
  PtrVec sizes;         /* SpecSize* in order */
  PtrVec workers;       /* SpecWorkers* in order */
  PtrVec links;         /* SpecLink* in order */
} SpecCtx;

/* The spelling a message gives a token of spec_grammar.h (defined in spec_grammar.y). */
const char *spec_token_spelling(int token, char *buf, size_t size);

#endif
