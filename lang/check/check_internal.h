/*
** check_internal.h — what the files of the checker share (check.c resolves names,
** check_cycles.c finds recursion, check_holds.c cycles in the order of nested holds, check_values.c checks values at hand). Not for other users.
*/
#ifndef PAMC_CHECK_INTERNAL_H
#define PAMC_CHECK_INTERNAL_H

#include "check.h"
#include "eval.h"

/* Loops nested this deep are also walked at each end of their range (3 walks a loop, so at most
** 3^4 = 81 walks of the innermost body); deeper loops are walked once over their whole range. */
#define CHECK_MAX_SPLIT 4
/* A declaration with the processes, fns and consts it uses written out nests at most this deep
** (statements and expressions; the parser's AST_MAX_DEPTH bounds one declaration alone): the
** reduction and the simulator walk calls recursively. */
#define CHECK_MAX_INLINE_DEPTH 2000
/* Room for the loop values named in an error ("when p = 3, q = 0"). */
#define CHECK_WHEN_SIZE 160

typedef struct Checker {
  Program *prog;              /* the compilation checked */
  DiagList *diags;            /* prog->diags */
  const Ident *indices[EVAL_MAX_INDICES]; /* loop indices in scope, outermost first */
  int depth;                  /* length of indices */
  const IdentList *args;      /* parameters of the enclosing process or fn, NULL outside */
  int call_visits;            /* process calls followed by the value checks so far */
  int split_depth;            /* loops being walked at one end of their range (see check_values.c) */
  const char *when_names[CHECK_MAX_SPLIT]; /* those loops' indices, outermost first, and */
  double when_values[CHECK_MAX_SPLIT];     /* their values, written "p = 3, i = 1" into value
                                 errors only (text made at every split cost a fifth of checking) */
} Checker;

/* Reports an error unless one was already reported at the same place (the value checks may meet
** a statement more than once, with different values); adds " (when p = 3, ...)" from the loops
** walked at one end (when_names, when_values). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void check_error_once(Checker *ck, SrcLoc loc, const char *format, ...);

/* 1 when decl is the declaration in force for its name. */
int check_in_force(const Checker *ck, const Decl *decl);

void check_cycles(Checker *ck);
/* A cycle in the order of nested holds (check_holds.c). */
void check_holds(Checker *ck);
void check_values(Checker *ck);
void check_whole(Checker *ck);
void check_ends(Checker *ck);

#endif
