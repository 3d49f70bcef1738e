/*
** ex_count.c — the operations a C expression performs, by operator and operand type, named as
** the machine file names them: t_add_int, t_mul_double, t_cmp_long, t_assign_char, ...; memory
** reads and writes of array elements and through pointers as bytes times t_read_LEVEL /
** t_write_LEVEL; conversions, libm calls; calls to functions with source as their cost.
**
** Address arithmetic: the integer +, -, * of an array index (`a[i * n + j]`) or of a pointer
** that is dereferenced (`*(p + i)`) are not counted: compilers fold them into the addressing
** mode or strength-reduce them to an increment per iteration. Memory reads inside an index
** (`a[idx[k]]`) are counted.
**
** Latency or throughput: inside a loop body an operation whose result the next iteration needs
** (`s += e`, `s = s + e` on a variable declared outside the loop) is a chain and is charged with
** the latency constant t_OP_TYPE; the others overlap across iterations and are charged with the
** throughput constant t_OP_TYPE_tp. Outside loops everything is charged with latency.
*/
#include <stdlib.h>
#include <string.h>

#include "ex_internal.h"

typedef enum Mode { READ, WRITE, RW, ADDR } Mode;

static int count(ExCtx *x, CXCursor e, Mode mode, ExCost *cost, AlgExpr *weight);

ExFunc *ex_func_find(ExCtx *x, const char *name) {
  for (int i = 0; i < x->nfuncs; i++)
    if (!strcmp(x->funcs[i].name, name)) return &x->funcs[i];
  return NULL;
}

static void add(ExCtx *x, ExCost *cost, const char *name, AlgExpr *weight, long times) {
  if (!name) return;
  ex_cost_add_term(x, cost, name, NULL, 0, alg_mul(x->alg, weight, alg_num_int(x->alg, times)));
}

/* The memory constants' level: with --memory-level auto every access is charged at L1 and the
** traffic from beyond it per loop nest (ex_memory.c). */
static const char *level(ExCtx *x) { return ex_auto_memory(x) ? "l1" : x->opts->memory_level; }

/* A memory access of the bytes of type t: the element base[index] (index a null cursor when the
** access is through a pointer). */
static void access(ExCtx *x, CXType t, Mode mode, ExCost *cost, AlgExpr *weight, CXCursor base,
                   CXCursor index) {
  if (mode == ADDR) return;
  long long bytes = clang_Type_getSizeOf(t);
  if (bytes <= 0 || clang_getCanonicalType(t).kind == CXType_ConstantArray) return;
  if (!clang_Cursor_isNull(base))
    ex_footprint_note(x, base, index, (long)bytes, mode == READ || mode == RW, mode == WRITE || mode == RW);
  char name[64];
  if (mode == READ || mode == RW) {
    snprintf(name, sizeof name, "t_read_%s", level(x));
    add(x, cost, ex_use_const(x, name), weight, (long)bytes);
  }
  if (mode == WRITE || mode == RW) {
    snprintf(name, sizeof name, "t_write_%s", level(x));
    add(x, cost, ex_use_const(x, name), weight, (long)bytes);
  }
}

static int is_floating(CXType t) {
  const char *n = ex_type_name(t);
  return n && (!strcmp(n, "float") || !strcmp(n, "double"));
}

/* The machine operation of a C operator: add for + and the bit operations (one ALU cycle),
** sub, mul, div for / and %, cmp for comparisons and !. */
static const char *op_kind(const char *op) {
  static const struct { const char *c, *kind; } table[] = {
    {"+", "add"}, {"-", "sub"}, {"*", "mul"}, {"/", "div"}, {"%", "div"}, {"&", "add"},
    {"|", "add"}, {"^", "add"}, {"<<", "add"}, {">>", "add"}, {"<", "cmp"}, {">", "cmp"},
    {"<=", "cmp"}, {">=", "cmp"}, {"==", "cmp"}, {"!=", "cmp"}, {NULL, NULL}};
  for (int i = 0; table[i].c; i++)
    if (!strcmp(table[i].c, op)) return table[i].kind;
  return NULL;
}

