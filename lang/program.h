/*
** program.h — one compilation: the entry model file, its imports, the machine files (-m) and the
** -D values, loaded into one Arena with one symbol table of the declarations in force.
*/
#ifndef PAMC_PROGRAM_H
#define PAMC_PROGRAM_H

#include "arena.h"
#include "ast.h"
#include "diag.h"

/* Status of program_load: the exit statuses of CLI.md. */
typedef enum ProgramStatus {
  PROGRAM_OK = 0,       /* loaded; diags may still hold errors only if status says so */
  PROGRAM_MODEL = 1,    /* errors in the model (syntax, duplicates, imports, -D): see diags */
  PROGRAM_IO = 3        /* the entry file or a machine file cannot be read: see diags */
} ProgramStatus;

/* One -D NAME=VALUE to apply. */
typedef struct ProgramDefine {
  const char *name;     /* NAME */
  const char *value;    /* VALUE text: `2us`, `[1, 2]`, any constant expression */
  const char *raw;      /* the whole argument as typed, "N=2us", for messages */
} ProgramDefine;

typedef struct ProgramOptions {
  const char *const *machine_files; /* -m files in order: later ones override earlier ones */
  int machine_count;                /* length of machine_files */
  const ProgramDefine *defines;     /* -D values to apply (predict keeps sweeps to itself) */
  int define_count;                 /* length of defines */
  const char *entry;                /* entry process, NULL for "main" */
} ProgramOptions;

/* Longest list of param names in a message. */
#define PROGRAM_PARAM_LIST_SIZE 256

/* A name in the symbol table. */
typedef struct ProgramSymbol {
  const char *name;               /* the declared name */
  Decl *decl;                     /* the declaration in force (after -m and -D overrides) */
  struct ProgramSymbol *next;     /* next in the same hash bucket */
} ProgramSymbol;

/* Buckets the symbol table starts with (a power of two; doubled past one symbol per bucket,
** so that a lookup stays O(1) in a model of 10^5 declarations). */
#define PROGRAM_BUCKETS 256
/* Imports nest at most this deep (a cycle is reported before; this bounds a long chain). */
#define PROGRAM_MAX_IMPORT_DEPTH 64

typedef struct Program {
  Arena arena;                    /* every AST node, string and table of this compilation */
  DiagList *diags;                /* where errors go (owned by the caller) */
  const char *path;               /* the entry file as given */
  Module **modules;               /* every file read: entry, imports (depth first), machines */
  int module_count;               /* length of modules */
  Decl **decls;                   /* declarations in force, in load order (imports excluded) */
  int decl_count;                 /* length of decls */
  ProgramSymbol **buckets;        /* symbol table: name -> declaration in force (arena) */
  unsigned bucket_count;          /* buckets (a power of two; 0 before the first symbol) */
  unsigned symbol_count;          /* symbols in the table */
  const char *entry_name;         /* "main" or -e NAME */
  int entry_given;                /* 1 when -e named the entry (then it must exist even in a
                                     file without processes, such as a machine file) */
  int define_count;               /* -D values applied */
  const ProgramDefine *defines;   /* the -D values (caller's storage) */
  Decl **define_decls;            /* for each -D, its declaration (NULL when rejected) */
  Decl **define_targets;          /* for each -D, the model declaration it overrides (or NULL) */
} Program;

/* Loads path, its imports, the machine files and the -D values of opts (may be NULL) into prog
** (uninitialised on entry). Errors go to diags. Always call program_free afterwards. */
ProgramStatus program_load(Program *prog, DiagList *diags, const char *path,
                           const ProgramOptions *opts);
/* Same with the entry file's text given (tests); name is used in locations, imports are
** relative to the current directory. */
ProgramStatus program_load_string(Program *prog, DiagList *diags, const char *name,
                                  const char *text, const ProgramOptions *opts);
void program_free(Program *prog);

/* The declaration in force for name, NULL when none. */
Decl *program_lookup(const Program *prog, const char *name);
/* The entry process (main or -e NAME), NULL when there is none. */
Decl *program_entry(const Program *prog);

/* Parses a -D value text as an expression (allocated in prog's arena; its locations name the
** file label). NULL when it is not one, with errors in prog->diags that have no place and start
** with label: "pamc: error: -D N=2xs: syntax error, ...". Names in it are resolved by
** check_program when the expression is a -D value of this program. */
Expr *program_parse_value(Program *prog, const char *label, const char *text);

/* Reports that -D raw names no param or const of prog: the closest name when one is near, the
** model's params otherwise ("-D Q=4: no param or const 'Q' (the model's params: N, P, iters)"). */
void program_unknown_define(Program *prog, const char *raw, const char *name);

#endif
