/*
** ast_depth.h — the nesting limit of the syntax tree: a declaration whose statements and
** expressions nest deeper than AST_MAX_DEPTH is an error at the first node too deep, found
** without recursion. The recursive walks of lang/ and algebra/ rely on this bound (and on the
** checker's bound on calls, lang/check_depth.c).
*/
#ifndef PAMC_AST_DEPTH_H
#define PAMC_AST_DEPTH_H

#include "ast.h"

/* Statements and expressions nest at most this deep in one declaration: far beyond a model
** written by hand or by `pamc gen` (a chain a + b + ... of 1000 terms is 1000 deep), and small
** enough for every recursive walk on an 8 MiB stack under the sanitizers. */
#define AST_MAX_DEPTH 1000

/* 0 when decl nests at most AST_MAX_DEPTH deep; 1 with *where at the first node deeper; -1 when
** out of memory (*where at the declaration). */
int ast_depth_check(const Decl *decl, SrcLoc *where);

/* The same for one expression, with the given limit (a specification's expressions are written
** into a generated model a few levels down: AST_SPEC_MAX_DEPTH). */
int ast_depth_check_expr(const Expr *e, int limit, SrcLoc *where);
#define AST_SPEC_MAX_DEPTH (AST_MAX_DEPTH / 2)

#endif
