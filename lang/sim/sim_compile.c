/*
** sim_compile.c — turns the resolved AST reached from the entry process into one run's compiled
** program (sim_internal.h): params and consts folded to their values in the run's scenario, each
** interval literal given its fraction for the run, constant sub-expressions folded, processes,
** fns and resources compiled once each.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "eval.h"
#include "sim_internal.h"

/* What the compiler knows of one declaration. */
typedef enum InfoState { INFO_NEW, INFO_BUSY, INFO_DONE, INFO_FAILED } InfoState;

typedef struct DeclInfo {
  const Decl *decl;         /* key; NULL: empty slot */
  InfoState state;          /* compilation state (BUSY: a cycle if reached again) */
  double value;             /* param/const: its value in this run */
  SimError *error;          /* INFO_FAILED: why (in the arena: a SimError is large) */
  void *compiled;           /* SimProc, SimFn or SimRes */
} DeclInfo;

/* Declarations reached by one run start at this many slots (doubling as they fill). */
#define COMPILE_TABLE_START 64

typedef struct Compiler {
  SimProgram *program;      /* what is built */
  Arena *arena;             /* program->arena */
  SimScenario scenario;     /* the run's scenario */
  SimRng *rng;              /* draws of random scenarios */
  SimError *err;            /* where a failure goes */
  DeclInfo *table;          /* declaration -> info, open addressing */
  int table_size;           /* slots (power of two) */
  int table_used;           /* filled slots */
  /* the frame being compiled (process, fn or definition) */
  int arg_count;            /* its parameters */
  int depth;                /* named binders enclosing the current point */
  int max_values;           /* values the frame needs so far */
  SimError scratch;         /* an error on its way to failure() or fold's: here, not on the
                               stack of every level of compile_expr (a SimError with its notes is
                               3 KB; 1000 levels of expression overflowed the stack) */
} Compiler;

typedef struct FrameState {
  int arg_count, depth, max_values; /* saved Compiler frame fields */
} FrameState;

static FrameState frame_enter(Compiler *c, int arg_count) {
  FrameState saved = {c->arg_count, c->depth, c->max_values};
  c->arg_count = arg_count;
  c->depth = 0;
  c->max_values = arg_count;
  return saved;
}

static void frame_leave(Compiler *c, FrameState saved) {
  c->arg_count = saved.arg_count;
  c->depth = saved.depth;
  c->max_values = saved.max_values;
}

static void need_value(Compiler *c, int slot) {
  if (slot + 1 > c->max_values) c->max_values = slot + 1;
}

/* ------------------------------------------------------------------ declaration table */

static unsigned hash_pointer(const void *p) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (unsigned)x;
}

static DeclInfo *info_of(Compiler *c, const Decl *decl) {
  if (c->table_used * 2 >= c->table_size) {
    int size = c->table_size ? c->table_size * 2 : COMPILE_TABLE_START;
    DeclInfo *table = arena_alloc(c->arena, (size_t)size * sizeof *table);
    for (int i = 0; i < c->table_size; i++) {
      if (!c->table[i].decl) continue;
      unsigned h = hash_pointer(c->table[i].decl) & (unsigned)(size - 1);
      while (table[h].decl) h = (h + 1) & (unsigned)(size - 1);
      table[h] = c->table[i];
    }
    c->table = table;
    c->table_size = size;
  }
  unsigned h = hash_pointer(decl) & (unsigned)(c->table_size - 1);
  while (c->table[h].decl && c->table[h].decl != decl) h = (h + 1) & (unsigned)(c->table_size - 1);
  if (!c->table[h].decl) {
    c->table[h].decl = decl;
    c->table[h].state = INFO_NEW;
    c->table_used++;
  }
  return &c->table[h];
}

/* ------------------------------------------------------------------ expressions */

static SimExpr *node(Compiler *c, SimExprKind kind, const Expr *src) {
  SimExpr *x = arena_alloc(c->arena, sizeof *x);
  x->kind = kind;
  x->src = src;
  return x;
}

static SimExpr *number(Compiler *c, double value, const Expr *src) {
  SimExpr *x = node(c, SX_NUM, src);
  x->value = value;
  return x;
}

