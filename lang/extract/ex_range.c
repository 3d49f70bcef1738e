/*
** ex_range.c — the ranged charge of counted C code. Counting operations cannot know what the
** compiler and an out-of-order core make of them, so every cost is written as
** ex_range(LOW, EST, HI) = LOW + ex_est_share * (EST - LOW) + ex_hi_share * (HI - EST), with
** ex_est_share = [0, 1] typ 1 and ex_hi_share = [0, 1] typ 0: est is EST, [lo, hi] spans LOW..HI.
**
** The counted terms fall into classes that a core executes on different units:
**   C  dependent chains (the latency constants t_OP_TYPE: s += e into one variable),
**   I  integer and loop-overhead operations (t_OP_int/long/char_tp, t_assign_*_tp),
**   F  floating-point operations and conversions (t_OP_double/float_tp, t_cvt_*_tp),
**   D  long operations (division, sqrt, exp, log, sin, cos, pow: the divider, libm),
**   M  memory accesses (t_read_l1 ... : the load and store ports),
**   S  data from beyond the L1 cache (ex_stall_read/write of the loop nest's working set),
**   X  calls of other extracted functions (their own ranged charge).
**   EST = max(C, I, F, D, M) + S + X: the units work at once (the out-of-order core overlaps
**         independent work of different kinds), the chain sets the pace when it is the longest;
**         waiting for data beyond the L1 cache stalls the core and adds.
**   LOW = max(C at throughput, (I + F + D) / 4, M, S) + X: chains of different outer
**         iterations overlapped, the operations vectorised 4 wide (AVX2 doubles), the data
**         streamed in (at its vector rate) while the core works.
**   HI  = C + I + F + D (every operation at its latency) + M + S_hi + X: no overlap, scalar code,
**         S_hi from the machine file's scalar memory sweep t_read(ws) instead of t_read_vec.
*/
#include <string.h>

#include "ex_internal.h"

typedef enum Class { K_CHAIN, K_INT, K_FP, K_LONG, K_MEM, K_STALL, K_CALL, K_COUNT } Class;
typedef enum Variant { V_EST, V_LOW, V_HI } Variant;

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

static int starts_with(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

static Class classify(const char *name) {
  if (starts_with(name, "cost_")) return K_CALL;
  if (starts_with(name, "ex_stall_")) return K_STALL;
  if (starts_with(name, "t_read_") || starts_with(name, "t_write_") || starts_with(name, "t_copy_"))
    return K_MEM;
  if (!ends_with(name, "_tp")) return K_CHAIN;
  static const char *const long_ops[] = {"t_div_", "t_sqrt_", "t_exp_", "t_log_", "t_sin_", "t_cos_", "t_pow_", NULL};
  for (int i = 0; long_ops[i]; i++)
    if (starts_with(name, long_ops[i])) return K_LONG;
  if (starts_with(name, "t_assign_") || ends_with(name, "_int_tp") || ends_with(name, "_long_tp") ||
      ends_with(name, "_char_tp"))
    return K_INT;
  return K_FP;
}

/* The name a term is charged with in a variant of the range. */
static const char *variant_name(ExCtx *x, const char *name, Class k, Variant v) {
  char buf[160];
  if (v == V_LOW && k == K_CHAIN) {
    snprintf(buf, sizeof buf, "%s_tp", name);
    return arena_strdup(&x->arena, buf);
  }
  if (v == V_HI && (k == K_INT || k == K_FP || k == K_LONG)) {
    snprintf(buf, sizeof buf, "%.*s", (int)(strlen(name) - 3), name);
    return arena_strdup(&x->arena, buf);
  }
  if (v == V_HI && k == K_STALL) {
    snprintf(buf, sizeof buf, "%s_hi", name);
    return arena_strdup(&x->arena, buf);
  }
  return name;
}

static int class_used(const ExCost *c, Class k) {
  for (int i = 0; i < c->count; i++)
    if (!alg_is_num(c->terms[i].count, 0) && classify(c->terms[i].name) == k) return 1;
  return 0;
}

/* The terms of the classes in mask, joined by +, in variant v; "0" when none. */
static void print_classes(ExCtx *x, FILE *out, const ExCost *c, unsigned mask, Variant v) {
  int first = 1;
  for (int i = 0; i < c->count; i++) {
    const ExTerm *t = &c->terms[i];
    Class k = classify(t->name);
    if (alg_is_num(t->count, 0) || !(mask & (1u << k))) continue;
    if (!first) fputs(" + ", out);
    ex_print_term(x, out, t, variant_name(x, t->name, k, v));
    first = 0;
  }
  if (first) fputc('0', out);
}

/* max(A, B, ...) of the classes used (each a sum), or the one, or 0. */
static void print_max(ExCtx *x, FILE *out, const ExCost *c, const unsigned *masks, int n, Variant v,
                      const char *scale) {
  int used = 0;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < K_COUNT; k++)
      if ((masks[i] & (1u << k)) && class_used(c, (Class)k)) {
        used++;
        break;
      }
  if (used > 1) fputs("max(", out);
  int first = 1;
  for (int i = 0; i < n; i++) {
    int any = 0;
    for (int k = 0; k < K_COUNT; k++) any |= (masks[i] & (1u << k)) && class_used(c, (Class)k);
    if (!any) continue;
    if (!first) fputs(", ", out);
    fputc('(', out);
    print_classes(x, out, c, masks[i], v);
    fputc(')', out);
    if (scale && (masks[i] & (1u << K_INT))) fprintf(out, " %s", scale);
    first = 0;
  }
  if (used > 1) fputc(')', out);
  if (!used) fputc('0', out);
}

