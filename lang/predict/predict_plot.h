/*
** predict_plot.h — `pamc predict --plot OUT.svg|OUT.png [--plot-data DIR]`: the points of the
** sweep gathered per curve (one curve per value of the other swept params), drawn by gnuplot into
** OUT through a temporary file renamed on success; the script and data kept in DIR on request.
*/
#ifndef PAMC_PREDICT_PLOT_H
#define PAMC_PREDICT_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "sweep.h"

/* Longest path of a temporary or kept file. */
#define PREDICT_PLOT_PATH_SIZE 4096
/* Points one plot holds at most (gnuplot draws them all; more is a typo or a table's job). */
#define PREDICT_PLOT_MAX_POINTS 100000
/* Curves one plot holds at most (beyond, the colours and the legend cannot be told apart). */
#define PREDICT_PLOT_MAX_CURVES 12
/* Longest curve label ("Q=4, R=2"). */
#define PREDICT_PLOT_LABEL_SIZE 128
/* Regime changes marked at most (beyond, the marks hide the curves). */
#define PREDICT_PLOT_MAX_MARKS 8

enum { PREDICT_PLOT_SVG, PREDICT_PLOT_PNG };
/* How an axis is scaled: chosen from the values, or as asked by --linear, --logx, --logy. */
enum { PREDICT_PLOT_AUTO = -1, PREDICT_PLOT_LINEAR = 0, PREDICT_PLOT_LOG = 1 };

/* What the caller says about the plot. */
typedef struct PredictPlotOptions {
  const char *out;          /* OUT.svg or OUT.png as given */
  const char *data_dir;     /* --plot-data DIR: keep plot.gp and plot.dat there; NULL: do not */
  const char *title;        /* the plot's title: model, machine files, date */
  const char *x_name;       /* the first swept name, on the x axis */
  int logx, logy;           /* PREDICT_PLOT_AUTO, _LINEAR or _LOG */
} PredictPlotOptions;

/* One point of a curve. */
typedef struct PredictPlotPoint {
  double x;                 /* value of the first swept name */
  double lo, est, hi;       /* seconds */
  const char *bottleneck;   /* name of the bottleneck (caller's storage, outlives the plot) */
  int curve;                /* index into PredictPlot.labels */
  double median, min, max;  /* --measured: the runs at this point (seconds); NaN when none */
} PredictPlotPoint;

typedef struct PredictPlot {
  PredictPlotOptions opts;  /* as given to predict_plot_open */
  int kind;                 /* PREDICT_PLOT_SVG or PREDICT_PLOT_PNG */
  char out_tmp[PREDICT_PLOT_PATH_SIZE];   /* OUT.tmpXXXXXX beside OUT: gnuplot's output, renamed */
  PredictPlotPoint *points; /* every point, in the order given */
  long point_count;         /* length of points */
  long point_capacity;      /* allocated length of points */
  char labels[PREDICT_PLOT_MAX_CURVES][PREDICT_PLOT_LABEL_SIZE]; /* curve labels, first seen first */
  int curve_count;          /* labels in use */
} PredictPlot;

/* How the plot is drawn, chosen from its points (predict_plot_script.c). */
typedef struct PredictPlotAxes {
  int logx, logy;           /* PREDICT_PLOT_LINEAR or _LOG */
  double x_min, x_max;      /* range of x drawn (the data's, padded) */
  double y_min, y_max;      /* range of y drawn, in y_unit */
  double y_scale;           /* seconds per y_unit */
  const char *y_unit;       /* "ms", "s", "min", ... */
  int x_base2;              /* x values are powers of two apart: ticks on powers of two */
  int x_ticks_at_values;    /* few distinct x values: one tick at each */
} PredictPlotAxes;

/* PREDICT_PLOT_SVG or _PNG from the name's ending, -1 for anything else. */
int predict_plot_kind(const char *out);
/* The title of a plot of model drawn with the machine files, today (UTC; SOURCE_DATE_EPOCH when
** set, for reproducible plots): "halo.pam — machine.mach — 2026-11-23". */
void predict_plot_title(char *buf, size_t size, const char *model, const char *const *machines,
                        int machine_count);
/* The label of the curve a point of sweep is on: the values of the swept names after the first
** ("Q=4, R=2"; "" with one swept name). */
void predict_plot_curve_label(const Sweep *sweep, const double *point, char *buf, size_t size);
/* 0 when the sweep fits one plot (points and curves), or -1 with the reason in message. */
int predict_plot_fits(const Sweep *sweep, char *message, size_t size);
/* Creates the temporary output beside OUT (so that an unwritable OUT fails before any row) and
** DIR when kept. 0, or -1 with a message in err. */
int predict_plot_open(PredictPlot *plot, const PredictPlotOptions *opts, char *err, size_t size);
/* Adds a point to the curve labelled curve ("" when one param is swept). 0, or -1 with a message
** in err (out of memory, too many points or curves). */
int predict_plot_point(PredictPlot *plot, const char *curve, double x, double lo, double est,
                       double hi, const char *bottleneck, char *err, size_t size);
/* --measured: the runs of the point added last (median, min, max in seconds), drawn as a point
** with its spread over the band. */
void predict_plot_measured(PredictPlot *plot, double median, double min, double max);
/* Writes the data and the script (kept in DIR when asked) and runs gnuplot into OUT. 0, or -1
** with a message in err and no OUT written. Frees the points in every case. */
int predict_plot_finish(PredictPlot *plot, char *err, size_t size);
/* Drops the temporary output and the points (after an error). */
void predict_plot_abort(PredictPlot *plot);

/* The axes of the plot's points (sorted by curve, then x, as predict_plot_finish leaves them). */
void predict_plot_axes(const PredictPlot *plot, PredictPlotAxes *axes);
/* Writes the data file: one block per curve ("# label" line, then "x lo est hi bottleneck median
** min max" in seconds, NaN where nothing was measured), blocks two blank lines apart (gnuplot's
** `index`). */
void predict_plot_write_data(const PredictPlot *plot, FILE *out);
/* Writes the gnuplot script that draws data_path into output (kind: svg or png). */
void predict_plot_write_script(const PredictPlot *plot, const PredictPlotAxes *axes,
                               const char *data_path, const char *output, FILE *out);

#endif
