/*
** grammar.y — the grammar of pamc models (LANGUAGE.md §3-§5): declarations, statements and
** expressions with their precedence, building the tree of ast.h. A pure bison parser; syntax
** errors are reported through the ParseCtx's DiagList and recovered from at the declaration and
** statement level, so one run reports several.
*/
%code requires {
#include "ast.h"
#include "parse_internal.h"
}

%code provides {
/* The scanner (lexer.l), one token per call. */
int lexer_next(YYSTYPE *value, YYLTYPE *location, void *scanner);
}

%code {
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "ast_build.h"
#include "parse.h"
#include "suggest.h"

#define A (ctx->arena)

/* Locations: a rule spans from its first to its last symbol; an empty rule sits at the end of
** what precedes it. */
#define YYLLOC_DEFAULT(Current, Rhs, N)                                   \
  do {                                                                    \
    if (N) {                                                              \
      (Current).file = YYRHSLOC(Rhs, 1).file;                             \
      (Current).line = YYRHSLOC(Rhs, 1).line;                             \
      (Current).col = YYRHSLOC(Rhs, 1).col;                               \
      (Current).end_line = YYRHSLOC(Rhs, N).end_line;                     \
      (Current).end_col = YYRHSLOC(Rhs, N).end_col;                       \
    } else {                                                              \
      (Current).file = YYRHSLOC(Rhs, 0).file;                             \
      (Current).line = (Current).end_line = YYRHSLOC(Rhs, 0).end_line;    \
      (Current).col = (Current).end_col = YYRHSLOC(Rhs, 0).end_col;       \
    }                                                                     \
  } while (0)

static int yylex(YYSTYPE *value, YYLTYPE *location, ParseCtx *ctx);
static void yyerror(YYLTYPE *location, ParseCtx *ctx, const char *message);
static Stmt *parallel_of(ParseCtx *ctx, SrcLoc loc, PtrVec *branches);
static Stmt *loop_of(ParseCtx *ctx, StmtKind kind, SrcLoc loc, Ident var, Expr *lo, Expr *hi,
                     Stmt *body);
static Stmt *branch_of(ParseCtx *ctx, StmtKind kind, SrcLoc loc, Expr *cond, Stmt *then,
                       Stmt *otherwise);
static Stmt *hold_of(ParseCtx *ctx, SrcLoc loc, Ident resource, Expr *index, Stmt *body);
static void expect_word(ParseCtx *ctx, SrcLoc loc, const char *found, const char *wanted,
                        const char *where);
}

%define api.pure full
%define api.location.type {SrcLoc}
%define parse.error custom
%define parse.lac full
%locations
%parse-param {ParseCtx *ctx}
%lex-param {ParseCtx *ctx}
%expect 0

%initial-action {
  @$.file = ctx->file;
  @$.line = @$.end_line = 1;
  @$.col = @$.end_col = 1;
}

%union {
  const char *text;     /* NAME, STRING: arena copy */
  Expr *expr;           /* expressions; NUMBER comes from the scanner as an EX_NUM */
  Stmt *stmt;           /* statements; NULL for one that failed to parse */
  Decl *decl;           /* declarations; NULL for one that failed to parse */
  PtrVec vec;           /* lists under construction */
  struct {
    Discipline discipline; /* fcfs or ps */
    Expr *amount;       /* multiplicity or capacity; NULL when the declaration gives none */
  } serving;            /* the `= fcfs(m)` / `= ps(c)` part of a resource declaration */
}

/* Tokens with their spelling, so messages read "expected ';'". Their order is the order in
** which an "expected ..." message lists them: closers first. */
%token SEMI ";" RBRACE "}" RPAREN ")" RBRACKET "]" COMMA "," ASSIGN "=" DOTDOT ".." COLON ":"
%token LBRACE "{" LPAREN "(" LBRACKET "[" PARALLEL "||" QUESTION "?"
%token OR "or" AND "and" NOT "not"
%token EQ "==" NE "!=" LT "<" LE "<=" GT ">" GE ">="
%token PLUS "+" MINUS "-" STAR "*" SLASH "/" PERCENT "%" CARET "^"
%token IMPORT "import" PARAM "param" CONST "const" FN "fn" RESOURCE "resource" PROCESS "process"
%token IN "in" FCFS "fcfs"
%token DELAY "delay" USE "use" SEQ "seq" PAR "par" REPEAT "repeat" IF "if" ELSE "else"
%token CHOOSE "choose" SKIP "skip" HOLD "hold"
%token <text> NAME "name"
%token <expr> NUMBER "number"
%token <text> STRING "string"

