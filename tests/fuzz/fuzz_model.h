/*
** fuzz_model.h — what the model fuzz targets share: the input bytes as a model text, loaded and
** checked.
*/
#ifndef PAMC_FUZZ_MODEL_H
#define PAMC_FUZZ_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "program.h"

/* A NUL-terminated copy of data (the loader takes one; free it), or NULL when data names an
** import (the fuzzer is kept away from the file system) or memory is short. */
static inline char *fuzz_model_text(const uint8_t *data, size_t size) {
  if (memmem(data, size, "import", 6)) return NULL;
  char *text = malloc(size + 1);
  if (!text) return NULL;
  memcpy(text, data, size);
  text[size] = '\0';
  return text;
}

/* One fuzz input as a model: its text, the loaded program and the diagnostics. */
typedef struct {
  char *text;       /* the NUL-terminated copy the loader read (owned) */
  Program program;  /* the model as loaded (program_free'd by fuzz_model_free) */
  DiagList diags;   /* every diagnostic of loading and checking */
} FuzzModel;

/* Loads data as a model and checks it. -1: nothing was loaded (an import, or no memory; nothing to
** free); 0: loaded, with errors; 1: loaded and checked without an error. Unless -1, free the
** model with fuzz_model_free. */
static inline int fuzz_model_load(FuzzModel *model, const uint8_t *data, size_t size) {
  model->text = fuzz_model_text(data, size);
  if (!model->text) return -1;
  diag_init(&model->diags);
  ProgramStatus status = program_load_string(&model->program, &model->diags, "fuzz.pam", model->text, NULL);
  if (status != PROGRAM_OK || model->diags.errors != 0) return 0;
  return check_program(&model->program) == 0 && model->diags.errors == 0;
}

static inline void fuzz_model_free(FuzzModel *model) {
  program_free(&model->program);
  diag_free(&model->diags);
  free(model->text);
}

#endif
