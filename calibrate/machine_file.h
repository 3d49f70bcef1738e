/*
** machine_file.h — the machine file calibrate writes: a header comment (machine, date, command
** line, statistics rule), then `const NAME = [LO, HI] typ M;  # comment` lines (the typical value
** M where one is given) and other declarations (`fn`, `resource`), written atomically
** (atomic_file.h).
**
** Numbers: the unit is chosen per constant for readability (ns, us, ms or s by the larger end;
** per-byte times always in ns), with CAL_SIG_DIGITS significant digits, and rounded outward from
** the exact decimal value of the double: the printed lower end is <= the true lower end, the
** printed upper end >= the true upper end, so printing never narrows an interval. A typical
** value is clamped into [lo, hi] and printed rounded toward -inf in the interval's unit:
** truncation to S digits is monotone, so lo <= m gives printed(lo) <= printed(m) <= m <= hi <=
** printed(hi), and the value read back lies inside the interval read back. Ratios (no unit, e.g.
** the effective number of cores) are printed as plain numbers the same way.
*/
#ifndef PAMC_CAL_MACHINE_FILE_H
#define PAMC_CAL_MACHINE_FILE_H

#include <stdio.h>
#include "cal.h"

#define CAL_SIG_DIGITS 5          /* widens an interval by at most 1e-4 relative per end */
#define CAL_NUMBER_MAX 64         /* a number with unit, e.g. "0.000012346ns" */
#define CAL_LINE_MAX 512          /* one declaration or comment line (uname alone is up to 260) */
#define CAL_MAX_DECLS 1400        /* 2 MPI ranks, 8 CPUs: ~530; 16 ranks: ~930 (23 lines, 3 consts a pair) */
#define CAL_MAX_NOTES 40          /* header comment lines beyond the fixed ones (~27) */

typedef enum CalDeclKind {
  CAL_DECL_CONST,                 /* const name = [lo, hi]; */
  CAL_DECL_TEXT                   /* a declaration written as is (fn, resource) */
} CalDeclKind;

typedef struct CalDecl {
  CalDeclKind kind;               /* which of the two */
  char name[CAL_NAME_MAX];        /* CAL_DECL_CONST: the constant */
  double lo, hi;                  /* CAL_DECL_CONST: seconds, or seconds per byte */
  double typ;                     /* CAL_DECL_CONST: the typical value; NAN: none */
  int per_byte;                   /* CAL_DECL_CONST: print in ns whatever the size */
  int unitless;                   /* CAL_DECL_CONST: a ratio, printed without a unit */
  char text[CAL_LINE_MAX];        /* CAL_DECL_TEXT: the declaration; else the trailing comment */
} CalDecl;

typedef struct CalMachine {
  char machine[CAL_LINE_MAX];     /* uname: system, node, release, machine */
  char date[64];                  /* ISO 8601 UTC time of the run */
  char command[CAL_LINE_MAX];     /* the command line that wrote the file */
  char notes[CAL_MAX_NOTES][CAL_LINE_MAX]; /* further header lines (rules, caches) */
  int note_count;                 /* notes used */
  CalDecl decls[CAL_MAX_DECLS];   /* in file order */
  int decl_count;                 /* decls used */
} CalMachine;

/* Formats seconds v as "<number><unit>" with the given unit exponent (9: ns, 6: us, 3: ms, 0: s),
** rounding toward -inf (round_up 0) or +inf (round_up 1). */
void cal_format_scaled(double v, int unit_exp, int round_up, char *buf, size_t size);
/* The unit exponent for an interval (see above); unit name into *unit. */
int cal_unit_for(double lo, double hi, int per_byte, const char **unit);
/* "[LO, HI]" rounded outward in the unit cal_unit_for picks. */
void cal_format_interval(double lo, double hi, int per_byte, char *buf, size_t size);

/* A size in readable binary units: "48 KiB", "4 MiB", "3 B". */
void cal_format_bytes(size_t bytes, char *buf, size_t size);

/* "[LO, HI] typ M" (no " typ M" when typ is NAN), each end outward, M clamped and rounded down;
** unitless: plain numbers. */
void cal_format_typed(double lo, double hi, double typ, int per_byte, int unitless, char *buf,
                      size_t size);

/* Adds a declaration or a header note; return -1 (err filled) when full. typ: the typical value
** (NAN: none). */
int cal_machine_const(CalMachine *m, const char *name, double lo, double hi, int per_byte,
                      const char *comment, CalError *err);
int cal_machine_const_typ(CalMachine *m, const char *name, double lo, double hi, double typ,
                          int per_byte, const char *comment, CalError *err);
/* A dimensionless constant (a ratio) with its typical value. */
int cal_machine_ratio(CalMachine *m, const char *name, double lo, double hi, double typ,
                      const char *comment, CalError *err);
int cal_machine_text(CalMachine *m, const char *text, CalError *err);
int cal_machine_note(CalMachine *m, const char *text, CalError *err);

/* A function interpolating linearly between constants PREFIX<x_k> (xs ascending, n >= 1):
** `HEAD` on its own line, then `ARG <= x0 ? PREFIX<x0> :`, one line per further size,
** `(PREFIX<x_k-1> * (x_k - ARG) + PREFIX<x_k> * (ARG - x_k-1)) / (x_k - x_k-1)` (weights on the
** two ends, so that interval evaluation encloses exactly), and `TAIL;` beyond the last size. */
int cal_machine_interp(CalMachine *m, const char *head, const char *arg, const char *prefix,
                       const double *xs, int n, const char *tail, CalError *err);
/* The same between the constants names[k] (any names) at xs[k]. */
int cal_machine_interp_names(CalMachine *m, const char *head, const char *arg,
                             const char *const *names, const double *xs, int n, const char *tail,
                             CalError *err);
/* The function of a thread count on one line: `fn BASE_shared(ARG, threads) = threads <= 1 ?
** BASE SUFFIX(ARG) : threads <= 2 ? BASE_par2 SUFFIX(ARG) : ... : BASE_par<top> SUFFIX(ARG);`
** (BASE SUFFIX(ARG) alone when top <= 1): t_read_shared(ws_bytes, threads) over t_read(ws_bytes),
** t_read_par2(ws_bytes), ...; t_flop_vec_shared(n, threads) over t_flop_vec_of(n), ...; with ARG
** NULL or empty, of constants: t_page_fault_shared(threads) over t_page_fault, t_page_fault_par2. */
int cal_machine_shared_fn(CalMachine *m, const char *base, const char *arg, const char *suffix,
                          int top, CalError *err);

/* Whether name is PREFIX followed by digits only (t_read_4096, not t_read_vec_4096): a series
** of a sized family. */
int cal_name_is_sized(const char *name, const char *prefix);

/* The file's text into out (a CalWriteFn). */
int cal_machine_print(FILE *out, void *machine, CalError *err);
/* Writes the machine file at path atomically. */
int cal_machine_write(const char *path, const CalMachine *m, CalError *err);

#endif
