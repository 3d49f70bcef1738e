/*
** check.c — the checker's driver and name resolution (check.h): scopes in the order of
** LANGUAGE.md §5 (loop indices, then process/fn parameters, then params and consts), kinds of
** names, arity of calls, then recursion (check_cycles.c), the order of nested holds
** (check_holds.c) and values at hand (check_values.c).
*/
#include "check_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"

/* Names offered as suggestions for one unknown name at most (enough for any hand-written model;
** beyond it, the suggestion is only less likely). */
#define CHECK_MAX_CANDIDATES 1024
/* Keywords of the language at most (parse_keywords). */
#define CHECK_MAX_KEYWORDS 64

static const char *kind_word(DeclKind kind) {
  switch (kind) {
    case DECL_IMPORT: return "an import";
    case DECL_PARAM: return "a param";
    case DECL_CONST: return "a const";
    case DECL_FN: return "a fn";
    case DECL_RESOURCE: return "a resource";
    case DECL_PROCESS: return "a process";
  }
  return "a declaration";
}

static int same_loc(SrcLoc a, SrcLoc b) {
  if (a.line != b.line || a.col != b.col) return 0;
  if (!a.file || !b.file) return a.file == b.file;
  return !strcmp(a.file, b.file);
}

void check_error_once(Checker *ck, SrcLoc loc, const char *format, ...) {
  char message[512];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  for (int i = 0; i < ck->diags->count; i++) {
    const Diag *d = &ck->diags->items[i];
    if (d->level != DIAG_ERROR || !same_loc(d->loc, loc)) continue;
    if (loc.file || !strcmp(d->message, message)) return;   /* one error a place */
  }
  char when[CHECK_WHEN_SIZE] = "";
  for (int i = 0; i < ck->split_depth; i++) {
    size_t length = strlen(when);
    snprintf(when + length, sizeof when - length, "%s%s = %.17g", length ? ", " : "", ck->when_names[i],
             ck->when_values[i]);
  }
  if (when[0])
    diag_report(ck->diags, DIAG_ERROR, loc, "%s (when %s)", message, when);
  else
    diag_report(ck->diags, DIAG_ERROR, loc, "%s", message);
}

int check_in_force(const Checker *ck, const Decl *decl) {
  return program_lookup(ck->prog, decl->name.name) == decl;
}

/* ------------------------------------------------------------------ suggestions */

/* Which names a suggestion may offer. */
enum { WANT_VALUE = 1, WANT_FN = 2, WANT_PROCESS = 4, WANT_RESOURCE = 8 };

static const char *suggest(Checker *ck, const char *name, int want) {
  const char *names[CHECK_MAX_CANDIDATES];
  int count = 0;
  if (want & WANT_VALUE) {
    for (int i = 0; i < ck->depth && count < CHECK_MAX_CANDIDATES; i++) names[count++] = ck->indices[i]->name;
    if (ck->args)
      for (int i = 0; i < ck->args->count && count < CHECK_MAX_CANDIDATES; i++)
        names[count++] = ck->args->items[i].name;
  }
  if (want & WANT_FN)
    for (int b = 0; b < EVAL_B_COUNT && count < CHECK_MAX_CANDIDATES; b++)
      names[count++] = eval_builtin_name(b);
  if (want & WANT_PROCESS) {   /* `dealy(2us)` reads as a call of a process: delay was meant */
    const char *keywords[CHECK_MAX_KEYWORDS];
    int n = parse_keywords(keywords, CHECK_MAX_KEYWORDS);
    for (int k = 0; k < n && count < CHECK_MAX_CANDIDATES; k++)
      if (suggest_distance(name, keywords[k]) == 1) names[count++] = keywords[k];   /* one slip */
  }
  for (int i = 0; i < ck->prog->decl_count && count < CHECK_MAX_CANDIDATES; i++) {
    const Decl *d = ck->prog->decls[i];
    if (((want & WANT_VALUE) && (d->kind == DECL_PARAM || d->kind == DECL_CONST)) ||
        ((want & WANT_FN) && d->kind == DECL_FN) || ((want & WANT_PROCESS) && d->kind == DECL_PROCESS) ||
        ((want & WANT_RESOURCE) && d->kind == DECL_RESOURCE))
      names[count++] = d->name.name;
  }
  return check_closest(name, names, count);
}

static void unknown(Checker *ck, SrcLoc loc, const char *what, const char *name, int want) {
  const char *near = suggest(ck, name, want);
  if (near)
    diag_report(ck->diags, DIAG_ERROR, loc, "unknown %s '%s'; did you mean '%s'?", what, name, near);
  else
    diag_report(ck->diags, DIAG_ERROR, loc, "unknown %s '%s'", what, name);
}

