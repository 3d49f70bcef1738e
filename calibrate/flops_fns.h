/*
** flops_fns.h — the machine file's functions of the flop benchmark's orders and thread counts
** (flops_fns.c): fn t_flop_vec_of(n), t_flop_vec_parT_of(n), t_flop_vec_shared(n, threads).
*/
#ifndef PAMC_CAL_FLOPS_FNS_H
#define PAMC_CAL_FLOPS_FNS_H
#include "bench.h"
#include "machine_file.h"
/* The declarations into m (none when the run measured one order only). 0, or -1 (err). */
int cal_flops_fns(const CalRun *run, CalMachine *m, CalError *err);
#endif