static SimExpr *failure(Compiler *c, const SimError *error, const Expr *src) {
  SimExpr *x = node(c, SX_FAIL, src);
  x->message = arena_strdup(c->arena, error->message);
  x->loc = error->loc;
  return x;
}

/* The node's value when it can be computed now (all operands known); else the node. An error
** found now stays for evaluation time: the expression may never be evaluated. */
static SimExpr *fold(Compiler *c, SimExpr *x) {
  SimEval ev = {0, &c->scratch};
  double frame[SIM_MAX_FN_VALUES] = {0};
  double value;
  if (sim_eval(&ev, x, frame, &value) == 0) return number(c, value, x->src);
  return x;
}

static int is_num(const SimExpr *x) { return x->kind == SX_NUM; }

/* The fraction u of an interval literal for this run. */
static double fraction(Compiler *c) {
  switch (c->scenario) {
    case SIM_SCENARIO_LO: return 0;
    case SIM_SCENARIO_MID: return 0.5;
    case SIM_SCENARIO_HI: return 1;
    case SIM_SCENARIO_RANDOM: return sim_rng_unit(c->rng);
    case SIM_SCENARIO_TYP: return 0.5;   /* a literal without a typical value: its midpoint */
  }
  return 0.5;
}

static SimExpr *compile_expr(Compiler *c, const Expr *e);
static SimFn *compile_fn(Compiler *c, const Decl *decl, const Expr *use);

/* The value of a param or const in this run, as a number or a failure at the use. */
static SimExpr *decl_value(Compiler *c, const Expr *use) {
  const Decl *decl = use->u.name.decl;
  DeclInfo *info = info_of(c, decl);
  if (info->state == INFO_NEW) {
    const Expr *value = decl->kind == DECL_PARAM ? decl->u.param.value
                      : decl->kind == DECL_CONST ? decl->u.constant.value : NULL;
    SimError error;
    if (!value) {
      info->state = INFO_FAILED;
      char message[EVAL_MESSAGE_SIZE];
      sim_fail(&error, decl->name.loc, "%s", eval_no_value_message(decl, message, sizeof message));
      info->error = arena_alloc(c->arena, sizeof error);
      *info->error = error;
      return failure(c, info->error, use);
    }
    info->state = INFO_BUSY;
    FrameState saved = frame_enter(c, 0);
    SimExpr *x = compile_expr(c, value);
    int values = c->max_values;
    frame_leave(c, saved);
    info = info_of(c, decl);   /* the table may have grown */
    double frame[SIM_MAX_FN_VALUES] = {0};
    SimEval ev = {0, &error};
    if (values > SIM_MAX_FN_VALUES) {
      sim_fail(&error, value->loc, "definition of '%s' nests too deeply", decl->name.name);
      info->state = INFO_FAILED;
    } else if (sim_eval(&ev, x, frame, &info->value) == 0) {
      info->state = INFO_DONE;
    } else {
      info->state = INFO_FAILED;
    }
    if (info->state == INFO_FAILED) {
      info->error = arena_alloc(c->arena, sizeof error);
      *info->error = error;
    }
  } else if (info->state == INFO_BUSY) {
    SimError error;
    sim_fail(&error, use->loc, "'%s' is defined in terms of itself", decl->name.name);
    return failure(c, &error, use);
  }
  if (info->state == INFO_FAILED) return failure(c, info->error, use);
  return number(c, info->value, use);
}

static SimExpr *compile_name(Compiler *c, const Expr *e) {
  SimExpr *x;
  switch (e->u.name.kind) {
    case NAME_INDEX:
      x = node(c, SX_VAR, e);
      x->slot = c->arg_count + e->u.name.slot;
      need_value(c, x->slot);
      return x;
    case NAME_ARG:
      x = node(c, SX_VAR, e);
      x->slot = e->u.name.slot;
      need_value(c, x->slot);
      return x;
    case NAME_PARAM:
    case NAME_CONST:
      if (e->u.name.decl) return decl_value(c, e);
      break;
    case NAME_UNRESOLVED:
      break;
  }
  sim_fail(&c->scratch, e->loc, "unresolved name '%s'", e->u.name.id.name);
  return failure(c, &c->scratch, e);
}

