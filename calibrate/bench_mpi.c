/*
** bench_mpi.c — the MPI family of `pamc calibrate --mpi`: starts `MPIRUN -np N pamc-mpi-bench`
** (calibrate/mpi_bench.c), reads rank 0's lines as they come and turns them into series:
** mpi_rPEER_msg_SIZE (fit points of the pair 0-PEER: mpi_latency, mpi_byte_time), mpi_barrier and
** mpi_allreduce (times per call).
**
** The child runs with OMPI_ALLOW_RUN_AS_ROOT and oversubscription allowed (Open MPI reads these
** from the environment; other MPIs ignore them), dies with pamc (PR_SET_PDEATHSIG), and is killed
** when it prints nothing for CAL_MPI_SILENCE_SECONDS.
*/
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench.h"

#define CAL_MPI_SILENCE_SECONDS 300  /* the largest full-size series of a slow network, x10 */
#define CAL_MPI_MAX_ARGS 64          /* words of PAMC_MPIRUN plus ours */
#define CAL_MPI_LINE_MAX 65536       /* one series: 200 samples x 16 characters, with room */

int cal_bench_mpi_count(const CalOptions *opt) {
  if (opt->mpi_ranks < 2) return 0;
  int n = 0;
  for (long size = 1; size <= CAL_MPI_MAX_BYTES; size *= opt->quick ? 4 : 2) n++;
  return n * (opt->mpi_ranks - 1) + 2; /* the sizes per pair, barrier, allreduce */
}

/* Appends the numbers after the first word of line to series; -1 on a malformed number. */
static int push_samples(CalSeries *series, const char *numbers) {
  const char *p = numbers;
  int pushed = 0;
  for (;;) {
    while (*p == ' ') p++;
    if (!*p || *p == '\n') break;
    char *end;
    double t = strtod(p, &end);
    if (end == p || !(t >= 0) || (*end && *end != ' ' && *end != '\n')) return -1;
    cal_series_push(series, t);
    pushed++;
    p = end;
  }
  return pushed > 0 ? 0 : -1;
}

int cal_mpi_parse_line(CalRun *run, const char *line, CalError *err) {
  char word[16] = "";
  int ranks = 0, used = 0;
  if (sscanf(line, "pamc-mpi-bench 1 ranks %d", &ranks) == 1) {
    if (ranks < 2) return cal_fail(err, "MPI benchmark: %d rank(s), needs at least 2", ranks);
    run->mpi_ranks = ranks;
    return 0;
  }
  if (!strcmp(line, "end") || !strcmp(line, "end\n")) return run->mpi_ranks ? 1 : cal_fail(err, "MPI benchmark: 'end' before its header");
  if (!run->mpi_ranks) return cal_fail(err, "MPI benchmark: unexpected first line '%.60s'", line);
  if (sscanf(line, "%15s%n", word, &used) != 1)
    return cal_fail(err, "MPI benchmark: empty line");
  char name[CAL_NAME_MAX], bench[CAL_BENCH_MAX];
  CalKind kind = CAL_KIND_TIME;
  double x = 0;
  int peer = 0;
  const char *numbers = line + used;
  if (!strcmp(word, "msg")) {
    long size = 0;
    int size_used = 0;
    if (sscanf(numbers, "%ld %d%n", &size, &peer, &size_used) != 2 || size < 1 || size > CAL_MPI_MAX_BYTES)
      return cal_fail(err, "MPI benchmark: bad message size in '%.60s'", line);
    if (peer < 1 || peer >= run->mpi_ranks)
      return cal_fail(err, "MPI benchmark: bad peer rank in '%.60s'", line);
    numbers += size_used;
    snprintf(name, sizeof name, "mpi_r%d_msg_%ld", peer, size);
    snprintf(bench, sizeof bench, "one-way MPI message of %ld B, ranks 0 and %d ping-pong", size, peer);
    kind = CAL_KIND_FIT_POINT;
    x = (double)size;
  } else if (!strcmp(word, "barrier") || !strcmp(word, "allreduce")) {
    snprintf(name, sizeof name, "mpi_%s", word);
    snprintf(bench, sizeof bench, "MPI_%s%s over %d ranks, timed on rank 0",
             !strcmp(word, "barrier") ? "Barrier" : "Allreduce",
             !strcmp(word, "barrier") ? "" : " of one double (sum)", run->mpi_ranks);
  } else {
    return cal_fail(err, "MPI benchmark: unknown line '%.60s'", line);
  }
  CalSeries *series = cal_run_add_series(run, name, bench, kind, x, err);
  if (!series) return -1;
  series->group = CAL_GROUP_MPI;
  series->peer = peer;
  if (push_samples(series, numbers))
    return cal_fail(err, "MPI benchmark: bad samples in the line of %s", name);
  cal_run_finished(run, series);
  return 0;
}

