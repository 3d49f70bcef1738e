/*
** gen_internal.h — what the checks (gen_check.c) and the writer (gen.c) of `pamc gen` share:
** look-ups in a Spec and the constant folding of its literal expressions. Not for use outside
** lang/gen*.c.
*/
#ifndef PAMC_GEN_INTERNAL_H
#define PAMC_GEN_INTERNAL_H

#include "gen.h"

int gen_find_task(const Spec *spec, const char *name);        /* index in tasks, -1 */
int gen_find_link(const Spec *spec, const char *task);        /* index in links, -1 */
const SpecSize *gen_find_size(const Spec *spec, const char *target, int is_file);
/* 1 and *value when expr is made of number literals and arithmetic only, and its value is finite. */
int gen_fold(const Expr *expr, double *value);

#endif
