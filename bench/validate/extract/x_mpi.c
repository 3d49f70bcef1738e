/*
** x_mpi.c — validation of `pamc extract` (make validate): an MPI program of 2 or more ranks, each
** smoothing its N doubles (a 1D three-point stencil) and exchanging its boundary element with its
** neighbours (MPI_Sendrecv) ITERS times, then a global sum (MPI_Allreduce). The whole of main is
** the model (`pamc extract x_mpi.c`); N and ITERS come from the command line, so the model has
** them as params. Usage: mpirun -np P x_mpi N ITERS. Rank 0 prints the seconds of the program's
** work (from after MPI_Init to before MPI_Finalize).
*/
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = argc > 2 ? atoi(argv[1]) : 1000;
  int iters = argc > 2 ? atoi(argv[2]) : 10;
  double *u = calloc((size_t)n + 2, sizeof *u), *v = calloc((size_t)n + 2, sizeof *v);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < n + 2; i++)
    u[i] = rank + i % 5;
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  for (int it = 0; it < iters; it++) {
    MPI_Sendrecv(&u[n], 1, MPI_DOUBLE, right, 0, &u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 1; i <= n; i++)
      v[i] = (u[i - 1] + u[i] + u[i + 1]) / 3.0;
    for (int i = 1; i <= n; i++)
      u[i] = v[i];
  }
  double local = 0, global = 0;
  for (int i = 1; i <= n; i++)
    local += u[i];
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double t1 = MPI_Wtime();
  if (rank == 0) printf("%.9g\n", t1 - t0);
  free(u);
  free(v);
  MPI_Finalize();
  return 0;
}
