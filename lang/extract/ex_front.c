/*
** ex_front.c — the C front end of `pamc extract`: libclang parses each file (flags from the
** command line or compile_commands.json), prints clang's own diagnostics, and answers what the
** walker asks of the source: children, operator spellings, lines, `#pragma pamc` directives.
*/
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <clang-c/CXCompilationDatabase.h>

#include "ex_internal.h"

/* Most clang arguments taken from one compile command. */
#define EX_MAX_ARGS 512

void *ex_grow(void *items, int *cap, int count, size_t size) {
  if (count < *cap) return items;
  int next = *cap ? *cap * 2 : 8;
  void *grown = realloc(items, (size_t)next * size);
  if (!grown) abort();   /* nothing sensible to return to, as arena_alloc */
  *cap = next;
  return grown;
}

/* ---- children and tokens ---- */

typedef struct ChildList {
  CXCursor *items;        /* malloc'd */
  int count, cap;
} ChildList;

static enum CXChildVisitResult collect_child(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  ChildList *list = data;
  list->items = ex_grow(list->items, &list->cap, list->count, sizeof *list->items);
  list->items[list->count++] = c;
  return CXChildVisit_Continue;
}

CXCursor *ex_children(CXCursor c, int *n) {
  ChildList list = {NULL, 0, 0};
  clang_visitChildren(c, collect_child, &list);
  *n = list.count;
  return list.items;
}

unsigned ex_offset_start(CXCursor c) {
  unsigned offset = 0;
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL, NULL, &offset);
  return offset;
}

unsigned ex_offset_end(CXCursor c) {
  unsigned offset = 0;
  clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(c)), NULL, NULL, NULL, &offset);
  return offset;
}

unsigned ex_line(CXCursor c) {
  unsigned line = 0;
  clang_getExpansionLocation(clang_getCursorLocation(c), NULL, &line, NULL, NULL);
  return line;
}

CXSourceRange ex_range(CXCursor c) {
  /* where c is written in the file: a part that comes from a macro is the macro's name */
  CXSourceRange r = clang_getCursorExtent(c);
  CXFile f1 = NULL, f2 = NULL;
  unsigned o1 = 0, o2 = 0;
  clang_getExpansionLocation(clang_getRangeStart(r), &f1, NULL, NULL, &o1);
  clang_getExpansionLocation(clang_getRangeEnd(r), &f2, NULL, NULL, &o2);
  if (!f1 || !clang_File_isEqual(f1, f2) || o2 < o1) return r;
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  size_t size = 0;
  const char *text = clang_getFileContents(tu, f1, &size);
  /* an end inside a macro's expansion is the start of the macro's name: take the whole name */
  if (text && o2 < size && !clang_equalLocations(clang_getRangeEnd(r), clang_getLocationForOffset(tu, f2, o2)))
    while (o2 < size && (text[o2] == '_' || (text[o2] >= 'a' && text[o2] <= 'z') ||
                         (text[o2] >= 'A' && text[o2] <= 'Z') || (text[o2] >= '0' && text[o2] <= '9')))
      o2++;
  return clang_getRange(clang_getLocationForOffset(tu, f1, o1), clang_getLocationForOffset(tu, f2, o2));
}

static int is_operator_text(const char *s) {
  return s[0] && strchr("+-*/%<>=!&|^~,", s[0]) != NULL;
}