/* ------------------------------------------------------------------ expressions */

static void resolve_expr(Checker *ck, Expr *e);

static int push_index(Checker *ck, const Ident *var, SrcLoc loc) {
  if (ck->depth >= EVAL_MAX_INDICES) {
    diag_report(ck->diags, DIAG_ERROR, loc, "loops and sums nest deeper than %d", EVAL_MAX_INDICES);
    return 0;
  }
  ck->indices[ck->depth++] = var;
  return 1;
}

static void resolve_name(Checker *ck, Expr *e) {
  const char *name = e->u.name.id.name;
  for (int i = ck->depth - 1; i >= 0; i--)
    if (!strcmp(ck->indices[i]->name, name)) {
      e->u.name.kind = NAME_INDEX;
      e->u.name.slot = i;
      return;
    }
  if (ck->args)
    for (int i = 0; i < ck->args->count; i++)
      if (!strcmp(ck->args->items[i].name, name)) {
        e->u.name.kind = NAME_ARG;
        e->u.name.slot = i;
        return;
      }
  Decl *decl = program_lookup(ck->prog, name);
  if (!decl) {
    unknown(ck, e->loc, "name", name, WANT_VALUE);
    return;
  }
  if (decl->kind == DECL_PARAM || decl->kind == DECL_CONST) {
    e->u.name.kind = decl->kind == DECL_PARAM ? NAME_PARAM : NAME_CONST;
    e->u.name.decl = decl;
    return;
  }
  if (decl->kind == DECL_FN && decl->u.fn.params.count == 0)
    diag_report(ck->diags, DIAG_ERROR, e->loc, "'%s' is a fn of no arguments, not a value: call it, "
                "%s()", name, name);
  else
    diag_report(ck->diags, DIAG_ERROR, e->loc, "'%s' is %s, not a value", name, kind_word(decl->kind));
}

static void resolve_call(Checker *ck, Expr *e) {
  const char *name = e->u.call.fn.name;
  for (int i = 0; i < e->u.call.args.count; i++) resolve_expr(ck, e->u.call.args.items[i]);
  int count = e->u.call.args.count;
  int builtin = eval_builtin_lookup(name);
  e->u.call.decl = NULL;
  e->u.call.builtin = builtin;
  if (builtin >= 0) {
    if (builtin == EVAL_B_SUM || builtin == EVAL_B_PROD)
      diag_report(ck->diags, DIAG_ERROR, e->loc, "%s takes the form %s(i = a, b, e)", name, name);
    else if ((builtin == EVAL_B_MIN || builtin == EVAL_B_MAX) && count < 1)
      diag_report(ck->diags, DIAG_ERROR, e->loc, "%s takes at least 1 argument", name);
    else if (builtin != EVAL_B_MIN && builtin != EVAL_B_MAX && count != 1)
      diag_report(ck->diags, DIAG_ERROR, e->loc, "%s takes 1 argument, not %d", name, count);
    return;
  }
  Decl *decl = program_lookup(ck->prog, name);
  if (!decl) {
    unknown(ck, e->u.call.fn.loc, "function", name, WANT_FN);
    return;
  }
  if (decl->kind != DECL_FN) {
    diag_report(ck->diags, DIAG_ERROR, e->u.call.fn.loc, "'%s' is %s, not a function", name,
                kind_word(decl->kind));
    return;
  }
  e->u.call.decl = decl;
  e->u.call.builtin = -1;
  int want = decl->u.fn.params.count;
  if (count != want)
    diag_report(ck->diags, DIAG_ERROR, e->loc, "'%s' takes %d argument%s, not %d", name, want,
                want == 1 ? "" : "s", count);
}

