/*
** load.c — loading a compilation (program.h): the entry file and its imports, machine files,
** -D values, and the symbol table of the declarations in force.
*/
#include "program.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "parse.h"

/* A file being or having been read, for "each file read once" and import cycles. */
typedef struct LoadedFile {
  const char *canonical;        /* realpath of the file */
  const char *shown;            /* path as opened, for messages */
  int in_progress;              /* 1 while its imports are being read: reaching it is a cycle */
  struct LoadedFile *next;      /* older entry */
} LoadedFile;

typedef struct Loader {
  Program *prog;                /* the compilation being loaded */
  LoadedFile *files;            /* every file met, newest first */
  const char *stack[PROGRAM_MAX_IMPORT_DEPTH + 1]; /* shown paths of the import chain */
  int depth;                    /* length of stack */
  int decl_capacity;            /* allocated length of prog->decls */
  int module_capacity;          /* allocated length of prog->modules */
} Loader;

static unsigned hash_name(const char *name) {
  unsigned h = 2166136261u;     /* FNV-1a */
  for (const unsigned char *p = (const unsigned char *)name; *p; p++) h = (h ^ *p) * 16777619u;
  return h;
}

static ProgramSymbol *find_symbol(const Program *prog, const char *name) {
  if (!prog->bucket_count) return NULL;
  for (ProgramSymbol *s = prog->buckets[hash_name(name) & (prog->bucket_count - 1)]; s; s = s->next)
    if (!strcmp(s->name, name)) return s;
  return NULL;
}

/* Puts symbol in the table, doubling the buckets past one symbol per bucket (the old array stays
** in the arena: the arrays add up to twice the last). */
static void insert_symbol(Program *prog, ProgramSymbol *symbol) {
  if (prog->symbol_count >= prog->bucket_count) {
    unsigned count = prog->bucket_count ? 2 * prog->bucket_count : PROGRAM_BUCKETS;
    ProgramSymbol **buckets = arena_alloc(&prog->arena, count * sizeof *buckets);
    memset(buckets, 0, count * sizeof *buckets);
    for (unsigned b = 0; b < prog->bucket_count; b++)
      for (ProgramSymbol *s = prog->buckets[b], *next; s; s = next) {
        next = s->next;
        unsigned h = hash_name(s->name) & (count - 1);
        s->next = buckets[h];
        buckets[h] = s;
      }
    prog->buckets = buckets;
    prog->bucket_count = count;
  }
  unsigned h = hash_name(symbol->name) & (prog->bucket_count - 1);
  symbol->next = prog->buckets[h];
  prog->buckets[h] = symbol;
  prog->symbol_count++;
}

Decl *program_lookup(const Program *prog, const char *name) {
  ProgramSymbol *symbol = find_symbol(prog, name);
  return symbol ? symbol->decl : NULL;
}

Decl *program_entry(const Program *prog) {
  Decl *decl = program_lookup(prog, prog->entry_name);
  return decl && decl->kind == DECL_PROCESS ? decl : NULL;
}

/* Appends to an arena vector, doubling it (the old copy stays in the arena: small). */
static void *push(Arena *arena, void *items, int count, int *capacity, size_t size) {
  if (count < *capacity) return items;
  int grown = *capacity ? 2 * *capacity : 16;
  void *bigger = arena_alloc(arena, (size_t)grown * size);
  if (count) memcpy(bigger, items, (size_t)count * size);
  *capacity = grown;
  return bigger;
}

static void add_module(Loader *loader, Module *module) {
  Program *prog = loader->prog;
  prog->modules = push(&prog->arena, prog->modules, prog->module_count, &loader->module_capacity,
                       sizeof *prog->modules);
  prog->modules[prog->module_count++] = module;
}

static const char *kind_name(DeclKind kind) {
  switch (kind) {
    case DECL_IMPORT: return "import";
    case DECL_PARAM: return "param";
    case DECL_CONST: return "const";
    case DECL_FN: return "fn";
    case DECL_RESOURCE: return "resource";
    case DECL_PROCESS: return "process";
  }
  return "declaration";
}

static void duplicate(Program *prog, Decl *decl, Decl *previous) {
  diag_report(prog->diags, DIAG_ERROR, decl->name.loc, "duplicate definition of '%s'", decl->name.name);
  diag_report(prog->diags, DIAG_NOTE, previous->name.loc, "previous definition is here");
}

