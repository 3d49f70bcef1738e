/*
** cmd_stubs.c — subcommands not built yet: each says so and exits with the usage status.
** A subcommand leaves this file when its own cmd_NAME.c exists.
*/
#include <stdio.h>
#include "commands.h"

static int not_built(const char *name) {
  fprintf(stderr, "pamc: '%s' is not built yet in this version\n", name);
  return EXIT_USAGE;
}

int cmd_gen(int argc, char **argv) { (void)argc; (void)argv; return not_built("gen"); }