/* lo/hi/mid/width: the argument as an interval (no pick inside), folded when it does not depend
** on the frame. */
static SimExpr *compile_takeapart(Compiler *c, const Expr *e, int builtin) {
  const Expr *arg = e->u.call.args.items[0];
  SimExpr *point = compile_expr(c, arg);
  if (is_num(point)) {
    EvalEnv env;
    eval_env_init(&env);
    AlgInterval v;
    EvalError error;
    if (eval_expr(&env, arg, &v, &error) != EVAL_OK) {
      sim_fail(&c->scratch, error.loc, "%s", error.message);
      return failure(c, &c->scratch, e);
    }
    double value = builtin == EVAL_B_LO ? v.lo : builtin == EVAL_B_HI ? v.hi
                 : builtin == EVAL_B_MID ? ival_mid(v) : ival_width(v);
    return number(c, value, e);
  }
  SimExpr *x = node(c, SX_TAKEAPART, e);
  x->op = builtin;
  x->slot = c->arg_count;
  x->count = c->depth;
  need_value(c, c->arg_count + c->depth);
  return x;
}

static SimExpr *compile_call(Compiler *c, const Expr *e) {
  int builtin = e->u.call.builtin;
  const ExprList *args = &e->u.call.args;
  SimExpr *x;
  if (e->u.call.decl) {
    SimFn *fn = compile_fn(c, e->u.call.decl, e);
    if (!fn) return failure(c, c->err, e);
    if (args->count != fn->decl->u.fn.params.count) {
      sim_fail(&c->scratch, e->loc, "%s takes %d arguments, not %d", fn->decl->name.name,
               fn->decl->u.fn.params.count, args->count);
      return failure(c, &c->scratch, e);
    }
    x = node(c, SX_CALL, e);
    x->fn = fn;
  } else if (builtin == EVAL_B_MIN || builtin == EVAL_B_MAX) {
    x = node(c, SX_MINMAX, e);
    x->op = builtin == EVAL_B_MAX;
  } else if (builtin == EVAL_B_LO || builtin == EVAL_B_HI || builtin == EVAL_B_MID ||
             builtin == EVAL_B_WIDTH) {
    if (args->count != 1) goto bad;
    return compile_takeapart(c, e, builtin);
  } else if (builtin >= EVAL_B_CEIL && builtin <= EVAL_B_EXP) {
    if (args->count != 1) goto bad;
    x = node(c, SX_MATH, e);
    x->op = builtin;
    x->a = compile_expr(c, args->items[0]);
    return is_num(x->a) ? fold(c, x) : x;
  } else {
    goto bad;
  }
  if (args->count < 1 && x->kind == SX_MINMAX) goto bad;
  x->count = args->count;
  x->kids = arena_alloc(c->arena, (size_t)(args->count ? args->count : 1) * sizeof *x->kids);
  int all_known = 1;
  for (int i = 0; i < args->count; i++) {
    x->kids[i] = compile_expr(c, args->items[i]);
    all_known &= is_num(x->kids[i]);
  }
  return all_known ? fold(c, x) : x;
bad:;
  sim_fail(&c->scratch, e->loc, "bad call of '%s'", e->u.call.fn.name);
  return failure(c, &c->scratch, e);
}

static SimExpr *compile_bind(Compiler *c, const Expr *e) {
  SimExpr *x = node(c, SX_BIND, e);
  x->op = eval_builtin_lookup(e->u.bind.fn.name);
  if (x->op != EVAL_B_SUM && x->op != EVAL_B_PROD && x->op != EVAL_B_MIN && x->op != EVAL_B_MAX) {
    sim_fail(&c->scratch, e->loc, "'%s' has no binder form", e->u.bind.fn.name);
    return failure(c, &c->scratch, e);
  }
  x->a = compile_expr(c, e->u.bind.lo);
  x->b = compile_expr(c, e->u.bind.hi);
  x->slot = c->arg_count + c->depth;
  need_value(c, x->slot);
  c->depth++;
  x->c = compile_expr(c, e->u.bind.body);
  c->depth--;
  return x;
}

