/*
** history.c — reading, merging (FIFO, capped) and atomically writing the benchmark history.
*/
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include "atomic_file.h"
#include "history.h"

#define HISTORY_MAGIC "# pamc calibrate history, version "
#define HISTORY_VERSION 2          /* 1: no run numbers (its samples read as run 0) */
#define HISTORY_STRING_(x) #x
#define HISTORY_STRING(x) HISTORY_STRING_(x)
#define HISTORY_HEADER HISTORY_MAGIC HISTORY_STRING(HISTORY_VERSION)
#define HISTORY_END "# end"

void cal_history_free(CalHistory *h) {
  for (size_t i = 0; i < h->count; i++) {
    free(h->entries[i].samples);
    free(h->entries[i].run);
  }
  h->count = 0;
}

static CalHistoryEntry *find_entry(CalHistory *h, const char *name) {
  for (size_t i = 0; i < h->count; i++)
    if (!strcmp(h->entries[i].name, name)) return &h->entries[i];
  return NULL;
}

/* A new entry with room for `count` samples; NULL when out of memory. */
static CalHistoryEntry *new_entry(CalHistory *h, const char *name, size_t count) {
  CalHistoryEntry *e = &h->entries[h->count];
  e->samples = malloc((count + 1) * sizeof *e->samples);
  e->run = malloc((count + 1) * sizeof *e->run);
  if (!e->samples || !e->run) {
    free(e->samples);
    free(e->run);
    return NULL;
  }
  snprintf(e->name, sizeof e->name, "%s", name);
  e->count = 0;
  h->count++;
  return e;
}

/* Parses "NAME COUNT [@RUN] S1 ... SCOUNT" into a new entry. */
static int parse_line(const char *path, int line_no, char *line, CalHistory *h, CalError *err) {
  char *save = NULL;
  char *name = strtok_r(line, " \t\n", &save);
  char *count_text = strtok_r(NULL, " \t\n", &save);
  if (!name || !count_text || strlen(name) >= CAL_NAME_MAX)
    return cal_fail(err, "%s:%d: malformed history line", path, line_no);
  char *end;
  long count = strtol(count_text, &end, 10);
  if (*end || count < 0 || count > CAL_HISTORY_KEEP_MAX)
    return cal_fail(err, "%s:%d: bad sample count", path, line_no);
  if (find_entry(h, name)) return cal_fail(err, "%s:%d: '%s' appears twice", path, line_no, name);
  if (h->count == CAL_HISTORY_MAX_ENTRIES)
    return cal_fail(err, "%s: more than %d benchmarks", path, CAL_HISTORY_MAX_ENTRIES);
  CalHistoryEntry *e = new_entry(h, name, (size_t)count);
  if (!e) return cal_fail(err, "out of memory reading %s", path);
  unsigned run = 0;
  while (e->count < (size_t)count) {
    char *word = strtok_r(NULL, " \t\n", &save);
    if (!word) return cal_fail(err, "%s:%d: fewer samples than announced", path, line_no);
    if (word[0] == '@') {
      unsigned long serial = strtoul(word + 1, &end, 10);
      if (*end || end == word + 1 || serial > CAL_HISTORY_RUN_MAX)
        return cal_fail(err, "%s:%d: bad run number '%s'", path, line_no, word);
      run = (unsigned)serial;
      continue;
    }
    double v = strtod(word, &end);
    if (*end || end == word || !isfinite(v))   /* finite; negative is fine (overhead subtracted) */
      return cal_fail(err, "%s:%d: bad sample '%s'", path, line_no, word);
    e->run[e->count] = run;
    e->samples[e->count++] = v;
  }
  if (strtok_r(NULL, " \t\n", &save)) return cal_fail(err, "%s:%d: more samples than announced", path, line_no);
  return 0;
}

/* The first line: HISTORY_MAGIC and a version this reader knows. */
static int check_header(const char *path, const char *line, CalError *err) {
  size_t magic = strlen(HISTORY_MAGIC);
  if (strncmp(line, HISTORY_MAGIC, magic))
    return cal_fail(err, "%s:1: not a pamc calibrate history (the first line should be '%s')", path,
                    HISTORY_HEADER);
  char *end;
  long version = strtol(line + magic, &end, 10);
  if (end == line + magic || (*end && *end != '\n') || version < 1)
    return cal_fail(err, "%s:1: bad history version", path);
  if (version > HISTORY_VERSION)
    return cal_fail(err, "%s:1: history version %ld is newer than this pamc reads (%d)", path, version,
                    HISTORY_VERSION);
  return 0;
}

int cal_history_read(const char *path, CalHistory *h, CalError *err) {
  h->count = 0;
  FILE *in = fopen(path, "r");
  if (!in) {
    if (errno == ENOENT) return 0;
    return cal_fail(err, "%s: %s", path, strerror(errno));
  }
  char *line = NULL;
  size_t cap = 0;
  int line_no = 0, status = 0, ended = 0;
  while (status == 0 && getline(&line, &cap, in) > 0) {
    line_no++;
    if (line_no == 1) status = check_header(path, line, err);
    else if (ended) status = cal_fail(err, "%s:%d: text after the end line", path, line_no);
    else if (!strncmp(line, HISTORY_END, strlen(HISTORY_END))) ended = 1;
    else if (line[0] == '#' || line[0] == '\n') continue;
    else status = parse_line(path, line_no, line, h, err);
  }
  free(line);
  if (status == 0 && ferror(in)) status = cal_fail(err, "%s: read error", path);
  if (status == 0 && !ended) status = cal_fail(err, "%s: incomplete history (no end line)", path);
  fclose(in);
  if (status) cal_history_free(h);
  return status;
}

