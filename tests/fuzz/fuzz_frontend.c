/*
** fuzz_frontend.c — libFuzzer target for the front end: any bytes are parsed as a model; the
** parser must not crash, leak or exceed the error cap, whatever it is given.
*/
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ast_dump.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Arena arena;
  DiagList diags;
  arena_init(&arena);
  diag_init(&diags);
  Module *module = parse_string(&arena, &diags, "fuzz.pam", (const char *)data, size);
  if (!module || diags.errors > DIAG_MAX_ERRORS) abort();
  /* Walk the (possibly partial) tree: every pointer the parser left must be valid. */
  FILE *sink = fopen("/dev/null", "w");
  if (sink) {
    ast_dump_module(module, sink);
    fclose(sink);
  }
  diag_free(&diags);
  arena_free(&arena);
  return 0;
}