%type <decl> decl import_decl param_decl const_decl fn_decl resource_decl process_decl
%type <expr> expr primary param_default resource_count resource_handoff typ_value
%type <serving> resource_servers
%type <stmt> stmt block block_item chain
%type <vec> block_items chain_branches formals names process_formals args exprs

/* An `else` belongs to the nearest `if` / `choose`. */
%precedence IF_WITHOUT_ELSE
%precedence "else"
/* Expressions, loosest first (LANGUAGE.md §5). */
%right "?" ":"
%left "or"
%left "and"
%precedence "not"
%nonassoc "==" "!=" "<" "<=" ">" ">="
%left "+" "-"
%left "*" "/" "%"
%precedence UNARY_MINUS
%right "^"

%%

/* ---------------------------------------------------------------- declarations */

/* module: decl* — each declaration is kept in ctx->decls as soon as it is complete. */
module
  : %empty
  | module decl                 { if ($2) ast_vec_push(A, &ctx->decls, $2); }
  ;

/* decl: one of the declarations of §3. On a syntax error, tokens are skipped up to the next
** declaration keyword. */
decl
  : import_decl
  | param_decl
  | const_decl
  | fn_decl
  | resource_decl
  | process_decl
  | error                       { $$ = NULL; }
  ;

/* import "path"; */
import_decl
  : "import" STRING ";"         { $$ = ast_decl(A, DECL_IMPORT, @$, ast_ident($2, @2)); }
  ;

/* param NAME [= expr] [in expr .. expr]; */
param_decl
  : "param" NAME param_default ";"
      { $$ = ast_decl(A, DECL_PARAM, @$, ast_ident($2, @2));
        $$->u.param.value = $3; }
  | "param" NAME param_default "in" expr ".." expr ";"
      { $$ = ast_decl(A, DECL_PARAM, @$, ast_ident($2, @2));
        $$->u.param.value = $3; $$->u.param.min = $5; $$->u.param.max = $7; }
  ;

param_default
  : %empty                      { $$ = NULL; }
  | "=" expr                    { $$ = $2; }
  ;

/* const NAME [= expr]; */
const_decl
  : "const" NAME ";"            { $$ = ast_decl(A, DECL_CONST, @$, ast_ident($2, @2)); }
  | "const" NAME "=" expr ";"
      { $$ = ast_decl(A, DECL_CONST, @$, ast_ident($2, @2));
        $$->u.constant.value = $4; }
  ;

/* fn NAME ( [NAME {, NAME}] ) = expr; */
fn_decl
  : "fn" NAME "(" formals ")" "=" expr ";"
      { $$ = ast_decl(A, DECL_FN, @$, ast_ident($2, @2));
        $$->u.fn.params = ast_ident_list(A, &$4); $$->u.fn.body = $7; }
  ;

/* resource NAME [ [expr] ] [= fcfs(expr) | = ps(expr)] [handoff(expr)];
** `ps` and `handoff` are not reserved words: they are names with a meaning in this place only. */
resource_decl
  : "resource" NAME resource_count resource_servers resource_handoff ";"
      { $$ = ast_decl(A, DECL_RESOURCE, @$, ast_ident($2, @2));
        $$->u.resource.count = $3; $$->u.resource.servers = $4.amount;
        $$->u.resource.discipline = $4.discipline; $$->u.resource.handoff = $5; }
  ;

resource_count
  : %empty                      { $$ = NULL; }
  | "[" expr "]"                { $$ = $2; }
  ;

resource_servers
  : %empty                      { $$.discipline = DISC_FCFS; $$.amount = NULL; }
  | "=" "fcfs" "(" expr ")"     { $$.discipline = DISC_FCFS; $$.amount = $4; }
  | "=" NAME "(" expr ")"
      { expect_word(ctx, @2, $2, "ps", "'fcfs' or 'ps'");
        $$.discipline = DISC_PS; $$.amount = $4; }
  ;

resource_handoff
  : %empty                      { $$ = NULL; }
  | NAME "(" expr ")"           { expect_word(ctx, @1, $1, "handoff", "'handoff', '=' or ';'"); $$ = $3; }
  ;