static int write_history(FILE *out, void *user, CalError *err) {
  (void)err;
  const CalHistory *h = user;
  fprintf(out, "%s\n", HISTORY_HEADER);
  for (size_t i = 0; i < h->count; i++) {
    const CalHistoryEntry *e = &h->entries[i];
    fprintf(out, "%s %zu", e->name, e->count);
    for (size_t j = 0; j < e->count; j++) {
      if (j == 0 || e->run[j] != e->run[j - 1]) fprintf(out, " @%u", e->run[j]);
      fprintf(out, " %.17g", e->samples[j]);
    }
    fputc('\n', out);
  }
  fprintf(out, "%s\n", HISTORY_END);
  return 0;
}

int cal_history_write(const char *path, const CalHistory *h, CalError *err) {
  return cal_atomic_write(path, write_history, (void *)h, err);
}

int cal_history_merge_into(CalHistory *h, CalSeries *series, int count, size_t keep, CalError *err) {
  if (keep < 1) keep = 1;
  if (keep > CAL_HISTORY_KEEP_MAX) keep = CAL_HISTORY_KEEP_MAX;
  unsigned this_run = 1;          /* one above every serial in the file (0: version 1 samples) */
  for (size_t i = 0; i < h->count; i++)
    for (size_t j = 0; j < h->entries[i].count; j++)
      if (h->entries[i].run[j] >= this_run) this_run = h->entries[i].run[j] + 1;
  if (this_run > CAL_HISTORY_RUN_MAX) return cal_fail(err, "history: run numbers exhausted");
  for (int i = 0; i < count; i++) {
    CalSeries *s = &series[i];
    CalHistoryEntry *e = find_entry(h, s->name);
    if (!e) {
      if (h->count == CAL_HISTORY_MAX_ENTRIES)
        return cal_fail(err, "history: more than %d benchmarks", CAL_HISTORY_MAX_ENTRIES);
      if (!(e = new_entry(h, s->name, 0))) return cal_fail(err, "out of memory merging the history");
    }
    size_t total = e->count + s->count;
    size_t merged_count = total < keep ? total : keep;
    double *merged = malloc((merged_count + 1) * sizeof *merged);
    unsigned *merged_run = malloc((merged_count + 1) * sizeof *merged_run);
    if (!merged || !merged_run) {
      free(merged);
      free(merged_run);
      return cal_fail(err, "out of memory merging the history");
    }
    size_t skip = total - merged_count;   /* oldest samples dropped first */
    size_t n = 0;
    for (size_t j = 0; j < e->count; j++)
      if (j >= skip) {
        merged_run[n] = e->run[j];
        merged[n++] = e->samples[j];
      }
    for (size_t j = 0; j < s->count; j++)
      if (e->count + j >= skip) {
        merged_run[n] = this_run;
        merged[n++] = s->samples[j];
      }
    free(e->samples);
    free(e->run);
    e->samples = merged;
    e->run = merged_run;
    e->count = merged_count;
    s->fresh = s->count < merged_count ? s->count : merged_count;
    memcpy(s->samples, merged, merged_count * sizeof *merged);
    memcpy(s->run, merged_run, merged_count * sizeof *merged_run);
    s->count = merged_count;
  }
  return 0;
}

/* DIR/name into buf; 0, or -1 with err filled. */
static int history_path(const char *dir, const char *name, char *buf, size_t size, CalError *err) {
  if (snprintf(buf, size, "%s/%s", dir, name) >= (int)size) return cal_fail(err, "%s: path too long", dir);
  return 0;
}

int cal_history_check(const char *dir, CalError *err) {
  char path[CAL_PATH_MAX];
  if (history_path(dir, CAL_HISTORY_FILE, path, sizeof path, err) || cal_make_dirs(dir, err)) return -1;
  if (access(dir, W_OK)) return cal_fail(err, "%s: %s", dir, strerror(errno));
  CalHistory *h = calloc(1, sizeof *h);
  if (!h) return cal_fail(err, "out of memory for the history");
  int status = cal_history_read(path, h, err);
  if (status == 0) cal_history_free(h);
  free(h);
  return status;
}

int cal_history_update(const char *dir, CalSeries *series, int count, size_t keep, CalError *err) {
  char path[CAL_PATH_MAX], lock_path[CAL_PATH_MAX];
  if (history_path(dir, CAL_HISTORY_FILE, path, sizeof path, err) ||
      history_path(dir, CAL_HISTORY_LOCK, lock_path, sizeof lock_path, err) || cal_make_dirs(dir, err))
    return -1;
  int lock = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock < 0) return cal_fail(err, "%s: %s", lock_path, strerror(errno));
  while (flock(lock, LOCK_EX)) {
    if (errno != EINTR) {
      int e = errno;
      close(lock);
      return cal_fail(err, "%s: cannot lock: %s", lock_path, strerror(e));
    }
  }
  cal_atomic_remove_stale(path);  /* we hold the lock: no other writer has a temp file open */
  CalHistory *h = calloc(1, sizeof *h);
  int status = h ? 0 : cal_fail(err, "out of memory for the history");
  if (status == 0) status = cal_history_read(path, h, err);
  if (status == 0) status = cal_history_merge_into(h, series, count, keep, err);
  if (status == 0) status = cal_history_write(path, h, err);
  if (h) {
    cal_history_free(h);
    free(h);
  }
  flock(lock, LOCK_UN);
  close(lock);
  return status;
}
