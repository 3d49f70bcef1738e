/*
** cli.c — parsing the common options of the subcommands (cli.h).
*/
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ast_dump.h"
#include "check.h"
#include "commands.h"

static void *grow(void *items, int count, size_t size) {
  /* one more element; counts stay small (options on one command line) */
  void *bigger = realloc(items, (size_t)(count + 1) * size);
  if (!bigger) {
    fputs("pamc: out of memory\n", stderr);
    exit(EXIT_IO);
  }
  return bigger;
}

int cli_split_define(const char *text, char **name, const char **value) {
  const char *eq = strchr(text, '=');
  if (!eq || eq == text) return 0;
  if (!isalpha((unsigned char)text[0]) && text[0] != '_') return 0;
  for (const char *p = text; p < eq; p++)
    if (!isalnum((unsigned char)*p) && *p != '_') return 0;
  if (!eq[1]) return 0;
  size_t length = (size_t)(eq - text);
  *name = malloc(length + 1);
  if (!*name) return 0;
  memcpy(*name, text, length);
  (*name)[length] = '\0';
  *value = eq + 1;
  return 1;
}

static int usage_error(const CliSpec *spec, const char *message, const char *what) {
  fprintf(stderr, "pamc %s: %s%s%s (see pamc %s --help)\n", spec->command, message,
          what ? " " : "", what ? what : "", spec->command);
  return EXIT_USAGE;
}

/* The value of an option: "--opt=VALUE", "-xVALUE" or the next argument. */
static const char *option_value(int argc, char **argv, int *i, const char *arg, size_t name_length,
                                int attached_ok) {
  if (arg[name_length] == '=') return arg + name_length + 1;
  if (arg[name_length] != '\0') return attached_ok ? arg + name_length : NULL;
  if (*i + 1 >= argc) return NULL;
  return argv[++*i];
}

static char *default_machine_path(void) {
  const char *config = getenv("XDG_CONFIG_HOME");
  const char *home = getenv("HOME");
  const char *suffix = "/pamc/machine.mach";
  char *path;
  if (config && *config) {
    path = malloc(strlen(config) + strlen(suffix) + 1);
    if (path) sprintf(path, "%s%s", config, suffix);
  } else if (home && *home) {
    const char *middle = "/.config";
    path = malloc(strlen(home) + strlen(middle) + strlen(suffix) + 1);
    if (path) sprintf(path, "%s%s%s", home, middle, suffix);
  } else {
    return NULL;
  }
  return path;
}

/* Appends a define NAME=VALUE (text kept by the caller). EXIT_OK or a usage error. */
static int add_define(CliOptions *opts, const CliSpec *spec, const char *text) {
  char *name;
  const char *value;
  if (!cli_split_define(text, &name, &value)) return usage_error(spec, "-D wants NAME=VALUE, not", text);
  opts->defines = grow(opts->defines, opts->define_count, sizeof *opts->defines);
  opts->defines[opts->define_count++] = (ProgramDefine){name, value, text};
  return EXIT_OK;
}

/* -D @FILE: one NAME=VALUE a line; blank lines and lines starting with # are skipped. */
static int read_define_file(CliOptions *opts, const CliSpec *spec, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "pamc %s: cannot read -D @%s: %s\n", spec->command, path, strerror(errno));
    return EXIT_IO;
  }
  char *text = NULL;
  size_t length = 0;
  FILE *mem = open_memstream(&text, &length);
  int c;
  while (mem && (c = fgetc(f)) != EOF) fputc(c, mem);
  int bad = ferror(f);
  fclose(f);
  if (!mem || fclose(mem) != 0 || bad) {
    free(text);
    fprintf(stderr, "pamc %s: cannot read -D @%s\n", spec->command, path);
    return EXIT_IO;
  }
  opts->define_texts = grow(opts->define_texts, opts->define_text_count, sizeof *opts->define_texts);
  opts->define_texts[opts->define_text_count++] = text;
  for (char *line = text, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = '\0';
    while (*line == ' ' || *line == '\t') line++;
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r')) line[--n] = '\0';
    if (!*line || *line == '#') continue;
    char *eq = strchr(line, '=');   /* "N = 1000*P" reads as "N=1000*P" */
    if (eq) {
      char *name_end = eq, *value = eq + 1;
      while (name_end > line && (name_end[-1] == ' ' || name_end[-1] == '\t')) name_end--;
      while (*value == ' ' || *value == '\t') value++;
      *name_end = '=';
      memmove(name_end + 1, value, strlen(value) + 1);
    }
    int status = add_define(opts, spec, line);
    if (status != EXIT_OK) return status;
  }
  return EXIT_OK;
}

static int match(const char *arg, const char *name) {
  size_t n = strlen(name);
  return !strncmp(arg, name, n) && (arg[n] == '\0' || arg[n] == '=');
}