/* process NAME [( formals )] = chain;   or   process NAME [( formals )] block */
process_decl
  : "process" NAME process_formals "=" chain ";"
      { $$ = ast_decl(A, DECL_PROCESS, @$, ast_ident($2, @2));
        $$->u.process.params = ast_ident_list(A, &$3); $$->u.process.body = $5; }
  | "process" NAME process_formals block
      { $$ = ast_decl(A, DECL_PROCESS, @$, ast_ident($2, @2));
        $$->u.process.params = ast_ident_list(A, &$3); $$->u.process.body = $4; }
  ;

process_formals
  : %empty                      { $$ = (PtrVec){0}; }
  | "(" formals ")"             { $$ = $2; }
  ;

/* formals: [NAME {, NAME}] */
formals
  : %empty                      { $$ = (PtrVec){0}; }
  | names
  ;

names
  : NAME                        { $$ = (PtrVec){0}; ast_vec_push(A, &$$, ast_ident_new(A, $1, @1)); }
  | names "," NAME              { $$ = $1; ast_vec_push(A, &$$, ast_ident_new(A, $3, @3)); }
  ;

/* ---------------------------------------------------------------- statements */

/* block: { [block_item {; block_item} [;]] } — sequential composition. */
block
  : "{" "}"                     { $$ = ast_stmt(A, ST_BLOCK, @$); }
  | "{" block_items "}"         { $$ = ast_stmt(A, ST_BLOCK, @$); $$->u.block = ast_stmt_list(A, &$2); }
  | "{" block_items ";" "}"     { $$ = ast_stmt(A, ST_BLOCK, @$); $$->u.block = ast_stmt_list(A, &$2); }
  ;

/* On a syntax error in an item, tokens are skipped up to the next ';' or '}': `error` as an
** item starts the skipping, `block_items error` goes on with it while keeping the items before. */
block_items
  : block_item                  { $$ = (PtrVec){0}; if ($1) ast_vec_push(A, &$$, $1); }
  | block_items ";" block_item  { $$ = $1; if ($3) ast_vec_push(A, &$$, $3); }
  | block_items error           { $$ = $1; }
  ;

/* block_item: a || chain */
block_item
  : chain
  | error                       { $$ = NULL; }
  ;

/* chain: stmt {|| stmt} — parallel composition; a single statement stands for itself. */
chain
  : chain_branches              { $$ = parallel_of(ctx, @$, &$1); }
  ;

chain_branches
  : stmt                        { $$ = (PtrVec){0}; ast_vec_push(A, &$$, $1); }
  | chain_branches "||" stmt    { $$ = $1; ast_vec_push(A, &$$, $3); }
  ;

/* stmt: one statement without a top-level ||; the bodies of seq, par, repeat, if, else and
** choose are stmts, so `seq (i = 1, N) a || b` is `(seq ...) || b`. */
stmt
  : "skip"                      { $$ = ast_stmt(A, ST_SKIP, @$); }
  | "delay" "(" expr ")"        { $$ = ast_stmt(A, ST_DELAY, @$); $$->u.delay.duration = $3; }
  | "use" "(" NAME "," expr ")"
      { $$ = ast_stmt(A, ST_USE, @$);
        $$->u.use.resource = ast_ident($3, @3); $$->u.use.duration = $5; }
  | "use" "(" NAME "[" expr "]" "," expr ")"
      { $$ = ast_stmt(A, ST_USE, @$);
        $$->u.use.resource = ast_ident($3, @3); $$->u.use.index = $5; $$->u.use.duration = $8; }
  | NAME
      { $$ = ast_stmt(A, ST_CALL, @$); $$->u.call.process = ast_ident($1, @1); }
  | NAME "(" args ")"
      { $$ = ast_stmt(A, ST_CALL, @$);
        $$->u.call.process = ast_ident($1, @1); $$->u.call.args = ast_expr_list(A, &$3); }
  | block
  | "seq" "(" NAME "=" expr "," expr ")" stmt
      { $$ = loop_of(ctx, ST_SEQ, @$, ast_ident($3, @3), $5, $7, $9); }
  | "par" "(" NAME "=" expr "," expr ")" stmt
      { $$ = loop_of(ctx, ST_PAR, @$, ast_ident($3, @3), $5, $7, $9); }
  | "repeat" "(" expr ")" stmt
      { $$ = ast_stmt(A, ST_REPEAT, @$); $$->u.repeat.count = $3; $$->u.repeat.body = $5; }
  | "if" "(" expr ")" stmt %prec IF_WITHOUT_ELSE
      { $$ = branch_of(ctx, ST_IF, @$, $3, $5, NULL); }
  | "if" "(" expr ")" stmt "else" stmt
      { $$ = branch_of(ctx, ST_IF, @$, $3, $5, $7); }
  | "choose" "(" expr ")" stmt %prec IF_WITHOUT_ELSE
      { $$ = branch_of(ctx, ST_CHOOSE, @$, $3, $5, NULL); }
  | "choose" "(" expr ")" stmt "else" stmt
      { $$ = branch_of(ctx, ST_CHOOSE, @$, $3, $5, $7); }
  | "hold" "(" NAME ")" stmt    { $$ = hold_of(ctx, @$, ast_ident($3, @3), NULL, $5); }
  | "hold" "(" NAME "[" expr "]" ")" stmt
      { $$ = hold_of(ctx, @$, ast_ident($3, @3), $5, $8); }
  ;