/* Enters decl in the symbol table under the override rules of LANGUAGE.md §1. */
static void add_decl(Loader *loader, Decl *decl) {
  Program *prog = loader->prog;
  prog->decls = push(&prog->arena, prog->decls, prog->decl_count, &loader->decl_capacity,
                     sizeof *prog->decls);
  prog->decls[prog->decl_count++] = decl;
  ProgramSymbol *symbol = find_symbol(prog, decl->name.name);
  if (!symbol) {
    symbol = arena_alloc(&prog->arena, sizeof *symbol);
    symbol->name = decl->name.name;
    symbol->decl = decl;
    insert_symbol(prog, symbol);
    return;
  }
  Decl *previous = symbol->decl;
  if (decl->from_machine && previous->from_machine && previous->kind == decl->kind) {
    if (decl->kind != DECL_CONST || decl->u.constant.value) symbol->decl = decl; /* later -m wins */
    return;
  }
  if (decl->from_machine && !previous->from_machine && previous->kind == DECL_CONST &&
      decl->kind == DECL_CONST) {
    if (decl->u.constant.value) symbol->decl = decl;
    return;
  }
  duplicate(prog, decl, previous);
}

/* The directory part of path with a trailing '/', "" for a bare name. */
static char *directory_of(Arena *arena, const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? arena_strndup(arena, path, (size_t)(slash - path + 1)) : arena_strdup(arena, "");
}

static LoadedFile *find_file(Loader *loader, const char *canonical) {
  for (LoadedFile *f = loader->files; f; f = f->next)
    if (!strcmp(f->canonical, canonical)) return f;
  return NULL;
}

static void load_decls(Loader *loader, Module *module, const char *shown);

/* import "path"; — reads the file once, relative to the importing file; a cycle is an error. */
static void load_import(Loader *loader, Decl *import, const char *importer) {
  Program *prog = loader->prog;
  const char *target = import->name.name;
  char *path;
  if (target[0] == '/') {
    path = arena_strdup(&prog->arena, target);
  } else {
    char *dir = directory_of(&prog->arena, importer);
    size_t length = strlen(dir) + strlen(target);
    path = arena_alloc(&prog->arena, length + 1);
    snprintf(path, length + 1, "%s%s", dir, target);
  }
  char resolved[PATH_MAX];
  if (!realpath(path, resolved)) {
    diag_report(prog->diags, DIAG_ERROR, import->loc, "cannot import '%s': %s", target, strerror(errno));
    return;
  }
  LoadedFile *seen = find_file(loader, resolved);
  if (seen && seen->in_progress) {
    /* the chain from the first reading of this file back to it */
    char chain[1024] = "";
    size_t used = 0;
    int start = 0;
    for (int i = 0; i < loader->depth; i++)
      if (!strcmp(loader->stack[i], seen->shown)) { start = i; break; }
    for (int i = start; i < loader->depth; i++)
      used += (size_t)snprintf(chain + used, used < sizeof chain ? sizeof chain - used : 0, "%s -> ",
                               loader->stack[i]);
    if (used < sizeof chain) snprintf(chain + used, sizeof chain - used, "%s", seen->shown);
    diag_report(prog->diags, DIAG_ERROR, import->loc, "import cycle: %s", chain);
    return;
  }
  if (seen) return;                        /* read once */
  if (loader->depth >= PROGRAM_MAX_IMPORT_DEPTH) {
    diag_report(prog->diags, DIAG_ERROR, import->loc, "imports nest deeper than %d files",
                PROGRAM_MAX_IMPORT_DEPTH);
    return;
  }
  int errors_before = prog->diags->errors;
  Module *module = parse_file(&prog->arena, prog->diags, path);
  if (!module) {
    if (prog->diags->errors == errors_before)
      diag_report(prog->diags, DIAG_ERROR, import->loc, "cannot import '%s'", target);
    return;
  }
  LoadedFile *file = arena_alloc(&prog->arena, sizeof *file);
  file->canonical = arena_strdup(&prog->arena, resolved);
  file->shown = path;
  file->in_progress = 1;
  file->next = loader->files;
  loader->files = file;
  add_module(loader, module);
  load_decls(loader, module, path);
  file->in_progress = 0;
}

