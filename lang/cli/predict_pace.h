/*
** predict_pace.h — how many points of a sweep `pamc predict` evaluates at once, and its progress
** line. Batches start small and grow while they are quick (a batch costs little per point when its
** tapes run over many points), and shrink when they are slow (sums walked index by index at each
** point), so a long sweep shows on a terminal how far it has got.
*/
#ifndef PAMC_PREDICT_PACE_H
#define PAMC_PREDICT_PACE_H

/* Points of the first batch. */
#define PACE_FIRST_BATCH 16
/* A batch quicker than this grows fourfold (up to PREDICT_BATCH points)... */
#define PACE_QUICK_SECONDS 0.05
/* ...and one slower than this halves (down to one point), so the progress line moves. */
#define PACE_SLOW_SECONDS 0.5
/* Seconds after which a progress line is shown (on a terminal): the sweep's, and refining's
** (predict_refine.c). */
#define PACE_PROGRESS_AFTER 2.0

typedef struct PredictPace {
  int batch;          /* points of the next batch: 1 .. PREDICT_BATCH */
  long done;          /* points evaluated so far */
  long total;         /* points of the sweep */
  double started;     /* monotonic seconds when the sweep started */
  int terminal;       /* 1: progress lines on stderr */
  int shown;          /* 1: a progress line is on the screen */
} PredictPace;

/* Monotonic seconds. */
double predict_now(void);
void predict_pace_init(PredictPace *pace, long total, int terminal);
/* A batch of points took seconds: the next batch's size, and the progress line. */
void predict_pace_step(PredictPace *pace, int points, double seconds);
/* Clears the progress line, if one is shown. */
void predict_pace_finish(PredictPace *pace);

#endif
