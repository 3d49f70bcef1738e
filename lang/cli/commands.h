/*
** commands.h — the subcommands of pamc; each lives in lang/cmd_NAME.c and takes the argv that follows the subcommand's name (argv[0] is the subcommand).
** Each returns an exit status of CLI.md: 0 ok, 1 model/input error, 2 usage, 3 I/O or system.
*/
#ifndef PAMC_COMMANDS_H
#define PAMC_COMMANDS_H

enum { EXIT_OK = 0, EXIT_MODEL = 1, EXIT_USAGE = 2, EXIT_IO = 3 };

int cmd_check(int argc, char **argv);
int cmd_reduce(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_extract(int argc, char **argv);

/* `pamc extract` with its options (extract/extract.h): the model checked, then written to output
** whole or not at all (NULL: standard output). An exit status. */
struct ExOptions;
int extract_write(const struct ExOptions *opts, const char *output);
int cmd_fit(int argc, char **argv);

#endif
