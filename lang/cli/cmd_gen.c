/*
** cmd_gen.c — `pamc gen SPEC -l COSTS.pam [-o OUT.pam]`: reads a specification and its cost
** library, writes the generated model (gen.h) after checking it, atomically (temporary file and
** rename: no partial output on error).
*/
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "commands.h"
#include "extract/extract.h"
#include "gen.h"

static const char usage[] =
  "usage: pamc gen SPEC -l COSTS.pam [-o OUT.pam] [-m MACHINE]... [-D NAME=VALUE]...\n"
  "\n"
  "Writes a model (a .pam file) of a task-parallel application from its specification: tasks\n"
  "bound to cost processes of the library, batches at levels with their cardinality, and the\n"
  "flow of data between them (docs/manual.md §4.6). One coordinator runs the batches of cardinality 1; the\n"
  "others are divided among P workers (or the `workers` groups, in proportion to their speed);\n"
  "data moves over one network `net` at the cost `send(bytes)` of the library.\n"
  "The generated model imports the library and is checked before it is written.\n"
  "\n"
  "options:\n"
  "  -l FILE         the cost library (.pam): a process per task, fn send(bytes), and\n"
  "                  optionally process read(bytes) / write(bytes) for files (required);\n"
  "                  or C source (.c): its functions are extracted (pamc extract) into\n"
  "                  NAME_costs.pam beside the output, the library the model imports\n"
  "  -o FILE         where to write the model (default: standard output)\n"
  "  -m FILE         machine file for the library's constants (repeatable)\n"
  "  -D NAME=VALUE   set a param or const of the library while checking (repeatable)\n"
  "  --color WHEN    colour messages: auto (a terminal, unless NO_COLOR), always, never\n"
  "  -q, --quiet     no notes (default machine file; a machine file overriding the model)\n"
  "  --help          this text\n"
  "\n"
  "Exit status: 0 ok, 1 specification or library error, 2 usage error, 3 unreadable file or\n"
  "unwritable output.\n";

/* Longest path handled when making the library's path relative to the output. */
#define GEN_PATH_MAX 4096

/* Moves diagnostics from one list to another, leaving out the complaint that a library has no
** entry process (a library is not a program to run). */
static void move_diags(DiagList *to, DiagList *from) {
  for (int i = 0; i < from->count; i++) {
    const Diag *d = &from->items[i];
    if (strncmp(d->message, "no entry process", 16) == 0) continue;
    diag_report(to, d->level, d->loc, "%s", d->message);
  }
}

/* Loads and checks the library into lib. EXIT_OK, EXIT_MODEL or EXIT_IO; errors into diags. */
static int load_library(Program *lib, DiagList *diags, const char *path, const ProgramOptions *popts) {
  DiagList own;
  diag_init(&own);
  ProgramStatus status = program_load(lib, &own, path, popts);
  if (status == PROGRAM_OK) check_program(lib);
  move_diags(diags, &own);
  diag_free(&own);
  lib->diags = diags;
  if (status == PROGRAM_IO) return EXIT_IO;
  return diags->errors ? EXIT_MODEL : EXIT_OK;
}

/* The path of file relative to the folder dir (both existing): "costs.pam", "../lib/c.pam".
** Falls back to the absolute path of file. Result in buf. */
static void relative_path(char *buf, size_t size, const char *dir, const char *file) {
  char dir_real[GEN_PATH_MAX], file_real[GEN_PATH_MAX];
  if (!realpath(file, file_real)) {
    snprintf(buf, size, "%s", file);
    return;
  }
  if (!realpath(dir, dir_real)) {
    snprintf(buf, size, "%s", file_real);
    return;
  }
  /* common leading components */
  size_t common = 0, i = 0;
  for (;; i++) {
    char a = dir_real[i], b = file_real[i];
    if (a == '\0' && (b == '/' || b == '\0')) {
      common = i;
      break;
    }
    if (a != b) break;
    if (a == '/') common = i;
  }
  buf[0] = '\0';
  for (const char *c = dir_real + common; *c; c++)
    if (*c == '/' && strlen(buf) + 4 < size) strcat(buf, "../");
  const char *rest = file_real + common + (file_real[common] == '/');
  if (strlen(buf) + strlen(rest) + 1 < size) strcat(buf, rest);
}

/* Checks the generated text as `pamc check` would; prints what is wrong. EXIT_OK or EXIT_MODEL. */
static int check_generated(const char *path, const char *text, const ProgramOptions *popts,
                           const CliOptions *cli) {
  DiagList diags;
  diag_init(&diags);
  cli_diags(&diags, cli);
  Program prog;
  ProgramStatus status = path ? program_load(&prog, &diags, path, popts)
                              : program_load_string(&prog, &diags, "<generated>", text, popts);
  if (status == PROGRAM_OK) check_program(&prog);
  int bad = diags.errors > 0;
  if (bad) {
    fprintf(stderr, "pamc gen: error: the generated model does not check (a bug in pamc gen):\n");
    diag_print(&diags, stderr);
  }
  program_free(&prog);
  diag_free(&diags);
  return bad ? EXIT_MODEL : EXIT_OK;
}

