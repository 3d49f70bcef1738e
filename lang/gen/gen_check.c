/*
** gen_check.c — the checks of `pamc gen` (gen.h): every rule of GEN.md a specification can break,
** reported at the place in the specification that breaks it.
*/
#include <math.h>
#include <string.h>

#include "check.h"
#include "eval.h"
#include "gen_internal.h"

/* Names a spec expression may use besides the library's params, consts and fns. */
#define GEN_WORKER_PARAM "P"

int gen_find_task(const Spec *spec, const char *name) {
  for (int i = 0; i < spec->task_count; i++)
    if (strcmp(spec->tasks[i].name.name, name) == 0) return i;
  return -1;
}

int gen_find_link(const Spec *spec, const char *task) {
  for (int i = 0; i < spec->link_count; i++)
    if (strcmp(spec->links[i].task.name, task) == 0) return i;
  return -1;
}

const SpecSize *gen_find_size(const Spec *spec, const char *target, int is_file) {
  for (int i = 0; i < spec->size_count; i++)
    if (spec->sizes[i].is_file == is_file && strcmp(spec->sizes[i].target.name, target) == 0)
      return &spec->sizes[i];
  return NULL;
}

/* The default of P the generated model declares when the library has no P (gen.c). */
#define GEN_P_DEFAULT 4
/* How deep definitions may refer to definitions when folding (the library is checked: no cycle). */
#define GEN_FOLD_DEPTH 32

/* The value of expr from number literals and arithmetic; with lib, names too: a param or const of
** the library by its default (folded in turn), P by GEN_P_DEFAULT when the library has none. 1
** and *value when that gives a finite number. */
static int fold(const Program *lib, const Expr *expr, int depth, double *value) {
  double a, b, result;
  switch (expr->kind) {
    case EX_NUM:
      result = expr->u.num.value;
      break;
    case EX_NAME: {
      if (!lib || depth >= GEN_FOLD_DEPTH) return 0;
      const Decl *decl = program_lookup(lib, expr->u.name.id.name);
      const Expr *definition = !decl ? NULL
                               : decl->kind == DECL_PARAM ? decl->u.param.value
                               : decl->kind == DECL_CONST ? decl->u.constant.value : NULL;
      if (definition) return fold(lib, definition, depth + 1, value);
      if (decl || strcmp(expr->u.name.id.name, GEN_WORKER_PARAM) != 0) return 0;
      result = GEN_P_DEFAULT;
      break;
    }
    case EX_UNARY:
      if (expr->u.unary.op != OP_NEG || !fold(lib, expr->u.unary.a, depth, &a)) return 0;
      result = -a;
      break;
    case EX_BINARY:
      if (!fold(lib, expr->u.binary.a, depth, &a) || !fold(lib, expr->u.binary.b, depth, &b)) return 0;
      switch (expr->u.binary.op) {
        case OP_ADD: result = a + b; break;
        case OP_SUB: result = a - b; break;
        case OP_MUL: result = a * b; break;
        case OP_DIV: result = a / b; break;
        case OP_MOD: result = fmod(a, b); break;
        case OP_POW: result = pow(a, b); break;
        default: return 0;
      }
      break;
    default:
      return 0;
  }
  if (!isfinite(result)) return 0;   /* a division by zero, or an overflow: not a value */
  *value = result;
  return 1;
}

int gen_fold(const Expr *expr, double *value) { return fold(NULL, expr, 0, value); }

/* The state of one check: what it reads and where its errors go. */
typedef struct GenChecker {
  const Spec *spec;     /* the specification */
  const Program *lib;   /* the cost library */
  DiagList *diags;      /* errors */
} GenChecker;

#define ERR(gc, loc, ...) diag_report((gc)->diags, DIAG_ERROR, (loc), __VA_ARGS__)