/* argv of the child: the words of mpirun, then -np N BENCH --reps K --sample-seconds S [--quick].
** Words point into words_buf. */
static int build_argv(const CalOptions *opt, char *words_buf, char **argv, char *numbers, CalError *err) {
  int argc = 0;
  for (char *w = strtok(words_buf, " \t"); w; w = strtok(NULL, " \t")) {
    if (argc == CAL_MPI_MAX_ARGS - 10) return cal_fail(err, "the mpirun command has too many words");
    argv[argc++] = w;
  }
  if (argc == 0) return cal_fail(err, "the mpirun command is empty");
  char *ranks = numbers, *reps = numbers + 32, *seconds = numbers + 64;
  snprintf(ranks, 32, "%d", opt->mpi_ranks);
  snprintf(reps, 32, "%d", opt->reps);
  snprintf(seconds, 32, "%g", opt->sample_seconds);
  argv[argc++] = "-np";
  argv[argc++] = ranks;
  argv[argc++] = (char *)opt->mpi_bench;
  argv[argc++] = "--reps";
  argv[argc++] = reps;
  argv[argc++] = "--sample-seconds";
  argv[argc++] = seconds;
  if (opt->quick) argv[argc++] = "--quick";
  argv[argc] = NULL;
  return 0;
}

static void run_child(int out_fd, char **argv) {
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  dup2(out_fd, STDOUT_FILENO);
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
  setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 0);
  execvp(argv[0], argv);
  fprintf(stderr, "pamc calibrate: cannot run %s: %s\n", argv[0], strerror(errno));
  _exit(127);
}

/* Reads the child's lines until "end", EOF, an error or silence. Returns 1 at "end", 0 at EOF. */
static int read_lines(CalRun *run, int fd, char *line, CalError *err) {
  FILE *in = fdopen(fd, "r");
  if (!in) return cal_fail(err, "fdopen: %s", strerror(errno));
  int status = 0;
  while (status == 0) {
    struct pollfd pfd = {fd, POLLIN, 0};
    int ready = poll(&pfd, 1, CAL_MPI_SILENCE_SECONDS * 1000);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      status = cal_fail(err, "MPI benchmark: no output for %d s", CAL_MPI_SILENCE_SECONDS);
      break;
    }
    if (!fgets(line, CAL_MPI_LINE_MAX, in)) break;
    status = cal_mpi_parse_line(run, line, err);
  }
  fclose(in);
  return status;
}

int cal_bench_mpi_ready(const CalOptions *opt, CalError *err) {
  if (!opt->mpi_bench || access(opt->mpi_bench, X_OK))
    return cal_fail(err, "--mpi: the MPI benchmark program %s is missing (built by `make` when "
                         "mpicc exists; or set PAMC_MPI_BENCH)", opt->mpi_bench ? opt->mpi_bench : "pamc-mpi-bench");
  return 0;
}

int cal_bench_mpi(CalRun *run, CalError *err) {
  const CalOptions *opt = &run->opt;
  if (cal_bench_mpi_ready(opt, err)) return -1;
  char *words = strdup(opt->mpirun ? opt->mpirun : "mpirun"), *line = malloc(CAL_MPI_LINE_MAX);
  char *argv[CAL_MPI_MAX_ARGS], numbers[96];
  int status = (words && line) ? 0 : cal_fail(err, "out of memory");
  if (status == 0) status = build_argv(opt, words, argv, numbers, err);
  int fds[2] = {-1, -1};
  if (status == 0 && pipe(fds)) status = cal_fail(err, "pipe: %s", strerror(errno));
  pid_t child = -1;
  if (status == 0) {
    fflush(NULL);
    child = fork();
    if (child < 0) status = cal_fail(err, "fork: %s", strerror(errno));
    if (child == 0) {
      close(fds[0]);
      run_child(fds[1], argv);
    }
  }
  if (fds[1] >= 0) close(fds[1]);
  int ended = 0;
  if (status == 0) {
    ended = read_lines(run, fds[0], line, err);
    if (ended < 0) status = -1;
  } else if (fds[0] >= 0) {
    close(fds[0]);
  }
  if (child > 0) {
    if (status) kill(child, SIGTERM);
    int child_status = 0;
    while (waitpid(child, &child_status, 0) < 0 && errno == EINTR) {}
    if (status == 0 && !(WIFEXITED(child_status) && WEXITSTATUS(child_status) == 0))
      status = WIFEXITED(child_status)
                   ? cal_fail(err, "--mpi: %s exited with status %d", argv[0], WEXITSTATUS(child_status))
                   : cal_fail(err, "--mpi: %s was killed by signal %d", argv[0], WTERMSIG(child_status));
    if (status == 0 && ended != 1)
      status = cal_fail(err, "--mpi: the MPI benchmark stopped before its last line");
  }
  free(words);
  free(line);
  return status;
}