/* Writes text to out atomically: a temporary file beside it, checked, then renamed. */
static int write_output(const char *out, const char *text, size_t length, const ProgramOptions *popts,
                        const CliOptions *cli) {
  size_t n = strlen(out);
  char *temp = malloc(n + 16);
  if (!temp) return EXIT_IO;
  snprintf(temp, n + 16, "%s.tmp.XXXXXX", out);
  int fd = mkstemp(temp);
  if (fd < 0) {
    fprintf(stderr, "pamc gen: error: cannot write '%s': %s\n", out, strerror(errno));
    free(temp);
    return EXIT_IO;
  }
  FILE *file = fdopen(fd, "wb");
  int ok = file && fwrite(text, 1, length, file) == length;
  if (file) ok = (fclose(file) == 0) && ok;
  else close(fd);
  int status = ok ? EXIT_OK : EXIT_IO;
  if (!ok) fprintf(stderr, "pamc gen: error: cannot write '%s': %s\n", out, strerror(errno));
  if (status == EXIT_OK) status = check_generated(temp, text, popts, cli);
  if (status == EXIT_OK && rename(temp, out) != 0) {
    fprintf(stderr, "pamc gen: error: cannot write '%s': %s\n", out, strerror(errno));
    status = EXIT_IO;
  }
  if (status != EXIT_OK) unlink(temp);
  free(temp);
  return status;
}

/* Everything after the options: load, check, generate, write. */
static int run(const char *spec_path, const char *library_path, const char *out_path,
               const ProgramOptions *popts, const CliOptions *cli) {
  DiagList diags;
  diag_init(&diags);
  cli_diags(&diags, cli);
  Program lib;
  int status = load_library(&lib, &diags, library_path, popts);
  Arena arena;
  arena_init(&arena);
  Spec *spec = NULL;
  if (status == EXIT_OK) {
    spec = spec_parse_file(&arena, &diags, spec_path);
    if (!spec) status = EXIT_IO;
    else if (diags.errors) status = EXIT_MODEL;
  }
  if (status == EXIT_OK && gen_check(spec, &lib, &diags)) status = EXIT_MODEL;

  char *text = NULL;
  size_t length = 0;
  if (status == EXIT_OK) {
    char import_path[GEN_PATH_MAX], out_dir[GEN_PATH_MAX];
    snprintf(out_dir, sizeof out_dir, "%s", out_path ? out_path : "./x");
    relative_path(import_path, sizeof import_path, dirname(out_dir), library_path);
    GenOptions gopts = {spec_path, library_path, import_path};
    FILE *mem = open_memstream(&text, &length);
    if (!mem) {
      status = EXIT_IO;
    } else {
      if (gen_write(spec, &lib, &gopts, mem, &diags)) status = EXIT_MODEL;
      fclose(mem);
    }
  }
  diag_print(&diags, stderr);
  if (status == EXIT_OK) {
    if (out_path) {
      status = write_output(out_path, text, length, popts, cli);
    } else {
      status = check_generated(NULL, text, popts, cli);
      if (status == EXIT_OK && fwrite(text, 1, length, stdout) != length) status = EXIT_IO;
    }
  }
  free(text);
  arena_free(&arena);
  program_free(&lib);
  diag_free(&diags);
  return status;
}

int cmd_gen(int argc, char **argv) {
  const char *library = NULL;
  const CliExtra extras[] = {{"-l", 1, &library, NULL}};
  const CliSpec spec = {"gen", usage, extras, 1, 1, 1, 1};
  CliOptions opts;
  int status = cli_parse(&opts, &spec, argc, argv);
  if (status == EXIT_OK && !opts.help) status = cli_refuse(&opts, "gen", CLI_NO_FORMAT | CLI_NO_ENTRY);
  if (status != EXIT_OK || opts.help) {
    cli_free(&opts);
    return status;
  }
  if (!library) {
    fprintf(stderr, "pamc gen: missing -l COSTS.pam (the cost library)\n%s", usage);
    cli_free(&opts);
    return EXIT_USAGE;
  }
  ProgramOptions popts = cli_program_options(&opts);
  char *c_library = NULL;
  size_t n = strlen(library);
  if (n > 2 && !strcmp(library + n - 2, ".c")) {
    /* a C library: extracted beside the output as NAME_costs.pam, then used as a .pam one */
    char out_dir[GEN_PATH_MAX], name[GEN_PATH_MAX];
    snprintf(out_dir, sizeof out_dir, "%s", opts.output ? opts.output : "./x");
    snprintf(name, sizeof name, "%s", library);
    char *base = basename(name);
    base[strlen(base) - 2] = '\0';
    c_library = malloc(2 * GEN_PATH_MAX + 16);
    if (c_library) snprintf(c_library, 2 * GEN_PATH_MAX + 16, "%s/%s_costs.pam", dirname(out_dir), base);
    const char *files[1] = {library};
    char command[GEN_PATH_MAX + 64];
    snprintf(command, sizeof command, "pamc gen -l %s (the cost library)", library);
    ExOptions xo = {files, 1, NULL, 0, NULL, 0, NULL, "l1", command, 1};
    status = c_library ? extract_write(&xo, c_library) : EXIT_IO;
    library = c_library;
  }
  if (status == EXIT_OK) status = run(opts.files[0], library, opts.output, &popts, &opts);
  free(c_library);
  cli_free(&opts);
  return status;
}
