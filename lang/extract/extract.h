/*
** extract.h — `pamc extract`: a model (LANGUAGE.md) from unmarked C source, read with libclang.
** The only public entry of lang/extract/, the one room of pamc that links libclang.
*/
#ifndef PAMC_EXTRACT_H
#define PAMC_EXTRACT_H

#include <stdio.h>

/* What to extract and how (the command line of `pamc extract`). */
typedef struct ExOptions {
  const char **files;          /* C sources, in order */
  int file_count;              /* length of files */
  const char **functions;      /* -f NAME: extract these (and what they call); none: all */
  int function_count;          /* length of functions */
  const char **clang_args;     /* -I DIR, -D MACRO[=V] as clang arguments ("-Idir", "-DX=1") */
  int clang_arg_count;         /* length of clang_args */
  const char *compile_db;      /* -p: compile_commands.json or its folder, NULL: none */
  const char *memory_level;    /* which calibrated memory constants: "l1", "l2", "llc", "mem" */
  const char *command_line;    /* the command as typed, for the model's header */
  int library;                 /* 1: a cost library for `pamc gen -l`: no `main` process (C's
                                  main becomes c_main), every function kept */
} ExOptions;

/* Writes the model of opts->files to out. Diagnostics (clang's own, and pamc's located
** `file:line:col: error: ...`) go to err. Returns 0, 1 (input error: nothing usable written),
** or 3 (unreadable file). out receives text only on success. */
int ex_extract(const ExOptions *opts, FILE *out, FILE *err);

#endif
