/*
** fuzz_model.h — what the model fuzz targets share: the input bytes as a model text.
*/
#ifndef PAMC_FUZZ_MODEL_H
#define PAMC_FUZZ_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

#endif
