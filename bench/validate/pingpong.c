/*
** pingpong.c — validation program (MPI, 2 ranks): rank 0 sends a message of S bytes to rank 1,
** which sends it back, R round trips after a few untimed ones. Usage: mpirun -np 2 pingpong S R.
** Rank 0 prints the time of the R timed round trips in seconds. Modelled by
** models/validate_pingpong.pam.
*/
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PINGPONG_WARMUP 10        /* untimed round trips: connections set up, buffers touched */

static void pingpong_rounds(char *buf, int bytes, long rounds, int rank) {
  for (long r = 0; r < rounds; r++) {
    if (rank == 0) {
      MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long bytes = argc > 1 ? atol(argv[1]) : 0;
  long rounds = argc > 2 ? atol(argv[2]) : 0;
  if (size != 2 || bytes <= 0 || bytes > (1L << 30) || rounds <= 0) {
    if (rank == 0) fprintf(stderr, "usage: mpirun -np 2 %s S R  (bytes, round trips)\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  char *buf = malloc((size_t)bytes);
  if (!buf) MPI_Abort(MPI_COMM_WORLD, 3);
  memset(buf, 1, (size_t)bytes);
  pingpong_rounds(buf, (int)bytes, PINGPONG_WARMUP, rank);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  pingpong_rounds(buf, (int)bytes, rounds, rank);
  double t1 = MPI_Wtime();
  if (rank == 0) printf("%.9g\n", t1 - t0);
  free(buf);
  MPI_Finalize();
  return 0;
}