/* Names of the library's declarations of one kind (for "did you mean"); count in *count. */
static const char **library_names(const Program *lib, DeclKind kind, DeclKind other, int *count) {
  const char **names = arena_alloc((Arena *)&lib->arena, (size_t)(lib->decl_count + 1) * sizeof *names);
  *count = 0;
  for (int i = 0; i < lib->decl_count; i++)
    if (lib->decls[i]->kind == kind || lib->decls[i]->kind == other)
      names[(*count)++] = lib->decls[i]->name.name;
  return names;
}

/* " (did you mean 'X'?)" or "" */
static const char *suggestion(char *buf, size_t size, const char *name, const char **names, int count) {
  const char *closest = check_closest(name, names, count);
  if (closest) snprintf(buf, size, " (did you mean '%s'?)", closest);
  else buf[0] = '\0';
  return buf;
}

/* Names in a spec expression: params and consts of the library (or P), fns and built-ins. */
static void check_names(GenChecker *gc, const Expr *expr, const char *what) {
  char hint[128];
  int count;
  switch (expr->kind) {
    case EX_NAME: {
      const char *name = expr->u.name.id.name;
      Decl *decl = program_lookup(gc->lib, name);
      if (decl && (decl->kind == DECL_PARAM || decl->kind == DECL_CONST)) return;
      if (!decl && strcmp(name, GEN_WORKER_PARAM) == 0) return;
      const char **names = library_names(gc->lib, DECL_PARAM, DECL_CONST, &count);
      ERR(gc, expr->u.name.id.loc, "unknown name '%s' in %s: not a param or const of the cost library%s",
          name, what, suggestion(hint, sizeof hint, name, names, count));
      return;
    }
    case EX_CALL: {
      const char *name = expr->u.call.fn.name;
      Decl *decl = program_lookup(gc->lib, name);
      if (!(decl && decl->kind == DECL_FN) && eval_builtin_lookup(name) < 0) {
        const char **names = library_names(gc->lib, DECL_FN, DECL_FN, &count);
        ERR(gc, expr->u.call.fn.loc, "unknown function '%s' in %s%s", name, what,
            suggestion(hint, sizeof hint, name, names, count));
      }
      for (int i = 0; i < expr->u.call.args.count; i++) check_names(gc, expr->u.call.args.items[i], what);
      return;
    }
    case EX_UNARY:
      check_names(gc, expr->u.unary.a, what);
      return;
    case EX_BINARY: {
      check_names(gc, expr->u.binary.a, what);
      check_names(gc, expr->u.binary.b, what);
      double divisor;   /* what the model checker would find in the generated model, said here */
      if ((expr->u.binary.op == OP_DIV || expr->u.binary.op == OP_MOD) &&
          gen_fold(expr->u.binary.b, &divisor) && divisor == 0)
        ERR(gc, expr->u.binary.b->loc, "division by zero in %s", what);
      return;
    }
    default:
      return;
  }
}

/* 1 when expr names the generated model's P (the library having none). */
static int mentions_generated_p(const GenChecker *gc, const Expr *expr) {
  switch (expr->kind) {
    case EX_NAME:
      return strcmp(expr->u.name.id.name, GEN_WORKER_PARAM) == 0 && !program_lookup(gc->lib, GEN_WORKER_PARAM);
    case EX_UNARY:
      return mentions_generated_p(gc, expr->u.unary.a);
    case EX_BINARY:
      return mentions_generated_p(gc, expr->u.binary.a) || mentions_generated_p(gc, expr->u.binary.b);
    default:
      return 0;
  }
}

/* Where the generated model's check evaluates expr (the default values) and what the user can do. */
static void describe_defaults(const GenChecker *gc, const Expr *expr, char *where, size_t where_size,
                              char *hint, size_t hint_size) {
  if (!mentions_generated_p(gc, expr)) {
    snprintf(where, where_size, "at the default values of the library's params");
    snprintf(hint, hint_size, "the generated model is checked at those values");
  } else {
    snprintf(where, where_size, "at P = %d, the default of the generated model", GEN_P_DEFAULT);
    snprintf(hint, hint_size, "declare '%s' in the cost library with a suitable default",
             GEN_WORKER_PARAM);
  }
}

