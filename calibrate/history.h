/*
** history.h — the benchmark history of --history DIR: for each benchmark its last `keep` samples,
** oldest first, in DIR/history.txt; each run merges its samples in (first in, first out).
**
** File format (text, one line per benchmark, samples in seconds printed with 17 digits):
**     # pamc calibrate history, version 2
**     NAME COUNT @RUN S1 S2 ... @RUN Sk ... SCOUNT
**     # end
** `@RUN` gives the serial number of the calibration run the samples after it came from (each
** update numbers its run one above the largest serial in the file), so that fits can be made per
** run; samples before any `@` (version 1 files) belong to run 0.
** The closing "# end" line marks a complete file (the file is only ever replaced by rename, so a
** file without it was not written by us). Concurrent runs are serialised by flock on
** DIR/history.lock for the whole read-merge-write; the file is replaced atomically
** (atomic_file.h), so a killed run leaves the old or the new file, never a mix.
*/
#ifndef PAMC_CAL_HISTORY_H
#define PAMC_CAL_HISTORY_H

#include <stddef.h>
#include "cal.h"

#define CAL_HISTORY_FILE "history.txt"
#define CAL_HISTORY_LOCK "history.lock"
#define CAL_HISTORY_KEEP_DEFAULT 100   /* about seven default runs of 15 samples */
#define CAL_HISTORY_MAX_ENTRIES 2048   /* benchmarks in one file: CAL_MAX_SERIES, twice */
#define CAL_HISTORY_RUN_MAX 4000000000u /* run serials: one per calibration, never reached */

typedef struct CalHistoryEntry {
  char name[CAL_NAME_MAX];        /* the series' name */
  size_t count;                   /* samples held */
  double *samples;                /* malloc'd, oldest first */
  unsigned *run;                  /* malloc'd: the run serial of each sample */
} CalHistoryEntry;

typedef struct CalHistory {
  CalHistoryEntry entries[CAL_HISTORY_MAX_ENTRIES]; /* in file order, new benchmarks appended */
  size_t count;                   /* entries used */
} CalHistory;

/* Reads path into h (empty when the file does not exist). Returns 0, or -1 with err filled. */
int cal_history_read(const char *path, CalHistory *h, CalError *err);
/* Writes h to path atomically. */
int cal_history_write(const char *path, const CalHistory *h, CalError *err);
void cal_history_free(CalHistory *h);

/* Merges the samples of this run (series[i].samples[0 .. count-1]) into h: each entry becomes its
** old samples followed by the new ones, keeping the last `keep`; the series receive the merged
** samples (fresh = the number of theirs still among them) and their run serials, this run's
** numbered one above the largest serial in h. */
int cal_history_merge_into(CalHistory *h, CalSeries *series, int count, size_t keep, CalError *err);

/* Before measuring: DIR exists (created if needed) and is writable, and its history reads
** (without the lock: a concurrent writer replaces the file atomically). */
int cal_history_check(const char *dir, CalError *err);
/* The whole --history step: lock DIR, read, merge, write, unlock. Creates DIR if needed. */
int cal_history_update(const char *dir, CalSeries *series, int count, size_t keep, CalError *err);

#endif
