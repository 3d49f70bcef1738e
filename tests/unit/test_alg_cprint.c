/*
** test_alg_cprint.c — algebra/print_c.c: formulas printed as C, compiled with the system's `cc`,
** run on a set of points; the results must equal the tape's bit for bit (the same kernel), and
** contain the exact values computed by hand for point inputs. Skipped when there is no cc.
*/
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "expr.h"
#include "print_c.h"
#include "tape.h"

#define CPRINT_POINTS 7   /* points per formula */

typedef struct Fixture {
  AlgCtx *ctx;          /* owns everything */
  AlgSymbol *P, *N, *t; /* P, N integer params >= 1; t const >= 0 */
  char dir[64];         /* temporary directory */
} Fixture;

static int have_cc(void) { return system("cc --version > /dev/null 2>&1") == 0; }

/* Prints e, compiles it with a driver that evaluates the points, compares with the tape. */
static void check_formula(Fixture *fx, AlgExpr *e, const char *label) {
  char path[128], bin[128], cmd[512], err[200];
  snprintf(path, sizeof path, "%s/%s.c", fx->dir, label);
  snprintf(bin, sizeof bin, "%s/%s", fx->dir, label);
  AlgTape *tape = NULL;
  if (alg_tape_compile(fx->ctx, e, &tape, err, sizeof err) != 0) fail_msg("%s: %s", label, err);
  size_t n = alg_tape_ninputs(tape);
  double lo[8][CPRINT_POINTS], hi[8][CPRINT_POINTS], tlo[CPRINT_POINTS], thi[CPRINT_POINTS];
  const double *plo[8], *phi[8];
  assert_true(n <= 8);
  for (size_t i = 0; i < n; i++) {
    for (int k = 0; k < CPRINT_POINTS; k++) {
      lo[i][k] = 1 + k + (double)i;   /* integers 1.. */
      hi[i][k] = k % 3 == 2 ? lo[i][k] + 0.75 : lo[i][k];   /* some ranges */
    }
    plo[i] = lo[i];
    phi[i] = hi[i];
  }
  assert_int_equal(alg_tape_eval(tape, CPRINT_POINTS, plo, phi, tlo, thi), 0);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  if (alg_print_c(f, fx->ctx, e, "formula", err, sizeof err) != 0) fail_msg("%s: %s", label, err);
  fprintf(f, "\n#include <stdio.h>\nint main(void) {\n  static const double lo[%zu][%d] = {", n ? n : 1, CPRINT_POINTS);
  for (size_t i = 0; i < (n ? n : 1); i++) {
    fputs("{", f);
    for (int k = 0; k < CPRINT_POINTS; k++) fprintf(f, "%a,", n ? lo[i][k] : 0.0);
    fputs("},", f);
  }
  fprintf(f, "};\n  static const double hi[%zu][%d] = {", n ? n : 1, CPRINT_POINTS);
  for (size_t i = 0; i < (n ? n : 1); i++) {
    fputs("{", f);
    for (int k = 0; k < CPRINT_POINTS; k++) fprintf(f, "%a,", n ? hi[i][k] : 0.0);
    fputs("},", f);
  }
  fprintf(f, "};\n  const double *pl[%zu], *ph[%zu];\n  double ol[%d], oh[%d];\n", n ? n : 1, n ? n : 1,
          CPRINT_POINTS, CPRINT_POINTS);
  fprintf(f, "  for (int i = 0; i < %zu; i++) { pl[i] = lo[i]; ph[i] = hi[i]; }\n", n ? n : 1);
  fprintf(f, "  formula_batch(%d, pl, ph, ol, oh);\n", CPRINT_POINTS);
  fprintf(f, "  for (int k = 0; k < %d; k++) printf(\"%%a %%a\\n\", ol[k], oh[k]);\n  return 0;\n}\n", CPRINT_POINTS);
  fclose(f);
  snprintf(cmd, sizeof cmd, "cc -std=c11 -O2 -o %s %s -lm", bin, path);
  if (system(cmd) != 0) fail_msg("%s: the printed C does not compile: %s", label, cmd);
  snprintf(cmd, sizeof cmd, "%s", bin);
  FILE *run = popen(cmd, "r");
  assert_non_null(run);
  for (int k = 0; k < CPRINT_POINTS; k++) {
    double clo, chi;
    if (fscanf(run, "%la %la", &clo, &chi) != 2) fail_msg("%s: short output", label);
    if (!(clo == tlo[k] && chi == thi[k]))
      fail_msg("%s point %d: C [%.17g, %.17g] != tape [%.17g, %.17g]", label, k, clo, chi, tlo[k], thi[k]);
  }
  assert_int_equal(pclose(run), 0);
  remove(path);
  remove(bin);
  alg_tape_free(tape);
}