/* The operator of a binary operator is the first punctuation token at or after the end of its
** first operand; of a unary one, its first token when that is punctuation (prefix), else its
** last (postfix). libclang 14 has no call that names the operator. */
void ex_operator(CXCursor c, char *buf, size_t size, int *postfix) {
  buf[0] = '\0';
  if (postfix) *postfix = 0;
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *tokens = NULL;
  unsigned ntokens = 0;
  clang_tokenize(tu, ex_range(c), &tokens, &ntokens);
  if (!ntokens) return;
  enum CXCursorKind kind = clang_getCursorKind(c);
  int found = -1;
  if (kind == CXCursor_UnaryOperator) {
    CXString first = clang_getTokenSpelling(tu, tokens[0]);
    if (clang_getTokenKind(tokens[0]) == CXToken_Punctuation && is_operator_text(clang_getCString(first)))
      found = 0;
    else if (clang_getTokenKind(tokens[ntokens - 1]) == CXToken_Punctuation) {
      found = (int)ntokens - 1;
      if (postfix) *postfix = 1;
    }
    clang_disposeString(first);
  } else {
    int n = 0;
    CXCursor *kids = ex_children(c, &n);
    unsigned lhs_end = n > 0 ? ex_offset_end(kids[0]) : 0;
    free(kids);
    int depth = 0;
    for (unsigned i = 0; i < ntokens && found < 0; i++) {
      unsigned offset = 0;
      clang_getExpansionLocation(clang_getTokenLocation(tu, tokens[i]), NULL, NULL, NULL, &offset);
      if (clang_getTokenKind(tokens[i]) != CXToken_Punctuation) continue;
      CXString s = clang_getTokenSpelling(tu, tokens[i]);
      const char *t = clang_getCString(s);
      if (!strcmp(t, "(") || !strcmp(t, "[")) depth++;
      else if (!strcmp(t, ")") || !strcmp(t, "]")) depth--;
      else if (offset >= lhs_end && depth == 0 && is_operator_text(t)) found = (int)i;
      clang_disposeString(s);
    }
  }
  if (found >= 0) {
    CXString s = clang_getTokenSpelling(tu, tokens[found]);
    snprintf(buf, size, "%s", clang_getCString(s));
    clang_disposeString(s);
  }
  clang_disposeTokens(tu, tokens, ntokens);
}

const char *ex_tokens_text(ExCtx *x, CXCursor c, size_t limit) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *tokens = NULL;
  unsigned ntokens = 0;
  clang_tokenize(tu, ex_range(c), &tokens, &ntokens);
  char *text = arena_alloc(&x->arena, limit + 1);
  size_t used = 0;
  for (unsigned i = 0; i < ntokens; i++) {
    CXString s = clang_getTokenSpelling(tu, tokens[i]);
    int n = snprintf(text + used, limit + 1 - used, "%s%s", used ? " " : "", clang_getCString(s));
    clang_disposeString(s);
    if (n < 0 || used + (size_t)n >= limit) break;
    used += (size_t)n;
  }
  clang_disposeTokens(tu, tokens, ntokens);
  return text;
}

/* The identifier written where c starts in the file (a macro's name where c is its expansion). */
const char *ex_spelled_name(ExCtx *x, CXCursor c) {
  CXFile file;
  unsigned offset = 0;
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), &file, NULL, NULL, &offset);
  size_t size = 0;
  const char *text = file ? clang_getFileContents(clang_Cursor_getTranslationUnit(c), file, &size) : NULL;
  if (!text || offset >= size) return "";
  size_t end = offset;
  while (end < size && (text[end] == '_' || (text[end] >= 'a' && text[end] <= 'z') ||
                        (text[end] >= 'A' && text[end] <= 'Z') || (text[end] >= '0' && text[end] <= '9')))
    end++;
  return arena_strndup(&x->arena, text + offset, end - offset);
}

/* ---- places and messages ---- */

static const char *file_name(ExCtx *x, CXFile file) {
  CXString s = clang_getFileName(file);
  const char *name = arena_strdup(&x->arena, clang_getCString(s) ? clang_getCString(s) : "<unknown>");
  clang_disposeString(s);
  return name;
}

const char *ex_where(ExCtx *x, CXCursor c) {
  CXFile file;
  unsigned line = 0;
  clang_getExpansionLocation(clang_getCursorLocation(c), &file, &line, NULL, NULL);
  const char *name = file ? file_name(x, file) : "<unknown>";
  const char *base = strrchr(name, '/');
  char buf[512];
  snprintf(buf, sizeof buf, "%s:%u", base ? base + 1 : name, line);
  return arena_strdup(&x->arena, buf);
}

/* The text of line `line` of file (no newline), in the arena; "" when unavailable. */
static const char *line_text(ExCtx *x, CXTranslationUnit tu, CXFile file, unsigned line) {
  size_t size = 0;
  const char *text = file ? clang_getFileContents(tu, file, &size) : NULL;
  if (!text) return "";
  const char *p = text, *end = text + size;
  for (unsigned l = 1; l < line && p < end; p++)
    if (*p == '\n') l++;
  const char *q = p;
  while (q < end && *q != '\n') q++;
  return arena_strndup(&x->arena, p, (size_t)(q - p));
}

