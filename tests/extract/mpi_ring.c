/* mpi_ring.c — an MPI program: rank 0 sends n doubles around a ring of P ranks, iters times;
** then an allreduce of one double and a barrier. */
#include <mpi.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = 1024, iters = 10;
  double *buf = calloc(n, sizeof *buf);
  for (int it = 0; it < iters; it++) {
    if (rank == 0) {
      MPI_Send(buf, n, MPI_DOUBLE, 1 % size, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, n, MPI_DOUBLE, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, n, MPI_DOUBLE, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int i = 0; i < n; i++)
        buf[i] += 1.0;
      MPI_Send(buf, n, MPI_DOUBLE, (rank + 1) % size, 0, MPI_COMM_WORLD);
    }
  }
  double local = buf[0], global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  free(buf);
  MPI_Finalize();
  return 0;
}
