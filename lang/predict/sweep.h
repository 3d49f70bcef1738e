/*
** sweep.h — the sweep values of `pamc predict -D` (CLI.md): `A..B` (every integer), `A..B:*K`
** (geometric), `A..B:+K` (step K), `A,B,C` (a list); several swept names give their cartesian
** product, first name outermost, iterated point by point without materialising the product.
*/
#ifndef PAMC_SWEEP_H
#define PAMC_SWEEP_H

/* Values of one swept name at most (a typo such as 1..1e12 is refused rather than run). */
#define SWEEP_MAX_VALUES 1000000000L
/* Names swept at once at most (a product of more is never useful). */
#define SWEEP_MAX_AXES 16
/* Longest error message of sweep_parse. */
#define SWEEP_MESSAGE_SIZE 256

typedef enum SweepKind {
  SWEEP_RANGE,      /* A..B: A, A+1, ..., <= B */
  SWEEP_GEOMETRIC,  /* A..B:*K: A, A*K, A*K^2, ..., <= B */
  SWEEP_STEP,       /* A..B:+K: A, A+K, ..., <= B */
  SWEEP_LIST        /* A,B,C */
} SweepKind;

typedef struct SweepAxis {
  const char *name;     /* the swept name (caller's storage) */
  const char *raw;      /* "-D NAME=VALUE" as typed, for messages (caller's storage) */
  SweepKind kind;       /* which form */
  double start;         /* A */
  double stop;          /* B */
  double by;            /* K: factor or step (1 for SWEEP_RANGE) */
  double *values;       /* SWEEP_LIST: the values (malloc'd); NULL otherwise */
  long count;           /* number of values, >= 1 */
} SweepAxis;

typedef struct Sweep {
  SweepAxis axes[SWEEP_MAX_AXES]; /* swept names in -D order: first outermost */
  int axis_count;                 /* length of axes */
  long pos[SWEEP_MAX_AXES];       /* iterator: index of the current value on each axis */
  int started;                    /* iterator: 0 before the first sweep_next */
} Sweep;

/* 1 when a -D value is written as a sweep (contains ".." or a ',' outside brackets). */
int sweep_is_sweep(const char *value);
/* Parses a number with an optional time unit (s, ms, us, ns, ps) and '_' separators:
** 1 and *out on success. */
int sweep_parse_number(const char *text, double *out);

void sweep_init(Sweep *sweep);
/* Adds the swept name with value text; 0 on success, -1 with message filled otherwise (the
** message names raw). */
int sweep_add(Sweep *sweep, const char *name, const char *value, const char *raw,
              char *message, int message_size);
void sweep_free(Sweep *sweep);

/* Number of points of the product (1 without axes); saturates at LONG_MAX. */
long sweep_points(const Sweep *sweep);
/* Value index of one axis. */
double sweep_axis_value(const SweepAxis *axis, long index);
/* Advances to the next point: 1 and values[a] set for each axis, 0 after the last point.
** Without axes there is one point. Restart with sweep_rewind. */
int sweep_next(Sweep *sweep, double *values);
void sweep_rewind(Sweep *sweep);

#endif
