/*
** fuzz_inputs.c — libFuzzer target for what users give pamc besides a model: the first byte
** chooses a machine file (-m), a calibration history (--history DIR/history.txt) or a -D value;
** the rest is that input. A machine file and a -D value are applied to a fixed model that uses
** them (load, check, reduce, predict's sweep parser); a history is read, and one that reads is
** written back and must read again with the same series. Nothing may crash, leak or hang.
*/
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "history.h"
#include "program.h"
#include "reduce.h"
#include "sweep.h"

/* The model the machine files and -D values are applied to: params, consts with and without
** values, a fn, a family. */
static const char MODEL[] =
  "param P = 4 in 1 .. 64;\n"
  "param N = 100;\n"
  "const t_point;\n"
  "const latency = 1us;\n"
  "fn msg(b) = latency + b * 1ns;\n"
  "resource bus;\n"
  "resource cpu[P];\n"
  "process main = par (i = 0, P - 1) { use(cpu[i], ceil(N / P) * t_point); use(bus, msg(8)) };\n";

/* A file of this process holding data (libFuzzer runs inputs one after another). */
static const char *scratch(const char *name, const uint8_t *data, size_t size) {
  static char path[256];
  snprintf(path, sizeof path, "/tmp/fuzz_inputs.%ld.%s", (long)getpid(), name);
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  if (size && fwrite(data, 1, size, f) != size) abort();
  fclose(f);
  return path;
}

static void load_and_reduce(const ProgramOptions *opts) {
  DiagList diags;
  Program prog;
  diag_init(&diags);
  ProgramStatus status = program_load_string(&prog, &diags, "model.pam", MODEL, opts);
  if (status == PROGRAM_OK && diags.errors == 0 && check_program(&prog) == 0 && diags.errors == 0) {
    ReduceOptions ropts = {0, 0};
    ReduceResult r;
    reduce_program(&prog, &ropts, &r, &diags);
    reduce_result_free(&r);
  }
  if (diags.errors > DIAG_MAX_ERRORS && diags.dropped == 0) abort();
  program_free(&prog);
  diag_free(&diags);
}

static void machine_file(const uint8_t *data, size_t size) {
  if (memmem(data, size, "import", 6)) return;   /* keep away from the file system */
  const char *path = scratch("mach", data, size);
  const char *files[1] = {path};
  ProgramOptions opts;
  memset(&opts, 0, sizeof opts);
  opts.machine_files = files;
  opts.machine_count = 1;
  load_and_reduce(&opts);
  unlink(path);
}

static void history_file(const uint8_t *data, size_t size) {
  const char *path = scratch("hist", data, size);
  CalHistory *h = calloc(1, sizeof *h), *again = calloc(1, sizeof *again);
  if (!h || !again) abort();
  CalError err = {""};
  if (cal_history_read(path, h, &err) == 0) {
    char copy[300];
    snprintf(copy, sizeof copy, "%s.copy", path);
    if (cal_history_write(copy, h, &err) != 0) abort();
    if (cal_history_read(copy, again, &err) != 0 || again->count != h->count) {
      fprintf(stderr, "fuzz_inputs: a history written back does not read the same: %s\n", err.message);
      abort();
    }
    for (size_t i = 0; i < h->count; i++)
      if (strcmp(h->entries[i].name, again->entries[i].name) || h->entries[i].count != again->entries[i].count)
        abort();
    cal_history_free(again);
    cal_history_free(h);
    unlink(copy);
  }
  free(h);
  free(again);
  unlink(path);
}

static void define_value(const uint8_t *data, size_t size) {
  if (size < 1) return;
  static const char *const names[] = {"P", "N", "t_point", "latency"};
  const char *name = names[data[0] % 4];
  char *value = malloc(size);
  if (!value) abort();
  memcpy(value, data + 1, size - 1);
  value[size - 1] = '\0';
  char raw[64];
  snprintf(raw, sizeof raw, "%s=...", name);
  if (sweep_is_sweep(value)) {   /* predict's sweeps: parse and walk the first points */
    Sweep sweep;
    sweep_init(&sweep);
    char message[SWEEP_MESSAGE_SIZE];
    if (sweep_add(&sweep, name, value, raw, message, sizeof message) == 0) {
      double point[SWEEP_MAX_AXES];
      for (int k = 0; k < 1000 && sweep_next(&sweep, point); k++) {}
      sweep_points(&sweep);
    }
    sweep_free(&sweep);
  } else {
    ProgramDefine defines[2] = {{name, value, raw}, {"t_point", "1ns", "t_point=1ns"}};
    ProgramOptions opts;
    memset(&opts, 0, sizeof opts);
    opts.defines = defines;
    opts.define_count = strcmp(name, "t_point") ? 2 : 1;
    load_and_reduce(&opts);
  }
  free(value);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  switch (data[0] % 3) {
  case 0: machine_file(data + 1, size - 1); break;
  case 1: history_file(data + 1, size - 1); break;
  default: define_value(data + 1, size - 1); break;
  }
  return 0;
}
