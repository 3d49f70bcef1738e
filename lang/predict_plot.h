/*
** predict_plot.h — `pamc predict --plot`: rows streamed to a data file, drawn by gnuplot into
** OUT.svg or OUT.png through a temporary file renamed on success.
*/
#ifndef PAMC_PREDICT_PLOT_H
#define PAMC_PREDICT_PLOT_H

#include <stddef.h>
#include <stdio.h>

/* Longest path of the temporary data file. */
#define PREDICT_PLOT_PATH_SIZE 4096

enum { PREDICT_PLOT_SVG, PREDICT_PLOT_PNG };

typedef struct PredictPlot {
  const char *out;          /* OUT as given */
  int kind;                 /* PREDICT_PLOT_SVG or PREDICT_PLOT_PNG */
  FILE *data;               /* the data file being written, NULL once closed */
  char data_path[PREDICT_PLOT_PATH_SIZE]; /* its path (under $TMPDIR or /tmp) */
  char out_tmp[PREDICT_PLOT_PATH_SIZE];   /* OUT.tmpXXXXXX beside OUT: gnuplot's output, renamed */
  double y_min;             /* smallest lo written (log y only when > 0) */
  long points;              /* rows written */
} PredictPlot;

/* PREDICT_PLOT_SVG or _PNG from the name's ending, -1 for anything else. */
int predict_plot_kind(const char *out);
/* Opens the data file and creates the temporary output beside OUT (so that an unwritable OUT
** fails before any row). 0, or -1 with a message in err. */
int predict_plot_open(PredictPlot *plot, const char *out, char *err, size_t size);
void predict_plot_point(PredictPlot *plot, double x, double lo, double est, double hi);
/* Runs gnuplot: a band lo..hi and a line est (bands), or error bars (several params swept, so
** that rows do not follow one curve); log axes when asked. Removes the data file. 0, or -1 with
** a message in err and no OUT written. */
int predict_plot_finish(PredictPlot *plot, const char *x_name, int log_axes, int bands,
                        char *err, size_t size);
/* Drops the data file (after an error). */
void predict_plot_abort(PredictPlot *plot);

#endif
