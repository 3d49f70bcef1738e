/*
** predict_pace.c — the size of a sweep's batches in `pamc predict` and its progress line
** (predict_pace.h).
*/
#include <stdio.h>
#include <time.h>

#include "predict.h"
#include "predict_pace.h"

double predict_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void predict_pace_init(PredictPace *pace, long total, int terminal) {
  pace->batch = PACE_FIRST_BATCH < PREDICT_BATCH ? PACE_FIRST_BATCH : PREDICT_BATCH;
  pace->done = 0;
  pace->total = total;
  pace->started = predict_now();
  pace->terminal = terminal;
  pace->shown = 0;
}

void predict_pace_step(PredictPace *pace, int points, double seconds) {
  pace->done += points;
  if (seconds < PACE_QUICK_SECONDS)
    pace->batch = pace->batch * 4 < PREDICT_BATCH ? pace->batch * 4 : PREDICT_BATCH;
  else if (seconds > PACE_SLOW_SECONDS && pace->batch > 1) pace->batch /= 2;
  double elapsed = predict_now() - pace->started;
  if (!pace->terminal || elapsed < PACE_PROGRESS_AFTER) return;
  fprintf(stderr, "\r\033[Kpamc predict: %ld of %ld points of the sweep evaluated (%.0f s)", pace->done,
          pace->total, elapsed);
  fflush(stderr);
  pace->shown = 1;
}

void predict_pace_finish(PredictPace *pace) {
  if (pace->shown) fputs("\r\033[K", stderr);
  pace->shown = 0;
}