static void resolve_expr(Checker *ck, Expr *e) {
  if (!e) return;
  switch (e->kind) {
    case EX_NUM:
      return;
    case EX_INTERVAL:
      resolve_expr(ck, e->u.interval.lo);
      resolve_expr(ck, e->u.interval.hi);
      resolve_expr(ck, e->u.interval.typ);
      return;
    case EX_NAME:
      resolve_name(ck, e);
      return;
    case EX_UNARY:
      resolve_expr(ck, e->u.unary.a);
      return;
    case EX_BINARY:
      resolve_expr(ck, e->u.binary.a);
      resolve_expr(ck, e->u.binary.b);
      return;
    case EX_COND:
      resolve_expr(ck, e->u.cond.cond);
      resolve_expr(ck, e->u.cond.then);
      resolve_expr(ck, e->u.cond.otherwise);
      return;
    case EX_CALL:
      resolve_call(ck, e);
      return;
    case EX_BIND: {
      int kind = eval_builtin_lookup(e->u.bind.fn.name);
      if (kind != EVAL_B_SUM && kind != EVAL_B_PROD && kind != EVAL_B_MIN && kind != EVAL_B_MAX)
        diag_report(ck->diags, DIAG_ERROR, e->u.bind.fn.loc,
                    "'%s' has no form with an index; only sum, prod, min and max do", e->u.bind.fn.name);
      resolve_expr(ck, e->u.bind.lo);
      resolve_expr(ck, e->u.bind.hi);
      if (!push_index(ck, &e->u.bind.var, e->loc)) return;
      resolve_expr(ck, e->u.bind.body);
      ck->depth--;
      return;
    }
  }
}

/* ------------------------------------------------------------------ statements */

/* use(r, t) and hold (r) S: the resource, its member index, and what holds it. */
static void resolve_use(Checker *ck, Stmt *s) {
  const char *name = s->u.use.resource.name;
  resolve_expr(ck, s->u.use.index);
  resolve_expr(ck, s->u.use.duration);
  Decl *decl = program_lookup(ck->prog, name);
  if (!decl) {
    unknown(ck, s->u.use.resource.loc, "resource", name, WANT_RESOURCE);
    return;
  }
  if (decl->kind != DECL_RESOURCE) {
    diag_report(ck->diags, DIAG_ERROR, s->u.use.resource.loc, "'%s' is %s, not a resource", name,
                kind_word(decl->kind));
    return;
  }
  s->u.use.decl = decl;
  if (s->kind == ST_HOLD && decl->u.resource.discipline == DISC_PS)
    diag_report(ck->diags, DIAG_ERROR, s->u.use.resource.loc,
                "cannot hold '%s': it is a ps resource (processor sharing serves everyone at "
                "once); hold needs an fcfs resource", name);
  if (decl->u.resource.count && !s->u.use.index)
    diag_report(ck->diags, DIAG_ERROR, s->u.use.resource.loc,
                "'%s' is a family of resources: use one member, %s[i]", name, name);
  else if (!decl->u.resource.count && s->u.use.index)
    diag_report(ck->diags, DIAG_ERROR, s->u.use.index->loc,
                "'%s' is a single resource, not a family: it takes no index", name);
}

static void resolve_process_call(Checker *ck, Stmt *s) {
  const char *name = s->u.call.process.name;
  for (int i = 0; i < s->u.call.args.count; i++) resolve_expr(ck, s->u.call.args.items[i]);
  Decl *decl = program_lookup(ck->prog, name);
  if (!decl) {
    unknown(ck, s->u.call.process.loc, "process", name, WANT_PROCESS);
    return;
  }
  if (decl->kind != DECL_PROCESS) {
    diag_report(ck->diags, DIAG_ERROR, s->u.call.process.loc, "'%s' is %s, not a process", name,
                kind_word(decl->kind));
    return;
  }
  s->u.call.decl = decl;
  int want = decl->u.process.params.count, count = s->u.call.args.count;
  if (count != want)
    diag_report(ck->diags, DIAG_ERROR, s->loc, "process '%s' takes %d argument%s, not %d", name, want,
                want == 1 ? "" : "s", count);
}

static void resolve_stmt(Checker *ck, Stmt *s) {
  if (!s) return;
  switch (s->kind) {
    case ST_SKIP:
      return;
    case ST_DELAY:
      resolve_expr(ck, s->u.delay.duration);
      return;
    case ST_USE:
      resolve_use(ck, s);
      return;
    case ST_HOLD:
      resolve_use(ck, s);
      resolve_stmt(ck, s->u.use.body);
      return;
    case ST_CALL:
      resolve_process_call(ck, s);
      return;
    case ST_BLOCK:
    case ST_PARALLEL:
      for (int i = 0; i < s->u.block.count; i++) resolve_stmt(ck, s->u.block.items[i]);
      return;
    case ST_SEQ:
    case ST_PAR:
      resolve_expr(ck, s->u.loop.lo);
      resolve_expr(ck, s->u.loop.hi);
      if (!push_index(ck, &s->u.loop.var, s->loc)) return;
      resolve_stmt(ck, s->u.loop.body);
      ck->depth--;
      return;
    case ST_REPEAT:
      resolve_expr(ck, s->u.repeat.count);
      resolve_stmt(ck, s->u.repeat.body);
      return;
    case ST_IF:
    case ST_CHOOSE:
      resolve_expr(ck, s->u.branch.cond);
      resolve_stmt(ck, s->u.branch.then);
      resolve_stmt(ck, s->u.branch.otherwise);
      return;
  }
}

