/*
** spec_grammar.y — the grammar of application specifications (GEN.md): task declarations,
** `path`, `size`, `workers` and links, with the model language's arithmetic for expressions.
** A pure bison parser with its own prefix (specyy) beside the model grammar; syntax errors go to
** the SpecCtx's DiagList and are recovered from at the next ';', so one run reports several.
*/
%code requires {
#include "ast.h"
#include "spec_internal.h"
}

%code provides {
/* The scanner (spec_lexer.l), one token per call. */
int spec_lexer_next(SPECYYSTYPE *value, SPECYYLTYPE *location, void *scanner);
}

%code {
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast_build.h"

#define A (ctx->base.arena)

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

static int specyylex(SPECYYSTYPE *value, SPECYYLTYPE *location, SpecCtx *ctx);
static void specyyerror(SPECYYLTYPE *location, SpecCtx *ctx, const char *message);
static SpecItem *item_of(SpecCtx *ctx, const char *name, SrcLoc loc, int is_file);
static void add_link(SpecCtx *ctx, SrcLoc loc, Ident task, Ident level, Expr *count,
                     PtrVec *flow);
}

%define api.prefix {specyy}
%define api.token.prefix {SPEC_}
%define api.pure full
%define api.location.type {SrcLoc}
%define parse.error custom
%define parse.lac full
%locations
%parse-param {SpecCtx *ctx}
%lex-param {SpecCtx *ctx}
%expect 0

%initial-action {
  @$.file = ctx->base.file;
  @$.line = @$.end_line = 1;
  @$.col = @$.end_col = 1;
}

%union {
  const char *text;     /* NAME, FILE, PATHTEXT: arena copy */
  Expr *expr;           /* expressions; NUMBER comes from the scanner as an EX_NUM */
  SpecItem *item;       /* one input or output of a link */
  PtrVec vec;           /* lists under construction */
}

/* Tokens with their spelling, so messages read "expected ';'"; closers first. */
%token SEMI ";" RPAREN ")" COMMA "," ASSIGN "=" LPAREN "("
%token FROM "<<" TO ">>"
%token PLUS "+" MINUS "-" STAR "*" SLASH "/" PERCENT "%" CARET "^"
%token PATH "path" SIZE "size" WORKERS "workers" FACTOR "factor"
%token <text> NAME "name"
%token <text> FILE "file name"
%token <text> PATHTEXT "path text"
%token <expr> NUMBER "number"

%type <expr> expr
%type <item> item
%type <vec> flow items args exprs

%left "+" "-"
%left "*" "/" "%"
%precedence UNARY_MINUS
%right "^"

%%

/* spec: line* */
spec
  : %empty
  | spec line
  ;

/* line: one declaration, size, worker group or link; on a syntax error, tokens are skipped up
** to the next ';'. */
line
  : task_decl
  | path_decl
  | size_decl
  | workers_decl
  | link
  | error ";"
  ;

/* NAME = NAME ; — a task bound to a cost process */
task_decl
  : NAME "=" NAME ";"
      { SpecTask *task = arena_alloc(A, sizeof *task);
        task->name = ast_ident($1, @1); task->process = ast_ident($3, @3);
        ast_vec_push(A, &ctx->tasks, task); }
  ;

/* path = TEXT ; */
path_decl
  : "path" "=" PATHTEXT ";"     { ctx->app_path = $3; }
  ;

/* size (NAME | FILE) = expr ; */
size_decl
  : "size" NAME "=" expr ";"
      { SpecSize *size = arena_alloc(A, sizeof *size);
        size->target = ast_ident($2, @2); size->bytes = $4;
        ast_vec_push(A, &ctx->sizes, size); }
  | "size" FILE "=" expr ";"
      { SpecSize *size = arena_alloc(A, sizeof *size);
        size->target = ast_ident($2, @2); size->is_file = 1; size->bytes = $4;
        ast_vec_push(A, &ctx->sizes, size); }
  ;

/* workers NAME ( expr ) factor expr ; */
workers_decl
  : "workers" NAME "(" expr ")" "factor" expr ";"
      { SpecWorkers *group = arena_alloc(A, sizeof *group);
        group->name = ast_ident($2, @2); group->count = $4; group->factor = $7;
        ast_vec_push(A, &ctx->workers, group); }
  ;

/* NAME = LEVEL ( expr ) flow ; */
link
  : NAME "=" NAME "(" expr ")" flow ";"
      { add_link(ctx, @$, ast_ident($1, @1), ast_ident($3, @3), $5, &$7); }
  ;

