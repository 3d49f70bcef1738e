/*
** generic.h — the generic constants of a machine file (generic.c): names a model written without
** a particular machine in mind uses (t_flop, t_point), derived from the measured ones.
*/
#ifndef PAMC_CAL_GENERIC_H
#define PAMC_CAL_GENERIC_H

#include "bench.h"
#include "machine_file.h"

/* t_flop and t_point into m, each with a comment saying how it is derived; scratch holds
** CAL_MAX_SAMPLES doubles. Series it needs but the run lacks are an error (-1, err filled). */
int cal_generic_consts(const CalRun *run, CalMachine *m, const char *date, double *scratch,
                       CalError *err);

#endif
