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
Module *parse_file(Arena *arena, DiagList *diags, const char *path);

/* Parses text of the given length; name is used in locations. */
Module *parse_string(Arena *arena, DiagList *diags, const char *name, const char *text, size_t length);

#endif
