/*
** ast.h — the syntax tree of pamc models (LANGUAGE.md): declarations, statements and
** expressions, every node with its source location. Nodes live in the Arena of one compilation;
** nothing here is freed one by one.
*/
#ifndef PAMC_AST_H
#define PAMC_AST_H

#include <stdint.h>

/* A span of source text. Lines and columns are 1-based; columns count bytes. */
typedef struct SrcLoc {
  const char *file;     /* path as given (arena string), "<string>" for in-memory sources */
  int line, col;        /* first character */
  int end_line, end_col;/* last character (inclusive) */
} SrcLoc;

typedef struct Ident {
  const char *name;     /* interned in the arena */
  SrcLoc loc;           /* where the name is written */
} Ident;

typedef struct IdentList {
  Ident *items;         /* formal parameters of a process or fn, in order */
  int count;
} IdentList;

/* ------------------------------------------------------------------ expressions */

typedef enum ExprKind {
  EX_NUM,       /* a number literal, unit already applied */
  EX_INTERVAL,  /* [lo, hi] */
  EX_NAME,      /* a name: loop index, argument, param, const */
  EX_UNARY,     /* op a (OP_NEG, OP_NOT) */
  EX_BINARY,    /* a op b */
  EX_COND,      /* cond ? a : b */
  EX_CALL,      /* name(args): built-in (min, max, ceil, lo, ...) or fn */
  EX_BIND       /* name(var = lo, hi, body): sum, prod (and min, max over an index) */
} ExprKind;

typedef enum Op {
  OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_POW,
  OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
  OP_AND, OP_OR,
  OP_NEG, OP_NOT
} Op;

/* What a name stands for; filled by name resolution in lang/, NAME_UNRESOLVED before. */
typedef enum NameKind {
  NAME_UNRESOLVED,
  NAME_INDEX,   /* index of an enclosing seq/par/sum/prod; slot = nesting depth of the binder */
  NAME_ARG,     /* parameter of the enclosing process or fn; slot = position */
  NAME_PARAM,   /* a `param` declaration; decl set */
  NAME_CONST    /* a `const` declaration; decl set */
} NameKind;

struct Decl;
struct Expr;

typedef struct ExprList {
  struct Expr **items;  /* arguments in order */
  int count;
} ExprList;

typedef struct Expr {
  ExprKind kind;
  SrcLoc loc;           /* whole expression */
  union {
    struct {
      double value;     /* nearest double to the literal times its unit */
      const char *text; /* literal digits with '_' removed, no unit: "2.5", "1.5e-9" */
      int64_t unit_num; /* exact unit scale unit_num / unit_den: us -> 1/1000000, KiB -> 1024/1 */
      int64_t unit_den;
    } num;
    struct {
      struct Expr *lo, *hi;
      struct Expr *typ;    /* typical value (`[a, b] typ m`, LANGUAGE.md §8), NULL when absent */
    } interval;
    struct {
      Ident id;
      NameKind kind;       /* resolution result */
      struct Decl *decl;   /* NAME_PARAM / NAME_CONST: the declaration in force */
      int slot;            /* NAME_INDEX / NAME_ARG: see NameKind */
    } name;
    struct { Op op; struct Expr *a; } unary;
    struct { Op op; struct Expr *a, *b; } binary;
    struct { struct Expr *cond, *then, *otherwise; } cond;
    struct {
      Ident fn;            /* called name */
      ExprList args;
      struct Decl *decl;   /* the fn declaration, NULL for a built-in (filled by lang/) */
      int builtin;         /* built-in id from lang/, -1 for a user fn */
    } call;
    struct {
      Ident fn;            /* sum | prod | min | max */
      Ident var;           /* the bound index */
      struct Expr *lo, *hi, *body;
    } bind;
  } u;
} Expr;

/* ------------------------------------------------------------------ statements */

