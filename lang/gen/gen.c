/*
** gen.c — the writer of `pamc gen` (gen.h): a checked specification in, a readable model out.
** One process per batch (L1, L2, ...), a worker process per batch and worker group, the division
** of a batch among the workers as closed expressions (largest remainder), the transfers on `net`,
** and a main that runs the levels in order (GEN.md "What is generated").
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"

/* The group of P identical workers used when the spec has no `workers` line. */
#define GEN_DEFAULT_GROUP "worker"
#define GEN_DEFAULT_COUNT "P"
/* Largest weight kept exact in double arithmetic with room for c * weight (2^53 / 2^20). */
#define GEN_MAX_WEIGHT 8589934592LL

/* One worker group as the writer uses it. */
typedef struct GenGroup {
  const char *name;     /* group name: fast, slow, or "worker" */
  const Expr *count;    /* how many workers; NULL for the default group (P) */
  const char *factor;   /* the factor as written ("2.5"), "1" for the default group */
  int64_t weight;       /* tasks per time unit relative to the others: K / factor, an integer */
} GenGroup;

/* The state of one write. */
typedef struct GenWriter {
  const Spec *spec;     /* the checked specification */
  const Program *lib;   /* the cost library */
  FILE *out;            /* where the model goes */
  DiagList *diags;      /* errors found while writing */
  GenGroup *groups;     /* worker groups in spec order (one default group without `workers`) */
  int group_count;      /* length of groups */
  int *order;           /* link indices sorted by level */
} GenWriter;