int cli_parse(CliOptions *opts, const CliSpec *spec, int argc, char **argv) {
  memset(opts, 0, sizeof *opts);
  int only_files = 0;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (only_files || arg[0] != '-' || !strcmp(arg, "-")) {
      opts->files = grow(opts->files, opts->file_count, sizeof *opts->files);
      opts->files[opts->file_count++] = arg;
      continue;
    }
    if (!strcmp(arg, "--")) {
      only_files = 1;
      continue;
    }
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
      fputs(spec->usage, stdout);
      opts->help = 1;
      return EXIT_OK;
    }
    int handled = 0;
    for (int k = 0; k < spec->extra_count; k++) {
      const CliExtra *x = &spec->extras[k];
      if (!match(arg, x->name)) continue;
      handled = 1;
      if (x->takes_value) {
        const char *value = option_value(argc, argv, &i, arg, strlen(x->name), 0);
        if (!value) return usage_error(spec, "missing value after", x->name);
        if (x->value) *x->value = value;
      } else {
        if (arg[strlen(x->name)] == '=') return usage_error(spec, "takes no value:", x->name);
        if (x->flag) *x->flag = 1;
      }
      break;
    }
    if (handled) continue;
    if (spec->model_options && !strncmp(arg, "-m", 2) && strncmp(arg, "--", 2)) {
      const char *value = option_value(argc, argv, &i, arg, 2, 1);
      if (!value || !*value) return usage_error(spec, "missing file after", "-m");
      opts->machine_files = grow(opts->machine_files, opts->machine_count, sizeof *opts->machine_files);
      opts->machine_files[opts->machine_count++] = value;
    } else if (spec->model_options && !strncmp(arg, "-D", 2)) {
      const char *text = option_value(argc, argv, &i, arg, 2, 1);
      if (!text || !*text) return usage_error(spec, "missing NAME=VALUE after", "-D");
      if (text[0] == '@') {
        int status = read_define_file(opts, spec, text + 1);
        if (status != EXIT_OK) return status;
        continue;
      }
      int status = add_define(opts, spec, text);
      if (status != EXIT_OK) return status;
    } else if (spec->model_options && !strncmp(arg, "-e", 2) && strncmp(arg, "--", 2)) {
      const char *value = option_value(argc, argv, &i, arg, 2, 1);
      if (!value || !*value) return usage_error(spec, "missing process name after", "-e");
      opts->entry = value;
    } else if (match(arg, "--format")) {
      const char *value = option_value(argc, argv, &i, arg, strlen("--format"), 0);
      if (!value || !*value) return usage_error(spec, "missing format after", "--format");
      opts->format = value;
    } else if (!strcmp(arg, "--quiet") || !strcmp(arg, "-q")) {
      opts->quiet = 1;
    } else if (match(arg, "--color")) {
      const char *value = option_value(argc, argv, &i, arg, strlen("--color"), 0);
      int color = value ? diag_color_parse(value) : -1;
      if (color < 0) return usage_error(spec, "--color wants auto, always or never, not", value ? value : "nothing");
      opts->color = (DiagColor)color;
    } else if (!strncmp(arg, "-o", 2) && strncmp(arg, "--", 2)) {
      const char *value = option_value(argc, argv, &i, arg, 2, 1);
      if (!value || !*value) return usage_error(spec, "missing file after", "-o");
      opts->output = value;
    } else {
      return usage_error(spec, "unknown option", arg);
    }
  }
  if (opts->file_count < spec->min_files)
    return usage_error(spec, spec->min_files == 1 ? "missing FILE" : "missing FILE arguments", NULL);
  if (spec->max_files >= 0 && opts->file_count > spec->max_files)
    return usage_error(spec, "too many arguments, from", opts->files[spec->max_files]);
  if (spec->model_options && opts->machine_count == 0) {
    opts->default_path = default_machine_path();
    if (opts->default_path && access(opts->default_path, F_OK) == 0) {
      opts->machine_files = grow(opts->machine_files, 0, sizeof *opts->machine_files);
      opts->machine_files[opts->machine_count++] = opts->default_path;
      opts->default_machine = 1;
      if (!opts->quiet) fprintf(stderr, "pamc: note: using machine file %s\n", opts->default_path);
    }
  }
  return EXIT_OK;
}

void cli_free(CliOptions *opts) {
  for (int i = 0; i < opts->define_count; i++) free((char *)opts->defines[i].name);
  free(opts->defines);
  free(opts->machine_files);
  free(opts->files);
  free(opts->default_path);
  for (int i = 0; i < opts->define_text_count; i++) free(opts->define_texts[i]);
  free(opts->define_texts);
  memset(opts, 0, sizeof *opts);
}

ProgramOptions cli_program_options(const CliOptions *opts) {
  ProgramOptions p;
  memset(&p, 0, sizeof p);
  p.machine_files = opts->machine_files;
  p.machine_count = opts->machine_count;
  p.defines = opts->defines;
  p.define_count = opts->define_count;
  p.entry = opts->entry;
  return p;
}

