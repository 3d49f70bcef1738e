/*
** predict_refine.c — a point of a `pamc predict` sweep reduced again at its own values
** (predict_refine.h): the load, check and reduction of the model with the swept names given as
** -D values, its evaluation at the one point, and the merge of its bounds and notes into the row.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "predict_pace.h"
#include "predict_refine.h"

/* The bounds of the model at one point, reduced at its own values. */
typedef struct PointBounds {
  Program prog;             /* the model loaded with the point's values */
  ReduceResult reduced;     /* its reduction */
  PredictPlan plan;         /* its evaluation at the point */
  PredictBatch batch;       /* lo, est, hi and bottleneck at index 0 */
  int loaded, reduced_ok, planned; /* what must be freed */
} PointBounds;

static void point_free(PointBounds *pb) {
  if (pb->planned) predict_plan_free(&pb->plan);
  if (pb->reduced_ok) reduce_result_free(&pb->reduced);
  if (pb->loaded) program_free(&pb->prog);
}

/* Loads, checks, reduces and evaluates the model with the swept names bound to point. Returns 0,
** or -1 when any step fails (its messages are dropped: the sweep has judged the point). */
static int point_bounds(const PredictRefine *pr, const double *point, PointBounds *pb) {
  memset(pb, 0, sizeof *pb);
  int axes = pr->sweep->axis_count, fixed = pr->popts.define_count;
  ProgramDefine *defines = calloc((size_t)(axes + fixed) + 1, sizeof *defines);
  char (*texts)[64] = calloc((size_t)axes + 1, sizeof *texts);
  char (*raws)[192] = calloc((size_t)axes + 1, sizeof *raws);
  int status = -1;
  DiagList diags;
  diag_init(&diags);
  diags.quiet = 1;
  if (defines && texts && raws) {
    for (int a = 0; a < axes; a++) {
      const char *name = pr->sweep->axes[a].name;
      snprintf(texts[a], sizeof texts[a], "%.17g", point[a]);
      snprintf(raws[a], sizeof raws[a], "%s=%s", name, texts[a]);
      defines[a] = (ProgramDefine){name, texts[a], raws[a]};
    }
    for (int i = 0; i < fixed; i++) defines[axes + i] = pr->popts.defines[i];
    ProgramOptions popts = pr->popts;
    popts.defines = defines;
    popts.define_count = axes + fixed;
    ProgramStatus loaded = program_load(&pb->prog, &diags, pr->path, &popts);
    pb->loaded = 1;
    if (loaded == PROGRAM_OK && diags.errors == 0 && check_program(&pb->prog) == 0 && diags.errors == 0) {
      ReduceOptions ropts = {0, pr->loop_limit};
      pb->reduced_ok = reduce_program(&pb->prog, &ropts, &pb->reduced, &diags) == 0;
    }
    if (pb->reduced_ok) {
      Sweep none;
      sweep_init(&none);
      pb->planned = 1;
      if (predict_plan_init(&pb->plan, &pb->reduced, &none, &diags) == 0 &&
          predict_eval(&pb->plan, 1, NULL, &pb->batch) == 0 && predict_approx_eval(&pb->plan, 1) == 0)
        status = 0;
      sweep_free(&none);
    }
  }
  diag_free(&diags);
  free(defines);
  free(texts);
  free(raws);
  return status;
}

/* The file name of the sweep's program that is the same path as file (notes outlive the point's
** program), or NULL. */
static const char *sweep_file(const PredictRefine *pr, const char *file) {
  if (!file) return NULL;
  for (int i = 0; i < pr->sweep_prog->module_count; i++)
    if (!strcmp(pr->sweep_prog->modules[i]->path, file)) return pr->sweep_prog->modules[i]->path;
  return NULL;
}

/* The sweep's own term of the same name (the plot keeps the pointer past the point's
** reduction), or NULL: the terms are the critical path and the resources, the same in both. */
static const char *sweep_term(const ReduceResult *r, const char *name) {
  for (int t = 0; t < r->term_count; t++)
    if (!strcmp(r->terms[t].name, name)) return r->terms[t].name;
  return NULL;
}

/* 1 when note a is the note (bound, zero, what) at loc: the same term at the same place. */
static int same_place(const ReduceApprox *a, int bound, int zero, const char *what, SrcLoc loc) {
  return a->bound == bound && a->zero == zero && !strcmp(a->what, what) && a->loc.line == loc.line &&
         a->loc.col == loc.col && (a->loc.file == NULL) == (loc.file == NULL) &&
         (!loc.file || !strcmp(a->loc.file, loc.file));
}

/* The sweep's note that is the same as the point's note a (bound, term, place), or -1. */
static int same_note(const ReduceResult *r, const ReduceApprox *a) {
  for (int j = 0; j < r->approx_count; j++) {
    const ReduceApprox *b = &r->approx[j];
    if (same_place(a, b->bound, b->zero, b->what, b->loc)) return j;
  }
  return -1;
}