/* ---------------------------------------------------------------- expressions */

/* expr: operators of §5 with the precedence declared above: ?: loosest, then or, and, not,
** comparisons (non-associative), + -, * / %, unary -, and ^ (right associative) tightest, so
** -x^2 is -(x^2). */
expr
  : expr "?" expr ":" expr      { $$ = ast_cond(A, @$, $1, $3, $5); }
  | expr "or" expr              { $$ = ast_binary(A, @$, OP_OR, $1, $3); }
  | expr "and" expr             { $$ = ast_binary(A, @$, OP_AND, $1, $3); }
  | "not" expr                  { $$ = ast_unary(A, @$, OP_NOT, $2); }
  | expr "==" expr              { $$ = ast_binary(A, @$, OP_EQ, $1, $3); }
  | expr "!=" expr              { $$ = ast_binary(A, @$, OP_NE, $1, $3); }
  | expr "<" expr               { $$ = ast_binary(A, @$, OP_LT, $1, $3); }
  | expr "<=" expr              { $$ = ast_binary(A, @$, OP_LE, $1, $3); }
  | expr ">" expr               { $$ = ast_binary(A, @$, OP_GT, $1, $3); }
  | expr ">=" expr              { $$ = ast_binary(A, @$, OP_GE, $1, $3); }
  | expr "+" expr               { $$ = ast_binary(A, @$, OP_ADD, $1, $3); }
  | expr "-" expr               { $$ = ast_binary(A, @$, OP_SUB, $1, $3); }
  | expr "*" expr               { $$ = ast_binary(A, @$, OP_MUL, $1, $3); }
  | expr "/" expr               { $$ = ast_binary(A, @$, OP_DIV, $1, $3); }
  | expr "%" expr               { $$ = ast_binary(A, @$, OP_MOD, $1, $3); }
  | "-" expr %prec UNARY_MINUS  { $$ = ast_unary(A, @$, OP_NEG, $2); }
  | expr "^" expr               { $$ = ast_binary(A, @$, OP_POW, $1, $3); }
  | primary
  ;

/* primary: number, name, call, binder NAME(i = a, b, e), (expr), interval [a, b]. */
primary
  : NUMBER
  | NAME                        { $$ = ast_name(A, ast_ident($1, @1)); }
  | NAME "(" args ")"           { $$ = ast_call(A, @$, ast_ident($1, @1), ast_expr_list(A, &$3)); }
  | NAME "(" NAME "=" expr "," expr "," expr ")"
      { $$ = ast_bind(A, @$, ast_ident($1, @1), ast_ident($3, @3), $5, $7, $9); }
  | "(" expr ")"                { $$ = $2; }
  | "[" expr "," expr "]"       { $$ = ast_interval(A, @$, $2, $4); }
  | "[" expr "," expr "]" NAME typ_value
      { expect_word(ctx, @6, $6, "typ", "'typ' or an operator");
        $$ = ast_interval(A, @$, $2, $4); $$->u.interval.typ = $7; }
  ;

/* typ_value: the typical value after `typ`: a primary, or a negated one (`typ -1`). */
typ_value
  : primary
  | "-" primary                 { $$ = ast_unary(A, @$, OP_NEG, $2); }
  ;

/* args: [expr {, expr}] */
args
  : %empty                      { $$ = (PtrVec){0}; }
  | exprs
  ;

