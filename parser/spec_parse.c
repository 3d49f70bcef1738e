/*
** spec_parse.c — the entry points of the specification front end (spec_ast.h): runs the spec
** scanner and grammar over a file or a string and finishes the Spec's arrays.
*/
#include "spec_ast.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast_build.h"
#include "ast_depth.h"
#include "spec_internal.h"
#include "spec_grammar.h"
#include "spec_lexer.h"

/* Copies a vector of pointers to elements of size bytes into an exact-size arena array. */
static void *finish_array(Arena *arena, const PtrVec *vec, size_t size) {
  char *array = arena_alloc(arena, (size_t)vec->count * size + 1);
  for (int i = 0; i < vec->count; i++) memcpy(array + (size_t)i * size, vec->items[i], size);
  return array;
}

/* Reports e when it nests deeper than AST_SPEC_MAX_DEPTH. */
static void spec_depth(DiagList *diags, const Expr *e) {
  SrcLoc where;
  if (e && ast_depth_check_expr(e, AST_SPEC_MAX_DEPTH, &where) != 0)
    diag_report(diags, DIAG_ERROR, where, "expression nests too deeply (more than %d levels)", AST_SPEC_MAX_DEPTH);
}

Spec *spec_parse_string(Arena *arena, DiagList *diags, const char *name, const char *text,
                        size_t length) {
  SpecCtx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.base.arena = arena;
  ctx.base.diags = diags;
  ctx.base.file = arena_strdup(arena, name);
  ctx.base.line = 1;
  ctx.base.col = 1;
  if (length > (size_t)INT32_MAX || specyylex_init_extra(&ctx, &ctx.base.scanner) != 0) {
    diag_report(diags, DIAG_ERROR, (SrcLoc){0}, "cannot parse '%s': input too large", name);
    return NULL;
  }
  diag_add_source(diags, name, text, length);   /* messages show their line */
  specyy_scan_bytes(text, (int)length, ctx.base.scanner);
  specyyparse(&ctx);
  specyylex_destroy(ctx.base.scanner);

  Spec *spec = arena_alloc(arena, sizeof *spec);
  spec->path = ctx.base.file;
  spec->app_path = ctx.app_path;
  spec->tasks = finish_array(arena, &ctx.tasks, sizeof *spec->tasks);
  spec->task_count = ctx.tasks.count;
  spec->sizes = finish_array(arena, &ctx.sizes, sizeof *spec->sizes);
  spec->size_count = ctx.sizes.count;
  spec->workers = finish_array(arena, &ctx.workers, sizeof *spec->workers);
  spec->worker_count = ctx.workers.count;
  spec->links = finish_array(arena, &ctx.links, sizeof *spec->links);
  spec->link_count = ctx.links.count;
  /* the generator and its checks walk these recursively, written into a model a few levels down */
  for (int i = 0; i < spec->size_count; i++) spec_depth(diags, spec->sizes[i].bytes);
  for (int i = 0; i < spec->worker_count; i++) {
    spec_depth(diags, spec->workers[i].count);
    spec_depth(diags, spec->workers[i].factor);
  }
  for (int i = 0; i < spec->link_count; i++) spec_depth(diags, spec->links[i].count);
  return spec;
}

Spec *spec_parse_file(Arena *arena, DiagList *diags, const char *path) {
  size_t used = 0;
  char *text = parse_read_file(diags, path, &used);
  if (!text) return NULL;
  Spec *spec = spec_parse_string(arena, diags, path, text, used);
  free(text);
  return spec;
}
