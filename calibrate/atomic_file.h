/*
** atomic_file.h — writing a file so that readers only ever see the old or the new whole file:
** a temporary file in the same directory (PATH.tmp.XXXXXX), fsync, rename over PATH, fsync of
** the directory. SIGINT, SIGTERM, SIGHUP and SIGQUIT are held back while the temporary file
** exists, so an interrupt cannot leave it behind (it is delivered after the rename or the
** removal); on any failure the temporary file is removed and PATH is untouched. Only SIGKILL or
** a crash can leave a stale PATH.tmp.* behind (never a partial PATH): cal_atomic_remove_stale
** removes those, for callers that hold a lock making them the only writer.
*/
#ifndef PAMC_CAL_ATOMIC_FILE_H
#define PAMC_CAL_ATOMIC_FILE_H

#include <stdio.h>
#include "cal.h"

#define CAL_PATH_MAX 4096         /* PATH_MAX on Linux */

/* Writes the file's content to out; returns 0, or -1 with err filled. */
typedef int (*CalWriteFn)(FILE *out, void *user, CalError *err);

/* Returns 0, or -1 with err filled (and no temporary file left, PATH unchanged). */
int cal_atomic_write(const char *path, CalWriteFn writer, void *user, CalError *err);

/* Creates dir and its missing parents (mode 0755), like mkdir -p; returns 0 or -1 with err. */
int cal_make_dirs(const char *dir, CalError *err);
/* 0 when a file can be written atomically at path (a temporary file beside it is created and
** removed; path is not a directory); -1 with err filled otherwise. Checked before long work. */
int cal_atomic_probe(const char *path, CalError *err);

/* Removes PATH.tmp.* files left by killed writers; returns how many were removed. */
int cal_atomic_remove_stale(const char *path);

#endif