exprs
  : expr                        { $$ = (PtrVec){0}; ast_vec_push(A, &$$, $1); }
  | exprs "," expr              { $$ = $1; ast_vec_push(A, &$$, $3); }
  ;

%%

/* The parser's view of the scanner: end of input once the error cap is reached. */
static int yylex(YYSTYPE *value, YYLTYPE *location, ParseCtx *ctx) {
  if (ctx->stopped) {
    location->file = ctx->file;
    location->line = location->end_line = ctx->line;
    location->col = location->end_col = ctx->col;
    ctx->token_text[0] = '\0';
    return YYEOF;
  }
  return lexer_next(value, location, ctx->scanner);
}

/* Only called by bison for stack exhaustion (syntax errors go to yyreport_syntax_error). */
static void yyerror(YYLTYPE *location, ParseCtx *ctx, const char *message) {
  if (strcmp(message, "memory exhausted") == 0)
    parse_error(ctx, *location, "nesting too deep");
  else
    parse_error(ctx, *location, "%s", message);
}

/* A || chain of one statement is that statement; more make an ST_PARALLEL. */
static Stmt *parallel_of(ParseCtx *ctx, SrcLoc loc, PtrVec *branches) {
  if (branches->count == 1) return branches->items[0];
  Stmt *s = ast_stmt(A, ST_PARALLEL, loc);
  s->u.block = ast_stmt_list(A, branches);
  return s;
}

static Stmt *loop_of(ParseCtx *ctx, StmtKind kind, SrcLoc loc, Ident var, Expr *lo, Expr *hi,
                     Stmt *body) {
  Stmt *s = ast_stmt(A, kind, loc);
  s->u.loop.var = var;
  s->u.loop.lo = lo;
  s->u.loop.hi = hi;
  s->u.loop.body = body;
  return s;
}

static Stmt *branch_of(ParseCtx *ctx, StmtKind kind, SrcLoc loc, Expr *cond, Stmt *then,
                       Stmt *otherwise) {
  Stmt *s = ast_stmt(A, kind, loc);
  s->u.branch.cond = cond;
  s->u.branch.then = then;
  s->u.branch.otherwise = otherwise;
  return s;
}

static Stmt *hold_of(ParseCtx *ctx, SrcLoc loc, Ident resource, Expr *index, Stmt *body) {
  Stmt *s = ast_stmt(A, ST_HOLD, loc);
  s->u.use.resource = resource;
  s->u.use.index = index;
  s->u.use.body = body;
  return s;
}

/* A contextual word (`ps`, `handoff`, `typ`) is a NAME token: anything else in its place is a
** syntax error at that name, worded like the parser's own. */
static void expect_word(ParseCtx *ctx, SrcLoc loc, const char *found, const char *wanted,
                        const char *where) {
  if (strcmp(found, wanted) != 0)
    parse_error(ctx, loc, "expected %s before '%s'", where, found);
}

/* ---------------------------------------------------------------- syntax error messages */

/* How many alternatives an "expected ..." message lists before it gives up on listing. */
#define EXPECTED_MAX 3

/* Token classes shown unquoted, by what they are rather than how they are spelled. */
static int is_word_token(yysymbol_kind_t sym) {
  return sym == YYSYMBOL_NAME || sym == YYSYMBOL_NUMBER || sym == YYSYMBOL_STRING ||
         sym == YYSYMBOL_YYEOF;
}

static const char *symbol_spelling(yysymbol_kind_t sym, char *buf, size_t size) {
  if (sym == YYSYMBOL_YYEOF) return "end of input";
  const char *name = yysymbol_name(sym);
  size_t length = strlen(name);
  if (length >= 2 && name[0] == '"') {   /* "..." alias: strip bison's quotes */
    name++;
    length -= 2;
  }
  if (is_word_token(sym))
    snprintf(buf, size, "%.*s", (int)length, name);
  else
    snprintf(buf, size, "'%.*s'", (int)length, name);
  return buf;
}

const char *parse_token_spelling(int token, char *buf, size_t size) {
  if (token == YYEOF) return "end of input";
  return symbol_spelling(YYTRANSLATE(token), buf, size);
}