static SimExpr *compile_expr(Compiler *c, const Expr *e) {
  SimExpr *x;
  switch (e->kind) {
    case EX_NUM:
      return number(c, e->u.num.value, e);
    case EX_INTERVAL:
      if (c->scenario == SIM_SCENARIO_TYP && e->u.interval.typ) return compile_expr(c, e->u.interval.typ);
      x = node(c, SX_LITERAL, e);
      x->value = fraction(c);
      x->a = compile_expr(c, e->u.interval.lo);
      x->b = compile_expr(c, e->u.interval.hi);
      return is_num(x->a) && is_num(x->b) ? fold(c, x) : x;
    case EX_NAME:
      return compile_name(c, e);
    case EX_UNARY:
      x = node(c, e->u.unary.op == OP_NEG ? SX_NEG : SX_NOT, e);
      x->a = compile_expr(c, e->u.unary.a);
      return is_num(x->a) ? fold(c, x) : x;
    case EX_BINARY:
      x = node(c, e->u.binary.op == OP_AND ? SX_AND : e->u.binary.op == OP_OR ? SX_OR : SX_BINARY, e);
      x->op = e->u.binary.op;
      x->a = compile_expr(c, e->u.binary.a);
      x->b = compile_expr(c, e->u.binary.b);
      return is_num(x->a) && is_num(x->b) ? fold(c, x) : x;
    case EX_COND:
      x = node(c, SX_COND, e);
      x->a = compile_expr(c, e->u.cond.cond);
      x->b = compile_expr(c, e->u.cond.then);
      x->c = compile_expr(c, e->u.cond.otherwise);
      if (is_num(x->a)) return x->a->value != 0 ? x->b : x->c;
      return x;
    case EX_CALL:
      return compile_call(c, e);
    case EX_BIND:
      return compile_bind(c, e);
  }
  sim_fail(&c->scratch, e->loc, "bad expression");
  return failure(c, &c->scratch, e);
}

/* ------------------------------------------------------------------ fns, resources, processes */

static SimFn *compile_fn(Compiler *c, const Decl *decl, const Expr *use) {
  DeclInfo *info = info_of(c, decl);
  if (info->state == INFO_DONE) return info->compiled;
  if (info->state == INFO_BUSY) {
    sim_fail(c->err, use->loc, "fn '%s' calls itself", decl->name.name);
    return NULL;
  }
  info->state = INFO_BUSY;
  SimFn *fn = arena_alloc(c->arena, sizeof *fn);
  fn->decl = decl;
  FrameState saved = frame_enter(c, decl->u.fn.params.count);
  fn->body = compile_expr(c, decl->u.fn.body);
  fn->value_count = c->max_values;
  frame_leave(c, saved);
  info = info_of(c, decl);
  if (fn->value_count > SIM_MAX_FN_VALUES) {
    sim_fail(c->err, decl->loc, "fn '%s' has too many arguments and nested indices", decl->name.name);
    info->state = INFO_FAILED;
    return NULL;
  }
  info->state = INFO_DONE;
  info->compiled = fn;
  return fn;
}

/* The value in this run of an expression of a declaration (params and consts only). 0 or -1. */
static int decl_number(Compiler *c, const Expr *e, double *out) {
  FrameState saved = frame_enter(c, 0);
  SimExpr *x = compile_expr(c, e);
  frame_leave(c, saved);
  double frame[SIM_MAX_FN_VALUES] = {0};
  SimEval ev = {0, c->err};
  return sim_eval(&ev, x, frame, out);
}

/* A value of a declaration that must be a whole number >= least. */
static int whole_value(Compiler *c, const Expr *e, int64_t least, const char *what, int64_t *out) {
  double v;
  if (decl_number(c, e, &v)) return -1;
  if (!isfinite(v) || floor(v) != v || v < (double)least || v > 9.0e15)
    return sim_fail(c->err, e->loc, "%s must be a whole number >= %lld (it is %g)", what,
                    (long long)least, v);
  *out = (int64_t)v;
  return 0;
}

