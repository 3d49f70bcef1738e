/*
** ex_print.c — writes the extracted model: a header saying how costs are charged, the NOTE
** lines for every param that stands for something the source does not say, the machine
** constants used, a cost fn and a process per C function with the source line of every statement
** in a comment, and the entry `main`.
*/
#include <string.h>

#include "ex_internal.h"

/* models/lib/mpi.pam, copied into models that call a collective. */
static const char mpi_library[] =
#include "ex_mpi_lib.h"
  ;

/* Constants that machine files do not have yet: a stand-in in terms of ones they have, which a
** machine file that defines the name overrides (LANGUAGE.md: a machine file's const wins). */
typedef struct StandIn {
  const char *prefix;     /* name prefix */
  const char *value;      /* stand-in expression ("%s" is the base name for _tp) */
  const char *why;        /* the comment */
} StandIn;

static const StandIn stand_ins[] = {
  {"t_sqrt_double", "t_div_double", "sqrt: stand-in until calibrated, one double divide (same unit on x86)"},
  {"t_exp_double", "20 * t_mul_double", "exp: stand-in until calibrated, 20 double multiplies (a libm polynomial)"},
  {"t_log_double", "20 * t_mul_double", "log: stand-in until calibrated, 20 double multiplies"},
  {"t_sin_double", "20 * t_mul_double", "sin: stand-in until calibrated, 20 double multiplies"},
  {"t_cos_double", "20 * t_mul_double", "cos: stand-in until calibrated, 20 double multiplies"},
  {"t_pow_double", "40 * t_mul_double", "pow: stand-in until calibrated, 40 double multiplies (exp and log)"},
  {"t_cvt_", "t_add_double", "int/floating conversion: stand-in until calibrated, one double add"},
  {NULL, NULL, NULL}};

static int declared(const char **done, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(done[i], name)) return 1;
  return 0;
}

/* Declares name (and what its stand-in needs first). */
static void print_const(ExCtx *x, FILE *out, const char *name, const char **done, int *ndone) {
  if (declared(done, *ndone, name)) return;
  if (!strncmp(name, "ex_", 3) || !strcmp(name, "t_copy_vec") || !strcmp(name, "t_write_vec")) {
    done[(*ndone)++] = name;   /* fns: ours (ex_print_range_decls) or the machine file's */
    return;
  }
  size_t n = strlen(name);
  if (n > 3 && !strcmp(name + n - 3, "_tp")) {
    char base[128];
    snprintf(base, sizeof base, "%.*s", (int)(n - 3), name);
    print_const(x, out, arena_strdup(&x->arena, base), done, ndone);
    fprintf(out, "const %s = %s;", name, base);
    fprintf(out, "   // throughput (independent operations overlap); the latency until the machine file has it\n");
    done[(*ndone)++] = name;
    return;
  }
  for (int i = 0; stand_ins[i].prefix; i++)
    if (!strncmp(name, stand_ins[i].prefix, strlen(stand_ins[i].prefix))) {
      const char *v = stand_ins[i].value;
      const char *base = strchr(v, 't');
      if (base) print_const(x, out, base, done, ndone);
      fprintf(out, "const %s = %s;   // %s\n", name, v, stand_ins[i].why);
      done[(*ndone)++] = name;
      return;
    }
  fprintf(out, "const %s;", name);
  if (!strncmp(name, "t_read_", 7) || !strncmp(name, "t_write_", 8) || !strncmp(name, "t_copy_", 7))
    fprintf(out, "   // machine file: seconds per byte\n");
  else
    fprintf(out, "   // machine file: seconds per operation (dependent chain: latency)\n");
  done[(*ndone)++] = name;
}

static void indent(FILE *out, int level) {
  for (int i = 0; i < level; i++) fputs("  ", out);
}

/* count * name: parenthesised where the count is a sum or a condition. */
void ex_print_term(ExCtx *x, FILE *out, const ExTerm *t, const char *name) {
  AlgKind k = alg_kind(t->count);
  int one = alg_is_num(t->count, 1);
  int wrap = k == ALG_ADD || k == ALG_COND || k == ALG_LT || k == ALG_LE || k == ALG_EQ ||
             k == ALG_NE || k == ALG_AND || k == ALG_OR || k == ALG_NOT;
  if (!one) fprintf(out, wrap ? "(%s) * " : "%s * ", alg_print(x->alg, t->count, ALG_FMT_TEXT));
  fputs(name ? name : t->name, out);
  if (t->args || strncmp(t->name, "cost_", 5) == 0) {
    fputc('(', out);
    for (int i = 0; i < t->nargs; i++)
      fprintf(out, "%s%s", i ? ", " : "", alg_print(x->alg, t->args[i], ALG_FMT_TEXT));
    fputc(')', out);
  }
}

