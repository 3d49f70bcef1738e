/*
** main.c — the pamc command line: global options and dispatch to the subcommands (commands.h).
*/
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "commands.h"

#ifndef PAMC_VERSION
#define PAMC_VERSION "0.1.0"
#endif

typedef struct Command {
  const char *name;                 /* as typed after `pamc` */
  int (*run)(int argc, char **argv);
  const char *summary;              /* one line for `pamc --help` */
} Command;

static const Command commands[] = {
  {"check", cmd_check, "parse and check model files"},
  {"reduce", cmd_reduce, "print the closed-form lower and upper time bounds"},
  {"predict", cmd_predict, "evaluate the bounds over parameter values and sweeps"},
  {"simulate", cmd_simulate, "run the reference discrete-event simulation"},
  {"calibrate", cmd_calibrate, "measure this machine and write a machine file"},
  {"gen", cmd_gen, "generate a model from an application specification"},
  {"extract", cmd_extract, "write a model from unmarked C source (libclang)"},
  {"fit", cmd_fit, "fit a model's unknown consts to measured run times"},
};

static void usage(FILE *out) {
  fputs("usage: pamc COMMAND [OPTIONS] [FILE...]\n\n"
        "pamc compiles parallel-program models into closed-form time bounds.\n\ncommands:\n", out);
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fputs("\n`pamc help COMMAND` (or `pamc COMMAND --help`) describes a command's options;\n"
        "`pamc -V` (--version) prints the version.\n"
        "Exit status: 0 success, 1 model or input error, 2 usage error, 3 I/O or system error.\n", out);
}

/* Every command's output reaches standard output or the run fails: flushes it and, when a write
** failed (now or before, a full disk or a closed pipe), says so and turns status into EXIT_IO. */
static int finish_stdout(int status) {
  errno = 0;
  int failed = fflush(stdout) != 0;
  int err = errno;
  if (!failed && !ferror(stdout)) return status;
  fprintf(stderr, "pamc: error: writing standard output: %s\n", strerror(err ? err : EIO));
  return EXIT_IO;
}

static int run(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return EXIT_USAGE;
  }
  if (!strcmp(argv[1], "help") && argc > 2) {   /* pamc help CMD: CMD's --help */
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
      if (!strcmp(argv[2], commands[i].name)) {
        char *help_argv[] = {argv[2], "--help", NULL};
        return commands[i].run(2, help_argv);
      }
    fprintf(stderr, "pamc: unknown command '%s' (see pamc --help)\n", argv[2]);
    return EXIT_USAGE;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return EXIT_OK;
  }
  if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
    printf("pamc %s\n", PAMC_VERSION);
    return EXIT_OK;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
  fprintf(stderr, "pamc: unknown command '%s' (see pamc --help)\n", argv[1]);
  return EXIT_USAGE;
}

int main(int argc, char **argv) {
  return finish_stdout(run(argc, argv));
}
