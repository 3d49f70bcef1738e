/*
** gen_print.c — the model language written back as source text (gen.h): expressions fully
** parenthesised where precedence could matter, statements one a line, with an optional factor
** on every duration (the copies of cost processes for slower workers).
*/
#include <stdint.h>

#include "ast_dump.h"
#include "units.h"
#include "gen.h"


/* A leaf needs no parentheses around it. */
static int is_leaf(const Expr *expr) {
  return expr->kind == EX_NUM || expr->kind == EX_NAME || expr->kind == EX_CALL ||
         expr->kind == EX_BIND || expr->kind == EX_INTERVAL;
}

static void print_operand(FILE *out, const Expr *expr) {
  if (is_leaf(expr)) {
    gen_print_expr(out, expr);
  } else {
    fputc('(', out);
    gen_print_expr(out, expr);
    fputc(')', out);
  }
}

static void print_args(FILE *out, const ExprList *args) {
  for (int i = 0; i < args->count; i++) {
    if (i) fputs(", ", out);
    gen_print_expr(out, args->items[i]);
  }
}

void gen_print_expr(FILE *out, const Expr *expr) {
  switch (expr->kind) {
    case EX_NUM:
      fprintf(out, "%s%s", expr->u.num.text, unit_name(expr->u.num.unit_num, expr->u.num.unit_den));
      break;
    case EX_INTERVAL:
      fputc('[', out);
      gen_print_expr(out, expr->u.interval.lo);
      fputs(", ", out);
      gen_print_expr(out, expr->u.interval.hi);
      fputc(']', out);
      if (expr->u.interval.typ) {
        fputs(" typ ", out);
        print_operand(out, expr->u.interval.typ);
      }
      break;
    case EX_NAME:
      fputs(expr->u.name.id.name, out);
      break;
    case EX_UNARY:
      fputs(expr->u.unary.op == OP_NOT ? "not " : "-", out);
      print_operand(out, expr->u.unary.a);
      break;
    case EX_BINARY:
      print_operand(out, expr->u.binary.a);
      fprintf(out, " %s ", ast_op_name(expr->u.binary.op));
      print_operand(out, expr->u.binary.b);
      break;
    case EX_COND:
      print_operand(out, expr->u.cond.cond);
      fputs(" ? ", out);
      print_operand(out, expr->u.cond.then);
      fputs(" : ", out);
      print_operand(out, expr->u.cond.otherwise);
      break;
    case EX_CALL:
      fprintf(out, "%s(", expr->u.call.fn.name);
      print_args(out, &expr->u.call.args);
      fputc(')', out);
      break;
    case EX_BIND:
      fprintf(out, "%s(%s = ", expr->u.bind.fn.name, expr->u.bind.var.name);
      gen_print_expr(out, expr->u.bind.lo);
      fputs(", ", out);
      gen_print_expr(out, expr->u.bind.hi);
      fputs(", ", out);
      gen_print_expr(out, expr->u.bind.body);
      fputc(')', out);
      break;
  }
}

/* A duration, times scale when there is one. */
static void print_duration(FILE *out, const Expr *duration, const char *scale) {
  if (scale) {
    fprintf(out, "%s * ", scale);
    print_operand(out, duration);
  } else {
    gen_print_expr(out, duration);
  }
}

static void print_indent(FILE *out, int indent) {
  fprintf(out, "%*s", 2 * indent, "");
}

/* A body of seq/par/repeat/if/choose: braces around a || chain, which would otherwise bind
** looser than the loop. */
static void print_body(FILE *out, const Stmt *stmt, const char *scale, int indent) {
  if (stmt->kind == ST_PARALLEL) {
    fputs("{\n", out);
    print_indent(out, indent + 1);
    gen_print_stmt(out, stmt, scale, indent + 1);
    fputc('\n', out);
    print_indent(out, indent);
    fputc('}', out);
  } else {
    gen_print_stmt(out, stmt, scale, indent);
  }
}

void gen_print_stmt(FILE *out, const Stmt *stmt, const char *scale, int indent) {
  switch (stmt->kind) {
    case ST_SKIP:
      fputs("skip", out);
      break;
    case ST_DELAY:
      fputs("delay(", out);
      print_duration(out, stmt->u.delay.duration, scale);
      fputc(')', out);
      break;
    case ST_USE:
      fputs("use(", out);
      fputs(stmt->u.use.resource.name, out);
      if (stmt->u.use.index) {
        fputc('[', out);
        gen_print_expr(out, stmt->u.use.index);
        fputc(']', out);
      }
      fputs(", ", out);
      print_duration(out, stmt->u.use.duration, scale);
      fputc(')', out);
      break;
    case ST_HOLD:
      fprintf(out, "hold (%s", stmt->u.use.resource.name);
      if (stmt->u.use.index) {
        fputc('[', out);
        gen_print_expr(out, stmt->u.use.index);
        fputc(']', out);
      }
      fputs(") ", out);
      print_body(out, stmt->u.use.body, scale, indent);
      break;
    case ST_CALL:
      fprintf(out, "%s(", stmt->u.call.process.name);
      print_args(out, &stmt->u.call.args);
      fputc(')', out);
      break;
    case ST_BLOCK:
      fputs("{\n", out);
      for (int i = 0; i < stmt->u.block.count; i++) {
        print_indent(out, indent + 1);
        gen_print_stmt(out, stmt->u.block.items[i], scale, indent + 1);
        fputs(i + 1 < stmt->u.block.count ? ";\n" : "\n", out);
      }
      print_indent(out, indent);
      fputc('}', out);
      break;
    case ST_PARALLEL:
      for (int i = 0; i < stmt->u.block.count; i++) {
        if (i) {
          fputs("\n", out);
          print_indent(out, indent);
          fputs("|| ", out);
        }
        const Stmt *branch = stmt->u.block.items[i];
        if (branch->kind == ST_PARALLEL) print_body(out, branch, scale, indent);
        else gen_print_stmt(out, branch, scale, indent);
      }
      break;
    case ST_SEQ:
    case ST_PAR:
      fprintf(out, "%s (%s = ", stmt->kind == ST_SEQ ? "seq" : "par", stmt->u.loop.var.name);
      gen_print_expr(out, stmt->u.loop.lo);
      fputs(", ", out);
      gen_print_expr(out, stmt->u.loop.hi);
      fputs(") ", out);
      print_body(out, stmt->u.loop.body, scale, indent);
      break;
    case ST_REPEAT:
      fputs("repeat (", out);
      gen_print_expr(out, stmt->u.repeat.count);
      fputs(") ", out);
      print_body(out, stmt->u.repeat.body, scale, indent);
      break;
    case ST_IF:
    case ST_CHOOSE:
      fprintf(out, "%s (", stmt->kind == ST_IF ? "if" : "choose");
      gen_print_expr(out, stmt->u.branch.cond);
      fputs(") ", out);
      /* braces keep a nested if from taking this one's else */
      fputs("{ ", out);
      print_body(out, stmt->u.branch.then, scale, indent);
      fputs(" }", out);
      if (stmt->u.branch.otherwise) {
        fputs(" else ", out);
        print_body(out, stmt->u.branch.otherwise, scale, indent);
      }
      break;
  }
}