static void load_decls(Loader *loader, Module *module, const char *shown) {
  loader->stack[loader->depth++] = shown;
  for (int i = 0; i < module->count; i++) {
    Decl *decl = module->decls[i];
    if (decl->kind == DECL_IMPORT) load_import(loader, decl, shown);
    else add_decl(loader, decl);
  }
  loader->depth--;
}

static int load_machine(Loader *loader, const char *path) {
  Program *prog = loader->prog;
  char resolved[PATH_MAX];
  if (!realpath(path, resolved)) {
    diag_report(prog->diags, DIAG_ERROR, (SrcLoc){0}, "cannot read machine file '%s': %s", path,
                strerror(errno));
    return 0;
  }
  Module *module = parse_file(&prog->arena, prog->diags, path);
  if (!module) return 0;
  add_module(loader, module);
  for (int i = 0; i < module->count; i++) {
    Decl *decl = module->decls[i];
    decl->from_machine = 1;
    if (decl->kind != DECL_CONST && decl->kind != DECL_FN && decl->kind != DECL_RESOURCE) {
      diag_report(prog->diags, DIAG_ERROR, decl->loc,
                  "a machine file holds only const, fn and resource declarations, not %s",
                  kind_name(decl->kind));
      continue;
    }
    add_decl(loader, decl);
  }
  return 1;
}

Expr *program_parse_value(Program *prog, const char *label, const char *text) {
  static const char prefix[] = "const _ = ";
  size_t length = strlen(prefix) + strlen(text) + 2;
  char *wrapped = arena_alloc(&prog->arena, length + 1);
  snprintf(wrapped, length + 1, "%s%s;\n", prefix, text);
  int errors_before = prog->diags->errors, kept_before = prog->diags->count;
  const char *name = arena_strdup(&prog->arena, label);
  Module *module = parse_string(&prog->arena, prog->diags, name, wrapped, strlen(wrapped));
  /* columns inside the wrapper mean nothing to the user: say "-D N=2xs: ..." without a place */
  for (int i = kept_before; i < prog->diags->count; i++) {
    Diag *diag = &prog->diags->items[i];
    if (!diag->loc.file || strcmp(diag->loc.file, name)) continue;
    size_t length = strlen(label) + strlen(diag->message) + 3;
    char *message = malloc(length);
    if (!message) abort();
    snprintf(message, length, "%s: %s", label, diag->message);
    free(diag->message);
    diag->message = message;
    diag->loc = (SrcLoc){0};
  }
  if (!module || prog->diags->errors > errors_before) return NULL;
  if (module->count != 1 || module->decls[0]->kind != DECL_CONST || !module->decls[0]->u.constant.value) {
    diag_report(prog->diags, DIAG_ERROR, (SrcLoc){0}, "%s: not a value", label);
    return NULL;
  }
  return module->decls[0]->u.constant.value;
}

void program_unknown_define(Program *prog, const char *raw, const char *name) {
  const char *names[1024] = {NULL};   /* the first params and consts: enough for a suggestion */
  int count = 0, params = 0;
  char list[PROGRAM_PARAM_LIST_SIZE] = "";
  size_t used = 0;
  for (int i = 0; i < prog->decl_count && count < (int)(sizeof names / sizeof names[0]); i++) {
    const Decl *d = prog->decls[i];
    if (d->kind != DECL_PARAM && d->kind != DECL_CONST) continue;
    names[count++] = d->name.name;
    if (d->kind != DECL_PARAM || program_lookup(prog, d->name.name) != d || used + 8 >= sizeof list)
      continue;
    int n = snprintf(list + used, sizeof list - used, "%s%s", params++ ? ", " : "", d->name.name);
    used += n > 0 ? (size_t)n : 0;
    if (used >= sizeof list - 8) used += (size_t)snprintf(list + used, sizeof list - used, ", ...");
  }
  const char *near = check_closest(name, names, count);
  char hint[PROGRAM_PARAM_LIST_SIZE + 64] = "";
  if (near) snprintf(hint, sizeof hint, "; did you mean '%s'?", near);
  else if (params) snprintf(hint, sizeof hint, " (the model's params: %s)", list);
  else snprintf(hint, sizeof hint, " (the model has no params)");
  diag_report(prog->diags, DIAG_ERROR, (SrcLoc){0}, "-D %s: no param or const '%s'%s", raw, name, hint);
}

