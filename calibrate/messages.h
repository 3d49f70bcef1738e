/*
** messages.h — the message constants of the machine file (messages.c), from the message series
** of a calibration run: locally (socketpair) and between MPI ranks.
*/
#ifndef PAMC_CAL_MESSAGES_H
#define PAMC_CAL_MESSAGES_H

#include "bench.h"
#include "machine_file.h"

/* latency, byte_time, fn send(bytes), t_msg_SIZE and fn send_measured(bytes) into m; scratch
** holds CAL_MAX_SAMPLES doubles. 0, or -1 with err filled. */
int cal_messages_local(CalRun *run, CalMachine *m, const char *date, double *scratch, CalError *err);
/* The same between MPI ranks (mpi_ prefix), hull over the pairs, per-pair constants when pairs
** differ. */
int cal_messages_mpi(CalRun *run, CalMachine *m, const char *date, double *scratch, CalError *err);

#endif