typedef enum StmtKind {
  ST_SKIP,      /* skip */
  ST_DELAY,     /* delay(e) */
  ST_USE,       /* use(r, e) / use(r[i], e) */
  ST_CALL,      /* NAME(args) / NAME: run a process */
  ST_BLOCK,     /* { s1; s2; ... } sequential */
  ST_PARALLEL,  /* s1 || s2 || ... */
  ST_SEQ,       /* seq (i = a, b) s */
  ST_PAR,       /* par (i = a, b) s */
  ST_REPEAT,    /* repeat (n) s */
  ST_IF,        /* if (c) s1 [else s2] */
  ST_CHOOSE,    /* choose (p) s1 [else s2] */
  ST_HOLD       /* hold (r) s / hold (r[i]) s: s runs holding one server of r (§8) */
} StmtKind;

struct Stmt;
typedef struct StmtList {
  struct Stmt **items;  /* statements of a block, or branches of ||, in order */
  int count;
} StmtList;

typedef struct Stmt {
  StmtKind kind;
  SrcLoc loc;
  union {
    struct { Expr *duration; } delay;
    struct {
      Ident resource;         /* the resource or family name */
      Expr *index;            /* member index for a family, NULL for a plain resource */
      Expr *duration;         /* ST_USE: the service time; NULL for ST_HOLD */
      struct Decl *decl;      /* the resource declaration (filled by lang/) */
      struct Stmt *body;      /* ST_HOLD: what runs while the server is held; NULL for ST_USE */
    } use;                    /* ST_USE and ST_HOLD (`use(r, t)` is `hold (r) delay(t)`) */
    struct {
      Ident process;
      ExprList args;          /* empty for `NAME` and `NAME()` */
      struct Decl *decl;      /* the process declaration (filled by lang/) */
    } call;
    StmtList block;           /* ST_BLOCK and ST_PARALLEL */
    struct {
      Ident var;              /* loop index */
      Expr *lo, *hi;          /* inclusive bounds */
      struct Stmt *body;
    } loop;                   /* ST_SEQ and ST_PAR */
    struct { Expr *count; struct Stmt *body; } repeat;
    struct { Expr *cond; struct Stmt *then, *otherwise; } branch; /* ST_IF, ST_CHOOSE; otherwise may be NULL */
  } u;
} Stmt;

/* ------------------------------------------------------------------ declarations */

typedef enum DeclKind {
  DECL_IMPORT,    /* import "path"; */
  DECL_PARAM,     /* param N [= e] [in a .. b]; */
  DECL_CONST,     /* const c [= e]; */
  DECL_FN,        /* fn f(x, y) = e; */
  DECL_RESOURCE,  /* resource r [ [count] ] [= fcfs(m) | = ps(c)] [handoff(h)]; */
  DECL_PROCESS    /* process p[(x, y)] = s;  or  process p[(x, y)] { ... } */
} DeclKind;

/* How a resource serves its requests (LANGUAGE.md §4, §8). */
typedef enum Discipline {
  DISC_FCFS,      /* fcfs(m): m servers, one FCFS queue (the default) */
  DISC_PS         /* ps(c): processor sharing, n requests present each run at min(1, c/n) */
} Discipline;

typedef struct Decl {
  DeclKind kind;
  SrcLoc loc;             /* the whole declaration */
  Ident name;             /* DECL_IMPORT: name.name is the path string, unquoted */
  int from_machine;       /* 1 when read from a machine file (-m): may override a const */
  union {
    struct {
      Expr *value;        /* default; NULL when none */
      Expr *min, *max;    /* admissible range `in min .. max`; NULL when absent */
    } param;
    struct { Expr *value; } constant;          /* NULL: declared without a value */
    struct { IdentList params; Expr *body; } fn;
    struct {
      Expr *count;        /* family size, NULL for a single resource */
      Expr *servers;      /* multiplicity m of fcfs(m), or capacity c of ps(c); NULL means 1 */
      Discipline discipline; /* fcfs (default) or ps */
      Expr *handoff;      /* handoff(h): time to pass a server to a waiter; NULL means 0 */
    } resource;
    struct { IdentList params; Stmt *body; } process;
  } u;
} Decl;

/* One parsed file. */
typedef struct Module {
  const char *path;       /* as opened */
  Decl **decls;           /* in source order, imports included */
  int count;
} Module;

#endif
