/*
** cli.h — the options every subcommand shares (CLI.md "Common options"): -m FILE, -D NAME=VALUE,
** -e NAME, --format F, -o OUT, --color WHEN, --help, -D @FILE, and the default machine file; each cmd_*.c adds its own
** options through a table of CliExtra.
*/
#ifndef PAMC_CLI_H
#define PAMC_CLI_H

#include <stdio.h>

#include "program.h"

/* An option of one subcommand only. */
typedef struct CliExtra {
  const char *name;       /* as typed: "--subst", "--runs" */
  int takes_value;        /* 1: a value follows ("--runs 5" or "--runs=5") */
  const char **value;     /* takes_value: receives the (last) value; untouched when absent */
  int *flag;              /* !takes_value: set to 1 when present; may be NULL */
} CliExtra;

/* What a subcommand accepts. */
typedef struct CliSpec {
  const char *command;    /* "check": for messages, "pamc check: ..." */
  const char *usage;      /* the whole --help text (printed to stdout on --help) */
  const CliExtra *extras; /* its own options, may be NULL */
  int extra_count;        /* length of extras */
  int model_options;      /* 1: -m, -D, -e and the default machine file apply */
  int min_files;          /* fewest positional arguments */
  int max_files;          /* most positional arguments, -1 for no limit */
} CliSpec;

typedef struct CliOptions {
  const char **machine_files; /* -m FILE in order; or the default machine file */
  int machine_count;          /* length of machine_files */
  int default_machine;        /* 1 when machine_files holds the default file (not given) */
  ProgramDefine *defines;     /* every -D in order: name, value text and raw "NAME=VALUE" */
  int define_count;           /* length of defines */
  const char *entry;          /* -e NAME, NULL when not given (main) */
  const char *format;         /* --format F, NULL when not given */
  const char *output;         /* -o OUT, NULL when not given */
  DiagColor color;            /* --color=auto|always|never (auto when not given) */
  int quiet;                  /* --quiet: no notes (the default machine file, overrides) */
  int help;                   /* 1: --help was given and printed: exit 0 */
  const char **files;         /* positional arguments in order */
  int file_count;             /* length of files */
  char *default_path;         /* malloc'd path of the default machine file, or NULL */
  char **define_texts;        /* -D @FILE: the files' texts (malloc'd; defines point into them) */
  int define_text_count;      /* length of define_texts */
} CliOptions;

/* Parses argv (argv[0] is the subcommand's name) into opts. Returns EXIT_OK (0) when the command
** should go on or has printed its --help (opts->help), EXIT_USAGE (2) after printing a usage
** error on stderr ("pamc check: ..."). With spec->model_options and no -m, uses the default
** machine file ${XDG_CONFIG_HOME:-$HOME/.config}/pamc/machine.mach when it exists and says so
** on stderr ("pamc: note: using machine file ..."). Always call cli_free. */
int cli_parse(CliOptions *opts, const CliSpec *spec, int argc, char **argv);
void cli_free(CliOptions *opts);

/* Sets the colour and quietness of diags from --color and --quiet. */
void cli_diags(DiagList *diags, const CliOptions *opts);

/* Refuses a common option the command has no use for (it would be ignored): --format (what
** includes CLI_NO_FORMAT), -o (CLI_NO_OUTPUT), -e (CLI_NO_ENTRY). EXIT_OK, or EXIT_USAGE after
** "pamc COMMAND: takes no -o" on stderr. */
enum { CLI_NO_FORMAT = 1, CLI_NO_OUTPUT = 2, CLI_NO_ENTRY = 4 };
int cli_refuse(const CliOptions *opts, const char *command, int what);

/* Largest --loop-limit (a sum walked index by index costs that many evaluations per point). */
#define CLI_LOOP_LIMIT_MAX 1000000000L

/* The value of --loop-limit N (text NULL: not given, *limit = 0, the default). Returns EXIT_OK,
** or EXIT_USAGE after saying on stderr what is wrong ("pamc COMMAND: ..."). */
int cli_loop_limit(const char *command, const char *text, long *limit);

/* ProgramOptions for program_load from the common options (defines: all of them). */
ProgramOptions cli_program_options(const CliOptions *opts);

/* Loads path and checks it: EXIT_OK, EXIT_IO (unreadable) or EXIT_MODEL (errors, kept in diags).
** With dump, also prints the syntax tree of every file read (S-expressions). Free prog in every
** case. */
int cli_load_checked(Program *prog, DiagList *diags, const char *path, const ProgramOptions *popts,
                     FILE *dump);

/* -o FILE of reduce, predict and simulate: stdout goes to a temporary file beside FILE, renamed
** to FILE when the command succeeded (no partial output). */
typedef struct CliOutput {
  const char *path;       /* FILE, NULL when -o was not given (stdout stays) */
  char *tmp;              /* FILE.tmpXXXXXX (malloc'd), NULL when not open */
  int saved_stdout;       /* the original stdout (dup), restored at the end */
} CliOutput;

/* Sends stdout to a temporary file beside path (path NULL: nothing to do). EXIT_OK, or EXIT_IO
** after saying why on stderr ("pamc COMMAND: cannot write ..."). */
int cli_output_begin(CliOutput *o, const char *command, const char *path);
/* Flushes stdout and restores it; when status is EXIT_OK and every write succeeded, renames the
** temporary file to FILE, else removes it. Returns status, or EXIT_IO when the output failed. */
int cli_output_end(CliOutput *o, const char *command, int status);

/* Longest text of cli_number. */
#define CLI_NUMBER_SIZE 32
/* v for programs (csv, json): the shortest decimal that reads back to the same double (%.17g
** shortened: the first of precisions 1..17 that strtod round-trips); "inf", "-inf", "nan".
** Returns buf, of CLI_NUMBER_SIZE bytes. */
char *cli_number(double v, char *buf);

/* Writes text as a JSON string (quoted, escaped). */
void cli_json_string(FILE *out, const char *text);

/* Splits "NAME=VALUE": 1 on success with *name (malloc'd) and *value (inside text). */
int cli_split_define(const char *text, char **name, const char **value);

#endif
