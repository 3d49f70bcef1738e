/*
** fuzz_gen.c — libFuzzer target for `pamc gen` (GEN.md) as a whole: any bytes are parsed as a
** specification against a fixed cost library (FUZZ_GEN_LIBRARY, the primes example's); a spec
** that gen_check accepts is written out by gen_write, and the model written must load and check
** without an error, as `pamc check` would. A written model that does not check is a bug in the
** generator: the target aborts.
*/
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "gen.h"
#include "program.h"
#include "spec_ast.h"

#ifndef FUZZ_GEN_LIBRARY
#error "FUZZ_GEN_LIBRARY: the absolute path of the cost library"
#endif

/* The library, loaded and checked once (libFuzzer runs every input in one process). */
static Program *library(void) {
  static Program lib;
  static DiagList diags;
  static int loaded;
  if (!loaded) {
    diag_init(&diags);
    if (program_load(&lib, &diags, FUZZ_GEN_LIBRARY, NULL) != PROGRAM_OK) abort();
    check_program(&lib);
    lib.diags = &diags;
    loaded = 1;
  }
  return &lib;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Program *lib = library();
  Arena arena;
  DiagList diags;
  arena_init(&arena);
  diag_init(&diags);
  Spec *spec = spec_parse_string(&arena, &diags, "fuzz.spec", (const char *)data, size);
  if (!spec || diags.errors > DIAG_MAX_ERRORS) abort();
  char *text = NULL;
  size_t length = 0;
  if (diags.errors == 0 && gen_check(spec, lib, &diags) == 0) {
    GenOptions opts = {"fuzz.spec", FUZZ_GEN_LIBRARY, FUZZ_GEN_LIBRARY};
    FILE *mem = open_memstream(&text, &length);
    if (!mem) abort();
    int failed = gen_write(spec, lib, &opts, mem, &diags);
    fclose(mem);
    if (!failed) {
      DiagList model_diags;
      diag_init(&model_diags);
      Program model;
      ProgramStatus status = program_load_string(&model, &model_diags, "<generated>", text, NULL);
      if (status == PROGRAM_OK) check_program(&model);
      if (status != PROGRAM_OK || model_diags.errors) {
        diag_print(&model_diags, stderr);
        fputs(text, stderr);
        abort();
      }
      program_free(&model);
      diag_free(&model_diags);
    }
  }
  free(text);
  diag_free(&diags);
  arena_free(&arena);
  return 0;
}
