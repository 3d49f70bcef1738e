/*
** ast_dump.c — printing the syntax tree as S-expressions (ast_dump.h).
*/
#include "ast_dump.h"
#include "ast_depth.h"
#include "units.h"

const char *ast_op_name(Op op) {
  switch (op) {
    case OP_ADD: return "+";
    case OP_SUB: return "-";
    case OP_MUL: return "*";
    case OP_DIV: return "/";
    case OP_MOD: return "%";
    case OP_POW: return "^";
    case OP_EQ: return "==";
    case OP_NE: return "!=";
    case OP_LT: return "<";
    case OP_LE: return "<=";
    case OP_GT: return ">";
    case OP_GE: return ">=";
    case OP_AND: return "and";
    case OP_OR: return "or";
    case OP_NEG: return "-";
    case OP_NOT: return "not";
  }
  return "?";
}


static void dump_exprs(const ExprList *list, FILE *out) {
  for (int i = 0; i < list->count; i++) {
    fputc(' ', out);
    ast_dump_expr(list->items[i], out);
  }
}

void ast_dump_expr(const Expr *e, FILE *out) {
  if (!e) {
    fputs("_", out);
    return;
  }
  switch (e->kind) {
    case EX_NUM:
      fprintf(out, "%s%s", e->u.num.text, unit_name(e->u.num.unit_num, e->u.num.unit_den));
      break;
    case EX_INTERVAL:
      fputs("(interval ", out);
      ast_dump_expr(e->u.interval.lo, out);
      fputc(' ', out);
      ast_dump_expr(e->u.interval.hi, out);
      if (e->u.interval.typ) {
        fputs(" typ ", out);
        ast_dump_expr(e->u.interval.typ, out);
      }
      fputc(')', out);
      break;
    case EX_NAME:
      fputs(e->u.name.id.name, out);
      break;
    case EX_UNARY:
      fprintf(out, "(%s ", ast_op_name(e->u.unary.op));
      ast_dump_expr(e->u.unary.a, out);
      fputc(')', out);
      break;
    case EX_BINARY:
      fprintf(out, "(%s ", ast_op_name(e->u.binary.op));
      ast_dump_expr(e->u.binary.a, out);
      fputc(' ', out);
      ast_dump_expr(e->u.binary.b, out);
      fputc(')', out);
      break;
    case EX_COND:
      fputs("(? ", out);
      ast_dump_expr(e->u.cond.cond, out);
      fputc(' ', out);
      ast_dump_expr(e->u.cond.then, out);
      fputc(' ', out);
      ast_dump_expr(e->u.cond.otherwise, out);
      fputc(')', out);
      break;
    case EX_CALL:
      fprintf(out, "(%s", e->u.call.fn.name);
      dump_exprs(&e->u.call.args, out);
      fputc(')', out);
      break;
    case EX_BIND:
      fprintf(out, "(bind %s %s ", e->u.bind.fn.name, e->u.bind.var.name);
      ast_dump_expr(e->u.bind.lo, out);
      fputc(' ', out);
      ast_dump_expr(e->u.bind.hi, out);
      fputc(' ', out);
      ast_dump_expr(e->u.bind.body, out);
      fputc(')', out);
      break;
  }
}

static void dump_stmts(const StmtList *list, FILE *out) {
  for (int i = 0; i < list->count; i++) {
    fputc(' ', out);
    ast_dump_stmt(list->items[i], out);
  }
}

/* (if c then [else]) and (choose p then [else]) */
static void dump_branch(const char *head, const Stmt *s, FILE *out) {
  fprintf(out, "(%s ", head);
  ast_dump_expr(s->u.branch.cond, out);
  fputc(' ', out);
  ast_dump_stmt(s->u.branch.then, out);
  if (s->u.branch.otherwise) {
    fputc(' ', out);
    ast_dump_stmt(s->u.branch.otherwise, out);
  }
  fputc(')', out);
}

/* (seq i lo hi body) and (par i lo hi body) */
static void dump_loop(const char *head, const Stmt *s, FILE *out) {
  fprintf(out, "(%s %s ", head, s->u.loop.var.name);
  ast_dump_expr(s->u.loop.lo, out);
  fputc(' ', out);
  ast_dump_expr(s->u.loop.hi, out);
  fputc(' ', out);
  ast_dump_stmt(s->u.loop.body, out);
  fputc(')', out);
}