void ex_print_sum(ExCtx *x, FILE *out, const ExCost *c, int level) {
  int first = 1;
  for (int i = 0; i < c->count; i++) {
    if (alg_is_num(c->terms[i].count, 0)) continue;
    if (!first) {
      fputc('\n', out);
      indent(out, level + 1);
      fputs("+ ", out);
    }
    ex_print_term(x, out, &c->terms[i], NULL);
    first = 0;
  }
  if (first) fputc('0', out);
}

static void print_block(ExCtx *x, FILE *out, const ExBlock *b, int level);

/* A cost as the model charges it: the ranged charge (ex_range.c), or the plain sum for a cost
** library of `pamc gen -l`. */
static void print_cost_expr(ExCtx *x, FILE *out, const ExCost *c, int level) {
  if (x->opts->library) ex_print_sum(x, out, c, level);
  else ex_print_ranged(x, out, c, level);
}

static void print_comment(FILE *out, const ExItem *it, int level) {
  indent(out, level);
  fprintf(out, "// %s: %s", it->where, it->source);
  if (it->note) fprintf(out, "   [%s]", it->note);
  fputc('\n', out);
}

static void print_braced(ExCtx *x, FILE *out, const ExBlock *b, int level) {
  fputs("{\n", out);
  print_block(x, out, b, level + 1);
  indent(out, level);
  fputs("}", out);
}

static void print_item(ExCtx *x, FILE *out, const ExItem *it, int level) {
  AlgCtx *g = x->alg;
  print_comment(out, it, level);
  indent(out, level);
  switch (it->kind) {
  case EX_COST:
    fputs("delay(", out);
    print_cost_expr(x, out, &it->cost, level);
    fputs(")", out);
    break;
  case EX_USE:
    fprintf(out, "use(%s, ", it->name);
    print_cost_expr(x, out, &it->cost, level);
    fputs(")", out);
    break;
  case EX_HOLD:
    fprintf(out, "hold (%s) ", it->name);
    print_braced(x, out, &it->body, level);
    break;
  case EX_CALL:
    fprintf(out, "%s(", it->name);
    for (int i = 0; i < it->nargs; i++) fprintf(out, "%s%s", i ? ", " : "", alg_print(g, it->args[i], ALG_FMT_TEXT));
    fputs(")", out);
    break;
  case EX_SEQ: case EX_PAR:
    fprintf(out, "%s (%s = %s, %s) ", it->kind == EX_SEQ ? "seq" : "par", alg_symbol_name(it->index),
            alg_print(g, it->lo, ALG_FMT_TEXT), alg_print(g, it->hi, ALG_FMT_TEXT));
    print_braced(x, out, &it->body, level);
    break;
  case EX_IF: case EX_CHOOSE:
    if (it->kind == EX_IF) fprintf(out, "if (%s) ", alg_print(g, it->cond, ALG_FMT_TEXT));
    else fprintf(out, "choose (%s) ", it->cond_text ? it->cond_text : alg_print(g, it->cond, ALG_FMT_TEXT));
    print_braced(x, out, &it->body, level);
    if (it->other.count) {
      fputs(" else ", out);
      print_braced(x, out, &it->other, level);
    }
    break;
  case EX_TEXT:
    fputs(it->name, out);
    break;
  case EX_SPAWN:
    fprintf(out, "%s()", it->name);
    break;
  }
  fputs(";\n", out);
}

static void print_block(ExCtx *x, FILE *out, const ExBlock *b, int level) {
  if (b->count == 0) {
    indent(out, level);
    fputs("skip;\n", out);
  }
  for (int i = 0; i < b->count; i++) print_item(x, out, &b->items[i], level);
}

static void print_params_list(FILE *out, const ExFunc *f) {
  for (int i = 0; i < f->nparams; i++) fprintf(out, "%s%s", i ? ", " : "", f->params[i]);
}

static void print_header(ExCtx *x, FILE *out) {
  const ExOptions *o = x->opts;
  fputs("// Model extracted from C source by `pamc extract`", out);
  fputs(" (one process per C function; regenerate rather than edit).\n", out);
  if (o->command_line) fprintf(out, "// command: %s\n", o->command_line);
  fputs("// Costs: every C operation is counted by operator and operand type and charged with the\n"
        "// machine file's constant of that name (t_add_int, t_mul_double, t_cmp_long, t_assign_char...;\n"
        "// bit operations as add, % as div, ! as cmp). Inside a loop, an update of a variable\n"
        "// declared outside the loop (s += e, s = s + e) is a dependent chain and is charged with the\n"
        "// latency t_OP_TYPE; the other operations of the body are independent from one iteration to\n"
        "// the next, overlap, and are charged with the throughput t_OP_TYPE_tp. Outside loops,\n"
        "// latency. Array elements and data behind pointers are memory: bytes times ", out);
  fprintf(out, "t_read_%s /\n// t_write_%s (working set: %s, chosen with --memory-level); locals and\n"
          "// parameters are registers and cost their operations only.\n", o->memory_level, o->memory_level,
          !strcmp(o->memory_level, "l1") ? "the L1 cache" : !strcmp(o->memory_level, "l2") ? "the L2 cache"
          : !strcmp(o->memory_level, "llc") ? "the last-level cache" : "main memory");
  fputs("// Loops: counts from the loop header as closed forms in the function's parameters; where the\n"
        "// source does not determine a count or a branch probability, a param says so (NOTE below).\n", out);
}