static int64_t gcd64(int64_t a, int64_t b) {
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* "2.5" -> 25/10 reduced to 5/2. */
static void factor_ratio(const char *text, int64_t *num, int64_t *den) {
  *num = 0;
  *den = 1;
  int after_point = 0;
  for (const char *c = text; *c; c++) {
    if (*c == '.') {
      after_point = 1;
      continue;
    }
    *num = *num * 10 + (*c - '0');
    if (after_point) *den *= 10;
  }
  int64_t g = gcd64(*num, *den);
  if (g > 1) {
    *num /= g;
    *den /= g;
  }
}

/* Fills w->groups with integer weights K / f_g (K the lcm of the factors' numerators). */
static int make_groups(GenWriter *w) {
  const Spec *spec = w->spec;
  Arena *arena = (Arena *)&w->lib->arena;
  int count = spec->worker_count ? spec->worker_count : 1;
  w->groups = arena_alloc(arena, (size_t)count * sizeof *w->groups);
  w->group_count = count;
  if (!spec->worker_count) {
    w->groups[0] = (GenGroup){GEN_DEFAULT_GROUP, NULL, "1", 1};
    return 0;
  }
  int64_t lcm = 1;
  for (int i = 0; i < count; i++) {
    int64_t num, den;
    factor_ratio(spec->workers[i].factor->u.num.text, &num, &den);
    lcm = lcm / gcd64(lcm, num) * num;
    if (lcm > GEN_MAX_WEIGHT) {
      diag_report(w->diags, DIAG_ERROR, spec->workers[i].factor->loc,
                  "the factors of the worker groups have no common measure small enough to divide batches exactly");
      return 1;
    }
  }
  for (int i = 0; i < count; i++) {
    int64_t num, den;
    factor_ratio(spec->workers[i].factor->u.num.text, &num, &den);
    w->groups[i].name = spec->workers[i].name.name;
    w->groups[i].count = spec->workers[i].count;
    w->groups[i].factor = spec->workers[i].factor->u.num.text;
    w->groups[i].weight = lcm / num * den;
    if (w->groups[i].weight > GEN_MAX_WEIGHT) {
      diag_report(w->diags, DIAG_ERROR, spec->workers[i].factor->loc,
                  "the factor of worker group '%s' is too fine to divide batches exactly",
                  w->groups[i].name);
      return 1;
    }
  }
  return 0;
}

/* An operand of / or *: parenthesised unless it is a name, number or call. */
static void print_paren(FILE *out, const Expr *expr) {
  int leaf = expr->kind == EX_NUM || expr->kind == EX_NAME || expr->kind == EX_CALL;
  if (!leaf) fputc('(', out);
  gen_print_expr(out, expr);
  if (!leaf) fputc(')', out);
}

/* The number of workers of a group, parenthesised. */
static void print_count(GenWriter *w, const GenGroup *group) {
  if (!group->count) {
    fputs(GEN_DEFAULT_COUNT, w->out);
    return;
  }
  print_paren(w->out, group->count);
}

/* The fns that divide a batch of c tasks among the workers. */
static void write_shares(GenWriter *w) {
  FILE *out = w->out;
  if (w->group_count == 1) {
    const GenGroup *g = &w->groups[0];
    fprintf(out, "// Division of a batch of c tasks among the workers of group %s (largest remainder:\n"
                 "// every worker runs floor(c / n) tasks, the first c - n * floor(c / n) one more).\n",
            g->name);
    fprintf(out, "fn gen_base_%s(c) = floor(c / ", g->name);
    print_count(w, g);
    fprintf(out, ");\nfn gen_extra_%s(c) = c - ", g->name);
    print_count(w, g);
    fprintf(out, " * gen_base_%s(c);\nfn gen_first_%s(c) = 0;\n\n", g->name, g->name);
    return;
  }
  fputs("// Division of a batch of c tasks among the worker groups, in proportion to their speed\n"
        "// (largest remainder): a worker of group g has the ideal share c * w_g / W, where w_g is\n"
        "// the group's weight (1 / factor, scaled to integers) and W = sum of n_g * w_g. Each\n"
        "// worker runs floor of its share; the c - sum of those tasks left go one each to the\n"
        "// workers with the largest remainders (ties: the earlier group, then the lower worker).\n",
        out);
  for (int i = 0; i < w->group_count; i++) {
    const GenGroup *g = &w->groups[i];
    fprintf(out, "//   group %s: ", g->name);
    print_count(w, g);
    fprintf(out, " workers, factor %s, weight %lld\n", g->factor, (long long)g->weight);
  }
  fputs("fn gen_total_weight() = ", out);
  for (int i = 0; i < w->group_count; i++) {
    if (i) fputs(" + ", out);
    print_count(w, &w->groups[i]);
    fprintf(out, " * %lld", (long long)w->groups[i].weight);
  }
  fputs(";\n", out);
  for (int i = 0; i < w->group_count; i++) {
    const GenGroup *g = &w->groups[i];
    fprintf(out, "fn gen_base_%s(c) = floor(c * %lld / gen_total_weight());\n", g->name,
            (long long)g->weight);
    fprintf(out, "fn gen_rem_%s(c) = c * %lld - gen_total_weight() * gen_base_%s(c);\n", g->name,
            (long long)g->weight, g->name);
  }
  fputs("fn gen_left(c) = c - (", out);
  for (int i = 0; i < w->group_count; i++) {
    if (i) fputs(" + ", out);
    print_count(w, &w->groups[i]);
    fprintf(out, " * gen_base_%s(c)", w->groups[i].name);
  }
  fputs(");\n", out);
  for (int i = 0; i < w->group_count; i++) {
    const GenGroup *g = &w->groups[i];
    fprintf(out, "fn gen_extra_%s(c) = min(", g->name);
    print_count(w, g);
    fputs(", max(0, gen_left(c)", out);
    for (int j = 0; j < w->group_count; j++) {
      if (j == i) continue;
      fprintf(out, " - (gen_rem_%s(c) %s gen_rem_%s(c) ? ", w->groups[j].name, j < i ? ">=" : ">",
              g->name);
      print_count(w, &w->groups[j]);
      fputs(" : 0)", out);
    }
    fputs("));\n", out);
  }
  for (int i = 0; i < w->group_count; i++) {
    fprintf(out, "fn gen_first_%s(c) = ", w->groups[i].name);
    if (i == 0) fputs("0", out);
    for (int j = 0; j < i; j++) {
      if (j) fputs(" + ", out);
      print_count(w, &w->groups[j]);
      fprintf(out, " * gen_base_%s(c) + gen_extra_%s(c)", w->groups[j].name, w->groups[j].name);
    }
    fputs(";\n", out);
  }
  fputs("\n", out);
}

/* 1 when stmt runs another process (a cost process to scale must not: its callee would not be). */
static const Stmt *find_call(const Stmt *stmt) {
  switch (stmt->kind) {
    case ST_CALL:
      return stmt;
    case ST_BLOCK:
    case ST_PARALLEL:
      for (int i = 0; i < stmt->u.block.count; i++) {
        const Stmt *found = find_call(stmt->u.block.items[i]);
        if (found) return found;
      }
      return NULL;
    case ST_SEQ:
    case ST_PAR:
      return find_call(stmt->u.loop.body);
    case ST_REPEAT:
      return find_call(stmt->u.repeat.body);
    case ST_HOLD:
      return find_call(stmt->u.use.body);
    case ST_IF:
    case ST_CHOOSE: {
      const Stmt *found = find_call(stmt->u.branch.then);
      if (!found && stmt->u.branch.otherwise) found = find_call(stmt->u.branch.otherwise);
      return found;
    }
    default:
      return NULL;
  }
}

/* 1 when group g runs a worker batch of a task bound to process (so a scaled copy is needed). */
static int group_runs(GenWriter *w, const GenGroup *g, const char *process) {
  if (strcmp(g->factor, "1") == 0) return 0;
  for (int i = 0; i < w->spec->link_count; i++) {
    const SpecLink *link = &w->spec->links[i];
    double count;
    if (gen_fold(link->count, &count) && count == 1) continue;
    int t = gen_find_task(w->spec, link->task.name);
    if (t >= 0 && strcmp(w->spec->tasks[t].process.name, process) == 0) return 1;
  }
  return 0;
}

/* Copies of the cost processes with every time multiplied by a group's factor. */
static int write_scaled(GenWriter *w) {
  FILE *out = w->out;
  int errors = 0;
  for (int i = 0; i < w->group_count; i++) {
    const GenGroup *g = &w->groups[i];
    for (int t = 0; t < w->spec->task_count; t++) {
      const char *process = w->spec->tasks[t].process.name;
      if (gen_find_task(w->spec, w->spec->tasks[t].name.name) != t) continue;
      int seen = 0;
      for (int u = 0; u < t; u++) seen |= strcmp(w->spec->tasks[u].process.name, process) == 0;
      if (seen || !group_runs(w, g, process)) continue;
      const Decl *decl = program_lookup(w->lib, process);
      const Stmt *call = find_call(decl->u.process.body);
      if (call) {
        diag_report(w->diags, DIAG_ERROR, w->spec->workers[i].factor->loc,
                    "cannot scale cost process '%s' to worker group '%s': it runs process '%s' "
                    "(write its cost with delay/use only)", process, g->name,
                    call->u.call.process.name);
        errors++;
        continue;
      }
      fprintf(out, "// %s on a worker of group %s: every time multiplied by the factor %s.\n",
              process, g->name, g->factor);
      fprintf(out, "process %s_on_%s(", process, g->name);
      for (int p = 0; p < decl->u.process.params.count; p++)
        fprintf(out, "%s%s", p ? ", " : "", decl->u.process.params.items[p].name);
      fputs(decl->u.process.body->kind == ST_BLOCK ? ") " : ") = ", out);
      gen_print_stmt(out, decl->u.process.body, g->factor, 0);
      fputs(decl->u.process.body->kind == ST_BLOCK ? "\n\n" : ";\n\n", out);
    }
  }
  return errors;
}

/* 1 when the library defines process name (read, write). */
static int library_has(GenWriter *w, const char *name) {
  const Decl *decl = program_lookup(w->lib, name);
  return decl && decl->kind == DECL_PROCESS;
}

/* The files a batch reads (inputs = 1) or writes, with the library's read/write: one statement
** each, sizes without a `size` cost nothing. Returns how many were written. */
static int write_files(GenWriter *w, const SpecLink *link, int inputs, int indent) {
  const char *process = inputs ? "read" : "write";
  const SpecItem *items = inputs ? link->inputs : link->outputs;
  int count = inputs ? link->input_count : link->output_count;
  int written = 0;
  for (int k = 0; k < count; k++) {
    if (!items[k].is_file) continue;
    const SpecSize *size = gen_find_size(w->spec, items[k].name.name, 1);
    if (!size || !library_has(w, process)) {
      fprintf(w->out, "%*s// %s %s: no cost (%s)\n", indent, "", process, items[k].name.name,
              size ? "the library has no process for it" : "no size given");
      continue;
    }
    fprintf(w->out, "%*s%s(", indent, "", process);
    gen_print_expr(w->out, size->bytes);
    fprintf(w->out, ");%*s// %s %s\n", 1, "", inputs ? "reads" : "writes", items[k].name.name);
    written++;
  }
  return written;
}

/* The bytes one task of link receives: its even share of the batches it reads (a batch without
** a size counts 0). Returns the number of batches read. */
static int write_input_bytes(GenWriter *w, const SpecLink *link) {
  int terms = 0;
  for (int k = 0; k < link->input_count; k++) {
    if (link->inputs[k].is_file) continue;
    const SpecSize *size = gen_find_size(w->spec, link->inputs[k].name.name, 0);
    if (terms) fputs(" + ", w->out);
    if (size) gen_print_expr(w->out, size->bytes);
    else fputs("0", w->out);
    terms++;
  }
  fputs(") / ", w->out);
  print_paren(w->out, link->count);
  return terms;
}

/* Comment line naming the batch. */
static void write_batch_comment(GenWriter *w, const SpecLink *link, const SpecTask *task,
                                int on_workers) {
  FILE *out = w->out;
  fprintf(out, "// %s: batch of task %s (cost process %s), cardinality ", link->level.name,
          task->name.name, task->process.name);
  gen_print_expr(out, link->count);
  double literal;
  fprintf(out, ", on %s", !on_workers ? "the coordinator"
                          : gen_fold(link->count, &literal) ? "the workers"
                          : "the workers (on the coordinator where it is 1)");
  if (link->input_count) {
    fputs("; reads", out);
    for (int k = 0; k < link->input_count; k++)
      fprintf(out, "%s %s", k ? "," : "", link->inputs[k].name.name);
  }
  if (link->output_count) {
    fputs("; writes", out);
    for (int k = 0; k < link->output_count; k++)
      fprintf(out, "%s %s", k ? "," : "", link->outputs[k].name.name);
  }
  fputs(".\n", out);
}

/* A batch of cardinality 1 on the coordinator: data is local, only files cost. */
static void write_coordinator_batch(GenWriter *w, const SpecLink *link, const SpecTask *task) {
  FILE *out = w->out;
  write_batch_comment(w, link, task, 0);
  fprintf(out, "process %s {\n", link->level.name);
  write_files(w, link, 1, 2);
  fprintf(out, "  %s(", task->process.name);
  gen_print_expr(out, link->count);
  fputs(", 0);\n", out);
  write_files(w, link, 0, 2);
  fputs("}\n\n", out);
}

/* A batch on the workers: a worker process per group, then the division among them. */
static void write_worker_batch(GenWriter *w, const SpecLink *link, const SpecTask *task) {
  FILE *out = w->out;
  const char *level = link->level.name;
  write_batch_comment(w, link, task, 1);
  const SpecSize *own = gen_find_size(w->spec, task->name.name, 0);
  for (int i = 0; i < w->group_count; i++) {
    const GenGroup *g = &w->groups[i];
    int scaled = strcmp(g->factor, "1") != 0;
    fprintf(out, "// One worker of group %s runs `tasks` tasks of %s, numbered from `first`: it\n"
                 "// receives each task's share of the input, runs it%s, and sends its output back.\n",
            g->name, level, scaled ? " (slower by its factor)" : "");
    fprintf(out, "process %s_on_%s(tasks, first) = seq (k = 0, tasks - 1) {\n", level, g->name);
    int reads_batch = 0;
    for (int k = 0; k < link->input_count; k++) reads_batch |= !link->inputs[k].is_file;
    if (reads_batch) {
      fputs("  use(net, send((", out);
      write_input_bytes(w, link);
      fputs("));\n", out);
    } else {
      fputs("  // reads no batch: nothing to receive\n", out);
    }
    fprintf(out, "  %s%s%s(", task->process.name, scaled ? "_on_" : "", scaled ? g->name : "");
    gen_print_expr(out, link->count);
    fputs(", first + k);\n  use(net, send(", out);
    if (own) {
      print_paren(out, own->bytes);
      fputs(" / ", out);
      print_paren(out, link->count);
    } else {
      fputs("0", out);
    }
    fprintf(out, "))%s\n};\n\n", own ? "" : "   // no size given for its output");
  }
  fprintf(out, "process %s {\n", level);
  write_files(w, link, 1, 2);
  /* a cardinality that is an expression may be 1 at some params: then the coordinator runs it */
  double literal;
  int may_be_one = !gen_fold(link->count, &literal);
  if (may_be_one) {
    fputs("  if (", out);
    gen_print_expr(out, link->count);
    fprintf(out, " == 1) %s(1, 0)   // one task: on the coordinator\n  else {\n", task->process.name);
  }
  const char *indent = may_be_one ? "    " : "  ";
  for (int i = 0; i < w->group_count; i++) {
    const GenGroup *g = &w->groups[i];
    const char *n = g->name;
    /* the first gen_extra workers run one task more */
    fprintf(out, "%s%s", indent, i ? "|| " : "");
    fprintf(out, "par (w = 0, gen_extra_%s(", n);
    gen_print_expr(out, link->count);
    fprintf(out, ") - 1) %s_on_%s(gen_base_%s(", level, n, n);
    gen_print_expr(out, link->count);
    fprintf(out, ") + 1, gen_first_%s(", n);
    gen_print_expr(out, link->count);
    fprintf(out, ") + w * (gen_base_%s(", n);
    gen_print_expr(out, link->count);
    fputs(") + 1))\n", out);
    fprintf(out, "%s|| par (w = gen_extra_%s(", indent, n);
    gen_print_expr(out, link->count);
    fprintf(out, "), ");
    print_count(w, g);
    fprintf(out, " - 1) %s_on_%s(gen_base_%s(", level, n, n);
    gen_print_expr(out, link->count);
    fprintf(out, "), gen_first_%s(", n);
    gen_print_expr(out, link->count);
    fprintf(out, ") + gen_extra_%s(", n);
    gen_print_expr(out, link->count);
    fprintf(out, ") + w * gen_base_%s(", n);
    gen_print_expr(out, link->count);
    fputs("))", out);
    fputs(i + 1 < w->group_count ? "\n" : may_be_one ? "\n  };\n" : ";\n", out);
  }
  write_files(w, link, 0, 2);
  fputs("}\n\n", out);
}

/* Sorts link indices by level (insertion sort: specs are short). */
static void sort_levels(GenWriter *w) {
  int n = w->spec->link_count;
  w->order = arena_alloc((Arena *)&w->lib->arena, (size_t)(n + 1) * sizeof *w->order);
  for (int i = 0; i < n; i++) {
    int j = i;
    while (j > 0 && w->spec->links[w->order[j - 1]].level_number > w->spec->links[i].level_number) {
      w->order[j] = w->order[j - 1];
      j--;
    }
    w->order[j] = i;
  }
}

/* 1 when a batch runs on the coordinator: its cardinality is the literal 1. */
static int on_coordinator(const SpecLink *link) {
  double count;
  return gen_fold(link->count, &count) && count == 1;
}

static void write_header(GenWriter *w, const GenOptions *opts) {
  FILE *out = w->out;
  fprintf(out, "// Generated by `pamc gen %s -l %s`:\n// a model of the application%s%s.\n",
          opts->spec_path, opts->library_path, w->spec->app_path ? " " : "",
          w->spec->app_path ? w->spec->app_path : "");
  fputs(""
        "// Regenerate rather than edit. The system (manual §4.6): one coordinator runs the batches of\n"
        "// cardinality 1; the other batches are divided among the workers in proportion to their\n"
        "// speed; workers exchange data with the coordinator only, over one network `net`.\n", out);
  fprintf(out, "// Levels, in order:");
  for (int i = 0; i < w->spec->link_count; i++) {
    const SpecLink *link = &w->spec->links[w->order[i]];
    fprintf(out, " %s (%s)", link->level.name, link->task.name);
  }
  fprintf(out, ".\n\nimport \"%s\";\n\n", opts->import_path);
  const Decl *p = program_lookup(w->lib, GEN_DEFAULT_COUNT);
  if (!p) fputs("param P = 4 in 1 .. 1000000;   // the number of workers\n", out);
  const Decl *net = program_lookup(w->lib, "net");
  if (!net) fputs("resource net;                   // the network between coordinator and workers\n", out);
  fputs("\n", out);
}

int gen_write(const Spec *spec, const Program *lib, const GenOptions *opts, FILE *out,
              DiagList *diags) {
  GenWriter w = {spec, lib, out, diags, NULL, 0, NULL};
  int before = diags->errors;
  if (make_groups(&w)) return diags->errors - before;
  sort_levels(&w);
  write_header(&w, opts);
  int workers_used = 0;
  for (int i = 0; i < spec->link_count; i++) workers_used |= !on_coordinator(&spec->links[i]);
  if (workers_used) {
    write_shares(&w);
    write_scaled(&w);
  }
  for (int i = 0; i < spec->link_count; i++) {
    const SpecLink *link = &spec->links[w.order[i]];
    const SpecTask *task = &spec->tasks[gen_find_task(spec, link->task.name)];
    if (on_coordinator(link)) write_coordinator_batch(&w, link, task);
    else write_worker_batch(&w, link, task);
  }
  fputs("// The levels run one after another.\nprocess main {\n", out);
  for (int i = 0; i < spec->link_count; i++)
    fprintf(out, "  %s%s\n", spec->links[w.order[i]].level.name, i + 1 < spec->link_count ? ";" : "");
  fputs("}\n", out);
  return diags->errors - before;
}