/* A scalar variable declared outside the innermost loop body (a chain when updated in it); a
** loop index is not one (its step is predicted and overlaps). */
static int carried(ExCtx *x, CXCursor target) {
  if (!x->in_loop) return 0;
  CXCursor d = ex_referenced_var(target);
  if (clang_Cursor_isNull(d)) return 0;
  ExVar *v = ex_var_find(x, d);
  if (v && v->index) return 0;
  unsigned off = ex_offset_start(d);
  return off < x->loop_start || off > x->loop_end;
}

/* Throughput inside loops, except chains and critical sections (one update after another). */
static int throughput(ExCtx *x, int chain) { return x->in_loop && !chain && !x->in_critical; }

/* ---- calls ---- */

/* libm functions with a constant of their own (stand-ins until calibrated: ex_print.c). */
static const char *libm_const(const char *name) {
  static const struct { const char *c, *t; } table[] = {
    {"sqrt", "t_sqrt_double"}, {"sqrtf", "t_sqrt_double"}, {"exp", "t_exp_double"},
    {"expf", "t_exp_double"}, {"log", "t_log_double"}, {"logf", "t_log_double"},
    {"sin", "t_sin_double"}, {"cos", "t_cos_double"}, {"pow", "t_pow_double"},
    {"fabs", "t_add_double"}, {"fabsf", "t_add_float"}, {"abs", "t_add_int"}, {"labs", "t_add_long"},
    {NULL, NULL}};
  for (int i = 0; table[i].c; i++)
    if (!strcmp(table[i].c, name)) return table[i].t;
  return NULL;
}

static void note_ignored(ExCtx *x, const char *name) {
  for (int i = 0; i < x->nignored; i++)
    if (!strcmp(x->ignored[i], name)) return;
  x->ignored = ex_grow(x->ignored, &x->ignored_cap, x->nignored, sizeof *x->ignored);
  x->ignored[x->nignored++] = arena_strdup(&x->arena, name);
}

static void push_pending(ExCtx *x, CXCursor call) {
  x->pending = ex_grow(x->pending, &x->pending_cap, x->npending, sizeof *x->pending);
  x->pending[x->npending++] = call;
}

/* memcpy/memmove/memset: bytes times the copy or write constant. */
static void count_mem_call(ExCtx *x, CXCursor call, const char *name, CXCursor *kids, int n,
                           ExCost *cost, AlgExpr *weight) {
  if (n < 4) return;
  AlgExpr *bytes = ex_value(x, kids[3]);
  if (!bytes) bytes = ex_unknown_param(x, call, "bytes", "1000", "bytes of a memory call not known from the source");
  char c[64];
  if (ex_auto_memory(x)) {   /* the machine file's rate of vector code at this many bytes */
    snprintf(c, sizeof c, "t_%s_vec", strcmp(name, "memset") ? "copy" : "write");
    AlgExpr *args[1] = {bytes};
    ex_cost_add_term(x, cost, ex_use_const(x, c), args, 1, alg_mul(x->alg, weight, bytes));
    return;
  }
  snprintf(c, sizeof c, "t_%s_%s", strcmp(name, "memset") ? "copy" : "write", x->opts->memory_level);
  ex_cost_add_term(x, cost, ex_use_const(x, c), NULL, 0, alg_mul(x->alg, weight, bytes));
}

