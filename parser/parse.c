/*
** parse.c — the front end's entry points (parse.h): runs the scanner and the grammar over a
** file or a string, and owns the one way the parser reports an error.
*/
#include "parse.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast_build.h"
#include "ast_depth.h"
#include "parse_internal.h"
#include "grammar.h"
#include "lexer.h"

void parse_error(ParseCtx *ctx, SrcLoc loc, const char *format, ...) {
  if (ctx->stopped) return;   /* past the cap: the parse is winding down */
  char message[512];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  diag_report(ctx->diags, DIAG_ERROR, loc, "%s", message);
  if (diag_full(ctx->diags)) ctx->stopped = 1;
}

/* Sets up ctx and a scanner over a copy of text. Returns 0 when the scanner cannot start. */
static int open_scanner(ParseCtx *ctx, Arena *arena, DiagList *diags, const char *name,
                        const char *text, size_t length) {
  memset(ctx, 0, sizeof *ctx);
  ctx->arena = arena;
  ctx->diags = diags;
  ctx->file = arena_strdup(arena, name);
  ctx->line = 1;
  ctx->col = 1;
  if (pamyylex_init_extra(ctx, &ctx->scanner) != 0) return 0;
  diag_add_source(diags, name, text, length);   /* messages show their line */
  pamyy_scan_bytes(text, (int)length, ctx->scanner);
  return 1;
}

Module *parse_string(Arena *arena, DiagList *diags, const char *name, const char *text, size_t length) {
  ParseCtx ctx;
  if (length > (size_t)INT32_MAX || !open_scanner(&ctx, arena, diags, name, text, length)) {
    diag_report(diags, DIAG_ERROR, (SrcLoc){0}, "cannot parse '%s': input too large", name);
    return NULL;
  }
  yyparse(&ctx);
  pamyylex_destroy(ctx.scanner);
  Module *module = arena_alloc(arena, sizeof *module);
  module->path = ctx.file;
  module->count = ctx.decls.count;
  module->decls = arena_alloc(arena, (size_t)ctx.decls.count * sizeof *module->decls);
  for (int i = 0; i < ctx.decls.count; i++) {
    module->decls[i] = ctx.decls.items[i];
    SrcLoc where;
    int deep = ast_depth_check(module->decls[i], &where);
    if (deep > 0)
      diag_report(diags, DIAG_ERROR, where, "statements and expressions nest too deeply (more than %d levels)",
                  AST_MAX_DEPTH);
    else if (deep < 0)
      diag_report(diags, DIAG_ERROR, where, "out of memory measuring the nesting of this declaration");
  }
  return module;
}

char *parse_read_file(DiagList *diags, const char *path, size_t *length) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    diag_report(diags, DIAG_ERROR, (SrcLoc){0}, "cannot read '%s': %s", path, strerror(errno));
    return NULL;
  }
  size_t capacity = 4096, used = 0;
  char *text = malloc(capacity);
  while (text) {
    used += fread(text + used, 1, capacity - used, file);
    if (used < capacity) break;
    char *bigger = realloc(text, capacity * 2);
    if (!bigger) free(text);
    text = bigger;
    capacity *= 2;
  }
  int failed = !text || ferror(file);
  int reason = !text ? ENOMEM : errno ? errno : EIO;
  fclose(file);
  if (failed) {
    free(text);
    diag_report(diags, DIAG_ERROR, (SrcLoc){0}, "cannot read '%s': %s", path, strerror(reason));
    return NULL;
  }
  *length = used;
  return text;
}

Module *parse_file(Arena *arena, DiagList *diags, const char *path) {
  size_t length = 0;
  char *text = parse_read_file(diags, path, &length);
  if (!text) return NULL;
  Module *module = parse_string(arena, diags, path, text, length);
  free(text);
  return module;
}

int parse_tokenize(Arena *arena, DiagList *diags, const char *name, const char *text,
                   size_t length, ParseToken **tokens) {
  ParseCtx ctx;
  *tokens = NULL;
  if (length > (size_t)INT32_MAX || !open_scanner(&ctx, arena, diags, name, text, length)) return -1;
  PtrVec found = {0};
  for (;;) {
    YYSTYPE value;
    YYLTYPE loc;
    memset(&value, 0, sizeof value);
    int kind = lexer_next(&value, &loc, ctx.scanner);
    ParseToken *token = arena_alloc(arena, sizeof *token);
    char spelled[64];
    const char *spelling = parse_token_spelling(kind, spelled, sizeof spelled);
    if (spelling[0] == '\'') /* the message form quotes punctuation and keywords; drop it */
      token->spelling = arena_strndup(arena, spelling + 1, strlen(spelling) - 2);
    else
      token->spelling = arena_strdup(arena, spelling);
    token->text = arena_strdup(arena, ctx.token_text);
    token->loc = loc;
    if (kind == NUMBER) token->number = value.expr;
    if (kind == NAME || kind == STRING) token->value = value.text;
    ast_vec_push(arena, &found, token);
    if (kind == YYEOF) break;
  }
  pamyylex_destroy(ctx.scanner);
  *tokens = arena_alloc(arena, (size_t)found.count * sizeof **tokens);
  for (int i = 0; i < found.count; i++) (*tokens)[i] = *(ParseToken *)found.items[i];
  return found.count;
}