/* flow: { << items | >> items } — outputs are kept with is_file + 2 until add_link sorts them */
flow
  : %empty                      { $$ = (PtrVec){0}; }
  | flow "<<" items
      { $$ = $1; for (int i = 0; i < $3.count; i++) ast_vec_push(A, &$$, $3.items[i]); }
  | flow ">>" items
      { $$ = $1;
        for (int i = 0; i < $3.count; i++) {
          ((SpecItem *)$3.items[i])->is_file += 2;
          ast_vec_push(A, &$$, $3.items[i]);
        } }
  ;

items
  : item                        { $$ = (PtrVec){0}; ast_vec_push(A, &$$, $1); }
  | items "," item              { $$ = $1; ast_vec_push(A, &$$, $3); }
  ;

item
  : NAME                        { $$ = item_of(ctx, $1, @1, 0); }
  | FILE                        { $$ = item_of(ctx, $1, @1, 1); }
  ;

/* expr: the arithmetic of LANGUAGE.md §5 (no comparisons or logic: sizes and counts only) */
expr
  : NUMBER
  | NAME                        { $$ = ast_name(A, ast_ident($1, @1)); }
  | NAME "(" args ")"           { $$ = ast_call(A, @$, ast_ident($1, @1), ast_expr_list(A, &$3)); }
  | "(" expr ")"                { $$ = $2; }
  | "-" expr %prec UNARY_MINUS  { $$ = ast_unary(A, @$, OP_NEG, $2); }
  | expr "+" expr               { $$ = ast_binary(A, @$, OP_ADD, $1, $3); }
  | expr "-" expr               { $$ = ast_binary(A, @$, OP_SUB, $1, $3); }
  | expr "*" expr               { $$ = ast_binary(A, @$, OP_MUL, $1, $3); }
  | expr "/" expr               { $$ = ast_binary(A, @$, OP_DIV, $1, $3); }
  | expr "%" expr               { $$ = ast_binary(A, @$, OP_MOD, $1, $3); }
  | expr "^" expr               { $$ = ast_binary(A, @$, OP_POW, $1, $3); }
  ;

args
  : %empty                      { $$ = (PtrVec){0}; }
  | exprs
  ;

exprs
  : expr                        { $$ = (PtrVec){0}; ast_vec_push(A, &$$, $1); }
  | exprs "," expr              { $$ = $1; ast_vec_push(A, &$$, $3); }
  ;

%%

/* Feeds end of input once the error cap is reached. */
static int specyylex(SPECYYSTYPE *value, SPECYYLTYPE *location, SpecCtx *ctx) {
  if (ctx->base.stopped) {
    location->file = ctx->base.file;
    location->line = location->end_line = ctx->base.line;
    location->col = location->end_col = ctx->base.col;
    ctx->base.token_text[0] = '\0';
    return SPEC_YYEOF;
  }
  return spec_lexer_next(value, location, ctx->base.scanner);
}

/* Only called by bison for stack exhaustion (syntax errors go to yyreport_syntax_error). */
static void specyyerror(SPECYYLTYPE *location, SpecCtx *ctx, const char *message) {
  parse_error(&ctx->base, *location, "%s", message);
}

static SpecItem *item_of(SpecCtx *ctx, const char *name, SrcLoc loc, int is_file) {
  SpecItem *item = arena_alloc(A, sizeof *item);
  item->name = ast_ident(name, loc);
  item->is_file = is_file;
  return item;
}

/* Builds a SpecLink: splits the flow into inputs and outputs, reads the level's number. */
static void add_link(SpecCtx *ctx, SrcLoc loc, Ident task, Ident level, Expr *count,
                     PtrVec *flow) {
  SpecLink *link = arena_alloc(A, sizeof *link);
  link->task = task;
  link->level = level;
  link->count = count;
  link->loc = loc;
  const char *digits = level.name + 1;
  if (level.name[0] == 'L' && digits[0] >= '1' && digits[0] <= '9' &&
      strspn(digits, "0123456789") == strlen(digits) && strlen(digits) <= 6)
    link->level_number = atoi(digits);
  else
    parse_error(&ctx->base, level.loc, "level '%s' must be written L1, L2, ...", level.name);
  link->inputs = arena_alloc(A, (size_t)(flow->count + 1) * sizeof *link->inputs);
  link->outputs = arena_alloc(A, (size_t)(flow->count + 1) * sizeof *link->outputs);
  for (int i = 0; i < flow->count; i++) {
    SpecItem item = *(SpecItem *)flow->items[i];
    if (item.is_file >= 2) {
      item.is_file -= 2;
      link->outputs[link->output_count++] = item;
    } else {
      link->inputs[link->input_count++] = item;
    }
  }
  ast_vec_push(A, &ctx->links, link);
}

