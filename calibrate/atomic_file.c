/*
** atomic_file.c — temp file + fsync + rename, with interrupts held back meanwhile.
*/
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "atomic_file.h"

#define TEMP_SUFFIX ".tmp."

/* Splits path into its directory ("." when none) and base name. */
static int split_path(const char *path, char *dir, size_t dir_size, const char **base) {
  const char *slash = strrchr(path, '/');
  if (!slash) {
    snprintf(dir, dir_size, ".");
    *base = path;
    return 0;
  }
  size_t len = (size_t)(slash - path);
  if (len == 0) len = 1;          /* "/file": the root */
  if (len >= dir_size) return -1;
  memcpy(dir, path, len);
  dir[len] = 0;
  *base = slash + 1;
  return 0;
}

static void sync_directory(const char *path) {
  char dir[CAL_PATH_MAX];
  const char *base;
  if (split_path(path, dir, sizeof dir, &base)) return;
  int fd = open(dir, O_RDONLY | O_DIRECTORY);
  if (fd < 0) return;
  fsync(fd);                      /* best effort: some file systems refuse it on directories */
  close(fd);
}

static int write_temp(const char *path, char *temp, CalWriteFn writer, void *user, CalError *err) {
  int fd = mkstemp(temp);
  if (fd < 0) return cal_fail(err, "%s: cannot create a temporary file: %s", path, strerror(errno));
  if (fchmod(fd, 0644)) {
    int e = errno;
    close(fd);
    unlink(temp);
    return cal_fail(err, "%s: %s", temp, strerror(e));
  }
  FILE *out = fdopen(fd, "w");
  if (!out) {
    int e = errno;
    close(fd);
    unlink(temp);
    return cal_fail(err, "%s: %s", temp, strerror(e));
  }
  int status = writer(out, user, err);
  if (status == 0 && (fflush(out) || ferror(out)))
    status = cal_fail(err, "%s: write failed: %s", path, strerror(errno));
  if (status == 0 && fsync(fileno(out)))
    status = cal_fail(err, "%s: fsync failed: %s", path, strerror(errno));
  if (fclose(out) && status == 0)
    status = cal_fail(err, "%s: close failed: %s", path, strerror(errno));
  if (status == 0 && rename(temp, path))
    status = cal_fail(err, "%s: cannot rename the temporary file: %s", path, strerror(errno));
  if (status) unlink(temp);
  return status;
}

int cal_atomic_write(const char *path, CalWriteFn writer, void *user, CalError *err) {
  char temp[CAL_PATH_MAX];
  if (snprintf(temp, sizeof temp, "%s" TEMP_SUFFIX "XXXXXX", path) >= (int)sizeof temp)
    return cal_fail(err, "%s: path too long", path);
  sigset_t held, previous;
  sigemptyset(&held);
  sigaddset(&held, SIGINT);
  sigaddset(&held, SIGTERM);
  sigaddset(&held, SIGHUP);
  sigaddset(&held, SIGQUIT);
  sigprocmask(SIG_BLOCK, &held, &previous);
  int status = write_temp(path, temp, writer, user, err);
  if (status == 0) sync_directory(path);
  sigprocmask(SIG_SETMASK, &previous, NULL);
  return status;
}

int cal_atomic_probe(const char *path, CalError *err) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return cal_fail(err, "%s: is a directory", path);
  char temp[CAL_PATH_MAX];
  if (snprintf(temp, sizeof temp, "%s" TEMP_SUFFIX "XXXXXX", path) >= (int)sizeof temp)
    return cal_fail(err, "%s: path too long", path);
  int fd = mkstemp(temp);
  if (fd < 0) return cal_fail(err, "%s: cannot write there: %s", path, strerror(errno));
  close(fd);
  unlink(temp);
  return 0;
}

int cal_atomic_remove_stale(const char *path) {
  char dir[CAL_PATH_MAX], prefix[CAL_PATH_MAX], victim[CAL_PATH_MAX];
  const char *base;
  if (split_path(path, dir, sizeof dir, &base)) return 0;
  snprintf(prefix, sizeof prefix, "%s" TEMP_SUFFIX, base);
  size_t prefix_len = strlen(prefix);
  DIR *d = opendir(dir);
  if (!d) return 0;
  int removed = 0;
  struct dirent *entry;
  while ((entry = readdir(d)) != NULL) {
    if (strncmp(entry->d_name, prefix, prefix_len)) continue;
    if (snprintf(victim, sizeof victim, "%s/%s", dir, entry->d_name) >= (int)sizeof victim) continue;
    if (unlink(victim) == 0) removed++;
  }
  closedir(d);
  return removed;
}

int cal_make_dirs(const char *dir, CalError *err) {
  char path[CAL_PATH_MAX];
  if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
    return cal_fail(err, "%s: path too long", dir);
  for (char *p = path + 1; ; p++) {
    if (*p != '/' && *p != 0) continue;
    char saved = *p;
    *p = 0;
    struct stat st;
    if (mkdir(path, 0755) && errno != EEXIST)
      return cal_fail(err, "%s: cannot create the directory: %s", path, strerror(errno));
    if (stat(path, &st) || !S_ISDIR(st.st_mode))
      return cal_fail(err, "%s: not a directory", path);
    *p = saved;
    if (saved == 0) break;
  }
  return 0;
}
