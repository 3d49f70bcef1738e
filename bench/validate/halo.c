/*
** halo.c — validation program (MPI, 2 ranks): Gauss-Seidel sweeps over a 2D grid of 2 * ROWS x
** COLS doubles split by rows, ROWS per rank. Each of I iterations sweeps the rank's rows (a point
** becomes (its left neighbour, just updated) + (right + up + down), times 0.25: a dependent chain
** of one add and one multiply per point, since the other three terms are summed off the chain),
** then the two ranks swap their boundary rows (COLS doubles) with MPI_Sendrecv into their ghost
** rows. Usage: mpirun -np 2 halo COLS ROWS I. Rank 0 prints the time of the I iterations in
** seconds. Modelled by models/validate_halo.pam.
*/
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define HALO_WARMUP 2             /* untimed iterations: pages touched, connections set up */

typedef struct HaloGrid {
  double *cells;                  /* (rows + 2) x cols: ghost row, the rank's rows, ghost row */
  long rows;                      /* rows owned by this rank */
  long cols;                      /* points per row */
  int rank;                       /* 0 owns the top half, 1 the bottom half */
} HaloGrid;

/* One Gauss-Seidel sweep over the owned rows; the chain runs through `left`. */
static void halo_sweep(HaloGrid *g) {
  long c = g->cols;
  for (long i = 1; i <= g->rows; i++) {
    double *row = g->cells + i * c, *up = row - c, *down = row + c;
    double left = row[0];
    for (long j = 1; j + 1 < c; j++) {
      double others = row[j + 1] + up[j] + down[j];
      left = (left + others) * 0.25;
      row[j] = left;
    }
  }
}

/* Swap the boundary row with the other rank: rank 0 sends its last row and fills its bottom
   ghost row; rank 1 sends its first row and fills its top ghost row. */
static void halo_exchange(HaloGrid *g) {
  long c = g->cols;
  int other = 1 - g->rank;
  double *send = g->rank == 0 ? g->cells + g->rows * c : g->cells + c;
  double *recv = g->rank == 0 ? g->cells + (g->rows + 1) * c : g->cells;
  MPI_Sendrecv(send, (int)c, MPI_DOUBLE, other, 0, recv, (int)c, MPI_DOUBLE, other, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size = 0;
  HaloGrid g = {0};
  MPI_Comm_rank(MPI_COMM_WORLD, &g.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  g.cols = argc > 1 ? atol(argv[1]) : 0;
  g.rows = argc > 2 ? atol(argv[2]) : 0;
  long iters = argc > 3 ? atol(argv[3]) : 0;
  if (size != 2 || g.cols < 3 || g.cols > (1L << 26) || g.rows <= 0 || iters <= 0) {
    if (g.rank == 0) fprintf(stderr, "usage: mpirun -np 2 %s COLS ROWS I\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  g.cells = malloc((size_t)(g.rows + 2) * (size_t)g.cols * sizeof *g.cells);
  if (!g.cells) MPI_Abort(MPI_COMM_WORLD, 3);
  for (long k = 0; k < (g.rows + 2) * g.cols; k++) g.cells[k] = (double)(k % 7);
  for (long it = 0; it < HALO_WARMUP; it++) { halo_sweep(&g); halo_exchange(&g); }
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (long it = 0; it < iters; it++) { halo_sweep(&g); halo_exchange(&g); }
  double t1 = MPI_Wtime();
  if (g.rank == 0) printf("%.9g\n", t1 - t0);
  volatile double sink = g.cells[g.cols + 1];
  (void)sink;
  free(g.cells);
  MPI_Finalize();
  return 0;
}
