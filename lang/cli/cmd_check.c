/*
** cmd_check.c — `pamc check FILE...`: parse and check each model; silent and exit 0 when all is
** well, diagnostics on stderr and exit 1 otherwise (3 when a file cannot be read).
*/
#include <stdio.h>

#include "ast_dump.h"
#include "check.h"
#include "cli.h"
#include "commands.h"

static const char usage[] =
  "usage: pamc check [-m MACHINE]... [-D NAME=VALUE]... [-e NAME] FILE...\n"
  "\n"
  "Parses and checks each model file: names, calls, recursion, and the values that can be\n"
  "decided from param defaults, const values and -D values. Prints nothing and exits 0 when\n"
  "all is well; otherwise prints `file:line:col: error: ...` on stderr.\n"
  "\n"
  "options:\n"
  "  -m FILE         machine file (repeatable; later files override earlier ones); default\n"
  "                  ${XDG_CONFIG_HOME:-$HOME/.config}/pamc/machine.mach when it exists\n"
  "  -D NAME=VALUE   set a param or const: 2us, [1, 2], ... (repeatable)\n"
  "  -e NAME         entry process (default main)\n"
  "  --dump          print the syntax tree of every file read (S-expressions) on stdout\n"
  "  --color WHEN    colour messages: auto (a terminal, unless NO_COLOR), always, never\n"
  "  -q, --quiet     no notes (default machine file; a machine file overriding the model)\n"
  "  --help          this text\n"
  "\n"
  "Exit status: 0 ok, 1 model error, 2 usage error, 3 unreadable file.\n";

/* Loads and checks one file; returns its exit status. */
static int check_one(const char *path, const CliOptions *opts, int dump) {
  DiagList diags;
  diag_init(&diags);
  cli_diags(&diags, opts);
  ProgramOptions popts = cli_program_options(opts);
  Program prog;
  int result = cli_load_checked(&prog, &diags, path, &popts, dump ? stdout : NULL);
  diag_print(&diags, stderr);
  program_free(&prog);
  diag_free(&diags);
  return result;
}

int cmd_check(int argc, char **argv) {
  int dump = 0;
  const CliExtra extras[] = {{"--dump", 0, NULL, &dump}};
  const CliSpec spec = {"check", usage, extras, 1, 1, 1, -1};
  CliOptions opts;
  int status = cli_parse(&opts, &spec, argc, argv);
  if (status == EXIT_OK && !opts.help) status = cli_refuse(&opts, "check", CLI_NO_FORMAT | CLI_NO_OUTPUT);
  if (status != EXIT_OK || opts.help) {
    cli_free(&opts);
    return status;
  }
  int worst = EXIT_OK;
  for (int i = 0; i < opts.file_count; i++) {
    int result = check_one(opts.files[i], &opts, dump);
    if (result == EXIT_IO || (result == EXIT_MODEL && worst == EXIT_OK)) worst = result;
  }
  cli_free(&opts);
  return worst;
}
