/*
** fuzz_check.c — libFuzzer target for the whole front end: any bytes are loaded as a model and
** checked (name resolution, cycles, value checks). Nothing may crash, leak or hang.
*/
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fuzz_model.h"
#include "program.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_model_text(data, size);
  if (!text) return 0;
  DiagList diags;
  Program program;
  diag_init(&diags);
  ProgramStatus status = program_load_string(&program, &diags, "fuzz.pam", text, NULL);
  if (status == PROGRAM_OK && diags.errors == 0) check_program(&program);
  if (diags.errors > DIAG_MAX_ERRORS && diags.dropped == 0) abort();
  program_free(&program);
  diag_free(&diags);
  free(text);
  return 0;
}
