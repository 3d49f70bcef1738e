/*
** spec_ast.h — the tree of an application specification (GEN.md): task declarations, sizes,
** worker groups and links, as the spec grammar (spec_grammar.y) builds them. Expressions are the
** model language's Expr (ast.h), so the generator can check and print them like model code.
*/
#ifndef PAMC_SPEC_AST_H
#define PAMC_SPEC_AST_H

#include <stddef.h>
#include "arena.h"
#include "ast.h"
#include "diag.h"

/* `T2 = ProcessData;` — a task bound to a process of the cost library. */
typedef struct SpecTask {
  Ident name;           /* the task, T2 */
  Ident process;        /* the cost process, ProcessData */
} SpecTask;

/* `size T1 = 8 * N;` — output size in bytes of a batch (or size of a file). */
typedef struct SpecSize {
  Ident target;         /* a task name or a file name (data.dat) */
  int is_file;          /* 1 when target was written as a file name */
  Expr *bytes;          /* the size expression */
} SpecSize;

/* `workers fast(P - 4) factor 1;` — a group of identical workers. */
typedef struct SpecWorkers {
  Ident name;           /* the group, fast */
  Expr *count;          /* how many workers it has */
  Expr *factor;         /* time on this worker / time on the fastest (a number literal) */
} SpecWorkers;

/* An input or output of a link: a task's output or a file. */
typedef struct SpecItem {
  Ident name;           /* T1 or data.dat */
  int is_file;          /* 1 for a file name */
} SpecItem;

/* `T2 = L2(100) << T1 >> out.dat;` — a batch: the task, its level and cardinality, its flow. */
typedef struct SpecLink {
  Ident task;           /* the task the batch runs */
  Ident level;          /* L2 as written */
  int level_number;     /* 2; 0 when the level is not written L<number> (reported) */
  Expr *count;          /* cardinality */
  SpecItem *inputs;     /* `<<` items in order */
  int input_count;      /* length of inputs */
  SpecItem *outputs;    /* `>>` items in order */
  int output_count;     /* length of outputs */
  SrcLoc loc;           /* the whole link */
} SpecLink;

/* One parsed specification file. */
typedef struct Spec {
  const char *path;     /* the file as opened */
  const char *app_path; /* `path = ...;` value, NULL when absent */
  SpecTask *tasks;      /* declarations in order */
  int task_count;       /* length of tasks */
  SpecSize *sizes;      /* size lines in order */
  int size_count;       /* length of sizes */
  SpecWorkers *workers; /* worker groups in order */
  int worker_count;     /* length of workers (0: P identical workers) */
  SpecLink *links;      /* links in order */
  int link_count;       /* length of links */
} Spec;

/* Reads and parses a specification file: NULL when it cannot be read (error with the reason);
** otherwise a Spec, possibly partial when syntax errors were reported (see diags->errors). */
Spec *spec_parse_file(Arena *arena, DiagList *diags, const char *path);
/* Parses text of the given length; name is used in locations. */
Spec *spec_parse_string(Arena *arena, DiagList *diags, const char *name, const char *text,
                        size_t length);

#endif
