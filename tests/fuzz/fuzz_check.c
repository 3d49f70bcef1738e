/*
** fuzz_check.c — libFuzzer target for the whole front end: any bytes are loaded as a model and
** checked (name resolution, cycles, value checks). Nothing may crash, leak or hang.
*/
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzModel model;
  if (fuzz_model_load(&model, data, size) < 0) return 0;
  if (model.diags.errors > DIAG_MAX_ERRORS && model.diags.dropped == 0) abort();
  fuzz_model_free(&model);
  return 0;
}