static void print_notes(ExCtx *x, FILE *out) {
  for (int i = 0; i < x->nparams; i++)
    if (x->params[i].note) fprintf(out, "// NOTE: param %s = %s: %s\n", x->params[i].name, x->params[i].value, x->params[i].note);
  if (x->threads_used)
    fputs("// NOTE: threads' work is use(cores, ...): the machine file (pamc calibrate) declares `resource cores`\n", out);
  for (int i = 0; i < x->nconsts; i++)
    if (!strncmp(x->consts[i], "ex_stall_", 9) || !strcmp(x->consts[i], "t_copy_vec")) {
      fputs("// NOTE: memory beyond L1 costs t_read_vec(ws), t_write_vec(ws), t_read(ws), t_write(ws): a machine\n"
            "//   file of `pamc calibrate` (its memory sweep); or extract with --memory-level l1|l2|llc|mem\n", out);
      break;
    }
  if (x->mpi_used)
    fputs("// NOTE: MPI messages cost mpi_send_measured(bytes): a machine file of `pamc calibrate --mpi`\n", out);
  if (x->nignored) {
    fputs("// NOTE: calls without source, not counted:", out);
    for (int i = 0; i < x->nignored; i++) fprintf(out, " %s", x->ignored[i]);
    fputc('\n', out);
  }
}

int ex_print_model(ExCtx *x, FILE *out) {
  print_header(x, out);
  print_notes(x, out);
  fputc('\n', out);
  const char **done = arena_alloc(&x->arena, (size_t)(2 * x->nconsts + 16) * sizeof *done);
  int ndone = 0;
  for (int i = 0; i < x->nconsts; i++) print_const(x, out, x->consts[i], done, &ndone);
  if (!x->opts->library) ex_print_range_decls(x, out);
  for (int i = 0; i < x->nlocks; i++)
    fprintf(out, "resource %s;   // %s\n", x->locks[i], !strcmp(x->locks[i], "ex_atomic")
            ? "atomic updates: one at a time" : "an OpenMP critical section's lock");
  if (x->nparams) fputc('\n', out);
  for (int i = 0; i < x->nparams; i++) {
    /* a probability (a decimal default) lies in 0 .. 1; a count keeps the default range */
    fprintf(out, "param %s = %s%s;", x->params[i].name, x->params[i].value,
            strchr(x->params[i].value, '.') ? " in 0 .. 1" : "");
    if (!x->params[i].note)
      fputs(x->opts->library ? "   // a #define of the source (the counts hold its value at extraction)"
                             : "   // a parameter of the entry function: set it with -D", out);
    fputc('\n', out);
  }
  for (int i = 0; i < x->nfuncs; i++) {
    const ExFunc *f = &x->funcs[i];
    if (!f->wanted || f->state != 2) continue;
    fprintf(out, "\n// %s: %s\n", f->where, f->source);
    if (f->pure) {
      fprintf(out, "fn cost_%s(", f->model_name);
      print_params_list(out, f);
      fputs(") =\n  ", out);
      print_cost_expr(x, out, &f->total, 0);
      fputs(";\n", out);
    }
    fprintf(out, "process %s", f->model_name);
    if (f->nparams) {
      fputc('(', out);
      print_params_list(out, f);
      fputc(')', out);
    }
    fputs(" {\n", out);
    print_block(x, out, &f->body, 1);
    fputs("}\n", out);
  }
  const ExFunc *e = x->entry;
  if (x->mpi_libs) fprintf(out, "\n// models/lib/mpi.pam, as pamc extract carries it:\n%s", mpi_library);
  if (e && !strcmp(e->model_name, "rank_main")) {
    fputs("\n// the MPI program: P ranks at once\nprocess main = par (rank = 0, P - 1) rank_main(rank);\n", out);
  } else if (e && strcmp(e->model_name, "main")) {
    fprintf(out, "\n// the entry: %s with the params above\nprocess main = %s", e->name, e->model_name);
    if (e->nparams) {
      fputc('(', out);
      for (int i = 0; i < e->nparams; i++) fprintf(out, "%s%s", i ? ", " : "", x->entry_args[i]);
      fputc(')', out);
    }
    fputs(";\n", out);
  }
  return 0;
}
