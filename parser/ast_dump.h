/*
** ast_dump.h — the syntax tree as compact S-expressions, one declaration a line: what tests
** assert structure with and what `pamc check --dump` shows.
**
**   (param N 1000 (in 1 4096))      (const c)  (const c [(interval 1ns 2ns)])
**   (fn f (x y) (+ x y))            (resource cpu [P] (fcfs 2))   (import "a.pam")
**   (process main () (block (call a) (parallel (call b) (call c)) (call d)))
**   statements: (skip) (delay e) (use r e) (use r[i] e) (call p args...) (block ...)
**               (parallel ...) (seq i lo hi s) (par i lo hi s) (repeat n s)
**               (if c s [s]) (choose p s [s])
**   expressions: 2.5us  N  (interval a b)  (- a)  (not a)  (+ a b)  (? c a b)  (f args...)
**               (bind sum i lo hi e)
*/
#ifndef PAMC_AST_DUMP_H
#define PAMC_AST_DUMP_H

#include <stdio.h>
#include "ast.h"

void ast_dump_module(const Module *module, FILE *out);
void ast_dump_decl(const Decl *decl, FILE *out);
void ast_dump_stmt(const Stmt *stmt, FILE *out);
void ast_dump_expr(const Expr *expr, FILE *out);
/* The spelling of an operator: "+", "==", "and", "-" (OP_NEG), "not". */
const char *ast_op_name(Op op);

#endif