/* ---------------------------------------------------------------- syntax error messages */

/* How many alternatives an "expected ..." message lists before it gives up on listing. */
#define SPEC_EXPECTED_MAX 4

static int is_word_token(yysymbol_kind_t sym) {
  return sym == YYSYMBOL_NAME || sym == YYSYMBOL_NUMBER || sym == YYSYMBOL_FILE ||
         sym == YYSYMBOL_PATHTEXT || sym == YYSYMBOL_YYEOF;
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

const char *spec_token_spelling(int token, char *buf, size_t size) {
  if (token == SPEC_YYEOF) return "end of input";
  return symbol_spelling(YYTRANSLATE(token), buf, size);
}

/* Tokens that start an expression: when all are expected, the message says "expression". */
static const yysymbol_kind_t expression_starts[] = {
  YYSYMBOL_NUMBER, YYSYMBOL_NAME, YYSYMBOL_LPAREN, YYSYMBOL_MINUS,
};
/* Tokens that would only continue what was written: dropped when something that ends it is
** also expected, so a missing ';' reads "expected ';'". */
static const yysymbol_kind_t continuations[] = {
  YYSYMBOL_PLUS, YYSYMBOL_MINUS, YYSYMBOL_STAR, YYSYMBOL_SLASH, YYSYMBOL_PERCENT,
  YYSYMBOL_CARET, YYSYMBOL_LPAREN, YYSYMBOL_FROM, YYSYMBOL_TO, YYSYMBOL_COMMA,
};
#define COUNT_OF(array) ((int)(sizeof (array) / sizeof (array)[0]))

static void append_alternative(char *out, size_t size, int index, int total, const char *text) {
  size_t used = strlen(out);
  const char *separator = index == 0 ? "" : index == total - 1 ? " or " : ", ";
  snprintf(out + used, size - used, "%s%s", separator, text);
}

/* Writes what the parser expected, "';' or '<<'", into out; empty when there are too many. */
static void describe_expected(const yypcontext_t *pctx, char *out, size_t size) {
  yysymbol_kind_t list[YYNTOKENS];
  int count = yypcontext_expected_tokens(pctx, list, YYNTOKENS);
  int expected[YYNTOKENS] = {0};
  for (int i = 0; i < count; i++) expected[list[i]] = 1;
  int group = 1;
  for (int i = 0; i < COUNT_OF(expression_starts); i++) group &= expected[expression_starts[i]];
  if (group)
    for (int i = 0; i < COUNT_OF(expression_starts); i++) expected[expression_starts[i]] = 0;
  int others = 0, enders = 0;
  for (int sym = 0; sym < YYNTOKENS; sym++) others += expected[sym];
  enders = others;
  for (int i = 0; i < COUNT_OF(continuations); i++) enders -= expected[continuations[i]];
  if (enders > 0 || group) {
    for (int i = 0; i < COUNT_OF(continuations); i++) expected[continuations[i]] = 0;
    others = enders;
  }
  if (others > expected[YYSYMBOL_YYEOF] || group) {   /* end of input: only when alone */
    others -= expected[YYSYMBOL_YYEOF];
    expected[YYSYMBOL_YYEOF] = 0;
  }
  out[0] = '\0';
  int total = group + others;
  if (total == 0 || total > SPEC_EXPECTED_MAX) return;
  int index = 0;
  if (group) append_alternative(out, size, index++, total, "expression");
  for (int pass = 0; pass < 2; pass++)   /* name, number, file before punctuation */
    for (int sym = 0; sym < YYNTOKENS; sym++) {
      if (!expected[sym] || is_word_token(sym) != (pass == 0)) continue;
      char spelled[64];
      append_alternative(out, size, index++, total, symbol_spelling(sym, spelled, sizeof spelled));
    }
}

/* "expected ';' before 'T3'", at the offending token. */
static int yyreport_syntax_error(const yypcontext_t *pctx, SpecCtx *ctx) {
  if (ctx->base.stopped) return 0;
  char wanted[256];
  describe_expected(pctx, wanted, sizeof wanted);
  char found[PARSE_TOKEN_TEXT_MAX + 8];
  if (yypcontext_token(pctx) == YYSYMBOL_YYEOF)
    snprintf(found, sizeof found, "end of input");
  else
    snprintf(found, sizeof found, "'%s'", ctx->base.token_text);
  if (wanted[0])
    parse_error(&ctx->base, *yypcontext_location(pctx), "expected %s before %s", wanted, found);
  else
    parse_error(&ctx->base, *yypcontext_location(pctx), "unexpected %s", found);
  return 0;
}