static int count_call(ExCtx *x, CXCursor call, ExCost *cost, AlgExpr *weight) {
  CXString s = clang_getCursorSpelling(call);
  char name[256];
  snprintf(name, sizeof name, "%s", clang_getCString(s));
  clang_disposeString(s);
  int n = 0;
  CXCursor *kids = ex_children(call, &n);   /* kids[0] is the callee, then the arguments */
  int status = 0;
  for (int i = 1; i < n && !status; i++) status = count(x, kids[i], READ, cost, weight);
  ExFunc *f = name[0] ? ex_func_find(x, name) : NULL;
  const char *m = libm_const(name);
  if (status) {
  } else if (f) {
    if (f != x->func) f->called = 1;
    if (f->state == 0) status = ex_walk_function(x, f);
    else if (f->state == 1 && f == x->func && f->recursion_depth) {
      free(kids);   /* the activations are counted by the pragma (ex_walk_function) */
      return 0;
    } else if (f->state == 1) {
      ex_error(x, call, "recursion: %s calls %s, which is being extracted (a cycle); a model "
               "cannot recurse: give the number of activations of a directly recursive function "
               "with `#pragma pamc recursion_depth(E)` on the line before it",
               x->func->name, name);
      status = -1;
    }
    if (!status && f->pure && f->state == 2) {
      AlgExpr *args[64];
      int na = 0;
      for (int i = 1; i < n && na < 64; i++) {
        CXType t = clang_getCursorType(kids[i]);
        if (!ex_is_integer_type(t)) continue;
        AlgExpr *v = ex_value(x, kids[i]);
        if (!v) v = ex_unknown_param(x, kids[i], "arg", "100", "an argument not known from the source");
        args[na++] = v;
      }
      char fn[300];
      snprintf(fn, sizeof fn, "cost_%s", f->model_name);
      ex_cost_add_term(x, cost, arena_strdup(&x->arena, fn), args, na, weight);
    } else if (!status) {
      push_pending(x, call);
    }
  } else if (m) {   /* independent calls in a loop overlap (throughput), like operators */
    char tp[80];
    snprintf(tp, sizeof tp, "%s%s", m, throughput(x, 0) ? "_tp" : "");
    add(x, cost, ex_use_const(x, tp), weight, 1);
  } else if (!strcmp(name, "memcpy") || !strcmp(name, "memmove") || !strcmp(name, "memset")) {
    count_mem_call(x, call, name, kids, n, cost, weight);
  } else if (ex_is_mpi_name(name) || !strcmp(name, "pthread_create") || !strcmp(name, "pthread_join")) {
    push_pending(x, call);
  } else if (ex_par_value(x, name)) {
    /* omp_get_thread_num() and the like: a value, no time */
  } else if (name[0]) {
    note_ignored(x, name);
  }
  free(kids);
  return status;
}

/* ---- operators ---- */

static int count_binary(ExCtx *x, CXCursor e, ExCost *cost, AlgExpr *weight, CXCursor *kids, int n) {
  char op[8];
  ex_operator(e, op, sizeof op, NULL);
  if (n != 2) return 0;
  if (!strcmp(op, "=")) {
    CXCursor rhs = ex_strip(kids[1]);
    CXCursor saved = x->chain;
    if (carried(x, kids[0]) && clang_getCursorKind(rhs) == CXCursor_BinaryOperator) {
      int m = 0;
      CXCursor *rk = ex_children(rhs, &m);
      CXCursor target = ex_referenced_var(kids[0]);
      for (int i = 0; i < m; i++)
        if (clang_equalCursors(ex_referenced_var(rk[i]), target)) x->chain = rhs;
      free(rk);
    }
    int status = count(x, kids[1], READ, cost, weight);
    x->chain = saved;
    if (!status) status = count(x, kids[0], WRITE, cost, weight);
    add(x, cost, ex_op_const(x, "assign", clang_getCursorType(kids[0]), throughput(x, 0)), weight, 1);
    return status;
  }
  int status = count(x, kids[0], READ, cost, weight);
  if (!status) status = count(x, kids[1], READ, cost, weight);
  const char *kind = op_kind(op);
  if (!kind || status) return status;   /* && || , cost only their operands */
  CXType t = !strcmp(kind, "cmp") ? clang_getCursorType(kids[0]) : clang_getCursorType(e);
  if (x->in_address && strcmp(kind, "cmp") && strcmp(kind, "div") && !is_floating(t)) return 0;
  int chain = clang_equalCursors(e, x->chain);
  add(x, cost, ex_op_const(x, kind, t, throughput(x, chain)), weight, 1);
  return 0;
}

