/*
** memory_fns.h — fn t_read(ws_bytes) and the other memory functions of the machine file
** (memory_fns.c), from the series of the working-set sweep.
*/
#ifndef PAMC_CAL_MEMORY_FNS_H
#define PAMC_CAL_MEMORY_FNS_H

#include "bench.h"
#include "machine_file.h"

/* The six functions into m (none for an operation the run did not sweep). 0, or -1 (err). */
int cal_memory_fns(const CalRun *run, CalMachine *m, CalError *err);

#endif