const char *ex_source_line(ExCtx *x, CXCursor c) {
  CXFile file;
  unsigned line = 0;
  clang_getExpansionLocation(clang_getCursorLocation(c), &file, &line, NULL, NULL);
  const char *text = line_text(x, clang_Cursor_getTranslationUnit(c), file, line);
  while (*text == ' ' || *text == '\t') text++;
  size_t n = strlen(text);
  while (n && (text[n - 1] == ' ' || text[n - 1] == '\t' || text[n - 1] == '\r')) n--;
  if (n > 90) n = 90;   /* a comment line, not the whole statement */
  return arena_strndup(&x->arena, text, n);
}

void ex_error(ExCtx *x, CXCursor c, const char *format, ...) {
  CXFile file;
  unsigned line = 0, col = 0;
  clang_getExpansionLocation(clang_getCursorLocation(c), &file, &line, &col, NULL);
  fprintf(x->err, "%s:%u:%u: error: ", file ? file_name(x, file) : "<unknown>", line, col);
  va_list ap;
  va_start(ap, format);
  vfprintf(x->err, format, ap);
  va_end(ap);
  fputc('\n', x->err);
  const char *text = line_text(x, clang_Cursor_getTranslationUnit(c), file, line);
  if (*text) {
    fprintf(x->err, "  %s\n  ", text);
    for (unsigned i = 1; i < col; i++) fputc(text[i - 1] == '\t' ? '\t' : ' ', x->err);
    fputs("^\n", x->err);
  }
  x->errors++;
}

/* ---- pragmas ---- */

/* Reads every `#pragma pamc KIND(EXPR)` of the main file of tu (clang's lexer: the tokens). */
static void collect_pragmas(ExCtx *x, CXTranslationUnit tu, const char *path) {
  CXFile file = clang_getFile(tu, path);
  size_t size = 0;
  if (!file || !clang_getFileContents(tu, file, &size)) return;
  CXSourceRange all = clang_getRange(clang_getLocationForOffset(tu, file, 0),
                                     clang_getLocationForOffset(tu, file, (unsigned)size));
  CXToken *tokens = NULL;
  unsigned n = 0;
  clang_tokenize(tu, all, &tokens, &n);
  char **spell = calloc(n ? n : 1, sizeof *spell);
  unsigned *lines = calloc(n ? n : 1, sizeof *lines), *cols = calloc(n ? n : 1, sizeof *cols);
  for (unsigned i = 0; i < n; i++) {
    CXString s = clang_getTokenSpelling(tu, tokens[i]);
    spell[i] = strdup(clang_getCString(s));
    clang_disposeString(s);
    clang_getSpellingLocation(clang_getTokenLocation(tu, tokens[i]), NULL, &lines[i], &cols[i], NULL);
  }
  for (unsigned i = 0; i + 3 < n; i++) {
    if (strcmp(spell[i], "#") || strcmp(spell[i + 1], "pragma")) continue;
    int omp = !strcmp(spell[i + 2], "omp");
    if (!omp && strcmp(spell[i + 2], "pamc")) continue;
    if (lines[i + 1] != lines[i] || lines[i + 2] != lines[i]) continue;
    x->pragmas = ex_grow(x->pragmas, &x->pragmas_cap, x->npragmas, sizeof *x->pragmas);
    ExPragma *p = &x->pragmas[x->npragmas++];
    *p = (ExPragma){arena_strdup(&x->arena, path), lines[i], cols[i], "", "", 0};
    unsigned j = i + 3;
    if (lines[j] != lines[i]) continue;
    char text[1024];
    size_t used = 0;
    text[0] = '\0';
    if (omp) {
      /* #pragma omp DIRECTIVE CLAUSES: the whole line, tokens joined by spaces */
      p->kind = "omp";
      for (; j < n && lines[j] == lines[i]; j++) {
        int k = snprintf(text + used, sizeof text - used, "%s%s", used ? " " : "", spell[j]);
        if (k > 0 && used + (size_t)k < sizeof text) used += (size_t)k;
      }
      p->text = arena_strdup(&x->arena, text);
      continue;
    }
    p->kind = arena_strdup(&x->arena, spell[j]);
    int depth = 0;
    for (j++; j < n && lines[j] == lines[i]; j++) {
      if (!strcmp(spell[j], "(") && depth++ == 0) continue;
      if (!strcmp(spell[j], ")") && --depth == 0) break;
      int k = snprintf(text + used, sizeof text - used, "%s%s", used ? " " : "", spell[j]);
      if (k > 0 && used + (size_t)k < sizeof text) used += (size_t)k;
    }
    p->text = arena_strdup(&x->arena, text);
  }
  for (unsigned i = 0; i < n; i++) free(spell[i]);
  free(spell);
  free(lines);
  free(cols);
  clang_disposeTokens(tu, tokens, n);
}