/* ------------------------------------------------------------------ declarations */

static void check_params(Checker *ck, const IdentList *params) {
  for (int i = 0; i < params->count; i++)
    for (int j = 0; j < i; j++)
      if (!strcmp(params->items[i].name, params->items[j].name)) {
        diag_report(ck->diags, DIAG_ERROR, params->items[i].loc, "parameter '%s' is named twice",
                    params->items[i].name);
        break;
      }
}

static void resolve_decl(Checker *ck, Decl *d) {
  ck->depth = 0;
  ck->args = NULL;
  switch (d->kind) {
    case DECL_IMPORT:
      return;
    case DECL_PARAM:
      resolve_expr(ck, d->u.param.value);
      resolve_expr(ck, d->u.param.min);
      resolve_expr(ck, d->u.param.max);
      return;
    case DECL_CONST:
      resolve_expr(ck, d->u.constant.value);
      return;
    case DECL_FN:
      if (eval_builtin_lookup(d->name.name) >= 0)
        diag_report(ck->diags, DIAG_ERROR, d->name.loc, "'%s' is a built-in function; choose another name",
                    d->name.name);
      check_params(ck, &d->u.fn.params);
      ck->args = &d->u.fn.params;
      resolve_expr(ck, d->u.fn.body);
      break;
    case DECL_RESOURCE:
      resolve_expr(ck, d->u.resource.count);
      resolve_expr(ck, d->u.resource.servers);
      resolve_expr(ck, d->u.resource.handoff);
      if (d->u.resource.handoff && d->u.resource.discipline == DISC_PS)
        diag_report(ck->diags, DIAG_ERROR, d->u.resource.handoff->loc,
                    "handoff on '%s', a ps resource: only an fcfs resource is handed from one "
                    "holder to the next", d->name.name);
      return;
    case DECL_PROCESS:
      check_params(ck, &d->u.process.params);
      ck->args = &d->u.process.params;
      resolve_stmt(ck, d->u.process.body);
      break;
  }
  ck->args = NULL;
}

static void check_entry(Checker *ck) {
  Program *prog = ck->prog;
  Decl *entry = program_lookup(prog, prog->entry_name);
  SrcLoc top = {prog->path, 1, 1, 1, 1};
  int has_process = 0, own = 0;
  for (int i = 0; i < prog->decl_count; i++) {
    if (prog->decls[i]->kind == DECL_PROCESS) has_process = 1;
    if (!prog->decls[i]->from_machine) own = 1;
  }
  if (!own) {   /* an empty file (or only comments): the same error from every command */
    diag_report(ck->diags, DIAG_ERROR, top, "the file declares nothing (a model needs at least a process '%s')",
                prog->entry_name);
    return;
  }
  if (!entry && !has_process && !prog->entry_given) return;   /* a machine file or a library */
  if (!entry) {
    const char *near = suggest(ck, prog->entry_name, WANT_PROCESS);
    if (near)
      diag_report(ck->diags, DIAG_ERROR, top, "no entry process '%s'; did you mean '%s'?",
                  prog->entry_name, near);
    else
      diag_report(ck->diags, DIAG_ERROR, top, "no entry process '%s'", prog->entry_name);
  } else if (entry->kind != DECL_PROCESS) {
    diag_report(ck->diags, DIAG_ERROR, entry->name.loc, "entry '%s' is %s, not a process",
                prog->entry_name, kind_word(entry->kind));
  } else if (entry->u.process.params.count > 0) {
    diag_report(ck->diags, DIAG_ERROR, entry->name.loc,
                "entry process '%s' takes parameters; nothing would give them values", prog->entry_name);
  }
}

int check_program(Program *prog) {
  Checker ck;
  memset(&ck, 0, sizeof ck);
  ck.prog = prog;
  ck.diags = prog->diags;
  int before = prog->diags->errors;
  for (int i = 0; i < prog->decl_count; i++) resolve_decl(&ck, prog->decls[i]);
  check_entry(&ck);
  if (prog->diags->errors == before) check_cycles(&ck);
  if (prog->diags->errors == before) check_ends(&ck);
  if (prog->diags->errors == before) check_whole(&ck);
  if (prog->diags->errors == before) check_holds(&ck);
  if (prog->diags->errors == before) check_values(&ck);
  return prog->diags->errors - before;
}