/* Tokens that start an expression, a statement, a declaration: when all of a group are
** expected, the message names the group. */
static const yysymbol_kind_t expression_starts[] = {
  YYSYMBOL_NUMBER, YYSYMBOL_NAME, YYSYMBOL_LPAREN, YYSYMBOL_LBRACKET, YYSYMBOL_MINUS, YYSYMBOL_NOT,
};
static const yysymbol_kind_t statement_starts[] = {
  YYSYMBOL_SKIP, YYSYMBOL_DELAY, YYSYMBOL_USE, YYSYMBOL_NAME, YYSYMBOL_LBRACE, YYSYMBOL_SEQ,
  YYSYMBOL_PAR, YYSYMBOL_REPEAT, YYSYMBOL_IF, YYSYMBOL_CHOOSE, YYSYMBOL_HOLD,
};
static const yysymbol_kind_t declaration_starts[] = {
  YYSYMBOL_IMPORT, YYSYMBOL_PARAM, YYSYMBOL_CONST, YYSYMBOL_FN, YYSYMBOL_RESOURCE,
  YYSYMBOL_PROCESS,
};
/* Tokens that would only continue what was already written (an operator, `||`, `else`, an
** argument list): left out of the message when something that ends it is also expected, so a
** missing ';' reads "expected ';'" rather than a list of every operator. */
static const yysymbol_kind_t continuations[] = {
  YYSYMBOL_PARALLEL, YYSYMBOL_QUESTION, YYSYMBOL_OR, YYSYMBOL_AND, YYSYMBOL_EQ, YYSYMBOL_NE,
  YYSYMBOL_LT, YYSYMBOL_LE, YYSYMBOL_GT, YYSYMBOL_GE, YYSYMBOL_PLUS, YYSYMBOL_MINUS,
  YYSYMBOL_STAR, YYSYMBOL_SLASH, YYSYMBOL_PERCENT, YYSYMBOL_CARET, YYSYMBOL_LPAREN,
  YYSYMBOL_LBRACKET, YYSYMBOL_ELSE, YYSYMBOL_IN,
};
#define COUNT_OF(array) ((int)(sizeof (array) / sizeof (array)[0]))

/* When every token of group is expected, removes them and returns 1. */
static int take_group(int expected[YYNTOKENS], const yysymbol_kind_t *group, int count) {
  for (int i = 0; i < count; i++)
    if (!expected[group[i]]) return 0;
  for (int i = 0; i < count; i++) expected[group[i]] = 0;
  return 1;
}

/* Appends one alternative to an "a, b or c" list of total items. */
static void append_alternative(char *out, size_t size, int index, int total, const char *text) {
  size_t used = strlen(out);
  const char *separator = index == 0 ? "" : index == total - 1 ? " or " : ", ";
  snprintf(out + used, size - used, "%s%s", separator, text);
}

/* Writes what the parser expected, "';' or '}'", into out; empty when there are too many. */
static void describe_expected(const yypcontext_t *pctx, char *out, size_t size) {
  yysymbol_kind_t list[YYNTOKENS];
  int count = yypcontext_expected_tokens(pctx, list, YYNTOKENS);
  int expected[YYNTOKENS] = {0};
  for (int i = 0; i < count; i++) expected[list[i]] = 1;

  const char *groups[3];
  int group_count = 0;
  if (take_group(expected, statement_starts, COUNT_OF(statement_starts))) groups[group_count++] = "statement";
  if (take_group(expected, expression_starts, COUNT_OF(expression_starts))) groups[group_count++] = "expression";
  if (take_group(expected, declaration_starts, COUNT_OF(declaration_starts))) groups[group_count++] = "declaration";

  int others = 0;
  for (int sym = 0; sym < YYNTOKENS; sym++) others += expected[sym];
  if (others > expected[YYSYMBOL_YYEOF] || group_count) {   /* end of input: only when alone */
    others -= expected[YYSYMBOL_YYEOF];
    expected[YYSYMBOL_YYEOF] = 0;
  }
  int enders = others;
  for (int i = 0; i < COUNT_OF(continuations); i++) enders -= expected[continuations[i]];
  if (enders > 0 || group_count) {
    for (int i = 0; i < COUNT_OF(continuations); i++) expected[continuations[i]] = 0;
    others = enders;
  }

  out[0] = '\0';
  /* after `resource r =`, the name that may stand there is `ps` (the only contextual word) */
  if (others == 2 && !group_count && expected[YYSYMBOL_FCFS] && expected[YYSYMBOL_NAME]) {
    snprintf(out, size, "'fcfs' or 'ps'");
    return;
  }
  int total = group_count + others;
  if (total == 0 || total > EXPECTED_MAX) return;
  int index = 0;
  for (int i = 0; i < group_count; i++) append_alternative(out, size, index++, total, groups[i]);
  for (int sym = 0; sym < YYNTOKENS; sym++) {   /* name, number, string before punctuation */
    if (!expected[sym] || !is_word_token(sym)) continue;
    char spelled[64];
    append_alternative(out, size, index++, total, symbol_spelling(sym, spelled, sizeof spelled));
  }
  for (int sym = 0; sym < YYNTOKENS; sym++) {
    if (!expected[sym] || is_word_token(sym)) continue;
    char spelled[64];
    append_alternative(out, size, index++, total, symbol_spelling(sym, spelled, sizeof spelled));
  }
}

