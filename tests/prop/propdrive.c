/*
** propdrive.c — the driver and shrinker of the property tests (propdrive.h).
*/
#include "propdrive.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/* Checks model m; the verdict. */
static PropStatus prop_check_model(const GenModel *m, uint64_t seed, PropOutcome *out, PropCheckFn check) {
  char *text = gen_model_text(m, NULL);
  PropStatus status = check("gen.pam", text, seed, out);
  free(text);
  return status;
}

/* Tries candidate c; when it still fails as want, it replaces *m. */
static int prop_try(GenModel *m, const GenModel *c, uint64_t seed, PropStatus want, PropCheckFn check) {
  PropOutcome out;
  if (prop_check_model(c, seed, &out, check) != want) return 0;
  *m = *c;
  return 1;
}

/* Marks the nodes reachable from id. */
static void prop_mark(const GenModel *m, int id, char *live) {
  if (id < 0 || live[id]) return;
  live[id] = 1;
  for (int k = 0; k < GEN_MAX_KIDS; k++) prop_mark(m, m->nodes[id].kids[k], live);
}

/* One pass over every edit; 1 when one was accepted. */
static int prop_shrink_step(GenModel *m, uint64_t seed, PropStatus want, PropCheckFn check) {
  GenModel *c = malloc(sizeof *c);
  if (!c) abort();
  char live[GEN_MAX_NODES] = {0};
  prop_mark(m, m->root, live);
  int done = 0;
  for (int id = 0; id < m->node_count && !done; id++) {
    if (!live[id]) continue;
    const GenNode *n = &m->nodes[id];
    /* the subtree by skip */
    if (n->kind != GEN_SKIP) {
      *c = *m;
      c->nodes[id].kind = GEN_SKIP;
      for (int k = 0; k < GEN_MAX_KIDS; k++) c->nodes[id].kids[k] = -1;
      c->nodes[id].nkids = 0;
      if ((done = prop_try(m, c, seed, want, check))) break;
    }
    /* a compound by one of its children */
    for (int k = 0; k < GEN_MAX_KIDS && !done; k++) {
      if (n->kids[k] < 0) continue;
      *c = *m;
      c->nodes[id] = m->nodes[n->kids[k]];
      done = prop_try(m, c, seed, want, check);
    }
    /* a statement out of a block or || chain */
    for (int k = 0; k < n->nkids && n->nkids > 1 && !done; k++) {
      *c = *m;
      GenNode *cn = &c->nodes[id];
      for (int j = k; j + 1 < cn->nkids; j++) cn->kids[j] = cn->kids[j + 1];
      cn->kids[--cn->nkids] = -1;
      done = prop_try(m, c, seed, want, check);
    }
    /* smaller loops */
    if (!done && (n->kind == GEN_SEQ || n->kind == GEN_PAR || n->kind == GEN_REPEAT)) {
      if (n->hi_param) {
        *c = *m;
        c->nodes[id].hi_param = 0;
        done = prop_try(m, c, seed, want, check);
      }
      if (!done && n->hi > (n->kind == GEN_REPEAT ? 0 : n->lo) && !n->hi_param) {
        *c = *m;
        c->nodes[id].hi--;
        done = prop_try(m, c, seed, want, check);
      }
      if (!done && n->lo > 0) {
        *c = *m;
        c->nodes[id].lo--;
        c->nodes[id].hi--;
        done = prop_try(m, c, seed, want, check);
      }
    }
    /* a use by a delay; simpler durations */
    if (!done && n->kind == GEN_USE) {
      *c = *m;
      c->nodes[id].kind = GEN_DELAY;
      done = prop_try(m, c, seed, want, check);
    }
    if (!done && (n->kind == GEN_USE || n->kind == GEN_DELAY)) {
      GenDur d = n->dur;
      GenDur simpler[6] = {d, d, d, d, d, d};
      simpler[0].c = -1;
      simpler[1].var = -1;
      simpler[2].lit_us = 0;
      simpler[3].coef_c = 1;
      simpler[4].share = 0;
      simpler[5].pick = 0;
      for (int k = 0; k < 6 && !done; k++) {
        if (!memcmp(&simpler[k], &d, sizeof d)) continue;
        *c = *m;
        c->nodes[id].dur = simpler[k];
        done = prop_try(m, c, seed, want, check);
      }
    }
  }
  /* fewer resources, fewer servers, point consts */
  for (int k = 0; k < m->res_count && !done; k++) {
    if (!m->res[k].dropped) {
      *c = *m;
      c->res[k].dropped = 1;
      done = prop_try(m, c, seed, want, check);
    }
    if (!done && m->res[k].servers > 1) {
      *c = *m;
      c->res[k].servers--;
      done = prop_try(m, c, seed, want, check);
    }
  }
  for (int k = 0; k < m->const_count && !done; k++) {
    if (!m->consts[k].dropped) {
      *c = *m;
      c->consts[k].dropped = 1;
      done = prop_try(m, c, seed, want, check);
    }
    if (!done && m->consts[k].hi_ns != m->consts[k].lo_ns) {
      *c = *m;
      c->consts[k].hi_ns = c->consts[k].lo_ns;
      done = prop_try(m, c, seed, want, check);
    }
  }
  free(c);
  return done;
}

