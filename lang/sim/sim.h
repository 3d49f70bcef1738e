/*
** sim.h — the reference discrete-event simulator (LANGUAGE.md §6): runs the entry process of a
** resolved program (check.h) under one scenario of its intervals, K times, and reports the
** makespan (min, mean, max over the runs) and, per resource, utilisation and waiting time.
**
** Scenarios: every interval literal gets one fraction u in [0, 1] per run and takes the value
** lo + u (hi - lo) at every evaluation: u = 0 (lo), 1/2 (mid), 1 (hi) or a uniform draw
** (random, a fresh draw per literal per run). A const takes the value of its definition, so an
** interval const has one value per run. lo(x), hi(x), mid(x), width(x) take x apart as the
** interval it is (no scenario pick inside them), as the reduction does.
*/
#ifndef PAMC_SIM_H
#define PAMC_SIM_H

#include <stdint.h>

#include "ast.h"

typedef enum SimScenario {
  SIM_SCENARIO_LO,      /* every interval at its low end */
  SIM_SCENARIO_MID,     /* at its midpoint */
  SIM_SCENARIO_HI,      /* at its high end */
  SIM_SCENARIO_RANDOM,  /* uniform draw per literal per run */
  SIM_SCENARIO_TYP      /* at its typical value (`[a, b] typ m`, LANGUAGE.md §8), else the midpoint */
} SimScenario;

/* What a run in progress reports (for a progress line; the simulator never prints). */
typedef struct SimProgress {
  int run;                  /* 0-based index of the run */
  int runs;                 /* runs asked for */
  uint64_t events;          /* events handled so far in this run */
  double now;               /* simulated time reached (s) */
  double elapsed;           /* wall-clock seconds since the run started */
} SimProgress;

typedef void (*SimProgressFn)(void *ctx, const SimProgress *progress);

/* Wall-clock seconds a run goes before progress_fn is first called, and between calls. */
#define SIM_PROGRESS_SECONDS 2.0

typedef struct SimOptions {
  SimScenario scenario;     /* which values the intervals take */
  uint64_t seed;            /* seeds choose() and random scenarios; same seed, same result */
  int runs;                 /* K >= 1 */
  SimProgressFn progress_fn;/* called every SIM_PROGRESS_SECONDS of a long run; may be NULL */
  void *progress_ctx;       /* passed to progress_fn */
  double wall_limit;        /* > 0: a run that lasts longer (wall-clock s) stops with an error */
  double memory_limit;      /* > 0: a run whose resident memory passes this many bytes stops with an
                               error at the par that forks; 0: the memory the machine has available
                               when the run starts; < 0: no limit */
} SimOptions;

/* One resource (a family aggregated over its members), averaged over the runs. */
typedef struct SimResourceReport {
  const char *name;         /* declared name (AST string) */
  int family;               /* 1: a family r[n] */
  int64_t members;          /* family size (1 for a plain resource), last run's value */
  int64_t servers;          /* multiplicity m of each member, last run's value (0 for ps) */
  int ps;                   /* 1: a ps(c) resource */
  double capacity;          /* ps: c (last run's value); fcfs: m */
  int64_t members_used;     /* members that served at least one request (max over runs) */
  double utilisation;       /* busy server-time / (m x members x makespan), mean over runs */
  double max_member_utilisation; /* the busiest member's busy / (m x makespan), mean over runs */
  double waiting;           /* total time requests waited in the queue (s), mean over runs; ps:
                               time lost to sharing (time present minus work) */
  double requests;          /* use() requests served, mean over runs */
} SimResourceReport;

typedef struct SimReport {
  int runs;                 /* runs made */
  double time_min;          /* makespan of the entry process (s): min over runs */
  double time_mean;         /* mean over runs */
  double time_max;          /* max over runs */
  uint64_t events;          /* events handled over all runs */
  double wall_seconds;      /* wall-clock time of all runs */
  SimResourceReport *resources; /* resources used by the runs, in order of first compilation */
  int resource_count;       /* length of resources */
} SimReport;

/* Longest error message (names are short; numbers printed with %g). */
#define SIM_MESSAGE_SIZE 320

/* Notes an error carries at most (a deadlock lists the statements that wait). */
#define SIM_MAX_NOTES 8

typedef struct SimNote {
  SrcLoc loc;               /* where */
  char message[SIM_MESSAGE_SIZE]; /* what is there, e.g. "waits for 'b' while holding 'a'" */
} SimNote;

typedef struct SimError {
  SrcLoc loc;               /* where: the offending statement or expression */
  char message[SIM_MESSAGE_SIZE]; /* e.g. "negative duration (-1e-06)" */
  SimNote notes[SIM_MAX_NOTES]; /* more places (note_count of them) */
  int note_count;           /* notes filled */
} SimError;

/* Simulates the process entry (resolved by check_program; it must take no arguments) under
** opts. Returns 0 with *report filled (free it with sim_report_free), or -1 with err filled
** (and *report empty). */
int sim_simulate(const Decl *entry, const SimOptions *opts, SimReport *report, SimError *err);
void sim_report_free(SimReport *report);

/* The events a simulation of entry will handle, about (every delay and use is one; loops
** multiply; params at their values in force), estimated without running it; -1 when it cannot
** be told (a loop bound that is not known, nesting too deep for the estimate). */
double sim_estimate_events(const Decl *entry);

/* The unit seconds read best in for people ("ms" for 0.0012; "min" past 1000 s, "h" past
** 6000 s) and its size in seconds in *scale ("s" for 0, inf and nan). */
const char *sim_time_unit(double seconds, double *scale);
/* Writes seconds for people with a unit: "1.738 ms", "4 us", "0 s", "16.67 min". Returns buf. */
char *sim_format_time(double seconds, char *buf, int size);

#endif
