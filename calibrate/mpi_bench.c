/*
** mpi_bench.c — pamc-mpi-bench, the program `pamc calibrate --mpi` starts under mpirun: one-way
** message times between rank 0 and every other rank (ping-pong, sizes 1 B .. 4 MiB), and the time
** of one MPI_Barrier and of one MPI_Allreduce (one double, sum) over all ranks. A standalone
** program built with mpicc (only when mpicc exists); it links nothing of pamc's.
**
**     mpirun -np N pamc-mpi-bench [--reps K] [--sample-seconds S] [--quick]
**
** Rank 0 writes, on stdout, one line per series as soon as it is measured (calibrate/mpi.c reads
** them; the format is its contract):
**     pamc-mpi-bench 1 ranks N
**     msg SIZE PEER T1 T2 ...     one-way seconds between ranks 0 and PEER, K samples
**     barrier T1 T2 ...           seconds per barrier
**     allreduce T1 T2 ...         seconds per allreduce
**     end
** Errors go to stderr with exit status 1.
**
** Each sample is `rounds` repetitions timed together, rounds chosen from one warm-up so that a
** sample lasts about S seconds; rank 0 decides and tells its peer (MPI_Send) or everyone
** (MPI_Bcast). Ranks not in the current pair wait at a barrier. One untimed sample precedes the
** timed ones of each message size: the first sample of a run (1 B) took 1.5-5x the others,
** enough, pooled over a few runs, to move the quartiles that drop outliers.
*/
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MPI_BENCH_MAX_BYTES (4 << 20)  /* largest message, as the socketpair benchmark */
#define MPI_BENCH_MAX_ROUNDS 100000     /* caps a sample when an operation is sub-microsecond */
#define MPI_BENCH_MAX_REPS 200          /* as CAL_MAX_REPS */
#define TAG_PING 1
#define TAG_ROUNDS 2

typedef struct BenchOptions {
  int reps;                       /* samples per series (per peer for messages) */
  double sample_seconds;          /* target duration of one sample */
  int quick;                      /* sizes x4 instead of x2 */
} BenchOptions;

static int parse_options(int argc, char **argv, BenchOptions *opt) {
  opt->reps = 15;
  opt->sample_seconds = 0.003;
  opt->quick = 0;
  for (int i = 1; i < argc; i++) {
    char *end = NULL;
    if (!strcmp(argv[i], "--quick")) {
      opt->quick = 1;
    } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
      long k = strtol(argv[++i], &end, 10);
      if (*end || k < 1 || k > MPI_BENCH_MAX_REPS) return -1;
      opt->reps = (int)k;
    } else if (!strcmp(argv[i], "--sample-seconds") && i + 1 < argc) {
      double s = strtod(argv[++i], &end);
      if (*end || !(s > 0 && s < 10)) return -1;
      opt->sample_seconds = s;
    } else {
      return -1;
    }
  }
  return 0;
}

/* Rounds so that `rounds * per_round` lasts about sample_seconds. */
static int rounds_for(double per_round, double sample_seconds) {
  double rounds = sample_seconds / (per_round > 1e-9 ? per_round : 1e-9);
  if (rounds < 1) return 1;
  if (rounds > MPI_BENCH_MAX_ROUNDS) return MPI_BENCH_MAX_ROUNDS;
  return (int)rounds;
}

/* Rank 0: `rounds` round trips of size bytes with peer; returns the one-way seconds. */
static double ping(char *buf, int size, int peer, int rounds) {
  double start = MPI_Wtime();
  for (int r = 0; r < rounds; r++) {
    MPI_Send(buf, size, MPI_CHAR, peer, TAG_PING, MPI_COMM_WORLD);
    MPI_Recv(buf, size, MPI_CHAR, peer, TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return (MPI_Wtime() - start) / (2.0 * rounds);
}

static void pong(char *buf, int size, int rounds) {
  for (int r = 0; r < rounds; r++) {
    MPI_Recv(buf, size, MPI_CHAR, 0, TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, size, MPI_CHAR, 0, TAG_PING, MPI_COMM_WORLD);
  }
}

/* One message size between rank 0 and peer; rank 0 prints the line. */
static void measure_pair(const BenchOptions *opt, int rank, int peer, char *buf, int size) {
  if (rank == 0) {
    double warm = ping(buf, size, peer, 1);
    int rounds = rounds_for(2 * warm, opt->sample_seconds);
    MPI_Send(&rounds, 1, MPI_INT, peer, TAG_ROUNDS, MPI_COMM_WORLD);
    ping(buf, size, peer, rounds);                          /* untimed: see the top */
    printf("msg %d %d", size, peer);
    for (int rep = 0; rep < opt->reps; rep++) printf(" %.9e", ping(buf, size, peer, rounds));
    printf("\n");
    fflush(stdout);
  } else if (rank == peer) {
    int rounds = 0;
    pong(buf, size, 1);
    MPI_Recv(&rounds, 1, MPI_INT, 0, TAG_ROUNDS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int rep = 0; rep <= opt->reps; rep++) pong(buf, size, rounds);   /* reps + the untimed one */
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Seconds per call of a collective (0: barrier, 1: allreduce) as timed by rank 0. */
static double collective(int which, int rounds) {
  double value = 1, total = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (int r = 0; r < rounds; r++) {
    if (which == 0) MPI_Barrier(MPI_COMM_WORLD);
    else MPI_Allreduce(&value, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  return (MPI_Wtime() - start) / rounds;
}

static void measure_collective(const BenchOptions *opt, int rank, int which) {
  double warm = collective(which, 10);
  int rounds = rounds_for(warm, opt->sample_seconds);
  MPI_Bcast(&rounds, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("%s", which == 0 ? "barrier" : "allreduce");
  for (int rep = 0; rep < opt->reps; rep++) {
    double t = collective(which, rounds);
    if (rank == 0) printf(" %.9e", t);
  }
  if (rank == 0) {
    printf("\n");
    fflush(stdout);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  BenchOptions opt;
  if (parse_options(argc, argv, &opt)) {
    if (rank == 0)
      fprintf(stderr, "usage: mpirun -np N pamc-mpi-bench [--reps 1..%d] [--sample-seconds S] "
                      "[--quick]\n", MPI_BENCH_MAX_REPS);
    MPI_Finalize();
    return 1;
  }
  if (ranks < 2) {
    if (rank == 0) fprintf(stderr, "pamc-mpi-bench: needs at least 2 ranks (mpirun -np 2)\n");
    MPI_Finalize();
    return 1;
  }
  char *buf = calloc(MPI_BENCH_MAX_BYTES, 1);
  if (!buf) {
    fprintf(stderr, "pamc-mpi-bench: rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (rank == 0) {
    printf("pamc-mpi-bench 1 ranks %d\n", ranks);
    fflush(stdout);
  }
  for (int peer = 1; peer < ranks; peer++)
    for (int size = 1; size <= MPI_BENCH_MAX_BYTES; size *= opt.quick ? 4 : 2)
      measure_pair(&opt, rank, peer, buf, size);
  measure_collective(&opt, rank, 0);
  measure_collective(&opt, rank, 1);
  if (rank == 0) {
    printf("end\n");
    fflush(stdout);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
