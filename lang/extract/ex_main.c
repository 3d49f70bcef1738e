/*
** ex_main.c — one extraction from start to end: parse the files (ex_front.c), find the C
** functions, walk the wanted ones (ex_stmt.c), write the model (ex_print.c).
*/
#include <stdlib.h>
#include <string.h>

#include "ex_internal.h"

typedef struct Finder {
  ExCtx *x;               /* where functions go */
} Finder;

/* Records a function definition of a main file, with its integer parameters. */
static void add_function(ExCtx *x, CXCursor c) {
  CXString s = clang_getCursorSpelling(c);
  const char *name = arena_strdup(&x->arena, clang_getCString(s));
  clang_disposeString(s);
  if (ex_func_find(x, name)) return;   /* defined in two files: the first one */
  x->funcs = ex_grow(x->funcs, &x->funcs_cap, x->nfuncs, sizeof *x->funcs);
  ExFunc *f = &x->funcs[x->nfuncs++];
  memset(f, 0, sizeof *f);
  f->decl = c;
  f->name = name;
  f->model_name = !strcmp(name, "main") && !x->opts->library ? "main" : ex_model_name(x, name);
  f->where = ex_where(x, c);
  f->source = ex_source_line(x, c);
  int n = clang_Cursor_getNumArguments(c);
  if (n > 0) {
    f->params = arena_alloc(&x->arena, (size_t)n * sizeof *f->params);
    f->param_decls = arena_alloc(&x->arena, (size_t)n * sizeof *f->param_decls);
  }
  for (int i = 0; i < n; i++) {
    CXCursor p = clang_Cursor_getArgument(c, (unsigned)i);
    if (!ex_is_integer_type(clang_getCursorType(p)) || !strcmp(name, "main")) continue;
    CXString ps = clang_getCursorSpelling(p);
    const char *pn = clang_getCString(ps);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", pn[0] ? pn : "arg");
    clang_disposeString(ps);
    f->params[f->nparams] = ex_model_name(x, buf);
    f->param_decls[f->nparams++] = p;
  }
}

static enum CXChildVisitResult find_functions(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  ExCtx *x = data;
  if (clang_getCursorKind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c) &&
      clang_Location_isFromMainFile(clang_getCursorLocation(c)))
    add_function(x, c);
  return CXChildVisit_Continue;
}

/* A cost library's numeric macros as params, for the specification's sizes and cardinalities
** (`size T1 = 8 * N;`). The counts hold the values at extraction (clang expanded them). */
static void macro_params(ExCtx *x) {
  for (int i = 0; i < x->nmacros; i++) {
    const char *body = x->macros[i].body;
    char *end = NULL;
    strtod(body, &end);
    if (end == body || *end || alg_symbol_find(x->alg, x->macros[i].name)) continue;
    int taken = 0;
    for (int k = 0; k < x->nparams && !taken; k++) taken = !strcmp(x->params[k].name, x->macros[i].name);
    for (int k = 0; k < x->nfuncs && !taken; k++) taken = !strcmp(x->funcs[k].model_name, x->macros[i].name);
    if (taken || strcmp(ex_model_name(x, x->macros[i].name), x->macros[i].name)) continue;
    x->params = ex_grow(x->params, &x->params_cap, x->nparams, sizeof *x->params);
    x->params[x->nparams++] = (ExParam){x->macros[i].name, body, NULL};
  }
}

/* The entry: C's main when it is extracted, else the first function asked for, else the first
** function that no other one calls (the root of the call graph). */
static ExFunc *choose_entry(ExCtx *x) {
  ExFunc *m = ex_func_find(x, "main");
  if (m && m->wanted && !x->opts->library) return m;
  if (x->opts->function_count) return ex_func_find(x, x->opts->functions[0]);
  for (int i = 0; i < x->nfuncs; i++)
    if (!x->funcs[i].called) return &x->funcs[i];
  return x->nfuncs ? &x->funcs[0] : NULL;
}