/* -D NAME=VALUE: a new declaration of NAME with that value, put in force. */
static void apply_define(Loader *loader, int index) {
  Program *prog = loader->prog;
  const ProgramDefine *define = &prog->defines[index];
  const char *raw = define->raw ? define->raw : define->name;
  Decl *target = program_lookup(prog, define->name);
  if (!target) {
    program_unknown_define(prog, raw, define->name);
    return;
  }
  if (target->kind != DECL_PARAM && target->kind != DECL_CONST) {
    diag_report(prog->diags, DIAG_ERROR, (SrcLoc){0}, "-D %s: '%s' is a %s, not a param or const",
                raw, define->name, kind_name(target->kind));
    return;
  }
  size_t label_length = strlen(raw) + 4;
  char *label = arena_alloc(&prog->arena, label_length + 1);
  snprintf(label, label_length + 1, "-D %s", raw);
  Expr *value = program_parse_value(prog, label, define->value);
  if (!value) return;
  Decl *decl = arena_alloc(&prog->arena, sizeof *decl);
  *decl = *target;
  decl->from_machine = 0;
  if (target->kind == DECL_PARAM) decl->u.param.value = value;
  else decl->u.constant.value = value;
  decl->loc = value->loc;
  prog->decls = push(&prog->arena, prog->decls, prog->decl_count, &loader->decl_capacity,
                     sizeof *prog->decls);
  prog->decls[prog->decl_count++] = decl;
  find_symbol(prog, define->name)->decl = decl;
  prog->define_decls[index] = decl;
  prog->define_targets[index] = target;
}

static void start(Program *prog, DiagList *diags, const ProgramOptions *opts) {
  memset(prog, 0, sizeof *prog);
  arena_init(&prog->arena);
  prog->diags = diags;
  prog->entry_name = opts && opts->entry ? opts->entry : "main";
  prog->entry_given = opts && opts->entry;
}

static ProgramStatus finish(Loader *loader, const ProgramOptions *opts) {
  Program *prog = loader->prog;
  int io_failed = 0;
  if (opts) {
    for (int i = 0; i < opts->machine_count; i++)
      if (!load_machine(loader, opts->machine_files[i])) io_failed = 1;
    prog->defines = opts->defines;
    prog->define_count = opts->define_count;
    if (opts->define_count > 0) {
      prog->define_decls = arena_alloc(&prog->arena, (size_t)opts->define_count * sizeof(Decl *));
      prog->define_targets = arena_alloc(&prog->arena, (size_t)opts->define_count * sizeof(Decl *));
    }
    for (int i = 0; i < opts->define_count; i++) apply_define(loader, i);
  }
  if (io_failed) return PROGRAM_IO;
  return prog->diags->errors ? PROGRAM_MODEL : PROGRAM_OK;
}

ProgramStatus program_load(Program *prog, DiagList *diags, const char *path,
                           const ProgramOptions *opts) {
  start(prog, diags, opts);
  prog->path = arena_strdup(&prog->arena, path);
  char resolved[PATH_MAX];
  if (!realpath(path, resolved)) {
    diag_report(diags, DIAG_ERROR, (SrcLoc){0}, "cannot read '%s': %s", path, strerror(errno));
    return PROGRAM_IO;
  }
  Module *module = parse_file(&prog->arena, diags, prog->path);
  if (!module) return PROGRAM_IO;
  Loader loader = {.prog = prog};
  LoadedFile *file = arena_alloc(&prog->arena, sizeof *file);
  file->canonical = arena_strdup(&prog->arena, resolved);
  file->shown = prog->path;
  file->in_progress = 1;
  loader.files = file;
  add_module(&loader, module);
  load_decls(&loader, module, prog->path);
  file->in_progress = 0;
  return finish(&loader, opts);
}

ProgramStatus program_load_string(Program *prog, DiagList *diags, const char *name,
                                  const char *text, const ProgramOptions *opts) {
  start(prog, diags, opts);
  prog->path = arena_strdup(&prog->arena, name);
  Module *module = parse_string(&prog->arena, diags, prog->path, text, strlen(text));
  if (!module) return PROGRAM_MODEL;
  Loader loader = {.prog = prog};
  add_module(&loader, module);
  load_decls(&loader, module, prog->path);
  return finish(&loader, opts);
}

void program_free(Program *prog) {
  arena_free(&prog->arena);
  memset(prog, 0, sizeof *prog);
}
