/*
** check.h — the semantic checks of a loaded Program (program.h): name resolution (fills the
** resolution fields of ast.h), arity, recursion, and the value checks that can be decided from
** the values at hand (param defaults, const values, -D values), LANGUAGE.md §1-5.
*/
#ifndef PAMC_CHECK_H
#define PAMC_CHECK_H

#include "program.h"
#include "suggest.h"

/* Process calls the value checks follow from the entry process with actual argument values
** (each call is followed once per place it is reached); beyond this, processes are checked with
** unknown arguments only. Bounds the work on models with deep call trees. */
#define CHECK_MAX_CALL_VISITS 10000

/* Resolves and checks prog; errors (and notes) go to prog->diags. Returns the number of errors
** it reported (0: the program is fit to reduce and simulate). Value checks run only when names
** resolve and nothing is recursive, so every name of a checked program is resolved:
**   EX_NAME      u.name.kind/decl/slot: NAME_INDEX slot = number of named binders (seq/par
**                loop indices, sum/prod/min/max indices) enclosing the binder within its
**                process, fn or declaration, outermost 0 (repeat binds no name);
**                NAME_ARG slot = position of the parameter; NAME_PARAM/NAME_CONST decl = the
**                declaration in force (after -m/-D overrides).
**   EX_CALL      u.call.builtin = EvalBuiltin id (eval.h) and decl NULL, or builtin -1 and decl
**                the fn.
**   ST_USE       u.use.decl = the resource; ST_CALL u.call.decl = the process.
** Built-in arity: min and max take 1 or more arguments (min(a) = a), or the binder form
** min(i = a, b, e); ceil floor abs sqrt log log2 exp lo hi mid width take exactly 1; sum and
** prod only the binder form sum(i = a, b, e).
** The entry process (main, or -e NAME) must exist unless the program declares no process at all
** and -e was not given (a machine file or a file of declarations checked on its own). */
int check_program(Program *prog);

/* Suggestions (suggest_closest, suggest_distance) live with the scanner's, in parser/suggest.h. */
#define check_distance suggest_distance
#define check_closest suggest_closest

#endif