/* The params of the entry (main calls it with them), before anything else names a param. */
static void entry_params(ExCtx *x) {
  int n = x->entry->nparams;
  x->entry_args = arena_alloc(&x->arena, (size_t)(n + 1) * sizeof *x->entry_args);
  for (int i = 0; i < n; i++) {
    const char *name = x->entry->params[i];
    for (int k = 0; k < x->nparams; k++)
      if (!strcmp(x->params[k].name, name)) {   /* taken by a param of a NOTE: prefix it */
        char buf[256];
        snprintf(buf, sizeof buf, "%s_%s", x->entry->model_name, name);
        name = arena_strdup(&x->arena, buf);
      }
    x->entry_args[i] = name;
    x->params = ex_grow(x->params, &x->params_cap, x->nparams, sizeof *x->params);
    char value[32];
    snprintf(value, sizeof value, "%d", EX_DEFAULT_COUNT);
    x->params[x->nparams++] = (ExParam){name, arena_strdup(&x->arena, value), NULL};
  }
}

static int run(ExCtx *x) {
  const ExOptions *o = x->opts;
  for (int i = 0; i < x->ntus; i++)
    clang_visitChildren(clang_getTranslationUnitCursor(x->tus[i]), find_functions, x);
  if (!x->nfuncs) {
    fprintf(x->err, "pamc extract: error: no function defined in the files\n");
    return 1;
  }
  for (int i = 0; i < o->function_count; i++) {
    ExFunc *f = ex_func_find(x, o->functions[i]);
    if (!f) {
      fprintf(x->err, "pamc extract: error: -f %s: no such function is defined in the files\n", o->functions[i]);
      return 1;
    }
    f->wanted = 1;
  }
  if (!o->function_count)
    for (int i = 0; i < x->nfuncs; i++) x->funcs[i].wanted = 1;
  /* the entry is known once the calls are: walk main or the -f functions first, then the rest */
  ExFunc *first = o->library ? NULL : choose_entry(x);
  if (first && (first == ex_func_find(x, "main") || o->function_count)) {
    x->entry = first;
    entry_params(x);
  }
  for (int i = 0; i < x->nfuncs && !x->errors; i++) {
    ExFunc *f = &x->funcs[i];
    if (f->wanted && f->state == 0 && ex_walk_function(x, f) && !x->errors) x->errors++;
  }
  if (!x->entry && !o->library) {
    x->entry = choose_entry(x);
    if (x->entry) entry_params(x);
  }
  if (x->rank) {
    /* MPI: C's main is the program of one rank; main runs P of them */
    ExFunc *m = ex_func_find(x, "main");
    if (!m || !m->wanted || x->entry != m) {
      fprintf(x->err, "pamc extract: error: MPI_Comm_rank must be called in main (the rank becomes main's parameter)\n");
      return 1;
    }
    m->model_name = "rank_main";
    m->params = arena_alloc(&x->arena, sizeof *m->params);
    m->params[0] = "rank";
    m->nparams = 1;
  }
  if (x->mpi_libs) ex_use_const(x, "t_add_double");
  if (o->library) macro_params(x);
  for (int i = 0; i < x->npragmas && !x->errors; i++)
    if (!x->pragmas[i].used)
      fprintf(x->err, "%s:%u:%u: warning: #pragma pamc %s applies to no statement of the extracted "
              "functions (it must be on one of the two lines before a loop or an if)\n",
              x->pragmas[i].file, x->pragmas[i].line, x->pragmas[i].col, x->pragmas[i].kind);
  return x->errors ? 1 : 0;
}

int ex_extract(const ExOptions *opts, FILE *out, FILE *err) {
  ExCtx x;
  memset(&x, 0, sizeof x);
  x.opts = opts;
  x.err = err;
  arena_init(&x.arena);
  x.alg = alg_ctx_new();
  x.chain = clang_getNullCursor();
  int status = ex_front_open(&x);
  if (status == 0) status = run(&x);
  if (status == 0) status = ex_print_model(&x, out);
  for (int i = 0; i < x.nfuncs; i++) {
    ex_block_free(&x.funcs[i].body);
    ex_cost_free(&x.funcs[i].total);
  }
  free(x.funcs);
  free(x.vars);
  free(x.pragmas);
  free(x.macros);
  free(x.params);
  free(x.consts);
  free(x.ignored);
  free(x.pending);
  free(x.bases);
  free(x.locks);
  ex_front_close(&x);
  alg_ctx_free(x.alg);
  arena_free(&x.arena);
  return status;
}
