/*
** propcheck.h — the property of REDUCTION.md on one model text: load and check it, reduce it once,
** simulate it in the lo, mid, hi, typ and a random scenario, and hold
**     inf T_lo(box) <= simulated <= sup T_hi(box)   (box: every const over its whole interval)
**     T_lo(midpoints) <= simulated(mid)
**     T_lo(typical values) <= simulated(typ)        (est is T_lo there, LANGUAGE.md §8)
** The only slack is PROP_REL_TOL, for floating-point rounding.
*/
#ifndef PAMC_PROPCHECK_H
#define PAMC_PROPCHECK_H

#include <stdint.h>

/* Relative tolerance: the simulator's times are exact sums but its ps rates and the bounds'
   evaluation round (~1e-16 per operation); 1e-9 relative is far above that and far below any
   modelling error. */
#define PROP_REL_TOL 1e-9
/* A model that declares `param P` is also checked with -D P=v for every v in this range (the
   generator declares `param P = d in 1 .. 4`). */
#define PROP_P_MIN 1
#define PROP_P_MAX 4
/* Runs of the random scenario per case (each run draws fresh values). */
#define PROP_RANDOM_RUNS 2

typedef enum PropStatus {
  PROP_OK = 0,        /* the property holds in every scenario */
  PROP_INVALID,       /* the text does not load or check (a generator bug) */
  PROP_SIM_ERROR,     /* the simulator failed on a checked model */
  PROP_REDUCE_ERROR,  /* reduce_program failed on a checked model */
  PROP_VIOLATION,     /* a bound does not hold */
  PROP_NO_REDUCE      /* lang/reduce/reduce.h is not there yet: only load, check and simulate ran */
} PropStatus;

typedef struct PropOutcome {
  PropStatus status;     /* verdict */
  const char *scenario;  /* "lo", "mid", "hi", "random", "typ" (violation, sim error) */
  double simulated;      /* makespan in that scenario */
  double lo_box, hi_box; /* inf T_lo(box), sup T_hi(box) */
  double lo_mid;         /* T_lo at the midpoints (lower end of its enclosure) */
  double lo_typ;         /* T_lo at the typical values (midpoints where none) */
  char message[512];     /* what failed, for people */
} PropOutcome;

/* Checks text (named name in messages) with its param defaults and, when it declares `param P`,
   with each P in PROP_P_MIN .. PROP_P_MAX; seed drives the random scenario. Returns out->status
   (the first failure). */
PropStatus prop_check_text(const char *name, const char *text, uint64_t seed, PropOutcome *out);
const char *prop_status_name(PropStatus status);

#endif