/* A count (cardinality, workers in a group) must be a positive integer when it is a number;
** when it depends on params, a whole number at their default values, where the generated model
** is checked (0 there is fine: an empty group, an empty batch; a negative count is not). */
static void check_count(GenChecker *gc, const Expr *count, const char *what, const char *owner) {
  double value;
  char where[96], hint[96];
  if (gen_fold(count, &value)) {
    if (!(value >= 1 && value == floor(value)))
      ERR(gc, count->loc, "%s of %s must be a positive integer, not %g", what, owner, value);
  } else if (fold(gc->lib, count, 0, &value) && !(value >= 0 && value == floor(value))) {
    describe_defaults(gc, count, where, sizeof where, hint, sizeof hint);
    ERR(gc, count->loc, "%s of %s is %g %s, %s (%s)", what, owner, value, where,
        value < 0 ? "negative" : "not an integer", hint);
  }
}

/* task = Process; — each task once, bound to a process of two parameters in the library. */
static void check_tasks(GenChecker *gc) {
  const Spec *spec = gc->spec;
  for (int i = 0; i < spec->task_count; i++) {
    const SpecTask *task = &spec->tasks[i];
    int first = gen_find_task(spec, task->name.name);
    if (first != i) {
      ERR(gc, task->name.loc, "task '%s' is declared twice (first at line %d)", task->name.name,
          spec->tasks[first].name.loc.line);
      continue;
    }
    Decl *decl = program_lookup(gc->lib, task->process.name);
    if (!decl || decl->kind != DECL_PROCESS) {
      char hint[128];
      int count;
      const char **names = library_names(gc->lib, DECL_PROCESS, DECL_PROCESS, &count);
      ERR(gc, task->process.loc, "unknown cost process '%s' for task '%s': the library defines no such process%s",
          task->process.name, task->name.name,
          suggestion(hint, sizeof hint, task->process.name, names, count));
    } else if (decl->u.process.params.count != 2) {
      ERR(gc, task->process.loc, "cost process '%s' takes %d parameter%s; a task's process takes 2 (count, task)",
          task->process.name, decl->u.process.params.count,
          decl->u.process.params.count == 1 ? "" : "s");
    }
    if (gen_find_link(spec, task->name.name) < 0)
      diag_report(gc->diags, DIAG_WARNING, task->name.loc, "task '%s' has no link: it is not run",
                  task->name.name);
  }
}

/* One link per task, one task per level, inputs that exist. */
static void check_links(GenChecker *gc) {
  const Spec *spec = gc->spec;
  if (spec->link_count == 0)
    ERR(gc, ((SrcLoc){spec->path, 1, 1, 1, 1}), "the specification has no links (T = L1(1) << ...;)");
  for (int i = 0; i < spec->link_count; i++) {
    const SpecLink *link = &spec->links[i];
    if (gen_find_task(spec, link->task.name) < 0) {
      ERR(gc, link->task.loc, "unknown task '%s': declare it first (%s = Process;)", link->task.name,
          link->task.name);
    }
    int first = gen_find_link(spec, link->task.name);
    if (first != i)
      ERR(gc, link->task.loc, "task '%s' is linked twice (first at line %d)", link->task.name,
          spec->links[first].loc.line);
    for (int j = 0; j < i; j++) {
      if (link->level_number && spec->links[j].level_number == link->level_number) {
        ERR(gc, link->level.loc, "duplicate level %s: already the level of '%s' (line %d)",
            link->level.name, spec->links[j].task.name, spec->links[j].loc.line);
        break;
      }
    }
    if (program_lookup(gc->lib, link->level.name))
      ERR(gc, link->level.loc, "level %s: the cost library already defines '%s', the name of the "
          "level's process in the generated model", link->level.name, link->level.name);
    char owner[160];
    snprintf(owner, sizeof owner, "'%s'", link->task.name);
    check_names(gc, link->count, "a cardinality");
    check_count(gc, link->count, "the cardinality", owner);
    for (int k = 0; k < link->input_count; k++) {
      const SpecItem *item = &link->inputs[k];
      if (item->is_file) continue;
      if (gen_find_task(spec, item->name.name) < 0)
        ERR(gc, item->name.loc, "unknown task '%s' read by '%s'", item->name.name, link->task.name);
      else if (gen_find_link(spec, item->name.name) < 0)
        ERR(gc, item->name.loc, "task '%s' read by '%s' has no link, so no level", item->name.name,
            link->task.name);
    }
    for (int k = 0; k < link->output_count; k++)
      if (!link->outputs[k].is_file)
        ERR(gc, link->outputs[k].name.loc, "'>> %s': a link writes files only (its output goes to the tasks that read it)",
            link->outputs[k].name.name);
  }
}