static SimRes *compile_resource(Compiler *c, const Decl *decl) {
  DeclInfo *info = info_of(c, decl);
  if (info->state == INFO_DONE) return info->compiled;
  SimRes *res = arena_alloc(c->arena, sizeof *res);
  res->decl = decl;
  res->family = decl->u.resource.count != NULL;
  res->size = 1;
  res->servers = 1;
  if (res->family && whole_value(c, decl->u.resource.count, 0, "the size of a resource family", &res->size))
    return NULL;
  res->ps = decl->u.resource.discipline == DISC_PS;
  if (res->ps) {   /* ps(c): any positive capacity, picked by the scenario when an interval */
    res->capacity = 1;
    if (decl->u.resource.servers && decl_number(c, decl->u.resource.servers, &res->capacity)) return NULL;
    if (!(res->capacity > 0) || !isfinite(res->capacity)) {
      sim_fail(c->err, decl->u.resource.servers->loc, "the capacity of a ps resource must be positive "
               "(it is %g)", res->capacity);
      return NULL;
    }
  } else {
    if (decl->u.resource.servers &&
        whole_value(c, decl->u.resource.servers, 1, "the multiplicity of a resource", &res->servers))
      return NULL;
    res->capacity = (double)res->servers;
  }
  if (decl->u.resource.handoff) {
    if (decl_number(c, decl->u.resource.handoff, &res->handoff)) return NULL;
    if (!(res->handoff >= 0) || !isfinite(res->handoff)) {
      sim_fail(c->err, decl->u.resource.handoff->loc, "a hand-off time must be >= 0 (it is %g)", res->handoff);
      return NULL;
    }
  }
  res->single.index = 0;
  SimProgram *p = c->program;
  if (p->resource_count == p->resource_cap) {
    int cap = p->resource_cap ? p->resource_cap * 2 : 8;
    SimRes **list = arena_alloc(c->arena, (size_t)cap * sizeof *list);
    if (p->resource_count) memcpy(list, p->resources, (size_t)p->resource_count * sizeof *list);
    p->resources = list;
    p->resource_cap = cap;
  }
  res->order = p->resource_count;
  p->resources[p->resource_count++] = res;
  info = info_of(c, decl);
  info->state = INFO_DONE;
  info->compiled = res;
  return res;
}

static SimProc *compile_proc(Compiler *c, const Decl *decl, SrcLoc where);