int parse_keywords(const char **out, int max) {
  int count = 0;
  for (int sym = 0; sym < YYNTOKENS && count < max; sym++) {
    const char *name = yysymbol_name((yysymbol_kind_t)sym);
    if (is_word_token((yysymbol_kind_t)sym) || sym == YYSYMBOL_YYerror) continue;
    int letters = 0;
    while (islower((unsigned char)name[letters])) letters++;
    if (letters > 0 && name[letters] == '\0') out[count++] = name;   /* bison's static table */
  }
  return count;
}

/* "; did you mean 'par'?" when a name scanned on the error's line before it is a misspelt
** keyword (`pra (i = 1, N)`, `repet (N)`); "" otherwise. The keywords are the grammar's own. */
static void misspelt_keyword(const ParseCtx *ctx, SrcLoc at, char *out, size_t size) {
  const char *keywords[YYNTOKENS];
  int count = parse_keywords(keywords, YYNTOKENS);
  out[0] = '\0';
  int first = ctx->recent_count > PARSE_RECENT_NAMES ? ctx->recent_count - PARSE_RECENT_NAMES : 0;
  for (int i = first; i < ctx->recent_count; i++) {
    int slot = i % PARSE_RECENT_NAMES;
    SrcLoc loc = ctx->recent_locs[slot];
    if (loc.line != at.line || loc.col >= at.col) continue;
    const char *near = suggest_closest(ctx->recent_names[slot], keywords, count);
    if (near && !strcmp(near, ctx->token_text)) continue;   /* the keyword is there already */
    if (near && suggest_distance(near, ctx->recent_names[slot]) == 1) {   /* one slip only */
      snprintf(out, size, "; did you mean '%s' for '%s'?", near, ctx->recent_names[slot]);
      return;
    }
  }
}

/* 1 when sym is a keyword of the grammar (`in`, `seq`, `resource`: all lower-case letters). */
static int is_keyword(yysymbol_kind_t sym) {
  if (is_word_token(sym) || sym == YYSYMBOL_YYerror || sym == YYSYMBOL_YYUNDEF) return 0;
  const char *name = yysymbol_name(sym);
  int letters = 0;
  while (islower((unsigned char)name[letters])) letters++;
  return letters > 0 && name[letters] == '\0';
}

/* "expected ';' before 'process'", at the offending token; a keyword where only a name may
** stand (`resource in[P];`) is said to be one. */
static int yyreport_syntax_error(const yypcontext_t *pctx, ParseCtx *ctx) {
  if (ctx->stopped) return 0;
  char wanted[256];
  describe_expected(pctx, wanted, sizeof wanted);
  if (is_keyword(yypcontext_token(pctx)) && !strcmp(wanted, "name")) {
    parse_error(ctx, *yypcontext_location(pctx), "'%s' is a keyword of the language and cannot be a "
                "name (rename it, e.g. '%s_')", ctx->token_text, ctx->token_text);
    return 0;
  }
  char found[PARSE_TOKEN_TEXT_MAX + 8];
  if (yypcontext_token(pctx) == YYSYMBOL_YYEOF)
    snprintf(found, sizeof found, "end of input");
  else
    snprintf(found, sizeof found, "'%s'", ctx->token_text);
  char hint[128];
  misspelt_keyword(ctx, *yypcontext_location(pctx), hint, sizeof hint);
  if (wanted[0])
    parse_error(ctx, *yypcontext_location(pctx), "expected %s before %s%s", wanted, found, hint);
  else
    parse_error(ctx, *yypcontext_location(pctx), "unexpected %s%s", found, hint);
  return 0;
}