static void print_added(ExCtx *x, FILE *out, const ExCost *c, unsigned mask, Variant v) {
  for (int k = 0; k < K_COUNT; k++)
    if ((mask & (1u << k)) && class_used(c, (Class)k)) {
      fputs(" + ", out);
      print_classes(x, out, c, mask, v);
      return;
    }
}

#define BIT(k) (1u << (k))

void ex_print_ranged(ExCtx *x, FILE *out, const ExCost *c, int level) {
  int ops = class_used(c, K_CHAIN) || class_used(c, K_INT) || class_used(c, K_FP) || class_used(c, K_LONG);
  if (!ops) {   /* memory and calls only: nothing to overlap */
    ex_print_sum(x, out, c, level);
    return;
  }
  const unsigned est[] = {BIT(K_CHAIN), BIT(K_INT), BIT(K_FP), BIT(K_LONG), BIT(K_MEM)};
  const unsigned low[] = {BIT(K_CHAIN), BIT(K_INT) | BIT(K_FP) | BIT(K_LONG), BIT(K_MEM), BIT(K_STALL)};
  fputs("ex_range(\n", out);
  for (int l = 0; l < level + 2; l++) fputs("  ", out);
  print_max(x, out, c, low, 4, V_LOW, "/ 4");
  print_added(x, out, c, BIT(K_CALL), V_LOW);
  fputs(",\n", out);
  for (int l = 0; l < level + 2; l++) fputs("  ", out);
  print_max(x, out, c, est, 5, V_EST, NULL);
  print_added(x, out, c, BIT(K_STALL) | BIT(K_CALL), V_EST);
  fputs(",\n", out);
  for (int l = 0; l < level + 2; l++) fputs("  ", out);
  print_classes(x, out, c, ~0u, V_HI);
  fputc(')', out);
}

void ex_print_range_decls(ExCtx *x, FILE *out) {
  fputs("\n// The ranged charge (pamc extract): est = EST, [lo, hi] = [LOW, HI] of each ex_range.\n"
        "const ex_est_share = [0, 1] typ 1;   // est at the likely case\n"
        "const ex_hi_share = [0, 1] typ 0;    // hi: nothing overlapped\n"
        "fn ex_range(low, est, high) = low + ex_est_share * (est - low) + ex_hi_share * (high - est);\n", out);
  int stalls = 0;
  for (int i = 0; i < x->nconsts; i++) stalls |= starts_with(x->consts[i], "ex_stall_");
  if (!stalls) return;
  fputs("// Data from beyond the L1 cache, per byte, at the working set ws of a loop nest: the machine\n"
        "// file's memory sweep (pamc calibrate) less the L1 rate every access already pays.\n"
        "fn ex_stall_read(ws) = max(0, t_read_vec(ws) - t_read_l1);\n"
        "fn ex_stall_write(ws) = max(0, t_write_vec(ws) - t_write_l1);\n"
        "fn ex_stall_read_hi(ws) = max(0, t_read(ws) - t_read_l1);     // scalar code\n"
        "fn ex_stall_write_hi(ws) = max(0, t_write(ws) - t_write_l1);\n", out);
}