static SimStmt *compile_stmt(Compiler *c, const Stmt *s) {
  SimStmt *t = arena_alloc(c->arena, sizeof *t);
  t->src = s;
  switch (s->kind) {
    case ST_SKIP: t->kind = SS_SKIP; break;
    case ST_DELAY:
      t->kind = SS_DELAY;
      t->a = compile_expr(c, s->u.delay.duration);
      break;
    case ST_USE:
    case ST_HOLD: {
      t->kind = s->kind == ST_USE ? SS_USE : SS_HOLD;
      const Decl *decl = s->u.use.decl;
      if (!decl || decl->kind != DECL_RESOURCE) {
        sim_fail(c->err, s->u.use.resource.loc, "'%s' is not a resource", s->u.use.resource.name);
        return NULL;
      }
      t->res = compile_resource(c, decl);
      if (!t->res) return NULL;
      if (t->res->family != (s->u.use.index != NULL)) {
        sim_fail(c->err, s->u.use.resource.loc, t->res->family ? "'%s' is a family: give a member, %s[i]"
                 : "'%s' is not a family%s", decl->name.name, t->res->family ? decl->name.name : "");
        return NULL;
      }
      if (t->kind == SS_HOLD && t->res->ps) {   /* the checker says so first (LANGUAGE.md §8) */
        sim_fail(c->err, s->u.use.resource.loc, "hold needs an fcfs resource; '%s' is ps", decl->name.name);
        return NULL;
      }
      if (s->u.use.index) t->index = compile_expr(c, s->u.use.index);
      if (t->kind == SS_USE) t->a = compile_expr(c, s->u.use.duration);
      else if (!(t->body = compile_stmt(c, s->u.use.body))) return NULL;
      break;
    }
    case ST_CALL: {
      t->kind = SS_CALL;
      const Decl *decl = s->u.call.decl;
      if (!decl || decl->kind != DECL_PROCESS) {
        sim_fail(c->err, s->u.call.process.loc, "'%s' is not a process", s->u.call.process.name);
        return NULL;
      }
      if (s->u.call.args.count != decl->u.process.params.count) {
        sim_fail(c->err, s->loc, "%s takes %d arguments, not %d", decl->name.name,
                 decl->u.process.params.count, s->u.call.args.count);
        return NULL;
      }
      t->proc = compile_proc(c, decl, s->loc);
      if (!t->proc) return NULL;
      t->count = s->u.call.args.count;
      t->args = arena_alloc(c->arena, (size_t)(t->count ? t->count : 1) * sizeof *t->args);
      for (int i = 0; i < t->count; i++) t->args[i] = compile_expr(c, s->u.call.args.items[i]);
      break;
    }
    case ST_BLOCK:
    case ST_PARALLEL:
      t->kind = s->kind == ST_BLOCK ? SS_BLOCK : SS_PARALLEL;
      t->count = s->u.block.count;
      t->items = arena_alloc(c->arena, (size_t)(t->count ? t->count : 1) * sizeof *t->items);
      for (int i = 0; i < t->count; i++)
        if (!(t->items[i] = compile_stmt(c, s->u.block.items[i]))) return NULL;
      break;
    case ST_SEQ:
    case ST_PAR:
      t->kind = s->kind == ST_SEQ ? SS_SEQ : SS_PAR;
      t->a = compile_expr(c, s->u.loop.lo);
      t->b = compile_expr(c, s->u.loop.hi);
      t->slot = c->arg_count + c->depth;
      need_value(c, t->slot);
      c->depth++;
      t->body = compile_stmt(c, s->u.loop.body);
      c->depth--;
      if (!t->body) return NULL;
      break;
    case ST_REPEAT:
      t->kind = SS_REPEAT;
      t->a = compile_expr(c, s->u.repeat.count);
      if (!(t->body = compile_stmt(c, s->u.repeat.body))) return NULL;
      break;
    case ST_IF:
    case ST_CHOOSE:
      t->kind = s->kind == ST_IF ? SS_IF : SS_CHOOSE;
      t->a = compile_expr(c, s->u.branch.cond);
      if (!(t->body = compile_stmt(c, s->u.branch.then))) return NULL;
      if (s->u.branch.otherwise && !(t->otherwise = compile_stmt(c, s->u.branch.otherwise)))
        return NULL;
      break;
  }
  return t;
}

static SimProc *compile_proc(Compiler *c, const Decl *decl, SrcLoc where) {
  DeclInfo *info = info_of(c, decl);
  if (info->state == INFO_DONE) return info->compiled;
  if (info->state == INFO_BUSY) {
    sim_fail(c->err, where, "process '%s' runs itself (recursion)", decl->name.name);
    return NULL;
  }
  info->state = INFO_BUSY;
  SimProc *proc = arena_alloc(c->arena, sizeof *proc);
  proc->decl = decl;
  proc->arg_count = decl->u.process.params.count;
  FrameState saved = frame_enter(c, proc->arg_count);
  proc->body = compile_stmt(c, decl->u.process.body);
  proc->value_count = c->max_values;
  frame_leave(c, saved);
  if (!proc->body) return NULL;
  info = info_of(c, decl);
  info->state = INFO_DONE;
  info->compiled = proc;
  return proc;
}

int sim_compile(SimProgram *program, const Decl *entry, SimScenario scenario, SimRng *rng,
                SimError *err) {
  memset(program, 0, sizeof *program);
  arena_init(&program->arena);
  Compiler c;
  memset(&c, 0, sizeof c);
  c.program = program;
  c.arena = &program->arena;
  c.scenario = scenario;
  c.rng = rng;
  c.err = err;
  if (!entry || entry->kind != DECL_PROCESS)
    return sim_fail(err, entry ? entry->loc : (SrcLoc){0}, "the entry is not a process");
  if (entry->u.process.params.count > 0)
    return sim_fail(err, entry->name.loc, "the entry process '%s' takes arguments", entry->name.name);
  program->entry = compile_proc(&c, entry, entry->name.loc);
  return program->entry ? 0 : -1;
}

void sim_program_free(SimProgram *program) {
  arena_free(&program->arena);
}