ExPragma *ex_pragma_for(ExCtx *x, CXCursor c, const char *kind) {
  CXFile file;
  unsigned line = 0;
  clang_getExpansionLocation(clang_getCursorLocation(c), &file, &line, NULL, NULL);
  if (!file) return NULL;
  const char *path = file_name(x, file);
  ExPragma *best = NULL;
  for (int i = 0; i < x->npragmas; i++) {
    ExPragma *p = &x->pragmas[i];
    if (p->used || strcmp(p->kind, kind) || p->line >= line || p->line + 2 < line) continue;
    if (strcmp(p->file, path)) continue;
    if (!best || p->line > best->line) best = p;
  }
  if (best) best->used = 1;
  return best;
}

/* ---- macros ---- */

static enum CXChildVisitResult find_macro(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  ExCtx *x = data;
  if (clang_getCursorKind(c) != CXCursor_MacroDefinition || clang_Cursor_isMacroFunctionLike(c) ||
      !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
    return CXChildVisit_Continue;
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *tokens = NULL;
  unsigned n = 0;
  clang_tokenize(tu, clang_getCursorExtent(c), &tokens, &n);
  char body[512];
  size_t used = 0;
  body[0] = '\0';
  for (unsigned i = 1; i < n; i++) {
    CXString s = clang_getTokenSpelling(tu, tokens[i]);
    char tok[128];
    snprintf(tok, sizeof tok, "%s", clang_getCString(s));
    clang_disposeString(s);
    if (clang_getTokenKind(tokens[i]) == CXToken_Literal && tok[0] >= '0' && tok[0] <= '9') {
      size_t k = strlen(tok);   /* 4000UL -> 4000 */
      while (k > 1 && strchr("uUlL", tok[k - 1])) tok[--k] = '\0';
    }
    int k = snprintf(body + used, sizeof body - used, "%s%s", used ? " " : "", tok);
    if (k > 0 && used + (size_t)k < sizeof body) used += (size_t)k;
  }
  clang_disposeTokens(tu, tokens, n);
  if (n >= 2) {
    CXString s = clang_getCursorSpelling(c);
    x->macros = ex_grow(x->macros, &x->macros_cap, x->nmacros, sizeof *x->macros);
    x->macros[x->nmacros++] = (ExMacro){arena_strdup(&x->arena, clang_getCString(s)), arena_strdup(&x->arena, body)};
    clang_disposeString(s);
  }
  return CXChildVisit_Continue;
}

const char *ex_macro(ExCtx *x, const char *name) {
  for (int i = x->nmacros - 1; i >= 0; i--)
    if (!strcmp(x->macros[i].name, name)) return x->macros[i].body;
  return NULL;
}

/* ---- translation units ---- */

/* The arguments of the compile command of path in the compilation database, without the
** compiler, the source file, -c and -o FILE; *n of them, malloc'd strings. */
static char **db_args(ExCtx *x, const char *path, int *n) {
  *n = 0;
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", x->opts->compile_db);
  size_t len = strlen(dir);
  const char *json = "compile_commands.json";
  if (len >= strlen(json) && !strcmp(dir + len - strlen(json), json)) {
    dir[len - strlen(json)] = '\0';
    if (!dir[0]) snprintf(dir, sizeof dir, ".");
  }
  CXCompilationDatabase_Error dberr;
  CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(dir, &dberr);
  if (dberr != CXCompilationDatabase_NoError) return NULL;
  char real[4096];
  if (!realpath(path, real)) snprintf(real, sizeof real, "%s", path);
  CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(db, real);
  char **args = NULL;
  if (clang_CompileCommands_getSize(cmds) > 0) {
    CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, 0);
    unsigned count = clang_CompileCommand_getNumArgs(cmd);
    args = calloc(count + 1, sizeof *args);
    for (unsigned i = 1; i < count && *n < EX_MAX_ARGS; i++) {
      CXString s = clang_CompileCommand_getArg(cmd, i);
      const char *a = clang_getCString(s);
      int skip_next = !strcmp(a, "-o");
      int skip = skip_next || !strcmp(a, "-c") || strstr(a, ".c") == a + strlen(a) - 2;
      if (!skip) args[(*n)++] = strdup(a);
      clang_disposeString(s);
      if (skip_next) i++;
    }
  }
  clang_CompileCommands_dispose(cmds);
  clang_CompilationDatabase_dispose(db);
  return args;
}

