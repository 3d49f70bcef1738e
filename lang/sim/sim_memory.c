/*
** sim_memory.c — how much memory a simulation run may take and takes (sim_run.h): the memory the
** machine has available when the run starts, and the run's resident memory, both from /proc (Linux).
** So that a par of 10^8 branches stops with a located error instead of the kernel killing pamc.
*/
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sim_run.h"

double sim_memory_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (!f) return -1;
  char line[128];
  double kib = -1;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, "MemAvailable:", 13) && sscanf(line + 13, "%lf", &kib) == 1) break;
  fclose(f);
  return kib < 0 ? -1 : kib * 1024;
}

double sim_memory_resident(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  if (!f) return -1;
  double total = 0, resident = -1;
  if (fscanf(f, "%lf %lf", &total, &resident) != 2) resident = -1;
  fclose(f);
  long page = sysconf(_SC_PAGESIZE);
  return resident < 0 || page <= 0 ? -1 : resident * (double)page;
}
