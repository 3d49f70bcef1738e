/*
** cmd_extract.c — `pamc extract FILE.c... [-f FUNCTION]... [-p compile_commands.json] [-I DIR]
** [-D MACRO[=V]] [-o OUT.pam]`: the command line of the C front end (lang/extract/), and the
** written model checked and written whole or not at all.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "check.h"
#include "commands.h"
#include "extract/extract.h"
#include "program.h"

static const char usage[] =
  "usage: pamc extract FILE.c... [-f FUNCTION]... [-p compile_commands.json] [-I DIR]...\n"
  "                    [-D MACRO[=VALUE]]... [--memory-level auto|l1|l2|llc|mem] [-o OUT.pam]\n"
  "\n"
  "Writes a model (a .pam file) from unmarked C source, read with clang: one process per C\n"
  "function (its integer parameters as the process's parameters), every operation counted by\n"
  "operator and operand type and charged with the machine file's constants (t_add_int,\n"
  "t_mul_double, t_read_l1, ...), loops as closed counts or seq loops, branches as if or\n"
  "choose, calls as process calls; OpenMP, pthreads and MPI as par. What the source does not\n"
  "say (a while loop's count, a data-dependent branch's probability) is a param with a NOTE,\n"
  "or given in the source: #pragma pamc loop_count(E), #pragma pamc probability(E) on one of\n"
  "the two lines before the loop or if. The model is checked before it is written.\n"
  "\n"
  "options:\n"
  "  -f NAME          extract NAME and what it calls (repeatable; default: every function of\n"
  "                   the files). main runs C's main if extracted, else the first -f function\n"
  "  -p PATH          compile_commands.json (or its folder): the files' compiler flags\n"
  "  -I DIR           include directory for clang (repeatable)\n"
  "  -D MACRO[=V]     macro for clang's preprocessor (repeatable)\n"
  "  -U MACRO         undefine a macro for clang's preprocessor (repeatable)\n"
  "  --memory-level L how memory is charged: auto (default): every access at L1 (t_read_l1,\n"
  "                   t_write_l1) and each loop nest's data from where its working set lives\n"
  "                   (the machine file's t_read_vec(ws), t_write_vec(ws), t_read, t_write);\n"
  "                   l1, l2, llc, mem: every access at t_read_L / t_write_L, one level\n"
  "  -o FILE          where to write the model (default: standard output)\n"
  "  --help           this text\n"
  "\n"
  "Exit status: 0 ok, 1 C that does not compile or cannot be modelled (clang's diagnostics, or\n"
  "file:line:col: error: ...), 2 usage error, 3 unreadable file or unwritable output.\n";

static int usage_error(const char *what, const char *arg) {
  fprintf(stderr, "pamc extract: %s%s%s\n(see pamc extract --help)\n", what, arg ? " " : "", arg ? arg : "");
  return EXIT_USAGE;
}

/* The command as typed, for the model's header. */
static char *command_line(int argc, char **argv) {
  size_t n = 16;
  for (int i = 0; i < argc; i++) n += strlen(argv[i]) + 1;
  char *s = malloc(n);
  if (!s) return NULL;
  strcpy(s, "pamc");
  for (int i = 0; i < argc; i++) {
    strcat(s, " ");
    strcat(s, argv[i]);
  }
  return s;
}

/* What the model takes from a machine file besides constants: stand-ins while checking. */
static const char machine_stub[] =
  "\nresource cores = fcfs(1);\nfn mpi_send_measured(bytes) = bytes;\n"
  "fn t_read(ws) = ws;\nfn t_write(ws) = ws;\nfn t_read_vec(ws) = ws;\nfn t_write_vec(ws) = ws;\n"
  "fn t_copy_vec(ws) = ws;\n";

/* Checks the model text as `pamc check -m MACHINE` would (constants without value, `cores`,
** mpi_send_measured and the memory sweep's fns are the machine file's business, not errors here); prints what is wrong. */
static int check_text(const char *text, int library) {
  DiagList diags;
  diag_init(&diags);
  Program prog;
  ProgramOptions popts;
  memset(&popts, 0, sizeof popts);
  size_t n = strlen(text);
  char *full = malloc(n + sizeof machine_stub);
  if (!full) return EXIT_IO;
  memcpy(full, text, n);
  memcpy(full + n, machine_stub, sizeof machine_stub);
  ProgramStatus status = program_load_string(&prog, &diags, "<extracted>", full, &popts);
  if (status == PROGRAM_OK) check_program(&prog);
  int bad = 0;
  for (int i = 0; i < diags.count; i++) {
    if (diags.items[i].level != DIAG_ERROR || strstr(diags.items[i].message, "has no value")) continue;
    if (library && !strncmp(diags.items[i].message, "no entry process", 16)) continue;   /* a library */
    if (!bad) fprintf(stderr, "pamc extract: error: the extracted model does not check (a bug in pamc extract):\n");
    char line[2048];
    diag_format(&diags.items[i], line, sizeof line);
    fprintf(stderr, "%s\n", line);
    bad = 1;
  }
  program_free(&prog);
  diag_free(&diags);
  free(full);
  return bad ? EXIT_MODEL : EXIT_OK;
}

