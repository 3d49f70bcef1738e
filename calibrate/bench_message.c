/*
** bench_message.c — one-way message time between two processes on this machine, over message
** sizes 1 B .. 4 MiB (series msg_SIZE, the points from which calibrate.c fits `latency` and
** `byte_time`).
**
** How: fork a child joined by a socketpair(AF_UNIX, SOCK_STREAM); for each sample the parent
** sends a header {size, rounds}, then `rounds` times writes `size` bytes and reads `size` bytes
** back, the child reading each message whole before echoing it whole (ping-pong, so nothing is
** pipelined). One-way time = elapsed / (2 rounds). Rounds are chosen so a sample lasts
** ~sample_seconds. Latency-bound for small sizes, copy-bandwidth-bound for large ones. Sizes go
** up by x2 (x4 with --quick).
**
** The two processes are pinned to two different CPUs (the first two this process may run on):
** left to the scheduler, they sometimes share one CPU, where a message costs a context switch
** (4.5 us on the 2-core VM this was written on) instead of a cross-CPU wake-up (13-25 us), and
** the samples of a run fall in either mode. Two processes of a parallel program run on two CPUs.
** With one CPU allowed, nothing is pinned. The parent's affinity is restored afterwards.
*/
#define _GNU_SOURCE                /* sched_setaffinity and the CPU_* macros */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench.h"

#define CAL_MSG_MAX_BYTES (4u << 20)  /* largest message: past every socket buffer */
#define CAL_MSG_MAX_ROUNDS 100000      /* caps a sample when a round trip is sub-microsecond */

typedef struct MsgHeader {
  uint64_t size;                  /* bytes per message; 0 ends the child */
  uint64_t rounds;                /* round trips that follow */
} MsgHeader;

static int write_all(int fd, const void *data, size_t size) {
  const char *p = data;
  while (size > 0) {
    ssize_t n = send(fd, p, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    p += n;
    size -= (size_t)n;
  }
  return 0;
}

static int read_all(int fd, void *data, size_t size) {
  char *p = data;
  while (size > 0) {
    ssize_t n = read(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    p += n;
    size -= (size_t)n;
  }
  return 0;
}

/* The echo side: runs in the child until the parent says stop or goes away. */
static void echo_loop(int fd, char *buf) {
  MsgHeader h;
  while (read_all(fd, &h, sizeof h) == 0 && h.size > 0 && h.size <= CAL_MSG_MAX_BYTES) {
    for (uint64_t r = 0; r < h.rounds; r++)
      if (read_all(fd, buf, h.size) || write_all(fd, buf, h.size)) return;
  }
}

/* Times `rounds` round trips of `size` bytes; returns one-way seconds, or -1 on failure. */
static double ping_pong(int fd, char *buf, size_t size, long rounds) {
  MsgHeader h = {size, (uint64_t)rounds};
  if (write_all(fd, &h, sizeof h)) return -1;
  double start = cal_now();
  for (long r = 0; r < rounds; r++)
    if (write_all(fd, buf, size) || read_all(fd, buf, size)) return -1;
  return (cal_now() - start) / (2.0 * (double)rounds);
}

int cal_bench_message_count(const CalOptions *opt) {
  int n = 0;
  for (size_t size = 1; size <= CAL_MSG_MAX_BYTES; size *= opt->quick ? 4 : 2) n++;
  return n;
}

static int measure_sizes(CalRun *run, int fd, char *buf, CalError *err) {
  for (size_t size = 1; size <= CAL_MSG_MAX_BYTES; size *= run->opt.quick ? 4 : 2) {
    char name[CAL_NAME_MAX], bench[CAL_BENCH_MAX];
    snprintf(name, sizeof name, "msg_%zu", size);
    snprintf(bench, sizeof bench, "one-way message of %zu B, socketpair ping-pong", size);
    CalSeries *series = cal_run_add_series(run, name, bench, CAL_KIND_FIT_POINT, (double)size, err);
    if (!series) return -1;
    double one_way = ping_pong(fd, buf, size, 1);   /* warm-up, sizes the samples */
    if (one_way < 0) return cal_fail(err, "message benchmark: the echo process stopped");
    long rounds = (long)(run->opt.sample_seconds / (2 * (one_way > 1e-9 ? one_way : 1e-9)));
    if (rounds < 1) rounds = 1;
    if (rounds > CAL_MSG_MAX_ROUNDS) rounds = CAL_MSG_MAX_ROUNDS;
    for (int rep = 0; rep < run->round_reps; rep++) {
      double t = ping_pong(fd, buf, size, rounds);
      if (t < 0) return cal_fail(err, "message benchmark: the echo process stopped");
      cal_series_push(series, t);
    }
    cal_run_finished(run, series);
  }
  return 0;
}

/* The first two CPUs in allowed into cpus[0..1]; both -1 when it holds fewer than two. */
static void pick_cpus(const cpu_set_t *allowed, int cpus[2]) {
  int found = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE && found < 2; cpu++)
    if (CPU_ISSET(cpu, allowed)) cpus[found++] = cpu;
  if (found < 2) cpus[0] = cpus[1] = -1;
}

/* Pins the calling process to one CPU; 0, or -1 (then it runs where it ran). */
static int pin_to(int cpu) {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  return sched_setaffinity(0, sizeof one, &one);
}

int cal_bench_message(CalRun *run, CalError *err) {
  char *buf = malloc(CAL_MSG_MAX_BYTES);
  if (!buf) return cal_fail(err, "cannot allocate the message buffer");
  memset(buf, 'm', CAL_MSG_MAX_BYTES);
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds)) {
    free(buf);
    return cal_fail(err, "socketpair: %s", strerror(errno));
  }
  cpu_set_t allowed;
  int cpus[2] = {-1, -1};
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0) pick_cpus(&allowed, cpus);
  fflush(NULL);                   /* the child must not flush the parent's buffered output */
  pid_t child = fork();
  if (child < 0) {
    int e = errno;
    close(fds[0]);
    close(fds[1]);
    free(buf);
    return cal_fail(err, "fork: %s", strerror(e));
  }
  if (child == 0) {
    close(fds[0]);
    if (cpus[1] >= 0) pin_to(cpus[1]);
    echo_loop(fds[1], buf);
    _exit(0);
  }
  close(fds[1]);
  run->message_cpus[0] = run->message_cpus[1] = -1;
  if (cpus[0] >= 0 && pin_to(cpus[0]) == 0) {
    run->message_cpus[0] = cpus[0];
    run->message_cpus[1] = cpus[1];
  }
  int status = measure_sizes(run, fds[0], buf, err);
  if (run->message_cpus[0] >= 0) sched_setaffinity(0, sizeof allowed, &allowed);
  MsgHeader stop = {0, 0};
  write_all(fds[0], &stop, sizeof stop);
  close(fds[0]);
  int child_status;
  while (waitpid(child, &child_status, 0) < 0 && errno == EINTR) {}
  free(buf);
  return status;
}