/* clang's diagnostics for tu, printed as clang prints them; 1 when one is an error. */
static int print_diagnostics(ExCtx *x, CXTranslationUnit tu) {
  int bad = 0;
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
    if (sev >= CXDiagnostic_Warning) {
      CXString s = clang_formatDiagnostic(d, clang_defaultDiagnosticDisplayOptions());
      fprintf(x->err, "%s\n", clang_getCString(s));
      clang_disposeString(s);
    }
    if (sev >= CXDiagnostic_Error) bad = 1;
    clang_disposeDiagnostic(d);
  }
  return bad;
}

int ex_front_open(ExCtx *x) {
  const ExOptions *o = x->opts;
  x->index = clang_createIndex(0, 0);
  x->tus = calloc((size_t)o->file_count, sizeof *x->tus);
  int status = 0;
  for (int i = 0; i < o->file_count && status != 3; i++) {
    FILE *probe = fopen(o->files[i], "rb");
    if (!probe) {
      fprintf(x->err, "pamc extract: error: cannot read '%s'\n", o->files[i]);
      status = 3;
      break;
    }
    fclose(probe);
    int ndb = 0;
    char **dbargs = o->compile_db ? db_args(x, o->files[i], &ndb) : NULL;
    if (o->compile_db && !dbargs) {
      fprintf(x->err, "pamc extract: error: no compile command for '%s' in '%s'\n", o->files[i],
              o->compile_db);
      status = 3;
      break;
    }
    /* Without -fopenmp: libclang 14 does not show the statements under an OpenMP directive
    ** (captured statements have no children), so the directives are read as tokens, like ours,
    ** and the loops stay plain loops (_OPENMP is not defined: omp.h wants -fopenmp for it).
    ** Unknown pragmas (ours, omp) are quiet. A compile command's -fopenmp is left out for this. */
    const char *args[EX_MAX_ARGS + 64];
    int nargs = 0;
    args[nargs++] = "-Wno-unknown-pragmas";
    for (int k = 0; k < ndb; k++)   /* -fopenmp (a build's flag) would hide the loops' bodies */
      if (strncmp(dbargs[k], "-fopenmp", 8)) args[nargs++] = dbargs[k];
    for (int k = 0; k < o->clang_arg_count && nargs < EX_MAX_ARGS + 60; k++) args[nargs++] = o->clang_args[k];
    CXTranslationUnit tu = NULL;
    enum CXErrorCode code = clang_parseTranslationUnit2(x->index, o->files[i], args, nargs, NULL, 0,
                                                        CXTranslationUnit_DetailedPreprocessingRecord, &tu);
    for (int k = 0; k < ndb; k++) free(dbargs[k]);
    free(dbargs);
    if (code != CXError_Success || !tu) {
      fprintf(x->err, "pamc extract: error: clang could not parse '%s'\n", o->files[i]);
      status = 1;
      continue;
    }
    x->tus[x->ntus++] = tu;
    if (print_diagnostics(x, tu)) status = 1;
    collect_pragmas(x, tu, o->files[i]);
    clang_visitChildren(clang_getTranslationUnitCursor(tu), find_macro, x);
  }
  return status;
}

void ex_front_close(ExCtx *x) {
  for (int i = 0; i < x->ntus; i++) clang_disposeTranslationUnit(x->tus[i]);
  free(x->tus);
  if (x->index) clang_disposeIndex(x->index);
}
