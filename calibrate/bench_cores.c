/*
** bench_cores.c — the number of processors, for `resource cores = fcfs(N);`: the count online
** now, sysconf(_SC_NPROCESSORS_ONLN) (1 when the system cannot tell).
*/
#include <unistd.h>
#include "bench.h"

long cal_bench_cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? n : 1;
}