int prop_shrink(GenModel *m, uint64_t seed, PropStatus want, PropCheckFn check) {
  int steps = 0;
  while (steps < 1000 && prop_shrink_step(m, seed, want, check)) steps++;
  return steps;
}

/* 1 when skip_dir holds <seed>.pam. */
static int prop_is_skipped(const char *skip_dir, uint64_t seed) {
  if (!skip_dir) return 0;
  char path[1024];
  snprintf(path, sizeof path, "%s/%llu.pam", skip_dir, (unsigned long long)seed);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  fclose(f);
  return 1;
}

void prop_run(uint64_t first, long count, const char *save_dir, const char *skip_dir, FILE *log,
              PropRun *run) {
  memset(run, 0, sizeof *run);
  GenModel *m = malloc(sizeof *m);
  if (!m) abort();
  for (long k = 0; k < count; k++) {
    uint64_t seed = first + (uint64_t)k;
    if (prop_is_skipped(skip_dir, seed)) {
      run->skipped++;
      continue;
    }
    gen_model(m, seed);
    PropOutcome out;
    PropStatus status = prop_check_model(m, seed, &out, prop_check_text);
    run->cases++;
    if (status == PROP_NO_REDUCE) run->reduce_missing = 1;
    if (status == PROP_OK || status == PROP_NO_REDUCE) continue;
    if (status == PROP_INVALID) {
      run->invalid++;
      if (log) fprintf(log, "seed %llu: generated model does not check: %s\n", (unsigned long long)seed, out.message);
      continue;
    }
    run->failures++;
    prop_shrink(m, seed, status, prop_check_text);
    prop_check_model(m, seed, &out, prop_check_text);
    char header[1024];
    snprintf(header, sizeof header,
             "property counterexample (tests/prop, shrunk)\nseed %llu: %s\n%s\n"
             "scenario %s, simulated %.17g, inf T_lo(box) %.17g, sup T_hi(box) %.17g, T_lo(mid) %.17g",
             (unsigned long long)seed, prop_status_name(out.status), out.message, out.scenario,
             out.simulated, out.lo_box, out.hi_box, out.lo_mid);
    char *text = gen_model_text(m, header);
    if (save_dir) {
      char path[1024];
      snprintf(path, sizeof path, "%s/%llu.pam", save_dir, (unsigned long long)seed);
      FILE *f = fopen(path, "w");
      if (f) {
        fputs(text, f);
        fclose(f);
      }
      if (log) fprintf(log, "counterexample: %s (%s: %s)\n", path, prop_status_name(out.status), out.message);
    } else if (log) {
      fprintf(log, "counterexample seed %llu (%s):\n%s", (unsigned long long)seed, prop_status_name(out.status), text);
    }
    free(text);
  }
  free(m);
}

PropStatus prop_check_file(const char *path, FILE *log) {
  FILE *f = fopen(path, "r");
  if (!f) {
    if (log) fprintf(log, "%s: cannot read\n", path);
    return PROP_INVALID;
  }
  char *text = NULL;
  size_t cap = 0, len = 0;
  for (;;) {
    if (len + 4096 + 1 > cap) {
      cap = 2 * cap + 4096 + 1;
      char *grown = realloc(text, cap);
      if (!grown) abort();
      text = grown;
    }
    size_t got = fread(text + len, 1, 4096, f);
    len += got;
    if (got == 0) break;
  }
  fclose(f);
  text[len] = 0;
  /* the seed of the random scenario: the file name's number when it has one */
  const char *base = strrchr(path, '/');
  uint64_t seed = strtoull(base ? base + 1 : path, NULL, 10);
  PropOutcome out;
  PropStatus status = prop_check_text(path, text, seed, &out);
  free(text);
  if (status != PROP_OK && status != PROP_NO_REDUCE && log)
    fprintf(log, "%s: %s: %s\n", path, prop_status_name(status), out.message);
  return status == PROP_NO_REDUCE ? PROP_OK : status;
}