static int count_compound(ExCtx *x, CXCursor e, ExCost *cost, AlgExpr *weight, CXCursor *kids, int n) {
  char op[8];
  ex_operator(e, op, sizeof op, NULL);
  if (n != 2) return 0;
  op[strlen(op) > 0 ? strlen(op) - 1 : 0] = '\0';   /* "+=" -> "+" */
  int status = count(x, kids[1], READ, cost, weight);
  if (!status) status = count(x, kids[0], RW, cost, weight);
  CXType t = clang_getCursorType(kids[0]);
  const char *kind = op_kind(op);
  if (kind) add(x, cost, ex_op_const(x, kind, t, throughput(x, carried(x, kids[0]))), weight, 1);
  add(x, cost, ex_op_const(x, "assign", t, throughput(x, 0)), weight, 1);
  return status;
}

static int count_unary(ExCtx *x, CXCursor e, Mode mode, ExCost *cost, AlgExpr *weight, CXCursor *kids, int n) {
  char op[8];
  ex_operator(e, op, sizeof op, NULL);
  if (n != 1) return 0;
  CXType t = clang_getCursorType(e);
  if (!strcmp(op, "*")) {
    int saved = x->in_address;
    x->in_address = 1;
    int status = count(x, kids[0], READ, cost, weight);
    x->in_address = saved;
    access(x, t, mode, cost, weight, ex_strip(kids[0]), clang_getNullCursor());
    return status;
  }
  if (!strcmp(op, "&")) return count(x, kids[0], ADDR, cost, weight);
  if (!strcmp(op, "++") || !strcmp(op, "--")) {
    int status = count(x, kids[0], RW, cost, weight);
    int chain = carried(x, kids[0]);   /* a counter carried across iterations */
    add(x, cost, ex_op_const(x, op[0] == '+' ? "add" : "sub", t, throughput(x, chain)), weight, 1);
    add(x, cost, ex_op_const(x, "assign", t, throughput(x, 0)), weight, 1);
    return status;
  }
  int status = count(x, kids[0], READ, cost, weight);
  if (!strcmp(op, "-")) add(x, cost, ex_op_const(x, "sub", t, throughput(x, 0)), weight, 1);
  else if (!strcmp(op, "~")) add(x, cost, ex_op_const(x, "add", t, throughput(x, 0)), weight, 1);
  else if (!strcmp(op, "!")) add(x, cost, ex_op_const(x, "cmp", clang_getCursorType(kids[0]), throughput(x, 0)), weight, 1);
  return status;
}

/* An implicit or explicit conversion between integer and floating types. */
static void count_conversion(ExCtx *x, CXCursor e, CXCursor from, ExCost *cost, AlgExpr *weight) {
  CXType to_t = clang_getCursorType(e), from_t = clang_getCursorType(from);
  const char *to = ex_type_name(to_t), *fr = ex_type_name(from_t);
  if (!to || !fr || is_floating(to_t) == is_floating(from_t)) return;
  if (clang_getCanonicalType(from_t).kind == CXType_Pointer) return;
  enum CXCursorKind k = clang_getCursorKind(ex_strip(from));
  if (k == CXCursor_IntegerLiteral || k == CXCursor_FloatingLiteral || k == CXCursor_CharacterLiteral)
    return;   /* a constant: converted by the compiler */
  char name[64];
  snprintf(name, sizeof name, "t_cvt_%s_%s%s", fr, to, throughput(x, 0) ? "_tp" : "");
  add(x, cost, ex_use_const(x, name), weight, 1);
}