/* Depth-first search for a cycle of reads through link i; state: 0 new, 1 on the path, 2 done.
** Reports the first cycle found, from the link where it closes. Returns 1 when one was found. */
static int find_cycle(GenChecker *gc, int i, int *state, int *path, int depth) {
  const Spec *spec = gc->spec;
  state[i] = 1;
  path[depth] = i;
  const SpecLink *link = &spec->links[i];
  for (int k = 0; k < link->input_count; k++) {
    if (link->inputs[k].is_file) continue;
    int j = gen_find_link(spec, link->inputs[k].name.name);
    if (j < 0) continue;
    if (state[j] == 1) {
      char chain[512] = "";
      int start = depth;
      while (start > 0 && path[start] != j) start--;
      for (int d = start; d <= depth; d++) {
        size_t used = strlen(chain);
        snprintf(chain + used, sizeof chain - used, d > start ? "'%s', which reads " : "'%s' reads ",
                 spec->links[path[d]].task.name);
      }
      size_t used = strlen(chain);
      snprintf(chain + used, sizeof chain - used, "'%s'", spec->links[j].task.name);
      ERR(gc, link->inputs[k].name.loc, "cycle in the data flow: %s", chain);
      return 1;
    }
    if (state[j] == 0 && find_cycle(gc, j, state, path, depth + 1)) return 1;
  }
  state[i] = 2;
  return 0;
}

/* No cycles; then every batch reads batches of earlier levels only. */
static void check_order(GenChecker *gc) {
  const Spec *spec = gc->spec;
  int *state = arena_alloc((Arena *)&gc->lib->arena, (size_t)(spec->link_count + 1) * sizeof *state);
  int *path = arena_alloc((Arena *)&gc->lib->arena, (size_t)(spec->link_count + 1) * sizeof *path);
  for (int i = 0; i < spec->link_count; i++)
    if (state[i] == 0 && gen_find_link(spec, spec->links[i].task.name) == i &&
        find_cycle(gc, i, state, path, 0))
      return;
  for (int i = 0; i < spec->link_count; i++) {
    const SpecLink *link = &spec->links[i];
    for (int k = 0; k < link->input_count; k++) {
      if (link->inputs[k].is_file) continue;
      int j = gen_find_link(spec, link->inputs[k].name.name);
      if (j < 0 || !link->level_number || !spec->links[j].level_number) continue;
      /* the same level is a duplicate level or a cycle, both reported already */
      if (spec->links[j].level_number > link->level_number)
        ERR(gc, link->inputs[k].name.loc,
            "'%s' at level %s reads '%s' of level %s: a batch reads only batches of earlier levels",
            link->task.name, link->level.name, spec->links[j].task.name, spec->links[j].level.name);
    }
  }
}

/* size T = e; — of a known task or a file, once each. */
static void check_sizes(GenChecker *gc) {
  const Spec *spec = gc->spec;
  for (int i = 0; i < spec->size_count; i++) {
    const SpecSize *size = &spec->sizes[i];
    if (!size->is_file && gen_find_task(spec, size->target.name) < 0)
      ERR(gc, size->target.loc, "unknown task '%s' in a size", size->target.name);
    if (gen_find_size(spec, size->target.name, size->is_file) != size)
      ERR(gc, size->target.loc, "size of '%s' is given twice", size->target.name);
    check_names(gc, size->bytes, "a size");
    double value;
    char where[96], hint[96];
    if (gen_fold(size->bytes, &value)) {
      if (value < 0)
        ERR(gc, size->bytes->loc, "size of '%s' must not be negative, not %g", size->target.name, value);
    } else if (fold(gc->lib, size->bytes, 0, &value) && value < 0) {
      describe_defaults(gc, size->bytes, where, sizeof where, hint, sizeof hint);
      ERR(gc, size->bytes->loc, "size of '%s' is %g %s, negative (%s)", size->target.name, value,
          where, hint);
    }
  }
}