int cli_load_checked(Program *prog, DiagList *diags, const char *path, const ProgramOptions *popts,
                     FILE *dump) {
  ProgramStatus status = program_load(prog, diags, path, popts);
  if (dump && status != PROGRAM_IO)
    for (int i = 0; i < prog->module_count; i++) ast_dump_module(prog->modules[i], dump);
  if (status == PROGRAM_IO) return EXIT_IO;
  if (status != PROGRAM_OK || diags->errors > 0) return EXIT_MODEL;
  if (check_program(prog) > 0 || diags->errors > 0) return EXIT_MODEL;
  return EXIT_OK;
}

void cli_diags(DiagList *diags, const CliOptions *opts) {
  diags->color = opts->color;
  diags->quiet = opts->quiet;
}

int cli_refuse(const CliOptions *opts, const char *command, int what) {
  const char *option = (what & CLI_NO_FORMAT) && opts->format ? "--format"
                     : (what & CLI_NO_OUTPUT) && opts->output ? "-o"
                     : (what & CLI_NO_ENTRY) && opts->entry ? "-e" : NULL;
  if (!option) return EXIT_OK;
  fprintf(stderr, "pamc %s: takes no %s (see pamc %s --help)\n", command, option, command);
  return EXIT_USAGE;
}

int cli_loop_limit(const char *command, const char *text, long *limit) {
  *limit = 0;
  if (!text) return EXIT_OK;
  char *end;
  errno = 0;
  long value = strtol(text, &end, 10);
  if (!text[0] || *end || errno || value < 1 || value > CLI_LOOP_LIMIT_MAX) {
    fprintf(stderr, "pamc %s: --loop-limit wants a whole number of indices in 1 .. %ld, not '%s'\n",
            command, CLI_LOOP_LIMIT_MAX, text);
    return EXIT_USAGE;
  }
  *limit = value;
  return EXIT_OK;
}

int cli_output_begin(CliOutput *o, const char *command, const char *path) {
  memset(o, 0, sizeof *o);
  o->saved_stdout = -1;
  if (!path) return EXIT_OK;
  o->path = path;
  size_t n = strlen(path) + 16;
  o->tmp = malloc(n);
  if (!o->tmp) return EXIT_IO;
  snprintf(o->tmp, n, "%s.tmpXXXXXX", path);
  int fd = mkstemp(o->tmp);
  if (fd < 0) {
    fprintf(stderr, "pamc %s: cannot write %s: %s\n", command, path, strerror(errno));
    free(o->tmp);
    o->tmp = NULL;
    return EXIT_IO;
  }
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);   /* as fopen would create it */
  fflush(stdout);
  o->saved_stdout = dup(STDOUT_FILENO);
  if (o->saved_stdout < 0 || dup2(fd, STDOUT_FILENO) < 0) {
    fprintf(stderr, "pamc %s: cannot write %s: %s\n", command, path, strerror(errno));
    close(fd);
    unlink(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
    return EXIT_IO;
  }
  close(fd);
  return EXIT_OK;
}

int cli_output_end(CliOutput *o, const char *command, int status) {
  if (!o->tmp) return status;
  int failed = fflush(stdout) != 0 || ferror(stdout) || fsync(STDOUT_FILENO) != 0;
  int e = errno;
  dup2(o->saved_stdout, STDOUT_FILENO);
  close(o->saved_stdout);
  clearerr(stdout);
  if (status == EXIT_OK && failed) {
    fprintf(stderr, "pamc %s: cannot write %s: %s\n", command, o->path, strerror(e));
    status = EXIT_IO;
  }
  if (status == EXIT_OK && rename(o->tmp, o->path) != 0) {
    fprintf(stderr, "pamc %s: cannot write %s: %s\n", command, o->path, strerror(errno));
    status = EXIT_IO;
  }
  if (status != EXIT_OK) unlink(o->tmp);
  free(o->tmp);
  o->tmp = NULL;
  return status;
}

char *cli_number(double v, char *buf) {
  if (!isfinite(v)) {
    snprintf(buf, CLI_NUMBER_SIZE, isnan(v) ? "nan" : v < 0 ? "-inf" : "inf");
    return buf;
  }
  if (v == floor(v) && fabs(v) < 1e15) {   /* whole numbers in full: 1000000, not 1e+06 */
    snprintf(buf, CLI_NUMBER_SIZE, "%.0f", v);
    return buf;
  }
  for (int digits = 1; digits <= 17; digits++) {
    snprintf(buf, CLI_NUMBER_SIZE, "%.*g", digits, v);
    if (strtod(buf, NULL) == v) break;
  }
  return buf;
}

void cli_json_string(FILE *out, const char *text) {
  fputc('"', out);
  for (const char *p = text; *p; p++) {
    if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
    else if ((unsigned char)*p < 0x20) fprintf(out, "\\u%04x", *p);
    else fputc(*p, out);
  }
  fputc('"', out);
}