/* Keeps a note of the point's reduction that the sweep's has not (once), at the same place in the
** sweep's program (nowhere when its file is not one of the sweep's). */
static void keep_note(PredictRefine *pr, const ReduceApprox *a) {
  SrcLoc loc = a->loc;
  loc.file = sweep_file(pr, a->loc.file);
  if (!loc.file) loc = (SrcLoc){0};
  ReduceApprox mapped = *a;
  mapped.loc = loc;
  for (int i = 0; i < pr->note_count; i++) {
    const RefineNote *n = &pr->notes[i];
    if (same_place(&mapped, n->bound, n->zero, n->what, n->loc)) return;
  }
  if (pr->note_count == PREDICT_REFINE_MAX_NOTES) return;
  char *what = malloc(strlen(a->what) + 1);
  if (!what) return;
  strcpy(what, a->what);
  pr->notes[pr->note_count++] = (RefineNote){a->bound, what, loc, a->zero};
}

/* The notes of the point's reduction on the bounds the row took from it: matched to the
** sweep's (row->point_notes) or kept (pr->notes), and the row's approx text. */
static void merge_notes(PredictRefine *pr, const ReduceResult *r, PointBounds *pb, RefineRow *row) {
  int count = pb->reduced.approx_count;
  unsigned char *on = calloc((size_t)count + 1, 1);
  if (!on) return;
  for (int i = 0; i < count; i++) {
    const ReduceApprox *a = &pb->reduced.approx[i];
    int taken = a->bound ? row->hi_from_point : row->lo_from_point;
    if (!taken || !pb->plan.approx_on[i]) continue;
    on[i] = 1;
    int j = same_note(r, a);
    if (j >= 0) row->point_notes[j] = 1;
    else keep_note(pr, a);
  }
  predict_approx_column(&pb->reduced, on, row->approx, sizeof row->approx);
  free(on);
}

static void show_progress(PredictRefine *pr) {
  if (!pr->progress) return;
  if (predict_now() - pr->started < PACE_PROGRESS_AFTER) return;
  fprintf(stderr, "\r\033[Kpamc predict: reducing the sweep's points at their own values: %ld of at most %ld",
          pr->refined, pr->refined + pr->budget);
  fflush(stderr);
  pr->progress = 2;
}

int predict_refine_exact(double lo, double hi) {
  return isfinite(hi) && hi <= lo + 1e-9 * fabs(lo);
}

int predict_refine_row(PredictRefine *pr, const ReduceResult *r, const double *point, RefineRow *row) {
  row->lo_from_point = row->hi_from_point = 0;
  row->approx[0] = 0;
  /* exact, or no wider than rounding (a sum walked index by index), or not a number: nothing to gain */
  if (!(row->hi > row->lo * (1 + 1e-12)) || predict_refine_exact(row->lo, row->hi)) return 0;
  if (pr->budget <= 0) {
    pr->skipped++;
    return 0;
  }
  if (!pr->started) pr->started = predict_now();
  pr->budget--;
  pr->refined++;
  PointBounds pb;
  int moved = 0;
  if (point_bounds(pr, point, &pb) == 0) {
    double lo = pb.batch.lo[0], est = pb.batch.est[0], hi = pb.batch.hi[0];
    if (lo > row->lo || est > row->est) {   /* T_lo of the point: the larger lower bound */
      row->lo_from_point = 1;
      if (lo > row->lo) row->lo = lo;
      if (est > row->est) {
        row->est = est;
        const char *name = sweep_term(r, pb.reduced.terms[pb.batch.bottleneck[0]].name);
        if (name) row->bottleneck = name;
      }
    }
    if (hi < row->hi) {
      row->hi_from_point = 1;
      row->hi = hi;
    }
    if (row->est < row->lo) row->est = row->lo;   /* est stays inside [lo, hi] */
    if (row->est > row->hi && row->hi >= row->lo) row->est = row->hi;
    moved = row->lo_from_point || row->hi_from_point;
    if (moved) pr->tightened++;
    if (moved && !predict_refine_exact(row->lo, row->hi)) merge_notes(pr, r, &pb, row);
  }
  point_free(&pb);
  show_progress(pr);
  return moved;
}

void predict_refine_finish(PredictRefine *pr, DiagList *diags) {
  if (pr->progress == 2) fputs("\r\033[K", stderr);
  for (int i = 0; i < pr->note_count; i++) {
    RefineNote *n = &pr->notes[i];
    ReduceApprox a = {n->bound, n->what, n->loc, n->zero, NULL, 0};
    ReduceResult one;
    memset(&one, 0, sizeof one);
    one.approx = &a;
    one.approx_count = 1;
    predict_approx_notes(&one, NULL, diags);
    free(n->what);
  }
  pr->note_count = 0;
  if (pr->skipped > 0 && pr->tightened > 0)
    diag_report(diags, DIAG_NOTE, (SrcLoc){0},
                "reduced at their own values, %ld of the sweep's first %ld inexact points got tighter "
                "bounds; %ld later points keep the sweep's (raise --refine, or predict them with -D)",
                pr->tightened, pr->refined, pr->skipped);
}