static int setup(void **state) {
  Fixture *fx = calloc(1, sizeof *fx);
  fx->ctx = alg_ctx_new();
  fx->P = alg_symbol_new(fx->ctx, "P", ALG_SYM_PARAM, alg_assume_default(ALG_SYM_PARAM));
  fx->N = alg_symbol_new(fx->ctx, "N", ALG_SYM_PARAM, (AlgAssume){1, INFINITY, 1});
  fx->t = alg_symbol_new(fx->ctx, "t", ALG_SYM_CONST, alg_assume_default(ALG_SYM_CONST));
  snprintf(fx->dir, sizeof fx->dir, "/tmp/test_alg_cprint.XXXXXX");
  if (!mkdtemp(fx->dir)) return -1;
  *state = fx;
  return 0;
}

static int teardown(void **state) {
  Fixture *fx = *state;
  rmdir(fx->dir);
  alg_ctx_free(fx->ctx);
  free(fx);
  return 0;
}

static void test_printed_c_matches_tape(void **state) {
  Fixture *fx = *state;
  if (!have_cc()) {
    print_message("test_alg_cprint: no cc on PATH, skipped\n");
    skip();
  }
  AlgCtx *c = fx->ctx;
  AlgExpr *P = alg_sym(c, fx->P), *N = alg_sym(c, fx->N), *t = alg_sym(c, fx->t);
  /* N/P * t + log2(P) * 3e-6 */
  check_formula(fx, alg_add(c, alg_mul(c, alg_div(c, N, P), t),
                            alg_mul(c, alg_func(c, ALG_LOG2, P), alg_num_frac(c, 3, 1000000))), "linear");
  /* max(N*t, P^2 + 1/3) - sqrt(N) */
  check_formula(fx, alg_sub(c, alg_max(c, alg_mul(c, N, t), alg_add(c, alg_pow(c, P, alg_num_int(c, 2)),
                                                                 alg_num_frac(c, 1, 3))),
                            alg_func(c, ALG_SQRT, N)), "maxsqrt");
  /* (N mod 3 == 0 ? exp(t/10) : ceil(N/P)) */
  check_formula(fx, alg_cond(c, alg_cmp(c, ALG_CMP_EQ, alg_mod(c, N, alg_num_int(c, 3)), alg_num_int(c, 0)),
                             alg_func(c, ALG_EXP, alg_div(c, t, alg_num_int(c, 10))),
                             alg_func(c, ALG_CEIL, alg_div(c, N, P))), "cond");
  /* sum_{i=1}^{N} sqrt(i) * t and maxover_{i=0}^{P} floor(N / (i+1)): loops and enclosures */
  alg_ctx_set_loop_limit(c, 5);
  AlgSymbol *i = alg_index_new(c, "i", alg_num_int(c, 1), N);
  check_formula(fx, alg_sum(c, i, alg_num_int(c, 1), N, alg_mul(c, alg_func(c, ALG_SQRT, alg_sym(c, i)), t)), "sum");
  AlgSymbol *j = alg_index_new(c, "j", alg_num_int(c, 0), P);
  check_formula(fx, alg_max_over(c, j, alg_num_int(c, 0), P,
                                 alg_func(c, ALG_FLOOR, alg_div(c, N, alg_add(c, alg_sym(c, j), alg_num_int(c, 1))))),
                "maxover");
  /* a constant formula: no inputs */
  check_formula(fx, alg_func(c, ALG_SQRT, alg_num_int(c, 2)), "constant");
}

/* The hand value of a printed formula, independent of the tape: N/P*t at N=6, P=4, t=0.5 is
   0.75 exactly; compiled, the point gives [0.75, 0.75]. */
static void test_printed_c_hand_value(void **state) {
  Fixture *fx = *state;
  if (!have_cc()) skip();
  AlgCtx *c = fx->ctx;
  AlgExpr *e = alg_mul(c, alg_div(c, alg_sym(c, fx->N), alg_sym(c, fx->P)), alg_sym(c, fx->t));
  char path[128], bin[128], cmd[400], err[200];
  snprintf(path, sizeof path, "%s/hand.c", fx->dir);
  snprintf(bin, sizeof bin, "%s/hand", fx->dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  assert_int_equal(alg_print_c(f, c, e, "hand", err, sizeof err), 0);
  /* inputs in id order: P, N, t */
  fputs("\n#include <stdio.h>\nint main(void) {\n  double lo[3] = {4, 6, 0.5}, hi[3] = {4, 6, 0.5}, rl, rh;\n"
        "  hand(lo, hi, &rl, &rh);\n  printf(\"%a %a %d\\n\", rl, rh, hand_ninputs);\n  return 0;\n}\n", f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "cc -std=c11 -O2 -o %s %s -lm", bin, path);
  assert_int_equal(system(cmd), 0);
  FILE *run = popen(bin, "r");
  double rl = 0, rh = 0;
  int ninputs = 0;
  assert_int_equal(fscanf(run, "%la %la %d", &rl, &rh, &ninputs), 3);
  pclose(run);
  assert_true(rl == 0.75 && rh == 0.75);
  assert_int_equal(ninputs, 3);
  char bad[8];
  assert_int_equal(alg_print_c(stdout, c, e, "1bad", bad, sizeof bad), -1);
  remove(path);
  remove(bin);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_printed_c_hand_value),
    cmocka_unit_test(test_printed_c_matches_tape),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
