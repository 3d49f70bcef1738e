/*
** ast_build.h — constructors for the nodes of ast.h and the growable vectors lists are built
** with. Everything is allocated in the given Arena.
*/
#ifndef PAMC_AST_BUILD_H
#define PAMC_AST_BUILD_H

#include "arena.h"
#include "ast.h"
#include "parse_internal.h"

void ast_vec_push(Arena *arena, PtrVec *vec, void *item);
/* Exact-size arrays from a vector of Expr*, Stmt*, Ident* (Ident values are copied). */
ExprList ast_expr_list(Arena *arena, const PtrVec *vec);
StmtList ast_stmt_list(Arena *arena, const PtrVec *vec);
IdentList ast_ident_list(Arena *arena, const PtrVec *vec);

Ident ast_ident(const char *name, SrcLoc loc);
Ident *ast_ident_new(Arena *arena, const char *name, SrcLoc loc);

Expr *ast_number(Arena *arena, SrcLoc loc, double value, const char *text, int64_t unit_num,
                 int64_t unit_den);
Expr *ast_interval(Arena *arena, SrcLoc loc, Expr *lo, Expr *hi);
Expr *ast_name(Arena *arena, Ident id);
Expr *ast_unary(Arena *arena, SrcLoc loc, Op op, Expr *a);
Expr *ast_binary(Arena *arena, SrcLoc loc, Op op, Expr *a, Expr *b);
Expr *ast_cond(Arena *arena, SrcLoc loc, Expr *cond, Expr *then, Expr *otherwise);
Expr *ast_call(Arena *arena, SrcLoc loc, Ident fn, ExprList args);
Expr *ast_bind(Arena *arena, SrcLoc loc, Ident fn, Ident var, Expr *lo, Expr *hi, Expr *body);

/* A statement / declaration of the given kind with its union zeroed, for the caller to fill. */
Stmt *ast_stmt(Arena *arena, StmtKind kind, SrcLoc loc);
Decl *ast_decl(Arena *arena, DeclKind kind, SrcLoc loc, Ident name);

#endif
