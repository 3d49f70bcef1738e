/*
** predict_plot.c — `pamc predict --plot OUT.svg|OUT.png`: the rows are streamed to a data file,
** then gnuplot draws the band lo..hi and est against the first swept param into a temporary file
** that is renamed to OUT only when gnuplot succeeded (no partial output).
*/
#include "predict_plot.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int fail(char *err, size_t size, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  vsnprintf(err, size, format, ap);
  va_end(ap);
  return -1;
}

static int has_suffix(const char *text, const char *suffix) {
  size_t n = strlen(text), m = strlen(suffix);
  return n >= m && !strcmp(text + n - m, suffix);
}

int predict_plot_kind(const char *out) {
  if (has_suffix(out, ".svg")) return PREDICT_PLOT_SVG;
  if (has_suffix(out, ".png")) return PREDICT_PLOT_PNG;
  return -1;
}

int predict_plot_open(PredictPlot *plot, const char *out, char *err, size_t size) {
  memset(plot, 0, sizeof *plot);
  plot->out = out;
  plot->kind = predict_plot_kind(out);
  plot->y_min = INFINITY;
  if (plot->kind < 0) return fail(err, size, "--plot wants a file name ending in .svg or .png, not %s", out);
  if (strlen(out) + 16 > sizeof plot->out_tmp) return fail(err, size, "--plot: name too long");
  snprintf(plot->out_tmp, sizeof plot->out_tmp, "%s.tmpXXXXXX", out);
  int out_fd = mkstemp(plot->out_tmp);
  if (out_fd < 0) return fail(err, size, "cannot create %s.tmp*: %s", out, strerror(errno));
  mode_t mask = umask(0);
  umask(mask);
  fchmod(out_fd, 0666 & ~mask);   /* as a file created by fopen, not mkstemp's 0600 */
  close(out_fd);
  const char *dir = getenv("TMPDIR");
  snprintf(plot->data_path, sizeof plot->data_path, "%s/pamc-plot-XXXXXX", dir && *dir ? dir : "/tmp");
  int fd = mkstemp(plot->data_path);
  if (fd < 0) {
    unlink(plot->out_tmp);
    return fail(err, size, "cannot create a temporary file: %s", strerror(errno));
  }
  plot->data = fdopen(fd, "w");
  if (!plot->data) {
    close(fd);
    unlink(plot->data_path);
    unlink(plot->out_tmp);
    return fail(err, size, "cannot open a temporary file: %s", strerror(errno));
  }
  return 0;
}

void predict_plot_point(PredictPlot *plot, double x, double lo, double est, double hi) {
  fprintf(plot->data, "%.17g %.17g %.17g %.17g\n", x, lo, est, hi);
  if (lo < plot->y_min) plot->y_min = lo;
  plot->points++;
}

void predict_plot_abort(PredictPlot *plot) {
  if (plot->data) {
    fclose(plot->data);
    unlink(plot->data_path);
    unlink(plot->out_tmp);
  }
  plot->data = NULL;
}

/* Writes text into a gnuplot single-quoted string (a quote is doubled). */
static void quoted(FILE *out, const char *text) {
  fputc('\'', out);
  for (const char *p = text; *p; p++) {
    if (*p == '\'') fputc('\'', out);
    fputc(*p, out);
  }
  fputc('\'', out);
}

int predict_plot_finish(PredictPlot *plot, const char *x_name, int log_axes, int bands,
                        char *err, size_t size) {
  if (fclose(plot->data) != 0) {
    plot->data = NULL;
    unlink(plot->data_path);
    unlink(plot->out_tmp);
    return fail(err, size, "cannot write the plot data: %s", strerror(errno));
  }
  plot->data = NULL;
  char *tmp = plot->out_tmp;
  int status = -1;
  FILE *gp = popen("gnuplot", "w");
  if (gp) {
    if (plot->kind == PREDICT_PLOT_SVG) fprintf(gp, "set terminal svg size 800,500 dynamic\n");
    else fprintf(gp, "set terminal pngcairo size 800,500\n");
    fprintf(gp, "set output ");
    quoted(gp, tmp);
    fprintf(gp, "\nset xlabel ");
    quoted(gp, x_name);
    fprintf(gp, "\nset ylabel 'time (s)'\nset key top left\nset grid\n");
    if (log_axes) fprintf(gp, "set logscale x\n");
    if (log_axes && plot->y_min > 0) fprintf(gp, "set logscale y\n");
    fprintf(gp, "plot ");
    quoted(gp, plot->data_path);
    if (bands)
      fprintf(gp, " using 1:2:4 with filledcurves fs transparent solid 0.3 title 'lo .. hi', '' "
                  "using 1:3 with linespoints title 'est'\n");
    else
      fprintf(gp, " using 1:3:2:4 with yerrorbars title 'est, lo .. hi'\n");
    status = pclose(gp);
  }
  unlink(plot->data_path);
  if (status != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    unlink(tmp);
    return fail(err, size, "gnuplot failed (is it installed?): no plot written");
  }
  struct stat st;
  if (stat(tmp, &st) != 0 || st.st_size == 0) {
    unlink(tmp);
    return fail(err, size, "gnuplot wrote nothing: no plot written");
  }
  if (rename(tmp, plot->out) != 0) {
    int e = errno;
    unlink(tmp);
    return fail(err, size, "cannot write %s: %s", plot->out, strerror(e));
  }
  return 0;
}