/* The model text for cal_atomic_write. */
typedef struct Text {
  const char *data;       /* the model */
  size_t length;          /* its bytes */
} Text;

static int write_text(FILE *out, void *user, CalError *err) {
  const Text *t = user;
  if (fwrite(t->data, 1, t->length, out) != t->length) {
    snprintf(err->message, sizeof err->message, "write failed");
    return -1;
  }
  return 0;
}

/* Writes text to out whole or not at all (calibrate/atomic_file.h). */
static int write_atomic(const char *out, const char *text, size_t length) {
  Text t = {text, length};
  CalError err;
  memset(&err, 0, sizeof err);
  if (cal_atomic_write(out, write_text, &t, &err) == 0) return EXIT_OK;
  fprintf(stderr, "pamc extract: error: cannot write '%s': %s\n", out, err.message);
  return EXIT_IO;
}

int extract_write(const ExOptions *opts, const char *output) {
  char *text = NULL;
  size_t length = 0;
  FILE *mem = open_memstream(&text, &length);
  if (!mem) return EXIT_IO;
  int status = ex_extract(opts, mem, stderr);
  fclose(mem);
  if (status == EXIT_OK) status = check_text(text, opts->library);
  if (status == EXIT_OK) {
    if (output) status = write_atomic(output, text, length);
    else if (fwrite(text, 1, length, stdout) != length) status = EXIT_IO;
  }
  free(text);
  return status;
}

typedef struct Args {
  const char **list;      /* malloc'd */
  int count;
} Args;

static void push(Args *a, const char *s) {
  const char **grown = realloc(a->list, (size_t)(a->count + 1) * sizeof *grown);
  if (!grown) abort();
  a->list = grown;
  a->list[a->count++] = s;
}

int cmd_extract(int argc, char **argv) {
  Args files = {NULL, 0}, funcs = {NULL, 0}, clang = {NULL, 0};
  char **owned = calloc((size_t)argc + 1, sizeof *owned);   /* "-Idir" built from "-I dir" */
  int nowned = 0, status = EXIT_OK;
  const char *output = NULL, *db = NULL, *level = "auto";
  for (int i = 1; i < argc && status == EXIT_OK; i++) {
    const char *a = argv[i];
    const char *value = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage, stdout);
      status = -1;
    } else if (!strcmp(a, "-f") || !strcmp(a, "-o") || !strcmp(a, "-p") || !strcmp(a, "--memory-level")) {
      if (!value) status = usage_error("missing value after", a);
      else if (a[1] == 'f') push(&funcs, value);
      else if (a[1] == 'o') output = value;
      else if (a[1] == 'p') db = value;
      else level = value;
      i++;
    } else if ((!strncmp(a, "-I", 2) || !strncmp(a, "-D", 2) || !strncmp(a, "-U", 2))) {
      if (a[2]) push(&clang, a);
      else if (!value) status = usage_error("missing value after", a);
      else {
        owned[nowned] = malloc(strlen(value) + 3);
        sprintf(owned[nowned], "%.2s%s", a, value);
        push(&clang, owned[nowned++]);
        i++;
      }
    } else if (a[0] == '-' && a[1]) {
      status = usage_error("unknown option", a);
    } else {
      push(&files, a);
    }
  }
  if (status == EXIT_OK && !files.count) status = usage_error("no C file given", NULL);
  if (status == EXIT_OK && strcmp(level, "auto") && strcmp(level, "l1") && strcmp(level, "l2") && strcmp(level, "llc") && strcmp(level, "mem"))
    status = usage_error("--memory-level wants auto, l1, l2, llc or mem, not", level);
  char *cmd = status == EXIT_OK ? command_line(argc - 1, argv + 1) : NULL;
  if (status == EXIT_OK) {
    ExOptions opts = {files.list, files.count, funcs.list, funcs.count, clang.list, clang.count, db, level, cmd, 0};
    status = extract_write(&opts, output);
  }
  free(cmd);
  for (int i = 0; i < nowned; i++) free(owned[i]);
  free(owned);
  free(files.list);
  free(funcs.list);
  free(clang.list);
  return status < 0 ? EXIT_OK : status;
}
