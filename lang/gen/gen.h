/*
** gen.h — `pamc gen` (GEN.md): checks an application specification (spec_ast.h) against its cost
** library (a loaded Program) and writes the model of the application as readable .pam text.
*/
#ifndef PAMC_GEN_H
#define PAMC_GEN_H

#include <stdio.h>

#include "program.h"
#include "spec_ast.h"

/* What the generated file says about where it came from and how it finds the library. */
typedef struct GenOptions {
  const char *spec_path;     /* the specification as given, for the header comment */
  const char *library_path;  /* the cost library as given, for the header comment */
  const char *import_path;   /* the library's path relative to the generated file's folder */
} GenOptions;

/* Checks spec against lib (GEN.md rules: tasks, cost processes, levels, cycles, cardinalities,
** sizes, worker groups, `fn send`). Errors go to diags with the spec's line:col. Returns the
** number of errors. */
int gen_check(const Spec *spec, const Program *lib, DiagList *diags);

/* Writes the model of a checked spec to out. Returns 0, or the number of errors reported to
** diags for what only shows while writing (a cost process that cannot be scaled). */
int gen_write(const Spec *spec, const Program *lib, const GenOptions *opts, FILE *out,
              DiagList *diags);

/* Source text of an expression / statement of the model language, parenthesised so that it
** reads back to the same tree; every delay/use duration of stmt multiplied by scale when scale
** is not NULL (a number literal's text, e.g. "2.5"). */
void gen_print_expr(FILE *out, const Expr *expr);
void gen_print_stmt(FILE *out, const Stmt *stmt, const char *scale, int indent);

#endif