static int count(ExCtx *x, CXCursor e, Mode mode, ExCost *cost, AlgExpr *weight) {
  if (++x->depth > EX_MAX_DEPTH) {
    ex_error(x, e, "expression nested deeper than %d levels", EX_MAX_DEPTH);
    x->depth--;
    return -1;
  }
  enum CXCursorKind k = clang_getCursorKind(e);
  int n = 0, status = 0;
  CXCursor *kids = ex_children(e, &n);
  switch (k) {
  case CXCursor_UnexposedExpr: case CXCursor_CStyleCastExpr:
    if (n == 1) count_conversion(x, e, kids[0], cost, weight);
    for (int i = 0; i < n && !status; i++) status = count(x, kids[i], n == 1 ? mode : READ, cost, weight);
    break;
  case CXCursor_ParenExpr:
    for (int i = 0; i < n && !status; i++) status = count(x, kids[i], mode, cost, weight);
    break;
  case CXCursor_ArraySubscriptExpr: {
    if (n != 2) break;
    CXType bt = clang_getCanonicalType(clang_getCursorType(kids[0]));
    int base_array = bt.kind == CXType_ConstantArray || bt.kind == CXType_IncompleteArray ||
                     bt.kind == CXType_VariableArray;
    status = count(x, kids[0], base_array ? ADDR : READ, cost, weight);
    int saved = x->in_address;
    x->in_address = 1;
    if (!status) status = count(x, kids[1], READ, cost, weight);
    x->in_address = saved;
    access(x, clang_getCursorType(e), mode, cost, weight, kids[0], kids[1]);
    break;
  }
  case CXCursor_MemberRefExpr: {
    if (n < 1) break;
    CXType bt = clang_getCanonicalType(clang_getCursorType(kids[0]));
    if (bt.kind == CXType_Pointer) {
      status = count(x, kids[0], READ, cost, weight);
      access(x, clang_getCursorType(e), mode, cost, weight, clang_getNullCursor(), clang_getNullCursor());
    } else {
      CXCursor base = ex_strip(kids[0]);
      status = count(x, kids[0], ADDR, cost, weight);
      if (clang_getCursorKind(base) != CXCursor_DeclRefExpr)
        access(x, clang_getCursorType(e), mode, cost, weight, clang_getNullCursor(), clang_getNullCursor());
    }
    break;
  }
  case CXCursor_BinaryOperator: status = count_binary(x, e, cost, weight, kids, n); break;
  case CXCursor_CompoundAssignOperator: status = count_compound(x, e, cost, weight, kids, n); break;
  case CXCursor_UnaryOperator: status = count_unary(x, e, mode, cost, weight, kids, n); break;
  case CXCursor_ConditionalOperator: {
    /* c ? a : b: the condition, then each branch weighted 1/2 (a data-dependent choice;
    ** the statement-level `if` takes a probability instead) */
    if (n != 3) break;
    status = count(x, kids[0], READ, cost, weight);
    AlgExpr *half = alg_mul(x->alg, weight, alg_num_frac(x->alg, 1, 2));
    if (!status) status = count(x, kids[1], mode, cost, half);
    if (!status) status = count(x, kids[2], mode, cost, half);
    break;
  }
  case CXCursor_CallExpr: status = count_call(x, e, cost, weight); break;
  case CXCursor_UnaryExpr: case CXCursor_DeclRefExpr: case CXCursor_IntegerLiteral:
  case CXCursor_FloatingLiteral: case CXCursor_CharacterLiteral: case CXCursor_StringLiteral:
    break;
  default:
    for (int i = 0; i < n && !status; i++) status = count(x, kids[i], READ, cost, weight);
    break;
  }
  free(kids);
  x->depth--;
  return status;
}

int ex_count_expr(ExCtx *x, CXCursor e, ExCost *cost) {
  return count(x, e, READ, cost, alg_num_int(x->alg, 1));
}