void ast_dump_stmt(const Stmt *s, FILE *out) {
  if (!s) {
    fputs("_", out);
    return;
  }
  switch (s->kind) {
    case ST_SKIP:
      fputs("(skip)", out);
      break;
    case ST_DELAY:
      fputs("(delay ", out);
      ast_dump_expr(s->u.delay.duration, out);
      fputc(')', out);
      break;
    case ST_USE:
    case ST_HOLD:
      fprintf(out, "(%s %s", s->kind == ST_USE ? "use" : "hold", s->u.use.resource.name);
      if (s->u.use.index) {
        fputc('[', out);
        ast_dump_expr(s->u.use.index, out);
        fputc(']', out);
      }
      fputc(' ', out);
      if (s->kind == ST_USE)
        ast_dump_expr(s->u.use.duration, out);
      else
        ast_dump_stmt(s->u.use.body, out);
      fputc(')', out);
      break;
    case ST_CALL:
      fprintf(out, "(call %s", s->u.call.process.name);
      dump_exprs(&s->u.call.args, out);
      fputc(')', out);
      break;
    case ST_BLOCK:
      fputs("(block", out);
      dump_stmts(&s->u.block, out);
      fputc(')', out);
      break;
    case ST_PARALLEL:
      fputs("(parallel", out);
      dump_stmts(&s->u.block, out);
      fputc(')', out);
      break;
    case ST_SEQ:
      dump_loop("seq", s, out);
      break;
    case ST_PAR:
      dump_loop("par", s, out);
      break;
    case ST_REPEAT:
      fputs("(repeat ", out);
      ast_dump_expr(s->u.repeat.count, out);
      fputc(' ', out);
      ast_dump_stmt(s->u.repeat.body, out);
      fputc(')', out);
      break;
    case ST_IF:
      dump_branch("if", s, out);
      break;
    case ST_CHOOSE:
      dump_branch("choose", s, out);
      break;
  }
}

static void dump_idents(const IdentList *list, FILE *out) {
  fputc('(', out);
  for (int i = 0; i < list->count; i++) fprintf(out, "%s%s", i ? " " : "", list->items[i].name);
  fputc(')', out);
}

void ast_dump_decl(const Decl *d, FILE *out) {
  switch (d->kind) {
    case DECL_IMPORT:
      fprintf(out, "(import \"%s\")", d->name.name);
      break;
    case DECL_PARAM:
      fprintf(out, "(param %s", d->name.name);
      if (d->u.param.value) {
        fputc(' ', out);
        ast_dump_expr(d->u.param.value, out);
      }
      if (d->u.param.min) {
        fputs(" (in ", out);
        ast_dump_expr(d->u.param.min, out);
        fputc(' ', out);
        ast_dump_expr(d->u.param.max, out);
        fputc(')', out);
      }
      fputc(')', out);
      break;
    case DECL_CONST:
      fprintf(out, "(const %s", d->name.name);
      if (d->u.constant.value) {
        fputc(' ', out);
        ast_dump_expr(d->u.constant.value, out);
      }
      fputc(')', out);
      break;
    case DECL_FN:
      fprintf(out, "(fn %s ", d->name.name);
      dump_idents(&d->u.fn.params, out);
      fputc(' ', out);
      ast_dump_expr(d->u.fn.body, out);
      fputc(')', out);
      break;
    case DECL_RESOURCE:
      fprintf(out, "(resource %s", d->name.name);
      if (d->u.resource.count) {
        fputs(" [", out);
        ast_dump_expr(d->u.resource.count, out);
        fputc(']', out);
      }
      if (d->u.resource.servers) {
        fputs(d->u.resource.discipline == DISC_PS ? " (ps " : " (fcfs ", out);
        ast_dump_expr(d->u.resource.servers, out);
        fputc(')', out);
      }
      if (d->u.resource.handoff) {
        fputs(" (handoff ", out);
        ast_dump_expr(d->u.resource.handoff, out);
        fputc(')', out);
      }
      fputc(')', out);
      break;
    case DECL_PROCESS:
      fprintf(out, "(process %s ", d->name.name);
      dump_idents(&d->u.process.params, out);
      fputc(' ', out);
      ast_dump_stmt(d->u.process.body, out);
      fputc(')', out);
      break;
  }
}

void ast_dump_module(const Module *module, FILE *out) {
  for (int i = 0; i < module->count; i++) {
    SrcLoc where;
    if (ast_depth_check(module->decls[i], &where) != 0) {   /* the walk below recurses */
      fprintf(out, "(nested-too-deeply %s)\n", module->decls[i]->name.name);
      continue;
    }
    ast_dump_decl(module->decls[i], out);
    fputc('\n', out);
  }
}
