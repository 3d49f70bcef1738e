/*
** fuzz_spec.c — libFuzzer target for the specification front end of `pamc gen` (GEN.md): any
** bytes are parsed as a specification; the parser must not crash, leak or exceed the error cap,
** and every part of the (possibly partial) tree it returns must be readable.
*/
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ast_dump.h"
#include "spec_ast.h"

static void dump_items(const SpecItem *items, int count, FILE *sink) {
  for (int i = 0; i < count; i++) fprintf(sink, " %s%d", items[i].name.name, items[i].is_file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Arena arena;
  DiagList diags;
  arena_init(&arena);
  diag_init(&diags);
  Spec *spec = spec_parse_string(&arena, &diags, "fuzz.spec", (const char *)data, size);
  if (!spec || diags.errors > DIAG_MAX_ERRORS) abort();
  FILE *sink = fopen("/dev/null", "w");
  if (sink) {
    if (spec->app_path) fputs(spec->app_path, sink);
    for (int i = 0; i < spec->task_count; i++)
      fprintf(sink, "%s=%s\n", spec->tasks[i].name.name, spec->tasks[i].process.name);
    for (int i = 0; i < spec->size_count; i++) {
      fprintf(sink, "size %s ", spec->sizes[i].target.name);
      ast_dump_expr(spec->sizes[i].bytes, sink);
    }
    for (int i = 0; i < spec->worker_count; i++) {
      fprintf(sink, "workers %s ", spec->workers[i].name.name);
      ast_dump_expr(spec->workers[i].count, sink);
      ast_dump_expr(spec->workers[i].factor, sink);
    }
    for (int i = 0; i < spec->link_count; i++) {
      const SpecLink *link = &spec->links[i];
      fprintf(sink, "%s=%s(%d) ", link->task.name, link->level.name, link->level_number);
      ast_dump_expr(link->count, sink);
      dump_items(link->inputs, link->input_count, sink);
      dump_items(link->outputs, link->output_count, sink);
    }
    fclose(sink);
  }
  diag_free(&diags);
  arena_free(&arena);
  return 0;
}