/* workers G(n) factor f; — distinct names, positive counts, a positive number literal factor. */
static void check_workers(GenChecker *gc) {
  const Spec *spec = gc->spec;
  for (int i = 0; i < spec->worker_count; i++) {
    const SpecWorkers *group = &spec->workers[i];
    for (int j = 0; j < i; j++)
      if (strcmp(spec->workers[j].name.name, group->name.name) == 0) {
        ERR(gc, group->name.loc, "worker group '%s' is declared twice", group->name.name);
        break;
      }
    char owner[160];
    snprintf(owner, sizeof owner, "worker group '%s'", group->name.name);
    check_names(gc, group->count, "a worker count");
    check_count(gc, group->count, "the number of workers", owner);
    const Expr *factor = group->factor;
    if (factor->kind != EX_NUM || factor->u.num.unit_num != 1 || factor->u.num.unit_den != 1 ||
        strpbrk(factor->u.num.text, "eE") || !(factor->u.num.value > 0) ||
        strlen(factor->u.num.text) > 9)
      ERR(gc, factor->loc, "the factor of %s must be a positive plain number such as 2.5", owner);
  }
  /* At the default values there must be a worker to share a batch among. */
  double total = 0, count;
  for (int i = 0; i < spec->worker_count; i++) {
    if (!fold(gc->lib, spec->workers[i].count, 0, &count)) return;   /* not known there */
    total += count;
  }
  if (spec->worker_count > 0 && total <= 0) {
    char where[96], hint[96];
    describe_defaults(gc, spec->workers[0].count, where, sizeof where, hint, sizeof hint);
    ERR(gc, spec->workers[0].name.loc, "the worker groups have no worker %s (%s)", where, hint);
  }
}

/* fn send(bytes) must be in the library; read/write, when there, take one argument. */
static void check_library(GenChecker *gc) {
  const Spec *spec = gc->spec;
  SrcLoc where = spec->link_count ? spec->links[0].loc : (SrcLoc){spec->path, 1, 1, 1, 1};
  Decl *send = program_lookup(gc->lib, "send");
  if (!send || send->kind != DECL_FN || send->u.fn.params.count != 1)
    ERR(gc, where, "the cost library '%s' must define 'fn send(bytes)' (the cost of one message; "
        "pamc calibrate writes one)", gc->lib->path);
  if (program_lookup(gc->lib, "main"))
    ERR(gc, where, "the cost library '%s' defines 'main': the generated model has its own",
        gc->lib->path);
  Decl *net = program_lookup(gc->lib, "net");
  if (net && net->kind != DECL_RESOURCE)
    ERR(gc, where, "the cost library '%s' uses the name 'net', which the generated model needs for "
        "the network resource", gc->lib->path);
  static const char *const file_processes[] = {"read", "write"};
  for (int i = 0; i < 2; i++) {
    Decl *decl = program_lookup(gc->lib, file_processes[i]);
    if (decl && (decl->kind != DECL_PROCESS || decl->u.process.params.count != 1))
      ERR(gc, where, "'%s' in the cost library must be 'process %s(bytes)'", file_processes[i],
          file_processes[i]);
  }
}

int gen_check(const Spec *spec, const Program *lib, DiagList *diags) {
  GenChecker gc = {spec, lib, diags};
  int before = diags->errors;
  check_tasks(&gc);
  check_links(&gc);
  check_sizes(&gc);
  check_workers(&gc);
  check_library(&gc);
  check_order(&gc);
  return diags->errors - before;
}
